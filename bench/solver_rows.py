"""Rows that outlast a run: ``bench.solver --rows FILE`` keeps each deal's row as it ends.

A long run (deals 1 to 32,000 with shortening is about 11 hours of one
core's CPU) can then stop, be killed or lose its machine, and go on later
from where it was, over several sittings: a run given the file solves only
the deals it does not hold yet and reports on all the deals asked for.

The file is JSON lines.  The first line holds the settings its rows were
made with (the budget and its clock, the shortening, and a hash of the
solver's sources); every other line is one deal's row, written and flushed as
the deal ends.  A file made with other settings is refused, since its rows
could not be compared with new ones; a last line cut short by a killed run is
dropped (that deal is solved again).

>>> import tempfile, pathlib
>>> tmp = tempfile.TemporaryDirectory()
>>> path = pathlib.Path(tmp.name) / "rows.jsonl"
>>> rows = RowFile(path, {"budget": 10})
>>> rows.held
{}
>>> rows.add({"deal": 7, "verdict": "solved"})
>>> with path.open("a") as f: n = f.write('{"deal": 8, "ver')   # a run killed mid-line
>>> sorted(RowFile(path, {"budget": 10}).held)
[7]
>>> RowFile(path, {"budget": 3})
Traceback (most recent call last):
...
bench.solver_rows.RowFileError: ... holds rows made with other settings (budget: 10, not 3); give another file

A path with no suffix is a folder of parts (``part-001.jsonl``...), each under
:data:`PART_BYTES` and starting with the settings: a run's rows kept in git
stay in files git takes well, however long the run.

>>> folder = pathlib.Path(tmp.name) / "run"
>>> rows = RowFile(folder, {"budget": 10}, part_bytes=80)
>>> for deal in (1, 2, 3): rows.add({"deal": deal, "verdict": "solved"})
>>> sorted(p.name for p in folder.iterdir()), sorted(RowFile(folder, {"budget": 10}).held)
(['part-001.jsonl', 'part-002.jsonl'], [1, 2, 3])
>>> sorted(read_rows(folder)[1])
[1, 2, 3]
>>> tmp.cleanup()
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .solver_data import ROOT, Row

SOURCES = ROOT / "freecell"
PART_BYTES = 900_000  # a part of a folder of rows grows to about this much, then the next one starts


class RowFileError(Exception):
    """A rows file that cannot be used: another run's settings, or not a rows file."""


def sources_hash() -> str:
    """A hash of the game's core sources (``freecell/*.py``): a change to them makes rows incomparable."""
    digest = hashlib.sha256()
    for path in sorted(SOURCES.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class RowFile:
    """The rows of ``path`` made with ``settings`` (``held``, by deal), and where new ones go."""

    def __init__(self, path: Path, settings: dict[str, Any], part_bytes: int = PART_BYTES) -> None:
        self.path = path
        self.settings = settings
        self.held: dict[int, Row] = {}
        self.part_bytes = part_bytes
        self.file = path  # where new rows go (a folder's last part)
        if not path.suffix:
            path.mkdir(parents=True, exist_ok=True)
            parts = _parts(path)
            self.file = parts[-1] if parts else path / "part-001.jsonl"
            for part in parts:
                self._read(part)
        elif path.exists() and path.stat().st_size > 0:
            self._read(path)
        if not self.file.exists() or self.file.stat().st_size == 0:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self.file.write_text(json.dumps({"settings": settings}) + "\n")

    def _read(self, path: Path) -> None:
        first, held, good = _read(path)
        if first != self.settings:
            diff = ", ".join(f"{k}: {first.get(k)!r}, not {v!r}" for k, v in self.settings.items()
                             if first.get(k) != v)
            raise RowFileError(f"{path} holds rows made with other settings ({diff}); "
                               "give another file")
        self.held.update(held)
        if good is not None:  # a line cut short by a killed run is dropped: that deal is solved again
            path.write_text("\n".join(good) + "\n")

    def add(self, row: Row) -> None:
        """Keep ``row`` in the file at once (a run killed after this has it)."""
        self.held[int(row["deal"])] = row
        if not self.path.suffix and self.file.stat().st_size >= self.part_bytes:
            self.file = self.path / f"part-{len(_parts(self.path)) + 1:03d}.jsonl"
            self.file.write_text(json.dumps({"settings": self.settings}) + "\n")
        with self.file.open("a") as f:
            f.write(json.dumps(row) + "\n")


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.jsonl"))


def _read(path: Path) -> tuple[dict[str, Any], dict[int, Row], list[str] | None]:
    """The settings and the rows (by deal) of a rows file; its whole lines if some were not."""
    lines = path.read_text().splitlines()
    try:
        first = json.loads(lines[0])["settings"]
        if not isinstance(first, dict):
            raise TypeError
    except (ValueError, KeyError, TypeError, IndexError):
        raise RowFileError(f"{path} is not a rows file of bench.solver") from None
    held: dict[int, Row] = {}
    good = [lines[0]]
    for line in lines[1:]:
        try:
            row = json.loads(line)
            deal = int(row["deal"])
        except (ValueError, KeyError, TypeError):
            continue
        held[deal] = row
        good.append(line)
    return first, held, (good if len(good) < len(lines) else None)


def read_rows(path: Path) -> tuple[dict[str, Any], dict[int, Row]]:
    """The settings and the rows (by deal) of a rows file or folder, read only (``bench.solver_compare``)."""
    if path.suffix:
        settings, held, _ = _read(path)
        return settings, held
    parts = _parts(path)
    if not parts:
        raise RowFileError(f"{path} holds no rows of bench.solver")
    settings, held = _read(parts[0])[:2]
    for part in parts[1:]:
        held.update(_read(part)[1])
    return settings, held
