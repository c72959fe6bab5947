"""The message catalogue: ``static/i18n/en.json`` and ``static/i18n/fr.json``.

Every visible string of the page comes from these two files, keyed by id.  The
tests check that both languages hold the same keys with the same named
placeholders, that every string formats, that every refusal reason of the
engine and every key the UI code asks for has a message, and that the French
file keeps the usual FreeCell terms and French typography.
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from pathlib import Path

import pytest

from freecell.rules import Reason

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "static" / "i18n"
LANGS = ("en", "fr")

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
    "reason.too_many_cards": {"moving", "capacity"},
    "time.format_ms": {"m", "s"},
    "time.format_hms": {"h", "m", "s"},
    "pile.column": {"n"},
    "pile.cell": {"n"},
    "pile.foundation": {"n"},
    "rules.multi.row_label": {"n"},
    "rules.multi.col_label": {"n"},
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
    ("status.capacity", "Déplacer"),
    ("status.capacity_label", "cellules libres"),
    ("rules.setup.body", "cellules libres"),
    ("rules.multi.body", "cellules libres"),
    ("reason.too_many_cards", "cellules libres"),
    ("status.home_label", "fondations"),
    ("rules.setup.body", "fondations"),
    ("rules.finish.body", "fondations"),
    ("rules.setup.body", "colonnes"),
    ("rules.multi.empty_note", "colonnes"),
]

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


def test_same_keys() -> None:
    en, fr = set(catalogue("en")), set(catalogue("fr"))
    assert en - fr == set(), "missing in fr.json"
    assert fr - en == set(), "missing in en.json"


@pytest.mark.parametrize("lang", LANGS)
def test_key_shape(lang: str) -> None:
    bad = [k for k in catalogue(lang) if not KEY_SHAPE.fullmatch(k)]
    assert not bad


def test_same_placeholders() -> None:
    en, fr = catalogue("en"), catalogue("fr")
    diff = {k: (placeholders(en[k]), placeholders(fr[k])) for k in en.keys() & fr.keys()}
    assert {k: v for k, v in diff.items() if v[0] != v[1]} == {}


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
            expected = {"moving", "capacity"} if r is Reason.TOO_MANY_CARDS else set()
            assert placeholders(data[f"reason.{r.value}"]) == expected, r.value


def test_french_terms() -> None:
    fr = catalogue("fr")
    for key, value in FRENCH_EXACT.items():
        assert fr[key] == value, key
    for key, term in FRENCH_CONTAINS:
        assert term in fr[key], f"{key} should use {term!r}"
    assert fr["status.capacity"] == "Déplacer {n}"


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
