"""Every unfinished game kept: one entry per game, what each tab plays, and other tabs.

:class:`SaveStore` keeps games in a key-value store (:class:`~.keyvalue.KeyValue`:
the page gives it ``localStorage``), each game under keys of its own (variant,
deal or board, and an id; the format is in :mod:`freecell.ui.records`), and
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
  head.  It says :attr:`Outcome.FAILED` when a write failed (full,
  refused): the game plays on, and the next save tries again;
- two tabs never overwrite each other: each save first compares the stored
  head with the one this tab last wrote or read; if another tab wrote the
  game since, nothing is written and the save says
  :attr:`Outcome.CONFLICT` (the page shows ``data-notice="other-tab"`` and
  offers :meth:`SaveStore.resume` of that game, which brings the newer
  moves here; :meth:`SaveStore.fork` keeps this tab's moves as a game of
  their own instead).  :meth:`SaveStore.changed` reads a storage event's key.

Time is passed in: ``now`` is the wall clock (the page's ``Date.now()``,
milliseconds), kept as "last played"; ``clock`` is the monotonic clock a
restored :class:`~freecell.game.Game` runs on.  Nothing here reads a clock.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .. import safejson
from ..game import Game
from ..position import BoardError, Position
from ..rules import FREECELL, Rules
from ..variants import VARIANTS
from .keyvalue import KeyValue, MemoryStorage
from .records import (
    CHUNK,
    ID_SHAPE,
    MAX_WALL,
    NO_VARIANT,
    UNDO,
    Head,
    History,
    SaveFormatError,
    chunks_of,
    head_key,
    new_head,
    parse_key,
    read_head,
    records_of,
    replay,
    split_chunk,
    start_game,
)
from .start import StartRequest
from .stats import stats_key
from .store import KEY_GAME, KEY_SETTINGS, KEY_STATS, StoredDataError, load_game

LIMIT = 20  # unfinished games kept
KEEP_FINISHED = 5  # won games kept (for a reload of their tab)
KEY_TAB = "freecell.tab"  # in the tab's own store: the game this tab plays
TAB_FORMAT = "freecell-tab"
LEGACY_ID = "v1"  # the id of the game found in the single slot of older pages
COMPACT_SLACK = 256  # records beyond twice the history that make a load write it anew
COMPACT_AT = 100_000  # records that make a save write the history anew (far below records.MAX_RECORDS)


class Outcome(StrEnum):
    SAVED = "saved"  # written, or nothing needed writing
    FAILED = "failed"  # a write failed (full, refused): not saved; tried again at the next save
    CONFLICT = "conflict"  # another tab saved this game since this tab read it: nothing written


@dataclass(frozen=True, slots=True)
class Summary:
    """One saved game, as the list of unfinished games shows it."""

    id: str
    variant: str | None  # None: a game of rules without a variant (older saves)
    deal: int | None
    board: str | None  # the start as board text, for a game that is not a deal's start
    moves: int  # turns on the table
    redo: int  # turns that can be redone
    home: int  # cards on the foundations
    won: bool
    played: float  # the wall clock when it was last saved
    rev: int
    rules: Rules = FREECELL

    @classmethod
    def of(cls, head: Head) -> Summary:
        return cls(head.id, head.variant, head.deal, head.board, head.moves, head.redo, head.home, head.won,
                   head.played, head.rev, head.rules)

    @property
    def key(self) -> str:
        return head_key(self.variant or NO_VARIANT, self.deal, self.id)

    @property
    def stats_key(self) -> str | None:
        """The key of this game's deal in the statistics (``None`` for a board)."""
        return stats_key(self.variant, self.deal, self.rules)


@dataclass(frozen=True, slots=True)
class SaveResult:
    outcome: Outcome
    dropped: tuple[Summary, ...] = ()  # unfinished games dropped from the list to make room

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.SAVED


@dataclass(frozen=True, slots=True)
class Restored:
    """What :meth:`SaveStore.restore` (or :meth:`SaveStore.resume`) brought back.

    ``game``: the game for the table (``None``: nothing to bring back; the
    page deals one and calls :meth:`SaveStore.start`); ``resumed``: it came
    from storage with its history; ``damaged``: something stored could not
    be used (the page says so once).
    """

    game: Game | None
    resumed: bool = False
    damaged: bool = False


@dataclass(frozen=True, slots=True)
class Left:
    """The game a tab left for another: its id, and whether it can be found again in the list."""

    id: str | None
    kept: bool


