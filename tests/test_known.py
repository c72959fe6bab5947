"""Known solutions answer their successors (:class:`freecell.known.KnownPath`), and quick hints.

* A known path is checked when it is made: every move legal, every card home
  at the end, the rules the solver's own.
* A search from a position along a known solution is solved at once (no node
  expanded), and its solution replays.
* A position one move off a known solution (deal 1's, another legal move at
  step 10; deal 617's at step 30): wherever a child or grandchild of it is on
  the known line (found here by brute force over the engine's legal moves),
  the search is solved in the look-ahead alone, at most one node per child
  of the root; every other such position gets a verdict (another move may
  lose the deal), and a solution that replays when it is won.
* Relabelled columns and free cells still match, and the moves come back in
  the player's columns: the known path is given with its columns and cells
  in reverse order.
* :func:`freecell.solver.quick_hint` is a legal move whenever there is one
  (a lost position included), ``None`` only without one, and sensible in the
  sense of :func:`tests.test_solver.why_not_sensible` on deal starts.
"""

from __future__ import annotations

import random

import pytest

from freecell.engine import apply_move, check_move, legal_moves
from freecell.known import KnownPath, position_key
from freecell.piles import CELL, COLUMN, Move, Pile, cell, column
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import SOLVED, Solver, quick_hint
from tests.support.boards import random_walk
from tests.support.solving import ENOUGH_NODES, check_solution, read_board, why_not_sensible


def solution(n: int) -> tuple[Position, list[Move]]:
    start = Position.deal(n)
    r = Solver(start).solve(max_nodes=ENOUGH_NODES)
    assert r.verdict == SOLVED
    return start, r.moves


def along(start: Position, moves: list[Move]) -> list[Position]:
    out = [start]
    for m in moves:
        out.append(apply_move(out[-1], m))
    return out


def test_a_known_path_is_checked() -> None:
    start, moves = solution(1)
    KnownPath(start, moves)
    with pytest.raises(ValueError, match="illegal"):
        KnownPath(start, [Move.parse("a1"), *moves])
    with pytest.raises(ValueError, match="every card home"):
        KnownPath(start, moves[:-1])
    with pytest.raises(ValueError, match="other rules"):
        Solver(Position.deal(1, Rules(free_cells=3)), Rules(free_cells=3), known=KnownPath(start, moves))


def test_positions_along_the_path_are_solved_at_once() -> None:
    start, moves = solution(617)
    known = KnownPath(start, moves)
    for i, pos in enumerate(along(start, moves)[::9]):
        s = Solver(pos, known=known)
        r = s.solve(max_nodes=10)
        assert r.verdict == SOLVED and r.nodes == 0, i
        check_solution(pos, FREECELL, r.moves)
        assert len(r.moves) <= len(moves) - 9 * i


def near_the_line(pos: Position, keys: set[bytes]) -> bool:
    """Whether a child or grandchild of ``pos`` is on the known line (brute force)."""
    for m in legal_moves(pos, FREECELL):
        child = apply_move(pos, m)
        if position_key(child) in keys:
            return True
        if any(position_key(apply_move(child, m2)) in keys for m2 in legal_moves(child, FREECELL)):
            return True
    return False


@pytest.mark.parametrize(("n", "step"), [(1, 10), (617, 30)])
def test_one_move_off_a_known_solution(n: int, step: int) -> None:
    start, moves = solution(n)
    known = KnownPath(start, moves)
    line = along(start, moves)
    keys = {position_key(p) for p in line}
    near = 0
    for other in legal_moves(line[step], FREECELL, distinct=True):
        off = apply_move(line[step], other)
        if position_key(off) in keys:
            continue  # the known move itself, or one to the same state
        s = Solver(off, known=known)
        r = s.solve(max_nodes=20_000)
        if r.verdict == SOLVED:  # another move may lose the deal
            check_solution(off, FREECELL, r.moves)
        if near_the_line(off, keys):
            near += 1
            assert r.verdict == SOLVED, other.text()
            assert r.nodes <= 1 + len(legal_moves(off, FREECELL)), (other.text(), r.nodes)
    assert near >= 2


def reverse(pos: Position) -> Position:
    return Position(pos.columns[::-1], pos.cells[::-1], pos.foundations)


def reversed_move(m: Move, columns: int, cells: int) -> Move:
    def pile(p: Pile) -> Pile:
        if p.kind == COLUMN:
            return column(columns - 1 - p.index)
        if p.kind == CELL:
            return cell(cells - 1 - p.index)
        return p

    return Move(pile(m.src), pile(m.dst), m.count)


def test_relabelled_piles_match_and_moves_come_back_in_the_players_columns() -> None:
    start, moves = solution(1)
    known = KnownPath(reverse(start), [reversed_move(m, 8, 4) for m in moves])
    line = along(start, moves)
    for pos in (line[20], apply_move(line[20], Move.parse("1d") if check_move(
            line[20], Move.parse("1d"), FREECELL) is None else legal_moves(line[20], FREECELL)[0])):
        r = Solver(pos, known=known).solve(max_nodes=20_000)
        assert r.verdict == SOLVED
        check_solution(pos, FREECELL, r.moves)  # in pos's own columns


def test_a_known_state_deep_in_the_search_is_used() -> None:
    """Three moves off deal 617's solution: found beyond the look-ahead, in fewer nodes than alone."""
    start, moves = solution(617)
    line = along(start, moves)
    rng = random.Random(617)
    pos = random_walk(line[20], FREECELL, rng, 3)[-1]
    alone = Solver(pos).solve(max_nodes=50_000)
    r = Solver(pos, known=KnownPath(start, moves)).solve(max_nodes=50_000)
    assert r.verdict == SOLVED
    check_solution(pos, FREECELL, r.moves)
    assert r.nodes <= alone.nodes


def test_a_resumed_search_takes_a_known_path() -> None:
    start, moves = solution(617)
    pos = along(start, moves)[40]
    s = Solver(pos)
    assert s.run(max_nodes=1) is None
    s.use_known(KnownPath(start, moves))
    r = s.solve(max_nodes=10)
    assert r.verdict == SOLVED
    check_solution(pos, FREECELL, r.moves)


# --- quick hints ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 27, 49, 617, 11982])
def test_quick_hint_is_legal_and_sensible(n: int) -> None:
    start = Position.deal(n)
    assert why_not_sensible(start, quick_hint(start)) is None
    for pos in random_walk(start, FREECELL, random.Random(n), 60)[::10]:
        move = quick_hint(pos)
        if legal_moves(pos, FREECELL):
            assert move is not None and check_move(pos, move, FREECELL) is None, pos.to_text()
        else:
            assert move is None


def test_quick_hint_without_moves_and_on_lost_positions() -> None:
    assert quick_hint(read_board("won")) is None
    assert quick_hint(read_board("dead")) is None
    rules = Rules(free_cells=0, columns=4)
    lost = read_board("zero_cells_unsolvable", rules)
    assert quick_hint(lost, rules) == Move.parse("34")  # its one legal move, lost or not
    near = read_board("one_move")
    assert quick_hint(near) == Move.parse("1h")
