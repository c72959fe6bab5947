"""The saved form of one game: a head and append-only chunks of small records.

A game saved by :class:`freecell.ui.progress.saved_games.SaveStore` is a few entries of
the key-value store, all under keys that name the game (variant, deal or
``board``, and an id of its own)::

    freecell.save.freecell.617.k3j9x2        the head: JSON, rewritten at every save
    freecell.save.freecell.617.k3j9x2.0.0    chunk 0 of generation 0: records 0-63
    freecell.save.freecell.617.k3j9x2.0.1    chunk 1: records 64-127 (the last one grows)

A *record* is one change of the history, in the engine's move notation: a
turn (its move and its auto-moves, ``58+1h+2h``; a Finish step is a turn of
one card), ``u`` (undo), ``r`` (redo) or ``s`` (restart).  Records are
separated by spaces; a chunk holds :data:`CHUNK` of them.

The head (:class:`Head`, format ``freecell-save`` version 1) holds the start
(deal number, or board text), the variant and rules, how many records of the
current generation count (``n``), a revision counted up at every write
(``rev``) and by whom (``by``, the tab's writer id), and what the list of
unfinished games shows without replaying anything: turns on the table, turns
to redo, cards home, won or not, the clock, and when it was last played;
and ``watched`` (only when true): the solver played some of it, or it was
opened partway through from a shared link, so it is never counted a win.

Why this shape:

- a save writes the last chunk (at most :data:`CHUNK` records) and then the
  head, whatever the length of the game, so its cost does not grow;
- records only ever go after the ``n`` that count, so a write torn between
  the chunk and the head (the page closed) leaves the old head, which
  ignores the new record: at most the last change is lost;
- a history grown long with undo and redo is written anew, compacted, into
  the next generation (its chunks first, then the head that names it, then
  the old chunks go), so a torn compaction leaves the old generation whole.

Everything read is checked (:func:`read_head`, :func:`chunk_records`) and
every turn is replayed through the engine (:func:`replay_records`): the longest
legal prefix is kept (a chunk's records before a damaged one too) and the
rest reported as damage.  A head of a newer page (a higher version, or
fields this page does not know) raises :class:`NewerSaveError`: that game
is left as it is, neither used nor written over.

What a tab remembers of the game it plays (:class:`TabMemory`, format
``freecell-tab``) is one JSON entry of the tab's own store, under
:data:`KEY_TAB`.

>>> parse_key("freecell.save.eightoff.617.ab12.0.3")
SaveKey(variant='eightoff', deal=617, id='ab12', gen=0, chunk=3)
>>> parse_key("freecell.game") is None
True
"""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ... import safejson
from ...deals import DealNumberError, check_deal_number
from ...game import Game, GameLoadError, Turn
from ...position import BoardError, Position
from ...rules import Rules
from ...variants import VARIANTS
from ..address.link import starts_at_deal
from .damage import is_newer, version_of
from .keyvalue import StoredDataError

PREFIX = "freecell.save."
HEAD_FORMAT = "freecell-save"
HEAD_VERSION = 1
CHUNK = 64  # records per chunk
MAX_HEAD_CHARS = 12_000
MAX_CHUNK_CHARS = CHUNK * 2_001
MAX_RECORDS = 400_000  # per generation; far beyond a real game (compaction keeps it small)
MAX_WALL = 10**15  # the wall clock: milliseconds since 1970 fit
ID_SHAPE = re.compile(r"[0-9a-z]{1,16}")
_KEY = re.compile(r"freecell\.save\.([0-9a-z]{1,16})\.([0-9]{1,10}|board)\.([0-9a-z]{1,16})"
                  r"(?:\.([0-9]{1,6})\.([0-9]{1,6}))?")
_RECORD = re.compile(r"[urs]|[0-9a-ih+x]{2,2000}")
UNDO, REDO, RESTART = "u", "r", "s"
NO_VARIANT = "rules"  # the key's variant part for a game of rules but no variant (older saves)
KEY_TAB = "freecell.tab"  # in the tab's own store: the game this tab plays
TAB_FORMAT = "freecell-tab"

_HEAD_FIELDS = frozenset({"format", "version", "id", "variant", "deal", "board", "rules", "auto_move", "gen",
                          "n", "rev", "by", "moves", "redo", "home", "won", "elapsed", "played", "watched"})


