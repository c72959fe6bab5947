"""The solver benchmark's rows, deal lists and statistics (bench/solver.py and its parts share them)."""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from freecell.solver import SOLVED, UNKNOWN, UNSOLVABLE

from .common import parse_deals

ROOT = Path(__file__).resolve().parents[1]


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


def deal_set(text: str) -> list[int]:
    """The sorted distinct deals of ``--deals`` (:func:`bench.common.parse_deals`): an argparse type."""
    try:
        return sorted(set(parse_deals(text)))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


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

def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b
