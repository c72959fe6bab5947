"""What one intent did: the :class:`Change` every intent of the session returns.

The page applies a change in one place (:meth:`freecell.browser.app.Page.apply`),
always in the same order: cancel a press if the game changed under it, draw
the table once (through ``frames``, the positions of the move's single-card
steps and its auto-moves, computed once here), render the status bar,
message line, panels and bars from the session, run the effects, then say
``announce``.  Effects are small frozen values the page carries out
(storage, the solver worker, the embedding host, the address, timers); what
an effect gave that the session must know (a save written or refused, a link
copied) comes back as an intent.  Nothing here touches a DOM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from ...position import Position
from ..address.embed import HostEvent
from ..analysis.replies import AskSolver, CancelSolver

if TYPE_CHECKING:
    from ..text.catalogue import Catalogue


class ChangeKind(StrEnum):
    """What kind of thing an intent did (the tests read it; the page needs only the fields)."""

    MOVED = "moved"  # a turn was played (a move and its auto-moves, a Finish step, a redo)
    REFUSED = "refused"  # a move or a pick was refused: the message line says why
    SELECTED = "selected"
    DESELECTED = "deselected"
    UNDONE = "undone"
    REDONE = "redone"
    JUMPED = "jumped"  # back to the last winnable position
    NEW_GAME = "new-game"  # another game is on the table
    SETTINGS = "settings"
    TEXTS = "texts"  # the language changed
    ANALYSIS = "analysis"  # the hint bar, or what the solver knows
    PANEL = "panel"  # a panel or the notice line
    WATCH = "watch"  # the playback of a solution
    SHARE = "share"  # the game is given as a link (see the effect)
    DEAL_ERROR = "deal-error"  # the number typed in the deal field is no deal
    NONE = "none"  # nothing (but maybe a redraw)


class Panel(StrEnum):
    """The panel on show (``data-panel``; the hint and playback bars are not panels)."""

    WIN = "win"
    STUCK = "stuck"  # no move left
    RULES = "rules"
    SETTINGS = "settings"
    GAME = "game"  # the game menu: new deal, replay, a deal number, the daily deal, unfinished, stats, share
    STATS = "stats"
    UNFINISHED = "unfinished"  # the unfinished games
    SHARE = "share"  # the link to copy by hand


class Notice(StrEnum):
    """The notice line on show (``data-notice``)."""

    STORAGE = "storage"  # progress cannot be saved here
    DAMAGED = "damaged"  # stored data was unreadable and was reset
    OTHER_TAB = "other-tab"  # another tab played this game on


@dataclass(frozen=True, slots=True)
class MessageLine:
    """The one-line message under the table: ``text`` (``""`` clears it), a refusal's ``reason``.

    ``again`` says it in another language: a language switch while the line
    is on show says it anew (a message without it goes).
    """

    text: str
    reason: str | None = None
    again: Callable[[Catalogue], str] | None = field(default=None, compare=False)


CLEAR = MessageLine("")


# --- effects ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Write the game on the table (``whole``: not just its last turn; and keep the table as drawn).

    The page writes it and tells :meth:`~freecell.ui.session.keeping.Keeping.saved` how it went.
    """

    whole: bool = False


@dataclass(frozen=True, slots=True)
class SaveSettings:
    """Write the settings (a failure is told to :meth:`~freecell.ui.session.keeping.Keeping.saved`)."""


@dataclass(frozen=True, slots=True)
class TellHost:
    """Embed mode: tell the parent page ``kind`` (``started`` or ``won``)."""

    kind: HostEvent


@dataclass(frozen=True, slots=True)
class SetAddress:
    """Show this game's address (``?deal=N&variant=V``) without reloading."""


@dataclass(frozen=True, slots=True)
class LoadLanguage:
    """Fetch the catalogue of ``lang`` (``None``: the browser's language) and give it to the session."""

    lang: str | None


@dataclass(frozen=True, slots=True)
class FinishNext:
    """Call :meth:`Session.finish_step` again after ``ms``."""

    ms: int


@dataclass(frozen=True, slots=True)
class WatchNext:
    """Call :meth:`Watch.tick <freecell.ui.session.watch.Watch.tick>` with ``ticket`` after ``ms``."""

    ms: int
    ticket: int


@dataclass(frozen=True, slots=True)
class ShareLink:
    """Copy the game's link (``query``: ``?deal=…&moves=…``, on this page's address), or share it.

    The page says how it went with :meth:`~freecell.ui.session.keeping.Keeping.shared`.
    """

    query: str


Effect = (SaveGame | SaveSettings | AskSolver | CancelSolver | TellHost | SetAddress | LoadLanguage
          | FinishNext | WatchNext | ShareLink)


@dataclass(frozen=True, slots=True)
class Change:
    """What an intent did, for the page to apply (see the module docstring).

    ``kind``: one of :class:`ChangeKind`.  ``frames``: the positions to
    animate through, from the one shown before to the one shown now (empty:
    draw without animating when ``redraw``).  ``new_game``: another game is
    on the table (its shape may differ).  ``game_changed``: the position or
    the game changed, so a press in progress no longer means anything.
    ``texts``: the language changed.  ``message``: ``None`` leaves the line
    as it is.
    """

    kind: ChangeKind = ChangeKind.NONE
    frames: tuple[Position, ...] = ()
    redraw: bool = False
    new_game: bool = False
    game_changed: bool = False
    texts: bool = False
    message: MessageLine | None = None
    announce: str = ""
    effects: tuple[Effect, ...] = ()
