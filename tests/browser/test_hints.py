"""Hints, winnability and Finish in real Chromium, with the solver in its Web Worker.

Written against the page's hooks (docs/embedding.md, "Hooks"): ``.actionbar
[data-action=hint|finish|new]`` (keys ``H`` and ``F``), the hint bar
``[data-panel=hint]`` with ``data-state`` (``searching``, ``found``,
``unsolvable``, ``fallback``, ``unavailable``) and ``[data-role=hint-text]``,
``data-hint="from"|"to"`` on the hinted piles' ``rect.pile`` and on the
moving cards and the destination's top card, ``[data-status=winnable]`` with
``data-value`` ``yes``/``no``/``unknown``.

Two things are recorded in the page from the start (``add_init_script``, so
nothing is missed and nothing is polled from Python):

* the traffic with the solver worker: ``window.Worker`` is replaced by a
  subclass that logs every message the page posts and every message the
  worker sends (``window.__fc.worker``), and keeps the worker objects.  It
  only watches; the page's own listeners get every event as before.  With it
  a test knows when the worker is ready, which request is in flight, and can
  hand the page a late reply with an old id;
* every state of the hint bar (``window.__fc.bar``: state, hidden, text,
  moves counter and the marks at that moment), and any text on the page
  matching "lost" (``window.__fc.lost``).

Every hinted move read from the marks is checked with
``freecell.engine.check_move`` against the position the game is in.

Runtime: each page boots Pyodide twice (page, then worker), 5-15 s; about
2.5 minutes in all on two cores.  The killed-worker tests wait out the 8 s
watchdog (once, and twice).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.cards import card_text
from freecell.engine import apply_move, can_finish, check_move, is_stuck, moving_cards
from freecell.game import Game
from freecell.piles import FOUNDATION, Move, Pile
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import SOLVED, Solver
from freecell.ui.address.link import game_link
from freecell.worker import difficulty
from tests.support.solving import ENOUGH_NODES

from .helpers import (
    RECORDER_JS,
    STEP_TIMEOUT,
    board_from_parts,
    board_url,
    deal_url,
    expect_layout,
    expect_status,
    expected_layout,
    in_shared_context,
    install_clock,
    open_page,
    play_move_on_page,
    read_layout,
    status_value,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WORKER_TIMEOUT = 120_000  # ms: the worker boots its own Pyodide after the page's, slow on a busy machine
ANSWER_TIMEOUT = 60_000  # ms: a search with the page's 3 s budget, once the worker runs
DEEP_TIMEOUT = 120_000  # ms: the background search after a fallback (20 s of search), on a busy machine
WATCHDOG_TIMEOUT = 40_000  # ms: the client's 8 s of silence, and the new worker's boot
RESPONSIVE_MS = 250  # pointerup to the card's new pile while the worker searches: generous
UNSOLVABLE_DEAL = 11982
# Tap-tap moves on deal 11982, one after the other (2H to free cell a, 6D to free cell b,
# 2H onto 3S): the solver needs more than 45,000 nodes to settle each position they
# lead to, so every search the page starts runs for seconds.
HARD_MOVES = ("5a", "5b", "a4")
# Deal 11982 two moves in (the first two moves of the page's quick hint): lost as the start is, and
# proven in a quarter of the nodes (14,753 against 61,803): the page's proof takes seconds, not half
# a minute.  The long proof, of the start itself, is run once, in CPython (tests/test_solver.py).
LOST_LINE = ("78", "1a")


def _module_constant(path: str, name: str) -> Any:
    """A constant of a page module (those import ``js``, so they are read, not imported)."""
    tree = ast.parse((ROOT / path).read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} not found in {path}")


from freecell.ui.session.session import FINISH_STEP_MS  # noqa: E402

CLIENT = "freecell/browser/solver_client.py"
SILENCE_MS = _module_constant(CLIENT, "SILENCE_MS")
FIRST_RETRY_MS = _module_constant(CLIENT, "FIRST_RETRY_MS")
MAX_FAILURES = _module_constant(CLIENT, "MAX_FAILURES")

# --- boards -----------------------------------------------------------------------------

# The sixes are home; every other card lies in order under its own suit: Finish
# can send all 28 home, one at a time, from column bottoms only.
FINISH_BOARD = board_from_parts(
    {1: "KC QC JC TC", 2: "KD QD JD TD", 3: "KH QH JH TH", 4: "KS QS JS TS",
     5: "9C 8C 7C", 6: "9D 8D 7D", 7: "9H 8H 7H", 8: "9S 8S 7S"},
    foundations=(6, 6, 6, 6),
)
# The same, but the jack of clubs lies on the ten: not finishable as it stands.
NOT_FINISH_BOARD = board_from_parts(
    {1: "KC QC TC JC", 2: "KD QD JD TD", 3: "KH QH JH TH", 4: "KS QS JS TS",
     5: "9C 8C 7C", 6: "9D 8D 7D", 7: "9H 8H 7H", 8: "9S 8S 7S"},
    foundations=(6, 6, 6, 6),
)

# Reached by play from deal 2: winnable (the solver needs about 40 nodes), but
# the jack of hearts into free cell b (4b) fills the last cell and leaves a
# position that is not dead (two moves remain) and cannot be won (proved in a
# handful of nodes).
TIGHT_BOARD = Position.from_text(
    "Foundations: H-0 C-0 D-A S-A\n"
    "Freecells: 7D - 3S 5S\n"
    ": QD 4D TD 7S AH 3H\n"
    ": QC JD JC 9D 9S\n"
    ": KC JS 8C KS TC 7H TH\n"
    ": 3C 6H 6C 7C 2S 3D JH\n"
    ": 4C QS 8S 6S 5H\n"
    ": 2C 6D 4S 4H TS 8D\n"
    ": KD 2D 5D AC 9H KH\n"
    ": 5C 9C QH 8H 2H\n"
)
LOSING_MOVE = Move.parse("4b")


# --- what is recorded in the page ---------------------------------------------------------



def open_recorded(page: Any, url: str) -> None:
    """Open ``url`` with the recorder (helpers.RECORDER_JS) on: the shared page's browser has it
    always."""
    if not in_shared_context(page):
        page.add_init_script(RECORDER_JS)
    open_page(page, url)


def worker_log(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => window.__fc.worker.filter(e => window.__fc.workers[e.n].url.includes('solver-worker'))
                 .map(e => ({dir: e.dir, n: e.n, t: e.t, data: e.data, synthetic: !!e.synthetic}))"""
    )


