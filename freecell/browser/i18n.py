"""The page's language: loading a catalogue, translating the static labels, naming the languages.

The one list of languages is :data:`freecell.ui.progress.settings.LANGUAGES`; each is named
in its own language by :data:`freecell.ui.text.catalogue.LANGUAGE_NAMES`.
``static/boot.js`` fetches the browser's catalogue before Python runs and
fills the static labels; :func:`load_catalogue` takes that one (or fetches it
again if that failed), and :func:`translate_page` does what boot.js does, for
a language chosen later.
"""

from __future__ import annotations

import json
from typing import Any

from js import JSON, document, window

from ..ui.progress.settings import LANGUAGES
from ..ui.text.catalogue import LANGUAGE_NAMES, Catalogue, choose_language
from .dom import q


def browser_language() -> str:
    return choose_language([str(x) for x in window.navigator.languages or []])


async def fetch_catalogue(lang: str) -> Catalogue | None:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`), or ``None`` if it cannot be had.

    boot.js loads it (``window.freecellCatalogue``), as it loaded the first one.
    """
    if lang not in LANGUAGES:
        return None
    try:
        data = await window.freecellCatalogue(lang)
        return Catalogue.from_json(lang, str(JSON.stringify(data.messages)))
    except Exception:
        return None


async def load_catalogue(wanted: str | None = None) -> tuple[Catalogue, bool]:
    """The catalogue of ``wanted`` (else the browser's), and whether the page must be translated.

    boot.js has fetched the browser's one and filled the labels with it.
    """
    cat: Catalogue | None = None
    try:
        data = await window.freecellI18n
        cat = Catalogue(str(data.lang), json.loads(str(JSON.stringify(data.messages))))
    except Exception:
        cat = None
    if wanted is not None and (cat is None or wanted != cat.lang):
        chosen = await fetch_catalogue(wanted)
        if chosen is not None:
            return chosen, True
    if cat is not None:
        return cat, False
    lang = browser_language()
    fetched = await fetch_catalogue(lang)
    if fetched is None:
        raise RuntimeError("no message catalogue")
    return fetched, True


def translate_page(cat: Catalogue) -> None:
    """Every static label of the page in ``cat``'s language (boot.js does it: ``freecellTranslate``)."""
    window.freecellTranslate(JSON.parse(json.dumps(cat.messages)), cat.lang)


def build_language_choice(cat: Catalogue, current: str | None) -> None:
    """The language list of the settings: the browser's own first, then each language by its name."""
    select: Any = q('select[data-field="language"]')
    if select is None:
        return
    select.replaceChildren()
    options = [("", cat.t("settings.language_auto"))]
    options += [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]
    for value, label in options:
        opt = document.createElement("option")
        opt.value = value
        opt.textContent = label
        opt.selected = value == (current or "")
        select.appendChild(opt)
