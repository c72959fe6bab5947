"""Keeping the game: what became of each save, other tabs, the page hidden, the notice line, the link.

A controller the session is composed of (``session.keeping``).  The page
carries out the session's :class:`~freecell.ui.session.change.SaveGame` and
:class:`~freecell.ui.session.change.SaveSettings` effects and tells how they
went (:meth:`Keeping.saved`, :meth:`Keeping.storage_failed`); this decides
what the player is told, under these rules:

- saving never stops play and is never silent: a failed save shows the
  notice ``storage``, again at the next failed save once it was closed, at
  most once a minute (:class:`~freecell.ui.progress.save_failures.FailureNotice`);
  a storage refused from the start, or settings that could not be written,
  say it once a page load;
- another tab's newer moves of the same game stop the saving and show
  ``other-tab`` (its button brings those moves here:
  :meth:`freecell.ui.session.opening.Opening.resume`);
- stored data that could not be used says ``damaged``, once a page load.

It also gives the game away as a link (:meth:`Keeping.share`), which is what
the storage notice's button offers when nothing can be kept here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Protocol

from ...game import Game
from ..address.link import game_link
from ..progress.daily import KEY_DAILY
from ..progress.damage import Lost
from ..progress.progress import Progress
from ..progress.save_entries import SaveOutcome
from ..progress.save_failures import FailureNotice
from ..progress.saved_games import KeyKind
from ..text import sentences as say
from ..text.catalogue import Catalogue
from .change import Change, ChangeKind, MessageLine, Notice, Panel, SaveGame, ShareLink

SAID_ONCE = ("damaged", "refused")  # notices said once a page load


class Kept(Protocol):
    """What keeping the game uses of the session."""

    cat: Catalogue
    game: Game
    progress: Progress
    panel: Panel | None

    def open_panel(self, name: str) -> Change: ...

    def close_panels(self) -> Change: ...


class Keeping:
    """The notice line and what the page's writes gave (see the module docstring)."""

    def __init__(self, session: Kept) -> None:
        self.session = session
        self.notice: Notice | None = None
        self.lost: frozenset[Lost] = frozenset()  # what the damaged notice names
        self.share_url: str | None = None  # the link to copy by hand (the share panel)
        self._said: set[str] = set()
        self._failures = FailureNotice()
        self.page_hidden = False  # the page is hidden: the clock stands still

    def note(self, kind: Notice | Literal["refused"], lost: Iterable[Lost] = ()) -> bool:
        """Show notice ``kind`` (``refused``: storage refused here, shown as ``storage``); whether it shows.

        ``damaged`` and ``refused`` are said once a page load; ``lost``: what the damaged notice names.
        """
        if kind == Notice.DAMAGED:
            self.lost |= frozenset(lost)
        if kind in SAID_ONCE:
            if kind in self._said:
                return False
            self._said.add(kind)
        self.notice = Notice.STORAGE if kind == "refused" else Notice(kind)
        return True

    # --- what the page's writes gave ------------------------------------------------------
    def saved(self, outcome: SaveOutcome) -> Change | None:
        """How the page's save of the game went; the change to show, ``None`` if nothing is to be said."""
        if outcome is SaveOutcome.CONFLICT:
            self.note(Notice.OTHER_TAB)
            return Change(kind=ChangeKind.PANEL)
        if outcome is SaveOutcome.FAILED and self._failures.failed(self.session.progress.wall() / 1000):
            self.note(Notice.STORAGE)
            return Change(kind=ChangeKind.PANEL)
        return None

    def storage_failed(self) -> Change | None:
        """The settings (or the table kept for the next visit) could not be written: progress is not
        saved here either."""
        return Change(kind=ChangeKind.PANEL) if self.note("refused") else None

    def storage_changed(self, key: str | None) -> Change:
        """Another tab wrote to storage (a ``storage`` event): its newer moves are never overwritten."""
        progress = self.session.progress
        seen = progress.store.changed(key)
        if seen.conflict:
            self.note(Notice.OTHER_TAB)
            return Change(kind=ChangeKind.PANEL)
        if seen.kind is KeyKind.STATS:
            progress.reread()
            return Change(kind=ChangeKind.PANEL)
        if key == KEY_DAILY:
            progress.reread_daily()
            return Change(kind=ChangeKind.PANEL)
        return Change()

    def resumed(self) -> None:
        """This tab took up a kept game: another tab's moves of the game left no longer matter."""
        if self.notice is Notice.OTHER_TAB:
            self.notice = None

    def close_notice(self) -> Change:
        if self.notice is Notice.STORAGE:
            self._failures.dismissed()
        self.notice = None
        return Change(kind=ChangeKind.PANEL)

    # --- the page hidden, the statistics reset ---------------------------------------------
    def hidden(self) -> Change:
        """The page is hidden (another tab, the phone locked): the clock stops, the game is kept."""
        self.page_hidden = True
        self.session.game.clock.pause()
        return Change(effects=(SaveGame(whole=True),))

    def shown(self) -> Change:
        """The page is shown again: the clock goes on, unless a panel covers the table."""
        self.page_hidden = False
        if self.session.panel is None:
            self.session.game.clock.resume()
        return Change()

    def reset_stats(self) -> Change:
        self.session.progress.reset()
        text = say.stats_reset(self.session.cat)
        return Change(kind=ChangeKind.PANEL, message=MessageLine(text), announce=text)

    # --- the game as a link ---------------------------------------------------------------
    def share(self) -> Change:
        """Share: the game as a link, for the page to copy (or hand to the system's share sheet)."""
        link = game_link(self.session.game)
        if link is None:
            text = say.share_unavailable(self.session.cat)
            return Change(kind=ChangeKind.PANEL, message=MessageLine(text), announce=text)
        return Change(kind=ChangeKind.SHARE, effects=(ShareLink(link),))

    def shared(self, how: str, url: str) -> Change:
        """How the page's share went: ``copied``, ``shared``, ``cancelled`` or ``failed`` (then by hand)."""
        s = self.session
        if how == "cancelled":
            return Change()
        if how in ("copied", "shared"):  # done: the panel it came from closes, the line says so
            if s.panel in (Panel.GAME, Panel.SHARE):  # the win panel stays: its result is still to read
                s.close_panels()
            text = say.shared(s.cat, how)
            return Change(kind=ChangeKind.PANEL, message=MessageLine(text), announce=text)
        self.share_url = url
        s.open_panel(Panel.SHARE)
        return Change(kind=ChangeKind.PANEL, announce=say.share_by_hand(s.cat))
