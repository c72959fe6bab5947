"""Where everything goes on the table, for a given size: pure geometry, no DOM.

The table is measured in CSS pixels (the SVG's viewBox is the size of its
box, so one unit is one pixel).  The top row holds the free cells on the left
and the foundations on the right (mirrored for left-handed players), aligned
with the columns below.  Cards keep a fixed shape (:data:`CARD_RATIO`).

The rule:

1. **The card size comes from the table's box, not from the cards in play.**
   The card width is the largest that fits both the width (the columns, or
   the top row when it has more slots, with gaps of 12% of a card, narrowed
   down to 3 px on a phone: :func:`gap_needed`) and the height: the top row,
   then a column of :data:`PLANNED` cards fanned at the readable minimum
   strip ``min_strip`` (:data:`MIN_STRIP`, or :data:`LARGE_MIN_STRIP` for large
   indices: the card's top index, rank and suit, stays whole; see
   :data:`freecell.ui.table.cardart.TOP_STRIP`), then a margin; and at most
   :data:`MAX_CARD_WIDTH`.  Every column up to :attr:`Layout.capacity` cards
   (at least :data:`PLANNED`; more where the width limits the cards, as on a
   phone held upright: 30 on a 390 x 658 table, its bars' band kept, where
   19, the longest a FreeCell column can be, is far within) fits at that strip, so a growing
   column never rescales the table: the layout is the same value whatever
   the columns hold.  Only a column longer than the capacity (``longest``)
   makes the cards smaller, just enough for it to fit.  :data:`PLANNED` is
   15: runs of 13 to 17 cards happen in play; planning for 17 would cost
   every game on a short screen a tenth of the card size (desktop 84 -> 78
   px, phone landscape 45 -> 41 px), for columns that the solver's solutions
   of deals 1-200 made longer than 15 once.
2. **Each column fans by its own length.**  A column of n cards spreads over
   the room below the top row: its fan (the strip each covered card shows) is
   ``room / (n - 1)``, at most :attr:`Layout.fan_max` and at least the
   readable strip.  The full fan is :data:`MAX_FAN` of a card's height, or
   less where the room is short: no more than a column of :data:`SPREAD`
   cards can have.  So the short columns of a deal share one generous fan
   that uses a tall screen, and only a long column tightens, down to the
   readable strip at :attr:`Layout.capacity` cards.

3. **The piles beside the columns, where the height is short.**  On a
   table wider than it is tall (a phone held sideways, a desktop window),
   the free cells stand in a column left of the columns and the foundations
   right of them (mirrored for left-handed players), so that the columns
   have the whole height: cards 52 px instead of 45 at 844 x 390, 96 instead
   of 84 at 1280 x 800.  The felt beyond (:data:`LANE_MIN` or more) is the
   bars' lane (``Layout.lane``).  On a phone held upright a band
   (:data:`BAND`) is kept for them along the bottom instead, where it costs
   the cards nothing.
4. **Never tighter than 18 px.**  A column too long for the box at
   :data:`MIN_STRIP_PX` makes the table taller than its box (the page
   scrolls it), not the strips thinner.

When the top row is wider than the columns (Eight Off: 8 free cells and 4
foundations over 8 columns) and the table is tall enough, the top row is
split in two, the free cells above the foundations, if the cards come out
clearly bigger that way (a phone held upright).

    >>> lay = compute_layout(390, 658)     # a phone held upright, its table area
    >>> round(lay.card_w, 1), round(lay.gap, 1), lay.capacity
    (45.1, 3.2, 30)
    >>> round(lay.fan(7), 1), round(lay.fan(17), 1)    # a deal's column, a long one
    (51.6, 29.0)
    >>> lay == compute_layout(390, 658, longest=30) != compute_layout(390, 658, longest=31)
    True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from ...cards import Card, make_card
from ...piles import CELL, COLUMN, FOUNDATION, Pile
from ...position import Position
from .cardart import CARD_RATIO  # height / width

MIN_STRIP = 0.25  # the tightest fan, as a fraction of card height: cardart.TOP_STRIP / CARD_RATIO
LARGE_MIN_STRIP = 0.34  # the same for large indices (cardart.LARGE_TOP_STRIP / CARD_RATIO)
PLANNED = 15  # columns up to this length fit at the readable strip: they never change the card size
MAX_FAN = 0.85  # the widest fan, as a fraction of card height: a short column on a tall screen
SPREAD = 10  # the full fan is never more than a column of this many cards can have
MAX_CARD_WIDTH = 120.0
GAP = 0.12  # gap between cards, as a fraction of card width, on a table wide enough
MIN_GAP = 3.0  # the narrowest gap, in pixels (a phone held upright)
GAP_SLOPE, GAP_CUT = 0.16, 4.0  # the gap a narrow table needs at least: 0.16 w - 4 px, from 3 px
MIN_STRIP_PX = 18.0  # a long column never fans tighter than this: the table grows taller (and scrolls)
LANE_MIN = 150.0  # the narrowest lane beside the table that the bars (hint, notice, message) may use
LANE_MAX = 360.0  # a wider lane is not needed: the table and its lane are centred together
BAND = 56.0  # the band along the table's bottom kept for the bars where no lane fits beside it
SIDE_GAIN = 1.1  # the piles beside the columns only when the cards come out this much bigger


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    def overlap(self, other: Rect) -> float:
        dx = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        dy = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return dx * dy if dx > 0 and dy > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one card lies: its pile, its index there, its top-left corner."""

    pile: Pile
    index: int
    x: float
    y: float


