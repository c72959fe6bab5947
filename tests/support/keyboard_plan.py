"""A move in our notation as the keys a keyboard player presses (shared by the CPython and
browser tests).

From the pile (and card) the focus is on: Left/Right to the source pile, Up/Down to the
first card of the cards to move, Enter; then Left/Right to the destination and Enter.  A
card that Enter would send home while the move goes elsewhere is picked with Shift+Enter.
A move home that Enter plays at once needs no second press.  After a move the focus is
on the exposed card of the pile it was on, as the page puts it.
"""

from __future__ import annotations

from freecell.engine import check_move
from freecell.piles import CELL, COLUMN, FOUNDATION, HOME, Move, Pile, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.ui.table.focus import Target, pile_order, settle


def _walk(target: Target, pile: Pile, index: int, pos: Position) -> tuple[list[str], Target]:
    """Keys from ``target`` to card ``index`` of ``pile`` (-1: the pile itself)."""
    order = pile_order(pos)
    target = settle(target, pos, keep_index=True)
    d = order.index(pile) - order.index(target.pile)
    keys = ["ArrowRight" if d > 0 else "ArrowLeft"] * abs(d)
    if d:
        target = settle(Target(pile), pos)  # a pile reached sideways: its exposed card
    if pile.kind == COLUMN:
        step = index - target.index
        keys += ["ArrowDown" if step > 0 else "ArrowUp"] * abs(step)
    return keys, Target(pile, index if pile.kind == COLUMN else -1)


def keys_for_move(
    target: Target, pos: Position, move: Move, rules: Rules = FREECELL
) -> tuple[list[str], Target]:
    """The keys that play ``move`` from ``target``, and where the focus is afterwards."""
    src = move.src
    if src.kind == COLUMN:
        first = len(pos.columns[src.index]) - move.count
    elif src.kind == CELL:
        first = -1
    else:
        raise ValueError(f"{move.text()}: moves from a foundation are not played with keys here")
    keys, target = _walk(target, src, first, pos)
    goes_home = move.count == 1 and check_move(pos, Move(src, HOME), rules) is None
    if move.dst.kind == FOUNDATION and goes_home:
        return [*keys, "Enter"], Target(target.pile)  # a move moves the focus to the exposed card
    keys.append("Shift+Enter" if goes_home else "Enter")
    if move.dst.kind == FOUNDATION:
        card = pos.columns[src.index][-1] if src.kind == COLUMN else pos.cells[src.index]
        assert card is not None
        dst = foundation(card & 3)
    else:
        dst = move.dst
    more, target = _walk(target, dst, -1 if dst.kind != COLUMN else len(pos.columns[dst.index]) - 1, pos)
    return [*keys, *more, "Enter"], Target(target.pile)  # on the exposed card, as after any move
