"""Exhaustive check that safe auto-moves never turn a won game into a lost one.

An exact solver (``tests/support/automove.py``: every legal single-card
move, memo of proved losses on a key that ignores the order of columns and
of free cells) decides small endgames:
8 to 14 cards on the table, the rest home, with 0, 1, 2 or 4 free cells and a
few columns, generated with a seeded ``random.Random``.  For each one where
:func:`safe_automove` offers a move, the position before and the position
after must both be winnable or both lost.  A winnable verdict comes with its
line of play, replayed through :func:`play`; a lost one means every reachable
position was searched.

The generated set must hold winnable and lost positions, with and without a
safe move, and some where an unsafe home move (one the rule would not make)
does lose the game: so the check has teeth.
"""

from __future__ import annotations

import pytest

from freecell.cards import make_card
from freecell.engine import apply_move, is_safe_home, safe_automove
from freecell.rules import Build, EmptyColumn, Rules
from tests.support.automove import Solver, Tally, replay, survey
from tests.support.boards import board, key, mv

# (rules, seed, positions, minimum winnable, minimum lost)
CLASSIC = [
    (Rules(free_cells=0, columns=3), 1, 300, 90, 120),
    (Rules(free_cells=0, columns=4), 2, 300, 160, 40),
    (Rules(free_cells=1, columns=3), 3, 300, 180, 30),
    (Rules(free_cells=1, columns=4), 4, 200, 140, 4),
    (Rules(free_cells=2, columns=3), 5, 200, 140, 5),
    (Rules(free_cells=2, columns=4), 6, 150, 100, 0),
    (Rules(free_cells=4, columns=4), 7, 100, 70, 0),
    (Rules(), 8, 100, 70, 0),
]


def _rules_id(rules: Rules) -> str:
    return f"{rules.free_cells}cells-{rules.columns}cols-{rules.build.value}-{rules.empty_column.value}"


@pytest.mark.parametrize(
    ("rules", "seed", "count", "min_winnable", "min_lost"),
    CLASSIC,
    ids=[_rules_id(c[0]) for c in CLASSIC],
)
def test_safe_automoves_keep_the_game_winnable(
    rules: Rules, seed: int, count: int, min_winnable: int, min_lost: int
) -> None:
    t = survey(rules, seed, count)
    assert not t.broken, "a safe auto-move changed the outcome:\n" + "\n".join(t.broken)
    assert t.undecided <= count // 20, t
    assert t.winnable >= min_winnable, t
    assert t.lost >= min_lost, t
    assert t.auto_winnable >= count // 5, t  # the check is not vacuous


def test_the_survey_has_teeth() -> None:
    """Across the classic surveys: lost positions with a safe move, and losing unsafe moves."""
    totals = Tally()
    for rules, seed, count, _, _ in CLASSIC:
        t = survey(rules, seed, count)
        totals.positions += t.positions
        totals.auto_lost += t.auto_lost
        totals.unsafe_losing += t.unsafe_losing
    assert totals.positions >= 1500
    assert totals.auto_lost >= 50, totals
    assert totals.unsafe_losing >= 5, totals


VARIANTS = [
    Rules(free_cells=1, columns=3, build=Build.SUIT),
    Rules(free_cells=1, columns=3, build=Build.ANY),
    Rules(free_cells=1, columns=3, empty_column=EmptyColumn.KING),
    Rules(free_cells=0, columns=3, build=Build.ANY),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=_rules_id)
def test_safe_automoves_keep_the_game_winnable_in_variants(rules: Rules) -> None:
    t = survey(rules, 42, 150)
    assert not t.broken, "a safe auto-move changed the outcome:\n" + "\n".join(t.broken)
    assert t.undecided <= 7, t
    assert t.winnable >= 50 and t.lost >= 5, t
    assert t.auto_winnable >= 25, t


# --- hand-built cases -------------------------------------------------------------

NO_CELLS_TWO_COLUMNS = Rules(free_cells=0, columns=2)