def stacking(spots: Mapping[Card, Spot], lifted: set[Card]) -> tuple[list[Card], set[Card]]:
    """The order to draw the cards in (the last on top), and the cards drawn above the rest.

    The ``lifted`` cards (those going to another place, which glide over the
    others) are drawn above the rest, and with each of them every card that
    lies on it in its pile: a card never covers one that lies on it.  After a
    new deal most cards go to another place, but one that lay at the same
    place in the deal before does not; drawn below the others, it was hidden
    under a card it lies on.  Lower cards first in each of the two groups.

    >>> from freecell.piles import column
    >>> spots = {c: Spot(column(0), c, 0.0, 0.0) for c in range(3)}
    >>> stacking(spots, {1})
    ([0, 1, 2], {1, 2})
    >>> stacking(spots, set())
    ([0, 1, 2], set())
    """
    lowest: dict[Pile, int] = {}
    for c in lifted:
        s = spots[c]
        lowest[s.pile] = min(lowest.get(s.pile, s.index), s.index)
    up = {c for c, s in spots.items() if s.pile in lowest and s.index >= lowest[s.pile]}
    return sorted(spots, key=lambda c: (c in up, spots[c].index, c)), up


def restack(drawn: list[Card], wanted: list[Card]) -> list[tuple[Card, Card | None]]:
    """The fewest cards to move in the document to draw ``drawn`` in the order ``wanted`` (the same
    cards): ``(card, before)`` pairs, to carry out in turn, each putting ``card`` just before
    ``before`` (``None``: at the end).  The cards of the longest run already in the wanted order stay;
    a move of one card moves one element, where drawing all 52 anew changed every one of them.

    >>> restack([0, 1, 2, 3], [0, 2, 3, 1])
    [(1, None)]
    >>> restack([0, 1, 2, 3], [3, 0, 1, 2])
    [(3, 0)]
    >>> restack([0, 1, 2], [0, 1, 2])
    []
    """
    at = {c: i for i, c in enumerate(drawn)}
    seq = [at[c] for c in wanted]
    # the longest increasing run of places (patience sorting): those cards stay where they are
    tails: list[int] = []  # tails[k]: index in seq of the smallest tail of a run of length k + 1
    prev = [-1] * len(seq)
    for i, v in enumerate(seq):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if seq[tails[mid]] < v:
                lo = mid + 1
            else:
                hi = mid
        prev[i] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    stay: set[int] = set()
    i = tails[-1] if tails else -1
    while i >= 0:
        stay.add(i)
        i = prev[i]
    moves: list[tuple[Card, Card | None]] = []
    after: Card | None = None  # the card after this one, in place already
    for i in range(len(wanted) - 1, -1, -1):
        if i not in stay:
            moves.append((wanted[i], after))
        after = wanted[i]
    return moves


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    card_w: float
    card_h: float
    gap: float
    cells: tuple[Rect, ...]
    foundations: tuple[Rect, ...]
    columns: tuple[Rect, ...]  # drop areas: from the column's top to the table's bottom
    min_strip: float  # the tightest fan, as a fraction of card height
    fan_max: float  # the widest fan, in pixels
    room: float  # how far below a column's first card its last card may lie
    capacity: int  # the longest column that fits at the tightest fan
    lane: Rect | None = None  # felt kept for the bars: beside the table, or a band along its bottom
    side: bool = False  # the free cells and foundations stand beside the columns, not above them

    def fan(self, length: int) -> float:
        """Distance between the cards of a column of ``length`` cards: its own fan."""
        if length <= 1:
            return self.fan_max
        return max(self.card_h * self.min_strip, min(self.fan_max, self.room / (length - 1)))

    def column_bottom(self, index: int, length: int) -> float:
        """Where the last card of column ``index`` ends when it holds ``length`` cards."""
        r = self.columns[index]
        return r.y + max(0, length - 1) * self.fan(length) + self.card_h

    def bottom(self, pos: Position) -> float:
        """Where the lowest card of ``pos``'s columns ends (the top row's bottom if they are empty)."""
        top_row = max((r.y + r.h for r in self.cells + self.foundations), default=0.0)
        return max([top_row] + [self.column_bottom(i, len(c)) for i, c in enumerate(pos.columns) if c])

    def pile_rect(self, pile: Pile) -> Rect:
        if pile.kind == CELL:
            return self.cells[pile.index]
        if pile.kind == FOUNDATION:
            return self.foundations[pile.index]
        return self.columns[pile.index]

    def piles(self) -> list[tuple[Pile, Rect]]:
        out = [(Pile(CELL, i), r) for i, r in enumerate(self.cells)]
        out += [(Pile(FOUNDATION, i), r) for i, r in enumerate(self.foundations)]
        out += [(Pile(COLUMN, i), r) for i, r in enumerate(self.columns)]
        return out

    def spots(self, pos: Position) -> dict[Card, Spot]:
        """Where every card of ``pos`` lies, each column fanned by its own length."""
        out: dict[Card, Spot] = {}
        for s, n in enumerate(pos.foundations):
            r = self.foundations[s]
            for rank in range(n):
                out[make_card(rank + 1, s)] = Spot(Pile(FOUNDATION, s), rank, r.x, r.y)
        for i, c in enumerate(pos.cells):
            if c is not None:
                r = self.cells[i]
                out[c] = Spot(Pile(CELL, i), 0, r.x, r.y)
        for i, col in enumerate(pos.columns):
            r = self.columns[i]
            step = self.fan(len(col))
            for j, c in enumerate(col):
                out[c] = Spot(Pile(COLUMN, i), j, r.x, r.y + j * step)
        return out

    def drop_target(self, card_rect: Rect, x: float, y: float, source: Pile | None = None) -> Pile | None:
        """The pile a dragged card lands on: the one under the pointer, else the one it overlaps most.

        The pointer is where the player aims (a card held by its top strip
        hangs over the column below a free cell it is dropped on); over the
        ``source`` pile itself, or between piles, the card's overlap decides.

        >>> layout = compute_layout(800, 600)
        >>> cell_a = layout.cells[0]
        >>> over = Rect(cell_a.x, cell_a.y + cell_a.h * 0.8, layout.card_w, layout.card_h)
        >>> layout.drop_target(over, cell_a.x + 5, cell_a.y + cell_a.h * 0.9).text()
        'a'
        """
        for pile, r in self.piles():
            if pile != source and r.contains(x, y):
                return pile
        best: Pile | None = None
        best_area = 0.0
        for pile, r in self.piles():
            a = r.overlap(card_rect)
            if a > best_area:
                best, best_area = pile, a
        return best


