"""Moved to :mod:`tests.support.searches`; kept for the modules not moved yet (test_solver, test_unwinnable).

Delete this file once nothing imports ``tests.searches``.
"""

from tests.support.searches import deal_search as deal_search
