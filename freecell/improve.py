"""An improving search: a solution made shorter for as long as it is given.

The solver (:mod:`freecell.solver`) finds a first solution fast, and a long
one.  :class:`Improver` starts from it and looks for shorter ones, counted
as solver records count them (:func:`freecell.counts.record_count`: player
moves with maximum auto-play, every card that can go home going at once and
free, every other move one, a multi-card move one):

* a beam search over such player moves: level by level (a level is one
  player move more), each state's children with maximum auto-play, the
  :data:`WIDTHS` best of them by an estimate kept for the next level (states
  met at an earlier level dropped), until a level holds a won state; never
  deeper than the shortest solution known less one;
* the beam widens run after run (:data:`WIDTHS`): wider beams find shorter
  solutions, and cost more; each width is run with each of the estimate's
  weightings (:data:`WEIGHTS`) in turn, since a deal that one weighting leads
  astray another often solves shorter;
* each solution found then goes through the shortening pass
  (:func:`freecell.shorten.shorten`).

A result is kept only if it is shorter than the best so far (in the record's
count, the game's count breaking ties) and replays through the engine
(:func:`freecell.engine.verify_solution`): so :attr:`Improver.best` is
always a checked solution, never longer than the first.  :meth:`Improver.run`
does a bounded amount of work (nodes or seconds) and returns; the next call
goes on where it stopped; dropping the object cancels it, the best so far
staying valid.

The estimate of a state (lower is better): the groups of cards that must
still move (a card over a lower card of its own suit cannot go home before
it moves; a run of such cards moves as one), the cards lying over any lower
card, the cards not home, the free cells in use and the empty columns.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

from .counts import game_count, record_count
from .engine import verify_solution
from .packed import CELL_HOME, COLUMN_HOME, EMPTY, SEP, WON, Cache, Cols, MoveGen, RawMove, pack
from .piles import COLUMN, FOUNDATION, HOME, Move, Pile, cell, column, foundation
from .position import Position
from .rules import FREECELL, Rules
from .shorten import PASS_NODES, shorten

# the beam's widths, run after run (each with each of WEIGHTS; after the last, the search is done)
WIDTHS = (40, 150, 500, 1500, 4000)


class Weights(NamedTuple):
    """The estimate's weights: groups that must move, cards over a lower card, cards not home,
    free cells in use, empty columns (a bonus)."""

    groups: int
    disorder: int
    left: int
    cells: int
    empty: int


# each width is run with each of these in turn
WEIGHTS = (Weights(6, 2, 1, 4, 3), Weights(3, 2, 1, 4, 3))
SHORTEN_NODES = PASS_NODES * 4
# improve_for: good enough to stop at the first budget, as a share of the first solution's length
ENOUGH = 0.85
# what the beam counts: player moves with maximum auto-play (the record's unit), or the game's
# turns (moves with the game's safe auto-move, a move home the player makes counting one)
RECORD, TURNS = "record", "turns"

# a beam state: columns, cells, foundations, parent, the moves from the parent (a player
# move, then the cards sent home)
_State = tuple[Cols, bytes, bytes, Any, tuple[RawMove, ...]]


def _blocks(col: bytes, w: Weights) -> int:
    """A column's share of the estimate: the groups of cards that must move, the cards over a lower card
    (weighted), less the bonus of an empty column."""
    if not col:
        return -w.empty
    groups = 0
    disorder = 0
    low = [99, 99, 99, 99]  # the lowest rank of each suit beneath
    lowest = 99
    prev_must = False
    prev = -1
    for c in col:
        r = c >> 2
        s = c & 3
        must = low[s] < r
        # one group with the card below it if that one must move too and this one builds on it
        if must and not (prev_must and (prev >> 2) == r + 1 and ((prev & 3) in (1, 2)) != (s in (1, 2))):
            groups += 1
        if r > lowest:
            disorder += 1
        if r < low[s]:
            low[s] = r
        if r < lowest:
            lowest = r
        prev_must = must
        prev = c
    return w.groups * groups + w.disorder * disorder


def _pile(kind: int, index: int) -> Pile:
    if kind == FOUNDATION:
        return HOME if index < 0 else foundation(index)
    return column(index) if kind == COLUMN else cell(index)


def to_moves(raw: Sequence[RawMove]) -> list[Move]:
    return [Move(_pile(m[0], m[1]), _pile(m[2], m[3]), m[4]) for m in raw]


class Improver:
    """Shorter solutions of ``position`` than ``first`` (a solution of it), found in slices."""

    def __init__(self, position: Position, first: Sequence[Move], rules: Rules = FREECELL,
                 widths: Sequence[int] = WIDTHS, unit: str = "record",
                 weights: Sequence[Weights] = WEIGHTS) -> None:
        if unit not in (RECORD, TURNS):
            raise ValueError(f"unit must be {RECORD!r} or {TURNS!r}")
        self.unit = unit
        verify_solution(position, first, rules)
        self.position = position
        self.rules = rules
        self.first = list(first)
        self.best = list(first)
        self.count = record_count(first)  # the best's, in the record's unit
        self.turns = game_count(position, first, rules)  # the best's, as the game counts
        # the solution with the fewest turns as the game counts them (the page's par): maximum
        # auto-play sends cards home that the game's safe auto-move leaves, each a turn there
        self.fewest = list(first)
        self.fewest_turns = self.turns
        self.runs = [(width, w) for width in widths for w in weights]  # the beams, in order
        self.nodes = 0
        self.seconds = 0.0
        self.improvements = 0
        self.done = False
        self._gen = MoveGen(rules)
        self._costs = {w: Cache(partial(_blocks, w=w)) for w in weights}
        self._run = -1  # index in runs of the beam under way
        self._level: list[_State] = []
        self._at = 0  # the next state of the level to expand
        self._next: dict[bytes, tuple[int, _State]] = {}
        self._seen: dict[bytes, int] = {}
        self._depth = 0
        self._improve(list(first))  # the shortening pass on the first, once
        self._start_run()

    # --- running -----------------------------------------------------------
    def run(self, max_nodes: int | None = None, seconds: float | None = None) -> bool:
        """Search for a while; whether :attr:`best` became shorter in it."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        better = False
        done = 0
        try:
            while not self.done:
                if max_nodes is not None and done >= max_nodes:
                    break
                if deadline is not None and (done & 15) == 0 and time.perf_counter() >= deadline:
                    break
                if self._at < len(self._level):
                    state = self._level[self._at]
                    self._at += 1
                    done += 1
                    self.nodes += 1
                    won = self._expand(state)
                    if won is not None:
                        better = self._found(won) or better
                        self._start_run()
                    continue
                if not self._next_level():
                    self._start_run()
        finally:
            self.seconds += time.perf_counter() - start
        return better

    def _start_run(self) -> None:
        """The next, wider beam from the start (or done, when the widths are spent)."""
        self._run += 1
        self._seen = {}
        self._next = {}
        self._level = []
        self._at = 0
        self._depth = 0
        if self._run >= len(self.runs) or self.count <= 1:
            self.done = True
            return
        cols, cells, found = pack(self.position)
        if self.unit == TURNS:
            cols, cells, found, moves = self._gen.auto(cols, cells, found, ())
            root: _State = (cols, cells, found, None, moves)
        else:
            root = self._auto(cols, cells, found, (), None)
        if root[2] == WON:  # nothing to improve: every card goes home by itself
            self.done = True
            return
        self._level = [root]

    def _next_level(self) -> bool:
        """The best of the children for the next level; ``False`` when the run is over."""
        self._depth += 1
        bound = self.fewest_turns if self.unit == TURNS else self.count
        if not self._next or self._depth >= bound - 1:
            return False  # nothing left, or no shorter solution within the bound
        width = self.runs[self._run][0]
        chosen = heapq.nsmallest(width, self._next.values(), key=lambda e: e[0])
        self._level = [s for _, s in chosen]
        self._at = 0
        self._next = {}
        return True

    def _auto(self, cols: Cols, cells: bytes, found: bytes, moves: tuple[RawMove, ...],
              parent: Any) -> _State:
        """Every card that can go home, home (maximum auto-play)."""
        home = self._gen.home
        inc = self._gen.inc
        nexts = home[found][2]
        extra: list[RawMove] = []
        changed = True
        while changed:
            changed = False
            if not nexts.isdisjoint(cells):
                for i, c in enumerate(cells):
                    if c in nexts:
                        cells = cells[:i] + SEP + cells[i + 1:]
                        found = inc[c & 3][found]
                        nexts = home[found][2]
                        extra.append(CELL_HOME[i])
                        changed = True
            for i, col in enumerate(cols):
                if col and col[-1] in nexts:
                    c = col[-1]
                    new = list(cols)
                    new[i] = col[:-1]
                    cols = tuple(new)
                    found = inc[c & 3][found]
                    nexts = home[found][2]
                    extra.append(COLUMN_HOME[i])
                    changed = True
        return cols, cells, found, parent, moves + tuple(extra) if extra else moves

    def _expand(self, state: _State) -> _State | None:
        """Score the children of ``state`` into the next level; a won child, if one is."""
        seen = self._seen
        nxt = self._next
        depth = self._depth + 1
        weights = self.runs[self._run][1]
        cost = self._costs[weights].__getitem__
        w_cells, w_left = weights.cells, weights.left
        auto = self._auto
        pfound = state[2]
        nexts = self._gen.home[pfound][2]
        turns = self.unit == TURNS
        for cols, cells, found, moves in self._gen.children(state[0], state[1], pfound):
            if turns:  # the safe auto-moves are played already; a move home is a child
                if found == WON:
                    return cols, cells, found, state, moves
            # the parent had no card to send home: with the foundations unchanged, only the
            # card a move uncovers can go home now
            elif found is not pfound or (moves[0][0] == COLUMN and cols[moves[0][1]]
                                         and cols[moves[0][1]][-1] in nexts):
                cols, cells, found, _, moves = auto(cols, cells, found, moves, state)
                if found == WON:
                    return cols, cells, found, state, moves
            key = SEP.join(sorted(cols)) + bytes(sorted(cells)) + found
            if seen.get(key, 999) <= depth:
                continue
            seen[key] = depth
            score = sum(map(cost, cols)) + w_cells * (len(cells) - cells.count(EMPTY)) - w_left * sum(found)
            nxt[key] = (score, (cols, cells, found, state, moves))
        return None

    # --- results -----------------------------------------------------------
    def _path(self, state: _State) -> list[Move]:
        chunks = []
        s = state
        while s is not None:
            chunks.append(s[4])
            s = s[3]
        return to_moves([m for chunk in reversed(chunks) for m in chunk])

    def _found(self, state: _State) -> bool:
        return self._improve(self._path(state))

    def _improve(self, moves: list[Move]) -> bool:
        """Keep ``moves`` (or their shortened form) if shorter than the best and a solution.

        Whether :attr:`best` (fewest moves in the record's count) became shorter;
        :attr:`fewest` (fewest turns in the game's) may change too.
        """
        better = False
        for line in (moves, shorten(self.position, self.rules, moves, SHORTEN_NODES)):
            count = record_count(line)
            turns = game_count(self.position, line, self.rules)
            shorter = (count, turns) < (self.count, self.turns)
            fewer = turns < self.fewest_turns
            if not (shorter or fewer):
                continue
            verify_solution(self.position, line, self.rules)  # NotASolutionError: a bug
            if fewer:
                self.fewest, self.fewest_turns = list(line), turns
            if shorter:
                self.best, self.count, self.turns = list(line), count, turns
                self.improvements += 1
                better = True
        return better


def clock(cpu: bool) -> Callable[[], float]:
    """The clock of a budget: this process's CPU time, or the wall clock."""
    return time.process_time if cpu else time.perf_counter


def improve_for(position: Position, first: Sequence[Move], rules: Rules = FREECELL, seconds: float = 1.0,
                cpu: bool = False, slice_nodes: int = 200, max_seconds: float | None = None,
                enough: float = ENOUGH) -> Improver:
    """An :class:`Improver` run for ``seconds`` (of CPU time with ``cpu``) or until it is done.

    With ``max_seconds``, it goes on while the best is still more than
    ``enough`` times the first's length (a deal whose narrow beams found
    nothing shorter yet: the wider ones do), and while one more slice, as long
    as the last, would end within ``max_seconds``.
    """
    now = clock(cpu)
    start = now()
    imp = Improver(position, first, rules)
    target = enough * record_count(first)
    last = 0.0  # the last slice's time: the next one would end about that much later
    while not imp.done:
        spent = now() - start
        if spent >= seconds and (max_seconds is None or spent + last >= max_seconds or imp.count <= target):
            break
        imp.run(max_nodes=slice_nodes)
        last = now() - start - spent
    return imp
