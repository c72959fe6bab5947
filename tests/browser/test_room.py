"""The table uses the screen, and the bars over it cover no card a player needs (issue 25).

At 390x844, 844x390 and 1280x800, on a board whose column 1 holds 20 cards:
the hint bar, a notice (damaged storage) and a refusal on the message line
are all on show at once, and the cards' visible parts (a covered card's
strip, an exposed card's face) that each covers are counted from the page's
own boxes.  Beside the table (844x390, 1280x800) the count is 0 for each;
on a phone held upright the hint bar sits in the band below the columns (0),
on two lines in smaller print when one would cut its words (a hint while the solver looks),
and the notice, with no room left, covers no exposed card.  Every strip is
18 px or more, and the table spans what the layout says.  The playback bar
keeps every one of its buttons inside itself and on the screen, in the
narrow lane beside the table too.  Screenshots go to ``/tmp/shots-25/``
(look at them).
"""

from __future__ import annotations

import json
import re
import string
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.cards import card_text, parse_card
from freecell.game import Game
from freecell.piles import Move
from freecell.rules import Reason, Refusal, move_capacity
from freecell.ui.progress.legacy import KEY_GAME
from freecell.ui.progress.settings import LANGUAGES
from freecell.ui.table.layout import BAND
from freecell.ui.table.table import TableState
from freecell.ui.text.catalogue import Catalogue
from tests.support.boards import twenty_card_board
from tests.support.tables import board_from_parts

from .helpers import (
    READY_TIMEOUT,
    STEP_TIMEOUT,
    before_load,
    board_url,
    card_locator,
    card_point,
    click_card,
    click_pile,
    expect_game,
    expect_layout,
    open_page,
    play_move_on_page,
    refuse_writes,
)

pytestmark = pytest.mark.browser
SHOTS = Path("/tmp/shots-25")
SIZES = {"390x844": (390, 844), "844x390": (844, 390), "1280x800": (1280, 800)}

