"""The first visit's early table: the data the build writes into early.js matches the real table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from freecell.cards import card_text
from freecell.deals import UNWINNABLE_DEALS
from freecell.position import Position
from freecell.ui.address.query import parse_query
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.progress import Progress
from freecell.ui.progress.stored_table import drawn_record
from freecell.ui.session.opening import Boot
from freecell.ui.session.session import Session
from freecell.ui.table.first_table import (
    BOUND_WIDTHS,
    FIRST_DEALS,
    HEIGHTS,
    WIDTHS,
    first_table_data,
    is_first_deal,
    places,
    side_bound,
)
from freecell.ui.table.layout import compute_layout
from freecell.ui.text.catalogue import Catalogue

I18N = Path(__file__).resolve().parents[1] / "static" / "i18n"

DATA = first_table_data()


def test_deals_are_winnable_classic_deals_in_dealing_order() -> None:
    assert len(set(FIRST_DEALS)) == len(FIRST_DEALS) >= 8
    assert not set(FIRST_DEALS) & set(UNWINNABLE_DEALS)
    for deal, codes in DATA["deals"]:
        pos = Position.deal(deal)
        assert codes == "".join(card_text(c) for col in pos.columns for c in col)
        assert len({codes[i:i + 2] for i in range(0, 104, 2)}) == 52


@pytest.mark.parametrize("index", range(0, len(WIDTHS) * len(HEIGHTS), 7))
def test_every_card_is_where_the_page_draws_it(index: int) -> None:
    """What early.js computes from a row (places) is the table the page's Python draws, to 0.1 px."""
    row = DATA["layouts"][index]
    w, h = row[0], row[1]
    layout = compute_layout(w, h)
    for deal, codes in DATA["deals"][:3]:
        drawn = json.loads(drawn_record(layout, Position.deal(deal), deal=deal, variant="freecell"))
        where = {card: (x, y) for card, x, y, _face in drawn["cards"]}
        for i, (x, y) in enumerate(places(row)):
            dx, dy = where[codes[2 * i:2 * i + 2]]
            assert abs(dx - x) <= 0.11 and abs(dy - y) <= 0.11
        tops = {p[0]: (p[2], p[3]) for p in drawn["piles"]}
        for i, name in enumerate(["a", "b", "c", "d", "h1", "h2", "h3", "h4"]):
            assert tops[name] == (row[15 + 2 * i], row[16 + 2 * i])
        for i in range(8):
            assert tops[str(i + 1)] == (row[7 + i], row[4])
        assert (drawn["cw"], drawn["ch"]) == (row[2], row[3])


def test_only_listed_deals_are_taken_from_the_page() -> None:
    assert is_first_deal(FIRST_DEALS[-1])
    for bad in (0, -1, 11982, True, "164", 164.0, None, 10**30):
        assert not is_first_deal(bad)


def _start(boot: Boot, local: MemoryStorage | None = None) -> Session:
    cat = Catalogue.from_json("en", (I18N / "en.json").read_text(encoding="utf-8"))
    s = Session(cat, None, Progress(local or MemoryStorage(), MemoryStorage(), wall=lambda: 1.7e12),
                clock=lambda: 1000.0)
    s.opening.start(boot)
    return s


def test_the_page_deals_the_deal_the_early_table_drew() -> None:
    for deal in FIRST_DEALS[:3]:
        s = _start(Boot(parse_query(""), first_deal=deal))
        assert (s.game.deal, s.game.moves) == (deal, 0)
        assert s.opening.drawn_at_random  # a new deal as any other: redrawn if proven lost


def test_the_early_deal_gives_way_to_the_address_a_kept_game_and_bad_values() -> None:
    deal = FIRST_DEALS[0]
    assert _start(Boot(parse_query("?deal=5"), first_deal=deal)).game.deal == 5
    assert _start(Boot(parse_query(""), first_deal=11982)).game.deal != 11982 or 11982 in FIRST_DEALS
    local = MemoryStorage()
    kept = _start(Boot(parse_query("?deal=7")), local)
    kept.game.play(kept.game.legal_moves()[0])
    kept.keeping.saved(kept.progress.save(kept.game))
    assert _start(Boot(parse_query(""), first_deal=deal), local).game.deal == 7  # the kept game


@pytest.mark.parametrize("width", [300, 540, 760, 1030, 1280, 1440, 1900])
def test_the_bound_is_where_the_piles_move_above_the_columns(width: int) -> None:
    """Below side_bound the page's layout of a fresh deal has its piles beside the columns, from
    it on above them, at every height: what the early script decides from ``bound``."""
    bound = side_bound(width)
    for height in range(150, 1400, 7):
        assert compute_layout(width, height).side == (height < bound), (width, height, bound)


def test_the_early_data_names_its_grid_and_arrangements() -> None:
    data = first_table_data()
    assert (data["widths"], data["heights"]) == (list(WIDTHS), list(HEIGHTS))
    assert data["sides"] == [int(compute_layout(w, h).side) for w in WIDTHS for h in HEIGHTS]
    assert len(data["layouts"]) == len(data["sides"]) and 0 < sum(data["sides"]) < len(data["sides"])
    assert [w for w, _ in data["bound"]] == list(BOUND_WIDTHS)