def gap_needed(card_w: float) -> float:
    """The narrowest gap beside a card ``card_w`` wide: 12% of it, less on a phone, never under 3 px.

    >>> [round(gap_needed(w), 1) for w in (40, 45, 60, 80, 107)]
    [3.0, 3.2, 5.6, 8.8, 12.8]
    """
    return min(GAP * card_w, max(MIN_GAP, GAP_SLOPE * card_w - GAP_CUT))


def _largest(per_card: float, per_gap: float, limit: float) -> float:
    """The widest card ``w`` for which ``per_card * w + per_gap * gap_needed(w)`` stays within ``limit``."""
    candidates = (  # one for each piece of the gap rule; the sum grows with w, so the largest that fits
        (limit - MIN_GAP * per_gap) / per_card,  # is exact
        (limit + GAP_CUT * per_gap) / (per_card + GAP_SLOPE * per_gap),
        limit / (per_card + GAP * per_gap),
    )
    fits = [w for w in candidates if w > 0 and per_card * w + per_gap * gap_needed(w) <= limit * (1 + 1e-12)]
    return max(fits, default=1.0)


def _width_limit(width: float, slots: int) -> float:
    """The widest card for which ``slots`` cards and their gaps (margins included) fit in ``width``."""
    return _largest(slots, slots + 1, width)


