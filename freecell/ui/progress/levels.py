"""The difficulty the solver gave each deal, kept so that a deal shows it again after a reload.

The solver rates a deal from its start (:func:`freecell.worker.difficulty`);
the page asks about the start only while the deal is fresh, so a game
brought back by a reload (or a deal dealt again) would lose its "· medium"
after the early table had shown it.  The ratings are kept under
:data:`KEY_LEVELS` as ``{"format": "freecell-levels", "version": 1,
"levels": [["freecell:617", "medium"], ...]}``: keys as the statistics key
deals (:func:`freecell.ui.progress.stats.stats_key`), levels from
:data:`LEVELS`, the most recently rated last, :data:`MAX_LEVELS` at most.

A rating is the solver's and can be asked again: whatever cannot be read
(damaged, another version, a bad entry) reads as not rated, drops nothing
else, and is not worth a notice; a newer page's record is not written over.

    >>> text = levels_json(rated(read_levels(None), "freecell:617", "medium"))
    >>> read_levels(text)
    {'freecell:617': 'medium'}
    >>> read_levels('{"format": "freecell-levels", "version": 1, "levels": [["freecell:1", "<b>"]]}')
    {}
"""

from __future__ import annotations

import json
import re

from ... import safejson
from .damage import is_newer

KEY_LEVELS = "freecell.levels"
LEVELS_FORMAT = "freecell-levels"
LEVELS_VERSION = 1
LEVELS = ("easy", "medium", "hard")
MAX_LEVELS = 200
MAX_LEVELS_CHARS = 20_000
_KEY = re.compile(r"[a-z0-9]{1,20}:[0-9]{1,10}")


def read_levels(text: object) -> dict[str, str]:
    """The ratings stored as ``text`` (``None``: none yet), each sound entry kept, oldest first."""
    if text is None:
        return {}
    try:
        data = safejson.load_record(text, LEVELS_FORMAT, MAX_LEVELS_CHARS, "the ratings", ValueError)
    except ValueError:
        return {}
    entries = data.get("levels")
    out: dict[str, str] = {}
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) \
                and _KEY.fullmatch(entry[0]) and entry[1] in LEVELS:
            out.pop(entry[0], None)
            out[entry[0]] = entry[1]
    return dict(list(out.items())[-MAX_LEVELS:])


def newer_levels(text: object) -> bool:
    """Whether the stored ratings were written by a newer page (not to be written over)."""
    try:
        data = safejson.load_record(text, LEVELS_FORMAT, MAX_LEVELS_CHARS, "the ratings", ValueError)
    except ValueError:
        return False
    return is_newer(data, LEVELS_VERSION)


def rated(levels: dict[str, str], key: str, level: str) -> dict[str, str]:
    """``levels`` with ``key`` rated ``level``, the most recent (the oldest go past :data:`MAX_LEVELS`)."""
    out = {k: v for k, v in levels.items() if k != key}
    out[key] = level
    return dict(list(out.items())[-MAX_LEVELS:])


def levels_json(levels: dict[str, str]) -> str:
    """The stored text of ``levels``."""
    data = {"format": LEVELS_FORMAT, "version": LEVELS_VERSION, "levels": [[k, v] for k, v in levels.items()]}
    return json.dumps(data, separators=(",", ":"))
