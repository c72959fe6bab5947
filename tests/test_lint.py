"""ruff and mypy are part of the test suite: the tree must stay clean under both."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_clean() -> None:
    local = Path(sys.executable).with_name("ruff")
    ruff = str(local) if local.exists() else shutil.which("ruff")
    assert ruff, "ruff is not installed: pip install -r requirements-dev.txt"
    r = _run([ruff, "check", "--output-format", "concise", "."])
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_clean() -> None:
    r = _run([sys.executable, "-m", "mypy"])
    assert r.returncode == 0, r.stdout + r.stderr
