"""The kept drawing (freecell/ui/progress/stored_table.py), the sprite, and early.js's copy of their rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from freecell.cards import card_text
from freecell.game import Game
from freecell.position import Position
from freecell.ui.progress import stored_table
from freecell.ui.table import sprite
from freecell.ui.table.layout import compute_layout
from freecell.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
EARLY = (ROOT / "static" / "early.js").read_text(encoding="utf-8")


def _js_regex(name: str) -> re.Pattern[str]:
    m = re.search(rf"const {name} = /(.+?)/;", EARLY)
    assert m, name
    return re.compile(m.group(1))


def _js_list(name: str) -> list[str]:
    m = re.search(rf"const {name} = \[(.+?)\];", EARLY)
    assert m, name
    return json.loads("[" + m.group(1) + "]")


def _js_number(name: str) -> int:
    m = re.search(rf"const {name} = (\d+);", EARLY)
    assert m, name
    return int(m.group(1))


def test_early_js_allows_exactly_what_the_record_holds() -> None:
    assert _js_number("MAX_COORD") == stored_table.MAX_COORDINATE
    assert _js_number("MAX_TEXT") == stored_table.MAX_TEXT
    assert tuple(_js_list("STATUS")) == stored_table.STATUS_NAMES
    assert tuple(_js_list("CLASSES")) == stored_table.TABLE_CLASSES


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("large", [False, True])
def test_every_record_passes_early_js_rules(variant: str, large: bool) -> None:
    game = Game(617, variant=variant)
    game.play(game.legal_moves()[0])
    rules = game.rules
    layout = compute_layout(390, 658, rules.free_cells, rules.columns)
    text = stored_table.drawn_record(layout, game.position, deal=617, variant=variant, large=large,
                              classes=["four-colour", "nonsense"], status=[("moves", "Moves 1", False),
                                                                           ("bogus", "x", False)])
    rec = json.loads(text)
    card, face, pile, mark = (_js_regex(n) for n in ("CARD", "FACE", "PILE", "MARK"))
    assert rec["v"] == stored_table.VERSION and len(rec["cards"]) == 52
    assert {c[0] for c in rec["cards"]} == {card_text(c) for c in range(52)}
    for name, x, y, symbol in rec["cards"]:
        assert card.fullmatch(name) and face.fullmatch(symbol) and symbol.endswith(name)
        assert abs(x) <= stored_table.MAX_COORDINATE and abs(y) <= stored_table.MAX_COORDINATE
        assert ("-L-" in symbol) == large
    for name, symbol, _x, _y in rec["piles"]:
        assert pile.fullmatch(name) and mark.fullmatch(symbol)
    assert rec["classes"] == ["four-colour"] and rec["status"] == [["moves", "Moves 1", False]]
    assert re.fullmatch(r"[a-z0-9]{1,20}", rec["variant"])


def test_the_sprite_has_every_symbol_a_drawing_uses() -> None:
    svg = sprite.sprite_svg()
    ids = set(re.findall(r'<symbol id="([^"]+)"', svg))
    for c in range(52):
        assert sprite.face_id(c) in ids and sprite.face_id(c, large=True) in ids
    for kind in ("cell", "column"):
        assert sprite.pile_id(kind) in ids
    assert {sprite.pile_id("foundation", s) for s in range(4)} <= ids
    for ref in re.findall(r'href="#([^"]+)"', svg):
        assert ref in ids, ref
    assert "<script" not in svg and "style=" not in svg  # the page's policy allows neither inline


def test_a_drawing_lies_where_the_layout_puts_the_cards() -> None:
    pos = Position.deal(1)
    layout = compute_layout(1280, 684)
    rec = json.loads(stored_table.drawn_record(layout, pos, deal=1, variant="freecell"))
    spots = layout.spots(pos)
    where = {name: (x, y) for name, x, y, _ in rec["cards"]}
    for c in range(52):
        assert where[card_text(c)] == (round(spots[c].x, 1), round(spots[c].y, 1))
