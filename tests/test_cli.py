"""The command line, run as a real process: ``python -m freecell deal N``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

DEAL_1 = (
    "JD KD 2S 4C 3S 6D 6S\n"
    "2D KC KS 5C TD 8S 9C\n"
    "9H 9S 9D TS 4S 8D 2H\n"
    "JC 5S QD QH TH QS 6H\n"
    "5D AD JS 4H 8H 6C\n"
    "7H QC AS AC 2C 3D\n"
    "7C KH AH 4D JH 8C\n"
    "5H 3H 3C 7S 7D TC\n"
)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "freecell", *args],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        env=env,
    )


def test_deal_1() -> None:
    r = run("deal", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode("ascii") == DEAL_1
    assert r.stdout.decode("ascii").splitlines()[0] == "JD KD 2S 4C 3S 6D 6S"
    assert len(r.stdout.splitlines()) == 8
    assert r.stderr == b""


def test_deal_617_and_last_deal() -> None:
    r = run("deal", "617")
    assert r.returncode == 0
    assert r.stdout.decode("ascii").splitlines()[0] == "7D TD TH KD 4C 4S JD"
    r = run("deal", " 8589934591 ")
    assert r.returncode == 0
    assert r.stdout.decode("ascii").splitlines()[0] == "TC 8S 8C 6C 5H 5C 9C"


BAD_ARGS = [
    ["deal", "0"],
    ["deal", "-1"],
    ["deal", "8589934592"],
    ["deal", "abc"],
    ["deal", "٤٢"],
    ["deal", "5_000"],
    ["deal", ""],
    ["deal", "1\n2"],
    ["deal", "9" * 100],
    ["deal"],
    ["deal", "1", "2"],
    [],
    ["shuffle", "1"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=repr)
def test_bad_arguments(args: list[str]) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert r.stdout == b""
    err = r.stderr.decode("utf-8")
    assert err.endswith("\n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].strip()
    assert "Traceback" not in err


def test_bad_argument_in_an_ascii_locale() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIO"))}
    env.update(LC_ALL="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    r = run("deal", "٤٢", env=env)
    assert r.returncode == 2
    assert r.stdout == b""
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert b"Traceback" not in r.stderr
