"""Every unfinished game kept: one entry per game, what each tab plays, and other tabs.

:class:`SaveStore` keeps games in a key-value store (:class:`~.keyvalue.KeyValue`:
the page gives it ``localStorage``), each game under keys of its own (variant,
deal or board, and an id; the format is in :mod:`freecell.ui.progress.save_format`), and
what one tab plays in a second store (``sessionStorage``), so that:

- a reload of a tab brings back that tab's game (:meth:`SaveStore.restore`
  with the tab's memory); a plain address in a tab with no memory brings
  back the most recent unfinished game; ``?deal=N`` (of a variant) resumes
  the most recent unfinished game of that deal, else deals it afresh;
- the unfinished games are a list (:meth:`SaveStore.unfinished`: deal or
  board, variant, moves, when last played) bounded to the :data:`LIMIT`
  most recent: when a new game is first saved the oldest go, and the save
  names them (:attr:`SaveResult.dropped`) so the statistics count them as
  abandoned.  A game is first saved at its first record (move): a deal
  opened and left untouched takes no room.  Won games leave the list; the
  :data:`KEEP_FINISHED` most recent are kept so that a reload shows them;
- a save (:meth:`SaveStore.save`, after every change, and when the page
  is hidden) writes what changed since the last one: a few records and the
  head.  It says :attr:`SaveOutcome.FAILED` when a write failed (full,
  refused): the game plays on, and the next save tries again;
- only a tab that plays writes: a game opened, shown or reloaded and not
  played here is not written at all (a compaction waits for the next move);
- two tabs never overwrite each other: each save first compares the stored
  head with the one this tab last wrote or read; if another tab wrote newer
  records of the game since (not just its clock), nothing is written and the save says
  :attr:`SaveOutcome.CONFLICT` (the page shows ``data-notice="other-tab"`` and
  offers :meth:`SaveStore.resume` of that game, which brings the newer
  moves here; :meth:`SaveStore.fork` keeps this tab's moves as a game of
  their own instead).  :meth:`SaveStore.changed` reads a storage event's key.
- what cannot be read is never destroyed for that alone: a newer page's
  head is left as it is, not used; a damaged one is rebuilt from its key
  and chunks at load (:meth:`SaveStore.repair`, :mod:`.save_repair`), and
  :attr:`Restored.lost` says what the player lost.

Time is passed in: ``now`` is the wall clock (the page's ``Date.now()``,
milliseconds), kept as "last played"; ``clock`` is the monotonic clock a
restored :class:`~freecell.game.Game` runs on.  Nothing here reads a clock.
How entries are written, listed and removed is :mod:`freecell.ui.progress.save_entries`.

>>> from freecell.ui.progress.keyvalue import MemoryStorage
>>> from freecell.ui.address.query import parse_query
>>> local = MemoryStorage()                     # localStorage, shared by the tabs
>>> tab = SaveStore(local, MemoryStorage())     # this tab's sessionStorage
>>> game = tab.restore(parse_query("?deal=617")).game
>>> _ = game.play(game.legal_moves()[0])
>>> tab.save(game, now=1_700_000_000_000).outcome
<SaveOutcome.SAVED: 'saved'>
>>> [(s.deal, s.moves) for s in SaveStore(local).unfinished()]    # another tab's list
[(617, 1)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from enum import StrEnum

from ...game import Game
from ...position import BoardError, Position
from ...rules import FREECELL
from ...variants import VARIANTS
from ..address.query import StartRequest
from .damage import Lost
from .keyvalue import KeyValue, MemoryStorage, StoredDataError
from .legacy import KEY_GAME, LEGACY_ID, load_game
from .save_entries import (
    KEEP_FINISHED,
    LIMIT,
    SaveEntries,
    SaveOutcome,
    SaveResult,
    Slot,
    Summary,
    all_records,
    random_id,
)
from .save_format import (
    ID_SHAPE,
    KEY_TAB,
    Head,
    SaveFormatError,
    TabMemory,
    new_head,
    parse_key,
    records_of,
    start_game,
)
from .save_repair import load
from .settings import KEY_SETTINGS
from .stats import KEY_STATS

__all__ = [
    "KEEP_FINISHED",
    "LIMIT",
    "KeyKind",
    "Left",
    "Restored",
    "SaveOutcome",
    "SaveResult",
    "SaveStore",
    "StorageChange",
    "Summary",
]

COMPACT_SLACK = 256  # records beyond twice the history that make a load write it anew
COMPACT_AT = 100_000  # records that make a save write the history anew (far below save_format.MAX_RECORDS)


@dataclass(frozen=True, slots=True)
class Restored:
    """What :meth:`SaveStore.restore` (or :meth:`SaveStore.resume`) brought back.

    ``game``: the game for the table (``None``: nothing to bring back; the
    page deals one and calls :meth:`SaveStore.start`); ``resumed``: it came
    from storage with its history; ``lost``: what the player could see that
    stored damage made the page drop or start over (the page says so once).
    """

    game: Game | None
    resumed: bool = False
    lost: frozenset[Lost] = frozenset()

    @property
    def damaged(self) -> bool:
        """Something the player could see was lost to damaged storage."""
        return bool(self.lost)

    def losing(self, lost: frozenset[Lost]) -> Restored:
        return replace(self, lost=self.lost | lost)


GAME_LOST = frozenset({Lost.GAME})


@dataclass(frozen=True, slots=True)
class Left:
    """The game a tab left for another: its id, and whether it can be found again in the list."""

    id: str | None
    kept: bool


class KeyKind(StrEnum):
    GAME = "game"  # a saved game's entry
    STATS = "stats"
    SETTINGS = "settings"
    CLEARED = "cleared"  # the whole store was cleared
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class StorageChange:
    """What a storage event's key means here (see :meth:`SaveStore.changed`)."""

    kind: KeyKind
    id: str | None = None  # the game whose entry changed
    ours: bool = False  # it is the game on this tab
    conflict: bool = False  # another tab wrote it: this tab must not save over it


