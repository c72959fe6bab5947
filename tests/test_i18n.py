"""The message catalogues: ``static/i18n/<lang>.json``, one per language of ``LANGUAGES``.

Every visible string of the page comes from these files, keyed by id.  The
tests check that the languages the code offers are exactly the files there and
the list in ``static/boot.js``; that every language holds the same keys as
English with the same named placeholders; that every string formats; that
every refusal reason of the engine and every key the UI code asks for has a
message; that each language keeps the usual FreeCell terms and its own
typography; and that nothing is left in English by mistake.
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from pathlib import Path

import pytest

from freecell.rules import Reason
from freecell.ui.progress.settings import LANGUAGES
from freecell.ui.text.catalogue import DEFAULT_LANGUAGE, LANGUAGE_NAMES

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "static" / "i18n"
LANGS = LANGUAGES
TRANSLATIONS = tuple(lang for lang in LANGS if lang != "en")

NBSP = "\u00a0"
NNBSP = "\u202f"

# Keys the UI fills with known values: the placeholder names are part of the contract.
EXPECTED_PLACEHOLDERS: dict[str, set[str]] = {
    "status.capacity": {"n"},
    "status.home": {"n"},
    "status.moves": {"n"},
    "status.time": {"time"},
    "status.deal": {"n"},
    "deal.started": {"n"},
    "deal.error.url": {"text"},
    "msg.selected": {"n"},
    "msg.copy_failed": {"n"},
    "reason.too_many_cards": {"moving", "capacity", "cells", "columns", "onto"},
    "refusal.too_many_to_empty": {"moving", "capacity", "cells", "columns"},
    "refusal.too_many_kings": {"moving", "capacity", "cells"},
    "refusal.king_on_card": {"onto"},
    "refusal.or": {"a", "b"},
    "time.format_ms": {"m", "s"},
    "time.format_hms": {"h", "m", "s"},
    "pile.column": {"n"},
    "pile.cell": {"n"},
    "pile.foundation": {"n"},
    "rules.multi.row_label": {"n"},
    "rules.multi.col_label": {"n"},
}

# What a refusal's sentence names (freecell.ui.text.catalogue.Catalogue.refusal); the others have none.
REFUSAL_PLACEHOLDERS: dict[Reason, set[str]] = {
    Reason.TOO_MANY_CARDS: {"moving", "capacity", "cells", "columns", "onto"},
    Reason.NOT_ONE_LOWER: {"card", "bases", "onto"},
    Reason.WRONG_COLOUR: {"card", "bases", "onto"},
    Reason.WRONG_SUIT: {"card", "bases", "onto"},
    Reason.NOT_NEXT_FOR_FOUNDATION: {"card", "next"},
}

# French terms of the game, as the values (or part of the values) of their keys.
FRENCH_EXACT: dict[str, str] = {
    "action.new": "Nouvelle donne",
    "action.replay": "Rejouer la donne",
    "action.finish": "Terminer",
    "action.undo": "Annuler",
    "action.hint": "Indice",
    "action.rules": "Règles",
    "action.settings": "Réglages",
}
FRENCH_CONTAINS: list[tuple[str, str]] = [
    ("status.capacity", "Cartes à la fois"),
    ("status.capacity_label", "cellules libres"),
    ("rules.setup.body", "cellules libres"),
    ("rules.multi.body", "cellules libres"),
    ("refusal.cells.other", "cellules libres"),
    ("status.home_label", "fondations"),
    ("rules.setup.body", "fondations"),
    ("rules.finish.body", "fondations"),
    ("rules.setup.body", "colonnes"),
    ("rules.multi.empty_note", "colonnes"),
]

# The usual terms of the game in the other languages: exact button labels, and
# words the texts about free cells, foundations and columns must use.
TERMS_EXACT: dict[str, dict[str, str]] = {
    "it": {
        "action.new": "Nuova partita",
        "action.undo": "Annulla",
        "action.hint": "Suggerimento",
        "action.rules": "Regole",
        "pile.cell": "cella libera {n}",
        "pile.foundation": "fondazione di {n}",
        "pile.column": "colonna {n}",
    },
    "ro": {
        "action.new": "Joc nou",
        "action.undo": "Anulează",
        "action.hint": "Indiciu",
        "action.rules": "Reguli",
        "pile.cell": "celula liberă {n}",
        "pile.foundation": "fundația de {n}",
        "pile.column": "coloana {n}",
    },
    "de": {
        "action.new": "Neues Spiel",
        "action.undo": "Zug zurück",
        "action.hint": "Tipp",
        "action.rules": "Regeln",
        "pile.cell": "freie Zelle {n}",
        "pile.foundation": "Ablagestapel {n}",
        "pile.column": "Spalte {n}",
    },
    "es": {
        "action.new": "Nueva partida",
        "action.undo": "Deshacer",
        "action.hint": "Pista",
        "action.rules": "Reglas",
        "pile.cell": "celda libre {n}",
        "pile.foundation": "fundación de {n}",
        "pile.column": "columna {n}",
    },
}
TERMS_CONTAIN: dict[str, list[tuple[str, str]]] = {
    "it": [
        ("status.capacity_label", "celle libere"),
        ("rules.setup.body", "celle libere"),
        ("rules.multi.body", "celle libere"),
        ("refusal.cells.other", "celle libere"),
        ("status.home_label", "fondazioni"),
        ("rules.setup.body", "fondazioni"),
        ("rules.finish.body", "fondazioni"),
        ("rules.setup.body", "colonne"),
        ("rules.multi.empty_note", "colonna vuota"),
    ],
    "ro": [
        ("status.capacity_label", "celulele libere"),
        ("rules.setup.body", "celule libere"),
        ("rules.multi.body", "celule libere"),
        ("refusal.cells.other", "celule libere"),
        ("status.home_label", "fundații"),
        ("rules.setup.body", "fundații"),
        ("rules.finish.body", "fundații"),
        ("rules.setup.body", "coloane"),
        ("rules.multi.empty_note", "coloană goală"),
    ],
    "de": [
        ("status.capacity_label", "freien Zellen"),
        ("rules.setup.body", "freie Zellen"),
        ("rules.multi.body", "freie Zellen"),
        ("refusal.cells.other", "freie Zellen"),
        ("status.home_label", "Ablagestapel"),
        ("rules.setup.body", "Ablagestapel"),
        ("rules.finish.body", "Ablagestapel"),
        ("rules.setup.body", "Spalten"),
        ("rules.multi.empty_note", "leere Spalte"),
    ],
    "es": [
        ("status.capacity_label", "celdas libres"),
        ("rules.setup.body", "celdas libres"),
        ("rules.multi.body", "celdas libres"),
        ("refusal.cells.other", "celdas libres"),
        ("status.home_label", "fundaciones"),
        ("rules.setup.body", "fundaciones"),
        ("rules.finish.body", "fundaciones"),
        ("rules.setup.body", "columnas"),
        ("rules.multi.empty_note", "columna vacía"),
    ],
}

# Strings that may read the same as in English: everywhere, and in one language
# (a word both languages share, a proper name kept as it is).
SAME_AS_ENGLISH = {"app.title", "action.ok", "variant.short.bakers", "variant.short.eightoff",
                   "variant.short.seahaven"}
SAME_AS_ENGLISH_IN: dict[str, set[str]] = {
    "fr": {"card.rank.six", "status.score"},
    "de": {"variant.seahaven", "settings.speed.normal", "watch.speed.normal"},
    "es": {"settings.speed.normal", "watch.speed.normal", "settings.tab_game"},
    "ro": {"settings.tab_game"},
}

# Where the UI asks for messages, and how it asks.
T_CALL = re.compile(r"""(?<![\w$])t\(\s*(["'])([^"'\\]+)\1\s*[,)]""")
I18N_ATTR = re.compile(r"""\bdata-i18n(?:-title|-aria-label)?\s*=\s*(["'])([^"']+)\1""")
KEY_SHAPE = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*")


@cache
def catalogue(lang: str) -> dict[str, str]:
    raw = (I18N / f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    assert isinstance(data, dict), f"{lang}.json must hold one JSON object"
    return data


def placeholders(text: str) -> set[str]:
    """The field names of ``text``; fails on positional, spec'd or converted fields."""
    names: set[str] = set()
    for _literal, field, spec, conversion in string.Formatter().parse(text):
        if field is None:
            continue
        assert field.isidentifier(), f"placeholder {{{field}}} in {text!r} must be a plain name"
        assert not spec and conversion is None, f"placeholder {{{field}}} in {text!r}: name only"
        names.add(field)
    return names


def ui_sources() -> list[Path]:
    files = [
        *sorted((ROOT / "freecell").rglob("*.py")),
        *sorted((ROOT / "static").glob("*.py")),
        *sorted((ROOT / "static").glob("*.js")),
        ROOT / "index.html",
    ]
    return [f for f in files if f.is_file()]


def keys_used(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    found = {m.group(2) for m in T_CALL.finditer(text)}
    if path.suffix in {".html", ".js"}:
        found |= {m.group(2) for m in I18N_ATTR.finditer(text)}
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_file_parses_and_is_canonical(lang: str) -> None:
    data = catalogue(lang)
    assert data
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items())
    raw = (I18N / f"{lang}.json").read_text(encoding="utf-8")
    canonical = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    assert raw == canonical, f"{lang}.json: keep it flat, keys sorted, 2-space indent, UTF-8 unescaped"


def test_languages_are_the_files_and_boot_list() -> None:
    """The code and the files in static/i18n offer the same languages; boot.js takes its list from
    the code at build time (tests/test_page_data.py), so it has no list of its own."""
    assert len(set(LANGUAGES)) == len(LANGUAGES)
    assert DEFAULT_LANGUAGE in LANGUAGES
    assert {p.stem for p in I18N.glob("*.json")} == set(LANGUAGES)
    assert not [p.name for p in I18N.iterdir() if p.suffix != ".json"]
    # boot.js takes its list from what build.py writes in (tests/test_page_data.py checks that)
    boot = (ROOT / "static" / "boot.js").read_text(encoding="utf-8")
    assert "/* __FREECELL_BOOT__ */" in boot and not re.search(r'\["en",\s*"fr"', boot)
    # each named in itself in the settings' list (the browsers agree: tests/browser/test_settings.py)
    assert list(LANGUAGE_NAMES) == list(LANGUAGES)
    for lang in LANGUAGES:
        assert LANGUAGE_NAMES[lang][0].isupper()


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_same_keys(lang: str) -> None:
    en, other = set(catalogue("en")), set(catalogue(lang))
    assert sorted(en - other) == [], f"missing in {lang}.json"
    assert sorted(other - en) == [], f"in {lang}.json but not in en.json"


@pytest.mark.parametrize("lang", LANGS)
def test_key_shape(lang: str) -> None:
    bad = [k for k in catalogue(lang) if not KEY_SHAPE.fullmatch(k)]
    assert not bad


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_same_placeholders(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    diff = {k: (placeholders(en[k]), placeholders(other[k])) for k in en.keys() & other.keys()}
    assert {k: v for k, v in diff.items() if v[0] != v[1]} == {}


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_nothing_left_in_english(lang: str) -> None:
    """A string with words in it is translated, not copied from en.json."""
    en, other = catalogue("en"), catalogue(lang)
    copied = [
        k
        for k in en.keys() & other.keys()
        if k not in SAME_AS_ENGLISH | SAME_AS_ENGLISH_IN.get(lang, set())
        and other[k] == en[k]
        and re.search(r"[A-Za-z]", re.sub(r"\{\w+\}", "", en[k]))
    ]
    assert copied == [], f"{lang}.json keeps English text"


@pytest.mark.parametrize("lang", LANGS)
def test_expected_placeholders(lang: str) -> None:
    data = catalogue(lang)
    for key, names in EXPECTED_PLACEHOLDERS.items():
        assert key in data, key
        assert placeholders(data[key]) == names, key


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_formats(lang: str) -> None:
    for key, text in catalogue(lang).items():
        names = placeholders(text)  # raises on a stray { or }
        out = text.format(**{n: f"<{n}>" for n in names})
        assert all(f"<{n}>" in out for n in names), key
        assert "{" not in out and "}" not in out, f"{lang}: {key} keeps a brace after formatting"
        assert text.format(**dict.fromkeys(names, 7)), key


@pytest.mark.parametrize("lang", LANGS)
def test_no_empty_or_padded_string(lang: str) -> None:
    for key, text in catalogue(lang).items():
        assert text.strip(), f"{lang}: {key} is empty"
        assert text == text.strip(), f"{lang}: {key} has leading or trailing space"
        assert "  " not in text, f"{lang}: {key} has a double space"


@pytest.mark.parametrize("lang", LANGS)
def test_plain_text_paragraphs(lang: str) -> None:
    """No HTML, no markdown; only rules bodies have paragraphs, split by one blank line."""
    for key, text in catalogue(lang).items():
        assert not re.search(r"<[a-zA-Z/]|\*\*|`|^#+ ", text, re.M), f"{lang}: {key} looks like markup"
        if "\n" in text:
            assert key.startswith("rules.") and key.endswith(".body"), f"{lang}: {key} has a line break"
            assert all(p and p == p.strip() and "\n" not in p for p in text.split("\n\n")), key


def test_reason_for_every_refusal() -> None:
    for lang in LANGS:
        data = catalogue(lang)
        missing = [r.value for r in Reason if f"reason.{r.value}" not in data]
        assert not missing, f"{lang}: no message for {missing}"
        codes = {r.value for r in Reason}
        stale = [k for k in data if k.startswith("reason.") and k.removeprefix("reason.") not in codes]
        assert not stale, f"{lang}: reason keys without a Reason: {stale}"
        for r in Reason:
            expected = REFUSAL_PLACEHOLDERS.get(r, set())
            assert placeholders(data[f"reason.{r.value}"]) == expected, r.value


def test_french_terms() -> None:
    fr = catalogue("fr")
    for key, value in FRENCH_EXACT.items():
        assert fr[key] == value, key
    for key, term in FRENCH_CONTAINS:
        assert term in fr[key], f"{key} should use {term!r}"
    assert fr["status.capacity"] == "Cartes à la fois\u00a0: {n}"  # "1 cartes" would be wrong


@pytest.mark.parametrize("lang", TERMS_EXACT)
def test_game_terms(lang: str) -> None:
    data = catalogue(lang)
    for key, value in TERMS_EXACT[lang].items():
        assert data[key] == value, f"{lang}: {key}"
    for key, term in TERMS_CONTAIN[lang]:
        assert term in data[key], f"{lang}: {key} should use {term!r}"


def test_every_translation_has_terms() -> None:
    assert set(TERMS_EXACT) == set(TERMS_CONTAIN) == set(TRANSLATIONS) - {"fr"}


@pytest.mark.parametrize("lang", LANGS)
def test_rules_name_the_buttons(lang: str) -> None:
    """The rules call the buttons and the capacity counter by the words the page shows."""
    data = catalogue(lang)
    assert data["action.finish"] in data["rules.finish.body"]
    assert data["action.game_menu"] in data["rules.deals.body"]
    counter = data["status.capacity"].replace("{n}", "").strip(" :")
    assert counter and counter in data["rules.multi.body"]


@pytest.mark.parametrize("lang", [lang for lang in TRANSLATIONS if lang != "fr"])
def test_typography(lang: str) -> None:
    """Typographic quotes and apostrophes, dots between thousands, Romanian commas below."""
    for key, text in catalogue(lang).items():
        assert '"' not in text and "'" not in text, f"{lang}: {key} has a straight quote"
        assert not re.search(r"\d,\d{3}", text), f"{lang}: {key}: thousands take a dot"
        if lang == "ro":
            assert not re.search("[\u015e\u015f\u0162\u0163]", text), f"ro: {key}: use ș ț, not ş ţ"


def test_french_typography() -> None:
    """A non-breaking space before : ; ! ? and inside « », none of them ordinary."""
    for key, text in catalogue("fr").items():
        for m in re.finditer(r"[:;!?]", text):
            i = m.start()
            after = text[i + 1 : i + 2]
            if after and not after.isspace() and after not in "»)":
                continue  # not sentence punctuation: {m}:{s}, ?deal=N
            assert i > 0 and text[i - 1] in (NBSP, NNBSP), f"{key}: space before {m.group()!r} at {i}"
        for m in re.finditer("«", text):
            assert text[m.end() : m.end() + 1] in (NBSP, NNBSP), f"{key}: space after «"
        for m in re.finditer("»", text):
            assert m.start() > 0 and text[m.start() - 1] in (NBSP, NNBSP), f"{key}: space before »"
        assert '"' not in text, f"{key}: use « » in French"
        assert not re.search(r"\d,\d{3}", text), f"{key}: French numbers use a thin space, not a comma"


def test_ui_sources_are_scanned() -> None:
    """The scan finds the keys index.html uses, so a broken pattern cannot pass silently."""
    used = keys_used(ROOT / "index.html")
    assert {"action.undo", "status.capacity_label", "table.label", "loading"} <= used


@pytest.mark.parametrize("path", ui_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_keys_used_by_ui_exist(path: Path) -> None:
    used = keys_used(path)
    for lang in LANGS:
        missing = sorted(used - catalogue(lang).keys())
        assert not missing, f"{path.relative_to(ROOT)} uses keys missing from {lang}.json: {missing}"