def _vertical_margins(card_w: float, top_rows: int) -> tuple[float, float]:
    """(where the columns start, the table's bottom margin) for cards ``card_w`` wide."""
    gap = gap_needed(card_w)
    card_h = card_w * CARD_RATIO
    col_top = gap + top_rows * card_h + (top_rows - 1) * gap + gap * 1.5
    return col_top, gap


def _height_limit(height: float, top_rows: int, length: int, min_strip: float) -> float:
    """The widest card for which the top rows and a column of ``length`` cards at ``min_strip`` fit."""
    # _vertical_margins's margins: a gap above, between the top rows, 1.5 below them, one at the bottom
    cards = top_rows + 1 + min_strip * (length - 1)
    return _largest(CARD_RATIO * cards, top_rows + 2.5, height)


@lru_cache(maxsize=64)  # the same box drawn again at each move: one layout, kept (a Layout does not change)
def compute_layout(
    width: float,
    height: float,
    free_cells: int = 4,
    columns: int = 8,
    longest: int = 0,
    min_strip: float = MIN_STRIP,
    left_handed: bool = False,
) -> Layout:
    """The layout of a table ``width`` x ``height`` pixels (the table area's box).

    The piles stand beside the columns (:func:`_side_layout`) where the cards
    come out :data:`SIDE_GAIN` bigger that way, with a lane for the bars
    beside them (a phone held sideways, a desktop); otherwise the top row is
    above the columns, with a :data:`BAND` kept along the bottom for the bars
    when that costs the cards nothing (a phone held upright).  A column
    longer than fits at :data:`MIN_STRIP_PX` makes the table taller than its
    box (``Layout.height``): the page scrolls it.
    """
    width = max(width, 160.0)
    height = max(height, 160.0)
    # which arrangement is chosen for the planned columns, so that a long column never switches it
    planned_top = _top_layout(width, height, free_cells, columns, 0, min_strip, left_handed)
    planned_side = _side_layout(width, height, free_cells, columns, 0, min_strip, left_handed)
    if planned_side is not None and planned_side.card_w >= planned_top.card_w * SIDE_GAIN:
        side = _side_layout(width, height, free_cells, columns, longest, min_strip, left_handed)
        if side is not None:  # always, for the same number of free cells
            return side
    top = _top_layout(width, height, free_cells, columns, longest, min_strip, left_handed)
    if height > BAND * 4:
        banded = _top_layout(width, height - BAND, free_cells, columns, longest, min_strip, left_handed)
        if banded.card_w >= top.card_w - 1e-9 and banded.height <= height - BAND + 1e-9:
            return replace(banded, height=height, lane=Rect(0.0, height - BAND, width, BAND))
    return top


