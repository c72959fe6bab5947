"""Share a game, watch the solution, the deal of the day and par, in real Chromium.

Written against the page's hooks (docs/embedding.md): ``[data-action=share]`` (the
settings panel and the win panel), the share panel ``[data-panel=share]``
with ``[data-role=share-link]``; the playback bar ``[data-panel=watch]``
(``data-state`` ``searching`` | ``playing`` | ``paused`` | ``none``,
``data-step``, ``data-total``) with ``[data-action=watch-back |
watch-play | watch-forward | watch-speed | watch-close]``, opened by
``[data-panel=hint] [data-action=watch]`` or the win panel's
``[data-action=watch-solution]``; the deal of the day ``[data-action=daily]``
and ``[data-role=daily-deal | daily-solved]`` (settings), ``[data-stat=
daily-solved | daily-streak | daily-longest]`` (statistics),
``[data-status=deal][data-daily=yes]``; par ``[data-win=par]`` with
``data-state`` and ``data-value``, and ``[data-win=daily]``.

The clipboard is a stub put in the page (``navigator.clipboard.writeText``
records what it is given), so nothing depends on the browser's permission
prompts; ``test_embed.py`` shares from a real cross-origin frame, where the
browser refuses the clipboard and the link is offered to copy by hand.
Most tests use the shared page; one boots a page of its own, in another
time zone with its clock set, to check that the deal of the
day is the same there, offline.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.deals import daily_deal
from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import Solver
from freecell.ui.address.link import game_link
from freecell.ui.analysis import playback as pb
from freecell.ui.progress.daily import KEY_DAILY, apply_win
from freecell.ui.progress.legacy import KEY_GAME

from .helpers import (
    STEP_TIMEOUT,
    board_url,
    deal_url,
    expect_game,
    expect_layout,
    expect_status,
    is_shared,
    open_page,
    play_move_on_page,
    read_layout,
    selected_cards,
    solution_lines,
    wait_ready,
)

pytestmark = pytest.mark.browser

WORKER_TIMEOUT = 120_000  # ms: the solver worker boots its own Pyodide, slow on a busy machine
ANSWER_TIMEOUT = 60_000
DAY = date(2025, 3, 14)

CLIPBOARD_JS = """
() => {
  window.__copied = [];
  Object.defineProperty(navigator, 'clipboard', {configurable: true, value: {
    writeText: async (text) => { window.__copied.push(String(text)); }}});
}
"""
UNSTUB_JS = "() => { delete navigator.clipboard; }"
# Every text the playback bar shows, in order.
TEXTS_JS = """
() => {
  const el = document.querySelector('[data-role=watch-text]');
  const texts = window.__watchTexts = [];
  // the whole bar is watched: its text may be the same as a playback's before (no change to it)
  new MutationObserver(() => {
    if (el.textContent && texts[texts.length - 1] !== el.textContent) texts.push(el.textContent);
  }).observe(el.closest('[data-panel=watch]'), {attributes: true, childList: true, characterData: true,
                                                subtree: true});
}
"""


def message(page: Any) -> Any:
    return page.locator("[data-role=message]")


def watch_bar(page: Any) -> Any:
    return page.locator("[data-panel=watch]")


def watch_step(page: Any) -> int:
    return int(watch_bar(page).get_attribute("data-step") or 0)


def wait_worker(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.worker === 'ready'",
                           timeout=WORKER_TIMEOUT)


def share(page: Any) -> str:
    """Press Share in the settings panel; the link it copied."""
    before = page.evaluate("() => window.__copied.length")
    page.locator(".actionbar [data-action=game-menu]").click()
    page.locator("[data-panel=game] [data-action=share]").click()
    page.wait_for_function("(n) => window.__copied.length > n", arg=before, timeout=STEP_TIMEOUT)
    expect(message(page)).to_have_text(re.compile("^Link copied"), timeout=STEP_TIMEOUT)
    # the panel closed, and the page stepped back over its history entry (a visit started
    # before that step would be cut short by it)
    page.wait_for_function("() => history.state !== 'freecell-panel'", timeout=STEP_TIMEOUT)
    return str(page.evaluate("() => window.__copied[window.__copied.length - 1]"))


# --- share -----------------------------------------------------------------------------------------


def test_share_copies_a_link_that_opens_the_game_at_that_move_and_undo_goes_back(
        page: Any, site: str) -> None:
    page.evaluate(CLIPBOARD_JS)
    try:
        open_page(page, deal_url(site, 617))
        game = Game(617)
        for line in solution_lines(617)[:3]:
            play_move_on_page(page, game, Move.parse(line))
        link = share(page)
        assert link == site + (game_link(game) or "?"), link
        page.keyboard.press("Escape")
        open_page(page, link)
        expect_game(page, game)
        expect(message(page)).to_have_text(f"A shared game, at move {game.moves}.")
        assert "moves=" not in page.url  # a reload goes on with the game, not the link again
        for n in range(game.moves - 1, -1, -1):
            page.locator(".actionbar [data-action=undo]").click()
            expect_status(page, "moves", n)
        expect_layout(page, Position.deal(617))
    finally:
        page.evaluate(UNSTUB_JS)


@pytest.mark.parametrize(("moves", "says"), [
    ("58.11", "cannot be played"),  # an illegal move
    ("58.zz%3Cb%3E", "cannot be played"),  # not move notation
    ("58." * 21_000, "cannot be played"),  # too long
    ("58&variant=klondike", "does not exist"),  # an unknown variant
])
def test_a_tampered_link_gives_one_line_and_the_plain_deal(
        page: Any, site: str, moves: str, says: str) -> None:
    open_page(page, f"{site}?deal=617&moves={moves}")
    expect(message(page)).to_contain_text(says, timeout=STEP_TIMEOUT)
    expect(message(page)).to_have_attribute("data-reason", "url")
    text = message(page).inner_text().strip()
    assert "\n" not in text and "<b>" not in message(page).inner_html()
    expect_layout(page, Position.deal(617))
    expect_status(page, "moves", 0)
    expect_status(page, "variant", "freecell")


# --- watch the solution ----------------------------------------------------------------------------


def test_watch_plays_pauses_steps_both_ways_stops_on_a_touch_and_undo_takes_steps_back(
        page: Any, site: str) -> None:
    open_page(page, deal_url(site, 1))
    wait_worker(page)
    expect_status(page, "winnable", "yes", timeout=ANSWER_TIMEOUT)  # the start's solution is known
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.evaluate(TEXTS_JS)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    bar = watch_bar(page)
    expect(bar).to_have_attribute("data-state", "playing", timeout=STEP_TIMEOUT)
    total = int(bar.get_attribute("data-total") or 0)
    assert total > 10
    page.wait_for_function("() => Number(document.querySelector('[data-panel=watch]').dataset.step) >= 2",
                           timeout=STEP_TIMEOUT)
    # the number of moves was on show before the first step
    shown = page.evaluate("() => window.__watchTexts")
    assert shown[:2] == [f"A solution in {total} moves", f"Move 1 of {total}"], shown
    expect(page.locator("[data-role=announce]")).to_have_text(re.compile(rf"^Move \d+ of {total}: "))
    page.keyboard.press("Space")  # pause
    expect(bar).to_have_attribute("data-state", "paused")
    k = watch_step(page)
    expect_status(page, "moves", k)
    page.wait_for_timeout(1200)  # over a step's time: nothing moves while paused
    assert watch_step(page) == k
    page.keyboard.press("ArrowRight")
    expect(bar).to_have_attribute("data-step", str(k + 1))
    expect_status(page, "moves", k + 1)
    after = read_layout(page)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(bar).to_have_attribute("data-step", str(k - 1))
    expect_status(page, "moves", k - 1)
    before = read_layout(page)
    bar.locator("[data-action=watch-forward]").click()
    bar.locator("[data-action=watch-forward]").click()
    expect_layout(page, after)
    bar.locator("[data-action=watch-speed]").click()
    expect(bar.locator("[data-action=watch-speed]")).to_have_attribute("data-value", "fast")
    bar.locator("[data-action=watch-play]").click()
    expect(bar).to_have_attribute("data-state", "playing")
    page.wait_for_function("(n) => Number(document.querySelector('[data-panel=watch]').dataset.step) > n",
                           arg=k + 1, timeout=STEP_TIMEOUT)
    # a touch on the table stops it at once, and does nothing more (a card touched is not picked
    # up); play goes on from where it stands
    card = page.evaluate("""() => { const cards = [...document.querySelectorAll('svg#table g.card')]
        .filter(c => /^[1-8]$/.test(c.dataset.pile || ''));
      const top = cards.reduce((a, c) => Number(c.dataset.index) > Number(a.dataset.index) ? c : a);
      const r = top.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }""")
    page.mouse.move(card[0], card[1])
    page.mouse.down()
    expect(bar).to_be_hidden()
    page.mouse.up()
    assert selected_cards(page) == []
    moves = int(page.locator("[data-status=moves]").get_attribute("data-value") or 0)
    assert moves > k + 1
    page.wait_for_timeout(1000)  # over two fast steps: nothing more is played
    expect_status(page, "moves", moves)
    for n in range(moves - 1, k - 2, -1):  # every step is an ordinary turn: undone one by one
        page.locator(".actionbar [data-action=undo]").click()
        expect_status(page, "moves", n)
    expect_layout(page, before)
    # the browser's Back stops a playback, as it closes a panel: the game stays where it stands
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    expect(bar).to_have_attribute("data-state", "playing", timeout=STEP_TIMEOUT)
    page.go_back()
    expect(bar).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    moves = int(page.locator("[data-status=moves]").get_attribute("data-value") or 0)
    page.wait_for_timeout(1000)  # over two fast steps: nothing more is played
    expect_status(page, "moves", moves)
    assert page.evaluate("() => history.state") != "freecell-panel"


def test_a_game_the_solver_finishes_is_solved_not_won(page: Any, site: str) -> None:
    """Show solution to the end: the panel says "Solved": the moves are "this game's", not the player's."""
    board = Position.from_text("Foundations: H-J C-K D-K S-K\nFreecells: KH QH - -\n" + ":\n" * 8)
    open_page(page, board_url(site, board))
    wait_worker(page)
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    win = page.locator("[data-panel=win]")
    expect(win).to_be_visible(timeout=STEP_TIMEOUT)
    title = win.locator("#win-title")
    expect(title).to_have_text("Solved")
    expect(title).to_have_attribute("data-i18n", "win.title_watched")  # what a change of language reads
    par = win.locator("[data-win=par]")
    expect(par).to_have_text("The solver’s own solution from the deal: 1 move, counted the same way.",
                             timeout=ANSWER_TIMEOUT)
    expect(win.locator("[data-win=streak]")).to_be_hidden()  # not the player's win: not their record
    expect(win.locator("[data-action=watch-solution]")).to_be_hidden()  # as short as the one just seen
    # the next game the player wins alone is theirs again: a tap on the queen sends it home
    win.locator("[data-action=replay]").click()
    page.locator("body").press("h")  # a key first (Chromium then rings what a script focuses)
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.locator('svg#table g.card[data-card="QH"]').click()
    expect(win).to_be_visible(timeout=STEP_TIMEOUT)
    # opened after a tap: its first button has the focus (for a screen reader) but shows no ring
    # until a key is pressed
    ring = ("() => [document.activeElement.dataset.action,"
            " getComputedStyle(document.activeElement).outlineStyle]")
    assert page.evaluate(ring) == ["new", "none"]
    page.keyboard.press("Shift")
    assert page.evaluate(ring) == ["new", "solid"]
    expect(title).to_have_text("You won!")
    expect(win.locator("[data-win=streak]")).to_be_visible()
    expect(par).to_have_text(re.compile(r"^You: 1 move,"), timeout=ANSWER_TIMEOUT)


