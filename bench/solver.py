"""Benchmark of the pure-Python solver over a range of deals, beside fc-solve.

Run it from the repository root::

    python3 bench/solver.py                          # deals 1-1000, 10 s per deal, one core
    python3 bench/solver.py --deals 1-32000 --jobs 2 # the whole classic range on two cores
    python3 bench/solver.py --deals 1-300 --budget 5 --json /tmp/solver.json
    python3 bench/solver.py --deals 1,617,11982,20000-20099 --no-fc-solve
    python3 bench/solver.py --fc-solve-preset toons-for-twenty-somethings

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
import json
import math
import multiprocessing
import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from freecell.counts import game_count, record_count  # noqa: E402
from freecell.deals import MAX_DEAL, MIN_DEAL  # noqa: E402
from freecell.engine import NotASolutionError, verify_solution  # noqa: E402
from freecell.improve import improve_for  # noqa: E402
from freecell.piles import HOME, Move, cell, column  # noqa: E402
from freecell.position import Position  # noqa: E402
from freecell.rules import FREECELL  # noqa: E402
from freecell.solver import SOLVED, UNKNOWN, UNSOLVABLE, Result, Solver  # noqa: E402

DEFAULT_JSON = ROOT / "bench" / "results" / "solver.json"
DEFAULT_DEALS = "1-1000"
DEFAULT_BUDGET = 10.0
DEFAULT_PRESET = "lg"
PROGRESS_EVERY = 500
LONG = 150  # solutions longer than this many moves are counted (no hint should come from one)
ERROR = "error"  # a deal whose run raised: counted as a failure
WATCHDOG_SLACK = 0.05  # seconds of pipe latency allowed beyond the budget before the kill
PER_CORE_NOTE = (
    "Per-deal times are per core: each deal is solved by one process on one core, "
    "whatever --jobs is; --jobs only runs several deals at once."
)
FCS_ENV = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}

Row = dict[str, Any]


# --- deals ------------------------------------------------------------------------


def parse_deals(text: str) -> list[int]:
    """``A-B``, ``N`` or a comma list of both: the sorted distinct deal numbers."""
    deals: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a deal or a range of deals: {part!r}") from None
        if not MIN_DEAL <= lo <= hi <= MAX_DEAL:
            raise argparse.ArgumentTypeError(
                f"bad range {part!r}: deals go from {MIN_DEAL} to {MAX_DEAL}, low end first")
        deals.update(range(lo, hi + 1))
    if not deals:
        raise argparse.ArgumentTypeError("no deals given")
    return sorted(deals)


def runs_of(deals: Sequence[int]) -> list[list[int]]:
    """Split sorted deal numbers into runs of consecutive numbers."""
    runs: list[list[int]] = []
    for d in deals:
        if runs and runs[-1][-1] == d - 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    return runs


def shares(deals: Sequence[int], jobs: int) -> list[list[int]]:
    """``jobs`` slices of consecutive positions in ``deals``, as equal in size as can be."""
    n = len(deals)
    bounds = [n * i // jobs for i in range(jobs + 1)]
    return [list(deals[bounds[i]:bounds[i + 1]]) for i in range(jobs) if bounds[i] < bounds[i + 1]]


def describe_deals(deals: Sequence[int]) -> str:
    parts = [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs_of(deals)]
    text = ",".join(parts)
    return text if len(text) <= 60 else text[:57] + "..."


# --- statistics ---------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-quantile (0-1) with linear interpolation between ranks; None when empty."""
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(s) - 1)
    return s[f] + (s[c] - s[f]) * (k - f)


def time_stats(values: Sequence[float]) -> dict[str, float | None]:
    return {
        "median": percentile(values, 0.5),
        "p95": percentile(values, 0.95),
        "p99": percentile(values, 0.99),
        "max": max(values) if values else None,
        "mean": sum(values) / len(values) if values else None,
        "total": sum(values),
    }


