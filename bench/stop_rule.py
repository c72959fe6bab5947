"""The improving search's stopping rule, judged on whole curves (issue 27).

:func:`freecell.improve.improve_for` decides one thing only: whether to run one
more slice of the :class:`~freecell.improve.Improver`.  The Improver's course
does not depend on that decision, so one run of a deal as far as any rule can
let it go (the most, ``--best-max``, counted in nodes at ``--rate``) gives its
*curve*: the best length after every slice.  Any rule of the same form is
then played on the curves in a moment, without searching again::

    python3 -m bench.stop_rule collect --deals 1-32000 --spread 64 --limit 320 --jobs 2 \\
        --out /tmp/curves.jsonl            # about 8 s of CPU a deal here; resumes where it was
    python3 -m bench.stop_rule judge /tmp/curves.jsonl --reference /tmp/ref/block.* \\
        --rows bench/runs/nodes-1-32000-ec9b4f6 --rule 0.85,17  # that run's rule, checked deal by deal

A rule here is improve_for's: stop once ``--best`` is spent, unless the best
is still longer than ``min(enough x the first, the groups to move + slack)``
and another slice fits under the most (improve_for's own has no share of the
first, ``enough`` 1.0, since 2026-12-06; the runs before had 0.85 and 17).
``judge`` plays a grid of ``enough``, ``slack`` and first budgets and prints,
for each, the figures of issue 27
beside the published solutions: the ratio of means, the share as short, the
deals over 1.35, and the cost (the share of deals past the first budget, the
median and mean of the search in node-seconds).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from freecell.counts import record_count
from freecell.improve import SLACK, Improver, another_slice, groups_to_move
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import SOLVED, Solver

from .common import percentile, spread
from .solver import solve_cpu
from .solver_data import DEFAULT_BUDGET, deal_set
from .solver_report import beside_published, read_reference

SLICE = 200  # improve_for's slice_nodes
# the full run's --best, --best-max, --rate (35,360: the reference machine's 32,500 nodes a second of
# d2b116c's search, times 1.088 for the same search made faster at 106c893)
BEST, BEST_MAX, RATE = 0.4, 3.0, 35_360.0


def collect_one(deal: int) -> dict[str, Any]:
    """A deal's curve: the first solution's length, the groups to move, and after each slice the
    nodes so far and the best length, as far as the most lets any rule go."""
    position = Position.deal(deal)
    result = solve_cpu(Solver(position), DEFAULT_BUDGET)
    out: dict[str, Any] = {"deal": deal, "groups": groups_to_move(position)}
    if result.verdict != SOLVED or not result.moves:
        return {**out, "verdict": result.verdict}
    imp = Improver(position, result.moves, FREECELL)
    nodes: list[int] = []
    counts: list[int] = []
    last = worst = 0.0
    while not imp.done:
        spent = imp.nodes / RATE
        if not another_slice(spent, last, worst, 0.0, BEST_MAX, True):  # no rule goes further
            break
        imp.run(max_nodes=SLICE)
        last = imp.nodes / RATE - spent
        worst = max(worst, last)
        nodes.append(imp.nodes)
        counts.append(imp.count)
    return {**out, "verdict": SOLVED, "first": record_count(result.moves), "done": imp.done,
            "nodes": nodes, "counts": counts}


@dataclass(frozen=True, slots=True)
class Rule:
    """A stopping rule (the default: improve_for's now)."""

    enough: float = 1.0
    slack: int = SLACK
    best: float = BEST

    def play(self, curve: dict[str, Any]) -> tuple[int, int]:
        """``(best length, nodes)`` where improve_for with this rule stops on ``curve``.

        >>> curve = {"first": 30, "groups": 5, "nodes": list(range(200, 96_601, 200)),
        ...          "counts": [30] * 71 + [20] * 412}  # 30 moves till 14,200 nodes (past 0.4 s), then 20
        >>> Rule(0.85, 17).play(curve), Rule(enough=1.0, slack=30).play(curve)  # 30 > min(25.5, 22): on
        ((20, 14400), (30, 14200))
        """
        target = min(self.enough * curve["first"], curve["groups"] + self.slack)
        count, done_nodes, last, worst = curve["first"], 0, 0.0, 0.0
        for nodes, after in zip(curve["nodes"], curve["counts"], strict=True):
            spent = done_nodes / RATE
            if not another_slice(spent, last, worst, self.best, BEST_MAX, count > target):
                break
            last = nodes / RATE - spent
            worst = max(worst, last)
            done_nodes, count = nodes, after
        return count, done_nodes


def run_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command that runs deals into a file (:func:`run_into`)."""
    parser.add_argument("--deals", type=deal_set, required=True)
    parser.add_argument("--spread", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="the first N deals of the spread order")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)


def run_into(out_path: Path, deals: Sequence[int], work: Callable[[int], dict[str, Any]], jobs: int) -> None:
    """``work`` of each deal, a JSON line each, added to ``out_path`` as they come (on ``jobs`` cores);
    the deals it holds already are not run again (a last line cut short by a stop is dropped first)."""
    have = set()
    if out_path.exists():
        text = out_path.read_text()
        if text and not text.endswith("\n"):  # a line cut short by a stop: gone, its deal runs again
            out_path.write_text(text[:text.rfind("\n") + 1])
        have = {c["deal"] for c in read_curves(out_path)}
    todo = [d for d in deals if d not in have]
    print(f"{len(todo)} deals to run, {len(deals) - len(todo)} kept", file=sys.stderr)
    with open(out_path, "a") as out, multiprocessing.Pool(jobs) as pool:
        for line in pool.imap_unordered(work, todo):
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
            out.flush()


def read_curves(path: Path) -> list[dict[str, Any]]:
    """The curves of a ``collect`` file (a last line cut short by a stop is left out)."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    out = []
    for n, line in enumerate(lines):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            if n < len(lines) - 1:
                raise
    return out


def judge(curves: Sequence[dict[str, Any]], published: dict[int, int], rules: Iterable[Rule]) -> list[str]:
    """One line of figures for each rule, over the curves of solved deals with a published length."""
    usable = [c for c in curves if c.get("verdict") == SOLVED and c["deal"] in published]
    lines = [f"{len(usable)} deals (rule: enough, slack, first budget in s)"]
    for rule in rules:
        played = [(c["deal"], *rule.play(c)) for c in usable]
        f = beside_published([(d, n, published[d]) for d, n, _ in played], limit=1.35)
        seconds = sorted(nodes / RATE for _, _, nodes in played)
        past = sum(1 for s in seconds if s > rule.best + 1e-9) / len(seconds)
        worst = sorted(((n / published[d], d, n, published[d]) for d, n, _ in played), reverse=True)[:3]
        mean = sum(seconds) / len(seconds)
        lines.append(
            f"{rule.enough:.2f} {rule.slack:2d} {rule.best:.2f}: ratio {f['ratio_of_means']:.4f}, "
            f"{100 * f['as_short_share']:.1f}% as short, over 1.35: {len(f['over'])}, "
            f"worst {', '.join(f'{d} {n}/{p}' for _, d, n, p in worst)}; past the first budget "
            f"{100 * past:.1f}%, median {percentile(seconds, 50):.2f} s, mean {mean:.2f} s")
    return lines


def check_rows(curves: Sequence[dict[str, Any]], rows_dir: Path, rule: Rule) -> str:
    """Whether ``rule`` played on the curves gives the rows of a run (its best length and nodes)."""
    rows = {}
    for part in sorted(rows_dir.glob("*.jsonl")):
        for line in part.read_text().splitlines():
            row = json.loads(line)
            if "deal" in row and row.get("best_max_auto") is not None:
                rows[row["deal"]] = (row["best_max_auto"], row["best_nodes"])
    both = [c for c in curves if c.get("verdict") == SOLVED and c["deal"] in rows]
    wrong = [c["deal"] for c in both if rule.play(c) != rows[c["deal"]]]
    return f"{len(both)} deals in the rows too: {len(both) - len(wrong)} the same, different: {wrong[:20]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.stop_rule", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_options(sub.add_parser("collect", help="run deals to the most and keep their curves"))
    j = sub.add_parser("judge", help="play rules on the curves")
    j.add_argument("curves", type=Path, nargs="+")
    j.add_argument("--reference", type=Path, nargs="+", required=True)
    j.add_argument("--rows", type=Path, default=None, help="a run's rows: check its rule (--rule) first")
    j.add_argument("--rule", default=f"1.0,{SLACK}", metavar="ENOUGH,SLACK",
                   help="the rule of the run whose --rows are given (0.85,17 before 2026-12-06)")
    args = parser.parse_args(argv)
    if args.command == "collect":
        run_into(args.out, spread(args.deals, args.spread)[:args.limit], collect_one, args.jobs)
        return 0
    curves = [c for path in args.curves for c in read_curves(path)]
    if args.rows is not None:
        enough, _, slack = args.rule.partition(",")
        print(check_rows(curves, args.rows, Rule(float(enough), int(slack))))
    grid = [Rule(e, s, b) for b in (0.35, 0.4, 0.45) for e in (0.85, 0.9, 1.0) for s in (13, 14, 15, 17)]
    print("\n".join(judge(curves, read_reference(args.reference), grid)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
