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

The code: this module holds the command line, the sites and the rounds;
bench/page_load.py the scripts put in the page and one measured load,
bench/page_trace.py the network log and the CPU read from a trace,
bench/page_report.py the medians and the report.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import platform
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from playwright.sync_api import sync_playwright

import build
from bench.common import VIEWPORT, fmt, json_option, loadavg, results_file, run_and_report
from bench.page_load import INIT_JS, TIMEOUT_MS, Load, Sample, measure_moves, signal
from bench.page_report import fmt_bytes, medians, report
from freecell.cards import card_text
from freecell.game import Game
from freecell.piles import Move

DEAL = 1
MOVE = "1a"  # column 1's bottom card to free cell a: legal on deal 1, not a move home
DEFAULT_JSON = results_file("page")

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
                            game_site = site in ("ours", "base")  # a build of our page, as a player keeps it
                            if kind in ("warm", "base warm"):
                                load.prefetch_snapshots(urls[site] + "static/README.txt")
                            if kind in ("sw", "base sw"):
                                # the first visit registers the service worker; the revisit is measured
                                load.measure("first visit", rnd, url, card, pile, game_site)
                                load.wait_controlled(urls[site] + "static/README.txt")
                            s = load.measure(kind, rnd, url, card if game_page else None,
                                             pile if game_page else None, game_site)
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
    json_option(parser, DEFAULT_JSON)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 0:
        parser.error("--runs must be at least 1, --moves at least 0")
    return run_and_report(lambda: run(args), report, args.json)


if __name__ == "__main__":
    sys.exit(main())
