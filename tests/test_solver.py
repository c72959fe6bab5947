"""The solver (:mod:`freecell.solver`): verdicts, solutions, slices, hints, and checks against others.

Nothing the solver returns is taken on trust:

* every solution a test gets is replayed move by move through the engine
  (:func:`check_solution`): each move legal (``check_move``), a multi-card move
  within the capacity of the position it is played in, every move to the
  foundations explicit (their number is 52 minus the cards home at the start),
  and all 52 cards home at the end;
* the verdicts of the small hand-made positions (``tests/data/boards/solver``)
  and of random small endgames are decided again by :func:`exact`, a tiny
  exhaustive search written here: single-card moves found by asking
  ``check_move`` about every pair of piles, a memo of the positions seen up to
  the order of columns and of free cells, and nothing else;
* when ``fc-solve`` is on PATH (Debian: ``freecell-solver-bin``), it judges a
  sample of deals, deal 11982, deals with one free cell, the small positions
  and positions reached by random play (see :func:`fc_solve` for its flags).

What the solver returns for an already won position: ``solved`` with no moves.

``best_move()`` after an unfinished search must be *sensible*, defined in
:func:`why_not_sensible`.  A strict "it cannot be undone at once" is not the
definition: some good moves can be (deal 27 after 300 nodes suggests ``2a``,
the three of clubs off the four of hearts into a free cell, which ``a2`` would
undo; it is the first move of the solution the solver finds a moment later).

``best_move()`` is not promised to keep a won game won: after a search of a
few nodes it points towards the best-looking state seen, which may be lost
(so it is not asserted here).

Under ``Rules(foundation_return=True)`` the solver takes cards back from the
foundations too (:func:`test_foundation_return_can_be_needed`).

Solutions are shortened (:mod:`freecell.shorten`, tested in ``test_shorten.py``);
known paths and quick hints are tested in ``test_known.py``.

Runtime: about 30 s on one free core; deal 11982 (about 62,000 nodes) is
searched to the end once in the session (:mod:`tests.support.searches`, shared with
``test_unwinnable.py``), and to 20,000 nodes twice (whole and in slices).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freecell import solver
from freecell.cards import make_card
from freecell.engine import apply_move, capacity, check_move, legal_moves
from freecell.game import Game
from freecell.improve import FirstBeam
from freecell.piles import CELL, COLUMN, HOME, Move, cell, column
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import SOLVED, UNKNOWN, UNSOLVABLE, Result, Solver
from tests.support.boards import (
    Undecided,
    empty_columns,
    endgame,
    fc_solve,
    needs_fc_solve,
    random_walk,
)
from tests.support.searches import deal_search
from tests.support.solving import (
    ENDGAME_RULES,
    check_solution,
    exact_verdict,
    read_board,
    single_moves,
    why_not_sensible,
)

SOLUTIONS = Path(__file__).resolve().parent / "data" / "solutions"
UNSOLVABLE_DEAL = 11982  # the one Microsoft deal of 1 to 32,000 that cannot be won
HARD_DEALS = (617, UNSOLVABLE_DEAL)  # deals that need thousands of nodes
R0 = Rules(free_cells=0)
R0_3 = Rules(free_cells=0, columns=3)
R0_4 = Rules(free_cells=0, columns=4)
R1 = Rules(free_cells=1)


# --- checking what the solver returns ---------------------------------------------


def hint(pos: Position, rules: Rules = FREECELL, seconds: float | None = None,
         max_nodes: int | None = None) -> tuple[str, Move | None]:
    """The verdict and the move the solver suggests: its solution's first, else its best guess."""
    s = Solver(pos, rules)
    r = s.solve(seconds=seconds, max_nodes=max_nodes)
    if r.verdict == SOLVED:
        return SOLVED, r.moves[0] if r.moves else None
    return r.verdict, None if r.verdict == UNSOLVABLE else s.best_move()


def solve(
    pos: Position, rules: Rules = FREECELL, *, seconds: float | None = None, max_nodes: int | None = None
) -> Result:
    """The solver's result, its solution (if any) checked."""
    r = Solver(pos, rules).solve(seconds=seconds, max_nodes=max_nodes)
    assert r.verdict in (SOLVED, UNSOLVABLE, UNKNOWN)
    if r.verdict == SOLVED:
        check_solution(pos, rules, r.moves)
    else:
        assert r.moves == []
    return r


