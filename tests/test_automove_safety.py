"""Exhaustive check that safe auto-moves never turn a won game into a lost one.

An exact solver (every legal single-card move, memo of proved losses on a key
that ignores the order of columns and of free cells) decides small endgames:
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

import contextlib
import functools
import random
from dataclasses import dataclass, field

import pytest

from freecell.cards import make_card
from freecell.engine import (
    apply_move,
    home_moves,
    is_safe_home,
    legal_moves,
    moving_cards,
    play,
    safe_automove,
)
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.rules import Build, EmptyColumn, Rules
from tests.support.boards import Key, Undecided, board, endgame, key, mv


class Solver:
    """Exact solver over single-card moves; remembers the positions proved lost."""

    def __init__(self, rules: Rules, budget: int = 60_000) -> None:
        self.rules = rules
        self.budget = budget
        self.lost: set[Key] = set()

    def moves(self, pos: Position) -> list[Move]:
        out = [m for m in legal_moves(pos, self.rules, distinct=True) if m.count == 1]
        out.sort(key=lambda m: m.dst.kind == FOUNDATION)  # home moves are tried first
        return out

    def solve(self, pos: Position) -> list[Move] | None:
        """A winning line of single-card moves, or ``None`` if there is none."""
        if pos.is_won():
            return []
        root = key(pos)
        if root in self.lost:
            return None
        parent: dict[Key, tuple[Key, Move] | None] = {root: None}
        stack = [(root, pos)]
        while stack:
            k, here = stack.pop()
            for m in self.moves(here):
                nxt = apply_move(here, m)
                nk = key(nxt)
                if nxt.is_won():
                    line = [m]
                    step = parent[k]
                    while step is not None:
                        line.append(step[1])
                        step = parent[step[0]]
                    return line[::-1]
                if nk in parent or nk in self.lost:
                    continue
                parent[nk] = (k, m)
                stack.append((nk, nxt))
                if len(parent) > self.budget:
                    raise Undecided
        self.lost.update(parent)  # everything reachable was searched: all lost
        return None


def replay(pos: Position, line: list[Move], rules: Rules) -> None:
    for m in line:
        pos = play(pos, m, rules)  # raises on an illegal move
    assert pos.is_won()


@dataclass
class Tally:
    positions: int = 0
    undecided: int = 0
    winnable: int = 0
    lost: int = 0
    auto_winnable: int = 0  # a safe move offered in a winnable position
    auto_lost: int = 0
    unsafe_losing: int = 0  # an unsafe home move that turns a win into a loss
    broken: list[str] = field(default_factory=list)


@functools.cache
def survey(rules: Rules, seed: int, count: int) -> Tally:
    """Solve ``count`` random endgames and their safe auto-moves; note what breaks.

    Cached: a survey is run once and read by several tests.
    """
    rng = random.Random(seed)
    solver = Solver(rules)
    t = Tally()
    for _ in range(count):
        pos = endgame(rng, rules)
        t.positions += 1
        try:
            before = solver.solve(pos)
            move = safe_automove(pos, rules)
            after = None if move is None else solver.solve(apply_move(pos, move))
        except Undecided:
            t.undecided += 1
            continue
        if before is None:
            t.lost += 1
        else:
            t.winnable += 1
            replay(pos, before, rules)
        if move is not None:
            card = moving_cards(pos, move)[0]
            assert move.dst.kind == FOUNDATION and is_safe_home(pos, card, rules)
            if before is None:
                t.auto_lost += 1
            else:
                t.auto_winnable += 1
            if after is not None:
                replay(apply_move(pos, move), after, rules)
            if (before is None) != (after is None):
                t.broken.append(f"{move.text()} in\n{pos.to_text()}")
        if before is not None:
            # Every other home move too: the ones the rule calls safe must keep
            # the win; count the unsafe ones that lose it.
            for m in home_moves(pos):
                if m == move:
                    continue
                safe = is_safe_home(pos, moving_cards(pos, m)[0], rules)
                with contextlib.suppress(Undecided):
                    lost = solver.solve(apply_move(pos, m)) is None
                    if safe and lost:
                        t.broken.append(f"{m.text()} (also safe) in\n{pos.to_text()}")
                    t.unsafe_losing += not safe and lost
    return t


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
