"""Microsoft deal numbers: golden layouts, fc-solve's generator, parsing and random deals."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from freecell.cards import card_text, parse_card
from freecell.deals import (
    DEAL_SOURCES,
    MAX_DEAL,
    MIN_DEAL,
    UNWINNABLE_DEALS,
    DealNumberError,
    deal_cards,
    deal_columns,
    draw_deal,
    parse_deal_number,
    random_deal_number,
)
from freecell.game import Game
from freecell.position import Position

DATA = Path(__file__).resolve().parent / "data"
GOLDEN_FILE = DATA / "ms_deals.txt"
GENERATOR = "make-microsoft-freecell-board"


def _load_golden() -> dict[int, list[str]]:
    """``deal N`` lines, each followed by its 8 column lines."""
    lines = [ln.strip() for ln in GOLDEN_FILE.read_text(encoding="utf-8").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    out: dict[int, list[str]] = {}
    i = 0
    while i < len(lines):
        head = lines[i].split()
        assert len(head) == 2 and head[0] == "deal", f"bad golden line {lines[i]!r}"
        n = int(head[1])
        assert n not in out, f"deal {n} twice in the golden file"
        columns = lines[i + 1 : i + 9]
        assert len(columns) == 8 and not any(c.startswith("deal") for c in columns), n
        out[n] = columns
        i += 9
    return out


GOLDEN = _load_golden()


def _layout(n: int) -> list[str]:
    return [" ".join(card_text(c) for c in col) for col in deal_columns(n)]


def test_golden_file_has_the_expected_deals() -> None:
    assert len(GOLDEN) == 139
    for n in (1, 617, 11982, 32000, 1_000_000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1):
        assert n in GOLDEN, n


@pytest.mark.parametrize("n", sorted(GOLDEN))
def test_deal_matches_golden_layout(n: int) -> None:
    assert _layout(n) == GOLDEN[n]


DEAL_1 = [
    "JD KD 2S 4C 3S 6D 6S",
    "2D KC KS 5C TD 8S 9C",
    "9H 9S 9D TS 4S 8D 2H",
    "JC 5S QD QH TH QS 6H",
    "5D AD JS 4H 8H 6C",
    "7H QC AS AC 2C 3D",
    "7C KH AH 4D JH 8C",
    "5H 3H 3C 7S 7D TC",
]

DEAL_617 = [
    "7D TD TH KD 4C 4S JD",
    "AD 7S QC 5H QS TS KS",
    "5C QD 3H 9S 9C 2H KC",
    "3S AC 9D 3C 9H 5D 4H",
    "5S 6D 6S 8S 7C JC",
    "8C 8H 8D 7H 6H 6C",
    "2D AS 3D 4D 2C JH",
    "AH KH TC JS 2S QH",
]


def test_deal_1_literal() -> None:
    assert _layout(1) == DEAL_1


def test_deal_617_literal() -> None:
    assert _layout(617) == DEAL_617
    assert _layout(617)[0] == "7D TD TH KD 4C 4S JD"


@pytest.mark.parametrize("n", [1, 617, 2**31 - 1, 2**31, 2**32, MAX_DEAL])
def test_deal_shape(n: int) -> None:
    columns = deal_columns(n)
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    cards = [c for col in columns for c in col]
    assert sorted(cards) == list(range(52))
    assert len(deal_cards(n)) == 52


@pytest.mark.parametrize("n", [0, -1, MAX_DEAL + 1, 2**64, True, 1.0, "1", None])
def test_deal_columns_refuses_non_deals(n: object) -> None:
    with pytest.raises(DealNumberError):
        deal_columns(n)  # type: ignore[arg-type]


def _generator_layout(binary: str, n: int) -> list[list[int]]:
    r = subprocess.run([binary, "-t", str(n)], capture_output=True, text=True, timeout=60, check=True)
    lines = [ln.split() for ln in r.stdout.splitlines() if ln.strip()]
    return [[parse_card(t) for t in ln] for ln in lines]


def test_random_deals_match_fc_solve_generator() -> None:
    binary = shutil.which(GENERATOR)
    if binary is None:
        pytest.skip(f"{GENERATOR} is not on PATH (apt-get install freecell-solver-bin)")
    rng = random.Random()
    ranges = [(MIN_DEAL, 2**31 - 1), (2**31, 2**32 - 1), (2**32, MAX_DEAL)]
    sample = [rng.randint(lo, hi) for lo, hi in ranges for _ in range(10)]
    assert len(sample) == 30
    for n in sample:
        expected = _generator_layout(binary, n)
        assert [list(c) for c in deal_columns(n)] == expected, f"deal {n} differs from {GENERATOR}"


@pytest.mark.parametrize(
    ("text", "n"),
    [("1", 1), (" 42 ", 42), ("8589934591", MAX_DEAL), ("007", 7), ("\t617\n", 617), ("2147483648", 2**31),
     ("0" * 30 + "1", 1)],
)
def test_parse_deal_number_good(text: str, n: int) -> None:
    assert parse_deal_number(text) == n
    assert type(parse_deal_number(text)) is int


BAD_DEAL_TEXTS = [
    "0", "-1", "8589934592", "abc", "٤٢", "5_000", "", "   ", "+5", "1e3", "4.0", "0x10", "1 2",
    "１２", "²", "99999999999999999999", "1" * 25, "9" * 5000, "0000",
    "1.5", "1,23", "1,2345", "12345,678", ",123", "123,", "1,,234", "1,234.567", "1, 234", "1_234",
]


@pytest.mark.parametrize("text", BAD_DEAL_TEXTS, ids=lambda t: repr(t[:12]))
def test_parse_deal_number_bad(text: str) -> None:
    with pytest.raises(DealNumberError) as info:
        parse_deal_number(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert message
    assert "\n" not in message
    assert len(message) < 200


@pytest.mark.parametrize(("text", "n"), [
    ("8,589,934,591", MAX_DEAL),  # as the deal field's label writes it (English)
    ("8.589.934.591", MAX_DEAL),  # German, Italian, Romanian, Spanish
    ("8\u202f589\u202f934\u202f591", MAX_DEAL),  # French: narrow no-break spaces
    ("1,234", 1234), ("1 234", 1234), ("1\u00a0234", 1234), ("1\u2009234", 1234), ("1'234", 1234),
    ("1\u2019234", 1234), (" 11,982 ", 11982), ("1.000.000", 1_000_000),
])
def test_a_deal_number_may_be_typed_in_groups_of_three(text: str, n: int) -> None:
    """The field refused the very format of its label ("Deal number (1 to 8,589,934,591)")."""
    assert parse_deal_number(text) == n


@pytest.mark.parametrize("text", ["9" * 24, "8,589,934,592", "99,999,999,999", "1" * 25, "9" * 5000],
                         ids=lambda t: repr(t[:14]))
def test_a_number_too_large_is_out_of_range_not_not_a_number(text: str) -> None:
    with pytest.raises(DealNumberError) as info:
        parse_deal_number(text)
    assert info.value.code == "range"


@pytest.mark.parametrize("text", ["1.5", "1,23", "1,234.567", "12 34", "1'23"])
def test_what_is_not_groups_of_three_is_no_number(text: str) -> None:
    with pytest.raises(DealNumberError) as info:
        parse_deal_number(text)
    assert info.value.code == "not_number"


@pytest.mark.parametrize("value", [None, 5, 5.0, b"5", ["5"]], ids=repr)
def test_parse_deal_number_refuses_non_text(value: object) -> None:
    with pytest.raises(DealNumberError):
        parse_deal_number(value)  # type: ignore[arg-type]


def test_random_deal_number_default_range() -> None:
    rng = random.Random(20240601)
    numbers = [random_deal_number(rng) for _ in range(2000)]
    assert all(1 <= n <= 1_000_000 for n in numbers)
    assert all(type(n) is int for n in numbers)
    assert min(numbers) < 50_000
    assert max(numbers) > 950_000
    again = random.Random(20240601)
    assert [random_deal_number(again) for _ in range(2000)] == numbers


def test_random_deal_number_without_rng() -> None:
    for _ in range(50):
        assert 1 <= random_deal_number() <= 1_000_000


@pytest.mark.parametrize(
    ("low", "high"), [(1, 32000), (2**31, 2**32 - 1), (2**32, MAX_DEAL), (617, 617), (MAX_DEAL, MAX_DEAL)]
)
def test_random_deal_number_in_given_range(low: int, high: int) -> None:
    rng = random.Random(low ^ high)
    numbers = [random_deal_number(rng, low, high) for _ in range(300)]
    assert all(low <= n <= high for n in numbers)
    if high - low > 1000:
        assert len(set(numbers)) > 250


@pytest.mark.parametrize(
    ("low", "high"), [(0, 10), (-5, 10), (10, 5), (1, MAX_DEAL + 1), (MAX_DEAL + 1, MAX_DEAL + 2), (1.0, 5)]
)
def test_random_deal_number_bad_range(low: int, high: int) -> None:
    with pytest.raises(DealNumberError):
        random_deal_number(random.Random(1), low, high)


def test_random_deal_replays_as_game() -> None:
    rng = random.Random(7)
    for _ in range(5):
        n = random_deal_number(rng)
        game = Game(deal=n, clock=lambda: 0.0)
        assert game.deal == n
        assert game.start == Position.deal(n)
        assert game.position.columns == deal_columns(n)
        again = Game.from_json(game.to_json(), clock=lambda: 0.0)
        assert again.deal == n
        assert again.position == game.position


# --- where "New deal" draws from ---------------------------------------------------------------


class _Rigged(random.Random):
    """Draws the given numbers first (as randint(1, high) would), then behaves normally."""

    def __init__(self, first: list[int]) -> None:
        super().__init__(5)
        self.first = list(first)

    def randint(self, a: int, b: int) -> int:
        if self.first:
            n = self.first.pop(0)
            assert a <= n <= b
            return n
        return super().randint(a, b)


def test_winnable_source_draws_again_past_every_unwinnable_deal() -> None:
    rng = _Rigged(sorted(UNWINNABLE_DEALS) + [617])
    assert draw_deal("winnable", rng) == 617
    assert not rng.first


def test_other_sources_keep_what_they_draw() -> None:
    assert draw_deal("all", _Rigged([11982])) == 11982
    assert draw_deal("classic", _Rigged([11982])) == 11982


@pytest.mark.parametrize(("source", "high"),
                         [("all", 1_000_000), ("classic", 32_000), ("winnable", 1_000_000)])
def test_draw_deal_ranges(source: str, high: int) -> None:
    rng = random.Random(source)
    drawn = [draw_deal(source, rng) for _ in range(2000)]
    assert all(1 <= d <= high for d in drawn)
    assert max(drawn) > high * 0.9  # the whole range is used
    if source == "winnable":
        assert not set(drawn) & UNWINNABLE_DEALS


def test_draw_deal_refuses_an_unknown_source() -> None:
    with pytest.raises(ValueError, match="unknown deal source"):
        draw_deal("everything")
    assert DEAL_SOURCES == ("all", "classic", "winnable")
