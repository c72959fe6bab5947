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
each finds solutions where the others stall.  The memory cap counts the states
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
from collections.abc import Iterator
from dataclasses import dataclass, field

from .engine import apply_move, check_move, legal_moves
from .known import KnownPath as KnownPath
from .known import state_key
from .piles import CELL, COLUMN, FOUNDATION, HOME, Move, Pile, cell, column, foundation
from .position import Position
from .rules import FREECELL, Build, EmptyColumn, Rules
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

# A move inside the search: (src kind, src index, dst kind, dst index, count)
RawMove = tuple[int, int, int, int, int]
Cols = tuple[tuple[int, ...], ...]
Cells = tuple[int, ...]  # -1 for an empty free cell
Found = tuple[int, int, int, int]


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


def _red(card: int) -> bool:
    s = card & 3
    return s == 1 or s == 2


_FITS: dict[Build, tuple[list[tuple[int, ...]], list[frozenset[int]]]] = {}


def _fits_table(rules: Rules) -> tuple[list[tuple[int, ...]], list[frozenset[int]]]:
    """For each card, the cards that may lie on it, as tuples and as sets (made once a build rule)."""
    tables = _FITS.get(rules.build)
    if tables is None:
        fits = [tuple(c for c in range(52) if rules.builds_on(c, base)) for base in range(52)]
        tables = _FITS[rules.build] = (fits, [frozenset(f) for f in fits])
    return tables


