"""Microsoft FreeCell deal numbers.

Deal N for 1 <= N < 2**31 is the deal of Windows FreeCell (deals 1-32,000 of
the old versions, 1-1,000,000 of the newer ones).  FreeCell Pro extended the
numbering: from 2**31 to 2**32 - 1 each random number gets its bit 15 set, and
from 2**32 to 2**33 - 1 the seed is N - 2**32 and the generator keeps 16 bits
and adds one.  Deals -1 and -2 of the old game are not offered.

    >>> from freecell.cards import card_text
    >>> " ".join(card_text(c) for c in deal_columns(1)[0])
    'JD KD 2S 4C 3S 6D 6S'
"""

from __future__ import annotations

import random as _random
import re
from datetime import date

from .cards import Card

MIN_DEAL = 1
MAX_DEAL = 2**33 - 1  # 8,589,934,591, the last FreeCell Pro deal
DEFAULT_RANDOM_MAX = 1_000_000
COLUMN_COUNT = 8


# The deals from 1 to 1,000,000 that cannot be won (11982 is the famous one;
# the solver proves each in tests/test_solver.py or bench runs).
UNWINNABLE_DEALS = frozenset({11982, 146692, 186216, 455889, 495505, 512118, 517776, 781948})


class DealNumberError(ValueError):
    """A deal number that does not name a deal.

    ``code`` says which way, for the page to translate: ``empty``,
    ``not_number`` or ``range``.
    """

    def __init__(self, message: str, code: str = "not_number") -> None:
        super().__init__(message)
        self.code = code


def _random_numbers(n: int) -> list[int]:
    """The 51 random numbers the shuffle of deal ``n`` draws."""
    if n < 2**32:
        seed = n
        high = 0 if n < 2**31 else 0x8000
        out = []
        for _ in range(51):
            seed = (seed * 214013 + 2531011) & 0xFFFFFFFF
            out.append(((seed >> 16) & 0x7FFF) | high)
        return out
    seed = n - 2**32
    out = []
    for _ in range(51):
        seed = (seed * 214013 + 2531011) & 0xFFFFFFFF
        out.append(((seed >> 16) & 0xFFFF) + 1)
    return out


def deal_cards(n: int) -> list[Card]:
    """The 52 cards of deal ``n`` in dealing order (card i goes to column i % 8)."""
    check_deal_number(n)
    deck = list(range(52))
    for i, r in zip(range(51, 0, -1), _random_numbers(n), strict=True):
        j = r % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    deck.reverse()
    return deck


def deal_columns(n: int, columns: int = COLUMN_COUNT) -> tuple[tuple[Card, ...], ...]:
    """Deal ``n`` as columns, each listed from its top (first dealt) card."""
    cards = deal_cards(n)
    return tuple(tuple(cards[i::columns]) for i in range(columns))


def check_deal_number(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int):
        raise DealNumberError(f"a deal number must be a whole number, not {n!r}")
    if not MIN_DEAL <= n <= MAX_DEAL:
        raise DealNumberError(
            f"deal {n} does not exist: deals go from {MIN_DEAL} to {MAX_DEAL:,}", "range"
        )
    return n


# What may separate groups of three digits in a typed number, as the languages write
# 8,589,934,591: a comma, a dot, an apostrophe (straight or curly), a space, a no-break,
# narrow no-break or thin space.  One separator throughout: "1,234.567" is no number.
GROUP_SEPARATORS = ",.'\u2019 \u00a0\u202f\u2009"
_GROUPED = re.compile("[0-9]{1,3}([" + re.escape(GROUP_SEPARATORS) + r"])[0-9]{3}(?:\1[0-9]{3})*")


