"""The page's logic without a DOM: every rule of what the page shows and does, tested in CPython.

Six packages, each importing only from those above it in this list (and from
the core, ``freecell.*``); nothing here imports ``js``, ``pyodide`` or
``pyscript`` (that is :mod:`freecell.browser`):

- :mod:`~freecell.ui.table`: the table's state and geometry: what a tap or a
  drop means, the keyboard focus, the long-press picker, the layout, where
  floating bars go, the card art and its sprite;
- :mod:`~freecell.ui.address`: the page's address in and out: ``?deal=``,
  ``?board=``, a game as a link, embedding, outside text made safe;
- :mod:`~freecell.ui.analysis`: what the solver says of the game on the
  table: asks and replies, verdicts, the hint bar, a solution played back;
- :mod:`~freecell.ui.progress`: what is kept in the browser's storage: the
  settings, every game, the statistics, the deal of the day, the table as
  last drawn, what older pages stored;
- :mod:`~freecell.ui.text`: every word the page shows or says, from a
  message catalogue per language;
- :mod:`~freecell.ui.session`: the headless page: the
  :class:`~freecell.ui.session.session.Session` every intent goes through,
  and the :class:`~freecell.ui.session.change.Change` it returns.
"""
