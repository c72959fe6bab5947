"""What the page does with a stored record it cannot use whole: the rules every record follows.

- A record written by a *newer* page (:func:`is_newer`: a version above the
  one this page writes) is never written over nor removed: an older copy of
  the page, cached offline, can meet data a newer one wrote.  This page
  reads what it understands of it and keeps its own results in memory.
- A *damaged* record (not JSON, wrong types, a bad entry) keeps every field
  and entry that can be read; only what is bad is dropped, and the repaired
  record is written back.  The page says so once, naming what the player
  lost (:class:`Lost`); nothing is said when nothing the player can see was
  lost (an unknown field dropped, the tab's own memory unreadable).

>>> is_newer({"format": "freecell-stats", "version": 3}, 2), is_newer({"version": "3"}, 2)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Lost(StrEnum):
    """What the player could see that damaged storage made the page drop or start over."""

    GAME = "game"  # a saved game (or some of its moves)
    STATS = "stats"  # the statistics
    DAILY = "daily"  # the days whose deal of the day was won
    SETTINGS = "settings"  # some settings (back to their defaults)


def version_of(data: Mapping[str, object]) -> int | None:
    """A record's version, if it is a whole number from 1 (``None``: missing or damaged)."""
    version = data.get("version")
    return version if type(version) is int and version >= 1 else None


def is_newer(data: Mapping[str, object], known: int) -> bool:
    """Whether a record (its JSON object) was written by a page newer than one writing version ``known``."""
    version = version_of(data)
    return version is not None and version > known
