"""No false alarm, no lost win, no counterfeit win (issue 24): gestures, tabs, watched games,
results kept through storage faults, host floods, verdicts, what messages name.

The rules are asserted in CPython where they are pure (tests/test_saves.py,
tests/test_session.py, tests/test_robust_logic.py); these tests check that the
page keeps them in Chromium.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from freecell.cards import card_text
from freecell.game import Game
from freecell.piles import CELL, COLUMN, HOME, Move, column
from freecell.position import Position
from freecell.solver import Solver
from freecell.ui.analysis import playback as pb
from freecell.ui.analysis.playback import LEAD_MS, WATCH_STEP_MS
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.legacy import KEY_GAME
from freecell.ui.progress.saved_games import SaveStore
from freecell.ui.table.table import TableState
from tests.support.boards import twenty_card_board

from .helpers import (
    STEP_TIMEOUT,
    card_point,
    deal_url,
    expect_game,
    open_page,
    play_move_on_page,
    refuse_writes,
    selected_cards,
    set_visibility,
    solution_lines,
    wait_ready,
)
from .test_embed import host_server  # noqa: F401  (the fixture of the host pages' server)

pytestmark = pytest.mark.browser

ANSWER_TIMEOUT = 120_000  # ms: the solver worker boots its own Pyodide, slow on a busy machine


def stored_game(page: Any) -> Game:
    """This tab's game as saved in the page's storage, replayed in CPython."""
    data = page.evaluate("""() => ({local: Object.fromEntries(Object.entries(localStorage)),
                                    tab: Object.fromEntries(Object.entries(sessionStorage))})""")
    local, tab = MemoryStorage(), MemoryStorage()
    local.data, tab.data = dict(data["local"]), dict(data["tab"])
    got = SaveStore(local, tab).restore(None)
    assert got.game is not None and got.resumed
    return got.game


def stats(page: Any) -> dict[str, Any]:
    return dict(json.loads(page.evaluate("() => localStorage.getItem('freecell.stats')") or "{}"))

PHONE = {"width": 390, "height": 844}

# Every element that scrolls itself (or clips, which makes it a scroll container too): its own
# touch-action starts a new chain, so the page root's "pan-y" does not reach inside it.
_SIDEWAYS_PANNERS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    const open = ['visible', 'clip'];
    const scrolls = !open.includes(cs.overflowX) || !open.includes(cs.overflowY);
    if (!scrolls || el.closest('svg')) continue;
    const ta = cs.touchAction;
    const vertical = ['pan-y', 'pinch-zoom', 'pan-up', 'pan-down'];
    if (!(ta === 'none' || ta.split(' ').every(w => vertical.includes(w))))
      out.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + [...el.classList].join('.'))
               + ': ' + ta);
  }
  return out;
}"""