class SaveFormatError(ValueError):
    """A stored head or chunk that cannot be used."""


class NewerSaveError(SaveFormatError):
    """A head written by a newer page (a higher version, or fields this page does not know): this
    page neither uses it nor writes over or removes it."""


@dataclass(frozen=True, slots=True)
class SaveKey:
    """What a key of the saved games names: a game's head (``gen`` ``None``) or one of its chunks."""

    variant: str  # a variant id, or NO_VARIANT
    deal: int | None  # None: a board
    id: str
    gen: int | None = None
    chunk: int | None = None

    @property
    def head(self) -> str:
        """The key of this game's head."""
        return head_key(self.variant, self.deal, self.id)


def head_key(variant: str, deal: int | None, game_id: str) -> str:
    return f"{PREFIX}{variant}.{'board' if deal is None else deal}.{game_id}"


def chunk_key(head: str, gen: int, index: int) -> str:
    return f"{head}.{gen}.{index}"


def parse_key(key: object) -> SaveKey | None:
    """The game a storage key belongs to, or ``None`` if it is not one of the saved games' keys."""
    if not isinstance(key, str) or len(key) > 80:
        return None
    m = _KEY.fullmatch(key)
    if m is None:
        return None
    variant, start, game_id, gen, chunk = m.groups()
    deal = None if start == "board" else int(start)
    return SaveKey(variant, deal, game_id, None if gen is None else int(gen),
                   None if chunk is None else int(chunk))


@dataclass(frozen=True, slots=True)
class Head:
    """A saved game's head (see the module's docstring)."""

    id: str
    variant: str | None  # None: a game of ``rules`` without a variant (older saves)
    deal: int | None  # the deal number, if the game is a deal
    board: str | None  # the start as board text, if it is not deal ``deal``'s own start
    rules: Rules
    auto_move: bool = True
    gen: int = 0
    n: int = 0
    rev: int = 0
    by: str = ""
    moves: int = 0
    redo: int = 0
    home: int = 0
    won: bool = False
    elapsed: float = 0.0
    played: float = 0.0
    watched: bool = False  # the solver (Show solution) or a link played some of it: never a win

    @property
    def key(self) -> str:
        return head_key(self.variant or NO_VARIANT, self.deal, self.id)

    def chunk(self, index: int, gen: int | None = None) -> str:
        return chunk_key(self.key, self.gen if gen is None else gen, index)

    def to_json(self) -> str:
        """The stored text (written at every save: what never changes is encoded once)."""
        start = _start_json(self.id, self.variant, self.deal, self.board, self.rules)
        return (f'{start},"auto_move":{_BOOL[self.auto_move]},"gen":{self.gen},"n":{self.n},'
                f'"rev":{self.rev},"by":{json.dumps(self.by)},"moves":{self.moves},"redo":{self.redo},'
                f'"home":{self.home},"won":{_BOOL[self.won]},"elapsed":{round(float(self.elapsed), 3)!r},'
                f'"played":{float(self.played)!r}{_WATCHED[self.watched]}}}')


_BOOL = {True: "true", False: "false"}
_WATCHED = {True: ',"watched":true', False: ""}  # only when true: heads of games never watched are unchanged


@functools.lru_cache(maxsize=16)
def _start_json(game_id: str, variant: str | None, deal: int | None, board: str | None, rules: Rules) -> str:
    """The head's first fields as JSON text, without the closing brace."""
    data: dict[str, object] = {"format": HEAD_FORMAT, "version": HEAD_VERSION, "id": game_id,
                               "variant": variant}
    if deal is not None:
        data["deal"] = deal
    if board is not None:
        data["board"] = board
    data["rules"] = rules.to_json()
    return json.dumps(data, separators=(",", ":"))[:-1]


def read_head(text: object, key: str | None = None) -> Head:
    """A head from its stored text (and the key it was under); :class:`SaveFormatError` otherwise."""
    try:
        return _read_head(text, key)
    except SaveFormatError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
        raise SaveFormatError(f"the saved game's head is damaged ({type(e).__name__})") from None


