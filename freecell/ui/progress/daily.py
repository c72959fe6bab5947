"""The deal of the day on this device: which days' deals were won, and the streak of daily wins.

The deal itself is :func:`freecell.deals.daily_deal`, a pure function of
the date; the page passes its local date in (``today``), the model never
reads a clock.  A game counts as the deal of a day when it is classic
FreeCell and its number is that day's deal; its win counts for that day
when it comes on the day or the day after (a game begun before midnight).

The record is kept under its own key (:data:`KEY_DAILY`), apart from the
statistics, whose stored form older pages check field by field:
``{"format": "freecell-daily", "version": 1, "won": ["2025-03-14", ...],
"longest": 3}``.  As the statistics are (:mod:`freecell.ui.progress.stats`), it is
merged into what is stored at each change (read, merge, write), so two tabs
never erase each other's wins; a win is counted once however often it is
applied.  The streak is not stored: it is counted from the days won,
backwards from today (or from yesterday while today's deal is still open).

Reading it back (:func:`read_daily_stored`) keeps every sound day and drops
only the bad ones (``damaged``); an unknown field is dropped without a
word; a longest run shorter than the days show is raised to theirs.  A
record of a newer page (a higher version) is read as far as this page
understands it and never written over (``newer``).

>>> from datetime import date
>>> text = apply_win(None, date(2025, 3, 13)).text
>>> record = apply_win(text, date(2025, 3, 14)).record
>>> record.streak(date(2025, 3, 14)), record.streak(date(2025, 3, 15)), record.streak(date(2025, 3, 16))
(2, 2, 0)
>>> record.solved(date(2025, 3, 14)), record.longest
(True, 2)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, timedelta

from ... import safejson
from ...deals import daily_deal
from ...game import Game
from ..address.link import variant_id
from .damage import is_newer, version_of

KEY_DAILY = "freecell.daily"
DAILY_FORMAT = "freecell-daily"
DAILY_VERSION = 1
MAX_DAYS = 1000  # days won kept (nearly three years of every day); the oldest go first
MAX_DAILY_CHARS = 20_000
DAY_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class DailyLoadError(ValueError):
    """A stored daily record that cannot be used."""


@dataclass(frozen=True, slots=True)
class DailyRecord:
    """The days whose deal was won here (oldest first) and the longest run of them."""

    won: tuple[date, ...] = ()
    longest: int = 0

    def solved(self, day: date) -> bool:
        return day in self.won

    def streak(self, today: date) -> int:
        """Days in a row won, up to today (or yesterday, while today's deal is still to play)."""
        days = set(self.won)
        day = today if today in days else today - timedelta(days=1)
        n = 0
        while day in days:
            n += 1
            day -= timedelta(days=1)
        return n

    def with_win(self, day: date) -> DailyRecord:
        if day in self.won:
            return self
        won = tuple(sorted((*self.won, day)))[-MAX_DAYS:]
        return DailyRecord(won, max(self.longest, _longest_run(won)))

    def to_json(self) -> str:
        return json.dumps({"format": DAILY_FORMAT, "version": DAILY_VERSION,
                           "won": [d.isoformat() for d in self.won], "longest": self.longest},
                          separators=(",", ":"))


def _longest_run(days: tuple[date, ...]) -> int:
    best = run = 0
    last: date | None = None
    for d in days:
        run = run + 1 if last is not None and d - last == timedelta(days=1) else 1
        best = max(best, run)
        last = d
    return best


@dataclass(frozen=True, slots=True)
class DailyRead:
    """A daily record read back (:func:`read_daily_stored`)."""

    record: DailyRecord
    damaged: bool = False  # a day won (or the longest run) was dropped: write the rest back, say so
    newer: bool = False  # a newer page's record: ``record`` is what this page understands; never written


def read_daily(text: object) -> tuple[DailyRecord, bool]:
    """The record stored as ``text`` (``None``: none yet), and whether it was damaged."""
    read = read_daily_stored(text)
    return read.record, read.damaged


def read_daily_stored(text: object) -> DailyRead:
    """The record stored as ``text`` (``None``: none yet): every sound day kept."""
    if text is None:
        return DailyRead(DailyRecord())
    try:
        data = safejson.load_record(text, DAILY_FORMAT, MAX_DAILY_CHARS, "the daily record", DailyLoadError)
    except DailyLoadError:
        return DailyRead(DailyRecord(), damaged=True)
    newer = is_newer(data, DAILY_VERSION)
    raw, longest = data.get("won"), data.get("longest")
    bad = version_of(data) is None or not isinstance(raw, list)
    days: set[date] = set()
    for item in raw if isinstance(raw, list) else ():
        day = _day(item)
        bad = bad or day is None
        if day is not None:
            days.add(day)
    won = tuple(sorted(days))[-MAX_DAYS:]
    run = _longest_run(won)
    if type(longest) is not int or not 0 <= longest <= len(won) + MAX_DAYS:
        longest, bad = run, True
    return DailyRead(DailyRecord(won, max(longest, run)), damaged=bad and not newer, newer=newer)


def _day(item: object) -> date | None:
    """A day won as stored (``2025-03-14``), or ``None`` if it is not one."""
    if not isinstance(item, str) or not DAY_SHAPE.fullmatch(item):
        return None
    try:
        return date.fromisoformat(item)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class AppliedDaily:
    text: str
    record: DailyRecord
    damaged: bool
    newer: bool = False  # what is stored is a newer page's: never write ``text`` over it


def apply_win(stored: object, *days: date) -> AppliedDaily:
    """The deals of ``days`` were won: merged into the record stored now (write ``text`` back at
    once, unless ``newer``)."""
    read = read_daily_stored(stored)
    new = read.record
    for day in days:
        new = new.with_win(day)
    return AppliedDaily(new.to_json(), new, read.damaged, read.newer)


def daily_day(game: Game, today: date) -> date | None:
    """The day whose deal ``game`` is, today's or yesterday's, if it is one."""
    if game.deal is None or variant_id(game) != "freecell":
        return None
    for day in (today, today - timedelta(days=1)):
        if game.deal == daily_deal(day):
            return day
    return None
