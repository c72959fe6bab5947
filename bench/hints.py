"""Benchmark of the hints in headless Chromium: the worker's verdicts, Hint, input while it searches.

Run it from the repository root (it builds ``dist/`` first, like the browser
tests do)::

    python3 -m bench.hints                          # deals 1-100 and 11982, 30 moves
    python3 -m bench.hints --deals 1-30,11982 --moves 30 --cold 3
    python3 -m bench.hints --json /tmp/hints.json

The site is built by ``build.build()``, copied to a temporary folder and served
by ``build.Handler`` from a thread on a free 127.0.0.1 port; Chromium is
launched as the browser tests launch it (Debian's ``/usr/bin/chromium`` when
it exists, headless, no sandbox, no GPU), 1280x800.  An init script replaces
``window.Worker`` by a subclass that logs, on the page's clock
(``performance.now()``), every message the page posts to the solver worker
and every message it sends back; it also logs the states of the hint bar and
of ``[data-status=winnable]``, pointer releases and the cards' ``data-pile``
changes.  Nothing is polled for timing: every time below is a difference of
two timestamps taken in the page.

What it measures:

1. *Cold start* (``--cold`` pages, the first deals of the list): a fresh
   browser context per page; from ``<html data-state=ready>`` to the worker's
   ``ready`` message (the worker boots its own Pyodide after the page's), and
   to the first verdict on the deal (the result message; the winnability
   indicator changes in the same task).

2. *Analysis of a fresh deal* by a worker that is already up, for every deal:
   one page, the deals opened one after the other through the settings form
   (Settings, the deal field, "Play this deal"; a new page per deal would time
   Pyodide's boot, not the solver).  The page asks the worker about every new
   position by itself: *verdict* is the time from the page posting that
   ``solve`` request to the ``result`` coming back; *indicator* the time to
   ``[data-status=winnable]`` leaving ``unknown`` (not at all when the
   verdict is ``unknown``: the page's budget, 3 s of search, ran out); the
   worker's own ``ms`` (search time inside the worker) and ``nodes`` are
   recorded beside them.  Looking at the winnability first would not do for
   timing Hint, since the start is then already analysed.  So:

3. *Hint on a position not yet analysed*: after the start's verdict, one move
   off the solution the page holds (tap-tap, to a free cell or a column), then
   at once a click on Hint; the time from the click (the page's ``click``
   event) to the hint bar showing ``found``, ``fallback`` or ``unsolvable``.
   Whether the worker had answered before the click is recorded too
   (``answered_before_press``): then Hint only shows what is known.

4. *The same solver in CPython*: ``Solver(position).solve(seconds=3.0)`` (the
   page's budget) for every start position and every position of step 3, in
   this process; the *ratio* is the worker's time per node over CPython's
   (for a solved position the node counts are the same; the search is
   deterministic).

5. *Input while the worker searches*: on deal 11982 (no solution: every search
   runs out its 3 s budget), ``--moves`` tap-tap moves (column 1's bottom card
   to free cell ``a``, each undone by a click on Undo, and every position
   asked about again as it comes, so the worker is never idle); the time from
   ``pointerup`` to the card's ``data-pile`` changing, and to the next
   animation frame.  A sample counts only when a search was in flight at the
   ``pointerup`` (by the message log).  The time the worker takes to answer a
   ``cancel`` (``cancelled`` back) is recorded too.  For comparison the same
   moves with the winnability indicator switched off in the settings (the
   worker idle).

It prints a table and writes the figures, with every sample, to
``bench/results/hints.json`` (git-ignored; ``--json PATH`` for another file).
It asserts nothing about speed: it only reports.  Timings on a shared or
loaded machine are noisy; the load average at the start and the end is in the
JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import math
import os
import platform
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

import build
from bench.common import (
    READY_TIMEOUT_MS,
    ROOT,
    VIEWPORT,
    deal_ranges,
    fmt,
    loadavg,
    parse_deals,
    results_file,
    run_and_report,
    summary,
)
from bench.common import wait_ready as wait_started
from builder.pointer import click_card, click_pile, destination_pile, goes_home_on_tap, source_card
from freecell.cards import card_text
from freecell.engine import apply_move
from freecell.game import Game
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.solver import SOLVED, Solver

WORKER_TIMEOUT_MS = 180_000
ANSWER_TIMEOUT_MS = 60_000
DEEP_TIMEOUT_MS = 120_000  # the background search after an unknown (20 s of search in the page)
STEP_TIMEOUT_MS = 20_000
BUDGET_S = 3.0  # the page's HINT_BUDGET_MS
SEARCH_DEAL = 11982
SEARCH_MOVE = "1a"
WARMUP_DEAL = 1_000_000  # the deals page opens on it, then every deal comes through the form
WORKER_READY_JS = "() => window.__hb.worker.some(e => e.dir === 'in' && e.data.type === 'ready')"
DEFAULT_DEALS = "1-100,11982"
DEFAULT_JSON = results_file("hints")

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

# --- the site ------------------------------------------------------------------------


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
    page.locator(".actionbar [data-action=settings]").click()
    page.locator("[data-panel=settings] [data-tab=game]").click()
    page.locator("[data-field=deal]").fill(str(deal))
    page.locator("[data-action=play-deal]").click()
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


# --- positions ---------------------------------------------------------------------------------


def solution_positions(pos: Position, moves: list[Move]) -> set[Position]:
    out = {pos}
    for m in moves:
        pos = apply_move(pos, m)
        out.add(pos)
    return out


def fresh_move(game: Game, known: set[Position]) -> Move | None:
    """A tap-tap move (to a free cell or a column) to a position the page has not analysed."""
    for m in game.legal_moves():
        if m.dst.kind == FOUNDATION or goes_home_on_tap(game.position, m, game):
            continue
        trial = Game(position=game.position)
        trial.play(m)
        if trial.position not in known and not trial.is_stuck() and not trial.is_won():
            return m
    return None


def cpython(pos: Position) -> dict[str, Any]:
    s = Solver(pos)
    t0 = time.perf_counter()
    r = s.solve(seconds=BUDGET_S)
    ms = (time.perf_counter() - t0) * 1000
    return {"verdict": r.verdict, "nodes": s.nodes, "ms": ms}


# --- measurements ------------------------------------------------------------------------------


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


def measure_cold(browser: Browser, base: str, deal: int, errors: list[str]) -> dict[str, Any]:
    with recorded_page(browser, f"{base}?deal={deal}", errors) as (page, ready):
        page.wait_for_function(WORKER_READY_JS, timeout=WORKER_TIMEOUT_MS)
        solve = wait_solve_for(page, Position.deal(deal), 0, timeout=WORKER_TIMEOUT_MS)
        reply = wait_reply(page, solve["data"]["id"])
        worker_ready = next(e["t"] for e in log(page) if e["dir"] == "in" and e["data"]["type"] == "ready")
        return {
            "deal": deal,
            "ready_to_worker_ready_ms": worker_ready - ready,
            "ready_to_verdict_ms": reply["t"] - ready,
            "verdict": reply["data"].get("verdict"),
            "worker_ms": reply["data"].get("ms"),
        }


def measure_deal(page: Page, deal: int) -> dict[str, Any]:
    start = Position.deal(deal)
    since = log_len(page)
    win_since = int(page.evaluate("() => window.__hb.winnable.length"))
    open_deal_by_form(page, deal)
    solve = wait_solve_for(page, start, since)
    reply = wait_reply(page, solve["data"]["id"])
    data = reply["data"]
    if data["type"] != "result":
        raise RuntimeError(f"deal {deal}: the worker said {data}")
    deep: dict[str, Any] | None = None
    if data["verdict"] == "unknown":
        # no verdict in the hint's budget: the page goes on in the background (the
        # worker resumes the same search); wait for that verdict before moving on
        board = start.to_text()
        page.wait_for_function(
            """([board, rid]) => window.__hb.worker.some(e => e.dir === 'out' && e.data
                 && e.data.type === 'solve' && e.data.board === board && e.data.id > rid)""",
            arg=[board, solve["data"]["id"]], timeout=STEP_TIMEOUT_MS)
        again = next(e for e in log(page) if e["dir"] == "out" and e["data"]["type"] == "solve"
                     and e["data"]["board"] == board and e["data"]["id"] > solve["data"]["id"])
        deep_reply = wait_reply(page, again["data"]["id"], timeout=DEEP_TIMEOUT_MS)
        deep = {"verdict": deep_reply["data"].get("verdict"),
                "request_to_verdict_ms": deep_reply["t"] - solve["t"],
                "worker_ms": deep_reply["data"].get("ms"), "worker_nodes": deep_reply["data"].get("nodes")}
    changes = page.evaluate("(k) => window.__hb.winnable.slice(k)", win_since)
    settled = [c["t"] for c in changes if c["value"] in ("yes", "no") and c["t"] >= solve["t"]]
    py = cpython(start)
    row: dict[str, Any] = {
        "deep": deep,
        "deal": deal,
        "verdict": data["verdict"],
        "difficulty": data.get("difficulty"),
        "verdict_ms": reply["t"] - solve["t"],
        "indicator_ms": (settled[0] - solve["t"]) if settled else None,
        "worker_ms": data["ms"],
        "worker_nodes": data["nodes"],
        "cpython_verdict": py["verdict"],
        "cpython_ms": py["ms"],
        "cpython_nodes": py["nodes"],
    }
    row["ratio"] = ratio(data["ms"], data["nodes"], py["ms"], py["nodes"])
    # Hint on a position not analysed yet: one move off the page's solution, then Hint at once
    game = Game(deal=deal)
    moves = [Move.from_json(m) for m in data.get("moves", [])] if data["verdict"] == SOLVED else []
    move = fresh_move(game, solution_positions(start, moves))
    if move is None:
        return row
    hint_at = button_point(page, "hint")
    since = log_len(page)
    bar_since = int(page.evaluate("() => window.__hb.bar.length"))
    clicks_since = int(page.evaluate("() => window.__hb.hintClick.length"))
    pos = game.position
    tap_tap(page, pos, move, game)
    game.play(move)
    page.mouse.click(*hint_at)
    page.wait_for_function(
        """(k) => window.__hb.bar.slice(k).some(
             e => !e.hidden && ['found', 'fallback', 'unsolvable', 'unavailable'].includes(e.state))""",
        arg=bar_since, timeout=ANSWER_TIMEOUT_MS,
    )
    click_t = page.evaluate("(k) => window.__hb.hintClick[k]", clicks_since)
    shown = next(e for e in page.evaluate("(k) => window.__hb.bar.slice(k)", bar_since)
                 if not e["hidden"] and e["state"] in ("found", "fallback", "unsolvable", "unavailable"))
    try:
        moved_solve = wait_solve_for(page, game.position, since, timeout=5_000)
    except Exception:  # the page knew that position already and asked nothing
        moved_reply: dict[str, Any] = {"t": -math.inf, "data": {}}
    else:
        moved_reply = wait_reply(page, moved_solve["data"]["id"])
    py_moved = cpython(game.position)
    md = moved_reply["data"]
    row["hint"] = {
        "move": move.text(),
        "state": shown["state"],
        "press_to_bar_ms": shown["t"] - click_t,
        "answered_before_press": moved_reply["t"] < click_t,
        "worker_ms": md.get("ms"),
        "worker_nodes": md.get("nodes"),
        "verdict": md.get("verdict"),
        "cpython_ms": py_moved["ms"],
        "cpython_nodes": py_moved["nodes"],
        "ratio": ratio(md.get("ms"), md.get("nodes"), py_moved["ms"], py_moved["nodes"]),
    }
    return row


def ratio(w_ms: Any, w_nodes: Any, c_ms: float, c_nodes: int) -> float | None:
    """Worker time per node over CPython time per node."""
    if not w_ms or not w_nodes or not c_nodes or c_ms <= 0:
        return None
    return float((w_ms / w_nodes) / (c_ms / c_nodes))


def measure_input(page: Page, n: int, expect_search: bool) -> dict[str, Any]:
    """``n`` tap-tap moves of column 1's bottom card to free cell a, each undone."""
    game = Game(deal=SEARCH_DEAL)
    move = Move.parse(SEARCH_MOVE)
    card = card_text(game.position.columns[move.src.index][-1])
    undo_at = button_point(page, "undo")
    samples: list[dict[str, Any]] = []
    if expect_search:
        page.wait_for_function("() => window.__hb.inFlight() !== null", timeout=WORKER_TIMEOUT_MS)
    for i in range(n):
        page.evaluate("() => { window.__hb.up = []; window.__hb.moved = []; }")
        tap_tap(page, game.position, move, game)
        page.wait_for_function(
            "(card) => window.__hb.moved.some("
            "m => m.card === card && m.pile === 'a' && m.frame !== undefined)",
            arg=card, timeout=STEP_TIMEOUT_MS,
        )
        rec = page.evaluate("() => ({up: window.__hb.up, moved: window.__hb.moved})")
        m = next(x for x in rec["moved"] if x["card"] == card and x["pile"] == "a")
        t_up = max(t for t in rec["up"] if t <= m["t"])
        samples.append({"up": t_up, "mutation_ms": m["t"] - t_up, "frame_ms": m["frame"] - t_up})
        page.mouse.click(*undo_at)
        page.wait_for_selector('[data-status=moves][data-value="0"]', state="attached",
                               timeout=STEP_TIMEOUT_MS)
        page.wait_for_function("(card) => document.querySelector(`g.card[data-card='${card}']`)"
                               ".getAttribute('data-pile') === '1'", arg=card, timeout=STEP_TIMEOUT_MS)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1}/{n} moves", file=sys.stderr, flush=True)
    entries = log(page)
    for s in samples:
        s["searching"] = searching_at(entries, s["up"])
    cancels = cancel_delays(entries, samples[0]["up"] - 1 if samples else 0)
    used = [s for s in samples if s["searching"]] if expect_search else samples
    return {
        "moves": n,
        "counted": len(used),
        "pointerup_to_mutation_ms": summary([s["mutation_ms"] for s in used]),
        "pointerup_to_next_frame_ms": summary([s["frame_ms"] for s in used]),
        "cancel_to_cancelled_ms": summary(cancels) if cancels else None,
        "samples": samples,
    }