def bar_log(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("() => window.__fc.bar")


def wait_search_in_flight(page: Any, timeout: float = WORKER_TIMEOUT) -> int:
    """Wait until the worker is up and working on a solve request; its id."""
    page.wait_for_function("() => window.__fc.inFlight() !== null", timeout=timeout)
    return int(page.evaluate("() => window.__fc.inFlight()"))


def wait_reply(page: Any, rid: int, timeout: float = ANSWER_TIMEOUT) -> dict[str, Any]:
    """Wait for the worker's reply (result, error or cancelled) to request ``rid``."""
    page.wait_for_function(
        """(rid) => window.__fc.worker.some(e => e.dir === 'in' && !e.synthetic && e.data
                     && ['result', 'error', 'cancelled'].includes(e.data.type) && e.data.id === rid)""",
        arg=rid, timeout=timeout,
    )
    replies = [e["data"] for e in worker_log(page)
               if e["dir"] == "in" and not e["synthetic"] and (e["data"] or {}).get("id") == rid
               and e["data"]["type"] in ("result", "error", "cancelled")]
    return replies[0]


def last_solve_id(page: Any) -> int:
    ids = [e["data"]["id"] for e in worker_log(page) if e["dir"] == "out" and e["data"]["type"] == "solve"]
    assert ids, "the page never asked the worker anything"
    return int(ids[-1])


def hint_bar(page: Any) -> Any:
    return page.locator("[data-panel=hint]")


def press_hint(page: Any) -> None:
    page.locator(".actionbar [data-action=hint]").click()


def expect_bar_state(page: Any, states: str, timeout: float = ANSWER_TIMEOUT) -> str:
    """Wait until the bar is shown in one of ``states`` (``"found|fallback"``); the state."""
    bar = hint_bar(page)
    expect(bar).to_be_visible(timeout=timeout)
    expect(bar).to_have_attribute("data-state", re.compile(f"^({states})$"), timeout=timeout)
    state = bar.get_attribute("data-state")
    assert state is not None
    return state


MARKED_JS = """() => {
  const state = document.querySelector('[data-panel=hint]').dataset.state;
  return state === 'unsolvable' || document.querySelector('svg#table rect.pile[data-hint="from"]') !== null;
}"""


def read_marks(page: Any) -> dict[str, Any]:
    """The hint's marks, and the hint bar's state read with them (in one evaluation, so the two agree)."""
    return page.evaluate(
        """() => {
             const sel = (s) => Array.from(document.querySelectorAll(s));
             return {
               state: document.querySelector('[data-panel=hint]').dataset.state,
               from: sel('svg#table rect.pile[data-hint="from"]').map(e => e.getAttribute('data-pile')),
               to: sel('svg#table rect.pile[data-hint="to"]').map(e => e.getAttribute('data-pile')),
               fromCards: sel('svg#table g.card[data-hint="from"]').map(e => e.getAttribute('data-card')),
               toCards: sel('svg#table g.card[data-hint="to"]').map(e => e.getAttribute('data-card')),
               other: sel('[data-hint]').map(e => e.getAttribute('data-hint'))
                        .filter(v => v !== 'from' && v !== 'to'),
             };
           }"""
    )


def marked_move(pos: Position, marks: dict[str, Any]) -> Move:
    """The move the marks show, checked against ``pos``: legal, and the marked cards are its cards."""
    assert len(marks["from"]) == 1 and len(marks["to"]) == 1, f"one pile each way: {marks}"
    assert marks["other"] == [], marks
    count = len(marks["fromCards"])
    assert count >= 1, f"no card marked as moving: {marks}"
    move = Move(Pile.parse(marks["from"][0]), Pile.parse(marks["to"][0]), count)
    refusal = check_move(pos, move, FREECELL)
    assert refusal is None, f"the hinted move {move.text()} is illegal here: {refusal}\n{pos.to_text()}"
    assert sorted(marks["fromCards"]) == sorted(card_text(c) for c in moving_cards(pos, move)), marks
    if move.dst.kind == FOUNDATION:
        suit = moving_cards(pos, move)[0] & 3
        below = [card_text((pos.foundations[suit] - 1) * 4 + suit)] if pos.foundations[suit] else []
        assert marks["toCards"] == below, marks
    else:
        col = pos.columns[move.dst.index] if move.dst.kind == 0 else ()
        assert marks["toCards"] == ([card_text(col[-1])] if col else []), marks
    return move


def expect_no_marks(page: Any) -> None:
    expect(page.locator("[data-hint]")).to_have_count(0, timeout=STEP_TIMEOUT)


def expect_never_lost(page: Any) -> None:
    lost = page.evaluate("() => window.__fc.lost")
    assert lost == [], f"the page said the player lost: {lost}"
    assert not re.search(r"\blost\b", page.locator("body").inner_text(), re.IGNORECASE)


def legal_playable(game: Game, moves: list[Move]) -> list[Move]:
    return [m for m in moves if m.dst.kind != FOUNDATION and game.check(m) is None]


# --- plain checks of the data (no browser) -------------------------------------------------


def test_boards_are_what_these_tests_need() -> None:
    assert can_finish(FINISH_BOARD) and not FINISH_BOARD.is_won()
    assert FINISH_BOARD.cards_home() == 24
    assert not can_finish(NOT_FINISH_BOARD) and not is_stuck(NOT_FINISH_BOARD, FREECELL)
    tight = Game(position=TIGHT_BOARD)
    assert Solver(TIGHT_BOARD).solve(max_nodes=5000).verdict == SOLVED
    assert LOSING_MOVE.dst.kind != FOUNDATION
    tight.play(LOSING_MOVE)
    assert not tight.is_stuck()
    assert Solver(tight.position).solve(max_nodes=5000).verdict == "unsolvable"
    game = Game(deal=UNSOLVABLE_DEAL)
    for text in HARD_MOVES:
        game.play(Move.parse(text))
    lost = Game(deal=UNSOLVABLE_DEAL)
    for text in LOST_LINE:
        lost.play(Move.parse(text))
    assert Solver(lost.position).solve(max_nodes=20_000).verdict == "unsolvable"
    assert isinstance(FINISH_STEP_MS, int) and FINISH_STEP_MS > 0


# --- a hint on a fresh deal ------------------------------------------------------------------


def test_hint_on_a_fresh_deal_is_legal_and_a_second_press_plays_it(page: Any, site: str) -> None:
    open_recorded(page, deal_url(site, 1))
    game = Game(deal=1)
    expect(page.locator(".actionbar [data-action=hint]")).to_be_enabled()
    page.locator("body").press("h")  # the key H
    state = expect_bar_state(page, "found", timeout=WORKER_TIMEOUT)
    assert state == "found"
    expect(page.locator("[data-role=hint-text]")).not_to_have_text(re.compile(r"^\s*$"))
    move = marked_move(Position.deal(1), read_marks(page))
    # the bar went (a quick suggestion ->) found, nothing else in between
    states = [e["state"] for e in bar_log(page) if not e["hidden"]]
    assert set(states) <= {"fallback", "found"} and states[-1] == "found", states
    expect_status(page, "moves", 0)
    # the second press plays it
    press_hint(page)
    game.play(move)
    expect_status(page, "moves", 1)
    expect_layout(page, game.position)
    expect(hint_bar(page)).to_be_hidden()
    expect_no_marks(page)
    expect_never_lost(page)


# --- difficulty label --------------------------------------------------------------------------


@pytest.mark.parametrize("deal", [1, 617])
def test_a_fresh_deal_gets_the_solvers_difficulty_label(page: Any, site: str, deal: int) -> None:
    open_recorded(page, deal_url(site, deal))
    expect_status(page, "winnable", "yes", timeout=WORKER_TIMEOUT)
    # the answer to this deal's request (a search of the last test's deal may answer late)
    log, board = worker_log(page), Position.deal(deal).to_text()
    asked = {e["data"]["id"] for e in log if e["dir"] == "out" and (e["data"] or {}).get("type") == "solve"
             and e["data"].get("board") == board}
    result = next(e["data"] for e in log if e["dir"] == "in" and (e["data"] or {}).get("type") == "result"
                  and e["data"].get("id") in asked)
    level = difficulty(result["nodes"])  # the worker's effort on this deal, labelled
    assert result["difficulty"] == level
    # the same search in CPython: the label is the solver's, not the page's guess
    assert difficulty(Solver(Position.deal(deal)).solve(max_nodes=200_000).nodes) == level
    deal_el = page.locator("[data-status=deal]")
    expect(deal_el).to_have_attribute("data-difficulty", level)
    words = {"easy": "easy", "medium": "medium", "hard": "hard"}[level]
    expect(deal_el).to_contain_text(str(deal))
    expect(deal_el).to_contain_text(re.compile(words, re.I))
    # a move clears nothing: the label belongs to the deal, and stays
    press_hint(page)
    expect_bar_state(page, "found")
    press_hint(page)
    expect_status(page, "moves", 1)
    expect(deal_el).to_have_attribute("data-difficulty", level)
    # the page started again on it (a reload): the game comes back, still rated (it lost the label)
    open_recorded(page, deal_url(site, deal))
    expect_status(page, "moves", 1)
    expect(deal_el).to_have_attribute("data-difficulty", level)
    expect(deal_el).to_contain_text(re.compile(words, re.I))


# --- a move cancels the search; a stale reply never shows ---------------------------------------


def test_a_move_replaces_the_search_and_a_stale_reply_never_shows(page: Any, site: str) -> None:
    """A move asks about the new position at once (the old search goes on behind it, ``keep``);
    after an undo past it, a late reply about a position off the line of play never shows."""
    open_recorded(page, deal_url(site, UNSOLVABLE_DEAL))
    game = Game(deal=UNSOLVABLE_DEAL)
    old = wait_search_in_flight(page)  # the worker is searching the start position
    press_hint(page)
    expect_bar_state(page, "fallback", timeout=STEP_TIMEOUT)  # a suggestion at once
    move = Move.parse(HARD_MOVES[0])
    play_move_on_page(page, game, move)  # at once
    t_move = next(e["t"] for e in bar_log(page) if e["moves"] == "1")
    log = worker_log(page)
    replies = [e for e in log if e["dir"] == "in" and (e["data"] or {}).get("id") == old]
    assert not any(e["data"]["type"] == "result" and e["t"] < t_move for e in replies), (
        "the search of the start ended before the move: the test did not move during a search")
    # the page asked about the new position, keeping the start's search going behind it
    new = last_solve_id(page)
    assert new != old
    sent = next(e["data"] for e in log if e["dir"] == "out" and e["data"].get("id") == new)
    assert Position.from_text(sent["board"]) == game.position
    assert sent.get("keep") == old
    expect(hint_bar(page)).to_be_hidden()  # the move hid the bar
    # the second move: the start's search is still the one kept
    move2 = Move.parse(HARD_MOVES[1])
    play_move_on_page(page, game, move2)
    newer = last_solve_id(page)
    sent2 = next(e["data"] for e in worker_log(page) if e["dir"] == "out" and e["data"].get("id") == newer)
    assert sent2.get("keep") == old
    # undo past the first move's position: the search of the position after it is wanted no more
    page.locator(".actionbar [data-action=undo]").click()
    game.undo()
    expect_status(page, "moves", 1)
    # a late reply about the position after two moves (as if it crossed the undo) is dropped
    stale_hint = game.legal_moves()[0].to_json()
    page.evaluate(
        """([rid, hint]) => {
             const w = window.__fc.workers[window.__fc.workers.length - 1].obj;
             for (const data of [
               {type: 'progress', id: rid, nodes: 5},
               {type: 'result', id: rid, verdict: 'unknown', moves: [], hint,
                nodes: 10, ms: 5, difficulty: null}]) {
               w.dispatchEvent(new MessageEvent('message', {data}));
             }
           }""",
        [newer, stale_hint],
    )
    t_undo = page.evaluate("() => performance.now()")
    expect(hint_bar(page)).to_be_hidden()
    shown = [e for e in bar_log(page) if e["t"] >= t_undo and not e["hidden"]]
    assert shown == [], f"the bar showed something nobody asked for: {shown}"
    expect_no_marks(page)
    # asked now, the hint is about the position on the table
    press_hint(page)
    state = expect_bar_state(page, "found|fallback|unsolvable")
    if state != "unsolvable":
        marked_move(game.position, read_marks(page))
    expect_never_lost(page)


# --- deal 11982 ---------------------------------------------------------------------------------


def test_the_first_hint_comes_at_once_before_the_solver_is_up(fresh_page: Any, site: str) -> None:
    """Right after the page is ready (the worker still booting its own Pyodide), Hint marks a move."""
    page = fresh_page
    open_recorded(page, deal_url(site, 164))
    press_hint(page)
    state = expect_bar_state(page, "fallback|found", timeout=STEP_TIMEOUT)
    move = marked_move(Position.deal(164), read_marks(page))
    results = [e for e in worker_log(page) if e["dir"] == "in" and (e["data"] or {}).get("type") == "result"]
    if state == "fallback":  # the page's own move: shown before any verdict of the worker
        assert not results
    # the solver's answer replaces it when it comes (a sure move, marked the same way)
    expect_bar_state(page, "found", timeout=WORKER_TIMEOUT)
    assert check_move(Position.deal(164), marked_move(Position.deal(164), read_marks(page)), FREECELL) is None
    del move
    expect_never_lost(page)


def _played(page: Any, game: Game) -> Move:
    """The move the page just played from ``game``'s position (read back from the table)."""
    after = read_layout(page)
    for m in game.legal_moves():
        trial = Game(position=game.position)
        trial.play(m)
        if expected_layout(trial.position) == after:
            return m
    raise AssertionError("the page played a move that is not legal here")


def test_deal_11982_played_by_hints_is_proven_lost(fresh_page: Any, site: str) -> None:
    """Hint, play its move, again and again: the proof of the start carries down (no other way).

    From the first moment of a visit, on a link to deal 11982 two moves in (``LOST_LINE``): the
    first presses come while the worker still boots, so the search of the position opened waits
    for it with the others (and must reach it before them, or no proof ever comes).
    """
    page = fresh_page
    game = Game(deal=UNSOLVABLE_DEAL)
    for text in LOST_LINE:
        game.play(Move.parse(text))
    open_recorded(page, site + game_link(game))
    bar = hint_bar(page)
    t0 = page.evaluate("() => performance.now()")
    press_hint(page)
    for _ in range(200):
        state = expect_bar_state(page, "fallback|found|unsolvable", timeout=DEEP_TIMEOUT)
        if state == "unsolvable":
            break
        # the bar and its marks, read together once both are drawn: the proof may come between two
        # reads and clear the marks (seen in fresh CI runs on a loaded machine)
        page.wait_for_function(MARKED_JS, timeout=STEP_TIMEOUT)
        marks = read_marks(page)
        if marks["state"] == "unsolvable":
            break
        marked_move(game.position, marks)
        before = game.moves
        press_hint(page)  # the second press plays the move shown (unless the proof came just now)
        page.wait_for_function(
            """(n) => document.querySelector('[data-status=moves]').dataset.value !== String(n)
                     || document.querySelector('[data-panel=hint]').dataset.state === 'unsolvable'""",
            arg=before, timeout=STEP_TIMEOUT)
        if status_value(page, "moves") == str(before):
            continue
        game.play(_played(page, game))
        expect_layout(page, game.position)
        press_hint(page)
    else:
        raise AssertionError("never proven lost")
    seconds = (page.evaluate("() => performance.now()") - t0) / 1000
    print(f"11982 proven lost {seconds:.1f} s after the first Hint, after {game.moves} moves")
    # every search kept going behind another was sent to the worker before it
    sent: set[int] = set()
    for e in worker_log(page):
        data = e["data"] or {}
        if e["dir"] == "out" and data.get("type") == "solve":
            assert data.get("keep") is None or data["keep"] in sent, (data["id"], data.get("keep"))
            sent.add(data["id"])
    for action in ("undo", "replay", "new"):
        expect(bar.locator(f"[data-action={action}]")).to_be_visible()
    # Replay: the link's two moves are there to take back
    expect(bar.locator("[data-action=replay]")).to_be_enabled()
    expect_status(page, "winnable", "no")
    expect_no_marks(page)
    expect_never_lost(page)


def test_unsolvable_bar_offers_four_ways_out_and_back_to_winnable(page: Any, site: str) -> None:
    open_recorded(page, board_url(site, TIGHT_BOARD))
    expect_status(page, "winnable", "yes", timeout=WORKER_TIMEOUT)
    bar = hint_bar(page)

    def lose() -> Game:
        game = Game(position=TIGHT_BOARD)
        play_move_on_page(page, game, LOSING_MOVE)
        expect_status(page, "winnable", "no", timeout=ANSWER_TIMEOUT)
        press_hint(page)
        assert expect_bar_state(page, "unsolvable") == "unsolvable"
        for action in ("undo", "replay", "new", "back-to-winnable"):
            expect(bar.locator(f"[data-action={action}]")).to_be_visible()
        expect_no_marks(page)
        expect_never_lost(page)
        return game

    def back_at_start() -> None:
        expect_layout(page, TIGHT_BOARD)
        expect_status(page, "moves", 0)
        expect(bar).to_be_hidden()
        expect_status(page, "winnable", "yes")

    lose()
    bar.locator("[data-action=undo]").click()
    back_at_start()

    lose()
    bar.locator("[data-action=replay]").click()
    back_at_start()

    lose()
    bar.locator("[data-action=back-to-winnable]").click()
    back_at_start()

    game = lose()
    # no button that would only say the same again; H does, and changes nothing
    expect(bar.locator("[data-action=hint]")).to_have_count(0)
    page.locator("body").press("h")
    expect_bar_state(page, "unsolvable", timeout=STEP_TIMEOUT)
    expect_layout(page, game.position)

    bar.locator("[data-action=new]").click()
    expect(bar).to_be_hidden()
    expect_status(page, "moves", 0)
    expect(page.locator("[data-status=deal]")).to_have_attribute("data-value", re.compile(r"^[1-9]\d*$"))
    expect_never_lost(page)


# --- the page answers while the worker searches ------------------------------------------------------

LATENCY_JS = """
() => {
  const r = window.__lat = {up: [], moved: []};
  document.addEventListener('pointerup', () => r.up.push(performance.now()), true);
  new MutationObserver((records) => {
    const t = performance.now();
    for (const m of records) r.moved.push([m.target.getAttribute('data-card'), t]);
  }).observe(document.getElementById('cards'),
             {subtree: true, attributes: true, attributeFilter: ['data-pile']});
}
"""


def test_the_page_answers_pointer_input_while_the_worker_searches(page: Any, site: str) -> None:
    open_recorded(page, deal_url(site, UNSOLVABLE_DEAL))
    game = Game(deal=UNSOLVABLE_DEAL)
    page.evaluate(LATENCY_JS)
    wait_search_in_flight(page)
    press_hint(page)  # a long search: 11982 has no solution to find
    expect_bar_state(page, "searching|fallback", timeout=STEP_TIMEOUT)
    delays = []
    for text in HARD_MOVES:
        move = Move.parse(text)
        card = card_text(moving_cards(game.position, move)[0])
        searching = page.evaluate("() => window.__fc.inFlight()")
        assert searching is not None, "the worker was not searching before the move"
        assert play_move_on_page(page, game, move) == "tap-tap"
        lat = page.evaluate("() => window.__lat")
        t_card = min(t for c, t in lat["moved"] if c == card and t >= lat["up"][0])
        t_up = max(t for t in lat["up"] if t <= t_card)
        # the worker was still on that search when the pointer came up
        replies = [e for e in worker_log(page)
                   if e["dir"] == "in" and (e["data"] or {}).get("id") == searching
                   and e["data"]["type"] == "result"]
        assert all(e["t"] > t_up for e in replies), "the search ended before the move"
        delays.append(t_card - t_up)
        page.evaluate("() => { window.__lat.up = []; window.__lat.moved = []; }")
    assert max(delays) < RESPONSIVE_MS, f"pointerup to the card's move took {delays} ms"


# --- Finish -----------------------------------------------------------------------------------------

HOME_LOG_JS = """
() => {
  const r = window.__home = [];
  const el = document.querySelector('[data-status="home"]');
  new MutationObserver(() => r.push(Number(el.getAttribute('data-value'))))
    .observe(el, {attributes: true, attributeFilter: ['data-value']});
}
"""

# Wait for running animations to end, then watch the counters for three Finish
# steps of the page's own clock; every change seen is returned.  A claim that
# nothing happens needs a window: this is it, measured on the page's clock.
IDLE_JS = """
async (window_ms) => {
  const changes = [];
  const obs = new MutationObserver((records) => {
    for (const m of records) changes.push([m.target.getAttribute('data-status'),
                                           m.target.getAttribute('data-value')]);
  });
  for (const name of ['moves', 'home']) {
    obs.observe(document.querySelector(`[data-status="${name}"]`),
                {attributes: true, attributeFilter: ['data-value']});
  }
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  while (document.getAnimations().some(a => a.playState === 'running')) await frame();
  const t0 = performance.now();
  while (performance.now() - t0 < window_ms) await frame();
  obs.disconnect();
  return changes;
}
"""


def finish_button(page: Any) -> Any:
    return page.locator(".actionbar [data-action=finish]")


def new_button(page: Any) -> Any:
    return page.locator(".actionbar [data-action=new]")


def home_count(page: Any) -> int:
    return int(status_value(page, "home"))


def test_finish_shows_exactly_when_every_card_can_go_home_and_runs_to_the_win(
    page: Any, site: str
) -> None:
    open_recorded(page, board_url(site, NOT_FINISH_BOARD))
    expect_layout(page, NOT_FINISH_BOARD)
    expect(finish_button(page)).to_be_hidden()
    expect(new_button(page)).to_be_visible()
    page.locator("body").press("f")  # F does nothing when Finish is not offered
    expect_status(page, "moves", 0)
    expect_status(page, "home", NOT_FINISH_BOARD.cards_home())

    open_recorded(page, board_url(site, FINISH_BOARD))
    expect_layout(page, FINISH_BOARD)
    expect(finish_button(page)).to_be_visible()
    expect(new_button(page)).to_be_hidden()
    page.evaluate(HOME_LOG_JS)
    finish_button(page).click()
    expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT + 28 * FINISH_STEP_MS)
    expect_status(page, "home", 52)
    expect_status(page, "moves", 52 - FINISH_BOARD.cards_home())  # one card a turn
    homes = page.evaluate("() => window.__home")
    assert homes == list(range(25, 53)), f"cards went home {homes}, not one by one"
    # won: nothing left to finish
    expect(finish_button(page)).to_be_hidden()
    expect(new_button(page)).to_be_visible()
    expect_never_lost(page)


