"""Saved game, statistics and settings in real Chromium.

Written against the page's hooks: the three localStorage entries of
``freecell/ui/progress/settings.py`` (``freecell.game``, ``freecell.stats``,
``freecell.settings``); the notice ``[data-role=notice]`` with
``data-notice="storage"`` (progress not saved) or ``"damaged"`` (stored data
reset); the statistics panel ``[data-panel=stats]`` opened by
``[data-action=stats]`` (in the game menu), its figures
``[data-stat=played|won|rate|streak|longest|best-score|best-time|fewest-moves]``
with the raw value in ``data-value``, and the reset
``[data-action=stats-reset]`` then ``[data-action=stats-reset-confirm]``
(or ``stats-reset-cancel``).

Stored values, and storage that throws, are set up with ``add_init_script``
before the page's own scripts run.  Every test waits on conditions.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.game import Game
from freecell.piles import Move
from freecell.solver import SOLVED, Solver
from freecell.ui.progress.legacy import KEY_GAME
from freecell.ui.progress.settings import KEY_SETTINGS
from freecell.ui.progress.stats import KEY_STATS, Started, Won, apply, deal_key

from .helpers import (
    STEP_TIMEOUT,
    before_load,
    deal_url,
    expect_game,
    expect_layout,
    expect_status,
    open_page,
    open_stats,
    play_move_on_page,
    restart,
    solution_lines,
    status_value,
    wait_ready,
)

pytestmark = pytest.mark.browser
STATIC_I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"

DEAL = 617
# to a free cell, column to column, two cards together: each position is one the solver worker
# answers in a few thousand nodes (58 6a 82x2, test_page.py's, take 54,000 to 94,000: the worker
# busy a core for seconds of each test: ``test_the_moves_used_here_are_legal_and_quick_to_solve``)
MOVES = (Move.parse("2a"), Move.parse("27"), Move.parse("72x2"))
QUICK_NODES = 5_000

SET_ITEMS_JS = """
(items) => {
  if (sessionStorage.getItem('fc-test-seeded')) return;  // once: a reload keeps what the page wrote
  sessionStorage.setItem('fc-test-seeded', '1');
  for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
}
"""

# localStorage itself refused, as in a third-party frame.
REFUSED_JS = """
Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});
"""

# Storage readable but full: every write throws.
FULL_JS = """
Storage.prototype.setItem = function () {
  throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
};
"""

WATCH_JS = """
window.__fc_pwned = false;
window.__fc_alerts = 0;
window.alert = () => { window.__fc_alerts += 1; };
"""


def seed(page: Any, items: dict[str, str]) -> None:
    before_load(page, f"({SET_ITEMS_JS})({json.dumps(items)})")


def stored(page: Any) -> dict[str, str]:
    return dict(page.evaluate(
        "(keys) => Object.fromEntries(keys.map(k => [k, localStorage.getItem(k)]))",
        [KEY_GAME, KEY_STATS, KEY_SETTINGS],
    ))


def notice(page: Any) -> Any:
    return page.locator("[data-role=notice]")


def expect_notice(page: Any, kind: str) -> None:
    box = notice(page)
    expect(box).to_be_visible(timeout=STEP_TIMEOUT)
    expect(box).to_have_attribute("data-notice", kind)
    expect(box.locator("[data-role=notice-text]")).not_to_have_text(re.compile(r"^\s*$"))
    assert box.locator("img, script").count() == 0


def close_notice_and_check_it_stays_closed(page: Any, game: Game, move: Move) -> None:
    """Said once: closed, it does not come back when the next save fails too."""
    notice(page).locator("[data-action=notice-close]").click()
    expect(notice(page)).to_be_hidden()
    play_move_on_page(page, game, move)
    expect(notice(page)).to_be_hidden()


def stat(panel: Any, name: str) -> Any:
    return panel.locator(f"[data-stat={name}]")


def expect_stats(panel: Any, **values: object) -> None:
    for name, value in values.items():
        expect(stat(panel, name.replace("_", "-"))).to_have_attribute("data-value", str(value))


def undo(page: Any) -> None:
    page.locator(".actionbar [data-action=undo]").click()


# --- the game in progress -------------------------------------------------------------


def test_reload_restores_the_exact_game(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    history = [game.position]
    for m in MOVES:
        play_move_on_page(page, game, m)
        history.append(game.position)
    undo(page)
    game.undo()
    expect_status(page, "moves", 2)
    page.wait_for_function("() => Number(document.querySelector('[data-status=time]').dataset.value) >= 1")
    saved_time = int(status_value(page, "time"))
    page.reload()
    wait_ready(page)
    expect_game(page, game)
    expect(page.locator("[data-role=message]")).not_to_have_text(re.compile(r"^\s*$"))
    assert int(status_value(page, "time")) >= saved_time  # the clock came back, not from zero
    expect(page.locator("[data-role=notice]")).to_be_hidden()
    # redo brings back the move undone before the reload
    redo = page.locator(".actionbar [data-action=redo]")
    expect(redo).to_be_enabled()
    redo.click()
    expect_layout(page, history[3])
    expect_status(page, "moves", 3)
    # undo goes back through the same history, to the deal's start
    for n in (2, 1, 0):
        undo(page)
        expect_layout(page, history[n])
        expect_status(page, "moves", n)
    # a plain address brings back the same game too
    page.goto(site)
    wait_ready(page)
    expect_layout(page, history[0])
    expect_status(page, "deal", DEAL)
    expect(redo).to_be_enabled()


def test_a_won_game_is_remembered_as_won(page: Any, site: str) -> None:
    game = Game(deal=1)
    lines = solution_lines(1)
    for line in lines[:-1]:
        game.play(Move.parse(line))
    seed(page, {KEY_GAME: game.to_json()})
    open_page(page, deal_url(site, 1))
    expect_game(page, game)
    play_move_on_page(page, game, Move.parse(lines[-1]))
    expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT)
    restart(page)
    expect_status(page, "home", 52)
    expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT)
    panel = open_stats(page)
    expect_stats(panel, played=1, won=1, streak=1, fewest_moves=len(lines))  # counted once


# --- damaged and hostile stored data ----------------------------------------------------------

HOSTILE = "<img src=x onerror=\"window.__fc_pwned=true\"><script>window.__fc_pwned=true</script>"
BAD_STORES = {
    "garbage": {KEY_GAME: "{not json", KEY_STATS: "[]", KEY_SETTINGS: "null"},
    "hostile": {
        KEY_GAME: json.dumps({"format": "freecell-game", "version": 1, "deal": HOSTILE,
                              "turns": [HOSTILE], "__proto__": {"polluted": True}}),
        KEY_STATS: json.dumps({"format": "freecell-stats", "version": 1, "played": 10**30, "won": HOSTILE,
                               "streak": 0, "longest": 0, "best_score": 0, "open": HOSTILE,
                               "deals": {"__proto__": [1, 1]}}),
        KEY_SETTINGS: json.dumps({"format": "freecell-settings", "version": 1, "language": HOSTILE,
                                  "winnability": HOSTILE, "constructor": {"prototype": {"polluted": 1}}}),
    },
    "foreign-version": {
        KEY_GAME: json.dumps({"format": "freecell-game", "version": 99, "deal": DEAL}),
        KEY_STATS: json.dumps({"format": "freecell-stats", "version": 2}),
        KEY_SETTINGS: json.dumps({"format": "freecell-settings", "version": 0}),
    },
    "huge": {KEY_GAME: "[" * 200_000 + "]" * 200_000, KEY_STATS: "x" * 1_000_000},
}


@pytest.mark.parametrize("case", sorted(BAD_STORES))
def test_damaged_or_hostile_storage_starts_fresh_and_says_so_once(page: Any, site: str, case: str) -> None:
    before_load(page, WATCH_JS)
    seed(page, BAD_STORES[case])
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    expect_game(page, game)
    expect_notice(page, "damaged")
    assert page.evaluate("() => [window.__fc_pwned, window.__fc_alerts, ({}).polluted]") == [False, 0, None]
    assert page.locator("body img, body script:not([src]):not([type])").count() == 0
    # the entries were started fresh, and hold sound data now (the old single game slot is gone)
    saved = stored(page)
    assert saved[KEY_GAME] is None
    for key, version in ((KEY_STATS, 2), (KEY_SETTINGS, 1)):
        if saved[key] is not None:
            assert json.loads(saved[key])["version"] == version, key
    close_notice_and_check_it_stays_closed(page, game, MOVES[0])
    restart(page)  # the damage is gone: no notice any more, and the game is back
    expect_game(page, game)
    expect(notice(page)).to_be_hidden()


def test_a_damaged_history_keeps_its_legal_prefix(page: Any, site: str) -> None:
    data = json.loads(Game(deal=DEAL).to_json())
    data["turns"] = ["58", "11"]  # the second move is illegal
    seed(page, {KEY_GAME: json.dumps(data)})
    open_page(page, site)
    expect_status(page, "deal", DEAL)
    game = Game(deal=DEAL)
    game.play(Move.parse("58"))
    expect_game(page, game)
    expect_notice(page, "damaged")


# --- storage that throws ---------------------------------------------------------------------


def test_storage_that_throws_plays_on_and_says_so_once(returning_tab: Any, site: str) -> None:
    """Storage refused (every access throws), then full (every write throws), each in a tab of its
    own: a returning player's (they boot from the snapshots cached: no first boot)."""
    for script in (REFUSED_JS, FULL_JS):
        page = returning_tab()
        page.add_init_script(script)
        open_page(page, deal_url(site, DEAL))
        game = Game(deal=DEAL)
        expect_game(page, game)
        expect_notice(page, "storage")
        play_move_on_page(page, game, MOVES[0])
        expect_notice(page, "storage")
        close_notice_and_check_it_stays_closed(page, game, MOVES[1])
        # statistics and settings still work, in memory
        panel = open_stats(page)
        expect_stats(panel, played=1, won=0)
        panel.locator("[data-action=close]").click()
        undo(page)
        game.undo()
        expect_game(page, game)
        expect(notice(page)).to_be_hidden()
        expect(page.locator(".py-error")).to_have_count(0)  # (the teardown looks at open pages only)
        page.close()