def deal_result(n: int, rules: Rules = FREECELL) -> Result:
    """A deal searched to the end in one call (once a session: :mod:`tests.support.searches`), checked."""
    r = deal_search(n, rules)
    if r.verdict == SOLVED:
        check_solution(Position.deal(n, rules), rules, r.moves)
    else:
        assert r.moves == []
    return r


# --- an independent exact search ----------------------------------------------------


# --- "sensible" ---------------------------------------------------------------------


# --- deals ----------------------------------------------------------------------------


def test_deal_11982_is_unsolvable() -> None:
    r = deal_result(UNSOLVABLE_DEAL)
    assert r.verdict == UNSOLVABLE
    assert r.moves == []
    assert r.nodes > 1000  # it searched; it did not give up at once
    # the side searches stay out of a narrow space: the proof costs about what the
    # best-first orders alone need (61,803 nodes with them), not several times that
    assert r.nodes < 65_000, r.nodes


@pytest.mark.slow
def test_side_searches_solve_a_deal_where_the_orders_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 21554: the best-first orders alone find nothing in 30,000 nodes (nor in
    200,000); the searches started beside them at 15,000 solve it within that,
    with a short solution."""
    pos = Position.deal(21554)
    alone = Solver(pos, deep_after=None).solve(max_nodes=30_000)
    assert alone.verdict == UNKNOWN
    monkeypatch.setattr(solver, "FIRST_BEAM", False)  # the side searches, not the beams before them
    r = Solver(pos).solve(max_nodes=30_000)
    assert r.verdict == SOLVED
    assert len(r.moves) < 150
    check_solution(pos, FREECELL, r.moves)


@pytest.mark.slow
def test_beams_solve_a_deal_where_the_orders_and_the_side_searches_stall(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 6182: its orders and side searches need 93,774 nodes (3.3 s); the beams run
    first at 15,000 solve it within 7,000 more.  In slices, the same search."""
    pos = Position.deal(6182)
    r = Solver(pos).solve(max_nodes=30_000)
    assert r.verdict == SOLVED
    check_solution(pos, FREECELL, r.moves)
    sliced, calls = run_in_slices(pos, FREECELL, 2_000)
    assert calls > 10 and (sliced.nodes, sliced.moves) == (r.nodes, r.moves)
    monkeypatch.setattr(solver, "FIRST_BEAM", False)
    assert Solver(pos).solve(max_nodes=30_000).verdict == UNKNOWN


