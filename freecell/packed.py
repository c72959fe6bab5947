"""Packed search states and the solver's move generation over them.

The solver (:mod:`freecell.solver`) keeps millions of states, and spends its
time making them, so a state here is packed into bytes:

* a column is a ``bytes`` of its cards, top (hidden) card first: slicing,
  concatenating and hashing it are single C operations, and its byte order
  is the order of the tuples of :class:`freecell.position.Position`;
* the free cells are one ``bytes``, :data:`EMPTY` (255) for an empty cell;
* the foundations are one ``bytes`` of four counts (clubs, diamonds, hearts,
  spades).

So the canonical key of a state (:func:`freecell.known.state_key`: the
columns sorted and joined by 255, the free cells sorted, the foundations) is
a sort and two joins of these, with no conversion.

:class:`MoveGen` makes the children of a state under one set of rules, in the
solver's fixed order (the order decides the search's tie-breaks, so it is
part of the solver's behaviour): to the foundations, column to column, into
the first empty column, free cell to column, back from the foundations
(when allowed), column to free cell.  Each child comes with its safe
auto-moves already played (:meth:`MoveGen.auto`): only a move that sends a
card home, or uncovers a card that may go home safely, can make one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .piles import CELL, COLUMN, FOUNDATION
from .position import Position
from .rules import MAX_CELLS, MAX_COLUMNS, Build, EmptyColumn, Rules, move_capacity

EMPTY = 255  # an empty free cell; also the separator of columns in a key
SEP = b"\xff"
WON = b"\r\r\r\r"  # thirteen cards home in each suit
ONE: tuple[bytes, ...] = tuple(bytes((c,)) for c in range(256))  # a card as a one-byte column

# A move inside the search: (src kind, src index, dst kind, dst index, count)
RawMove = tuple[int, int, int, int, int]
Cols = tuple[bytes, ...]
# A child: its columns, free cells, foundations, and the moves to it (the move, then auto-moves)
Child = tuple[Cols, bytes, bytes, tuple[RawMove, ...]]


# The moves of the search, made once and shared by every state they lead to (a child's
# moves are a tuple of them): column to column (by source, target and count: a run
# is at most 13 cards), column to cell, cell to column, column or cell home.
_COLS, _CELLS = range(MAX_COLUMNS), range(MAX_CELLS)
COLUMN_TO_COLUMN = [[[((COLUMN, si, COLUMN, di, k),) for k in range(14)] for di in _COLS] for si in _COLS]
COLUMN_TO_CELL = [[((COLUMN, si, CELL, i, 1),) for i in _CELLS] for si in _COLS]
CELL_TO_COLUMN = [[((CELL, i, COLUMN, di, 1),) for di in _COLS] for i in _CELLS]
COLUMN_HOME = [(COLUMN, si, FOUNDATION, -1, 1) for si in _COLS]
CELL_HOME = [(CELL, i, FOUNDATION, -1, 1) for i in _CELLS]


def pack(position: Position) -> tuple[Cols, bytes, bytes]:
    """A position's columns, free cells and foundations, packed."""
    cells = bytes(EMPTY if c is None else c for c in position.cells)
    return tuple(map(bytes, position.columns)), cells, bytes(position.foundations)


def unpack(cols: Cols, cells: bytes, found: bytes) -> Position:
    """The position of a packed state."""
    f = found
    return Position(tuple(map(tuple, cols)), tuple(None if c == EMPTY else c for c in cells),
                    (f[0], f[1], f[2], f[3]))


def key(cols: Cols, cells: bytes, found: bytes) -> bytes:
    """The canonical key of a packed state (the same bytes as :func:`freecell.known.state_key`)."""
    return SEP.join(sorted(cols)) + bytes(sorted(cells)) + found


_K = TypeVar("_K")
_V = TypeVar("_V")


class Cache(dict[_K, _V], Generic[_K, _V]):
    """A function's values, each computed on first use (``cache[x]``: one dict look-up after)."""

    def __init__(self, fn: Callable[[_K], _V]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, x: _K) -> _V:
        value = self[x] = self.fn(x)
        return value


def cell_info(cells: bytes) -> tuple[bytes, int]:
    """The free cells as in a key (sorted, the empty ones last), and how many are empty."""
    return bytes(sorted(cells)), cells.count(EMPTY)


