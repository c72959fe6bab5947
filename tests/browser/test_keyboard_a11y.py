"""Keyboard play, the long-press picker and the screen-reader game, in real Chromium.

The page's accessibility contract:

* the table ``svg#table[role=application]`` has a name and a description of its keys;
  its keyboard targets are ``[role=button][aria-label]``: a column card's face
  rect (inside ``g.card[data-card]``), or a pile's ``rect.pile[data-pile]`` (free
  cells, foundations, empty columns); one of them has ``tabindex=0``;
* ``[data-role=announce]`` is a polite live region: moves, refusals (the text of
  ``[data-role=message]``), selections, hints, the win, the stuck state;
* the picker ``[data-panel=picker]`` with ``[data-role=picker-count][data-value]``
  and ``[data-action=picker-up|picker-down|picker-close]``;
* settings check boxes ``[data-setting=four-colour]`` and ``[data-setting=large-cards]``.

Keys: arrows, Home/End, Enter/Space (Shift: select only), Escape; shortcuts U, R,
Shift+U, Ctrl+Y, H, N, F.  The long press is timed with Playwright's clock
(``page.clock``), never by sleeping; axe-core (npm, pinned in package.json) is
injected from ``node_modules`` in a context that bypasses the page's CSP.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.game import Game
from freecell.piles import Move, column
from freecell.position import Position
from freecell.rules import Reason
from freecell.ui.table.focus import Target, settle
from freecell.ui.table.layout import Layout, compute_layout
from freecell.ui.text.catalogue import Catalogue
from freecell.ui.text.speech import turn_sentence
from tests.support.keyboard_plan import keys_for_move

from .helpers import (
    CARDS,
    STEP_TIMEOUT,
    board_from_parts,
    board_url,
    card_locator,
    card_point,
    deal_url,
    expect_game,
    expect_layout,
    expect_status,
    install_clock,
    open_page,
    past_double_tap,
    pile_point,
    play_move_on_page,
    read_layout,
    selected_cards,
    solution_lines,
    status_value,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
EN = Catalogue.from_json("en", (ROOT / "static" / "i18n" / "en.json").read_text(encoding="utf-8"))
LONG_PRESS_MS = 480

# Column 1 ends with the run 9H 8S 7H 6S (4 cards); two free cells empty: 3 can move.
RUN_BOARD = board_from_parts(
    {1: "9H 8S 7H 6S", 2: "TC", 3: "9D", 4: "KS", 5: "QH", 6: "JS", 7: "8C", 8: "5D"},
    cells="KC KD - -",
)
# 3D (column 1) can go home, but is no safe auto-move: Enter sends it, Shift+Enter selects it.
TAP_HOME_BOARD = board_from_parts(
    {1: "3D", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"},
    cells="3S - - -",
    foundations=(1, 2, 0, 2),
)
DEAD_BOARD = board_from_parts(
    {1: "JC", 2: "JS", 3: "TC", 4: "TS", 5: "9C", 6: "9S", 7: "8C", 8: "8S"},
    cells="KC KS QC QS",
)
FINISH_BOARD = board_from_parts(
    {1: "KC QC JC TC", 2: "KD QD JD TD", 3: "KH QH JH TH", 4: "KS QS JS TS",
     5: "9C 8C 7C", 6: "9D 8D 7D", 7: "9H 8H 7H", 8: "9S 8S 7S"},
    foundations=(6, 6, 6, 6),
)

ACTIVE_JS = """() => {
  const a = document.activeElement;
  if (!a || !document.getElementById('table').contains(a)) return null;
  const g = a.closest('[data-pile]');
  return {pile: g.getAttribute('data-pile'), index: Number(g.getAttribute('data-index') ?? -1),
          role: a.getAttribute('role'), label: a.getAttribute('aria-label'),
          tabindex: a.getAttribute('tabindex')};
}"""
RING_SHOWN_JS = """() => {
  const layer = document.querySelector('#table .focus-layer');
  return !!layer && getComputedStyle(layer).display !== 'none'
    && layer.getAttribute('visibility') !== 'hidden';
}"""


def set_theme(page: Any, theme: str) -> None:
    """The table theme, as the settings set it: ``data-theme="light"`` on <html>, or none (dark)."""
    page.evaluate("(t) => t === 'light' ? document.documentElement.setAttribute('data-theme', t)"
                  " : document.documentElement.removeAttribute('data-theme')", theme)


def open_look_settings(page: Any) -> None:
    """The settings panel, on the tab that holds the card options."""
    page.locator(".actionbar [data-action=settings]").click()
    settings = page.locator("[data-panel=settings]")
    expect(settings).to_be_visible()
    settings.locator("[data-tab=look]").click()
    expect(settings.locator("[data-setting=four-colour]")).to_be_visible()


def announce(page: Any) -> Any:
    return page.locator("[data-role=announce]")


def panel(page: Any, name: str) -> Any:
    return page.locator(f"[data-panel={name}]")


def active(page: Any) -> dict[str, Any] | None:
    result: dict[str, Any] | None = page.evaluate(ACTIVE_JS)
    return result


def focus_table(page: Any) -> None:
    """Into the table with the keyboard alone: the table is the page's first tab stop."""
    page.keyboard.press("Tab")
    page.wait_for_function(ACTIVE_JS, timeout=STEP_TIMEOUT)


