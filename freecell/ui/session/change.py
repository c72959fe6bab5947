"""What one intent did: the :class:`Change` a :class:`~freecell.ui.session.session.Session` method returns.

The page applies a change in one place, always in the same order: cancel a
press if the game changed under it, draw the table (through ``frames``, the
positions of the move's single-card steps and its auto-moves, computed once
here), render the status bar, message line, panels and hint bar from the
session, run the effects, then say ``announce``.  Effects are small frozen
values the page carries out (storage, the solver worker, the embedding host,
the address, timers); nothing here touches a DOM.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...position import Position
from ..address.embed import HostEvent
from ..analysis.analysis import Ask


@dataclass(frozen=True, slots=True)
class MessageLine:
    """The one-line message under the table: ``text`` (``""`` clears it), a refusal's ``reason``."""

    text: str
    reason: str | None = None


CLEAR = MessageLine("")


# --- effects ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Write the game on the table (``whole``: not just its last turn)."""

    whole: bool = False


@dataclass(frozen=True, slots=True)
class SaveSettings:
    """Write the settings."""


@dataclass(frozen=True, slots=True)
class AskSolver:
    ask: Ask


@dataclass(frozen=True, slots=True)
class CancelSolver:
    """Stop the search in flight (a search kept in the background goes on)."""


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
    """Call :meth:`Session.watch_tick` with ``ticket`` after ``ms`` (the playback's next step)."""

    ms: int
    ticket: int


@dataclass(frozen=True, slots=True)
class ShareLink:
    """Copy the game's link (``query``: ``?deal=…&moves=…``, on this page's address), or share it.

    The page says how it went with :meth:`Session.shared`.
    """

    query: str


Effect = (SaveGame | SaveSettings | AskSolver | CancelSolver | TellHost | SetAddress | LoadLanguage
          | FinishNext | WatchNext | ShareLink)


@dataclass(frozen=True, slots=True)
class Change:
    """What an intent did, for the page to apply (see the module docstring).

    ``kind``: ``moved``, ``refused``, ``selected``, ``deselected``, ``undone``,
    ``redone``, ``jumped``, ``new-game``, ``settings``, ``texts``, ``analysis``,
    ``panel``, ``watch`` or ``none``.  ``frames``: the positions to animate through, from
    the one shown before to the one shown now (empty: draw without animating
    when ``redraw``).  ``new_game``: another game is on the table (its shape
    may differ).  ``game_changed``: the position or the game changed, so a
    press in progress no longer means anything.  ``texts``: the language changed.  ``message``:
    ``None`` leaves the line as it is.
    """

    kind: str = "none"
    frames: tuple[Position, ...] = ()
    redraw: bool = False
    new_game: bool = False
    game_changed: bool = False
    texts: bool = False
    message: MessageLine | None = None
    announce: str = ""
    effects: tuple[Effect, ...] = ()