class _Inc(dict[bytes, bytes]):
    """The foundations with one more card home in suit ``s`` (``inc[found]``), cached."""

    def __init__(self, s: int) -> None:
        super().__init__()
        self.s = s

    def __missing__(self, found: bytes) -> bytes:
        s = self.s
        value = found[:s] + ONE[found[s] + 1] + found[s + 1:]
        self[found] = value
        return value


def disorder(col: bytes) -> int:
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


@dataclass(frozen=True)
class BuildTables:
    """What a build rule says about each card (made once a build rule, :func:`build_tables`).

    ``fits[base]``: the cards that may lie on ``base``, as a tuple and as a set
    (``fit_sets``); ``bases[card]``: the cards ``card`` may lie on; and both as
    bit masks (bit ``c`` for card ``c``): ``fit_mask``, ``base_mask``.
    """

    fits: list[tuple[int, ...]]
    fit_sets: list[frozenset[int]]
    bases: list[tuple[int, ...]]
    fit_mask: list[int]
    base_mask: list[int]


_TABLES: dict[Build, BuildTables] = {}


def build_tables(rules: Rules) -> BuildTables:
    """The :class:`BuildTables` of ``rules``' build rule."""
    tables = _TABLES.get(rules.build)
    if tables is None:
        fits = [tuple(c for c in range(52) if rules.builds_on(c, base)) for base in range(52)]
        bases = [tuple(b for b in range(52) if rules.builds_on(c, b)) for c in range(52)]
        tables = _TABLES[rules.build] = BuildTables(
            fits, [frozenset(f) for f in fits], bases,
            [sum(1 << c for c in f) for f in fits], [sum(1 << b for b in bs) for bs in bases])
    return tables


# a column's cost (ColumnCosts): its disorder, plus its cards lying on next cards << COST_BITS,
# plus 1 << 2 * COST_BITS for an empty column
COST_BITS = 8
COST_MASK = (1 << COST_BITS) - 1
# the column costs kept at most, over all foundations (then they are made again)
MAX_COSTS = 200_000


class ColumnCosts(dict[bytes, int]):
    """For one foundations value, each column's share of the estimate, filled on first use.

    ``costs[col]`` is the column's disorder (cards lying on a lower card) plus,
    shifted by :data:`COST_BITS`, the cards lying on top of the next cards
    for the foundations that are in it, plus, shifted by twice that, one for
    an empty column: the sum over a state's columns gives both parts of the
    estimate and the empty columns at once (each part is at most 52, below 2 ** COST_BITS).
    """

    def __init__(self, gen: MoveGen, found: bytes) -> None:
        super().__init__()
        self.gen = gen
        self.nexts = gen.home[found][1]

    def __missing__(self, col: bytes) -> int:
        above = 0
        for card in self.nexts:
            i = col.find(card)
            if i >= 0:
                above += len(col) - 1 - i
        value = self[col] = self.gen.disorder[col] + (above << COST_BITS) + ((not col) << 2 * COST_BITS)
        self.gen.costs_made += 1
        return value


def _replace(cols: Cols, i: int, col: bytes) -> Cols:
    """``cols`` with column ``i`` replaced by ``col``."""
    new = list(cols)
    new[i] = col
    return tuple(new)


