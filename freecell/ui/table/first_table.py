"""The table a first visit draws before Python is ready: deals and layouts, made at build time.

A returning player's table is drawn at once from what the page stored
(:mod:`freecell.ui.progress.stored_table`).  A first visit has nothing
stored, so the build writes this data into ``static/early.js`` instead: a
few winnable deals of classic FreeCell, each as its 52 cards in dealing
order, and the layout of a fresh deal for a grid of table sizes, each as the
52 places a fresh deal's cards take (in the same order) and the piles.  The
early script picks a deal at random and the layout nearest to the table's
box, draws it, and tells the page which deal it drew
(``<html data-first-deal="N">``); the page's Python then deals that very
deal (:meth:`freecell.ui.session.opening.Opening.start`) and draws it over
the early one in one step.  The data is made by the real engine and layout,
so the two tables are the same cards in the same places.

    >>> data = first_table_data()
    >>> len(data["deals"]) == len(FIRST_DEALS), len(data["deals"][0][1])
    (True, 104)
    >>> len(data["layouts"][0]), len(places(data["layouts"][0]))
    (31, 52)
    >>> is_first_deal(FIRST_DEALS[0]), is_first_deal(11982)
    (True, False)
"""

from __future__ import annotations

from typing import Any

from ...cards import card_text
from ...position import Position
from .layout import compute_layout
from .sprite import drawn

# Deals of 1..32000 (valid for every deal source), none of them unwinnable.
FIRST_DEALS: tuple[int, ...] = (164, 892, 1941, 3318, 5127, 7411, 9083, 12570, 17342, 21806, 26413, 30759)

# The table sizes (the table area's box, CSS pixels) a layout is made for: 10% apart, so that
# the nearest one, scaled to the box, puts each card within a few pixels of the page's own.
WIDTHS = tuple(round(300 * 1.1**k) for k in range(21))  # 300 .. 2018
HEIGHTS = tuple(round(220 * 1.1**k) for k in range(19))  # 220 .. 1222
# Where the piles move from beside the columns to above them, every 20 px of width.
BOUND_WIDTHS = tuple(range(300, 2040, 20))
MIN_BOX, MAX_BOX = 100, 4000  # the heights side_bound looks between


def is_first_deal(deal: object) -> bool:
    """Whether ``deal`` is one the early script may have drawn (what the page reads is checked)."""
    return isinstance(deal, int) and not isinstance(deal, bool) and deal in FIRST_DEALS


def _dealt_order(pos: Position) -> list[int]:
    """The cards of a fresh deal, column by column, top card of each column last."""
    return [card for column in pos.columns for card in column]


def _layout_data(width: float, height: float) -> list[float]:
    """One size's layout of a fresh deal: ``[w, h, cw, ch, y, fan_7, fan_6, x_1..x_8, p_1..p_8]``.

    ``y``: the columns' y; ``fan_n``: the strip of a column of n cards;
    ``x_i``: column i's x; ``p_i``: the x and y of the free cells a-d, then of
    the foundations h1-h4 (a row above the columns, or beside them on a short
    wide table).  Checked against the table
    :func:`~freecell.ui.progress.stored_table.drawn_record` draws, card by card.
    """
    layout = compute_layout(width, height)
    head = [drawn(v) for v in (width, height, layout.card_w, layout.card_h, layout.columns[0].y)]
    fans = [round(layout.fan(7), 3), round(layout.fan(6), 3)]
    places = [drawn(v) for r in layout.cells + layout.foundations for v in (r.x, r.y)]
    return head + fans + [drawn(r.x) for r in layout.columns] + places


def places(row: list[float]) -> list[tuple[float, float]]:
    """The 52 places of a fresh deal's cards in dealing order, from one row of :func:`_layout_data`
    (what early.js computes; the tests compare it with the drawn table)."""
    _w, _h, _cw, _ch, y, fan7, fan6, *xs = row
    out: list[tuple[float, float]] = []
    for col in range(8):
        n, fan = (7, fan7) if col < 4 else (6, fan6)
        out += [(xs[col], round(y + j * fan, 1)) for j in range(n)]
    return out


def side_bound(width: float) -> int:
    """The least table height (whole CSS pixels) at ``width`` whose piles stand above the columns.

    Below it the free cells and foundations stand beside them
    (:attr:`~freecell.ui.table.layout.Layout.side`): for a fresh deal the
    choice depends only on the height, for a given width, as the tests check.
    """
    lo, hi = MIN_BOX, MAX_BOX  # the answer is in (lo, hi]
    if not compute_layout(width, lo).side:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if compute_layout(width, mid).side:
            lo = mid
        else:
            hi = mid
    return hi


def first_table_data() -> dict[str, Any]:
    """The deals and layouts (see the module docstring), as JSON-ready data.

    ``widths`` and ``heights`` name the grid the ``layouts`` are made for (one
    row per width and height, heights fastest); ``sides`` says which rows have
    their piles beside the columns, and ``bound`` where that arrangement ends
    (:func:`side_bound` at :data:`BOUND_WIDTHS`).  The early script decides
    from ``bound`` which arrangement the page's own layout will have, and
    interpolates the four rows around its box when all four have it, else
    takes the nearest row that has it: a fresh deal drawn within a pixel or
    two of the page's, and never in the other arrangement.
    """
    deals = [[d, "".join(card_text(c) for c in _dealt_order(Position.deal(d)))] for d in FIRST_DEALS]
    layouts = [_layout_data(w, h) for w in WIDTHS for h in HEIGHTS]
    sides = [int(compute_layout(w, h).side) for w in WIDTHS for h in HEIGHTS]
    return {"v": 1, "deals": deals, "layouts": layouts, "widths": list(WIDTHS), "heights": list(HEIGHTS),
            "sides": sides, "bound": [[w, side_bound(w)] for w in BOUND_WIDTHS]}
