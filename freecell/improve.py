"""An improving search: a solution made shorter for as long as it is given.

The solver (:mod:`freecell.solver`) finds a first solution fast, and a long
one.  :class:`Improver` starts from it and looks for shorter ones, counted
as solver records count them (:func:`freecell.counts.record_count`: player
moves with maximum auto-play, every card that can go home going at once and
free, every other move one, a multi-card move one):

* a beam search over such player moves: level by level (a level is one
  player move more), each state's children with maximum auto-play, the
  beam's width best of them by an estimate kept for the next level (states
  met at an earlier level dropped), until a level holds a won state; never
  deeper than the shortest solution known less one, and :data:`PAST_BEST`
  levels more: the shortening pass makes many a solution as long as the best
  shorter than it;
* the beams run one after another, each as :mod:`freecell.beams` plans it
  (:class:`~freecell.beams.Run`: a width, a weighting of the estimate, a
  start along the best solution, tapered or not), in the order given
  (:data:`~freecell.beams.RUNS` by default);
* a beam keeps its variety: the states that share their first move from
  the beam's start take at most :data:`SHARE` of a level while others are
  near the best, so that the beam does not all run into one dead end;
* each solution found then goes through the shortening pass
  (:func:`freecell.shorten.shorten`).

A result is kept only if it is shorter than the best so far (in the record's
count, the game's count breaking ties) and replays through the engine
(:func:`freecell.engine.verify_solution`): so :attr:`Improver.best` is
always a checked solution, never longer than the first.  :meth:`Improver.run`
does a bounded amount of work (nodes or seconds) and returns; the next call
goes on where it stopped; dropping the object cancels it, the best so far
staying valid.

:class:`FirstBeam` runs the same beams with no solution known yet, for the
solver (:mod:`freecell.solver`), where its own searches stall: the first
solution any of them finds.

The estimate of a state (lower is better), weighted (:class:`freecell.beams.Weights`): the
groups of cards that must still move (a card over a lower card of its own
suit cannot go home before it moves; a run of such cards moves as one), the
cards lying over any lower card, the cards not home, the free cells in use,
the empty columns, and the cards not yet in order (beneath the run that
ends each column).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from operator import itemgetter
from typing import Any

from .beams import FIRST_RUNS, RUNS, WEIGHTS, Run, Weights
from .counts import game_count, goes_home_by_itself, record_count
from .engine import apply_move, verify_solution
from .packed import CELL_HOME, COLUMN_HOME, EMPTY, SEP, WON, Cache, Cols, MoveGen, RawMove, pack
from .piles import COLUMN, FOUNDATION, HOME, Move, Pile, cell, column, foundation
from .position import Position
from .rules import FREECELL, Rules
from .shorten import PASS_NODES, shorten

SHORTEN_NODES = PASS_NODES * 4
# the most of a level's width that states sharing their first move from the beam's start may take
# (while others are among the 3 x width best): without it, a beam all of whose states soon have their
# four free cells full and nothing to move dies (deal 14153: every beam from the start dies 35 to 44
# moves in; 34 moves at 500 wide with it, the published 32).  88 deals over 1.25 times the published,
# 90,000 nodes each: 8 over 1.35 -> 3, mean 1.289 -> 1.180 times; the 292-deal sample: 1.0523 ->
# 1.0482, 37.7% -> 38.0% as short (0.25: 4 over, 0.5: 9, 0.05: 3 but a mean of 1.209)
SHARE = 0.1
# how many levels a beam goes past the best solution's length less one: a solution that long is
# no shorter, but the shortening pass often makes it so (deal 849: 41 moves, then a 150-wide beam's
# solution of 41 or 42 shortened to 39; over 292 deals the mean fell 0.07%: 1 level gave less, 4 no more)
PAST_BEST = 2
# improve_for: short enough to stop at the first budget: at most this many moves over the groups of
# cards that must move at the start (the published solutions are 11.9 over on average).  Played on
# whole curves (bench.stop_rule: 371 deals run to the most, each rule's stop exact): the rule before,
# 0.85 times the first solution's length or 17 over the groups, stopped 5127 at 28 moves (the
# published 21: 1.333) and 25281 at 27 (21); the 1500-wide beam after the first budget finds 22 and
# 21.  With 13 and no share of the first, none of the 40 deals of 1..32000 furthest over the
# published stops long (over 1.25: 10 -> 2, both as long at the most); over an even sample of 326,
# the mean 1.0412 -> 1.0353 times the published, 42.1% -> 45.4% as short, 50% past the first
# budget (about 48% over 5,433 deals: the median stays at the first budget), 1.54 s a deal, not 1.19
SLACK = 13
RESERVE = 0.02  # seconds kept in hand before improve_for's most: a slice runs long on a loaded machine
# what the beam counts: player moves with maximum auto-play (the record's unit), or the game's
# turns (moves with the game's safe auto-move, a move home the player makes counting one)
RECORD, TURNS = "record", "turns"


# a beam state: columns, cells, foundations, parent, the moves from the parent (a player
# move, then the cards sent home), and its branch: the key of its ancestor one move from the
# beam's start (``None`` for the start)
_State = tuple[Cols, bytes, bytes, Any, tuple[RawMove, ...], bytes | None]
_Auto = tuple[Cols, bytes, bytes, Any, tuple[RawMove, ...]]  # a state before its branch is known


_SCORE = itemgetter(0)  # a scored state's score


def _blocks(col: bytes, w: Weights) -> int:
    """A column's share of the estimate: the groups of cards that must move, the cards over a lower card
    (weighted), less the bonus of an empty column."""
    if not col:
        return -w.empty
    unsorted = len(col) - 1  # the cards beneath the run that ends the column
    while unsorted and col[unsorted - 1] >> 2 == (col[unsorted] >> 2) + 1 \
            and ((col[unsorted - 1] & 3) in (1, 2)) != ((col[unsorted] & 3) in (1, 2)):
        unsorted -= 1
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
    return w.groups * groups + w.disorder * disorder + w.unsorted * unsorted


def _cell_part(cells: bytes, w: Weights) -> tuple[bytes, int]:
    """The free cells as in a state's key (sorted), and their share of the estimate."""
    return bytes(sorted(cells)), w.cells * (len(cells) - cells.count(EMPTY))


