"""Tests of the rules engine (freecell/engine.py).

Every refusal code of :func:`check_move` in a hand-built position, the
capacity table, :func:`apply_move` keeping 52 cards, :func:`legal_moves`
against a brute-force enumeration with :func:`check_move`, :func:`expand`
replayed step by step, and the end-of-game helpers (:func:`can_finish`,
:func:`finish_move`, :func:`is_stuck`, :func:`safe_automove`).
"""

from __future__ import annotations

import random

import pytest

from freecell.cards import card_text, make_card, parse_card
from freecell.engine import (
    IllegalMoveError,
    NotASolutionError,
    apply_move,
    can_finish,
    capacity,
    check_move,
    expand,
    finish_move,
    home_moves,
    is_safe_home,
    is_stuck,
    legal_moves,
    moving_cards,
    play,
    safe_automove,
    verify_solution,
)
from freecell.piles import CELL, COLUMN, FOUNDATION, Move, cell, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Build, EmptyColumn, Reason, Refusal, Rules, move_capacity
from tests.support.boards import (
    board,
    brute_force_moves,
    cards,
    deal_positions,
    empty_columns,
    mv,
    pick_move,
    sequence_position,
    spread,
)

RETURN = Rules(foundation_return=True)
SUIT = Rules(build=Build.SUIT)
ANY_BUILD = Rules(build=Build.ANY)
KING = Rules(empty_column=EmptyColumn.KING)
TWO_CELLS = Rules(free_cells=2)

# --- hand-built positions for the refusal codes ---------------------------

# A run of six in column 1 (9C down to 4H), one free cell (d), one empty
# column (3); every other column holds cards.
RUN = board(
    {1: "9C 8D 7S 6H 5C 4H", 2: "TD", 4: "5S 3H", 5: "8H", 6: "9S", 7: "QD"},
    "KC KD KH -",
    bury=8,
)
# Foundations: clubs at 1, diamonds at 11, hearts at 2, spades at 0; columns 6
# and 7 are empty.
HOME = board({1: "5H", 2: "2C", 3: "AS", 4: "3H", 5: "QD KD"}, bury=8)
# Columns that build or not: 9H <- 8D (same colour), 8S (fits), 7S (too low).
BUILDS = board({1: "9H", 2: "8D", 3: "8S", 4: "7S", 5: "8H", 6: "QH"}, bury=8)
KINGS = board({1: "QH", 2: "KS", 4: "KD QS", 5: "JC"}, rules=KING, bury=8)

# A dead position: all free cells full (kings), all foundations empty, the
# aces buried and only red cards at the bottoms.
_BOTTOMS = cards("2D 3D 4D 5D 2H 3H 4H 5H")
_KINGS = cards("KC KD KH KS")
_REST = [c for c in range(52) if c not in _BOTTOMS and c not in _KINGS]
DEAD = Position(
    tuple(tuple(_REST[i * 5 : i * 5 + 5]) + (_BOTTOMS[i],) for i in range(8)),
    _KINGS,
).validate(FREECELL)


def test_hand_built_boards_are_what_the_tests_assume() -> None:
    assert RUN.empty_cells() == 1 and empty_columns(RUN) == 1
    assert RUN.columns[0] == cards("9C 8D 7S 6H 5C 4H")
    assert HOME.foundations == (1, 11, 2, 0)
    assert empty_columns(HOME) == 2
    for pos, rules in [(RUN, FREECELL), (HOME, FREECELL), (BUILDS, FREECELL), (KINGS, KING)]:
        pos.validate(rules)


