"""Benchmark: a Hint answered at once, and deal 11982 proven lost by playing the hints.

    python3 -m bench.firsthint                   # 20 positions, 3 cold visits, 11982 twice
    python3 -m bench.firsthint --positions 40 --cold 5 --lost 3 --json /tmp/firsthint.json

Built and served as the browser tests are (``build.built_copy``,
``build.serving``, Debian's Chromium headless), 1280x800.  Every time is a
difference of two timestamps taken in the page (``performance.now()``):

1. *Hint press to a move marked on the table*: the ``click`` event on Hint to
   the first ``data-hint`` mark on a card or pile (a MutationObserver), on
   positions the page has not analysed yet (a move off what it knows, then at
   once Hint), and on a *cold visit*: a new browser context, Hint pressed in
   the first frame after ``<html data-state=ready>`` (the solver worker is
   still booting its own Pyodide then).
2. *Deal 11982 by hints*: Hint, then Hint again (which plays the move shown),
   over and over; the time from the first press to the hint bar showing the
   proven "no solution" (``data-state=unsolvable``).

It prints medians, p95 and maxima with the load average, and writes every
sample to ``bench/results/firsthint.json`` (git-ignored).  It asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import build
from bench.common import VIEWPORT, loadavg, results_file, summary, wait_ready, write_json
from builder.pointer import click_card, click_pile, destination_pile, source_card
from freecell.game import Game
from freecell.piles import CELL

WATCH_JS = """
() => {
  const r = window.__fh = {press: [], mark: []};
  document.addEventListener('click', (e) => {
    const hint = e.target.closest && e.target.closest('.actionbar [data-action=hint]');
    if (hint) r.press.push(performance.now());
  }, true);
  new MutationObserver((records) => {
    for (const m of records) {
      if (m.attributeName === 'data-hint' && m.target.hasAttribute('data-hint')) {
        r.mark.push(performance.now());
        return;
      }
    }
  }).observe(document.getElementById('table'),
             {subtree: true, attributes: true, attributeFilter: ['data-hint']});
}
"""


def press_to_mark(page: Any) -> float:
    """Click Hint; the time to the first mark (ms)."""
    page.evaluate("() => { window.__fh.press = []; window.__fh.mark = []; }")
    page.locator(".actionbar [data-action=hint]").click()
    page.wait_for_function("() => window.__fh.mark.length > 0", timeout=60_000)
    return float(page.evaluate("() => window.__fh.mark[0] - window.__fh.press[0]"))


def off_move(page: Any, game: Game) -> None:
    """A move to a free cell by two clicks (a position the page does not know yet)."""
    move = next(m for m in game.legal_moves() if m.dst.kind == CELL)
    click_card(page, source_card(game.position, move))
    click_pile(page, destination_pile(game.position, move))
    page.wait_for_function("() => document.querySelector('[data-status=moves]').dataset.value === '1'")


def warm_positions(browser: Any, base: str, n: int) -> list[float]:
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(base + "?deal=617")
    wait_ready(page)
    page.evaluate(WATCH_JS)
    page.wait_for_function("() => document.documentElement.dataset.worker === 'ready'", timeout=180_000)
    out: list[float] = []
    deal = 1000
    while len(out) < n:
        deal += 1
        page.evaluate("(q) => { document.documentElement.dataset.state = 'loading';"
                      " window.freecellRestart(q); }", f"?deal={deal}")
        wait_ready(page)
        page.evaluate(WATCH_JS)
        game = Game(deal=deal)
        off_move(page, game)
        out.append(press_to_mark(page))
    page.close()
    return out


def cold_visits(browser: Any, base: str, n: int) -> list[float]:
    out: list[float] = []
    for i in range(n):
        ctx = browser.new_context(viewport=VIEWPORT, service_workers="block")
        page = ctx.new_page()
        page.goto(base + f"?deal={2000 + i}")
        wait_ready(page)
        page.evaluate(WATCH_JS)
        out.append(press_to_mark(page))
        ctx.close()
    return out


def lost_by_hints(browser: Any, base: str) -> dict[str, Any]:
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(base + "?deal=11982")
    wait_ready(page)
    t0 = float(page.evaluate("() => performance.now()"))
    bar = page.locator("[data-panel=hint]")
    hint = page.locator(".actionbar [data-action=hint]")
    hint.click()
    moves = 0
    deadline = time.time() + 180
    while time.time() < deadline:
        page.wait_for_function("() => !document.querySelector('[data-panel=hint]').hidden", timeout=60_000)
        if bar.get_attribute("data-state") == "unsolvable":
            break
        before = page.locator("[data-status=moves]").get_attribute("data-value")
        hint.click()  # plays the move shown
        page.wait_for_function(
            "(n) => document.querySelector('[data-status=moves]').dataset.value !== n"
            " || document.querySelector('[data-panel=hint]').dataset.state === 'unsolvable'", arg=before)
        if bar.get_attribute("data-state") == "unsolvable":
            break
        moves += 1
        hint.click()
    t1 = float(page.evaluate("() => performance.now()"))
    proven = bar.get_attribute("data-state") == "unsolvable"
    page.close()
    return {"seconds": round((t1 - t0) / 1000, 2), "moves": moves, "proven": proven}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--cold", type=int, default=3)
    ap.add_argument("--lost", type=int, default=2)
    ap.add_argument("--json", type=Path, default=results_file("firsthint"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {"load_start": loadavg()}
    with build.built_copy() as dist, build.serving(dist) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(**build.chromium_launch_args())
        result["warm"] = warm_positions(browser, base, args.positions)
        result["cold"] = cold_visits(browser, base, args.cold)
        result["lost"] = [lost_by_hints(browser, base) for _ in range(args.lost)]
        browser.close()
    result["load_end"] = loadavg()
    print(f"load average {result['load_start']} -> {result['load_end']}")
    print("Hint press -> a move marked, positions not analysed yet (ms):",
          summary(result["warm"], digits=1))
    print("Hint press -> a move marked, right after ready on a cold visit (ms):",
          summary(result["cold"], digits=1))
    for r in result["lost"]:
        print(f"deal 11982 by hints: {'proven lost' if r['proven'] else 'NOT proven'} {r['seconds']} s "
              f"after the first press, {r['moves']} moves")
    write_json(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
