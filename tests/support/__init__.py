"""What the test modules share; no test module imports another.

* :mod:`tests.support.boards`: positions built by hand, random play, canonical keys, fc-solve;
* :mod:`tests.support.searches`: deals searched to the end once a session;
* :mod:`tests.support.solving`: a solver's answer checked (replayed, an exact search, "sensible");
* :mod:`tests.support.sessions`: a session in CPython, its clocks, its storage effects, a worker's reply;
* :mod:`tests.support.automove`: small endgames decided exactly, the survey of safe auto-moves;
* :mod:`tests.support.tables`: known solutions, the layout of the 52 cards, boards by hand;
* :mod:`tests.support.keyboard_plan`: the keys that play a move;
* :mod:`tests.support.values`: any JSON value (the property tests of stored data and messages).

The browser tests' page helpers are ``tests/browser/helpers.py``.
"""