# --- the deal of the day and par ---------------------------------------------------------------------


def test_the_daily_deal_won_counts_for_the_day_and_the_streak_and_par_shows(page: Any, site: str) -> None:
    n = daily_deal(DAY)
    start = Position.deal(n)
    steps = pb.plan(start, Solver(start, FREECELL).solve(max_nodes=300_000).moves, FREECELL)
    game = Game(n)
    for step in steps[:-1]:
        game.play(step.move)
    page.clock.set_system_time(datetime(2025, 3, 14, 12, 0))
    try:
        yesterday = apply_win(None, DAY - timedelta(days=1)).text
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY_DAILY, yesterday])
        # the player's own game of the day, left one move from the end (a friend's link that far on
        # would not be theirs to win: tests/test_robust_logic.py); the daily deal goes on with it
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY_GAME, game.to_json()])
        open_page(page, deal_url(site, 5))
        page.locator(".actionbar [data-action=game-menu]").click()
        daily = page.locator("[data-panel=game] [data-role=daily]")
        expect(daily.locator("[data-role=daily-deal]")).to_have_attribute("data-value", str(n))
        expect(daily.locator("[data-role=daily-solved]")).to_have_attribute("data-value", "no")
        daily.locator("[data-action=daily]").click()
        expect_status(page, "deal", n)
        expect(page.locator("[data-status=deal]")).to_have_attribute("data-daily", "yes")
        expect(message(page)).to_have_text(f"Deal of the day: {n}")
        expect_game(page, game)  # the player's own game of the day, kept, one move from the end
        wait_worker(page)
        play_move_on_page(page, game, steps[-1].move)
        assert game.is_won()
        win = page.locator("[data-panel=win]")
        expect(win).to_be_visible(timeout=STEP_TIMEOUT)
        expect(win.locator("[data-win=daily]")).to_have_text("Deal of the day solved. Daily streak: 2 days.")
        par = win.locator("[data-win=par]")
        expect(par).to_have_attribute("data-state", "known", timeout=ANSWER_TIMEOUT)
        value = int(par.get_attribute("data-value") or 0)
        assert 10 < value < 200
        expect(par).to_have_text(f"You: {game.moves} moves, the solver’s: {value}, counted the same way.")
        win.locator("[data-action=look]").click()
        page.locator(".actionbar [data-action=game-menu]").click()
        page.locator("[data-panel=game] [data-action=stats]").click()
        stats = page.locator("[data-panel=stats]")
        expect(stats.locator("[data-stat=daily-solved]")).to_have_attribute("data-value", "yes")
        expect(stats.locator("[data-stat=daily-streak]")).to_have_attribute("data-value", "2")
        expect(stats.locator("[data-stat=daily-longest]")).to_have_attribute("data-value", "2")
    finally:
        page.clock.set_system_time(datetime.now())


