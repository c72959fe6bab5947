"""Watching the solution: the solver's moves as the player's turns, and the state of the playback.

The solver's solutions spell out every move, the safe cards sent home
included (:mod:`freecell.solver`).  :func:`plan` groups them into turns as
the game counts them: a move, and the moves home right after it that the
game would have made by itself (with auto-moves on).  Each step of the
playback is then one ordinary turn of the game, played through
:meth:`freecell.game.Game.replay` (every move checked), so undo takes it
back like any other, and :func:`par` (the solver's move count beside the
player's on the win panel) counts in the same unit as the moves counter.

:class:`Playback` is the state the session's playback
(:class:`~freecell.ui.session.watch.Watch`) keeps while a solution is
watched: the steps, how many are played, playing or paused, the speed.  Its
states (:class:`PlaybackState`, ``data-state`` of ``[data-panel=watch]``):
``searching`` (the solver is asked), ``playing``, ``paused``, ``none`` (no
solution to show: ``reason`` says why, a :class:`NoSolution`).  The session
owns the rules of it (a touch stops it, every step is a turn); this module
only counts.  :class:`Par` is the win panel's count of the solver's moves.

>>> from freecell.piles import Move
>>> from freecell.position import Position
>>> from freecell.rules import FREECELL
>>> from freecell.solver import Solver
>>> start = Position.deal(1)
>>> moves = Solver(start, FREECELL).solve(max_nodes=100_000).moves
>>> steps = plan(start, moves, FREECELL, auto_move=True)
>>> steps[-1].after.is_won(), len(steps) <= len(moves), sum(1 + len(s.auto) for s in steps) == len(moves)
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from ...counts import goes_home_by_itself
from ...engine import apply_move
from ...piles import Move
from ...position import Position
from ...rules import Rules


class PlaybackState(StrEnum):
    """Where a playback stands (``data-state`` of ``[data-panel=watch]``)."""

    SEARCHING = "searching"  # the solver is asked
    PLAYING = "playing"
    PAUSED = "paused"
    NONE = "none"  # nothing to show (``Playback.reason`` says why)


class NoSolution(StrEnum):
    """Why there is nothing to watch (``Playback.reason``)."""

    UNSOLVABLE = "unsolvable"
    NOT_FOUND = "not_found"  # none found in time
    UNAVAILABLE = "unavailable"  # no solver


Speed = Literal["slow", "normal", "fast"]
SPEEDS: tuple[Speed, ...] = ("slow", "normal", "fast")
WATCH_STEP_MS: dict[Speed, int] = {"slow": 1600, "normal": 900, "fast": 400}
LEAD_MS = 1500  # the move count on show before the first step


@dataclass(frozen=True, slots=True)
class Step:
    """One turn of the solution: a move, the moves home that follow it, and the position after."""

    move: Move
    auto: tuple[Move, ...]
    after: Position

    def text(self) -> str:
        """The turn as the game saves it (``58+1h+1h``), for :meth:`~freecell.game.Game.replay`."""
        return "+".join(m.text() for m in (self.move, *self.auto))


def plan(start: Position, moves: Sequence[Move], rules: Rules, auto_move: bool = True) -> tuple[Step, ...]:
    """The solution ``moves`` from ``start`` as the game's turns (see the module docstring).

    The moves are those of a checked solution (:func:`freecell.ui.analysis.replies.parse_reply`
    replays each); with ``auto_move`` off every move is a turn of its own.
    """
    out: list[Step] = []
    pos = start
    i = 0
    while i < len(moves):
        move = moves[i]
        after = apply_move(pos, move)
        i += 1
        auto: list[Move] = []
        while auto_move and i < len(moves) and goes_home_by_itself(after, moves[i], rules):
            auto.append(moves[i])
            after = apply_move(after, moves[i])
            i += 1
        out.append(Step(move, tuple(auto), after))
        pos = after
    return tuple(out)


def par(start: Position, moves: Sequence[Move], rules: Rules, auto_move: bool = True) -> int:
    """The solver's move count for the solution ``moves``, counted as the moves counter counts."""
    return len(plan(start, moves, rules, auto_move))


@dataclass(slots=True)
class Playback:
    """A solution being watched from ``origin`` (see the module docstring)."""

    origin: Position
    state: PlaybackState = PlaybackState.SEARCHING
    steps: tuple[Step, ...] = ()
    done: int = 0  # steps played
    speed: Speed = "normal"
    ticket: int = 0  # the timer that may play the next step (an older one is stale)
    reason: NoSolution | None = None  # why there is nothing to watch (state ``none``)

    @property
    def on(self) -> bool:
        """Playing or paused: there is a solution on the table to step through."""
        return self.state in (PlaybackState.PLAYING, PlaybackState.PAUSED)

    @property
    def total(self) -> int:
        return len(self.steps)

    def position(self) -> Position:
        """Where the table should be now: ``origin`` after the steps played."""
        return self.steps[self.done - 1].after if self.done else self.origin

    def at_end(self) -> bool:
        return self.done >= len(self.steps)

    def step_ms(self) -> int:
        return WATCH_STEP_MS[self.speed]

    def faster(self) -> Speed:
        """The next speed, round the list: slow, normal, fast, slow..."""
        self.speed = SPEEDS[(SPEEDS.index(self.speed) + 1) % len(SPEEDS)]
        return self.speed


class ParState(StrEnum):
    """The win panel's par (``data-state`` of ``[data-win=par]``)."""

    SEARCHING = "searching"  # the worker is asked for a solution of the start
    KNOWN = "known"
    UNKNOWN = "unknown"  # none found, or no solver


@dataclass(frozen=True, slots=True)
class Par:
    """The solver's move count for the deal won on the table, as the moves counter counts."""

    state: ParState
    moves: int | None = None

    @classmethod
    def of(cls, start: Position, rest: Sequence[Move], rules: Rules, auto_move: bool = True) -> Par:
        """The par of the known solution ``rest`` from ``start``."""
        return cls(ParState.KNOWN, par(start, rest, rules, auto_move))
