"""Command line: ``python -m freecell deal N``.

Bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import sys

from .deals import DealNumberError, parse_deal_number
from .position import Position

USAGE = "usage: python -m freecell deal N   (N a deal number from 1 to 8,589,934,591)"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    command, rest = args[0], args[1:]
    if command == "deal":
        if len(rest) != 1:
            return _fail("deal takes exactly one deal number")
        try:
            n = parse_deal_number(rest[0])
        except DealNumberError as e:
            return _fail(str(e))
        sys.stdout.write(Position.deal(n).to_text(header=False))
        return 0
    return _fail(f"unknown command {command!r}; {USAGE}")


def _fail(message: str) -> int:
    print(f"freecell: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
