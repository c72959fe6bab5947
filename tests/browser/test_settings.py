"""The settings panel, the six languages and the variants, in real Chromium.

Written against the page's hooks:

* the panel ``[data-panel=settings]``, its tabs ``[role=tab][data-tab=game|play|look]``
  and their ``[role=tabpanel][data-tab-panel=...]``;
* its controls by ``data-field`` (the names they are stored under in
  ``freecell.settings``, :data:`freecell.ui.progress.settings.FLAG_SETTINGS` and
  :data:`~freecell.ui.progress.settings.CHOICE_SETTINGS`): check boxes ``auto-move``,
  ``score``, ``foundation-return``, ``winnability``, ``timer``, ``four-colour``,
  ``large-cards``, ``left-handed``; lists ``variant``, ``deal-source``,
  ``tap``, ``speed``, ``theme``, ``language``;
* ``<html data-theme="dark|light" data-speed="normal|fast|off">``, classes
  ``four-colour``, ``large-cards``, ``left-handed`` on ``svg#table``;
* ``[data-status=score]``, ``[data-status=time]`` and ``[data-status=variant]`` (raw values
  in ``data-value``);
* the address ``?deal=N&variant=ID`` and ``?board=TEXT&variant=ID``;
* the rules panel's variants section (``h4[data-variant=ID]``).

Each setting is shown to do what it says, then the page starts again and the
setting must still be there and still act: a real reload for what static/boot.js
applies before Python (the theme, the speed) and for the variant, else the page's
Python started anew in the same runtime, which reads the settings and the game
from storage as a reload does (a boot less each; test_persist.py reloads for real).
Expected positions come from the engine.  Everything waits on conditions, never on
time.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.cards import card_text, parse_card
from freecell.game import Game
from freecell.piles import CELL_NAMES, COLUMN_NAMES, Move, column, foundation
from freecell.position import Position
from freecell.ui.progress.settings import CHOICE_SETTINGS, FLAG_SETTINGS, KEY_SETTINGS, LANGUAGES
from freecell.ui.table.table import TableState
from freecell.ui.text.catalogue import LANGUAGE_NAMES
from freecell.variants import VARIANTS
from freecell.worker import Service

from .helpers import (
    STEP_TIMEOUT,
    before_load,
    board_from_parts,
    board_url,
    card_locator,
    click_card,
    click_pile,
    deal_url,
    drag_card_to_pile,
    expect_layout,
    expect_status,
    open_page,
    past_double_tap,
    play_move_on_page,
    restart,
    status_locator,
    status_value,
    wait_ready,
)

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "static" / "i18n"
browser = pytest.mark.browser
HINT_TIMEOUT = 60_000  # the solver worker boots after the page (about 4 s, more on a busy machine)

# --- boards ------------------------------------------------------------------------------

# 5H covers AS; 5H goes onto 6C (column 2), 4S onto 5H after that, JC onto QH.
# Nothing else can go home: the other exposed cards are high.
PLAY_BOARD = board_from_parts(
    {1: "AS 5H", 2: "6C", 3: "4S", 4: "KD", 5: "KC", 6: "QS", 7: "QH", 8: "JC"},
)
# AH exposed: a tap sends it home (+10); 5H beneath it is no safe auto-move.
SCORE_BOARD = board_from_parts(
    {1: "5H AH", 2: "6C", 3: "4S", 4: "KD", 5: "KC", 6: "QS", 7: "QH", 8: "JC"},
)
# Clubs home up to 5C; 6D (column 2) takes 5C back, then 5H (column 3) takes 4C.
# No red card is home, so neither comes back up by itself.
RETURN_BOARD = board_from_parts(
    {1: "KS", 2: "6D", 3: "5H", 4: "KD", 5: "QS", 6: "QH", 7: "JS", 8: "9D"},
    foundations=(5, 0, 0, 0),
)
# Baker's Game: 5H (column 1) cannot go on 6C (column 2), as it could in FreeCell.
BAKERS_BOARD = board_from_parts(
    {1: "5H", 2: "6C", 3: "KS", 4: "KD", 5: "QS", 6: "QH", 7: "JS", 8: "9D"},
)


def _eightoff_board() -> Position:
    """Eight Off with column 1 empty and 5H, no king, on top of column 2."""
    rest = [c for c in range(52) if c != parse_card("5H")]
    cols: list[list[int]] = [[] for _ in range(7)]
    for i, c in enumerate(rest):
        cols[i % 7].append(c)
    cols[0].append(parse_card("5H"))
    rules = VARIANTS["eightoff"].rules
    return Position(((), *(tuple(c) for c in cols)), (None,) * 8).validate(rules)


EIGHTOFF_BOARD = _eightoff_board()

COUNT_MOTION_JS = """
window.__fc_motion = {animate: [], css: 0};
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__fc_motion.animate.push(typeof options === 'number' ? options : (options && options.duration));
  return animate.call(this, frames, options);
};
for (const type of ['transitionrun', 'animationstart']) {
  document.addEventListener(type, () => { window.__fc_motion.css += 1; }, true);
}
"""

RUNNING_JS = """() => document.getAnimations().filter(a => a.playState === 'running').length"""


# --- helpers -------------------------------------------------------------------------------


def settings_panel(page: Any) -> Any:
    return page.locator("[data-panel=settings]")


def open_settings(page: Any, tab: str = "game") -> Any:
    panel = settings_panel(page)
    if panel.is_hidden():
        page.locator(".actionbar [data-action=settings]").click()
    expect(panel).to_be_visible(timeout=STEP_TIMEOUT)
    panel.locator(f"[role=tab][data-tab={tab}]").click()
    expect(panel.locator(f"[role=tabpanel][data-tab-panel={tab}]")).to_be_visible()
    return panel


def open_game_menu(page: Any) -> Any:
    """The game menu (its own panel: the deal number, the deal of the day, ...), open."""
    menu = page.locator("[data-panel=game]")
    if menu.is_hidden():
        page.locator(".actionbar [data-action=game-menu]").click()
    expect(menu).to_be_visible(timeout=STEP_TIMEOUT)
    return menu


def close_settings(page: Any) -> None:
    settings_panel(page).locator("[data-action=close]").click()
    expect(settings_panel(page)).to_be_hidden()


def set_flag(page: Any, tab: str, name: str, on: bool) -> None:
    box = open_settings(page, tab).locator(f"input[type=checkbox][data-field={name}]")
    box.set_checked(on)
    expect(box).to_be_checked(checked=on)
    close_settings(page)


def set_choice(page: Any, tab: str, name: str, value: str) -> None:
    select = open_settings(page, tab).locator(f"select[data-field={name}]")
    select.select_option(value)
    expect(select).to_have_value(value)
    close_settings(page)


def stored_settings(page: Any) -> dict[str, Any]:
    text = page.evaluate("(k) => localStorage.getItem(k)", KEY_SETTINGS)
    assert text, "the settings were not stored"
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def reload(page: Any) -> None:
    """A real reload: for what static/boot.js applies before Python (the theme, the speed) and the
    variant of the address."""
    page.reload()
    wait_ready(page)


def variant_url(site: str, deal: int, variant: str) -> str:
    return f"{deal_url(site, deal)}&variant={variant}"


def board_variant_url(site: str, board: Position, variant: str) -> str:
    return f"{board_url(site, board)}&variant={variant}"


def pile_names(page: Any) -> list[str]:
    return list(page.evaluate("() => Array.from(document.querySelectorAll('svg#table g#piles rect.pile'))"
                              ".map(r => r.dataset.pile)"))


def box_of(page: Any, selector: str) -> dict[str, float]:
    return dict(page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().toJSON()", selector))


def catalogue(lang: str) -> dict[str, str]:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


# --- plain checks (no browser) ---------------------------------------------------------------


class _Controls(HTMLParser):
    """The settings controls of index.html: check boxes, and lists with their options."""

    def __init__(self) -> None:
        super().__init__()
        self.flags: dict[str, bool] = {}
        self.choices: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        field = a.get("data-field")
        if tag == "input" and a.get("type") == "checkbox" and field:
            self.flags[field] = "checked" in a
        elif tag == "select" and field:
            self._select = field
            self.choices[field] = []
        elif tag == "option" and self._select is not None:
            self.choices[self._select].append(a.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def test_the_panel_offers_exactly_the_settings_kept() -> None:
    """Every control is kept, every kept setting has a control, with the same values and defaults."""
    controls = _Controls()
    controls.feed((ROOT / "index.html").read_text(encoding="utf-8"))
    assert controls.flags == FLAG_SETTINGS  # the check boxes start at the defaults
    assert set(controls.choices) == set(CHOICE_SETTINGS)
    for name, values in controls.choices.items():
        if name == "language":
            assert values == []  # filled from the catalogue list by the page
        else:
            assert tuple(values) == CHOICE_SETTINGS[name], name
    assert tuple(controls.choices["variant"]) == tuple(VARIANTS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hints_name_the_buttons(lang: str) -> None:
    """The variant's hint line says how to start it, with the buttons' own words."""
    t = catalogue(lang)
    assert t["action.new"] in t["settings.variant_hint"]
    assert t["action.play_deal"] in t["settings.variant_hint"]
    assert t["action.game_menu"] in t["settings.variant_hint"]  # where Play is now
    assert "15" in t["settings.foundation_return_cost"]
    assert t["action.settings"] in t["rules.variants.intro"]


@pytest.mark.parametrize("variant", ["eightoff", "seahaven"])
def test_the_worker_reads_a_variant_board(variant: str) -> None:
    """8 free cells or 10 columns go through the worker's board text and back, and get solved."""
    game = Game(2, variant=variant, auto_move=False)  # the solution lists every move home
    text = game.position.to_text()
    assert Position.from_text(text, game.rules) == game.position
    service = Service()
    assert service.receive(json.dumps({"type": "solve", "id": 1, "board": text,
                                       "rules": game.rules.to_json(), "budget_ms": 5000})) == []
    replies: list[dict[str, Any]] = []
    while service.busy:
        replies += [m for m in service.step() if m["type"] == "result"]
    assert replies[-1]["verdict"] == "solved"
    for m in replies[-1]["moves"]:
        game.play(Move.from_json(m))
    assert game.is_won()


