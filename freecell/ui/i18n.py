"""The message catalogue: every visible string, keyed by id, in each language.

The catalogues are flat JSON objects in ``static/i18n/<lang>.json`` with
``{name}`` placeholders.  The page loads one; this module picks the language
and formats messages.  A missing key shows the key itself (tests make sure
none is missing), so a gap never crashes the page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ..rules import Refusal

LANGUAGES = ("en", "fr", "it", "ro", "de", "es")
DEFAULT_LANGUAGE = "en"


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

    def refusal(self, refusal: Refusal) -> str:
        return self.t(
            "reason." + refusal.reason.value, moving=refusal.moving, capacity=refusal.capacity
        )

    def time(self, seconds: float) -> str:
        s = int(max(0, seconds))
        h, m = divmod(s // 60, 60)
        if h:
            return self.t("time.format_hms", h=h, m=f"{m:02d}", s=f"{s % 60:02d}")
        return self.t("time.format_ms", m=m, s=f"{s % 60:02d}")

    def paragraphs(self, key: str) -> list[str]:
        return [p.strip() for p in self.t(key).split("\n\n") if p.strip()]