@pytest.mark.slow
def test_beams_that_find_nothing_give_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 11230: the four beams find nothing (85,000 nodes, 103,231 in all); they give up after
    FIRST_BEAM_NODES, and the side searches solve it soon after."""
    pos = Position.deal(11230)
    r = Solver(pos).solve(max_nodes=60_000)
    assert r.verdict == SOLVED
    check_solution(pos, FREECELL, r.moves)
    monkeypatch.setattr(solver, "FIRST_BEAM_NODES", 10**9)
    assert Solver(pos).solve(max_nodes=60_000).verdict == UNKNOWN


def test_a_beam_that_ends_with_no_solution_proves_nothing() -> None:
    """The beams are not complete: on lost deal 11982 a narrow one just ends."""
    beam = FirstBeam(Position.deal(UNSOLVABLE_DEAL), FREECELL, runs=((40, 0),))
    while not beam.done:
        beam.run(max_nodes=500)
    assert beam.solution is None and 0 < beam.nodes < 5_000


@pytest.mark.parametrize("n", [1, 2, 617, 8_589_934_591])
def test_deals_are_solved(n: int) -> None:
    r = deal_result(n)
    assert r.verdict == SOLVED
    assert r.nodes > 0 and r.seconds >= 0
    assert r.to_json() == {
        "verdict": SOLVED,
        "moves": [m.to_json() for m in r.moves],
        "nodes": r.nodes,
        "seconds": round(r.seconds, 4),
    }


def test_deals_with_fewer_free_cells() -> None:
    """Zero and one free cell: verdicts that fc-solve gives too (see the differential tests)."""
    for n in (1, 2, 5):
        assert solve(Position.deal(n, R0), R0, seconds=60).verdict == UNSOLVABLE
    for n, verdict in ((1, UNSOLVABLE), (2, SOLVED), (3, UNSOLVABLE), (8, SOLVED)):
        assert deal_result(n, R1).verdict == verdict, n


# --- small positions with known verdicts ------------------------------------------------

SMALL = [
    ("won", FREECELL, SOLVED),
    ("one_move", FREECELL, SOLVED),
    ("king_on_queen", FREECELL, SOLVED),
    ("near_won", FREECELL, SOLVED),
    ("dead", FREECELL, UNSOLVABLE),
    ("multi", FREECELL, SOLVED),
    ("zero_cells_near_won", R0, SOLVED),
    ("zero_cells_unsolvable", R0_4, UNSOLVABLE),
]


@pytest.mark.parametrize(("name", "rules", "verdict"), SMALL, ids=[s[0] for s in SMALL])
def test_small_positions(name: str, rules: Rules, verdict: str) -> None:
    pos = read_board(name, rules)
    assert exact_verdict(pos, rules) == verdict  # decided without the solver
    r = solve(pos, rules, seconds=60)
    assert r.verdict == verdict


@pytest.mark.parametrize(("name", "rules", "verdict"), SMALL, ids=[s[0] for s in SMALL])
@pytest.mark.parametrize("weights", [(1.0, 1.0, 0.0), (1.0, 1.0, 2.0)])
def test_depth_first_search_alone_is_complete(name: str, rules: Rules, verdict: str,
                                              weights: tuple[float, ...]) -> None:
    pos = read_board(name, rules)
    r = Solver(pos, rules, deep_after=None, depth_first=weights).solve(seconds=60)
    assert r.verdict == verdict
    if verdict == SOLVED:
        check_solution(pos, rules, r.moves)


def test_already_won_is_solved_with_no_moves() -> None:
    pos = read_board("won")
    assert pos.is_won()
    s = Solver(pos)
    r = s.solve(seconds=10)
    assert (r.verdict, r.moves) == (SOLVED, [])
    check_solution(pos, FREECELL, r.moves)
    assert s.best_move() is None
    assert hint(pos, seconds=10) == (SOLVED, None)


def test_one_move_from_a_win() -> None:
    pos = read_board("one_move")
    assert solve(pos, seconds=10).moves == [Move(column(0), HOME)]
    assert hint(pos, seconds=10) == (SOLVED, Move(column(0), HOME))


def test_a_king_on_its_queen_takes_three_moves() -> None:
    moves = solve(read_board("king_on_queen"), seconds=10).moves
    assert len(moves) == 3
    assert moves[0].src == column(0) and moves[0].dst.kind in (CELL, COLUMN)
    assert [m.dst for m in moves[1:]] == [HOME, HOME]


def test_dead_position_has_no_move_and_is_unsolvable() -> None:
    pos = read_board("dead")
    assert None not in pos.cells
    assert legal_moves(pos, FREECELL) == []
    assert solve(pos, seconds=10).verdict == UNSOLVABLE
    assert hint(pos, seconds=10) == (UNSOLVABLE, None)


def test_multi_card_move() -> None:
    pos = read_board("multi")
    moves = solve(pos, seconds=10).moves
    multi = [m for m in moves if m.count > 1]
    assert multi, "the solver should carry the run 9H 8C 7H in one move"
    assert Move(column(0), column(1), 3) in moves
    assert capacity(pos, FREECELL) == 16  # one free cell, three empty columns: 2 * 2**3


def test_zero_free_cells() -> None:
    pos = read_board("zero_cells_near_won", R0)
    assert pos.cells == () and empty_columns(pos) == 0
    moves = solve(pos, R0, seconds=10).moves
    assert any(m.dst.kind == COLUMN for m in moves)  # it is not just cards going home
    assert not any(CELL in (m.src.kind, m.dst.kind) for m in moves)
    # the same two queens under two kings: won with one empty column, lost with none
    three = Position(((make_card(12, 3), make_card(13, 2)), (make_card(12, 2), make_card(13, 3)), ()), (),
                     (13, 13, 11, 11)).validate(R0_3)
    assert exact_verdict(three, R0_3) == SOLVED
    assert solve(three, R0_3, seconds=10).verdict == SOLVED
    two = Position(three.columns[:2], (), three.foundations).validate(Rules(free_cells=0, columns=2))
    assert solve(two, Rules(free_cells=0, columns=2), seconds=10).verdict == UNSOLVABLE


def test_unsolvable_with_moves_left() -> None:
    """Each ace lies under the other suit's two, and nothing can take either two."""
    pos = read_board("zero_cells_unsolvable", R0_4)
    assert [m.text() for m in legal_moves(pos, R0_4)] == ["34"]  # the 8S onto the 9H
    assert legal_moves(apply_move(pos, Move.parse("34")), R0_4) == []
    assert solve(pos, R0_4, seconds=10).verdict == UNSOLVABLE
    assert hint(pos, R0_4, seconds=10) == (UNSOLVABLE, None)


