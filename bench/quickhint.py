"""Benchmark of :func:`freecell.solver.quick_hint`, the page's own instant hint, in CPython.

Run it from the repository root::

    python3 -m bench.quickhint                     # the starts of deals 1-1000
    python3 -m bench.quickhint --deals 1-300 --walk 3 --nodes 40

Each position is answered by one ``quick_hint(position, rules, max_nodes)``
call (solver set-up included), timed in CPU time of this process
(``time.process_time``: less noisy on a shared machine than wall time, which is
recorded beside it).  Positions: the start of each deal, and with ``--walk K``
also K positions reached by random play from it (20, 40, ... moves in).  Every
move returned is checked with the engine's ``check_move``; a position with a
legal move must get one.  The page's Pyodide runs 1.5-2x slower than CPython:
the target here is a p95 under 10 ms.  Figures go to
``bench/results/quickhint.json`` (git-ignored) with the load average.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from bench.common import loadavg, results_file, summary, write_json
from freecell.engine import apply_move, check_move, legal_moves
from freecell.position import Position
from freecell.rules import FREECELL
from freecell.solver import QUICK_NODES, quick_hint

DEFAULT_JSON = results_file("quickhint")


def positions(lo: int, hi: int, walk: int) -> list[Position]:
    out: list[Position] = []
    rng = random.Random(15)
    for n in range(lo, hi + 1):
        pos = Position.deal(n)
        out.append(pos)
        for _ in range(walk):
            for _ in range(20):
                moves = legal_moves(pos, FREECELL)
                if not moves:
                    break
                pos = apply_move(pos, rng.choice(moves))
            out.append(pos)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", default="1-1000", help="A-B (default 1-1000)")
    parser.add_argument("--walk", type=int, default=0, metavar="K",
                        help="also K positions of random play from each start (20 moves apart)")
    parser.add_argument("--nodes", type=int, default=QUICK_NODES,
                        help=f"quick_hint's max_nodes (default {QUICK_NODES})")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON)
    args = parser.parse_args()
    lo, _, hi = args.deals.partition("-")
    load_start = loadavg()
    pos_list = positions(int(lo), int(hi or lo), args.walk)
    cpu: list[float] = []
    wall: list[float] = []
    bad = 0
    for pos in pos_list:
        c0, w0 = time.process_time(), time.perf_counter()
        move = quick_hint(pos, FREECELL, args.nodes)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        if move is None:
            bad += bool(legal_moves(pos, FREECELL))
        elif check_move(pos, move, FREECELL) is not None:
            bad += 1
    result = {
        "deals": args.deals, "walk": args.walk, "nodes": args.nodes, "positions": len(pos_list),
        "cpu_ms": summary(cpu, scale=1000, digits=3), "wall_ms": summary(wall, scale=1000, digits=3),
        "bad_answers": bad,
        "load_average_start": load_start, "load_average_end": loadavg(),
    }
    print(f"quick_hint, max_nodes {args.nodes}: {len(pos_list)} positions (deals {args.deals}, "
          f"walk {args.walk}); load average {result['load_average_start']} -> {result['load_average_end']}")
    for name in ("cpu_ms", "wall_ms"):
        s = result[name]
        assert isinstance(s, dict)
        print(f"  {name}: median {s['median']}, p95 {s['p95']}, max {s['max']}, mean {s['mean']}")
    print(f"  illegal or missing answers: {bad}")
    write_json(args.json, result)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
