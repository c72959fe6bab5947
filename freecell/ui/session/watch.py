"""Watch the solution: the playback half of :class:`~freecell.ui.session.session.Session`.

The solver's solution from the position on the table, played step by step
(:mod:`freecell.ui.analysis.playback` plans it): each step is an ordinary turn that
undo takes back, played on a timer (:class:`~freecell.ui.session.change.WatchNext`,
with a ticket so that a stale timer plays nothing).  Pause, one step either
way, three speeds; any intent of the player stops it first (the session's
``_touches``), and play goes on from where it stands.  A watched game is never
the player's win (:meth:`~freecell.ui.progress.progress.Progress.watching`).

:class:`Watching` is a part of the session, not an object of its own: the
session inherits it, and what it uses of the session is declared below.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...game import Game, GameLoadError, Turn
from ...piles import Move
from ...position import Position
from ..analysis import analysis as an
from ..analysis import playback as pb
from ..progress.progress import Progress
from ..table.table import TableState
from ..text.catalogue import Catalogue
from ..text.screen import watch_text
from .change import AskSolver as AskEffect
from .change import Change, Effect, SaveGame, WatchNext


class Watching:
    """The playback's intents (the bar's buttons, Space and the arrows, its timer)."""

    watching: pb.Playback | None
    watch_speed: str
    _ticket: int
    game: Game
    table: TableState
    analysis: an.Analysis
    cat: Catalogue
    progress: Progress
    panel: str | None

    if TYPE_CHECKING:  # what the session gives it
        @property
        def position(self) -> Position: ...
        @property
        def finishing(self) -> bool: ...
        def verdict(self) -> an.Verdict: ...
        def replay(self) -> Change: ...
        def _analyse(self, finishing: bool = False) -> list[Effect]: ...
        def _after_turn(self, turn: Turn, steps: tuple[Move, ...] = (),
                        finishing: bool = False) -> Change: ...

    def watch(self) -> Change:
        """Show solution (the hint bar): the solver's solution from here, played step by step.

        Known already: the number of moves is shown and the first step comes
        after :data:`~freecell.ui.analysis.playback.LEAD_MS`; else the worker is asked
        and the playback starts when it answers.
        """
        pos = self.position
        if pos.is_won() or self.finishing or (self.watching is not None and self.watching.state != pb.NONE):
            return Change()
        self.table.clear()
        self.analysis.clear_bar()
        self.panel = None
        playback = pb.Playback(pos, speed=self.watch_speed)
        self.watching = playback
        k = self.analysis.known.get(pos)
        if k is not None and k.verdict is an.Verdict.SOLVED and k.rest:
            return self._watch_ready(playback, k.rest)
        if self.verdict() is an.Verdict.UNSOLVABLE:
            return Change(kind="watch", announce=self._watch_none(playback, pb.UNSOLVABLE))
        if self.analysis.unavailable:
            return Change(kind="watch", announce=self._watch_none(playback, pb.UNAVAILABLE))
        effects: list[Effect] = []
        if self.analysis.asking != pos:
            self.analysis.asking = pos
            self.analysis.deep = False
            ask = an.Ask(pos, self.game.rules, an.HINT_BUDGET_MS, self.analysis.background)
            effects.append(AskEffect(ask))
        return Change(kind="watch", announce=watch_text(self.cat, playback), effects=tuple(effects))

    def watch_solution(self) -> Change:
        """Watch a short solution (the win panel): the deal again from its start, played by the solver."""
        if not self.game.is_won():
            return self.watch()
        change = self.replay()
        shown = self.watch()
        return replace(change, kind="watch", announce=shown.announce,
                       effects=(*change.effects, *shown.effects))

    def watch_tick(self, ticket: int) -> Change:
        """The playback's timer (:class:`~.change.WatchNext`): the next step, if still due."""
        playback = self.watching
        if playback is None or playback.ticket != ticket or playback.state != pb.PLAYING:
            return Change()
        return self._watch_forward(playing=True)

    def watch_toggle(self) -> Change:
        """Pause, or play on (Space, the play button)."""
        playback = self.watching
        if playback is None or playback.state not in (pb.PLAYING, pb.PAUSED):
            return Change()
        if playback.state == pb.PLAYING:
            playback.state = pb.PAUSED
            self._next_ticket(playback)  # the timer in flight plays nothing
            return Change(kind="watch", announce=self.cat.t("watch.paused"))
        if playback.at_end():
            return Change()
        playback.state = pb.PLAYING
        ticket = self._next_ticket(playback)
        return Change(kind="watch", announce=self.cat.t("watch.playing"),
                      effects=(WatchNext(playback.step_ms(), ticket),))

    def watch_step(self, forward: bool = True) -> Change:
        """One step forward or back (the arrows); the playback pauses there."""
        playback = self.watching
        if playback is None or playback.state not in (pb.PLAYING, pb.PAUSED):
            return Change()
        playback.state = pb.PAUSED
        self._next_ticket(playback)
        if forward:
            return self._watch_forward(playing=False) if not playback.at_end() else Change(kind="watch")
        if playback.done == 0 or self.position != playback.position():
            return Change(kind="watch")
        self.table.clear()
        turn = self.game.undo()
        if turn is None:
            return Change(kind="watch")
        playback.done -= 1
        self.panel = None
        effects = [SaveGame(), *self._analyse()]
        return Change(kind="watch", frames=(turn.after, turn.before), redraw=True, game_changed=True,
                      announce=watch_text(self.cat, playback), effects=tuple(effects))

    def watch_faster(self) -> Change:
        """The speed button: slow, normal, fast, round again."""
        playback = self.watching
        if playback is None:
            return Change()
        self.watch_speed = playback.faster()
        effects: tuple[Effect, ...] = ()
        if playback.state == pb.PLAYING:
            effects = (WatchNext(playback.step_ms(), self._next_ticket(playback)),)
        return Change(kind="watch", announce=self.cat.t("watch.speed." + playback.speed), effects=effects)

    def stop_watch(self) -> Change:
        """Stop watching (the close button, Escape, a touch on the table): play goes on from here."""
        playback = self.watching
        if playback is None:
            return Change()
        self._end_watch()
        words = self.cat.t("watch.stopped") if playback.state in (pb.PLAYING, pb.PAUSED) else ""
        return Change(kind="watch", announce=words)

    def _end_watch(self) -> bool:
        """No playback any more; whether one was playing or paused."""
        playback = self.watching
        self.watching = None
        return playback is not None and playback.state in (pb.PLAYING, pb.PAUSED)

    def _next_ticket(self, playback: pb.Playback) -> int:
        self._ticket += 1
        playback.ticket = self._ticket
        return self._ticket

    def _watch_ready(self, playback: pb.Playback, rest: tuple[Move, ...]) -> Change:
        playback.steps = pb.plan(playback.origin, rest, self.game.rules, self.game.auto_move)
        playback.state = pb.PLAYING if playback.steps else pb.NONE
        if not playback.steps:
            return Change(kind="watch")
        ticket = self._next_ticket(playback)
        words = " ".join((watch_text(self.cat, playback), self.cat.t("watch.keys")))
        return Change(kind="watch", announce=words, effects=(WatchNext(pb.LEAD_MS, ticket),))

    def _watch_none(self, playback: pb.Playback, reason: str) -> str:
        playback.state = pb.NONE
        playback.reason = reason
        return watch_text(self.cat, playback)

    def _watch_forward(self, playing: bool) -> Change:
        playback = self.watching
        if playback is None or playback.at_end():
            return Change()
        if self.position != playback.position():  # the table changed under it: the player has it
            return self.stop_watch()
        step = playback.steps[playback.done]
        self.table.clear()
        try:
            steps = tuple(self.game.steps(step.move))
            turn = self.game.replay(step.text())
        except (GameLoadError, ValueError):
            return self.stop_watch()
        self.progress.watching()  # the solver plays this game: it is not the player's to win
        playback.done += 1
        change = self._after_turn(turn, steps)
        words = self.cat.t("watch.say_step", n=playback.done, total=playback.total, move=change.announce)
        effects = list(change.effects)
        if self.game.is_won() or playback.at_end():
            self.watching = None
        elif playing:
            effects.append(WatchNext(playback.step_ms(), self._next_ticket(playback)))
        return replace(change, kind="watch", announce=words, effects=tuple(effects))