def _found_part(found: bytes, w: Weights) -> int:
    """The foundations' share of the estimate (a bonus for the cards home)."""
    return -w.left * sum(found)


def _varied(scored: Iterable[tuple[int, _State]], width: int, most: int) -> list[tuple[int, _State]]:
    """The ``width`` best of ``scored`` (lowest first), at most ``most`` of them of one branch
    while others are among the ``3 x width`` best; then the best passed over, if the level is short.

    >>> s = lambda branch: ((), b"", b"", None, (), branch)
    >>> level = [(1, s(b"a")), (2, s(b"a")), (3, s(b"a")), (4, s(b"b")), (5, s(b"a"))]
    >>> [(score, st[5]) for score, st in _varied(level, 3, 2)]
    [(1, b'a'), (2, b'a'), (4, b'b')]
    >>> [score for score, _ in _varied(level, 4, 1)]
    [1, 4, 2, 3]
    """
    ranked = heapq.nsmallest(3 * width, scored, key=_SCORE)
    per: dict[bytes | None, int] = {}
    chosen: list[tuple[int, _State]] = []
    passed: list[tuple[int, _State]] = []
    for entry in ranked:
        branch = entry[1][5]
        n = per.get(branch, 0)
        if n >= most:
            passed.append(entry)
            continue
        per[branch] = n + 1
        chosen.append(entry)
        if len(chosen) == width:
            return chosen
    return chosen + passed[:width - len(chosen)]


def groups_to_move(position: Position) -> int:
    """The groups of cards that must move before they can go home, in a position's columns."""
    return sum(_blocks(col, Weights(1, 0, 0, 0, 0)) for col in pack(position)[0])


def _pile(kind: int, index: int) -> Pile:
    if kind == FOUNDATION:
        return HOME if index < 0 else foundation(index)
    return column(index) if kind == COLUMN else cell(index)


def to_moves(raw: Sequence[RawMove]) -> list[Move]:
    return [Move(_pile(m[0], m[1]), _pile(m[2], m[3]), m[4]) for m in raw]