# --- random small endgames against the exact search ---------------------------------------


@pytest.mark.parametrize("rules", ENDGAME_RULES, ids=lambda r: repr(r.to_json()))
def test_random_endgames_agree_with_exact_search(rules: Rules) -> None:
    rng = random.Random(f"solver {rules.to_json()}")
    seen = {SOLVED: 0, UNSOLVABLE: 0}
    for _ in range(30):
        pos = endgame(rng, rules)
        try:
            want = exact_verdict(pos, rules, budget=20_000)
        except Undecided:
            continue
        got = solve(pos, rules, seconds=30).verdict
        assert got == want, pos.to_text()
        seen[want] += 1
    assert seen[SOLVED] >= 5, seen


def test_foundation_return_can_be_needed() -> None:
    """With cards allowed back from the foundations, the queen of hearts must come back.

    ``h32`` (queen of hearts onto the king of spades), ``12`` (jack of spades onto
    it), then everything goes home.  Nothing else can move: no free cell, no
    empty column.
    """
    rules = Rules(free_cells=0, columns=2, foundation_return=True)
    text = "Foundations: H-Q C-K D-K S-9\nFreecells:\n: KH QS TS JS\n: KS\n"
    pos = Position.from_text(text, rules)
    assert exact_verdict(pos, rules) == SOLVED
    line = [Move.parse(t) for t in ("h32", "12", "1h", "2h", "2h", "1h", "2h", "1h")]
    for m in line:
        assert check_move(pos, m, rules) is None
        pos = apply_move(pos, m)
    assert pos.is_won()
    assert solve(Position.from_text(text, rules), rules, seconds=10).verdict == SOLVED


# --- slices --------------------------------------------------------------------------------


def run_in_slices(pos: Position, rules: Rules, max_nodes: int) -> tuple[Result, int]:
    s = Solver(pos, rules)
    calls = 0
    while True:
        calls += 1
        r = s.run(max_nodes=max_nodes)
        if r is not None:
            return r, calls
        assert s.result is None
        assert calls < 100_000


def test_slices_give_the_same_search_past_the_side_searches() -> None:
    """Deal 11982 to 20,000 nodes (the side searches start at 15,000): in slices of 5,000
    or in one run, the same nodes, states and best move."""
    pos = Position.deal(UNSOLVABLE_DEAL)
    whole = Solver(pos)
    assert whole.run(max_nodes=20_000) is None
    sliced = Solver(pos)
    for _ in range(4):
        assert sliced.run(max_nodes=5_000) is None
    assert sliced.nodes == whole.nodes == 20_000
    assert sliced.size == whole.size and sliced._side and len(sliced._side) == len(whole._side)
    assert sliced.best_move() == whole.best_move()


@pytest.mark.parametrize(("n", "size"), [(1, 50), (2, 50), (617, 50)])
def test_slices_give_the_same_result_as_one_run(n: int, size: int) -> None:
    whole = deal_result(n)
    sliced, calls = run_in_slices(Position.deal(n), FREECELL, size)
    assert calls > 1
    assert sliced.verdict == whole.verdict
    assert sliced.nodes == whole.nodes  # each slice goes on exactly where the last one stopped
    assert sliced.moves == whole.moves
    if sliced.verdict == SOLVED:
        check_solution(Position.deal(n), FREECELL, sliced.moves)


