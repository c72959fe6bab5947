"""The order of the improving search's beams, judged on profiles of each beam (issue 27).

A beam of :class:`~freecell.improve.Improver` from the start of the deal does
not depend on the beams before it, only where it stops does: at the level past
the best known (``PAST_BEST``), or at its first won state.  So one run of each
beam alone, as far as the first solution lets it go, keeps all a schedule of
such beams needs: the nodes at the end of each level, and where it won, with
what length (the shortening pass included).  Any order of them then gives its
*curve* (the best after each slice, as ``bench.stop_rule collect`` keeps them)
exactly, and improve_for's stopping rule plays on it::

    python3 -m bench.schedule profile --deals 1-32000 --spread 64 --limit 350 --jobs 2 \\
        --out /tmp/profiles.jsonl          # about 13 s of CPU a deal here; resumes where it was
    python3 -m bench.schedule check /tmp/profiles.jsonl --curves /tmp/curves.jsonl  # the same curves?
        # (curves of 45bab26: --order 40,0 40,1 40,2 300,1 150,0 150,2 1500,1 500,0 500,1 500,2 1500,0 1500,2)
    python3 -m bench.schedule judge /tmp/profiles.jsonl --reference /tmp/ref/block.* \\
        --order 1500,2 1500,1 --order 1500,1 500,0

An ``--order`` lists the beams after the first budget's (``width,weighting``,
the weighting an index in ``WEIGHTS``, ``,t`` after a tapered beam; ``a+b``
runs beams a and b level by level in turn); the other beams from the start
of ``RUNS`` follow in their order.  The beams along the best solution
(``CUT_FROM``) are left out: ``RUNS`` has them after every beam from the
start up to 1,500 wide, past the most (3 s at 32,500 nodes a second) for
nearly every deal; ``check`` shows where a curve reaches them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from freecell.beams import RUNS, WEIGHTS, Run
from freecell.counts import game_count, record_count
from freecell.improve import PAST_BEST, SHORTEN_NODES, Improver, another_slice, groups_to_move
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.shorten import shorten
from freecell.solver import SOLVED, Solver

from .common import percentile, spread
from .solver import solve_cpu
from .solver_data import DEFAULT_BUDGET
from .solver_report import beside_published, read_reference
from .stop_rule import BEST_MAX, RATE, SLICE, Rule, read_curves, run_into, run_options

# the beams profiled: every width and weighting up to 1,500 wide (not the first weighting's 1,000 wide),
# and the tapered beams 1,000 to 2,500 wide; a beam past CAP nodes alone is past the most in any order
PROFILED = [Run(width, w) for width in (40, 150, 300, 500, 1000, 1500) for w in WEIGHTS
            if (width, w) != (1000, WEIGHTS[0])]
PROFILED += [Run(width, w, taper=True) for width in (1000, 1500, 2000, 2500) for w in WEIGHTS]
CAP = 97_000
FIRST_BUDGET = 6  # RUNS's beams in the first budget (0.4 s: 13,000 nodes)

Profile = dict[str, Any]


class _Probe(Improver):
    """One beam from the start, alone: the nodes at the end of each level, and where it won."""

    def __init__(self, position: Position, first: Sequence[Any], run: Run) -> None:
        super().__init__(position, first, FREECELL, runs=[run])
        self.level_end: list[int] = []
        self.won: tuple[int, int, int, int] | None = None  # nodes, level, record count, turns

    def _next_level(self) -> bool:
        self.level_end.append(self.nodes)
        return super()._next_level()

    def _found(self, state: Any) -> bool:
        line = self._path(state)
        count = min((record_count(m), game_count(self.position, m, FREECELL))
                    for m in (line, shorten(self.position, FREECELL, line, SHORTEN_NODES)))
        self.won = (self.nodes, self._depth, *count)
        self.done = True
        return False


def profile_one(deal: int) -> Profile:
    """A deal's profile: the first solution's length and the best after the shortening pass on it
    (``b0``, ``t0``), and each beam's levels (``levels``: the nodes at the end of each) and win."""
    position = Position.deal(deal)
    result = solve_cpu(Solver(position), DEFAULT_BUDGET)
    out: Profile = {"deal": deal, "groups": groups_to_move(position)}
    if result.verdict != SOLVED or not result.moves:
        return {**out, "verdict": result.verdict}
    base = Improver(position, result.moves, FREECELL, runs=[Run(40, WEIGHTS[0])])
    beams = {}
    for run in PROFILED:
        probe = _Probe(position, result.moves, run)
        while not probe.done and probe.nodes < CAP:
            probe.run(max_nodes=1000)
        beams[key(run)] = {"levels": probe.level_end, "won": probe.won, "cut": not probe.done}
    return {**out, "verdict": SOLVED, "first": record_count(result.moves), "b0": base.count, "t0": base.turns,
            "beams": beams}