@dataclass(frozen=True, slots=True)
class _Wanted:
    variant: str
    deal: int | None
    board: Position | None

    def matches(self, variant: str | None, deal: int | None, board: str | None) -> bool:
        if (variant or "freecell") != self.variant:
            return False
        if self.board is None:
            return deal == self.deal and deal is not None
        if board is None:
            return False
        try:
            return Position.from_text(board, VARIANTS[self.variant].rules) == self.board
        except BoardError:
            return False


class SaveStore:
    """The saved games of this origin, and the one this tab plays (see the module's docstring).

    ``local`` holds the games (shared by every tab), ``tab`` what this tab
    remembers (its own; in memory if not given).  ``writer`` names this
    tab in what it writes; ``new_id`` makes game ids (random by default).
    """

    def __init__(self, local: KeyValue, tab: KeyValue | None = None, *, writer: str | None = None,
                 new_id: Callable[[], str] | None = None, limit: int = LIMIT,
                 keep_finished: int = KEEP_FINISHED) -> None:
        self.local = local
        self.tab: KeyValue = MemoryStorage() if tab is None else tab
        self.writer = writer if writer is not None and ID_SHAPE.fullmatch(writer) else random_id()
        self.entries = SaveEntries(local, self.writer, limit, keep_finished)
        self._new_id = new_id or random_id
        self._slot: Slot | None = None

    # --- the game on this tab ----------------------------------------------------
    @property
    def game(self) -> Game | None:
        return None if self._slot is None else self._slot.game

    @property
    def game_id(self) -> str | None:
        return None if self._slot is None else self._slot.head.id

    @property
    def conflict(self) -> bool:
        """Another tab saved this tab's game since this tab read it: saving is off until a resume."""
        return self._slot is not None and self._slot.conflict

    @property
    def watched(self) -> bool:
        """Whether the solver played some of this tab's game (kept in its saved head)."""
        return self._slot is not None and self._slot.watched

    def mark_watched(self) -> None:
        """The solver plays this tab's game: said in its head from the next save on."""
        if self._slot is not None and not self._slot.watched:
            self._slot.watched = self._slot.played = True

    @property
    def stored(self) -> bool:
        """Whether this tab's game has an entry in the store (it has been saved once)."""
        return self._slot is not None and self._slot.text is not None

    # --- listing -------------------------------------------------------------------
    def summaries(self) -> list[Summary]:
        """Every saved game that can be read, the most recently played first."""
        return self.entries.summaries()

    def unfinished(self) -> list[Summary]:
        """The unfinished games, the most recently played first."""
        return [s for s in self.summaries() if not s.won]

    def find(self, deal: int | None, variant: str | None = None, board: Position | None = None,
             busy: Collection[str] = ()) -> Summary | None:
        """The most recent unfinished game of deal ``deal`` (or of that board) of ``variant``."""
        wanted = _Wanted(variant or "freecell", deal, board)
        for s in self.unfinished():
            if s.id not in busy and wanted.matches(s.variant, s.deal, s.board):
                return s
        return None

    # --- opening -------------------------------------------------------------------
    def restore(self, request: StartRequest | None = None, clock: Callable[[], float] = time.monotonic,
                busy: Collection[str] = (), now: float = 0.0) -> Restored:
        """The game for this tab as the page opens: see the module's docstring.

        ``request`` is what the address asks for (a request with an error
        asks for nothing); ``busy``: ids of games other tabs are known to
        play, not taken by a plain address; ``now``: the wall clock, the
        "last played" of a game rebuilt (:meth:`repair`).  The game returned
        is this tab's from now on.
        """
        lost = self.repair(clock, now)
        memo = self._read_memory()
        wanted = None
        if request is not None and request.error is None and (request.deal is not None
                                                               or request.board is not None):
            wanted = _Wanted(request.variant or "freecell", request.deal, request.board)
        if memo is not None and (wanted is None or wanted.matches(memo.variant, memo.deal, memo.board)):
            got = self._open_memory(memo, clock, now)
            if got is not None and got.game is not None:
                return got.losing(lost)
            lost |= frozenset() if got is None else got.lost
        if wanted is not None:
            found = self.find(wanted.deal, wanted.variant, wanted.board, busy)
            got = None if found is None else self.resume(found.id, clock, now)
            if got is not None and got.game is not None:
                return got.losing(lost)
            lost |= frozenset() if got is None else got.lost
            if wanted.board is not None:
                game = Game(position=wanted.board, variant=wanted.variant, clock=clock)
            else:
                game = Game(wanted.deal, variant=wanted.variant, clock=clock)
            self.start(game)
            return Restored(game, lost=lost)
        for s in self.unfinished():
            if s.id not in busy:
                got = self.resume(s.id, clock, now)
                if got is not None and got.game is not None:
                    return got.losing(lost)
                lost |= frozenset() if got is None else got.lost
        return Restored(None, lost=lost)

    def repair(self, clock: Callable[[], float] = time.monotonic, now: float = 0.0) -> frozenset[Lost]:
        """Rebuild every damaged head from its key and chunks (:mod:`.save_repair`), so that its game
        is listed again; drop what cannot be.  What the player lost (:attr:`Lost.GAME`, or nothing).

        A newer page's head is left as it is; so is a damaged one whose repair could not be written
        (storage full): the next load tries again.
        """
        lost: frozenset[Lost] = frozenset()
        for key in self.entries.heads():
            if isinstance(key, str):
                got = load(self.entries, key, clock, now)
                lost |= GAME_LOST if got is not None and got.damaged else frozenset()
        return lost

    def resume(self, game_id: str, clock: Callable[[], float] = time.monotonic,
               now: float = 0.0) -> Restored | None:
        """Bring the stored game ``game_id`` onto this tab (also: "reload that game here").

        ``None`` if there is no such game, or a newer page wrote it (left
        as it is, not used here).  A damaged history keeps its longest legal
        prefix; a damaged head is rebuilt from its key and chunks
        (:mod:`.save_repair`), or the game is dropped if it cannot be (a
        board); either way ``lost`` says so, and the entry is written anew,
        so the damage is reported once.
        """
        key = self.entries.key_of(game_id)
        if key is None:
            return None
        got = load(self.entries, key, clock, now)
        if got is None:
            return None
        if got.slot is None:
            return Restored(None, lost=GAME_LOST)
        self._slot = slot = got.slot
        self._remember()
        live = len(slot.history.turns) + len(slot.history.redo)
        if not got.damaged and slot.head.n > 2 * live + COMPACT_SLACK:  # compacted at the next move
            slot.pending, slot.rewrite = all_records(slot), True
        return Restored(slot.game, resumed=True, lost=GAME_LOST if got.damaged else frozenset())

    def start(self, game: Game) -> Left:
        """``game`` (a new deal, a board, a link's game) is this tab's from now on.

        It is written at its first save that has a record to write.  Save
        the game on the table first.  Returns the game left: it stays in the
        list if it was saved (``kept``); if not, and it had started, it is
        gone (the statistics may count it abandoned).
        """
        left = Left(None, False)
        if self._slot is not None:
            old = self._slot
            left = Left(old.head.id, old.text is not None and self.local.read(old.head.key) is not None)
        self._slot = self._new_slot(self._new_id(), game)
        self._remember()
        return left

    def fork(self, now: float) -> SaveResult:
        """Keep this tab's game as a game of its own (a new id), e.g. after a conflict, and save it."""
        if self._slot is None:
            return SaveResult(SaveOutcome.SAVED)
        game = self._slot.game
        history, watched = self._slot.history, self._slot.watched
        self._slot = Slot(game, new_head(self._new_id(), game), history, watched=watched)
        self._slot.pending = all_records(self._slot)
        self._remember()
        return self.entries.write(self._slot, now)

    def discard(self, game_id: str) -> None:
        """Remove a saved game (the player threw it away from the list)."""
        key = self.entries.key_of(game_id)
        if key is not None:
            self.entries.remove(key)

    # --- saving --------------------------------------------------------------------
    def save(self, game: Game, now: float) -> SaveResult:
        """Write what changed in ``game`` (this tab's game; another becomes it, as by :meth:`start`).

        Call it after every move, undo, redo, restart and Finish step, and
        when the page is hidden or closed.  A game that has no record yet (a
        deal opened and not touched) is not written.
        """
        slot = self._slot
        if slot is None or game is not slot.game:
            self.start(game)
            slot = self._slot_of(game)
        if slot.conflict:
            return SaveResult(SaveOutcome.CONFLICT)
        records = slot.history.diff(game)
        if records is None or records:
            slot.played = True
        if records is None:  # start or redo not known: the whole history anew
            slot.pending, slot.history = records_of(game)
            slot.rewrite = slot.text is not None
        else:
            slot.pending += records
            if slot.head.n + len(slot.pending) > COMPACT_AT and slot.text is not None:
                slot.pending, slot.rewrite = all_records(slot), True  # never near the format's cap
        return self.entries.write(slot, now)

    # --- other tabs ------------------------------------------------------------------
    def changed(self, key: str | None) -> StorageChange:
        """What a storage event's key (``None``: the store was cleared) means for this tab.

        For this tab's game: whether another tab wrote it (``conflict``;
        saving is then off until :meth:`resume`).
        """
        if key is None:
            return StorageChange(KeyKind.CLEARED, self.game_id, self._slot is not None)
        if key == KEY_STATS:
            return StorageChange(KeyKind.STATS)
        if key == KEY_SETTINGS:
            return StorageChange(KeyKind.SETTINGS)
        parsed = parse_key(key)
        if parsed is None:
            return StorageChange(KeyKind.OTHER)
        slot = self._slot
        ours = slot is not None and parsed.id == slot.head.id
        conflict = False
        if slot is not None and ours and parsed.gen is None:
            stored = self.local.read(key)
            conflict = stored is not None and stored != slot.text and not slot.take_up(stored)
            slot.conflict = slot.conflict or conflict
        return StorageChange(KeyKind.GAME, parsed.id, ours, conflict)

    # --- older pages -------------------------------------------------------------------
    def migrate(self, now: float, clock: Callable[[], float] = time.monotonic) -> bool:
        """Move the single saved game of older pages (``freecell.game``) into the list; ``True`` if damaged.

        The game keeps its longest legal prefix; it is kept under the id
        :data:`LEGACY_ID` (older statistics know it by that id), and the old
        entry goes once it is written.
        """
        text = self.local.read(KEY_GAME)
        if text is None:
            return False
        try:
            game, damaged = load_game(text, clock, keep_prefix=True)
        except StoredDataError:
            self.local.remove(KEY_GAME)
            return True
        if self.entries.key_of(LEGACY_ID) is None and (game.moves or game.can_redo()):
            records, _history = records_of(game)
            fresh = start_game(new_head(LEGACY_ID, game), clock)  # played again, so its history is exact
            slot = self._new_slot(LEGACY_ID, fresh)
            for record in records:
                slot.history.apply(fresh, record)
            fresh.clock.reset(game.elapsed())
            slot.pending = records
            if self.entries.write(slot, now).outcome is not SaveOutcome.SAVED:
                return damaged
        self.local.remove(KEY_GAME)
        return damaged

    # --- inside ------------------------------------------------------------------------
    def _slot_of(self, game: Game) -> Slot:
        slot = self._slot
        if slot is None or slot.game is not game:
            raise RuntimeError("that game is not this tab's")  # start() has just made it so
        return slot

    def _new_slot(self, game_id: str, game: Game) -> Slot:
        records, history = records_of(game)
        return Slot(game, new_head(game_id, game), history, pending=records)

    def _remember(self) -> None:
        slot = self._slot
        if slot is not None:
            h = slot.head
            self.tab.write(KEY_TAB, TabMemory(h.id, h.variant, h.deal, h.board).to_json())

    def _read_memory(self) -> TabMemory | None:
        """The tab's memory; unreadable, it is none (the games are all in the list: nothing is lost)."""
        try:
            return TabMemory.from_json(self.tab.read(KEY_TAB))
        except StoredDataError:
            return None

    def _open_memory(self, memo: TabMemory, clock: Callable[[], float], now: float) -> Restored | None:
        """The tab's own game: from storage if it was saved, else its start again (same id)."""
        if self.entries.key_of(memo.id) is not None:
            return self.resume(memo.id, clock, now)
        head = Head(memo.id, memo.variant, memo.deal, memo.board,
                    VARIANTS[memo.variant].rules if memo.variant else FREECELL)
        try:
            game = start_game(head, clock)
        except SaveFormatError:
            return None
        self._slot = self._new_slot(memo.id, game)
        self._remember()
        return Restored(game)