def test_bakers_deal_22_is_lost_where_freecell_deal_22_is_won() -> None:
    from freecell.solver import Solver

    assert Game(22, variant="bakers").position == Game(22).position
    assert Solver(Game(22).position, Game(22).rules).run(max_nodes=50_000).verdict == "solved"  # type: ignore[union-attr]
    bakers = Game(22, variant="bakers")
    assert Solver(bakers.position, bakers.rules).run(max_nodes=50_000).verdict == "unsolvable"  # type: ignore[union-attr]


def test_the_boards_here_are_what_the_tests_need() -> None:
    game = Game(position=PLAY_BOARD)
    exposed = len(PLAY_BOARD.columns[0]) - 1
    assert TableState(game, smart=True).smart_move(column(0), exposed) == Move.parse("12")
    turn = game.play(Move.parse("12"))
    assert [m.text() for m in turn.auto][:1] == ["1h"]  # AS goes home by itself
    manual = Game(position=PLAY_BOARD, auto_move=False)
    assert manual.play(Move.parse("12")).auto == ()
    scored = Game(position=SCORE_BOARD)
    scored.play(Move.parse("1h"))
    assert scored.score == 10
    back = Game(position=RETURN_BOARD)
    assert back.check(Move(foundation(0), column(1))) is not None
    back.allow_foundation_return(True)
    assert back.play(Move(foundation(0), column(1))).auto == ()
    assert back.play(Move(foundation(0), column(2))).auto == ()
    bakers = Game(position=BAKERS_BOARD, variant="bakers")
    assert bakers.check(Move.parse("12")).reason.value == "wrong_suit"  # type: ignore[union-attr]
    assert Game(position=BAKERS_BOARD).check(Move.parse("12")) is None
    eight = Game(position=EIGHTOFF_BOARD, variant="eightoff")
    assert eight.check(Move.parse("21")).reason.value == "king_only"  # type: ignore[union-attr]


