"""Moved to :mod:`tests.support.boards`; kept for the modules not moved yet (test_solver, test_variants).

Delete this file once nothing imports ``tests.boards``.
"""

from tests.support.boards import *  # noqa: F403
