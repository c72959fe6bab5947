"""Cards as small ints, with parsing and formatting.

A card is an ``int`` from 0 to 51: ``(rank - 1) * 4 + suit``, with ranks 1 (ace)
to 13 (king) and suits in the order clubs, diamonds, hearts, spades.  This is
the order the Microsoft deals use, so a fresh deck is ``range(52)``.

Text forms::

    >>> card_text(parse_card("TD")), card_text(parse_card("10d"))
    ('TD', 'TD')
    >>> card_symbol(parse_card("TD"))
    '10♦'
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    freecell.cards.CardError: not a card: '1X' (expected a rank A 2-10 T J Q K and a suit C D H S)
"""

from __future__ import annotations

Card = int
Suit = int
Rank = int

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS: tuple[Suit, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_LETTERS = "A23456789TJQK"
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
ACE, KING = 1, 13
DECK: tuple[Card, ...] = tuple(range(52))

_SUIT_BY_TEXT = {
    **{c: i for i, c in enumerate(SUIT_LETTERS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES,
}
_RANK_BY_TEXT = {**{c: i + 1 for i, c in enumerate(RANK_LETTERS)}, "10": 10}


class CardError(ValueError):
    """Text that is not a card."""


def make_card(rank: Rank, suit: Suit) -> Card:
    """The card of this rank (1-13) and suit (0-3)."""
    if not (ACE <= rank <= KING and 0 <= suit <= 3):
        raise CardError(f"no card has rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def rank(card: Card) -> Rank:
    """1 for an ace up to 13 for a king."""
    return card // 4 + 1


def suit(card: Card) -> Suit:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def is_red(card: Card) -> bool:
    """Diamonds and hearts are red."""
    return (card & 3) in (DIAMONDS, HEARTS)


def is_red_suit(s: Suit) -> bool:
    return s in (DIAMONDS, HEARTS)


def parse_card(text: str) -> Card:
    """Parse ``TD``, ``10D``, ``td``, ``10♦`` or ``T♦`` into a card."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    t = text.strip().upper()
    if 2 <= len(t) <= 3:
        r = _RANK_BY_TEXT.get(t[:-1])
        s = _SUIT_BY_TEXT.get(t[-1])
        if r is not None and s is not None:
            return (r - 1) * 4 + s
    raise CardError(
        f"not a card: {text!r} (expected a rank A 2-10 T J Q K and a suit C D H S)"
    )


def card_text(card: Card) -> str:
    """Two characters, as boards are written: ``TD``, ``AS``."""
    return RANK_LETTERS[card // 4] + SUIT_LETTERS[card & 3]


def card_symbol(card: Card) -> str:
    """For display: ``10♦``, ``A♠``."""
    r = card // 4 + 1
    return ("10" if r == 10 else RANK_LETTERS[r - 1]) + SUIT_SYMBOLS[card & 3]


def card_name(card: Card) -> str:
    """English words, for logs and tests (the page translates its own)."""
    return f"{RANK_NAMES[card // 4]} of {SUIT_NAMES[card & 3]}"