def _touch(cdp: Any, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def _swipe(cdp: Any, x0: float, x1: float, y: float, steps: int = 3) -> None:
    _touch(cdp, "touchStart", x0, y)
    for k in range(1, steps + 1):
        _touch(cdp, "touchMove", x0 + (x1 - x0) * k / steps, y)
    _touch(cdp, "touchEnd")


def test_no_sideways_swipe_over_panels_bars_or_felt_leaves_the_page(touch_page: Any, site: str) -> None:
    page = touch_page  # its history has a page to go back to, where a swipe that navigates would land
    page.set_viewport_size(PHONE)
    open_page(page, deal_url(site, 617))
    page.evaluate("() => { window.__stay = 1; }")
    cdp = page.context.new_cdp_session(page)
    w, h = PHONE["width"], PHONE["height"]
    menu = ".actionbar [data-action=game-menu]"
    # every panel a player opens from the bars (the win, stuck and share panels are the same
    # .panel, and the check of every scroller below covers them too)
    for name, clicks in [("settings", [".actionbar [data-action=settings]"]),
                         ("rules", [".actionbar [data-action=rules]"]), ("game", [menu]),
                         ("stats", [menu, "[data-panel=game] [data-action=stats]"]),
                         ("unfinished", [menu, "[data-panel=game] [data-action=unfinished]"])]:
        for selector in clicks:
            page.locator(selector).first.click()
        panel = page.locator(f"[data-panel={name}]")
        panel.wait_for(state="visible")
        assert page.evaluate(_SIDEWAYS_PANNERS_JS) == []
        box = panel.bounding_box()
        for y in (box["y"] + 40, box["y"] + box["height"] / 2):
            for x0, x1 in ((1, w - 2), (w - 2, 1), (box["x"] + 5, box["x"] + box["width"] - 5)):
                _swipe(cdp, x0, x1, y)
        assert page.evaluate("() => window.__stay") == 1, "a swipe over a panel left the page"
        assert page.evaluate("() => [scrollX, document.scrollingElement.scrollLeft]") == [0, 0]
        page.keyboard.press("Escape")
        panel.wait_for(state="hidden")
    for y in (5, h / 2, h - 5):  # the status bar, the felt, the action bar
        _swipe(cdp, 1, w - 2, y)
        _swipe(cdp, w - 2, 1, y)
    assert page.evaluate("() => window.__stay") == 1
    assert page.url.endswith("deal=617")
    assert page.evaluate("() => history.length") > 1  # there was a page to go back to
    _a_finger_scrolls_a_table_taller_than_its_box(page, cdp)


def _vertical_swipe(cdp: Any, x: float, y0: float, y1: float, steps: int = 3) -> None:
    _touch(cdp, "touchStart", x, y0)
    for k in range(1, steps + 1):
        _touch(cdp, "touchMove", x, y0 + (y1 - y0) * k / steps)
    _touch(cdp, "touchEnd")


def _a_finger_scrolls_a_table_taller_than_its_box(page: Any, cdp: Any) -> None:
    """Issue 25: a phone on its side with a 20-card column (the table is taller than its box, at
    18 px strips): up and down from a card that cannot be picked, the finger scrolls the table,
    and plays, selects and refuses nothing; then a double tap plays.  (In the same touch page: a
    boot less.)"""
    page.set_viewport_size({"width": 844, "height": 390})
    pos = twenty_card_board()
    page.evaluate("(q) => { document.documentElement.dataset.state = 'loading'; window.freecellRestart(q); }",
                  "?board=" + quote(pos.to_text()))
    wait_ready(page)
    game = Game(position=pos)
    expect_game(page, game)
    expect(page.locator("#table-area")).to_have_attribute("data-scroll", "")
    top = "() => document.getElementById('table-scroll').scrollTop"
    assert page.evaluate(top) == 0
    x, y = card_point(page, card_text(pos.columns[0][1]))  # heads no run: it cannot be picked
    _vertical_swipe(cdp, x, y + 100, y)
    page.wait_for_function(f"() => ({top})() > 0")
    scrolled = page.evaluate(top)
    _vertical_swipe(cdp, x, y, y + 100)
    page.wait_for_function(f"() => ({top})() === 0")
    expect_game(page, game)
    assert selected_cards(page) == [] and scrolled > 20
    expect(page.locator("[data-role=message][data-reason]")).to_have_count(0)
    # and a double tap by touch sends a card to its best place (issue 25), as a double click does
    table = TableState(game)
    best = [(i, table.smart_move(column(i), len(c) - 1)) for i, c in enumerate(pos.columns)
            if c and game.check(Move(column(i), HOME)) is not None]  # a tap would not send it home
    col, move = next((i, m) for i, m in best if m is not None and m.dst.kind == COLUMN)  # onto a build
    x, y = card_point(page, card_text(pos.columns[col][-1]))
    for _ in range(2):
        _touch(cdp, "touchStart", x, y)
        _touch(cdp, "touchEnd")
    game.play(move)
    expect_game(page, game)


# --- 2. only a tab that played writes ------------------------------------------------------------

_HEADS_JS = """() => Object.keys(localStorage)
  .filter(k => k.startsWith('freecell.save.') && k.split('.').length === 5)
  .map(k => { const h = JSON.parse(localStorage.getItem(k)); return [h.rev, h.n, h.moves]; })"""


def _play_cell(page: Any, game: Game) -> None:
    page.bring_to_front()  # a tab behind gets no animation frames
    play_move_on_page(page, game, next(m for m in game.legal_moves() if m.dst.kind == CELL))


def test_tabs_that_open_show_or_reload_a_game_write_nothing_and_lose_no_move(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 3))
    a = Game(deal=3)
    _play_cell(page, a)
    page.clock.run_for(4000)  # a's clock runs: the game has started and has a time
    set_visibility(page, "hidden")  # a is kept with its clock
    set_visibility(page, "visible")
    heads = page.evaluate(_HEADS_JS)
    assert [h[1:] for h in heads] == [[1, 1]]
    tab = page.context.new_page()  # a plain address in a second tab: a's game, shown
    tab.goto(site)
    wait_ready(tab)
    expect_game(tab, a)
    set_visibility(tab, "hidden")  # looked at: hidden and shown again, reloaded, then again
    set_visibility(tab, "visible")
    tab.reload()
    wait_ready(tab)
    expect_game(tab, a)
    set_visibility(tab, "hidden")
    set_visibility(tab, "visible")
    third = page.context.new_page()  # and a third tab opens the same game by its address
    third.goto(deal_url(site, 3))
    wait_ready(third)
    expect_game(third, a)
    assert page.evaluate(_HEADS_JS) == heads  # not written: no rev counted up
    box = page.locator("[data-role=notice]")
    _play_cell(page, a)  # a plays on: no notice, saved
    _play_cell(page, a)
    expect(box).to_be_hidden()
    assert [h[1:] for h in page.evaluate(_HEADS_JS)] == [[3, 3]]
    for other in (tab, third):  # newer moves: said in both other tabs
        other.bring_to_front()
        expect(other.locator("[data-role=notice]")).to_have_attribute("data-notice", "other-tab",
                                                                      timeout=STEP_TIMEOUT)
    tab.close()
    third.reload()  # a reload of a's game elsewhere brings every move, and writes nothing
    wait_ready(third)
    expect_game(third, a)
    expect(third.locator("[data-role=notice]")).to_be_hidden()
    third.close()
    assert json.dumps(page.evaluate(_HEADS_JS)) == json.dumps([[page.evaluate(_HEADS_JS)[0][0], 3, 3]])