class _Node:
    __slots__ = ("cells", "cols", "done", "found", "g", "moves", "parent")

    def __init__(self, cols: Cols, cells: Cells, found: Found, parent: _Node | None,
                 moves: tuple[RawMove, ...], g: int) -> None:
        self.cols = cols
        self.cells = cells
        self.found = found
        self.parent = parent
        self.moves = moves
        self.g = g
        self.done = False


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
        self._counter = 0
        self._seen: set[bytes] = set()
        self._heaps: list[list[tuple[float, int, _Node]]] = [[] for _ in orders]
        self.deep_after = None if depth_first else deep_after
        self.depth_first = depth_first
        if depth_first:
            self._heaps = [[]]
        self._needs_space = depth_first is not None or any(len(o) > 2 for o in orders)
        self._side: list[Solver] = []  # the searches beside this one, once started
        self._side_turn = 0  # 0: this search; i: side search i - 1
        self._next_side = -1  # the side search that had the last side slice
        self._slices = 0  # slices since the side searches started
        self._slice_left = DEEP_SLICE
        self._own = 0  # states expanded by this search itself
        self._turn = 0
        self._run_start = time.perf_counter()
        self._best: tuple[float, _Node] | None = None
        self._alt = rules.build is Build.ALTERNATE
        self._suit = rules.build is Build.SUIT
        self._any_empty = rules.empty_column is EmptyColumn.ANY
        self._runs: dict[tuple[int, ...], int] = {}
        self._disorder: dict[tuple[int, ...], int] = {}
        self._fits, self._fit_sets = _fits_table(rules)
        self.known = known
        self._hit: tuple[_Node, int] | None = None  # a state of the search along the known path
        self._repaired: list[Move] | None = None  # the known path's rest, played from here
        self._lookahead = known is not None  # the root's children and grandchildren first
        cells = tuple(-1 if c is None else c for c in position.cells)
        root = _Node(position.columns, cells, position.foundations, None, (), 0)
        root = self._auto(root)
        self._root = root
        self._push(root)

    @property
    def size(self) -> int:
        """The states this search holds in memory (its side searches' included)."""
        return len(self._seen) + sum(len(o._seen) for o in self._side)

    def use_known(self, known: KnownPath) -> None:
        """Look states up in ``known`` from now on (the root's neighbours first, at the next run)."""
        self.known = known
        self._lookahead = self.result is None
        for other in self._side:
            other.known = known

    # --- rules, fast ----------------------------------------------------
    def _builds(self, card: int, base: int) -> bool:
        if (base >> 2) != (card >> 2) + 1:
            return False
        if self._alt:
            return _red(card) != _red(base)
        if self._suit:
            return (card & 3) == (base & 3)
        return True

    def _run(self, col: tuple[int, ...]) -> int:
        n = len(col)
        k = 1
        while k < n and self._builds(col[n - k], col[n - k - 1]):
            k += 1
        return k if n else 0

    def _safe(self, card: int, found: Found) -> bool:
        r = (card >> 2) + 1
        if r <= 2:
            return True
        if self.rules.foundation_return:
            return False
        if self._suit:
            return True
        s = card & 3
        if self._alt:
            red = s == 1 or s == 2
            return all(found[t] >= r - 1 for t in range(4) if (t == 1 or t == 2) != red)
        return all(found[t] >= r - 1 for t in range(4) if t != s)

    # --- states -------------------------------------------------------------
    @staticmethod
    def _key(n: _Node) -> bytes:
        """The canonical state, packed: about 100 bytes, against 250 as tuples.

        Columns in sorted order with a separator (no card is 255), then the
        free cells sorted (an empty one is 255), then the four foundations.
        """
        return state_key(n.cols, n.cells, n.found)

    def _auto_child(self, n: _Node) -> _Node:
        """:meth:`_auto` for a child of a state that had no safe auto-move left.

        A move that leaves the foundations as they were can only make one new
        card playable: the one it uncovers in its source column.  Any other
        card on top (the moved ones included) was on top in the parent too.
        """
        m = n.moves[0]
        if m[0] == COLUMN and m[2] != FOUNDATION:
            col = n.cols[m[1]]
            if not col:
                return n
            c = col[-1]
            if n.found[c & 3] != c >> 2 or not self._safe(c, n.found):
                return n
        elif m[0] == CELL and m[2] != FOUNDATION:
            return n
        return self._auto(n)

    def _auto(self, n: _Node) -> _Node:
        """Play every safe auto-move (each an explicit move of the solution)."""
        cols, cells, found = n.cols, n.cells, n.found
        moves: list[RawMove] = []
        changed = True
        while changed:
            changed = False
            for i, c in enumerate(cells):
                if c >= 0 and found[c & 3] == c >> 2 and self._safe(c, found):
                    cells = cells[:i] + (-1,) + cells[i + 1:]
                    found = _inc(found, c & 3)
                    moves.append((CELL, i, FOUNDATION, -1, 1))
                    changed = True
            for i, col in enumerate(cols):
                if col:
                    c = col[-1]
                    if found[c & 3] == c >> 2 and self._safe(c, found):
                        cols = cols[:i] + (col[:-1],) + cols[i + 1:]
                        found = _inc(found, c & 3)
                        moves.append((COLUMN, i, FOUNDATION, -1, 1))
                        changed = True
        if not moves:
            return n
        return _Node(cols, cells, found, n.parent, n.moves + tuple(moves), n.g + len(moves))

    def _estimate(self, n: _Node) -> tuple[float, float]:
        """Work left: cards not home, cards lying on lower cards and cells in use;
        and apart, the cards lying on top of the next cards for the foundations."""
        found = n.found
        cols = n.cols
        h = 2.0 * (52 - found[0] - found[1] - found[2] - found[3])
        depth = 0
        disorder = self._disorder
        for col in cols:
            d = disorder.get(col)
            if d is None:
                d = disorder[col] = _disorder(col)
            h += d
        for s in range(4):
            r = found[s]
            if r < 13:
                card = r * 4 + s
                for col in cols:
                    if card in col:
                        depth += len(col) - 1 - col.index(card)
                        break
        for c in n.cells:
            if c >= 0:
                h += 1
        return h, depth

    def _push(self, n: _Node) -> None:
        key = self._key(n)
        if self.known is not None and self._hit is None:
            k = self.known.find(key)
            if k is not None:
                self._hit = (n, k)
        if key in self._seen:
            return
        self._seen.add(key)
        base, depth = self._estimate(n)
        self._counter += 1
        space = 0
        if self._needs_space:
            space = n.cells.count(-1) + 2 * sum(1 for c in n.cols if not c)
        df = self.depth_first
        if df:
            prio = df[0] * base + df[1] * depth - df[2] * space - 1000.0 * n.g
            heapq.heappush(self._heaps[0], (prio, self._counter, n))
        else:
            for heap, order in zip(self._heaps, self.orders, strict=True):
                h_o = base + order[1] * depth - (order[2] * space if len(order) > 2 else 0)
                heapq.heappush(heap, (n.g + order[0] * h_o, self._counter, n))
        h = base + self.orders[0][1] * depth
        if n.parent is not None and (self._best is None or h < self._best[0]):
            self._best = (h, n)

    def _children(self, n: _Node) -> Iterator[_Node]:
        cols, cells, found = n.cols, n.cells, n.found
        g = n.g + 1
        empty_cell = cells.index(-1) if -1 in cells else -1
        free = cells.count(-1)
        empties = [i for i, c in enumerate(cols) if not c]
        first_empty = empties[0] if empties else -1
        ne = len(empties) if self._any_empty else 0
        cap = (free + 1) << ne
        cap_empty = (free + 1) << max(ne - 1, 0)
        king_only = not self._any_empty
        # to the foundations
        for i, c in enumerate(cells):
            if c >= 0 and found[c & 3] == c >> 2:
                yield _Node(cols, cells[:i] + (-1,) + cells[i + 1:], _inc(found, c & 3), n,
                            ((CELL, i, FOUNDATION, -1, 1),), g)
        for i, col in enumerate(cols):
            if col:
                c = col[-1]
                if found[c & 3] == c >> 2:
                    yield _Node(cols[:i] + (col[:-1],) + cols[i + 1:], cells, _inc(found, c & 3), n,
                                ((COLUMN, i, FOUNDATION, -1, 1),), g)
        # column to column: for each target, the (at most two) cards that fit on it
        runs = self._runs
        where: dict[int, tuple[int, int]] = {}  # card in a run -> (column, cards from it down)
        for si, col in enumerate(cols):
            if col:
                run = runs.get(col)
                if run is None:
                    run = runs[col] = self._run(col)
                size = len(col)
                for j in range(size - run, size):
                    where[col[j]] = (si, size - j)
        fits = self._fits
        fit_sets = self._fit_sets
        for di, target in enumerate(cols):
            if target:
                for c in fits[target[-1]]:
                    got = where.get(c)
                    if got is not None and got[1] <= cap and got[0] != di:
                        si, k = got
                        col = cols[si]
                        new_cols = list(cols)
                        new_cols[si] = col[:-k]
                        new_cols[di] = target + col[-k:]
                        yield _Node(tuple(new_cols), cells, found, n, ((COLUMN, si, COLUMN, di, k),), g)
        if first_empty >= 0:
            di = first_empty
            for si, col in enumerate(cols):
                if not col:
                    continue
                top = min(runs[col], cap_empty)
                for k in ((top, 1) if top > 1 else (1,)):
                    if k == len(col) or (king_only and (col[-k] >> 2) != 12):
                        continue
                    new_cols = list(cols)
                    new_cols[si] = col[:-k]
                    new_cols[di] = col[-k:]
                    yield _Node(tuple(new_cols), cells, found, n, ((COLUMN, si, COLUMN, di, k),), g)
        # cell to column
        for i, c in enumerate(cells):
            if c < 0:
                continue
            for di, target in enumerate(cols):
                if (target and c in fit_sets[target[-1]]) or (
                    not target and di == first_empty and not (king_only and c >> 2 != 12)
                ):
                    placed = cols[:di] + (target + (c,),) + cols[di + 1:]
                    yield _Node(placed, cells[:i] + (-1,) + cells[i + 1:], found, n,
                                ((CELL, i, COLUMN, di, 1),), g)
        # back from the foundations, when the rules allow it
        if self.rules.foundation_return:
            for s in range(4):
                if found[s] == 0:
                    continue
                c = (found[s] - 1) * 4 + s
                less = _dec(found, s)
                if empty_cell >= 0:
                    yield _Node(cols, cells[:empty_cell] + (c,) + cells[empty_cell + 1:], less, n,
                                ((FOUNDATION, s, CELL, empty_cell, 1),), g)
                for di, target in enumerate(cols):
                    if (target and c in fit_sets[target[-1]]) or (
                        not target and di == first_empty and not (king_only and c >> 2 != 12)
                    ):
                        yield _Node(cols[:di] + (target + (c,),) + cols[di + 1:], cells, less, n,
                                    ((FOUNDATION, s, COLUMN, di, 1),), g)
        # column to cell
        if empty_cell >= 0:
            for si, col in enumerate(cols):
                if col:
                    new_cells = cells[:empty_cell] + (col[-1],) + cells[empty_cell + 1:]
                    yield _Node(cols[:si] + (col[:-1],) + cols[si + 1:], new_cells, found, n,
                                ((COLUMN, si, CELL, empty_cell, 1),), g)

    # --- running --------------------------------------------------------------
    def run(self, max_nodes: int | None = None, seconds: float | None = None) -> Result | None:
        """Search for a while; the verdict when there is one, else ``None`` (call again)."""
        if self.result is not None:
            return self.result
        start = self._run_start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        done = 0
        heaps = self._heaps
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
                    for kind, orders in SIDE_SEARCHES:
                        other = Solver(self.position, self.rules, self.max_states, deep_after=None,
                                       orders=orders if kind != DEPTH_FIRST else ((0.0, 0.0),),
                                       depth_first=orders[0] if kind == DEPTH_FIRST else None,
                                       known=self.known)
                        other._lookahead = False  # done once, here
                        side.append(other)
                # the orders take turns over one shared frontier: each state is
                # expanded once, whichever order reaches it first
                self._turn = (self._turn + 1) % len(heaps)
                heap = heaps[self._turn]
                if not heap:
                    continue
                _, _, node = heapq.heappop(heap)
                if node.done:
                    continue
                node.done = True
                done += 1
                self.nodes += 1
                self._own += 1
                self._slice_left -= 1
                if sum(node.found) == 52:
                    self.result = self._finish(SOLVED, node)
                    return self.result
                auto = self._auto_child
                push = self._push
                for child in self._children(node):
                    push(auto(child))
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
            k = known.find(self._key(node))
            if k is None:
                return False
            total = node.g + len(known.moves) - k
            if best is None or total < best[0]:
                best = (total, node, k)
            return True

        expanded = 1
        for child in self._children(self._root):
            child = self._auto_child(child)
            if on_path(child):
                continue
            expanded += 1
            for grand in self._children(child):
                on_path(self._auto_child(grand))
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
        here = Position(node.cols, tuple(None if c < 0 else c for c in node.cells), node.found)
        return self._finish(SOLVED, None, self._path(node) + known.rest(k, here))

    def _finish(self, verdict: str, node: _Node | None, moves: list[Move] | None = None) -> Result:
        if node is not None:
            moves = self._path(node)
        if moves is None:
            moves = []  # no solution here (or one adopted from a side search)
        elif verdict == SOLVED:
            extra = max(0, len(moves) - SHORTEN_FROM) * SHORTEN_PER_MOVE
            moves = shorten(self.position, self.rules, moves, PASS_NODES + extra)
            replay(self.position, self.rules, moves)
        self._heaps = [[] for _ in self.orders]
        self._side = []
        seen = len(self._seen)
        self._seen = set()
        spent = self.seconds + time.perf_counter() - self._run_start
        self._runs = {}
        self._disorder = {}
        return Result(verdict, moves, self.nodes, spent, seen)

    def _adopt(self, sub: Result) -> Result:
        """The verdict of a search beside this one, as this search's."""
        own = self._finish(sub.verdict, None)
        return Result(sub.verdict, sub.moves, self.nodes, own.seconds, own.states + sub.states)

    def _path(self, node: _Node) -> list[Move]:
        chunks: list[tuple[RawMove, ...]] = []
        n: _Node | None = node
        while n is not None:
            chunks.append(n.moves)
            n = n.parent
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