# Moves are given as text, or as Move values where the text form has no
# spelling for them (Move.parse reads no "h1h2").
REFUSALS: list[tuple[str, Position, Rules, str | Move, Reason | None]] = [
    # no_such_pile
    ("column 9 of 8", RUN, FREECELL, "91", Reason.NO_SUCH_PILE),
    ("column 0 (tenth) of 8", RUN, FREECELL, "01", Reason.NO_SUCH_PILE),
    ("to column 9", RUN, FREECELL, "19", Reason.NO_SUCH_PILE),
    ("cell d of 2", board({1: "KS"}, rules=TWO_CELLS, bury=2), TWO_CELLS, "1d", Reason.NO_SUCH_PILE),
    ("from cell d of 2", board({1: "KS"}, rules=TWO_CELLS, bury=2), TWO_CELLS, "d1", Reason.NO_SUCH_PILE),
    ("cell b of 2 is fine", board({1: "KS"}, rules=TWO_CELLS, bury=2), TWO_CELLS, "1b", None),
    ("h is no source", HOME, RETURN, "h1", Reason.NO_SUCH_PILE),
    # same_pile
    ("column to itself", RUN, FREECELL, "11", Reason.SAME_PILE),
    ("cell to itself", RUN, FREECELL, "aa", Reason.SAME_PILE),
    # nothing_to_move
    ("empty column", RUN, FREECELL, "31", Reason.NOTHING_TO_MOVE),
    ("empty cell", RUN, FREECELL, "d1", Reason.NOTHING_TO_MOVE),
    ("empty foundation", HOME, RETURN, "h41", Reason.NOTHING_TO_MOVE),
    # bad_count
    ("no cards", RUN, FREECELL, "12x0", Reason.BAD_COUNT),
    ("more than the column holds", BUILDS, FREECELL, "12x2", Reason.BAD_COUNT),
    ("two from a cell", RUN, FREECELL, "a3x2", Reason.BAD_COUNT),
    ("two from a foundation", HOME, RETURN, "h13x2", Reason.BAD_COUNT),
    # broken_sequence
    ("3H on 5S is no run", RUN, FREECELL, "43x2", Reason.BROKEN_SEQUENCE),
    ("a run of two", RUN, FREECELL, "13x2", None),
    # too_many_cards: see also test_too_many_cards_carries_both_numbers
    ("six to a column, room for four", RUN, FREECELL, "12x6", Reason.TOO_MANY_CARDS),
    ("four to a column, room for four", RUN, FREECELL, "15x4", None),
    ("five to a column, room for four", RUN, FREECELL, "16x5", Reason.TOO_MANY_CARDS),
    ("two to the empty column, room for two", RUN, FREECELL, "13x2", None),
    ("three to the empty column, room for two", RUN, FREECELL, "13x3", Reason.TOO_MANY_CARDS),
    # one_card_to_cell / one_card_to_foundation
    ("two to a cell", RUN, FREECELL, "1dx2", Reason.ONE_CARD_TO_CELL),
    ("one to a cell", RUN, FREECELL, "1d", None),
    ("two home", RUN, FREECELL, "1hx2", Reason.ONE_CARD_TO_FOUNDATION),
    # cell_taken / cell_to_cell
    ("cell a is taken", RUN, FREECELL, "1a", Reason.CELL_TAKEN),
    ("cell to empty cell", RUN, FREECELL, "ad", Reason.CELL_TO_CELL),
    ("cell to taken cell", RUN, FREECELL, "ab", Reason.CELL_TO_CELL),
    # not_next_for_foundation / wrong_foundation
    ("5H on hearts at 2", HOME, FREECELL, "1h", Reason.NOT_NEXT_FOR_FOUNDATION),
    ("5H to h3", HOME, FREECELL, "1h3", Reason.NOT_NEXT_FOR_FOUNDATION),
    ("3H home", HOME, FREECELL, "4h", None),
    ("3H to h3", HOME, FREECELL, "4h3", None),
    ("2C home", HOME, FREECELL, "2h", None),
    ("2C to h1", HOME, FREECELL, "2h1", None),
    ("2C to h2", HOME, FREECELL, "2h2", Reason.WRONG_FOUNDATION),
    ("AS to h1", HOME, FREECELL, "3h1", Reason.WRONG_FOUNDATION),
    ("AS to h4", HOME, FREECELL, "3h4", None),
    ("KD home", HOME, FREECELL, "5h", Reason.NOT_NEXT_FOR_FOUNDATION),
    # foundation_to_foundation / from_foundation_off
    ("h1 to h", HOME, RETURN, "h1h", Reason.FOUNDATION_TO_FOUNDATION),
    ("h1 to h2", HOME, RETURN, Move(foundation(0), foundation(1)), Reason.FOUNDATION_TO_FOUNDATION),
    ("h1 to h1", HOME, RETURN, Move(foundation(0), foundation(0)), Reason.FOUNDATION_TO_FOUNDATION),
    ("h1 to h, default rules", HOME, FREECELL, "h1h", Reason.FOUNDATION_TO_FOUNDATION),
    ("h1 to a column, default rules", HOME, FREECELL, "h13", Reason.FROM_FOUNDATION_OFF),
    ("h1 to a cell, default rules", HOME, FREECELL, "h1a", Reason.FROM_FOUNDATION_OFF),
    ("AC back onto KD", HOME, RETURN, "h15", Reason.NOT_ONE_LOWER),
    ("AC back to an empty column", HOME, RETURN, "h16", None),
    ("AC back to a cell", HOME, RETURN, "h1a", None),
    ("2H back to an empty column", HOME, RETURN, "h37", None),
    # wrong_colour / wrong_suit / not_one_lower
    ("8D on 9H", BUILDS, FREECELL, "21", Reason.WRONG_COLOUR),
    ("8S on 9H", BUILDS, FREECELL, "31", None),
    ("7S on 8S", BUILDS, FREECELL, "43", Reason.WRONG_COLOUR),
    ("7S on 9H", BUILDS, FREECELL, "41", Reason.NOT_ONE_LOWER),
    ("8H on 8S", BUILDS, FREECELL, "53", Reason.NOT_ONE_LOWER),
    ("9H on 8D (upwards)", BUILDS, FREECELL, "12", Reason.NOT_ONE_LOWER),
    ("suit: 8D on 9H", BUILDS, SUIT, "21", Reason.WRONG_SUIT),
    ("suit: 8S on 9H", BUILDS, SUIT, "31", Reason.WRONG_SUIT),
    ("suit: 8H on 9H", BUILDS, SUIT, "51", None),
    ("suit: 7S on 8S", BUILDS, SUIT, "43", None),
    ("suit: 7S on 9H", BUILDS, SUIT, "41", Reason.NOT_ONE_LOWER),
    ("any: 8D on 9H", BUILDS, ANY_BUILD, "21", None),
    ("any: 7S on 9H", BUILDS, ANY_BUILD, "41", Reason.NOT_ONE_LOWER),
    # king_only
    ("queen to an empty column", KINGS, KING, "13", Reason.KING_ONLY),
    ("king to an empty column", KINGS, KING, "23", None),
    ("run headed by a king", KINGS, KING, "43x2", None),
    ("the queen of that run", KINGS, KING, "43", Reason.KING_ONLY),
    ("jack from a column", KINGS, KING, "53", Reason.KING_ONLY),
    ("queen, any empty column rule", KINGS, FREECELL, "13", None),
]