def table_point(page: Any) -> tuple[float, float]:
    """A point of the table (inside svg#table) where nothing else is on top."""
    p = page.evaluate(
        """() => {
             const svg = document.getElementById('table');
             const r = svg.getBoundingClientRect();
             for (const fy of [0.9, 0.7, 0.5, 0.3]) for (const fx of [0.5, 0.3, 0.7]) {
               const x = r.left + r.width * fx, y = Math.min(r.top + r.height * fy, innerHeight - 5);
               const hit = document.elementFromPoint(x, y);
               if (hit && svg.contains(hit)) return {x, y};
             }
             return null;
           }"""
    )
    assert p is not None, "no visible point of the table"
    return float(p["x"]), float(p["y"])


@pytest.mark.parametrize("how", ["finish", "tap", "enter"])
def test_finish_stops_and_undoes_card_by_card(page: Any, site: str, how: str) -> None:
    open_recorded(page, board_url(site, FINISH_BOARD))
    expect_layout(page, FINISH_BOARD)
    start_home = FINISH_BOARD.cards_home()
    tap_at = table_point(page)
    finish_button(page).click()  # the button keeps the focus: Enter must stop, not restart
    page.wait_for_function(
        "(n) => Number(document.querySelector('[data-status=home]').getAttribute('data-value')) >= n",
        arg=start_home + 3, timeout=STEP_TIMEOUT,
    )
    if how == "finish":
        finish_button(page).click()
    elif how == "tap":
        page.mouse.click(*tap_at)
    else:
        assert page.evaluate("() => document.activeElement.getAttribute('data-action')") == "finish"
        page.keyboard.press("Enter")
    # stopped at once: from now on, for three Finish steps, no card moves
    home, moves = home_count(page), int(status_value(page, "moves"))
    changes = page.evaluate(IDLE_JS, 3 * FINISH_STEP_MS)
    assert changes == [], f"Finish went on after the stop ({how}): {changes}"
    assert (home_count(page), int(status_value(page, "moves"))) == (home, moves)
    assert start_home < home < 52, f"home {home}: Finish did not stop ({how})"
    assert moves == home - start_home
    expect(page.locator("[data-panel=win]")).to_be_hidden()
    # the same cards as the engine's Finish sends, in its order
    game = Game(position=FINISH_BOARD)
    for _ in range(moves):
        assert game.finish_step() is not None
    expect_layout(page, game.position)
    expect(finish_button(page)).to_be_visible()  # still finishable
    # Undo brings back one card per press
    undo = page.locator(".actionbar [data-action=undo]")
    for k in range(1, 4):
        undo.click()
        game.undo()
        expect_status(page, "moves", moves - k)
        expect_status(page, "home", home - k)
        expect_layout(page, game.position)
    expect(finish_button(page)).to_be_visible()
    expect(new_button(page)).to_be_hidden()


