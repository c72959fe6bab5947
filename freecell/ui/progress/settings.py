"""The player's settings: one check box or list of the settings panel each, and their stored form.

A :class:`Settings` value holds every field by the ``data-field`` name of
its control (:data:`FLAG_SETTINGS`: check boxes, :data:`CHOICE_SETTINGS`:
lists, whose first value is the default).  It is stored under
:data:`KEY_SETTINGS` as ``{"format": "freecell-settings", "version": 1}``
and one field per control: a check box's true or false, a list's value or
null for its default (for the language: the browser's own).

Reading it back (:func:`load_settings`) recovers field by field: a field of
the wrong type or value is dropped and its default stays (said: damaged);
one that is not known is dropped without a word; a text that is not
settings at all (or of no version this page ever wrote) raises
:class:`~freecell.ui.progress.keyvalue.StoredDataError`.  Settings of a
newer page (a higher version) keep the fields this page understands, and
are never written over: :meth:`Settings.to_json` gives their stored text
back as it was, so a change made here lives in this tab only; and a tab
opened before a newer page wrote its settings does not write over them
either (:func:`text_to_store`, given what is stored now).  An older
page's ``"winnable-only": true`` is read as the deal source ``"winnable"``.

    >>> s = Settings().with_flag("score", True).with_choice("theme", "light")
    >>> load_settings(s.to_json()) == (s, False)
    True
    >>> Settings().with_choice("theme", "purple") == Settings()    # a value not offered changes nothing
    True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from ... import safejson
from ...deals import DEAL_SOURCES
from ...variants import VARIANTS
from .damage import is_newer, version_of
from .keyvalue import StoredDataError

KEY_SETTINGS = "freecell.settings"
SETTINGS_FORMAT = "freecell-settings"
SETTINGS_VERSION = 1
MAX_SETTINGS_CHARS = 2000

# The languages of the page (one catalogue each: static/i18n/<lang>.json), the values of the
# language setting; freecell.ui.text.catalogue formats their messages.
LANGUAGES = ("en", "fr", "it", "ro", "de", "es")

# The settings kept, by the ``data-field`` name of their control in the settings
# panel: check boxes (true or false) with their defaults, and choices (lists)
# with the values allowed, the first being the default (``None``, also allowed,
# stands for the default; for the language it means the browser's own).  To
# keep a new control, add its name here.
FLAG_SETTINGS: dict[str, bool] = {
    "winnability": True,  # show whether the game can still be won
    "timer": True,  # show the time played in the status bar
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
    newer: str | None = None  # read from a newer page's stored text, which is never written over

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
        return replace(self, flags=tuple((k, value if k == name else v) for k, v in self.flags))

    def with_choice(self, name: str, value: str | None) -> Settings:
        """These settings with one choice changed (a value not allowed changes nothing)."""
        if name not in CHOICE_SETTINGS or (value is not None and value not in CHOICE_SETTINGS[name]):
            return self
        return replace(self, choices=tuple((k, value if k == name else v) for k, v in self.choices))

    def to_json(self) -> str:
        """The stored text; for settings read from a newer page's, that text as it was (not written over)."""
        if self.newer is not None:
            return self.newer
        data: dict[str, object] = {"format": SETTINGS_FORMAT, "version": SETTINGS_VERSION}
        data.update(self.flags)
        data.update(self.choices)
        return json.dumps(data, separators=(",", ":"))


def load_settings(text: object) -> tuple[Settings, bool]:
    """Settings from their stored text, and whether anything had to be dropped.

    A field of the wrong type or value is dropped (its default stays:
    ``True``); one that is not known is dropped without a word; a newer
    page's settings keep what this page understands (never ``True``: what
    looks wrong here may be right there), and remember their text
    (:attr:`Settings.newer`).  A text that is not settings, or of a version
    no page wrote, raises :class:`StoredDataError`.
    """
    data = safejson.load_record(text, SETTINGS_FORMAT, MAX_SETTINGS_CHARS, "the settings", StoredDataError)
    newer = is_newer(data, SETTINGS_VERSION)
    if not newer and version_of(data) != SETTINGS_VERSION:
        raise StoredDataError(f"the settings have version {data.get('version')!r}")
    damaged = False
    settings = Settings(newer=text if newer and isinstance(text, str) else None)
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
    return settings, damaged and not newer


def text_to_store(settings: Settings, stored: object) -> str | None:
    """The text to store for ``settings``, given the text stored now (read again just before
    writing); ``None`` when what is stored is a newer page's settings, not to be written over
    (another tab, of a newer page, wrote them since this one read them).

    >>> newer = '{"format":"freecell-settings","version":2,"theme":"dark"}'
    >>> text_to_store(Settings().with_choice("theme", "light"), newer) is None
    True
    >>> text_to_store(Settings(), None) == Settings().to_json() == text_to_store(Settings(), "[[[")
    True
    """
    try:
        data = safejson.load_record(stored, SETTINGS_FORMAT, MAX_SETTINGS_CHARS, "the settings",
                                    StoredDataError)
    except StoredDataError:
        return settings.to_json()  # nothing, or nothing this page or a newer one wrote
    return None if is_newer(data, SETTINGS_VERSION) else settings.to_json()
