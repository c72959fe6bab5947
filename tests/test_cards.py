"""Cards: small ints 0-51, their text forms, and the errors for text that is no card."""

from __future__ import annotations

import pytest

from freecell.cards import (
    CLUBS,
    DECK,
    DIAMONDS,
    HEARTS,
    SPADES,
    CardError,
    card_name,
    card_symbol,
    card_text,
    is_red,
    make_card,
    parse_card,
    rank,
    suit,
)

ALL_CARDS = list(range(52))
RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
SYMBOLS = "♣♦♥♠"


def test_deck_is_range_52() -> None:
    assert tuple(range(52)) == DECK


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("AC", 0),
        ("AD", 1),
        ("AH", 2),
        ("AS", 3),
        ("2C", 4),
        ("TD", 37),
        ("10D", 37),
        ("td", 37),
        ("10d", 37),
        ("tD", 37),
        ("10♦", 37),
        ("T♦", 37),
        ("t♦", 37),
        ("KC", 48),
        ("KS", 51),
        ("K♠", 51),
        ("Q♥", 46),
        ("J♣", 40),
        (" AS ", 3),
    ],
)
def test_parse_card_known_values(text: str, card: int) -> None:
    assert parse_card(text) == card


def test_cards_are_small_ints_in_order() -> None:
    seen = set()
    for r in range(1, 14):
        for s in (CLUBS, DIAMONDS, HEARTS, SPADES):
            c = make_card(r, s)
            assert isinstance(c, int)
            assert 0 <= c <= 51
            assert c == (r - 1) * 4 + s
            assert rank(c) == r
            assert suit(c) == s
            assert is_red(c) == (s in (DIAMONDS, HEARTS))
            seen.add(c)
    assert seen == set(range(52))


def test_card_text_and_symbol_examples() -> None:
    td = parse_card("TD")
    assert card_text(td) == "TD"
    assert card_symbol(td) == "10♦"
    assert card_text(parse_card("AS")) == "AS"
    assert card_symbol(parse_card("AS")) == "A♠"
    assert card_text(parse_card("KC")) == "KC"
    assert card_symbol(parse_card("KC")) == "K♣"
    assert card_name(parse_card("QH")) == "queen of hearts"


def test_every_card_has_distinct_forms() -> None:
    assert len({card_text(c) for c in ALL_CARDS}) == 52
    assert len({card_symbol(c) for c in ALL_CARDS}) == 52
    for c in ALL_CARDS:
        assert len(card_text(c)) == 2
        assert card_text(c)[0] == RANK_CHARS[c // 4]
        assert card_text(c)[1] == SUIT_CHARS[c % 4]
        assert card_symbol(c)[-1] == SYMBOLS[c % 4]


def _forms(card: int) -> list[str]:
    """Every accepted spelling of ``card``."""
    r, s = RANK_CHARS[card // 4], card % 4
    ranks = [r, r.lower()] + (["10"] if r == "T" else [])
    suits = [SUIT_CHARS[s], SUIT_CHARS[s].lower(), SYMBOLS[s]]
    return [a + b for a in ranks for b in suits]


@pytest.mark.parametrize("card", ALL_CARDS, ids=card_text)
def test_round_trip_every_form(card: int) -> None:
    assert parse_card(card_text(card)) == card
    assert parse_card(card_symbol(card)) == card
    assert parse_card(card_text(card).lower()) == card
    forms = _forms(card)
    assert len(forms) == (9 if card // 4 == 9 else 6)
    for form in forms:
        assert parse_card(form) == card, form
        assert card_text(parse_card(form)) == card_text(card)
        assert card_symbol(parse_card(form)) == card_symbol(card)


BAD_TEXTS: list[object] = [
    "", "1X", "11D", "ZZ", "TDD", None, "0S", "1S", "A", "10", "X♦", "A C", "AC AD", "♦T", "DT",
    "1♦", "100D", 10, 3.5, b"AS", ["AS"],
]


@pytest.mark.parametrize("text", BAD_TEXTS, ids=repr)
def test_bad_text_raises_card_error_naming_it(text: object) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert repr(text) in message
    assert "card" in message


def test_card_error_message_says_what_is_expected() -> None:
    with pytest.raises(CardError, match=r"not a card: '1X'"):
        parse_card("1X")