class ChangeKind(StrEnum):
    GAME = "game"  # a saved game's entry
    STATS = "stats"
    SETTINGS = "settings"
    CLEARED = "cleared"  # the whole store was cleared
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class StorageChange:
    """What a storage event's key means here (see :meth:`SaveStore.changed`)."""

    kind: ChangeKind
    id: str | None = None  # the game whose entry changed
    ours: bool = False  # it is the game on this tab
    conflict: bool = False  # another tab wrote it: this tab must not save over it


@dataclass(frozen=True, slots=True)
class TabMemory:
    """What a tab remembers of its game: the id, and the start (to deal it again if it was not saved)."""

    id: str
    variant: str | None
    deal: int | None
    board: str | None

    def to_json(self) -> str:
        data: dict[str, object] = {"format": TAB_FORMAT, "version": 1, "id": self.id, "variant": self.variant}
        if self.deal is not None:
            data["deal"] = self.deal
        if self.board is not None:
            data["board"] = self.board
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: object) -> TabMemory:
        """:class:`StoredDataError` unless ``text`` is exactly a tab's memory."""
        data = safejson.load_record(text, TAB_FORMAT, 12_000, "the tab's memory", StoredDataError, 1)
        game_id, variant = data.get("id"), data.get("variant")
        deal, board = data.get("deal"), data.get("board")
        if set(data) - {"format", "version", "id", "variant", "deal", "board"} \
                or not isinstance(game_id, str) or not ID_SHAPE.fullmatch(game_id) \
                or not (variant is None or (isinstance(variant, str) and variant in VARIANTS)) \
                or not (deal is None or (type(deal) is int and 0 < deal < 2**33)) \
                or not (board is None or isinstance(board, str)) or (deal is None and board is None):
            raise StoredDataError("the tab's memory is wrong")
        return cls(game_id, variant, deal, board)


@dataclass(slots=True)
class _Slot:
    """A game as this store keeps it: the game, the records it knows, what is written."""

    game: Game
    head: Head  # as last written (or read); before the first write, the head to write
    history: History
    text: str | None = None  # the stored head's text as last written or read; None: not stored
    tail: list[str] = field(default_factory=list)  # the counted records of the last chunk
    pending: list[str] = field(default_factory=list)  # records not written yet
    rewrite: bool = False  # pending is the whole history, for the next generation
    conflict: bool = False


