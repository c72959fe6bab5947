"""The browser layer: the only code that imports ``js``, ``pyodide`` or ``pyscript``.

Flat, one concern a module, as chessground's ``src/``: :mod:`.app` (the page:
one ``apply`` for every change), :mod:`.events` (every listener, bound once),
:mod:`.view` (the SVG table), :mod:`.access` (keyboard and screen readers),
:mod:`.longpress` (the sequence picker), :mod:`.chrome` with
:mod:`.statusbar`, :mod:`.bars` and :mod:`.panels` (everything around the
table), :mod:`.settings` (the settings panel), :mod:`.solver_client` (the
worker), :mod:`.storage`, :mod:`.embedding`, :mod:`.i18n` and :mod:`.dom`
(the helpers and the one owner of every binding).  It renders from
:mod:`freecell.ui` and calls its session; nothing in ``freecell.ui`` imports
it.
"""