@pytest.mark.parametrize(
    ("pos", "rules", "move", "expected"),
    [
        pytest.param(p, r, mv(m) if isinstance(m, str) else m, e, id=f"{m}: {label}")
        for label, p, r, m, e in REFUSALS
    ],
)
def test_check_move_reason(pos: Position, rules: Rules, move: Move, expected: Reason | None) -> None:
    refusal = check_move(pos, move, rules)
    assert (refusal.reason if refusal else None) is expected


def test_every_reason_code_is_exercised() -> None:
    seen = {e for _, _, _, _, e in REFUSALS}
    assert seen >= set(Reason)


def test_too_many_cards_carries_the_numbers_that_explain_it() -> None:
    # 1 free cell, 1 empty column: (1 + 1) * 2 = 4 to a non-empty column ...
    ten_d, nine_s = parse_card("TD"), parse_card("9S")
    assert check_move(RUN, mv("12x6"), FREECELL) == Refusal(Reason.TOO_MANY_CARDS, 6, 4, 1, 1, onto=ten_d)
    assert check_move(RUN, mv("16x5"), FREECELL) == Refusal(Reason.TOO_MANY_CARDS, 5, 4, 1, 1, onto=nine_s)
    # ... and 2 to the empty column itself, which is not counted.
    assert check_move(RUN, mv("13x3"), FREECELL) == Refusal(Reason.TOO_MANY_CARDS, 3, 2, 1, 0)
    assert check_move(RUN, mv("13x6"), FREECELL) == Refusal(Reason.TOO_MANY_CARDS, 6, 2, 1, 0)
    refusal = check_move(RUN, mv("12x6"), FREECELL)
    assert refusal is not None
    assert refusal.to_json() == {"reason": "too_many_cards", "moving": 6, "capacity": 4, "cells": 1,
                                 "columns": 1, "onto": "TD"}
    # Other refusals carry no numbers.
    other = check_move(RUN, mv("1a"), FREECELL)
    assert other is not None and other.to_json() == {"reason": "cell_taken"}


