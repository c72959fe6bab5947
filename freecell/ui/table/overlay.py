"""Where the bars that float over the table go, so that they never cover what the player needs.

The hint bar, the notice line and (on a phone held sideways) the message
line go first to the felt the layout keeps for them (``Layout.lane``): the
lane beside the table, where they stack from its top (:func:`stack`), or the
band along its bottom, where one bar shrinks to one line.  A bar that finds
no room there floats over the table.  :func:`place` chooses how far from
the table's top such a bar goes, in the table's own coordinates (the page
draws the SVG at one unit per CSS pixel):

1. never over what it must leave in view: for the hint bar, the cards and
   piles the hint names (:func:`hint_rects`); for a notice, the free cells
   and foundations (:func:`top_row`), the hint's cards and piles, and the
   hint bar itself;
2. if it can, never over an exposed card, a free cell or a foundation
   either (``keep``: :func:`exposed`); then among the places left, the one
   that covers least of the rest of the table (:func:`everything`: each
   column's fan, and three times as much each exposed card, free cell and
   foundation, the cards a player plays): the felt below short columns
   covers nothing at all;
3. the lowest of equal ones; the bottom of the table if no place is left.

Only what lies across the bar's own width counts (a centred bar on a wide
table leaves the outer columns alone).

    >>> from freecell.ui.table.layout import Rect
    >>> place(400, 40, x0=0, x1=300, must=[Rect(0, 300, 50, 80)], avoid=[(Rect(0, 0, 300, 350), 1.0)])
    252.0
    >>> place(400, 40, x0=0, x1=300, must=[], avoid=[(Rect(0, 0, 300, 300), 1.0)])
    352.0
"""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card
from ...piles import COLUMN, Pile
from ...position import Position
from .layout import Layout, Rect

MARGIN = 8.0  # between a bar and the table's edges, or what it must not cover
EXPOSED = 3.0  # how much more covering a playable card (or a top-row pile) costs than a fan's middle

Weighted = tuple[Rect, float]


def place(height: float, bar_h: float, *, x0: float, x1: float, must: Iterable[Rect],
          avoid: Iterable[Weighted] = (), margin: float = MARGIN, keep: Iterable[Rect] = ()) -> float:
    """The top of a bar ``bar_h`` high across ``x0``-``x1`` of a table ``height`` high (see the module)."""
    must = [r for r in must if r.x < x1 and r.x + r.w > x0]
    avoid = [(r, w) for r, w in avoid if r.x < x1 and r.x + r.w > x0]
    keep = [r for r in keep if r.x < x1 and r.x + r.w > x0]
    if keep:
        y = _place(height, bar_h, x0, x1, must + keep, avoid, margin)
        if y is not None:
            return y
    y = _place(height, bar_h, x0, x1, must, avoid, margin)
    if y is not None:
        return y
    high = height - margin - bar_h
    return high if high >= margin else max(0.0, height - bar_h)


def _place(height: float, bar_h: float, x0: float, x1: float, must: list[Rect], avoid: list[Weighted],
           margin: float) -> float | None:
    """:func:`place` for one set of ``must``: ``None`` when no place is clear of them."""
    low, high = margin, height - margin - bar_h
    if high < low:
        return None if must else max(0.0, height - bar_h)
    tops = {low, high}
    for r in [*must, *(r for r, _ in avoid)]:
        tops.update((r.y + r.h + margin, r.y - margin - bar_h))
    best: tuple[float, float] | None = None
    for y in tops:
        if not low <= y <= high or any(y < r.y + r.h + margin and y + bar_h > r.y - margin for r in must):
            continue
        bar = Rect(x0, y, x1 - x0, bar_h)
        cost = sum(w * bar.overlap(r) for r, w in avoid)
        if best is None or (cost, -y) < (best[0], -best[1]):
            best = (cost, y)
    return None if best is None else best[1]


def stack(lane: Rect, heights: Iterable[float], margin: float = MARGIN) -> list[float | None]:
    """The tops of bars ``heights`` high stacked down the lane beside the table; ``None`` past its end.

    >>> stack(Rect(600, 4, 150, 350), [120, 100, 200])
    [4, 132.0, None]
    """
    out: list[float | None] = []
    y = lane.y
    for h in heights:
        if y + h > lane.y + lane.h + 1e-6:
            out.append(None)
            continue
        out.append(y)
        y += h + margin
    return out