def _random_id() -> str:
    return secrets.token_hex(5)


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
        self.writer = writer if writer is not None and ID_SHAPE.fullmatch(writer) else _random_id()
        self._new_id = new_id or _random_id
        self.limit = max(1, limit)
        self.keep_finished = max(0, keep_finished)
        self._slot: _Slot | None = None
        self._nothing_to_free = False

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
    def stored(self) -> bool:
        """Whether this tab's game has an entry in the store (it has been saved once)."""
        return self._slot is not None and self._slot.text is not None

    # --- listing -------------------------------------------------------------------
    def summaries(self) -> list[Summary]:
        """Every saved game that can be read, the most recently played first."""
        heads = [s for s in self._heads() if isinstance(s, Summary)]
        return sorted(heads, key=lambda s: (s.played, s.rev, s.id), reverse=True)

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
                busy: Collection[str] = ()) -> Restored:
        """The game for this tab as the page opens: see the module's docstring.

        ``request`` is what the address asks for (a request with an error
        asks for nothing); ``busy``: ids of games other tabs are known to
        play, not taken by a plain address.  The game returned is this tab's
        from now on.
        """
        memo, damaged = self._read_memory()
        wanted = None
        if request is not None and request.error is None and (request.deal is not None
                                                               or request.board is not None):
            wanted = _Wanted(request.variant or "freecell", request.deal, request.board)
        if memo is not None and (wanted is None or wanted.matches(memo.variant, memo.deal, memo.board)):
            got = self._open_memory(memo, clock)
            if got is not None and got.game is not None:
                return replace(got, damaged=got.damaged or damaged)
            damaged = damaged or (got is not None and got.damaged)
        if wanted is not None:
            found = self.find(wanted.deal, wanted.variant, wanted.board, busy)
            got = None if found is None else self.resume(found.id, clock)
            if got is not None and got.game is not None:
                return replace(got, damaged=got.damaged or damaged)
            damaged = damaged or (got is not None and got.damaged)
            if wanted.board is not None:
                game = Game(position=wanted.board, variant=wanted.variant, clock=clock)
            else:
                game = Game(wanted.deal, variant=wanted.variant, clock=clock)
            self.start(game)
            return Restored(game, damaged=damaged)
        for s in self.unfinished():
            if s.id not in busy:
                got = self.resume(s.id, clock)
                if got is not None and got.game is not None:
                    return replace(got, damaged=got.damaged or damaged)
                damaged = damaged or (got is not None and got.damaged)
        return Restored(None, damaged=damaged)

    def resume(self, game_id: str, clock: Callable[[], float] = time.monotonic) -> Restored | None:
        """Bring the stored game ``game_id`` onto this tab (also: "reload that game here").

        ``None`` if there is no such game.  A damaged history keeps its
        longest legal prefix (``damaged``); a head that cannot be read at all
        gives its deal started over (``damaged``), or nothing for a board.
        Either way the entry is written anew, so the damage is reported once.
        """
        key = self._key_of(game_id)
        if key is None:
            return None
        text = self.local.read(key)
        try:
            head = read_head(text, key)
        except SaveFormatError:
            return self._start_over(key, clock)
        records: list[str] = []
        damaged = False
        for index in range(math.ceil(head.n / CHUNK)):
            try:
                records += split_chunk(self.local.read(head.chunk(index)))
            except SaveFormatError:
                damaged = True
                break
        records = records[:head.n]
        try:
            game, history, played = replay(head, records, clock)
        except SaveFormatError:
            return self._start_over(key, clock)
        damaged = damaged or played < head.n
        slot = _Slot(game, head, history, text, tail=records[head.n - head.n % CHUNK:])
        self._slot = slot
        self._remember()
        live = len(history.turns) + len(history.redo)
        if damaged or head.n > 2 * live + COMPACT_SLACK:  # write it anew: repaired, or compacted
            slot.pending, slot.rewrite = _all_records(slot), True
            self._write(slot, head.played)
        self._collect(head)
        return Restored(game, resumed=True, damaged=damaged)

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
            return SaveResult(Outcome.SAVED)
        game = self._slot.game
        history = self._slot.history
        self._slot = _Slot(game, new_head(self._new_id(), game), history)
        self._slot.pending = _all_records(self._slot)
        self._remember()
        return self._write(self._slot, now)

    def discard(self, game_id: str) -> None:
        """Remove a saved game (the player threw it away from the list)."""
        key = self._key_of(game_id)
        if key is not None:
            self._remove(key)

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
            return SaveResult(Outcome.CONFLICT)
        records = slot.history.diff(game)
        if records is None:  # start or redo not known: the whole history anew
            slot.pending, slot.history = records_of(game)
            slot.rewrite = slot.text is not None
        else:
            slot.pending += records
            if slot.head.n + len(slot.pending) > COMPACT_AT and slot.text is not None:
                slot.pending, slot.rewrite = _all_records(slot), True  # never near the format's cap
        return self._write(slot, now)

    # --- other tabs ------------------------------------------------------------------
    def changed(self, key: str | None) -> StorageChange:
        """What a storage event's key (``None``: the store was cleared) means for this tab.

        For this tab's game: whether another tab wrote it (``conflict``;
        saving is then off until :meth:`resume`).
        """
        if key is None:
            return StorageChange(ChangeKind.CLEARED, self.game_id, self._slot is not None)
        if key == KEY_STATS:
            return StorageChange(ChangeKind.STATS)
        if key == KEY_SETTINGS:
            return StorageChange(ChangeKind.SETTINGS)
        parsed = parse_key(key)
        if parsed is None:
            return StorageChange(ChangeKind.OTHER)
        slot = self._slot
        ours = slot is not None and parsed.id == slot.head.id
        conflict = False
        if slot is not None and ours and parsed.gen is None:
            stored = self.local.read(key)
            conflict = stored is not None and stored != slot.text
            slot.conflict = slot.conflict or conflict
        return StorageChange(ChangeKind.GAME, parsed.id, ours, conflict)

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
        if self._key_of(LEGACY_ID) is None and (game.moves or game.can_redo()):
            records, _history = records_of(game)
            fresh = start_game(new_head(LEGACY_ID, game), clock)  # played again, so its history is exact
            slot = self._new_slot(LEGACY_ID, fresh)
            for record in records:
                slot.history.apply(fresh, record)
            fresh.clock.reset(game.elapsed())
            slot.pending = records
            if self._write(slot, now).outcome is not Outcome.SAVED:
                return damaged
        self.local.remove(KEY_GAME)
        return damaged

    # --- inside ------------------------------------------------------------------------
    def _slot_of(self, game: Game) -> _Slot:
        slot = self._slot
        if slot is None or slot.game is not game:
            raise RuntimeError("that game is not this tab's")  # start() has just made it so
        return slot

    def _new_slot(self, game_id: str, game: Game) -> _Slot:
        records, history = records_of(game)
        return _Slot(game, new_head(game_id, game), history, pending=records)

    def _remember(self) -> None:
        slot = self._slot
        if slot is not None:
            h = slot.head
            self.tab.write(KEY_TAB, TabMemory(h.id, h.variant, h.deal, h.board).to_json())

    def _read_memory(self) -> tuple[TabMemory | None, bool]:
        text = self.tab.read(KEY_TAB)
        if text is None:
            return None, False
        try:
            return TabMemory.from_json(text), False
        except StoredDataError:
            return None, True

    def _open_memory(self, memo: TabMemory, clock: Callable[[], float]) -> Restored | None:
        """The tab's own game: from storage if it was saved, else its start again (same id)."""
        if self._key_of(memo.id) is not None:
            return self.resume(memo.id, clock)
        head = Head(memo.id, memo.variant, memo.deal, memo.board,
                    VARIANTS[memo.variant].rules if memo.variant else FREECELL)
        try:
            game = start_game(head, clock)
        except SaveFormatError:
            return None
        self._slot = self._new_slot(memo.id, game)
        self._remember()
        return Restored(game)

    def _start_over(self, key: str, clock: Callable[[], float]) -> Restored:
        """A head that cannot be read: its deal (named by the key) starts over, under the same id."""
        parsed = parse_key(key)
        self._remove(key)
        if parsed is None or parsed.deal is None or parsed.variant not in VARIANTS:
            return Restored(None, damaged=True)
        game = Game(parsed.deal, variant=parsed.variant, clock=clock)
        self._slot = self._new_slot(parsed.id, game)
        self._remember()
        return Restored(game, damaged=True)

    def _key_of(self, game_id: str) -> str | None:
        keys = self.local.keys()
        for key in keys:
            parsed = parse_key(key)
            if parsed is not None and parsed.gen is None and parsed.id == game_id:
                return key
        return None

    def _heads(self) -> list[Summary | str]:
        """A summary of every saved game's head; the key where a head cannot be read."""
        out: list[Summary | str] = []
        keys = self.local.keys()
        for key in keys:
            parsed = parse_key(key)
            if parsed is None or parsed.gen is not None:
                continue
            try:
                out.append(Summary.of(read_head(self.local.read(key), key)))
            except SaveFormatError:
                out.append(key)
        return out

    def _write(self, slot: _Slot, now: float) -> SaveResult:
        stored = self.local.read(slot.head.key)
        if stored != slot.text:
            if slot.text is None or stored is not None:  # another tab wrote it: never over it
                slot.conflict = True
                return SaveResult(Outcome.CONFLICT)
            slot.text = None  # it went (dropped by another tab, or cleared): written anew
            slot.pending, slot.rewrite = _all_records(slot), False
            slot.tail = []
        if slot.text is None:
            if not slot.pending:
                return SaveResult(Outcome.SAVED)  # nothing to keep yet
            dropped = self._make_room(slot.head.id)
            gen = slot.head.gen + (1 if slot.head.rev else 0)  # written anew: a generation of its own
            first = self._head_now(slot, now, gen, 0, slot.head.rev + 1)
            text = first.to_json()
            if not self._put(first.key, text, slot.head.id):
                return SaveResult(Outcome.FAILED, dropped)
            slot.head, slot.text, slot.tail, slot.rewrite = first, text, [], False
            return replace(self._append(slot, now), dropped=dropped)
        if slot.rewrite:
            return self._rewrite(slot, now)
        if not slot.pending and _same(slot.game, slot.head, len(slot.history.redo)):
            return SaveResult(Outcome.SAVED)
        return self._append(slot, now)

    def _append(self, slot: _Slot, now: float) -> SaveResult:
        """The pending records after the counted ones, then the head that counts them."""
        old = slot.head
        todo = slot.tail + slot.pending
        first = old.n - len(slot.tail)
        for index, text in chunks_of(todo, first):
            if not self._put(old.chunk(index), text, old.id):
                return SaveResult(Outcome.FAILED)
        head = self._head_now(slot, now, old.gen, old.n + len(slot.pending), old.rev + 1)
        return self._commit(slot, head, todo)

    def _rewrite(self, slot: _Slot, now: float) -> SaveResult:
        """The whole history into the next generation, then the head naming it; then the old chunks go."""
        old = slot.head
        gen = old.gen + 1
        for index, text in chunks_of(slot.pending):
            if not self._put(old.chunk(index, gen), text, old.id):
                return SaveResult(Outcome.FAILED)
        head = self._head_now(slot, now, gen, len(slot.pending), old.rev + 1)
        result = self._commit(slot, head, slot.pending)
        if result.ok:
            for index in range(math.ceil(old.n / CHUNK) + 1):
                self.local.remove(old.chunk(index))
        return result

    def _commit(self, slot: _Slot, head: Head, written: list[str]) -> SaveResult:
        text = head.to_json()
        if not self._put(head.key, text, head.id):
            return SaveResult(Outcome.FAILED)
        count = head.n % CHUNK
        slot.head, slot.text, slot.pending, slot.rewrite = head, text, [], False
        slot.tail = written[len(written) - count:] if count else []
        return SaveResult(Outcome.SAVED)

    def _head_now(self, slot: _Slot, now: float, gen: int, n: int, rev: int) -> Head:
        """The head of a slot's game as it stands now, counting ``n`` records of generation ``gen``."""
        game, old = slot.game, slot.head
        played = float(now) if isinstance(now, (int, float)) and math.isfinite(now) else 0.0
        return Head(old.id, old.variant, old.deal, old.board, game.rules, game.auto_move, gen, n, rev,
                    self.writer, game.moves, len(slot.history.redo), game.cards_home(), game.is_won(),
                    min(max(0.0, game.elapsed()), 1e9 - 1), min(max(0.0, played), MAX_WALL))

    def _put(self, key: str, text: str, own: str) -> bool:
        """Write; when that fails, make room by removing the won games (not ``own``) and try once more."""
        if self.local.write(key, text):
            self._nothing_to_free = False
            return True
        if self._nothing_to_free:
            return False  # the last look found no won game to remove: not again on every failed save
        won = [s for s in self.summaries() if s.won and s.id != own]
        for s in won:
            self._remove(s.key)
        self._nothing_to_free = not won
        return bool(won) and self.local.write(key, text)

    def _make_room(self, own: str) -> tuple[Summary, ...]:
        """Room for one more unfinished game: the oldest beyond the limit go (named), and old won ones."""
        entries = self._heads()
        for key in entries:
            if isinstance(key, str):
                self._remove(key)  # a head that cannot be read: nothing in it can be used
        games = sorted((s for s in entries if isinstance(s, Summary) and s.id != own),
                       key=lambda s: (s.played, s.rev, s.id), reverse=True)
        unfinished = [s for s in games if not s.won]
        won = [s for s in games if s.won]
        dropped = tuple(unfinished[self.limit - 1:])
        for s in (*dropped, *won[self.keep_finished:]):
            self._remove(s.key)
        self._collect(None)
        return dropped

    def _remove(self, key: str) -> None:
        """A game's head, then its chunks (a removal torn between leaves chunks :meth:`_collect` finds)."""
        self.local.remove(key)
        keys = self.local.keys()
        for other in keys:
            if other.startswith(key + "."):
                self.local.remove(other)

    def _collect(self, head: Head | None) -> None:
        """Remove the chunks of older generations of ``head``'s game, or (``None``) of games gone."""
        keys = self.local.keys()
        heads = {k for k in keys if (p := parse_key(k)) is not None and p.gen is None}
        for key in keys:
            parsed = parse_key(key)
            if parsed is None or parsed.gen is None:
                continue
            if head is None:
                gone = parsed.head not in heads
            else:
                gone = parsed.id == head.id and parsed.gen < head.gen
            if gone:
                self.local.remove(key)


def _same(game: Game, head: Head, redo: int) -> bool:
    """Whether the head would say nothing new of ``game`` (the clock to a tenth of a second)."""
    return (game.moves, redo, game.cards_home(), game.is_won(), game.auto_move, game.rules,
            round(game.elapsed(), 1)) == \
        (head.moves, head.redo, head.home, head.won, head.auto_move, head.rules, round(head.elapsed, 1))


def _all_records(slot: _Slot) -> list[str]:
    """The whole history of a slot's game as records."""
    history = slot.history
    if history.exact and None not in history.redo:
        redo = [t.text() for t in reversed(history.redo) if t is not None]
        return [t.text() for t in history.turns] + redo + [UNDO] * len(redo)
    records, slot.history = records_of(slot.game)
    return records