def page_layout(page: Any, pos: Position) -> Layout:
    """The page's layout for ``pos``, as it computes it from its table area's box (the keys'
    geometry: with the piles beside the columns, the arrows follow the screen)."""
    box = page.evaluate("() => { const r = document.getElementById('table-area').getBoundingClientRect();"
                        " return [r.width, r.height]; }")
    return compute_layout(box[0], box[1], len(pos.cells), len(pos.columns), max(map(len, pos.columns)))


def press_keys(page: Any, keys: list[str]) -> None:
    for k in keys:
        page.keyboard.press(k)


def expect_focus(page: Any, pile: str, index: int | None = None) -> dict[str, Any]:
    page.wait_for_function(
        "([pile, index]) => { const a = (" + ACTIVE_JS + ")();"
        " return a && a.pile === pile && (index === null || a.index === index); }",
        arg=[pile, index], timeout=STEP_TIMEOUT,
    )
    got = active(page)
    assert got is not None
    return got


# --- a whole game with the keyboard -------------------------------------------------------


@pytest.mark.slow
def test_deal_1_won_with_the_keyboard_alone(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 1))
    game = Game(deal=1)
    focus_table(page)
    target = settle(Target(column(0)), game.position)
    expect_focus(page, "1", len(game.position.columns[0]) - 1)
    assert page.evaluate(RING_SHOWN_JS), "no focus ring on the table"
    lines = solution_lines(1)
    for n, line in enumerate(lines, 1):
        move = Move.parse(line)
        keys, target = keys_for_move(target, game.position, move, layout=page_layout(page, game.position))
        press_keys(page, keys)
        turn = game.play(move)
        try:
            expect_status(page, "moves", game.moves)
            expect_layout(page, game.position)
        except AssertionError as e:
            raise AssertionError(f"move {n} ({line}, keys {keys}): {e}") from None
        said = turn_sentence(EN, turn)
        if n < len(lines):
            expect(announce(page)).to_have_text(said)
            got = expect_focus(page, target.pile.text())  # the focus stays on the table
            assert got["tabindex"] == "0" and got["role"] == "button" and got["label"]
        else:
            won = f" You won in {len(lines)} moves"
            expect(announce(page)).to_have_text(re.compile("^" + re.escape(said) + won))
    assert game.is_won()
    win = panel(page, "win")
    expect(win).to_be_visible()
    expect_status(page, "home", 52)
    # the focus went into the win panel; looking at the table gives it back to the table
    assert page.evaluate("() => !!document.activeElement.closest('[data-panel=win]')")
    page.keyboard.press("Escape")
    expect(win).to_be_hidden()
    page.wait_for_function(ACTIVE_JS, timeout=STEP_TIMEOUT)


# --- keys -----------------------------------------------------------------------------------


