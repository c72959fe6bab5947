"""Command line: ``python -m freecell deal N`` and ``python -m freecell solve``.

    python -m freecell deal 617                # the layout of a deal
    python -m freecell deal 617 --variant eightoff
    python -m freecell solve 617 --budget 30   # solve a deal, at most 30 seconds
    python -m freecell solve 617 --variant bakers
    python -m freecell solve --board FILE      # solve a board text (``-``: stdin)
    python -m freecell solve 617 --best 3      # then 3 s more to make the solution shorter
    python -m freecell solve 617 --best 3 --cpu  # budgets in CPU seconds

``--variant ID`` picks a variant of :mod:`freecell.variants` (``freecell``,
``freecell3`` ... ``freecell0``, ``bakers``, ``eightoff``, ``seahaven``): its
rules, and its layout of deal N; without it, classic FreeCell.  ``deal``
prints one line per column; when the variant deals cards into free cells
(Eight Off, Seahaven Towers), a ``Freecells: ...`` line comes first, so the
output stays a board text that ``solve --board`` and fc-solve read.

``solve`` prints one JSON object, the solver's result: ``{"verdict": "solved" |
"unsolvable" | "unknown", "moves": [{"from": "3", "to": "h", "count": 1}, ...],
"nodes": ..., "seconds": ...}``.  With ``--best SECONDS`` the solver
then looks for a shorter solution (:mod:`freecell.improve`) for that long,
and prints the shortest found the same way, with ``"count": {"turns": ...,
"max_auto": ...}``: its length as the game's moves counter counts it, and in
player moves with maximum auto-play (:mod:`freecell.counts`).  With
``--cpu`` both budgets are CPU time of this process, so that a busy
machine gives the same answers (the search runs in slices until the budget
is spent).  Bad arguments print one line on stderr
(``freecell: ...``) and exit with status 2.  Arguments are parsed by hand, so
that every bad input gets exactly one line and that status.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time

from .counts import game_count, record_count
from .deals import DealNumberError, parse_deal_number
from .improve import improve_for
from .position import BoardError, Position
from .rules import FREECELL, Rules
from .solver import SOLVED, Result, Solver
from .variants import VARIANTS, Variant, variant

USAGE = (
    "usage: python -m freecell deal N [--variant ID] | solve N [--variant ID] [--budget SECONDS]"
    " | solve --board FILE [--variant ID] [--budget SECONDS]  (solve also: [--best SECONDS] [--cpu])"
    f"   (N a deal number from 1 to 8,589,934,591; ID one of {', '.join(VARIANTS)})"
)
DEFAULT_BUDGET = 10.0
CPU_SLICE = 500  # nodes between looks at the CPU clock (--cpu)
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
    options, numbers = _parse(rest, "deal", ("--variant",))
    if len(numbers) != 1:
        raise UsageError("deal takes exactly one deal number")
    n = _deal_number(numbers[0])
    text = ""
    if "--variant" in options:
        position = _variant(options["--variant"]).deal(n)
        if any(c is not None for c in position.cells):
            text = position.to_text().splitlines()[1] + "\n"  # the Freecells: line
    else:
        position = Position.deal(n)
    sys.stdout.write(text + position.to_text(header=False))
    return 0


def _solve(rest: list[str]) -> int:
    if any(a in ("-h", "--help") for a in rest):
        print(USAGE)
        return 0
    cpu = "--cpu" in rest
    rest = [a for a in rest if a != "--cpu"]
    options, numbers = _parse(rest, "solve", ("--budget", "--board", "--variant", "--best"))
    budget = _budget(options.get("--budget"))
    best = _budget(options["--best"]) if "--best" in options else None
    chosen = _variant(options["--variant"]) if "--variant" in options else None
    rules = FREECELL if chosen is None else chosen.rules
    if "--board" in options:
        if numbers:
            raise UsageError("give a deal number or --board FILE, not both")
        position = _read_board(options["--board"], rules)
    elif len(numbers) == 1:
        n = _deal_number(numbers[0])
        position = Position.deal(n) if chosen is None else chosen.deal(n)
    else:
        raise UsageError("solve takes one deal number or --board FILE")
    result = _first(Solver(position, rules), budget, cpu)
    out = result.to_json()
    if best is not None and result.verdict == SOLVED and result.moves:
        imp = improve_for(position, result.moves, rules, best, cpu)
        out["moves"] = [m.to_json() for m in imp.best]
        out["nodes"] = result.nodes + imp.nodes
        out["seconds"] = round(result.seconds + imp.seconds, 4)
        out["count"] = {"turns": imp.turns, "max_auto": imp.count}
    elif best is not None and result.verdict == SOLVED:  # nothing left to shorten with
        out["count"] = {"turns": game_count(position, result.moves, rules),
                        "max_auto": record_count(result.moves)}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


def _first(solver: Solver, budget: float, cpu: bool) -> Result:
    """The solver's result within ``budget`` seconds (of CPU time with ``cpu``: in slices)."""
    if not cpu:
        return solver.solve(seconds=budget)
    end = time.process_time() + budget
    while time.process_time() < end:
        r = solver.run(max_nodes=CPU_SLICE)
        if r is not None:
            return r
    return solver.solve(max_nodes=0)


def _parse(rest: list[str], command: str, names: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """Options (``--name value`` or ``--name=value``, each at most once) and the other arguments."""
    options: dict[str, str] = {}
    others: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if not arg.startswith("--"):
            others.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name not in names:
            raise UsageError(f"unknown option {arg!r} for {command}")
        if name in options:
            raise UsageError(f"{name} given twice")
        if not eq:
            if i == len(rest):
                raise UsageError(f"{name} needs a value")
            value = rest[i]
            i += 1
        options[name] = value
    return options, others


def _variant(text: str) -> Variant:
    try:
        return variant(text)
    except ValueError as e:
        raise UsageError(str(e)) from None


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


def _read_board(path: str, rules: Rules) -> Position:
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
        return Position.from_text(text, rules)
    except BoardError as e:
        raise UsageError(f"bad board {name}: {e}") from None


def _fail(message: str) -> int:
    print("freecell: " + " ".join(message.split()), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
