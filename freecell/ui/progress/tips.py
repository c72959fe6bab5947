"""The tips the player has been shown, kept for good: a tip is said once, not once a visit.

Stored under :data:`KEY_TIPS` as ``{"format": "freecell-tips", "version": 1,
"shown": ["double-tap"]}``, names from :data:`TIPS` only.  Whatever cannot be
read (damaged, another version, an unknown name) reads as not shown: a tip
said once more loses nothing, so no notice is given for it.

    >>> read_tips(tips_json(frozenset({"double-tap"})))
    frozenset({'double-tap'})
    >>> read_tips('{"format": "freecell-tips", "version": 1, "shown": ["double-tap", "<b>"]}')
    frozenset({'double-tap'})
    >>> read_tips("{not json") == read_tips(None) == frozenset()
    True
"""

from __future__ import annotations

import json

from ... import safejson

KEY_TIPS = "freecell.tips"
TIPS_FORMAT = "freecell-tips"
TIPS_VERSION = 1
MAX_TIPS_CHARS = 500
# The tips there are: "double-tap", at the first card a player selects by a tap (the best
# place is a double tap away); "hint-again", at the first hint that
# shows a move (pressing Hint again plays it).
TIPS = ("double-tap", "hint-again")


def read_tips(text: object) -> frozenset[str]:
    """The tips shown, from their stored text (``None``: nothing stored)."""
    if text is None:
        return frozenset()
    try:
        data = safejson.load_record(text, TIPS_FORMAT, MAX_TIPS_CHARS, "the tips", ValueError, TIPS_VERSION)
    except ValueError:
        return frozenset()
    shown = data.get("shown")
    if not isinstance(shown, list):
        return frozenset()
    return frozenset(name for name in shown if isinstance(name, str) and name in TIPS)


def tips_json(shown: frozenset[str]) -> str:
    """The stored text for the tips ``shown`` (known names only, in a fixed order)."""
    data = {"format": TIPS_FORMAT, "version": TIPS_VERSION, "shown": [t for t in TIPS if t in shown]}
    return json.dumps(data, separators=(",", ":"))
