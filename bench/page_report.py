"""The page benchmark's report: medians per kind of load, and the table printed on the terminal."""

from __future__ import annotations

import statistics
from typing import Any

from bench.common import fmt
from bench.page_load import NUMERIC, Sample

KINDS = ("static", "bare cold", "bare warm", "cold", "warm", "sw", "base cold", "base warm", "base sw")


def medians(samples: list[Sample]) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {}
    for kind in KINDS:
        mine = [s for s in samples if s.kind == kind]
        if not mine:
            continue
        row: dict[str, float | None] = {}
        for key in NUMERIC:
            values = [getattr(s, key) for s in mine if getattr(s, key) is not None]
            row[key] = statistics.median(values) if values else None
        out[kind] = row
    return out


def fmt_bytes(v: float | None) -> str:
    if v is None:
        return "n/a"
    return f"{v / 1e6:,.2f} MB" if v >= 1e6 else f"{v / 1e3:,.1f} kB"


def report(result: dict[str, Any]) -> str:
    meta, med = result["meta"], result["medians"]
    lines = [
        f"FreeCell start-up: {meta['runs']} interleaved rounds, deal {meta['deal']}; "
        f"Chromium {meta['chromium']}, {meta['cpus']} CPUs, "
        f"load average {meta['loadavg_start']} -> {meta['loadavg_end']}, "
        f"precompressed files {'on' if meta['precompressed'] else 'off'}",
        "",
        "medians, ms from navigation start   paint   table   ready    move  worker  +worker  CPU>ready"
        "  xbare    bytes  304s  page/worker wasm MB  JS heap MB  boot",
    ]
    bare = (med.get("bare warm") or {}).get("ready_ms")
    bare_cpu = (med.get("bare warm") or {}).get("cpu_to_ready_ms")
    for kind, row in med.items():
        ratio = "" if not bare or row["ready_ms"] is None else f"{row['ready_ms'] / bare:.2f}"
        boots = sorted({f"{s['boot']}/{s['worker_boot']}" for s in result["samples"] if s["kind"] == kind})
        lines.append(
            f"  {kind:33} {fmt(row['fcp_ms']):>6} {fmt(row['table_ms']):>7} {fmt(row['ready_ms']):>7} "
            f"{fmt(row['first_move_ms']):>7} {fmt(row['worker_ready_ms']):>7} "
            f"{fmt(row['worker_after_ready_ms']):>8} {fmt(row['cpu_to_ready_ms']):>10} {ratio:>6} "
            f"{fmt_bytes(row['bytes']):>9} {fmt(row['not_modified']):>5} "
            f"{fmt(row['page_wasm_mb']):>9}/{fmt(row['worker_wasm_mb']):<9} {row['js_heap_mb'] or 0:>9.1f}  "
            + ",".join(boots))
    if bare and bare_cpu:
        lines.append(f"  (xbare: ready over 'bare warm' ready; bare warm main-thread CPU {bare_cpu:,.0f} ms)")
    lines.append("\nour page's phases (medians, ms): runtime.mjs starts, Pyodide and freecell.zip in place,"
                 " main.py starts (after PyScript's own start), ready")
    for kind in ("cold", "warm", "sw"):
        row = med.get(kind)
        if row:
            lines.append(f"  {kind:6} {fmt(row['runtime_start_ms']):>6} {fmt(row['runtime_loaded_ms']):>7} "
                         f"{fmt(row['main_ms']):>7} {fmt(row['ready_ms']):>7}")
    lat = result["move_latency"]
    if lat["moves"]:
        m = statistics.median(lat["pointerup_to_mutation_ms"])
        f = statistics.median(lat["pointerup_to_next_frame_ms"])
        lines.append(f"\nmove latency over {lat['moves']} moves (median): "
                     f"pointerup -> #cards mutated {m:.1f} ms, -> next frame {f:.1f} ms")
    if meta["foreign_requests"]:
        lines.append("WARNING: requests left localhost: " + ", ".join(meta["foreign_requests"]))
    if meta["page_errors"]:
        lines.append("WARNING: uncaught page errors: " + " | ".join(meta["page_errors"][:5]))
    return "\n".join(lines)