def test_the_daily_deal_is_the_same_in_another_context_far_away_offline(open_context: Any, site: str,
                                                                      page: Any) -> None:
    assert is_shared(page)
    n = daily_deal(DAY)
    # 14 March, 20:00 in Auckland is 07:00 UTC the same day
    ctx = open_context(timezone_id="Pacific/Auckland")
    other = ctx.new_page()
    other.clock.install(time=datetime(2025, 3, 14, 7, 0, tzinfo=UTC))
    other.add_init_script(f"({CLIPBOARD_JS})()")
    other.goto(site)
    wait_ready(other)
    # the solver's worker boots in its own Pyodide (no service worker here to serve it offline):
    # then the line goes down; the deal of the day is computed on the device, nothing to fetch
    other.wait_for_function("() => document.documentElement.dataset.worker === 'ready'",
                            timeout=60_000)
    ctx.set_offline(True)
    other.locator(".actionbar [data-action=game-menu]").click()
    daily = other.locator("[data-panel=game] [data-role=daily]")
    expect(daily.locator("[data-role=daily-deal]")).to_have_attribute("data-value", str(n))
    daily.locator("[data-action=daily]").click()
    expect_status(other, "deal", n)
    expect_layout(other, Position.deal(n))
    # and the shared page, in its own time zone, the same day
    page.clock.set_system_time(datetime(2025, 3, 14, 9, 30))
    try:
        open_page(page, deal_url(site, 5))
        page.locator(".actionbar [data-action=game-menu]").click()
        expect(page.locator("[data-role=daily-deal]")).to_have_attribute("data-value", str(n))
    finally:
        page.clock.set_system_time(datetime.now())
    # the link is copied offline too
    other.locator(".actionbar [data-action=game-menu]").click()
    other.locator("[data-panel=game] [data-action=share]").click()
    other.wait_for_function("() => window.__copied.length === 1", timeout=STEP_TIMEOUT)
    assert other.evaluate("() => window.__copied[0]") == f"{site}?deal={n}"
