"""What the page keeps in the browser's storage, and how it is read back.

Three entries, each a JSON text with its own format name and version, so
that one damaged entry costs only itself:

===================== ==================================================
key                   value
===================== ==================================================
``freecell.game``     the game in progress: :meth:`freecell.game.Game.to_json`
                      (``{"format": "freecell-game", "version": 1, "deal"
                      or "board", "rules", "auto_move", "turns", "redo",
                      "elapsed"}``): the start, the rules, every turn for
                      undo, the turns undone for redo, and the clock
``freecell.stats``    :meth:`freecell.ui.progress.stats.Statistics.to_json`
                      (``{"format": "freecell-stats", "version": 1,
                      "played", "won", "streak", "longest", "best_score",
                      "open", "deals": {"freecell:617": [seconds, moves]}}``)
``freecell.settings`` :meth:`Settings.to_json` (``{"format":
                      "freecell-settings", "version": 1}`` and one field
                      per control of the settings panel, by its
                      ``data-field`` name: the check boxes of
                      :data:`FLAG_SETTINGS` as true or false, the lists
                      of :data:`CHOICE_SETTINGS` as one of their values
                      or null for the default)
===================== ==================================================

Everything read is checked against an allow-list (formats, versions, field
names, types, ranges, sizes; the game is replayed move by move through the
engine).  The loaders raise :class:`StoredDataError` and nothing else;
:func:`restore` never raises: it returns what could be used, with the names
of the entries that were damaged, and the page starts those fresh (and says
so once).  Settings are recovered field by field; a game whose history is
damaged but whose deal number is sound starts that deal over.  Settings
stored by an older page are read too: its ``"winnable-only": true`` is the
deal source ``"winnable"``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ... import safejson
from ...deals import DEAL_SOURCES, DealNumberError, check_deal_number
from ...game import MAX_SAVE_CHARS, SAVE_FORMAT, Game, GameLoadError
from ...rules import Rules
from ...variants import VARIANTS
from .stats import Statistics, StatsLoadError

KEY_GAME = "freecell.game"
KEY_STATS = "freecell.stats"
KEY_SETTINGS = "freecell.settings"
KEYS = (KEY_GAME, KEY_STATS, KEY_SETTINGS)

# The languages of the page (one catalogue each: static/i18n/<lang>.json), the values of the
# language setting; freecell.ui.text.catalogue formats their messages.
LANGUAGES = ("en", "fr", "it", "ro", "de", "es")

SETTINGS_FORMAT = "freecell-settings"
SETTINGS_VERSION = 1
MAX_SETTINGS_CHARS = 2000


class StoredDataError(ValueError):
    """A stored entry that cannot be used: corrupt, foreign, hostile or of another version."""


# The settings kept, by the ``data-field`` name of their control in the settings
# panel: check boxes (true or false) with their defaults, and choices (lists)
# with the values allowed, the first being the default (``None``, also allowed,
# stands for the default; for the language it means the browser's own).  To
# keep a new control, add its name here.
FLAG_SETTINGS: dict[str, bool] = {
    "winnability": True,  # show whether the game can still be won
    "auto-move": True,  # safe cards go to the foundations by themselves
    "score": False,  # show the score
    "foundation-return": False,  # cards may come back from the foundations
    "four-colour": False,
    "large-cards": False,
    "left-handed": False,  # foundations on the left, free cells on the right
}
CHOICE_SETTINGS: dict[str, tuple[str, ...]] = {
    "variant": tuple(VARIANTS),  # the game New deal and Play deal start
    "deal-source": DEAL_SOURCES,  # where New deal draws from
    "tap": ("home", "smart"),  # a tap: to the foundation else select, or the smart move
    "speed": ("normal", "fast", "off"),  # of the animations
    "theme": ("dark", "light"),  # of the table
    "language": LANGUAGES,
}
# Fields an older page stored, read once into today's settings.
LEGACY_SETTINGS = ("winnable-only",)

@dataclass(frozen=True, slots=True)
class Settings:
    """The player's choices in the settings panel, by field name (see :data:`FLAG_SETTINGS`)."""

    flags: tuple[tuple[str, bool], ...] = tuple(FLAG_SETTINGS.items())
    choices: tuple[tuple[str, str | None], ...] = tuple((k, None) for k in CHOICE_SETTINGS)

    def flag(self, name: str) -> bool:
        return dict(self.flags).get(name, FLAG_SETTINGS.get(name, False))

    def choice(self, name: str) -> str | None:
        """The value chosen; the default (the first allowed) when none was, except for the language."""
        value = dict(self.choices).get(name)
        if value is None and name != "language" and CHOICE_SETTINGS.get(name):
            return CHOICE_SETTINGS[name][0]
        return value

    @property
    def language(self) -> str | None:
        return self.choice("language")

    def with_flag(self, name: str, value: bool) -> Settings:
        """These settings with one check box changed (an unknown name changes nothing)."""
        if name not in FLAG_SETTINGS or not isinstance(value, bool):
            return self
        return Settings(tuple((k, value if k == name else v) for k, v in self.flags), self.choices)

    def with_choice(self, name: str, value: str | None) -> Settings:
        """These settings with one choice changed (a value not allowed changes nothing)."""
        if name not in CHOICE_SETTINGS or (value is not None and value not in CHOICE_SETTINGS[name]):
            return self
        return Settings(self.flags, tuple((k, value if k == name else v) for k, v in self.choices))

    def to_json(self) -> str:
        data: dict[str, object] = {"format": SETTINGS_FORMAT, "version": SETTINGS_VERSION}
        data.update(self.flags)
        data.update(self.choices)
        return json.dumps(data, separators=(",", ":"))


