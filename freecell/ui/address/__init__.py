"""The page's address, in and out: what it asks for, a game as a link, embedding, outside text, Back.

- :mod:`.query`: ``?deal=N``, ``?board=``, ``&variant=``, and ``?embed=1``
  with its hosts, checked against allow-lists;
- :mod:`.link`: a game as ``?deal=617&moves=…`` and back, replayed through
  the engine; how a game names its variant and start;
- :mod:`.embed`: the events to a host page and the commands it may send;
- :mod:`.sanitize`: outside text made safe to put in a sentence;
- :mod:`.back`: the history entry a panel keeps, so that Back closes it.

Imports only the core (``freecell.*``).
"""
