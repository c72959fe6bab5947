"""The settings panel: its tabs, its controls, and what each setting does.

The panel (``[data-panel=settings]``) has three tabs (``role=tab``,
``data-tab="game" | "play" | "look"``), each showing one ``role=tabpanel``;
the arrow keys, Home and End move between the tabs (roving ``tabindex``,
automatic activation).  Every control is named by its ``data-field``, the
same name its value is kept under in :mod:`freecell.ui.store`
(:data:`~freecell.ui.store.FLAG_SETTINGS` for the check boxes,
:data:`~freecell.ui.store.CHOICE_SETTINGS` for the lists).

Every setting applies at once and keeps the game on the table; only the
variant waits for the next deal (New deal, or Play in the Game tab).  The
values a new game needs (variant, auto-move, cards back from the
foundations, the tap) are read from the stored settings when it is dealt;
:meth:`SettingsPanel.apply` does the rest, and also puts the control in the
panel in the same state, so restoring saved settings is applying them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from js import document, window
from pyodide.ffi import create_proxy, jsnull

from ..ui.store import CHOICE_SETTINGS, FLAG_SETTINGS

if TYPE_CHECKING:
    from .app import App

TABS = ("game", "play", "look")
SPEEDS = {"normal": 1.0, "fast": 0.5}  # animation durations, scaled ("off": none at all)
# html[data-...] attributes the style sheet reads (boot.js sets them from storage too)
PAGE_ATTRIBUTES = ("theme", "speed")


def q(selector: str) -> Any:
    el = document.querySelector(selector)
    return None if el is None or el is jsnull else el


class SettingsPanel:
    def __init__(self, app: App) -> None:
        self.app = app
        self.panel = q('[data-panel="settings"]')
        self._proxies: list[Any] = []

    # --- binding -----------------------------------------------------------------
    def bind(self) -> None:
        tablist = q('[data-panel="settings"] [role="tablist"]')
        for target, event, handler in ((self.panel, "change", self.app.on_setting),
                                       (tablist, "click", self.on_tab_click),
                                       (tablist, "keydown", self.on_tab_key)):
            proxy = create_proxy(handler)
            self._proxies.append(proxy)
            target.addEventListener(event, proxy)

    def unbind(self) -> None:
        for p in self._proxies:
            p.destroy()
        self._proxies = []

    # --- tabs ----------------------------------------------------------------------
    def on_tab_click(self, e: Any) -> None:
        tab = e.target.closest('[role="tab"]')
        if tab is not None and tab is not jsnull:
            self.select_tab(str(tab.getAttribute("data-tab")), focus=True)

    def on_tab_key(self, e: Any) -> None:
        tab = e.target.closest('[role="tab"]')
        if tab is None or tab is jsnull:
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
    def show_value(self, name: str, value: bool | str | None) -> None:
        """Put the control of setting ``name`` in the state ``value``."""
        el = q(f'[data-panel="settings"] [data-field="{name}"]')
        if el is None:
            return
        if name in FLAG_SETTINGS:
            if bool(el.checked) != bool(value):
                el.checked = bool(value)
        elif str(el.value) != (value or ""):
            el.value = value or ""

    def apply(self, name: str, value: bool | str | None) -> None:
        """Setting ``name`` takes effect now (a change in the panel, or a saved setting)."""
        app = self.app
        if name in CHOICE_SETTINGS and name != "language" and value is None:
            value = CHOICE_SETTINGS[name][0]
        if name == "winnability":
            changed = app.assist.winnability != bool(value)
            app.assist.winnability = bool(value)
            if changed:
                app.assist.position_changed()
        elif name == "deal-source":
            app.assist.winnable_only = value == "winnable"
        elif name == "auto-move":
            app.game.auto_move = bool(value)
        elif name == "tap":
            app.state.smart = value == "smart"
        elif name == "foundation-return":
            if app.game.rules.foundation_return != bool(value):
                app.game.allow_foundation_return(bool(value))
                app.assist.rules_changed()
                app.assist.position_changed()
        elif name == "score":
            app.show_score = bool(value)
            app.update_status()
            hint = q('[data-role="foundation-return-cost"]')
            if hint is not None:
                hint.hidden = not value
        elif name == "speed":
            app.view.speed = SPEEDS.get(str(value), 1.0)
            app.speed_off = value == "off"
            app.update_motion()
        elif name == "four-colour":
            app.view.set_style(four_colour=bool(value))
            app.svg.classList.toggle("four-colour", bool(value))
            app.draw(animate=False)
        elif name == "large-cards":
            app.large_cards = bool(value)
            app.view.set_style(large=bool(value))
            app.svg.classList.toggle("large-cards", bool(value))
            app.draw(animate=False)
        elif name == "left-handed":
            app.left_handed = bool(value)
            app.svg.classList.toggle("left-handed", bool(value))
            app.draw(animate=False)
        elif name not in ("theme", "variant", "language"):
            return
        if name in PAGE_ATTRIBUTES:
            document.documentElement.setAttribute(f"data-{name}", str(value))
            if name == "theme":
                self._theme_colour()
        self.show_value(name, value)

    def _theme_colour(self) -> None:
        """The browser's own bars in the colour of the table."""
        meta = q('meta[name="theme-color"]')
        felt = str(window.getComputedStyle(document.documentElement).getPropertyValue("--felt")).strip()
        if meta is not None and felt:
            meta.setAttribute("content", felt)