class Improver:
    """Shorter solutions of ``position`` than ``first`` (a solution of it), found in slices."""

    def __init__(self, position: Position, first: Sequence[Move], rules: Rules = FREECELL,
                 runs: Sequence[Run] = RUNS, unit: str = "record", share: float | None = SHARE) -> None:
        if unit not in (RECORD, TURNS):
            raise ValueError(f"unit must be {RECORD!r} or {TURNS!r}")
        self.unit = unit
        self.share = share  # of a level's width that one branch may take (None: no limit)
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
        self._beams(rules, list(runs))
        self._improve(list(first))  # the shortening pass on the first, once
        self._start_run()

    def _beams(self, rules: Rules, runs: list[Run]) -> None:
        """The beams to run, in order, and none under way yet."""
        self.runs = runs
        self.nodes = 0
        self.seconds = 0.0
        self.improvements = 0
        self.found_by: list[Run] = []  # the beam that found each shorter solution (in the unit searched)
        self.done = False
        self._gen = MoveGen(rules)
        self._costs = {w: Cache(partial(_blocks, w=w)) for w in {run.weights for run in runs}}
        # by weighting: each free-cell set sorted (as in a key) with its share of the estimate; each
        # foundations' share
        self._cell_part = {w: Cache(partial(_cell_part, w=w)) for w in {run.weights for run in runs}}
        self._found_part = {w: Cache(partial(_found_part, w=w)) for w in {run.weights for run in runs}}
        self._run = -1  # index in runs of the beam under way
        self._level: list[_State] = []
        self._at = 0  # the next state of the level to expand
        self._next: dict[bytes, tuple[int, _State]] = {}
        self._seen: dict[bytes, int] = {}
        self._depth = 0
        self._prefix: list[Move] = []  # the best's moves the beam under way starts after
        self._less = 0  # and their count

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
        """The next beam (or done, when the runs are spent)."""
        self._seen = {}
        self._next = {}
        self._level = []
        self._at = 0
        self._depth = 0
        while True:
            self._run += 1
            if self._run >= len(self.runs) or self.count <= 1:
                self.done = True
                return
            cut = self._cut(self.runs[self._run].cut)
            if cut is None:
                continue  # the best solution is too short to start this far along it
            self._prefix, pos = cut
            if self.unit == TURNS:
                self._less = game_count(self.position, self._prefix, self.rules)
                cols, cells, found, moves = self._gen.auto(*pack(pos), ())
                root: _State = (cols, cells, found, None, moves, None)
            else:
                self._less = record_count(self._prefix)
                root = (*self._auto(*pack(pos), (), None), None)
            if root[2] != WON:  # else nothing to improve: every card goes home by itself
                self._level = [root]
                return

    def _cut(self, cut: int) -> tuple[list[Move], Position] | None:
        """The moves of the best solution (in the unit searched) up to ``cut`` of them and the
        position they reach, the moves that cost nothing after them included; ``None`` if no
        move of the best would be left after them (no move at all for ``cut`` 0)."""
        if not cut:
            return [], self.position
        line = self.fewest if self.unit == TURNS else self.best
        pos = self.position
        i = 0
        for n in range(cut + 1):
            if n:
                pos = apply_move(pos, line[i])
                i += 1
            while i < len(line) and (goes_home_by_itself(pos, line[i], self.rules) if self.unit == TURNS
                                     else line[i].dst.kind == FOUNDATION):
                pos = apply_move(pos, line[i])
                i += 1
            if i >= len(line):
                return None
        return line[:i], pos

    def _next_level(self) -> bool:
        """The best of the children for the next level; ``False`` when the run is over."""
        self._depth += 1
        bound = (self.fewest_turns if self.unit == TURNS else self.count) - self._less
        if not self._next or self._depth >= bound - 1 + PAST_BEST:
            return False  # nothing left, or past the best solution (PAST_BEST)
        width = self.runs[self._run].width_at(self._depth)
        if self.share is None:
            chosen = heapq.nsmallest(width, self._next.values(), key=_SCORE)
        else:
            chosen = _varied(self._next.values(), width, max(1, math.ceil(self.share * width)))
        self._level = [s for _, s in chosen]
        self._at = 0
        self._next = {}
        return True

    def _auto(self, cols: Cols, cells: bytes, found: bytes, moves: tuple[RawMove, ...],
              parent: Any) -> _Auto:
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
        weights = self.runs[self._run].weights
        cost = self._costs[weights].__getitem__
        auto = self._auto
        pfound = state[2]
        nexts = self._gen.home[pfound][2]
        turns = self.unit == TURNS
        branch = state[5]  # None at the start: each child is a branch of its own
        cell_part = self._cell_part[weights].__getitem__
        found_part = self._found_part[weights].__getitem__
        join = SEP.join
        for cols, cells, found, moves in self._gen.children(state[0], state[1], pfound):
            if turns:  # the safe auto-moves are played already; a move home is a child
                if found == WON:
                    return cols, cells, found, state, moves, branch
            # the parent had no card to send home: with the foundations unchanged, only the
            # card a move uncovers can go home now
            elif found is not pfound or (moves[0][0] == COLUMN and cols[moves[0][1]]
                                         and cols[moves[0][1]][-1] in nexts):
                cols, cells, found, _, moves = auto(cols, cells, found, moves, state)
                if found == WON:
                    return cols, cells, found, state, moves, branch
            sorted_cells, cells_cost = cell_part(cells)
            key = join(sorted(cols)) + sorted_cells + found
            if seen.get(key, 999) <= depth:
                continue
            seen[key] = depth
            score = sum(map(cost, cols)) + cells_cost + found_part(found)
            nxt[key] = (score, (cols, cells, found, state, moves, key if branch is None else branch))
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
        before = self.fewest_turns if self.unit == TURNS else self.count
        better = self._improve(self._prefix + self._path(state))
        if (self.fewest_turns if self.unit == TURNS else self.count) < before:
            self.found_by.append(self.runs[self._run])
        return better

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


