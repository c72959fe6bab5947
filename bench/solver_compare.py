"""Two runs of ``bench.solver --rows`` side by side, on the deals both hold.

A change to the improving search is judged by its rows beside the rows of
the solver before it, deal for deal (issue 27)::

    python3 -m bench.solver_compare OLD.jsonl NEW.jsonl --reference solutions/block.*

For each file, over the deals both files hold a shortened solution for
(rows of a run killed mid-line or of an unsolved deal are left out): the
ratio of the means of the record's count (maximum auto-play) to the
published near-optimal lengths, the deals as short as or shorter than the
published, the deals over ``--limit`` times it, CPU per deal (median, p95,
max, and how many went on past 1.25 times the first budget), the first
solution's CPU, nodes, replay failures; then on how many deals the second
is shorter or longer than the first.  Rows made at other times met other
loads: a CPU budget gives fewer nodes on a busier machine, so the mean
nodes are shown beside the counts.

    >>> a = {1: {"best_max_auto": 30, "best_cpu_seconds": 0.41, "cpu_seconds": 0.01, "best_nodes": 9000,
    ...          "replay_ok": True}, 2: {"best_max_auto": 28, "best_cpu_seconds": 2.9, "cpu_seconds": 0.02,
    ...          "best_nodes": 80000, "replay_ok": True}}
    >>> f = figures(a, [1, 2], {1: 25, 2: 20}, 1.35, 0.4)
    >>> f["ratio"], f["short"], f["over"], f["past_first_budget"]
    (1.2889, 0.0, [[2, 28, 20]], 0.5)
    >>> figures(a, [1, 2], {1: 25, 2: 20}, 1.35, 0.4, rate=30000)["past_first_budget"]  # by nodes: 12,000
    0.5
    >>> c = {1: dict(a[1], best_nodes=14200), 2: a[2]}  # 0.4 s at 35,360: 14,144 nodes, the slice to 14,200
    >>> figures(c, [1, 2], {1: 25, 2: 20}, 1.35, 0.4, rate=35360)["past_first_budget"]
    0.5
    >>> b = {1: dict(a[1], best_max_auto=25), 2: dict(a[2], best_max_auto=29)}
    >>> changes(a, b, [1, 2])
    {'shorter': 1, 'longer': 1, 'same': 0}
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common import percentile, results_file
from bench.solver_report import beside_published, read_reference
from bench.solver_rows import RowFileError, read_rows
from bench.stop_rule import SLICE

Rows = dict[int, dict[str, Any]]


def shortened(rows: Rows) -> Rows:
    """The rows with a shortened solution (``best_max_auto``)."""
    return {d: r for d, r in rows.items() if isinstance(r.get("best_max_auto"), int)}


def figures(rows: Rows, deals: Sequence[int], reference: dict[int, int], limit: float,
            first_budget: float | None, rate: float | None = None) -> dict[str, Any]:
    """One run's figures over ``deals`` (each in ``rows`` and ``reference``); with ``rate`` (rows
    made with ``bench.solver --rate``), a deal went on past the first budget by its nodes, not its CPU."""
    published = beside_published([(d, rows[d]["best_max_auto"], reference[d]) for d in deals], limit)
    cpu = [float(rows[d]["best_cpu_seconds"]) for d in deals]
    first = [float(rows[d]["cpu_seconds"]) for d in deals]
    if first_budget is None:
        past = None
    elif rate is not None:  # the first budget ends with the slice that reaches it
        ends = math.ceil(first_budget * rate / SLICE) * SLICE
        past = sum(float(rows[d].get("best_nodes") or 0) > ends for d in deals) / len(deals)
    else:
        past = sum(c > 1.25 * first_budget for c in cpu) / len(deals)
    return {
        "deals": len(deals),
        "ratio": round(published["ratio_of_means"], 4),
        "short": round(published["as_short_share"], 4),
        "over": published["over"],
        "cpu_ms": [round(1000 * statistics.median(cpu)), round(1000 * percentile(cpu, 95)),
                   round(1000 * max(cpu))],
        "past_first_budget": past,
        "first_ms": [round(1000 * statistics.median(first), 1), round(1000 * percentile(first, 95), 1)],
        "nodes": round(statistics.mean(float(rows[d].get("best_nodes") or 0) for d in deals)),
        "replay_failures": sum(not rows[d].get("replay_ok", True) for d in deals),
    }


def changes(a: Rows, b: Rows, deals: Sequence[int]) -> dict[str, int]:
    """On how many of ``deals`` ``b``'s solution is shorter, longer or the same as ``a``'s."""
    diffs = [b[d]["best_max_auto"] - a[d]["best_max_auto"] for d in deals]
    return {"shorter": sum(x < 0 for x in diffs), "longer": sum(x > 0 for x in diffs),
            "same": sum(x == 0 for x in diffs)}


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['deals']} deals both hold ({result['span']}), beside the published"]
    for run in result["runs"]:
        f = run["figures"]
        share = f["past_first_budget"]
        past = "" if share is None else f", {share:.1%} past the first budget"
        over = ", ".join(f"{d} ({o} against {p})" for d, o, p in f["over"]) or "none"
        cpu, first = f["cpu_ms"], f["first_ms"]
        lines += [f"{run['file']} (sources {run['sources']}):",
                  f"  ratio of means {f['ratio']:.4f}, {f['short']:.1%} as short, "
                  f"over {result['limit']}: {over}",
                  f"  CPU median / p95 / max {cpu[0]} / {cpu[1]} / {cpu[2]} ms{past}; "
                  f"first solution median / p95 {first[0]} / {first[1]} ms; "
                  f"{f['nodes']} nodes a deal; replay failures {f['replay_failures']}"]
    c = result["changes"]
    lines.append(f"the second against the first: shorter on {c['shorter']}, longer on {c['longer']}, "
                 f"the same on {c['same']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Two runs of bench.solver's rows side by side.")
    parser.add_argument("rows", type=Path, nargs=2, metavar="ROWS",
                        help="two rows files (bench.solver --rows)")
    parser.add_argument("--reference", type=Path, nargs="+", required=True, metavar="FILE",
                        help="the published solutions (macroxue/freecell's solutions/block.N)")
    parser.add_argument("--limit", type=float, default=1.35, help="the ratio a deal must stay within (1.35)")
    parser.add_argument("--json", type=Path, default=results_file("solver_compare"),
                        help="where to write the figures")
    args = parser.parse_args(argv)
    try:
        read = [read_rows(path) for path in args.rows]
        reference = read_reference(args.reference)
    except (OSError, ValueError, RowFileError) as e:
        parser.error(str(e))
    runs = [shortened(rows) for _, rows in read]
    deals = sorted(set(runs[0]) & set(runs[1]) & set(reference))
    if not deals:
        parser.error("the two files hold no deal in common that the reference has")
    result = {
        "deals": len(deals), "span": f"{deals[0]}..{deals[-1]}", "limit": args.limit,
        "runs": [{"file": str(path), "sources": str(settings.get("sources", "?"))[:12],
                  "figures": figures(rows, deals, reference, args.limit, settings.get("best"),
                                     settings.get("rate"))}
                 for path, (settings, _), rows in zip(args.rows, read, runs, strict=True)],
        "changes": changes(runs[0], runs[1], deals),
    }
    print(report(result))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