@pytest.mark.parametrize(("move", "rules", "reason", "card", "onto"), [
    ("41", FREECELL, Reason.NOT_ONE_LOWER, "7S", "9H"),
    ("21", FREECELL, Reason.WRONG_COLOUR, "8D", "9H"),
    ("31", SUIT, Reason.WRONG_SUIT, "8S", "9H"),
])
def test_a_card_on_the_wrong_card_names_both(move: str, rules: Rules, reason: Reason, card: str,
                                             onto: str) -> None:
    refusal = check_move(BUILDS, mv(move), rules)
    assert refusal == Refusal(reason, card=parse_card(card), onto=parse_card(onto))
    assert refusal.to_json() == {"reason": reason.value, "card": card, "onto": onto}


def test_too_many_cards_with_kings_only() -> None:
    # Kings only: empty columns do not help, f + 1 = 2.
    pos = board({1: "KS QH JC", 2: "AC"}, "KC KD KH -", rules=KING, bury=2)
    assert capacity(pos, KING) == 2
    refusal = check_move(pos, mv("13x3"), KING)
    assert refusal is not None and (refusal.moving, refusal.capacity, refusal.cells) == (3, 2, 1)
    assert refusal.capacity == refusal.cells + 1 < (refusal.cells + 1) << refusal.columns
    assert check_move(pos, mv("14x2"), KING) == Refusal(Reason.KING_ONLY)
    assert check_move(pos, mv("13x2"), KING) == Refusal(Reason.KING_ONLY)


def test_play_raises_with_the_refusal() -> None:
    with pytest.raises(IllegalMoveError) as info:
        play(RUN, mv("12x6"), FREECELL)
    assert info.value.refusal == Refusal(Reason.TOO_MANY_CARDS, 6, 4, 1, 1, onto=parse_card("TD"))
    assert play(RUN, mv("13x2"), FREECELL) == apply_move(RUN, mv("13x2"))


# --- capacity ----------------------------------------------------------------

# CAPACITY[f][e]: f free cells, e empty columns, to a non-empty column.
CAPACITY = [
    [1, 2, 4, 8],
    [2, 4, 8, 16],
    [3, 6, 12, 24],
    [4, 8, 16, 32],
    [5, 10, 20, 40],
]
# To an empty column (that column not counted); e >= 1.
CAPACITY_TO_EMPTY = [
    [None, 1, 2, 4],
    [None, 2, 4, 8],
    [None, 3, 6, 12],
    [None, 4, 8, 16],
    [None, 5, 10, 20],
]


@pytest.mark.parametrize("f", range(5))
@pytest.mark.parametrize("e", range(4))
def test_capacity_table(f: int, e: int) -> None:
    pos = spread(range(52), FREECELL, empty_cells=f, empty_columns=e)
    assert pos.empty_cells() == f and empty_columns(pos) == e
    assert capacity(pos, FREECELL) == CAPACITY[f][e] == move_capacity(f, e)
    if e:
        assert capacity(pos, FREECELL, to_empty_column=True) == CAPACITY_TO_EMPTY[f][e]
    # Kings only: empty columns never count.
    assert capacity(pos, KING) == f + 1
    assert capacity(pos, KING, to_empty_column=True) == f + 1


@pytest.mark.parametrize("f", range(5))
@pytest.mark.parametrize("e", range(4))
@pytest.mark.parametrize("to_empty", [False, True])
def test_check_move_agrees_with_capacity(f: int, e: int, to_empty: bool) -> None:
    room = CAPACITY[f][e]  # e empty columns besides the destination
    longest = 13 if to_empty else 12
    for n in range(1, min(room + 1, longest) + 1):
        pos, move = sequence_position(n, f, e, to_empty=to_empty)
        assert capacity(pos, FREECELL, to_empty_column=to_empty) == room
        refusal = check_move(pos, move, FREECELL)
        if n <= room:
            assert refusal is None
        else:
            assert refusal is not None
            # the free cells and empty columns behind the limit: the destination does not count
            assert (refusal.reason, refusal.moving, refusal.capacity, refusal.cells, refusal.columns) == (
                Reason.TOO_MANY_CARDS, n, room, f, e)
            assert (refusal.onto is None) == to_empty


# --- apply_move ------------------------------------------------------------------


def _rules_id(rules: Rules) -> str:
    return "-".join(str(v) for v in rules.to_json().values())