# each card's visible part (a covered card's strip, the last card's face) and each top-row pile,
# in page pixels; and the boxes of the bars on show
MEASURE_JS = """
() => {
  const cols = {};
  for (const g of document.querySelectorAll('svg#table g#cards g.card')) {
    const pile = g.getAttribute('data-pile');
    if (!/^[0-9]+$/.test(pile)) continue;
    (cols[pile] = cols[pile] || []).push([+g.getAttribute('data-index'), g.getBoundingClientRect(),
                                          g.getAttribute('data-card')]);
  }
  const parts = [], strips = [], exposed = [];
  for (const list of Object.values(cols)) {
    list.sort((a, b) => a[0] - b[0]);
    list.forEach(([i, r, card], k) => {
      const last = k === list.length - 1;
      const bottom = last ? r.bottom : list[k + 1][1].top;
      parts.push({card, x: r.left, y: r.top, w: r.width, h: bottom - r.top, last});
      if (!last) strips.push(bottom - r.top);
    });
  }
  const piles = Array.from(document.querySelectorAll('svg#table g#piles .pile')).map(p => {
    const r = p.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height};
  });
  const bars = {};
  for (const [name, sel] of [['hint', '[data-panel=hint]'], ['notice', '[data-role=notice]'],
                             ['message', '[data-role=message]']]) {
    const el = document.querySelector(sel);
    const r = el.getBoundingClientRect();
    const shown = !el.hidden && r.width > 0 && el.textContent.trim() !== '' &&
                  getComputedStyle(el).opacity !== '0';
    bars[name] = shown ? {x: r.left, y: r.top, w: r.width, h: r.height} : null;
  }
  const card = document.querySelector('svg#table g#cards g.card').getBoundingClientRect();
  return {parts, strips, piles, bars, cardWidth: card.width, columnPiles: Object.keys(cols).length};
}
"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > 0.5
            and min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > 0.5)


def refused_move(game: Game) -> Move:
    for dst in range(2, 9):
        move = Move.parse(f"1{dst}")
        if game.check(move) is not None:
            return move
    raise AssertionError("no refused move from column 1")


def show_all_bars(page: Any, site: str, size: tuple[int, int]) -> Game:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    before_load(page, f"localStorage.setItem({json.dumps(KEY_GAME)}, '[[[');")  # damaged: a notice
    pos = twenty_card_board()
    open_page(page, board_url(site, pos))
    game = Game(position=pos)
    expect_game(page, game)
    expect(page.locator("[data-role=notice]")).to_be_visible(timeout=STEP_TIMEOUT)
    page.locator(".actionbar [data-action=hint]").click()
    expect(page.locator("[data-panel=hint]")).to_be_visible(timeout=STEP_TIMEOUT)
    move = refused_move(game)
    click_card(page, "2D")
    click_pile(page, move.dst.text())
    expect(page.locator("[data-role=message][data-reason]")).to_be_visible(timeout=STEP_TIMEOUT)
    return game


@pytest.mark.parametrize("size", list(SIZES))
def test_a_20_card_column_with_every_bar_on_show(page: Any, site: str, size: str) -> None:
    show_all_bars(page, site, SIZES[size])
    page.wait_for_function("() => !document.querySelector('svg#table .card.animating')", timeout=STEP_TIMEOUT)
    m = page.evaluate(MEASURE_JS)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-20-cards-bars.png"))
    covered = {name: [p["card"] for p in m["parts"] if bar is not None and overlap(p, bar)]
               for name, bar in m["bars"].items()}
    on_piles = {name: sum(overlap(p, bar) for p in m["piles"]) for name, bar in m["bars"].items()
                if bar is not None}
    print(size, "card width", round(m["cardWidth"], 1), "covered", {k: len(v) for k, v in covered.items()},
          "min strip", round(min(m["strips"]), 1))
    assert m["bars"]["hint"] is not None and m["bars"]["notice"] is not None
    assert min(m["strips"]) >= 18 - 0.5
    exposed = {p["card"] for p in m["parts"] if p["last"]}
    for name, hit in covered.items():
        assert not exposed & set(hit), (name, hit)  # never an exposed card
    if size == "390x844":
        assert covered["hint"] == []  # the band below the columns
    else:
        assert covered == {"hint": [], "notice": [], "message": []}, covered
        assert on_piles == {name: 0 for name in on_piles}, on_piles


# the playback bar's box, and that of each of its buttons on show
WATCH_BOXES_JS = """
() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const bar = document.querySelector('[data-panel=watch]');
  const buttons = {};
  for (const b of bar.querySelectorAll('button')) {
    if (b.offsetParent !== null) buttons[b.dataset.action] = box(b);
  }
  return {bar: box(bar), buttons, width: innerWidth, height: innerHeight};
}
"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_playback_bar_holds_its_buttons_on_the_screen(page: Any, site: str, size: str) -> None:
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    open_page(page, board_url(site, Game(1).position))
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=60_000)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    bar = page.locator("[data-panel=watch]")
    expect(bar).to_have_attribute("data-state", "playing", timeout=STEP_TIMEOUT)
    page.keyboard.press("Space")  # paused: every button on show
    expect(bar).to_have_attribute("data-state", "paused")
    m = page.evaluate(WATCH_BOXES_JS)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-playback.png"))
    b = m["bar"]
    assert set(m["buttons"]) == {"watch-back", "watch-play", "watch-forward", "watch-speed", "watch-close"}
    assert b["left"] >= 0 and b["right"] <= m["width"] and b["top"] >= 0 and b["bottom"] <= m["height"], m
    for action, r in m["buttons"].items():
        inside = (r["left"] >= b["left"] - 0.5 and r["right"] <= b["right"] + 0.5
                  and r["top"] >= b["top"] - 0.5 and r["bottom"] <= b["bottom"] + 0.5)
        assert inside, (size, action, r, b)
    if size == "390x844":  # one row, as high as the band kept below the columns: not over a long column
        assert b["bottom"] - b["top"] <= BAND + 0.5, b
    page.keyboard.press("Escape")
    expect(bar).to_be_hidden()


@pytest.mark.parametrize(("size", "least_width", "least_span"),
                         [("390x844", 45, 0.95), ("844x390", 52, 0.75), ("1280x800", 95, 0.8)])
def test_the_cards_use_the_screen(page: Any, site: str, size: str, least_width: float,
                                  least_span: float) -> None:
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    open_page(page, board_url(site, Game(1).position))
    m = page.evaluate(MEASURE_JS)
    xs = [p["x"] for p in m["piles"]] + [p["x"] for p in m["parts"]]
    xe = [p["x"] + p["w"] for p in m["piles"]] + [p["x"] + p["w"] for p in m["parts"]]
    area = page.evaluate("() => document.getElementById('table-area').getBoundingClientRect().width")
    span = (max(xe) - min(xs)) / area  # of the table's area: the buttons beside it in landscape left out
    print(size, "card width", round(m["cardWidth"], 1), "span", round(min(xs)), round(max(xe)),
          f"of {area:.0f}: {span:.0%}")
    assert m["cardWidth"] >= least_width
    assert span >= least_span


