"""Benchmark of the table's motion in headless Chromium: input to table, and the frames of a move.

Run it from the repository root (it builds ``dist/`` first, like the browser
tests do)::

    python3 -m bench.motion                 # 15 rounds of each kind
    python3 -m bench.motion --rounds 30 --speed fast --json /tmp/motion.json

One page (1280x800, ``?deal=1``; a second one on a board for the runs), the
moves played as a player does, each undone before the next:

* ``drag``: 6♠ (column 1) dragged to free cell ``a``, the mouse let go over it;
* ``tap``: the same move by two clicks, 6♠ then free cell ``a`` (the second timed): the
  moved card is drawn over the others from then on, where a drag had put it on top already;
* ``refused``: 6♠ dragged onto 9♣ (column 2) and let go: it glides back;
* ``tap run``: on a board where 5♣ 4♥ end column 1, one free cell and column
  3 empty, a tap on 5♣ then on column 3: three single-card steps in sequence;
* ``undo``: the U key after a move (its glide back).

What is measured, by a script in the page (``performance.now()``):

* *handler*: how long the page's own handling of that ``pointerup`` (or
  ``keydown``) took, all of it (the table, the bars, the names the screen reader
  reads, the save): from the event's listener on ``window`` in its capture
  phase, the first to run, to its listener on ``window`` as it bubbles, the last;
* *release -> table*: from the ``pointerup`` (or ``keydown``) event's time
  stamp to the mutation of the cards (``data-pile`` of a card, or its
  ``transform``: the table updated), and to the end of the next frame's
  drawing after it (its style, layout and paint: the update on the screen);
* *animation*: how long the cards' Web Animations run (their ``finished``),
  the frame intervals while they run (``requestAnimationFrame``: the longest,
  and how many are over 34 ms, i.e. two frames missed at 60 Hz), and the long
  tasks (``PerformanceObserver`` ``longtask``: the main thread busy over 50
  ms) from the input to the last frame, with the longest.

Medians (and the 90th percentile) over the rounds, with the load average
before and after: the machine is shared, so compare runs made side by side.
The first round of each kind is also shown alone: it runs code for the first
time in the page (a long task of about 50 ms there is that, not the motion).
"""

from __future__ import annotations

import argparse
import itertools
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import build
from bench.common import loadavg, summary, write_json
from freecell.cards import parse_card
from freecell.position import Position

RECORDER = r"""
(() => {
  const rec = window.__motion = {longtasks: [], runs: []};
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.longtasks.push({start: e.startTime, duration: e.duration});
    }).observe({type: 'longtask', buffered: true});
  } catch (e) { /* no long task timing here */ }
  // arm(): the next input starts a run; the run ends when every card animation has finished
  rec.arm = () => {
    const run = {input: null, caught: null, handled: null, table: null, painted: null, end: null, frames: [],
                 animations: 0};
    rec.runs.push(run);
    const start = (e) => {
      if (run.input !== null) return;
      run.input = e.timeStamp;
      run.caught = performance.now();
      const done = () => { run.handled = performance.now(); };
      window.addEventListener(e.type, done, {once: true});  // after the page's listeners
      const cards = document.getElementById('cards');
      const obs = new MutationObserver(() => {
        if (run.table !== null) return;
        run.table = performance.now();
        obs.disconnect();
        // the next frame, drawn: a task queued from its animation frame callback runs once the
        // frame's style, layout and paint are done
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => { run.painted = performance.now(); };
          ch.port2.postMessage(0);
        });
      });
      obs.observe(cards, {attributes: true, subtree: true, attributeFilter: ['data-pile', 'style']});
      // the page's own handler runs first (the table's listener); then the animations exist
      setTimeout(() => {
        const anims = document.getAnimations().filter(a => a.effect && a.effect.target
          && a.effect.target.matches && a.effect.target.matches('g.card'));
        run.animations = anims.length;
        const tick = (t) => {
          run.frames.push(t);
          if (run.end === null) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
        Promise.all(anims.map(a => a.finished.catch(() => null))).then(() => {
          requestAnimationFrame(() => { run.end = performance.now(); });
        });
      }, 0);
    };
    window.addEventListener('pointerup', start, {capture: true, once: true});
    window.addEventListener('keydown', start, {capture: true, once: true});
  };
})();
"""


def run_board() -> Position:
    """5♣ 4♥ end column 1, cells KC KD KH and one free, column 3 empty; nothing goes home by itself."""
    named = {1: "9C 8D 7S 6H 5C 4H", 2: "TD", 4: "5S 3H", 5: "8H", 6: "9S", 7: "QD", 8: "JC"}
    cols = {i: [parse_card(t) for t in named.get(i, "").split()] for i in range(1, 9)}
    cells = [parse_card("KC"), parse_card("KD"), parse_card("KH"), None]
    used = {c for cs in cols.values() for c in cs} | {c for c in cells if c is not None}
    rest = [c for c in range(52) if c not in used]
    others = [1, 2, 4, 5, 6, 7, 8]
    buried: dict[int, list[int]] = {i: [] for i in range(1, 9)}
    for k, c in enumerate(rest):
        buried[others[k % 7]].append(c)
    return Position(tuple(tuple(buried[i] + cols[i]) for i in range(1, 9)), tuple(cells),
                    (0, 0, 0, 0)).validate()


def center(page: Any, selector: str, frac: float = 0.5) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * frac


