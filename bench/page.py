"""Benchmark of the page's start in headless Chromium, against a bare Pyodide and a static page.

Run it from the repository root (it builds ``dist/`` first, like the browser
tests do)::

    python3 -m bench.page                          # 5 interleaved rounds, 30 moves
    python3 -m bench.page --runs 7 --baseline /tmp/old/dist --json /tmp/page.json
    python3 -m bench.page --identity               # the server sends no precompressed file
    python3 -m bench.page motion [--rounds N]      # the table's motion (bench/motion.py)

What one *round* loads, in this order (a fresh browser profile, on disk, for
each sequence, so the HTTP cache is a real one; every site on its own
127.0.0.1 port, served by ``build.Handler``: ``Cache-Control: no-cache`` and
ETags, so a warm load revalidates each file and gets 304s; ``.gz`` files sent
to Chromium, which accepts gzip, unless ``--identity``):

* ``static``: a plain page of one paragraph;
* ``bare cold``, ``bare warm``: a page whose module script does nothing but
  ``await loadPyodide()`` of the npm package's files (``node_modules/pyodide``:
  the stdlib as the npm package ships it, sources only) and one
  ``runPython``, then sets ``<html data-state=ready>``; then the same page
  again in the same profile;
* ``cold``, ``warm``: our page (``?deal=1``) on a first visit, service workers
  blocked; then the two snapshots are stored in the page's own Cache API
  cache, as the page itself does after a first visit without a service worker
  (with one, its install caches them), and the page is loaded again: a
  revisit from the HTTP cache (304s) with the snapshots at hand;
* ``sw``: a first visit with service workers allowed, then (once the service
  worker controls the page) the revisit, answered by the service worker;
* with ``--baseline DIR`` (another build of the site, e.g. before a change):
  ``base cold``, ``base warm``, ``base sw`` the same way.

What is measured, in ms from the navigation start (the page's clock), by an
init script and read afterwards:

* *first paint*: the ``first-contentful-paint`` entry;
* *table visible*: the first ``g.card`` element in the document, then the
  frame after it (a ``requestAnimationFrame`` and a message posted from it):
  on a revisit, the table static/early.js draws before Python from what the
  last visit showed (each measured load takes its move back and leaves the
  page, as a returning player's last visit did; the plain pages' storage is
  forgotten instead);
* *ready*: ``<html data-state=ready>`` (a MutationObserver);
* *first move*: as soon as the page is ready, the harness taps the bottom card
  of column 1 and then free cell ``a``; when ``[data-status=moves]`` gets
  ``data-value="1"`` (this includes the harness's reaction: ready -> first
  ``pointerdown`` is reported beside it);
* *phases* of our page: static/runtime.mjs starting Pyodide, Pyodide (and
  freecell.zip) in place, static/main.py starting (after PyScript's own
  start), from their ``performance.mark`` entries;
* *worker ready*: the solver worker's ``ready`` message reaching the page
  (``window.Worker`` is wrapped to see it), and how the worker booted;
* *main-thread CPU to ready*: from a trace (CDP ``Tracing``, category
  ``toplevel``), the thread time (``tdur``) of the top-level tasks of the
  page's renderer main thread from the navigation start to ready; the
  worker's thread the same way to its ``ready``;
* *memory*: the page's wasm memory (``runtimeInfo()`` of static/runtime.mjs),
  the worker's (its ``ready`` message), the page's JS heap (CDP
  ``Runtime.getHeapUsage``);
* *bytes*: ``encodedDataLength`` of the page target's CDP ``Network`` events
  (bytes on the wire, headers included), requests and 304s; requests of
  workers (the solver's, the service worker's install) are not in it.

Then move latency on the ``sw`` page: ``--moves`` moves (column 1 to free
cell ``a``, tap-tap, each undone), pointerup -> ``#cards`` mutated, and ->
the next animation frame.

It prints medians (and the ratios to ``bare warm``), and writes every sample
as JSON to ``bench/results/page.json`` (git-ignored).  It asserts nothing about
speed.  The load average at the start and the end is reported: on a shared
machine, compare only figures of one run.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import platform
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, CDPSession, Page, sync_playwright

import build
from bench.common import ROOT, VIEWPORT, fmt, loadavg, results_file, run_and_report
from freecell.cards import card_text
from freecell.game import Game
from freecell.piles import Move

DEAL = 1
MOVE = "1a"  # column 1's bottom card to free cell a: legal on deal 1, not a move home
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
TIMEOUT_MS = 180_000  # a boot on a loaded machine can take long
STEP_MS = 20_000
DEFAULT_JSON = results_file("page")
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

STATIC_HTML = ("<!doctype html><html><head><title>static</title></head>"
               "<body><p>A static page.</p></body></html>\n")
BARE_HTML = """<!doctype html><html data-state="loading"><head><title>bare</title>
<script type="module" src="./bare.mjs"></script></head><body><p>bare loadPyodide()</p></body></html>
"""
BARE_MJS = """import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
const pyodide = await loadPyodide();
pyodide.runPython("1 + 1");
document.documentElement.dataset.wasm = String(pyodide._module.HEAP8.byteLength);
document.documentElement.dataset.state = "ready";
"""
NPM_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

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


# --- network accounting -------------------------------------------------------------------


@dataclass
class NetLog:
    """The page target's requests, from CDP Network events, since the last reset."""

    cdp: CDPSession
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    wire: dict[str, int] = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceivedExtraInfo", self._wire)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.send("Network.enable")

    def reset(self) -> None:
        self.files, self.wire = {}, {}

    def _sent(self, p: dict[str, Any]) -> None:
        if p.get("redirectResponse"):
            return
        url = p["request"]["url"]
        self.files[p["requestId"]] = {"url": url, "bytes": 0.0}
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.foreign.append(url)

    def _wire(self, p: dict[str, Any]) -> None:
        self.wire[p["requestId"]] = int(p.get("statusCode", 0))

    def _finished(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["bytes"] = float(p.get("encodedDataLength", 0))

    def sent(self) -> list[tuple[str, float]]:
        """The files whose body came over the wire (200 there), biggest first."""
        return sorted(((f["url"], f["bytes"]) for r, f in self.files.items() if self.wire.get(r) == 200),
                      key=lambda x: -x[1])

    def totals(self) -> dict[str, float]:
        return {
            "bytes": sum(f["bytes"] for f in self.files.values()),
            "requests": len(self.files),
            "not_modified": sum(self.wire.get(r) == 304 for r in self.files),
        }


# --- a trace of one load ---------------------------------------------------------------


class Trace:
    """CDP tracing of the page's target (category ``toplevel``), for main-thread CPU."""

    def __init__(self, cdp: CDPSession) -> None:
        self.cdp = cdp
        self.events: list[dict[str, Any]] = []
        self.done = False
        cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        cdp.on("Tracing.tracingComplete", lambda e: setattr(self, "done", True))

    def start(self) -> None:
        self.events, self.done = [], False
        self.cdp.send("Tracing.start", {"transferMode": "ReportEvents", "traceConfig": {
            "includedCategories": ["toplevel", "blink.user_timing", "__metadata"],
            "recordMode": "recordAsMuchAsPossible"}})

    def stop(self, page: Page) -> None:
        self.cdp.send("Tracing.end")
        for _ in range(400):
            if self.done:
                return
            page.wait_for_timeout(25)

    def cpu(self, url: str, until_ms: float | None, thread: str = "CrRendererMain") -> float | None:
        """Thread time (ms) of the top-level tasks of ``thread`` from the navigation start to ``until_ms``."""
        if until_ms is None:
            return None
        names = {(e["pid"], e["tid"]): e.get("args", {}).get("name") for e in self.events
                 if e.get("ph") == "M" and e.get("name") == "thread_name"}
        starts = [e for e in self.events if e.get("name") == "navigationStart"
                  and str(e.get("args", {}).get("data", {}).get("documentLoaderURL", "")).startswith(url)]
        if not starts:
            return None
        nav = starts[-1]
        pid = nav["pid"]
        end = nav["ts"] + until_ms * 1000
        total = 0.0
        for key in {k for k, v in names.items() if v and v.startswith(thread) and k[0] == pid}:
            tasks = sorted((e for e in self.events if (e["pid"], e["tid"]) == key and e.get("ph") == "X"
                            and e.get("cat") == "toplevel" and nav["ts"] <= e["ts"] <= end),
                           key=lambda e: e["ts"])
            covered = 0.0
            for e in tasks:  # only the outermost tasks
                if e["ts"] >= covered:
                    total += e.get("tdur", 0) / 1000
                    covered = e["ts"] + e.get("dur", 0)
        return total


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


# --- sites ------------------------------------------------------------------------------------


@contextlib.contextmanager
def plain_sites() -> Iterator[Path]:
    """A folder with the static page and the bare Pyodide page (npm files)."""
    with tempfile.TemporaryDirectory(prefix="freecell-bench-bare-") as tmp:
        root = Path(tmp)
        (root / "static.html").write_text(STATIC_HTML)
        (root / "bare.html").write_text(BARE_HTML)
        (root / "bare.mjs").write_text(BARE_MJS)
        (root / "vendor" / "pyodide").mkdir(parents=True)
        for name in NPM_FILES:
            shutil.copy2(build.NODE_MODULES / "pyodide" / name, root / "vendor" / "pyodide" / name)
        for name in ("pyodide.asm.wasm", "pyodide.asm.mjs"):  # as our build precompresses them
            gz = build.DIST / "vendor" / "pyodide" / (name + ".gz")
            if gz.exists():
                shutil.copy2(gz, root / "vendor" / "pyodide" / (name + ".gz"))
        yield root


Workers = Literal["allow", "block"]


def sequences(args: argparse.Namespace) -> list[tuple[str, Workers, list[str]]]:
    """(site, service workers, kinds measured in that profile, in order)."""
    out: list[tuple[str, Workers, list[str]]] = [
        ("plain", "block", ["static"]), ("plain", "block", ["bare cold", "bare warm"]),
        ("ours", "block", ["cold", "warm"]), ("ours", "allow", ["sw"])]
    if args.baseline:
        out += [("base", "block", ["base cold", "base warm"]), ("base", "allow", ["base sw"])]
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    from importlib.metadata import version

    game = Game(DEAL)
    move = Move.parse(MOVE)
    card = card_text(game.position.columns[move.src.index][-1])
    pile = move.dst.text()
    start_load = loadavg()
    samples: list[Sample] = []
    errors: list[str] = []
    foreign: list[str] = []
    latency: list[float] = []
    to_frame: list[float] = []
    build.Handler.precompressed = not args.identity
    launch = build.chromium_launch_args()
    with contextlib.ExitStack() as stack:
        ours_dir = stack.enter_context(build.built_copy())
        plain_dir = stack.enter_context(plain_sites())
        urls = {"ours": stack.enter_context(build.serving(ours_dir)),
                "plain": stack.enter_context(build.serving(plain_dir))}
        if args.baseline:
            urls["base"] = stack.enter_context(build.serving(args.baseline))
        pw = stack.enter_context(sync_playwright())
        chromium = ""
        for rnd in range(1, args.runs + 1):
            for site, workers, kinds in sequences(args):
                with tempfile.TemporaryDirectory(prefix="freecell-bench-profile-") as profile:
                    ctx = pw.chromium.launch_persistent_context(
                        profile, viewport=VIEWPORT, locale="en-GB", service_workers=workers, **launch)
                    if not chromium:
                        agent = ctx.pages[0].evaluate("() => navigator.userAgent")
                        chromium = agent.split("Chrome/")[-1].split(" ")[0]
                    try:
                        ctx.add_init_script(INIT_JS)
                        load = Load(ctx)
                        game_page = site != "plain"
                        for kind in kinds:
                            if kind == "static":
                                url = urls[site] + "static.html"
                            elif kind.startswith("bare"):
                                url = urls[site] + "bare.html"
                            else:
                                url = urls[site] + f"?deal={DEAL}"
                            if kind == "warm":
                                load.prefetch_snapshots(urls[site] + "static/README.txt")
                            if kind in ("sw", "base sw"):
                                # the first visit registers the service worker; the revisit is measured
                                load.measure("first visit", rnd, url, card, pile, site == "ours")
                                load.wait_controlled(urls[site] + "static/README.txt")
                            s = load.measure(kind, rnd, url, card if game_page else None,
                                             pile if game_page else None, site == "ours")
                            samples.append(s)
                            print(f"round {rnd} {kind:10}: ready {fmt(s.ready_ms)}, table {fmt(s.table_ms)}, "
                                  f"worker +{fmt(s.worker_after_ready_ms)}, CPU {fmt(s.cpu_to_ready_ms)}, "
                                  f"boot {s.boot}/{s.worker_boot}, {fmt_bytes(s.bytes)}",
                                  file=sys.stderr, flush=True)
                        if kinds == ["sw"] and rnd == args.runs and args.moves:
                            with signal(load.page, "ready", TIMEOUT_MS):
                                load.page.goto(urls[site] + f"?deal={DEAL}", wait_until="commit")
                            latency, to_frame = measure_moves(load.page, args.moves, card, pile)
                        errors += load.errors
                        foreign += load.net.foreign
                    finally:
                        ctx.close()
    return {
        "meta": {
            "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "deal": DEAL, "runs": args.runs, "moves": args.moves, "chromium": chromium,
            "chromium_path": launch.get("executable_path", "playwright's chromium"),
            "playwright": version("playwright"), "python": platform.python_version(),
            "cpus": os.cpu_count(), "loadavg_start": start_load,
            "loadavg_end": loadavg(),
            "precompressed": not args.identity, "baseline": str(args.baseline or ""),
            "foreign_requests": sorted(set(foreign)), "page_errors": errors,
        },
        "samples": [s.__dict__ for s in samples],
        "medians": medians(samples),
        "move_latency": {"moves": len(latency), "pointerup_to_mutation_ms": latency,
                         "pointerup_to_next_frame_ms": to_frame},
    }


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


# --- report --------------------------------------------------------------------------------


KINDS = ("static", "bare cold", "bare warm", "cold", "warm", "sw", "base cold", "base warm", "base sw")


def medians(samples: list[Sample]) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for kind in KINDS:
        mine = [s for s in samples if s.kind == kind]
        if not mine:
            continue
        row: dict[str, float | None] = {}
        for key in NUMERIC:
            values = [getattr(s, key) for s in mine if getattr(s, key) is not None]
            row[key] = statistics.median(values) if values else None
        out[kind] = row
    return out


def fmt_bytes(v: float | None) -> str:
    if v is None:
        return "n/a"
    return f"{v / 1e6:,.2f} MB" if v >= 1e6 else f"{v / 1e3:,.1f} kB"


def report(result: dict[str, Any]) -> str:
    meta, med = result["meta"], result["medians"]
    lines = [
        f"FreeCell start-up: {meta['runs']} interleaved rounds, deal {meta['deal']}; "
        f"Chromium {meta['chromium']}, {meta['cpus']} CPUs, "
        f"load average {meta['loadavg_start']} -> {meta['loadavg_end']}, "
        f"precompressed files {'on' if meta['precompressed'] else 'off'}",
        "",
        "medians, ms from navigation start   paint   table   ready    move  worker  +worker  CPU>ready"
        "  xbare    bytes  304s  page/worker wasm MB  JS heap MB  boot",
    ]
    bare = (med.get("bare warm") or {}).get("ready_ms")
    bare_cpu = (med.get("bare warm") or {}).get("cpu_to_ready_ms")
    for kind, row in med.items():
        ratio = "" if not bare or row["ready_ms"] is None else f"{row['ready_ms'] / bare:.2f}"
        boots = sorted({f"{s['boot']}/{s['worker_boot']}" for s in result["samples"] if s["kind"] == kind})
        lines.append(
            f"  {kind:33} {fmt(row['fcp_ms']):>6} {fmt(row['table_ms']):>7} {fmt(row['ready_ms']):>7} "
            f"{fmt(row['first_move_ms']):>7} {fmt(row['worker_ready_ms']):>7} "
            f"{fmt(row['worker_after_ready_ms']):>8} {fmt(row['cpu_to_ready_ms']):>10} {ratio:>6} "
            f"{fmt_bytes(row['bytes']):>9} {fmt(row['not_modified']):>5} "
            f"{fmt(row['page_wasm_mb']):>9}/{fmt(row['worker_wasm_mb']):<9} {row['js_heap_mb'] or 0:>9.1f}  "
            + ",".join(boots))
    if bare and bare_cpu:
        lines.append(f"  (xbare: ready over 'bare warm' ready; bare warm main-thread CPU {bare_cpu:,.0f} ms)")
    lines.append("\nour page's phases (medians, ms): runtime.mjs starts, Pyodide and freecell.zip in place,"
                 " main.py starts (after PyScript's own start), ready")
    for kind in ("cold", "warm", "sw"):
        row = med.get(kind)
        if row:
            lines.append(f"  {kind:6} {fmt(row['runtime_start_ms']):>6} {fmt(row['runtime_loaded_ms']):>7} "
                         f"{fmt(row['main_ms']):>7} {fmt(row['ready_ms']):>7}")
    lat = result["move_latency"]
    if lat["moves"]:
        m = statistics.median(lat["pointerup_to_mutation_ms"])
        f = statistics.median(lat["pointerup_to_next_frame_ms"])
        lines.append(f"\nmove latency over {lat['moves']} moves (median): "
                     f"pointerup -> #cards mutated {m:.1f} ms, -> next frame {f:.1f} ms")
    if meta["foreign_requests"]:
        lines.append("WARNING: requests left localhost: " + ", ".join(meta["foreign_requests"]))
    if meta["page_errors"]:
        lines.append("WARNING: uncaught page errors: " + " | ".join(meta["page_errors"][:5]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["motion"]:  # the table's motion: input to table, the frames of a move
        from bench import motion

        return motion.main(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--moves", type=int, default=30, help="moves timed for latency (default 30; 0: none)")
    parser.add_argument("--baseline", type=Path,
                        help="another built site to measure beside (e.g. the last commit's)")
    parser.add_argument("--identity", action="store_true", help="send no precompressed .gz file")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"where to write the figures (default {DEFAULT_JSON.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 0:
        parser.error("--runs must be at least 1, --moves at least 0")
    return run_and_report(lambda: run(args), report, args.json)


if __name__ == "__main__":
    sys.exit(main())
