"""The solver's speed in every engine: nodes per second of the same searches, side by side.

Run it from the repository root (it builds ``dist/`` first)::

    python3 -m bench.engines                              # six deals of 2,600 to 27,000 nodes; 3 rounds
    python3 -m bench.engines --engines chromium,webkit --rounds 5
    python3 -m bench.engines --deals 1-20 --boot snapshot  # the worker booted from its snapshot
    python3 -m bench.engines --proof                       # also: 11982 proven from one Hint, in the page

What it measures:

1. *The same searches everywhere.*  Each search is a ``solve`` of a deal's
   start with no time limit that matters (60 s), so it ends ``solved`` or
   ``unsolvable`` after the same nodes in every engine: the search is
   deterministic.  In CPython it is ``Solver(position).solve()`` in this
   process, timed by ``time.process_time``; in an engine it is the solver
   worker itself (``static/solver-worker.js``, started by a blank page of the
   site, ``static/README.txt``, so no page of the game competes with it), and
   the time is the worker's own ``ms`` (search time, between its slices'
   yields).  Nodes per second = nodes / time.
2. *Rounds.*  The list of searches runs ``--rounds`` times, every engine and
   CPython taking a round in turn (interleaved: these machines are shared).
   The first round of an engine comes right after its worker booted (the
   engine's JIT has seen nothing yet): it is shown apart; the medians are of
   the later rounds.
3. *How the worker booted*: from byte-code (the default: a fresh profile has
   nothing cached) or, with ``--boot snapshot``, from its memory snapshot (the
   page first stores it in the Cache API, as a revisit has it), and which call
   trampoline its Pyodide uses (``wasm`` or ``js``).
4. With ``--proof``: deal 11982 opened in the game, one press on Hint, then
   the time until the page says the deal cannot be won (the hint bar's
   ``unsolvable``), in each engine.
5. With ``--first-visit N``: N first visits of ``?deal=1`` per engine, each in a
   fresh profile (the engines take turns): the time from the navigation's
   start to ``<html data-state=ready>`` (on the page's clock, recorded by
   ``builder/page_hook.js``), how the page booted, and whether any snapshot
   was fetched before it was ready (it must not be).  Beside each, the
   reference: a first visit, in a fresh profile too, of a page of the same
   site that does nothing but ``loadPyodide()`` as the game's first visit
   calls it (the vendored Pyodide, the byte-compiled standard library, the
   lock file inline) and runs ``1 + 1``: the engine's own floor.  So the
   WebKit / Chromium ratio of the game can be read against the same ratio
   for Pyodide alone.

The report gives nodes/s per search and engine, the ratios engine / CPython
and WebKit / Chromium, and writes everything to ``bench/results/engines.json``
(``--json PATH``).  The load average is recorded at the start and the end.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import build
from bench.common import deals_option, loadavg, results_file, write_json
from builder import browsers
from builder.npm import lockfile
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import Solver

BLANK = "static/README.txt"  # a page of the site that runs nothing
# --first-visit's reference: Pyodide alone, loaded as the game's first visit loads it (no snapshot)
BARE_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>bare</title>
<script src="./HOOK"></script><script type="module" src="./bare.mjs"></script></head>
<body><p>loadPyodide()</p></body></html>
"""
BARE_MJS = """import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./vendor/pyodide/", location.href).href,
  stdLibURL: new URL("./vendor/pyodide/python_stdlib.pyc.zip", location.href).href,
  lockFileContents: LOCKFILE });
pyodide.runPython("1 + 1");
window.__bareReady = performance.now();
"""

# Start the solver worker from a blank page of the site; record its messages.
START_WORKER_JS = """
async (storeSnapshot) => {
  if (storeSnapshot) {
    const text = await (await fetch('/static/runtime.mjs')).text();
    const line = text.split('\\n').find((l) => l.startsWith('const BUILD = '));
    const build = JSON.parse(line.slice('const BUILD = '.length, -1));
    const url = new URL(build.snapshots.worker.url, new URL('/static/runtime.mjs', location.href)).href;
    const cache = await caches.open('freecell ' + location.origin + '/ snapshots');
    await cache.put(url, await fetch(url));
  }
  const w = window.__w = new Worker('/static/solver-worker.js', {type: 'module'});
  window.__msgs = [];
  w.onmessage = (e) => { if (e.data.type !== 'progress') window.__msgs.push(e.data); };
  return true;
}
"""
READY_JS = "() => window.__msgs.find((m) => m.type === 'ready' || m.type === 'error')"
SOLVE_JS = """
(id, board) => {
  window.__w.postMessage(JSON.stringify({type: 'solve', id, board, rules: {}, budget_ms: 60000}));
  return true;
}
"""
RESULT_JS = "(id) => window.__msgs.find((m) => m.id === id && (m.type === 'result' || m.type === 'error'))"

PROOF_JS = """
() => { const b = document.querySelector('[data-panel=hint]');
        return b && !b.hidden && b.dataset.state === 'unsolvable' && performance.now(); }
"""


