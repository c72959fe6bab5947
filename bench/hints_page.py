"""The hints benchmark's page: the recorder put in it, and the steps that read and drive it.

``INIT_JS`` logs, on the page's clock, every message to and from the solver
worker, the hint bar's and the winnability indicator's states, pointer
releases and the cards' moves; the functions here wait on that log, open a
deal through the settings form and tap moves.  ``recorded_page`` opens such a
page in a fresh context.  The measurements are bench/hints_measure.py's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Browser, Page

from bench.common import READY_TIMEOUT_MS, VIEWPORT
from bench.common import wait_ready as wait_started
from builder.pointer import click_card, click_pile, destination_pile, goes_home_on_tap, source_card
from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position

WORKER_TIMEOUT_MS = 180_000
ANSWER_TIMEOUT_MS = 60_000
DEEP_TIMEOUT_MS = 120_000  # the background search after an unknown (20 s of search in the page)
STEP_TIMEOUT_MS = 20_000
WORKER_READY_JS = "() => window.__hb.worker.some(e => e.dir === 'in' && e.data.type === 'ready')"

INIT_JS = r"""
(() => {
  const rec = window.__hb = {worker: [], workers: [], bar: [], winnable: [], up: [], moved: [],
                             hintClick: []};
  const now = () => performance.now();
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, opts) {
      super(url, opts);
      const n = rec.workers.push(String(url)) - 1;
      this.__hbIndex = n;
      this.addEventListener('message', (e) => rec.worker.push({dir: 'in', n, t: now(), data: e.data}));
    }
    postMessage(msg, ...rest) {
      let data = msg;
      if (typeof msg === 'string') { try { data = JSON.parse(msg); } catch (e) { /* as is */ } }
      rec.worker.push({dir: 'out', n: this.__hbIndex, t: now(), data});
      return super.postMessage(msg, ...rest);
    }
  };
  rec.inFlight = () => {
    let ready = false, current = null;
    const n = rec.workers.length - 1;
    for (const e of rec.worker) {
      if (e.n !== n) continue;
      const d = e.data || {};
      if (e.dir === 'in' && d.type === 'ready') ready = true;
      if (e.dir === 'out' && d.type === 'solve' && ready) current = d.id;
      if (e.dir === 'out' && d.type === 'cancel' && d.id === current) current = null;
      if (e.dir === 'in' && ['result', 'error', 'cancelled'].includes(d.type)
          && d.id === current) current = null;
    }
    return current;
  };
  rec.ready = null;
  document.addEventListener('pointerup', () => rec.up.push(now()), true);
  document.addEventListener('click', (e) => {
    const b = e.target.closest && e.target.closest('.actionbar [data-action="hint"]');
    if (b) rec.hintClick.push(now());
  }, true);
  const watch = () => {
    const html = document.documentElement;
    if (html.dataset.state === 'ready') rec.ready = now();
    new MutationObserver(() => {
      if (rec.ready === null && html.dataset.state === 'ready') rec.ready = now();
    }).observe(html, {attributes: true, attributeFilter: ['data-state']});
    const bar = document.querySelector('[data-panel="hint"]');
    new MutationObserver(() => rec.bar.push({t: now(), state: bar.getAttribute('data-state'),
                                              hidden: bar.hidden}))
      .observe(bar, {attributes: true, attributeFilter: ['data-state', 'hidden']});
    const win = document.querySelector('[data-status="winnable"]');
    new MutationObserver(() => rec.winnable.push({t: now(), value: win.getAttribute('data-value')}))
      .observe(win, {attributes: true, attributeFilter: ['data-value']});
    new MutationObserver((records) => {
      const t = now();
      for (const m of records) {
        const g = m.target;
        rec.moved.push({t, card: g.getAttribute('data-card'), pile: g.getAttribute('data-pile')});
      }
      requestAnimationFrame(() => {
        const f = now();
        for (const m of rec.moved) if (m.frame === undefined) m.frame = f;
      });
    }).observe(document.getElementById('cards'),
               {subtree: true, attributes: true, attributeFilter: ['data-pile']});
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, {once: true});
  else watch();
})();
"""


# --- the page ----------------------------------------------------------------------------


def wait_ready(page: Page) -> float:
    """Wait for ``html[data-state=ready]``; the page's clock when it was set."""
    wait_started(page)
    return float(page.evaluate("() => window.__hb.ready"))


def log(page: Page, since: int = 0) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = page.evaluate("(k) => window.__hb.worker.slice(k)", since)
    return entries


def log_len(page: Page) -> int:
    return int(page.evaluate("() => window.__hb.worker.length"))


def wait_solve_for(page: Page, pos: Position, since: int, timeout: float = STEP_TIMEOUT_MS) -> dict[str, Any]:
    """The ``solve`` message the page posted about ``pos`` (after log index ``since``)."""
    board = pos.to_text()
    page.wait_for_function(
        """([k, board]) => window.__hb.worker.slice(k).some(
             e => e.dir === 'out' && e.data && e.data.type === 'solve' && e.data.board === board)""",
        arg=[since, board], timeout=timeout,
    )
    return next(e for e in log(page, since)
                if e["dir"] == "out" and e["data"]["type"] == "solve" and e["data"]["board"] == board)


def wait_reply(page: Page, rid: int, timeout: float = ANSWER_TIMEOUT_MS) -> dict[str, Any]:
    page.wait_for_function(
        """(rid) => window.__hb.worker.some(e => e.dir === 'in' && e.data && e.data.id === rid
                     && ['result', 'error', 'cancelled'].includes(e.data.type))""",
        arg=rid, timeout=timeout,
    )
    return next(e for e in log(page) if e["dir"] == "in" and (e["data"] or {}).get("id") == rid
                and e["data"]["type"] in ("result", "error", "cancelled"))


def open_deal_by_form(page: Page, deal: int) -> None:
    page.locator(".actionbar [data-action=game-menu]").click()
    page.locator("[data-panel=game] [data-field=deal]").fill(str(deal))
    page.locator("[data-panel=game] [data-action=play-deal]").click()
    page.wait_for_selector(f'[data-status=deal][data-value="{deal}"]', state="attached",
                           timeout=STEP_TIMEOUT_MS)
    page.wait_for_selector('[data-status=moves][data-value="0"]', state="attached", timeout=STEP_TIMEOUT_MS)


def button_point(page: Page, action: str) -> tuple[float, float]:
    box = page.locator(f".actionbar [data-action={action}]").bounding_box()
    if box is None:
        raise RuntimeError(f"the {action} button is not shown")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap_tap(page: Page, pos: Position, move: Move, game: Game) -> None:
    if goes_home_on_tap(pos, move, game):
        raise RuntimeError(f"{move.text()}: a tap would send the card home")
    click_card(page, source_card(pos, move))
    click_pile(page, destination_pile(pos, move))


@contextlib.contextmanager
def recorded_page(browser: Browser, url: str, errors: list[str]) -> Iterator[tuple[Page, float]]:
    """A fresh context's page with the recorder, at ``url`` and ready; the page's clock at ready."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-GB", service_workers="block")
    try:
        ctx.add_init_script(INIT_JS)
        page = ctx.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(url, timeout=READY_TIMEOUT_MS)
        yield page, wait_ready(page)
    finally:
        ctx.close()