def load_settings(text: object) -> tuple[Settings, bool]:
    """Settings from their stored text, and whether anything had to be dropped.

    A field of the wrong type or value, or one that is not known, is dropped
    (its default stays); a text that is not settings of this version at all
    raises :class:`StoredDataError`.
    """
    data = safejson.load_record(text, SETTINGS_FORMAT, MAX_SETTINGS_CHARS, "the settings", StoredDataError,
                                SETTINGS_VERSION)
    damaged = bool(set(data) - {"format", "version", *FLAG_SETTINGS, *CHOICE_SETTINGS, *LEGACY_SETTINGS})
    settings = Settings()
    if "winnable-only" in data:  # an older page's check box: New deal from the winnable deals
        old = data["winnable-only"]
        if not isinstance(old, bool):
            damaged = True
        elif old and "deal-source" not in data:
            settings = settings.with_choice("deal-source", "winnable")
    for name in FLAG_SETTINGS:
        if name in data:
            value = data[name]
            if isinstance(value, bool):
                settings = settings.with_flag(name, value)
            else:
                damaged = True
    for name, allowed in CHOICE_SETTINGS.items():
        if name in data:
            value = data[name]
            if value is None or (isinstance(value, str) and value in allowed):
                settings = settings.with_choice(name, value)
            else:
                damaged = True
    return settings, damaged


def load_stats(text: object) -> Statistics:
    """Statistics from their stored text; :class:`StoredDataError` on anything else."""
    try:
        return Statistics.from_json(text)
    except StatsLoadError as e:
        raise StoredDataError(str(e)) from None


def load_game(text: object, clock: Callable[[], float] = time.monotonic,
              keep_prefix: bool = False) -> tuple[Game, bool]:
    """The saved game, and whether it was damaged (started over, or cut short).

    The game comes back exactly (start, rules, history, redo, time, with the
    clock paused).  With ``keep_prefix``, a damaged history keeps its longest
    legal prefix (``True``: damaged); otherwise, or if the rest of the record
    is damaged too, but the deal number and rules are sound, that deal
    starts over (``True``); otherwise :class:`StoredDataError`.
    """
    if not isinstance(text, str):
        raise StoredDataError("a saved game is text")
    try:
        if keep_prefix:
            return Game.from_json_prefix(text, clock=clock)
        return Game.from_json(text, clock=clock), False
    except GameLoadError as e:
        reason = str(e)
    try:
        data = safejson.load_record(text, SAVE_FORMAT, MAX_SAVE_CHARS, "the saved game", StoredDataError)
        deal = check_deal_number(data["deal"])
        variant = data.get("variant")
        if variant is not None:
            return Game(deal, variant=str(variant), clock=clock), True
        return Game(deal, rules=Rules.from_json(data.get("rules", {})), clock=clock), True
    except (StoredDataError, DealNumberError, ValueError, TypeError, KeyError, RecursionError):
        raise StoredDataError(reason) from None


@dataclass(slots=True)
class Restored:
    """What :func:`restore` found.  ``damaged``: the keys whose entry could not be used."""

    game: Game | None = None
    stats: Statistics = field(default_factory=Statistics)
    settings: Settings = field(default_factory=Settings)
    damaged: list[str] = field(default_factory=list)


def restore(read: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic,
            keep_prefix: bool = False) -> Restored:
    """Read the three entries through ``read`` (``None``: absent); never raises.

    ``keep_prefix``: a damaged game history keeps its legal prefix (see :func:`load_game`).
    """
    out = Restored()
    text = read(KEY_SETTINGS)
    if text is not None:
        try:
            out.settings, damaged = load_settings(text)
        except StoredDataError:
            damaged = True
        if damaged:
            out.damaged.append(KEY_SETTINGS)
    text = read(KEY_STATS)
    if text is not None:
        try:
            out.stats = load_stats(text)
        except StoredDataError:
            out.damaged.append(KEY_STATS)
    text = read(KEY_GAME)
    if text is not None:
        try:
            out.game, damaged = load_game(text, clock, keep_prefix)
        except StoredDataError:
            damaged = True
        if damaged:
            out.damaged.append(KEY_GAME)
    return out
