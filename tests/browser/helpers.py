"""What the browser tests share: URLs, the card layout, clicks, drags, taps, boards.

The page's contract (the attributes these helpers read) is described in
``test_page.py``.  Everything here waits on conditions, never on time: a
layout is awaited with ``page.wait_for_function``, attributes with
Playwright's ``expect``.

Where a card or a pile is clicked, tapped or pressed for a move is
``builder/pointer.py``'s (the benchmarks play on the page with it too), and
the layout a position must show, the known solutions and boards by hand are
``tests/support/tables.py``'s (the CPython tests use them too); both are
imported here under the same names.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from builder.pointer import CARDS as CARDS
from builder.pointer import STEP_TIMEOUT as STEP_TIMEOUT
from builder.pointer import card_locator as card_locator
from builder.pointer import card_point as card_point
from builder.pointer import click_card as click_card
from builder.pointer import click_pile as click_pile
from builder.pointer import destination_pile as destination_pile
from builder.pointer import goes_home_on_tap as goes_home_on_tap
from builder.pointer import layout_diff as layout_diff
from builder.pointer import pile_locator as pile_locator
from builder.pointer import pile_point as pile_point
from builder.pointer import read_layout as read_layout
from builder.pointer import source_card as source_card
from builder.pointer import tap_card as tap_card
from builder.pointer import tap_pile as tap_pile
from freecell.game import Game
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.ui.table.table import DOUBLE_TAP_MS
from tests.support.tables import Layout as Layout
from tests.support.tables import board_from_parts as board_from_parts
from tests.support.tables import expected_layout as expected_layout
from tests.support.tables import replay_solution as replay_solution
from tests.support.tables import solution_lines as solution_lines

READY_TIMEOUT = 60_000  # ms: Pyodide boots in about 4 s, far longer on a loaded machine

DRAGGING = re.compile(r"(^|\s)dragging(\s|$)")


# --- URLs and loading --------------------------------------------------------------


def deal_url(site: str, deal: int | str) -> str:
    return f"{site}?deal={quote(str(deal), safe='')}"


def board_url(site: str, board: Position | str) -> str:
    text = board.to_text() if isinstance(board, Position) else board
    return f"{site}?board={quote(text, safe='')}"


def wait_ready(page: Any, timeout: float = READY_TIMEOUT) -> None:
    """Wait for ``html[data-state=ready]``; stop early on ``failed`` or a PyScript error box."""
    try:
        page.wait_for_function(
            """() => ['ready', 'failed'].includes(document.documentElement.dataset.state)
                     || document.querySelector('.py-error') !== null""",
            timeout=timeout,
        )
    except Exception as e:
        if type(e).__name__ != "TimeoutError":
            raise
    state = page.evaluate("() => document.documentElement.dataset.state")
    errors = page.locator(".py-error").all_inner_texts()
    assert state == "ready" and not errors, (
        f"html[data-state=ready] never appeared within {timeout / 1000:.0f} s: "
        f"data-state={state!r}" + ("; PyScript error: " + " | ".join(errors) if errors else "")
    )


# --- the shared page -------------------------------------------------------------------

# What the tests record in the page from the start (``add_init_script``): the
# traffic with the solver worker and every state of the hint bar (see
# tests/browser/test_hints.py, which reads it).  The shared page always has it.
RECORDER_JS = r"""
(() => {
  const rec = window.__fc = {worker: [], workers: [], bar: [], lost: [], ready: new Set()};
  // a new test on the shared page: the logs start empty (the workers stay, and what they said)
  rec.reset = () => { rec.worker.length = 0; rec.bar.length = 0; rec.lost.length = 0; };
  const now = () => performance.now();
  const Native = window.Worker;
  if (Native) {
    window.Worker = class extends Native {
      constructor(url, opts) {
        super(url, opts);
        const n = rec.workers.push({url: String(url), obj: this}) - 1;
        this.__fcIndex = n;
        this.addEventListener('message', (e) => {
          if (e.data && e.data.type === 'ready') rec.ready.add(n);
          rec.worker.push({dir: 'in', n, t: now(), data: e.data, synthetic: !e.isTrusted});
        });
        this.addEventListener('error', () =>
          rec.worker.push({dir: 'in', n, t: now(), data: {type: 'worker-error'}, synthetic: false}));
      }
      postMessage(msg, ...rest) {
        let data = msg;
        if (typeof msg === 'string') { try { data = JSON.parse(msg); } catch (e) { /* as is */ } }
        rec.worker.push({dir: 'out', n: this.__fcIndex, t: now(), data});
        return super.postMessage(msg, ...rest);
      }
      terminate() {
        rec.worker.push({dir: 'terminate', n: this.__fcIndex, t: now(), data: null});
        return super.terminate();
      }
    };
  }
  // The id of the solve request the current worker is working on, or null.
  rec.inFlight = () => {
    const n = rec.workers.length - 1;
    if (n < 0) return null;
    const log = rec.worker.filter(e => e.n === n);
    let ready = rec.ready.has(n), current = null;
    for (const e of log) {
      const d = e.data || {};
      if (e.dir === 'terminate') return null;
      if (e.dir === 'in' && d.type === 'ready') ready = true;
      if (e.dir === 'in' && d.type === 'worker-error') return null;
      if (e.dir === 'out' && d.type === 'solve' && ready) current = d.id;
      if (e.dir === 'out' && d.type === 'cancel' && d.id === current) current = null;
      if (e.dir === 'in' && !e.synthetic && ['result', 'error', 'cancelled'].includes(d.type)
          && d.id === current) current = null;
    }
    return current;
  };
  const snapshot = () => {
    const bar = document.querySelector('[data-panel="hint"]');
    const text = document.querySelector('[data-role="hint-text"]');
    const moves = document.querySelector('[data-status="moves"]');
    const marks = (sel) => Array.from(document.querySelectorAll(sel)).map(
      el => [el.getAttribute('data-pile'), el.getAttribute('data-hint')]);
    rec.bar.push({
      t: now(), state: bar.getAttribute('data-state'), hidden: bar.hidden,
      text: text ? text.textContent : '', moves: moves ? moves.getAttribute('data-value') : '',
      piles: marks('svg#table rect.pile[data-hint]'),
      cards: Array.from(document.querySelectorAll('svg#table g.card[data-hint]')).map(
        el => [el.getAttribute('data-card'), el.getAttribute('data-hint')]),
    });
  };
  const lostIn = (text) => {
    const m = text.match(/[^.\n]{0,40}\blost\b[^.\n]{0,40}/i);
    if (m) rec.lost.push(m[0]);
  };
  // the text that a change put on the page: the text changed, or the nodes added (the whole page
  // once at the start); read this way, not the whole page's text at each change of the page
  const lostCheck = (records) => {
    const parts = [];
    for (const r of records) {
      if (r.type === 'characterData') parts.push(r.target.data);
      else for (const node of r.addedNodes) parts.push(node.textContent || '');
    }
    lostIn(parts.join(' '));
  };
  const watch = () => {
    const bar = document.querySelector('[data-panel="hint"]');
    if (bar) {
      new MutationObserver(snapshot).observe(bar, {
        attributes: true, attributeFilter: ['data-state', 'hidden'],
        childList: true, characterData: true, subtree: true});
    }
    lostIn((document.body ? document.body.textContent : '') + ' ' + document.title);
    new MutationObserver(lostCheck).observe(document.documentElement, {
      childList: true, characterData: true, subtree: true});
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', watch, {once: true});
  } else {
    watch();
  }
})();
"""

_SHARED: dict[int, str] = {}  # id of a shared page -> the site it was booted from
_SHARED_CONTEXTS: list[Any] = []  # their browser contexts: Playwright's clock and the recorder on


def mark_shared(page: Any, site: str) -> None:
    _SHARED[id(page)] = site
    if not any(ctx is page.context for ctx in _SHARED_CONTEXTS):
        _SHARED_CONTEXTS.append(page.context)


def is_shared(page: Any) -> bool:
    return id(page) in _SHARED


def in_shared_context(page: Any) -> bool:
    """Whether ``page`` is a shared page or another tab of its browser (``returning_tab``): its
    context has had Playwright's clock and the recorder (``RECORDER_JS``) from the start."""
    return any(ctx is page.context for ctx in _SHARED_CONTEXTS)


