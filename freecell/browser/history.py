"""The page's address and its history entries: the game in the address bar, Back over a panel.

The address names the game on the table (``?deal=617``) and is rewritten in
place as it changes (``replaceState``), never adding a history entry; while a
panel is open or the solution plays, one entry of the page's own lies on top
(the rule is :mod:`freecell.ui.address.back`), and the player's Back over it
calls ``on_back`` (the page closes the panel or stops the playback).  After
any step through the history the address is written again: the entry the
browser lands on may hold an older one (the game changed while the panel's
entry was on top).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import window
from pyodide.ffi import jsnull

from ..ui.address.back import BACK, MARK, PUSH, PanelEntry
from .dom import Bindings


def entry_state() -> Any:
    """The state of the history entry the page is on: :data:`MARK` or JS ``null``."""
    try:
        state = window.history.state
    except Exception:
        return jsnull
    return state if isinstance(state, str) else jsnull


class History:
    """The address bar and the Back button for one page object."""

    def __init__(self, bindings: Bindings, enabled: bool, on_back: Callable[[], None]) -> None:
        self.entry = PanelEntry(enabled, on_entry=entry_state() == MARK)
        self.on_back = on_back
        self._address: str | None = None  # the address last written
        self._open = False  # a panel is open (as last told)
        bindings.on(window, "popstate", self._on_pop)

    def address(self, url: str) -> None:
        """Show ``url`` as the page's address, in place."""
        self._address = url
        window.history.replaceState(entry_state(), "", url)  # on the panel entry, still it

    def panels(self, panel_open: bool) -> None:
        """After a change: whether a panel is open now (or a playback on: what Back closes)."""
        self._open = panel_open
        step = self.entry.sync(panel_open)
        if step == PUSH:
            window.history.pushState(MARK, "", window.location.href)
        elif step == BACK:
            window.history.back()

    def _on_pop(self, _e: Any) -> None:
        close, step = self.entry.popped(on_entry=entry_state() == MARK)
        if self._address is not None:
            window.history.replaceState(entry_state(), "", self._address)
        if step == BACK:
            window.history.back()
        if close:
            self.on_back()
        elif step is None:  # a panel opened while the page stepped back gets its entry now
            self.panels(self._open)
