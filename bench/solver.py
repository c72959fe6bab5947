"""Benchmark of the pure-Python solver over a range of deals, beside fc-solve.

Run it from the repository root::

    python3 -m bench.solver                          # deals 1-1000, 10 s per deal, one core
    python3 -m bench.solver --deals 1-32000 --jobs 2 # the whole classic range on two cores
    python3 -m bench.solver --deals 1-300 --budget 5 --json /tmp/solver.json
    python3 -m bench.solver --deals 1,617,11982,20000-20099 --no-fc-solve
    python3 -m bench.solver --fc-solve-preset toons-for-twenty-somethings
    python3 -m bench.solver --deals 1-32000 --cpu --best 0.4 --best-max 3 --no-fc-solve \
        --rows bench/results/full.jsonl --spread 64  # stops and goes on later where it was

Ours: each deal is ``Solver(Position.deal(n)).solve(seconds=budget)`` (the
:mod:`freecell.solver` of the working tree, whatever state it is in: the JSON
records its hash and whether it differs from the commit).  The time of a deal
is the wall time of that one call, deal generation and solver set-up
included, measured in the process that solves it; its CPU time is recorded
beside it.  Every solution is replayed by :func:`freecell.engine.verify_solution`
(each move checked by the engine, all 52 cards home at the end); failures are
counted and must be 0.  A solution's length is its number of moves: a
multi-card move counts as one, moves to the foundation count; solutions over
:data:`LONG` (150) moves are counted and listed (a hint should never come
from one).

``--jobs 1`` (the default) solves every deal in this one process; with
``--jobs N`` the deals are shared out over N worker processes
(:mod:`multiprocessing`), each solving one deal at a time.  Either way a
deal's time is the time of one core, not of the whole run.

fc-solve (Debian's ``freecell-solver-bin``; skipped with ``--no-fc-solve`` or
when ``fc-solve`` is not on ``PATH``) then runs on the same deals with the same
time budget per deal, preset ``-l lg`` (``--fc-solve-preset NAME``), with the
same number of jobs, in two ways:

1. *In process*: ``freecell-solver-range-parallel-solve START END 1 -l lg``
   (a serial range solver, one instance recycled from board to board) under
   ``stdbuf -oL``.  It prints ``Reached Board No. N at <seconds.micro>`` after
   each board, so a board's time is the gap between two such lines (board
   generation and recycling included), and the gap's iteration count is the
   difference of ``total_num_iters``.  Each run starts one deal early (deal
   ``START - 1``, thrown away) so that no measured deal carries the parsing of
   the preset.  fc-solve has no time limit, only an iteration limit, so a
   watchdog kills a range run when no board ends within the budget; that deal
   counts as ``unknown`` and the run goes on from the next deal (whose time
   then includes the start-up: flagged ``includes_setup`` in the JSON).  A
   board that ends after more than the budget by fc-solve's own clock is
   ``unknown`` too (``over_budget``).
2. *One process per deal*: the board from ``make-microsoft-freecell-board -t
   N`` (checked against :meth:`Position.deal`), piped into ``fc-solve -l lg -m
   -sel``; killed when the budget runs out.  Its time is the wall time from
   spawning to reaping, process start-up (a few ms) included; its CPU time
   (user + system, from ``wait4``) is recorded too.  ``-m`` prints one move per
   line (``Move 3 cards from stack 0 to stack 5`` is one move, as are moves to
   the foundations), which is how the length is counted; every fc-solve
   solution is also replayed by our engine (a cross-check of the counting and
   of the board).  fc-solve's ``Total number of states checked`` is compared
   with the in-process run's iterations: the same search should give the
   same count.

The report shows both solvers side by side with ratios ours / theirs, and
writes every figure and per-deal row to ``bench/results/solver.json``
(git-ignored; ``--json PATH`` for another file).  Progress goes to stderr
every 500 deals.  The machine this runs on may be shared: its load average is
recorded at the start and at the end, and CPU times are reported beside wall
times since they suffer less from a loaded machine.  The budget is wall time
for both solvers, so on a loaded machine a hard deal can come out ``unknown``
in one run and ``solved`` in the next; with ``--cpu`` our solver's budget is
CPU time instead (it searches in slices of 500 nodes until this process has
used the budget of one core), which makes "nothing unknown within 10 s"
checkable on a busy machine.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from freecell.counts import game_count, record_count
from freecell.engine import NotASolutionError, verify_solution
from freecell.improve import improve_for
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import SOLVED, Result, Solver

from .common import json_option, spread
from .solver_data import (
    DEFAULT_BUDGET,
    DEFAULT_DEALS,
    DEFAULT_JSON,
    DEFAULT_PRESET,
    ERROR,
    PER_CORE_NOTE,
    ROOT,
    Progress,
    Row,
    deal_set,
    describe_deals,
    ratio,
    summarize,
)
from .solver_fcs import fcs_preset_error, fcs_tools, fcs_version, run_fcs_process, run_fcs_range
from .solver_report import lengths, lengths_text, read_reference, report_text, to_json
from .solver_rows import RowFile, RowFileError, sources_hash

# --- ours ---------------------------------------------------------------------------------


def solve_cpu(solver: Solver, budget: float) -> Result:
    """Search until a verdict or until this process has used ``budget`` seconds of CPU."""
    end = time.process_time() + budget
    while True:
        r = solver.run(max_nodes=500)
        if r is not None:
            return r
        if time.process_time() >= end:
            return solver.solve(max_nodes=0)


@dataclass(frozen=True, slots=True)
class Job:
    """One deal for :func:`solve_ours`, with the run's settings (sent to the pool's workers as it is)."""

    deal: int
    budget: float  # the first solution's time limit
    cpu: bool = False  # budgets are CPU time, not wall time
    best: float | None = None  # --best: then shorten for this long
    best_max: float | None = None  # --best-max: the most a deal may take, first solution and shortening
    rate: float | None = None  # --rate: the shortening's seconds counted as its nodes at this rate


def solve_ours(job: Job) -> Row:
    """Solve one deal with our solver, time it, replay the solution; then shorten it (``best``)."""
    deal, budget, cpu, best = job.deal, job.budget, job.cpu, job.best
    row: Row = {"deal": deal, "verdict": ERROR, "moves": None, "nodes": None, "states": None,
                "result_seconds": None, "replay_ok": None, "error": None}
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    try:
        position = Position.deal(deal)
        solver = Solver(position)
        result = solve_cpu(solver, budget) if cpu else solver.solve(seconds=budget)
    except Exception as e:  # a solver bug (its own replay refused): a failure, not a crash
        row["seconds"] = time.perf_counter() - t0
        row["cpu_seconds"] = time.process_time() - cpu0
        row["error"] = f"{type(e).__name__}: {e}"
        row["replay_ok"] = False if isinstance(e, NotASolutionError) else None
        return row
    row["seconds"] = time.perf_counter() - t0
    row["cpu_seconds"] = time.process_time() - cpu0
    row.update(verdict=result.verdict, nodes=result.nodes, states=result.states,
               result_seconds=result.seconds)
    if result.verdict == SOLVED:
        row["moves"] = len(result.moves)
        row["max_auto"] = record_count(result.moves)
        row["turns"] = game_count(position, result.moves, FREECELL)
        try:
            verify_solution(position, result.moves, FREECELL)
            row["replay_ok"] = True
        except NotASolutionError as e:
            row["replay_ok"] = False
            row["error"] = str(e)
        if best is not None and row["replay_ok"] and result.moves:
            most = job.best_max
            if most is not None and job.rate is None:  # the first solution's CPU counts; not in nodes
                most -= time.process_time() - cpu0
            imp = improve_for(position, result.moves, FREECELL, best, cpu, max_seconds=most, rate=job.rate)
            row["best_cpu_seconds"] = time.process_time() - cpu0
            row["best_max_auto"] = imp.count
            row["best_turns"] = imp.turns
            row["best_nodes"] = imp.nodes
            try:
                verify_solution(position, imp.best, FREECELL)
            except NotASolutionError as e:
                row["replay_ok"] = False
                row["error"] = f"shortened: {e}"
    return row


def run_ours(deals: Sequence[int], settings: Job, jobs: int, kept: RowFile | None = None,
             passes: int = 1) -> tuple[list[Row], float]:
    """Our rows for ``deals``: those ``kept`` holds already, and the others solved now (and kept)
    with ``settings`` (its deal aside), in ``passes`` interleaved passes over the list
    (:func:`bench.common.spread`)."""
    held = kept.held if kept is not None else {}
    rows: list[Row] = [held[d] for d in deals if d in held]
    if kept is not None and rows:
        print(f"[ours] {len(rows)} deals from {kept.path}", file=sys.stderr)
    work = [replace(settings, deal=d) for d in spread(deals, passes) if d not in held]
    progress = Progress("ours", len(work))
    start = time.perf_counter()

    def done(row: Row) -> None:
        rows.append(row)
        if kept is not None:
            kept.add(row)
        progress.tick()

    if jobs == 1:
        for w in work:
            done(solve_ours(w))
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(jobs) as pool:
            for row in pool.imap_unordered(solve_ours, work, chunksize=1):
                done(row)
    rows.sort(key=lambda r: r["deal"])
    return rows, time.perf_counter() - start




# --- the run ----------------------------------------------------------------------------


def _load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _git(*args: str) -> str | None:
    try:
        r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def solver_source() -> dict[str, Any]:
    """Which solver was measured: the commit, and the working tree's solver.py, shorten.py, cardmoves.py
    (``None`` in a tree from before it)."""
    path = ROOT / "freecell" / "solver.py"
    status = _git("status", "--porcelain", "--", "freecell")
    return {
        "commit": _git("rev-parse", "HEAD"),
        "solver_py_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "shorten_py_sha256": hashlib.sha256((ROOT / "freecell" / "shorten.py").read_bytes()).hexdigest(),
        "cardmoves_py_sha256": (hashlib.sha256(cardmoves.read_bytes()).hexdigest()
                                if (cardmoves := ROOT / "freecell" / "cardmoves.py").exists() else None),
        "freecell_uncommitted_changes": None if status is None else status.splitlines(),
    }


def comparison(ours: dict[str, Any], inproc: dict[str, Any] | None,
               proc: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, theirs in (("in_process", inproc), ("process", proc)):
        if theirs is None:
            continue
        r: dict[str, float | None] = {}
        for k in ("median", "p95", "p99", "max", "mean"):
            r[f"seconds_{k}"] = ratio(ours["seconds"][k], theirs["seconds"][k])
        if "length" in theirs:
            for k in ("mean", "max"):
                r[f"length_{k}"] = ratio(ours["length"][k], theirs["length"][k])
        if "cpu_seconds" in theirs:
            for k in ("median", "p95", "p99", "max"):
                r[f"cpu_seconds_{k}"] = ratio(ours["cpu_seconds"][k], theirs["cpu_seconds"][k])
        out[name] = r
    return out


def run(deals: Sequence[int], budget: float, jobs: int, fc_solve: bool, preset: str,
        argv: Sequence[str], cpu: bool = False, best: float | None = None,
        reference: dict[int, int] | None = None, kept: RowFile | None = None,
        passes: int = 1, best_max: float | None = None, rate: float | None = None) -> dict[str, Any]:
    result: dict[str, Any] = {
        "meta": {
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "argv": list(argv),
            "deals": describe_deals(deals),
            "deal_count": len(deals),
            "budget_seconds": budget,
            "budget_clock": "cpu" if cpu else "wall",
            "jobs": jobs,
            "note": PER_CORE_NOTE,
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average_start": _load(),
            "solver": solver_source(),
        },
    }
    if kept is not None:
        result["meta"]["rows_file"] = str(kept.path)
        result["meta"]["rows_from_file"] = sum(1 for d in deals if d in kept.held)
    settings = Job(0, budget, cpu, best, best_max, rate)
    ours_rows, ours_wall = run_ours(deals, settings, jobs, kept, passes)
    ours = summarize(ours_rows)
    ours["run_seconds"] = ours_wall
    result["ours"] = {"summary": ours, "rows": ours_rows}

    tools = fcs_tools() if fc_solve else {}
    if "fc-solve" in tools:
        fcs: dict[str, Any] = {"preset": preset, "version": fcs_version(tools), "tools": tools}
        inproc: dict[str, Any] | None = None
        if "range" in tools and "stdbuf" in tools:
            rows, wall = run_fcs_range(deals, budget, preset, jobs, tools)
            inproc = summarize(rows, lengths=False)
            inproc["run_seconds"] = wall
            inproc["setup_included_deals"] = [r["deal"] for r in rows if r["includes_setup"]]
            fcs["in_process"] = {"summary": inproc, "rows": rows}
        else:
            fcs["in_process"] = None
            fcs["in_process_skipped"] = "freecell-solver-range-parallel-solve or stdbuf not on PATH"
        prows, pwall = run_fcs_process(deals, budget, preset, jobs, tools)
        proc = summarize(prows)
        proc["run_seconds"] = pwall
        proc["board_mismatches"] = [r["deal"] for r in prows if not r["board_matches"]]
        proc["board_source"] = "make-microsoft-freecell-board -t" if "board" in tools else "ours"
        if inproc is not None:
            iters = {r["deal"]: r["nodes"] for r in fcs["in_process"]["rows"]}
            proc["iteration_mismatches"] = [
                r["deal"] for r in prows
                if not r["killed"] and iters.get(r["deal"]) is not None and r["nodes"] != iters[r["deal"]]
            ]
        fcs["process"] = {"summary": proc, "rows": prows}
        fcs["ratios_ours_over_theirs"] = comparison(ours, inproc, proc)
        result["fc_solve"] = fcs
    else:
        result["fc_solve"] = None
        result["fc_solve_skipped"] = "--no-fc-solve" if not fc_solve else "fc-solve not on PATH"
    result["lengths"] = lengths(ours_rows, reference or {},
                                (result["fc_solve"] or {}).get("process", {}).get("rows"), best)
    result["meta"]["load_average_end"] = _load()
    result["meta"]["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    return result




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=deal_set, default=deal_set(DEFAULT_DEALS),
                        help=f"deal numbers: A-B, N, or a comma list of both (default {DEFAULT_DEALS})")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help=f"time limit per deal, for both solvers (default {DEFAULT_BUDGET:g})")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes, each solving one deal at a time (default 1: "
                             "everything in this one process)")
    json_option(parser, DEFAULT_JSON)
    parser.add_argument("--cpu", action="store_true",
                        help="our budget is CPU time of one core, not wall time (for a busy machine)")
    parser.add_argument("--no-fc-solve", action="store_true", help="do not run fc-solve")
    parser.add_argument("--fc-solve-preset", default=DEFAULT_PRESET, metavar="NAME",
                        help=f"fc-solve preset, given as -l NAME (default {DEFAULT_PRESET})")
    parser.add_argument("--best", type=float, default=None, metavar="SECONDS",
                        help="then shorten each solution for SECONDS (freecell.improve; CPU with --cpu)")
    parser.add_argument("--best-max", type=float, default=None, metavar="SECONDS",
                        help="with --best: go on while a deal's solution is still over 0.85 times the "
                             "first's, until the deal has taken SECONDS in all, first solution "
                             "included (freecell.improve.improve_for)")
    parser.add_argument("--rate", type=float, default=None, metavar="NODES",
                        help="with --best: count the shortening's seconds (--best, --best-max) as its "
                             "search nodes at NODES a second, not by a clock: the same rows on any "
                             "machine at any load (32500: the reference machine of 2026-12-05 for the "
                             "search of d2b116c, 35360 for today's, 1.088 times as fast; the "
                             "first solution then does not count against --best-max)")
    parser.add_argument("--reference", type=Path, nargs="+", default=[], metavar="FILE",
                        help="published solutions to compare lengths with: deal:moves lines, two "
                             "characters a move (macroxue/freecell's solutions/block.N; never commit them)")
    parser.add_argument("--rows", type=Path, default=None, metavar="FILE",
                        help="keep each deal's row in FILE as it ends, and solve only the deals FILE "
                             "does not hold yet: a long run goes on where it stopped (bench/solver_rows.py)")
    parser.add_argument("--spread", type=int, default=1, metavar="N",
                        help="solve the deals in N interleaved passes (every Nth first): a run stopped "
                             "part of the way, as a long run with --rows is, holds an even sample of them")
    args = parser.parse_args(argv)
    if args.rate is not None and args.rate <= 0:
        parser.error("--rate must be positive")
    if args.budget <= 0:
        parser.error("--budget must be positive")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.spread < 1:
        parser.error("--spread must be at least 1")
    cpus = os.cpu_count() or 1
    if args.jobs > cpus:
        print(f"warning: --jobs {args.jobs} on {cpus} CPUs: deals will share cores, "
              "and per-deal times will not be per core", file=sys.stderr)
    tools = fcs_tools()
    if not args.no_fc_solve and "fc-solve" in tools:
        problem = fcs_preset_error(tools, args.fc_solve_preset)
        if problem:
            parser.error(f"fc-solve -l {args.fc_solve_preset} does not work: {problem}")
    kept = None
    if args.rows is not None:
        settings = {"budget": args.budget, "clock": "cpu" if args.cpu else "wall", "best": args.best,
                    "best_max": args.best_max, "sources": sources_hash(), "python": sys.version.split()[0]}
        if args.rate is not None:
            settings["rate"] = args.rate
        try:
            kept = RowFile(args.rows, settings)
        except (RowFileError, OSError) as e:
            parser.error(str(e))
    result = run(args.deals, args.budget, args.jobs, not args.no_fc_solve, args.fc_solve_preset,
                 sys.argv[1:] if argv is None else argv, args.cpu, args.best,
                 read_reference(args.reference), kept, args.spread, args.best_max, args.rate)
    print(report_text(result))
    print("\n".join(lengths_text(result["lengths"])))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(to_json(result))
    print(f"\nwritten: {args.json}")
    failures = result["ours"]["summary"]["replay_failures"] + result["ours"]["summary"]["errors"]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