def searching_at(entries: list[dict[str, Any]], t: float) -> bool:
    """Whether a solve request was in flight (posted to a ready worker, unanswered) at time ``t``."""
    current = None
    for e in entries:
        if e["t"] > t:
            break
        d = e["data"] or {}
        if e["dir"] == "out" and d.get("type") == "solve":
            current = d["id"]
        elif d.get("id") == current and (
            (e["dir"] == "out" and d.get("type") == "cancel")
            or (e["dir"] == "in" and d.get("type") in ("result", "error", "cancelled"))
        ):
            current = None
    return current is not None


def cancel_delays(entries: list[dict[str, Any]], since: float) -> list[float]:
    sent = {e["data"]["id"]: e["t"] for e in entries
            if e["dir"] == "out" and e["t"] >= since and (e["data"] or {}).get("type") == "cancel"}
    return [e["t"] - sent[e["data"]["id"]] for e in entries
            if e["dir"] == "in" and (e["data"] or {}).get("type") == "cancelled" and e["data"]["id"] in sent]


# --- statistics and report -----------------------------------------------------------------------


def row_line(label: str, s: dict[str, Any], digits: int = 0, unit: str = "") -> str:
    cells = "".join(f" {fmt(s.get(k), digits):>9}{unit}" for k in ("median", "p95", "max"))
    return f"  {label:<52} {s['n']:>4}{cells}"


