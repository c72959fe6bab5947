"""Statistics of the games played on this device: a value, its rules, its JSON.

What counts:

- a game is *played* when its first move is made (:meth:`Statistics.record_start`);
  opening a deal and leaving it untouched counts for nothing;
- it is *won* when its last card goes home (:meth:`Statistics.record_win`);
  a game is won once, whatever undo and redo do afterwards;
- a started game that is left unfinished, for a new deal or a replay of the
  same deal, is *abandoned* (:meth:`Statistics.record_abandon`): it stays
  played and not won (that is the loss), and it breaks the winning streak.

Per deal (keyed by :func:`deal_key`: the rules' id and the deal number) the
best time and the fewest moves of its wins are kept; the best score is kept
over all wins.  Positions typed as a board are not deals and count nowhere.

The JSON form (:meth:`Statistics.to_json`, :meth:`Statistics.from_json`) is
versioned; loading anything that is not exactly a valid record raises
:class:`StatsLoadError` and nothing else, and the caller starts fresh.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from .. import safejson
from ..rules import FREECELL, Rules

STATS_FORMAT = "freecell-stats"
STATS_VERSION = 1
MAX_STATS_CHARS = 200_000
MAX_DEALS = 1000  # records kept per deal; the oldest go first
MAX_COUNT = 10**9
MAX_SECONDS = 10**8
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


@dataclass(slots=True)
class DealRecord:
    """The best of a deal's wins."""

    best_seconds: int
    fewest_moves: int


@dataclass(slots=True)
class Statistics:
    played: int = 0
    won: int = 0
    streak: int = 0  # wins in a row, now
    longest: int = 0  # the longest streak ever
    best_score: int = 0
    open: str | None = None  # the key of the started, unfinished game, if any
    deals: dict[str, DealRecord] = field(default_factory=dict)

    # --- figures ---------------------------------------------------------
    def win_rate(self) -> int | None:
        """Games won out of games played, in whole percent; ``None`` before any game."""
        if not self.played:
            return None
        return round(100 * self.won / self.played)

    def best(self, key: str) -> DealRecord | None:
        return self.deals.get(key)

    # --- events ----------------------------------------------------------
    def record_start(self, key: str) -> None:
        """The first move of a game: it is played.  An unfinished open game is abandoned."""
        if not KEY_SHAPE.fullmatch(key):
            raise ValueError(f"not a deal key: {key!r}")
        if self.open is not None:
            self.record_abandon()
        self.played = min(self.played + 1, MAX_COUNT)
        self.open = key

    def record_win(self, key: str, seconds: float, moves: int, score: int) -> bool:
        """The game ``key`` was won; ``False`` (and nothing changes) unless it was open."""
        if self.open != key:
            return False
        self.open = None
        self.won = min(self.won + 1, self.played)
        self.streak += 1
        self.longest = max(self.longest, self.streak)
        self.best_score = max(self.best_score, max(0, int(score)))
        secs = min(MAX_SECONDS, max(0, int(seconds))) if math.isfinite(seconds) else MAX_SECONDS
        moves = min(MAX_COUNT, max(1, int(moves)))  # a win takes one move at least
        old = self.deals.pop(key, None)
        if old is not None:
            secs, moves = min(secs, old.best_seconds), min(moves, old.fewest_moves)
        self.deals[key] = DealRecord(secs, moves)  # now the most recent
        while len(self.deals) > MAX_DEALS:
            del self.deals[next(iter(self.deals))]
        return True

    def record_abandon(self) -> bool:
        """The open game was left unfinished: the streak ends.  ``False`` if none was open."""
        if self.open is None:
            return False
        self.open = None
        self.streak = 0
        return True

    # --- JSON --------------------------------------------------------------
    def to_json(self) -> str:
        data: dict[str, object] = {
            "format": STATS_FORMAT,
            "version": STATS_VERSION,
            "played": self.played,
            "won": self.won,
            "streak": self.streak,
            "longest": self.longest,
            "best_score": self.best_score,
            "open": self.open,
            "deals": {k: [r.best_seconds, r.fewest_moves] for k, r in self.deals.items()},
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: object) -> Statistics:
        """Statistics from their JSON text; :class:`StatsLoadError` on anything else."""
        try:
            return cls._load(text)
        except StatsLoadError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise StatsLoadError(f"the statistics are damaged ({type(e).__name__})") from None

    @classmethod
    def _load(cls, text: object) -> Statistics:
        data = safejson.load_record(text, STATS_FORMAT, MAX_STATS_CHARS, "the statistics", StatsLoadError,
                                    STATS_VERSION)
        known = {"format", "version", "played", "won", "streak", "longest", "best_score", "open", "deals"}
        if set(data) != known:
            raise StatsLoadError("the statistics have missing or unknown fields")
        counts = {name: _count(data[name], name) for name in ("played", "won", "streak", "longest",
                                                              "best_score")}
        if not (counts["won"] <= counts["played"] and counts["streak"] <= counts["longest"]
                <= counts["won"]):
            raise StatsLoadError("the statistics do not add up")
        open_key = data["open"]
        if open_key is not None:
            _check_key(open_key)
        deals_data = data["deals"]
        if not isinstance(deals_data, dict) or len(deals_data) > MAX_DEALS:
            raise StatsLoadError("the deal records are wrong")
        deals: dict[str, DealRecord] = {}
        for key, value in deals_data.items():
            _check_key(key)
            if not (isinstance(value, list) and len(value) == 2):
                raise StatsLoadError("a deal record is wrong")
            secs, moves = _count(value[0], "best time"), _count(value[1], "fewest moves")
            if secs > MAX_SECONDS or moves < 1:
                raise StatsLoadError("a deal record is out of range")
            deals[key] = DealRecord(secs, moves)
        return cls(open=open_key, deals=deals, **counts)


def _count(value: object, name: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise StatsLoadError(f"{name} must be a whole number from 0 to {MAX_COUNT}")
    return value


def _check_key(key: object) -> None:
    if not isinstance(key, str) or not KEY_SHAPE.fullmatch(key):
        raise StatsLoadError("a deal key is wrong")
