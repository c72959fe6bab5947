"""The page benchmark's measured load: the scripts put in the page, one load timed, moves timed.

``INIT_JS`` runs in every document before its own scripts and times ready,
the table, the first move and the worker on the page's clock; ``Load.measure``
loads one URL in a profile and reads back a ``Sample`` (with the trace and the
network log of bench/page_trace.py); ``measure_moves`` times moves on a ready
page.  The rounds that call these are bench/page.py's.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page

from bench.page_trace import NetLog, Trace

TIMEOUT_MS = 180_000  # a boot on a loaded machine can take long
STEP_MS = 20_000
SIGNAL = "__bench:"  # console messages the init script sends the harness

# In every document before its own scripts.  Everything is timed on the page's
# clock; the harness hears of ready, the first move and the worker by console
# messages (no polling from Python: it would cost the page's main thread).
INIT_JS = """
(() => {
  const b = window.__bench = {
    ready: null, table: null, firstMove: null, firstDown: null, worker: null, workerBoot: null,
    workerWasm: null, pointerup: null, mutation: null, frame: null,
  };
  const say = (what) => console.debug('__bench:' + what);
  const channel = new MessageChannel();
  let afterFrame = null;
  channel.port1.onmessage = () => { if (afterFrame) { const f = afterFrame; afterFrame = null; f(); } };
  document.addEventListener('pointerdown', () => {
    if (b.ready !== null && b.firstDown === null) b.firstDown = performance.now();
  }, true);
  document.addEventListener('pointerup', () => {
    b.pointerup = performance.now(); b.mutation = null; b.frame = null;
  }, true);
  new MutationObserver((records) => {
    const t = performance.now();
    for (const r of records) {
      const el = r.target;
      if (r.type === 'childList' && b.table === null) {
        for (const n of r.addedNodes) {
          if (n.nodeType === 1 && (n.matches('g.card') || n.querySelector('g.card'))) {
            b.table = -1;
            requestAnimationFrame(() => {
              afterFrame = () => { b.table = performance.now(); };
              channel.port2.postMessage(0);
            });
            break;
          }
        }
      }
      if (r.type !== 'attributes') continue;
      if (el === document.documentElement && r.attributeName === 'data-state'
          && el.getAttribute('data-state') === 'ready' && b.ready === null) { b.ready = t; say('ready'); }
      if (r.attributeName === 'data-value' && el.getAttribute('data-status') === 'moves'
          && el.getAttribute('data-value') === '1' && b.firstMove === null) { b.firstMove = t; say('move'); }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        attributeFilter: ['data-state', 'data-value']});
  const cards = new MutationObserver(() => {
    if (b.pointerup !== null && b.mutation === null) {
      b.mutation = performance.now();
      requestAnimationFrame(() => { b.frame = performance.now(); });
    }
  });
  document.addEventListener('DOMContentLoaded', () => {
    const g = document.getElementById('cards');
    if (g) cards.observe(g, {subtree: true, attributes: true, attributeFilter: ['data-pile', 'style']});
  }, {once: true});
  if (typeof Worker === 'function') {
    const Original = Worker;
    const Wrapped = function (url, options) {
      const w = new Original(url, options);
      w.addEventListener('message', (e) => {
        let d = e.data;
        if (typeof d === 'string') { try { d = JSON.parse(d); } catch (x) { return; } }
        if (d && d.type === 'ready' && b.worker === null) {
          b.worker = performance.now(); b.workerBoot = d.boot || null; b.workerWasm = d.wasm_bytes || null;
          say('worker');
        }
      });
      return w;
    };
    Wrapped.prototype = Original.prototype;
    window.Worker = Wrapped;
  }
})();
"""

POINTS_JS = """
async ([card, pile, settle]) => {
  if (settle) {
    const running = () => document.getAnimations().filter(a => a.playState === 'running');
    for (let i = 0; i < 10 && running().length; i++) {
      await Promise.race([Promise.all(running().map(a => a.finished.catch(() => null))),
                          new Promise(r => setTimeout(r, 1000))]);
    }
  }
  const cardEl = document.querySelector(`svg#table g#cards g.card[data-card="${card}"]`);
  const pileEl = document.querySelector(`svg#table g#piles rect.pile[data-pile="${pile}"]`);
  const find = (el, ys) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    for (const fy of ys) for (const fx of [0.5, 0.35, 0.65]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) return {x, y};
    }
    return null;
  };
  return {card: find(cardEl, [0.5, 0.3, 0.08]), pile: find(pileEl, [0.5, 0.3, 0.7])};
}
"""

READ_JS = """
async (ours) => {
  const b = window.__bench;
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  let info = null;
  if (ours) {
    try { info = await (await import('./static/runtime.mjs')).runtimeInfo(); } catch (e) { info = null; }
  }
  const wasm = document.documentElement.dataset.wasm;
  const mark = (name) => { const m = performance.getEntriesByName(name)[0]; return m ? m.startTime : null; };
  return {
    runtimeStart: mark('freecell:runtime-start'), runtimeLoaded: mark('freecell:runtime-loaded'),
    main: mark('freecell:main'),
    fcp: fcp ? fcp.startTime : null, table: b.table > 0 ? b.table : null, ready: b.ready,
    firstMove: b.firstMove, firstDown: b.firstDown, worker: b.worker, workerBoot: b.workerBoot,
    workerWasm: b.workerWasm, boot: info ? info.boot : (document.documentElement.dataset.boot || null),
    pageWasm: info ? info.wasmBytes : (wasm ? Number(wasm) : null),
  };
}
"""

MOVED_JS = """
([card, pile]) => {
  const b = window.__bench;
  const moves = document.querySelector('[data-status=moves]');
  const el = document.querySelector(`svg#table g#cards g.card[data-card="${card}"]`);
  if (!moves || moves.getAttribute('data-value') !== '1') return null;
  if (!el || el.getAttribute('data-pile') !== pile) return null;
  if (b.pointerup === null || b.mutation === null || b.frame === null) return null;
  return {pointerup: b.pointerup, mutation: b.mutation, frame: b.frame};
}
"""

PREFETCH_JS = """
async () => {
  const text = await (await fetch('/static/runtime.mjs')).text();
  const build = JSON.parse(text.match(/^const BUILD = (\\{.*\\});$/m)[1]);
  const cache = await caches.open('freecell ' + location.origin + '/ snapshots');
  for (const entry of Object.values(build.snapshots)) {
    const url = new URL(entry.url, new URL('/static/', location.href)).href;
    await cache.put(url, await fetch(url));
  }
  return Object.keys(build.snapshots).length;
}
"""


# --- one load ---------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    round: int
    fcp_ms: float | None = None
    table_ms: float | None = None
    ready_ms: float | None = None
    first_move_ms: float | None = None
    ready_to_input_ms: float | None = None
    runtime_start_ms: float | None = None
    runtime_loaded_ms: float | None = None
    main_ms: float | None = None
    worker_ready_ms: float | None = None
    worker_after_ready_ms: float | None = None
    cpu_to_ready_ms: float | None = None
    worker_cpu_ms: float | None = None
    boot: str | None = None
    worker_boot: str | None = None
    page_wasm_mb: float | None = None
    worker_wasm_mb: float | None = None
    js_heap_mb: float | None = None
    bytes: float | None = None
    requests: float | None = None
    not_modified: float | None = None


NUMERIC = ("fcp_ms", "table_ms", "ready_ms", "first_move_ms", "ready_to_input_ms", "runtime_start_ms",
           "runtime_loaded_ms", "main_ms", "worker_ready_ms",
           "worker_after_ready_ms", "cpu_to_ready_ms", "worker_cpu_ms", "page_wasm_mb", "worker_wasm_mb",
           "js_heap_mb", "bytes", "requests", "not_modified")


def tap(page: Page, point: dict[str, float]) -> None:
    page.mouse.move(point["x"], point["y"])
    page.mouse.down()
    page.mouse.up()


def signal(page: Page, what: str, timeout: float) -> Any:
    """A context manager that waits, when it exits, for the init script's console message ``what``."""
    return page.expect_console_message(lambda m: m.text == SIGNAL + what, timeout=timeout)