# --- 3. a watched game is never a win ------------------------------------------------------------


def test_a_watched_game_reloaded_and_played_to_the_win_is_not_a_win(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    winnable = page.locator("[data-status=winnable]")
    expect(winnable).to_have_attribute("data-value", "yes", timeout=ANSWER_TIMEOUT)
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    bar = page.locator("[data-panel=watch]")
    expect(bar).to_have_attribute("data-state", "playing")
    total = int(bar.get_attribute("data-total") or 0)
    assert total > 12, total
    # watched to 6 steps from its end on the page's clock (which also flows: room for 5 s of it)
    page.clock.run_for(LEAD_MS + WATCH_STEP_MS["normal"] * (total - 6))
    page.wait_for_function("(n) => Number(document.querySelector('[data-panel=watch]').dataset.step) >= n",
                           arg=total - 6, timeout=STEP_TIMEOUT * 3)
    page.keyboard.press("Space")  # pause
    expect(bar).to_have_attribute("data-state", "paused")
    set_visibility(page, "hidden")  # kept
    page.reload()
    wait_ready(page)
    game = stored_game(page)
    assert game.moves >= total - 6 and not game.is_won()
    expect_game(page, game)
    result = Solver(game.position, game.rules).solve(max_nodes=200_000)
    assert result.verdict == "solved"
    for step in pb.plan(game.position, result.moves, game.rules, auto_move=game.auto_move):
        play_move_on_page(page, game, step.move)  # the player plays the rest, to the win
    assert game.is_won()
    expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT)
    assert stats(page).get("won", 0) == 0


# --- 4. results never lost to storage ------------------------------------------------------------

def test_a_win_whose_statistics_write_failed_is_written_at_the_next_chance_once(page: Any,
                                                                               site: str) -> None:
    # deal 1 kept two moves from its end (as an older page stored it: the test of that in
    # test_persist.py shows it counts as the player's game, like one played here by clicks)
    game, lines = Game(1), solution_lines(1)
    for line in lines[:-2]:
        game.play(Move.parse(line))
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY_GAME, game.to_json()])
    open_page(page, deal_url(site, 1))
    expect_game(page, game)
    try:
        refuse_writes(page, True, "freecell.stats")  # the statistics' key only: the game itself is saved
        for line in lines[-2:]:
            play_move_on_page(page, game, Move.parse(line))
        assert game.is_won()
        expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT)
        assert stats(page).get("won", 0) == 0
    finally:
        refuse_writes(page, False)
    set_visibility(page, "hidden")  # the next chance: the page hidden
    got = stats(page)
    assert (got["played"], got["won"], got["streak"]) == (1, 1, 1), got
    set_visibility(page, "visible")
    set_visibility(page, "hidden")
    assert stats(page)["won"] == 1  # counted once


# --- 5. host commands cannot flood the game ---------------------------------------------------------

# In test_embed.py (``expect_a_flood_of_commands_coalesced``), in the frame of its third-party test: a
# first boot less.


# --- 7. messages name what they refuse ----------------------------------------------------------------


CUT_BOARD = Position.deal(617).to_text()[:-9]  # a shared link cut short: its last cards missing


def test_the_address_refusals_name_what_they_refuse(page: Any, site: str) -> None:
    message = page.locator("[data-role=message]")
    many = "&".join(f"f{i}=1" for i in range(21))
    for query, words in (("?deal=617%E2%80%AE", "an invisible character \u2068U+202E\u2069"),
                         ("?deal=6%E2%80%8B17", "an invisible character \u2068U+200B\u2069"),
                         (f"?{many}", "more than 20 fields"),
                         ("?deal=617&x=" + "a" * 200_000, "longer than 200,000 characters"),
                         ("?board=" + quote(CUT_BOARD), "does not hold all 52 cards")):
        open_page(page, site + query)
        expect(message).to_contain_text(words)
        if "board" not in query:  # "the position is not valid" only where there is a position
            assert "position" not in message.inner_text()
