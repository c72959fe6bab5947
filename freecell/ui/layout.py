"""Where everything goes on the table, for a given size: pure geometry, no DOM.

The table is measured in CSS pixels (the SVG's viewBox is the size of its
box, so one unit is one pixel).  The top row holds the free cells on the left
and the foundations on the right, aligned with the columns below.  Cards keep
a fixed shape (:data:`CARD_RATIO`); their width is the largest that fits both
the width (eight columns) and the height: the top row plus the longest column
(at least :data:`PLANNED_FAN` cards) fanned at :data:`MIN_STRIP`, the strip of
a card that shows its rank and suit.  Columns fan wider (up to :data:`FAN`)
when there is room; a column longer than planned makes the cards smaller
rather than hiding any rank.

When the top row is wider than the columns (Eight Off: 8 free cells and 4
foundations over 8 columns) and the table is tall enough, the top row is
split in two, the free cells above the foundations, if the cards come out
clearly bigger that way (a phone held upright).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from ..piles import CELL, COLUMN, FOUNDATION, Pile
from ..position import Position

CARD_RATIO = 1.4  # height / width
FAN = 0.28  # distance between overlapping cards, as a fraction of card height
MIN_STRIP = 0.25  # the fan never gets tighter than this: rank and suit stay visible
LARGE_MIN_STRIP = 0.34  # the same for large indices (cardart.LARGE_TOP_STRIP / CARD_RATIO)
PLANNED_FAN = 10  # columns up to this length never change the card size
MAX_CARD_WIDTH = 120.0


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
    min_strip: float = MIN_STRIP  # the tightest fan, as a fraction of card height

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

    def fan(self, length: int) -> float:
        """Distance between the cards of a column of ``length`` cards."""
        if length <= 1:
            return self.card_h * FAN
        room = self.height - self.columns[0].y - self.card_h - self.gap
        return max(self.card_h * self.min_strip, min(self.card_h * FAN, room / (length - 1)))

    def spots(self, pos: Position) -> dict[Card, Spot]:
        """Where every card of ``pos`` lies."""
        out: dict[Card, Spot] = {}
        for s, n in enumerate(pos.foundations):
            r = self.foundations[s]
            for rank in range(n):
                out[rank * 4 + s] = Spot(Pile(FOUNDATION, s), rank, r.x, r.y)
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

    def drop_target(self, card_rect: Rect, x: float, y: float) -> Pile | None:
        """The pile a dragged card lands on: the one it overlaps most, else under the pointer."""
        best: Pile | None = None
        best_area = 0.0
        for pile, r in self.piles():
            a = r.overlap(card_rect)
            if a > best_area:
                best, best_area = pile, a
        if best is not None:
            return best
        for pile, r in self.piles():
            if r.contains(x, y):
                return pile
        return None


def compute_layout(
    width: float,
    height: float,
    free_cells: int = 4,
    columns: int = 8,
    longest: int = 0,
    min_strip: float = MIN_STRIP,
    left_handed: bool = False,
) -> Layout:
    """The layout of a table ``width`` x ``height`` pixels whose longest column has ``longest`` cards.

    ``min_strip``: the part of a covered card that must show (``LARGE_MIN_STRIP``
    for large indices).  ``left_handed``: the foundations on the left and the
    free cells on the right (the top row mirrored, in the same order).
    """
    width = max(width, 160.0)
    height = max(height, 160.0)
    gap_frac = 0.12  # gap between columns, as a fraction of card width
    planned = max(PLANNED_FAN, longest)

    def card_width(slots: int, top_rows: int) -> float:
        by_width = width / (slots + (slots + 1) * gap_frac)
        # height: margin + top rows + gap + the longest column at the tightest fan + margin
        by_height = height / (CARD_RATIO * (top_rows + 1 + min_strip * (planned - 1))
                              + (3.6 + top_rows - 1) * gap_frac)
        return min(by_width, by_height, MAX_CARD_WIDTH)

    slots = max(columns, free_cells + 4)
    card_w = card_width(slots, 1)
    split = False
    if free_cells + 4 > columns:
        split_slots = max(columns, free_cells, 4)
        split_w = card_width(split_slots, 2)
        if split_w > card_w * 1.15:
            split, slots, card_w = True, split_slots, split_w
    card_h = card_w * CARD_RATIO
    gap = card_w * gap_frac
    used = slots * card_w + (slots - 1) * gap
    left = (width - used) / 2
    top = gap

    def x_of(i: int) -> float:
        return left + i * (card_w + gap)

    if split:  # the free cells above, the foundations below them at the far side
        row2 = top + card_h + gap
        cells = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(free_cells))
        first = 0 if left_handed else slots - 4
        foundations = tuple(Rect(x_of(first + i), row2, card_w, card_h) for i in range(4))
        col_top = row2 + card_h + gap * 1.5
    else:
        if left_handed:
            foundations = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(4))
            cells = tuple(Rect(x_of(slots - free_cells + i), top, card_w, card_h)
                          for i in range(free_cells))
        else:
            cells = tuple(Rect(x_of(i), top, card_w, card_h) for i in range(free_cells))
            foundations = tuple(Rect(x_of(slots - 4 + i), top, card_w, card_h) for i in range(4))
        col_top = top + card_h + gap * 1.5
    col_left = left + (slots - columns) * (card_w + gap) / 2
    cols = tuple(
        Rect(col_left + i * (card_w + gap), col_top, card_w, max(card_h, height - col_top))
        for i in range(columns)
    )
    return Layout(width, height, card_w, card_h, gap, cells, foundations, cols, min_strip)