def before_load(page: Any, script: str) -> None:
    """Run ``script`` before the page's next game starts: an init script, or now on the shared page.

    (An init script on the shared page would run again at every later reload
    of it, in other tests.)
    """
    if is_shared(page):
        page.evaluate(f"() => {{ {script}\n }}")
    else:
        page.add_init_script(script)


def install_clock(page: Any) -> None:
    """Playwright's clock on ``page`` before it loads (the shared page's browser has had it from
    its start)."""
    if not in_shared_context(page):
        page.clock.install()


def open_page(page: Any, url: str) -> None:
    """Open ``url``: on the shared page, the page object starts again for it (no reload)."""
    site = _SHARED.get(id(page))
    if site is not None and url.startswith(site) and url[len(site):len(site) + 1] in ("", "?"):
        page.evaluate(
            """(q) => { document.documentElement.dataset.state = 'loading'; window.freecellRestart(q); }""",
            url[len(site):],
        )
    else:
        page.goto(url)
    wait_ready(page)


def rest_solver(page: Any) -> bool:
    """The shared page, left for other tests, does not keep its solver worker searching for nobody:
    if a search is still running (a position whose answer the last test never waited for), the
    page starts deal 1, whose search ends in a few nodes.  Else a hard position (deal 617 after 58:
    54,000 nodes, seconds of Pyodide) could keep a core busy while other tests run (the touch page
    between its tests; either page while the tests of other files, then the unit tests, run).
    Whether it started deal 1.  (Not after each test: half of them end with a search still
    running, most of which the next test's restart ends a moment later.)"""
    site = _SHARED.get(id(page))
    if site is None or page.is_closed():
        return False
    if not page.evaluate("() => typeof window.freecellRestart === 'function' && !!window.__fc"
                         " && window.__fc.inFlight() !== null"):
        return False
    page.clock.resume()
    open_page(page, site + "?deal=1")
    return True