def test_solver_on_hand_built_endgames() -> None:
    solver = Solver(NO_CELLS_TWO_COLUMNS)
    # QS goes on KD, which frees JS: a win, but only while KD stays out.
    pos = board({1: "KS KD", 2: "JS QS"}, rules=NO_CELLS_TWO_COLUMNS)
    assert pos.foundations == (13, 12, 13, 10)
    line = solver.solve(pos)
    assert line is not None
    replay(pos, line, NO_CELLS_TWO_COLUMNS)
    # KD is not safe (QS is out) and sending it home loses.
    assert not is_safe_home(pos, make_card(13, 1), NO_CELLS_TWO_COLUMNS)
    assert safe_automove(pos, NO_CELLS_TWO_COLUMNS) is None
    assert solver.solve(apply_move(pos, mv("1h"))) is None
    # A dead end: the jack is under its queen and nothing moves.
    assert solver.solve(board({1: "KS", 2: "JS QS"}, rules=NO_CELLS_TWO_COLUMNS)) is None
    assert solver.solve(board({}, rules=NO_CELLS_TWO_COLUMNS)) == []


def test_solver_key_ignores_the_order_of_columns_and_cells() -> None:
    rules = Rules(free_cells=2, columns=3)
    a = board({1: "KS KD", 2: "JS QS", 3: "KC"}, "QC -", rules=rules)
    b = board({1: "KC", 2: "JS QS", 3: "KS KD"}, "- QC", rules=rules)
    assert a != b and key(a) == key(b)


def test_the_rule_cannot_be_loosened() -> None:
    """KH with only one black queen home loses here: one queen out is one too many.

    The queen of clubs is next for its foundation, so a looser rule ("the black
    queens are next or home") would send the king of hearts home; but the
    queen of clubs must first carry the jack of diamonds off the king of spades.
    """
    pos = board({1: "KD QD KH", 2: "KC TD KS JD QC"}, rules=NO_CELLS_TWO_COLUMNS)
    assert pos.foundations == (11, 9, 12, 12)
    solver = Solver(NO_CELLS_TWO_COLUMNS)
    line = solver.solve(pos)
    assert line is not None
    replay(pos, line, NO_CELLS_TWO_COLUMNS)
    king = make_card(13, 2)
    assert not is_safe_home(pos, king, NO_CELLS_TWO_COLUMNS)
    assert solver.solve(apply_move(pos, mv("1h"))) is None
    assert safe_automove(pos, NO_CELLS_TWO_COLUMNS) is None


# With cards coming back from the foundations, the queen of spades can come
# back onto the king of hearts, so that the jack of diamonds can move onto it
# and let the ten of diamonds go home.  Once the king of hearts is home, the
# queen has nowhere to go (no free cell, no empty column) and the game is lost.
RETURN_RULES = Rules(free_cells=0, columns=2, foundation_return=True)
RETURN_CASE = board({1: "KS KD TD JD", 2: "QD KH"}, rules=RETURN_RULES)


def test_foundation_return_case_is_winnable_before_the_auto_move() -> None:
    assert RETURN_CASE.foundations == (13, 9, 12, 12)
    line = Solver(RETURN_RULES).solve(RETURN_CASE)
    assert line is not None
    replay(RETURN_CASE, line, RETURN_RULES)
    # The line needs a card back from a foundation: without that it is lost.
    plain = Rules(free_cells=0, columns=2)
    assert Solver(plain).solve(RETURN_CASE) is None


def test_safe_automove_with_foundation_return() -> None:
    # Regression: is_safe_home used to ignore foundation_return and sent the
    # king of hearts home here, which loses the game.
    move = safe_automove(RETURN_CASE, RETURN_RULES)
    assert move is None or Solver(RETURN_RULES).solve(apply_move(RETURN_CASE, move)) is not None
    # Without cards coming back, the king of hearts is safe (both black queens are home).
    assert safe_automove(RETURN_CASE, Rules(free_cells=0, columns=2)) == mv("2h")


def test_aces_and_twos_still_go_home_with_foundation_return() -> None:
    ace = board({1: "AC AS AD 2H AH"}, rules=RETURN_RULES, bury=2)
    assert safe_automove(ace, RETURN_RULES) == mv("1h")
    two = board({1: "AC AS 2D"}, rules=RETURN_RULES, bury=2)
    assert safe_automove(two, RETURN_RULES) == mv("1h")