def _read_head(text: object, key: str | None) -> Head:
    data = safejson.load_record(text, HEAD_FORMAT, MAX_HEAD_CHARS, "the saved game's head", SaveFormatError)
    if is_newer(data, HEAD_VERSION) or (version_of(data) == HEAD_VERSION and set(data) - _HEAD_FIELDS):
        raise NewerSaveError("the saved game's head was written by a newer page")
    if version_of(data) != HEAD_VERSION:
        raise SaveFormatError("the saved game's head has no version this page reads")
    game_id = data.get("id")
    if not isinstance(game_id, str) or not ID_SHAPE.fullmatch(game_id):
        raise SaveFormatError("the saved game's id is wrong")
    rules = Rules.from_json(data.get("rules"))
    variant = data.get("variant")
    if variant is not None:
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise SaveFormatError("the saved game's variant is unknown")
        if replace(rules, foundation_return=False) != VARIANTS[variant].rules:
            raise SaveFormatError("the saved rules are not those of the saved variant")
    deal, board = data.get("deal"), data.get("board")
    if deal is not None:
        try:
            check_deal_number(deal)
        except DealNumberError:
            raise SaveFormatError("the saved deal number is wrong") from None
    if board is not None and not isinstance(board, str):
        raise SaveFormatError("the saved board is not text")
    if deal is None and board is None:
        raise SaveFormatError("the saved game has no start")
    auto_move, won = data.get("auto_move"), data.get("won")
    if not isinstance(auto_move, bool) or not isinstance(won, bool):
        raise SaveFormatError("a saved flag is not true or false")
    watched = data.get("watched", False)
    if not isinstance(watched, bool):
        raise SaveFormatError("a saved flag is not true or false")
    by = data.get("by")
    if not isinstance(by, str) or not (by == "" or ID_SHAPE.fullmatch(by)):
        raise SaveFormatError("the saved writer is wrong")
    head = Head(game_id, variant, deal, board, rules, auto_move,
                gen=_whole(data.get("gen"), 10**6), n=_whole(data.get("n"), MAX_RECORDS),
                rev=_whole(data.get("rev"), 10**12), by=by, moves=_whole(data.get("moves"), MAX_RECORDS),
                redo=_whole(data.get("redo"), MAX_RECORDS), home=_whole(data.get("home"), 52), won=won,
                elapsed=_number(data.get("elapsed"), 1e9), played=_number(data.get("played"), MAX_WALL),
                watched=watched)
    if key is not None and head.key != key:
        raise SaveFormatError("the saved game's head is under another game's key")
    return head


def _whole(value: object, top: int) -> int:
    if type(value) is not int or not 0 <= value <= top:
        raise SaveFormatError(f"a saved count is not a whole number from 0 to {top}")
    return value


