"""Watch the solution: the playback, a controller the session is composed of (``session.watch``).

The solver's solution from the position on the table, played step by step
(:mod:`freecell.ui.analysis.playback` plans it): each step is an ordinary
turn that undo takes back, played on a timer
(:class:`~freecell.ui.session.change.WatchNext`, with a ticket so that a
stale timer plays nothing).  Pause, one step either way, three speeds; any
intent of the player stops it first (:func:`player_intent`), and play goes
on from where it stands.  A watched game is never the player's win
(:meth:`~freecell.ui.progress.progress.Progress.watching`).

:class:`Watch` owns the playback's state (the solution on show, the speed,
the tickets) and its intents (the bar's buttons, Space and the arrows, its
timer).  What it uses of the session is :class:`Stage`: the game, playing a
turn and taking one back, the analysis to ask for a solution.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from ...game import Game, GameLoadError, Turn
from ...piles import Move
from ...position import Position
from ..analysis.analysis import Analysis
from ..analysis.playback import LEAD_MS, NoSolution, Playback, PlaybackState, Speed, plan
from ..analysis.replies import AskSolver, Reply, SolverFailure, SolverReply, Verdict
from ..progress.progress import Progress
from ..table.table import TableState
from ..text import sentences as say
from ..text.bars import watch_text
from ..text.catalogue import Catalogue
from .change import Change, ChangeKind, Effect, WatchNext

P = ParamSpec("P")
R = TypeVar("R")


class Replaying(Protocol):
    """Replay: the deal again from its start (:meth:`freecell.ui.session.opening.Opening.replay`)."""

    def replay(self) -> Change: ...


class Stage(Protocol):
    """What the playback uses of the session."""

    cat: Catalogue
    game: Game
    table: TableState
    analysis: Analysis
    progress: Progress
    finishing: bool

    @property
    def opening(self) -> Replaying: ...

    def verdict(self) -> Verdict: ...

    def after_turn(self, turn: Turn, steps: tuple[Move, ...] = (), finishing: bool = False) -> Change: ...

    def take_back(self) -> Change | None: ...

    def close_panels(self) -> Change: ...


class Watching(Protocol):
    """Anything with the session's playback: the session, and its controllers."""

    @property
    def watch(self) -> Watch: ...


S = TypeVar("S", bound=Watching)


