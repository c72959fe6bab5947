"""A game session: a deal (or a given position), its rules, and its history.

:class:`Game` keeps a list of turns.  A turn is one player move (a multi-card
move is one) together with the safe auto-moves it triggered; undo and redo
move whole turns, so a turn undoes in one step.  Finish steps are turns of
their own, one card each, and trigger no auto-moves.

Counters: moves (turns played), cards home, multi-card capacity, score
(+10 for each card sent home, -15 for each card taken back, never below
zero), and a clock read from an injected function, started by the first move,
paused while the page is hidden or a panel covers the table (the session says when), stopped by
the win.

A game of a variant (:mod:`freecell.variants`: Baker's Game, Eight Off, ...)
takes its rules and its layout of deal N from the variant: ``Game(617,
variant="eightoff")``.

The saved form (:meth:`Game.to_json`, :meth:`Game.from_json`) is compact JSON
with a version number; loading anything else raises :class:`GameLoadError`
and nothing else, and never leaves a half-loaded game.
:meth:`Game.from_json_prefix` reads a save whose history is damaged: it
keeps the longest legal prefix of the turns and says whether anything was
dropped.  A game of a variant
saves its id as ``"variant"``; saves without one (all older saves) are games
whose deal is laid out by :meth:`Position.deal` under the saved rules.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from . import safejson
from .deals import DealNumberError, check_deal_number
from .engine import (
    IllegalMoveError,
    apply_move,
    can_finish,
    capacity,
    check_move,
    expand,
    finish_move,
    is_stuck,
    legal_moves,
    safe_automove,
)
from .piles import FOUNDATION, Move, MoveError
from .position import BoardError, Position
from .rules import FREECELL, Refusal, Rules
from .variants import Variant
from .variants import variant as find_variant

SAVE_FORMAT = "freecell-game"
SAVE_VERSION = 1
MAX_SAVE_CHARS = 2_000_000
MAX_TURNS = 100_000  # history kept for undo; older turns are folded into the start


class GameLoadError(ValueError):
    """Saved data that cannot be restored: corrupt, truncated, foreign or hostile."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One undoable step: the player's move and the auto-moves it set off."""

    move: Move
    auto: tuple[Move, ...]
    before: Position
    after: Position
    score: int  # the score after this turn

    def text(self) -> str:
        return "+".join([self.move.text(), *(m.text() for m in self.auto)])

    @property
    def moves(self) -> tuple[Move, ...]:
        return (self.move, *self.auto)


class Clock:
    """Elapsed playing time from an injected monotonic clock (seconds)."""

    def __init__(self, now: Callable[[], float] = time.monotonic, elapsed: float = 0.0) -> None:
        self._now = now
        self._elapsed = elapsed
        self._since: float | None = None  # set while running
        self.started = elapsed > 0
        self.stopped = False

    @property
    def running(self) -> bool:
        return self._since is not None

    def elapsed(self) -> float:
        if self._since is None:
            return self._elapsed
        return self._elapsed + max(0.0, self._now() - self._since)

    def start(self) -> None:
        """Run (again), unless stopped for good by a win."""
        if self._since is None and not self.stopped:
            self._since = self._now()
            self.started = True

    def resume(self) -> None:
        """Run again after a pause, if the game had started (the page shows again)."""
        if self.started:
            self.start()

    def pause(self) -> None:
        if self._since is not None:
            self._elapsed = self.elapsed()
            self._since = None

    def stop(self) -> None:
        self.pause()
        self.stopped = True

    def reset(self, elapsed: float = 0.0) -> None:
        self._elapsed, self._since, self.stopped = elapsed, None, False
        self.started = elapsed > 0


def _score_after(score: int, moves: tuple[Move, ...]) -> int:
    for m in moves:
        if m.dst.kind == FOUNDATION:
            score += 10
        elif m.src.kind == FOUNDATION:
            score = max(0, score - 15)
    return score


