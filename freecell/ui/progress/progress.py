"""The player's progress: every game kept, and what counts as played, won or abandoned.

Pure rules for the :class:`~freecell.ui.session.session.Session`, over two injected
key-value stores (:class:`~freecell.ui.progress.keyvalue.KeyValue`: the page gives
``localStorage``, shared by the tabs, and ``sessionStorage``, the tab's own;
the tests give :class:`~freecell.ui.progress.keyvalue.MemoryStorage`).  The games are
kept by :class:`~freecell.ui.progress.saved_games.SaveStore` (one entry per game, the
unfinished ones listed, what this tab plays, other tabs' writes noticed);
the statistics are merged into what is stored at each change
(:func:`freecell.ui.progress.stats.apply`), so two tabs never erase each other.

A game on the table is ``fresh`` (no move yet), ``open`` (started) or
``done`` (won).  Its first move makes it played (and tells the host
"started"); its last card makes it won ("won").  A started game is
abandoned (the streak ends) only when it is really left: replayed from its
start (at the replay's first move: until then Undo brings it back), or
dropped from the list of unfinished games.  Leaving it for another deal
keeps it in that list, to be resumed.

A game whose solution the player watches (:mod:`freecell.ui.analysis.playback`) is
``watched``: it is never won in the statistics (a started one counts as
abandoned when the playback plays its first step; a fresh one never counts
at all), whatever reloads come between: the mark is kept in its saved
head.  So is a game opened partway through, from a shared link with moves:
the moves before were someone else's, and so would its win be (one move, no
time).  A win of the deal of the day (:mod:`freecell.ui.progress.daily`) is kept
apart from the statistics, under its own key, merged the same way; the
date comes from the page (``today``).  The tips shown (:mod:`freecell.ui.progress.tips`)
are kept for good, so each is said once.

A result whose write failed (storage full or refused) is kept and written
at the next chance (:meth:`Progress.flush`, at every save: after a move, the
page hidden or closed), merged into what other tabs wrote, counted once.
Statistics (or a record of the deal of the day) written by a newer page are
never written over (:mod:`freecell.ui.progress.damage`): this tab's results
are merged into them in memory only (:attr:`Progress.in_memory` says which).
Damaged ones keep what could be read, written back at once; what the
player lost is said once (:attr:`Restored.lost
<freecell.ui.progress.saved_games.Restored.lost>`).

Saving never raises: :meth:`Progress.save` says how it went (saved, failed,
or conflict: another tab's newer moves of the same game stop the saving),
and the session decides what to tell the player
(:mod:`freecell.ui.session.keeping`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date

from ...game import Game
from ..address.embed import HostEvent
from ..address.link import variant_id
from ..address.query import StartRequest
from .daily import KEY_DAILY, DailyRecord, apply_win, daily_day, read_daily_stored
from .damage import Lost
from .keyvalue import KeyValue
from .levels import KEY_LEVELS, LEVELS, levels_json, newer_levels, rated, read_levels
from .saved_games import GAME_LOST, Restored, SaveOutcome, SaveStore, Summary
from .stats import KEY_STATS, Abandoned, Reset, Started, StatsEvent, Tally, Won, apply, read_stats, stats_key
from .tips import KEY_TIPS, read_tips, tips_json

FRESH, OPEN, DONE, WATCHED = "fresh", "open", "done", "watched"


def game_key(game: Game) -> str | None:
    """The statistics key of a game: its variant (or rules) and deal; ``None`` for a board."""
    return stats_key(variant_id(game), game.deal, game.rules)


def wall_ms() -> float:
    return time.time() * 1000


class Progress:
    """The saved games and the statistics, as the session on the table needs them."""

    def __init__(self, local: KeyValue, tab: KeyValue | None = None, *,
                 wall: Callable[[], float] = wall_ms, writer: str | None = None,
                 new_id: Callable[[], str] | None = None, today: Callable[[], date] = date.today) -> None:
        self.local = local
        self.store = SaveStore(local, tab, writer=writer, new_id=new_id)
        self.wall = wall
        self.today = today  # the page's local date: the deal of the day is that date's
        stats = read_stats(local.read(KEY_STATS))
        self.tally, self.stats_newer = stats.tally, stats.newer
        self.lost: frozenset[Lost] = frozenset()  # what damaged statistics cost: said once, at restore
        if stats.damaged:  # what could be read, written back now (the damage is said once)
            local.write(KEY_STATS, self.tally.to_json())
            self.lost |= {Lost.STATS}
        daily = read_daily_stored(local.read(KEY_DAILY))
        self.daily, self.daily_newer = daily.record, daily.newer
        if daily.damaged:
            local.write(KEY_DAILY, self.daily.to_json())
            self.lost |= {Lost.DAILY}
        self.state = FRESH
        self.left: str | None = None  # the game this tab left for a new deal, kept in the list
        self.left_replayed = False  # that game was left for a replay of it: gone at the first move
        self.stats_failed = False
        self._unwritten: list[StatsEvent] = []  # counted here, not yet written: at the next chance
        self._unwritten_days: list[date] = []
        self.tips = read_tips(local.read(KEY_TIPS))  # the tips shown here, ever

    # --- the games ----------------------------------------------------------------
    @property
    def game_id(self) -> str | None:
        return self.store.game_id

    @property
    def watched(self) -> bool:
        """The game on the table is not the player's to win (watched, or a link's, partway)."""
        return self.state == WATCHED

    @property
    def in_memory(self) -> frozenset[Lost]:
        """The records a newer page wrote (statistics, deal of the day): this tab's results are kept
        in memory only, never written over them."""
        return frozenset({Lost.STATS} if self.stats_newer else ()) | \
            frozenset({Lost.DAILY} if self.daily_newer else ())

    def restore(self, request: StartRequest | None, clock: Callable[[], float]) -> Restored:
        """The game this tab had, or the most recent unfinished one, or the one the address asks for.

        Its ``lost`` also names the statistics, or the deal of the day's record, if they were damaged.
        """
        migrated = GAME_LOST if self.store.migrate(self.wall(), clock) else frozenset()
        restored = self.store.restore(request, clock, now=self.wall())
        return restored.losing(migrated | self.lost)

    def unfinished(self) -> list[Summary]:
        return self.store.unfinished()

    def resume(self, game_id: str, clock: Callable[[], float]) -> Restored | None:
        """Bring a kept game onto this tab (the list's Open, the other-tab notice's button)."""
        return self.store.resume(game_id, clock, self.wall())

    def forget_left(self) -> None:
        """The game left is on the table again: Undo no longer goes back to it."""
        self.left = None

    def find(self, deal: int, variant: str | None) -> Summary | None:
        """The most recent unfinished game of that deal, if there is one."""
        return self.store.find(deal, variant or "freecell")

    def adopt(self, game: Game, restored: bool = False, replay: bool = False) -> None:
        """A game came on the table: dealt (this tab's from now on), or restored with its history.

        ``replay``: the new game is the same deal again (Replay); the game left
        is then abandoned, and dropped from the list, at the replay's first move.
        """
        self.left_replayed = False
        if restored:
            self.state = DONE if game.is_won() else (OPEN if game.moves or game.can_redo() else FRESH)
            if self.store.watched and self.state != DONE:
                self.state = WATCHED  # watched before a reload: still never a win
            gid = self.game_id
            if self.state == OPEN and gid is not None and gid not in self.tally.open_games():
                self._count(Started(gid, game_key(game)))  # the statistics lost it: count it now
        else:
            left = self.store.start(game)
            self.left = left.id if left.kept and self.state == OPEN else None
            self.left_replayed = replay and self.left is not None
            if self.state == OPEN and left.id is not None and not left.kept:
                self._count(Abandoned(left.id))  # never saved: gone with no way back
            self.state = FRESH
            if game.moves or game.can_redo():  # a link's game, partway through: those moves were not ours
                self.state = WATCHED
                self.store.mark_watched()

    def turn_played(self, game: Game) -> tuple[HostEvent, ...]:
        """After every turn (a move, a redo, a Finish step): what to tell an embedding host."""
        out: list[HostEvent] = []
        gid = self.game_id
        if self.state == WATCHED:
            return ()
        if self.state == FRESH:
            self.state = OPEN
            if self.left is not None and self.left_replayed:  # the replay goes on: the game left is gone
                self.store.discard(self.left)
                self._count(Abandoned(self.left))
                self.left, self.left_replayed = None, False
            if gid is not None:
                self._count(Started(gid, game_key(game)))
            out.append("started")
        if self.state == OPEN and game.is_won():
            self.state = DONE
            if gid is not None:
                self._count(Won(gid, game_key(game), game.elapsed(), game.moves, game.score))
                day = daily_day(game, self.today())
                if day is not None:
                    self._daily_won(day)
            out.append("won")
        return tuple(out)

    def watching(self) -> None:
        """The player watches the solution of the game on the table: it is not theirs to win.

        A started game counts as abandoned (the streak ends); a fresh one
        never counts; a game won before stays won.
        """
        gid = self.game_id
        if self.state == OPEN and gid is not None:
            self._count(Abandoned(gid))
        if self.state != DONE:
            self.state = WATCHED
            self.store.mark_watched()  # kept with the game: a reload does not make it the player's

    def save(self, game: Game) -> SaveOutcome:
        """Write what changed (the page does, for the session's ``SaveGame``): saved, failed or conflict.

        A failed write of the statistics since the last save makes it ``failed`` too.
        """
        result = self.store.save(game, self.wall())
        self.flush()  # the statistics a failed write kept back: now, if storage takes them
        for dropped in result.dropped:
            self._count(Abandoned(dropped.id))
        if result.outcome is SaveOutcome.CONFLICT:
            return SaveOutcome.CONFLICT
        if result.outcome is SaveOutcome.FAILED or self.stats_failed:
            self.stats_failed = False
            return SaveOutcome.FAILED
        return SaveOutcome.SAVED

    # --- the tips ------------------------------------------------------------------------
    def first_time(self, tip: str) -> bool:
        """Whether ``tip`` (:data:`~freecell.ui.progress.tips.TIPS`) was never shown here, in any tab.

        It counts as shown from now on, kept for good; a write that fails only
        means it is said again at a later visit.
        """
        if tip in self.tips:
            return False
        self.tips |= read_tips(self.local.read(KEY_TIPS))  # another tab may have shown it
        if tip in self.tips:
            return False
        self.tips |= {tip}
        self.local.write(KEY_TIPS, tips_json(self.tips))
        return True

    # --- the deals' difficulty -----------------------------------------------------------
    def level_of(self, game: Game) -> str | None:
        """The difficulty the solver gave ``game``'s deal here before (:mod:`.levels`), if any."""
        key = game_key(game)
        return None if key is None else read_levels(self.local.read(KEY_LEVELS)).get(key)

    def rate(self, game: Game, level: str) -> None:
        """The solver rated ``game``'s deal ``level``: kept for good (a write that fails, or a newer
        page's record, only means the deal is rated again when it is fresh)."""
        key = game_key(game)
        stored = self.local.read(KEY_LEVELS)
        if key is None or level not in LEVELS or newer_levels(stored):
            return
        levels = read_levels(stored)
        if levels.get(key) != level:
            self.local.write(KEY_LEVELS, levels_json(rated(levels, key, level)))

    # --- the statistics --------------------------------------------------------------
    def _count(self, change: StatsEvent) -> None:
        self._unwritten.append(change)
        self._write_stats()

    def _write_stats(self) -> bool:
        """Merge what is not written yet into the statistics stored now, and write them.

        A write that fails keeps the events for the next chance (the next
        save, the page hidden or closed); merging is by game id (a game
        starts, is won or abandoned once), so each counts exactly once, and
        whatever other tabs wrote in between is kept.  Statistics of a newer
        page are not written over: the events stay here, merged into them
        in memory at each change.
        """
        if self._merge_stats():
            return True
        if not self.local.write(KEY_STATS, self.tally.to_json()):
            self.stats_failed = True
            return False
        self._unwritten.clear()
        return True

    def _merge_stats(self) -> bool:
        """The statistics stored now with this tab's unwritten events, as :attr:`tally`; whether a
        newer page wrote them."""
        applied = apply(self.local.read(KEY_STATS), *self._unwritten)
        self.tally, self.stats_newer = applied.tally, applied.newer
        return applied.newer

    def flush(self) -> bool:
        """Write the results a failed write kept back (statistics, deal of the day); whether all went."""
        ok = True
        if self._unwritten:
            ok = self._write_stats()
        if self._unwritten_days:
            ok = self._write_daily() and ok
        return ok

    def reset(self) -> None:
        """Start the statistics afresh (the deal of the day's too); the games under way count as played."""
        self._unwritten_days.clear()
        self._count(Reset())
        self.daily = DailyRecord()
        self.daily_newer = read_daily_stored(self.local.read(KEY_DAILY)).newer
        if not self.daily_newer and not self.local.write(KEY_DAILY, self.daily.to_json()):
            self.stats_failed = True

    def _daily_won(self, day: date) -> None:
        self._unwritten_days.append(day)
        self._write_daily()

    def _write_daily(self) -> bool:
        """As :meth:`_write_stats`, for the days whose deal of the day was won."""
        if self._merge_daily():
            return True
        if not self.local.write(KEY_DAILY, self.daily.to_json()):
            self.stats_failed = True
            return False
        self._unwritten_days.clear()
        return True

    def _merge_daily(self) -> bool:
        applied = apply_win(self.local.read(KEY_DAILY), *self._unwritten_days)
        self.daily, self.daily_newer = applied.record, applied.newer
        return applied.newer

    def reread_daily(self) -> DailyRecord:
        """Another tab changed the record of the deal of the day: read it again."""
        self._merge_daily()
        return self.daily

    def reread(self) -> Tally:
        """Another tab changed the statistics: read them again (for the panel)."""
        self._merge_stats()  # what this tab could not write yet still counts here
        return self.tally
