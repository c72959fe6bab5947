"""Every way a game comes onto the table: the page's start, New deal, a deal by number, Replay, a kept game.

A controller the session is composed of (``session.opening``).  Each intent
chooses the game and the words, then hands the game to
:meth:`Session.install <freecell.ui.session.session.Session.install>`, the one
place that puts a game on the table:

- at start (:meth:`Opening.start`, with the :class:`Boot` the page found):
  a link with moves opens that game at that point (a bad link says why in
  one line and gives the plain deal); else this tab's own game comes back,
  or ``?deal=N`` resumes an unfinished game of that deal, else deals it, or
  the most recent unfinished game comes back (:meth:`Progress.restore
  <freecell.ui.progress.progress.Progress.restore>`), else a new deal: on a
  first visit the one the early table already shows
  (:mod:`freecell.ui.table.first_table`); an address that asks for no game
  (or only a variant) does the same, a new deal being of that variant; a
  bad address says in one line what it ignored, and opens what its valid
  parts ask for (``?deal=617&variant=bogus``: deal 617 of classic FreeCell),
  else what a plain address opens: the game in progress is never lost to a
  typo;
- New deal draws from the source chosen in the settings, of the variant
  chosen there; from the winnable deals only, a deal the solver proves lost
  is drawn again (:meth:`Opening.redraw_lost`);
- a deal by number (the host, the settings' deal field, the deal of the
  day) goes on with an unfinished game of it if there is one; the game on
  the table, if it is that game, stays as it is and a line says so (asking
  twice never flips between two games; Replay is what starts it over);
- Replay deals the same start again as a new game; the game left stays
  kept until the replay's first move, so Undo brings it back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ...deals import DealNumberError, daily_deal, draw_deal, parse_deal_number
from ...game import Game
from ..address.link import Linked, parse_link
from ..address.query import StartRequest
from ..analysis.playback import Par, ParState
from ..progress.damage import Lost
from ..progress.progress import Progress
from ..progress.settings import Settings
from ..table.first_table import is_first_deal
from ..table.focus import Action
from ..text import sentences as say
from ..text.catalogue import Catalogue
from .change import Change, ChangeKind, MessageLine, Notice, SaveSettings
from .keeping import Keeping
from .watch import Watch, player_intent


@dataclass(frozen=True, slots=True)
class Boot:
    """What the page found at start: the address (and the game of a link), and what storage held."""

    request: StartRequest = field(default_factory=StartRequest)
    damaged: bool = False  # stored settings could not be used and start fresh
    storage_refused: bool = False
    link: Linked | None = None
    first_deal: int | None = None  # the deal static/early.js drew on a first visit (first_table)


def boot_for(query: object, clock: Callable[[], float] = time.monotonic, **kw: Any) -> Boot:
    """The :class:`Boot` of the address ``query``: what it asks for, and the game of a link with moves."""
    linked = parse_link(query, clock)
    return Boot(linked.request, link=linked, **kw)


class Opened(Protocol):
    """What the opening of games uses of the session."""

    cat: Catalogue
    settings: Settings
    clock: Callable[[], float]
    progress: Progress
    game: Game
    par: Par | None
    keeping: Keeping
    watch: Watch

    def variant(self) -> str: ...

    def close_panels(self) -> Change: ...

    def install(self, game: Game, *, kept: bool = False, resumed: bool = True, prepared: bool = False,
                replay: bool = False, par: Par | None = None) -> Change: ...

    def available(self, action: Action) -> bool: ...


class Opening:
    """New games and kept games onto the table (see the module docstring)."""

    def __init__(self, session: Opened) -> None:
        self.session = session
        self.drawn_at_random = False  # New deal drew it (winnable deals only may draw again)
        self.deal_error: str | None = None  # the deal field's error code, if any

    @property
    def watch(self) -> Watch:
        return self.session.watch

    # --- at start ------------------------------------------------------------------------
    def start(self, boot: Boot) -> Change:
        """The first game of the page (see the module docstring)."""
        s = self.session
        link = boot.link
        if link is not None and link.moves and link.game is not None and not link.moves_unread:
            # a shared game at a point: opened as it is (a bad link: its plain deal, and why)
            change = self._put(link.game, prepared=True)
            text = say.link_opened(s.cat, link)
            message = MessageLine(text, "url") if link.error is not None else (
                MessageLine(text) if text else change.message)
            announce = say.joined(message.text if message else "", change.announce)
            return self._noticed(replace(change, message=message, announce=announce), boot, frozenset())
        if link is not None and link.moves_unread and link.game is not None:
            # its moves could not be read: its deal, as a plain link to it opens it (the player's
            # own game of it goes on, not a second one beside it), and why
            change = self._plain(boot)
            resumed = s.game.moves > 0 or s.game.can_redo()
            text = say.moves_unread(s.cat) if resumed else say.link_opened(s.cat, link)
            announce = say.joined(text, change.announce)
            return replace(change, message=MessageLine(text, "url"), announce=announce)
        return self._plain(boot)

    def _plain(self, boot: Boot) -> Change:
        """The first game of a page whose address names a deal, a board or nothing."""
        s = self.session
        req = boot.request
        restored = s.progress.restore(req.kept, s.clock)  # a bad part ignored, the rest obeyed
        variant = req.variant or s.settings.choice("variant") or "freecell"
        if restored.game is not None:
            change = self._put(restored.game, kept=True, resumed=restored.resumed)
        elif is_first_deal(boot.first_deal) and not req.error and variant == "freecell":
            change = self.new_deal(boot.first_deal)  # the very deal the early table shows
        else:
            change = self.new_deal(variant=variant)
        if req.error:
            text = say.joined(say.address_refused(s.cat, req), say.on_the_table(s.cat, s.game, s.variant()))
            change = replace(change, message=MessageLine(text, "url"), announce=text)
        return self._noticed(change, boot, restored.lost)

    def _noticed(self, change: Change, boot: Boot, lost: frozenset[Lost]) -> Change:
        """The notices of the start: storage refused here; stored data damaged (``lost``, and the
        settings if ``boot.damaged``: what could be read kept, the notice names what)."""
        keeping = self.session.keeping
        if boot.storage_refused:
            keeping.note("refused")
        if boot.damaged:
            lost |= {Lost.SETTINGS}
            change = replace(change, effects=(*change.effects, SaveSettings()))  # damaged settings: fresh now
        if lost:
            keeping.note(Notice.DAMAGED, lost)
        return change

    # --- new deals -----------------------------------------------------------------------
    def new_deal(self, deal: int | None = None, variant: str | None = None) -> Change:
        """A deal drawn from the source chosen in the settings, of the variant chosen there
        (``deal``: already drawn, by the early table of a first visit; ``variant``: the address's)."""
        s = self.session
        source = s.settings.choice("deal-source") or "all"
        name = variant or s.settings.choice("variant") or "freecell"
        game = Game(deal or draw_deal(source), variant=name, clock=s.clock)
        # from the winnable deals, never one with no move at all (without free cells, 1 deal in 26):
        # it is lost at once, so no reply of the solver comes to draw again
        while deal is None and source == "winnable" and game.is_stuck():
            game = Game(draw_deal(source), variant=name, clock=s.clock)
        change = self._put(game)
        self.drawn_at_random = True
        return change

    def redraw_lost(self) -> Change | None:
        """The solver proved the fresh deal on the table lost: New deal from the winnable deals only
        draws again; ``None`` otherwise."""
        if self.drawn_at_random and self.session.settings.choice("deal-source") == "winnable":
            return self.new_deal()
        return None

    def open_deal(self, deal: int, variant: str | None = None) -> Change:
        """Deal ``deal`` (of classic FreeCell unless ``variant``): the embedding host, the deal field.

        An unfinished game of that deal goes on (Replay starts it over); the
        one on the table stays as it is, and a line says so.
        """
        s = self.session
        if s.game.deal == deal and s.variant() == (variant or "freecell") and not s.game.is_won():
            text = say.playing(s.cat, deal)
            line = MessageLine(text, again=lambda cat: say.playing(cat, deal))
            return Change(kind=ChangeKind.NONE, message=line, announce=text)
        found = s.progress.find(deal, variant)
        if found is not None and found.id != s.progress.game_id:
            change = self.resume(found.id)
            if change.new_game:
                return change
        return self._put(Game(deal, variant=variant or "freecell", clock=s.clock))

    def play_deal(self, text: str) -> Change:
        """The number typed in the settings' deal field: that deal, of the variant chosen there."""
        try:
            n = parse_deal_number(text)
        except DealNumberError as err:
            self.deal_error = err.code
            return Change(kind=ChangeKind.DEAL_ERROR)
        self.deal_error = None
        return self._from_menu(self.open_deal(n, self.session.settings.choice("variant")))

    def clear_deal_error(self) -> None:
        """The settings panel opens: the deal field starts without an error."""
        self.deal_error = None

    def daily(self) -> Change:
        """The deal of the day (of the page's date), classic FreeCell; a game of it under way goes on."""
        n = daily_deal(self.session.progress.today())
        change = self._from_menu(self.open_deal(n, "freecell"))
        text = say.daily_started(self.session.cat, n)
        return replace(change, message=MessageLine(text), announce=text)

    def _from_menu(self, change: Change) -> Change:
        """A deal asked for in the game menu: the menu closes, also when that game was on the table."""
        if change.new_game:
            return change  # a game put on the table closes it
        return replace(self.session.close_panels(), message=change.message, announce=change.announce)

    @player_intent
    def replay(self) -> Change:
        """The deal again from its start, as a new game of it.

        A started game is kept (in the unfinished games) until the replay's
        first move: Undo before that brings it back, moves and all, so one
        stray key loses nothing; after it, the game is abandoned.  The par
        of the deal stays.
        """
        s = self.session
        old = s.game
        if not s.available("replay"):
            return Change()
        fresh = Game(old.deal, position=old.start if old.deal is None else None,
                     rules=old.rules if old.variant is None else None,
                     variant=None if old.variant is None else old.variant.id,
                     auto_move=old.auto_move, clock=s.clock)
        par = s.par if s.par is not None and s.par.state is ParState.KNOWN else None
        change = self._put(fresh, prepared=True, replay=True, par=par)
        text = say.replayed(s.cat, old.deal, kept=s.progress.left is not None)
        return replace(change, message=MessageLine(text), announce=text)

    # --- kept games ----------------------------------------------------------------------
    def resume(self, game_id: str | None = None) -> Change:
        """Bring a kept game onto the table (the unfinished games' list); ``None``: this tab's own game
        as another tab left it (the other-tab notice's button)."""
        s = self.session
        gid = s.progress.game_id if game_id is None else game_id
        restored = None if gid is None else s.progress.resume(gid, s.clock)
        if restored is None or restored.game is None:
            return Change()
        s.keeping.resumed()
        change = self._put(restored.game, kept=True, resumed=restored.resumed)
        if restored.damaged:
            s.keeping.note(Notice.DAMAGED, restored.lost)
        return change

    def _put(self, game: Game, *, kept: bool = False, resumed: bool = True, prepared: bool = False,
             replay: bool = False, par: Par | None = None) -> Change:
        self.drawn_at_random = False
        self.deal_error = None
        return self.session.install(game, kept=kept, resumed=resumed, prepared=prepared, replay=replay,
                                    par=par)

