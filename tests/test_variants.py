"""Variants: their deals, their rules, the solver on them, games and the command line.

Golden layouts were worked out by hand from the Microsoft dealing order of
deal 1 and deal 617 (``tests/data/ms_deals.txt``: card i of the deck goes to
column i % 8; the last row holds the deck's last four cards):

* Eight Off lifts that last row (the seventh cards of columns 1-4) into free
  cells a-d;
* Seahaven Towers deals the same deck round-robin into 10 columns (card i to
  column i % 10, five rows), and its last two cards into cells b and c.

The solver samples were checked against fc-solve (``--sequences-are-built-by
suit``, ``--empty-stacks-filled-by kings``, ``--freecells-num``,
``--stacks-num``); when it is installed, the tests ask it again.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import freecell.game as game_module
from freecell.cards import card_text, make_card, parse_card
from freecell.deals import DealNumberError, deal_cards
from freecell.engine import (
    apply_move,
    capacity,
    check_move,
    is_safe_home,
    legal_moves,
    safe_automove,
    verify_solution,
)
from freecell.game import Game, GameLoadError
from freecell.piles import CELL, Move, cell, column
from freecell.position import Position
from freecell.rules import FREECELL, Build, EmptyColumn, Reason, Refusal, Rules
from freecell.solver import SOLVED, UNKNOWN, UNSOLVABLE, Result, Solver
from freecell.variants import VARIANTS, Variant, lay_out, variant
from tests.support.boards import Undecided, board, empty_columns, endgame, fc_solve, mv, needs_fc_solve
from tests.support.solving import exact_verdict
from tests.test_automove_safety import survey

ROOT = Path(__file__).resolve().parent.parent
IDS = ("freecell", "freecell3", "freecell2", "freecell1", "freecell0", "bakers", "eightoff", "seahaven")
BAKERS = variant("bakers").rules
EIGHT_OFF = variant("eightoff").rules
SEAHAVEN = variant("seahaven").rules


def cards_of(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def columns_of(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(cards_of(line) for line in text.strip().splitlines())


# --- the registry -----------------------------------------------------------------------------


def test_the_registry() -> None:
    assert tuple(VARIANTS) == IDS
    for vid, v in VARIANTS.items():
        assert isinstance(v, Variant) and v.id == vid and variant(vid) is v
    assert variant("freecell").rules == FREECELL
    assert [variant(f"freecell{n}").rules.free_cells for n in (3, 2, 1, 0)] == [3, 2, 1, 0]
    assert all(variant(f"freecell{n}").rules == Rules(free_cells=n) for n in (3, 2, 1, 0))
    assert Rules(build=Build.SUIT) == BAKERS
    assert Rules(free_cells=8, build=Build.SUIT, empty_column=EmptyColumn.KING) == EIGHT_OFF
    assert Rules(columns=10, build=Build.SUIT, empty_column=EmptyColumn.KING) == SEAHAVEN
    with pytest.raises(TypeError):
        VARIANTS["mine"] = variant("freecell")  # type: ignore[index]
    with pytest.raises(AttributeError):
        variant("bakers").id = "x"  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["", "FreeCell", "eight off", "freecell5", "x" * 1000, None, 3])
def test_unknown_variant(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown variant") as e:
        variant(bad)
    message = str(e.value)
    assert "\n" not in message and len(message) < 200
    assert "eightoff" in message  # it names the known ones


# --- deals ------------------------------------------------------------------------------------

SAMPLE_DEALS = (1, 2, 617, 11982, 1_000_000, 2**31, 2**33 - 1)
LAYOUT = {  # columns' lengths and which cells are dealt
    "freecell": ([7, 7, 7, 7, 6, 6, 6, 6], 4, ()),
    "freecell3": ([7, 7, 7, 7, 6, 6, 6, 6], 3, ()),
    "freecell2": ([7, 7, 7, 7, 6, 6, 6, 6], 2, ()),
    "freecell1": ([7, 7, 7, 7, 6, 6, 6, 6], 1, ()),
    "freecell0": ([7, 7, 7, 7, 6, 6, 6, 6], 0, ()),
    "bakers": ([7, 7, 7, 7, 6, 6, 6, 6], 4, ()),
    "eightoff": ([6] * 8, 8, (0, 1, 2, 3)),
    "seahaven": ([5] * 10, 4, (1, 2)),
}


@pytest.mark.parametrize("vid", IDS)
@pytest.mark.parametrize("n", SAMPLE_DEALS)
def test_each_variant_deals_correctly(vid: str, n: int) -> None:
    v = variant(vid)
    pos = v.deal(n)
    lengths, cells, dealt = LAYOUT[vid]
    pos.validate(v.rules)  # 52 distinct cards, as many columns and cells as the rules say
    assert sorted(pos.all_cards()) == list(range(52))
    assert [len(c) for c in pos.columns] == lengths
    assert len(pos.cells) == cells
    assert [i for i, c in enumerate(pos.cells) if c is not None] == list(dealt)
    assert pos.foundations == (0, 0, 0, 0)
    assert v.deal(n) == pos  # deterministic
    deck = deal_cards(n)
    # the cards dealt into cells are the deck's last ones, in order
    assert [c for c in pos.cells if c is not None] == deck[len(deck) - len(dealt) :]
    # the others go round-robin from the first column
    table = deck[: len(deck) - len(dealt)]
    assert [col[row] for row in range(max(lengths)) for col in pos.columns if row < len(col)] == table
    if v.rules.columns == 8 and not dealt:
        assert pos == Position.deal(n, v.rules)  # the Microsoft layout exactly


def test_deals_differ_and_numbers_are_checked() -> None:
    for v in VARIANTS.values():
        assert v.deal(1) != v.deal(2)
        for bad in (0, -1, 2**33, True, 1.0, "1"):
            with pytest.raises(DealNumberError):
                v.deal(bad)  # type: ignore[arg-type]


EIGHT_OFF_1 = """
JD KD 2S 4C 3S 6D
2D KC KS 5C TD 8S
9H 9S 9D TS 4S 8D
JC 5S QD QH TH QS
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
"""
EIGHT_OFF_617 = """
7D TD TH KD 4C 4S
AD 7S QC 5H QS TS
5C QD 3H 9S 9C 2H
3S AC 9D 3C 9H 5D
5S 6D 6S 8S 7C JC
8C 8H 8D 7H 6H 6C
2D AS 3D 4D 2C JH
AH KH TC JS 2S QH
"""
SEAHAVEN_1 = """
JD 9S JS 4D 6D
2D 5S AS 7S 8S
9H AD AH 3S 8D
JC QC 3C TD QS
5D KH 4C 4S 6C
7H 3H 5C TH 3D
7C 2S TS 8H 8C
5H KS QH 2C TC
KD 9D 4H JH 6S
KC QD AC 7D 9C
"""
SEAHAVEN_617 = """
7D QD 6S 4D 4S
AD AC 8D JS TS
5C 6D 3D 4C 2H
3S 8H TC QS 5D
5S AS KD 9C JC
8C KH 5H 9H 6C
2D TH 9S 7C JH
AH QC 3C 6H QH
TD 3H 8S 2C JD
7S 9D 7H 2S KS
"""
GOLDEN = [
    ("eightoff", 1, EIGHT_OFF_1, "6S 9C 2H 6H - - - -"),
    ("eightoff", 617, EIGHT_OFF_617, "JD KS KC 4H - - - -"),
    ("seahaven", 1, SEAHAVEN_1, "- 2H 6H -"),
    ("seahaven", 617, SEAHAVEN_617, "- KC 4H -"),
]


@pytest.mark.parametrize(("vid", "n", "columns", "cells"), GOLDEN, ids=lambda x: str(x)[:12])
def test_golden_layouts(vid: str, n: int, columns: str, cells: str) -> None:
    pos = variant(vid).deal(n)
    assert pos.columns == columns_of(columns)
    assert " ".join("-" if c is None else card_text(c) for c in pos.cells) == cells


def test_eight_off_is_the_freecell_deal_with_its_last_row_in_the_cells() -> None:
    for n in (1, 617, 11982, 1_000_000):
        ms = Position.deal(n)
        eight = variant("eightoff").deal(n)
        assert eight.columns == tuple(col[:6] for col in ms.columns)
        assert eight.cells[:4] == tuple(col[6] for col in ms.columns[:4])


def test_lay_out_keeps_the_dealing_order() -> None:
    pos = lay_out(list(range(52)), SEAHAVEN, (1, 2))
    assert pos.columns[0] == (0, 10, 20, 30, 40) and pos.columns[9] == (9, 19, 29, 39, 49)
    assert pos.cells == (None, 50, 51, None)


@pytest.mark.parametrize("vid", IDS)
def test_deals_read_back_from_their_board_text(vid: str) -> None:
    v = variant(vid)
    pos = v.deal(617)
    assert Position.from_text(pos.to_text(), v.rules) == pos


# --- rules: what each variant refuses ------------------------------------------------------


def refused(pos: Position, move: str, rules: Rules) -> Reason | None:
    r = check_move(pos, mv(move), rules)
    return None if r is None else r.reason


def test_bakers_game_builds_by_suit() -> None:
    pos = board({1: "9S", 2: "9H", 3: "8H", 4: "8C"}, rules=BAKERS, bury=5)
    assert refused(pos, "32", BAKERS) is None  # 8H on 9H
    assert refused(pos, "31", BAKERS) is Reason.WRONG_SUIT  # 8H on 9S: fine in FreeCell
    assert refused(pos, "31", FREECELL) is None
    assert refused(pos, "42", BAKERS) is Reason.WRONG_SUIT  # 8C on 9H
    assert refused(pos, "41", BAKERS) is Reason.WRONG_SUIT  # 8C on 9S: not FreeCell's reason
    assert refused(pos, "41", FREECELL) is Reason.WRONG_COLOUR
    assert refused(pos, "36", BAKERS) is None  # any card into an empty column
    assert refused(pos, "3a", BAKERS) is None


def test_bakers_game_moves_same_suit_runs_only() -> None:
    pos = board({1: "KC 9S 8S 7S 6S 5S", 2: "TS", 3: "TH 9H 8C"}, rules=BAKERS, bury=1)
    assert capacity(pos, BAKERS) == 5 * 2**5  # four free cells, five empty columns
    assert refused(pos, "12x5", BAKERS) is None
    assert refused(pos, "14x5", BAKERS) is None  # into an empty column too: any card fills it
    assert refused(pos, "34x2", BAKERS) is Reason.BROKEN_SEQUENCE  # 9H 8C alternate colours
    assert refused(pos, "34x2", FREECELL) is None
    moves = set(legal_moves(pos, BAKERS))
    assert mv("12x5") in moves and mv("34x2") not in moves


def test_eight_off_rules() -> None:
    start = variant("eightoff").deal(1)
    # the four cells dealt are taken, the other four are free
    assert refused(start, "1a", EIGHT_OFF) is Reason.CELL_TAKEN
    for name in "efgi":
        assert refused(start, "1" + name, EIGHT_OFF) is None
    assert check_move(start, Move(column(0), cell(8)), EIGHT_OFF) == Refusal(Reason.NO_SUCH_PILE)
    after = start
    for name in "efgi":  # the 5th to the 8th cell each take a card
        after = apply_move(after, mv("1" + name))
    assert after.empty_cells() == 0 and after.columns[0] == start.columns[0][:2]
    assert refused(after, "2e", EIGHT_OFF) is Reason.CELL_TAKEN
    assert {m.dst.index for m in legal_moves(start, EIGHT_OFF) if m.dst.kind == CELL} == {4, 5, 6, 7}


def test_only_kings_fill_an_empty_column() -> None:
    for rules in (EIGHT_OFF, SEAHAVEN):
        pos = board({1: "KS QS JS", 2: "5H", 3: "4D 6D", 4: "QH"}, rules=rules, bury=2)
        assert refused(pos, "26", rules) is Reason.KING_ONLY
        assert refused(pos, "46", rules) is Reason.KING_ONLY  # a queen is no king
        assert refused(pos, "16x2", rules) is Reason.KING_ONLY  # a run headed by a queen
        assert refused(pos, "16x3", rules) is None  # a run headed by a king
        assert refused(pos, "2a", rules) is None
        any_empty = Rules(free_cells=rules.free_cells, columns=rules.columns, build=Build.SUIT)
        assert refused(pos, "26", any_empty) is None  # where any card fills an empty column
        moves = legal_moves(pos, rules)
        to_empty = [m for m in moves if m.dst.kind == 0 and not pos.columns[m.dst.index]]
        assert to_empty and all(pos.columns[m.src.index][-m.count] == make_card(13, 3) for m in to_empty)


def test_king_only_capacity_ignores_empty_columns() -> None:
    """With only kings in empty columns, f + 1 cards move, however many columns are empty."""
    full = "2C 3C 4C 5C 6C 7C 8C"  # seven of the eight cells taken: one free
    pos = board({1: "KS QS JS", 2: "TH", 3: "KH"}, full, rules=EIGHT_OFF, bury=2)
    assert empty_columns(pos) == 5 and pos.empty_cells() == 1
    assert capacity(pos, EIGHT_OFF) == capacity(pos, EIGHT_OFF, to_empty_column=True) == 2
    r = check_move(pos, mv("14x3"), EIGHT_OFF)
    assert r == Refusal(Reason.TOO_MANY_CARDS, 3, 2, cells=1, columns=4)  # column 4 is the destination
    sea = board({1: "KS QS JS TS 9S", 2: "3D"}, "2D", rules=SEAHAVEN, bury=2)
    assert capacity(sea, SEAHAVEN) == 4  # three free cells; eight empty columns do not count
    assert check_move(sea, mv("13x5"), SEAHAVEN) == Refusal(Reason.TOO_MANY_CARDS, 5, 4, cells=3, columns=7)
    assert refused(sea, "13x4", SEAHAVEN) is Reason.KING_ONLY
    assert refused(sea, "10x5", SEAHAVEN) is Reason.TOO_MANY_CARDS  # the tenth column is "0"


def test_freecell_with_fewer_cells() -> None:
    r0 = variant("freecell0").rules
    named = {1: "9S 8H", 2: "TH", 3: "KC", 4: "KD", 5: "KS", 6: "QC", 7: "QD", 8: "JC"}
    full = board(named, rules=r0, bury=3)
    assert full.cells == () and capacity(full, r0) == 1
    assert check_move(full, mv("12x2"), r0) == Refusal(Reason.TOO_MANY_CARDS, 2, 1, onto=parse_card("TH"))
    assert refused(full, "1a", r0) is Reason.NO_SUCH_PILE
    one_empty = board({k: v for k, v in named.items() if k != 8}, rules=r0, bury=3)
    assert capacity(one_empty, r0) == 2 and capacity(one_empty, r0, to_empty_column=True) == 1
    assert refused(one_empty, "12x2", r0) is None
    # into the one empty column: no other empty column to count
    assert check_move(one_empty, mv("18x2"), r0) == Refusal(Reason.TOO_MANY_CARDS, 2, 1)
    for n in (1, 2, 3):
        rules = variant(f"freecell{n}").rules
        start = variant(f"freecell{n}").deal(1)
        assert capacity(start, rules) == n + 1
        assert refused(start, "1" + "abcd"[n - 1], rules) is None
        assert refused(start, "1" + "abcd"[n], rules) is Reason.NO_SUCH_PILE


def test_seahaven_has_ten_columns() -> None:
    start = variant("seahaven").deal(1)
    assert refused(start, "1e", SEAHAVEN) is Reason.NO_SUCH_PILE
    assert refused(start, "1a", SEAHAVEN) is None and refused(start, "1b", SEAHAVEN) is Reason.CELL_TAKEN
    moves = legal_moves(start, SEAHAVEN)
    assert any(m.src == column(9) for m in moves)  # 9C from column 10 to a cell, at least
    assert Move.parse("0a").src == column(9)
    for m in moves:
        assert check_move(start, m, SEAHAVEN) is None


# --- safe auto-moves under suit building --------------------------------------------------


def test_every_next_card_is_safe_under_suit_building() -> None:
    """5H may go home with the black fours out: only the 4H could ever lie on it."""
    pos = board({1: "5H", 2: "4S", 3: "6H", 4: "4C"}, rules=BAKERS, bury=3)
    five = make_card(5, 2)
    assert pos.foundations == (3, 13, 4, 3)
    assert is_safe_home(pos, five, BAKERS)
    assert is_safe_home(pos, five, EIGHT_OFF) and is_safe_home(pos, five, SEAHAVEN)
    assert not is_safe_home(pos, five, FREECELL)  # FreeCell keeps it for the black fours
    assert safe_automove(pos, BAKERS) == mv("1h")


SUIT_SURVEYS = [
    (Rules(free_cells=0, columns=3, build=Build.SUIT), 31, 300),
    (Rules(free_cells=1, columns=3, build=Build.SUIT, empty_column=EmptyColumn.KING), 32, 300),
    (Rules(free_cells=2, columns=3, build=Build.SUIT, empty_column=EmptyColumn.KING), 33, 200),
    (Rules(free_cells=0, columns=3, build=Build.SUIT, empty_column=EmptyColumn.KING), 34, 300),
    (Rules(free_cells=0, columns=4, build=Build.SUIT, empty_column=EmptyColumn.KING), 35, 300),
]


@pytest.mark.parametrize(("rules", "seed", "count"), SUIT_SURVEYS, ids=lambda x: repr(x)[:60])
def test_suit_auto_moves_keep_the_game_winnable(rules: Rules, seed: int, count: int) -> None:
    """The exact endgame check of test_automove_safety, under suit building.

    Under SUIT every card that can go home is safe, so its survey checks every
    home move of every position, winnable or lost.
    """
    t = survey(rules, seed, count)
    assert not t.broken, "a safe auto-move changed the outcome:\n" + "\n".join(t.broken)
    assert t.undecided <= count // 20, t
    assert t.unsafe_losing == 0, t
    assert t.winnable >= count // 3 and t.auto_winnable >= count // 4, t
    assert t.lost >= 1 and t.auto_lost >= 1, t  # lost positions with a safe move: the check has teeth


# --- the solver -------------------------------------------------------------------------------

# Deals each variant's solver solves within NODE_BUDGET, picked from deals 1-30 (FreeCell
# with no free cell: from deals fc-solve solves, few as they are); fc-solve solves all.
SOLVABLE = {
    "freecell": (1, 2, 3),
    "freecell3": (1, 2, 3, 4, 5, 8),
    "freecell2": (2, 3, 5, 7, 8, 10),
    "freecell1": (2, 7, 8, 11, 30),
    "freecell0": (1081, 1150, 1529, 2508, 2514, 3250),
    "bakers": (1, 2, 3, 4, 6, 7, 9),
    "eightoff": (1, 2, 3, 4, 5, 6, 7, 8),
    "seahaven": (1, 2, 3, 5, 7, 8, 9),
}
# Deals whose whole space our solver exhausts, and fc-solve's exhaustive scan too.
UNSOLVABLE_DEALS = {
    "freecell1": (1, 3, 6),
    "freecell0": (1, 2, 3, 4),
    "bakers": (10, 14, 22),
    "seahaven": (21,),
}
NODE_BUDGET = 30_000


def solve(vid: str, n: int, budget: int = NODE_BUDGET) -> tuple[Position, Result]:
    v = variant(vid)
    pos = v.deal(n)
    return pos, Solver(pos, v.rules).solve(max_nodes=budget)


@pytest.mark.parametrize("vid", IDS)
def test_the_solver_solves_a_sample_of_each_variant(vid: str) -> None:
    rules = variant(vid).rules
    for n in SOLVABLE[vid]:
        pos, r = solve(vid, n)
        assert r.verdict == SOLVED, (vid, n, r.verdict)
        assert r.moves and verify_solution(pos, r.moves, rules)[-1].is_won()


@pytest.mark.parametrize("vid", sorted(UNSOLVABLE_DEALS))
def test_the_solver_proves_some_deals_unsolvable(vid: str) -> None:
    for n in UNSOLVABLE_DEALS[vid]:
        _, r = solve(vid, n)
        assert r.verdict == UNSOLVABLE, (vid, n, r.verdict)


SUIT, KING = Build.SUIT, EmptyColumn.KING
VARIANT_ENDGAMES = [  # rules, fewest and most cards on the table
    (Rules(free_cells=0, columns=3, build=SUIT), 8, 14),
    (Rules(free_cells=1, columns=3, build=SUIT, empty_column=KING), 8, 14),
    (Rules(free_cells=0, columns=10, build=SUIT, empty_column=KING), 8, 14),
    (Rules(free_cells=1, columns=4, build=SUIT, empty_column=KING), 14, 20),
    (Rules(free_cells=0, columns=5, build=SUIT, empty_column=KING), 14, 20),
    (Rules(free_cells=1, columns=4, build=SUIT), 14, 20),
]


@pytest.mark.parametrize(("rules", "low", "high"), VARIANT_ENDGAMES, ids=lambda x: repr(x)[:60])
def test_solver_agrees_with_exact_search_on_variant_endgames(rules: Rules, low: int, high: int) -> None:
    """Its pruning (safe auto-moves, first empty pile only) loses no win under these rules.

    The exact search (tests/test_solver.py) tries every single-card move.
    """
    rng = random.Random(f"variants {rules.to_json()} {low}")
    seen = {SOLVED: 0, UNSOLVABLE: 0}
    for _ in range(40):
        pos = endgame(rng, rules, low, high)
        try:
            want = exact_verdict(pos, rules, budget=20_000)
        except Undecided:
            continue
        r = Solver(pos, rules).solve(max_nodes=50_000)
        assert r.verdict == want, pos.to_text()
        if r.verdict == SOLVED:
            verify_solution(pos, r.moves, rules)
        seen[want] += 1
    assert seen[SOLVED] >= 5 and seen[UNSOLVABLE] >= 1, seen




@needs_fc_solve
@pytest.mark.parametrize("vid", IDS)
def test_fc_solve_agrees(vid: str) -> None:
    v = variant(vid)
    for n in SOLVABLE[vid]:
        assert fc_solve(v.deal(n), v.rules) == SOLVED, (vid, n)
    for n in UNSOLVABLE_DEALS.get(vid, ()):
        assert fc_solve(v.deal(n), v.rules) == UNSOLVABLE, (vid, n)


@needs_fc_solve
def test_never_unsolvable_where_fc_solve_solves() -> None:
    """Deals 1-4 of each variant (classic FreeCell: see test_solver.py) get the same verdicts.

    (fc-solve can run out where ours does not: Eight Off deal 11982 takes our
    solver 30 ms, and fc-solve's atomic scan gives up after 3,000,000 states.)
    """
    for vid in IDS[1:]:
        v = variant(vid)
        for n in (1, 2, 3, 4):
            _, ours = solve(vid, n, budget=10_000)
            theirs = fc_solve(v.deal(n), v.rules)
            if UNKNOWN not in (ours.verdict, theirs):
                assert theirs == ours.verdict, (vid, n)
            assert (ours.verdict, theirs) != (UNSOLVABLE, SOLVED), (vid, n)


# --- games ------------------------------------------------------------------------------------


class FakeClock:
    def __call__(self) -> float:
        return 1000.0


def test_a_game_of_a_variant() -> None:
    game = Game(617, variant="eightoff", clock=FakeClock())
    assert game.variant is variant("eightoff") and game.rules == EIGHT_OFF and game.deal == 617
    assert game.position == variant("eightoff").deal(617)
    game.play(mv("1e"))  # the fifth cell
    assert game.position.cells[4] == variant("eightoff").deal(617).columns[0][-1]
    with pytest.raises(ValueError, match="not those of the variant"):
        Game(1, variant="eightoff", rules=FREECELL, clock=FakeClock())
    assert Game(1, variant="eightoff", rules=EIGHT_OFF, clock=FakeClock()).rules == EIGHT_OFF
    with pytest.raises(ValueError, match="unknown variant"):
        Game(1, variant="nope", clock=FakeClock())
    plain = Game(1, clock=FakeClock())
    assert plain.variant is None and plain.rules == FREECELL


def test_a_variant_game_is_won_by_the_solvers_moves() -> None:
    for vid, n in (("seahaven", 2), ("eightoff", 3), ("bakers", 3)):
        game = Game(n, variant=vid, auto_move=False, clock=FakeClock())
        _, r = solve(vid, n)
        for m in r.moves:
            game.play(m)
        assert game.is_won(), vid


@pytest.mark.parametrize("vid", IDS)
def test_variant_games_save_and_load(vid: str) -> None:
    game = Game(2, variant=vid, clock=FakeClock())
    game.play(legal_moves(game.position, game.rules)[0])
    saved = game.to_json()
    data = json.loads(saved)
    assert data["variant"] == vid and data["deal"] == 2 and data["rules"] == variant(vid).rules.to_json()
    back = Game.from_json(saved, clock=FakeClock())
    assert back.variant is variant(vid) and back.position == game.position and back.deal == 2
    assert back.to_json() == saved
    # a position instead of a deal keeps the variant too
    board_game = Game(position=game.position, variant=vid, clock=FakeClock())
    again = Game.from_json(board_game.to_json(), clock=FakeClock())
    assert again.variant is variant(vid) and again.start == game.position


def test_saves_without_a_variant_still_load() -> None:
    old = Game(5, clock=FakeClock())
    old.play(legal_moves(old.position, FREECELL)[0])
    saved = old.to_json()
    assert "variant" not in json.loads(saved)
    back = Game.from_json(saved, clock=FakeClock())
    assert back.variant is None and back.position == old.position
    # an old save of FreeCell with 2 cells: rules only, Microsoft's layout
    two = json.dumps({"format": "freecell-game", "version": 1, "deal": 7,
                      "rules": Rules(free_cells=2).to_json(), "turns": ["1a"]})
    loaded = Game.from_json(two, clock=FakeClock())
    assert loaded.variant is None and loaded.start == variant("freecell2").deal(7)
    # a variant with its rules left out takes the variant's rules
    bare = json.dumps({"format": "freecell-game", "version": 1, "deal": 7, "variant": "seahaven"})
    assert Game.from_json(bare, clock=FakeClock()).start == variant("seahaven").deal(7)


@pytest.mark.parametrize(
    "variant_field",
    ["nope", "", 7, None, ["eightoff"], {"id": "eightoff"}, "eightoff"],
)
def test_bad_saved_variants(variant_field: object) -> None:
    data = json.loads(Game(1, variant="bakers", clock=FakeClock()).to_json())
    data["variant"] = variant_field
    text = json.dumps(data)
    if variant_field is None:  # null is no variant: Baker's rules and Microsoft's layout
        assert Game.from_json(text, clock=FakeClock()).rules == BAKERS
        return
    with pytest.raises(GameLoadError):
        Game.from_json(text, clock=FakeClock())  # eightoff: the saved rules are Baker's


def test_restart_after_the_history_was_trimmed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "MAX_TURNS", 3)
    game = Game(2, variant="seahaven", auto_move=False, clock=FakeClock())
    _, r = solve("seahaven", 2)
    for m in r.moves[:6]:
        game.play(m)
    assert game.start != variant("seahaven").deal(2)
    game.restart()
    assert game.position == game.start == variant("seahaven").deal(2)


# --- the command line ---------------------------------------------------------------------


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "freecell", *args], cwd=ROOT, capture_output=True, timeout=60, input=stdin
    )


def test_cli_deal_with_a_variant() -> None:
    r = run("deal", "1", "--variant", "eightoff")
    assert r.returncode == 0 and r.stderr == b""
    assert r.stdout.decode("ascii") == "Freecells: 6S 9C 2H 6H - - - -\n" + EIGHT_OFF_1.lstrip()
    r = run("deal", "--variant=seahaven", "617")
    assert r.stdout.decode("ascii") == "Freecells: - KC 4H -\n" + SEAHAVEN_617.lstrip()
    plain = run("deal", "1").stdout
    assert run("deal", "1", "--variant", "bakers").stdout == plain
    assert run("deal", "1", "--variant", "freecell0").stdout == plain
    # the output is a board the solver reads back under the variant's rules
    text = run("deal", "617", "--variant", "seahaven").stdout.decode("ascii")
    assert Position.from_text(text, SEAHAVEN) == variant("seahaven").deal(617)


def test_cli_solve_with_a_variant() -> None:
    r = run("solve", "2", "--variant", "seahaven", "--budget", "30")
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert result["verdict"] == SOLVED
    moves = [Move.from_json(m) for m in result["moves"]]
    verify_solution(variant("seahaven").deal(2), moves, SEAHAVEN)
    board_text = run("deal", "3", "--variant", "eightoff").stdout
    r = run("solve", "--board", "-", "--variant", "eightoff", stdin=board_text)
    assert r.returncode == 0, r.stderr
    moves = [Move.from_json(m) for m in json.loads(r.stdout)["moves"]]
    verify_solution(variant("eightoff").deal(3), moves, EIGHT_OFF)
    r = run("solve", "1", "--variant", "freecell0")
    assert json.loads(r.stdout)["verdict"] == UNSOLVABLE


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "1", "--variant", "nope"],
        ["deal", "1", "--variant"],
        ["deal", "1", "--variant", "bakers", "--variant", "bakers"],
        ["deal", "1", "--budget", "3"],
        ["deal", "--variant", "bakers"],
        ["solve", "1", "--variant", "FreeCell"],
        ["solve", "1", "--variant="],
        ["solve", "--board", "-", "--variant", "seahaven"],  # stdin holds no board
    ],
    ids=repr,
)
def test_cli_bad_variant_arguments(args: list[str]) -> None:
    r = run(*args, stdin=b"")
    assert r.returncode == 2
    assert r.stdout == b""
    lines = r.stderr.decode("utf-8").splitlines()
    assert len(lines) == 1 and lines[0].startswith("freecell: "), r.stderr
    if "nope" in args or "FreeCell" in args:
        assert "unknown variant" in lines[0] and "seahaven" in lines[0]