def test_arrows_enter_escape_and_shift_enter(page: Any, site: str) -> None:
    open_page(page, board_url(site, TAP_HOME_BOARD))
    game = Game(position=TAP_HOME_BOARD)
    focus_table(page)
    n1 = len(TAP_HOME_BOARD.columns[0])
    got = expect_focus(page, "1", n1 - 1)
    assert got["label"] == f"three of diamonds, column 1, card {n1} of {n1}"
    page.keyboard.press("ArrowUp")
    got = expect_focus(page, "1", n1 - 2)
    assert re.fullmatch(rf".+, column 1, card {n1 - 1} of {n1}", got["label"])
    page.keyboard.press("End")
    expect_focus(page, "8")
    page.keyboard.press("Home")
    got = expect_focus(page, "a")
    assert got["label"] == "free cell a: three of spades"
    # the piles stand beside the columns (1280x720): the arrows follow the screen
    for want in ("b", "c", "d"):
        page.keyboard.press("ArrowDown")  # down the stack of free cells
        expect_focus(page, want)
    page.keyboard.press("ArrowRight")  # across to column 1
    expect_focus(page, "1")
    page.keyboard.press("End")
    expect_focus(page, "8")
    # across from column 8's exposed card (its fifth), the foundation level with it; then up the stack
    for want, key in (("h3", "ArrowRight"), ("h2", "ArrowUp")):
        page.keyboard.press(key)
        got = expect_focus(page, want)
    assert got["label"] == "foundation diamonds: two of diamonds"
    page.keyboard.press("ArrowLeft")
    expect_focus(page, "8")
    # Shift+Enter selects a card that Enter would send home; Escape drops it
    press_keys(page, ["Home", "ArrowRight"])
    expect_focus(page, "1")
    page.keyboard.press("Shift+Enter")
    expect(card_locator(page, "3D")).to_have_class(re.compile(r"\bselected\b"))
    expect(announce(page)).to_have_text("three of diamonds selected")
    assert active(page)["label"].endswith(", selected")  # type: ignore[index]
    page.keyboard.press("Escape")
    expect(announce(page)).to_have_text("Selection cancelled")
    assert selected_cards(page) == []
    expect_game(page, game)
    # Enter sends it home; the focus stays on column 1
    page.keyboard.press("Enter")
    game.play(Move.parse("1h"))
    expect_game(page, game)
    expect(announce(page)).to_have_text("three of diamonds to its foundation")
    expect_focus(page, "1")
    # Space works as Enter: the free cell's 3S goes home too
    page.keyboard.press("Home")
    page.keyboard.press(" ")
    game.play(Move.parse("ah"))
    expect_game(page, game)
    got = expect_focus(page, "a")
    assert got["label"] == "free cell a, empty"


def test_the_live_region_says_a_move_and_a_refusal(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 1))
    region = announce(page)
    assert region.get_attribute("aria-live") == "polite"
    game = Game(deal=1)
    focus_table(page)
    # 9C (column 2) onto 10C (column 8): refused, colours must alternate
    press_keys(page, ["ArrowRight", "Enter"])
    expect(region).to_have_text("nine of clubs selected")
    press_keys(page, ["ArrowRight"] * 6 + ["Enter"])
    message = page.locator("[data-role=message]")
    expect(message).to_have_attribute("data-reason", Reason.WRONG_COLOUR.value)
    refused = game.check(Move.parse("28"))
    assert refused is not None
    refusal = EN.refusal(refused)  # the sentence with the real cards: 9♣ goes on 10♦ or 10♥, not on 10♣
    assert "9♣" in refusal and "10♣" in refusal
    expect(message).to_have_text(refusal)
    expect(region).to_have_text(refusal)
    expect_game(page, game)
    expect_focus(page, "8")
    # the same refusal again is said again (a new node in the region)
    press_keys(page, ["Home", "ArrowRight", "ArrowRight", "Enter"])  # free cell a, columns 1 and 2
    expect(region).to_have_text("nine of clubs selected")
    press_keys(page, ["End", "Enter"])
    expect(region).to_have_text(refusal)
    # a move: 6H (column 4) to a free cell, said with its auto-moves if any
    press_keys(page, ["Home", *["ArrowRight"] * 4, "Enter", "Home", "Enter"])
    turn = game.play(Move.parse("4a"))
    expect_game(page, game)
    expect(region).to_have_text(turn_sentence(EN, turn))
    assert turn_sentence(EN, turn).startswith("six of hearts to free cell a")