def parse_deal_number(text: str) -> int:
    """Read a typed deal number: ASCII digits, maybe in groups of three (spaces around are allowed).

    The groups are those of the deal field's own label, in every language:
    ``8,589,934,591``, ``8.589.934.591``, ``8 589 934 591``, ``1'234`` (one
    separator of :data:`GROUP_SEPARATORS` throughout).  ``int()`` would also
    take ``٤٢``, ``5_000`` and ``+5``; a player typing a deal number means
    none of those, so they are refused, as are ``1.5`` and ``1,23``.  Digits
    that make too large a number, however many, are out of range.

    >>> parse_deal_number("8,589,934,591"), parse_deal_number("1 234"), parse_deal_number(" 0617 ")
    (8589934591, 1234, 617)
    >>> try:
    ...     parse_deal_number("9" * 24)
    ... except DealNumberError as err:
    ...     print(err.code)
    range
    """
    if not isinstance(text, str):
        raise DealNumberError(f"a deal number must be text, not {type(text).__name__}")
    t = text.strip()
    if not t:
        raise DealNumberError("no deal number given", "empty")
    grouped = _GROUPED.fullmatch(t)
    digits = t.replace(grouped.group(1), "") if grouped else t
    shown = t if len(t) <= 20 else t[:20] + "…"
    if not all("0" <= ch <= "9" for ch in digits):
        raise DealNumberError(
            f"not a deal number: {shown!r} (use the digits 0-9 only, from {MIN_DEAL} to {MAX_DEAL:,})"
        )
    significant = digits.lstrip("0")
    if len(significant) > len(str(MAX_DEAL)):  # too large, and never given to int() (no 5,000-digit work)
        raise DealNumberError(
            f"deal {significant[:20]}… does not exist: deals go from {MIN_DEAL} to {MAX_DEAL:,}", "range"
        )
    return check_deal_number(int(significant or "0"))


def random_deal_number(
    rng: _random.Random | None = None, low: int = MIN_DEAL, high: int = DEFAULT_RANDOM_MAX
) -> int:
    """A random deal number from ``low`` to ``high`` inclusive (1..1,000,000 by default).

    Every game, even a random one, then has a number that replays it.
    """
    check_deal_number(low)
    check_deal_number(high)
    if low > high:
        raise DealNumberError(f"empty range of deals: {low} to {high}", "range")
    return (rng or _random.SystemRandom()).randint(low, high)


# Where "New deal" draws from (a setting): every deal to a million, the classic
# Windows XP series, or the deals to a million that can be won.
DEAL_SOURCES = ("all", "classic", "winnable")
CLASSIC_MAX = 32_000


def draw_deal(source: str = "all", rng: _random.Random | None = None) -> int:
    """A deal for "New deal" from ``source`` (one of :data:`DEAL_SOURCES`).

    ``winnable`` draws from 1..1,000,000 without the deals proven unwinnable
    (:data:`UNWINNABLE_DEALS` lists every one of them in that range).
    """
    if source not in DEAL_SOURCES:
        raise ValueError(f"unknown deal source {source!r}")
    rng = rng or _random.SystemRandom()
    high = CLASSIC_MAX if source == "classic" else DEFAULT_RANDOM_MAX
    deal = random_deal_number(rng, MIN_DEAL, high)
    while source == "winnable" and deal in UNWINNABLE_DEALS:
        deal = random_deal_number(rng, MIN_DEAL, high)
    return deal


# The deal of the day: the same for everyone on a date, from the winnable deals only.
DAILY_MAX = DEFAULT_RANDOM_MAX
_MASK64 = 2**64 - 1


def _mix(x: int) -> int:
    """SplitMix64's finaliser: a fixed, well-spread 64-bit hash (the same in every Python)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def daily_deal(day: date) -> int:
    """The deal of the day ``day``: a deal from 1 to 1,000,000 that can be won, the same everywhere.

    A pure function of the date (the page passes its local date), so it
    works offline with no server; deals proven unwinnable
    (:data:`UNWINNABLE_DEALS`, every one of them in that range) are skipped.

    >>> daily_deal(date(2025, 3, 14)) == daily_deal(date(2025, 3, 14)) != daily_deal(date(2025, 3, 15))
    True
    >>> daily_deal(date(2025, 3, 14))
    773694
    """
    x = day.toordinal()
    while True:
        x = _mix(x)
        deal = x % DAILY_MAX + 1
        if deal not in UNWINNABLE_DEALS:
            return deal