def summarize(rows: Sequence[Row], *, lengths: bool = True) -> dict[str, Any]:
    """Counts, deal lists, time figures (every deal), lengths (solved deals), mean nodes."""
    by_verdict: dict[str, list[int]] = {SOLVED: [], UNSOLVABLE: [], UNKNOWN: [], ERROR: []}
    for r in rows:
        by_verdict.setdefault(r["verdict"], []).append(r["deal"])
    out: dict[str, Any] = {
        "deals": len(rows),
        "solved": len(by_verdict[SOLVED]),
        "unsolvable": len(by_verdict[UNSOLVABLE]),
        "unknown": len(by_verdict[UNKNOWN]),
        "errors": len(by_verdict[ERROR]),
        "unsolvable_deals": by_verdict[UNSOLVABLE],
        "unknown_deals": by_verdict[UNKNOWN],
        "error_deals": by_verdict[ERROR],
        "seconds": time_stats([r["seconds"] for r in rows]),
    }
    cpu = [r["cpu_seconds"] for r in rows if r.get("cpu_seconds") is not None]
    if cpu:
        out["cpu_seconds"] = time_stats(cpu)
    if lengths:
        moves = [r["moves"] for r in rows if r["verdict"] == SOLVED and r.get("moves") is not None]
        out["length"] = {
            "mean": sum(moves) / len(moves) if moves else None,
            "max": max(moves) if moves else None,
            "min": min(moves) if moves else None,
            f"over_{LONG}": sum(1 for m in moves if m > LONG),
        }
        out[f"over_{LONG}_deals"] = [r["deal"] for r in rows if r["verdict"] == SOLVED
                                     and r.get("moves") is not None and r["moves"] > LONG]
        checked = [r for r in rows if r.get("replay_ok") is not None]
        out["replayed"] = len(checked)
        out["replay_failures"] = sum(1 for r in checked if not r["replay_ok"])
        out["replay_failure_deals"] = [r["deal"] for r in checked if not r["replay_ok"]]
    nodes = [r["nodes"] for r in rows if r.get("nodes") is not None]
    out["nodes_mean"] = sum(nodes) / len(nodes) if nodes else None
    return out


class Progress:
    """Thread-safe counter that prints a line on stderr every ``every`` deals."""

    def __init__(self, label: str, total: int, every: int = PROGRESS_EVERY) -> None:
        self.label = label
        self.total = total
        self.every = every
        self.done = 0
        self.start = time.perf_counter()
        self._lock = threading.Lock()
        print(f"[{label}] {total} deals ...", file=sys.stderr, flush=True)

    def tick(self, n: int = 1) -> None:
        with self._lock:
            before = self.done
            self.done += n
            if self.done // self.every > before // self.every or self.done == self.total:
                elapsed = time.perf_counter() - self.start
                left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
                print(f"[{self.label}] {self.done}/{self.total} deals, {elapsed:.0f} s elapsed, "
                      f"about {left:.0f} s left", file=sys.stderr, flush=True)


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


BEST_MAX: float | None = None  # --best-max: the longest a shortening may go on (improve_for)


def solve_ours(job: tuple[int, float, bool, float | None]) -> Row:
    """Solve one deal with our solver, time it, replay the solution; then shorten it (``best``)."""
    deal, budget, cpu, best = job
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
            imp = improve_for(position, result.moves, FREECELL, best, cpu, max_seconds=BEST_MAX)
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


def run_ours(deals: Sequence[int], budget: float, jobs: int, cpu: bool = False,
             best: float | None = None) -> tuple[list[Row], float]:
    progress = Progress("ours", len(deals))
    work = [(d, budget, cpu, best) for d in deals]
    rows: list[Row] = []
    start = time.perf_counter()
    if jobs == 1:
        for w in work:
            rows.append(solve_ours(w))
            progress.tick()
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ctx.Pool(jobs) as pool:
            for row in pool.imap_unordered(solve_ours, work, chunksize=1):
                rows.append(row)
                progress.tick()
    rows.sort(key=lambda r: r["deal"])
    return rows, time.perf_counter() - start


# --- fc-solve: in process (range solver) ----------------------------------------------

STARTED = re.compile(r"^Started at (\d+\.\d+)")
REACHED = re.compile(r"^Reached Board No\. (\d+) at (\d+\.\d+) \(total_num_iters=(\d+)\)")
VERDICT = re.compile(r"^(Unsolved|Intractable) Board No\. (\d+) at")


