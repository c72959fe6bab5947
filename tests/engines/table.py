"""Reading and playing the table through :class:`builder.browsers.Page`, in any engine.

The same contract as the Chromium tests (``tests/browser/test_page.py``): every
card is ``g.card[data-card][data-pile][data-index]``, every pile's drop area
``rect.pile[data-pile]``, the counters ``[data-status=…][data-value]``.  A
card is clicked near its top edge where ``document.elementFromPoint`` finds
that very card, a pile where its drop area (or a card on it) is on top, once
the table stands still: the clicks are the engine's own pointer input.
"""

from __future__ import annotations

from typing import Any

from builder.browsers import Page
from builder.pointer import destination_pile, goes_home_on_tap, source_card
from freecell.game import Game
from freecell.piles import FOUNDATION, Move
from tests.support.tables import Layout, expected_layout

READY = 180.0  # s: a first boot in WebKit on a busy machine
STEP = 20.0

LAYOUT_JS = """
() => Object.fromEntries(Array.from(document.querySelectorAll('svg#table g#cards g.card')).map(
  (g) => [g.getAttribute('data-card'), [g.getAttribute('data-pile'), Number(g.getAttribute('data-index'))]]))
"""

# The table stands still (no running animation, the same box for two frames); then a point of
# the element (a card's top strip, a pile's area) where it is the topmost element.
POINT_JS = """
async (selector, kind) => {
  const el = document.querySelector(selector);
  if (!el) return {missing: selector};
  for (let i = 0; i < 10 && document.getAnimations().some((a) => a.playState === 'running'); i++) {
    await Promise.race([Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
                        new Promise((r) => setTimeout(r, 1000))]);
  }
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  let last = null;
  for (let i = 0; i < 60; i++) {
    const b = el.getBoundingClientRect();
    const key = [b.left, b.top, b.width, b.height].join();
    if (key === last) break;
    last = key;
    await frame();
  }
  // A card by its face: in Firefox a card's group box starts a few px above the face it shows.
  const r = ((kind === 'card' && el.querySelector('rect.card-bg')) || el).getBoundingClientRect();
  const pile = el.getAttribute('data-pile');
  const onPile = (hit) => hit.closest('g.card') && hit.closest('g.card').getAttribute('data-pile') === pile;
  const mine = (hit) => hit && (hit === el || el.contains(hit) || (kind === 'pile' && onPile(hit)));
  const ys = kind === 'card' ? [0.08, 0.05, 0.11, 0.03] : [0.5, 0.25, 0.75, 0.1, 0.9];
  for (const fy of ys) for (const fx of [0.5, 0.35, 0.65]) {
    // whole pixels, checked as clicked (WebDriver's pointer moves by whole pixels)
    const x = Math.round(r.left + r.width * fx), y = Math.round(r.top + r.height * fy);
    if (mine(document.elementFromPoint(x, y))) return {x, y};
  }
  return {covered: selector};
}
"""


# A button that can be pressed: shown, enabled, scrolled into view, and on top at its middle.
BUTTON_JS = """
async (selector) => {
  const el = document.querySelector(selector);
  if (!el || el.disabled || el.closest('[hidden]')) return null;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  await new Promise((r) => requestAnimationFrame(() => r()));
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return r.width > 0 && hit && (hit === el || el.contains(hit)) && {x, y};
}
"""


def wait_ready(tab: Page, timeout: float = READY) -> None:
    state = tab.wait("() => ['ready', 'failed'].includes(document.documentElement.dataset.state)"
                     " && document.documentElement.dataset.state", timeout=timeout,
                     what="html[data-state=ready]")
    assert state == "ready", f"{tab.engine}: the page failed to start; console: {tab.console()}"


def wait_worker(tab: Page, timeout: float = READY) -> dict[str, Any]:
    """The solver worker's ``ready`` message (how it booted, its call trampoline)."""
    ready: dict[str, Any] = tab.wait(
        "() => window.__hook && window.__hook.worker.find((m) => m.type === 'ready')",
        timeout=timeout, what="the solver worker's ready message")
    return ready


def read_layout(tab: Page) -> Layout:
    return {card: (pile, int(index)) for card, (pile, index) in tab.call(LAYOUT_JS).items()}


def expect_layout(tab: Page, game: Game) -> None:
    want = {card: [pile, index] for card, (pile, index) in expected_layout(game.position).items()}
    try:
        tab.wait("(want) => { const got = (" + LAYOUT_JS + ")(); return Object.keys(want).every("
                 "(c) => got[c] && got[c][0] === want[c][0] && got[c][1] === want[c][1]); }",
                 want, timeout=STEP, what="the cards where the game has them")
    except TimeoutError:
        got = read_layout(tab)
        diff = {c: (w, got.get(c)) for c, w in expected_layout(game.position).items() if got.get(c) != w}
        raise AssertionError(f"{tab.engine}: cards out of place (want, got): {diff}") from None


def status(tab: Page, name: str) -> str:
    value = tab.call("(n) => { const el = document.querySelector(`[data-status=${n}]`);"
                     " return el ? el.getAttribute('data-value') : null; }", name)
    return "" if value is None else str(value)


def click(tab: Page, selector: str, kind: str = "button") -> None:
    """A real click on the element: its middle (a button), a card's top strip, a pile's area."""
    if kind == "button":
        p = tab.wait(BUTTON_JS, selector, timeout=STEP, what=f"{selector} to be clickable")
    else:
        p = tab.call(POINT_JS, selector, kind, timeout=STEP)
    assert "x" in p, f"{tab.engine}: cannot click {selector}: {p}"
    tab.click(p["x"], p["y"])


def play(tab: Page, game: Game, move: Move) -> None:
    """Play ``move`` by clicks (tap-tap, or one click home) and check the table and the counter."""
    pos = game.position
    card = source_card(pos, move)
    click(tab, f'svg#table g.card[data-card="{card}"]', "card")
    if not (move.dst.kind == FOUNDATION and goes_home_on_tap(pos, move, game)):
        click(tab, f'svg#table rect.pile[data-pile="{destination_pile(pos, move)}"]', "pile")
    game.play(move)
    tab.wait("(n) => document.querySelector('[data-status=moves]').getAttribute('data-value') === n",
             str(game.moves), timeout=STEP, what=f"the moves counter at {game.moves} after {move.text()}")
    expect_layout(tab, game)