# --- settings ------------------------------------------------------------------------------------


def test_settings_survive_a_reload(page: Any, site: str) -> None:
    fr = json.loads((STATIC_I18N / "fr.json").read_text(encoding="utf-8"))
    open_page(page, deal_url(site, DEAL))
    winnable = page.locator("[data-status=winnable]")
    expect(winnable).to_be_visible()
    page.locator(".actionbar [data-action=settings]").click()
    settings = page.locator("[data-panel=settings]")
    settings.locator("[role=tab][data-tab=play]").click()
    settings.locator("[data-field=winnability]").uncheck()
    settings.locator("[role=tab][data-tab=game]").click()
    settings.locator("select[data-field=deal-source]").select_option("winnable")
    expect(winnable).to_be_hidden()
    settings.locator("select[data-field=language]").select_option("fr")
    # the language applies at once
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(fr["action.new"], timeout=STEP_TIMEOUT)
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("[data-status=capacity]")).to_have_text(fr["status.capacity"].format(n=5))
    page.reload()
    wait_ready(page)
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(fr["action.new"])
    expect(page.locator("[data-status=capacity]")).to_have_text(fr["status.capacity"].format(n=5))
    expect(winnable).to_be_hidden()
    page.locator(".actionbar [data-action=settings]").click()
    expect(settings.locator("select[data-field=deal-source]")).to_have_value("winnable")
    expect(settings.locator("select[data-field=language]")).to_have_value("fr")
    settings.locator("[role=tab][data-tab=play]").click()
    expect(settings.locator("[data-field=winnability]")).not_to_be_checked()
    settings.locator("[role=tab][data-tab=game]").click()
    saved = json.loads(stored(page)[KEY_SETTINGS])
    assert saved["winnability"] is False and saved["deal-source"] == "winnable" and saved["language"] == "fr"
    # back to the browser's language
    settings.locator("select[data-field=language]").select_option("")
    expect(page.locator(".actionbar [data-action=new]")).not_to_have_text(fr["action.new"])
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_an_older_winnable_only_setting_is_the_winnable_deal_source(page: Any, site: str) -> None:
    """Settings stored by the page before the deal sources: "winnable-only" reads as "winnable".

    And when a newer page, in another tab, writes its settings after this
    tab read them, a change made here does not write over them.
    """
    old = {"format": "freecell-settings", "version": 1, "winnability": True, "winnable-only": True,
           "four-colour": False, "large-cards": False, "language": None}
    seed(page, {KEY_SETTINGS: json.dumps(old)})
    open_page(page, deal_url(site, DEAL))
    expect(notice(page)).to_be_hidden()  # nothing was damaged
    page.locator(".actionbar [data-action=settings]").click()
    source = page.locator("[data-panel=settings] select[data-field=deal-source]")
    expect(source).to_have_value("winnable")
    source.select_option("classic")
    expect(page.locator("[data-status=winnable]")).to_be_visible()
    assert json.loads(stored(page)[KEY_SETTINGS])["deal-source"] == "classic"
    newer = json.dumps({"format": "freecell-settings", "version": 2, "deal-source": "any", "sound": "soft"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY_SETTINGS, newer])  # the other tab
    page.locator("[data-panel=settings] select[data-field=language]").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr", timeout=STEP_TIMEOUT)  # in this tab only
    assert stored(page)[KEY_SETTINGS] == newer


