"""The page in real Chromium: rendering, moves by tap, drag and touch, panels, timer.

Written against the page's DOM contract, which docs/embedding.md ("Hooks for
tests and for sites that embed the game") holds, the one place it is written:
the cards ``g.card[data-card][data-pile][data-index]``, the drop areas
``rect.pile[data-pile]``, the status items, buttons, panels and the refusal
line with its reason code.

Expected positions always come from the engine (``Position``, ``Game``), so
every check compares all 52 cards.  The plain tests at the top (no browser)
check the data the browser tests rely on: the known solutions and the boards.
"""

from __future__ import annotations

import itertools
import re
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from freecell.cards import card_text
from freecell.deals import MAX_DEAL
from freecell.engine import check_move, is_stuck, safe_automove
from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position
from freecell.rules import FREECELL, Reason
from freecell.solver import SOLVED, Solver
from freecell.ui.progress.stats import KEY_STATS, deal_key, read_tally

from .helpers import (
    CARDS,
    STEP_TIMEOUT,
    board_from_parts,
    board_url,
    card_locator,
    click_card,
    click_pile,
    deal_url,
    drag_card_to_pile,
    expect_counters,
    expect_drawn_in_pile_order,
    expect_game,
    expect_layout,
    expect_status,
    install_clock,
    open_page,
    open_stats,
    play_move_on_page,
    read_layout,
    replay_solution,
    selected_cards,
    set_visibility,
    solution_lines,
    status_locator,
    status_value,
    tap_card,
    tap_pile,
)

browser = pytest.mark.browser
SOLVED_DEALS = (1, 617)
SELECTED = re.compile(r"(^|\s)selected(\s|$)")

# --- boards -----------------------------------------------------------------------------

# Two free cells empty, no empty column: 3 cards may move at once.  Column 1
# ends with the run 9H 8S 7H 6S; 8S 7H 6S fit on column 3's 9D (13x3, within
# the capacity), the whole run fits on column 2's TC but is 4 cards (12x4).
CAPACITY_BOARD = board_from_parts(
    {1: "9H 8S 7H 6S", 2: "TC", 3: "9D", 4: "KS", 5: "QH", 6: "JS", 7: "8C", 8: "5D"},
    cells="KC KD - -",
)
MOVE_WITHIN = Move.parse("13x3")
MOVE_BEYOND = Move.parse("12x4")

