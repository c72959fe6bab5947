"""The headless page: every intent of the player goes through a session and returns a Change.

- :mod:`.session`: :class:`~.session.Session`, the game on the table and its
  intents (the table, history, hints, Finish, settings, panels);
- :mod:`.opening`: every way a game comes onto the table (the start, New
  deal, a deal by number, Replay, a kept game);
- :mod:`.watch`: the solution played back, step by step;
- :mod:`.keeping`: what the page's writes gave, other tabs, the notice line,
  the game as a link;
- :mod:`.change`: :class:`~.change.Change`, the effects, the panels and
  notices: what the session tells the page.

Imports every other package of :mod:`freecell.ui` (and the core); only
:mod:`freecell.browser` imports it.
"""
