"""What the solver knows about the game on the table: verdicts, hints, proofs carried down.

Pure Python (tested in CPython).  The page's
:class:`~freecell.ui.session.session.Session` owns one :class:`Analysis` and
tells it what happened (the table shows another position, Hint was pressed, a
reply came, the worker failed); each of these methods decides, updates the
analysis and returns the effects for the page to carry out
(:class:`~freecell.ui.analysis.replies.AskSolver`,
:class:`~freecell.ui.analysis.replies.CancelSolver`).  Nothing outside this
class writes its fields.  The rules it follows:

- Every position the game reaches is analysed once by the solver worker.  A
  solved position also answers for every position along its solution; a
  position proven lost answers for every position reached from it: if a
  position has no solution, none after it on the same line of play has one,
  until the player undoes past it (:meth:`Analysis.verdict_on`).
- When the player moves while a search is still undecided, the search of the
  oldest undecided position of the line of play goes on in the background
  (the worker keeps it), so a proof is never thrown away by playing on.
- What is known is kept for the latest :data:`MAX_KNOWN` positions, but the
  start of the line of play stays however long the game: its solution is
  the par's and "Watch a short solution"'s.
- A Hint is answered at once: with what is known, else with a quick
  heuristic move computed here (a small search, a few milliseconds), marked
  as a suggestion, which the solver's move replaces when it comes.  A second
  press of Hint on the same position plays the move shown
  (:meth:`Analysis.take_hint`).
- A search that ends without a verdict (the hint budget) gives its best move
  and goes on for :data:`DEEP_BUDGET_MS` more (the worker resumes it), and
  again after that, as long as each round searched :data:`MIN_PROGRESS`
  nodes more (a search that reached the memory cap ends at once: it is not
  asked again), so one Hint and waiting reaches a verdict.
- A lost game says how it was lost (:meth:`Analysis.loss`): the deal itself
  (its start proven lost), the last move (the position before was proven
  winnable), earlier, or not known when.
- The hint bar never says the player has lost: an unsolvable position gets a
  plain sentence and its ways out, and "back to the last winnable position"
  when a position earlier on the line of play was proven winnable.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ...engine import apply_move, check_move, is_stuck
from ...piles import Move
from ...position import Position
from ...rules import Rules
from ...solver import quick_hint
from ...worker import MAX_PATH_MOVES  # the longest known solution a request may carry
from .playback import Par, ParState
from .replies import Ask, AskSolver, CancelSolver, Reply, SolverEffect, SolverReply, Verdict

HINT_BUDGET_MS = 3000
DEEP_BUDGET_MS = 20000  # each round of the background search that follows an unfinished one
MIN_PROGRESS = 1000  # a round that searched fewer new nodes than this ended at the memory cap: the last
PAR_BUDGET_MS = 10_000  # the search of the start after a win, when no solution of it is known
MAX_KNOWN = 600  # positions remembered (a solution of 150 moves is 150 of them)


@dataclass(frozen=True, slots=True)
class Known:
    """A verdict that holds for a position: solved (with the rest of a solution) or unsolvable."""

    verdict: Verdict
    rest: tuple[Move, ...] = ()
    difficulty: str | None = None


class Loss(StrEnum):
    """How a game that cannot be won any more was lost (what the page says of it)."""

    DEAL = "deal"  # the deal itself: its start is proven lost
    MOVE = "move"  # the last move: the position before it was proven winnable
    EARLIER = "earlier"  # a move since the last position proven winnable, some turns back
    UNSURE = "unsure"  # lost, but nothing on the line before it was proven winnable


class HintState(StrEnum):
    """What the hint bar shows (``data-state`` of ``[data-panel=hint]``, but WON shows as FOUND)."""

    SEARCHING = "searching"  # the solver looks, nothing to show yet
    FOUND = "found"  # a move of a known solution
    FALLBACK = "fallback"  # a move that is not proven: the page's quick one, or the solver's best
    UNSOLVABLE = "unsolvable"  # no solution from here
    UNAVAILABLE = "unavailable"  # no solver: the page's own move, if any
    WON = "won"


@dataclass(frozen=True, slots=True)
class HintBar:
    """What the hint bar shows: a state, and for a move the position it is about."""

    state: HintState
    position: Position
    move: Move | None = None
    suggestion: bool = False  # the page's own quick move, while the solver looks
    back: int | None = None  # turns to undo to the last winnable position (unsolvable only)
    loss: Loss | None = None  # how it was lost (unsolvable only)


@dataclass(frozen=True, slots=True)
class Answer:
    """What a reply led to: the effects, and whether the hint bar on show changed (to be said)."""

    effects: tuple[SolverEffect, ...] = ()
    bar_changed: bool = False


class Analysis:
    """Verdicts known, the search in flight, the hint on show."""

    def __init__(self, rules: Rules, winnability: bool = True) -> None:
        self.rules = rules
        self.known: OrderedDict[Position, Known] = OrderedDict()
        # the start of the line of play: what is known of it is kept however much else comes (the par
        # and "Watch a short solution" are its solution's, the shortest the worker found)
        self.start: Position | None = None
        self.guess: tuple[Position, Move | None] | None = None  # the latest unfinished answer
        self.asking: Position | None = None  # the position the foreground search is about
        self.deep = False  # that search is the background one after a fallback
        self.background: Position | None = None  # an ancestor's search going on behind it
        self.deepened: dict[Position, int] = {}  # searches given the long budget: their nodes then
        self.wants_hint = False
        self.bar: HintBar | None = None
        self.winnability = winnability  # the setting: every position is analysed as it comes
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

    def _forget_noes(self) -> None:
        """The worker was replaced: its "no"s are not carried; each position is asked again."""
        for pos in [p for p, k in self.known.items() if k.verdict is Verdict.UNSOLVABLE]:
            del self.known[pos]
            self.deepened.pop(pos, None)

    def _lost(self, pos: Position) -> bool:
        k = self.known.get(pos)
        return k is not None and k.verdict is Verdict.UNSOLVABLE

    def loss(self, line: Sequence[Position]) -> Loss | None:
        """How the game on ``line`` was lost, if it is proven lost (:class:`Loss`)."""
        if self.verdict_on(line) is not Verdict.UNSOLVABLE:
            return None
        if self._lost(line[0]):
            return Loss.DEAL
        back = self.last_winnable(line)
        if back is None:
            return Loss.UNSURE
        return Loss.MOVE if back == 1 and self._lost(line[-1]) else Loss.EARLIER

    def _may_deepen(self, pos: Position, nodes: int) -> bool:
        """Whether an unfinished search of ``pos`` is worth another round (it made progress)."""
        before = self.deepened.get(pos)
        return before is None or nodes >= before + MIN_PROGRESS

    def solution(self, pos: Position) -> tuple[Move, ...] | None:
        """The rest of a known solution from ``pos``, if one is known (and not empty)."""
        k = self.known.get(pos)
        return k.rest if k is not None and k.verdict is Verdict.SOLVED and k.rest else None

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
        """Keep a verdict; a solution also answers for every position along it.

        The worker's answer about ``pos`` is taken as it is (a shortened one
        comes in the game's count, which a count of moves does not order).
        A position along it keeps the shorter of its rest and what was known
        there, and what was known at a later position along it shortens the
        rest of the earlier ones: a hint never follows a longer line than one
        the page knew.
        """
        if reply.verdict is Verdict.UNKNOWN:
            self.guess = (pos, reply.hint)
            return
        along: list[tuple[Position, tuple[Move, ...]]] = []  # the positions after pos, their rests
        if reply.verdict is Verdict.SOLVED:
            states = [pos]
            for m in reply.moves[:-1]:
                states.append(apply_move(states[-1], m))
            best: tuple[Move, ...] = ()
            for i in range(len(states) - 1, 0, -1):  # from the end: each rest the shortest known
                best = (reply.moves[i], *best)
                k = self.known.get(states[i])
                if k is not None and k.verdict is Verdict.SOLVED and len(k.rest) < len(best):
                    best = k.rest
                along.append((states[i], best))
        self.known[pos] = Known(reply.verdict, reply.moves, reply.difficulty)
        self.known.move_to_end(pos)
        for state, rest in reversed(along):
            self.known[state] = Known(Verdict.SOLVED, rest)
            self.known.move_to_end(state)
        while len(self.known) > MAX_KNOWN:
            if next(iter(self.known)) == self.start:
                self.known.move_to_end(self.start)
            self.known.popitem(last=False)

    def hint_move(self, pos: Position) -> tuple[Move | None, bool] | None:
        """The move to suggest in ``pos`` and whether it is sure, from what is known, if anything."""
        rest = self.solution(pos)
        if rest is not None:
            return rest[0], True
        if self.guess is not None and self.guess[0] == pos:
            return self.guess[1], False
        return None

    # --- asking --------------------------------------------------------------
    def position_changed(self, line: Sequence[Position], finishing: bool = False) -> list[SolverEffect]:
        """The table shows the last position of ``line``: what to ask the worker.

        Returns ``[]`` (nothing to do, the search in flight may go on),
        ``[CancelSolver()]`` or ``[AskSolver(ask)]`` (a new request, which
        replaces the one in flight, keeping ``ask.keep`` going).  The hint
        bar goes (it was about another position).
        """
        self.wants_hint = False
        self.bar = None
        self.start = line[0]
        pos = line[-1]
        ancestors = list(line[:-1])
        # the oldest undecided search of this line goes on behind the new one
        keep: Position | None = None
        for candidate in (self.background, self.asking):
            if candidate is not None and candidate in ancestors and candidate not in self.known and (
                    keep is None or ancestors.index(candidate) < ancestors.index(keep)):
                keep = candidate
        self.background = keep
        # no move left: lost, nothing to ask the worker (an empty free cell always takes a card:
        # the full check, a move generation, only when every cell is taken)
        if None not in pos.cells and pos not in self.known and is_stuck(pos, self.rules):
            self.known[pos] = Known(Verdict.UNSOLVABLE)
        need = (self.winnability and not finishing and not pos.is_won() and not self.unavailable
                and self.verdict_on(line) is Verdict.UNKNOWN)
        if not need:
            if self.asking is not None and self.asking != keep:
                self.asking = None
                return [CancelSolver()]
            if self.asking is not None:  # the ancestor's search goes on by itself
                self.background, self.asking = self.asking, None
            return []
        if self.asking == pos:
            return []
        self.asking = pos
        self.deep = False
        return [AskSolver(Ask(pos, self.rules, HINT_BUDGET_MS, keep, self._path(line)))]

    def set_winnability(self, on: bool) -> None:
        """The winnability setting: every position is analysed as it comes (or only when asked)."""
        self.winnability = on

    def _path(self, line: Sequence[Position]) -> tuple[Position, tuple[Move, ...]] | None:
        """The known solution of the position before this one, if that one was on a known solution."""
        if len(line) < 2:
            return None
        rest = self.solution(line[-2])
        if rest is None or len(rest) > MAX_PATH_MOVES:
            return None
        return line[-2], rest

    def deep_ask(self, pos: Position, nodes: int = 0) -> Ask:
        """Go on with an unfinished search of ``pos`` (the worker resumes it), ``nodes`` searched so far."""
        self.asking = pos
        self.deep = True
        if len(self.deepened) > MAX_KNOWN:
            self.deepened.clear()
        self.deepened[pos] = nodes
        return Ask(pos, self.rules, DEEP_BUDGET_MS, self.background)

    def deepen_ancestor(self, line: Sequence[Position], pos: Position, nodes: int = 0) -> list[Ask]:
        """The search of ``pos``, earlier on the line of play, ran out of its budget: go on behind.

        Its proof would answer every position after it, so it gets the long
        budget again while it makes progress, in the background of the
        position on the table (asked again, as the worker holds one search in
        front and one behind).
        """
        if not self._may_deepen(pos, nodes) or pos in self.known or self.background not in (None, pos):
            return []
        current = line[-1]
        out = [self.deep_ask(pos, nodes)]  # it is the search in front for a moment
        if self.verdict_on(line) is Verdict.UNKNOWN and not current.is_won() and self.winnability:
            out.append(Ask(current, self.rules, HINT_BUDGET_MS, pos, self._path(line)))
            self.asking, self.deep, self.background = current, False, pos
        else:  # nothing to ask about the position on the table: the ancestor's search alone
            self.background = None
        return out

    def ask_solution(self, pos: Position) -> list[SolverEffect]:
        """A solution from ``pos`` is wanted (to watch it): the worker is asked, unless it is already."""
        if self.asking == pos:
            return []
        self.asking = pos
        self.deep = False
        return [AskSolver(Ask(pos, self.rules, HINT_BUDGET_MS, self.background))]

    def par(self, start: Position, auto_move: bool) -> tuple[Par, list[SolverEffect]]:
        """The par of a game won from ``start``: from its known solution, else asked of the worker.

        A known solution is given back to the worker too (found again at once), which shortens
        it in its idle time: a player who moved before the worker had shortened the deal's
        start (it shortens the position on the table) gets the short par a moment after the win.
        """
        k = self.known.get(start)
        if k is not None:
            rest = self.solution(start)
            if not rest:
                return Par(ParState.UNKNOWN), []
            again: list[SolverEffect] = [] if self.unavailable or len(rest) > MAX_PATH_MOVES else [
                AskSolver(Ask(start, self.rules, PAR_BUDGET_MS, path=(start, tuple(rest))))]
            return Par.of(start, rest, self.rules, auto_move), again
        if self.unavailable:
            return Par(ParState.UNKNOWN), []
        return Par(ParState.SEARCHING), [AskSolver(Ask(start, self.rules, PAR_BUDGET_MS))]

    # --- replies ---------------------------------------------------------------
    def answered(self, pos: Position, reply: Reply) -> None:
        """A reply about ``pos`` came (the search of it is over, unless it is resumed).

        A "no" is kept only as the answer of this page's own search of that
        position (the one asked, or the ancestor searched behind it): any
        other is not carried, and the position is asked again.  A "yes"
        needs no such care: its solution is replayed before it counts.
        """
        asked = pos in (self.asking, self.background)
        if pos == self.asking:
            self.asking = None
            self.deep = False
        if pos == self.background:
            self.background = None
        if isinstance(reply, SolverReply) and (asked or reply.verdict is not Verdict.UNSOLVABLE):
            self.remember(pos, reply)

    def after_reply(self, pos: Position, reply: Reply, line: Sequence[Position]) -> Answer:
        """What a reply about ``pos`` (already :meth:`answered`) means for the game on ``line``.

        An unknown verdict resumes the search once (or, for an ancestor, goes
        on behind); an ancestor proven lost makes the search in flight moot;
        the hint bar on show takes what is known now.
        """
        if not isinstance(reply, SolverReply):
            bar = self.bar
            if bar is not None and bar.state is HintState.SEARCHING and bar.position == pos:
                self.bar = HintBar(HintState.UNAVAILABLE, pos)
                return Answer(bar_changed=True)
            return Answer()
        if pos not in line:
            return Answer()  # about a position no longer on this line of play
        effects: list[SolverEffect] = []
        current = pos == line[-1]
        verdict = self.verdict_on(line)
        if current and reply.verdict is Verdict.UNKNOWN and self._may_deepen(pos, reply.nodes):
            effects.append(AskSolver(self.deep_ask(pos, reply.nodes)))  # the worker resumes the same search
        elif not current and reply.verdict is Verdict.UNKNOWN:
            effects += [AskSolver(ask) for ask in self.deepen_ancestor(line, pos, reply.nodes)]
        elif not current and verdict is Verdict.UNSOLVABLE and self.asking is not None:
            self.asking = None  # an ancestor was proven lost: the search of this position is moot
            effects.append(CancelSolver())
        return Answer(tuple(effects), self._refresh_bar(line, verdict))

    def _refresh_bar(self, line: Sequence[Position], verdict: Verdict) -> bool:
        """The hint bar on show after a reply: what is known now (a suggestion stays until then)."""
        before = self.bar
        if before is None or before.position != line[-1] or not (
                self.wants_hint or before.state in (HintState.FALLBACK, HintState.SEARCHING)
                or verdict is Verdict.UNSOLVABLE):
            return False
        self.show(line, quick=False)
        if verdict is not Verdict.UNKNOWN:
            self.wants_hint = False
        if self.bar is not None and self.bar.state is HintState.SEARCHING:
            self.bar = before  # nothing better yet: keep the suggestion on show
            return False
        return self.bar != before

    def solver_failed(self, first: bool, dead: bool) -> bool:
        """The worker failed (``dead``: for good); whether the hint bar on show changed.

        When no solver is coming, what is on show is all there is: a bar
        still waiting for the solver says so.
        """
        if dead:
            self.unavailable = True
            self.asking = None
            self.background = None
        self._forget_noes()
        bar = self.bar
        waiting = bar is not None and (
            bar.state is HintState.SEARCHING or (bar.state is HintState.FALLBACK and bar.suggestion))
        if bar is not None and waiting and (dead or (first and bar.move is None)):
            self.bar = HintBar(HintState.UNAVAILABLE, bar.position, bar.move)
            return True
        return False

    # --- the hint bar --------------------------------------------------------
    def ask_hint(self, line: Sequence[Position]) -> list[SolverEffect]:
        """Hint: the bar for the last position of ``line`` at once, and the worker asked if it must be."""
        pos = line[-1]
        bar = self.show(line)
        if bar.state not in (HintState.SEARCHING, HintState.FALLBACK) or (
                self.verdict_on(line) is not Verdict.UNKNOWN):
            return []
        self.wants_hint = True
        if self.asking == pos or self.unavailable:
            return []
        self.asking = pos
        return [AskSolver(Ask(pos, self.rules, HINT_BUDGET_MS, self.background))]

    def take_hint(self, pos: Position) -> Move | None:
        """Hint pressed again: the move on show for ``pos``, to play (the bar goes); ``None`` if none."""
        bar = self.bar
        if bar is None or bar.position != pos or bar.move is None:
            return None
        self.clear_bar()
        return bar.move

    def show(self, line: Sequence[Position], quick: bool = True) -> HintBar:
        """The hint bar for the last position of ``line``, from what is known now."""
        pos = line[-1]
        if pos.is_won():
            self.bar = HintBar(HintState.WON, pos)
            return self.bar
        if self.verdict_on(line) is Verdict.UNSOLVABLE:
            self.bar = HintBar(HintState.UNSOLVABLE, pos, back=self.last_winnable(line), loss=self.loss(line))
            return self.bar
        known = self.hint_move(pos)
        if known is not None and known[0] is not None and check_move(pos, known[0], self.rules) is None:
            move, sure = known
            self.bar = HintBar(HintState.FOUND if sure else HintState.FALLBACK, pos, move)
            return self.bar
        move = quick_hint(pos, self.rules) if quick else None
        if self.unavailable:  # no solver here: the page's own move, said to be only that
            self.bar = HintBar(HintState.UNAVAILABLE, pos, move)
            return self.bar
        if move is not None:
            self.guess = (pos, move) if self.guess is None or self.guess[0] != pos else self.guess
            self.bar = HintBar(HintState.FALLBACK, pos, move, suggestion=True)
        else:
            self.bar = HintBar(HintState.SEARCHING, pos)
        return self.bar

    def clear_bar(self) -> None:
        self.bar = None
        self.wants_hint = False