def restart(page: Any) -> None:
    """What a reload does to the shared page's Python, without booting again: the page object
    stops, then starts anew at the same address and reads the game, the statistics and the
    settings from storage again.  A test whose point is what a real reload adds (what
    static/boot.js and static/early.js apply before Python, the snapshots, ``pagehide``) reloads."""
    assert is_shared(page), "restart() is the shared page's; another page reloads"
    open_page(page, page.url)


# --- reading the table ---------------------------------------------------------------


_LAYOUT_MATCHES_JS = """
(expected) => {
  const els = document.querySelectorAll('svg#table g#cards g.card');
  if (els.length !== 52) return false;
  for (const g of els) {
    const want = expected[g.getAttribute('data-card')];
    if (!want) return false;
    if (g.getAttribute('data-pile') !== want[0]) return false;
    if (g.getAttribute('data-index') !== String(want[1])) return false;
  }
  return true;
}
"""


def expect_layout(page: Any, want: Position | Layout, timeout: float = STEP_TIMEOUT) -> None:
    """Wait until every card element has the pile and index of ``want``; fail with a diff."""
    layout = expected_layout(want) if isinstance(want, Position) else want
    arg = {card: [pile, index] for card, (pile, index) in layout.items()}
    try:
        page.wait_for_function(_LAYOUT_MATCHES_JS, arg=arg, timeout=timeout)
    except Exception as e:
        if type(e).__name__ != "TimeoutError":
            raise
        raise AssertionError(
            "the cards are not where they should be:\n" + layout_diff(layout, read_layout(page))
        ) from None


# the cards drawn over one another wrongly: in a pile, a card later in the document (drawn over)
# with a lower index than one before it
_COVERED_WRONGLY_JS = """() => {
  const seen = {}, bad = [];
  for (const g of document.querySelectorAll('svg#table g#cards g.card')) {
    const pile = g.dataset.pile, i = Number(g.dataset.index);
    for (const [card, j] of seen[pile] || [])
      if (j > i) bad.push(`${g.dataset.card} over ${card} in ${pile}`);
    (seen[pile] ||= []).push([g.dataset.card, i]);
  }
  return bad;
}"""


def expect_drawn_in_pile_order(page: Any) -> None:
    """No card is drawn over a card that lies on it (the document order of the cards)."""
    assert page.evaluate(_COVERED_WRONGLY_JS) == []


def status_locator(page: Any, name: str) -> Any:
    return page.locator(f"[data-status={name}]")


def status_value(page: Any, name: str) -> str:
    value = status_locator(page, name).get_attribute("data-value")
    return "" if value is None else value


def expect_status(page: Any, name: str, value: int | str, timeout: float = STEP_TIMEOUT) -> None:
    from playwright.sync_api import expect

    expect(status_locator(page, name)).to_have_attribute("data-value", str(value), timeout=timeout)


def expect_counters(page: Any, game: Game) -> None:
    """moves, cards home and capacity as the game has them."""
    expect_status(page, "moves", game.moves)
    expect_status(page, "home", game.cards_home())
    expect_status(page, "capacity", game.capacity())


def expect_game(page: Any, game: Game) -> None:
    expect_layout(page, game.position)
    expect_counters(page, game)


def selected_cards(page: Any) -> list[str]:
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('svg#table g#cards g.card.selected'))"
        ".map(g => g.getAttribute('data-card')).sort()"
    )


# --- where to click (the points, clicks and taps: builder/pointer.py) -------------------


def drag_card_to_pile(page: Any, card: str, pile: str, check_dragging: bool = True) -> None:
    """Mouse: press on the card, move well past 8 px, release over the pile's area."""
    from playwright.sync_api import expect

    # the pile first: finding the card's point may scroll, finding the pile's
    # point may too, so check that the pile's point still holds afterwards
    pile_point(page, pile)
    x0, y0 = card_point(page, card)
    x1, y1 = pile_point(page, pile)
    assert (x0, y0) == card_point(page, card), "the page scrolled between finding the two points"
    page.mouse.move(x0, y0)
    page.mouse.down()
    # first a short move beyond the 8 px threshold, then the way to the pile
    page.mouse.move(x0 + 12, y0 + 12, steps=3)
    if check_dragging:
        expect(card_locator(page, card)).to_have_class(DRAGGING, timeout=STEP_TIMEOUT)
    page.mouse.move(x1, y1, steps=12)
    page.mouse.up()