# --- statistics ------------------------------------------------------------------------------------


def test_a_game_left_for_another_deal_is_played_not_lost(page: Any, site: str) -> None:
    """After a win of deal 1 (stored as tests/browser/test_page.py's whole game stores it), a game
    started then left for another deal is kept, unfinished: played, not (yet) lost, and one game
    across a reload, not two."""
    lines = solution_lines(1)
    won = Game(deal=1)
    for line in lines:
        won.play(Move.parse(line))
    key = deal_key(1)
    after_win = apply(None, Started("won", key), Won("won", key, 95.0, len(lines), won.score))
    seed(page, {KEY_STATS: after_win.text})
    open_page(page, deal_url(site, 1))
    panel = open_stats(page)
    expect_stats(panel, played=1, won=1, rate=100, streak=1, longest=1, best_time=95, fewest_moves=len(lines))
    panel.locator("[data-action=close]").click()
    page.locator(".actionbar [data-action=game-menu]").click()
    page.locator("[data-panel=game] [data-field=deal]").fill(str(DEAL))
    page.locator("[data-panel=game] [data-action=play-deal]").click()
    expect_status(page, "deal", DEAL)
    game = Game(deal=DEAL)
    play_move_on_page(page, game, MOVES[0])
    restart(page)  # the open game survives a reload: still one game, not two
    page.locator(".actionbar [data-action=game-menu]").click()
    page.locator("[data-panel=game] [data-field=deal]").fill("1")
    page.locator("[data-panel=game] [data-action=play-deal]").click()
    expect_status(page, "deal", 1)
    panel = open_stats(page)
    expect_stats(panel, played=2, won=1, rate=50, streak=1, longest=1, fewest_moves=len(lines))