def report_text(result: dict[str, Any]) -> str:
    meta = result["meta"]
    deals = result["deals"]
    lines = [
        f"FreeCell hints benchmark: {len(deals)} deals ({deal_ranges(meta['deals'])}), "
        f"{meta['moves']} moves while searching",
        f"Chromium {meta['chromium']}, Playwright {meta['playwright']}, Python {meta['python']}, "
        f"{meta['cpus']} CPUs, load average {meta['loadavg_start']} -> {meta['loadavg_end']}",
        "",
        f"  {'(ms)':<52} {'n':>4} {'median':>9} {'p95':>9} {'max':>9}",
    ]
    cold = result["cold"]
    if cold:
        lines.append("Cold page (fresh context)")
        for label, key in (("html ready -> worker ready", "ready_to_worker_ready_ms"),
                           ("html ready -> first verdict", "ready_to_verdict_ms")):
            lines.append(row_line(label, summary([c[key] for c in cold])))
    lines.append("Fresh deal, worker up (request posted -> reply)")
    for label, sel in (("verdict, all deals", lambda d: True),
                       ("verdict, solved deals", lambda d: d["verdict"] == "solved"),
                       ("verdict, unknown (budget ran out)", lambda d: d["verdict"] == "unknown"),
                       ("verdict, unsolvable", lambda d: d["verdict"] == "unsolvable")):
        vals = [d["verdict_ms"] for d in deals if sel(d)]
        if vals:
            lines.append(row_line(label, summary(vals)))
    deep = [d for d in deals if d.get("deep")]
    if deep:
        lines.append("No verdict in the hint's budget: the background search that follows")
        lines.append(row_line("first request -> its verdict (hint budget + deep search)",
                              summary([d["deep"]["request_to_verdict_ms"] for d in deep])))
        lines.append("  " + "; ".join(
            f"deal {d['deal']}: {d['deep']['verdict']} after "
            f"{d['deep']['request_to_verdict_ms'] / 1000:.1f} s "
            f"(worker {d['deep']['worker_ms']} ms, {d['deep']['worker_nodes']} nodes)"
            for d in deep))
    lines.append(row_line("winnability indicator set (yes/no)",
                          summary([d["indicator_ms"] for d in deals if d["indicator_ms"] is not None])))
    lines.append(row_line("worker's own search time", summary([d["worker_ms"] for d in deals])))
    lines.append(row_line("CPython Solver.solve(3 s), same positions",
                          summary([d["cpython_ms"] for d in deals])))
    ratios = [d["ratio"] for d in deals if d["ratio"] is not None]
    lines.append(row_line("worker / CPython, time per node (x)", summary(ratios), digits=2))
    hints = [d["hint"] for d in deals if "hint" in d]
    lines.append("Hint pressed at once after a move to a position not analysed yet")
    lines.append(row_line("click -> bar found/fallback/unsolvable",
                          summary([h["press_to_bar_ms"] for h in hints])))
    fresh = [h for h in hints if not h["answered_before_press"]]
    lines.append(row_line("  the same, worker still searching at the click",
                          summary([h["press_to_bar_ms"] for h in fresh])))
    lines.append(row_line("  worker's own search time for that position",
                          summary([h["worker_ms"] for h in hints if h["worker_ms"] is not None])))
    lines.append(row_line("  worker / CPython, time per node (x)",
                          summary([h["ratio"] for h in hints if h["ratio"] is not None]), digits=2))
    states: dict[str, int] = {}
    for h in hints:
        states[h["state"]] = states.get(h["state"], 0) + 1
    verdicts: dict[str, int] = {}
    for d in deals:
        verdicts[d["verdict"]] = verdicts.get(d["verdict"], 0) + 1
    lines.append(f"  verdicts: {verdicts}; hint bar states: {states}")
    for key, label in (("searching", f"Input while the worker searches deal {SEARCH_DEAL}"),
                       ("idle", "Input with the worker idle (winnability off)")):
        inp = result["input"][key]
        lines.append(f"{label}: {inp['counted']} of {inp['moves']} moves counted")
        lines.append(row_line("pointerup -> card's data-pile changed", inp["pointerup_to_mutation_ms"], 1))
        lines.append(row_line("pointerup -> next animation frame", inp["pointerup_to_next_frame_ms"], 1))
        if inp["cancel_to_cancelled_ms"]:
            lines.append(row_line("cancel posted -> 'cancelled' back from the worker",
                                  inp["cancel_to_cancelled_ms"], 1))
    if meta["page_errors"]:
        lines.append("WARNING: uncaught page errors: " + " | ".join(meta["page_errors"][:5]))
    return "\n".join(lines)