def key(run: Run) -> str:
    """A beam as ``--order`` names it: ``width,weighting`` (an index in WEIGHTS), ``,t`` after a tapered one.

    >>> key(Run(1500, WEIGHTS[1])), key(Run(2500, WEIGHTS[0], taper=True))
    ('1500,1', '2500,0,t')
    """
    return f"{run.width},{WEIGHTS.index(run.weights)}" + (",t" if run.taper else "")


def default_order() -> list[str]:
    """:data:`~freecell.beams.RUNS`' beams from the start up to the first along the best, as :func:`key`
    names them."""
    out = []
    for run in RUNS:
        if run.cut:
            break
        out.append(key(run))
    return out


def simulate(prof: Profile, order: Sequence[str], most: int) -> tuple[list[tuple[int, int]], int]:
    """The improvements ``(nodes, record count)`` of the beams of ``order`` run in turn, and the nodes
    where the last ended (or past ``most``).

    >>> prof = {"b0": 30, "t0": 40, "beams": {
    ...     "9,0": {"levels": [1, 10, 20], "won": [25, 3, 25, 30], "cut": False},
    ...     "9,1": {"levels": [1, 10, 20, 30, 40], "won": None, "cut": False}}}
    >>> simulate(prof, ["9,0", "9,1"], 1000)  # the second beam ends 25 levels in (25 - 2 + PAST_BEST)
    ([(25, 25)], 65)
    >>> simulate(prof, ["9,0+9,1"], 1000)  # in turn: 20 + 20 of the three levels before the win
    ([(45, 25)], 65)
    """
    count, turns = prof["b0"], prof["t0"]
    nodes = 0
    events: list[tuple[int, int]] = []
    for item in order:
        if nodes >= most:
            break
        beams = [prof["beams"][key] for key in item.split("+")]
        spent = [0] * len(beams)
        alive = [True] * len(beams)
        level = 0
        while any(alive) and nodes < most:
            for i, beam in enumerate(beams):
                if not alive[i]:
                    continue
                levels, won = beam["levels"], beam["won"]
                if level > count + PAST_BEST - 2:  # past the best known: this beam is over
                    alive[i] = False
                elif won and won[1] == level:
                    nodes += won[0] - spent[i]
                    events.append((nodes, won[2]))
                    count, turns = min((count, turns), (won[2], won[3]))
                    alive[i] = False
                elif level >= len(levels):  # the beam died, or its profile ended at CAP
                    nodes = most if beam["cut"] else nodes
                    alive[i] = False
                else:
                    nodes += levels[level] - spent[i]
                    spent[i] = levels[level]
                    alive[i] = not (level == len(levels) - 1 and not won and not beam["cut"])
            level += 1
    return events, nodes


def curve(prof: Profile, order: Sequence[str]) -> dict[str, Any]:
    """The curve of ``order`` (``bench.stop_rule``'s form): the best after each slice, as far as the
    most lets any rule go (the slices' lengths as ``collect`` counts them)."""
    most = int(BEST_MAX * RATE) + SLICE
    events, end = simulate(prof, order, most)
    nodes: list[int] = []
    counts: list[int] = []
    best = prof["b0"]
    last = worst = 0.0
    at = 0
    while at < end:
        spent = at / RATE
        if not another_slice(spent, last, worst, 0.0, BEST_MAX, True):
            break
        at = min(at + SLICE, end)
        best = min([best] + [c for n, c in events if n <= at])
        last = at / RATE - spent
        worst = max(worst, last)
        nodes.append(at)
        counts.append(best)
    return {"deal": prof["deal"], "groups": prof["groups"], "first": prof["first"], "nodes": nodes,
            "counts": counts}


def read_profiles(paths: Sequence[Path]) -> list[Profile]:
    """The solved deals' profiles (a last line cut short by a stop is left out)."""
    by_deal = {p["deal"]: p for path in paths for p in read_curves(path) if p.get("verdict") == SOLVED}
    return list(by_deal.values())


