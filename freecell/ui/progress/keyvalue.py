"""The small key-value interface the saved games live in, and one in memory.

The page hands :class:`freecell.ui.progress.saved_games.SaveStore` the browser's
``localStorage`` (and ``sessionStorage`` for what one tab remembers) through
:class:`freecell.browser.storage.SafeStorage`; tests and a page whose storage
is refused hand it a :class:`MemoryStorage`.  Every operation may fail: a
read gives ``None``, a write ``False``; nothing raises.

>>> store = MemoryStorage(quota=10)
>>> store.write("a", "12345"), store.write("b", "123456"), store.read("a"), store.keys()
(True, False, '12345', ['a'])
"""

from __future__ import annotations

from typing import Protocol


class StoredDataError(ValueError):
    """A stored entry that cannot be used: corrupt, foreign, hostile or of another version."""


class KeyValue(Protocol):
    """Text under text keys; a failed write says ``False`` (full, or refused)."""

    def read(self, key: str) -> str | None: ...

    def write(self, key: str, text: str) -> bool: ...

    def remove(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...


class MemoryStorage:
    """A :class:`KeyValue` in a dict, with an optional quota (characters of keys and values).

    ``writes`` counts the successful writes and removals (tests read it).
    """

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota
        self.writes = 0

    def read(self, key: str) -> str | None:
        return self.data.get(key)

    def write(self, key: str, text: str) -> bool:
        if self.quota is not None:
            old = self.data.get(key)
            used = self.used() - (0 if old is None else len(key) + len(old))
            if used + len(key) + len(text) > self.quota:
                return False
        self.data[key] = text
        self.writes += 1
        return True

    def remove(self, key: str) -> None:
        if self.data.pop(key, None) is not None:
            self.writes += 1

    def keys(self) -> list[str]:
        return list(self.data)

    def used(self) -> int:
        return sum(len(k) + len(v) for k, v in self.data.items())