class Load:
    """Loads of one profile: a page with its trace and network log."""

    def __init__(self, ctx: BrowserContext) -> None:
        self.ctx = ctx
        self.page = ctx.pages[0] if ctx.pages else ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.cdp = ctx.new_cdp_session(self.page)
        self.net = NetLog(self.cdp)
        self.trace = Trace(self.cdp)
        self.cdp.send("Runtime.enable")

    def measure(self, kind: str, rnd: int, url: str, card: str | None, pile: str | None,
                ours: bool) -> Sample:
        page = self.page
        self.net.reset()
        self.trace.start()
        worker_expected = card is not None
        with contextlib.ExitStack() as stack:
            if worker_expected:  # waited for when the stack closes
                stack.enter_context(signal(page, "worker", TIMEOUT_MS))
            if kind == "static":
                page.goto(url, wait_until="load", timeout=TIMEOUT_MS)
                ready_at = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
            else:
                with signal(page, "ready", TIMEOUT_MS):
                    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
                ready_at = None
            if card is not None and pile is not None:
                points = page.evaluate(POINTS_JS, [card, pile, False])
                with signal(page, "move", STEP_MS):
                    tap(page, points["card"])
                    tap(page, points["pile"])
        r = page.evaluate(READ_JS, ours)
        self.trace.stop(page)
        heap = self.cdp.send("Runtime.getHeapUsage")
        s = Sample(kind=kind, round=rnd)
        s.fcp_ms, s.table_ms, s.first_move_ms = r["fcp"], r["table"], r["firstMove"]
        s.ready_ms = r["ready"] if ready_at is None else float(ready_at)
        if r["firstDown"] is not None and r["ready"] is not None:
            s.ready_to_input_ms = r["firstDown"] - r["ready"]
        s.runtime_start_ms, s.runtime_loaded_ms, s.main_ms = r["runtimeStart"], r["runtimeLoaded"], r["main"]
        s.worker_ready_ms = r["worker"]
        if r["worker"] is not None and s.ready_ms is not None:
            s.worker_after_ready_ms = r["worker"] - s.ready_ms
        base = url.split("?")[0]
        s.cpu_to_ready_ms = self.trace.cpu(base, s.ready_ms)
        s.worker_cpu_ms = self.trace.cpu(base, r["worker"], thread="DedicatedWorker")
        s.boot, s.worker_boot = r["boot"], r["workerBoot"]
        s.page_wasm_mb = None if r["pageWasm"] is None else r["pageWasm"] / 2**20
        s.worker_wasm_mb = None if r["workerWasm"] is None else r["workerWasm"] / 2**20
        s.js_heap_mb = heap["usedSize"] / 2**20
        t = self.net.totals()
        s.bytes, s.requests, s.not_modified = t["bytes"], t["requests"], t["not_modified"]
        # the next load is a returning player's: the move is taken back (the deal as it
        # started, so that the same move can be timed again), and the page left, which
        # saves the game and what the table looked like (static/early.js draws that at
        # the next load, before Python).  Other pages: their storage is forgotten.
        if ours and card is not None:
            page.keyboard.press("u")
            page.wait_for_function(
                "() => document.querySelector('[data-status=moves]')?.getAttribute('data-value') === '0'",
                timeout=STEP_MS)
        origin = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
        page.goto("about:blank")
        if not ours:
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
        return s

    def prefetch_snapshots(self, url: str) -> None:
        self.page.goto(url, wait_until="domcontentloaded")
        self.page.evaluate(PREFETCH_JS)
        self.page.goto("about:blank")

    def wait_controlled(self, url: str) -> None:
        self.page.goto(url, wait_until="domcontentloaded")
        self.page.evaluate("() => navigator.serviceWorker.ready.then(() => { window.__swReady = true; })")
        self.page.wait_for_function(
            "() => window.__swReady === true && navigator.serviceWorker.controller !== null",
            timeout=TIMEOUT_MS)
        self.page.goto("about:blank")


def measure_moves(page: Page, n: int, card: str, pile: str) -> tuple[list[float], list[float]]:
    """``n`` moves (each undone): pointerup -> #cards mutated, and -> the next frame."""
    latency: list[float] = []
    to_frame: list[float] = []
    undo = page.locator(".actionbar [data-action=undo]")
    for _ in range(n):
        p = page.evaluate(POINTS_JS, [card, pile, True])
        tap(page, p["card"])
        tap(page, p["pile"])
        handle = page.wait_for_function(MOVED_JS, arg=[card, pile], timeout=STEP_MS)
        t = handle.json_value()
        handle.dispose()
        latency.append(t["mutation"] - t["pointerup"])
        to_frame.append(t["frame"] - t["pointerup"])
        undo.click(timeout=STEP_MS)
        page.wait_for_selector('[data-status=moves][data-value="0"]', state="attached", timeout=STEP_MS)
    return latency, to_frame
