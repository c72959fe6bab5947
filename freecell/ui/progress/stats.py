"""Statistics of the games played on this device, merged into what is stored at each change.

What counts:

- a game is *played* when its first move is made (:class:`Started`);
  opening a deal and leaving it untouched counts for nothing;
- it is *won* when its last card goes home (:class:`Won`); a game is won
  once, whatever undo and redo do afterwards;
- a started game is *abandoned* (:class:`Abandoned`) only when the page says
  it was really left: dropped from the unfinished games, or left with no way
  back.  It stays played and not won (that is the loss), and it breaks the
  winning streak.

Per deal (keyed by :func:`stats_key`: the variant, or the rules' id, and the
deal number) the best time and the fewest moves of its wins are kept; the
best score is kept over all wins.  Positions typed as a board are not deals
and count nowhere.

Several tabs share the statistics, so no tab holds them: :func:`apply`
applies each change (:class:`Started`, :class:`Won`, :class:`Abandoned`,
:class:`Reset`) to the text stored *now* and gives the text to write back at
once (read, merge, write), so what every tab did survives.  The value,
:class:`Tally`, knows every started, unfinished game by its id (the id of
its saved entry, :mod:`freecell.ui.progress.saved_games`), not one "open"
game for all tabs: starting a game in one tab abandons nothing in another.
Every change is idempotent: a game started twice is played once, won twice
counted once.

>>> text = apply(None, Started("a1", "freecell:617")).text
>>> text = apply(text, Started("b2", "freecell:5")).text       # another tab
>>> text = apply(text, Won("a1", "freecell:617", 200, 90, 520)).text
>>> tally = read_tally(text)[0]
>>> tally.played, tally.won, tally.best("freecell:617"), tally.open_games()
(2, 1, DealRecord(best_seconds=200, fewest_moves=90), ('b2',))

The stored form (:data:`KEY_STATS`) is ``{"format": "freecell-stats",
"version": 2, "played", "won", "streak", "longest", "best_score", "open":
[[id, key], ...], "deals": {...}}``.  Everything read is checked against an
allow-list, field by field and entry by entry (:func:`read_stats`): a count
of the wrong type or range, a bad open game or deal record is dropped and
the rest kept (counts that do not add up are raised to what the others
prove: at least as many games as wins); ``damaged`` then says the player
lost something.  An unknown field is dropped without a word.  Statistics
of a newer page (a higher version) are read as far as this page
understands them and never written over (``newer``).  Older pages wrote
version 1, one tab's statistics whole, with one ``"open"`` deal key: it is
read too, its open game becoming the one of id ``v1`` (the id the older
pages' saved game is moved to).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace

from ... import safejson
from ...rules import FREECELL, Rules
from .damage import is_newer, version_of
from .legacy import LEGACY_ID
from .save_format import ID_SHAPE

KEY_STATS = "freecell.stats"
STATS_FORMAT = "freecell-stats"
TALLY_VERSION = 2
LEGACY_VERSION = 1  # one tab's statistics, written whole by older pages
MAX_STATS_CHARS = 200_000
MAX_DEALS = 1000  # records kept per deal; the oldest go first
MAX_COUNT = 10**9
MAX_SECONDS = 10**8
MAX_OPEN = 64  # started, unfinished games known; beyond, the oldest counts as abandoned
KEY_SHAPE = re.compile(r"[a-z0-9.-]{1,40}:[0-9]{1,10}")


class StatsLoadError(ValueError):
    """Stored statistics that cannot be used: corrupt, foreign, inconsistent or hostile."""


def rules_id(rules: Rules) -> str:
    """A short id of a rule set: ``freecell`` for the classic rules.

    >>> rules_id(FREECELL)
    'freecell'
    >>> rules_id(Rules(free_cells=3))
    'c3x8.alternate.any'
    """
    if rules == FREECELL:
        return "freecell"
    rid = f"c{rules.free_cells}x{rules.columns}.{rules.build.value}.{rules.empty_column.value}"
    return rid + (".return" if rules.foundation_return else "")


def deal_key(deal: int, rules: Rules = FREECELL) -> str:
    """The key of a deal's records: ``freecell:617``."""
    return f"{rules_id(rules)}:{deal}"


def stats_key(variant: str | None, deal: int | None, rules: Rules = FREECELL) -> str | None:
    """The key of a game's deal: its variant and number (``eightoff:617``); ``None`` for a board.

    A game of rules without a variant (older saves) is keyed by its rules.

    >>> stats_key("eightoff", 617), stats_key(None, 617), stats_key("freecell", None)
    ('eightoff:617', 'freecell:617', None)
    """
    if deal is None:
        return None
    return f"{variant}:{deal}" if variant is not None else deal_key(deal, rules)


