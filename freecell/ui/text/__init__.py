"""Every word the page shows or says, in the player's language.

- :mod:`.catalogue`: the message catalogue of a language, and the sentence
  of a refused move;
- :mod:`.sentences`: what the session says after an intent (the message
  line, the live region);
- :mod:`.speech`: the names of cards and piles for a screen reader, and the
  sentences of moves and selections;
- :mod:`.status`, :mod:`.bars`, :mod:`.panels`: the texts (and raw values)
  of the status bar, the hint and playback bars, and the panels.

Imports the core and :mod:`freecell.ui.table`, :mod:`~freecell.ui.address`,
:mod:`~freecell.ui.analysis` and :mod:`~freecell.ui.progress` (for the
values it puts in words).
"""
