"""Keyboard focus on the table: which pile, and which card of a column, has it.

A :class:`Target` is a pile and, in a column, the card the player points at:
the first card of what Enter picks up.  Free cells, foundations and empty
columns are targeted as a whole (``index == -1``): their accessible name says
what they hold.

The table is a grid of piles, as the layout draws them: two rows of eight on
a standard table, the top row holding the free cells then the foundations
(mirrored for left-handed players), the bottom row the columns.

- Left and Right go to the previous and next pile in reading order (the top
  row left to right, then columns 1 to 8), landing on a column's exposed
  card; they stop at both ends.  Home and End go to the first and the last.
- Up and Down, in a column, go to the card above or below: the first card
  of the sequence to pick up.  Up from a column's first card goes to the pile
  of the row above it; Down from a top row goes to the pile below.
- With the free cells and foundations stacked beside the columns
  (``Layout.side``: a desktop, a phone on its side) the arrows follow what
  is drawn (:func:`_stacked`, :func:`_across`): Up and Down walk a stack of piles, Left and
  Right go to the nearest pile across, at the height of the target (column
  1 to the free cell level with the card, column 8 to the foundation).
- Enter or Space *activates* the target exactly as a tap would
  (:func:`activate`): select, drop the selection there, or send an exposed
  card to its foundation.  Shift+Enter or Shift+Space selects without sending
  the card home, the one thing a tap cannot do.

After a move the target stays on its pile, on the pile's exposed card
(:func:`settle`), so the focus is never lost.

    >>> from freecell.position import Position
    >>> pos = Position.deal(1)
    >>> t = exposed(column(2), pos)
    >>> t
    Target(pile=Pile(kind=0, index=2), index=6)
    >>> navigate(t, "ArrowUp", pos), navigate(t, "ArrowRight", pos)
    (Target(pile=Pile(kind=0, index=2), index=5), Target(pile=Pile(kind=0, index=3), index=6))
    >>> navigate(exposed(column(0), pos), "ArrowLeft", pos)
    Target(pile=Pile(kind=2, index=3), index=-1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...piles import CELL, COLUMN, FOUNDATION, Pile, column
from ...position import Position
from .layout import Layout, Rect, compute_layout
from .table import Outcome, TableState

KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End")
Action = Literal["undo", "redo", "hint", "new", "finish", "replay"]  # a shortcut's, a button's data-action
SHORTCUTS: dict[str, Action] = {"u": "undo", "r": "redo", "h": "hint", "n": "new", "f": "finish"}
# The shortcuts that say why they do nothing when their button could not be pressed ("Nothing to
# redo"): a key, unlike a greyed button, gives no sign that it was heard.  The others stay silent.
SAYS_WHY: frozenset[Action] = frozenset({"undo", "redo", "finish"})


def shortcut(key: str, *, shift: bool = False, ctrl: bool = False, alt: bool = False,
             meta: bool = False) -> Action | None:
    """The action of a shortcut key: U undo, R / Shift+U / Ctrl+Y redo, H hint, N new deal,
    Shift+N replay the deal, F finish.

    Ctrl, Alt and Meta chords are the browser's and the system's, except Ctrl+Y.

    >>> shortcut("u"), shortcut("U", shift=True), shortcut("y", ctrl=True), shortcut("n", ctrl=True)
    ('undo', 'redo', 'redo', None)
    >>> shortcut("n"), shortcut("N", shift=True)
    ('new', 'replay')
    """
    k = key.lower()
    if ctrl and not (alt or meta or shift):
        return "redo" if k == "y" else None
    if ctrl or alt or meta:
        return None
    if shift and k == "u":
        return "redo"
    if shift and k == "n":
        return "replay"
    return SHORTCUTS.get(k)


@dataclass(frozen=True, slots=True)
class Target:
    """A pile, and in a column the index of the targeted card (-1: the pile itself)."""

    pile: Pile
    index: int = -1


def _geometry(pos: Position, layout: Layout | None) -> Layout:
    """Where the piles are drawn: the page's layout, else a standard one for ``pos``.

    With the piles beside the columns (``Layout.side``) the keys still read the
    table as a top row over the columns (the order the keys have always had),
    from a standard layout with the page's own hand.
    """
    if (layout is not None and not layout.side and len(layout.cells) == len(pos.cells)
            and len(layout.columns) == len(pos.columns)):
        return layout
    left = layout.foundations[0].x < layout.columns[0].x if layout is not None and layout.side else False
    return compute_layout(1000.0, 1400.0, len(pos.cells), len(pos.columns), left_handed=left)


def _rows(pos: Position, layout: Layout | None) -> list[list[tuple[Pile, Rect]]]:
    """The piles by rows, top to bottom, each row left to right."""
    rows: dict[int, list[tuple[Pile, Rect]]] = {}
    for pile, r in _geometry(pos, layout).piles():
        rows.setdefault(round(r.y), []).append((pile, r))
    return [sorted(rows[y], key=lambda pr: pr[1].x) for y in sorted(rows)]


def pile_order(pos: Position, layout: Layout | None = None) -> list[Pile]:
    """Every pile in reading order: the top row (free cells, foundations, as drawn), then columns."""
    return [pile for row in _rows(pos, layout) for pile, _ in row]


def exposed(pile: Pile, pos: Position) -> Target:
    """A pile's own target: a column's exposed card, the whole pile elsewhere."""
    if pile.kind == COLUMN:
        return Target(pile, len(pos.columns[pile.index]) - 1)
    return Target(pile)


def settle(target: Target, pos: Position, keep_index: bool = False) -> Target:
    """The target on ``pos``: on its pile's exposed card, or where it was if ``keep_index``.

    A target whose pile does not exist on ``pos`` goes to the first column.
    """
    pile = target.pile
    valid = (
        (pile.kind == COLUMN and 0 <= pile.index < len(pos.columns))
        or (pile.kind == CELL and 0 <= pile.index < len(pos.cells))
        or (pile.kind == FOUNDATION and 0 <= pile.index < 4)
    )
    if not valid:
        return exposed(column(0), pos)
    if pile.kind != COLUMN:
        return Target(pile)
    n = len(pos.columns[pile.index])
    if keep_index and 0 <= target.index < n:
        return target
    return Target(pile, n - 1)


def _vertical(pile: Pile, down: bool, pos: Position, layout: Layout | None) -> Pile | None:
    """The pile above or below ``pile``: the nearest across in the next row that has one.

    A row with nothing within a slot across (the foundations under the free
    cells of a split top row) is passed over; failing all, the next row's nearest.
    """
    g = _geometry(pos, layout)
    rows = _rows(pos, layout)
    r = next(i for i, row in enumerate(rows) if any(p == pile for p, _ in row))
    here = g.pile_rect(pile)
    cx = here.x + here.w / 2
    others = rows[r + 1:] if down else rows[:r][::-1]
    if not others:
        return None

    def nearest(row: list[tuple[Pile, Rect]]) -> tuple[float, Pile]:
        return min((abs(rect.x + rect.w / 2 - cx), p) for p, rect in row)

    for row in others:
        dx, p = nearest(row)
        if dx <= 1.5 * (g.card_w + g.gap):
            return p
    return nearest(others[0])[1]


def navigate(target: Target, key: str, pos: Position, layout: Layout | None = None) -> Target | None:
    """Where ``key`` takes the focus from ``target``; ``None`` for a key that does not move it.

    ``layout``: where the page draws the piles (left-handed, a split top row);
    without it, the standard table.
    """
    if key not in KEYS:
        return None
    target = settle(target, pos, keep_index=True)
    order = pile_order(pos, layout)
    pile = target.pile
    if key in ("Home", "End"):
        return exposed(order[0] if key == "Home" else order[-1], pos)
    side = layout if layout is not None and layout.side else None  # the piles beside the columns
    if side is not None and key in ("ArrowLeft", "ArrowRight"):
        return _across(target, key == "ArrowRight", pos, side)
    if key in ("ArrowLeft", "ArrowRight"):
        i = order.index(pile) + (1 if key == "ArrowRight" else -1)
        return exposed(order[max(0, min(i, len(order) - 1))], pos)
    down = key == "ArrowDown"
    if pile.kind == COLUMN:
        n = len(pos.columns[pile.index])
        if down:
            return Target(pile, min(target.index + 1, n - 1))
        if target.index > 0:
            return Target(pile, target.index - 1)
    other = _stacked(pile, down, side) if side is not None else _vertical(pile, down, pos, layout)
    return target if other is None else exposed(other, pos)


def _across(target: Target, right: bool, pos: Position, layout: Layout) -> Target:
    """Left or Right with the piles beside the columns: the nearest pile across that way, the one
    level with the target (staying at the table's edge)."""
    here = ring_rect(layout, pos, target)
    across = [(r, p) for p, r in layout.piles() if (r.x > here.x + 1 if right else r.x < here.x - 1)]
    if not across:
        return target
    nearest_x = min(abs(r.x - here.x) for r, _ in across)
    level = here.y + min(here.h, layout.card_h) / 2  # the targeted card's middle
    _, p = min(((abs(r.y + layout.card_h / 2 - level), p) for r, p in across
                if abs(abs(r.x - here.x) - nearest_x) < 1), key=lambda dp: dp[0])
    return exposed(p, pos)


def _stacked(pile: Pile, down: bool, layout: Layout) -> Pile | None:
    """Up or Down off a pile with the piles beside the columns: the next pile of its stack
    (free cells, foundations); ``None`` at the stack's end, or off a column."""
    here = layout.pile_rect(pile)
    ahead = [(r.y, p) for p, r in layout.piles() if abs(r.x - here.x) < 1 and p.kind != COLUMN
             and (r.y > here.y + 1 if down else r.y < here.y - 1)]
    return min(ahead, key=lambda yp: abs(yp[0] - here.y))[1] if ahead else None


def ring_rect(layout: Layout, pos: Position, target: Target) -> Rect:
    """Where the focus ring goes: around the targeted card and the cards below it, or the pile."""
    pile = target.pile
    r = layout.pile_rect(pile)
    if pile.kind != COLUMN:
        return r
    n = len(pos.columns[pile.index])
    if not 0 <= target.index < n:
        return Rect(r.x, r.y, layout.card_w, layout.card_h)
    step = layout.fan(n)
    top = r.y + target.index * step
    bottom = r.y + (n - 1) * step + layout.card_h
    return Rect(r.x, top, layout.card_w, bottom - top)


def activate(table: TableState, target: Target, select_only: bool = False) -> Outcome:
    """Enter or Space on ``target``: what a tap on it does (``select_only``: never send home)."""
    pos = table.game.position
    target = settle(target, pos, keep_index=True)
    pile = target.pile
    if pile.kind == COLUMN:
        index = target.index
    elif pile.kind == CELL:
        index = 0 if pos.cells[pile.index] is not None else -1
    else:
        index = pos.foundations[pile.index] - 1
    if index < 0:
        return table.tap_pile(pile)
    if select_only and table.selection is None:
        return table.select(pile, index)
    return table.tap_card(pile, index)