def player_intent(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """An intent of the player: a playback on the table stops first (the player takes over there)."""

    @functools.wraps(method)
    def intent(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        watch = self.watch
        stopped = watch.interrupt()
        out = method(self, *args, **kwargs)
        if stopped and isinstance(out, Change):
            return replace(out, announce=say.joined(say.watch_stopped(watch.session.cat), out.announce))
        return out

    return intent


class Watch:
    """The solution played back on the table (see the module docstring)."""

    def __init__(self, session: Stage) -> None:
        self.session = session
        self.playback: Playback | None = None  # the solution on show, step by step
        self.speed: Speed = "normal"  # kept from one playback to the next
        self._ticket = 0

    # --- the intents ----------------------------------------------------------------
    def start(self) -> Change:
        """Show solution (the hint bar): the solver's solution from here, played step by step.

        Known already: the number of moves is shown and the first step comes
        after :data:`~freecell.ui.analysis.playback.LEAD_MS`; else the worker
        is asked and the playback starts when it answers.
        """
        s = self.session
        pos = s.game.position
        if pos.is_won() or s.finishing or (self.playback is not None and self.playback.state is not
                                            PlaybackState.NONE):
            return Change()
        s.table.clear()
        s.analysis.clear_bar()
        s.close_panels()
        playback = self.playback = Playback(pos, speed=self.speed)
        rest = s.analysis.solution(pos)
        if rest is not None:
            return self._ready(playback, rest)
        if s.verdict() is Verdict.UNSOLVABLE:
            return Change(kind=ChangeKind.WATCH, announce=self._none(playback, NoSolution.UNSOLVABLE))
        if s.analysis.unavailable:
            return Change(kind=ChangeKind.WATCH, announce=self._none(playback, NoSolution.UNAVAILABLE))
        effects = tuple(s.analysis.ask_solution(pos))
        return Change(kind=ChangeKind.WATCH, announce=watch_text(s.cat, playback), effects=effects)

    def solution(self) -> Change:
        """Watch a short solution (the win panel): the deal again from its start, played by the solver."""
        if not self.session.game.is_won():
            return self.start()
        change = self.session.opening.replay()
        shown = self.start()
        return replace(change, kind=ChangeKind.WATCH, announce=shown.announce,
                       effects=(*change.effects, *shown.effects))

    def tick(self, ticket: int) -> Change:
        """The playback's timer (:class:`~.change.WatchNext`): the next step, if still due."""
        playback = self.playback
        if playback is None or playback.ticket != ticket or playback.state is not PlaybackState.PLAYING:
            return Change()
        return self._forward(playing=True)

    def toggle(self) -> Change:
        """Pause, or play on (Space, the play button)."""
        playback = self.playback
        if playback is None or not playback.on:
            return Change()
        cat = self.session.cat
        if playback.state is PlaybackState.PLAYING:
            playback.state = PlaybackState.PAUSED
            self._next_ticket(playback)  # the timer in flight plays nothing
            return Change(kind=ChangeKind.WATCH, announce=say.watch_paused(cat))
        if playback.at_end():
            return Change()
        playback.state = PlaybackState.PLAYING
        ticket = self._next_ticket(playback)
        return Change(kind=ChangeKind.WATCH, announce=say.watch_playing(cat),
                      effects=(WatchNext(playback.step_ms(), ticket),))

    def step(self, forward: bool = True) -> Change:
        """One step forward or back (the arrows); the playback pauses there."""
        playback = self.playback
        if playback is None or not playback.on:
            return Change()
        playback.state = PlaybackState.PAUSED
        self._next_ticket(playback)
        if forward:
            return self._forward(playing=False) if not playback.at_end() else Change(kind=ChangeKind.WATCH)
        if playback.done == 0 or self.session.game.position != playback.position():
            return Change(kind=ChangeKind.WATCH)
        back = self.session.take_back()
        if back is None:
            return Change(kind=ChangeKind.WATCH)
        playback.done -= 1
        return replace(back, kind=ChangeKind.WATCH, announce=watch_text(self.session.cat, playback))

    def faster(self) -> Change:
        """The speed button: slow, normal, fast, round again."""
        playback = self.playback
        if playback is None:
            return Change()
        self.speed = playback.faster()
        effects: tuple[Effect, ...] = ()
        if playback.state is PlaybackState.PLAYING:
            effects = (WatchNext(playback.step_ms(), self._next_ticket(playback)),)
        return Change(kind=ChangeKind.WATCH, announce=say.watch_speed(self.session.cat, playback.speed),
                      effects=effects)

    def stop(self) -> Change:
        """Stop watching (the close button, Escape, a touch on the table): play goes on from here."""
        playback = self.playback
        if playback is None:
            return Change()
        self.interrupt()
        words = say.watch_stopped(self.session.cat) if playback.on else ""
        return Change(kind=ChangeKind.WATCH, announce=words)

    def interrupt(self) -> bool:
        """No playback any more (the player takes over, or another game came); whether one was on."""
        playback = self.playback
        self.playback = None
        return playback is not None and playback.on

    # --- the solver ----------------------------------------------------------------------
    def solver_answered(self, pos: Position, reply: Reply, deep: bool, change: Change) -> Change:
        """A reply about ``pos`` came (``change``: what it did): the playback waiting for it starts,
        or says why there is nothing to watch; ``deep``: it was the long search after a fallback."""
        playback = self.playback
        if playback is None or playback.state is not PlaybackState.SEARCHING or pos != playback.origin \
                or pos != self.session.game.position:
            return change
        rest = self.session.analysis.solution(pos)
        if rest is not None:
            ready = self._ready(playback, rest)
            return replace(ready, effects=(*change.effects, *ready.effects))
        resumed = any(isinstance(e, AskSolver) and e.ask.position == pos for e in change.effects)
        if isinstance(reply, SolverReply) and reply.verdict is Verdict.UNKNOWN and (resumed or not deep):
            return change  # the worker searches on
        lost = self.session.verdict() is Verdict.UNSOLVABLE
        why = (NoSolution.UNAVAILABLE if isinstance(reply, SolverFailure) else
               NoSolution.UNSOLVABLE if lost else NoSolution.NOT_FOUND)
        return replace(change, announce=self._none(playback, why))

    def solver_gone(self) -> Change | None:
        """The worker is gone for good: a playback waiting for it says so; ``None`` if none waits."""
        playback = self.playback
        if playback is None or playback.state is not PlaybackState.SEARCHING:
            return None
        return Change(kind=ChangeKind.WATCH, announce=self._none(playback, NoSolution.UNAVAILABLE))

    # --- inside ------------------------------------------------------------------------
    def _next_ticket(self, playback: Playback) -> int:
        self._ticket += 1
        playback.ticket = self._ticket
        return self._ticket

    def _ready(self, playback: Playback, rest: tuple[Move, ...]) -> Change:
        game = self.session.game
        playback.steps = plan(playback.origin, rest, game.rules, game.auto_move)
        playback.state = PlaybackState.PLAYING if playback.steps else PlaybackState.NONE
        if not playback.steps:
            return Change(kind=ChangeKind.WATCH)
        ticket = self._next_ticket(playback)
        cat = self.session.cat
        words = say.joined(watch_text(cat, playback), say.watch_keys(cat))
        return Change(kind=ChangeKind.WATCH, announce=words, effects=(WatchNext(LEAD_MS, ticket),))

    def _none(self, playback: Playback, reason: NoSolution) -> str:
        playback.state = PlaybackState.NONE
        playback.reason = reason
        return watch_text(self.session.cat, playback)

    def _forward(self, playing: bool) -> Change:
        playback = self.playback
        if playback is None or playback.at_end():
            return Change()
        s = self.session
        if s.game.position != playback.position():  # the table changed under it: the player has it
            return self.stop()
        step = playback.steps[playback.done]
        s.table.clear()
        try:
            steps = tuple(s.game.steps(step.move))
            turn = s.game.replay(step.text())
        except (GameLoadError, ValueError):
            return self.stop()
        s.progress.watching()  # the solver plays this game: it is not the player's to win
        playback.done += 1
        change = s.after_turn(turn, steps)
        words = say.watch_step(s.cat, playback, change.announce)
        effects = list(change.effects)
        if s.game.is_won() or playback.at_end():
            self.playback = None
        elif playing:
            effects.append(WatchNext(playback.step_ms(), self._next_ticket(playback)))
        return replace(change, kind=ChangeKind.WATCH, announce=words, effects=tuple(effects))
