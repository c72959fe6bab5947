"""The saved games of an origin, as entries of a key-value store: read, listed, written, removed.

:class:`SaveEntries` is the part of :class:`freecell.ui.progress.saved_games.SaveStore` that
knows the store (every tab shares it): the heads listed as
:class:`Summary` values, a game's records read back, and a :class:`Slot`
(one game with the records it knows and what of them is written) written
in the format of :mod:`freecell.ui.progress.save_format`:

- the first write of a game makes room first: the unfinished games beyond
  the limit go, the oldest first, and are named in the result (so the
  statistics count them as abandoned), and the won games beyond a few;
  then a head counting no record, then the records, then the head again;
- later writes put the pending records after the counted ones (the last
  chunk rewritten, new chunks added) and then the head that counts them;
- a write anew (a history compacted, repaired, or not known) goes into the
  next generation, whose head is written last; the old chunks go after it;
- only a tab that changed the game writes it: a game opened, shown or
  reloaded and not played is never written (no revision counted up);
- before any write the stored head is compared with the text this slot
  last wrote or read: another tab's newer records make the result
  :attr:`SaveOutcome.CONFLICT` and nothing is written (a head that says only
  a newer clock is taken up); a head that went (dropped by another tab, the
  store cleared) is written anew;
- a failed write (full, refused) makes room by removing won games once,
  and otherwise gives :attr:`SaveOutcome.FAILED`; the slot keeps what is
  pending for the next write.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field, replace
from enum import StrEnum

from ...game import Game
from ...rules import FREECELL, Rules
from .keyvalue import KeyValue
from .save_format import (
    CHUNK,
    MAX_WALL,
    NO_VARIANT,
    UNDO,
    Head,
    History,
    NewerSaveError,
    SaveFormatError,
    chunk_key,
    chunk_records,
    chunks_of,
    head_key,
    parse_key,
    read_head,
    records_of,
)
from .stats import stats_key

LIMIT = 20  # unfinished games kept
KEEP_FINISHED = 5  # won games kept (for a reload of their tab)


class SaveOutcome(StrEnum):
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
    outcome: SaveOutcome
    dropped: tuple[Summary, ...] = ()  # unfinished games dropped from the list to make room

    @property
    def ok(self) -> bool:
        return self.outcome is SaveOutcome.SAVED


@dataclass(slots=True)
class Slot:
    """A game as this store keeps it: the game, the records it knows, what is written."""

    game: Game
    head: Head  # as last written (or read); before the first write, the head to write
    history: History
    text: str | None = None  # the stored head's text as last written or read; None: not stored
    tail: list[str] = field(default_factory=list)  # the counted records of the last chunk
    pending: list[str] = field(default_factory=list)  # records not written yet
    rewrite: bool = False  # pending is the whole history, for the next generation
    conflict: bool = False
    played: bool = True  # this tab changed the game since it took it up: only then does it write
    watched: bool = False  # the solver or a link played some of it: written in the head, never a win

    def take_up(self, stored: str | None) -> bool:
        """Whether ``stored`` (the head in the store now) says no more than this slot knows: the
        same records (another tab wrote only its clock); it is then this slot's head from now on.

        Only newer records (moves, undo, redo, a compaction) make another tab's write a conflict.
        """
        if stored is None or self.text is None:
            return False
        try:
            head = read_head(stored, self.head.key)
        except SaveFormatError:
            return False
        if (head.id, head.gen, head.n) != (self.head.id, self.head.gen, self.head.n):
            return False
        self.head, self.text = head, stored
        return True


def random_id() -> str:
    return secrets.token_hex(5)


class SaveEntries:
    """The saved games in ``local``; ``writer`` names this tab in what it writes."""

    def __init__(self, local: KeyValue, writer: str, limit: int = LIMIT,
                 keep_finished: int = KEEP_FINISHED) -> None:
        self.local = local
        self.writer = writer
        self.limit = max(1, limit)
        self.keep_finished = max(0, keep_finished)
        self._nothing_to_free = False

    def read_records(self, head: Head) -> tuple[list[str], bool]:
        """The records ``head`` counts, as stored, and whether some are missing or unreadable.

        A damaged chunk keeps its records before the damage, and the
        reading stops there (so does a chunk short of :data:`CHUNK` records
        before the last one).
        """
        return generation_records(self.local, head.key, head.gen, head.n)

    def summaries(self) -> list[Summary]:
        """Every saved game that can be read, the most recently played first."""
        heads = [s for s in self.heads() if isinstance(s, Summary)]
        return sorted(heads, key=lambda s: (s.played, s.rev, s.id), reverse=True)

    def key_of(self, game_id: str) -> str | None:
        keys = self.local.keys()
        for key in keys:
            parsed = parse_key(key)
            if parsed is not None and parsed.gen is None and parsed.id == game_id:
                return key
        return None

    def heads(self) -> list[Summary | str]:
        """A summary of every saved game's head; the key where a head is damaged.

        A newer page's head is neither: it is not this page's to list, use or remove.
        """
        out: list[Summary | str] = []
        keys = self.local.keys()
        for key in keys:
            parsed = parse_key(key)
            if parsed is None or parsed.gen is not None:
                continue
            try:
                out.append(Summary.of(read_head(self.local.read(key), key)))
            except NewerSaveError:
                continue
            except SaveFormatError:
                out.append(key)
        return out

    def write(self, slot: Slot, now: float) -> SaveResult:
        if slot.text is not None and not slot.played:
            return SaveResult(SaveOutcome.SAVED)  # opened or shown, not played here: nothing to write
        stored = self.local.read(slot.head.key)
        if stored != slot.text and not slot.take_up(stored):
            if slot.text is None or stored is not None:  # another tab wrote it: never over it
                slot.conflict = True
                return SaveResult(SaveOutcome.CONFLICT)
            slot.text = None  # it went (dropped by another tab, or cleared): written anew
            slot.pending, slot.rewrite = all_records(slot), False
            slot.tail = []
        if slot.text is None:
            if not slot.pending:
                return SaveResult(SaveOutcome.SAVED)  # nothing to keep yet
            dropped = self._make_room(slot.head.id)
            gen = slot.head.gen + (1 if slot.head.rev else 0)  # written anew: a generation of its own
            first = self._head_now(slot, now, gen, 0, slot.head.rev + 1)
            text = first.to_json()
            if not self._put(first.key, text, slot.head.id):
                return SaveResult(SaveOutcome.FAILED, dropped)
            slot.head, slot.text, slot.tail, slot.rewrite = first, text, [], False
            return replace(self._append(slot, now), dropped=dropped)
        if slot.rewrite:
            return self._rewrite(slot, now)
        if not slot.pending and slot.watched == slot.head.watched \
                and _same(slot.game, slot.head, len(slot.history.redo)):
            return SaveResult(SaveOutcome.SAVED)
        return self._append(slot, now)

    def _append(self, slot: Slot, now: float) -> SaveResult:
        """The pending records after the counted ones, then the head that counts them."""
        old = slot.head
        todo = slot.tail + slot.pending
        first = old.n - len(slot.tail)
        for index, text in chunks_of(todo, first):
            if not self._put(old.chunk(index), text, old.id):
                return SaveResult(SaveOutcome.FAILED)
        head = self._head_now(slot, now, old.gen, old.n + len(slot.pending), old.rev + 1)
        return self._commit(slot, head, todo)

    def _rewrite(self, slot: Slot, now: float) -> SaveResult:
        """The whole history into the next generation, then the head naming it; then the old chunks go."""
        old = slot.head
        gen = old.gen + 1
        for index, text in chunks_of(slot.pending):
            if not self._put(old.chunk(index, gen), text, old.id):
                return SaveResult(SaveOutcome.FAILED)
        head = self._head_now(slot, now, gen, len(slot.pending), old.rev + 1)
        result = self._commit(slot, head, slot.pending)
        if result.ok:
            for index in range(math.ceil(old.n / CHUNK) + 1):
                self.local.remove(old.chunk(index))
        return result

    def _commit(self, slot: Slot, head: Head, written: list[str]) -> SaveResult:
        text = head.to_json()
        if not self._put(head.key, text, head.id):
            return SaveResult(SaveOutcome.FAILED)
        count = head.n % CHUNK
        slot.head, slot.text, slot.pending, slot.rewrite = head, text, [], False
        slot.tail = written[len(written) - count:] if count else []
        return SaveResult(SaveOutcome.SAVED)

    def _head_now(self, slot: Slot, now: float, gen: int, n: int, rev: int) -> Head:
        """The head of a slot's game as it stands now, counting ``n`` records of generation ``gen``."""
        game, old = slot.game, slot.head
        played = float(now) if isinstance(now, (int, float)) and math.isfinite(now) else 0.0
        return Head(old.id, old.variant, old.deal, old.board, game.rules, game.auto_move, gen, n, rev,
                    self.writer, game.moves, len(slot.history.redo), game.cards_home(), game.is_won(),
                    min(max(0.0, game.elapsed()), 1e9 - 1), min(max(0.0, played), MAX_WALL),
                    slot.watched or old.watched)

    def _put(self, key: str, text: str, own: str) -> bool:
        """Write; when that fails, make room by removing the won games (not ``own``) and try once more."""
        if self.local.write(key, text):
            self._nothing_to_free = False
            return True
        if self._nothing_to_free:
            return False  # the last look found no won game to remove: not again on every failed save
        won = [s for s in self.summaries() if s.won and s.id != own]
        for s in won:
            self.remove(s.key)
        self._nothing_to_free = not won
        return bool(won) and self.local.write(key, text)

    def _make_room(self, own: str) -> tuple[Summary, ...]:
        """Room for one more unfinished game: the oldest beyond the limit go (named), and old won ones.

        A head that cannot be read stays (a newer page's, or a damaged one the next load rebuilds).
        """
        entries = self.heads()
        games = sorted((s for s in entries if isinstance(s, Summary) and s.id != own),
                       key=lambda s: (s.played, s.rev, s.id), reverse=True)
        unfinished = [s for s in games if not s.won]
        won = [s for s in games if s.won]
        dropped = tuple(unfinished[self.limit - 1:])
        for s in (*dropped, *won[self.keep_finished:]):
            self.remove(s.key)
        self.collect(None)
        return dropped

    def remove(self, key: str) -> None:
        """A game's head, then its chunks (a removal torn between leaves chunks :meth:`collect` finds)."""
        self.local.remove(key)
        keys = self.local.keys()
        for other in keys:
            if other.startswith(key + "."):
                self.local.remove(other)

    def collect(self, head: Head | None) -> None:
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


def generation_records(local: KeyValue, key: str, gen: int, n: int) -> tuple[list[str], bool]:
    """Up to ``n`` records of generation ``gen`` of the game whose head is under ``key``, read from
    its chunks in order, and whether fewer could be read (a chunk missing, damaged or short)."""
    records: list[str] = []
    for index in range(math.ceil(n / CHUNK)):
        got, whole = chunk_records(local.read(chunk_key(key, gen, index)))
        records += got
        if not whole or len(records) < min(n, (index + 1) * CHUNK):
            break
    return records[:n], len(records) < n


def all_records(slot: Slot) -> list[str]:
    """The whole history of a slot's game as records."""
    history = slot.history
    if history.exact and None not in history.redo:
        redo = [t.text() for t in reversed(history.redo) if t is not None]
        return [t.text() for t in history.turns] + redo + [UNDO] * len(redo)
    records, slot.history = records_of(slot.game)
    return records