class _Lines:
    """Lines from a pipe, each awaited no longer than a timeout."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""

    def readline(self, timeout: float) -> str | None:
        """The next line; ``""`` at the end of the stream; ``None`` on timeout."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                rest, self.buf = self.buf, b""
                return rest.decode(errors="replace")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace") + "\n"


def _stop(p: subprocess.Popen[bytes]) -> None:
    if p.poll() is None:
        p.kill()
    p.wait()
    if p.stdout is not None:
        p.stdout.close()


def fcs_range_run(run: list[int], budget: float, preset: str, progress: Progress,
                  tools: dict[str, str]) -> list[Row]:
    """In-process figures for one run of consecutive deals (restarted past any deal killed)."""
    rows: list[Row] = []
    killed: set[int] = set()
    i = 0
    while i < len(run):
        start, end = run[i], run[-1]
        warm = start - 1 if start - 1 >= 0 and start - 1 not in killed else None
        first = start if warm is None else warm
        cmd = [tools["stdbuf"], "-oL", tools["range"], str(first), str(end), "1", "-l", preset]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=FCS_ENV)
        assert p.stdout is not None
        lines = _Lines(p.stdout.fileno())
        prev_t: float | None = None
        prev_iters = 0
        prev_local = time.perf_counter()
        expected = first
        verdicts: dict[int, str] = {}
        try:
            while expected <= end:
                line = lines.readline(budget + WATCHDOG_SLACK)
                if line is None:  # the budget ran out on deal ``expected``
                    elapsed = time.perf_counter() - prev_local
                    killed.add(expected)
                    if expected != warm:
                        rows.append({"deal": expected, "verdict": UNKNOWN, "seconds": elapsed,
                                     "nodes": None, "includes_setup": expected == first,
                                     "killed": True, "over_budget": True})
                        progress.tick()
                        i += 1
                    break
                if line == "":
                    raise RuntimeError(f"{' '.join(cmd)} ended early, at deal {expected} "
                                       f"(exit status {p.wait()})")
                m = STARTED.match(line)
                if m:
                    prev_t = float(m.group(1))
                    continue
                m = VERDICT.match(line)
                if m:
                    verdicts[int(m.group(2))] = UNSOLVABLE if m.group(1) == "Unsolved" else UNKNOWN
                    continue
                m = REACHED.match(line)
                if not m:
                    continue
                deal, t, iters = int(m.group(1)), float(m.group(2)), int(m.group(3))
                if deal != expected or prev_t is None:
                    raise RuntimeError(f"unexpected line from the range solver: {line.strip()!r}")
                if deal != warm:
                    over = t - prev_t > budget  # finished, but too late to count
                    rows.append({"deal": deal, "verdict": UNKNOWN if over else verdicts.get(deal, SOLVED),
                                 "seconds": t - prev_t, "nodes": iters - prev_iters,
                                 "includes_setup": deal == first, "killed": False,
                                 "over_budget": over})
                    progress.tick()
                    i += 1
                prev_t, prev_iters, prev_local = t, iters, time.perf_counter()
                expected = deal + 1
        finally:
            _stop(p)
    return rows


def run_fcs_range(deals: Sequence[int], budget: float, preset: str, jobs: int,
                  tools: dict[str, str]) -> tuple[list[Row], float]:
    progress = Progress(f"fc-solve -l {preset}, in process", len(deals))
    start = time.perf_counter()

    def job(share: list[int]) -> list[Row]:
        out: list[Row] = []
        for run in runs_of(share):
            out += fcs_range_run(run, budget, preset, progress, tools)
        return out

    rows: list[Row] = []
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for part in ex.map(job, shares(deals, jobs)):
            rows += part
    rows.sort(key=lambda r: r["deal"])
    return rows, time.perf_counter() - start


# --- fc-solve: one process per deal -----------------------------------------------------