# --- the panel -----------------------------------------------------------------------------------


@browser
def test_tabs_switch_by_click_and_by_arrow_keys(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    panel = open_settings(page, "game")
    tabs = panel.locator("[role=tablist] [role=tab]")
    expect(tabs).to_have_count(3)
    assert [tabs.nth(i).get_attribute("data-tab") for i in range(3)] == ["game", "play", "look"]

    def expect_selected(name: str) -> None:
        for tab in ("game", "play", "look"):
            chosen = tab == name
            t = panel.locator(f"[role=tab][data-tab={tab}]")
            expect(t).to_have_attribute("aria-selected", "true" if chosen else "false")
            expect(t).to_have_attribute("tabindex", "0" if chosen else "-1")
            body = panel.locator(f"[role=tabpanel][data-tab-panel={tab}]")
            if chosen:
                expect(body).to_be_visible()
            else:
                expect(body).to_be_hidden()
            assert body.get_attribute("aria-labelledby") == t.get_attribute("id")
        expect(panel.locator(f"[role=tab][data-tab={name}]")).to_be_focused()

    panel.locator("[role=tab][data-tab=game]").focus()
    for key, name in (("ArrowRight", "play"), ("ArrowRight", "look"), ("ArrowRight", "game"),
                      ("ArrowLeft", "look"), ("Home", "game"), ("End", "look")):
        page.keyboard.press(key)
        expect_selected(name)
    panel.locator("[role=tab][data-tab=play]").click()
    expect_selected("play")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()


# --- Play -----------------------------------------------------------------------------------------


@browser
def test_auto_move_off_leaves_the_ace_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, board_url(site, PLAY_BOARD))
    expect(open_settings(page, "play").locator("[data-field=auto-move]")).to_be_checked()  # the default
    set_flag(page, "play", "auto-move", False)
    game = Game(position=PLAY_BOARD, auto_move=False)
    play_move_on_page(page, game, Move.parse("12"))  # uncovers AS, which stays
    expect(card_locator(page, "AS")).to_have_attribute("data-pile", "1")
    assert stored_settings(page)["auto-move"] is False
    restart(page)
    expect_layout(page, game.position)
    expect(open_settings(page, "play").locator("[data-field=auto-move]")).not_to_be_checked()
    close_settings(page)
    play_move_on_page(page, game, Move.parse("87"))  # still off after the reload
    expect(card_locator(page, "AS")).to_have_attribute("data-pile", "1")
    set_flag(page, "play", "auto-move", True)  # on again: the next move takes the ace home
    game.auto_move = True
    play_move_on_page(page, game, Move.parse("32"))
    expect(card_locator(page, "AS")).to_have_attribute("data-pile", "h4")