def _number(value: object, top: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= top:
        raise SaveFormatError("a saved time is wrong")
    return float(value)


def chunk_records(text: object) -> tuple[list[str], bool]:
    """The records of a stored chunk up to the first that is not one, and whether that was all of it.

    A chunk cut short (``1a 2b 3c 4``: its last record torn) keeps the
    records before the damage; one missing or too large keeps none.

    >>> chunk_records("58 6a 82x2"), chunk_records("58 6a 8"), chunk_records(None)
    ((['58', '6a', '82x2'], True), (['58', '6a'], False), ([], False))
    """
    if not isinstance(text, str) or not 0 < len(text) <= MAX_CHUNK_CHARS:
        return [], False
    records = text.split(" ")
    good = 0
    while good < min(len(records), CHUNK) and _RECORD.fullmatch(records[good]):
        good += 1
    return records[:good], good == len(records)


def start_game(head: Head, clock: Callable[[], float] = time.monotonic) -> Game:
    """The game of a head, at its start (no record played); :class:`SaveFormatError` if it cannot be."""
    try:
        if head.board is None:
            return Game(head.deal, rules=head.rules, variant=head.variant, auto_move=head.auto_move,
                        clock=clock)
        game = Game(position=Position.from_text(head.board, head.rules), rules=head.rules,
                    variant=head.variant, auto_move=head.auto_move, clock=clock)
        game.deal = head.deal  # a deal whose oldest turns were folded into the start
        return game
    except (BoardError, DealNumberError, ValueError) as e:
        raise SaveFormatError(f"the saved start is wrong: {e}") from None


class History:
    """The history of a game as the saved records know it: the same :class:`Turn` objects, in order.

    It is kept beside the page's :class:`Game` and compared with it by
    identity (:meth:`diff`), which is cheap and exact: a turn object only
    ever sits at one depth of the history, so the deepest turn the two
    share tells where they part.
    """

    def __init__(self, game: Game) -> None:
        self.start = game.start
        self.turns: list[Turn] = list(game.turns)
        self.redo: list[Turn | None] = []  # None: a turn to redo that this history did not see made
        self.exact = not game.can_redo()

    def apply(self, game: Game, record: str) -> bool:
        """Play one record on ``game`` (and here); ``False`` (nothing changes) if it cannot be played."""
        if record == UNDO:
            turn = game.undo()
            if turn is None:
                return False
            self.turns.pop()
            self.redo.append(turn)
        elif record == REDO:
            turn = game.redo()
            if turn is None:
                return False
            self.redo.pop()
            self.turns.append(turn)
        elif record == RESTART:
            game.restart()
            self.start = game.start
            self.turns.clear()
            self.redo.clear()
        else:
            try:
                turn = game.replay(record)
            except GameLoadError:
                return False
            if game.moves != len(self.turns) + 1:  # the history cap folded a turn into the start
                return False
            self.turns.append(turn)
            self.redo.clear()
        return True

    def diff(self, game: Game) -> list[str] | None:
        """The records that take this history to ``game``'s (and take it there); ``None`` if none can.

        ``None`` when the game's start changed under it or its turns to redo
        are not known here: then the whole history is written anew.
        """
        if game.start is not self.start or not self.exact:
            return None
        mine, theirs = self.turns, game.turns
        shared = min(len(mine), len(theirs))
        while shared and theirs[shared - 1] is not mine[shared - 1]:
            shared -= 1
        out: list[str] = []
        if shared == 0 and (mine or self.redo) and not game.can_redo():
            top = mine[0] if mine else self.redo[-1]
            if not theirs or theirs[0] is not top:  # started over (Replay), or all undone and played anew
                out.append(RESTART)
                mine.clear()
                self.redo.clear()
        while len(mine) > shared:
            self.redo.append(mine.pop())
            out.append(UNDO)
        for turn in theirs[len(mine):]:
            if self.redo and self.redo[-1] is turn:
                mine.append(turn)
                self.redo.pop()
                out.append(REDO)
            else:
                mine.append(turn)
                self.redo.clear()
                out.append(turn.text())
        if bool(self.redo) != game.can_redo():
            return None
        return out


def records_of(game: Game) -> tuple[list[str], History]:
    """The whole history of ``game`` as records (its turns, its turns to redo, undone), and a History.

    The turns to redo are read from :meth:`Game.to_json`; the history
    returned knows their texts but not their objects (see :class:`History`)
    unless the game has none.
    """
    history = History(game)
    records = [t.text() for t in history.turns]
    if game.can_redo():
        redo = json.loads(game.to_json())["redo"]
        records += [str(t) for t in redo]
        records += [UNDO] * len(redo)
        history.redo = [None] * len(redo)
    return records, history


def replay_records(head: Head, records: Iterable[str], clock: Callable[[], float] = time.monotonic
           ) -> tuple[Game, History, int]:
    """The game of ``head`` after its records, its History, and how many records were played.

    Play stops at the first record that cannot be played (the rest is
    damage, for the caller to report); the clock comes back paused at the
    saved time, stopped if the game is won.
    """
    game = start_game(head, clock)
    history = History(game)
    played = 0
    for record in records:
        if not history.apply(game, record):
            break
        played += 1
    game.clock.reset(head.elapsed)
    if game.is_won():
        game.clock.stopped = True
    return game, history, played


def chunks_of(records: list[str], first: int = 0) -> Iterable[tuple[int, str]]:
    """``(chunk index, text)`` for records numbered from ``first`` (a multiple of CHUNK) on."""
    for i in range(0, len(records), CHUNK):
        yield (first + i) // CHUNK, " ".join(records[i:i + CHUNK])


def new_head(game_id: str, game: Game) -> Head:
    """The head of a game not saved yet: its start, variant, rules; no record."""
    variant = None if game.variant is None else game.variant.id
    board = None if starts_at_deal(game) else game.start.to_text()
    return Head(game_id, variant, game.deal, board, game.rules, game.auto_move)


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
