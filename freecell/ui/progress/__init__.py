"""What the page keeps in the browser's storage, and the rules of what counts.

- :mod:`.keyvalue`: the key-value interface storage is reached through,
  and one in memory;
- :mod:`.settings`: the player's settings and their stored form;
- :mod:`.saved_games`: every game kept, what each tab plays, other tabs
  (:mod:`.save_entries` writes and lists the entries, in the format of
  :mod:`.save_format`; :mod:`.save_repair` reads a game back, its damaged
  head rebuilt); :mod:`.save_failures`: when to say saving failed;
- :mod:`.damage`: what is done with a stored record that cannot be used
  whole (a newer page's: never written over; a damaged one: the rest kept);
- :mod:`.stats`, :mod:`.daily`: the statistics and the deal of the day,
  merged into what is stored at each change;
- :mod:`.levels`: the difficulty the solver gave each deal, shown again
  when the deal comes back;
- :mod:`.tips`: the tips said once for good;
- :mod:`.stored_table`: the table as last drawn, for the next visit's first
  paint;
- :mod:`.legacy`: what older pages stored, read once;
- :mod:`.progress`: played, won, abandoned, as the session needs it
  (:class:`~.progress.Progress`).

Imports the core, :mod:`freecell.ui.table` and :mod:`freecell.ui.address`.
"""