def test_a_double_click_sends_a_card_to_the_best_place(page: Any, site: str) -> None:
    """Deal 1 with the default tap: one click selects (and says the tip once), a double click moves."""
    open_page(page, board_url(site, Game(1).position))
    game = Game(1)
    pos = game.position
    # a column's exposed card that does not go home, and that the smart rule sends somewhere
    table = TableState(game)
    i, move = next((i, m) for i, c in enumerate(pos.columns)
                   if (m := table.smart_move(Move.parse(f"{i + 1}h").src, len(c) - 1)) is not None)
    card = card_text(pos.columns[i][-1])
    x, y = card_point(page, card)
    page.mouse.click(x, y)
    expect(card_locator(page, card)).to_have_class(re.compile(r"\bselected\b"),
                                                   timeout=STEP_TIMEOUT)
    expect(page.locator("[data-role=message]")).to_contain_text("double", timeout=STEP_TIMEOUT)
    area = page.locator("#table-area").bounding_box()
    assert area is not None
    page.mouse.click(area["x"] + area["width"] / 2, area["y"] + area["height"] - 6)  # the felt: deselect
    expect(card_locator(page, card)).not_to_have_class(re.compile(r"\bselected\b"))
    page.mouse.dblclick(x, y)
    game.play(move)
    expect_layout(page, game.position)


# The A of spades alone on the 9 of diamonds: a click sends it home; the 9 then goes on the 10 of spades
ACE_ON_TOP = board_from_parts({1: "9D AS", 2: "KS", 3: "QH", 4: "JC", 5: "TS", 6: "8S", 7: "7H", 8: "6C"})


def test_a_double_click_on_a_card_that_goes_home_sends_it_home_and_does_nothing_more(
        page: Any, site: str) -> None:
    """The first click sends the ace home; the second, at the same place, is the rest of the same
    gesture: neither a refusal ("Cards on the foundations stay there.", the ace flying under the
    pointer) nor a selection of the card under it."""
    open_page(page, board_url(site, ACE_ON_TOP))
    game = Game(position=ACE_ON_TOP)
    x, y = card_point(page, "AS")
    page.mouse.dblclick(x, y)  # returns once the page has handled both clicks
    game.play(Move.parse("1h"))
    expect_layout(page, game.position)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")  # drawn
    assert page.locator("svg#table g.card.selected").count() == 0
    assert page.locator("[data-role=message]").inner_text().strip() == ""
    # a click that plays a selected card's move leaves the next click free, however soon: the 9
    # onto the 10 by a click on the 10's middle, then at once a click there, on the 9, selects it
    click_card(page, "9D")
    expect(card_locator(page, "9D")).to_have_class(re.compile(r"\bselected\b"), timeout=STEP_TIMEOUT)
    x, y = card_point(page, "TS", frac=0.6)
    page.mouse.click(x, y)
    game.play(Move.parse("15"))
    expect_layout(page, game.position)
    page.mouse.click(x, y)
    expect(card_locator(page, "9D")).to_have_class(re.compile(r"\bselected\b"), timeout=STEP_TIMEOUT)


