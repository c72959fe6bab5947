"""The table as it was last drawn, kept as data so that a returning player sees it at once.

When the page is hidden or closed, the page stores :func:`drawn_record`:
where every card and pile was drawn, the table's size and look, and the
status bar's texts (``freecell.drawn``).  On the next load
``static/early.js`` draws that table from it, with the same sprite symbols
(:mod:`freecell.ui.table.sprite`) and before any Python runs; the page's Python
then draws the same table over it in one step.  The record holds only
numbers, card and pile names and short texts, and early.js checks each
against an allow-list before it uses it (:data:`MAX_COORDINATE`,
:data:`MAX_TEXT`, :data:`STATUS_NAMES`, :data:`TABLE_CLASSES`;
tests/test_drawn.py checks early.js against them).

    >>> from freecell.position import Position
    >>> from freecell.ui.table.layout import compute_layout
    >>> import json
    >>> layout = compute_layout(800, 600)
    >>> rec = json.loads(drawn_record(layout, Position.deal(1), deal=1, variant="freecell"))
    >>> rec["v"], len(rec["cards"]), rec["cards"][0][0], rec["piles"][0][:2]
    (1, 52, '2D', ['a', 'pile-cell'])
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from ...cards import card_text
from ...piles import CELL, COLUMN, FOUNDATION
from ...position import Position
from ..table.layout import Layout
from ..table.sprite import drawn, face_id, pile_id

KEY_DRAWN = "freecell.drawn"
VERSION = 1
MAX_TEXT = 60
TABLE_CLASSES = ("four-colour", "large-cards", "left-handed")
# What early.js accepts (it has its own copy of these few rules, checked by a test).
MAX_COORDINATE = 20000
STATUS_NAMES = ("capacity", "home", "moves", "time", "deal", "variant", "score", "winnable")


def drawn_record(layout: Layout, pos: Position, *, deal: int | None, variant: str, large: bool = False,
                 classes: Iterable[str] = (), status: Iterable[tuple[str, str, bool]] = ()) -> str:
    """The drawn table as JSON text (see the module docstring).

    ``status``: ``(name, text, hidden)`` of each status item.
    """
    spots = layout.spots(pos)
    cards = []
    for c in sorted(range(52), key=lambda c: (spots[c].index, c)):  # drawing order: lower cards later
        s = spots[c]
        cards.append([card_text(c), drawn(s.x), drawn(s.y), face_id(c, large)])
    piles = []
    for pile, r in layout.piles():
        kind = {CELL: "cell", FOUNDATION: "foundation", COLUMN: "column"}[pile.kind]
        suit = pile.index if pile.kind == FOUNDATION else None
        piles.append([pile.text(), pile_id(kind, suit), drawn(r.x), drawn(r.y)])
    record = {
        "v": VERSION,
        "deal": deal,
        "variant": variant,
        "w": drawn(layout.width),
        "h": drawn(layout.height),
        "cw": drawn(layout.card_w),
        "ch": drawn(layout.card_h),
        "classes": [c for c in classes if c in TABLE_CLASSES],
        "cards": cards,
        "piles": piles,
        "status": [[name, text[:MAX_TEXT], hidden] for name, text, hidden in status
                   if name in STATUS_NAMES],
    }
    return json.dumps(record, separators=(",", ":"))
