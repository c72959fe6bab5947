"""What the benchmarks share: the repository's root, deal lists, the load, summaries, the JSON out.

Every script runs from the repository root as ``python3 -m bench.NAME`` and
writes its figures to ``bench/results/NAME.json`` (git-ignored).

>>> parse_deals("1-3,7")
[1, 2, 3, 7]
>>> deal_ranges([1, 2, 3, 7])
'1-3,7'
>>> spread([1, 2, 3, 4, 5, 6, 7], 3)
[1, 4, 7, 2, 5, 3, 6]
>>> summary([4.0, 1.0, 3.0, 2.0])["median"]
2.5
>>> summary([]) == {"n": 0}
True
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from freecell.deals import MAX_DEAL, MIN_DEAL

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
READY_TIMEOUT_MS = 180_000


def results_file(name: str) -> Path:
    """Where the script ``name`` writes its figures by default."""
    return RESULTS / f"{name}.json"


def loadavg() -> list[float]:
    """The load average over 1, 5 and 15 minutes, rounded; empty where the system has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def parse_deals(text: str) -> list[int]:
    """``N``, ``A-B`` or a comma list of both, in the order given; ValueError when there is none,
    or a deal is not one (``MIN_DEAL`` to ``MAX_DEAL``), or a range goes down.

    >>> parse_deals("3-1")
    Traceback (most recent call last):
    ...
    ValueError: bad range '3-1' in '3-1': deals go from 1 to 8589934591, low end first
    """
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise ValueError(f"not a deal list: {text!r} (N, A-B or a comma list of both)") from None
        if not MIN_DEAL <= lo <= hi <= MAX_DEAL:
            what = f"bad range {part!r}" if sep else f"no such deal: {part}"
            raise ValueError(f"{what} in {text!r}: deals go from {MIN_DEAL} to {MAX_DEAL}"
                             + (", low end first" if sep else ""))
        out.extend(range(lo, hi + 1))
    if not out:
        raise ValueError(f"no deals in {text!r}")
    return out


def deals_option(parser: argparse.ArgumentParser, text: str) -> list[int]:
    """:func:`parse_deals` of a command line's ``--deals``; bad text is the parser's one-line error."""
    try:
        return parse_deals(text)
    except ValueError as e:
        parser.error(str(e))


def json_option(parser: argparse.ArgumentParser, default: Path) -> None:
    """The ``--json`` option: where a script writes its figures."""
    parser.add_argument("--json", type=Path, default=default,
                        help=f"where to write the figures (default {default.relative_to(ROOT)})")


def spread(deals: Sequence[int], passes: int) -> list[int]:
    """``deals`` in ``passes`` interleaved passes (every ``passes``-th first, then the ones after
    them...): a run stopped part of the way holds an even sample of the whole list, not its start."""
    return [d for k in range(max(1, passes)) for d in deals[k::max(1, passes)]]


def deal_ranges(deals: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` as ``1-3,7``."""
    runs: list[list[int]] = []
    for n in deals:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0-100) of a non-empty list."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def summary(values: Sequence[float], scale: float = 1.0, digits: int | None = None) -> dict[str, float]:
    """Count, min, median, p90, p95, max and mean of ``values`` times ``scale``; ``{"n": 0}`` when empty."""
    if not values:
        return {"n": 0}
    v = [x * scale for x in values]

    def r(x: float) -> float:
        return x if digits is None else round(x, digits)

    return {"n": len(v), "min": r(min(v)), "median": r(statistics.median(v)), "p90": r(percentile(v, 90)),
            "p95": r(percentile(v, 95)), "max": r(max(v)), "mean": r(statistics.fmean(v))}


def fmt(v: float | None, digits: int = 0) -> str:
    """A figure for a report: ``-`` for none."""
    return "-" if v is None else f"{v:,.{digits}f}"


def write_json(path: Path, result: object) -> None:
    """Write ``result`` to ``path`` (its folder made if needed) and say where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"\nwritten: {path}")


def run_and_report(run: Callable[[], dict[str, Any]], report: Callable[[dict[str, Any]], str],
                   path: Path) -> int:
    """A site benchmark's end: run it (a failed build is exit status 2), print its report, keep its JSON."""
    import build

    try:
        result = run()
    except build.BuildError as e:
        print(f"build: {e}", file=sys.stderr)
        return 2
    print(report(result))
    write_json(path, result)
    return 0


def wait_ready(page: Page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait for ``html[data-state]`` to say ``ready``; RuntimeError when the page says it failed."""
    page.wait_for_function("() => ['ready', 'failed'].includes(document.documentElement.dataset.state)",
                           polling="raf", timeout=timeout)
    state = page.evaluate("() => document.documentElement.dataset.state")
    if state != "ready":
        raise RuntimeError(f"the page failed to start: html[data-state={state}]")
