"""The table's UI state (:mod:`freecell.ui.table.table`) without a browser: taps, and the smart tap.

The board: A-5 of every suit home, columns built so that each case has one
right answer (a column that builds, the longer run of two, an empty column,
a free cell, home first).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from freecell.game import Game
from freecell.piles import CELL, COLUMN, FOUNDATION, Move, Pile
from freecell.position import Position
from freecell.ui.table.table import DOUBLE_TAP_MS, TAP_SLOP_PX, TableState, Tap, TapKind, tap_kind

BOARD = """Foundations: C-5 D-5 H-5 S-5
Freecells: - - - -
: KC QD JC TD 9C 8D 7C
: 9H
: 9D 8S
: KS QH JS TH 9S 8H 7S 6H
: KD QS JD TS
: KH QC JH TC
: 6C 6D 7D 6S 7H 8C
:
"""


def table(smart: bool, board: str = BOARD) -> TableState:
    return TableState(Game(position=Position.from_text(board)), smart=smart)


def col(n: int) -> Pile:
    return Pile(COLUMN, n - 1)


def test_default_tap_selects() -> None:
    t = table(smart=False)
    out = t.tap_card(col(7), 5)  # 8C
    assert out.kind == "selected" and t.game.moves == 0


@pytest.mark.parametrize(("pile", "index", "move"), [
    (col(7), 5, "72"),     # 8C onto the 9H
    (col(3), 1, "32"),     # 8S onto the 9H
    (col(5), 3, "58"),     # TS: nothing builds, so the empty column
    (col(1), 4, "18x3"),   # 9C 8D 7C: a run, to the empty column within the capacity
])
def test_smart_tap_moves_to_the_best_place(pile: Pile, index: int, move: str) -> None:
    t = table(smart=True)
    assert t.smart_move(pile, index) == Move.parse(move)
    out = t.tap_card(pile, index)
    assert out.kind == "moved" and out.turn is not None and out.turn.move == Move.parse(move)


def test_smart_tap_sends_home_first() -> None:
    t = table(smart=True)
    out = t.tap_card(col(4), 7)  # 6H goes home before anything else
    assert out.kind == "moved" and out.turn is not None and out.turn.move.dst.kind != COLUMN
    assert t.game.position.foundations[2] == 6


def test_smart_tap_prefers_the_longer_run() -> None:
    # the 8S can go onto the 9H (alone) or onto the 9D ending the run KH QC JH TC 9D
    board = BOARD.replace(": 9H\n", ": 9H\n").replace(": 9D 8S\n", ": 8S\n").replace(
        ": KH QC JH TC\n", ": KH QC JH TC 9D\n")
    t = table(smart=True, board=board)
    assert t.smart_move(col(3), 0) == Move.parse("36")


def test_smart_tap_uses_a_free_cell_last() -> None:
    t = table(smart=True)
    t.tap_card(col(5), 3)  # TS to the empty column: now none is empty
    assert all(t.game.position.columns)
    # the 7C: no red eight exposed, no empty column: a free cell
    assert t.smart_move(col(1), 6) == Move(col(1), Pile(CELL, 0))


FULL = """Foundations: C-5 D-5 H-5 S-5
Freecells: 9H TS 8S 9D
: KC QD JC TD
: 6H KS QH JS TH 9S 8H 7S
: KD QS JD
: KH QC JH TC
: 6C 6D 7D
: 6S 7H
: 8C
: 9C 8D 7C
"""


def test_smart_tap_with_nowhere_to_go_selects() -> None:
    t = table(smart=True, board=FULL)
    assert t.smart_move(col(3), 2) is None  # the JD: no black queen, no empty column, no cell
    out = t.tap_card(col(3), 2)
    assert out.kind == "selected" and t.game.moves == 0
    # a card in a free cell goes to a column, never to another cell
    assert t.smart_move(Pile(CELL, 2), 0) is None  # 8S: no red nine exposed
    assert t.smart_move(Pile(CELL, 3), 0) == Move.parse("d4")  # the 9D onto the TC


# --- issue 25: a double tap sends a card to the best place, whatever the tap setting ----------------


@pytest.mark.parametrize(("pile", "index", "move"), [
    (col(7), 5, "72"),     # 8C onto the 9H
    (col(5), 3, "58"),     # TS: nothing builds, so the empty column
    (col(1), 4, "18x3"),   # 9C 8D 7C: the run it heads, within the capacity
])
def test_a_double_tap_sends_the_card_to_the_best_place(pile: Pile, index: int, move: str) -> None:
    t = table(smart=False)
    first = t.tap_card(pile, index)  # the default tap selects
    assert first.kind == "selected"
    out = t.double_tap(pile, index)
    assert out.kind == "moved" and out.turn is not None and out.turn.move == Move.parse(move)
    assert t.selection is None


def test_a_double_tap_sends_home_first_and_selects_when_nothing_takes_it() -> None:
    t = table(smart=False)
    out = t.double_tap(col(4), 7)  # 6H home
    assert out.kind == "moved" and out.turn is not None and out.turn.move.dst.kind != COLUMN
    full = table(smart=False, board=FULL)
    out = full.double_tap(col(3), 2)  # the JD: nowhere to go
    assert out.kind == "selected" and full.game.moves == 0


def test_what_a_tap_is_after_the_one_before() -> None:
    """A second tap on the same card soon is a double tap; at the place where a tap just played a
    move, it is that gesture's echo (a double click on an ace its first click sent home)."""
    first = Tap(col(0), 6, at=1000.0, x=50.0, y=300.0)
    assert tap_kind(None, first) is TapKind.SINGLE
    soon = 1000.0 + DOUBLE_TAP_MS
    assert tap_kind(first, Tap(col(0), 6, soon, 52.0, 301.0)) is TapKind.DOUBLE
    assert tap_kind(first, Tap(col(0), 6, soon + 1, 50.0, 300.0)) is TapKind.SINGLE  # too late
    assert tap_kind(first, Tap(col(0), 5, soon, 50.0, 290.0)) is TapKind.SINGLE  # another card
    assert tap_kind(first, Tap(col(1), 6, soon, 150.0, 300.0)) is TapKind.SINGLE
    felt = Tap(None, -1, 1000.0, 50.0, 700.0)
    assert tap_kind(felt, replace(felt, at=1100.0)) is TapKind.SINGLE  # no card: never a double
    moved = replace(first, moved=True)  # the ace went home; the card under it is under the pointer
    for pile, index in ((col(0), 5), (Pile(FOUNDATION, 3), 0), (col(0), 6)):
        assert tap_kind(moved, Tap(pile, index, soon, 50.0 + TAP_SLOP_PX, 300.0 - TAP_SLOP_PX)) \
            is TapKind.ECHO
    assert tap_kind(moved, Tap(col(0), 5, soon, 50.0, 300.0 + TAP_SLOP_PX + 1)) is TapKind.SINGLE
    assert tap_kind(moved, Tap(col(0), 5, soon + 1, 50.0, 300.0)) is TapKind.SINGLE  # a tap of its own
