"""The build's cache: what is slow to make (byte-code, snapshots, compressed copies), kept by
its inputs, so a build after an unrelated change takes seconds; the same inputs give the same
bytes.

It is the user's, as pip's and npm's are (``$XDG_CACHE_HOME/freecell-build/``, else
``~/.cache/freecell-build/``; ``FREECELL_BUILD_CACHE`` names another folder): every clone on a
machine shares what depends only on the pinned packages (the runtime's compressed copies, the
standard library's byte-code), so a fresh clone builds in seconds rather than a minute.  An
entry is a pure function of its key, written whole or not at all, so clones building at the
same time share it safely."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def cache_folder() -> Path:
    """Where the build's cache is (see the module doc)."""
    given = os.environ.get("FREECELL_BUILD_CACHE")
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache") / "freecell-build"


CACHE = cache_folder()


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


@contextlib.contextmanager
def cache_entry(key: str) -> Iterator[tuple[Path, bool]]:
    """``(folder, ready)`` for the cache entry ``key``: when not ready, fill the folder given.

    On success it becomes ``CACHE / key`` (whole or not at all); read it there.
    """
    final = CACHE / key
    if (final / "done").exists():
        os.utime(final)  # recently used: kept by prune_cache
        yield final, True
        return
    CACHE.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=key[:12] + ".tmp-", dir=CACHE))
    try:
        yield work, False
        (work / "done").write_text("")
        try:
            work.rename(final)
        except OSError:  # another build put it there meanwhile: the same bytes
            shutil.rmtree(work, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def prune_cache(keep_entries: int = 6, keep_gz: int = 600) -> None:
    """Drop all but the most recently used entries of the build cache (each is tens of MB)."""
    if not CACHE.exists():
        return

    def newest_first(paths: list[Path]) -> list[Path]:
        return sorted(paths, key=lambda p: p.stat().st_mtime, reverse=True)

    entries = [p for p in CACHE.iterdir() if p.is_dir() and (p / "done").exists()]
    for old in newest_first(entries)[keep_entries:]:
        shutil.rmtree(old, ignore_errors=True)
    for work in CACHE.glob("*.tmp-*"):  # left by a build that was killed
        with contextlib.suppress(OSError):
            if work.stat().st_mtime < time.time() - 3600:
                shutil.rmtree(work, ignore_errors=True)
    if (CACHE / "gz").exists():
        copies = [p for p in (CACHE / "gz").iterdir() if p.suffix in (".gz", ".br")]
        for old in newest_first(copies)[keep_gz:]:
            with contextlib.suppress(OSError):
                old.unlink()
