"""The page's side of the solver worker's protocol: what it asks, and the replies, checked once.

The worker (:mod:`freecell.worker`) takes ``solve`` messages and answers with
``result`` or ``error``.  The page asks with an :class:`Ask` (the position,
the rules, a budget, an earlier search to keep going behind it, a known
solution to take as solved), carried out by the page as the effect
:class:`AskSolver`; :class:`CancelSolver` stops the search in flight.

Every reply is parsed once (:func:`parse_reply`) into a :class:`SolverReply`
with a :class:`Verdict`, or a :class:`SolverFailure`; a reply that is not of
the protocol's shape, or whose moves are not legal when replayed
(:func:`freecell.engine.verify_solution`), is refused (``None``) and the page
logs it once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ...engine import check_move, verify_solution
from ...piles import Move, MoveError
from ...position import Position
from ...rules import Rules

MAX_REPLY_MOVES = 2000
DIFFICULTIES = ("easy", "medium", "hard")


class Verdict(enum.Enum):
    """What the solver says of a position."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class SolverReply:
    """A worker's ``result`` message, checked: every move legal when replayed from the position."""

    verdict: Verdict
    moves: tuple[Move, ...] = ()  # the solution from the position (solved only)
    hint: Move | None = None
    nodes: int = 0
    ms: int = 0
    difficulty: str | None = None
    rules: Rules | None = None  # the rules it was checked under (``None``: the rules in force)


@dataclass(frozen=True, slots=True)
class SolverFailure:
    """The worker cannot answer (it reported an error, or there is no worker)."""

    message: str = ""


Reply = SolverReply | SolverFailure


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ValueError("not a count")
    return value


def _move(data: object) -> Move:
    if not isinstance(data, dict):
        raise ValueError("a move is an object")
    return Move.from_json(data)


def parse_reply(data: object, pos: Position, rules: Rules) -> Reply | None:
    """The worker's message about ``pos`` as a typed value, or ``None`` if it is not one.

    ``{"type": "error"}`` is a :class:`SolverFailure`.  ``{"type": "improved"}``
    (a shorter solution of a position solved before) is read as a solved
    result with that solution.  A result must have a
    known verdict; a solved one a solution that replays from ``pos`` to a won
    position; a hint, if any, must be legal in ``pos``.

    >>> from freecell.rules import FREECELL
    >>> pos = Position.deal(1)
    >>> reply = parse_reply({"type": "result", "verdict": "unknown", "hint": None}, pos, FREECELL)
    >>> reply.verdict, reply.moves, reply.rules == FREECELL
    (<Verdict.UNKNOWN: 'unknown'>, (), True)
    >>> parse_reply({"type": "result", "verdict": "maybe"}, pos, FREECELL) is None
    True
    """
    try:
        if not isinstance(data, dict):
            return None
        kind = data.get("type")
        if kind == "error":
            message = data.get("message", "")
            return SolverFailure(message[:200] if isinstance(message, str) else "")
        if kind == "improved":  # a shorter solution of a position solved before
            data = {**data, "verdict": Verdict.SOLVED.value, "hint": None}
        elif kind != "result":
            return None
        verdict = Verdict(data.get("verdict"))
        raw_moves = data.get("moves", [])
        if not isinstance(raw_moves, list) or len(raw_moves) > MAX_REPLY_MOVES:
            return None
        moves = tuple(_move(m) for m in raw_moves) if verdict is Verdict.SOLVED else ()
        if verdict is Verdict.SOLVED:
            verify_solution(pos, moves, rules)  # NotASolutionError: not a reply to use
        raw_hint = data.get("hint")
        hint = None if raw_hint is None else _move(raw_hint)
        if hint is not None and check_move(pos, hint, rules) is not None:
            return None
        if verdict is Verdict.SOLVED and moves and hint is None:
            hint = moves[0]
        difficulty = data.get("difficulty")
        if difficulty is not None and difficulty not in DIFFICULTIES:
            return None
        return SolverReply(verdict, moves, hint, _count(data.get("nodes", 0)), _count(data.get("ms", 0)),
                           difficulty if isinstance(difficulty, str) else None, rules)
    except (ValueError, TypeError, KeyError, MoveError, RecursionError):  # NotASolutionError too
        return None


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask the worker about ``position``; ``keep``: an earlier search to go on in the background.

    ``path``: a position known to be winnable and its solution, whose
    positions the search takes as solved (the position before a move off a
    known solution).
    """

    position: Position
    rules: Rules
    budget_ms: int
    keep: Position | None = None
    path: tuple[Position, tuple[Move, ...]] | None = None


def solve_message(ask: Ask, rid: int, keep: int | None = None) -> dict[str, object]:
    """The worker's ``solve`` message for ``ask`` (see :mod:`freecell.worker`), request ``rid``."""
    msg: dict[str, object] = {"type": "solve", "id": rid, "board": ask.position.to_text(),
                              "rules": ask.rules.to_json(), "budget_ms": ask.budget_ms}
    if keep is not None:
        msg["keep"] = keep
    if ask.path is not None:
        start, moves = ask.path
        msg["path"] = {"board": start.to_text(), "moves": [m.to_json() for m in moves]}
    return msg


# --- effects: what the analysis asks the page to do -----------------------------------------------


@dataclass(frozen=True, slots=True)
class AskSolver:
    """Send ``ask`` to the worker (it replaces the search in flight, keeping ``ask.keep`` behind)."""

    ask: Ask


@dataclass(frozen=True, slots=True)
class CancelSolver:
    """Stop the search in flight (a search kept in the background goes on)."""


SolverEffect = AskSolver | CancelSolver
