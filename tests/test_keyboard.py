"""Keyboard play without a browser: focus moves, Enter, shortcuts, the long-press picker.

The pure modules behind the page's keyboard and long press
(:mod:`freecell.ui.table.focus`, :mod:`freecell.ui.table.picker`) are driven here the way
the page drives them, up to a whole deal won with keys alone.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell.cards import parse_card
from freecell.game import Game
from freecell.piles import CELL, COLUMN, FOUNDATION, Move, Pile, cell, column, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Reason
from freecell.ui.table.focus import (
    KEYS,
    Target,
    activate,
    exposed,
    navigate,
    pile_order,
    ring_rect,
    settle,
    shortcut,
)
from freecell.ui.table.layout import Layout, compute_layout
from freecell.ui.table.picker import Picker
from freecell.ui.table.table import TableState
from tests.support.keyboard_plan import keys_for_move
from tests.support.tables import board_from_parts, solution_lines

DEAL1 = Position.deal(1)


def press(table: TableState, target: Target, key: str, layout: Layout | None = None) -> tuple[Target, str]:
    """One key as the page handles it: a focus move, or Enter / Shift+Enter on the target."""
    pos = table.game.position
    if key in KEYS:
        moved = navigate(target, key, pos, layout)
        assert moved is not None
        return moved, "focus"
    assert key in ("Enter", "Shift+Enter"), key
    out = activate(table, target, select_only=key == "Shift+Enter")
    if out.kind == "moved":
        target = settle(target, table.game.position)
    return target, out.kind


# --- moving the focus ---------------------------------------------------------------


def test_left_and_right_cross_every_pile_in_reading_order() -> None:
    order = pile_order(DEAL1)
    assert [p.text() for p in order] == [*"abcd", "h1", "h2", "h3", "h4", *"12345678"]
    t = settle(Target(cell(0)), DEAL1)
    seen = [t.pile]
    for _ in range(20):
        t = navigate(t, "ArrowRight", DEAL1) or t
        if t.pile != seen[-1]:
            seen.append(t.pile)
    assert seen == order  # and it stops at the last column
    back = [t.pile]
    for _ in range(20):
        t = navigate(t, "ArrowLeft", DEAL1) or t
        if t.pile != back[-1]:
            back.append(t.pile)
    assert back == order[::-1]
    assert navigate(t, "End", DEAL1) == exposed(column(7), DEAL1)
    assert navigate(t, "Home", DEAL1) == Target(cell(0))


def test_sideways_lands_on_the_exposed_card() -> None:
    t = Target(column(0), 2)
    right = navigate(t, "ArrowRight", DEAL1)
    assert right == Target(column(1), len(DEAL1.columns[1]) - 1)
    assert navigate(Target(foundation(3)), "ArrowRight", DEAL1) == Target(column(0), 6)


def test_up_and_down_along_a_column_and_between_the_rows() -> None:
    t = exposed(column(2), DEAL1)
    assert t.index == 6
    for i in range(5, -1, -1):
        t = navigate(t, "ArrowUp", DEAL1) or t
        assert t == Target(column(2), i)
    # up from the first card: the pile above (slot 2 is free cell c), then nowhere higher
    t = navigate(t, "ArrowUp", DEAL1) or t
    assert t == Target(cell(2))
    assert navigate(t, "ArrowUp", DEAL1) == t
    # down from the top row: the column below, on its exposed card
    assert navigate(Target(foundation(1)), "ArrowDown", DEAL1) == exposed(column(5), DEAL1)
    down = navigate(Target(column(2), 6), "ArrowDown", DEAL1)
    assert down == Target(column(2), 6)  # the exposed card is the bottom
    assert navigate(t, "Tab", DEAL1) is None


def test_the_order_follows_the_layout() -> None:
    """Left-handed: foundations on the left; the keys follow what the player sees."""
    lefty = compute_layout(1000, 800, left_handed=True)
    order = pile_order(DEAL1, lefty)
    assert [p.text() for p in order] == ["h1", "h2", "h3", "h4", *"abcd", *"12345678"]
    first = Target(column(0), 0)
    assert navigate(first, "ArrowUp", DEAL1, lefty) == Target(foundation(0))
    assert navigate(Target(cell(3)), "ArrowDown", DEAL1, lefty) == exposed(column(7), DEAL1)
    assert navigate(exposed(column(0), DEAL1), "ArrowLeft", DEAL1, lefty) == Target(cell(3))


def test_a_split_top_row_is_two_rows() -> None:
    """Eight free cells on a narrow table: free cells above, foundations below them at the side."""
    pos = Position(DEAL1.columns, (None,) * 8)
    narrow = compute_layout(390, 700, free_cells=8, columns=8)
    assert narrow.cells[0].y < narrow.foundations[0].y < narrow.columns[0].y
    order = pile_order(pos, narrow)
    assert [p.text() for p in order][:12] == [*"abcdefgi", "h1", "h2", "h3", "h4"]
    # down from a free cell with no foundation below it: the column below
    assert navigate(Target(cell(0)), "ArrowDown", pos, narrow) == exposed(column(0), pos)
    # down from a free cell above a foundation: that foundation, then the column
    t = navigate(Target(cell(7)), "ArrowDown", pos, narrow)
    assert t == Target(foundation(3))
    assert navigate(t, "ArrowDown", pos, narrow) == exposed(column(7), pos)
    assert navigate(Target(column(4), 0), "ArrowUp", pos, narrow) == Target(foundation(0))


@given(st.lists(st.sampled_from(KEYS), max_size=40))
def test_every_key_sequence_keeps_a_valid_target(keys: list[str]) -> None:
    t = settle(Target(column(0)), DEAL1)
    for k in keys:
        nxt = navigate(t, k, DEAL1)
        assert nxt is not None
        t = nxt
        assert settle(t, DEAL1, keep_index=True) == t


def test_settle_after_a_change() -> None:
    pos = board_from_parts({1: "9H 8S 7H 6S", 2: "TC", 3: "9D", 4: "KS", 5: "QH", 6: "JS", 7: "8C", 8: "5D"})
    n = len(pos.columns[0])
    assert settle(Target(column(0), 1), pos) == Target(column(0), n - 1)
    assert settle(Target(column(0), 1), pos, keep_index=True) == Target(column(0), 1)
    assert settle(Target(column(0), 99), pos, keep_index=True) == Target(column(0), n - 1)
    assert settle(Target(cell(1), 5), pos) == Target(cell(1))
    assert settle(Target(Pile(COLUMN, 12)), pos) == exposed(column(0), pos)
    empty = Position(((),) + pos.columns[1:], pos.cells, pos.foundations)
    assert settle(Target(column(0), 3), empty) == Target(column(0), -1)


# --- Enter and Space -------------------------------------------------------------------


def test_enter_selects_then_drops() -> None:
    game = Game(deal=617)
    table = TableState(game)
    out = activate(table, exposed(column(4), game.position))  # JC
    assert out.kind == "selected" and table.selection is not None
    out = activate(table, exposed(column(7), game.position))  # onto QH
    assert out.kind == "moved" and game.moves == 1
    assert game.position.columns[7][-1] == parse_card("JC")


def test_enter_sends_home_and_shift_enter_only_selects() -> None:
    pos = board_from_parts(
        {1: "3D", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"},
        cells="3S - - -", foundations=(1, 2, 0, 2),
    )
    game = Game(position=pos)
    table = TableState(game)
    out = activate(table, exposed(column(0), pos), select_only=True)
    assert out.kind == "selected" and game.moves == 0
    assert activate(table, exposed(column(0), pos)).kind == "deselected"  # Enter again on it
    out = activate(table, exposed(column(0), pos))
    assert out.kind == "moved" and game.position.foundations[1] == 3
    out = activate(table, Target(cell(0)))
    assert out.kind == "moved" and game.position.foundations[3] == 3


def test_enter_on_a_pile_refuses_with_the_reason() -> None:
    game = Game(deal=1)
    table = TableState(game)
    assert activate(table, Target(cell(0))).kind == "none"  # nothing selected, empty cell
    assert activate(table, exposed(column(1), game.position)).kind == "selected"  # 9C
    out = activate(table, exposed(column(7), game.position))  # onto 10C: wrong colour
    assert out.kind == "refused" and out.refusal is not None
    assert out.refusal.reason is Reason.WRONG_COLOUR
    assert game.moves == 0 and table.selection is None
    out = activate(table, Target(foundation(0)))  # nothing there
    assert out.kind == "none"
    out = activate(table, Target(column(2), 0))  # a broken sequence
    assert out.kind == "refused" and out.refusal is not None
    assert out.refusal.reason is Reason.BROKEN_SEQUENCE


@pytest.mark.parametrize("size", [None, (1280, 700)])  # a top row; the piles beside the columns
def test_a_whole_deal_won_with_keys_alone(size: tuple[int, int] | None) -> None:
    game = Game(deal=1)
    table = TableState(game)
    target = settle(Target(column(0)), game.position)
    presses = 0
    for line in solution_lines(1):
        move = Move.parse(line)
        layout = None if size is None else compute_layout(*size, longest=max(map(len, game.position.columns)))
        assert layout is None or layout.side
        keys, expect_target = keys_for_move(target, game.position, move, layout=layout)
        before = game.moves
        for k in keys:
            target, _ = press(table, target, k, layout)
            presses += 1
        assert game.moves == before + 1, f"{line}: {keys}"
        assert target.pile == expect_target.pile, line
    assert game.is_won()
    assert presses < 40 * len(solution_lines(1))


# --- shortcuts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "mods", "action"),
    [
        ("u", {}, "undo"), ("U", {}, "undo"), ("h", {}, "hint"), ("n", {}, "new"), ("f", {}, "finish"),
        ("r", {}, "redo"), ("U", {"shift": True}, "redo"), ("y", {"ctrl": True}, "redo"),
        ("N", {"shift": True}, "replay"), ("N", {}, "new"), ("n", {"ctrl": True, "shift": True}, None),
        ("u", {"ctrl": True}, None), ("h", {"alt": True}, None), ("n", {"meta": True}, None),
        ("y", {"ctrl": True, "shift": True}, None), ("y", {}, None), ("Enter", {}, None),
        ("ArrowLeft", {}, None), ("z", {"ctrl": True}, None),
    ],
)
def test_shortcuts(key: str, mods: dict[str, bool], action: str | None) -> None:
    assert shortcut(key, **mods) == action


# --- the focus ring ---------------------------------------------------------------------


def test_ring_goes_round_the_card_and_the_cards_below() -> None:
    layout = compute_layout(1280, 700)
    n = len(DEAL1.columns[0])
    step = layout.fan(n)
    whole = ring_rect(layout, DEAL1, Target(column(0), 0))
    last = ring_rect(layout, DEAL1, Target(column(0), n - 1))
    assert whole.y == layout.columns[0].y and last.h == pytest.approx(layout.card_h)
    assert whole.h == pytest.approx((n - 1) * step + layout.card_h)
    assert last.y == pytest.approx(layout.columns[0].y + (n - 1) * step)
    assert ring_rect(layout, DEAL1, Target(cell(2))) == layout.cells[2]
    assert ring_rect(layout, DEAL1, Target(foundation(3))) == layout.foundations[3]


# --- the long-press picker --------------------------------------------------------------

RUN = board_from_parts({1: "KS 9H 8S 7H 6S", 2: "QD", 3: "JC", 4: "TD", 5: "9C", 6: "8D", 7: "7C", 8: "6D"})
N = len(RUN.columns[0])  # the run is the last four cards, KS the fifth from the end


def test_picker_counts_up_to_the_sequence_and_down_to_one() -> None:
    p = Picker.open(RUN, FREECELL, column(0), N - 1)
    assert p is not None and (p.count, p.most) == (1, 4)
    assert not p.step_down()
    counts = []
    while p.step_up():
        counts.append(p.count)
    assert counts == [2, 3, 4] and p.first == N - 4
    sel = p.selection()
    assert (sel.pile, sel.index, sel.count) == (column(0), N - 4, 4)
    while p.step_down():
        pass
    assert p.count == 1


def test_picker_on_a_card_above_the_sequence_starts_with_the_most() -> None:
    p = Picker.open(RUN, FREECELL, column(0), N - 5)  # KS does not go on 9H
    assert p is not None and p.first == N - 4 and p.count == 4
    assert Picker.open(RUN, FREECELL, column(0), N) is None
    assert Picker.open(RUN, FREECELL, Pile(CELL, 0), 0) is None
    assert Picker.open(RUN, FREECELL, Pile(FOUNDATION, 0), 0) is None


def test_confirming_the_picker_only_selects() -> None:
    game = Game(position=RUN)
    table = TableState(game)
    p = Picker.open(game.position, FREECELL, column(0), N - 1)
    assert p is not None
    p.step_up()
    out = table.select(p.pile, p.first)
    assert out.kind == "selected" and table.selection == p.selection()
    assert game.position == RUN and game.moves == 0


def test_with_the_piles_beside_the_columns_the_arrows_follow_the_screen() -> None:
    """A desktop (1280x700): the free cells stacked left of the columns, the foundations right."""
    lay = compute_layout(1280, 700)
    assert lay.side
    pos = DEAL1
    last = len(pos.columns[0]) - 1

    def go(t: Target, key: str) -> Target | None:
        return navigate(t, key, pos, lay)

    assert go(Target(cell(0)), "ArrowDown") == Target(cell(1))  # down the stack, not to column 1
    assert go(Target(cell(0)), "ArrowUp") == Target(cell(0))  # the stack's end: it stays
    assert go(Target(cell(3)), "ArrowDown") == Target(cell(3))
    assert go(Target(cell(2)), "ArrowRight") == Target(column(0), last)  # across, to the exposed card
    assert go(Target(cell(2)), "ArrowLeft") == Target(cell(2))  # the table's edge
    assert go(Target(column(0), 0), "ArrowLeft") == Target(cell(0))  # the cell level with the card
    assert go(Target(column(0), 0), "ArrowUp") == Target(column(0), 0)
    assert go(Target(column(7), 0), "ArrowRight") == Target(foundation(0))  # to the foundations beside
    assert go(Target(foundation(1)), "ArrowLeft") == Target(column(7), len(pos.columns[7]) - 1)
    assert go(Target(foundation(1)), "ArrowDown") == Target(foundation(2))
    assert go(Target(column(3), 2), "ArrowRight") == Target(column(4), len(pos.columns[4]) - 1)
    left = compute_layout(1280, 700, left_handed=True)  # mirrored: the foundations on the left
    assert navigate(Target(column(0), 0), "ArrowLeft", pos, left) == Target(foundation(0))
