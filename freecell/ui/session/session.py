"""The headless page: one object that every intent goes through, and the Change it returns.

A :class:`Session` owns the game, the table state (selection), the settings
(one immutable :class:`~freecell.ui.progress.settings.Settings`), the analysis (hint,
winnability, Finish, back to the last winnable position:
:mod:`freecell.ui.analysis.analysis`) and the progress (played, won, when to save:
:mod:`freecell.ui.progress.progress`).  Every intent is a method: a tap, a drop, undo,
redo, replay, a new deal, a setting, a Finish step, a solver reply.  Each
returns one frozen :class:`~freecell.ui.session.change.Change` that the page applies
in one place; the session never touches a DOM, so all of this is tested in
CPython (``tests/test_session.py``).

What the page renders is read from the session after each change: the
status bar, the hint bar, the playback bar, the panel on show, the message
line (:mod:`freecell.ui.text.screen` turns them into texts in the player's
language).

Three features ride on the solver's solutions and the address:

- Watch the solution (:meth:`Session.watch`, :mod:`freecell.ui.analysis.playback`):
  each step is an ordinary turn (undo takes it back), played on a timer
  (:class:`~freecell.ui.session.change.WatchNext`, with a ticket so a stale timer
  plays nothing); any intent of the player (a touch, a key on the table,
  undo...) stops it first, and play goes on from where it stands.
- Share (:meth:`Session.share`): the game as a link
  (:mod:`freecell.ui.address.link`); a link with moves opens that game at that point
  (:meth:`Session.start` with :func:`boot_for`), a bad one says why in one
  line and gives the plain deal.
- The deal of the day (:meth:`Session.daily`) and par: the solver's move
  count beside the player's on the win panel, from the known solution of the
  start, else asked of the worker after the win.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Concatenate, ParamSpec, TypeVar

from ...cards import Card, make_card
from ...deals import DealNumberError, daily_deal, draw_deal, parse_deal_number
from ...engine import apply_move
from ...game import Game, Turn
from ...piles import CELL, COLUMN, Move, Pile
from ...position import Position
from ...rules import Refusal
from ..address.link import Linked, game_link, parse_link, variant_id
from ..address.query import StartRequest
from ..address.sanitize import isolate
from ..analysis import analysis as an
from ..analysis import playback as pb
from ..progress.daily import KEY_DAILY
from ..progress.keyvalue import MemoryStorage
from ..progress.progress import Progress
from ..progress.settings import CHOICE_SETTINGS, FLAG_SETTINGS, Settings
from ..table.focus import Target, activate
from ..table.table import Outcome, Selection, TableState
from ..text.catalogue import Catalogue
from ..text.screen import hint_text
from ..text.speech import selection_sentence, turn_sentence
from .change import (
    CLEAR,
    CancelSolver,
    Change,
    Effect,
    FinishNext,
    LoadLanguage,
    MessageLine,
    SaveGame,
    SaveSettings,
    SetAddress,
    ShareLink,
    TellHost,
)
from .change import AskSolver as AskEffect
from .watch import Watching

# Settings that change only how the table looks: the page draws again.
LOOK_SETTINGS = ("four-colour", "large-cards", "left-handed", "speed", "theme")
PANELS = ("win", "stuck", "rules", "settings", "stats", "unfinished", "share")
PAR_BUDGET_MS = 10_000  # the worker's search of the start after a win, when no solution is known
# The par on the win panel (``data-state`` of ``[data-win=par]``).
PAR_SEARCHING, PAR_KNOWN, PAR_UNKNOWN = "searching", "known", "unknown"

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Boot:
    """What the page found at start: the address (and the game of a link), and what storage held."""

    request: StartRequest = field(default_factory=StartRequest)
    damaged: bool = False  # stored settings could not be used and start fresh
    storage_refused: bool = False
    link: Linked | None = None


def boot_for(query: object, clock: Callable[[], float] = time.monotonic, **kw: Any) -> Boot:
    """The :class:`Boot` of the address ``query``: what it asks for, and the game of a link with moves."""
    linked = parse_link(query, clock)
    return Boot(linked.request, link=linked, **kw)


def _touches(method: Callable[Concatenate[Session, P], R]) -> Callable[Concatenate[Session, P], R]:
    """An intent of the player: a playback on the table stops first (the player takes over there)."""

    @functools.wraps(method)
    def intent(self: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
        stopped = self._end_watch()
        out = method(self, *args, **kwargs)
        if stopped and isinstance(out, Change):
            words = " ".join(w for w in (self.cat.t("watch.stopped"), out.announce) if w)
            return replace(out, announce=words)
        return out

    return intent


class Session(Watching):
    """Every intent of the player (and of the solver and the host), as a method returning a Change.

    ``progress`` keeps the games and the statistics (in memory when none is
    given: a page whose storage is refused plays on that way).
    """

    def __init__(self, cat: Catalogue, settings: Settings | None = None, progress: Progress | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cat = cat
        self.settings = settings if settings is not None else Settings()
        self.clock = clock
        self.game = Game(1, auto_move=self.settings.flag("auto-move"), clock=clock)
        self.table = TableState(self.game, smart=self.settings.choice("tap") == "smart")
        self.analysis = an.Analysis(self.game.rules)
        self.analysis.winnability = self.settings.flag("winnability")
        self.progress = progress if progress is not None else Progress(MemoryStorage())
        self.panel: str | None = None
        self.level: str | None = None  # the solver's difficulty of a fresh deal
        self.drawn_at_random = False  # New deal drew it (winnable deals only may draw again)
        self.deal_error: str | None = None  # the deal field's error code, if any
        self.notice: str | None = None
        self._said: set[str] = set()  # the notices said once a page load (damaged, refused storage)
        self.watching: pb.Playback | None = None  # the solution on show, step by step
        self.watch_speed = "normal"  # kept from one playback to the next
        self._ticket = 0
        self.par: int | None = None  # the solver's move count for the deal won on the table
        self.par_state: str | None = None
        self.share_url: str | None = None  # the link to copy by hand (the share panel)

    # --- reading ------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.game.position

    def line(self) -> list[Position]:
        """The positions of the game from its start to the one on the table."""
        return [self.game.start, *(t.after for t in self.game.turns)]

    def verdict(self) -> an.Verdict:
        return self.analysis.verdict_on(self.line())

    def variant(self) -> str:
        """The id of the variant on the table (``freecell`` for a classic game saved without one)."""
        return variant_id(self.game) or "freecell"

    def selected_cards(self) -> set[Card]:
        sel = self.table.selection
        if sel is None:
            return set()
        pos = self.position
        if sel.pile.kind == COLUMN:
            return set(pos.columns[sel.pile.index][sel.index:])
        if sel.pile.kind == CELL:
            c = pos.cells[sel.pile.index]
            return set() if c is None else {c}
        n = pos.foundations[sel.pile.index]
        return {make_card(n, sel.pile.index)} if n else set()

    def can_undo(self) -> bool:
        """Undo can do something: take back a turn, or go back to the game New deal (or Replay) left."""
        return self.game.can_undo() or (not self.game.moves and self.progress.left is not None)

    @property
    def finishing(self) -> bool:
        return self.analysis.finishing

    def can_finish(self) -> bool:
        return self.game.can_finish() or self.analysis.finishing

    # --- start and new games --------------------------------------------------
    def start(self, boot: Boot) -> Change:
        """The first game: this tab's own, else the one the address asks for, else the latest kept.

        A game kept for this tab, or the most recent unfinished one, comes
        back (:meth:`~freecell.ui.progress.progress.Progress.restore`); ``?deal=N``
        resumes an unfinished game of that deal, else deals it; an address
        that cannot be read says why, and deals a new game.
        """
        req = boot.request
        damaged = boot.damaged
        link = boot.link
        message: MessageLine | None
        if link is not None and link.moves and link.game is not None:
            # a shared game at a point: opened as it is (a bad link: its plain deal, and why)
            change = self._new_game(prepared=link.game)
            message, announce = change.message, change.announce
            if link.error is not None:
                text = self.cat.t(link.error, text=isolate(link.error_text), n=link.game.deal)
                message = MessageLine(text, "url")
            elif link.game.moves:
                message = MessageLine(self.cat.t("link.opened", n=link.game.moves))
            announce = " ".join(w for w in (message.text if message else "", change.announce) if w)
            if boot.storage_refused:
                self._show_notice("refused")
            if damaged:
                self._show_notice("damaged")
                change = _with(change, effects=(*change.effects, SaveSettings()))
            return _with(change, message=message, announce=announce)
        restored = None if req.error else self.progress.restore(req, self.clock)
        if restored is not None and restored.game is not None:
            change = self._new_game(restored=restored.game, resumed=restored.resumed)
            damaged = damaged or restored.damaged
        else:
            damaged = damaged or (restored is not None and restored.damaged)
            change = self.new_deal()
        effects = list(change.effects)
        message, announce = change.message, change.announce
        if req.error:
            message = MessageLine(self.cat.t(req.error, text=isolate(req.error_text)), "url")
            announce = message.text
        if boot.storage_refused:
            self._show_notice("refused")
        if damaged:
            self._show_notice("damaged")
            effects.append(SaveSettings())  # damaged settings start fresh now
        return _with(change, message=message, effects=tuple(effects), announce=announce)

    def new_deal(self) -> Change:
        """A deal drawn from the source chosen in the settings, of the variant chosen there."""
        change = self._new_game(deal=draw_deal(self.settings.choice("deal-source") or "all"),
                                variant=self.settings.choice("variant"))
        self.drawn_at_random = True
        return change

    def open_deal(self, deal: int, variant: str | None = None) -> Change:
        """Deal ``deal`` (of classic FreeCell unless ``variant``): the embedding host, the deal field.

        An unfinished game of that deal goes on (Replay starts it over).
        """
        found = self.progress.find(deal, variant)
        if found is not None and found.id != self.progress.game_id:
            change = self.resume(found.id)
            if change.new_game:
                return change
        return self._new_game(deal=deal, variant=variant)

    def play_deal(self, text: str) -> Change:
        """The number typed in the settings' deal field: that deal, of the variant chosen there."""
        try:
            n = parse_deal_number(text)
        except DealNumberError as err:
            self.deal_error = err.code
            return Change(kind="deal-error")
        self.deal_error = None
        return self.open_deal(n, self.settings.choice("variant"))

    def resume(self, game_id: str) -> Change:
        """Bring a kept game onto the table (the unfinished games' list, the other-tab notice)."""
        restored = self.progress.resume(game_id, self.clock)
        if restored is None or restored.game is None:
            return Change()
        if self.notice == "other-tab":
            self.notice = None
        change = self._new_game(restored=restored.game, resumed=restored.resumed)
        if restored.damaged:
            self._show_notice("damaged")
        return change

    def _new_game(self, deal: int | None = None, position: Position | None = None,
                  restored: Game | None = None, variant: str | None = None, resumed: bool = True,
                  prepared: Game | None = None,
                  replay: bool = False) -> Change:
        s = self.settings
        self.drawn_at_random = False
        self.level = None
        self.deal_error = None
        self.watching = None
        self.par = self.par_state = None
        if restored is not None:
            game = restored
        elif prepared is not None:  # a shared link's game, or the deal again (Replay)
            game = prepared
        else:
            game = Game(deal, position=position, variant=variant or "freecell",
                        auto_move=s.flag("auto-move"), clock=self.clock)
        game.auto_move = s.flag("auto-move")
        if game.rules.foundation_return != s.flag("foundation-return"):
            game.allow_foundation_return(s.flag("foundation-return"))
        self.game = game
        self.table = TableState(game, smart=s.choice("tap") == "smart")
        self.analysis.rules_changed(game.rules)  # Baker's Game deal 5 is not FreeCell deal 5
        self.analysis.finishing = False
        self.panel = None
        effects: list[Effect] = []
        if game.deal is not None or prepared is not None:
            effects.append(SetAddress())
        self.progress.adopt(game, restored=restored is not None, replay=replay)
        effects.append(SaveGame(whole=True))
        if restored is not None and resumed and (restored.moves or restored.can_redo()):
            if restored.clock.started and not restored.is_won():
                restored.clock.start()  # it ran when the page closed
            message = MessageLine(self.cat.t("msg.restored"))
        elif game.deal is not None:
            message = MessageLine(self.cat.t("deal.started", n=game.deal))
        else:
            message = CLEAR
        effects += self._analyse()
        words = [message.text]
        if game.is_won():
            self.panel = "win"
            effects += self._par_effects()
        elif game.is_stuck():
            self.panel = "stuck"
            words.append(self.cat.t("say.stuck"))
        return Change(kind="new-game", redraw=True, new_game=True, game_changed=True, message=message,
                      announce=" ".join(w for w in words if w), effects=tuple(effects))

    # --- the table ----------------------------------------------------------------
    @_touches
    def tap_card(self, pile: Pile, index: int) -> Change:
        return self._outcome(self.table.tap_card(pile, index))

    @_touches
    def tap_pile(self, pile: Pile) -> Change:
        return self._outcome(self.table.tap_pile(pile))

    @_touches
    def tap_nothing(self) -> Change:
        """A tap on the felt: the selection drops."""
        return self._outcome(self.table.clear())

    @_touches
    def select(self, pile: Pile, index: int) -> Change:
        """Select from card ``index`` of ``pile`` (the long-press picker; never sends a card home)."""
        return self._outcome(self.table.select(pile, index))

    @_touches
    def activate(self, target: Target, select_only: bool = False) -> Change:
        """Enter or Space on the keyboard target."""
        return self._outcome(activate(self.table, target, select_only=select_only))

    @_touches
    def pick(self, pile: Pile, index: int) -> Selection | Change:
        """A drag starts on card ``index`` of ``pile``: the cards it takes, or the refusal to show."""
        picked = self.table.pick(pile, index)
        if isinstance(picked, Refusal):
            return self._refused(picked)
        self.table.selection = None
        return picked

    @_touches
    def drop(self, pile: Pile, index: int, dst: Pile | None) -> Change:
        """Cards dragged from card ``index`` of ``pile`` released over ``dst`` (``None``: nowhere).

        The player carried the cards there: they land in one step (the
        frames skip a multi-card move's single-card steps), then the
        auto-moves play one by one.
        """
        out = self.table.drop(pile, index, dst)
        if out.kind == "deselected":  # dropped where it came from, or off the piles: back in place
            return Change(kind="deselected", redraw=True)
        return self._outcome(replace(out, steps=()) if out.kind == "moved" else out)

    def landing(self, pile: Pile, index: int, dst: Pile | None) -> Pile | None:
        """Where cards dragged from card ``index`` of ``pile`` would land over ``dst``; ``None``: refused.

        A pure query (the drag's highlight asks it as the pointer moves).
        """
        return self.table.landing(pile, index, dst)

    @_touches
    def play(self, move: Move) -> Change:
        """Play a move chosen elsewhere (the hint's)."""
        return self._outcome(self.table.play(move))

    @_touches
    def clear_selection(self) -> Change:
        return self._outcome(self.table.clear())

    def _outcome(self, out: Outcome) -> Change:
        if out.kind == "moved" and out.turn is not None:
            return self._after_turn(out.turn, out.steps)
        if out.kind == "refused" and out.refusal is not None:
            return self._refused(out.refusal)
        if out.kind == "selected" and out.selection is not None:
            return Change(kind="selected", redraw=True,
                          announce=selection_sentence(self.cat, self.position, out.selection))
        if out.kind == "deselected":
            return Change(kind="deselected", redraw=True, announce=self.cat.t("say.deselected"))
        return Change(kind="none", redraw=True)

    def _refused(self, refusal: Refusal) -> Change:
        text = self.cat.refusal(refusal, self.game.rules)
        line = MessageLine(text, refusal.reason.value)
        return Change(kind="refused", redraw=True, message=line, announce=text)

    def _after_turn(self, turn: Turn, steps: tuple[Move, ...] = (), finishing: bool = False) -> Change:
        frames = [turn.before]
        pos = turn.before
        for m in steps or (turn.move,):
            pos = apply_move(pos, m)
            frames.append(pos)
        after_move = pos
        for m in turn.auto:
            pos = apply_move(pos, m)
            frames.append(pos)
        effects: list[Effect] = [TellHost(e) for e in self.progress.turn_played(self.game)]
        effects.append(SaveGame())
        effects += self._analyse(finishing=finishing)
        words = [] if finishing else [turn_sentence(self.cat, turn, after_move)]
        if self.game.is_won():
            self.panel = "win"
            self.analysis.finishing = False
            self.watching = None
            effects += self._par_effects()
            time_text = self.cat.time(self.game.elapsed())
            words.append(self.cat.t("say.won", moves=self.game.moves, time=time_text))
        elif self.game.is_stuck():
            self.panel = "stuck"
            words.append(self.cat.t("say.stuck"))
        else:
            self.panel = None
        return Change(kind="moved", frames=tuple(frames), redraw=True, game_changed=True, message=CLEAR,
                      announce=" ".join(w for w in words if w), effects=tuple(effects))

    # --- history ------------------------------------------------------------------
    @_touches
    def undo(self) -> Change:
        """Take back the last turn; on a fresh deal, go back to the game New deal left (it was kept)."""
        self.table.clear()
        self.panel = None
        left = self.progress.left
        if not self.game.moves and left is not None:
            back = self.resume(left)
            if back.new_game:
                self.progress.left = None
                deal = self.game.deal
                text = self.cat.t("msg.back_to_game", n=deal) if deal is not None else self.cat.t(
                    "msg.restored")
                return _with(back, message=MessageLine(text), announce=text)
        turn = self.game.undo()
        if turn is None:
            text = self.cat.t("msg.nothing_to_undo")
            return Change(kind="none", redraw=True, message=MessageLine(text), announce=text)
        text = self.cat.t("msg.undone")
        effects = [SaveGame(), *self._analyse()]
        return Change(kind="undone", frames=(turn.after, turn.before), redraw=True, game_changed=True,
                      message=MessageLine(text), announce=text, effects=tuple(effects))

    @_touches
    def redo(self) -> Change:
        self.table.clear()
        turn = self.game.redo()
        if turn is None:
            text = self.cat.t("msg.nothing_to_redo")
            return Change(kind="none", redraw=True, message=MessageLine(text), announce=text)
        change = self._after_turn(turn)  # says the move again
        return _with(change, kind="redone", message=MessageLine(self.cat.t("msg.redone")))

    def can_replay(self) -> bool:
        """Whether Replay would change anything: the game has moves (played or undone)."""
        return bool(self.game.moves or self.game.can_redo())

    @_touches
    def replay(self) -> Change:
        """The deal again from its start, as a new game of it.

        A started game is kept (in the unfinished games) until the replay's
        first move: Undo before that brings it back, moves and all, so one
        stray key loses nothing; after it, the game is abandoned.
        """
        old = self.game
        if not self.can_replay():
            return Change()
        self.table.clear()
        self.analysis.finishing = False
        fresh = Game(old.deal, position=old.start if old.deal is None else None,
                     rules=old.rules if old.variant is None else None,
                     variant=None if old.variant is None else old.variant.id,
                     auto_move=old.auto_move, clock=self.clock)
        par = (self.par, self.par_state)  # the same deal: the same par
        change = self._new_game(prepared=fresh, replay=True)
        self.par, self.par_state = par if par[1] == PAR_KNOWN else (None, None)
        words = [self.cat.t("msg.replayed", n=old.deal) if old.deal is not None else self.cat.t(
            "msg.replayed_board")]
        if self.progress.left is not None:
            words.append(self.cat.t("msg.undo_brings_back"))
        text = " ".join(words)
        return _with(change, message=MessageLine(text), announce=text)

    @_touches
    def back_to_winnable(self) -> Change:
        back = self.analysis.last_winnable(self.line())
        if back is None:
            return Change()
        self.table.clear()
        for _ in range(back):
            self.game.undo()
        self.panel = None
        text = self.cat.t("msg.back_winnable")
        effects = [SaveGame(), *self._analyse()]
        return Change(kind="jumped", redraw=True, game_changed=True, message=MessageLine(text), announce=text,
                      effects=tuple(effects))

    # --- analysis -----------------------------------------------------------------
    def _analyse(self, finishing: bool = False) -> list[Effect]:
        out: list[Effect] = []
        for ask in self.analysis.position_changed(self.line(), finishing=finishing):
            out.append(CancelSolver() if ask is None else AskEffect(ask))
        return out

    @_touches
    def hint(self) -> Change:
        """Hint: what is known, else a quick move at once while the solver looks; twice plays it."""
        pos = self.position
        bar = self.analysis.bar
        if bar is not None and bar.position == pos and bar.move is not None:
            self.analysis.clear_bar()
            return self.play(bar.move)  # the second press plays it
        line = self.line()
        bar = self.analysis.show(line)
        effects: list[Effect] = []
        if bar.state in (an.SEARCHING, an.FALLBACK) and self.analysis.verdict_on(line) is an.Verdict.UNKNOWN:
            self.analysis.wants_hint = True
            if self.analysis.asking != pos and not self.analysis.unavailable:
                self.analysis.asking = pos
                effects.append(AskEffect(an.Ask(pos, self.game.rules, an.HINT_BUDGET_MS,
                                                self.analysis.background)))
        return Change(kind="analysis", announce=self._bar_words(), effects=tuple(effects))

    def clear_hint(self) -> Change:
        self.analysis.clear_bar()
        return Change(kind="analysis")

    def _bar_words(self) -> str:
        bar = self.analysis.bar
        return "" if bar is None else hint_text(self.cat, bar)

    def solver_reply(self, pos: Position, reply: an.Reply) -> Change:
        """The worker answered about ``pos`` (typed: :func:`~freecell.ui.analysis.analysis.parse_reply`)."""
        deep = self.analysis.deep and pos == self.analysis.asking
        change = self._solver_reply(pos, reply)
        if change.new_game:
            return change
        if self.par_state == PAR_SEARCHING and pos == self.game.start:
            self._count_par()
        pbk = self.watching
        if pbk is None or pbk.state != pb.SEARCHING or pos != pbk.origin or pos != self.position:
            return change
        k = self.analysis.known.get(pos)
        if k is not None and k.verdict is an.Verdict.SOLVED and k.rest:
            ready = self._watch_ready(pbk, k.rest)
            return _with(ready, effects=(*change.effects, *ready.effects))
        resumed = any(isinstance(e, AskEffect) and e.ask.position == pos for e in change.effects)
        searching_on = resumed or not deep
        if isinstance(reply, an.SolverReply) and reply.verdict is an.Verdict.UNKNOWN and searching_on:
            return change  # the worker searches on
        why = (pb.UNAVAILABLE if isinstance(reply, an.SolverFailure) else
               pb.UNSOLVABLE if self.verdict() is an.Verdict.UNSOLVABLE else pb.NOT_FOUND)
        return _with(change, announce=self._watch_none(pbk, why))

    def _solver_reply(self, pos: Position, reply: an.Reply) -> Change:
        a = self.analysis
        a.answered(pos, reply)
        line = self.line()
        if isinstance(reply, an.SolverFailure):
            if a.bar is not None and a.bar.state == an.SEARCHING and a.bar.position == pos:
                a.bar = an.HintBar(an.UNAVAILABLE, pos)
                return Change(kind="analysis", announce=self._bar_words())
            return Change(kind="analysis")
        game = self.game
        if pos == game.start and game.moves == 0 and not game.can_redo() and pos == self.position:
            if reply.verdict is an.Verdict.UNSOLVABLE and self.drawn_at_random and (
                    self.settings.choice("deal-source") == "winnable"):
                return self.new_deal()  # winnable deals only: draw again
            if reply.verdict is an.Verdict.SOLVED and reply.difficulty in an.DIFFICULTIES and game.deal:
                self.level = reply.difficulty
        if pos not in line:
            return Change(kind="analysis")  # about a position no longer on this line of play
        effects: list[Effect] = []
        current = pos == line[-1]
        verdict = a.verdict_on(line)
        if current and reply.verdict is an.Verdict.UNKNOWN and pos not in a.deepened:
            effects.append(AskEffect(a.deep_ask(pos)))  # the worker resumes the same search
        elif not current and reply.verdict is an.Verdict.UNKNOWN:
            effects += [AskEffect(ask) for ask in a.deepen_ancestor(line, pos)]
        elif not current and verdict is an.Verdict.UNSOLVABLE and a.asking is not None:
            a.asking = None  # an ancestor was proven lost: the search of this position is moot
            effects.append(CancelSolver())
        words = ""
        bar = a.bar
        if bar is not None and bar.position == line[-1] and (
                a.wants_hint or bar.state in (an.FALLBACK, an.SEARCHING) or verdict is an.Verdict.UNSOLVABLE):
            before = bar
            a.show(line, quick=False)
            if a.bar is not None and a.bar.state == an.SEARCHING:
                a.bar = before  # nothing better yet: keep the suggestion on show
            elif a.bar != before:
                words = self._bar_words()
            if verdict is not an.Verdict.UNKNOWN:
                a.wants_hint = False
        return Change(kind="analysis", announce=words, effects=tuple(effects))

    def solver_unavailable(self, first: bool, dead: bool) -> Change:
        """The worker failed: it is replaced (and asked again) unless ``dead``."""
        a = self.analysis
        if dead:
            a.unavailable = True
            a.asking = None
            a.background = None
            if self.par_state == PAR_SEARCHING:
                self.par_state = PAR_UNKNOWN
            if self.watching is not None and self.watching.state == pb.SEARCHING:
                return Change(kind="watch", announce=self._watch_none(self.watching, pb.UNAVAILABLE))
        bar = a.bar
        waiting = bar is not None and (
            bar.state == an.SEARCHING or (bar.state == an.FALLBACK and bar.suggestion))
        if bar is not None and waiting and (dead or (first and bar.move is None)):
            # no solver is coming: what is on show is all there is
            a.bar = an.HintBar(an.UNAVAILABLE, bar.position, bar.move)
            return Change(kind="analysis", announce=self._bar_words())
        return Change(kind="analysis")

    # --- finish ---------------------------------------------------------------------
    @_touches
    def finish(self) -> Change:
        """Finish: every card left goes home, one turn each (pressed again: stop)."""
        if self.analysis.finishing:
            return self.stop_finish()
        if not self.game.can_finish():
            return Change()
        self.analysis.finishing = True
        return self.finish_step()

    def finish_step(self) -> Change:
        if not self.analysis.finishing:
            return Change()
        turn = self.game.finish_step()
        if turn is None:
            self.analysis.finishing = False
            return Change(kind="none")
        change = self._after_turn(turn, finishing=True)
        if self.game.is_won() or not self.game.can_finish():
            self.analysis.finishing = False
            return change
        return _with(change, effects=(*change.effects, FinishNext(an.FINISH_STEP_MS)))

    def stop_finish(self, quiet: bool = False) -> Change:
        if not self.analysis.finishing:
            return Change()
        self.analysis.finishing = False
        if quiet:
            return Change(kind="analysis")
        text = self.cat.t("msg.finish_stopped")
        return Change(kind="analysis", message=MessageLine(text), announce=text)

    # --- par, the deal of the day, sharing ---------------------------------------------
    def _par_effects(self) -> list[Effect]:
        """The game is won: the solver's move count, from the start's known solution or asked for."""
        self.par, self.par_state = None, PAR_SEARCHING
        if self._count_par():
            return []
        if self.analysis.unavailable:
            self.par_state = PAR_UNKNOWN
            return []
        return [AskEffect(an.Ask(self.game.start, self.game.rules, PAR_BUDGET_MS))]

    def _count_par(self) -> bool:
        k = self.analysis.known.get(self.game.start)
        if k is None:
            return False
        if k.verdict is an.Verdict.SOLVED and k.rest:
            self.par = pb.par(self.game.start, k.rest, self.game.rules, self.game.auto_move)
            self.par_state = PAR_KNOWN
        else:
            self.par_state = PAR_UNKNOWN
        return True

    def daily(self) -> Change:
        """The deal of the day (of the page's date), classic FreeCell; a game of it under way goes on."""
        n = daily_deal(self.progress.today())
        change = self.open_deal(n, "freecell")
        text = self.cat.t("daily.started", n=n)
        return _with(change, message=MessageLine(text), announce=text)

    def share(self) -> Change:
        """Share: the game as a link, for the page to copy (or hand to the system's share sheet)."""
        link = game_link(self.game)
        if link is None:
            text = self.cat.t("share.unavailable")
            return Change(kind="panel", message=MessageLine(text), announce=text)
        return Change(kind="share", effects=(ShareLink(link),))

    def shared(self, how: str, url: str) -> Change:
        """How the page's share went: ``copied``, ``shared``, ``cancelled`` or ``failed`` (then by hand)."""
        if how == "cancelled":
            return Change()
        if how in ("copied", "shared"):  # done: the panel it came from closes, the line says so
            if self.panel in ("settings", "win", "share"):
                self.panel = None
            text = self.cat.t("share." + how)
            return Change(kind="panel", message=MessageLine(text), announce=text)
        self.share_url = url
        self.panel = "share"
        return Change(kind="panel", announce=self.cat.t("share.by_hand"))

    # --- settings and language ---------------------------------------------------------
    def set_setting(self, name: str, value: bool | str | None) -> Change:
        """A control of the settings panel changed: it applies at once and is kept."""
        old = self.settings
        if name in FLAG_SETTINGS and isinstance(value, bool):
            new = old.with_flag(name, value)
        elif name in CHOICE_SETTINGS and (value is None or isinstance(value, str)):
            new = old.with_choice(name, value or None)
        else:
            return Change()
        if new == old:
            return Change()
        self.settings = new
        effects: list[Effect] = [SaveSettings()]
        look = name in LOOK_SETTINGS
        if name == "winnability":
            self.analysis.winnability = new.flag(name)
            effects += self._analyse()
        elif name == "auto-move":
            self.game.auto_move = new.flag(name)
        elif name == "tap":
            self.table.smart = new.choice(name) == "smart"
        elif name == "foundation-return":
            self.game.allow_foundation_return(new.flag(name))
            self.analysis.rules_changed(self.game.rules)
            effects += self._analyse()
        elif name == "language":
            effects.append(LoadLanguage(new.choice(name)))
        return Change(kind="settings", redraw=look, effects=tuple(effects))

    def set_catalogue(self, cat: Catalogue) -> Change:
        """The language changed: every text again (the search, the hint and Finish go on)."""
        if cat.lang == self.cat.lang:
            return Change()
        self.cat = cat
        return Change(kind="texts", texts=True, redraw=True, message=CLEAR)

    # --- panels, notices, statistics, the page ---------------------------------------------
    def open_panel(self, name: str) -> Change:
        if name not in PANELS:
            return Change()
        self.panel = name
        if name == "settings":
            self.deal_error = None
        return Change(kind="panel")

    def close_panels(self) -> Change:
        had = self.panel is not None
        self.panel = None
        return Change(kind="panel") if had else Change()

    def escape(self) -> Change | None:
        """Escape: close a panel, else the hint bar, else drop the selection; ``None`` if nothing."""
        if self.panel is not None:
            return self.close_panels()
        if self.watching is not None:
            return self.stop_watch()
        if self.analysis.bar is not None:
            return self.clear_hint()
        if self.table.selection is not None:
            return self.clear_selection()
        return None

    def reset_stats(self) -> Change:
        self.progress.reset()
        text = self.cat.t("msg.stats_reset")
        return Change(kind="panel", message=MessageLine(text), announce=text)

    def _show_notice(self, kind: str) -> bool:
        """Show notice ``kind``; ``damaged`` and a refused storage are said once a page load."""
        if kind in ("damaged", "refused"):
            if kind in self._said:
                return False
            self._said.add(kind)
            kind = "storage" if kind == "refused" else kind
        self.notice = kind
        return True

    def save(self) -> Change:
        """Write the game on the table (the page runs this for :class:`~.change.SaveGame`)."""
        kind = self.progress.save(self.game)
        if kind is not None and self._show_notice(kind):
            return Change(kind="panel")
        return Change()

    def storage_failed(self) -> Change:
        """The settings could not be written: progress is not saved here either."""
        return Change(kind="panel") if self._show_notice("refused") else Change()

    def storage_changed(self, key: str | None) -> Change:
        """Another tab wrote to storage (a ``storage`` event): its newer moves are never overwritten."""
        seen = self.progress.store.changed(key)
        if seen.conflict:
            self._show_notice("other-tab")
            return Change(kind="panel")
        if seen.kind == "stats":
            self.progress.reread()
            return Change(kind="panel")
        if key == KEY_DAILY:
            self.progress.reread_daily()
            return Change(kind="panel")
        return Change()

    def resume_here(self) -> Change:
        """The other-tab notice's button: this tab's game as the other tab left it."""
        gid = self.progress.game_id
        return self.resume(gid) if gid is not None else Change()

    def close_notice(self) -> Change:
        if self.notice == "storage":
            self.progress.failure.dismissed()
        self.notice = None
        return Change(kind="panel")

    def hidden(self) -> Change:
        """The page is hidden (another tab, the phone locked): the clock stops, the game is kept."""
        self.game.clock.pause()
        return Change(effects=(SaveGame(whole=True),))

    def shown(self) -> Change:
        self.game.clock.resume()
        return Change()


def _with(change: Change, **fields: Any) -> Change:
    return replace(change, **fields)