@browser
def test_smart_tap_moves_a_card_to_a_column_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, board_url(site, PLAY_BOARD))
    game = Game(position=PLAY_BOARD)
    click_card(page, "5H")  # the default: a card that cannot go home is selected
    expect(card_locator(page, "5H")).to_have_class(re.compile(r"\bselected\b"))
    past_double_tap(page)
    click_card(page, "5H")
    expect(card_locator(page, "5H")).not_to_have_class(re.compile(r"\bselected\b"))
    set_choice(page, "play", "tap", "smart")
    click_card(page, "5H")
    move = TableState(game, smart=True).smart_move(column(0), len(game.position.columns[0]) - 1)
    assert move == Move.parse("12")
    game.play(move)
    expect_status(page, "moves", 1)
    expect_layout(page, game.position)
    assert stored_settings(page)["tap"] == "smart"
    restart(page)
    expect(open_settings(page, "play").locator("[data-field=tap]")).to_have_value("smart")
    close_settings(page)
    col = game.position.columns[2]
    move = TableState(game, smart=True).smart_move(column(2), len(col) - 1)
    assert move == Move.parse("32")  # 4S onto 5H
    click_card(page, "4S")
    game.play(move)
    expect_status(page, "moves", 2)
    expect_layout(page, game.position)


@browser
@pytest.mark.motion
def test_animation_speed_and_off_survive_a_reload(page: Any, site: str) -> None:
    count_motion = f"() => {{ {COUNT_MOTION_JS} }}"
    page.evaluate(count_motion)  # in this document; again after the reload
    open_page(page, board_url(site, PLAY_BOARD))
    expect(page.locator("html")).to_have_attribute("data-speed", "normal")
    game = Game(position=PLAY_BOARD)
    play_move_on_page(page, game, Move.parse("87"))  # one card, one step
    normal = page.evaluate("() => window.__fc_motion.animate")
    assert normal and min(normal) > 0  # a move is animated by default
    set_choice(page, "play", "speed", "fast")
    page.evaluate("() => { window.__fc_motion.animate = []; }")
    play_move_on_page(page, game, Move.parse("5a"))  # one card, one step
    fast = page.evaluate("() => window.__fc_motion.animate")
    assert fast and max(fast) <= min(normal) / 2 + 1
    set_choice(page, "play", "speed", "off")
    expect(page.locator("html")).to_have_attribute("data-speed", "off")
    page.evaluate("() => { window.__fc_motion = {animate: [], css: 0}; }")
    play_move_on_page(page, game, Move.parse("12"))  # 5H onto 6C, AS home after it
    assert page.evaluate(RUNNING_JS) == 0
    assert page.evaluate("() => window.__fc_motion") == {"animate": [], "css": 0}
    assert stored_settings(page)["speed"] == "off"
    reload(page)
    page.evaluate(count_motion)
    expect(page.locator("html")).to_have_attribute("data-speed", "off")
    expect(open_settings(page, "play").locator("[data-field=speed]")).to_have_value("off")
    assert page.evaluate(RUNNING_JS) == 0  # not even the panel's own entrance
    close_settings(page)
    page.evaluate("() => { window.__fc_motion = {animate: [], css: 0}; }")
    click_card(page, "5H")  # selected: a class change, no motion
    past_double_tap(page)
    click_card(page, "5H")
    play_move_on_page(page, game, Move.parse("32"))
    assert page.evaluate(RUNNING_JS) == 0
    assert page.evaluate("() => window.__fc_motion") == {"animate": [], "css": 0}


@browser
def test_score_shows_and_rises_by_ten_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, board_url(site, SCORE_BOARD))
    score = status_locator(page, "score")
    expect(score).to_be_hidden()  # off by default
    set_flag(page, "play", "score", True)
    expect(score).to_be_visible()
    expect_status(page, "score", 0)
    game = Game(position=SCORE_BOARD)
    play_move_on_page(page, game, Move.parse("1h"))  # one click: AH home
    assert game.score == 10
    expect_status(page, "score", 10)
    expect(score).to_contain_text("10")
    restart(page)
    expect(score).to_be_visible()
    expect_status(page, "score", 10)
    expect(open_settings(page, "play").locator("[data-field=score]")).to_be_checked()
    close_settings(page)
    set_flag(page, "play", "score", False)
    expect(score).to_be_hidden()


@browser
def test_the_timer_hides_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    clock = status_locator(page, "time")
    expect(clock).to_be_visible()  # on by default
    set_flag(page, "play", "timer", False)
    expect(clock).to_be_hidden()
    assert stored_settings(page)["timer"] is False
    play_move_on_page(page, Game(617), Move.parse("82"))  # the clock runs on, unseen
    expect(clock).to_be_hidden()
    restart(page)
    expect(clock).to_be_hidden()
    expect(open_settings(page, "play").locator("[data-field=timer]")).not_to_be_checked()
    close_settings(page)
    set_flag(page, "play", "timer", True)
    expect(clock).to_be_visible()