def exposed(layout: Layout, pos: Position) -> list[Rect]:
    """What a bar covers only where there is no other place: the exposed cards, free cells, foundations."""
    return [r for r, w in everything(layout, pos) if w == EXPOSED]


FLOAT_MAX = 640.0  # the widest a floating bar is (40rem)


def float_span(layout: Layout) -> tuple[float, float]:
    """Across which part of the table a bar floats: centred, 8 px in, at most 40rem; over the columns
    only where the piles stand beside them.

    >>> from freecell.ui.table.layout import compute_layout
    >>> float_span(compute_layout(1280, 684))[0] > compute_layout(1280, 684).cells[0].x
    True
    """
    if layout.side:
        x0 = layout.columns[0].x
        x1 = layout.columns[-1].x + layout.card_w
    else:
        x0, x1 = MARGIN, layout.width - MARGIN
    w = min(x1 - x0, FLOAT_MAX)
    mid = (x0 + x1) / 2
    return mid - w / 2, mid + w / 2


def card_rect(layout: Layout, pos: Position, card: Card) -> Rect:
    """The whole face of ``card`` where ``pos`` puts it (a covered card's face too)."""
    spot = layout.spots(pos)[card]
    return Rect(spot.x, spot.y, layout.card_w, layout.card_h)


def pile_area(layout: Layout, pile: Pile) -> Rect:
    """A pile's own place: a free cell, a foundation, or the first card's place of a column."""
    r = layout.pile_rect(pile)
    return Rect(r.x, r.y, layout.card_w, layout.card_h) if pile.kind == COLUMN else r


def hint_rects(layout: Layout, pos: Position, piles: Iterable[str], cards: Iterable[Card]) -> list[Rect]:
    """What a hint names (:func:`freecell.ui.text.bars.hint_marks`): its cards, and its piles' places."""
    out = [card_rect(layout, pos, c) for c in cards]
    for name in piles:
        pile = Pile.parse(name)
        if pile.kind != COLUMN or not pos.columns[pile.index]:
            out.append(pile_area(layout, pile))
    return out


def top_row(layout: Layout) -> list[Rect]:
    """The free cells and the foundations."""
    return [*layout.cells, *layout.foundations]


def everything(layout: Layout, pos: Position) -> list[Weighted]:
    """What a bar had better not cover: each column's fan; weighing more, its exposed card, the top row."""
    out = [(r, EXPOSED) for r in top_row(layout)]
    for i, col in enumerate(pos.columns):
        r = layout.columns[i]
        if not col:
            out.append((Rect(r.x, r.y, layout.card_w, layout.card_h), 1.0))
            continue
        last = layout.column_bottom(i, len(col)) - layout.card_h
        if last > r.y:
            out.append((Rect(r.x, r.y, layout.card_w, last - r.y), 1.0))
        out.append((Rect(r.x, last, layout.card_w, layout.card_h), EXPOSED))
    return out


def beside(run: Rect, w: float, h: float, width: float, height: float,
           margin: float = MARGIN) -> tuple[float, float]:
    """Where a panel ``w`` x ``h`` goes beside ``run`` (the long-press picker), never over it.

    To its right, else its left (the side with more room when neither has
    enough), its middle level with the run's middle, kept inside the table's
    ``width`` x ``height``; above or below the run only when neither side
    has the room.

    >>> beside(Rect(100, 50, 50, 200), 120, 60, 800, 600)
    (158.0, 120.0)
    >>> beside(Rect(700, 50, 50, 200), 120, 60, 800, 600)
    (572.0, 120.0)
    """
    top = min(max(margin, run.y + run.h / 2 - h / 2), max(margin, height - h - margin))
    right, left = run.x + run.w + margin, run.x - margin - w
    if right + w <= width - margin / 2:
        return right, top
    if left >= margin / 2:
        return left, top
    x = min(max(margin, run.x + run.w / 2 - w / 2), max(margin, width - w - margin))
    above = run.y - margin - h
    return x, (above if above >= margin else min(run.y + run.h + margin, max(margin, height - h - margin)))
