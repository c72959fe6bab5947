"""Command line: ``python -m freecell deal N`` and ``python -m freecell solve``.

    python -m freecell deal 617                # the layout of a deal
    python -m freecell solve 617 --budget 30   # solve a deal, at most 30 seconds
    python -m freecell solve --board FILE      # solve a board text (``-``: stdin)

``solve`` prints one JSON object, the solver's result: ``{"verdict": "solved" |
"unsolvable" | "unknown", "moves": [{"from": "3", "to": "h", "count": 1}, ...],
"nodes": ..., "seconds": ...}``.  Bad arguments print one line on stderr
(``freecell: ...``) and exit with status 2.  Arguments are parsed by hand, so
that every bad input gets exactly one line and that status.
"""

from __future__ import annotations

import json
import math
import re
import sys

from .deals import DealNumberError, parse_deal_number
from .position import BoardError, Position
from .solver import Solver

USAGE = (
    "usage: python -m freecell deal N | solve N [--budget SECONDS] | solve --board FILE [--budget SECONDS]"
    "   (N a deal number from 1 to 8,589,934,591)"
)
DEFAULT_BUDGET = 10.0
MAX_BUDGET = 3600.0
MAX_BOARD_BYTES = 40_004  # 10,000 characters (Position.from_text's limit) of up to 4 bytes each
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?", re.ASCII)


class UsageError(Exception):
    """A bad argument; the message is the one line printed."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    command, rest = args[0], args[1:]
    try:
        if command == "deal":
            return _deal(rest)
        if command == "solve":
            return _solve(rest)
    except UsageError as e:
        return _fail(str(e))
    return _fail(f"unknown command {command!r}; {USAGE}")


def _deal(rest: list[str]) -> int:
    if len(rest) != 1:
        raise UsageError("deal takes exactly one deal number")
    sys.stdout.write(Position.deal(_deal_number(rest[0])).to_text(header=False))
    return 0


def _solve(rest: list[str]) -> int:
    if any(a in ("-h", "--help") for a in rest):
        print(USAGE)
        return 0
    options: dict[str, str] = {}
    numbers: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if not arg.startswith("--"):
            numbers.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name not in ("--budget", "--board"):
            raise UsageError(f"unknown option {arg!r} for solve")
        if name in options:
            raise UsageError(f"{name} given twice")
        if not eq:
            if i == len(rest):
                raise UsageError(f"{name} needs a value")
            value = rest[i]
            i += 1
        options[name] = value
    budget = _budget(options.get("--budget"))
    if "--board" in options:
        if numbers:
            raise UsageError("give a deal number or --board FILE, not both")
        position = _read_board(options["--board"])
    elif len(numbers) == 1:
        position = Position.deal(_deal_number(numbers[0]))
    else:
        raise UsageError("solve takes one deal number or --board FILE")
    result = Solver(position).solve(seconds=budget)
    sys.stdout.write(json.dumps(result.to_json()) + "\n")
    return 0


def _deal_number(text: str) -> int:
    try:
        return parse_deal_number(text)
    except DealNumberError as e:
        raise UsageError(str(e)) from None


def _budget(text: str | None) -> float:
    if text is None:
        return DEFAULT_BUDGET
    t = text.strip()
    value = float(t) if _NUMBER.fullmatch(t) else math.nan
    if not (0 < value <= MAX_BUDGET):
        shown = t if len(t) <= 20 else t[:20] + "…"
        raise UsageError(f"bad budget {shown!r}: a number of seconds above 0 and at most {MAX_BUDGET:g}")
    return value


def _read_board(path: str) -> Position:
    name = "stdin" if path == "-" else repr(path)
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_BOARD_BYTES + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_BOARD_BYTES + 1)
    except OSError as e:
        raise UsageError(f"cannot read the board {name}: {e.strerror or e}") from None
    if len(data) > MAX_BOARD_BYTES:
        raise UsageError(f"the board {name} is too long (a board text is at most 10,000 characters)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"the board {name} is not UTF-8 text") from None
    try:
        return Position.from_text(text)
    except BoardError as e:
        raise UsageError(f"bad board {name}: {e}") from None


def _fail(message: str) -> int:
    print("freecell: " + " ".join(message.split()), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