# --- a killed worker is replaced ---------------------------------------------------------------------


def off_solution_move(game: Game) -> Move:
    """A legal move whose position the page does not know yet (it is on no solution it holds)."""
    result = Solver(game.position).solve(max_nodes=ENOUGH_NODES)
    assert result.verdict == SOLVED
    known = {game.position}
    pos = game.position
    for m in result.moves:  # the positions along the solution, as the page stores them
        pos = apply_move(pos, m)
        known.add(pos)
    for m in legal_playable(game, game.legal_moves()):
        trial = Game(position=game.position)
        trial.play(m)
        if trial.position not in known and not trial.is_stuck():
            return m
    raise AssertionError("no move off the solution")


KILL_JS = """
() => {
  const n = window.__fc.workers.length - 1;
  const w = window.__fc.workers[n].obj;
  const ready = window.__fc.ready.has(n);
  w.terminate();
  return ready;
}
"""


def test_a_killed_worker_is_replaced_and_a_second_one_without_a_second_notice(page: Any, site: str) -> None:
    open_recorded(page, deal_url(site, 1))
    game = Game(deal=1)
    expect_status(page, "winnable", "yes", timeout=WORKER_TIMEOUT)
    first = page.evaluate("() => window.__fc.workers.length") - 1
    for round_ in (first + 1, first + 2):
        assert page.evaluate(KILL_JS) is True, "the page's worker was not up"
        move = off_solution_move(game)
        play_move_on_page(page, game, move)  # the page asks the dead worker about it
        press_hint(page)
        if round_ == first + 1:
            expect_bar_state(page, "fallback", timeout=STEP_TIMEOUT)  # the page's own suggestion, at once
        # the watchdog hears nothing for 8 s and replaces the worker (after a short back-off,
        # which grows if the new one fails too), and the new one comes up: the page's clock is
        # run through those seconds rather than waited out
        page.clock.run_for(SILENCE_MS + FIRST_RETRY_MS * 2 ** (round_ - first))
        page.wait_for_function(f"() => window.__fc.workers.length === {round_ + 1}",
                               timeout=WATCHDOG_TIMEOUT)
        expect_layout(page, game.position)  # play goes on
        page.wait_for_function(
            f"() => window.__fc.worker.some(e => e.n === {round_} && e.dir === 'in' "
            "&& e.data.type === 'ready')",
            timeout=WORKER_TIMEOUT,
        )
        if round_ == first + 1:
            # the request owed is sent to the new worker, whose answer replaces the suggestion
            expect_bar_state(page, "found", timeout=WORKER_TIMEOUT)
        else:
            # the bar no longer claims to be looking, and a Hint works (a position of deal 1 takes
            # the worker well under a second): the replacement answers the Hint still waiting, or
            # a new press asks it
            expect(hint_bar(page)).not_to_have_attribute("data-state", "searching", timeout=STEP_TIMEOUT)
            state = page.evaluate(
                "() => { const b = document.querySelector('[data-panel=hint]');"
                " return b.hidden ? '' : b.dataset.state; }")
            if state not in ("found", "fallback"):
                press_hint(page)
            expect_bar_state(page, "found|fallback", timeout=20_000)
        marked_move(game.position, read_marks(page))
    states = [e["state"] for e in bar_log(page) if not e["hidden"]]
    assert states.count("unavailable") <= 1, f"told more than once: {states}"
    expect_never_lost(page)


