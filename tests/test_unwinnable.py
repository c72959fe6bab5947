"""The deals New deal skips under "winnable deals only" are exactly the unwinnable ones.

The solver proves each of the eight deals from 1 to 1,000,000 unsolvable (an
exhausted search, never a time-out), and the neighbours of each are solved.  Each search runs once a session
(:mod:`tests.support.searches`).
"""

from __future__ import annotations

import pytest

from freecell.deals import UNWINNABLE_DEALS
from freecell.engine import verify_solution
from freecell.position import Position
from freecell.solver import SOLVED, UNSOLVABLE, Solver
from tests.support.searches import deal_search


@pytest.mark.parametrize("deal", sorted(UNWINNABLE_DEALS - {11982}))
def test_listed_deal_is_proven_unsolvable(deal: int) -> None:
    # 11982 is proven in tests/test_solver.py (test_deal_11982_is_unsolvable): the test files run
    # in separate processes, so its long proof is run there only
    result = deal_search(deal)
    assert result.verdict == UNSOLVABLE


@pytest.mark.parametrize("deal", [146691, 146693, 517775, 517777])
def test_neighbours_are_solved(deal: int) -> None:
    pos = Position.deal(deal)
    result = Solver(pos).solve(seconds=300)
    assert result.verdict == SOLVED
    verify_solution(pos, result.moves, Solver(pos).rules)