_MOVES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Move]]] = [
    (re.compile(r"^Move a card from stack (\d+) to the foundations"),
     lambda m: Move(column(int(m[1])), HOME)),
    (re.compile(r"^Move a card from freecell (\d+) to the foundations"),
     lambda m: Move(cell(int(m[1])), HOME)),
    (re.compile(r"^Move a card from stack (\d+) to freecell (\d+)"),
     lambda m: Move(column(int(m[1])), cell(int(m[2])))),
    (re.compile(r"^Move a card from freecell (\d+) to stack (\d+)"),
     lambda m: Move(cell(int(m[1])), column(int(m[2])))),
    (re.compile(r"^Move a card from freecell (\d+) to freecell (\d+)"),
     lambda m: Move(cell(int(m[1])), cell(int(m[2])))),
    (re.compile(r"^Move a card from stack (\d+) to stack (\d+)"),
     lambda m: Move(column(int(m[1])), column(int(m[2])))),
    (re.compile(r"^Move (\d+) cards from stack (\d+) to stack (\d+)"),
     lambda m: Move(column(int(m[2])), column(int(m[3])), int(m[1]))),
]
STATES_CHECKED = re.compile(r"(?m)^Total number of states checked is (\d+)\.")


def parse_fcs_moves(out: str) -> tuple[list[Move], list[str]]:
    """fc-solve ``-m`` output: its moves (one per ``Move`` line), and the lines not understood."""
    moves: list[Move] = []
    bad: list[str] = []
    for line in out.splitlines():
        if not line.startswith("Move"):
            continue
        for pattern, make in _MOVES:
            m = pattern.match(line)
            if m:
                moves.append(make(m))
                break
        else:
            bad.append(line)
    return moves, bad


def _norm_board(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines()]


def fcs_process_deal(deal: int, budget: float, preset: str, tools: dict[str, str]) -> Row:
    """One deal in its own fc-solve process: wall time with start-up, CPU time, moves, replay."""
    position = Position.deal(deal)
    ours = position.to_text(header=False)
    if "board" in tools:
        board = subprocess.run([tools["board"], "-t", str(deal)], capture_output=True, text=True,
                               timeout=60, check=True).stdout
    else:
        board = ours
    row: Row = {"deal": deal, "board_matches": _norm_board(board) == _norm_board(ours),
                "moves": None, "nodes": None, "replay_ok": None, "error": None, "killed": False}
    cmd = [tools["fc-solve"], "-l", preset, "-m", "-sel", "-"]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=FCS_ENV)
    killed = threading.Event()
    lock = threading.Lock()
    reaped = False

    def kill() -> None:  # not Popen.kill: its poll() could reap the child before our wait4
        with lock:
            if not reaped:
                killed.set()
                os.kill(p.pid, signal.SIGKILL)

    timer = threading.Timer(budget, kill)
    timer.start()
    assert p.stdin is not None and p.stdout is not None
    try:
        try:
            p.stdin.write(board.encode())
            p.stdin.close()
        except BrokenPipeError:
            pass
        out = p.stdout.read().decode(errors="replace")
        p.stdout.close()
        os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # ended, not reaped: kill() stays safe
        with lock:
            reaped = True
        _, status, usage = os.wait4(p.pid, 0)
        t1 = time.perf_counter()
        p.returncode = os.waitstatus_to_exitcode(status)
    finally:
        timer.cancel()
    row["seconds"] = t1 - t0
    row["cpu_seconds"] = usage.ru_utime + usage.ru_stime
    m = STATES_CHECKED.search(out)
    row["nodes"] = int(m.group(1)) if m else None
    if killed.is_set():
        row.update(verdict=UNKNOWN, killed=True)
    elif "This game is solveable." in out:
        row["verdict"] = SOLVED
    elif "I could not solve this game." in out:
        row["verdict"] = UNSOLVABLE
    elif "Iterations count exceeded." in out:
        row["verdict"] = UNKNOWN
    else:
        row.update(verdict=ERROR, error=f"exit status {p.returncode}, no verdict in the output")
    if row["verdict"] == SOLVED:
        moves, bad = parse_fcs_moves(out)
        row["moves"] = len(moves) + len(bad)
        row["max_auto"] = record_count(moves) + len(bad)
        if bad:
            row.update(replay_ok=False, error=f"move lines not understood: {bad[:3]}")
        else:
            try:
                verify_solution(position, moves, FREECELL)
                row["replay_ok"] = True
            except NotASolutionError as e:
                row.update(replay_ok=False, error=str(e))
    return row