@pytest.mark.parametrize("rules", [FREECELL, TWO_CELLS, SUIT, KING, RETURN], ids=_rules_id)
def test_apply_move_keeps_52_cards(rules: Rules) -> None:
    rng = random.Random(1)
    steps = 0
    for n in (617, 11982, 1941, *range(1, 31)):
        pos = Position.deal(n, rules)
        for _ in range(150):
            moves = legal_moves(pos, rules)
            if not moves:
                break
            move = pick_move(pos, moves, rng, 0.5, 0.3)
            after = apply_move(pos, move)
            after.validate(rules)
            steps += 1
            carried = moving_cards(pos, move)
            assert len(carried) == move.count
            if move.dst.kind == COLUMN:
                assert after.columns[move.dst.index][-move.count :] == carried
            elif move.dst.kind == CELL:
                assert after.cells[move.dst.index] == carried[0]
            else:
                s = carried[0] & 3
                assert after.foundations[s] == pos.foundations[s] + 1
            assert after.cards_home() - pos.cards_home() == (
                (move.dst.kind == FOUNDATION) - (move.src.kind == FOUNDATION)
            )
            pos = after
    assert steps > 300


def test_apply_move_examples() -> None:
    after = apply_move(RUN, mv("15x4"))
    assert after.columns[0] == cards("9C 8D")
    assert after.columns[4] == cards("8H 7S 6H 5C 4H")
    assert after.cells == RUN.cells and after.foundations == RUN.foundations
    home = apply_move(HOME, mv("2h1"))
    assert home.foundations == (2, 11, 2, 0)
    back = apply_move(HOME, mv("h1a"))
    assert back.foundations == (0, 11, 2, 0) and back.cells[0] == make_card(1, 0)
    back.validate()
    with pytest.raises(ValueError):
        apply_move(RUN, mv("d1"))


# --- legal_moves ------------------------------------------------------------------


def _equivalent(a: Move, b: Move, pos: Position) -> bool:
    """Moves that differ only by which empty cell or empty column they go to."""
    if a.src != b.src or a.count != b.count or a.dst.kind != b.dst.kind:
        return False
    if a.dst == b.dst:
        return True
    if a.dst.kind == CELL:
        return pos.cells[a.dst.index] is None and pos.cells[b.dst.index] is None
    if a.dst.kind == COLUMN:
        return not pos.columns[a.dst.index] and not pos.columns[b.dst.index]
    return False


def _whole_column_to_empty(pos: Position, m: Move) -> bool:
    return (
        m.src.kind == COLUMN
        and m.dst.kind == COLUMN
        and not pos.columns[m.dst.index]
        and m.count == len(pos.columns[m.src.index])
    )


def check_legal_moves(pos: Position, rules: Rules) -> None:
    """legal_moves against brute force, and its distinct form against the full one."""
    moves = legal_moves(pos, rules)
    assert len(set(moves)) == len(moves), "a move is listed twice"
    for m in moves:
        assert check_move(pos, m, rules) is None, m.text()
    brute = brute_force_moves(pos, rules)
    missing = sorted(m.text() for m in brute - set(moves))
    extra = sorted(m.text() for m in set(moves) - brute)
    assert not missing and not extra, (missing, extra, pos.to_text())
    distinct = legal_moves(pos, rules, distinct=True)
    assert len(set(distinct)) == len(distinct)
    assert set(distinct) <= set(moves)
    for m in moves:
        if _whole_column_to_empty(pos, m):
            assert m not in distinct
        else:
            assert any(_equivalent(m, d, pos) for d in distinct), m.text()
    for i, a in enumerate(distinct):
        for b in distinct[i + 1 :]:
            assert not _equivalent(a, b, pos), (a.text(), b.text())


# Hard-coded once from legal_moves, and checked by brute force below.
GOLDEN = {1: (32, 8), 617: (35, 11)}


@pytest.mark.parametrize("deal", sorted(GOLDEN))
def test_legal_moves_at_the_start_of_a_deal(deal: int) -> None:
    pos = Position.deal(deal)
    check_legal_moves(pos, FREECELL)
    assert len(legal_moves(pos, FREECELL)) == GOLDEN[deal][0]
    assert len(brute_force_moves(pos, FREECELL)) == GOLDEN[deal][0]
    assert len(legal_moves(pos, FREECELL, distinct=True)) == GOLDEN[deal][1]


