"""fc-solve beside our solver in the solver benchmark: its range runs, its per-deal runs, its moves."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from freecell.counts import record_count
from freecell.engine import NotASolutionError, verify_solution
from freecell.piles import HOME, Move, cell, column
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import SOLVED, UNKNOWN, UNSOLVABLE

from .solver_data import ERROR, FCS_ENV, WATCHDOG_SLACK, Progress, Row, runs_of, shares

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
