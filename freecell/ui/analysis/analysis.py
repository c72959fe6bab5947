"""What the solver knows about the game on the table: verdicts, hints, Finish, proofs carried down.

Pure Python (tested in CPython); the page's :class:`~freecell.ui.session.session.Session`
owns one :class:`Analysis` and turns what it decides into effects (ask the
worker, cancel it).  The rules it follows:

- Every position the game reaches is analysed once by the solver worker.  A
  solved position also answers for every position along its solution; a
  position proven lost answers for every position reached from it: if a
  position has no solution, none after it on the same line of play has one,
  until the player undoes past it (:meth:`Analysis.verdict_on`).
- When the player moves while a search is still undecided, the search of the
  oldest undecided position of the line of play goes on in the background
  (the worker keeps it), so a proof is never thrown away by playing on.
- A Hint is answered at once: with what is known, else with a quick
  heuristic move computed here (a small search, a few milliseconds), marked
  as a suggestion, which the solver's move replaces when it comes.  A second
  press of Hint on the same position plays the move shown.
- A search that ends without a verdict (the hint budget) gives its best move
  and goes on for :data:`DEEP_BUDGET_MS` more (the worker resumes it).
- The hint bar never says the player has lost: an unsolvable position gets a
  plain sentence and its ways out, and "back to the last winnable position"
  when a position earlier on the line of play was proven winnable.

Worker replies are parsed once (:func:`parse_reply`) into a
:class:`SolverReply` with a :class:`Verdict`; a reply that is not of the
protocol's shape, or whose moves are not legal when replayed, is refused
(``None``) and the page logs it once.
"""

from __future__ import annotations

import enum
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from ...engine import apply_move, check_move, verify_solution
from ...piles import Move, MoveError
from ...position import Position
from ...rules import Rules
from ...solver import quick_hint
from ...worker import MAX_PATH_MOVES  # the longest known solution a request may carry

HINT_BUDGET_MS = 3000
DEEP_BUDGET_MS = 20000  # the background search that follows an unfinished one
FINISH_STEP_MS = 140
MAX_KNOWN = 600  # positions remembered (a solution of 150 moves is 150 of them)
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

    ``{"type": "error"}`` is a :class:`SolverFailure`.  A result must have a
    known verdict; a solved one a solution that replays from ``pos`` to a won
    position; a hint, if any, must be legal in ``pos``.

    >>> from freecell.rules import FREECELL
    >>> pos = Position.deal(1)
    >>> parse_reply({"type": "result", "verdict": "unknown", "hint": None}, pos, FREECELL)
    SolverReply(verdict=<Verdict.UNKNOWN: 'unknown'>, moves=(), hint=None, nodes=0, ms=0, difficulty=None)
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
        if kind != "result":
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
                           difficulty if isinstance(difficulty, str) else None)
    except (ValueError, TypeError, KeyError, MoveError, RecursionError):  # NotASolutionError too
        return None


@dataclass(frozen=True, slots=True)
class Known:
    """A verdict that holds for a position: solved (with the rest of a solution) or unsolvable."""

    verdict: Verdict
    rest: tuple[Move, ...] = ()
    difficulty: str | None = None


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


# The hint bar's states (``data-state`` of ``[data-panel=hint]``).
SEARCHING, FOUND, FALLBACK, UNSOLVABLE_BAR, UNAVAILABLE, WON = (
    "searching", "found", "fallback", "unsolvable", "unavailable", "won")


@dataclass(frozen=True, slots=True)
class HintBar:
    """What the hint bar shows: a state, and for a move the position it is about."""

    state: str
    position: Position
    move: Move | None = None
    suggestion: bool = False  # the page's own quick move, while the solver looks
    back: int | None = None  # turns to undo to the last winnable position (unsolvable only)


