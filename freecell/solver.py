"""The solver: complete over single-card moves, resumable in slices, honest.

:class:`Solver` searches from a position under its rules and ends with one of
three verdicts: ``solved`` (with the moves, each a legal move of the engine in
the player's coordinates, ending with all 52 cards home), ``unsolvable`` (only
when the whole reachable space is exhausted) or ``unknown`` (the budget or the
memory cap ran out).  :meth:`Solver.run` does a bounded amount of work and
returns; the next call goes on where it stopped.

Search: best-first on ``g + W * h`` (moves so far, plus a weighted estimate of
the work left), with several such orders taking turns over one shared frontier
(each state is expanded once, by whichever order reaches it first: one order
stalls where another does not), over canonical states (columns and free cells
taken as sets, so relabellings are not searched twice).  When these stall
(15,000 states expanded with no verdict, and a wide frontier), other searches
start beside them with tables of their own: best-first ones that value free
space, and a depth-first one (:data:`SIDE_SEARCHES`); each is complete, and
each finds solutions where the others stall.  Before them, beam searches run
alone (:data:`FIRST_BEAM`): they are not complete, but fast where all of those
stall, and when they end with no solution they prove nothing.  The memory cap counts the states
of all of them.  Every single-card move is generated, so the search is
complete; multi-card moves within the capacity are generated too (they are
single-card moves chained through free cells and empty columns, and make
solutions shorter).  The only pruning, each safe:

1. Safe auto-moves (see :mod:`freecell.engine`): when a card that nothing on
   the table can still need can go home, that is the only move tried.  Any
   solution of the position before stays a solution after it.
2. No cell-to-cell move, no move of a whole column into an empty column, and
   of several empty free cells or empty columns only the first is a target:
   each of these leads to the same canonical state as a move that is tried.

Solutions are then shortened (:mod:`freecell.shorten`: moves deleted or
redirected, stretches with slack searched again) and replayed by the engine
before they are returned.

A search may be given a known solution (:class:`freecell.known.KnownPath`, from a position
searched before): any state of the search that is a state along it (up to the
order of columns and free cells) is solved at once, by the path to it and the
rest of the known solution, relabelled to the search's columns.  The root's
children and grandchildren are looked up first, so a position a move or two
off a known line is answered in a few nodes.

:func:`quick_hint` is the cheap fallback for the page itself: a small search
and the first move towards its best state, a few milliseconds.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Any, Final

from .engine import check_move, legal_moves, verify_solution
from .improve import FirstBeam
from .known import KnownPath as KnownPath
from .packed import COST_BITS, COST_MASK, SEP, WON, Child, Cols, MoveGen, RawMove, key, pack, unpack
from .piles import COLUMN, FOUNDATION, HOME, Move, Pile, cell, column, foundation
from .position import Position
from .rules import FREECELL, Rules
from .shorten import PASS_NODES, shorten

SOLVED, UNSOLVABLE, UNKNOWN = "solved", "unsolvable", "unknown"
# Orders of the search, taken in turn over one shared frontier: (weight of the
# estimate against the moves made, weight of the cards lying on top of the next
# cards for the foundations [, weight of the free space: empty free cells + 2 x
# empty columns]).
ORDERS: tuple[tuple[float, ...], ...] = ((2.5, 0.5), (2.5, 1.0), (2.0, 1.0), (3.0, 1.0, 2.0))
# When the orders have expanded this many states without a verdict, other
# searches start beside them, each with its own table of states
# (:data:`SIDE_SEARCHES`): best-first ones that value free space and ignore the
# buried cards (they solve most of the deals where the orders above stall, with
# short solutions: on the 49 hardest deals of 1..32000 the (2, 0, 6) order
# alone needs a median of 6k states expanded, against 38k) and a depth-first
# one (the deepest state first, the best estimate among siblings), which
# solves a few where every best-first order runs out of memory.  The search
# above takes one slice of DEEP_SLICE nodes, then SIDE_RUN side searches one
# slice each, in turn.  Each is complete, so any of them may prove a position
# lost.  They only get their turns while the frontier above is wide (at least
# SIDE_MIN_OPEN states waiting per state expanded): a narrow frontier is a
# small space about to be exhausted (deal 11982: 0.53 at 10,000 nodes, 0.44
# at 15,000, 0.37 at 20,000; most hard winnable deals: 0.5 to 3), where they
# would only slow the proof down.
# At that point, if the frontier is wide, beam searches run first, alone
# (:class:`freecell.improve.FirstBeam`: 150 then 500 wide), until one solves the
# position or all have ended; only then do the side searches start.  On the 65
# deals of 1..10,383 that take the orders more than 15,000 states, the beams
# solve all 65: CPU max 3.3 s -> 1.1 s (deal 6182: 93,774 nodes -> 21,648), in
# all 42.9 s -> 36.7 s, and shorter first solutions (41.6 -> 35.1 moves with
# maximum auto-play); a deal the side searches would have solved just past
# 15,000 states takes up to 2.5 times as long (deal 1159: 0.44 s -> 0.99 s).
# The beams give up after FIRST_BEAM_NODES nodes in all: where they find nothing (deal 11230: all
# four end with no solution after 85,000 nodes) the side searches take over soon.  The most any
# of those 65 deals needed was 29,969 (deal 8858).
FIRST_BEAM = True
FIRST_BEAM_NODES = 32_000
DEEP_AFTER = 15_000
DEEP_SLICE = 32
SIDE_MIN_OPEN = 0.45
SIDE_RUN = 4
DEPTH_FIRST = "depth"
SIDE_SEARCHES: tuple[tuple[str, tuple[tuple[float, ...], ...]], ...] = (
    ("best", ((2.0, 0.0, 6.0),)),
    ("best", ((3.0, 0.0, 3.0),)),
    ("best", ((5.0, 1.0, 2.0),)),
    (DEPTH_FIRST, ((1.0, 1.0, 2.0),)),
)
# Memory cap, the states of every table together.  Measured in CPython: 242 MB
# at the peak of deal 4467 (312,000 states; the deal of 1..32000 that needs the
# most nodes), 417 MB at the cap with a wide frontier in all four heaps (a
# contrived run); a packed key is ~130 bytes a state, a state still waiting in
# the heaps ~600 more.
MAX_STATES = 400_000
# The shortening pass's node budget (:func:`freecell.shorten.shorten`): PASS_NODES,
# and SHORTEN_PER_MOVE more for each move of the solution beyond SHORTEN_FROM
# (long solutions have the most slack, and are the rare ones).
SHORTEN_FROM = 90
SHORTEN_PER_MOVE = 400
# quick_hint's search: small enough for a few milliseconds in the page's Python
QUICK_NODES = 40
QUICK_STATES = 5_000
# An entry of a heap: the priority and the state's number (its place in Solver._nodes),
# packed in one int as priority * 4 << INDEX_BITS + number (an int compares faster than a
# tuple, and takes less memory), or as a tuple when the weights are not multiples of 1/2
Entry = int | tuple[float, int]
INDEX_BITS = 40
INDEX = (1 << INDEX_BITS) - 1


@dataclass
class Result:
    verdict: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    states: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "verdict": self.verdict,
            "moves": [m.to_json() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


# A state of the search: packed (:mod:`freecell.packed`), with the way to it: a plain tuple
# (columns, free cells, foundations, parent state or None, the moves from the parent, moves
# from the start), made in one step (a class's __init__ is a call, and the search makes a
# node for each new state).  Whether it was expanded is kept by its number (Solver._done).
_Node = tuple[Cols, bytes, bytes, Any, tuple[RawMove, ...], int]
PARENT: Final = 3
MOVES: Final = 4
G: Final = 5


class Solver:
    """A resumable search from ``position`` under ``rules``."""

    def __init__(self, position: Position, rules: Rules = FREECELL,
                 max_states: int = MAX_STATES,
                 orders: tuple[tuple[float, ...], ...] = ORDERS,
                 deep_after: int | None = DEEP_AFTER,
                 depth_first: tuple[float, ...] | None = None,
                 known: KnownPath | None = None) -> None:
        position.validate(rules)
        if known is not None and known.rules != rules:
            raise ValueError("a known path under other rules")
        self.position = position
        self.rules = rules
        self.max_states = max_states
        self.orders = orders
        self.nodes = 0
        self.seconds = 0.0
        self.result: Result | None = None
        self._seen: set[bytes] = set()
        self._nodes: list[_Node] = []  # every state in the heaps, by its number
        self._done = bytearray()  # by number: 1 once expanded
        self._heaps: list[list[Entry]] = [[] for _ in orders]
        self.deep_after = None if depth_first else deep_after
        self.depth_first = depth_first
        if depth_first:
            self._heaps = [[]]
        self._needs_space = depth_first is not None or any(len(o) > 2 for o in orders)
        self._side: list[Solver] = []  # the searches beside this one, once started
        self._beam: FirstBeam | None = None  # the beams run first when the orders stall, while they last
        self._side_turn = 0  # 0: this search; i: side search i - 1
        self._next_side = -1  # the side search that had the last side slice
        self._slices = 0  # slices since the side searches started
        self._slice_left = DEEP_SLICE
        self._own = 0  # states expanded by this search itself
        self._turn = 0
        self._run_start = time.perf_counter()
        self._best: tuple[float, _Node] | None = None
        self._gen = MoveGen(rules)
        # each heap with its order's weights: (heap, of the estimate, of the buried cards, of the space)
        weights = [depth_first] if depth_first else [(*o[:2], o[2] if len(o) > 2 else 0.0) for o in orders]
        # with every weight a multiple of 1/2, a priority is a multiple of 1/4, computed
        # exactly in floats: the heaps then hold it as an int (see Entry)
        self._exact = all(float(2 * w).is_integer() and abs(w) < 2 ** 20 for o in weights for w in o)
        self._weights = [(heap, *((int(2 * w) for w in o) if self._exact else o))
                         for heap, o in zip(self._heaps, weights, strict=True)]
        if self._exact and not depth_first:  # (see _push_all)
            self._weights = [(heap, w << INDEX_BITS, d, sp) for heap, w, d, sp in self._weights]
        self.known = known
        self._hit: tuple[_Node, int] | None = None  # a state of the search along the known path
        self._repaired: list[Move] | None = None  # the known path's rest, played from here
        self._lookahead = known is not None  # the root's children and grandchildren first
        start = self._gen.auto(*pack(position), ())
        self._root: _Node = (*start[:3], None, start[3], len(start[3]))
        self._push_all(None, [start])

    @property
    def size(self) -> int:
        """The states this search holds in memory (its side searches' included)."""
        beam = 0 if self._beam is None else self._beam.size
        return len(self._seen) + sum(len(o._seen) for o in self._side) + beam

    def use_known(self, known: KnownPath) -> None:
        """Look states up in ``known`` from now on (the root's neighbours first, at the next run)."""
        self.known = known
        self._lookahead = self.result is None
        for other in self._side:
            other.known = known

    # --- states -------------------------------------------------------------
    def _push_all(self, parent: _Node | None, children: list[Child]) -> None:
        """Add the new states among ``children`` (of ``parent``) to the table and the heaps.

        The search's hot loop.  Each child's canonical key
        (:func:`freecell.known.state_key`, built here from the packed
        columns) is looked up in the known path, then in the table; a new
        state gets its estimate of the work left: twice the cards not home,
        plus the cards lying on lower cards and the free cells in use
        (``base``); and apart, the cards lying on top of the next cards for
        the foundations (``depth``), found in the key's columns.
        """
        seen = self._seen
        known = self.known
        gen = self._gen
        column_costs = gen.column_costs
        free_cells = self.rules.free_cells
        g0 = 0 if parent is None else parent[G]
        nodes = self._nodes
        done = self._done
        room = len(done)
        number = len(nodes) - 1  # the last state's
        weights = self._weights
        exact = self._exact
        df = self.depth_first is not None
        needs_space = self._needs_space
        w0 = self.orders[0][1]
        best = self._best
        push = heapq.heappush
        cell_info = gen.cell_info
        home = gen.home
        cells_now = found_now = cell_key = tail = b""
        empty_cells = not_home = fixed = 0
        cost = column_costs(b"\0\0\0\0").__getitem__
        for cols, cells, found, moves in children:
            if cells is not cells_now or found is not found_now:  # many children share them
                if found is not found_now:
                    found_now = found
                    not_home = home[found][0]
                    cost = column_costs(found).__getitem__
                if cells is not cells_now:
                    cells_now = cells
                    cell_key, empty_cells = cell_info[cells]
                tail = cell_key + found
                fixed = not_home + free_cells - empty_cells
            key = SEP.join(sorted(cols)) + tail
            n = None
            if known is not None and self._hit is None:
                k = known.find(key)
                if k is not None:
                    n = (cols, cells, found, parent, moves, g0 + len(moves))
                    self._hit = (n, k)
            if key in seen:
                continue
            seen.add(key)
            g = g0 + len(moves)
            if n is None:
                n = (cols, cells, found, parent, moves, g)
            costs = sum(map(cost, cols))  # three sums in one (see ColumnCosts)
            base = fixed + (costs & COST_MASK)
            depth = (costs >> COST_BITS) & COST_MASK
            space = empty_cells + 2 * (costs >> 2 * COST_BITS) if needs_space else 0
            number += 1
            nodes.append(n)
            if number == room:  # the expanded flags grow ahead of the states
                done.extend(bytes(room + 64))
                room = len(done)
            if exact:
                if df:  # deepest first: (A base + B depth - C space - 1000 g) * 2
                    for heap, a, b, c in weights:
                        push(heap, ((a * base + b * depth - c * space - 2000 * g) << INDEX_BITS) + number)
                else:  # (g + w (base + d depth - s space)) * 4, w shifted already
                    at = (4 * g << INDEX_BITS) + number
                    base2 = 2 * base
                    for heap, w, d, sp in weights:
                        push(heap, at + w * (base2 + d * depth - sp * space))
            elif df:
                for heap, a, b, c in weights:
                    push(heap, (a * base + b * depth - c * space - 1000.0 * g, number))
            else:
                for heap, w, d, sp in weights:
                    push(heap, (g + w * (base + d * depth - sp * space), number))
            h = base + w0 * depth
            if parent is not None and (best is None or h < best[0]):
                best = (h, n)
        self._best = best

    # --- running --------------------------------------------------------------
    def run(self, max_nodes: int | None = None, seconds: float | None = None) -> Result | None:
        """Search for a while; the verdict when there is one, else ``None`` (call again)."""
        if self.result is not None:
            return self.result
        start = self._run_start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        done = 0
        heaps = self._heaps
        nodes = self._nodes
        expanded = self._done
        exact = self._exact
        heappop = heapq.heappop
        try:
            if self._lookahead:
                self._lookahead = False
                done = self._look_ahead()
            if self._hit is not None:
                self.result = self._finish_known(*self._hit)
                return self.result
            if self._repaired is not None:
                self.result = self._finish(SOLVED, None, self._repaired)
                return self.result
            while any(heaps):
                if max_nodes is not None and done >= max_nodes:
                    return None
                if deadline is not None and (done & 63) == 0 and time.perf_counter() >= deadline:
                    return None
                side = self._side
                states = len(self._seen)
                if side and self._slice_left <= 0:  # the other tables, once a slice
                    states += sum(len(o._seen) for o in side)
                if states > self.max_states:
                    self.result = self._finish(UNKNOWN, None)
                    return self.result
                if self._beam is not None:  # the beams, alone, until they end
                    beam = self._beam
                    before = beam.nodes
                    beam.run(max_nodes=DEEP_SLICE)
                    done += beam.nodes - before
                    self.nodes += beam.nodes - before
                    if beam.solution is not None:
                        self._beam = None
                        self.result = self._finish(SOLVED, None, beam.solution)
                        return self.result
                    if beam.done or beam.nodes >= FIRST_BEAM_NODES \
                            or beam.size + len(self._seen) > self.max_states:
                        self._beam = None
                    continue
                if side and self._slice_left <= 0:
                    self._slice_left = DEEP_SLICE
                    # this search takes one slice, then SIDE_RUN side searches one each
                    self._slices += 1
                    if self._slices % (SIDE_RUN + 1) == 0 or (
                        len(self._seen) - self._own < SIDE_MIN_OPEN * self._own
                    ):
                        self._side_turn = 0
                    else:
                        self._next_side = (self._next_side + 1) % len(side)
                        self._side_turn = self._next_side + 1
                if side and self._side_turn:
                    other = side[self._side_turn - 1]
                    before = other.nodes
                    verdict = other.run(max_nodes=DEEP_SLICE)
                    done += other.nodes - before
                    self.nodes += other.nodes - before
                    self._slice_left = 0
                    if verdict is not None:
                        side.remove(other)
                        self._side_turn = 0
                        if verdict.verdict != UNKNOWN:  # every search here is complete
                            self.result = self._adopt(verdict)
                            return self.result
                    continue
                if self.deep_after is not None and self.nodes >= self.deep_after:
                    self.deep_after = None  # once
                    if FIRST_BEAM and len(self._seen) - self._own >= SIDE_MIN_OPEN * self._own:
                        self._beam = FirstBeam(self.position, self.rules)  # a wide frontier: not a proof
                    for kind, orders in SIDE_SEARCHES:
                        other = Solver(self.position, self.rules, self.max_states, deep_after=None,
                                       orders=orders if kind != DEPTH_FIRST else ((0.0, 0.0),),
                                       depth_first=orders[0] if kind == DEPTH_FIRST else None,
                                       known=self.known)
                        other._lookahead = False  # done once, here
                        side.append(other)
                # the orders take turns over one shared frontier: each state is
                # expanded once, whichever order reaches it first.  A pop of a
                # state expanded already, or of an empty heap, is a turn too; it
                # leaves the checks above as they were unless a slice ended or
                # the clock is due, so the next turn follows at once.
                again = (deadline is None or done & 63) and not (side and self._slice_left <= 0)
                node = None
                turn = self._turn
                while True:
                    turn = (turn + 1) % len(heaps)
                    heap = heaps[turn]
                    if heap:
                        entry = heappop(heap)
                        number = entry & INDEX if exact else entry[1]  # type: ignore[index,operator]
                        if not expanded[number]:
                            node = nodes[number]
                            break
                    elif not any(heaps):
                        break
                    if not again:
                        break
                self._turn = turn
                if node is None:
                    continue
                expanded[number] = 1
                done += 1
                self.nodes += 1
                self._own += 1
                self._slice_left -= 1
                if node[2] == WON:
                    self.result = self._finish(SOLVED, node)
                    return self.result
                self._push_all(node, self._gen.children(node[0], node[1], node[2]))
                if self._hit is not None:
                    self.result = self._finish_known(*self._hit)
                    return self.result
            self.result = self._finish(UNSOLVABLE, None)
            return self.result
        finally:
            self.seconds += time.perf_counter() - start

    def solve(self, seconds: float | None = None, max_nodes: int | None = None) -> Result:
        """Run to a verdict, or to ``unknown`` when the budget runs out."""
        r = self.run(max_nodes=max_nodes, seconds=seconds)
        if r is None:
            return Result(UNKNOWN, nodes=self.nodes, seconds=self.seconds, states=len(self._seen))
        return r

    def _look_ahead(self) -> int:
        """Look the root's children and grandchildren up in the known path; the nodes expanded.

        The best one found (fewest moves in all) is the hit.  Without one, the
        rest of the known path may still play from here as card moves
        (:meth:`KnownPath.repair`).
        """
        known = self.known
        if known is None or self._hit is not None:
            return 0
        best: tuple[int, _Node, int] | None = None

        def on_path(node: _Node) -> bool:
            """Whether ``node`` is on the known solution; the shortest way found is kept."""
            nonlocal best
            k = known.find(key(*node[:3]))
            if k is None:
                return False
            total = node[G] + len(known.moves) - k
            if best is None or total < best[0]:
                best = (total, node, k)
            return True

        expanded = 1
        root = self._root
        children = self._gen.children
        for cols, cells, found, moves in children(*root[:3]):
            child: _Node = (cols, cells, found, root, moves, root[G] + len(moves))
            if on_path(child):
                continue
            expanded += 1
            for grand in children(cols, cells, found):
                on_path((*grand[:3], child, grand[3], child[G] + len(grand[3])))
        self.nodes += expanded
        if best is not None:
            self._hit = (best[1], best[2])
        else:
            self._repaired = known.repair(self.position)
        return expanded

    def _finish_known(self, node: _Node, k: int) -> Result:
        """Solved: the path to ``node`` and the known path's rest from its state ``k``."""
        known = self.known
        if known is None:
            raise AssertionError("a hit without a known path")
        here = unpack(*node[:3])
        return self._finish(SOLVED, None, self._path(node) + known.rest(k, here))

    def _finish(self, verdict: str, node: _Node | None, moves: list[Move] | None = None) -> Result:
        if node is not None:
            moves = self._path(node)
        if moves is None:
            moves = []  # no solution here (or one adopted from a side search)
        elif verdict == SOLVED:
            extra = max(0, len(moves) - SHORTEN_FROM) * SHORTEN_PER_MOVE
            moves = shorten(self.position, self.rules, moves, PASS_NODES + extra)
            verify_solution(self.position, moves, self.rules)  # NotASolutionError: a bug
        self._heaps = [[] for _ in self.orders]
        self._nodes = []
        self._done = bytearray()
        self._side = []
        seen = len(self._seen)
        self._seen = set()
        spent = self.seconds + time.perf_counter() - self._run_start
        self._gen.clear()
        return Result(verdict, moves, self.nodes, spent, seen)

    def _adopt(self, sub: Result) -> Result:
        """The verdict of a search beside this one, as this search's."""
        own = self._finish(sub.verdict, None)
        return Result(sub.verdict, sub.moves, self.nodes, own.seconds, own.states + sub.states)

    def _path(self, node: _Node) -> list[Move]:
        chunks: list[tuple[RawMove, ...]] = []
        n: _Node | None = node
        while n is not None:
            chunks.append(n[MOVES])
            n = n[PARENT]
        raw = [m for chunk in reversed(chunks) for m in chunk]
        return [_to_move(m) for m in raw]

    # --- hints ---------------------------------------------------------------
    def best_move(self) -> Move | None:
        """A sensible move when no verdict came: the first move towards the best state seen.

        When the search has been solved, the first move of the solution.
        """
        if self.result is not None and self.result.verdict == SOLVED and self.result.moves:
            return self.result.moves[0]
        if self._best is None:
            return None
        path = self._path(self._best[1])
        return path[0] if path else None


def _pile(kind: int, index: int) -> Pile:
    if kind == FOUNDATION:
        return HOME if index < 0 else foundation(index)
    return column(index) if kind == COLUMN else cell(index)


def _to_move(m: RawMove) -> Move:
    return Move(_pile(m[0], m[1]), _pile(m[2], m[3]), m[4])


def quick_hint(position: Position, rules: Rules = FREECELL, max_nodes: int = QUICK_NODES) -> Move | None:
    """A move to suggest at once, before any real search: a few milliseconds.

    The same kind of move as the worker's fallback: a search of ``max_nodes``
    nodes (no side searches, a small memory cap), then the first move of its
    solution if it found one, else the first move towards the best state it
    saw (:meth:`Solver.best_move`).  Always a legal move; ``None`` only when
    the position has none (a won or a dead one).
    """
    s = Solver(position, rules, max_states=QUICK_STATES, orders=ORDERS[:1], deep_after=None)
    s.run(max_nodes=max_nodes)
    move = s.best_move()
    if move is not None and check_move(position, move, rules) is None:
        return move
    moves = legal_moves(position, rules, distinct=True)
    return moves[0] if moves else None