@browser
def test_cards_back_from_the_foundations_and_their_cost(page: Any, site: str) -> None:
    open_page(page, board_url(site, RETURN_BOARD))
    game = Game(position=RETURN_BOARD)
    message = page.locator("[data-role=message]")
    drag_card_to_pile(page, "5C", "2", check_dragging=False)  # off by default: refused
    expect(message).to_have_attribute("data-reason", "from_foundation_off")
    expect_layout(page, game.position)
    panel = open_settings(page, "play")
    cost = panel.locator("[data-role=foundation-return-cost]")
    panel.locator("[data-field=foundation-return]").check()
    expect(cost).to_be_hidden()  # the cost is said only with the score on
    panel.locator("[data-field=score]").check()
    expect(cost).to_be_visible()
    expect(cost).to_contain_text("15")
    close_settings(page)
    game.allow_foundation_return(True)
    move = Move(foundation(0), column(1))
    drag_card_to_pile(page, "5C", "2")
    game.play(move)
    expect_status(page, "moves", 1)
    expect_layout(page, game.position)
    expect_status(page, "score", game.score)
    assert stored_settings(page)["foundation-return"] is True
    restart(page)
    expect(open_settings(page, "play").locator("[data-field=foundation-return]")).to_be_checked()
    close_settings(page)
    drag_card_to_pile(page, "4C", "3")
    game.play(Move(foundation(0), column(2)))
    expect_status(page, "moves", 2)
    expect_layout(page, game.position)


# --- Look -----------------------------------------------------------------------------------------


@browser
def test_left_handed_swaps_cells_and_foundations_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    cell, home = 'rect.pile[data-pile="a"]', 'rect.pile[data-pile="h1"]'
    assert box_of(page, cell)["x"] < box_of(page, home)["x"]
    set_flag(page, "look", "left-handed", True)
    page.wait_for_function(f"""() => document.querySelector('{home}').getBoundingClientRect().x
                                     < document.querySelector('{cell}').getBoundingClientRect().x""")
    expect(page.locator("svg#table")).to_have_class(re.compile(r"\bleft-handed\b"))
    expect_layout(page, Game(617).position)  # the game is still there
    restart(page)
    assert box_of(page, home)["x"] < box_of(page, cell)["x"]
    expect(open_settings(page, "look").locator("[data-field=left-handed]")).to_be_checked()


CONTRAST_JS = """
() => {
  const rgb = (s) => {
    const m = s.match(/[\\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const lum = ([r, g, b]) => [r, g, b]
    .map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const root = getComputedStyle(document.documentElement);
  const probe = document.createElement('i');
  document.body.appendChild(probe);
  const colour = (v) => { probe.style.color = v; return rgb(getComputedStyle(probe).color); };
  const felt = colour(root.getPropertyValue('--felt')), edge = colour(root.getPropertyValue('--felt-edge'));
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      if (e === document.body) return null;  // the felt
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c[3] > 0.99) return c;
    }
    return null;
  };
  const out = {};
  const check = (name, el) => {
    if (!el) { out[name] = 0; return; }
    const fg = rgb(getComputedStyle(el).color), bg = background(el);
    out[name] = bg ? ratio(fg, bg) : Math.min(ratio(fg, felt), ratio(fg, edge));
  };
  check('status text on the bar', document.querySelector('[data-status=moves]'));
  check('button text', document.querySelector('.actionbar [data-action=hint]'));
  check('message on the felt', document.querySelector('[data-role=message]'));
  const warn = colour(root.getPropertyValue('--warn-ink'));
  out['refusal on the felt'] = Math.min(ratio(warn, felt), ratio(warn, edge));
  const panel = document.querySelector('[data-panel=settings]');
  check('panel title', panel.querySelector('h2'));
  check('selected tab', panel.querySelector('[role=tab][aria-selected=true]'));
  check('other tab', panel.querySelector('[role=tab][aria-selected=false]'));
  check('field label', panel.querySelector('[data-tab-panel=game] label[for=variant-select]'));
  check('field hint', panel.querySelector('[data-role=variant-hint]'));
  check('list', panel.querySelector('select[data-field=variant]'));
  const menu = document.querySelector('[data-panel=game]');
  check('deal field', menu.querySelector('input[data-field=deal]'));
  check('statistics button', menu.querySelector('[data-action=stats]'));
  probe.remove();
  return out;
}
"""