class Analysis:
    """Verdicts known, the search in flight, the hint on show, Finish."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.known: OrderedDict[Position, Known] = OrderedDict()
        self.guess: tuple[Position, Move | None] | None = None  # the latest unfinished answer
        self.asking: Position | None = None  # the position the foreground search is about
        self.deep = False  # that search is the background one after a fallback
        self.background: Position | None = None  # an ancestor's search going on behind it
        self.deepened: set[Position] = set()  # searches given the long budget already
        self.wants_hint = False
        self.bar: HintBar | None = None
        self.winnability = True
        self.finishing = False
        self.unavailable = False  # the worker is gone for good: hints are off

    # --- what is known ---------------------------------------------------------
    def rules_changed(self, rules: Rules) -> None:
        """Other rules (a variant, cards back from the foundations): what was known held under others."""
        if rules != self.rules:
            self.rules = rules
            self.known.clear()
            self.guess = None
            self.asking = None
            self.background = None

    def verdict_on(self, line: Sequence[Position]) -> Verdict:
        """The verdict on the last position of ``line`` (the positions of the game, start first).

        A position proven lost makes every later one of its line lost.
        """
        if not line:
            return Verdict.UNKNOWN
        k = self.known.get(line[-1])
        if k is not None:
            return k.verdict
        if any(self._lost(p) for p in line[:-1]):
            return Verdict.UNSOLVABLE
        return Verdict.UNKNOWN

    def _lost(self, pos: Position) -> bool:
        k = self.known.get(pos)
        return k is not None and k.verdict is Verdict.UNSOLVABLE

    def last_winnable(self, line: Sequence[Position]) -> int | None:
        """How many turns to undo to reach the latest position proven winnable before the loss."""
        lost = next((i for i, p in enumerate(line) if self._lost(p)), None)
        if lost is None:
            return None
        for i in range(lost - 1, -1, -1):
            k = self.known.get(line[i])
            if k is not None and k.verdict is Verdict.SOLVED:
                return len(line) - 1 - i
        return None

    def remember(self, pos: Position, reply: SolverReply) -> None:
        """Keep a verdict; a solution also answers for every position along it."""
        if reply.verdict is Verdict.UNKNOWN:
            self.guess = (pos, reply.hint)
            return
        self.known[pos] = Known(reply.verdict, reply.moves, reply.difficulty)
        self.known.move_to_end(pos)
        if reply.verdict is Verdict.SOLVED:
            state = pos
            for i, m in enumerate(reply.moves[:-1]):
                state = apply_move(state, m)
                self.known[state] = Known(Verdict.SOLVED, reply.moves[i + 1:])
                self.known.move_to_end(state)
        while len(self.known) > MAX_KNOWN:
            self.known.popitem(last=False)

    def hint_move(self, pos: Position) -> tuple[Move | None, bool] | None:
        """The move to suggest in ``pos`` and whether it is sure, from what is known, if anything."""
        k = self.known.get(pos)
        if k is not None and k.verdict is Verdict.SOLVED and k.rest:
            return k.rest[0], True
        if self.guess is not None and self.guess[0] == pos:
            return self.guess[1], False
        return None

    # --- asking --------------------------------------------------------------
    def position_changed(self, line: Sequence[Position], finishing: bool = False) -> list[Ask | None]:
        """The table shows the last position of ``line``: what to ask the worker.

        Returns ``[]`` (nothing to do, the search in flight may go on),
        ``[None]`` (cancel the search in flight) or ``[Ask]`` (a new request,
        which replaces the one in flight, keeping ``Ask.keep`` going).
        """
        self.wants_hint = False
        self.bar = None
        if not finishing:
            self.finishing = False
        pos = line[-1]
        ancestors = list(line[:-1])
        # the oldest undecided search of this line goes on behind the new one
        keep: Position | None = None
        for candidate in (self.background, self.asking):
            if candidate is not None and candidate in ancestors and candidate not in self.known and (
                    keep is None or ancestors.index(candidate) < ancestors.index(keep)):
                keep = candidate
        self.background = keep
        need = (self.winnability and not finishing and not pos.is_won() and not self.unavailable
                and self.verdict_on(line) is Verdict.UNKNOWN)
        if not need:
            if self.asking is not None and self.asking != keep:
                self.asking = None
                return [None]
            if self.asking is not None:  # the ancestor's search goes on by itself
                self.background, self.asking = self.asking, None
            return []
        if self.asking == pos:
            return []
        self.asking = pos
        self.deep = False
        return [Ask(pos, self.rules, HINT_BUDGET_MS, keep, self._path(line))]

    def _path(self, line: Sequence[Position]) -> tuple[Position, tuple[Move, ...]] | None:
        """The known solution of the position before this one, if that one was on a known solution."""
        if len(line) < 2:
            return None
        k = self.known.get(line[-2])
        if k is None or k.verdict is not Verdict.SOLVED or not k.rest or len(k.rest) > MAX_PATH_MOVES:
            return None
        return line[-2], k.rest

    def deep_ask(self, pos: Position) -> Ask:
        """Go on with an unfinished search of ``pos`` (the worker resumes it), once."""
        self.asking = pos
        self.deep = True
        self.deepened.add(pos)
        if len(self.deepened) > MAX_KNOWN:
            self.deepened.clear()
        return Ask(pos, self.rules, DEEP_BUDGET_MS, self.background)

    def deepen_ancestor(self, line: Sequence[Position], pos: Position) -> list[Ask]:
        """The search of ``pos``, earlier on the line of play, ran out of its budget: go on behind.

        Its proof would answer every position after it, so it gets the long
        budget once, in the background of the position on the table (asked
        again, as the worker holds one search in front and one behind).
        """
        if pos in self.deepened or pos in self.known or self.background not in (None, pos):
            return []
        current = line[-1]
        out = [self.deep_ask(pos)]  # it is the search in front for a moment
        if self.verdict_on(line) is Verdict.UNKNOWN and not current.is_won() and self.winnability:
            out.append(Ask(current, self.rules, HINT_BUDGET_MS, pos, self._path(line)))
            self.asking, self.deep, self.background = current, False, pos
        else:  # nothing to ask about the position on the table: the ancestor's search alone
            self.background = None
        return out

    def answered(self, pos: Position, reply: Reply) -> None:
        """A reply about ``pos`` came (the search of it is over, unless it is resumed)."""
        if pos == self.asking:
            self.asking = None
            self.deep = False
        if pos == self.background:
            self.background = None
        if isinstance(reply, SolverReply):
            self.remember(pos, reply)

    # --- the hint bar --------------------------------------------------------
    def show(self, line: Sequence[Position], quick: bool = True) -> HintBar:
        """The hint bar for the last position of ``line``, from what is known now."""
        pos = line[-1]
        if pos.is_won():
            self.bar = HintBar(WON, pos)
            return self.bar
        if self.verdict_on(line) is Verdict.UNSOLVABLE:
            self.bar = HintBar(UNSOLVABLE_BAR, pos, back=self.last_winnable(line))
            return self.bar
        known = self.hint_move(pos)
        if known is not None and known[0] is not None and check_move(pos, known[0], self.rules) is None:
            move, sure = known
            self.bar = HintBar(FOUND if sure else FALLBACK, pos, move)
            return self.bar
        move = quick_hint(pos, self.rules) if quick else None
        if self.unavailable:  # no solver here: the page's own move, said to be only that
            self.bar = HintBar(UNAVAILABLE, pos, move)
            return self.bar
        if move is not None:
            self.guess = (pos, move) if self.guess is None or self.guess[0] != pos else self.guess
            self.bar = HintBar(FALLBACK, pos, move, suggestion=True)
        else:
            self.bar = HintBar(SEARCHING, pos)
        return self.bar

    def clear_bar(self) -> None:
        self.bar = None
        self.wants_hint = False