def settle(page: Any) -> None:
    page.wait_for_function("() => !document.getAnimations().some(a => a.playState === 'running')")
    page.wait_for_timeout(150)


def measured(page: Any, act: Any) -> dict[str, Any]:
    """Run ``act`` (an input) and what the page recorded about it."""
    settle(page)
    page.evaluate("() => window.__motion.arm()")
    act()
    page.wait_for_function("() => { const r = window.__motion.runs.at(-1); return r.end !== null "
                           "&& r.painted !== null && r.handled !== null; }", timeout=20_000)
    run, longtasks = page.evaluate("() => [window.__motion.runs.at(-1), window.__motion.longtasks]")
    frames = run["frames"]
    gaps = [b - a for a, b in itertools.pairwise(frames)]
    during = [t for t in longtasks if t["start"] + t["duration"] >= run["input"] and t["start"] <= run["end"]]
    return {
        "handler": run["handled"] - run["caught"],
        "table": run["table"] - run["input"],
        "painted": run["painted"] - run["input"],
        "animation": run["end"] - run["input"],
        "animations": run["animations"],
        "longest frame": max(gaps, default=0.0),
        "missed": sum(1 for g in gaps if g > 34),
        "long tasks": len(during),
        "longest task": max((t["duration"] for t in during), default=0.0),
    }


def drag(page: Any, card: str, to: tuple[float, float]) -> None:
    x0, y0 = center(page, f'g.card[data-card="{card}"]', 0.08)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 12, y0 + 12, steps=2)
    page.mouse.move(*to, steps=6)
    page.mouse.up()


def bench(rounds: int, speed: str) -> dict[str, list[dict[str, Any]]]:
    from playwright.sync_api import sync_playwright

    dist = build.build()
    out: dict[str, list[dict[str, Any]]] = {"drag": [], "tap": [], "refused": [], "tap run": [], "undo": []}
    with build.serving(dist) as url, sync_playwright() as p:
        browser = p.chromium.launch(**build.chromium_launch_args())
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block",
                                  locale="en-GB")
        ctx.add_init_script(RECORDER)
        page = ctx.new_page()
        page.goto(url + "?deal=1")
        page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=120_000)
        # the long-task timing works here: a task of 80 ms must show
        page.evaluate("() => new Promise(r => setTimeout(() => { const t = performance.now(); "
                      "while (performance.now() - t < 80) {} r(); }, 0))")
        page.wait_for_timeout(200)
        probe = page.evaluate("() => window.__motion.longtasks.filter(t => t.duration >= 75).length")
        print(f"long-task timing: {'works' if probe else 'NOT AVAILABLE (long tasks cannot be counted)'}")
        if speed != "normal":
            page.evaluate(f"() => localStorage.setItem('freecell.settings', JSON.stringify("
                          f"{{format: 'freecell-settings', version: 1, speed: '{speed}'}}))")
            page.reload()
            page.wait_for_function("() => document.documentElement.dataset.state === 'ready'")
        for _ in range(rounds):
            cell = center(page, 'rect.pile[data-pile="a"]')
            out["drag"].append(measured(page, lambda c=cell: drag(page, "6S", c)))
            out["undo"].append(measured(page, lambda: page.keyboard.press("u")))
            settle(page)
            page.mouse.click(*center(page, 'g.card[data-card="6S"]', 0.08))
            out["tap"].append(measured(page, lambda c=cell: page.mouse.click(*c)))
            settle(page)
            page.keyboard.press("u")
            nine = center(page, 'g.card[data-card="9C"]', 0.5)
            out["refused"].append(measured(page, lambda n=nine: drag(page, "6S", n)))
        page.goto(url + "?board=" + quote(run_board().to_text(), safe=""))
        page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=120_000)
        for _ in range(rounds):
            settle(page)
            page.mouse.click(*center(page, 'g.card[data-card="5C"]', 0.08))
            col = center(page, 'rect.pile[data-pile="3"]', 0.1)
            out["tap run"].append(measured(page, lambda c=col: page.mouse.click(*c)))
            settle(page)
            page.keyboard.press("u")
        browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--speed", choices=("normal", "fast"), default="normal")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    before = loadavg()
    data = bench(args.rounds, args.speed)
    after = loadavg()
    print(f"load average before {' '.join(f'{x:.2f}' for x in before)}, "
          f"after {' '.join(f'{x:.2f}' for x in after)} ({os.cpu_count()} cores); speed {args.speed}")
    print(f"{'':10} {'handler':>9} {'release->table':>15} {'->painted':>11} {'animation':>11} "
          f"{'longest frame':>14} {'missed':>7} {'long tasks':>11} {'longest task':>13}   (median / p90, ms)")
    for kind, runs in data.items():
        keys = ("handler", "table", "painted", "animation", "longest frame", "missed", "long tasks",
                "longest task")
        s = {k: summary([float(r[k]) for r in runs]) for k in keys}
        cells = [f"{s[k]['median']:.0f}/{s[k]['p90']:.0f}" for k in keys]
        widths = (9, 15, 11, 11, 14, 7, 11, 13)
        print(f"{kind:10} " + " ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    first = ", ".join(f"{kind} {runs[0]['table']:.0f} ms (longest task {runs[0]['longest task']:.0f})"
                      for kind, runs in data.items())
    print(f"first round of each (its first run in the page: code run for the first time): {first}")
    if args.json:
        record = {"load": [before, after], "speed": args.speed, "runs": data}
        write_json(args.json, record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