def judge(profiles: Sequence[Profile], published: dict[int, int], orders: dict[str, list[str]]) -> list[str]:
    """One line of figures for each order, improve_for's rule played on its curves: the ratio of
    means, the share as short, the margins under 1.35 times the published (in whole moves: how many
    deals are that many moves under the line, or over it below 0), their risk (each deal m moves
    under the line counted 3^-(m+1): a move less of margin has been about three times as many deals),
    and the cost."""
    usable = [p for p in profiles if p["deal"] in published]
    lines = [f"{len(usable)} deals"]
    rule = Rule()
    for name, order in orders.items():
        played = [(p["deal"], *rule.play(curve(p, order))) for p in usable]
        f = beside_published([(d, n, published[d]) for d, n, _ in played], limit=1.35)
        margins: dict[int, int] = {}
        for d, n, _ in played:
            m = int(1.35 * published[d] + 1e-9) - n
            margins[m] = margins.get(m, 0) + 1
        risk = sum(k * 3.0 ** -(m + 1) for m, k in margins.items() if m >= 0)
        seconds = sorted(nodes / RATE for _, _, nodes in played)
        worst = sorted(((n / published[d], d, n, published[d]) for d, n, _ in played), reverse=True)[:3]
        shown = " ".join(f"{m}:{margins.get(m, 0)}" for m in range(min(-1, *margins), 4))
        lines.append(
            f"{name}: ratio {f['ratio_of_means']:.4f}, {100 * f['as_short_share']:.1f}% as short, "
            f"margins {shown}, risk {risk:.3f}, worst {', '.join(f'{d} {n}/{p}' for _, d, n, p in worst)}; "
            f"median {percentile(seconds, 50):.2f} s, mean {sum(seconds) / len(seconds):.2f} s")
    return lines


def check(profiles: Sequence[Profile], curves: Sequence[dict[str, Any]], order: Sequence[str]) -> str:
    """Whether the curves of ``order`` (every beam from the start) are the curves ``collect`` kept, slice
    by slice (as far as the beams from the start go)."""
    by_deal = {c["deal"]: c for c in curves if c.get("verdict") == SOLVED}
    same, short, wrong = 0, 0, []
    for prof in profiles:
        real = by_deal.get(prof["deal"])
        if real is None:
            continue
        made = curve(prof, order)
        n = min(len(made["counts"]), len(real["counts"]))
        if len(made["counts"]) < len(real["counts"]):
            n -= 1  # the made curve's last slice ends with the beams; the real one's goes on along the best
        if made["counts"][:n] != real["counts"][:n] or made["nodes"][:n] != real["nodes"][:n]:
            wrong.append(prof["deal"])
        elif n < len(real["counts"]):
            short += 1
        else:
            same += 1
    return (f"{same + short + len(wrong)} deals in both: {same} the same to the most, {short} the same until "
            f"the beams along the best, different: {wrong[:20]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.schedule", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_options(sub.add_parser("profile", help="run each beam of deals alone and keep their profiles"))
    c = sub.add_parser("check", help="the default order's curves against bench.stop_rule's")
    c.add_argument("profiles", type=Path, nargs="+")
    c.add_argument("--curves", type=Path, nargs="+", required=True)
    c.add_argument("--order", nargs="+", default=None, metavar="WIDTH,WEIGHTING",
                   help="every beam from the start, in the order the curves were made with (the default's)")
    j = sub.add_parser("judge", help="orders of the beams played on the profiles")
    j.add_argument("profiles", type=Path, nargs="+")
    j.add_argument("--reference", type=Path, nargs="+", required=True)
    j.add_argument("--order", nargs="+", action="append", default=[], metavar="WIDTH,WEIGHTING",
                   help="the beams after the first budget's, in order (a+b: in turn by level)")
    args = parser.parse_args(argv)
    if args.command == "profile":
        run_into(args.out, spread(args.deals, args.spread)[:args.limit], profile_one, args.jobs)
        return 0
    profiles = read_profiles(args.profiles)
    if args.command == "check":
        curves = [c for path in args.curves for c in read_curves(path)]
        print(check(profiles, curves, args.order or default_order()))
        return 0
    default = default_order()
    orders = {"the default": default}
    for extra in args.order:
        beams = [b for item in extra for b in item.split("+")]
        rest = [b for b in default[FIRST_BUDGET:] if b not in beams]
        orders[" ".join(extra)] = default[:FIRST_BUDGET] + extra + rest
    print("\n".join(judge(profiles, read_reference(args.reference), orders)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
