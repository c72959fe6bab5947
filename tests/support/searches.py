"""Deals searched to the end once a test session, shared by the solver's test files.

Deal 11982's proof (about 62,000 nodes) is the longest search of the suite:
the tests of ``tests/test_solver.py`` that need it get it from here, so it
runs once there (``tests/test_unwinnable.py``, run in another process, leaves
11982 to it; the worker's tests prove a shorter lost deal in slices).
"""

from __future__ import annotations

import functools

from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import Result, Solver


@functools.cache
def deal_search(n: int, rules: Rules = FREECELL) -> Result:
    """Deal ``n`` under ``rules``, searched in one call (up to 300 s)."""
    return Solver(Position.deal(n, rules), rules).solve(seconds=300)