# --- main -----------------------------------------------------------------------------------------


def run(deals: list[int], moves: int, cold_n: int) -> dict[str, Any]:
    from importlib.metadata import version

    errors: list[str] = []
    start_load = loadavg()
    rows: list[dict[str, Any]] = []
    cold: list[dict[str, Any]] = []
    with build.built_copy() as site, build.serving(site) as base, sync_playwright() as pw:
        launch = build.chromium_launch_args()
        browser = pw.chromium.launch(**launch)
        try:
            for deal in deals[:cold_n]:
                c = measure_cold(browser, base, deal, errors)
                cold.append(c)
                print(f"cold deal {deal}: worker ready {c['ready_to_worker_ready_ms']:.0f} ms, "
                      f"verdict {c['ready_to_verdict_ms']:.0f} ms after html ready",
                      file=sys.stderr, flush=True)
            # 5: input while the worker searches (11982 on the table), then with it idle
            with recorded_page(browser, f"{base}?deal={SEARCH_DEAL}", errors) as (page, _):
                page.wait_for_function(WORKER_READY_JS, timeout=WORKER_TIMEOUT_MS)
                print(f"input: {moves} moves while deal {SEARCH_DEAL} is searched",
                      file=sys.stderr, flush=True)
                searching = measure_input(page, moves, expect_search=True)
                page.locator(".actionbar [data-action=settings]").click()
                page.locator("[data-panel=settings] [data-tab=play]").click()
                page.locator("[data-field=winnability]").uncheck()
                page.locator("[data-panel=settings] [data-action=close]").click()
                page.wait_for_function("() => window.__hb.inFlight() === null", timeout=STEP_TIMEOUT_MS)
                print(f"input: {moves} moves with the worker idle", file=sys.stderr, flush=True)
                idle = measure_input(page, moves, expect_search=False)
            # 2-4: every deal through the settings form, on a page whose worker is up
            with recorded_page(browser, f"{base}?deal={WARMUP_DEAL}", errors) as (page, _):
                first = wait_solve_for(page, Position.deal(WARMUP_DEAL), 0, timeout=WORKER_TIMEOUT_MS)
                wait_reply(page, first["data"]["id"])
                for i, deal in enumerate(deals):
                    row = measure_deal(page, deal)
                    rows.append(row)
                    h = row.get("hint", {})
                    print(f"deal {deal} ({i + 1}/{len(deals)}): {row['verdict']} "
                          f"in {row['verdict_ms']:.0f} ms (worker {row['worker_ms']} ms, "
                          f"{row['worker_nodes']} nodes; CPython "
                          f"{row['cpython_ms']:.0f} ms); hint {h.get('state')} "
                          f"{fmt(h.get('press_to_bar_ms'))} ms", file=sys.stderr, flush=True)
            chromium = browser.version
        finally:
            browser.close()
    return {
        "meta": {
            "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "deals": deals,
            "moves": moves,
            "budget_s": BUDGET_S,
            "chromium": chromium,
            "chromium_args": build.CHROMIUM_ARGS,
            "playwright": version("playwright"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_start": start_load,
            "loadavg_end": loadavg(),
            "page_errors": errors,
        },
        "cold": cold,
        "deals": [{k: v for k, v in r.items()} for r in rows],
        "input": {"searching": searching, "idle": idle},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", default=DEFAULT_DEALS,
                        help=f"deals, e.g. 1-30,11982 (default {DEFAULT_DEALS})")
    parser.add_argument("--moves", type=int, default=30, help="moves timed for input delay (default 30)")
    parser.add_argument("--cold", type=int, default=3,
                        help="cold page loads, on the first deals of the list (default 3)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"where to write the figures (default {DEFAULT_JSON.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    try:
        deals = parse_deals(args.deals)
    except ValueError as e:
        parser.error(str(e))
    if args.moves < 1 or args.cold < 0:
        parser.error("--moves must be at least 1, --cold at least 0")
    return run_and_report(lambda: run(deals, args.moves, args.cold), report_text, args.json)


if __name__ == "__main__":
    sys.exit(main())