# how many levels a FirstBeam beam may go (a first solution of 1..32000 has at most 60 moves in the
# record's count)
FIRST_LEVELS = 100


class FirstBeam(Improver):
    """Beams from ``position`` with no solution known yet: the first solution any of them finds.

    The solver (:mod:`freecell.solver`) runs these where its own orders stall: a
    150-wide beam solves most deals that take its orders 15,000 states and more in
    3,000 to 6,000 nodes, each a third cheaper than one of the solver's.  A beam is
    not complete: when every run has ended without a solution, :attr:`done` is set
    and :attr:`solution` stays ``None``, which proves nothing.
    """

    def __init__(self, position: Position, rules: Rules = FREECELL,
                 runs: Sequence[tuple[int, int]] = FIRST_RUNS) -> None:
        self.unit = RECORD
        self.share = None  # the solver's beams as they were measured: the best of each level
        self.position = position
        self.rules = rules
        self.first = self.best = self.fewest = []
        self.count = FIRST_LEVELS  # the bound of every beam: no solution known
        self.turns = self.fewest_turns = FIRST_LEVELS
        self.solution: list[Move] | None = None
        beams = [Run(width, WEIGHTS[w]) for width, w in runs]
        self._beams(rules, beams)
        self._start_run()

    @property
    def size(self) -> int:
        """The states this search holds (the beam under way's, scored)."""
        return len(self._seen)

    def _found(self, state: _State) -> bool:
        self.solution = self._path(state)
        self.found_by.append(self.runs[self._run])
        self._run = len(self.runs)  # the next _start_run ends the search
        return True


def clock(cpu: bool) -> Callable[[], float]:
    """The clock of a budget: this process's CPU time, or the wall clock."""
    return time.process_time if cpu else time.perf_counter


def _node_seconds(imp: Improver, rate: float) -> float:
    return imp.nodes / rate


def improve_for(position: Position, first: Sequence[Move], rules: Rules = FREECELL, seconds: float = 1.0,
                cpu: bool = False, slice_nodes: int = 200, max_seconds: float | None = None,
                slack: int = SLACK, rate: float | None = None) -> Improver:
    """An :class:`Improver` run for ``seconds`` (of CPU time with ``cpu``) or until it is done.

    With ``rate``, a second is that many of the search's nodes, not a second
    of a clock: the same answer on any machine, at any load (a benchmark's
    way to compare runs made on different machines).

    With ``max_seconds``, it goes on while the best is still long, more than
    ``slack`` moves over the groups of cards that must move at the start
    (:func:`groups_to_move`: the wider beams after the first budget find the
    short solutions the narrow ones miss), and while two more slices as long
    as the last, or one as long as the longest (a slice that found a solution
    ran the shortening pass on it), would end :data:`RESERVE` before
    ``max_seconds``.
    """
    now = clock(cpu)
    start = now()
    imp = Improver(position, first, rules)
    if rate is not None:  # the budget in nodes: the shortening pass on the first is not counted
        now = partial(_node_seconds, imp, rate)
        start = 0.0
    target = groups_to_move(position) + slack
    last = worst = 0.0  # the last slice's time, the longest's
    while not imp.done:
        spent = now() - start
        if not another_slice(spent, last, worst, seconds, max_seconds, imp.count > target):
            break
        imp.run(max_nodes=slice_nodes)
        last = now() - start - spent
        worst = max(worst, last)
    return imp


def another_slice(spent: float, last: float, worst: float, seconds: float, max_seconds: float | None,
                  long: bool) -> bool:
    """:func:`improve_for`'s rule (and the benchmark's, ``bench.stop_rule``): whether to run one more
    slice, ``spent`` into the search, the last slice ``last`` long and the longest ``worst``: while
    ``seconds`` are not spent; then while the best is ``long`` and two more slices as long as the last,
    or one as long as the longest, would end :data:`RESERVE` before ``max_seconds``.

    >>> another_slice(0.39, 0.01, 0.01, 0.4, 3.0, False), another_slice(0.4, 0.01, 0.01, 0.4, 3.0, False)
    (True, False)
    >>> another_slice(2.95, 0.01, 0.01, 0.4, 3.0, True), another_slice(2.97, 0.01, 0.01, 0.4, 3.0, True)
    (True, False)
    """
    if spent < seconds:
        return True
    return long and max_seconds is not None and spent + max(2 * last, worst) + RESERVE < max_seconds
