"""The repository's folders as the build sees them, and the build's one error."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
NODE_MODULES = ROOT / "node_modules"


class BuildError(RuntimeError):
    """The build cannot go on; the message says what to do."""
