"""A move in our notation as the keys a keyboard player presses (shared by the CPython and
browser tests).

From the pile (and card) the focus is on: the fewest arrows to the first card of the cards
to move (on the page's layout: with the piles beside the columns the arrows follow the
screen), Enter; then the fewest arrows to the destination, and Enter.  A
card that Enter would send home while the move goes elsewhere is picked with Shift+Enter.
A move home that Enter plays at once needs no second press.  After a move the focus is
on the exposed card of the pile it was on, as the page puts it.
"""

from __future__ import annotations

from collections import deque

from freecell.engine import check_move
from freecell.piles import CELL, COLUMN, FOUNDATION, HOME, Move, Pile, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.ui.table.focus import Target, navigate, settle
from freecell.ui.table.layout import Layout

ARROWS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")


def _walk(target: Target, pile: Pile, index: int, pos: Position,
          layout: Layout | None = None) -> tuple[list[str], Target]:
    """The fewest arrow keys from ``target`` to card ``index`` of ``pile`` (-1: the pile itself),
    as :func:`~freecell.ui.table.focus.navigate` moves the focus on ``layout``."""
    start = settle(target, pos, keep_index=True)
    goal = Target(pile, index if pile.kind == COLUMN else -1)
    paths: dict[Target, list[str]] = {start: []}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if here == goal:
            return paths[here], goal
        for key in ARROWS:
            there = navigate(here, key, pos, layout)
            if there is not None and there not in paths:
                paths[there] = [*paths[here], key]
                todo.append(there)
    raise AssertionError(f"no keys lead from {start} to {goal}")


def keys_for_move(
    target: Target, pos: Position, move: Move, rules: Rules = FREECELL, layout: Layout | None = None
) -> tuple[list[str], Target]:
    """The keys that play ``move`` from ``target`` on ``layout`` (the page's; ``None``: the standard
    table), and where the focus is afterwards."""
    src = move.src
    if src.kind == COLUMN:
        first = len(pos.columns[src.index]) - move.count
    elif src.kind == CELL:
        first = -1
    else:
        raise ValueError(f"{move.text()}: moves from a foundation are not played with keys here")
    keys, target = _walk(target, src, first, pos, layout)
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
    more, target = _walk(target, dst, -1 if dst.kind != COLUMN else len(pos.columns[dst.index]) - 1, pos,
                         layout)
    return [*keys, *more, "Enter"], Target(target.pile)  # on the exposed card, as after any move
