"""The run of record (``bench/runs/``, ``bench/README.md``) describes this code, node for node.

Issue 27's figures over deals 1..32000 come from a run made with an earlier
commit's sources (its rows say which).  A change since that makes the search
faster without making it different (the same children in the same order, the
same estimates, the same budgets counted in nodes) keeps those figures true;
a few of its deals, solved again here with the run's settings, must give the
run's rows exactly.  A change that makes the search different fails here: its
figures are a new run's, and this test then names that run's rows.
"""

from __future__ import annotations

from pathlib import Path

from bench.solver import Job, solve_ours
from bench.solver_rows import read_rows

RUN = Path(__file__).resolve().parents[1] / "bench" / "runs" / "nodes-1-32000-636bdba"
# two that stop at the first budget (0.4 s at 35,360 nodes a second: 14,144 nodes), and one that
# goes on past it until it is short enough
DEALS = (1601, 7105, 1281)
FIELDS = ("verdict", "moves", "nodes", "states", "max_auto", "turns",
          "best_max_auto", "best_turns", "best_nodes", "replay_ok")


def test_deals_of_the_run_of_record_give_its_rows_again() -> None:
    settings, rows = read_rows(RUN)
    for deal in DEALS:
        job = Job(deal, settings["budget"], settings["clock"] == "cpu", settings["best"],
                  settings["best_max"], settings["rate"])
        row = solve_ours(job)
        want = {k: rows[deal].get(k) for k in FIELDS}
        assert {k: row.get(k) for k in FIELDS} == want, deal