def test_timed_slices_and_a_finished_search() -> None:
    s = Solver(Position.deal(617))
    r = None
    for _ in range(100_000):
        r = s.run(seconds=0.005)
        if r is not None:
            break
    assert r is not None and r.verdict == SOLVED
    check_solution(Position.deal(617), FREECELL, r.moves)
    assert s.run(max_nodes=1) is r  # a finished search keeps its result
    assert s.solve(seconds=1) is r


# --- unknown is never unsolvable -------------------------------------------------------------


@pytest.mark.parametrize("n", [*HARD_DEALS, 1, 27])
def test_small_budget_is_unknown_not_unsolvable(n: int) -> None:
    s = Solver(Position.deal(n))
    assert s.run(max_nodes=10) is None
    r = s.solve(max_nodes=10)
    assert r.verdict == UNKNOWN and r.moves == []
    assert r.nodes == 20
    assert Solver(Position.deal(n)).solve(seconds=0).verdict == UNKNOWN


@pytest.mark.parametrize("n", HARD_DEALS)
def test_memory_cap_gives_unknown(n: int) -> None:
    s = Solver(Position.deal(n), max_states=1000)
    r = s.solve()
    assert r.verdict == UNKNOWN and r.moves == []
    assert r.states > 1000
    assert s.run() is r  # the cap ends the search for good, still unknown
    assert why_not_sensible(Position.deal(n), s.best_move()) is None


# --- best_move and hint ----------------------------------------------------------------------


def positions_on_the_way(n: int, steps: tuple[int, ...]) -> list[Position]:
    """The deal's start and the positions after the first moves of its solution."""
    start = Position.deal(n)
    moves = deal_result(n).moves or legal_moves(start, FREECELL)[:1]
    out = []
    for k in steps:
        pos = start
        for m in moves[:k]:
            pos = apply_move(pos, m)
        out.append(pos)
    return out


@pytest.mark.parametrize("n", [1, 27, 49, 52, 617, UNSOLVABLE_DEAL])
def test_best_move_after_an_unfinished_search_is_sensible(n: int) -> None:
    tried = 0
    for pos in positions_on_the_way(n, (0, 10, 30)):
        for budget in (1, 10, 100, 300):
            s = Solver(pos)
            if s.run(max_nodes=budget) is not None:
                continue
            tried += 1
            assert why_not_sensible(pos, s.best_move()) is None, (budget, pos.to_text())
    assert tried >= 4


def test_sensible_rejects_shuffles() -> None:
    pos = Position.from_text("Foundations: H-Q C-K D-K S-J\nFreecells: KH QS KS -\n" + ":\n" * 8)
    assert why_not_sensible(pos, Move(cell(0), column(0))) is None  # a king heads a column
    assert why_not_sensible(pos, Move(cell(1), HOME)) is None
    assert why_not_sensible(pos, Move(cell(1), column(0))) is not None  # parked, undone by 1b
    assert why_not_sensible(pos, Move(cell(1), cell(2))) is not None  # illegal
    after = apply_move(pos, Move(cell(0), column(0)))
    assert why_not_sensible(after, Move(column(0), column(1))) is not None  # the same position
    assert why_not_sensible(after, Move(cell(1), column(0))) is None  # QS on KH frees a cell


@pytest.mark.parametrize("n", [1, 617])
def test_hint_and_best_move_when_solved(n: int) -> None:
    pos = Position.deal(n)
    first = deal_result(n).moves[0]
    assert hint(pos, seconds=60) == (SOLVED, first)
    s = Solver(pos)
    r = s.solve(seconds=60)
    assert s.best_move() == r.moves[0] == first
    check_solution(apply_move(pos, first), FREECELL, r.moves[1:])


def test_hint_when_unknown() -> None:
    pos = Position.deal(UNSOLVABLE_DEAL)
    verdict, move = hint(pos, max_nodes=200)
    assert verdict == UNKNOWN
    assert why_not_sensible(pos, move) is None


# --- positions on the way to a win are won -------------------------------------------------------