def _top_layout(
    width: float,
    height: float,
    free_cells: int,
    columns: int,
    longest: int,
    min_strip: float,
    left_handed: bool,
) -> Layout:
    """The layout with the top row above the columns: a table ``width`` x ``height`` pixels.

    ``longest``: the longest column's length; it matters only beyond the
    layout's :attr:`~Layout.capacity` (the cards then shrink so that it fits).
    ``min_strip``: the part of a covered card that must show (``LARGE_MIN_STRIP``
    for large indices).  ``left_handed``: the foundations on the left and the
    free cells on the right (the top row mirrored, in the same order).
    """
    width = max(width, 160.0)
    height = max(height, 160.0)

    def card_width(slots: int, top_rows: int, length: int) -> float:
        return min(_width_limit(width, slots), _height_limit(height, top_rows, length, min_strip),
                   MAX_CARD_WIDTH)

    def capacity(card_w: float, top_rows: int) -> int:
        col_top, margin = _vertical_margins(card_w, top_rows)
        card_h = card_w * CARD_RATIO
        room = height - margin - col_top - card_h
        return max(1, math.floor(room / (card_h * min_strip) + 1e-6) + 1)

    def choose(length: int) -> tuple[bool, int, float]:
        slots, rows = max(columns, free_cells + 4), 1
        card_w = card_width(slots, rows, length)
        if free_cells + 4 > columns:
            split_slots = max(columns, free_cells, 4)
            split_w = card_width(split_slots, 2, length)
            if split_w > card_w * 1.15:
                return True, split_slots, split_w
        return False, slots, card_w

    split, slots, card_w = choose(PLANNED)
    rows = 2 if split else 1
    fits = capacity(card_w, rows)
    if longest > fits:  # a column longer than planned: smaller cards, so that it fits
        planned_w = card_w
        split, slots, card_w = choose(longest)
        rows = 2 if split else 1
        floor_w = min(planned_w, MIN_STRIP_PX / (min_strip * CARD_RATIO))
        if card_w < floor_w:  # not below the readable strip in pixels: the table grows taller instead
            split, slots, card_w = choose(PLANNED)
            rows = 2 if split else 1
            card_w = min(card_w, floor_w)
            col_top, margin = _vertical_margins(card_w, rows)
            needed = col_top + (longest - 1) * card_w * CARD_RATIO * min_strip + card_w * CARD_RATIO + margin
            height = needed if needed > height + 1e-6 else height
        fits = capacity(card_w, rows)
    card_h = card_w * CARD_RATIO
    col_top, margin = _vertical_margins(card_w, rows)
    # the vertical spacing uses the narrowest gap; across, the gap widens to 12% if the width allows
    vgap = gap_needed(card_w)
    gap = max(vgap, min(GAP * card_w, (width - slots * card_w) / (slots + 1)))
    used = slots * card_w + (slots - 1) * gap
    left = (width - used) / 2
    top = vgap
    room = max(0.0, height - margin - col_top - card_h)
    fan_max = min(card_h * MAX_FAN, room / (SPREAD - 1))

    def x_of(i: int) -> float:
        return left + i * (card_w + gap)

    if split:  # the free cells above, the foundations below them at the far side
        row2 = top + card_h + vgap
        cells = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(free_cells))
        first = 0 if left_handed else slots - 4
        foundations = tuple(Rect(x_of(first + i), row2, card_w, card_h) for i in range(4))
    elif left_handed:
        foundations = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(4))
        cells = tuple(Rect(x_of(slots - free_cells + i), top, card_w, card_h) for i in range(free_cells))
    else:
        cells = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(free_cells))
        foundations = tuple(Rect(x_of(slots - 4 + i), top, card_w, card_h) for i in range(4))
    col_left = left + (slots - columns) * (card_w + gap) / 2
    cols = tuple(
        Rect(col_left + i * (card_w + gap), col_top, card_w, max(card_h, height - col_top))
        for i in range(columns)
    )
    return Layout(width, height, card_w, card_h, gap, cells, foundations, cols, min_strip,
                  fan_max, room, fits)