# --- moves -------------------------------------------------------------------------------


def play_move_on_page(page: Any, game: Game, move: Move, how: str = "tap") -> str:
    """Play ``move`` on the page the way a player would; ``game`` is then played too.

    ``how="tap"``: tap-tap (mouse clicks).  A move home is a single click on the
    card (tap-to-foundation).  A move elsewhere of a card that a click would
    send home is dragged instead, as a click cannot do it.  Returns how it was
    played.  Checks that the moves counter went up by one and that every card
    is where the game puts it.
    """
    pos = game.position
    card = source_card(pos, move)
    before = game.moves
    if move.dst.kind == FOUNDATION and goes_home_on_tap(pos, move, game):
        click_card(page, card)
        played = "tap-home"
    elif how == "drag" or goes_home_on_tap(pos, move, game):
        drag_card_to_pile(page, card, destination_pile(pos, move), check_dragging=False)
        played = "drag"
    else:
        click_card(page, card)
        click_pile(page, destination_pile(pos, move))
        played = "tap-tap"
    game.play(move)
    assert game.moves == before + 1
    try:
        expect_status(page, "moves", game.moves)
    except AssertionError as e:
        message = page.locator("[data-role=message]")
        shown = page.evaluate(
            "() => Array.from(document.querySelectorAll("
            "'[data-panel]:not([hidden]), [data-role=picker]:not([hidden])'))"
            ".map((e) => e.dataset.panel || e.dataset.role)")
        raise AssertionError(
            f"move {move.text()} ({played}) was not counted; message: {message.inner_text()!r} "
            f"reason: {message.get_attribute('data-reason')!r}; open: {shown}; "
            f"selected: {selected_cards(page)}"
        ) from e
    expect_layout(page, game.position)
    return played


# --- page visibility -------------------------------------------------------------------


_VISIBILITY_JS = """
(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}
"""


def set_visibility(page: Any, state: str) -> None:
    """Headless Chromium never hides a page: pretend it, as a tab switch would."""
    assert state in ("hidden", "visible")
    page.evaluate(_VISIBILITY_JS, state)


# --- the solver worker's messages ----------------------------------------------------

# How the solver worker booted (its "ready" message), recorded in the page (test_boot, test_offline).
WORKER_SPY_JS = """
window.__workerReady = null;
window.__workerTrampoline = null;
window.__workerStackSwitching = null;
const OriginalWorker = Worker;
window.Worker = function (url, options) {
  const w = new OriginalWorker(url, options);
  w.addEventListener('message', (e) => {
    const d = typeof e.data === 'string' ? JSON.parse(e.data) : e.data;
    if (d && d.type === 'ready' && window.__workerReady === null) {
      window.__workerReady = d.boot;
      window.__workerTrampoline = d.trampoline;
      window.__workerStackSwitching = d.stack_switching;
    }
  });
  return w;
};
window.Worker.prototype = OriginalWorker.prototype;
"""




def past_double_tap(page: Any) -> None:
    """Let the page's double-tap window pass, so that the next tap on the same card is a tap of its own
    (select, deselect) and not the second tap of a double tap (to the best place)."""
    start = page.evaluate("() => performance.now()")
    page.wait_for_function(f"() => performance.now() > {start + DOUBLE_TAP_MS + 20}", polling=50)


# --- storage that refuses writes, statistics ---------------------------------------------------

_REFUSE_WRITES_JS = """([on, only]) => {
  const proto = Storage.prototype;
  if (!proto.__realSetItem) proto.__realSetItem = proto.setItem;
  proto.setItem = on
    ? function (k, v) {
        if (only === null || k === only) throw new DOMException('refused', 'QuotaExceededError');
        return proto.__realSetItem.call(this, k, v);
      }
    : proto.__realSetItem;
}"""


def refuse_writes(page: Any, on: bool, only: str | None = None) -> None:
    """Storage (every key, or ``only`` that one) refuses writes, as a full one does; ``on`` false:
    it writes again.  In the page itself: a test on the shared page undoes it in a ``finally``."""
    page.evaluate(_REFUSE_WRITES_JS, [on, only])


def open_stats(page: Any) -> Any:
    """The statistics panel, opened from the Game menu."""
    from playwright.sync_api import expect

    page.locator(".actionbar [data-action=game-menu]").click()
    page.locator("[data-panel=game] [data-action=stats]").click()
    panel = page.locator("[data-panel=stats]")
    expect(panel).to_be_visible(timeout=STEP_TIMEOUT)
    return panel
