"""The settings and the language changed from the settings panel: a controller of the session.

A controller the session is composed of (``session.preferences``).  A
setting applies at once and is kept (:class:`~freecell.ui.session.change.SaveSettings`):
what it changes besides the stored value is said here, in one place:

- ``winnability`` and ``foundation-return`` change what the solver is asked
  (the second changes the rules in force, so the analysis starts afresh);
- ``auto-move`` and ``tap`` change how the game and the table play;
- ``language`` has the page load the catalogue, which then comes back as
  :meth:`Preferences.set_catalogue` (every text again; the search, the hint
  and Finish go on);
- a setting of :data:`LOOK_SETTINGS` only has the table drawn again.
"""

from __future__ import annotations

from typing import Protocol

from ...game import Game
from ..analysis.analysis import Analysis
from ..progress.settings import CHOICE_SETTINGS, FLAG_SETTINGS, Settings
from ..table.table import TableState
from ..text.catalogue import Catalogue
from . import change as ch
from .change import Change, ChangeKind

# Settings that change only how the table looks: the page draws again.
LOOK_SETTINGS = ("four-colour", "large-cards", "left-handed", "speed", "theme")


class Preferred(Protocol):
    """What the settings change of the session."""

    cat: Catalogue
    settings: Settings
    game: Game
    table: TableState
    analysis: Analysis

    def analyse(self, finishing: bool = False) -> list[ch.Effect]: ...


class Preferences:
    """The settings panel's intents (see the module docstring)."""

    def __init__(self, session: Preferred) -> None:
        self.session = session

    def set_setting(self, name: str, value: bool | str | None) -> Change:
        """A control of the settings panel changed: it applies at once and is kept."""
        s = self.session
        old = s.settings
        if name in FLAG_SETTINGS and isinstance(value, bool):
            new = old.with_flag(name, value)
        elif name in CHOICE_SETTINGS and (value is None or isinstance(value, str)):
            new = old.with_choice(name, value or None)
        else:
            return Change()
        if new == old:
            return Change()
        s.settings = new
        effects: list[ch.Effect] = [ch.SaveSettings()]
        if name == "winnability":
            s.analysis.set_winnability(new.flag(name))
            effects += s.analyse()
        elif name == "auto-move":
            s.game.auto_move = new.flag(name)
        elif name == "tap":
            s.table.smart = new.choice(name) == "smart"
        elif name == "foundation-return":
            s.game.allow_foundation_return(new.flag(name))
            s.analysis.rules_changed(s.game.rules)
            effects += s.analyse()
        elif name == "language":
            effects.append(ch.LoadLanguage(new.choice(name)))
        return Change(kind=ChangeKind.SETTINGS, redraw=name in LOOK_SETTINGS, effects=tuple(effects))

    def set_catalogue(self, cat: Catalogue) -> Change:
        """The language changed: every text again (the search, the hint and Finish go on)."""
        s = self.session
        if cat.lang == s.cat.lang:
            return Change()
        s.cat = cat
        return Change(kind=ChangeKind.TEXTS, texts=True, redraw=True)  # the message line says itself anew
