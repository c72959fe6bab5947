"""The tools around the site: what builds it, serves it, and drives browsers over it.

``build.py`` (at the top of the repository) is the entry point that builds and
serves the site; this package holds the parts the tests and the benchmarks
share with it:

* :mod:`builder.browsers`: the browser engines the cross-engine tests and
  ``bench/engines.py`` drive (Chromium through Playwright; Firefox and WebKit
  through WebDriver), behind one small interface;
* :mod:`builder.pointer`: where a player's pointer goes on the table (the
  points of cards and piles, clicks, taps), for the browser tests and the
  benchmarks that play on the page.

Nothing here is part of the game: ``freecell/`` never imports it.
"""
