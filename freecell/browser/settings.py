"""The settings panel: its tabs, its controls, and what each setting does.

The panel (``[data-panel=settings]``) has three tabs (``role=tab``,
``data-tab="game" | "play" | "look"``), each showing one ``role=tabpanel``;
the arrow keys, Home and End move between the tabs (roving ``tabindex``,
automatic activation).  Every control is named by its ``data-field``, the
same name its value is kept under in :mod:`freecell.ui.progress.settings`
(:data:`~freecell.ui.progress.settings.FLAG_SETTINGS` for the check boxes,
:data:`~freecell.ui.progress.settings.CHOICE_SETTINGS` for the lists).

Every setting applies at once and keeps the game on the table; only the
variant waits for the next deal (New deal, or Play in the Game tab).  The
values a new game needs (variant, auto-move, cards back from the
foundations, the tap) are read from the stored settings when it is dealt;
the session applies the rest (:meth:`freecell.ui.session.preferences.Preferences.set_setting`);
this module only reads the controls and shows the settings on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import document

from ..ui.progress.settings import CHOICE_SETTINGS, FLAG_SETTINGS, Settings
from .dom import Bindings, closest, q, set_hidden

TABS = ("game", "play", "look")


class SettingsPanel:
    """The panel's tabs and controls; ``on_change(name, value)`` for each control the player changes."""

    def __init__(self, bindings: Bindings, on_change: Callable[[str, bool | str | None], None]) -> None:
        self.panel = q('[data-panel="settings"]')
        self.on_change = on_change
        tablist = q('[data-panel="settings"] [role="tablist"]')
        bindings.on(self.panel, "change", self._changed)
        bindings.on(tablist, "click", self.on_tab_click)
        bindings.on(tablist, "keydown", self.on_tab_key)

    def _changed(self, e: Any) -> None:
        target = e.target
        name = str(target.getAttribute("data-field") or "")
        if name in FLAG_SETTINGS and str(target.type) == "checkbox":
            self.on_change(name, bool(target.checked))
        elif name in CHOICE_SETTINGS and str(target.tagName).upper() == "SELECT":
            self.on_change(name, str(target.value or "") or None)

    # --- tabs ----------------------------------------------------------------------
    def on_tab_click(self, e: Any) -> None:
        tab = closest(e.target, '[role="tab"]')
        if tab is not None:
            self.select_tab(str(tab.getAttribute("data-tab")), focus=True)

    def on_tab_key(self, e: Any) -> None:
        tab = closest(e.target, '[role="tab"]')
        if tab is None:
            return
        i = TABS.index(str(tab.getAttribute("data-tab"))) if tab.getAttribute("data-tab") in TABS else 0
        key = str(e.key)
        moves = {"ArrowRight": i + 1, "ArrowLeft": i - 1, "Home": 0, "End": len(TABS) - 1}
        if key not in moves:
            return
        e.preventDefault()
        self.select_tab(TABS[moves[key] % len(TABS)], focus=True)

    def select_tab(self, name: str, focus: bool = False) -> None:
        """Show tab ``name`` (``game``, ``play`` or ``look``)."""
        if name not in TABS:
            return
        for tab in document.querySelectorAll('[data-panel="settings"] [role="tab"]'):
            chosen = str(tab.getAttribute("data-tab")) == name
            tab.setAttribute("aria-selected", "true" if chosen else "false")
            tab.setAttribute("tabindex", "0" if chosen else "-1")
            if chosen and focus:
                tab.focus()
        for panel in document.querySelectorAll('[data-panel="settings"] [role="tabpanel"]'):
            panel.hidden = str(panel.getAttribute("data-tab-panel")) != name

    # --- controls --------------------------------------------------------------------
    def show(self, settings: Settings) -> None:
        """Every control in the state of ``settings``."""
        for name in FLAG_SETTINGS:
            el = q(f'[data-panel="settings"] [data-field="{name}"]')
            if el is not None and bool(el.checked) != settings.flag(name):
                el.checked = settings.flag(name)
        for name in CHOICE_SETTINGS:
            el = q(f'[data-panel="settings"] [data-field="{name}"]')
            value = settings.language or "" if name == "language" else settings.choice(name) or ""
            if el is not None and str(el.value) != value:
                el.value = value
        set_hidden(q('[data-role="foundation-return-cost"]'), not settings.flag("score"))
