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

The code: this module holds the command line and the order of the
measurements; bench/hints_page.py the recorder put in the page and the steps
that drive it, bench/hints_measure.py the measurements, bench/hints_report.py
the report.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from typing import Any

from playwright.sync_api import sync_playwright

import build
from bench.common import deals_option, fmt, json_option, loadavg, results_file, run_and_report
from bench.hints_measure import BUDGET_S, SEARCH_DEAL, measure_cold, measure_deal, measure_input
from bench.hints_page import (
    STEP_TIMEOUT_MS,
    WORKER_READY_JS,
    WORKER_TIMEOUT_MS,
    recorded_page,
    wait_reply,
    wait_solve_for,
)
from bench.hints_report import report_text
from freecell.position import Position

WARMUP_DEAL = 1_000_000  # the deals page opens on it, then every deal comes through the form
DEFAULT_DEALS = "1-100,11982"
DEFAULT_JSON = results_file("hints")


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
    json_option(parser, DEFAULT_JSON)
    args = parser.parse_args(argv)
    deals = deals_option(parser, args.deals)
    if args.moves < 1 or args.cold < 0:
        parser.error("--moves must be at least 1, --cold at least 0")
    return run_and_report(lambda: run(deals, args.moves, args.cold), report_text, args.json)


if __name__ == "__main__":
    sys.exit(main())