def run_fcs_process(deals: Sequence[int], budget: float, preset: str, jobs: int,
                    tools: dict[str, str]) -> tuple[list[Row], float]:
    progress = Progress(f"fc-solve -l {preset}, a process per deal", len(deals))
    start = time.perf_counter()

    def job(deal: int) -> Row:
        row = fcs_process_deal(deal, budget, preset, tools)
        progress.tick()
        return row

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        rows = list(ex.map(job, deals))
    return rows, time.perf_counter() - start


def fcs_tools() -> dict[str, str]:
    tools: dict[str, str] = {}
    for key, name in (("fc-solve", "fc-solve"), ("range", "freecell-solver-range-parallel-solve"),
                      ("board", "make-microsoft-freecell-board"), ("stdbuf", "stdbuf")):
        path = shutil.which(name)
        if path:
            tools[key] = path
    return tools


def fcs_preset_error(tools: dict[str, str], preset: str) -> str | None:
    """fc-solve's complaint when it cannot solve deal 1 with ``preset`` (a bad name), else None."""
    r = subprocess.run([tools["fc-solve"], "-l", preset, "-"], input=Position.deal(1).to_text(header=False),
                       capture_output=True, text=True, timeout=60, env=FCS_ENV)
    if r.returncode == 0 and "This game is solveable." in r.stdout:
        return None
    return " ".join((r.stderr or r.stdout).split())[:200] or f"exit status {r.returncode}"