@dataclass(slots=True)
class DealRecord:
    """The best of a deal's wins."""

    best_seconds: int
    fewest_moves: int


@dataclass(frozen=True, slots=True)
class Started:
    """Game ``game`` (an id) had its first move; ``key``: its deal's key (``None``: a board, not counted)."""

    game: str
    key: str | None


@dataclass(frozen=True, slots=True)
class Won:
    """Game ``game`` was won, in ``seconds``, ``moves`` and with ``score``."""

    game: str
    key: str | None
    seconds: float
    moves: int
    score: int


@dataclass(frozen=True, slots=True)
class Abandoned:
    """Game ``game`` was really left: dropped from the unfinished games, or gone with no way back."""

    game: str


@dataclass(frozen=True, slots=True)
class Reset:
    """The player reset the statistics: the games under way count as played in the new ones."""


StatsEvent = Started | Won | Abandoned | Reset


@dataclass(frozen=True, slots=True)
class Tally:
    """The statistics as stored (version 2); changed only by :func:`merge`."""

    played: int = 0
    won: int = 0
    streak: int = 0
    longest: int = 0
    best_score: int = 0
    open: tuple[tuple[str, str], ...] = ()  # (game id, deal key) of the games under way, oldest first
    deals: tuple[tuple[str, DealRecord], ...] = ()  # records per deal key, the most recent last

    def win_rate(self) -> int | None:
        """Games won out of games played, in whole percent; ``None`` before any game."""
        return None if not self.played else round(100 * self.won / self.played)

    def best(self, key: str) -> DealRecord | None:
        for k, record in self.deals:
            if k == key:
                return record
        return None

    def open_games(self) -> tuple[str, ...]:
        return tuple(g for g, _ in self.open)

    def to_json(self) -> str:
        data: dict[str, object] = {
            "format": STATS_FORMAT, "version": TALLY_VERSION, "played": self.played, "won": self.won,
            "streak": self.streak, "longest": self.longest, "best_score": self.best_score,
            "open": [[g, k] for g, k in self.open],
            "deals": {k: [r.best_seconds, r.fewest_moves] for k, r in self.deals},
        }
        return json.dumps(data, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class StatsRead:
    """Statistics read back (:func:`read_stats`)."""

    tally: Tally
    damaged: bool = False  # something the player would see was dropped: write the rest back, say so
    newer: bool = False  # a newer page's statistics: ``tally`` is what this page understands; never written


@dataclass(frozen=True, slots=True)
class Applied:
    """What :func:`apply` gives: the text to write back, the value, and whether the change counted."""

    text: str
    tally: Tally
    counted: bool  # False: the change changed nothing (a game won twice, one not started, ...)
    damaged: bool  # what was stored was damaged: only what could be read was kept
    newer: bool = False  # what is stored is a newer page's: never write ``text`` over it


def merge(tally: Tally, change: StatsEvent) -> tuple[Tally, bool]:
    """``tally`` after ``change``, and whether the change counted."""
    open_ids = tally.open_games()
    if isinstance(change, Started):
        if change.key is None or not KEY_SHAPE.fullmatch(change.key) or change.game in open_ids \
                or not ID_SHAPE.fullmatch(change.game):
            return tally, False
        opened = (*tally.open, (change.game, change.key))
        streak = tally.streak
        if len(opened) > MAX_OPEN:  # the oldest is forgotten: a loss
            opened, streak = opened[1:], 0
        return replace(tally, played=min(tally.played + 1, MAX_COUNT), open=opened, streak=streak), True
    if isinstance(change, Abandoned):
        if change.game not in open_ids:
            return tally, False
        return replace(tally, open=tuple(o for o in tally.open if o[0] != change.game), streak=0), True
    if isinstance(change, Won):
        if change.game not in open_ids:
            return tally, False
        key = dict(tally.open)[change.game]
        secs = min(MAX_SECONDS, max(0, int(change.seconds))) if math.isfinite(change.seconds) else MAX_SECONDS
        moves = min(MAX_COUNT, max(1, int(change.moves)))
        deals = dict(tally.deals)
        old = deals.pop(key, None)
        if old is not None:
            secs, moves = min(secs, old.best_seconds), min(moves, old.fewest_moves)
        deals[key] = DealRecord(secs, moves)
        while len(deals) > MAX_DEALS:
            del deals[next(iter(deals))]
        streak = tally.streak + 1
        return replace(tally, won=min(tally.won + 1, tally.played), streak=streak,
                       longest=max(tally.longest, streak),
                       best_score=min(MAX_COUNT, max(tally.best_score, int(change.score))),
                       open=tuple(o for o in tally.open if o[0] != change.game),
                       deals=tuple(deals.items())), True
    return Tally(played=len(tally.open), open=tally.open), True  # Reset


def read_tally(text: object) -> tuple[Tally, bool]:
    """The statistics stored as ``text`` (``None``: none yet), and whether they were damaged."""
    read = read_stats(text)
    return read.tally, read.damaged


def read_stats(text: object) -> StatsRead:
    """The statistics stored as ``text`` (``None``: none yet): every sound field and entry kept."""
    if text is None:
        return StatsRead(Tally())
    try:
        data = safejson.load_record(text, STATS_FORMAT, MAX_STATS_CHARS, "the statistics", StatsLoadError)
    except StatsLoadError:
        return StatsRead(Tally(), damaged=True)
    newer = is_newer(data, TALLY_VERSION)
    version = version_of(data)
    counts: dict[str, int] = {}
    bad = version is None
    for name in COUNTS:
        value = data.get(name)
        counts[name] = value if type(value) is int and 0 <= value <= MAX_COUNT else 0
        bad = bad or type(value) is not int or counts[name] != value
    # what the others prove: a streak is part of the longest, the longest of the wins, wins are games
    longest = max(counts["longest"], counts["streak"])
    won = max(counts["won"], longest)
    played = max(counts["played"], won)
    bad = bad or (played, won, longest) != (counts["played"], counts["won"], counts["longest"])
    legacy = version == LEGACY_VERSION
    opened, open_bad = _read_legacy_open(data.get("open")) if legacy else _read_open(data.get("open"))
    deals, deals_bad = _read_deals(data.get("deals"))
    tally = Tally(played, won, counts["streak"], longest, counts["best_score"], opened, deals)
    return StatsRead(tally, damaged=(bad or open_bad or deals_bad) and not newer, newer=newer)


def apply(stored: object, *changes: StatsEvent) -> Applied:
    """Apply ``changes`` to the statistics stored now (their text, or ``None``); never raises.

    Write :attr:`Applied.text` back at once, unless :attr:`Applied.newer`
    (a newer page's statistics: keep the result in memory).  Damaged
    statistics keep what could be read (``damaged``), with the changes applied.
    ``counted``: whether the last change counted.
    """
    read = read_stats(stored)
    new, counted = read.tally, False
    for change in changes:
        new, counted = merge(new, change)
    return Applied(new.to_json(), new, counted, read.damaged, read.newer)


COUNTS = ("played", "won", "streak", "longest", "best_score")


def _sound_key(key: object) -> bool:
    return isinstance(key, str) and KEY_SHAPE.fullmatch(key) is not None


def _read_legacy_open(raw: object) -> tuple[tuple[tuple[str, str], ...], bool]:
    """Version 1's one open game, a deal key or null: the game of id :data:`LEGACY_ID`; and whether bad."""
    if raw is None:
        return (), False
    if not _sound_key(raw):
        return (), True
    return ((LEGACY_ID, str(raw)),), False


def _read_open(raw: object) -> tuple[tuple[tuple[str, str], ...], bool]:
    """The sound open games (the newest :data:`MAX_OPEN`, each id once), and whether some were bad."""
    if not isinstance(raw, list):
        return (), True
    opened: dict[str, str] = {}
    bad = len(raw) > MAX_OPEN
    for item in raw:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) \
                and ID_SHAPE.fullmatch(item[0]) and _sound_key(item[1]):
            opened.setdefault(item[0], item[1])
        else:
            bad = True
    return tuple(opened.items())[-MAX_OPEN:], bad


def _read_deals(raw: object) -> tuple[tuple[tuple[str, DealRecord], ...], bool]:
    """The sound deal records (the newest :data:`MAX_DEALS`), and whether some were bad."""
    if not isinstance(raw, dict):
        return (), True
    deals: list[tuple[str, DealRecord]] = []
    bad = len(raw) > MAX_DEALS
    for key, value in raw.items():
        if _sound_key(key) and isinstance(value, list) and len(value) == 2 \
                and all(type(v) is int for v in value) and 0 <= value[0] <= MAX_SECONDS \
                and 1 <= value[1] <= MAX_COUNT:
            deals.append((key, DealRecord(value[0], value[1])))
        else:
            bad = True
    return tuple(deals[-MAX_DEALS:]), bad