def _side_layout(
    width: float,
    height: float,
    free_cells: int,
    columns: int,
    longest: int,
    min_strip: float,
    left_handed: bool,
) -> Layout | None:
    """The free cells in a column left of the columns, the foundations right of them, a lane beyond.

    The columns then have the whole height, which a short wide table (a
    phone held sideways, a desktop window) is short of: the cards come from
    both the height (a column of :data:`PLANNED` cards, or four piles
    stacked) and the width (the columns, the two pile columns, their gaps,
    and at least :data:`LANE_MIN` for the bars).  ``None`` for more than
    four free cells (they would not stack).

    >>> lay = _side_layout(740, 358, 4, 8, 7, MIN_STRIP, False)    # a phone held sideways, its table area
    >>> round(lay.card_w, 1), round(lay.card_h * MIN_STRIP, 1), lay.capacity, round(lay.lane.w)
    (52.4, 18.3, 16, 150)
    """
    if free_cells > 4:
        return None
    side_cols = 2  # without free cells too: the columns stay where they are for either hand
    slots = columns + side_cols
    per_gap = columns + 2 * side_cols + 3  # the margins, the columns' gaps, two beside each pile column
    w_width = _largest(slots, per_gap, width - LANE_MIN)
    w_column = _largest(CARD_RATIO * (1 + min_strip * (PLANNED - 1)), 2, height)
    w_stack = _largest(CARD_RATIO * 4, 5, height)
    card_w = min(w_width, w_column, w_stack, MAX_CARD_WIDTH)
    vgap = gap_needed(card_w)

    def capacity(w: float, h: float) -> int:
        room = h - 2 * gap_needed(w) - w * CARD_RATIO
        return max(1, math.floor(room / (w * CARD_RATIO * min_strip) + 1e-6) + 1)

    box_h = height
    if longest > capacity(card_w, height):  # smaller cards down to the readable strip, then taller
        w_long = _largest(CARD_RATIO * (1 + min_strip * (longest - 1)), 2, height)
        floor_w = min(card_w, MIN_STRIP_PX / (min_strip * CARD_RATIO))
        card_w = min(card_w, max(w_long, floor_w))
        vgap = gap_needed(card_w)
        needed = 2 * vgap + card_w * CARD_RATIO * (1 + min_strip * (longest - 1))
        height = needed if needed > height + 1e-6 else height
    card_h = card_w * CARD_RATIO
    spare = width - slots * card_w - LANE_MIN
    gap = max(vgap, min(GAP * card_w, spare / per_gap))
    lane_w = min(LANE_MAX, width - slots * card_w - per_gap * gap)
    left = max(gap, (width - slots * card_w - (per_gap - 2) * gap - lane_w) / 2)

    def stacked(x0: float, n: int) -> tuple[Rect, ...]:
        return tuple(Rect(x0, vgap + i * (card_h + vgap), card_w, card_h) for i in range(n))

    # left to right: a pile column, the columns, a pile column (only the foundations without free cells)
    near = left
    col_left = left + card_w + 2 * gap
    cols = tuple(Rect(col_left + i * (card_w + gap), vgap, card_w, max(card_h, height - vgap))
                 for i in range(columns))
    far = cols[-1].x + card_w + 2 * gap
    cells: tuple[Rect, ...]
    if left_handed:
        foundations, cells = stacked(near, 4), (stacked(far, free_cells) if free_cells else ())
    else:
        cells, foundations = (stacked(near, free_cells) if free_cells else ()), stacked(far, 4)
    right = max(r.x + r.w for r in (*cells, *foundations, *cols))
    lane = Rect(right + 2 * gap, vgap, lane_w, box_h - 2 * vgap)  # in the box, not the taller table
    room = max(0.0, height - vgap - vgap - card_h)
    fan_max = min(card_h * MAX_FAN, room / (SPREAD - 1))
    fits = capacity(card_w, height)
    return Layout(width, height, card_w, card_h, gap, cells, foundations, cols, min_strip,
                  fan_max, room, fits, lane, True)
