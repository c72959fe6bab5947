"""The message catalogue: every visible string, keyed by id, in each language.

The catalogues are flat JSON objects in ``static/i18n/<lang>.json`` with
``{name}`` placeholders.  The page loads one; this module picks the language
and formats messages.  A missing key shows the key itself (tests make sure
none is missing), so a gap never crashes the page.

A refusal is told with its real numbers and cards (:meth:`Catalogue.refusal`):

    >>> from freecell.cards import parse_card
    >>> cat = Catalogue("en", {"reason.not_one_lower": "{card} goes on {bases}, not on {onto}.",
    ...                        "refusal.or": "{a} or {b}"})
    >>> cat.refusal(Refusal(Reason.NOT_ONE_LOWER, card=parse_card("6S"), onto=parse_card("9C")))
    '6♠ goes on 7♦ or 7♥, not on 9♣.'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ...cards import KING, SUITS, card_symbol, make_card, rank, suit
from ...rules import FREECELL, Build, Reason, Refusal, Rules, move_capacity
from ..progress.settings import LANGUAGES

DEFAULT_LANGUAGE = "en"
# Each language by its own name, as the language list of the settings shows it (what the
# browsers' Intl.DisplayNames gives, capitalised; a constant, without its ICU data's cost).
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano", "ro": "Română", "de": "Deutsch",
                  "es": "Español"}


def choose_language(preferred: Iterable[str], available: Iterable[str] = LANGUAGES) -> str:
    """The first of the browser's languages we speak (``fr-CA`` -> ``fr``), else English."""
    have = list(available)
    for tag in preferred:
        if not isinstance(tag, str):
            continue
        base = tag.strip().lower().split("-")[0].split("_")[0]
        if base in have:
            return base
    return DEFAULT_LANGUAGE


class Catalogue:
    """Messages of one language."""

    def __init__(self, lang: str, messages: Mapping[str, str]) -> None:
        self.lang = lang
        self.messages = dict(messages)

    @classmethod
    def from_json(cls, lang: str, text: str) -> Catalogue:
        data = json.loads(text)
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()
        ):
            raise ValueError("a catalogue is a JSON object of strings")
        return cls(lang, data)

    def t(self, key: str, **params: object) -> str:
        text = self.messages.get(key)
        if text is None:
            return key
        if not params:
            return text
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text

    def count(self, key: str, n: int) -> str:
        """``key.zero``, ``key.one`` or ``key.other`` for ``n`` (``{n}`` filled in): "no empty column"."""
        form = "zero" if n == 0 else "one" if n == 1 else "other"
        return self.t(f"{key}.{form}", n=n)

    def refusal(self, refusal: Refusal, rules: Rules = FREECELL) -> str:
        """The sentence of a refused move, with its numbers and cards (``rules``: what builds on what)."""
        r = refusal
        key = "reason." + r.reason.value
        if r.reason is Reason.TOO_MANY_CARDS:
            cells = self.count("refusal.cells", r.cells)
            if r.capacity < move_capacity(r.cells, r.columns):  # only kings fill empty columns: no help
                key = "refusal.too_many_kings"
                columns = ""
            elif r.onto is None:
                key = "refusal.too_many_to_empty"
                columns = self.count("refusal.other_columns", r.columns)
            else:
                columns = self.count("refusal.columns", r.columns)
            onto = "" if r.onto is None else card_symbol(r.onto)
            return self.t(key, moving=r.moving, capacity=r.capacity, cells=cells, columns=columns, onto=onto)
        if r.reason is Reason.BROKEN_SEQUENCE and rules.build is Build.SUIT:
            return self.t("refusal.broken_sequence_suit")  # not "in alternating colours"
        if r.reason is Reason.NOT_NEXT_FOR_FOUNDATION and r.card is not None:
            after = 1 if r.onto is None else rank(r.onto) + 1  # the card its foundation takes next
            return self.t(key, card=card_symbol(r.card), next=card_symbol(make_card(after, suit(r.card))))
        if r.card is not None and r.onto is not None:
            onto = card_symbol(r.onto)
            if rank(r.card) == KING:
                return self.t("refusal.king_on_card", onto=onto)
            above = (make_card(rank(r.card) + 1, s) for s in SUITS)  # the cards one rank higher
            bases = [b for b in above if rules.builds_on(r.card, b)]
            return self.t(key, card=card_symbol(r.card), bases=self.either([card_symbol(b) for b in bases]),
                          onto=onto)
        return self.t(key)

    def either(self, items: list[str]) -> str:
        """``7♦ or 7♥``; ``7♣, 7♦, 7♥ or 7♠``."""
        if len(items) <= 1:
            return "".join(items)
        return self.t("refusal.or", a=", ".join(items[:-1]), b=items[-1])

    def time(self, seconds: float) -> str:
        s = int(max(0, seconds))
        h, m = divmod(s // 60, 60)
        if h:
            return self.t("time.format_hms", h=h, m=f"{m:02d}", s=f"{s % 60:02d}")
        return self.t("time.format_ms", m=m, s=f"{s % 60:02d}")

    def paragraphs(self, key: str) -> list[str]:
        return [p.strip() for p in self.t(key).split("\n\n") if p.strip()]