def test_statistics_reset_asks_first(page: Any, site: str) -> None:
    # as an older page stored them (version 1): three wins, then a game left unfinished
    old = {"format": "freecell-stats", "version": 1, "played": 4, "won": 3, "streak": 0, "longest": 3,
           "best_score": 500, "open": None, "deals": {deal_key(n): [100 + n, 80 + n] for n in (5, 6, 7)}}
    seed(page, {KEY_STATS: json.dumps(old)})
    open_page(page, deal_url(site, 5))
    panel = open_stats(page)
    expect_stats(panel, played=4, won=3, rate=75, streak=0, longest=3, best_score=500, best_time=105,
                 fewest_moves=85)
    confirm = panel.locator("[data-role=stats-confirm]")
    expect(confirm).to_be_hidden()
    panel.locator("[data-action=stats-reset]").click()
    expect(confirm).to_be_visible()
    expect(confirm).not_to_have_text(re.compile(r"^\s*$"))
    expect_stats(panel, played=4, won=3)  # nothing is lost by asking
    confirm.locator("[data-action=stats-reset-cancel]").click()
    expect(confirm).to_be_hidden()
    expect_stats(panel, played=4, won=3)
    panel.locator("[data-action=stats-reset]").click()
    confirm.locator("[data-action=stats-reset-confirm]").click()
    expect(confirm).to_be_hidden()
    expect_stats(panel, played=0, won=0, streak=0, longest=0, best_time="", fewest_moves="")
    restart(page)
    panel = open_stats(page)
    expect_stats(panel, played=0, won=0)


def test_the_moves_used_here_are_legal_and_quick_to_solve() -> None:
    """The deal and moves used above are what the engine says, and each position they reach is
    solved in a few thousand nodes, as the page's solver worker searches each (no browser)."""
    game = Game(deal=DEAL)
    for m in MOVES:
        assert game.check(m) is None, m.text()
        game.play(m)
        result = Solver(game.position, game.rules).solve(max_nodes=QUICK_NODES)
        assert result.verdict == SOLVED, (m.text(), result.verdict)