class Game:
    """A game in progress.  Build it from a deal number or from a position.

    ``variant`` (an id of :data:`freecell.variants.VARIANTS`) gives the rules
    and how deal N is laid out; ``rules``, if given too, must be the same.
    Without it, deal N is Microsoft's layout under ``rules`` (classic
    FreeCell by default).
    """

    def __init__(
        self,
        deal: int | None = None,
        *,
        position: Position | None = None,
        rules: Rules | None = None,
        variant: str | None = None,
        auto_move: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.variant: Variant | None = None if variant is None else find_variant(variant)
        if self.variant is not None:
            if rules is not None and _base(rules) != _base(self.variant.rules):
                raise ValueError(f"the rules given are not those of the variant {self.variant.id!r}")
            # a variant's rules, with the player's option of cards back from the foundations
            rules = replace(self.variant.rules,
                            foundation_return=rules is not None and rules.foundation_return)
        self.rules = FREECELL if rules is None else rules
        self.deal = deal
        if deal is not None:
            if position is not None:
                raise ValueError("give a deal number or a position, not both")
            position = self._deal_start()
        elif position is None:
            raise ValueError("give a deal number or a position")
        self.start = position.validate(self.rules)
        self.auto_move = auto_move
        self.clock = Clock(clock)
        self._turns: list[Turn] = []
        self._redo: list[Turn] = []
        self._trimmed = False  # the start is no longer the deal's start

    def _deal_start(self) -> Position:
        """The starting position of this game's deal number."""
        n = check_deal_number(self.deal)
        return Position.deal(n, self.rules) if self.variant is None else self.variant.deal(n)

    def allow_foundation_return(self, on: bool) -> None:
        """The option "cards back from the foundations", switched during a game.

        The history stays as it is: undo and redo replay positions, not rules.
        """
        self.rules = replace(self.rules, foundation_return=bool(on))

    # --- state ---------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._turns[-1].after if self._turns else self.start

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(self._turns)

    @property
    def moves(self) -> int:
        """Moves played (a multi-card move and its auto-moves count as one)."""
        return len(self._turns)

    @property
    def score(self) -> int:
        return self._turns[-1].score if self._turns else 0

    def cards_home(self) -> int:
        return self.position.cards_home()

    def capacity(self, to_empty_column: bool = False) -> int:
        return capacity(self.position, self.rules, to_empty_column)

    def elapsed(self) -> float:
        return self.clock.elapsed()

    def is_won(self) -> bool:
        return self.position.is_won()

    def is_stuck(self) -> bool:
        return is_stuck(self.position, self.rules)

    def can_finish(self) -> bool:
        return can_finish(self.position)

    def can_undo(self) -> bool:
        return bool(self._turns)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.position, self.rules)

    def check(self, move: Move) -> Refusal | None:
        return check_move(self.position, move, self.rules)

    def steps(self, move: Move) -> list[Move]:
        """The single-card steps of a legal move, for the page to animate."""
        return expand(self.position, move, self.rules)

    # --- playing -------------------------------------------------------
    def play(self, move: Move) -> Turn:
        """Play a move and the safe auto-moves it sets off.

        Raises :class:`IllegalMoveError` (with the reason) and changes nothing
        when the move is refused.
        """
        before = self.position
        refusal = check_move(before, move, self.rules)
        if refusal is not None:
            raise IllegalMoveError(move, refusal)
        after = apply_move(before, move)
        auto: list[Move] = []
        if self.auto_move:
            while (m := safe_automove(after, self.rules)) is not None:
                auto.append(m)
                after = apply_move(after, m)
        return self._push(move, tuple(auto), before, after)

    def finish_step(self) -> Turn | None:
        """Send one card home as Finish does (a turn of its own), or ``None``."""
        if not self.can_finish():
            return None
        m = finish_move(self.position)
        if m is None:
            return None
        before = self.position
        return self._push(m, (), before, apply_move(before, m))

    def _push(self, move: Move, auto: tuple[Move, ...], before: Position, after: Position) -> Turn:
        turn = Turn(move, auto, before, after, _score_after(self.score, (move, *auto)))
        self._turns.append(turn)
        self._redo.clear()
        if len(self._turns) > MAX_TURNS:  # far beyond any real game: forget the oldest turn
            self.start = self._turns.pop(0).after
            self._trimmed = True
        self.clock.start()
        if after.is_won():
            self.clock.stop()
        return turn

    def undo(self) -> Turn | None:
        """Take back the last turn; returns it, or ``None`` when there is none."""
        if not self._turns:
            return None
        turn = self._turns.pop()
        self._redo.append(turn)
        if self.clock.stopped and not self.position.is_won():
            self.clock.stopped = False
            self.clock.start()
        return turn

    def redo(self) -> Turn | None:
        if not self._redo:
            return None
        turn = self._redo.pop()
        self._turns.append(turn)
        if turn.after.is_won():
            self.clock.stop()
        return turn

    def restart(self) -> None:
        """Replay the deal from its start: history and clock start again."""
        if self._trimmed and self.deal is not None:
            self.start = self._deal_start()
            self._trimmed = False
        self._turns.clear()
        self._redo.clear()
        self.clock.reset()

    # --- saving --------------------------------------------------------
    def to_json(self) -> str:
        data: dict[str, object] = {"format": SAVE_FORMAT, "version": SAVE_VERSION}
        if self.deal is not None and not self._trimmed:
            data["deal"] = self.deal
        else:
            data["board"] = self.start.to_text()
        if self.variant is not None:
            data["variant"] = self.variant.id
        data["rules"] = self.rules.to_json()
        data["auto_move"] = self.auto_move
        data["turns"] = [t.text() for t in self._turns]
        data["redo"] = [t.text() for t in reversed(self._redo)]
        data["elapsed"] = round(self.clock.elapsed(), 3)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, clock: Callable[[], float] = time.monotonic) -> Game:
        """Restore a saved game; :class:`GameLoadError` on anything that is not one.

        The clock is restored paused at the saved time; the next move (or
        ``clock.start()``) sets it running.
        """
        return cls._load_checked(text, clock, prefix=False)[0]

    @classmethod
    def from_json_prefix(cls, text: str | bytes,
                         clock: Callable[[], float] = time.monotonic) -> tuple[Game, bool]:
        """Restore a saved game, keeping the legal prefix of a damaged history.

        The start, rules and fields must be sound, as for :meth:`from_json`
        (:class:`GameLoadError` otherwise); the turns, then the turns undone,
        are replayed up to the first that is not a legal turn (or the history
        cap), and the rest is dropped.  Returns the game and whether anything
        was dropped.
        """
        return cls._load_checked(text, clock, prefix=True)

    @classmethod
    def _load_checked(cls, text: str | bytes, clock: Callable[[], float], prefix: bool) -> tuple[Game, bool]:
        try:
            return cls._load(text, clock, prefix)
        except GameLoadError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise GameLoadError(f"the saved game is damaged ({type(e).__name__})") from None

    @classmethod
    def _load(cls, text: str | bytes, clock: Callable[[], float], prefix: bool) -> tuple[Game, bool]:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = safejson.load_record(text, SAVE_FORMAT, MAX_SAVE_CHARS, "the saved game", GameLoadError,
                                    SAVE_VERSION)
        known = {"format", "version", "deal", "board", "variant", "rules", "auto_move", "turns", "redo",
                 "elapsed"}
        if set(data) - known:
            raise GameLoadError("the saved game has unknown fields")
        rules = _saved_rules(data)
        auto_move = data.get("auto_move", True)
        if not isinstance(auto_move, bool):
            raise GameLoadError("auto_move must be true or false")
        elapsed = data.get("elapsed", 0)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not 0 <= elapsed < 10**9:
            raise GameLoadError("the saved time is wrong")
        game = cls._saved_start(data, rules, auto_move, clock)
        turns, redo, damaged = _saved_history(data, prefix)
        replayed = 0
        for item in turns + redo:
            try:
                game._replay(item)
            except GameLoadError:
                if not prefix:
                    raise
                damaged = True
                break
            replayed += 1
        for _ in range(max(0, replayed - len(turns))):
            game.undo()
        game.clock.reset(float(elapsed))
        if game.is_won():
            game.clock.stopped = True
        return game, damaged

    @classmethod
    def _saved_start(cls, data: dict[str, Any], rules: Rules, auto_move: bool,
                     clock: Callable[[], float]) -> Game:
        """The game at the saved start: a deal number or a board, never both."""
        variant_id = data.get("variant")
        try:
            if "deal" in data and "board" not in data:
                return cls(check_deal_number(data["deal"]), rules=rules, variant=variant_id,
                           auto_move=auto_move, clock=clock)
            if "board" in data and "deal" not in data and isinstance(data["board"], str):
                return cls(position=Position.from_text(data["board"], rules), rules=rules,
                           variant=variant_id, auto_move=auto_move, clock=clock)
        except (DealNumberError, BoardError) as e:
            raise GameLoadError(f"the saved start is wrong: {e}") from None
        if "deal" in data and "board" in data:
            raise GameLoadError("the saved game has both a deal number and a board")
        raise GameLoadError("the saved game has neither a deal number nor a board")

    def replay(self, turn: str) -> Turn:
        """Play one saved turn as it was saved (its move, then its auto-moves), checking each move.

        For loading a history: the auto-moves are the saved ones, not those
        the game would make now.  :class:`GameLoadError` (and nothing
        changes) if the text is not a turn or a move in it is illegal here.
        """
        return self._replay(turn)

    def _replay(self, item: object) -> Turn:
        """Play one saved turn, checking every move in it."""
        if not isinstance(item, str) or len(item) > 2000:
            raise GameLoadError("a saved turn is not text")
        try:
            first, *auto = (Move.parse(t) for t in item.split("+"))
        except MoveError as e:
            raise GameLoadError(f"a saved turn is wrong: {e}") from None
        before = pos = self.position
        for i, m in enumerate((first, *auto)):
            if i and m.dst.kind != FOUNDATION:
                raise GameLoadError(f"a saved auto-move does not go home: {item}")
            # a card taken back while the option was on stays legal after it is switched off
            rules = replace(self.rules, foundation_return=True) if m.src.kind == FOUNDATION else self.rules
            refusal = check_move(pos, m, rules)
            if refusal is not None:
                raise GameLoadError(f"a saved move is illegal: {m.text()} ({refusal.reason.value})")
            pos = apply_move(pos, m)
        return self._push(first, tuple(auto), before, pos)