def test_legal_moves_of_deal_617_by_name() -> None:
    pos = Position.deal(617)
    builds = sorted(m.text() for m in legal_moves(pos, FREECELL) if m.dst.kind == COLUMN)
    assert builds == ["58", "82", "83"]  # JC on QH, QH on KS, QH on KC
    cells = [m for m in legal_moves(pos, FREECELL) if m.dst.kind == CELL]
    assert len(cells) == 32  # each of 8 columns to each of 4 cells


@pytest.mark.parametrize(
    "rules",
    [FREECELL, TWO_CELLS, SUIT, ANY_BUILD, KING, RETURN, Rules(free_cells=0)],
    ids=_rules_id,
)
def test_legal_moves_on_random_positions(rules: Rules) -> None:
    rng = random.Random(2024)
    walked = deal_positions(range(1, 31), rules, rng, steps=200, every=15)
    # Brute force is slow: all positions with empty columns (up to 15), then others.
    with_empty = [p for p in walked if empty_columns(p)][:15]
    positions = with_empty + [p for p in walked if not empty_columns(p)][: 40 - len(with_empty)]
    for pos in positions:
        check_legal_moves(pos, rules)
    assert len(positions) == 40
    if rules.free_cells == 4:
        assert len(with_empty) >= 10  # the walks reach positions with empty columns


@pytest.mark.parametrize(
    "rules",
    [FREECELL, TWO_CELLS, SUIT, ANY_BUILD, KING, RETURN, Rules(free_cells=0)],
    ids=_rules_id,
)
def test_legal_moves_on_hand_built_positions(rules: Rules) -> None:
    positions = [RUN, HOME, BUILDS, KINGS, DEAD, board({}, rules=rules)]
    for f in range(rules.free_cells + 1):
        for e in (0, 1, 3):
            positions.append(sequence_position(6, f, e, to_empty=False, rules=rules)[0])
            positions.append(sequence_position(6, f, e, to_empty=True, rules=rules)[0])
    for pos in positions:
        if len(pos.cells) != rules.free_cells:
            continue
        check_legal_moves(pos, rules)


# --- expand ------------------------------------------------------------------


def check_expand(pos: Position, move: Move, rules: Rules) -> list[Move]:
    """The steps of ``move`` are legal single-card moves ending where ``move`` does."""
    steps = expand(pos, move, rules)
    here = pos
    for step in steps:
        assert step.count == 1, step.text()
        assert check_move(here, step, rules) is None, (move.text(), step.text(), here.to_text())
        here = apply_move(here, step)
    assert here == apply_move(pos, move), move.text()
    return steps


def test_expand_random_multi_card_moves() -> None:
    rng = random.Random(99)
    checked = 0
    longest = 0
    with_empties = 0
    for rules, deals in ((FREECELL, range(1, 21)), (TWO_CELLS, range(1, 11)), (KING, range(1, 11))):
        for pos in deal_positions(deals, rules, rng, steps=200, every=1):
            for m in legal_moves(pos, rules):
                if m.count == 1:
                    continue
                steps = check_expand(pos, m, rules)
                assert len(steps) >= 2 * m.count - 1
                checked += 1
                longest = max(longest, m.count)
                with_empties += m.count > pos.empty_cells() + 1
    assert checked > 1000
    assert longest >= 7
    assert with_empties > 200


@pytest.mark.parametrize("f", range(5))
@pytest.mark.parametrize("e", range(4))
@pytest.mark.parametrize("to_empty", [False, True])
def test_expand_through_cells_and_empty_columns(f: int, e: int, to_empty: bool) -> None:
    probe, _ = sequence_position(1, f, e, to_empty=to_empty)
    room = capacity(probe, FREECELL, to_empty_column=to_empty)
    for n in range(1, min(room, 13 if to_empty else 12) + 1):
        pos, move = sequence_position(n, f, e, to_empty=to_empty)
        steps = check_expand(pos, move, FREECELL)
        if n == 1:
            assert steps == [move]


def test_expand_with_the_source_emptied() -> None:
    # The whole of column 1 (a run of 4) onto a column; then into an empty one.
    pos = board({1: "9C 8D 7S 6H", 2: "TH", 4: "AC"}, "KC KD - -", bury=4)
    assert check_move(pos, mv("12x4"), FREECELL) is None
    check_expand(pos, mv("12x4"), FREECELL)
    check_expand(pos, mv("13x4"), FREECELL)


# --- end of game: can_finish, finish_move, is_stuck ------------------------------


