"""``python -m freecell solve``, run as a real process.

A good run prints one JSON object on stdout (``{"verdict", "moves", "nodes",
"seconds"}``) and nothing on stderr; its moves are replayed through the engine
from the position solved.  Every bad argument gets exactly one line on stderr,
starting ``freecell: ``, nothing on stdout, and exit status 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from freecell.counts import game_count, record_count
from freecell.engine import apply_move, check_move
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.rules import FREECELL

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "boards"
NEAR_WON = DATA / "solver" / "near_won.board"


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "freecell", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=180,
    )


def result_of(r: subprocess.CompletedProcess[bytes], best: bool = False) -> dict[str, object]:
    """The one JSON object a good run prints (with its counts, for ``--best``)."""
    assert r.returncode == 0, r.stderr
    assert r.stderr == b""
    out = r.stdout.decode("ascii")
    assert out.endswith("\n") and out.count("\n") == 1, out[:200]
    data = json.loads(out)
    assert isinstance(data, dict)
    counted = best and data.get("verdict") == "solved"
    assert set(data) == {"verdict", "moves", "nodes", "seconds", *(["count"] if counted else [])}
    assert data["verdict"] in ("solved", "unsolvable", "unknown")
    assert isinstance(data["nodes"], int) and data["nodes"] >= 0
    assert isinstance(data["seconds"], (int, float)) and data["seconds"] >= 0
    assert isinstance(data["moves"], list)
    return data


def check_moves(start: Position, data: dict[str, object]) -> None:
    """The printed moves, played by the engine from ``start``, win."""
    assert data["verdict"] == "solved"
    assert isinstance(data["moves"], list)
    moves = [Move.from_json(m) for m in data["moves"]]
    assert [m.to_json() for m in moves] == data["moves"]  # {"from", "to", "count"}, nothing else
    pos = start
    for m in moves:
        assert check_move(pos, m, FREECELL) is None, m.text()
        pos = apply_move(pos, m)
    assert pos.is_won()
    assert sum(1 for m in moves if m.dst.kind == FOUNDATION) == 52 - start.cards_home()


def test_solve_deal_1() -> None:
    data = result_of(run("solve", "1"))
    check_moves(Position.deal(1), data)


def test_an_exhausted_search_is_unsolvable() -> None:
    """Deal 3 with one free cell: about 100 nodes to exhaust (deal 11982's 62,000-node proof
    is run once, in tests/test_solver.py and tests/test_unwinnable.py)."""
    data = result_of(run("solve", "3", "--variant", "freecell1", "--budget", "60"))
    assert data["verdict"] == "unsolvable"
    assert data["moves"] == []
    assert isinstance(data["nodes"], int) and data["nodes"] > 10


def test_a_tiny_budget_is_unknown() -> None:
    data = result_of(run("solve", "--budget=0.01", "11982"))
    assert data["verdict"] == "unknown"
    assert data["moves"] == []


def test_solve_board_file() -> None:
    data = result_of(run("solve", "--board", str(NEAR_WON)))
    check_moves(Position.from_text(NEAR_WON.read_text(encoding="utf-8")), data)


def test_solve_board_from_stdin() -> None:
    text = Position.deal(617).to_text()
    data = result_of(run("solve", "--board", "-", "--budget", "60", stdin=text.encode("ascii")))
    check_moves(Position.deal(617), data)


def test_help() -> None:
    r = run("solve", "--help")
    assert r.returncode == 0
    assert b"solve" in r.stdout


def test_best_is_never_longer_and_counts_both_units() -> None:
    pos = Position.deal(5)
    first = result_of(run("solve", "5", "--cpu"))
    data = result_of(run("solve", "5", "--best", "0.5", "--cpu"), best=True)
    check_moves(pos, data)
    moves = [Move.from_json(m) for m in data["moves"]]  # type: ignore[attr-defined]
    start = [Move.from_json(m) for m in first["moves"]]  # type: ignore[attr-defined]
    assert data["count"] == {"turns": game_count(pos, moves, FREECELL), "max_auto": record_count(moves)}
    assert record_count(moves) <= record_count(start)
    assert data["nodes"] > first["nodes"]  # type: ignore[operator]


def test_best_on_a_lost_position_is_the_plain_verdict() -> None:
    r = run("solve", "--board", str(DATA / "solver" / "dead.board"), "--best", "1")
    assert result_of(r, best=True)["verdict"] == "unsolvable"


BAD_ARGS = [
    ["solve"],
    ["solve", "0"],
    ["solve", "-1"],
    ["solve", "abc"],
    ["solve", "8589934592"],
    ["solve", ""],
    ["solve", "1", "2"],
    ["solve", "1", "--board", str(NEAR_WON)],
    ["solve", "--board", str(NEAR_WON), "1"],
    ["solve", "--board", "tests/data/boards/solver/no_such.board"],
    ["solve", "--board", "tests/data/boards"],  # a directory
    ["solve", "--board", "tests/data/boards/bad_card.board"],
    ["solve", "--board", "tests/data/boards/fifty_one.board"],
    ["solve", "--board", "tests/data/boards/seven_columns.board"],
    ["solve", "--board", "-"],  # empty stdin
    ["solve", "--board"],
    ["solve", "--board", str(NEAR_WON), "--board", str(NEAR_WON)],
    ["solve", "1", "--budget", "0"],
    ["solve", "1", "--budget", "-1"],
    ["solve", "1", "--budget", "nan"],
    ["solve", "1", "--budget", "inf"],
    ["solve", "1", "--budget", "abc"],
    ["solve", "1", "--budget", "3601"],
    ["solve", "1", "--budget", ""],
    ["solve", "1", "--budget=0"],
    ["solve", "1", "--budget"],
    ["solve", "1", "--budget", "5", "--budget", "6"],
    ["solve", "1", "--frobnicate"],
    ["solve", "--board=", "1"],
    ["solve", "1", "--best", "0"],
    ["solve", "1", "--best", "abc"],
    ["solve", "1", "--best"],
    ["solve", "1", "--cpu=1"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=repr)
def test_bad_arguments(args: list[str]) -> None:
    check_refused(run(*args))


def test_unreadable_and_bad_board_files(tmp_path: Path) -> None:
    binary = tmp_path / "binary.board"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    check_refused(run("solve", "--board", str(binary)))
    huge = tmp_path / "huge.board"
    huge.write_bytes(b"# " + b"x" * 100_000 + b"\n")
    check_refused(run("solve", "--board", str(huge)))
    check_refused(run("solve", "--board", "-", stdin=b"1 2 3\nnot\na board\n"))
    check_refused(run("solve", "--board", "-", stdin=Position.deal(1).to_text().encode()[:-20]))


def check_refused(r: subprocess.CompletedProcess[bytes]) -> None:
    assert r.returncode == 2, (r.stdout[:200], r.stderr)
    assert r.stdout == b""
    err = r.stderr.decode("utf-8")
    assert err.endswith("\n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("freecell: ") and len(lines[0]) > len("freecell: ")
    assert "Traceback" not in err