def test_shortcuts(page: Any, site: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    game = Game(position=RUN_BOARD)
    focus_table(page)
    # 8S 7H 6S onto 9D: Up twice, Enter, to column 3, Enter
    press_keys(page, ["ArrowUp", "ArrowUp", "Enter", "ArrowRight", "ArrowRight", "Enter"])
    game.play(Move.parse("13x3"))
    expect_game(page, game)
    expect(announce(page)).to_have_text("3 cards headed by eight of spades to column 3")
    for undo, redo in (("u", "r"), ("u", "Shift+U"), ("u", "Control+y")):
        page.keyboard.press(undo)
        expect_layout(page, RUN_BOARD)
        expect_status(page, "moves", 0)
        expect_focus(page, "3")  # the focus stays on the table through an undo
        page.keyboard.press(redo)
        expect_game(page, game)
    # chords that are the browser's do nothing here
    for chord in ("Control+u", "Alt+u", "Meta+u", "Control+n"):
        page.keyboard.press(chord)
    expect_game(page, game)
    # a key whose button is greyed (or hidden) says why it does nothing: a key shows no sign
    page.keyboard.press("r")
    expect(announce(page)).to_have_text("Nothing to redo")
    page.keyboard.press("f")
    expect(announce(page)).to_have_text(EN.t("msg.finish_not_yet"))
    expect_game(page, game)
    # H: the hint bar
    page.keyboard.press("h")
    bar = panel(page, "hint")
    expect(bar).to_be_visible(timeout=STEP_TIMEOUT)
    expect(bar).to_have_attribute("data-state", re.compile(r"^(found|fallback|unsolvable|unavailable)$"),
                                  timeout=30_000)
    expect(announce(page)).to_have_text(bar.locator("[data-role=hint-text]").inner_text())
    page.keyboard.press("Escape")
    expect(panel(page, "hint")).to_be_hidden()
    # no shortcut while typing in a field
    page.locator(".actionbar [data-action=game-menu]").click()
    field = panel(page, "game").locator("[data-field=deal]")
    field.click()
    page.keyboard.type("unhf")
    expect(field).to_have_value("unhf")
    expect_game(page, game)
    page.keyboard.press("Escape")
    expect(panel(page, "game")).to_be_hidden()
    # N: a new deal (the focus is back on the Game button)
    page.keyboard.press("n")
    expect(page.locator("[data-status=deal]")).to_have_attribute("data-value", re.compile(r"^\d+$"))
    n = int(status_value(page, "deal"))
    expect_layout(page, Position.deal(n))
    expect_status(page, "moves", 0)


def test_f_finishes(page: Any, site: str) -> None:
    open_page(page, board_url(site, FINISH_BOARD))
    finish = page.locator(".actionbar [data-action=finish]")
    expect(finish).to_be_visible()
    focus_table(page)
    page.keyboard.press("f")
    expect(panel(page, "win")).to_be_visible(timeout=30_000)
    expect_status(page, "home", 52)
    expect(announce(page)).to_have_text(re.compile(r"^You won in \d+ moves"))


# --- focus is never lost ---------------------------------------------------------------------


def test_focus_comes_back_after_panels_and_undo(page: Any, site: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    focus_table(page)
    # a panel opened from a button gives the focus back to it, by Escape or by its close button
    rules = page.locator(".actionbar [data-action=rules]")
    rules.focus()
    page.keyboard.press("Enter")
    expect(panel(page, "rules")).to_be_visible()
    # the focus on its text, so that Page Down scrolls it at once (on its close button it did not)
    expect(panel(page, "rules").locator("#rules-body")).to_be_focused()
    body = panel(page, "rules")
    top = body.evaluate("(p) => p.scrollTop + p.querySelector('#rules-body').scrollTop")
    page.keyboard.press("PageDown")
    scrolled = """(top) => { const p = document.querySelector('[data-panel=rules]');
        return p.scrollTop + p.querySelector('#rules-body').scrollTop > top; }"""
    page.wait_for_function(scrolled, arg=top, timeout=STEP_TIMEOUT)
    page.keyboard.press("Escape")
    expect(panel(page, "rules")).to_be_hidden()
    expect(rules).to_be_focused()
    settings = page.locator(".actionbar [data-action=settings]")
    settings.focus()
    page.keyboard.press("Enter")
    expect(panel(page, "settings")).to_be_visible()
    # Tab and Shift+Tab go round within the open panel, never to the table behind it (where keys
    # do nothing while it is open)
    inside = "() => !!document.activeElement.closest('[data-panel=settings]')"
    for key in ["Tab"] * 12 + ["Shift+Tab"] * 12:
        page.keyboard.press(key)
        assert page.evaluate(inside), key
    panel(page, "settings").locator("[data-action=close]").focus()
    page.keyboard.press("Enter")
    expect(panel(page, "settings")).to_be_hidden()
    expect(settings).to_be_focused()
    # the Undo button goes disabled under the focus: the focus goes to the table
    page.locator("#table [tabindex='0']").focus()
    expect_focus(page, "1")
    press_keys(page, ["Enter", "Home", "ArrowDown", "ArrowDown", "Enter"])  # 6S to free cell c
    expect_status(page, "moves", 1)
    undo = page.locator(".actionbar [data-action=undo]")
    undo.focus()
    page.keyboard.press("Enter")
    expect_status(page, "moves", 0)
    expect(undo).to_be_disabled()
    page.wait_for_function(ACTIVE_JS, timeout=STEP_TIMEOUT)
    # a panel that opens by itself (stuck) gives the focus back to the table
    open_page(page, board_url(site, DEAD_BOARD))
    expect(panel(page, "stuck")).to_be_visible()
    expect(announce(page)).to_have_text(EN.t("say.stuck_start"))  # no move made: a new deal only
    page.keyboard.press("Escape")
    expect(panel(page, "stuck")).to_be_hidden()
    page.wait_for_function(ACTIVE_JS, timeout=STEP_TIMEOUT)
    assert page.evaluate(RING_SHOWN_JS)


def test_a_pointer_tap_moves_the_keyboard_target(page: Any, site: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    focus_table(page)
    page.mouse.click(*card_point(page, "TC"))
    expect(card_locator(page, "TC")).to_have_class(re.compile(r"\bselected\b"))
    page.wait_for_function("() => { const a = document.querySelector('#table [tabindex=\"0\"]');"
                           " return a && a.closest('[data-card]')?.getAttribute('data-card') === 'TC'; }")
    page.keyboard.press("Escape")
    assert selected_cards(page) == []


# --- the long-press picker ------------------------------------------------------------------


def _pause_clock(page: Any) -> None:
    """Stop the page's time: from here only ``run_for`` moves it (points found beforehand)."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # Python takes seconds


def _centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _long_press(page: Any, x: float, y: float) -> None:
    page.mouse.move(x, y)
    page.mouse.down()
    page.clock.run_for(LONG_PRESS_MS - 180)
    expect(panel(page, "picker")).to_be_hidden()  # not yet
    page.clock.run_for(200)
    expect(panel(page, "picker")).to_be_visible()


def _picker_count(page: Any) -> Any:
    return panel(page, "picker").locator("[data-role=picker-count]")


def _slide_to(page: Any, action: str) -> None:
    page.mouse.move(*_centre(page, f"[data-panel=picker] [data-action={action}]"), steps=4)


def _open_picker_page(page: Any, site: str) -> tuple[float, float]:
    install_clock(page)
    open_page(page, board_url(site, RUN_BOARD))
    expect_layout(page, RUN_BOARD)
    at = card_point(page, "6S", frac=0.5)
    _pause_clock(page)
    return at


def test_long_press_picks_one_two_and_the_most(page: Any, site: str) -> None:
    at = _open_picker_page(page, site)
    count = _picker_count(page)
    # one: a long press and a release where it was
    _long_press(page, *at)
    expect(count).to_have_attribute("data-value", "1")
    expect(count).to_have_text("1 card")
    page.mouse.up()
    expect(panel(page, "picker")).to_be_hidden()
    assert selected_cards(page) == ["6S"]
    assert status_value(page, "moves") == "0"
    # two: slide onto the up arrow once, release there
    _long_press(page, *at)
    _slide_to(page, "picker-up")
    expect(count).to_have_attribute("data-value", "2")
    assert selected_cards(page) == ["6S", "7H"]  # the would-be selection shows
    page.mouse.up()
    expect(panel(page, "picker")).to_be_hidden()
    assert selected_cards(page) == ["6S", "7H"]
    # the most: on and off the up arrow until it stops at the whole sequence
    _long_press(page, *at)
    for want in ("2", "3", "4"):
        _slide_to(page, "picker-up")
        expect(count).to_have_attribute("data-value", want)
        page.mouse.move(*_centre(page, "[data-panel=picker] [data-role=picker-count]"), steps=2)
    expect(panel(page, "picker").locator("[data-action=picker-up]")).to_be_disabled()
    _slide_to(page, "picker-up")
    expect(count).to_have_attribute("data-value", "4")
    _slide_to(page, "picker-down")  # and back down one
    expect(count).to_have_attribute("data-value", "3")
    expect(count).to_have_text("3 cards")
    page.mouse.up()
    assert selected_cards(page) == ["6S", "7H", "8S"]
    expect(announce(page)).to_have_text("3 cards selected, headed by eight of spades")
    # nothing moved until now; a tap on a destination plays the selection
    page.clock.resume()
    expect_layout(page, RUN_BOARD)
    expect_status(page, "moves", 0)
    page.mouse.click(*pile_point(page, "3"))
    game = Game(position=RUN_BOARD)
    game.play(Move.parse("13x3"))
    expect_game(page, game)


def test_long_press_picker_closes_by_button_and_by_escape(page: Any, site: str) -> None:
    at = _open_picker_page(page, site)
    page.clock.resume()
    tc = card_point(page, "TC")
    _pause_clock(page)
    page.mouse.click(*tc)  # a selection made before: neither way of closing touches it
    expect(card_locator(page, "TC")).to_have_class(re.compile(r"\bselected\b"))
    before = read_layout(page)
    # the close button: slide onto it and release
    _long_press(page, *at)
    _slide_to(page, "picker-up")
    expect(_picker_count(page)).to_have_attribute("data-value", "2")
    _slide_to(page, "picker-close")
    page.mouse.up()
    expect(panel(page, "picker")).to_be_hidden()
    assert selected_cards(page) == ["TC"]
    assert read_layout(page) == before and status_value(page, "moves") == "0"
    # Escape while the button is still down; the release then does nothing
    _long_press(page, *at)
    page.keyboard.press("Escape")
    expect(panel(page, "picker")).to_be_hidden()
    assert selected_cards(page) == ["TC"]
    page.mouse.up()
    assert selected_cards(page) == ["TC"]
    assert read_layout(page) == before and status_value(page, "moves") == "0"


def test_moving_beyond_the_slop_is_a_drag_not_a_long_press(page: Any, site: str) -> None:
    x, y = _open_picker_page(page, site)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 20, y + 20, steps=3)
    expect(card_locator(page, "6S")).to_have_class(re.compile(r"\bdragging\b"))
    page.clock.run_for(LONG_PRESS_MS * 2)
    expect(panel(page, "picker")).to_be_hidden()
    page.mouse.move(x, y, steps=3)
    page.mouse.up()
    expect(page.locator(f"{CARDS}.dragging")).to_have_count(0)
    assert status_value(page, "moves") == "0"


def test_long_press_by_touch(touch_page: Any, site: str) -> None:
    page = touch_page
    x, y = _open_picker_page(page, site)
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, px: float | None = None, py: float | None = None) -> None:
        points = [] if px is None else [{"x": px, "y": py, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x, y)
    page.clock.run_for(LONG_PRESS_MS + 20)
    expect(panel(page, "picker")).to_be_visible()
    ux, uy = _centre(page, "[data-panel=picker] [data-action=picker-up]")
    for k in range(1, 5):
        touch("touchMove", x + (ux - x) * k / 4, y + (uy - y) * k / 4)
    expect(_picker_count(page)).to_have_attribute("data-value", "2")
    touch("touchEnd")
    expect(panel(page, "picker")).to_be_hidden()
    assert selected_cards(page) == ["6S", "7H"]
    assert status_value(page, "moves") == "0"


# --- axe-core -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def axe_source() -> Path:
    if not AXE.exists():  # a checkout where only the runtime was installed
        npm = shutil.which("npm")
        assert npm, "npm is needed to install axe-core (package.json devDependencies)"
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    assert AXE.exists()
    return AXE


def axe_violations(page: Any, axe: Path) -> list[str]:
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated by the test tool, as the page's policy allows no script tag of ours
        page.evaluate(axe.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async () => (await axe.run(document)).violations.map(v =>
             v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))"""
    )
    return list(found)


def _near_win() -> tuple[Position, Move]:
    game = Game(deal=1)
    lines = solution_lines(1)
    for line in lines[:-1]:
        game.play(Move.parse(line))
    return game.position, Move.parse(lines[-1])


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_violation(page: Any, site: str, axe_source: Path, theme: str) -> None:
    open_page(page, deal_url(site, 617))
    set_theme(page, theme)
    report: dict[str, list[str]] = {}
    focus_table(page)
    press_keys(page, ["ArrowUp", "Enter"])  # a focused, selected sequence
    report["table"] = axe_violations(page, axe_source)
    page.locator(".actionbar [data-action=settings]").click()
    expect(panel(page, "settings")).to_be_visible()
    report["settings"] = axe_violations(page, axe_source)
    page.keyboard.press("Escape")
    page.locator(".actionbar [data-action=rules]").click()
    expect(panel(page, "rules")).to_be_visible()
    report["rules"] = axe_violations(page, axe_source)
    page.keyboard.press("Escape")
    pos, last = _near_win()
    open_page(page, board_url(site, pos))
    set_theme(page, theme)
    play_move_on_page(page, Game(position=pos), last)
    expect(panel(page, "win")).to_be_visible()
    report["win"] = axe_violations(page, axe_source)
    open_page(page, board_url(site, DEAD_BOARD))
    set_theme(page, theme)
    expect(panel(page, "stuck")).to_be_visible()
    report["stuck"] = axe_violations(page, axe_source)
    assert {k: v for k, v in report.items() if v} == {}, json.dumps(report, indent=1)


def test_axe_with_the_picker_open(page: Any, site: str, axe_source: Path) -> None:
    at = _open_picker_page(page, site)
    _long_press(page, *at)
    page.clock.resume()  # axe-core runs on timers of its own
    assert axe_violations(page, axe_source) == []
    page.keyboard.press("Escape")
    page.mouse.up()


# --- inclusion: motion, colours, large cards --------------------------------------------------


def test_reduced_motion_turns_animations_off(page: Any, site: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    open_page(page, deal_url(site, 617))
    focus_table(page)
    press_keys(page, ["ArrowRight"] * 4 + ["Enter", "ArrowRight", "ArrowRight", "ArrowRight", "Enter"])
    expect_status(page, "moves", 1)  # JC onto QH
    assert page.evaluate("() => document.getAnimations().length") == 0
    duration = "() => getComputedStyle(document.querySelector('g.card')).transitionDuration"
    assert page.evaluate(duration) == "0s"


# The ink of a card's rank: the sprite's elements are inside its <use>, so a probe with the
# rank's classes in the card's group (it inherits the same custom properties) reads it.
INK_JS = """(c) => { const g = document.querySelector(`g.card[data-card='${c}']`);
  const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  t.setAttribute('class', 'card-rank suit-' + c.slice(-1).toLowerCase());
  g.appendChild(t); const fill = getComputedStyle(t).fill; t.remove(); return fill; }"""

CONTRAST_JS = """([cardsel]) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(lin); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const out = {};
  // The printed ranks and suits are the sprite's, inside each card's <use>: a probe with the
  // same classes, in the card's group, gets the same ink (the custom properties it inherits).
  for (const g of document.querySelectorAll(cardsel)) {
    const bg = rgb(getComputedStyle(g.querySelector('.card-bg')).fill);
    const suit = 'suit-' + g.dataset.card.slice(-1).toLowerCase();
    for (const cls of ['card-rank ' + suit, 'card-suit ' + suit]) {
      const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      t.setAttribute('class', cls);
      g.appendChild(t);
      out[g.dataset.card + ' ' + cls] = ratio(rgb(getComputedStyle(t).fill), bg);
      t.remove();
    }
  }
  const felt = rgb(getComputedStyle(document.body).backgroundColor);
  const root = getComputedStyle(document.documentElement);
  const probe = document.createElement('div');
  document.body.appendChild(probe);
  const over = (name) => { probe.style.color = root.getPropertyValue(name);
    const c = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
    const a = c.length > 3 ? c[3] : 1; return c.slice(0, 3).map((v, i) => v * a + felt[i] * (1 - a)); };
  out['pile edge on felt'] = ratio(over('--pile-edge'), felt);
  out['foundation mark on felt'] = ratio(over('--pile-label'), felt);
  out['focus ring on felt'] = ratio(over('--focus'), felt);
  const white = [255, 255, 255];
  out['focus halo on a card'] = Math.max(ratio(over('--focus-halo'), white), ratio(over('--focus'), white));
  probe.remove();
  return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_card_and_table_colours_meet_aa(page: Any, site: str, theme: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    set_theme(page, theme)
    for four in (False, True):
        if four:
            open_look_settings(page)
            page.locator("[data-setting=four-colour]").check()
            page.keyboard.press("Escape")
        past_double_tap(page)  # a tap of its own, not the second of a double tap
        page.mouse.click(*card_point(page, "8S"))  # three cards selected: the tinted face too
        expect(card_locator(page, "8S")).to_have_class(re.compile(r"\bselected\b"))
        ratios = page.evaluate(CONTRAST_JS, [CARDS])
        page.keyboard.press("Escape")
        low = {k: round(v, 2) for k, v in ratios.items()
               if v < (3.0 if k.endswith("felt") or "halo" in k or "card-suit" in k else 4.5)}
        assert low == {}, f"{theme}, four colours {four}: {low}"


def test_four_colours_and_large_cards_apply_at_once(page: Any, site: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    open_look_settings(page)
    fill = INK_JS
    assert page.evaluate(fill, "TC") == page.evaluate(fill, "KS")  # black and black
    page.locator("[data-setting=four-colour]").check()
    page.wait_for_function(f"() => ({fill})('TC') !== ({fill})('KS')")
    assert page.evaluate(fill, "9D") != page.evaluate(fill, "QH")  # diamonds no longer red
    # the rank's size against the card's width: the face's symbol (its viewBox is the card)
    size = ("(c) => { const use = document.querySelector(`g.card[data-card='${c}'] use`);"
            " const face = document.querySelector(use.getAttribute('href'));"
            " return Number(face.querySelector('.card-rank').getAttribute('font-size'))"
            " / face.viewBox.baseVal.width; }")
    assert page.evaluate(size, "6S") < 0.45
    page.locator("[data-setting=large-cards]").check()
    page.wait_for_function(f"() => ({size})('6S') > 0.45")
    page.keyboard.press("Escape")
    expect_layout(page, RUN_BOARD)
    # the whole table still fits
    inside = page.evaluate("""() => { const t = document.getElementById('table').getBoundingClientRect();
      return Array.from(document.querySelectorAll('g.card')).every(g => { const r = g.getBoundingClientRect();
        return r.left >= t.left - 1 && r.right <= t.right + 1 && r.bottom <= t.bottom + 1; }); }""")
    assert inside
    open_look_settings(page)
    page.locator("[data-setting=four-colour]").uncheck()
    page.wait_for_function(f"() => ({fill})('TC') === ({fill})('KS')")


# --- names ------------------------------------------------------------------------------------


def test_table_and_pile_names(page: Any, site: str) -> None:
    open_page(page, board_url(site, RUN_BOARD))
    table = page.locator("svg#table")
    expect(table).to_have_attribute("role", "application")
    expect(table).to_have_accessible_name("FreeCell table")
    expect(table).to_have_accessible_description(re.compile(r"arrows.+Enter.+Escape", re.S))
    buttons = page.locator("svg#table [role=button]")
    n_column_cards = sum(len(c) for c in RUN_BOARD.columns)
    expect(buttons).to_have_count(n_column_cards + 8)  # column cards, free cells, foundations
    expect(page.locator("svg#table [tabindex='0']")).to_have_count(1)
    names = page.evaluate("() => Array.from(document.querySelectorAll('#table [role=button]'))"
                          ".map(b => b.getAttribute('aria-label'))")
    assert "free cell a: king of clubs" in names and "free cell c, empty" in names
    assert "foundation hearts, empty" in names
    n = len(RUN_BOARD.columns[0])
    assert f"seven of hearts, column 1, card {n - 1} of {n}" in names
    assert page.locator("#table [aria-hidden=true] [role=button]").count() == 0