def test_a_worker_that_cannot_load_is_not_restarted_in_a_loop(returning_tab: Any, site: str) -> None:
    page = returning_tab()
    page.route("**/static/solver-worker.js", lambda route: route.abort())
    install_clock(page)  # the growing back-offs are run through, not waited out
    open_recorded(page, deal_url(site, 1))
    press_hint(page)
    # either the page gives up and says so, or it keeps making workers: whichever comes first;
    # each time the last worker has failed, the clock runs through the longest back-off
    for _ in range(25):
        page.wait_for_function(
            """() => { const fc = window.__fc, n = fc.workers.length - 1;
                       return n > 20
                         || document.querySelector('[data-panel=hint]').dataset.state === 'unavailable'
                         || fc.worker.some(e => e.n === n && e.dir === 'terminate'); }""",
            timeout=WATCHDOG_TIMEOUT,
        )
        if page.evaluate("() => window.__fc.workers.length > 20 || "
                         "document.querySelector('[data-panel=hint]').dataset.state === 'unavailable'"):
            break
        page.clock.run_for(FIRST_RETRY_MS * 2 ** MAX_FAILURES)
    created = page.evaluate("() => window.__fc.workers.length")
    assert created <= 5, f"{created} workers created for a script that cannot load"
    expect_bar_state(page, "unavailable", timeout=STEP_TIMEOUT)
    # play goes on
    game = Game(deal=1)
    play_move_on_page(page, game, off_solution_move(game))


def test_a_page_that_may_not_make_workers_plays_on_without_hints(returning_tab: Any, site: str) -> None:
    """A sandboxed frame with an opaque origin throws on ``new Worker``: no crash, one notice."""
    page = returning_tab()
    page.add_init_script("""
      window.Worker = class { constructor() { throw new DOMException('refused', 'SecurityError'); } };
    """)
    open_page(page, deal_url(site, 1))
    press_hint(page)
    expect_bar_state(page, "unavailable", timeout=STEP_TIMEOUT)
    expect_status(page, "winnable", "unknown")
    game = Game(deal=1)
    play_move_on_page(page, game, off_solution_move(game))
    expect_status(page, "moves", 1)
    press_hint(page)  # asking again says the same, at once
    expect_bar_state(page, "unavailable", timeout=STEP_TIMEOUT)