def known_solution_positions(n: int) -> list[Position]:
    """The positions along the stored solution of deal ``n`` (fc-solve's, played with auto-moves)."""
    game = Game(deal=n, auto_move=True)
    out = [game.position]
    for line in (SOLUTIONS / f"deal_{n}.txt").read_text().split():
        game.play(Move.parse(line))
        out.append(game.position)
    assert game.is_won()
    return out


@pytest.mark.parametrize("n", [1, 617])
def test_positions_along_a_known_solution_are_solved(n: int) -> None:
    positions = known_solution_positions(n)
    for pos in positions[:: max(1, len(positions) // 12)]:
        assert solve(pos, max_nodes=200_000).verdict == SOLVED, pos.to_text()


PROPERTY = settings(
    max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY
@given(n=st.integers(1, 32_000), part=st.floats(0, 1))
def test_positions_along_a_solution_are_solved(n: int, part: float) -> None:
    if n == UNSOLVABLE_DEAL:
        return
    start = Position.deal(n)
    first = solve(start, max_nodes=300_000)
    assert first.verdict == SOLVED
    pos = start
    for m in first.moves[: int(part * len(first.moves))]:
        pos = apply_move(pos, m)
    assert solve(pos, max_nodes=300_000).verdict == SOLVED


@PROPERTY
@given(n=st.integers(1, 32_000), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 80))
def test_random_play_then_solve(n: int, seed: int, steps: int) -> None:
    """Random play can lose a deal, so any verdict may come; a solution must replay."""
    pos = random_walk(Position.deal(n), FREECELL, random.Random(seed), steps)[-1]
    solve(pos, max_nodes=3000)  # checks the solution when there is one


# --- fc-solve ----------------------------------------------------------------------------------------


def sample_deals() -> list[int]:
    rng = random.Random(20_240_617)
    deals = [1, 2, 617, 8_589_934_591]
    deals += [rng.randint(1, 32_000) for _ in range(12)]
    deals += [rng.randint(32_001, 8_589_934_591) for _ in range(4)]
    return [n for n in deals if n != UNSOLVABLE_DEAL]


@needs_fc_solve
def test_fc_solve_agrees_on_a_sample_of_deals() -> None:
    deals = sample_deals()
    assert len(deals) == 20
    for n in deals:
        assert fc_solve(Position.deal(n)) == SOLVED, n
        assert deal_result(n).verdict == SOLVED, n


@needs_fc_solve
def test_fc_solve_agrees_that_11982_is_unsolvable() -> None:
    assert fc_solve(Position.deal(UNSOLVABLE_DEAL)) == UNSOLVABLE
    assert deal_result(UNSOLVABLE_DEAL).verdict == UNSOLVABLE


@needs_fc_solve
def test_fc_solve_agrees_with_one_free_cell() -> None:
    verdicts = {n: deal_result(n, R1).verdict for n in range(1, 11)}
    assert set(verdicts.values()) == {SOLVED, UNSOLVABLE}
    for n, verdict in verdicts.items():
        assert fc_solve(Position.deal(n, R1), R1) == verdict, n


@needs_fc_solve
def test_fc_solve_agrees_on_the_small_positions() -> None:
    for name, rules, verdict in SMALL:
        assert fc_solve(read_board(name, rules), rules) == verdict, name


@needs_fc_solve
def test_fc_solve_agrees_after_random_play() -> None:
    rng = random.Random(1941)
    seen = {SOLVED: 0, UNSOLVABLE: 0}
    for _ in range(16):
        start = Position.deal(rng.randint(1, 32_000))
        pos = random_walk(start, FREECELL, rng, rng.randint(20, 120))[-1]
        ours = solve(pos, max_nodes=100_000).verdict
        if ours == UNKNOWN:
            continue
        assert fc_solve(pos) == ours, pos.to_text()
        seen[ours] += 1
    assert seen[SOLVED] and seen[UNSOLVABLE], seen


def test_the_exact_search_sees_every_single_card_move() -> None:
    """Its move maker finds what the engine lists (a deal's start has no empty column)."""
    for pos in random_walk(Position.deal(5), FREECELL, random.Random(5), 30):
        if empty_columns(pos) == 0:
            ours = set(single_moves(pos, FREECELL))
            engine = {m for m in legal_moves(pos, FREECELL, distinct=True) if m.count == 1}
            assert ours == engine