def fcs_version(tools: dict[str, str]) -> str:
    try:
        r = subprocess.run([tools["fc-solve"], "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "?"
    return " ".join(r.stdout.split()) or "?"


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
    """Which solver was measured: the commit, and the working tree's solver.py and shorten.py."""
    path = ROOT / "freecell" / "solver.py"
    status = _git("status", "--porcelain", "--", "freecell")
    return {
        "commit": _git("rev-parse", "HEAD"),
        "solver_py_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "shorten_py_sha256": hashlib.sha256((ROOT / "freecell" / "shorten.py").read_bytes()).hexdigest(),
        "freecell_uncommitted_changes": None if status is None else status.splitlines(),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


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
        reference: dict[int, int] | None = None) -> dict[str, Any]:
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
    ours_rows, ours_wall = run_ours(deals, budget, jobs, cpu, best)
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


# --- lengths: ours, fc-solve's, the published near-optimal ones ------------------------------


def read_reference(paths: Sequence[Path]) -> dict[int, int]:
    """Published solutions' lengths: ``deal:moves`` lines, two characters a move, moves home implicit
    (maximum auto-play: the record's count)."""
    out: dict[int, int] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            deal, sep, moves = line.strip().partition(":")
            if sep and deal.isdigit():
                out[int(deal)] = len(moves) // 2
    return out


def count_stats(values: Sequence[float]) -> dict[str, float | None]:
    return {"mean": sum(values) / len(values) if values else None, "p95": percentile(values, 0.95),
            "max": max(values) if values else None, "n": len(values)}


def lengths(rows: Sequence[Row], reference: dict[int, int], fcs_rows: Sequence[Row] | None,
            best: float | None) -> dict[str, Any]:
    """Solution lengths in both units, beside fc-solve's and the published ones, on the deals all have."""
    solved = [r for r in rows if r.get("max_auto") is not None]
    out: dict[str, Any] = {"best_seconds": best}
    key = "best_max_auto" if best is not None else "max_auto"
    turns_key = "best_turns" if best is not None else "turns"
    out["first_max_auto"] = count_stats([r["max_auto"] for r in solved])
    out["first_turns"] = count_stats([r["turns"] for r in solved])
    out["first_cpu_seconds"] = time_stats([r["cpu_seconds"] for r in solved])
    if best is not None:
        done = [r for r in solved if r.get(key) is not None]
        out["best_max_auto"] = count_stats([r[key] for r in done])
        out["best_turns"] = count_stats([r[turns_key] for r in done])
        out["best_cpu_seconds"] = time_stats([r["best_cpu_seconds"] for r in done])
    if fcs_rows:
        theirs = [r["max_auto"] for r in fcs_rows if r.get("max_auto") is not None]
        out["fc_solve_max_auto"] = count_stats(theirs)
    if reference:
        both = [r for r in solved if r["deal"] in reference and r.get(key) is not None]
        ours = [r[key] for r in both]
        ref = [reference[r["deal"]] for r in both]
        out["published_max_auto"] = count_stats(ref)
        if both:
            out["ratio_of_means"] = sum(ours) / sum(ref)
            out["as_short_share"] = sum(1 for a, b in zip(ours, ref, strict=True) if a <= b) / len(both)
            out["max_ratio"] = max(a / b for a, b in zip(ours, ref, strict=True))
            out["max_ratio_deal"] = max(both, key=lambda r: r[key] / reference[r["deal"]])["deal"]
    return out


def lengths_text(ln: dict[str, Any]) -> list[str]:
    def stats(name: str, d: dict[str, Any] | None) -> str:
        if not d or d.get("mean") is None:
            return f"  {name}: -"
        return f"  {name}: mean {d['mean']:.2f}, p95 {d['p95']:.0f}, max {d['max']:.0f} ({d['n']} deals)"

    def cpu(name: str, d: dict[str, Any] | None) -> str:
        if not d:
            return f"  {name}: -"
        return f"  {name}: median {fmt_ms(d.get('median'))} ms, p95 {fmt_ms(d.get('p95'))} ms, " \
               f"max {fmt_ms(d.get('max'))} ms"

    out = ["", "Solution lengths (max auto-play: moves home free, every other move one; turns: as the "
           "moves counter counts)"]
    out.append(stats("ours, first, max auto-play", ln.get("first_max_auto")))
    out.append(stats("ours, first, turns", ln.get("first_turns")))
    if ln.get("best_seconds") is not None:
        out.append(stats(f"ours, --best {ln['best_seconds']:g}, max auto-play", ln.get("best_max_auto")))
        out.append(stats(f"ours, --best {ln['best_seconds']:g}, turns", ln.get("best_turns")))
    out.append(stats("fc-solve, max auto-play", ln.get("fc_solve_max_auto")))
    out.append(stats("published (--reference)", ln.get("published_max_auto")))
    if "ratio_of_means" in ln:
        out.append(f"  ours / published: ratio of means {ln['ratio_of_means']:.3f}, as short on "
                   f"{100 * ln['as_short_share']:.1f}% of deals, max ratio {ln['max_ratio']:.3f} "
                   f"(deal {ln['max_ratio_deal']})")
    out.append(cpu("CPU, first solution", ln.get("first_cpu_seconds")))
    if ln.get("best_seconds") is not None:
        out.append(cpu("CPU, first + shortening", ln.get("best_cpu_seconds")))
    return out


# --- the report ---------------------------------------------------------------------------


def fmt_ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1000
    if ms < 1:
        return f"{ms:.3f}"
    if ms < 10:
        return f"{ms:.2f}"
    if ms < 100:
        return f"{ms:.1f}"
    return f"{ms:,.0f}"


def fmt_num(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{digits}f}"


def fmt_ratio(r: float | None) -> str:
    if r is None:
        return ""
    if r >= 100:
        return f"{r:,.0f}x"
    if r >= 10:
        return f"{r:.1f}x"
    return f"{r:.2f}x"


def deal_list(deals: Iterable[int], limit: int = 40) -> str:
    d = list(deals)
    if not d:
        return "none"
    text = ", ".join(map(str, d[:limit]))
    return text + (f", ... ({len(d)} in all)" if len(d) > limit else "")


def table(rows: Sequence[Sequence[str]]) -> Iterator[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        yield "  ".join(cells).rstrip()


def report_text(result: dict[str, Any]) -> str:
    meta = result["meta"]
    ours = result["ours"]["summary"]
    fcs = result.get("fc_solve")
    preset = fcs["preset"] if fcs else ""
    inproc = fcs["in_process"]["summary"] if fcs and fcs.get("in_process") else None
    proc = fcs["process"]["summary"] if fcs else None
    lines = [
        f"Solver benchmark: deals {meta['deals']} ({meta['deal_count']} deals), "
        f"budget {meta['budget_seconds']:g} s per deal, {meta['jobs']} job(s)",
        PER_CORE_NOTE,
        f"Times are wall clock, in ms.  Machine: {meta['cpus']} CPUs, load average "
        f"{meta['load_average_start']} at the start, {meta['load_average_end']} at the end "
        "(a shared machine: expect noise; CPU times are less affected).",
        "",
    ]
    header = ["", "ours"]
    cols: list[dict[str, Any]] = []
    if inproc is not None:
        header += [f"fc-solve -l {preset}", "ours/theirs"]
        cols.append(inproc)
    if proc is not None:
        header += [f"fc-solve -l {preset}", "ours/theirs"]
        cols.append(proc)
    sub = ["", "in process"] + (["in process", ""] if inproc is not None else []) + (
        ["process/deal", ""] if proc is not None else [])
    rows: list[list[str]] = [header, sub]

    def line(label: str, get: Callable[[dict[str, Any]], Any], fmt: Callable[[Any], str],
             with_ratio: bool) -> None:
        mine = get(ours)
        r = [label, fmt(mine)]
        for c in cols:
            theirs = get(c)
            r += [fmt(theirs), fmt_ratio(ratio(mine, theirs)) if with_ratio else ""]
        rows.append(r)

    def pick(*keys: str) -> Callable[[dict[str, Any]], Any]:
        def get(d: dict[str, Any]) -> Any:
            x: Any = d
            for k in keys:
                if not isinstance(x, dict) or k not in x:
                    return None
                x = x[k]
            return x
        return get

    for k in ("solved", "unsolvable", "unknown", "errors"):
        line(k, pick(k), fmt_num, False)
    for k in ("median", "p95", "p99", "max", "mean"):
        line(f"time {k} (ms)", pick("seconds", k), fmt_ms, True)
    for k in ("median", "p95", "p99", "max"):
        line(f"CPU time {k} (ms)", pick("cpu_seconds", k), fmt_ms, True)
    line("length mean (moves)", pick("length", "mean"), fmt_num, True)
    line("length max (moves)", pick("length", "max"), fmt_num, True)
    line(f"solutions over {LONG} moves", pick("length", f"over_{LONG}"), fmt_num, False)
    line("nodes mean (fc-solve: iterations)", pick("nodes_mean"), lambda x: fmt_num(x, 0), False)
    line("replay failures", pick("replay_failures"), fmt_num, False)
    line("run time (s)", pick("run_seconds"), fmt_num, False)
    lines += table(rows)
    lines.append("")
    lines.append(f"ours: unsolvable: {deal_list(ours['unsolvable_deals'])}; "
                 f"unknown: {deal_list(ours['unknown_deals'])}; "
                 f"over {LONG} moves: {deal_list(ours.get(f'over_{LONG}_deals', []))}")
    if ours["errors"]:
        lines.append(f"ours: errors: {deal_list(ours['error_deals'])}")
    if ours["replay_failures"]:
        lines.append(f"ours: REPLAY FAILURES: {deal_list(ours['replay_failure_deals'])}")
    if fcs:
        for name, s in (("in process", inproc), ("process/deal", proc)):
            if s is None:
                continue
            lines.append(f"fc-solve {name}: unsolvable: {deal_list(s['unsolvable_deals'])}; "
                         f"unknown: {deal_list(s['unknown_deals'])}"
                         + (f"; errors: {deal_list(s['error_deals'])}" if s["errors"] else ""))
        assert proc is not None
        lines.append(f"{fcs['version']}; boards from {proc['board_source']}, "
                     f"differing from ours: {deal_list(proc['board_mismatches'])}")
        if proc["replay_failures"]:
            lines.append("fc-solve solutions our engine refuses: "
                         f"{deal_list(proc['replay_failure_deals'])}")
        else:
            lines.append(f"fc-solve solutions replayed by our engine: {proc['replayed']}, all accepted")
        if inproc is not None:
            lines.append("fc-solve iterations differing between the two modes: "
                         f"{deal_list(proc.get('iteration_mismatches', []))}")
            if inproc["setup_included_deals"]:
                lines.append("fc-solve in process: times include the start-up for deals "
                             f"{deal_list(inproc['setup_included_deals'])} (restarted after a kill)")
        lines.append("fc-solve in process: freecell-solver-range-parallel-solve, time between its "
                     "per-board lines; process/deal: fc-solve -m -sel, spawn to reap.")
    else:
        lines.append(f"fc-solve: skipped ({result.get('fc_solve_skipped')})")
    src = meta["solver"]
    dirty = src["freecell_uncommitted_changes"]
    lines.append(f"solver measured: commit {str(src['commit'])[:12]}, freecell/solver.py sha256 "
                 f"{src['solver_py_sha256'][:12]}"
                 + (f", UNCOMMITTED CHANGES in freecell/: {' '.join(dirty)}" if dirty else ""))
    return "\n".join(lines)


def to_json(result: dict[str, Any]) -> str:
    """Indented JSON, except that each per-deal row takes one line (32,000 deals stay readable)."""
    tables: list[list[Row]] = []

    def strip(x: Any) -> Any:
        if not isinstance(x, dict):
            return x
        out: dict[str, Any] = {}
        for k, v in x.items():
            if k == "rows":
                out[k] = f"@rows{len(tables)}@"
                tables.append(v)
            else:
                out[k] = strip(v)
        return out

    text = json.dumps(strip(result), indent=1)
    for i, rows in enumerate(tables):
        body = ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rows)
        text = text.replace(f'"@rows{i}@"', "[\n" + body + "\n ]", 1)
    return text + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=parse_deals, default=parse_deals(DEFAULT_DEALS),
                        help=f"deal numbers: A-B, N, or a comma list of both (default {DEFAULT_DEALS})")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help=f"time limit per deal, for both solvers (default {DEFAULT_BUDGET:g})")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="worker processes, each solving one deal at a time (default 1: "
                             "everything in this one process)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"where to write the figures (default {DEFAULT_JSON.relative_to(ROOT)})")
    parser.add_argument("--cpu", action="store_true",
                        help="our budget is CPU time of one core, not wall time (for a busy machine)")
    parser.add_argument("--no-fc-solve", action="store_true", help="do not run fc-solve")
    parser.add_argument("--fc-solve-preset", default=DEFAULT_PRESET, metavar="NAME",
                        help=f"fc-solve preset, given as -l NAME (default {DEFAULT_PRESET})")
    parser.add_argument("--best", type=float, default=None, metavar="SECONDS",
                        help="then shorten each solution for SECONDS (freecell.improve; CPU with --cpu)")
    parser.add_argument("--best-max", type=float, default=None, metavar="SECONDS",
                        help="with --best: go on up to SECONDS on a deal whose solution is still over "
                             "0.85 times the first's (freecell.improve.improve_for)")
    parser.add_argument("--reference", type=Path, nargs="+", default=[], metavar="FILE",
                        help="published solutions to compare lengths with: deal:moves lines, two "
                             "characters a move (macroxue/freecell's solutions/block.N; never commit them)")
    args = parser.parse_args(argv)
    global BEST_MAX
    BEST_MAX = args.best_max
    if args.budget <= 0:
        parser.error("--budget must be positive")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    cpus = os.cpu_count() or 1
    if args.jobs > cpus:
        print(f"warning: --jobs {args.jobs} on {cpus} CPUs: deals will share cores, "
              "and per-deal times will not be per core", file=sys.stderr)
    tools = fcs_tools()
    if not args.no_fc_solve and "fc-solve" in tools:
        problem = fcs_preset_error(tools, args.fc_solve_preset)
        if problem:
            parser.error(f"fc-solve -l {args.fc_solve_preset} does not work: {problem}")
    result = run(args.deals, args.budget, args.jobs, not args.no_fc_solve, args.fc_solve_preset,
                 sys.argv[1:] if argv is None else argv, args.cpu, args.best,
                 read_reference(args.reference))
    print(report_text(result))
    print("\n".join(lengths_text(result["lengths"])))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(to_json(result))
    print(f"\nwritten: {args.json}")
    failures = result["ours"]["summary"]["replay_failures"] + result["ours"]["summary"]["errors"]
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