@browser
def test_light_theme_changes_the_table_and_survives_a_reload(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    felt = "() => getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(felt)
    set_choice(page, "look", "theme", "light")
    expect(html).to_have_attribute("data-theme", "light")
    page.wait_for_function(f"(dark) => ({felt})() !== dark", arg=dark)
    light = page.evaluate(felt)
    reload(page)
    expect(html).to_have_attribute("data-theme", "light")
    assert page.evaluate(felt) == light
    expect(open_settings(page, "look").locator("[data-field=theme]")).to_have_value("light")
    assert stored_settings(page)["theme"] == "light"


@browser
@pytest.mark.parametrize("theme", ["dark", "light"])
def test_text_contrast_meets_aa_in_both_themes(page: Any, site: str, theme: str) -> None:
    open_page(page, deal_url(site, 617))
    if theme == "light":
        set_choice(page, "look", "theme", "light")
    open_settings(page, "game")
    page.locator("[data-panel=settings] [role=tab][data-tab=game]").blur()
    ratios = page.evaluate(CONTRAST_JS)
    low = {k: round(v, 2) for k, v in ratios.items() if v < 4.5}
    assert low == {}, f"{theme}: {low}"


@browser
def test_four_colours_and_large_cards_survive_a_reload(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    table = page.locator("svg#table")
    set_flag(page, "look", "four-colour", True)
    set_flag(page, "look", "large-cards", True)
    expect(table).to_have_class(re.compile(r"\bfour-colour\b"))
    expect(table).to_have_class(re.compile(r"\blarge-cards\b"))
    face = page.locator("g.card[data-card=TC] use.face-use")
    expect(face).to_have_attribute("href", "#face-L-TC")  # the large face
    restart(page)
    expect(table).to_have_class(re.compile(r"\bfour-colour\b"))
    expect(table).to_have_class(re.compile(r"\blarge-cards\b"))
    expect(face).to_have_attribute("href", "#face-L-TC")
    panel = open_settings(page, "look")
    expect(panel.locator("[data-field=four-colour]")).to_be_checked()
    expect(panel.locator("[data-field=large-cards]")).to_be_checked()
    expect_layout(page, Game(617).position)


@browser
def test_deal_source_and_winnability_survive_a_reload(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    set_choice(page, "game", "deal-source", "classic")
    for _ in range(3):  # New deal draws from the classic series now
        page.locator(".actionbar [data-action=new]").click()
        page.wait_for_function("() => document.querySelector('[data-status=deal]').dataset.value !== '617'")
        assert 1 <= int(status_value(page, "deal")) <= 32_000
    set_flag(page, "play", "winnability", False)
    expect(status_locator(page, "winnable")).to_be_hidden()
    restart(page)
    expect(status_locator(page, "winnable")).to_be_hidden()
    expect(open_settings(page, "game").locator("[data-field=deal-source]")).to_have_value("classic")
    saved = stored_settings(page)
    assert saved["deal-source"] == "classic" and saved["winnability"] is False


# --- languages -------------------------------------------------------------------------------------

LOCALES = {"en": "en-US", "fr": "fr-FR", "it": "it-IT", "ro": "ro-RO", "de": "de-DE", "es": "es-ES"}
RAW_KEY = r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$"
INTL_NAMES_JS = """(codes) => codes.map((c) => {
  const n = new Intl.DisplayNames([c], {type: 'language'}).of(c);
  return n[0].toUpperCase() + n.slice(1);
})"""

# Every element that shows text (visible, with no element child that shows text),
# every option, and the names and titles: none empty, none a raw catalogue key.
TEXTS_JS = """
([root, rawKey]) => {
  const raw = new RegExp(rawKey);
  const bad = [];
  const scope = document.querySelector(root);
  const shown = (el) => el.checkVisibility ? el.checkVisibility() : el.offsetParent !== null;
  const quiet = new Set(['INPUT', 'SELECT', 'SCRIPT', 'svg', 'g', 'rect', 'path', 'text', 'DIV', 'FORM',
                         'SECTION', 'NAV', 'HEADER', 'MAIN', 'DL', 'TABLE', 'TR', 'TBODY']);
  const optional = ['[data-role=deal-error]', '[data-role=message]', '[data-role=notice-text]', 'td:empty',
                    '.stat:empty'].join(', ');
  let count = 0;
  for (const el of scope.querySelectorAll('*')) {
    if (!shown(el) || quiet.has(el.tagName)) continue;
    const text = el.textContent.trim();
    if (raw.test(text)) bad.push(`${el.tagName} shows the key ${text}`);
    if (!text && !el.matches(optional) && !el.closest('svg') && !el.children.length) {
      bad.push(`${el.outerHTML.slice(0, 90)} is empty`);
    }
    count += 1;
  }
  for (const el of scope.querySelectorAll('option')) {
    const text = el.textContent.trim();
    if (!text || raw.test(text)) bad.push(`option ${el.value}: ${JSON.stringify(text)}`);
  }
  for (const el of scope.querySelectorAll('[aria-label], [title]')) {
    for (const attr of ['aria-label', 'title']) {
      const v = el.getAttribute(attr);
      if (v !== null && (!v.trim() || raw.test(v.trim()))) bad.push(`${el.tagName}[${attr}=${v}]`);
    }
  }
  return {bad, count};
}
"""


def expect_all_texts(page: Any, root: str) -> None:
    result = page.evaluate(TEXTS_JS, [root, RAW_KEY])
    assert result["bad"] == [], f"{root}: " + "; ".join(result["bad"])
    assert result["count"] > 3


# The action bar: whether it scrolls, the buttons whose label spills out, and the words of a label
# set on two lines (a Range over one word with boxes at two heights).
LABELS_JS = """() => {
  const bar = document.querySelector('.actionbar');
  const cut = [], split = [];
  for (const b of bar.querySelectorAll('button')) {
    if (!b.offsetParent) continue;
    const spills = b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1;
    if (spills) cut.push(b.textContent.trim());
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) split.push(m[0]);
      }
    }
  }
  return {scrolls: bar.scrollHeight > bar.clientHeight + 1 || bar.scrollWidth > bar.clientWidth + 1,
          cut, split};
}"""
# Screens where a label has the room for its longest word: phones on their side (an iPhone SE's
# 667x375, an Android's 740x360, an iPhone Pro Max's 932x430) and desktops.  Upright, a phone's
# quarter of 360px is narrower than "Suggerimento": there the browser's hyphenation breaks it.
WHOLE_LABEL_SIZES = [(844, 390), (740, 360), (667, 375), (932, 430), (1024, 768), (1280, 800)]


def expect_whole_labels(page: Any, lang: str) -> None:
    """At each of WHOLE_LABEL_SIZES the action bar holds every button, each label whole."""
    was = page.viewport_size
    for w, h in WHOLE_LABEL_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        got = page.evaluate(LABELS_JS)
        assert got == {"scrolls": False, "cut": [], "split": []}, (lang, f"{w}x{h}", got)
    page.set_viewport_size(was)


@browser
@pytest.mark.parametrize("lang", [
    pytest.param(lang, marks=[pytest.mark.browser_context_args(locale=locale)] if lang == "fr" else [])
    for lang, locale in LOCALES.items()])
def test_each_language_renders_table_settings_and_rules(page: Any, site: str, lang: str) -> None:
    """The whole page in each language: chosen in the settings, or (French) the browser's own.

    French comes from the browser's locale, in a page booted for it (boot.js picks it: a French
    browser gets French words from its first boot); the others are chosen in the settings,
    stored, and the page started again.
    """
    t = catalogue(lang)
    if lang not in ("fr", "en"):
        before_load(page, f"localStorage.setItem('freecell.settings', "
                          f"JSON.stringify({{format: 'freecell-settings', version: 1, language: '{lang}'}}))")
    open_page(page, variant_url(site, 617, "eightoff"))
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("svg#table g#cards g.card")).to_have_count(52)
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(t["action.new"])
    expect(status_locator(page, "variant")).to_have_text(t["variant.eightoff"])
    if lang == "fr":  # a number in the words' template
        n = Game(617, variant="eightoff").capacity()
        expect(page.locator("[data-status=capacity]")).to_have_text(t["status.capacity"].format(n=n))
    expect_all_texts(page, ".statusbar")
    expect_all_texts(page, ".actionbar")
    expect_whole_labels(page, lang)
    expect(page.locator("svg#table")).to_have_attribute("aria-label", t["table.label"])
    for tab in ("game", "play", "look"):
        panel = open_settings(page, tab)
        expect(panel.locator(f"[role=tab][data-tab={tab}]")).to_have_text(t[f"settings.tab_{tab}"])
        expect_all_texts(page, "[data-panel=settings]")
    names = panel.locator("select[data-field=variant] option").all_inner_texts()
    assert names == [t[f"variant.{v}"] for v in VARIANTS]
    languages = panel.locator("select[data-field=language] option").all_inner_texts()
    assert languages == [t["settings.language_auto"], *LANGUAGE_NAMES.values()]
    if lang == "en":  # each in itself, as the browser names it
        assert page.evaluate(INTL_NAMES_JS, list(LANGUAGE_NAMES)) == list(LANGUAGE_NAMES.values())
    close_settings(page)
    page.locator(".actionbar [data-action=rules]").click()
    rules = page.locator("[data-panel=rules]")
    expect(rules).to_be_visible()
    expect_all_texts(page, "[data-panel=rules]")
    expect(rules.locator("h3[data-rules=variants]")).to_have_text(t["rules.variants.title"])
    # Eight Off on the table: its rules come first, then FreeCell's that it changes
    expect(rules.locator("#rules-body > h3").first).to_have_text(
        t["rules.on_table"].format(name=t["variant.eightoff"]))
    for v in VARIANTS:
        head = rules.locator(f"h4[data-variant={v}]")
        expect(head).to_have_text(t[f"variant.{v}"])
        expect(head.locator("xpath=following-sibling::p[1]")).to_have_text(t[f"rules.variant.{v}"])
    if lang == "fr":  # the rules' own prose too, not only the catalogue's keys
        expect(rules).to_contain_text("cellules libres")


# --- variants -----------------------------------------------------------------------------------------


def expect_variant_table(page: Any, variant: str, deal: int) -> None:
    """The piles of the variant (cells a.., columns 1..), its deal with the cells filled, its name."""
    rules = VARIANTS[variant].rules
    want = sorted([*CELL_NAMES[:rules.free_cells], *COLUMN_NAMES[:rules.columns], "h1", "h2", "h3", "h4"])
    page.wait_for_function("(n) => document.querySelectorAll('svg#table g#piles rect.pile').length === n",
                           arg=len(want))
    assert sorted(pile_names(page)) == want
    game = Game(deal, variant=variant)
    expect_layout(page, game.position)
    for i, c in enumerate(game.position.cells):  # the cells filled at the deal show their cards
        if c is not None:
            expect(card_locator(page, card_text(c))).to_have_attribute("data-pile", CELL_NAMES[i])
    expect_status(page, "variant", variant)
    expect_status(page, "deal", deal)
    name = catalogue("en")[f"variant.{variant}"]
    shown = re.compile(r"^\s*$") if variant == "freecell" else name  # the classic game goes unnamed
    expect(status_locator(page, "variant")).to_have_text(shown)


@browser
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_each_variant_opens_from_the_address(page: Any, site: str, variant: str) -> None:
    open_page(page, variant_url(site, 3, variant))
    expect_variant_table(page, variant, 3)
    assert page.evaluate("() => location.search").count("variant=") == (variant != "freecell")


@browser
def test_each_variant_opens_from_the_settings(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 617))
    for variant in [*VARIANTS, "freecell"]:
        panel = open_settings(page, "game")
        panel.locator("select[data-field=variant]").select_option(variant)
        expect(panel.locator("[data-role=variant-hint]")).to_be_visible()
        menu = open_game_menu(page)
        menu.locator("[data-field=deal]").fill("5")
        menu.locator("[data-action=play-deal]").click()
        expect_variant_table(page, variant, 5)
    # New deal starts the variant chosen, and the choice survives a reload
    set_choice(page, "game", "variant", "seahaven")
    expect_variant_table(page, "freecell", 5)  # from the next deal only: the game stays
    page.locator(".actionbar [data-action=new]").click()
    expect_status(page, "variant", "seahaven")
    deal = int(status_value(page, "deal"))
    expect_variant_table(page, "seahaven", deal)
    # the rules panel opens with the variant on the table, then the FreeCell rules it changes
    t = catalogue("en")
    page.locator(".actionbar [data-action=rules]").click()
    head = page.locator("#rules-body > h3").first
    expect(head).to_have_text(t["rules.on_table"].format(name=t["variant.seahaven"]))
    expect(head).to_have_attribute("data-rules", "on-table")
    expect(head.locator("xpath=following-sibling::p[1]")).to_have_text(t["rules.variant.seahaven"])
    page.keyboard.press("Escape")
    assert "variant=seahaven" in page.evaluate("() => location.search")
    reload(page)
    expect_variant_table(page, "seahaven", deal)
    expect(open_settings(page, "game").locator("[data-field=variant]")).to_have_value("seahaven")


@browser
def test_the_solver_answers_for_the_variant_on_the_table(page: Any, site: str) -> None:
    """Baker's Game deal 22 is FreeCell deal 22's very position, but lost: nothing known carries over."""
    open_page(page, deal_url(site, 22))
    expect_status(page, "winnable", "yes", timeout=HINT_TIMEOUT)
    panel = open_settings(page, "game")
    panel.locator("select[data-field=variant]").select_option("bakers")
    menu = open_game_menu(page)
    menu.locator("[data-field=deal]").fill("22")
    menu.locator("[data-action=play-deal]").click()
    expect_status(page, "variant", "bakers")
    expect_layout(page, Game(22).position)
    expect_status(page, "winnable", "no", timeout=HINT_TIMEOUT)


@browser
def test_bakers_game_refuses_a_red_five_on_a_black_six(page: Any, site: str) -> None:
    open_page(page, board_variant_url(site, BAKERS_BOARD, "bakers"))
    expect_status(page, "variant", "bakers")
    game = Game(position=BAKERS_BOARD, variant="bakers")
    click_card(page, "5H")
    click_pile(page, "2")
    expect(page.locator("[data-role=message]")).to_have_attribute("data-reason", "wrong_suit")
    expect_status(page, "moves", 0)
    expect_layout(page, game.position)


@browser
def test_eight_off_refuses_a_non_king_in_an_empty_column(page: Any, site: str) -> None:
    open_page(page, board_variant_url(site, EIGHTOFF_BOARD, "eightoff"))
    expect_status(page, "variant", "eightoff")
    assert len([p for p in pile_names(page) if p in CELL_NAMES]) == 8
    drag_card_to_pile(page, "5H", "1")
    expect(page.locator("[data-role=message]")).to_have_attribute("data-reason", "king_only")
    expect_status(page, "moves", 0)
    expect_layout(page, EIGHTOFF_BOARD)
    click_card(page, "5H")  # into a free cell instead: e, the fifth of eight
    click_pile(page, "e")
    game = Game(position=EIGHTOFF_BOARD, variant="eightoff")
    game.play(Move.parse("2e"))
    expect_status(page, "moves", 1)
    expect_layout(page, game.position)


@browser
@pytest.mark.parametrize("variant", ["seahaven", "eightoff"])
def test_a_hint_for_a_variant_deal(page: Any, site: str, variant: str) -> None:
    open_page(page, variant_url(site, 2, variant))
    page.locator(".actionbar [data-action=hint]").click()
    bar = page.locator("[data-panel=hint]")
    expect(bar).to_have_attribute("data-state", "found", timeout=HINT_TIMEOUT)
    expect(bar.locator("[data-role=hint-text]")).not_to_have_text(re.compile(r"^\s*$"))
    expect(page.locator("svg#table [data-hint=from]").first).to_be_attached()
    page.locator(".actionbar [data-action=hint]").click()  # the second press plays it
    expect_status(page, "moves", 1)