PICKER_JS = """
(cards) => {
  const p = document.querySelector('[data-panel=picker]').getBoundingClientRect();
  const hit = cards.filter(c => {
    const r = document.querySelector(`svg#table g.card[data-card="${c}"]`).getBoundingClientRect();
    return Math.min(r.right, p.right) - Math.max(r.left, p.left) > 0.5
        && Math.min(r.bottom, p.bottom) - Math.max(r.top, p.top) > 0.5;
  });
  const small = Array.from(document.querySelectorAll('[data-panel=picker] button')).filter(b => {
    const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44;
  }).map(b => b.dataset.action);
  return {hit, small};
}
"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_picker_sits_beside_the_run_it_picks(page: Any, site: str, size: str) -> None:
    from .test_keyboard_a11y import RUN_BOARD, _long_press, _open_picker_page, _slide_to

    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    at = _open_picker_page(page, site)
    _long_press(page, *at)
    for _ in range(4):  # as many as the run has
        _slide_to(page, "picker-up")
    col = [card_text(c) for c in RUN_BOARD.columns[0]]
    run = col[col.index("9H"):]  # the run at the column's end, all of it picked
    assert run == ["9H", "8S", "7H", "6S"]
    got = page.evaluate(PICKER_JS, run)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-picker.png"))
    page.keyboard.press("Escape")
    page.mouse.up()
    assert got == {"hit": [], "small": []}, got


def test_the_win_panel_starts_on_new_deal_shows_the_streak_and_u_undoes(page: Any, site: str) -> None:
    from .helpers import deal_url, play_move_on_page, replay_solution

    won = replay_solution(1)
    game = Game(1)
    for turn in won.turns[:-1]:
        game.play(turn.move)
    before = game.position
    # the player's own game, kept one move before the win (a link's game would not be theirs to win)
    before_load(page, f"localStorage.setItem({json.dumps(KEY_GAME)}, {json.dumps(game.to_json())});")
    open_page(page, deal_url(site, 1))
    expect_layout(page, before)
    play_move_on_page(page, game, won.turns[-1].move)
    win = page.locator("[data-panel=win]")
    expect(win).to_be_visible(timeout=STEP_TIMEOUT)
    expect(win.locator("[data-action=new]")).to_be_focused()
    expect(win.locator("[data-win=streak]")).to_have_attribute("data-value", "1")
    expect(win.locator("[data-win=best-time]")).to_have_attribute("data-value", re.compile(r"^\d+$"))
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "1280x800-win-panel.png"))
    page.keyboard.press("u")
    expect(win).to_be_hidden()
    expect_layout(page, before)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_game_menu_holds_the_game_and_settings_only_settings(page: Any, site: str, size: str) -> None:
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    open_page(page, board_url(site, Game(1).position))
    page.locator(".actionbar [data-action=game-menu]").click()
    menu = page.locator("[data-panel=game]")
    expect(menu).to_be_visible(timeout=STEP_TIMEOUT)
    for action in ("new", "replay", "daily", "play-deal", "unfinished", "stats", "share"):
        button = menu.locator(f"[data-action={action}]")
        expect(button).to_be_attached()
        box = button.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (action, box)
    expect(menu.locator("[data-field=deal]")).to_be_visible()
    # all of it on the screen at once: no scrolling inside the menu, a phone on its side too
    assert menu.evaluate("m => m.scrollHeight <= m.clientHeight + 1"), f"{size}: the game menu scrolls"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-game-menu.png"))
    settings = page.locator("[data-panel=settings]")
    for hook in ("[data-action=stats]", "[data-action=share]", "[data-action=unfinished]",
                 "[data-action=daily]", "[data-field=deal]"):
        assert settings.locator(hook).count() == 0, hook  # Settings keep only settings


# Each bar on show (hint, notice): whether its words end in "…", whether a button of it sticks out
# of it, whether it leaves the screen, and the exposed cards it covers.
WHOLE_BARS_JS = """
() => {
  const out = {};
  const inside = (r, b) => r.left >= b.left - 0.5 && r.right <= b.right + 0.5 && r.top >= b.top - 0.5
                           && r.bottom <= b.bottom + 0.5;
  const screen = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  const faces = [];
  const cols = {};
  for (const g of document.querySelectorAll('svg#table g#cards g.card')) {
    const pile = g.getAttribute('data-pile');
    if (/^[0-9]+$/.test(pile)) (cols[pile] = cols[pile] || []).push(g);
  }
  for (const list of Object.values(cols)) {
    list.sort((a, b) => +a.getAttribute('data-index') - +b.getAttribute('data-index'));
    const last = list[list.length - 1];
    faces.push([last.getAttribute('data-card'), last.querySelector('rect.card-bg').getBoundingClientRect()]);
  }
  for (const [name, sel, words] of [['hint', '[data-panel=hint]', '.hint-text'],
                                    ['notice', '[data-role=notice]', '.notice-text']]) {
    const el = document.querySelector(sel);
    if (el.hidden) continue;
    const b = el.getBoundingClientRect(), w = el.querySelector(words);
    out[name] = {
      fit: el.dataset.fit,
      cut: w.scrollWidth > w.clientWidth + 1 || w.scrollHeight > w.clientHeight + 1,
      out: [...el.querySelectorAll('button')].filter((x) => x.offsetParent !== null
             && !inside(x.getBoundingClientRect(), b)).map((x) => x.textContent.trim()),
      off: !inside(b, screen),
      covers: faces.filter(([, r]) => Math.min(r.right, b.right) - Math.max(r.left, b.left) > 0.5
                                   && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 0.5)
                   .map(([c]) => c),
    };
  }
  return out;
}
"""
# Storage that reads but cannot write, in German: the notice "progress cannot be saved" (with its
# button "copy a link") and the hint "Probieren Sie diesen Zug: ..." are each longer than a line.
GERMAN_JS = """() => localStorage.setItem('freecell.settings', JSON.stringify(
  {format: 'freecell-settings', version: 1, language: 'de'}))"""


def test_a_long_notice_and_a_long_hint_show_every_word(page: Any, site: str) -> None:
    """On one line in the band below a phone's table, "Fortschritt …" said nothing: a bar whose
    words do not fit on the line floats, whole, clear of the cards a player needs; in the lane
    beside the table its buttons wrap inside it ("Copy a link to this game" stuck out)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate(GERMAN_JS)
    refuse_writes(page, True)
    try:
        _long_notice_and_hint(page, site)
    finally:
        refuse_writes(page, False)