def cpython_round(deals: list[int]) -> dict[int, dict[str, Any]]:
    out = {}
    for n in deals:
        s = Solver(Position.deal(n), FREECELL)
        t = time.process_time()
        r = s.solve(seconds=60)
        out[n] = {"nodes": r.nodes, "ms": (time.process_time() - t) * 1000, "verdict": r.verdict}
    return out


class EngineRun:
    """One engine's tab with a solver worker of its own."""

    def __init__(self, name: str, tab: browsers.Page, url: str, boot: str) -> None:
        self.name = name
        self.tab = tab
        tab.goto(url + BLANK)
        t0 = time.perf_counter()
        tab.call(START_WORKER_JS, boot == "snapshot", timeout=120)
        self.ready = tab.wait(READY_JS, timeout=300, what="the worker's ready")
        self.boot_s = time.perf_counter() - t0
        if self.ready.get("type") != "ready":
            raise RuntimeError(f"{name}: the worker failed: {self.ready}")
        self.next_id = 1

    def round(self, deals: list[int]) -> dict[int, dict[str, Any]]:
        out = {}
        for n in deals:
            rid = self.next_id
            self.next_id += 1
            self.tab.call(SOLVE_JS, rid, Position.deal(n).to_text())
            r = self.tab.wait(RESULT_JS, rid, timeout=600, what=f"deal {n}'s result")
            if r.get("type") != "result":
                raise RuntimeError(f"{self.name}: deal {n}: {r}")
            out[n] = {"nodes": r["nodes"], "ms": r["ms"], "verdict": r["verdict"]}
        return out


def proof_time(tab: browsers.Page, url: str) -> float | None:
    """Seconds from one press on Hint on deal 11982 to the page's "cannot be won"."""
    tab.goto(url + "?deal=11982&embed=1")
    tab.wait("() => document.documentElement.dataset.state === 'ready'"
             " && document.documentElement.dataset.worker === 'ready'", timeout=300, what="ready")
    t0 = tab.call("() => { document.querySelector('.actionbar [data-action=hint]').click();"
                  " return performance.now(); }")
    try:
        t1 = tab.wait(PROOF_JS, timeout=300, what="11982 proven")
    except TimeoutError:
        return None
    return (float(t1) - float(t0)) / 1000


def add_bare_page(site: Path) -> None:
    """The reference page of ``--first-visit`` (``bare.html``), in the served copy of the site."""
    (site / "bare.html").write_text(BARE_HTML.replace("HOOK", browsers.HOOK_URL))
    (site / "bare.mjs").write_text(BARE_MJS.replace("LOCKFILE", json.dumps(lockfile())))


