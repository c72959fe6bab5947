"""Benchmark of the page in headless Chromium: load times, bytes, move latency.

Run it from the repository root (it builds ``dist/`` first, like the browser
tests do)::

    python3 bench/page.py                    # 5 cold + 5 warm loads, 100 moves
    python3 bench/page.py --runs 3 --moves 50 --json /tmp/page.json
    python3 bench/page.py --disk-cache       # warm loads with an on-disk HTTP cache

What it measures, on deal 1 (``/?deal=1``), against the site built by
``build.build()`` (copied to a temporary folder, so that a concurrent build
cannot pull files away mid-run) and served by ``build.Handler`` from a thread
on a free 127.0.0.1 port:

1. Load times, in ms from the start of the navigation (the page's own
   ``performance.now()`` clock, whose origin is the navigation start):

   * *first table paint*: the ``first-contentful-paint`` paint entry (the
     table's frame is plain HTML/CSS, drawn before Python runs);
   * *cards ready*: the moment ``<html data-state>`` becomes ``ready``,
     recorded in the page by a MutationObserver installed with
     ``add_init_script`` (no polling from Python);
   * *first move accepted*: as soon as the page is ready, the harness taps the
     bottom card of column 1 and then free cell ``a`` (tap-tap with the mouse),
     and the page records when ``[data-status=moves]`` gets ``data-value="1"``.
     This includes the harness's reaction time (noticing ``ready``, finding
     the two points, sending the pointer events): the gap from ``ready`` to
     the first ``pointerdown`` is reported beside it.

   *Cold*: a new browser context (empty HTTP cache) per run.  *Warm*: a second
   navigation to the same URL on the same page of that context; the server
   sends ``Cache-Control: no-cache``, so warm loads revalidate every file
   (304 Not Modified) rather than skip the network.  ``--runs`` runs of each;
   the medians are reported.  A new Playwright context keeps its HTTP cache
   in memory, and that cache does not keep ``pyodide.asm.wasm`` (9.6 MB): it
   comes again in full on every warm load (the report lists what did).  With
   ``--disk-cache`` each run uses a fresh persistent profile instead (an
   on-disk cache, as a real browser profile has), where it is revalidated.

2. Bytes transferred per load: the sum of ``encodedDataLength`` of the CDP
   ``Network.loadingFinished`` events of the page's target (bytes on the wire,
   headers included; a 304 counts its headers only), with the number of
   requests and of 304 and 200 answers as ``Network.responseReceivedExtraInfo``
   gives them (the status on the wire: a ``fetch()`` revalidated by a 304 is a
   200 to the page).  The page's Resource Timing
   ``transferSize`` / ``encodedBodySize`` sums (navigation and resource
   entries) are recorded beside them as a cross-check.

3. Move latency: time from pointer release to the table updated, over
   ``--moves`` moves (default 100) on one page.  An init script adds a
   capture-phase ``pointerup`` listener on ``document`` that stores
   ``performance.now()``, and a MutationObserver on ``#cards`` (attributes
   ``data-pile`` and ``style``) that stores the time of the first mutation
   after the latest ``pointerup``; the latency is the difference.  The
   observer's callback runs right after the page's handler returns, so this
   is input handling plus the DOM update, without layout and paint; the time
   to the next ``requestAnimationFrame`` after that mutation is reported too,
   as an upper view that includes waiting for the frame.  Each move is the
   column 1 bottom card to free cell ``a`` (tap-tap with ``page.mouse``); an
   Undo (a click on ``[data-action=undo]``) follows each, and is not counted.
   Before each move the harness waits for running animations to end, so the
   taps hit the cards where they are.

It prints a table and writes the same figures, with every sample, as JSON to
``bench/results/page.json`` (git-ignored; ``--json PATH`` for another file).
It asserts nothing about speed: it only reports.  Timings on a shared or
loaded machine are noisy; the load average at the start and the end is in
the JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import BrowserContext, CDPSession, Page, sync_playwright  # noqa: E402

import build  # noqa: E402
from freecell.cards import card_text  # noqa: E402
from freecell.game import Game  # noqa: E402
from freecell.piles import Move  # noqa: E402

DEAL = 1
MOVE = "1a"  # column 1's bottom card to free cell a: legal on deal 1, not a move home
VIEWPORT = {"width": 1280, "height": 800}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
READY_TIMEOUT_MS = 180_000  # Pyodide boots in seconds; far longer on a loaded machine
STEP_TIMEOUT_MS = 20_000
DEFAULT_JSON = ROOT / "bench" / "results" / "page.json"
BYTES_METHOD = (
    "sum of encodedDataLength of CDP Network.loadingFinished events of the page's target "
    "(bytes on the wire, headers included); Resource Timing transferSize and encodedBodySize "
    "sums (navigation + resource entries) recorded as a cross-check"
)

# Installed in every document before its own scripts run.  Everything is
# timed with the page's clock; Python only reads window.__bench afterwards.
INIT_JS = """
(() => {
  const b = window.__bench = {
    ready: null, firstMove: null, firstDown: null,
    pointerup: null, mutation: null, frame: null,
  };
  document.addEventListener('pointerdown', () => {
    if (b.ready !== null && b.firstDown === null) b.firstDown = performance.now();
  }, true);
  document.addEventListener('pointerup', () => {
    b.pointerup = performance.now();
    b.mutation = null;
    b.frame = null;
  }, true);
  new MutationObserver((records) => {
    const t = performance.now();
    for (const r of records) {
      const el = r.target;
      if (el === document.documentElement && r.attributeName === 'data-state'
          && el.getAttribute('data-state') === 'ready' && b.ready === null) b.ready = t;
      if (r.attributeName === 'data-value' && el.getAttribute('data-status') === 'moves'
          && el.getAttribute('data-value') === '1' && b.firstMove === null) b.firstMove = t;
    }
  }).observe(document, {subtree: true, attributes: true,
                        attributeFilter: ['data-state', 'data-value']});
  const cards = new MutationObserver(() => {
    const t = performance.now();
    if (b.pointerup !== null && b.mutation === null) {
      b.mutation = t;
      requestAnimationFrame(() => { b.frame = performance.now(); });
    }
  });
  const watch = () => {
    const g = document.getElementById('cards');
    if (g) cards.observe(g, {subtree: true, attributes: true, attributeFilter: ['data-pile', 'style']});
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', watch, {once: true});
  } else {
    watch();
  }
})();
"""

# The points to press: a visible point of the card and of the pile's drop
# area (each checked with elementFromPoint), after running animations end
# when asked to.
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

READ_LOAD_JS = """
() => {
  const b = window.__bench;
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const entries = [...performance.getEntriesByType('navigation'),
                   ...performance.getEntriesByType('resource')];
  return {
    fcp: fcp ? fcp.startTime : null,
    ready: b.ready, firstMove: b.firstMove, firstDown: b.firstDown,
    transferSize: entries.reduce((s, e) => s + (e.transferSize || 0), 0),
    encodedBodySize: entries.reduce((s, e) => s + (e.encodedBodySize || 0), 0),
    entries: entries.length,
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


# --- the site ------------------------------------------------------------------------


# --- network accounting ----------------------------------------------------------------


@dataclass
class NetLog:
    """The page target's requests, from CDP Network events, since the last reset."""

    cdp: CDPSession
    files: dict[str, dict[str, Any]] = field(default_factory=dict)  # by request id
    wire: dict[str, int] = field(default_factory=dict)  # status on the wire, by request id
    pending: set[str] = field(default_factory=set)
    foreign: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.responseReceivedExtraInfo", self._wire)
        self.cdp.on("Network.requestServedFromCache", self._cached)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.loadingFailed", self._failed)
        self.cdp.send("Network.enable")

    def reset(self) -> None:
        self.files, self.wire, self.pending, self.foreign = {}, {}, set(), []

    def _sent(self, p: dict[str, Any]) -> None:
        if p.get("redirectResponse"):
            return  # the same request id goes on
        url = p["request"]["url"]
        self.files[p["requestId"]] = {"url": url, "status": None, "bytes": None,
                                      "from_cache": False, "failed": False}
        self.pending.add(p["requestId"])
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.foreign.append(url)

    def _response(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["status"] = p["response"].get("status")

    def _wire(self, p: dict[str, Any]) -> None:
        # May come before requestWillBeSent.  A fetch() that a 304 revalidated
        # is a 200 to the page (and in responseReceived); here it is the 304.
        self.wire[p["requestId"]] = int(p.get("statusCode", 0))

    def _cached(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["from_cache"] = True

    def _finished(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["bytes"] = float(p.get("encodedDataLength", 0))
        self.pending.discard(p["requestId"])

    def _failed(self, p: dict[str, Any]) -> None:
        if p["requestId"] in self.files:
            self.files[p["requestId"]]["failed"] = True
        self.pending.discard(p["requestId"])

    def settle(self, page: Page, timeout_ms: int = 10_000) -> None:
        """Let the events of requests still open arrive (the sync API delivers them while waiting)."""
        waited = 0
        while self.pending and waited < timeout_ms:
            page.wait_for_timeout(50)
            waited += 50

    def table(self, base: str) -> list[dict[str, Any]]:
        """One row per request: URL (relative to ``base``), statuses, bytes on the wire."""
        return [{**f, "url": f["url"].removeprefix(base), "wire_status": self.wire.get(rid)}
                for rid, f in self.files.items()]


# --- one load ----------------------------------------------------------------------------


@dataclass
class LoadSample:
    fcp_ms: float | None
    ready_ms: float
    first_move_ms: float
    ready_to_input_ms: float | None
    bytes: float
    requests: int
    not_modified: int
    full_downloads: int
    from_cache: int
    failed: int
    rt_transfer_size: float
    rt_encoded_body_size: float
    rt_entries: int
    files: list[dict[str, Any]] = field(default_factory=list)  # url, status, bytes, from_cache


NUMERIC = (
    "fcp_ms", "ready_ms", "first_move_ms", "ready_to_input_ms",
    "bytes", "requests", "not_modified", "full_downloads", "from_cache", "failed",
    "rt_transfer_size", "rt_encoded_body_size", "rt_entries",
)


def tap(page: Page, point: dict[str, float]) -> None:
    page.mouse.move(point["x"], point["y"])
    page.mouse.down()
    page.mouse.up()


def points(page: Page, card: str, pile: str, settle: bool) -> tuple[dict[str, float], dict[str, float]]:
    p = page.evaluate(POINTS_JS, [card, pile, settle])
    if p["card"] is None or p["pile"] is None:
        raise RuntimeError(f"cannot find a visible point of the card {card} or the pile {pile}: {p}")
    return p["card"], p["pile"]


def wait_ready(page: Page) -> None:
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement.dataset.state)",
        polling="raf",
        timeout=READY_TIMEOUT_MS,
    )
    state = page.evaluate("() => document.documentElement.dataset.state")
    if state != "ready":
        raise RuntimeError(f"the page failed to start: html[data-state={state}]")


def describe_message(page: Page) -> str:
    msg = page.locator("[data-role=message]")
    return f"message {msg.inner_text()!r}, reason {msg.get_attribute('data-reason')!r}"


def measure_load(page: Page, net: NetLog, url: str, card: str, pile: str) -> LoadSample:
    """Navigate, make the first move as soon as the cards are ready, read the page's clock."""
    net.reset()
    page.goto(url, wait_until="commit", timeout=READY_TIMEOUT_MS)
    wait_ready(page)
    src, dst = points(page, card, pile, settle=False)
    tap(page, src)
    tap(page, dst)
    try:
        page.wait_for_function("() => window.__bench.firstMove !== null", timeout=STEP_TIMEOUT_MS)
    except Exception as e:
        raise RuntimeError(f"the first move was not accepted: {describe_message(page)}") from e
    r = page.evaluate(READ_LOAD_JS)
    net.settle(page)
    files = net.table(url.split("?")[0])
    return LoadSample(
        fcp_ms=r["fcp"],
        ready_ms=r["ready"],
        first_move_ms=r["firstMove"],
        ready_to_input_ms=None if r["firstDown"] is None else r["firstDown"] - r["ready"],
        bytes=sum(f["bytes"] or 0.0 for f in files),
        requests=len(files),
        not_modified=sum(f["wire_status"] == 304 for f in files),
        full_downloads=sum(f["wire_status"] == 200 for f in files),
        from_cache=sum(f["from_cache"] for f in files),
        failed=sum(f["failed"] for f in files),
        rt_transfer_size=r["transferSize"],
        rt_encoded_body_size=r["encodedBodySize"],
        rt_entries=r["entries"],
        files=files,
    )


# --- move latency ------------------------------------------------------------------------


def measure_moves(page: Page, n: int, card: str, pile: str) -> tuple[list[float], list[float]]:
    """``n`` moves (each undone afterwards): pointerup → #cards mutated, and → next frame."""
    latency: list[float] = []
    to_frame: list[float] = []
    undo = page.locator(".actionbar [data-action=undo]")
    for i in range(n):
        src, dst = points(page, card, pile, settle=True)
        tap(page, src)
        tap(page, dst)
        try:
            handle = page.wait_for_function(MOVED_JS, arg=[card, pile], timeout=STEP_TIMEOUT_MS)
        except Exception as e:
            raise RuntimeError(f"move {i + 1} was not played: {describe_message(page)}") from e
        t = handle.json_value()
        handle.dispose()
        latency.append(t["mutation"] - t["pointerup"])
        to_frame.append(t["frame"] - t["pointerup"])
        undo.click(timeout=STEP_TIMEOUT_MS)
        page.wait_for_selector('[data-status=moves][data-value="0"]', state="attached",
                               timeout=STEP_TIMEOUT_MS)
    return latency, to_frame


# --- statistics and report ----------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0-100)."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "p95": percentile(values, 95),
        "mean": statistics.fmean(values),
        "min": min(values),
        "max": max(values),
    }


def median_of(samples: list[LoadSample], key: str) -> float | None:
    values = [getattr(s, key) for s in samples if getattr(s, key) is not None]
    return statistics.median(values) if values else None


def fmt_ms(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.1f} ms"


def fmt_bytes(v: float | None) -> str:
    if v is None:
        return "n/a"
    if v >= 1_000_000:
        return f"{v / 1_000_000:,.2f} MB"
    if v >= 1_000:
        return f"{v / 1_000:,.1f} kB"
    return f"{v:,.0f} B"


def count(v: float | None) -> str:
    return "n/a" if v is None else f"{v:g}"


def report_text(result: dict[str, Any]) -> str:
    meta = result["meta"]
    load = result["load"]
    lines = [
        f"FreeCell page benchmark: deal {meta['deal']}, {meta['runs']} cold + {meta['runs']} warm loads, "
        f"{meta['moves']} moves",
        f"Chromium {meta['chromium']} ({meta['chromium_path']}), Playwright {meta['playwright']}, "
        f"{meta['cpus']} CPUs, load average {meta['loadavg_start']} -> {meta['loadavg_end']}",
        "",
        "Load (medians, ms from navigation start)   cold           warm",
    ]
    rows = [
        ("first table paint (FCP)", "fcp_ms", fmt_ms),
        ("cards ready (data-state=ready)", "ready_ms", fmt_ms),
        ("first move accepted", "first_move_ms", fmt_ms),
        ("  of which ready -> first pointerdown", "ready_to_input_ms", fmt_ms),
        ("bytes on the wire (CDP)", "bytes", fmt_bytes),
        ("requests", "requests", count),
        ("  answered 304 Not Modified", "not_modified", count),
        ("  answered 200 (body sent)", "full_downloads", count),
        ("Resource Timing transferSize", "rt_transfer_size", fmt_bytes),
        ("Resource Timing encodedBodySize", "rt_encoded_body_size", fmt_bytes),
    ]
    for label, key, fmt in rows:
        cold = load["cold"]["median"][key]
        warm = load["warm"]["median"][key]
        lines.append(f"  {label:<40} {fmt(cold):>14} {fmt(warm):>14}")
    full = load["warm"]["sent_in_full"]
    lines.append(f"  HTTP cache: {meta['cache']}")
    if full:
        lines.append("  sent in full again on warm loads (status 200 on the wire): "
                     + ", ".join(f"{f['url']} ({fmt_bytes(f['bytes'])})" for f in full))
        if not meta["cache"].startswith("a fresh persistent"):
            lines.append("    (the in-memory cache of a new context did not keep it; "
                         "--disk-cache measures with an on-disk cache, as a browser profile has)")
    lat = result["move_latency"]
    lines += [
        "",
        f"Move latency over {lat['moves']} moves (tap-tap, each undone; ms)"
        "   median      p95      min      max",
    ]
    for label, key in (("pointerup -> #cards mutated", "pointerup_to_mutation_ms"),
                       ("pointerup -> next animation frame", "pointerup_to_next_frame_ms")):
        s = lat[key]
        lines.append(f"  {label:<58} {s['median']:>7.1f} {s['p95']:>8.1f} {s['min']:>8.1f} {s['max']:>8.1f}")
    lines += [
        "",
        f"bytes: {meta['bytes_method']}",
        "Timings from a shared machine are noisy; compare runs made under the same load.",
    ]
    if meta["foreign_requests"]:
        lines.append("WARNING: requests left localhost: " + ", ".join(meta["foreign_requests"]))
    if meta["page_errors"]:
        lines.append("WARNING: uncaught page errors: " + " | ".join(meta["page_errors"][:5]))
    return "\n".join(lines)


def load_block(samples: list[LoadSample]) -> dict[str, Any]:
    return {
        "median": {k: median_of(samples, k) for k in NUMERIC},
        "runs": [asdict(s) for s in samples],
    }


# --- main -------------------------------------------------------------------------------


def new_context(browser: Any) -> BrowserContext:
    ctx: BrowserContext = browser.new_context(viewport=VIEWPORT, locale="en-GB")
    # No ctx.route() here: Playwright turns the HTTP cache off when routing is on.
    ctx.add_init_script(INIT_JS)
    return ctx


def loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def sent_in_full(samples: list[LoadSample], min_bytes: float = 1_000) -> list[dict[str, Any]]:
    """The files whose body came over the wire (status 200 there) in any of these loads."""
    out: dict[str, float] = {}
    for s in samples:
        for f in s.files:
            if f["wire_status"] == 200 and (f["bytes"] or 0) >= min_bytes:
                out[f["url"]] = max(out.get(f["url"], 0.0), f["bytes"])
    return [{"url": u, "bytes": b} for u, b in sorted(out.items(), key=lambda kv: -kv[1])]


def run(runs: int, moves: int, disk_cache: bool = False) -> dict[str, Any]:
    from importlib.metadata import version

    game = Game(DEAL)
    move = Move.parse(MOVE)
    if game.check(move) is not None:
        raise RuntimeError(f"{MOVE} is not legal on deal {DEAL}")
    card = card_text(game.position.columns[move.src.index][-1])
    pile = move.dst.text()
    start_load = loadavg()
    cold: list[LoadSample] = []
    warm: list[LoadSample] = []
    page_errors: list[str] = []
    foreign: list[str] = []
    with build.built_copy() as site, build.serving(site) as base, sync_playwright() as pw:
        url = f"{base}?deal={DEAL}"
        launch = build.chromium_launch_args()
        browser = pw.chromium.launch(**launch)
        try:
            for i in range(runs):
                with contextlib.ExitStack() as stack:
                    if disk_cache:
                        profile = stack.enter_context(
                            tempfile.TemporaryDirectory(prefix="freecell-bench-profile-"))
                        ctx = pw.chromium.launch_persistent_context(
                            profile, viewport=VIEWPORT, locale="en-GB", **launch)
                        ctx.add_init_script(INIT_JS)
                    else:
                        ctx = new_context(browser)
                    stack.callback(ctx.close)
                    page = ctx.pages[0] if ctx.pages else ctx.new_page()
                    page.on("pageerror", lambda err: page_errors.append(str(err)))
                    net = NetLog(ctx.new_cdp_session(page))
                    for kind, out in (("cold", cold), ("warm", warm)):
                        sample = measure_load(page, net, url, card, pile)
                        foreign += net.foreign
                        out.append(sample)
                        print(f"run {i + 1}/{runs} {kind}: FCP {fmt_ms(sample.fcp_ms)}, "
                              f"ready {fmt_ms(sample.ready_ms)}, first move {fmt_ms(sample.first_move_ms)}, "
                              f"{fmt_bytes(sample.bytes)} in {sample.requests} requests",
                              file=sys.stderr, flush=True)
            ctx = new_context(browser)
            try:
                page = ctx.new_page()
                page.on("pageerror", lambda err: page_errors.append(str(err)))
                page.goto(url, timeout=READY_TIMEOUT_MS)
                wait_ready(page)
                print(f"moves: {moves} tap-tap moves, each undone", file=sys.stderr, flush=True)
                latency, to_frame = measure_moves(page, moves, card, pile)
            finally:
                ctx.close()
            chromium = browser.version
            chromium_path = launch.get("executable_path", "playwright's chromium")
        finally:
            browser.close()
    return {
        "meta": {
            "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "deal": DEAL,
            "move": f"{MOVE} ({card} to free cell {pile}) by tap-tap, then Undo",
            "runs": runs,
            "moves": moves,
            "chromium": chromium,
            "chromium_path": chromium_path,
            "chromium_args": build.CHROMIUM_ARGS,
            "playwright": version("playwright"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_start": start_load,
            "loadavg_end": loadavg(),
            "viewport": VIEWPORT,
            "bytes_method": BYTES_METHOD,
            "cache": ("a fresh persistent profile per run (on-disk HTTP cache)" if disk_cache else
                      "a new browser context per run (Playwright's default: in-memory HTTP cache)"),
            "warm_means": "second navigation on the same page of the same context; "
                          "Cache-Control: no-cache, so files are revalidated (304)",
            "first_move_note": "includes the harness's reaction time; see ready_to_input_ms",
            "latency_method": "capture-phase pointerup on document stores performance.now(); "
                              "MutationObserver on #cards (data-pile, style) stores the first "
                              "mutation after it; next frame = requestAnimationFrame after that mutation",
            "foreign_requests": sorted(set(foreign)),
            "page_errors": page_errors,
        },
        "load": {
            "cold": load_block(cold),
            "warm": {**load_block(warm), "sent_in_full": sent_in_full(warm)},
        },
        "move_latency": {
            "moves": moves,
            "pointerup_to_mutation_ms": summary(latency),
            "pointerup_to_next_frame_ms": summary(to_frame),
            "samples_mutation_ms": latency,
            "samples_next_frame_ms": to_frame,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="cold and warm loads each (default 5)")
    parser.add_argument("--moves", type=int, default=100, help="moves timed for latency (default 100)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"where to write the figures (default {DEFAULT_JSON.relative_to(ROOT)})")
    parser.add_argument("--disk-cache", action="store_true",
                        help="run each cold/warm pair in a fresh persistent profile (on-disk HTTP "
                             "cache) instead of a new browser context (in-memory cache)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 1:
        parser.error("--runs and --moves must be at least 1")
    try:
        result = run(args.runs, args.moves, disk_cache=args.disk_cache)
    except build.BuildError as e:
        print(f"build: {e}", file=sys.stderr)
        return 2
    print(report_text(result))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
