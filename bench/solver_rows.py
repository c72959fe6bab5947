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
>>> path = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
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
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .solver_data import ROOT, Row

SOURCES = ROOT / "freecell"


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

    def __init__(self, path: Path, settings: dict[str, Any]) -> None:
        self.path = path
        self.settings = settings
        self.held: dict[int, Row] = {}
        if path.exists() and path.stat().st_size > 0:
            self._read()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"settings": settings}) + "\n")

    def _read(self) -> None:
        first, self.held, good = _read(self.path)
        if first != self.settings:
            diff = ", ".join(f"{k}: {first.get(k)!r}, not {v!r}" for k, v in self.settings.items()
                             if first.get(k) != v)
            raise RowFileError(f"{self.path} holds rows made with other settings ({diff}); "
                               "give another file")
        if good is not None:  # a line cut short by a killed run is dropped: that deal is solved again
            self.path.write_text("\n".join(good) + "\n")

    def add(self, row: Row) -> None:
        """Keep ``row`` in the file at once (a run killed after this has it)."""
        self.held[int(row["deal"])] = row
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")


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
    """The settings and the rows (by deal) of a rows file, read only (``bench.solver_compare``)."""
    settings, held, _ = _read(path)
    return settings, held