def first_visits(names: list[str], url: str, count: int) -> dict[str, list[dict[str, Any]]]:
    """``count`` first visits per engine, each in a fresh profile, the engines in turn, each beside
    a first visit of the bare page (``bare``: ms from the navigation's start to loadPyodide's end)."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for k in range(count):
        for name in names[k % len(names):] + names[:k % len(names)]:
            with browsers.open_engine(name) as tab:
                tab.goto(url + "?deal=1")
                seen = tab.wait("() => window.__hook.readyAt !== undefined && {ready: window.__hook.readyAt,"
                                " boot: document.documentElement.dataset.boot, snapshots: performance"
                                ".getEntriesByType('resource').filter((e) => e.name.includes('/snapshots/')"
                                " && e.startTime < window.__hook.readyAt).length}", timeout=300, what="ready")
            with browsers.open_engine(name) as tab:
                tab.goto(url + "bare.html")
                seen["bare"] = tab.wait("() => window.__bareReady || (window.__hook.console.length"
                                        " && window.__hook.console)", timeout=300, what="bare Pyodide")
                if not isinstance(seen["bare"], (int, float)):
                    raise RuntimeError(f"{name}: the bare page failed: {seen['bare']}")
            out[name].append(seen)
    return out


def rate(sample: dict[str, Any]) -> float:
    return float(sample["nodes"]) / max(float(sample["ms"]), 0.001) * 1000


def overall(samples: dict[int, dict[str, Any]], deals: list[int]) -> float:
    """Nodes per second over a whole round: all its nodes over all its time."""
    nodes = sum(float(samples[n]["nodes"]) for n in deals)
    return nodes / max(sum(float(samples[n]["ms"]) for n in deals), 1) * 1000


def print_boots(info: dict[str, Any], visits: dict[str, list[dict[str, Any]]],
                proofs: dict[str, float | None]) -> None:
    """How each worker booted, the first visits, the proofs: the report's last lines."""
    for name, extra in info.items():
        print(f"{name}: worker booted from {extra['boot']} in {extra['worker_boot_s']} s, "
              f"{extra['trampoline']} trampoline")
    for name, seen in visits.items():
        ready = statistics.median(v["ready"] for v in seen)
        bare = statistics.median(v["bare"] for v in seen)
        boots = sorted({v["boot"] for v in seen})
        early = sum(v["snapshots"] for v in seen)
        print(f"{name}: first visit ready {ready:.0f} ms (median of {len(seen)}), booted from {boots}, "
              f"{early} snapshot fetches before ready; bare loadPyodide() {bare:.0f} ms "
              f"(game / bare {ready / bare:.2f})")
    if "webkit" in visits and "chromium" in visits:
        def ratio(key: str) -> float:
            return float(statistics.median(v[key] for v in visits["webkit"])
                         / statistics.median(v[key] for v in visits["chromium"]))
        print(f"first visit, WebKit / Chromium: the game {ratio('ready'):.2f}, "
              f"bare loadPyodide() {ratio('bare'):.2f}")
    for name, secs in proofs.items():
        print(f"{name}: 11982 proven {'never' if secs is None else f'{secs:.1f} s'} after one Hint")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default=",".join(browsers.ENGINES))
    ap.add_argument("--deals", default="37,92,139,194,286,285")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--boot", choices=("bytecode", "snapshot"), default="bytecode")
    ap.add_argument("--proof", action="store_true", help="also time 11982's proof from one Hint, in the page")
    ap.add_argument("--first-visit", type=int, default=0, metavar="N",
                    help="also N first visits per engine (fresh profiles): the time to ready")
    ap.add_argument("--json", type=Path, default=results_file("engines"))
    ap.add_argument("--dist", type=Path, help="serve this built site as it is (another build)")
    args = ap.parse_args(argv)
    deals = deals_option(ap, args.deals)
    names = [e for e in args.engines.split(",") if e]
    for name in names:
        reason = browsers.missing(name)
        if reason:
            print(f"{name}: skipped: {reason}", file=sys.stderr)
    names = [e for e in names if browsers.missing(e) is None]
    load_start = loadavg()
    dist = args.dist.resolve() if args.dist else build.build()
    hooked = browsers.hooked_copy(dist, Path(tempfile.mkdtemp(prefix="bench-engines-")) / "site")
    add_bare_page(hooked)
    samples: dict[str, list[dict[int, dict[str, Any]]]] = {"cpython": [], **{e: [] for e in names}}
    info: dict[str, Any] = {}
    proofs: dict[str, float | None] = {}
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(build.serving(hooked))
        visits = first_visits(names, url, args.first_visit) if args.first_visit else {}
        runs = []
        for name in names:
            tab = stack.enter_context(browsers.open_engine(name))
            run = EngineRun(name, tab, url, args.boot)
            info[name] = {"boot": run.ready.get("boot"), "trampoline": run.ready.get("trampoline"),
                          "worker_boot_s": round(run.boot_s, 2)}
            runs.append(run)
        for k in range(args.rounds):
            samples["cpython"].append(cpython_round(deals))
            for run in runs:
                samples[run.name].append(run.round(deals))
            print(f"round {k + 1} of {args.rounds} done", file=sys.stderr)
        if args.proof:
            for run in runs:
                proofs[run.name] = proof_time(run.tab, url)
    load_end = loadavg()

    def summary(name: str) -> dict[str, Any]:
        rounds = samples[name]
        later = rounds[1:] or rounds
        per = {n: statistics.median(rate(r[n]) for r in later) for n in deals}
        total = statistics.median(overall(r, deals) for r in later)
        first = overall(rounds[0], deals)
        return {"per_deal": per, "all": total, "first_round": first,
                "nodes": {n: rounds[0][n]["nodes"] for n in deals},
                "verdicts": {n: rounds[0][n]["verdict"] for n in deals}}

    report = {name: summary(name) for name in samples}
    for name in names:  # the same searches: the same nodes
        if report[name]["nodes"] != report["cpython"]["nodes"]:
            print(f"warning: {name} searched other nodes: {report[name]['nodes']}", file=sys.stderr)
    print(f"load average {load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end; "
          f"worker boot: {args.boot}; deals {args.deals}; {args.rounds} rounds (medians of rounds 2 on)")
    head = f"{'':10}" + "".join(f"{n:>10}" for n in deals) + f"{'all':>10}{'x CPython':>11}{'1st round':>11}"
    print(head)
    base = report["cpython"]["all"]
    for name in samples:
        r = report[name]
        row = f"{name:10}" + "".join(f"{r['per_deal'][n]:10.0f}" for n in deals)
        print(row + f"{r['all']:10.0f}{r['all'] / base:11.2f}{r['first_round']:11.0f}")
    if "webkit" in report and "chromium" in report:
        print(f"WebKit / Chromium: {report['webkit']['all'] / report['chromium']['all']:.2f}")
    print_boots(info, visits, proofs)
    write_json(args.json, {
        "date": datetime.datetime.now().isoformat(timespec="seconds"), "deals": deals,
        "rounds": args.rounds, "boot": args.boot, "loadavg": [load_start, load_end],
        "report": report, "workers": info, "proofs": proofs, "samples": samples,
        "first_visits": visits,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
