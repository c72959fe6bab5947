"""The headless page: the game on the table, and the player's intents as methods returning a Change.

A :class:`Session` owns the game, the table state (selection), the settings,
the analysis (what the solver knows: :mod:`freecell.ui.analysis`), the
progress (the games kept, the statistics: :mod:`freecell.ui.progress`) and
the panel on show.  Each intent returns one frozen
:class:`~freecell.ui.session.change.Change` for the page to apply; the page
renders by reading the session, whose words come from :mod:`freecell.ui.text`.
It is composed of four controllers, each with its own state and intents:

- ``session.opening`` (:mod:`.opening`): the page's start, New deal, a deal
  by number, Replay, a kept game; each puts its game on the table with
  :meth:`Session.install`;
- ``session.watch`` (:mod:`.watch`): the solution played back, each step a
  turn (:meth:`Session.after_turn`); any intent of the player stops it first;
- ``session.keeping`` (:mod:`.keeping`): what the page's writes gave, other
  tabs, the notice line, the game as a link;
- ``session.preferences`` (:mod:`.preferences`): a setting or the language
  changed.

No DOM here: all of it is tested in CPython (``tests/test_session.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ...engine import apply_move
from ...game import Game, Turn
from ...piles import Move, Pile
from ...position import Position
from ..address.link import variant_id
from ..analysis.analysis import Analysis, HintState
from ..analysis.playback import Par, ParState
from ..analysis.replies import DIFFICULTIES, Reply, SolverReply, Verdict
from ..progress.keyvalue import MemoryStorage
from ..progress.progress import Progress
from ..progress.settings import Settings
from ..table.focus import Action, Target, activate
from ..table.table import Outcome, OutcomeKind, Selection, TableState
from ..text import sentences as say
from ..text.bars import hint_text
from ..text.catalogue import Catalogue
from ..text.panels import par_text
from ..text.speech import selection_sentence, turn_sentence
from . import change as ch
from .change import CLEAR, Change, ChangeKind, MessageLine, Panel, SaveGame
from .keeping import Keeping
from .opening import Opening
from .preferences import Preferences
from .watch import Watch, player_intent

FINISH_STEP_MS = 140  # between two cards going home by Finish


class Session:
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
        self.analysis = Analysis(self.game.rules, winnability=self.settings.flag("winnability"))
        self.progress = progress if progress is not None else Progress(MemoryStorage())
        self.panel: Panel | None = None
        self.level: str | None = None  # the solver's difficulty of the deal (rated fresh, kept)
        self.finishing = False  # Finish is sending the cards home, one turn each
        self.par: Par | None = None  # the solver's move count for the deal won on the table
        self.watch = Watch(self)
        self.opening = Opening(self)
        self.keeping = Keeping(self)
        self.preferences = Preferences(self)

    # --- reading ------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self.game.position

    def line(self) -> list[Position]:
        """The positions of the game from its start to the one on the table."""
        return [self.game.start, *(t.after for t in self.game.turns)]

    def verdict(self) -> Verdict:
        return self.analysis.verdict_on(self.line())

    def variant(self) -> str:
        """The id of the variant on the table (``freecell`` for a classic game saved without one)."""
        return variant_id(self.game) or "freecell"

    def available(self, action: Action) -> bool:
        """Whether the action bar's button (and its shortcut) does something now.

        Undo also goes back to the game New deal (or Replay) left; New deal gives its place
        to Finish while the cards can go home; Replay needs a move (played or undone).
        """
        game = self.game
        if action == "undo":
            return game.can_undo() or (not game.moves and self.progress.left is not None)
        if action == "redo":
            return game.can_redo()
        if action in ("finish", "new"):
            return (game.can_finish() or self.finishing) == (action == "finish")
        if action == "replay":
            return bool(game.moves or game.can_redo())
        return True  # hint

    # --- the table ----------------------------------------------------------------
    @player_intent
    def tap_card(self, pile: Pile, index: int) -> Change:
        change = self._outcome(self.table.tap_card(pile, index))
        if (change.kind is ChangeKind.SELECTED and not self.table.smart
                and self.progress.first_time("double-tap")):  # once for good: the best place, one gesture
            tip = MessageLine(say.double_tap_tip(self.cat), again=say.double_tap_tip)
            change = replace(change, message=tip)
        return change

    @player_intent
    def double_tap(self, pile: Pile, index: int) -> Change:
        """A double tap or double click on a card: to the best place (:meth:`TableState.double_tap`)."""
        return self._outcome(self.table.double_tap(pile, index))

    @player_intent
    def tap_pile(self, pile: Pile) -> Change:
        return self._outcome(self.table.tap_pile(pile))

    @player_intent
    def tap_nothing(self) -> Change:
        """A tap on the felt: the selection drops."""
        return self._outcome(self.table.clear())

    @player_intent
    def select(self, pile: Pile, index: int) -> Change:
        """Select from card ``index`` of ``pile`` (the long-press picker; never sends a card home)."""
        return self._outcome(self.table.select(pile, index))

    @player_intent
    def activate(self, target: Target, select_only: bool = False) -> Change:
        """Enter or Space on the keyboard target."""
        return self._outcome(activate(self.table, target, select_only=select_only))

    @player_intent
    def pick(self, pile: Pile, index: int) -> Selection | Change:
        """A drag starts on card ``index`` of ``pile``: the cards it takes, or the refusal to show."""
        picked = self.table.pick(pile, index)
        if isinstance(picked, Selection):
            self.table.selection = None
            return picked
        return self._outcome(Outcome(OutcomeKind.REFUSED, refusal=picked))

    @player_intent
    def drop(self, pile: Pile, index: int, dst: Pile | None) -> Change:
        """Cards dragged from card ``index`` of ``pile`` released over ``dst`` (``None``: nowhere).

        The player carried the cards there: they land in one step (the
        frames skip a multi-card move's single-card steps), then the
        auto-moves play one by one.
        """
        out = self.table.drop(pile, index, dst)
        if out.kind is OutcomeKind.DESELECTED:  # dropped where it came from, or off the piles: back in place
            return Change(kind=ChangeKind.DESELECTED, redraw=True)
        return self._outcome(replace(out, steps=()) if out.kind is OutcomeKind.MOVED else out)

    def landing(self, pile: Pile, index: int, dst: Pile | None) -> Pile | None:
        """Where cards dragged from card ``index`` of ``pile`` would land over ``dst``; ``None``: refused.

        A pure query (the drag's highlight asks it as the pointer moves).
        """
        return self.table.landing(pile, index, dst)

    @player_intent
    def play(self, move: Move) -> Change:
        """Play a move chosen elsewhere (the hint's)."""
        return self._outcome(self.table.play(move))

    def _outcome(self, out: Outcome) -> Change:
        if out.kind is OutcomeKind.MOVED and out.turn is not None:
            return self.after_turn(out.turn, out.steps)
        if out.kind is OutcomeKind.REFUSED and out.refusal is not None:
            text = self.cat.refusal(out.refusal, self.game.rules)
            line = MessageLine(text, out.refusal.reason.value)
            return Change(kind=ChangeKind.REFUSED, redraw=True, message=line, announce=text)
        if out.kind is OutcomeKind.SELECTED and out.selection is not None:
            return Change(kind=ChangeKind.SELECTED, redraw=True,
                          announce=selection_sentence(self.cat, self.position, out.selection))
        if out.kind is OutcomeKind.DESELECTED:
            return Change(kind=ChangeKind.DESELECTED, redraw=True, announce=say.deselected(self.cat))
        return Change(kind=ChangeKind.NONE, redraw=True)

    # --- the game on the table: what every game, turn and undo goes through -------------------
    def install(self, game: Game, *, kept: bool = False, resumed: bool = True, prepared: bool = False,
                replay: bool = False, par: Par | None = None) -> Change:
        """Put ``game`` on the table (:mod:`~freecell.ui.session.opening` chooses it).

        ``kept``: it comes from storage with its history (``resumed``: as it
        was left); ``prepared``: a link's game, or the deal again (``replay``);
        ``par``: the deal's, when it is known already.
        """
        s = self.settings
        self.watch.interrupt()
        self.level, self.par, self.finishing, self.panel = self.progress.level_of(game), par, False, None
        game.auto_move = s.flag("auto-move")
        if game.rules.foundation_return != s.flag("foundation-return"):
            game.allow_foundation_return(s.flag("foundation-return"))
        self.game = game
        self.table = TableState(game, smart=s.choice("tap") == "smart")
        self.analysis.rules_changed(game.rules)  # Baker's Game deal 5 is not FreeCell deal 5
        effects: list[ch.Effect] = [ch.SetAddress()] if game.deal is not None or prepared else []
        self.progress.adopt(game, restored=kept, replay=replay)
        effects.append(SaveGame(whole=True))
        if kept and resumed and (game.moves or game.can_redo()):
            if game.clock.started and not game.is_won():
                game.clock.start()  # it ran when the page closed
            message = MessageLine(say.restored(self.cat), again=say.restored)
        elif game.deal is not None:
            deal, left = game.deal, self.progress.left is not None and not replay
            message = MessageLine(say.deal_started(self.cat, deal, left),
                                  again=lambda cat: say.deal_started(cat, deal, left))
        else:
            message = CLEAR
        effects += self.analyse()
        ended = self._ended(effects)
        stuck = ended if ended is not None and self.panel is Panel.STUCK else ""  # a game won says nothing
        words = say.joined(message.text, stuck)
        return Change(kind=ChangeKind.NEW_GAME, redraw=True, new_game=True, game_changed=True,
                      message=message, announce=words, effects=tuple(effects))

    def after_turn(self, turn: Turn, steps: tuple[Move, ...] = (), finishing: bool = False) -> Change:
        """A turn was played (a move and its auto-moves, a redo, a Finish step, a playback's step).

        ``steps``: the move's single-card steps to show one by one (none: in one step).
        """
        frames = [turn.before]
        pos = turn.before
        for m in steps or (turn.move,):
            pos = apply_move(pos, m)
            frames.append(pos)
        after_move = pos
        for m in turn.auto:
            pos = apply_move(pos, m)
            frames.append(pos)
        effects: list[ch.Effect] = [ch.TellHost(e) for e in self.progress.turn_played(self.game)]
        effects.append(SaveGame())
        effects += self.analyse(finishing=finishing)
        move_words = "" if finishing else turn_sentence(self.cat, turn, after_move)
        self._no_panel()
        words = self._ended(effects)
        return Change(kind=ChangeKind.MOVED, frames=tuple(frames), redraw=True, game_changed=True,
                      message=CLEAR, announce=say.joined(move_words, words or ""), effects=tuple(effects))

    def _ended(self, effects: list[ch.Effect]) -> str | None:
        """After a game came or a turn: the win panel (and its par) or the stuck panel, and their words."""
        game = self.game
        if game.is_won():
            self.panel = Panel.WIN
            self.finishing = False
            self.watch.interrupt()
            self.par, asks = self.analysis.par(game.start, game.auto_move)
            effects += asks
            return say.joined(say.won(self.cat, game, self.progress.watched), self._par_words())
        if game.is_stuck():
            self.panel = Panel.STUCK
            return say.stuck(self.cat, game.moves)
        return None

    def take_back(self) -> Change | None:
        """Take back the last turn (undo, a playback's step back), without words; ``None``: none."""
        self.table.clear()
        turn = self.game.undo()
        if turn is None:
            return None
        self._no_panel()
        return Change(kind=ChangeKind.UNDONE, frames=(turn.after, turn.before), redraw=True,
                      game_changed=True, effects=(SaveGame(), *self.analyse()))

    def analyse(self, finishing: bool = False) -> list[ch.Effect]:
        """The table shows another position: what the solver is asked (and Finish stops, but for its own)."""
        if not finishing:
            self.finishing = False
        return list(self.analysis.position_changed(self.line(), finishing=finishing))

    # --- history ------------------------------------------------------------------
    @player_intent
    def undo(self) -> Change:
        """Take back the last turn; on a fresh deal, go back to the game New deal left (it was kept)."""
        self.table.clear()
        self._no_panel()
        left = self.progress.left
        if not self.game.moves and left is not None:
            back = self.opening.resume(left)
            if back.new_game:
                self.progress.forget_left()
                text = say.back_to_game(self.cat, self.game.deal)
                return replace(back, message=MessageLine(text), announce=text)
        change = self.take_back()
        if change is None:
            text = say.nothing_to_undo(self.cat)
            return Change(kind=ChangeKind.NONE, redraw=True, message=MessageLine(text), announce=text)
        text = say.undone(self.cat)
        return replace(change, message=MessageLine(text), announce=text)

    @player_intent
    def redo(self) -> Change:
        self.table.clear()
        turn = self.game.redo()
        if turn is None:
            text = say.nothing_to_redo(self.cat)
            return Change(kind=ChangeKind.NONE, redraw=True, message=MessageLine(text), announce=text)
        change = self.after_turn(turn)  # says the move again
        return replace(change, kind=ChangeKind.REDONE, message=MessageLine(say.redone(self.cat)))

    @player_intent
    def back_to_winnable(self) -> Change:
        back = self.analysis.last_winnable(self.line())
        if back is None:
            return Change()
        self.table.clear()
        for _ in range(back):
            self.game.undo()
        self._no_panel()
        text = say.back_to_winnable(self.cat)
        return Change(kind=ChangeKind.JUMPED, redraw=True, game_changed=True, message=MessageLine(text),
                      announce=text, effects=(SaveGame(), *self.analyse()))

    # --- hints and the solver -----------------------------------------------------------------
    @player_intent
    def hint(self) -> Change:
        """Hint: what is known, else a quick move at once while the solver looks; twice plays it."""
        move = self.analysis.take_hint(self.position)
        if move is not None:
            return self.play(move)  # the second press plays it
        effects = tuple(self.analysis.ask_hint(self.line()))
        bar = self.analysis.bar
        tip = CLEAR  # the hint bar speaks now: a refusal said before it goes (it stood beside the bar)
        if bar is not None and bar.state is HintState.FOUND and bar.move is not None \
                and self.progress.first_time("hint-again"):  # a move of a solution, not a guess
            tip = MessageLine(say.hint_again_tip(self.cat), again=say.hint_again_tip)  # once for good
        return Change(kind=ChangeKind.ANALYSIS, announce="" if bar is None else hint_text(self.cat, bar),
                      message=tip, effects=effects)

    def solver_reply(self, pos: Position, reply: Reply) -> Change:
        """The worker answered about ``pos`` (typed: :func:`~freecell.ui.analysis.replies.parse_reply`).

        A reply checked under other rules (a search, or a shortening, of the
        same cards before a variant change) says nothing here and is dropped.
        """
        a, game = self.analysis, self.game
        if isinstance(reply, SolverReply) and reply.rules is not None and reply.rules != a.rules:
            return Change(kind=ChangeKind.ANALYSIS)
        deep = a.deep and pos == a.asking
        a.answered(pos, reply)
        fresh = pos == game.start and game.moves == 0 and not game.can_redo() and pos == self.position
        if isinstance(reply, SolverReply) and fresh:
            again = self.opening.redraw_lost() if reply.verdict is Verdict.UNSOLVABLE else None
            if again is not None:
                return again  # winnable deals only: drawn again
            if reply.verdict is Verdict.SOLVED and reply.difficulty in DIFFICULTIES and game.deal:
                self.level = reply.difficulty
                self.progress.rate(game, reply.difficulty)  # shown again when the deal comes back
        answer = a.after_reply(pos, reply, self.line())
        words = hint_text(self.cat, a.bar) if answer.bar_changed and a.bar is not None else ""
        change = Change(kind=ChangeKind.ANALYSIS, announce=words, effects=answer.effects)
        # the par of a game won: once the start's solution comes, and again when a shorter one does
        if self.par is not None and self.par.state is not ParState.UNKNOWN and pos == game.start \
                and game.is_won() and isinstance(reply, SolverReply) and reply.verdict is Verdict.SOLVED:
            # shown, not said: a count that comes after the win (and shrinks as the worker shortens
            # it, several times in a few seconds) would cut the win's own sentence short
            self.par = a.par(game.start, game.auto_move)[0]
        return self.watch.solver_answered(pos, reply, deep, change)

    def _par_words(self) -> str:
        """The win panel's par line, said with the win when the solver's count is known by then."""
        if self.par is None or self.par.state is not ParState.KNOWN:
            return ""
        return par_text(self.cat, self.game.moves, self.par, self.progress.watched)

    def solver_unavailable(self, first: bool, dead: bool) -> Change:
        """The worker failed: it is replaced (and asked again) unless ``dead``."""
        a = self.analysis
        if dead:
            if self.par is not None and self.par.state is ParState.SEARCHING:
                self.par = Par(ParState.UNKNOWN)
            waiting = self.watch.solver_gone()
            if waiting is not None:
                a.solver_failed(first, dead=True)
                return waiting
        if a.solver_failed(first, dead) and a.bar is not None:
            return Change(kind=ChangeKind.ANALYSIS, announce=hint_text(self.cat, a.bar))
        return Change(kind=ChangeKind.ANALYSIS)

    # --- finish ---------------------------------------------------------------------
    @player_intent
    def finish(self) -> Change:
        """Finish: every card left goes home, one turn each; pressed again (or a touch, Enter): stop."""
        if self.finishing:
            self.finishing = False
            text = say.finish_stopped(self.cat)
            return Change(kind=ChangeKind.ANALYSIS, message=MessageLine(text), announce=text)
        if not self.game.can_finish():  # F, with no Finish button on show: say why nothing happens
            text = say.finish_not_yet(self.cat)
            return Change(kind=ChangeKind.NONE, message=MessageLine(text), announce=text)
        self.finishing = True
        return self.finish_step()

    def finish_step(self) -> Change:
        if not self.finishing:
            return Change()
        turn = self.game.finish_step()
        if turn is None:
            self.finishing = False
            return Change(kind=ChangeKind.NONE)
        change = self.after_turn(turn, finishing=True)
        if self.game.is_won() or not self.game.can_finish():
            self.finishing = False
            return change
        return replace(change, effects=(*change.effects, ch.FinishNext(FINISH_STEP_MS)))

    # --- panels ---------------------------------------------------------------------
    def open_panel(self, name: str) -> Change:
        if name not in tuple(Panel):
            return Change()
        self.panel = Panel(name)
        self.game.clock.pause()  # the clock stands still while a panel covers the table (Rules...)
        if self.panel is Panel.GAME:
            self.opening.clear_deal_error()
        return Change(kind=ChangeKind.PANEL)

    def close_panels(self) -> Change:
        had = self.panel is not None
        self._no_panel()
        return Change(kind=ChangeKind.PANEL) if had else Change()

    def _no_panel(self) -> None:
        """No panel on the table: the clock goes on (a game not started waits for its first move)."""
        self.panel = None
        if not self.keeping.page_hidden:
            self.game.clock.resume()

    @property
    def closable(self) -> bool:
        """Whether the browser's Back has something to close here: a panel, or a playback on
        (:mod:`freecell.ui.address.back`: the page then keeps a history entry of its own)."""
        return self.panel is not None or (self.watch.playback is not None and self.watch.playback.on)

    def back(self) -> Change:
        """The browser's Back over the page's entry: close the panel, else stop the playback."""
        if self.panel is not None:
            return self.close_panels()
        return self.watch.stop()

    def escape(self) -> Change | None:
        """Escape: close a panel, else the playback, the hint bar, the selection; ``None`` if nothing."""
        if self.panel is not None:
            return self.close_panels()
        if self.watch.playback is not None:
            return self.watch.stop()
        if self.analysis.bar is not None:
            self.analysis.clear_bar()
            return Change(kind=ChangeKind.ANALYSIS)
        if self.table.selection is not None:
            return self._outcome(self.table.clear())
        return None