def test_can_finish_and_finish_move() -> None:
    pos = board({1: "KS QS JS", 2: "KH QH JH TH"}, "KC - KD")
    assert pos.foundations == (12, 12, 9, 10)
    assert can_finish(pos)
    assert finish_move(pos) == mv("2h")  # TH (hearts at 9) before JS (spades at 10)
    won = pos
    while (m := finish_move(won)) is not None:
        assert check_move(won, m, FREECELL) is None
        won = apply_move(won, m)
    assert won.is_won()


def test_finish_move_prefers_the_lowest_card_in_a_cell() -> None:
    pos = board({1: "KS", 2: "KH"}, "- QH")
    assert pos.foundations == (13, 13, 11, 12)
    assert finish_move(pos) == Move(cell(1), foundation())
    assert can_finish(pos)


def test_cannot_finish() -> None:
    buried = board({1: "JS KS QS"})
    assert not can_finish(buried)
    assert finish_move(buried) is None
    partly = board({1: "JS KS QS", 2: "KH QH JH TH"})
    assert not can_finish(partly)
    assert finish_move(partly) == mv("2h")  # TH: hearts are at 9
    assert not can_finish(apply_move(partly, mv("2h")))
    won = board({})
    assert won.is_won()
    assert not can_finish(won)
    assert finish_move(won) is None