def _long_notice_and_hint(page: Any, site: str) -> None:
    open_page(page, f"{site}?deal=617")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    game = Game(617)
    play_move_on_page(page, game, Move.parse("2a"))  # the first save: it fails, the notice shows
    expect(page.locator("[data-role=notice]")).to_have_attribute("data-notice", "storage",
                                                                 timeout=STEP_TIMEOUT)
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=60_000)
    SHOTS.mkdir(exist_ok=True)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        whole = ("() => { const m = (" + WHOLE_BARS_JS + ")(); return Object.keys(m).length === 2 && "
                 "Object.values(m).every((b) => !b.cut && !b.out.length && !b.off && !b.covers.length); }")
        try:
            page.wait_for_function(whole, timeout=STEP_TIMEOUT)
        finally:
            page.screenshot(path=str(SHOTS / f"{size}-long-bars.png"))
            print(size, page.evaluate(WHOLE_BARS_JS))


# --- the message line on a small phone ----------------------------------------------------------

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
FITS_JS = "(el) => el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth"
# every text given fits the message line, as the page fits it (freecell/browser/bars.py _fit_message:
# in smaller print when it does not): the texts that do not, even so
UNFIT_JS = """(texts) => {
  const m = document.querySelector('[data-role=message]');
  const fits = () => m.scrollHeight <= m.clientHeight && m.scrollWidth <= m.clientWidth;
  const out = [];
  for (const [text, refusal] of texts) {
    m.textContent = text;
    if (refusal) m.dataset.reason = 'refusal'; else delete m.dataset.reason;
    delete m.dataset.fit;
    if (!fits()) m.dataset.fit = 'small';
    if (!fits()) out.push(text);
  }
  m.textContent = ''; delete m.dataset.reason; delete m.dataset.fit;
  return out;
}"""


def message_texts(lang: str) -> list[tuple[str, bool]]:
    """The message line's texts in ``lang`` with numbers as long as play gives them: every refusal
    (with or without bold), the messages, the deal's and the link's; ``True`` for a refusal's."""
    cat = Catalogue.from_json(lang, (I18N / f"{lang}.json").read_text(encoding="utf-8"))
    ten, eight = parse_card("TH"), parse_card("8S")
    out = []
    for reason in Reason:
        if reason is Reason.TOO_MANY_CARDS:  # onto a card, into an empty column, kings only
            for r in (Refusal(reason, 13, move_capacity(2, 2), cells=2, columns=2, onto=eight),
                      Refusal(reason, 13, move_capacity(3, 1), cells=3, columns=2),
                      Refusal(reason, 13, 4, cells=3, columns=2, onto=eight)):
                out.append((cat.refusal(r), True))
        else:
            out.append((cat.refusal(Refusal(reason, card=ten, onto=eight)), True))
    for key, text in cat.messages.items():
        if key.split(".")[0] in ("msg", "deal", "board", "daily"):
            out.append((string.Formatter().vformat(text, (), defaultdict(lambda: "617", n="1234567")),
                        key.startswith("board.")))
    return out


