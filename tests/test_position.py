"""Positions: deals, the fc-solve board text (both ways), and the errors for bad boards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from freecell.cards import parse_card
from freecell.deals import MAX_DEAL, deal_columns
from freecell.engine import apply_move, legal_moves, safe_automove
from freecell.piles import COLUMN, FOUNDATION, Move
from freecell.position import BoardError, Position
from freecell.rules import FREECELL, Rules
from tests.support.boards import empty_columns

BOARDS = Path(__file__).resolve().parent / "data" / "boards"

DEAL_1_TEXT = """\
Foundations: H-0 C-0 D-0 S-0
Freecells: - - - -
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
"""


def _board(name: str) -> str:
    return (BOARDS / name).read_text(encoding="utf-8")


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_deal_1_position() -> None:
    pos = Position.deal(1)
    assert pos.columns == deal_columns(1)
    assert pos.cells == (None, None, None, None)
    assert pos.foundations == (0, 0, 0, 0)
    assert pos.cards_home() == 0
    assert not pos.is_won()
    assert pos.empty_cells() == 4
    assert empty_columns(pos) == 0
    assert sorted(pos.all_cards()) == list(range(52))
    assert pos.validate(FREECELL) is pos


def test_deal_with_other_cell_counts() -> None:
    assert Position.deal(5, Rules(free_cells=2)).cells == (None, None)
    assert Position.deal(5, Rules(free_cells=0)).cells == ()
    with pytest.raises(BoardError):
        Position.deal(5, Rules(columns=10))


def test_deal_1_text() -> None:
    assert Position.deal(1).to_text() == DEAL_1_TEXT
    assert Position.deal(1).to_text(header=False) == "".join(
        line[2:] + "\n" for line in DEAL_1_TEXT.splitlines()[2:]
    )


@pytest.mark.parametrize("n", [1, 2, 617, 11982, 32000, 2**31, 2**32, MAX_DEAL])
def test_deal_round_trip(n: int) -> None:
    pos = Position.deal(n)
    assert Position.from_text(pos.to_text()) == pos
    assert Position.from_text(pos.to_text(header=False)) == pos
    assert Position.from_text(pos.to_text()).to_text() == pos.to_text()


def test_good_midgame_board() -> None:
    text = _board("good_midgame.board")
    pos = Position.from_text(text)
    assert pos.foundations == (2, 1, 0, 0)  # clubs, diamonds, hearts, spades
    assert pos.cells == (parse_card("8D"), None, None, None)
    assert pos.columns[2] == _cards("9H 9S 9D TS 4S 2H")
    assert pos.columns[4] == _cards("5D JS 4H 8H 6C 5H")  # a column without the ':' prefix
    assert pos.columns[7] == ()
    assert empty_columns(pos) == 1
    assert pos.cards_home() == 3
    out = pos.to_text()
    assert out.startswith("Foundations: H-0 C-2 D-A S-0\nFreecells: 8D - - -\n: JD KD 2S 4C 3S 6D 6S\n")
    assert out.splitlines()[-1] == ":"
    assert len(out.splitlines()) == 10
    assert Position.from_text(out) == pos


def test_board_text_variants_read_the_same() -> None:
    pos = Position.from_text(_board("good_midgame.board"))
    lines = _board("good_midgame.board").splitlines()
    variants = [
        # other foundation order, lower case, "10", blank lines, extra spaces, CRLF
        "\n".join(["Foundations: S-0 D-A C-2 H-0", *lines[1:]]),
        "\n".join(line.lower() for line in lines),
        "\n".join(lines).replace("TD", "10D").replace("TH", "10♥"),
        "\n\n" + "\n\n".join("   " + line + "  " for line in lines) + "\n\n",
        "\r\n".join(lines),
        "\n".join([lines[0], "Freecells: 8D", *lines[2:]]),
        "\n".join([lines[0], "Freecells: 8d -- -- --", *lines[2:]]),
    ]
    for text in variants:
        assert Position.from_text(text) == pos, text


def test_foundation_ranks() -> None:
    base = Position.from_text(_board("good_midgame.board"))
    text = _board("good_midgame.board").replace("D-A", "D-1")
    with pytest.raises(BoardError):
        Position.from_text(text)  # "1" is no rank; "A" is
    text = _board("good_midgame.board").replace("C-2", "C-02")
    with pytest.raises(BoardError):
        Position.from_text(text)
    assert Position.from_text(_board("good_midgame.board").replace("C-2", "c-2")) == base


def test_header_optional_and_colon_optional() -> None:
    plain = "\n".join(" ".join(line.split()[1:]) for line in DEAL_1_TEXT.splitlines()[2:])
    assert Position.from_text(plain) == Position.deal(1)
    mixed = "\n".join(
        (line if i % 2 else line[2:]) for i, line in enumerate(DEAL_1_TEXT.splitlines()[2:])
    )
    assert Position.from_text(mixed) == Position.deal(1)


def test_near_won_board_round_trip() -> None:
    text = (
        "Foundations: H-Q C-K D-J S-T\n"
        "Freecells: - QD - JS\n"
        ": KH\n:\n:\n: KD QS\n:\n:\n: KS\n:\n"
    )
    pos = Position.from_text(text)
    assert pos.foundations == (13, 11, 12, 10)
    assert pos.cells == (None, parse_card("QD"), None, parse_card("JS"))
    assert empty_columns(pos) == 5
    assert pos.to_text() == text
    won = "Foundations: H-K C-K D-K S-K\nFreecells: - - - -\n" + ":\n" * 8
    assert Position.from_text(won).is_won()
    assert Position.from_text(won).to_text() == won


def _biased_move(rng: random.Random, pos: Position, moves: list[Move]) -> Move:
    """A random move, biased to send cards home and to empty columns."""

    def weight(m: Move) -> int:
        if m.dst.kind == FOUNDATION:
            return 50
        if m.src.kind == COLUMN:
            left = len(pos.columns[m.src.index]) - m.count
            if m.dst.kind == COLUMN and not pos.columns[m.dst.index]:
                return 1
            return 20 if left == 0 else 8 if left <= 2 else 1
        return 1

    return rng.choices(moves, [weight(m) for m in moves])[0]


def test_round_trip_positions_reached_by_play() -> None:
    seen_cells = seen_home = seen_empty = seen_all = 0
    for seed in range(12):
        rng = random.Random(seed)
        pos = Position.deal(rng.randint(1, 32000))
        for _ in range(120):
            moves = legal_moves(pos, FREECELL)
            if not moves:
                break
            pos = apply_move(pos, _biased_move(rng, pos, moves))
            while (m := safe_automove(pos, FREECELL)) is not None:
                pos = apply_move(pos, m)
            text = pos.to_text()
            back = Position.from_text(text)
            assert back == pos, text
            assert back.to_text() == text
            cells, home, empty = pos.empty_cells() < 4, pos.cards_home() > 0, empty_columns(pos) > 0
            seen_cells += cells
            seen_home += home
            seen_empty += empty
            seen_all += cells and home and empty
    assert seen_cells and seen_home and seen_empty
    assert seen_all >= 5


def test_round_trip_with_other_rules() -> None:
    rules = Rules(free_cells=6, columns=10)
    cols = [tuple(range(i, 52, 10)) for i in range(10)]
    pos = Position(tuple(cols), (None,) * 6)
    assert Position.from_text(pos.to_text(), rules) == pos
    with pytest.raises(BoardError):
        Position.from_text(pos.to_text())  # ten columns, FreeCell has eight


@pytest.mark.parametrize(
    ("name", "pattern"),
    [
        ("duplicate.board", r"KD appears twice"),
        ("fifty_one.board", r"52 cards.*51.*6C"),
        ("fifty_three.board", r"QS appears twice"),
        ("bad_card.board", r"line 7.*'1X'"),
        ("seven_columns.board", r"8 columns.*7"),
        ("too_many_cells.board", r"5 cards in free cells.*4 cells"),
        ("bad_foundation.board", r"line 1.*'C-X'"),
    ],
)
def test_bad_board_files(name: str, pattern: str) -> None:
    with pytest.raises(BoardError, match=pattern) as info:
        Position.from_text(_board(name))
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "edit",
    [
        ("Freecells: - - - -", "Freecells: AS - - -"),  # a card in a cell and in a column
        ("Foundations: H-0 C-0 D-0 S-0", "Foundations: H-2 C-0 D-0 S-0"),  # AH, 2H home and on table
        ("Foundations: H-0 C-0 D-0 S-0", "Foundations: H-0 C-0 D-0 S-Z"),
        ("Foundations: H-0 C-0 D-0 S-0", "Foundations: X-0 C-0 D-0 S-0"),
        ("Foundations: H-0 C-0 D-0 S-0", "Foundations: H0 C-0 D-0 S-0"),
        ("Foundations: H-0 C-0 D-0 S-0", "Foundations: H-14 C-0 D-0 S-0"),
        (": 5H 3H 3C 7S 7D TC", ": 5H 3H 3C 7S 7D TC\n:"),  # nine columns
        (": 5H 3H 3C 7S 7D TC", ": 5H 3H 3C 7S 7D TC ZZ"),
        (": 5H 3H 3C 7S 7D TC", ": 5H 3H 3C 7S 7D 11C"),
        ("Freecells: - - - -", "Freecells: 8Q - - -"),
    ],
)
def test_bad_edits_of_a_good_board(edit: tuple[str, str]) -> None:
    old, new = edit
    assert old in DEAL_1_TEXT
    with pytest.raises(BoardError):
        Position.from_text(DEAL_1_TEXT.replace(old, new))


def test_cells_limited_by_rules() -> None:
    text = _board("good_midgame.board")
    two = Rules(free_cells=2)
    pos = Position.from_text(text.replace("Freecells: 8D - - -", "Freecells: 8D -"), two)
    assert pos.cells == (parse_card("8D"), None)
    moved = text.replace("Freecells: 8D - - -", "Freecells: 8D 5H 3C").replace(" 6C 5H", " 6C")
    moved = moved.replace("3H 3C", "3H")
    with pytest.raises(BoardError, match=r"3 cards in free cells.*2 cells"):
        Position.from_text(moved, two)
    assert Position.from_text(moved).empty_cells() == 1


@pytest.mark.parametrize("value", [None, b"JD KD", 42, ["JD"], Position.deal(1)], ids=repr)
def test_non_text_board(value: object) -> None:
    with pytest.raises(BoardError):
        Position.from_text(value)  # type: ignore[arg-type]


def test_huge_board_text_refused() -> None:
    with pytest.raises(BoardError):
        Position.from_text(DEAL_1_TEXT + "\n" * 20_000)


def test_validate_catches_bad_positions() -> None:
    good = Position.deal(1)
    col0 = good.columns[0]
    bad = [
        Position((col0 + (col0[0],), *good.columns[1:]), good.cells),  # a duplicate
        Position((col0[:-1], *good.columns[1:]), good.cells),  # 51 cards
        Position((col0[:-1] + (52,), *good.columns[1:]), good.cells),  # not a card
        Position(good.columns, good.cells, (14, 0, 0, 0)),
    ]
    for pos in bad:
        with pytest.raises(BoardError):
            pos.validate()
    with pytest.raises(BoardError):
        good.validate(Rules(free_cells=3))
