"""The hints benchmark's report: the table of medians, p95s and maxima printed on the terminal."""

from __future__ import annotations

from typing import Any

from bench.common import deal_ranges, fmt, summary
from bench.hints_measure import SEARCH_DEAL


def row_line(label: str, s: dict[str, Any], digits: int = 0, unit: str = "") -> str:
    cells = "".join(f" {fmt(s.get(k), digits):>9}{unit}" for k in ("median", "p95", "max"))
    return f"  {label:<52} {s['n']:>4}{cells}"


def report_text(result: dict[str, Any]) -> str:
    meta = result["meta"]
    deals = result["deals"]
    lines = [
        f"FreeCell hints benchmark: {len(deals)} deals ({deal_ranges(meta['deals'])}), "
        f"{meta['moves']} moves while searching",
        f"Chromium {meta['chromium']}, Playwright {meta['playwright']}, Python {meta['python']}, "
        f"{meta['cpus']} CPUs, load average {meta['loadavg_start']} -> {meta['loadavg_end']}",
        "",
        f"  {'(ms)':<52} {'n':>4} {'median':>9} {'p95':>9} {'max':>9}",
    ]
    cold = result["cold"]
    if cold:
        lines.append("Cold page (fresh context)")
        for label, key in (("html ready -> worker ready", "ready_to_worker_ready_ms"),
                           ("html ready -> first verdict", "ready_to_verdict_ms")):
            lines.append(row_line(label, summary([c[key] for c in cold])))
    lines.append("Fresh deal, worker up (request posted -> reply)")
    for label, sel in (("verdict, all deals", lambda d: True),
                       ("verdict, solved deals", lambda d: d["verdict"] == "solved"),
                       ("verdict, unknown (budget ran out)", lambda d: d["verdict"] == "unknown"),
                       ("verdict, unsolvable", lambda d: d["verdict"] == "unsolvable")):
        vals = [d["verdict_ms"] for d in deals if sel(d)]
        if vals:
            lines.append(row_line(label, summary(vals)))
    deep = [d for d in deals if d.get("deep")]
    if deep:
        lines.append("No verdict in the hint's budget: the background search that follows")
        lines.append(row_line("first request -> its verdict (hint budget + deep search)",
                              summary([d["deep"]["request_to_verdict_ms"] for d in deep])))
        lines.append("  " + "; ".join(
            f"deal {d['deal']}: {d['deep']['verdict']} after "
            f"{d['deep']['request_to_verdict_ms'] / 1000:.1f} s "
            f"(worker {d['deep']['worker_ms']} ms, {d['deep']['worker_nodes']} nodes)"
            for d in deep))
    lines.append(row_line("winnability indicator set (yes/no)",
                          summary([d["indicator_ms"] for d in deals if d["indicator_ms"] is not None])))
    lines.append(row_line("worker's own search time", summary([d["worker_ms"] for d in deals])))
    lines.append(row_line("CPython Solver.solve(3 s), same positions",
                          summary([d["cpython_ms"] for d in deals])))
    ratios = [d["ratio"] for d in deals if d["ratio"] is not None]
    lines.append(row_line("worker / CPython, time per node (x)", summary(ratios), digits=2))
    hints = [d["hint"] for d in deals if "hint" in d]
    lines.append("Hint pressed at once after a move to a position not analysed yet")
    lines.append(row_line("click -> bar found/fallback/unsolvable",
                          summary([h["press_to_bar_ms"] for h in hints])))
    fresh = [h for h in hints if not h["answered_before_press"]]
    lines.append(row_line("  the same, worker still searching at the click",
                          summary([h["press_to_bar_ms"] for h in fresh])))
    lines.append(row_line("  worker's own search time for that position",
                          summary([h["worker_ms"] for h in hints if h["worker_ms"] is not None])))
    lines.append(row_line("  worker / CPython, time per node (x)",
                          summary([h["ratio"] for h in hints if h["ratio"] is not None]), digits=2))
    states: dict[str, int] = {}
    for h in hints:
        states[h["state"]] = states.get(h["state"], 0) + 1
    verdicts: dict[str, int] = {}
    for d in deals:
        verdicts[d["verdict"]] = verdicts.get(d["verdict"], 0) + 1
    lines.append(f"  verdicts: {verdicts}; hint bar states: {states}")
    for key, label in (("searching", f"Input while the worker searches deal {SEARCH_DEAL}"),
                       ("idle", "Input with the worker idle (winnability off)")):
        inp = result["input"][key]
        lines.append(f"{label}: {inp['counted']} of {inp['moves']} moves counted")
        lines.append(row_line("pointerup -> card's data-pile changed", inp["pointerup_to_mutation_ms"], 1))
        lines.append(row_line("pointerup -> next animation frame", inp["pointerup_to_next_frame_ms"], 1))
        if inp["cancel_to_cancelled_ms"]:
            lines.append(row_line("cancel posted -> 'cancelled' back from the worker",
                                  inp["cancel_to_cancelled_ms"], 1))
    if meta["page_errors"]:
        lines.append("WARNING: uncaught page errors: " + " | ".join(meta["page_errors"][:5]))
    return "\n".join(lines)