def test_every_message_fits_the_line_of_a_small_phone(page: Any, site: str) -> None:
    """At 360 px a refusal took three lines of a line two high, and the first and last were cut:
    the page says it in smaller print, and every message of every language fits so."""
    page.set_viewport_size({"width": 360, "height": 740})
    # a real refusal first: 7 cards onto 10♣ with no free cell and no empty column
    pos = board_from_parts({1: "9H 8S 7H 6S 5H 4S 3H", 2: "TC", 3: "QD", 4: "QS", 5: "JD", 6: "JS",
                            7: "9C", 8: "9S"}, cells="KC KD KH KS")
    open_page(page, board_url(site, pos))
    expect_game(page, Game(position=pos))
    click_card(page, "9H")
    click_pile(page, "2")
    message = page.locator("[data-role=message][data-reason]")
    expect(message).to_have_text("Too many cards to move at once: at most 1 onto 10♣, not 7 "
                                 "(no empty free cell, no empty column).", timeout=STEP_TIMEOUT)
    expect(message).to_have_attribute("data-fit", "small")  # three lines at the usual size
    assert message.evaluate(FITS_JS)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "360x740-refusal.png"))
    unfit = {lang: page.evaluate(UNFIT_JS, message_texts(lang)) for lang in LANGUAGES}
    assert unfit == {lang: [] for lang in LANGUAGES}
    # and the rules' table of the cards that move at once fits its panel (it ran off the edge)
    page.locator(".actionbar [data-action=rules]").click()
    table = page.locator("[data-panel=rules] .capacity-table")
    table.scroll_into_view_if_needed()
    assert table.evaluate("(t) => t.getBoundingClientRect().width <= t.parentElement.clientWidth")
    page.keyboard.press("Escape")


# the Settings tabs' labels of each language set in turn: the labels split inside a word (more
# lines than words), and whether the row ran past its panel
SPLIT_TABS_JS = """(labels) => {
  const tabs = [...document.querySelectorAll('[data-panel=settings] [role=tab]')];
  const row = tabs[0].parentElement;
  const kept = tabs.map((t) => t.textContent);
  const out = [];
  for (const set of labels) {
    tabs.forEach((t, i) => { t.textContent = set[i]; });
    tabs.forEach((t) => {
      const range = document.createRange();
      range.selectNodeContents(t);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      if (lines > t.textContent.trim().split(/\\s+/).length) out.push(t.textContent);
    });
    if (row.scrollWidth > row.clientWidth) out.push('row: ' + set.join(' '));
  }
  tabs.forEach((t, i) => { t.textContent = kept[i]; });
  return out;
}"""


# the Settings lists' options, every language's, that do not fit their list (measured in the list's
# own font, beside its chevron): "Toutes les donnes, de 1 à 1 000 00" was cut at 390 px
UNFIT_OPTIONS_JS = """(texts) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  const selects = [...document.querySelectorAll('[data-panel=settings] select')];
  const shown = selects.find((s) => s.clientWidth > 0);  // the others, in hidden tabs, as wide
  const css = getComputedStyle(shown);
  const room = shown.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
  ctx.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
  for (const select of selects) {
    for (const option of select.options) {
      const key = option.dataset.i18n;
      for (const text of key ? texts[key] || [] : [option.textContent])
        if (ctx.measureText(text).width > room) out.push(text);
    }
  }
  return out;
}"""


def option_texts() -> dict[str, list[str]]:
    """Each text a Settings list may show, by its key: one per language."""
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        for key, text in json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")).items():
            out.setdefault(key, []).append(text)
    return out


# the buttons matching a selector with each language's label set in turn: the labels split inside a
# word (more lines than words; a soft hyphen marks where a word may break) or running out of the button
SPLIT_LABELS_JS = """([selector, texts]) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const key = el.dataset.i18n;
    if (!key || el.offsetParent === null) continue;
    const kept = el.textContent;
    for (const text of texts[key] || []) {
      el.textContent = text;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      const words = text.trim().split(/[\\s\\u00ad]+/).length;
      if (lines > words || el.scrollWidth > el.clientWidth + 1) out.push(text);
    }
    el.textContent = kept;
  }
  return out;
}"""


