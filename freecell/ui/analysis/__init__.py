"""What the solver says of the game on the table, as the page uses it.

- :mod:`.replies`: the page's side of the worker's protocol: what it asks
  (:class:`~.replies.Ask`, and the effects that send or cancel it), the
  replies parsed once and checked, the :class:`~.replies.Verdict`;
- :mod:`.analysis`: verdicts known and carried down the line of play, the
  searches in flight, the hint bar (:class:`~.analysis.Analysis`);
- :mod:`.playback`: a solution as the game's turns, the state of watching
  it, and the par.

Imports only the core (``freecell.*``, the solver's quick hint included).
"""
