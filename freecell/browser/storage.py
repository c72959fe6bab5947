"""localStorage, made safe: every read and write may fail, and play goes on.

In a third-party or sandboxed frame the browser refuses storage (reading
``window.localStorage`` itself throws ``SecurityError``); a full store throws
``QuotaExceededError`` on a write; a browser may have no storage at all.
:class:`SafeStorage` turns each of these into a quiet return value (``None``,
``False`` or ``[]``): a write that failed says so, and the page tells the
session, which decides what to say to the player.
``refused`` says whether storage is refused here from the start: the page
then keeps the game in memory and says once that progress is not saved.

Only text goes in and out; what it means is checked by
:mod:`freecell.ui.progress`.
"""

from __future__ import annotations

from typing import Any

from js import window
from pyodide.ffi import jsnull


class SafeStorage:
    """``localStorage`` (or ``sessionStorage``) as a :class:`~freecell.ui.progress.keyvalue.KeyValue`."""

    def __init__(self, which: str = "localStorage") -> None:
        self.store: Any = None
        self.refused = False
        try:
            store = getattr(window, which)
            if store is None or store is jsnull:
                raise RuntimeError("no localStorage")
            store.getItem("freecell.probe")  # some browsers refuse only on use
            self.store = store
        except Exception:
            self.refused = True

    def read(self, key: str) -> str | None:
        """The text under ``key``; ``None`` if absent, not text, or unreadable."""
        if self.store is None:
            return None
        try:
            value = self.store.getItem(key)
        except Exception:
            return None
        if value is None or value is jsnull or not isinstance(value, str):
            return None
        return value

    def write(self, key: str, text: str) -> bool:
        """Whether ``text`` is stored under ``key`` now (``False``: full, or refused)."""
        if self.store is None:
            return False
        try:
            self.store.setItem(key, text)
        except Exception:
            return False
        return True

    def keys(self) -> list[str]:
        """Every key stored (``[]`` when storage is refused)."""
        if self.store is None:
            return []
        try:
            return [str(self.store.key(i)) for i in range(int(self.store.length))]
        except Exception:
            return []

    def remove(self, key: str) -> None:
        if self.store is None:
            return
        try:
            self.store.removeItem(key)
        except Exception:
            return