def test_the_action_bar_labels_are_whole_words_and_its_column_fits(page: Any, site: str) -> None:
    """A short landscape screen (844x304, a phone's browser with its bars) gave the column a scroll
    bar, which split "New / deal"."""
    open_page(page, f"{site}?deal=1")
    for w, h in ((844, 390), (844, 304), (1280, 800)):  # (a phone upright hyphenates: "Sugge-rimento")
        page.set_viewport_size({"width": w, "height": h})
        assert page.evaluate(SPLIT_LABELS_JS, [".actionbar button", option_texts()]) == [], (w, h)
        fits = "(b) => b.scrollHeight <= b.clientHeight && b.scrollWidth <= b.clientWidth"
        assert page.locator(".actionbar").evaluate(fits), (w, h)


def tab_labels() -> list[list[str]]:
    """The Settings tabs' labels (General, Play, Look) in every language."""
    out = []
    for lang in LANGUAGES:
        messages = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        out.append([messages[f"settings.tab_{tab}"] for tab in ("game", "play", "look")])
    return out


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
def test_the_settings_tabs_stay_put_from_tab_to_tab(page: Any, site: str, size: str) -> None:
    """The panel was centred, so each tab's height moved the tab row: the next tab ran from the finger."""
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    open_page(page, f"{site}?deal=1")
    page.locator(".actionbar [data-action=settings]").click()
    tabs = page.locator("[data-panel=settings] [role=tab]")
    tops = set()
    for tab in ("game", "play", "look", "game"):
        page.locator(f"[data-panel=settings] [role=tab][data-tab={tab}]").click()
        expect(page.locator(f"[data-panel=settings] [data-tab-panel={tab}]")).to_be_visible()
        box = tabs.first.bounding_box()
        assert box is not None
        tops.add(round(box["y"]))
    assert len(tops) == 1, tops
    # and their labels are whole words in every language ("Allgemei/n" at every size), at 360 px too
    assert page.evaluate(SPLIT_TABS_JS, tab_labels()) == []
    assert page.evaluate(UNFIT_OPTIONS_JS, option_texts()) == []
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate(SPLIT_TABS_JS, tab_labels()) == []
    assert page.evaluate(UNFIT_OPTIONS_JS, option_texts()) == []
    page.keyboard.press("Escape")


def test_a_phone_upright_shows_the_moves_of_every_variant(page: Any, site: str) -> None:
    """At 390 px Baker's Game showed its name and not the moves ("5 at once | 0:00 | Baker's Game |
    Winnable"), and so did FreeCell without cells: their short names are short now.  Seahaven
    Towers (its capacity and name the widest) and FreeCell without cells once its deal is proven
    lost ("Cannot be won") still let the moves give way to the name: now the name of a variant
    whose table shows it gives way first (freecell.ui.text.status.SHORTER), and a lost game's long
    words give way to short ones before the moves do."""
    page.set_viewport_size({"width": 390, "height": 844})
    shown = {}
    # in English each variant; then where other languages' longer words took the moves' room: French
    # and Spanish "Cannot be won" (now "✗ Insoluble", "✗ Sin solución" there), German "5 auf einmal",
    # Romanian "✓ Se poate câștiga" (now "✓ Are soluție", as its "✗ Fără soluție")
    for lang, variant in [*(("en", v) for v in ("freecell", "freecell3", "freecell0", "bakers", "eightoff",
                                                 "seahaven")), ("fr", "freecell0"), ("es", "freecell0"),
                          ("de", "bakers"), ("ro", "bakers")]:
        page.evaluate("(lang) => localStorage.setItem('freecell.settings', JSON.stringify("
                      "{format: 'freecell-settings', version: 1, language: lang}))", lang)
        open_page(page, f"{site}?deal=5&variant={variant}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        # read once the verdict is in: "Winnable?" becomes "✓ Winnable" or "Cannot be won"
        page.wait_for_function("() => document.querySelector('[data-status=winnable]').dataset.value"
                               " !== 'unknown'", timeout=READY_TIMEOUT)
        shown[lang, variant] = page.evaluate(
            "() => [...document.querySelectorAll('.statusbar [data-status]')]"
            ".filter((e) => e.offsetWidth > 0).map((e) => e.dataset.status)")
    for (lang, variant), names in shown.items():
        assert "moves" in names, (lang, variant, names)
        named = variant not in ("freecell", "seahaven", "freecell0")
        assert ("variant" in names) == named, (lang, variant, names)
        assert {"capacity", "time", "winnable"} <= set(names), (lang, variant, names)
