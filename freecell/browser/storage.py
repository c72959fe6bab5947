"""localStorage, made safe: every read and write may fail, and play goes on.

In a third-party or sandboxed frame the browser refuses storage (reading
``window.localStorage`` itself throws ``SecurityError``); a full store throws
``QuotaExceededError`` on a write; a browser may have no storage at all.
:class:`SafeStorage` turns each of these into a quiet return value (``None``
or ``False``) and calls ``on_failure`` with what went wrong: the page then
keeps the game in memory and says once that progress is not saved.

Only text goes in and out; what it means is checked by
:mod:`freecell.ui.progress.settings`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import window
from pyodide.ffi import jsnull

REFUSED = "refused"  # no storage, or the browser refuses it here
WRITE_FAILED = "write"  # a write failed (full, or refused since)


class SafeStorage:
    """``localStorage`` (or ``sessionStorage``) as a :class:`~freecell.ui.progress.keyvalue.KeyValue`."""

    def __init__(self, on_failure: Callable[[str], None] = lambda _what: None,
                 which: str = "localStorage") -> None:
        self.on_failure = on_failure
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

    @property
    def available(self) -> bool:
        return self.store is not None

    def report_refused(self) -> None:
        """Tell the page, if storage is refused here (it is said once, by the page)."""
        if self.refused:
            self.on_failure(REFUSED)

    def read(self, key: str) -> str | None:
        """The text under ``key``; ``None`` if absent, not text, or unreadable."""
        if self.store is None:
            return None
        try:
            value = self.store.getItem(key)
        except Exception:
            self.on_failure(REFUSED)
            return None
        if value is None or value is jsnull or not isinstance(value, str):
            return None
        return value

    def write(self, key: str, text: str) -> bool:
        if self.store is None:
            return False
        try:
            self.store.setItem(key, text)
        except Exception:
            self.on_failure(WRITE_FAILED)
            return False
        return True

    def keys(self) -> list[str]:
        """Every key stored (``[]`` when storage is refused)."""
        if self.store is None:
            return []
        try:
            return [str(self.store.key(i)) for i in range(int(self.store.length))]
        except Exception:
            self.on_failure(REFUSED)
            return []

    def remove(self, key: str) -> None:
        if self.store is None:
            return
        try:
            self.store.removeItem(key)
        except Exception:
            self.on_failure(WRITE_FAILED)