def _saved_rules(data: dict[str, Any]) -> Rules:
    """The saved rules: the variant's (with the player's option of cards back from the foundations)."""
    try:
        rules = Rules.from_json(data.get("rules", {}))
    except ValueError as e:
        raise GameLoadError(f"the saved rules are wrong: {e}") from None
    variant_id = data.get("variant")
    if variant_id is None:
        return rules
    try:
        saved = find_variant(variant_id)
    except ValueError as e:
        raise GameLoadError(f"the saved variant is wrong: {e}") from None
    if "rules" in data and _base(rules) != _base(saved.rules):
        raise GameLoadError("the saved rules are not those of the saved variant")
    return replace(saved.rules, foundation_return=rules.foundation_return)


def _saved_history(data: dict[str, Any], prefix: bool) -> tuple[list[object], list[object], bool]:
    """The saved turns and turns undone, and whether some were dropped (``prefix``: what is not a list
    of turns, or beyond the history cap, counts as none instead of refusing the game)."""
    turns, redo = data.get("turns", []), data.get("redo", [])
    damaged = False
    if prefix:
        if not isinstance(turns, list):
            turns, redo, damaged = [], [], True
        if not isinstance(redo, list):
            redo, damaged = [], True
        if len(turns) + len(redo) > MAX_TURNS:
            turns, redo, damaged = turns[:MAX_TURNS], redo[:max(0, MAX_TURNS - len(turns))], True
    if not (isinstance(turns, list) and isinstance(redo, list)):
        raise GameLoadError("the saved history is not a list")
    if len(turns) + len(redo) > MAX_TURNS:
        raise GameLoadError("the saved history is too long")
    return turns, redo, damaged


def _base(rules: Rules) -> Rules:
    """Rules without the player's option of cards back from the foundations."""
    return replace(rules, foundation_return=False)