# 3D (column 1) and 3S (free cell a) can go home, but neither is a safe
# auto-move (black 2s and red 2s are still out), so they wait for a tap.
TAP_HOME_BOARD = board_from_parts(
    {1: "3D", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"},
    cells="3S - - -",
    foundations=(1, 2, 0, 2),
)

# 5C covers AH; once 5C goes to a free cell, AH and then 2H (free cell b) go
# home by themselves: one move, undone in one step.
AUTO_BOARD = board_from_parts(
    {1: "AH 5C", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"},
    cells="- 2H - -",
)
AUTO_MOVE = Move.parse("1a")

# Dead from the start: free cells full, only black cards exposed, no ace out.
DEAD_BOARD = board_from_parts(
    {1: "JC", 2: "JS", 3: "TC", 4: "TS", 5: "9C", 6: "9S", 7: "8C", 8: "8S"},
    cells="KC KS QC QS",
)

# One free cell left; every move fills it and leaves the game dead.
ALMOST_DEAD_BOARD = board_from_parts(
    {1: "QS JC", 2: "JS TC", 3: "TS 9C", 4: "9S 8C", 5: "8S 7C", 6: "7S 6C", 7: "6S 5C", 8: "5S 4C"},
    cells="KC KS QC -",
)
LAST_MOVE = Move.parse("1d")
# The board of the stuck-panel defect: the last move goes onto a column (J♣ onto Q♥, 45).
COLUMN_LAST_BOARD = Position.from_text(
    "Foundations: H-0 C-0 D-0 S-0\nFreecells: KH KD KC KS\n: TS 5S QS 7C 9S 4D\n: QD 7S 6D 7D AC 8H\n"
    ": 3D TC 4H 2C 4S 5H\n: 6H 2D 6C AH 9D JC\n: AS 5C 8C JS TH QH\n: 4C 5D AD JH 3S QC\n"
    ": 2H TD 8S 8D 9C 7H\n: 3C 9H 2S 6S JD 3H\n")
COLUMN_LAST_MOVE = Move.parse("45")

# Moves of deal 617 (no column-to-column move exists at the start of deal 1).
DEAL = 617
# Moves whose positions the page's solver worker answers in a few hundred nodes (after 58, JC onto
# QH, it searches 54,000: a core busy for the rest of a test that never looks at the answer)
FIRST_MOVE = Move.parse("82")  # QH onto KS
OTHER_MOVES = (Move.parse("83"),)  # QH onto KC (at the start)
SECOND_MOVE = Move.parse("4a")  # after FIRST_MOVE: 4H to a free cell
THIRD_MOVE = Move.parse("4b")  # after FIRST_MOVE, instead of SECOND_MOVE
QUICK_LINE = (FIRST_MOVE, SECOND_MOVE)  # where any move will do
QUICK_NODES = 2_000

BAD_DEALS = ("0", "abc", "99999999999", "٤٢")


# --- plain tests of the data (no browser) ---------------------------------------------


@pytest.mark.parametrize("deal", SOLVED_DEALS)
def test_known_solution_wins(deal: int) -> None:
    lines = solution_lines(deal)
    assert lines and all(Move.parse(t).text() == t for t in lines)
    game = replay_solution(deal)
    assert game.is_won()
    assert game.moves == len(lines)


def test_boards_are_what_the_browser_tests_need() -> None:
    rules = FREECELL
    for pos in (CAPACITY_BOARD, TAP_HOME_BOARD, AUTO_BOARD, DEAD_BOARD, ALMOST_DEAD_BOARD):
        assert Position.from_text(pos.to_text()) == pos
        assert safe_automove(pos, rules) is None  # nothing moves by itself at the start
    game = Game(position=CAPACITY_BOARD)
    assert game.capacity() == 3
    assert game.check(MOVE_WITHIN) is None
    refusal = game.check(MOVE_BEYOND)
    assert refusal is not None and refusal.reason is Reason.TOO_MANY_CARDS
    assert game.play(MOVE_WITHIN).auto == ()
    for src in ("1", "a"):
        assert check_move(TAP_HOME_BOARD, Move.parse(src + "h"), rules) is None
    turn = Game(position=AUTO_BOARD).play(AUTO_MOVE)
    assert len(turn.auto) >= 2
    assert is_stuck(DEAD_BOARD, rules)
    assert not is_stuck(ALMOST_DEAD_BOARD, rules)
    game = Game(position=ALMOST_DEAD_BOARD)
    game.play(LAST_MOVE)
    assert game.is_stuck()
    game = Game(deal=DEAL)
    for m in (FIRST_MOVE, *OTHER_MOVES):
        assert game.check(m) is None, m
        assert game.check(Move(m.src, Move.parse("1h").dst)) is not None  # a tap does not send it home
    for line in (QUICK_LINE, (FIRST_MOVE, THIRD_MOVE), OTHER_MOVES):
        game = Game(deal=DEAL)
        for m in line:
            assert game.check(m) is None, m
            game.play(m)
            result = Solver(game.position, rules).solve(max_nodes=QUICK_NODES)
            assert result.verdict == SOLVED, (m.text(), result.verdict)
    deal1 = Position.deal(1)
    assert check_move(deal1, Move.parse("28"), rules).reason is Reason.WRONG_COLOUR  # type: ignore[union-attr]
    assert check_move(deal1, Move.parse("12"), rules).reason is Reason.NOT_ONE_LOWER  # type: ignore[union-attr]


# --- helpers of the browser tests -------------------------------------------------------


def panel(page: Any, name: str) -> Any:
    return page.locator(f"[data-panel={name}]")


def message(page: Any) -> Any:
    return page.locator("[data-role=message]")


def expect_hidden_panels(page: Any, *names: str) -> None:
    for name in names:
        expect(panel(page, name)).to_be_hidden()


def expect_one_line_message(page: Any) -> str:
    expect(message(page)).not_to_have_text(re.compile(r"^\s*$"), timeout=STEP_TIMEOUT)
    text = message(page).inner_text().strip()
    assert text and "\n" not in text, f"the message should be one line: {text!r}"
    return text


def expect_random_deal(page: Any) -> int:
    """A random deal is on: its number in the status, its cards on the table."""
    expect(status_locator(page, "deal")).to_have_attribute("data-value", re.compile(r"^\d+$"))
    n = int(status_value(page, "deal"))
    assert 1 <= n <= MAX_DEAL
    expect_layout(page, Position.deal(n))
    expect_status(page, "moves", 0)
    return n


def column_geometry(page: Any) -> dict[str, list[tuple[float, float]]]:
    """(left, top) of every column card's box, per column, by data-index."""
    rows = page.evaluate(
        """() => Array.from(document.querySelectorAll('svg#table g#cards g.card')).map(g => {
             const r = g.getBoundingClientRect();
             return [g.getAttribute('data-pile'), Number(g.getAttribute('data-index')), r.left, r.top];
           })"""
    )
    out: dict[str, list[tuple[int, float, float]]] = {}
    for pile, index, left, top in rows:
        if pile in "12345678":
            out.setdefault(pile, []).append((index, left, top))
    return {p: [(x, y) for _, x, y in sorted(v)] for p, v in out.items()}


# --- loading and rendering ---------------------------------------------------------------


@browser
@pytest.mark.parametrize("deal", [1, 617])
def test_deal_renders_every_card_in_its_place(page: Any, site: str, deal: int) -> None:
    open_page(page, deal_url(site, deal))
    expect(page.locator(CARDS)).to_have_count(52)
    expect_layout(page, Position.deal(deal))
    for name, value in (("deal", deal), ("moves", 0), ("home", 0), ("time", 0), ("capacity", 5)):
        expect_status(page, name, value)
        expect(status_locator(page, name)).not_to_have_text(re.compile(r"^\s*$"))
        expect(status_locator(page, name)).to_be_visible()
    expect(page.locator("svg#table g#piles rect.pile")).to_have_count(16)
    expect_hidden_panels(page, "win", "stuck", "rules", "settings")
    assert selected_cards(page) == []
    # on screen: columns left to right, each card of a column lower than the one before
    geo = column_geometry(page)
    assert sorted(geo) == list("12345678")
    lefts = [geo[p][0][0] for p in "12345678"]
    assert lefts == sorted(lefts) and len(set(lefts)) == 8, f"columns out of order: {lefts}"
    for p, boxes in geo.items():
        tops = [y for _, y in boxes]
        assert all(a < b for a, b in itertools.pairwise(tops)), f"column {p} overlaps wrongly: {tops}"
        assert max(x for x, _ in boxes) - min(x for x, _ in boxes) < 2, f"column {p} is not straight"


@browser
def test_board_in_the_url_opens_that_position(page: Any, site: str) -> None:
    open_page(page, board_url(site, TAP_HOME_BOARD))
    expect_layout(page, TAP_HOME_BOARD)
    expect_status(page, "deal", "")
    expect_status(page, "home", TAP_HOME_BOARD.cards_home())
    expect_status(page, "capacity", Game(position=TAP_HOME_BOARD).capacity())


# --- moves -----------------------------------------------------------------------------


@browser
def test_tap_tap_move(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    card = "QH"
    assert card_text(Position.deal(DEAL).columns[7][-1]) == card  # FIRST_MOVE is 82
    click_card(page, card)
    expect(card_locator(page, card)).to_have_class(SELECTED, timeout=STEP_TIMEOUT)
    assert selected_cards(page) == [card]
    expect_layout(page, game.position)  # selecting moves nothing
    click_pile(page, "2")
    game.play(FIRST_MOVE)
    expect_game(page, game)
    assert selected_cards(page) == []
    expect_status(page, "deal", DEAL)


@browser
def test_drag_and_drop_move(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    move = FIRST_MOVE  # QH (column 8) onto KS (column 2)
    drag_card_to_pile(page, "QH", move.dst.text())
    game.play(move)
    expect_game(page, game)
    expect(page.locator(f"{CARDS}.dragging")).to_have_count(0)


@browser
def test_touch_tap_tap_move(touch_page: Any, site: str) -> None:
    page = touch_page
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    move = OTHER_MOVES[0]  # QH (column 8) onto KC (column 3)
    tap_card(page, "QH")
    expect(card_locator(page, "QH")).to_have_class(SELECTED, timeout=STEP_TIMEOUT)
    tap_pile(page, move.dst.text())
    game.play(move)
    expect_game(page, game)


@browser
def test_tap_sends_a_card_home(page: Any, site: str) -> None:
    open_page(page, board_url(site, TAP_HOME_BOARD))
    game = Game(position=TAP_HOME_BOARD)
    expect_game(page, game)
    click_card(page, "3D")  # column 1's exposed card
    game.play(Move.parse("1h"))
    expect_game(page, game)
    assert read_layout(page)["3D"] == ("h2", 2)
    click_card(page, "3S")  # free cell a
    game.play(Move.parse("ah"))
    expect_game(page, game)
    assert read_layout(page)["3S"] == ("h4", 2)


@browser
@pytest.mark.parametrize(
    ("move", "card", "reason"),
    [("28", "9C", Reason.WRONG_COLOUR), ("12", "6S", Reason.NOT_ONE_LOWER)],
)
def test_refused_move_changes_nothing(page: Any, site: str, move: str, card: str, reason: Reason) -> None:
    open_page(page, deal_url(site, 1))
    game = Game(deal=1)
    m = Move.parse(move)
    refusal = game.check(m)
    assert refusal is not None and refusal.reason is reason
    click_card(page, card)
    expect(card_locator(page, card)).to_have_class(SELECTED, timeout=STEP_TIMEOUT)
    click_pile(page, m.dst.text())
    expect(message(page)).to_have_attribute("data-reason", reason.value, timeout=STEP_TIMEOUT)
    expect_one_line_message(page)
    expect_game(page, game)
    expect_status(page, "time", 0)  # a refused move does not start the clock


@browser
def test_multi_card_move_within_capacity(page: Any, site: str) -> None:
    open_page(page, board_url(site, CAPACITY_BOARD))
    game = Game(position=CAPACITY_BOARD)
    expect_game(page, game)
    expect_status(page, "capacity", 3)
    click_card(page, "8S")  # the 3rd card from the bottom of column 1
    expect(card_locator(page, "8S")).to_have_class(SELECTED, timeout=STEP_TIMEOUT)
    assert selected_cards(page) == sorted(["8S", "7H", "6S"])
    click_pile(page, "3")
    game.play(MOVE_WITHIN)
    expect_game(page, game)
    expect_status(page, "moves", 1)
    page.locator(".actionbar [data-action=undo]").click()
    game.undo()
    expect_game(page, game)
    expect_layout(page, CAPACITY_BOARD)
    expect_status(page, "moves", 0)


@browser
def test_multi_card_move_beyond_capacity_is_refused(page: Any, site: str) -> None:
    open_page(page, board_url(site, CAPACITY_BOARD))
    game = Game(position=CAPACITY_BOARD)
    expect_game(page, game)
    click_card(page, "9H")  # 4 cards: 9H 8S 7H 6S
    expect(card_locator(page, "9H")).to_have_class(SELECTED, timeout=STEP_TIMEOUT)
    click_pile(page, "2")
    expect(message(page)).to_have_attribute("data-reason", Reason.TOO_MANY_CARDS.value, timeout=STEP_TIMEOUT)
    expect_one_line_message(page)
    expect_game(page, game)


@browser
def test_auto_moves_are_part_of_the_move(page: Any, site: str) -> None:
    open_page(page, board_url(site, AUTO_BOARD))
    game = Game(position=AUTO_BOARD)
    expect_game(page, game)
    click_card(page, "5C")
    click_pile(page, "a")
    turn = game.play(AUTO_MOVE)
    assert len(turn.auto) >= 2
    expect_game(page, game)  # AH and 2H home, one move
    page.locator(".actionbar [data-action=undo]").click()
    game.undo()
    expect_game(page, game)


@browser
def test_undo_and_redo(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    start = game.position
    play_move_on_page(page, game, FIRST_MOVE)
    after_one = game.position
    play_move_on_page(page, game, SECOND_MOVE)
    after_two = game.position
    undo = page.locator(".actionbar [data-action=undo]")
    redo = page.locator(".actionbar [data-action=redo]")
    for want, moves in ((after_one, 1), (start, 0)):
        undo.click()
        expect_layout(page, want)
        expect_status(page, "moves", moves)
    for want, moves in ((after_one, 1), (after_two, 2)):
        redo.click()
        expect_layout(page, want)
        expect_status(page, "moves", moves)
    # a new move after an undo drops the redo history: redo then changes nothing
    undo.click()
    expect_status(page, "moves", 1)
    game.undo()
    play_move_on_page(page, game, THIRD_MOVE)
    redo.click(force=True)  # force: the button may well be disabled now
    expect_game(page, game)


# --- timer -------------------------------------------------------------------------------


@browser
def test_timer_counts_and_pauses_while_hidden(page: Any, site: str) -> None:
    # The fake clock is installed before the page loads: Pyodide boots under it
    # (its time flows on by itself until told otherwise).
    install_clock(page)
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    time = status_locator(page, "time")
    expect(time).to_have_attribute("data-value", "0")
    page.clock.run_for(5_000)  # no move yet: the clock has not started
    expect(time).to_have_attribute("data-value", "0")
    play_move_on_page(page, game, QUICK_LINE[0])
    page.clock.run_for(5_000)
    expect(time).to_have_attribute("data-value", re.compile(r"^[5-7]$"))
    shown = int(status_value(page, "time"))
    set_visibility(page, "hidden")
    page.clock.run_for(60_000)
    assert int(status_value(page, "time")) <= shown + 1, "the time ran on while the page was hidden"
    set_visibility(page, "visible")
    page.clock.run_for(3_000)
    expect(time).to_have_attribute("data-value", re.compile(rf"^({shown + 3}|{shown + 4}|{shown + 5})$"))
    expect(time).not_to_have_text(re.compile(r"^\s*$"))


# --- resizing ----------------------------------------------------------------------------


@browser
def test_resize_keeps_the_game(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    play_move_on_page(page, game, QUICK_LINE[0])
    for width, height in ((390, 844), (844, 390)):
        before = read_layout(page)
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height]
        )
        expect_layout(page, before)
        expect_layout(page, game.position)
        expect_counters(page, game)
        if width == 390:  # and it still plays
            play_move_on_page(page, game, QUICK_LINE[1])


# --- a whole game ------------------------------------------------------------------------


@browser
@pytest.mark.slow
@pytest.mark.parametrize("deal", SOLVED_DEALS[:1])  # one whole game in the browser (both replay in CPython)
def test_known_solution_plays_to_the_win_panel(page: Any, site: str, deal: int) -> None:
    """The win panel, the clock, Replay, and the statistics: the game is played from its first
    move and won (a game left for another deal: tests/browser/test_persist.py)."""
    lines = solution_lines(deal)
    install_clock(page)  # to check that the time stops on the win (it flows as usual till then)
    open_page(page, deal_url(site, deal))
    game = Game(deal=deal)
    expect_layout(page, game.position)
    stats = panel(page, "stats")
    open_stats(page)
    for name, value in (("played", 0), ("won", 0), ("streak", 0), ("longest", 0)):
        expect(stats.locator(f"[data-stat={name}]")).to_have_attribute("data-value", str(value))
    expect(stats.locator("[data-stat=rate]")).not_to_have_text(re.compile(r"^\s*$"))
    stats.locator("[data-action=close]").click()
    for n, line in enumerate(lines, 1):
        try:
            play_move_on_page(page, game, Move.parse(line))
        except AssertionError as e:
            raise AssertionError(f"deal {deal}, move {n} ({line}): {e}") from None
        if n == 1:
            assert read_tally(stored_stats(page))[0].played == 1  # played from the first move
        if n < len(lines):
            expect(panel(page, "win")).to_be_hidden()
    assert game.is_won()
    win = panel(page, "win")
    expect(win).to_be_visible(timeout=STEP_TIMEOUT)
    expect_status(page, "home", 52)
    expect(win.locator("[data-win=moves]")).to_have_text(re.compile(rf"\b{len(lines)}\b"))
    expect(win.locator("[data-win=deal]")).to_have_text(re.compile(rf"\b{deal}\b"))
    expect(win.locator("[data-win=home]")).to_have_text(re.compile(r"\b52\b"))
    expect(win.locator("[data-win=time]")).not_to_have_text(re.compile(r"^\s*$"))
    # the clock stopped with the last card
    time = status_locator(page, "time")
    expect(time).to_have_attribute("data-value", re.compile(r"^\d+$"))
    final = status_value(page, "time")
    page.clock.run_for(30_000)
    expect(time).to_have_attribute("data-value", final)
    for action in ("new", "replay", "look", "copy-deal"):
        expect(win.locator(f"[data-action={action}]")).to_be_visible()
    win.locator("[data-action=replay]").click()
    expect(win).to_be_hidden()
    expect_layout(page, Position.deal(deal))
    expect_status(page, "moves", 0)
    expect_status(page, "deal", deal)
    expect_status(page, "home", 0)
    expect_status(page, "time", 0)
    # the win, in the statistics (the deal again, no move yet: not played again)
    open_stats(page)
    for name, value in (("played", 1), ("won", 1), ("rate", 100), ("streak", 1), ("longest", 1),
                        ("best-time", final), ("fewest-moves", len(lines)), ("best-score", game.score)):
        expect(stats.locator(f"[data-stat={name}]")).to_have_attribute("data-value", str(value))
        expect(stats.locator(f"[data-stat={name}]")).not_to_have_text(re.compile(r"^\s*$"))
    expect(stats.locator("[data-role=stats-deal-title]")).to_contain_text(str(deal))
    tally = read_tally(stored_stats(page))[0]
    assert (tally.played, tally.won, tally.streak, tally.longest) == (1, 1, 1, 1)
    best = tally.best(deal_key(deal))
    assert best is not None and best.fewest_moves == len(lines) and best.best_seconds == int(final)


def stored_stats(page: Any) -> object:
    return page.evaluate("(key) => localStorage.getItem(key)", KEY_STATS)


# --- stuck --------------------------------------------------------------------------------


@browser
def test_stuck_panel_on_a_dead_board(page: Any, site: str) -> None:
    open_page(page, board_url(site, DEAD_BOARD))
    stuck = panel(page, "stuck")
    expect(stuck).to_be_visible(timeout=STEP_TIMEOUT)
    expect_layout(page, DEAD_BOARD)
    # no move made: the words offer a new deal only (Undo and Replay are there, and disabled)
    expect(stuck.locator("[data-role=stuck-text]")).to_have_text(
        "This deal allows no legal move at all. Start a new one.")
    for action in ("undo", "replay", "new"):
        expect(stuck.locator(f"[data-action={action}]")).to_be_visible()
    expect(stuck.locator("[data-action=undo]")).to_be_disabled()
    expect(stuck.locator("[data-action=replay]")).to_be_disabled()
    stuck.locator("[data-action=new]").click()
    expect(stuck).to_be_hidden()
    expect_random_deal(page)


@browser
def test_stuck_panel_buttons(page: Any, site: str) -> None:
    open_page(page, board_url(site, ALMOST_DEAD_BOARD))
    stuck = panel(page, "stuck")
    expect_layout(page, ALMOST_DEAD_BOARD)
    expect(stuck).to_be_hidden()
    for action in ("undo", "replay", "new"):
        game = Game(position=ALMOST_DEAD_BOARD)
        play_move_on_page(page, game, LAST_MOVE)  # fills the last free cell: dead
        expect(stuck).to_be_visible(timeout=STEP_TIMEOUT)
        expect(stuck.locator("[data-role=stuck-text]")).to_have_text(
            re.compile(r"^No legal move is left on the table\. Undo the last move"))
        stuck.locator(f"[data-action={action}]").click()
        expect(stuck).to_be_hidden()
        if action == "new":
            expect_random_deal(page)
        else:
            expect_layout(page, ALMOST_DEAD_BOARD)
            expect_status(page, "moves", 0)
            expect_status(page, "deal", "")


@browser
@pytest.mark.parametrize("action", ["undo", "replay", "new"])
def test_stuck_panel_buttons_after_a_last_move_onto_a_column(page: Any, site: str, action: str) -> None:
    """The defect: after J♣ onto Q♥ the panel's buttons raised IndexError (the focus target was stale)."""
    open_page(page, board_url(site, COLUMN_LAST_BOARD))
    game = Game(position=COLUMN_LAST_BOARD)
    stuck = panel(page, "stuck")
    drag_card_to_pile(page, "JC", "5")
    game.play(COLUMN_LAST_MOVE)
    expect_game(page, game)
    expect(stuck).to_be_visible(timeout=STEP_TIMEOUT)
    stuck.locator(f"[data-action={action}]").click()
    expect(stuck).to_be_hidden()
    if action == "new":
        expect_random_deal(page)
        return
    expect_layout(page, COLUMN_LAST_BOARD)
    expect_status(page, "moves", 0)
    # and the table plays on: the same move again, then Undo from the action bar
    drag_card_to_pile(page, "JC", "5")
    expect(stuck).to_be_visible(timeout=STEP_TIMEOUT)
    page.locator(".actionbar [data-action=undo]").click()
    expect_layout(page, COLUMN_LAST_BOARD)
    expect(page.locator("[data-role=message]")).not_to_have_text("Nothing to undo")


# --- bad input ------------------------------------------------------------------------------


@browser
@pytest.mark.parametrize("bad", BAD_DEALS)
def test_bad_deal_in_the_url(page: Any, site: str, request_log: Any, bad: str) -> None:
    open_page(page, deal_url(site, bad))
    expect_one_line_message(page)
    expect_random_deal(page)
    assert request_log.page_errors == []
    expect(page.locator(".py-error")).to_have_count(0)


@browser
@pytest.mark.parametrize("bad", ["bogus", "<b>x</b>", "free cell", "e" * 300])
def test_bad_variant_in_the_url(page: Any, site: str, request_log: Any, bad: str) -> None:
    """An unknown variant: one line saying so, the deal asked for of classic FreeCell, nothing broken.

    (An id in another case, ``FREECELL``, is that variant: no longer refused.)
    """
    open_page(page, f"{site}?deal=617&variant={quote(bad)}")
    text = expect_one_line_message(page)
    assert "<b>" not in page.locator("[data-role=message]").inner_html()
    assert len(text) < 200 and text.endswith("Here is deal 617 of FreeCell."), text
    assert expect_random_deal(page) == 617
    expect_status(page, "variant", "freecell")
    assert request_log.page_errors == []
    expect(page.locator(".py-error")).to_have_count(0)


@browser
@pytest.mark.parametrize(
    "bad",
    ["nonsense", ": AS\n: KD", Position.deal(5).to_text().replace("AS", "AH")],
    ids=["nonsense", "two-columns", "duplicate-card"],
)
def test_bad_board_in_the_url(page: Any, site: str, request_log: Any, bad: str) -> None:
    open_page(page, board_url(site, bad))
    expect_one_line_message(page)
    expect_random_deal(page)
    assert request_log.page_errors == []
    expect(page.locator(".py-error")).to_have_count(0)


@browser
def test_bad_deal_in_the_settings(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    play_move_on_page(page, game, QUICK_LINE[0])
    page.locator(".actionbar [data-action=game-menu]").click()
    settings = panel(page, "game")  # the game menu holds the deal number
    expect(settings).to_be_visible()
    field = settings.locator("[data-field=deal]")
    error = settings.locator("[data-role=deal-error]")
    top = field.bounding_box()
    for bad in (*BAD_DEALS, ""):
        field.fill(bad)
        settings.locator("[data-action=play-deal]").click()
        expect(error).not_to_have_text(re.compile(r"^\s*$"), timeout=STEP_TIMEOUT)
        expect(error).to_be_visible()
        expect_status(page, "deal", DEAL)
        expect_game(page, game)
        # the field stays where it was as the line under it comes and changes (the menu was centred)
        assert field.bounding_box() == top, bad
    field.fill("9" * 24)  # too large: the range, not "digits only"
    settings.locator("[data-action=play-deal]").click()
    expect(error).to_have_text("Deals go from 1 to 8,589,934,591.")
    # a good number plays that deal, also as the label writes numbers
    field.fill("1,005")
    settings.locator("[data-action=play-deal]").click()
    expect_status(page, "deal", 1005)
    expect_layout(page, Position.deal(1005))
    # two cards of 1005 lie where cards lay before (5♣ first in column 3, K♥ second in column 8):
    # each is drawn under the cards on it, not under every card that moved
    expect_drawn_in_pile_order(page)
    game = Game(deal=1005)
    play_move_on_page(page, game, game.legal_moves()[0])
    # asked for again, the game on the table goes on as it is
    page.locator(".actionbar [data-action=game-menu]").click()
    field.fill("1005")
    settings.locator("[data-action=play-deal]").click()
    expect(page.locator("[data-role=message]")).to_have_text(
        "You are playing deal 1005; “Replay deal” starts it over.")
    expect(settings).to_be_hidden()
    expect_game(page, game)


# --- panels ---------------------------------------------------------------------------------


@browser
def test_rules_panel_opens_and_closes(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    play_move_on_page(page, game, QUICK_LINE[0])
    rules = panel(page, "rules")
    expect(rules).to_be_hidden()
    page.locator(".actionbar [data-action=rules]").click()
    expect(rules).to_be_visible()
    headings = rules.locator("h1, h2, h3, h4")
    expect(headings.nth(2)).to_be_attached()  # several headings
    assert all(t.strip() for t in headings.all_inner_texts())
    assert len(rules.inner_text()) > 200
    rules.locator("[data-action=close]").click()
    expect(rules).to_be_hidden()
    expect_game(page, game)
    expect_status(page, "deal", DEAL)


@browser
def test_back_closes_a_panel_and_the_game_stays(page: Any, site: str) -> None:
    """The phone's Back over a panel closes the panel, not the game; a panel closed any other way
    takes its history entry with it; after either, the address names the game on the table."""
    open_page(page, deal_url(site, DEAL))
    game = Game(deal=DEAL)
    play_move_on_page(page, game, QUICK_LINE[0])
    # the entry the page is on, and whether it is the panel's
    where = "() => [navigation.currentEntry.index, history.state === 'freecell-panel']"
    back_on_the_game = ("(base) => navigation.currentEntry.index === base"
                        " && history.state !== 'freecell-panel'")
    base, on_panel = page.evaluate(where)
    assert not on_panel
    rules, menu = panel(page, "rules"), panel(page, "game")
    # closed by its button, then by Escape: the entry goes with it (once the step back is done)
    for close in ("button", "Escape"):
        page.locator(".actionbar [data-action=rules]").click()
        expect(rules).to_be_visible()
        assert page.evaluate(where) == [base + 1, True]
        if close == "button":
            rules.locator("[data-action=close]").click()
        else:
            page.keyboard.press("Escape")
        expect(rules).to_be_hidden()
        page.wait_for_function(back_on_the_game, arg=base)
    # Back over the Game menu closes it, and the page stays on its game
    page.locator(".actionbar [data-action=game-menu]").click()
    expect(menu).to_be_visible()
    assert page.evaluate(where) == [base + 1, True]
    page.go_back()
    expect(menu).to_be_hidden()
    assert page.evaluate(where) == [base, False]
    # Forward onto the entry the menu left ahead: no panel there, the page steps back off it (the
    # next Back would otherwise seem to do nothing)
    page.go_forward()
    page.wait_for_function(back_on_the_game, arg=base)
    expect(menu).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect_game(page, game)
    assert page.url.endswith(f"?deal={DEAL}"), page.url
    # a deal played from the menu: the address of the entry the page steps back onto names it
    page.locator(".actionbar [data-action=game-menu]").click()
    menu.locator("[data-field=deal]").fill("1005")
    menu.locator("[data-action=play-deal]").click()
    expect(menu).to_be_hidden()
    expect_status(page, "deal", 1005)
    page.wait_for_function(back_on_the_game, arg=base)
    assert page.url.endswith("?deal=1005"), page.url
    # the page started again (as a reload does) while a panel's entry is on top: it steps off it
    page.locator(".actionbar [data-action=rules]").click()
    expect(rules).to_be_visible()
    open_page(page, deal_url(site, DEAL))
    page.wait_for_function(back_on_the_game, arg=base)
    expect(rules).to_be_hidden()


@browser
def test_hint_button_is_enabled_and_shows_the_hint_bar(page: Any, site: str) -> None:
    open_page(page, deal_url(site, DEAL))
    hint = page.locator(".actionbar [data-action=hint]")
    expect(hint).to_be_enabled()
    bar = panel(page, "hint")
    expect(bar).to_be_hidden()
    hint.click()
    expect(bar).to_be_visible(timeout=STEP_TIMEOUT)
    expect(bar).to_have_attribute(
        "data-state", re.compile(r"^(searching|found|fallback|unsolvable|unavailable)$")
    )
    expect(bar.locator("[data-role=hint-text]")).not_to_have_text(re.compile(r"^\s*$"))