def test_can_finish_on_random_positions() -> None:
    rng = random.Random(5)
    finishable = 0
    for pos in deal_positions(range(1, 41), FREECELL, rng, steps=400, every=10):
        expected = pos
        while (m := finish_move(expected)) is not None:
            card = moving_cards(expected, m)[0]
            assert all(moving_cards(expected, h)[0] // 4 >= card // 4 for h in home_moves(expected))
            expected = apply_move(expected, m)
        assert can_finish(pos) == (expected.is_won() and not pos.is_won())
        finishable += can_finish(pos)
    assert finishable > 3


def test_is_stuck_when_nothing_moves() -> None:
    assert DEAD.empty_cells() == 0
    assert is_stuck(DEAD, FREECELL)
    assert legal_moves(DEAD, FREECELL) == []
    assert brute_force_moves(DEAD, FREECELL) == set()
    # Cell to cell is never a move.
    assert check_move(DEAD, mv("ab"), FREECELL) == Refusal(Reason.CELL_TO_CELL)


def test_is_stuck_when_only_relabelling_moves_remain() -> None:
    # No free cells, kings only in empty columns: the lone kings in columns 1
    # and 2 may only move whole into an empty column, which changes nothing.
    rules = Rules(free_cells=0, empty_column=EmptyColumn.KING)
    pos = board({1: "KH", 2: "KD", 3: "JC JD QC KS QH", 4: "JH JS QS KC QD"}, rules=rules)
    assert pos.foundations == (10, 10, 10, 10)
    moves = legal_moves(pos, rules)
    assert moves, "the lone kings can move"
    assert all(_whole_column_to_empty(pos, m) for m in moves)
    assert legal_moves(pos, rules, distinct=True) == []
    assert is_stuck(pos, rules)


def test_a_position_with_a_free_cell_is_never_stuck() -> None:
    # So no position can be left with only cell-to-cell shuffles: with a free
    # cell, any column bottom can go there; with every column empty, the next
    # card of some suit is in a cell and can go home.
    all_in_cells = board({}, "QC KC QD KD - - - -", rules=Rules(free_cells=8, empty_column=EmptyColumn.KING))
    assert not is_stuck(all_in_cells, Rules(free_cells=8, empty_column=EmptyColumn.KING))
    assert not is_stuck(board({}), FREECELL)  # won: not stuck
    rng = random.Random(11)
    for pos in deal_positions(range(1, 16), FREECELL, rng, steps=300, every=5):
        if pos.empty_cells() and not pos.is_won():
            assert not is_stuck(pos, FREECELL)


def test_is_stuck_agrees_with_brute_force() -> None:
    rng = random.Random(12)
    stuck = 0
    for rules in (FREECELL, Rules(free_cells=1), Rules(free_cells=0)):
        for pos in deal_positions(range(1, 21), rules, rng, steps=200, every=50):
            real = [m for m in brute_force_moves(pos, rules) if not _whole_column_to_empty(pos, m)]
            assert is_stuck(pos, rules) == (not real and not pos.is_won())
            stuck += is_stuck(pos, rules)
    assert stuck > 0


# --- safe auto-moves ----------------------------------------------------------------


def _red_five(clubs: int, spades: int, diamonds: int = 4) -> Position:
    """5H exposed alone, hearts at 4; the other foundations as given."""
    column1 = [make_card(diamonds + 1, 1)] if diamonds < 13 else []
    column1 += [make_card(clubs + 1, 0)] if clubs < 13 else []
    column1 += [make_card(spades + 1, 3)] if spades < 13 else []
    column1.append(make_card(5, 2))
    pos = board({1: " ".join(card_text(c) for c in column1)}, bury=1)
    assert pos.foundations == (clubs, diamonds, 4, spades)
    return pos


@pytest.mark.parametrize(
    ("clubs", "spades", "safe"),
    [(4, 4, True), (3, 4, False), (4, 3, False), (3, 3, False), (13, 4, True), (7, 5, True), (0, 9, False)],
)
def test_red_five_is_safe_only_with_both_black_fours_home(clubs: int, spades: int, safe: bool) -> None:
    pos = _red_five(clubs, spades)
    five = make_card(5, 2)
    assert pos.columns[0][-1] == five
    assert is_safe_home(pos, five, FREECELL) is safe
    assert safe_automove(pos, FREECELL) == (mv("1h") if safe else None)
    # Same suit building: nothing could go on the 5H, always safe.
    assert safe_automove(pos, SUIT) == mv("1h")


@pytest.mark.parametrize(
    ("clubs", "spades", "safe"), [(4, 4, True), (3, 4, False), (4, 3, False), (13, 13, True)]
)
def test_any_suit_building_needs_all_other_fours(clubs: int, spades: int, safe: bool) -> None:
    pos = _red_five(clubs, spades)
    assert safe_automove(pos, ANY_BUILD) == (mv("1h") if safe else None)
    # With diamonds at 3, a 4D could still go on the 5H when any suit builds.
    low_diamonds = _red_five(clubs, spades, diamonds=3)
    assert safe_automove(low_diamonds, ANY_BUILD) is None
    assert safe_automove(low_diamonds, FREECELL) == safe_automove(pos, FREECELL)


def test_aces_and_twos_are_always_safe() -> None:
    ace = board({1: "AC AS AD 2H AH"}, bury=1)
    assert ace.foundations == (0, 0, 0, 0)
    assert safe_automove(ace, FREECELL) == mv("1h")
    two = board({1: "AC AS 2D"}, bury=1)
    assert two.foundations == (0, 1, 13, 0)
    assert safe_automove(two, FREECELL) == mv("1h")
    three = board({1: "AC AS 3D"}, bury=1)
    assert safe_automove(three, FREECELL) is None
    assert safe_automove(three, SUIT) == mv("1h")
    in_cell = board({1: "AC AS 3D"}, "- 2H", bury=1)
    assert safe_automove(in_cell, FREECELL) == Move(cell(1), foundation())


def test_safe_automove_is_a_legal_home_move() -> None:
    rng = random.Random(3)
    found = 0
    for rules in (FREECELL, SUIT, ANY_BUILD):
        for pos in deal_positions(range(1, 21), rules, rng, steps=300, every=15):
            m = safe_automove(pos, rules)
            if m is None:
                assert all(not is_safe_home(pos, moving_cards(pos, h)[0], rules) for h in home_moves(pos))
                continue
            found += 1
            assert m.dst == foundation() and m.count == 1
            assert check_move(pos, m, rules) is None
            assert is_safe_home(pos, moving_cards(pos, m)[0], rules)
    assert found > 50


def test_verify_solution_replays_every_move_and_says_which_is_refused() -> None:
    from pathlib import Path

    from freecell.game import Game

    game = Game(1)  # deal 1's solution, as turns: each turn's move and its moves home
    for text in (Path(__file__).parent / "data" / "solutions" / "deal_1.txt").read_text().split():
        game.play(Move.parse(text))
    moves = [m for turn in game.turns for m in turn.moves]
    start = Position.deal(1)
    along = verify_solution(start, moves, FREECELL)
    assert len(along) == len(moves) + 1 and along[0] == start and along[-1].is_won()
    with pytest.raises(NotASolutionError) as refused:
        verify_solution(start, [moves[0], Move.parse("11")], FREECELL)
    assert refused.value.index == 1 and refused.value.refusal is not None
    with pytest.raises(NotASolutionError) as short:
        verify_solution(start, moves[:-1], FREECELL)
    assert short.value.index is None
