"""The solver benchmark's report: solution lengths against the published ones, the text, the JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .solver_data import LONG, PER_CORE_NOTE, Row, percentile, ratio, time_stats

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


def beside_published(pairs: Sequence[tuple[int, int, int]], limit: float | None = None) -> dict[str, Any]:
    """Over ``(deal, ours, published)`` lengths (at least one): the ratio of the means, the share of
    deals as short as or shorter than the published, the largest ratio and its deal, and with
    ``limit`` the deals over ``limit`` times the published (``[deal, ours, published]``).

    >>> f = beside_published([(1, 30, 25), (2, 28, 20), (3, 19, 20)], limit=1.35)
    >>> round(f["ratio_of_means"], 4), round(f["as_short_share"], 4), f["max_ratio_deal"], f["over"]
    (1.1846, 0.3333, 2, [[2, 28, 20]])
    """
    ours = sum(o for _, o, _ in pairs)
    theirs = sum(p for _, _, p in pairs)
    worst = max(pairs, key=lambda t: t[1] / t[2])
    out: dict[str, Any] = {
        "ratio_of_means": ours / theirs,
        "as_short_share": sum(o <= p for _, o, p in pairs) / len(pairs),
        "max_ratio": worst[1] / worst[2],
        "max_ratio_deal": worst[0],
    }
    if limit is not None:
        out["over"] = [[d, o, p] for d, o, p in pairs if o > limit * p]
    return out


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
        both = [(r["deal"], r[key], reference[r["deal"]]) for r in solved
                if r["deal"] in reference and r.get(key) is not None]
        out["published_max_auto"] = count_stats([p for _, _, p in both])
        if both:
            out.update(beside_published(both))
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