class MoveGen:
    """The children of packed states under ``rules``, with the caches that make them cheap.

    The caches (each column's last run and disorder) grow with the columns
    seen; :meth:`clear` drops them.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        tables = build_tables(rules)
        self.fits, self.fit_sets = tables.fits, tables.fit_sets
        self.bases, self.fit_mask, self.base_mask = tables.bases, tables.fit_mask, tables.base_mask
        self.any_empty = rules.empty_column is EmptyColumn.ANY
        self.back = rules.foundation_return
        self._alt = rules.build is Build.ALTERNATE
        self._suit = rules.build is Build.SUIT
        self.inc = tuple(_Inc(s) for s in range(4))
        self.runs = Cache(self._run)
        self.heads = Cache(self._head)
        self.disorder = Cache(disorder)
        self.cell_info = Cache(cell_info)
        self.home = Cache(self._home)
        self.costs: dict[bytes, ColumnCosts] = {}
        self.costs_made = 0
        # move_capacity by free cells and empty columns: to a column, and to an empty one
        self._caps = [[(move_capacity(f, e), move_capacity(f, e - 1)) for e in range(MAX_COLUMNS + 1)]
                      for f in range(MAX_CELLS + 1)]

    def clear(self) -> None:
        self.runs.clear()
        self.heads.clear()
        self.disorder.clear()
        self.cell_info.clear()
        self.home.clear()
        self.costs.clear()

    def column_costs(self, found: bytes) -> ColumnCosts:
        """The :class:`ColumnCosts` under ``found`` (all dropped past :data:`MAX_COSTS`)."""
        costs = self.costs.get(found)
        if costs is None:
            if self.costs_made > MAX_COSTS:
                self.costs.clear()
                self.costs_made = 0
            costs = self.costs[found] = ColumnCosts(self, found)
        return costs

    def _home(self, found: bytes) -> tuple[int, tuple[int, ...], frozenset[int], frozenset[int]]:
        """What the foundations say: twice the cards not home; the next card of each suit
        not complete, as a tuple and as a set; those of them that would go home safely."""
        nexts = tuple(r * 4 + s for s, r in enumerate(found) if r < 13)
        ready = frozenset(c for c in nexts if self.safe(c, found))
        return 2 * (52 - sum(found)), nexts, frozenset(nexts), ready

    def _head(self, col: bytes) -> tuple[int, int, int, int, tuple[int, ...]]:
        """A non-empty column's last card, as a card and as a bit; the cards that fit on it,
        as a mask; how many of its cards build on each other from the end (its run); and the
        last ``k`` cards of that run as a mask, for each ``k`` from 1 (index ``k``)."""
        c = col[-1]
        run = self.runs[col]
        masks = [0]
        for card in reversed(col[-run:]):
            masks.append(masks[-1] | 1 << card)
        return c, 1 << c, self.fit_mask[c], run, tuple(masks)

    # --- rules, fast ----------------------------------------------------
    def _run(self, col: bytes) -> int:
        """How many cards at the bottom of a (non-empty) column build on each other."""
        n = len(col)
        k = 1
        fit_sets = self.fit_sets
        while k < n and col[n - k] in fit_sets[col[n - k - 1]]:
            k += 1
        return k if n else 0

    def safe(self, card: int, found: bytes) -> bool:
        """Whether ``card`` may go home without loss (:func:`freecell.engine.is_safe_home`)."""
        r = (card >> 2) + 1
        if r <= 2:
            return True
        if self.back:
            return False
        if self._suit:
            return True
        s = card & 3
        need = r - 1
        if self._alt:
            if s == 1 or s == 2:
                return found[0] >= need and found[3] >= need
            return found[1] >= need and found[2] >= need
        return all(found[t] >= need for t in range(4) if t != s)

    def auto(self, cols: Cols, cells: bytes, found: bytes, moves: tuple[RawMove, ...]) -> Child:
        """Play every safe auto-move (each an explicit move of the solution)."""
        home = self.home
        inc = self.inc
        ready = home[found][3]  # the next cards that may go home safely
        extra: list[RawMove] = []
        changed = True
        while changed:
            changed = False
            for i, c in enumerate(cells):
                if c in ready:
                    cells = cells[:i] + SEP + cells[i + 1:]
                    found = inc[c & 3][found]
                    ready = home[found][3]
                    extra.append(CELL_HOME[i])
                    changed = True
            for i, col in enumerate(cols):
                if col:
                    c = col[-1]
                    if c in ready:
                        cols = _replace(cols, i, col[:-1])
                        found = inc[c & 3][found]
                        ready = home[found][3]
                        extra.append(COLUMN_HOME[i])
                        changed = True
        if not extra:
            return cols, cells, found, moves
        return cols, cells, found, moves + tuple(extra)

    # --- move generation --------------------------------------------------
    def children(self, cols: Cols, cells: bytes, found: bytes) -> list[Child]:
        """The children of a state that has no safe auto-move left, in the search's order."""
        out: list[Child] = []
        add = out.append
        auto = self.auto
        inc = self.inc
        empty_cell = cells.find(EMPTY)
        free = cells.count(EMPTY)
        first_empty = cols.index(b"") if b"" in cols else -1
        ne = cols.count(b"") if self.any_empty and first_empty >= 0 else 0
        cap, cap_empty = self._caps[free][ne]
        king_only = not self.any_empty
        # the cards that would go home safely once uncovered (the foundations
        # stay as they are in a move that sends nothing home)
        _, _, next_cards, ready = self.home[found]
        # to the foundations (and, on the way, the cards that can move)
        for i, c in enumerate(cells):
            if c in next_cards:
                add(auto(cols, cells[:i] + SEP + cells[i + 1:], inc[c & 3][found],
                         (CELL_HOME[i],)))
        runs = self.runs
        fit_mask = self.fit_mask
        where: dict[int, int] = {}  # card in a column's last run, within the capacity -> the column
        tops = 0  # the columns' last cards, as a mask
        wanted = 0  # the cards that may lie on one of them
        movable = 0  # the cards in ``where``
        heads = self.heads
        for si, col in enumerate(cols):
            if col:
                c, bit, fit, run, masks = heads[col]
                if c in next_cards:
                    add(auto(_replace(cols, si, col[:-1]), cells, inc[c & 3][found],
                             (COLUMN_HOME[si],)))
                tops |= bit
                wanted |= fit
                if run == 1:
                    where[c] = si
                    movable |= bit
                else:
                    if run > cap:
                        run = cap
                    for c in col[-run:]:
                        where[c] = si
                    movable |= masks[run]
        # column to column: for each target, the (at most two) cards that fit on it
        fits = self.fits
        for di, target in (enumerate(cols) if wanted & movable else ()):
            if target and fit_mask[target[-1]] & movable:
                for c in fits[target[-1]]:
                    si = where.get(c, di)
                    if si != di:
                        col = cols[si]
                        k = len(col) - col.index(c)
                        new_cols = list(cols)
                        rest = new_cols[si] = col[:-k]
                        new_cols[di] = target + col[-k:]
                        move = COLUMN_TO_COLUMN[si][di][k]
                        if rest and rest[-1] in ready:
                            add(auto(tuple(new_cols), cells, found, move))
                        else:
                            add((tuple(new_cols), cells, found, move))
        if first_empty >= 0:
            di = first_empty
            for si, col in enumerate(cols):
                if not col:
                    continue
                top = runs[col]
                if top > cap_empty:
                    top = cap_empty
                for k in ((top, 1) if top > 1 else (1,)):
                    if k == len(col) or (king_only and (col[-k] >> 2) != 12):
                        continue
                    new_cols = list(cols)
                    rest = new_cols[si] = col[:-k]
                    new_cols[di] = col[-k:]
                    move = COLUMN_TO_COLUMN[si][di][k]
                    if rest[-1] in ready:
                        add(auto(tuple(new_cols), cells, found, move))
                    else:
                        add((tuple(new_cols), cells, found, move))
        # free cell to column
        fit_sets = self.fit_sets
        if free < self.rules.free_cells:
            bases = self.bases
            base_mask = self.base_mask
            for i, c in enumerate(cells):
                if c == EMPTY:
                    continue
                # the columns it may go to, in order: those ending with a base
                # of it (a column's last card is in ``where``), the first empty one
                to_empty = first_empty >= 0 and not (king_only and c >> 2 != 12)
                if base_mask[c] & tops:
                    dests = [where[b] for b in bases[c] if (1 << b) & tops]
                    if to_empty:
                        dests.append(first_empty)
                    if len(dests) > 1:
                        dests.sort()
                elif to_empty:
                    dests = [first_empty]
                else:
                    continue
                for di in dests:
                    add((_replace(cols, di, cols[di] + ONE[c]),
                         cells[:i] + SEP + cells[i + 1:], found, CELL_TO_COLUMN[i][di]))
        # back from the foundations, when the rules allow it
        if self.back:
            for s in range(4):
                if found[s] == 0:
                    continue
                c = (found[s] - 1) * 4 + s
                less = found[:s] + ONE[found[s] - 1] + found[s + 1:]
                if empty_cell >= 0:
                    add(auto(cols, cells[:empty_cell] + ONE[c] + cells[empty_cell + 1:], less,
                             ((FOUNDATION, s, CELL, empty_cell, 1),)))
                for di, target in enumerate(cols):
                    if (target and c in fit_sets[target[-1]]) or (
                        not target and di == first_empty and not (king_only and c >> 2 != 12)
                    ):
                        add(auto(_replace(cols, di, target + ONE[c]), cells, less,
                                 ((FOUNDATION, s, COLUMN, di, 1),)))
        # column to free cell
        if empty_cell >= 0:
            before, after = cells[:empty_cell], cells[empty_cell + 1:]
            to_cell = COLUMN_TO_CELL
            for si, col in enumerate(cols):
                if col:
                    rest = col[:-1]
                    new_cols = list(cols)
                    new_cols[si] = rest
                    lifted = tuple(new_cols)
                    new_cells = before + ONE[col[-1]] + after
                    move = to_cell[si][empty_cell]
                    if rest and rest[-1] in ready:
                        add(auto(lifted, new_cells, found, move))
                    else:
                        add((lifted, new_cells, found, move))
        return out