def _disorder(col: tuple[int, ...]) -> int:
    """Cards of a column that lie on a lower card (each must move before it)."""
    lowest = 99
    d = 0
    for c in col:
        r = c >> 2
        if r > lowest:
            d += 1
        elif r < lowest:
            lowest = r
    return d


def _dec(found: Found, s: int) -> Found:
    f = list(found)
    f[s] -= 1
    return (f[0], f[1], f[2], f[3])


def _inc(found: Found, s: int) -> Found:
    if s == 0:
        return (found[0] + 1, found[1], found[2], found[3])
    if s == 1:
        return (found[0], found[1] + 1, found[2], found[3])
    if s == 2:
        return (found[0], found[1], found[2] + 1, found[3])
    return (found[0], found[1], found[2], found[3] + 1)


def _pile(kind: int, index: int) -> Pile:
    if kind == FOUNDATION:
        return HOME if index < 0 else foundation(index)
    return column(index) if kind == COLUMN else cell(index)


def _to_move(m: RawMove) -> Move:
    return Move(_pile(m[0], m[1]), _pile(m[2], m[3]), m[4])


class SolutionError(AssertionError):
    """A solution the engine does not accept: a bug in the solver."""


def replay(position: Position, rules: Rules, moves: list[Move]) -> Position:
    """Play ``moves`` with the engine's checks; they must end with every card home."""
    pos = position
    for i, m in enumerate(moves):
        refusal = check_move(pos, m, rules)
        if refusal is not None:
            raise SolutionError(f"move {i + 1} ({m.text()}) is illegal: {refusal.reason.value}")
        pos = apply_move(pos, m)
    if not pos.is_won():
        raise SolutionError("the moves do not end with every card home")
    return pos


def hint(position: Position, rules: Rules = FREECELL, seconds: float = 3.0) -> tuple[str, Move | None]:
    """The verdict and a move to suggest (``None`` when nothing can be suggested)."""
    s = Solver(position, rules)
    r = s.solve(seconds=seconds)
    if r.verdict == SOLVED:
        return SOLVED, r.moves[0] if r.moves else None
    if r.verdict == UNSOLVABLE:
        return UNSOLVABLE, None
    return UNKNOWN, s.best_move()



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
