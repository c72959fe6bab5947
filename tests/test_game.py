"""Game sessions: moves, undo/redo, auto-moves, capacity, clock, finish, score, save and load.

Every game here gets a fake clock (a callable returning a number the test
sets), so no test sleeps and every time is exact.
"""

from __future__ import annotations

import heapq
import json
import random
from pathlib import Path

import pytest

from freecell.cards import parse_card
from freecell.deals import MAX_DEAL
from freecell.engine import IllegalMoveError, apply_move, check_move, legal_moves, safe_automove
from freecell.game import Game, GameLoadError, Turn
from freecell.piles import CELL, FOUNDATION, Move, cell, column, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Build, EmptyColumn, Reason, Rules
from tests.support.boards import empty_columns

BOARDS = Path(__file__).resolve().parent / "data" / "boards"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def mv(text: str) -> Move:
    return Move.parse(text)


def _cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def build(
    columns: list[str],
    cells: str = "",
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Position:
    """A position with these column bottoms, cells and foundations (clubs, diamonds, hearts, spades).

    Cards not named are dealt under the named ones, round-robin over the
    non-empty columns, lowest ranks deepest: uncovering a named column never
    exposes a low card.
    """
    assert len(columns) == 8
    named = [_cards(c) for c in columns]
    cell_list: list[int | None] = [None if t == "-" else parse_card(t) for t in cells.split()]
    cell_list += [None] * (4 - len(cell_list))
    home = {r * 4 + s for s, n in enumerate(foundations) for r in range(n)}
    used = [c for col in named for c in col] + [c for c in cell_list if c is not None]
    assert len(set(used)) == len(used) and not set(used) & home
    rest = sorted(set(range(52)) - set(used) - home)
    fillable = [i for i, col in enumerate(named) if col]
    filler: list[list[int]] = [[] for _ in range(8)]
    for k, c in enumerate(rest):
        filler[fillable[k % len(fillable)]].append(c)
    cols = tuple(tuple(filler[i] + named[i]) for i in range(8))
    return Position(cols, tuple(cell_list), foundations).validate(FREECELL)


def near_won() -> Position:
    """Tens to kings left, each suit on its own column, kings deepest."""
    return Position.from_text(
        "Foundations: H-9 C-9 D-9 S-9\nFreecells: - - - -\n"
        ": KC QC JC TC\n: KD QD JD TD\n: KH QH JH TH\n: KS QS JS TS\n:\n:\n:\n:\n"
    )


# --- a small search, to play a whole game --------------------------------------------


def _settle(pos: Position, rules: Rules) -> Position:
    while (m := safe_automove(pos, rules)) is not None:
        pos = apply_move(pos, m)
    return pos


def _heuristic(pos: Position) -> int:
    buried = 0
    for col in pos.columns:
        for i, c in enumerate(col):
            if any(d // 4 > c // 4 for d in col[i + 1 :]):
                buried += 1
    return 3 * (52 - pos.cards_home()) + buried + (4 - pos.empty_cells())


def solve(start: Position, rules: Rules = FREECELL, budget: int = 20_000) -> list[Move]:
    """Player moves that win ``start`` when safe auto-moves follow each one (best-first search)."""
    key = (tuple(sorted(start.columns)), start.foundations)
    seen = {key}
    heap: list[tuple[int, int, Position, tuple[Move, ...]]] = [(_heuristic(start), 0, start, ())]
    counter = 0
    for _ in range(budget):
        if not heap:
            break
        _, _, pos, path = heapq.heappop(heap)
        if pos.is_won():
            return list(path)
        for m in legal_moves(pos, rules, distinct=True):
            nxt = _settle(apply_move(pos, m), rules)
            k = (tuple(sorted(nxt.columns)), nxt.foundations)
            cells = tuple(sorted(c for c in nxt.cells if c is not None))
            if (k, cells) in seen:
                continue
            seen.add((k, cells))
            counter += 1
            heapq.heappush(heap, (_heuristic(nxt), counter, nxt, (*path, m)))
    raise AssertionError(f"no solution found within {budget} positions")


@pytest.fixture(scope="module")
def deal_1_solution() -> list[Move]:
    return solve(Position.deal(1))


# --- moves, undo, redo -----------------------------------------------------------------


def test_new_game() -> None:
    game = Game(1, clock=FakeClock())
    assert game.deal == 1
    assert game.position == game.start == Position.deal(1)
    assert game.moves == 0
    assert game.score == 0
    assert game.cards_home() == 0
    assert game.turns == ()
    assert not game.can_undo() and not game.can_redo()
    assert game.undo() is None and game.redo() is None
    assert not game.is_won() and not game.is_stuck() and not game.can_finish()
    assert game.auto_move is True
    assert game.rules == FREECELL


def test_game_needs_deal_or_position() -> None:
    with pytest.raises(ValueError):
        Game(clock=FakeClock())
    with pytest.raises(ValueError):
        Game(1, position=Position.deal(1), clock=FakeClock())
    with pytest.raises(ValueError):
        Game(0, clock=FakeClock())
    with pytest.raises(ValueError):
        Game(MAX_DEAL + 1, clock=FakeClock())


def test_moves_counter_undo_redo() -> None:
    game = Game(1, clock=FakeClock())
    p0 = game.position
    t1 = game.play(mv("8a"))
    assert isinstance(t1, Turn)
    assert t1.move == mv("8a") and t1.before == p0 and t1.after == game.position
    assert game.moves == 1
    p1 = game.position
    assert p1.cells[0] == parse_card("TC")
    game.play(mv("18"))
    assert game.moves == 2
    p2 = game.position
    assert p2.columns[7][-2:] == tuple(_cards("7D 6S"))
    assert game.undo() is not None
    assert game.moves == 1 and game.position == p1 and game.can_redo()
    assert game.undo() is not None
    assert game.moves == 0 and game.position == p0
    assert game.undo() is None
    assert game.moves == 0 and game.position == p0
    assert game.redo() is not None and game.position == p1 and game.moves == 1
    assert game.redo() is not None and game.position == p2 and game.moves == 2
    assert game.redo() is None and game.position == p2 and game.moves == 2


def _long_game(length: int) -> tuple[Game, list[Position], list[int]]:
    """Deal 1 played at random (free cells last) for ``length`` moves, trying seeds until one lasts."""
    for seed in range(100):
        rng = random.Random(seed)
        game = Game(1, clock=FakeClock())
        positions, scores = [game.position], [0]
        while game.moves < length and (moves := game.legal_moves()):
            game.play(rng.choice([m for m in moves if m.dst.kind != CELL] or moves))
            positions.append(game.position)
            scores.append(game.score)
        if game.moves == length:
            return game, positions, scores
    raise AssertionError(f"no random game of {length} moves")


def test_unlimited_undo_and_redo() -> None:
    game, positions, scores = _long_game(150)
    assert game.moves == len(positions) - 1 == 150
    for i in range(len(positions) - 1, 0, -1):
        assert game.position == positions[i] and game.score == scores[i] and game.moves == i
        game.undo()
    assert game.position == game.start and game.moves == 0 and game.score == 0
    assert not game.can_undo()
    for i in range(1, len(positions)):
        game.redo()
        assert game.position == positions[i] and game.score == scores[i] and game.moves == i
    assert not game.can_redo()


def test_new_move_clears_redo() -> None:
    game = Game(1, clock=FakeClock())
    game.play(mv("8a"))
    game.play(mv("18"))
    game.play(mv("1b"))
    game.undo()
    game.undo()
    assert game.can_redo()
    game.play(mv("2b"))
    assert not game.can_redo()
    assert game.redo() is None
    assert game.moves == 2
    assert game.position.cells[1] == parse_card("9C")


def test_multi_card_move_is_one_move_and_undoes_in_one_step() -> None:
    start = build(["9S 8H 7C", "TH", "KC", "KD", "QC", "QD", "JC", "JD"])
    game = Game(position=start, clock=FakeClock())
    move = Move(column(0), column(1), 3)
    steps = game.steps(move)
    assert len(steps) == 5 and all(s.count == 1 for s in steps)
    pos = start
    for s in steps:
        assert check_move(pos, s, FREECELL) is None
        pos = apply_move(pos, s)
    turn = game.play(move)
    assert turn.move == move and turn.auto == ()
    assert game.moves == 1
    assert game.position == pos
    assert game.position.columns[1][-4:] == tuple(_cards("TH 9S 8H 7C"))
    assert game.position.columns[0] == start.columns[0][:-3]
    assert game.undo() is turn
    assert game.position == start and game.moves == 0
    game.redo()
    assert game.position == pos and game.moves == 1


# --- auto-moves --------------------------------------------------------------------------


def test_safe_auto_moves_follow_a_move_and_undo_with_it() -> None:
    start = build(["2H AH 9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"])
    game = Game(position=start, clock=FakeClock())
    turn = game.play(mv("1a"))
    assert turn.move == mv("1a")
    assert turn.auto == (Move(column(0), foundation()), Move(column(0), foundation()))
    assert turn.text() == "1a+1h+1h"
    assert game.position.foundations == (0, 0, 2, 0)
    assert game.cards_home() == 2
    assert game.score == 20
    assert game.moves == 1
    game.undo()
    assert game.position == start and game.score == 0 and game.cards_home() == 0 and game.moves == 0


def test_auto_move_only_when_safe() -> None:
    # 3H is next for hearts, but the black twos are not both home: it could still hold 2C/2S.
    unsafe = build(["3H 9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"], foundations=(2, 0, 2, 1))
    game = Game(position=unsafe, clock=FakeClock())
    turn = game.play(mv("1a"))
    assert turn.auto == ()
    assert game.position.columns[0][-1] == parse_card("3H")
    assert game.cards_home() == 5
    turn = game.play(mv("1h"))  # the player may still send it
    assert game.position.foundations == (2, 0, 3, 1)
    # both black twos home: now 3H is safe and goes by itself
    safe = build(["3H 9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"], foundations=(2, 0, 2, 2))
    game = Game(position=safe, clock=FakeClock())
    turn = game.play(mv("1a"))
    assert turn.auto == (Move(column(0), foundation()),)
    assert game.position.foundations == (2, 0, 3, 2)


def test_auto_moves_from_cells() -> None:
    # AD waits in a cell; a move elsewhere sends it home
    start = build(["9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"], cells="- AD")
    game = Game(position=start, clock=FakeClock())
    turn = game.play(mv("1a"))
    assert turn.auto == (Move(cell(1), foundation()),)
    assert game.position.cells == (parse_card("9C"), None, None, None)
    assert game.position.foundations == (0, 1, 0, 0)


def test_no_auto_moves_when_off() -> None:
    start = build(["2H AH 9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"], cells="- AD")
    game = Game(position=start, auto_move=False, clock=FakeClock())
    turn = game.play(mv("1a"))
    assert turn.auto == ()
    assert game.cards_home() == 0
    assert game.position.cells[1] == parse_card("AD")
    assert game.position.columns[0][-1] == parse_card("AH")
    game.play(mv("1h"))
    assert game.cards_home() == 1 and game.position.columns[0][-1] == parse_card("2H")
    assert game.score == 10


def test_no_auto_moves_before_the_first_move() -> None:
    start = build(["AH", "KC", "KD", "KH", "KS", "QC", "QD", "QH"])
    game = Game(position=start, clock=FakeClock())
    assert game.position == start
    assert game.cards_home() == 0


def test_auto_moves_on_random_play_only_go_home_and_are_safe() -> None:
    rng = random.Random(11)
    for n in (1, 2, 3, 617):
        game = Game(n, clock=FakeClock())
        for _ in range(80):
            moves = game.legal_moves()
            if not moves:
                break
            turn = game.play(rng.choice(moves))
            pos = apply_move(turn.before, turn.move)
            for m in turn.auto:
                assert m.dst.kind == FOUNDATION
                assert safe_automove(pos, FREECELL) == m
                pos = apply_move(pos, m)
            assert pos == turn.after
            assert safe_automove(turn.after, FREECELL) is None


# --- counters ----------------------------------------------------------------------------


def test_capacity() -> None:
    assert Game(1, clock=FakeClock()).capacity() == 5
    assert Game(1, clock=FakeClock()).capacity(to_empty_column=True) == 5
    one_empty = build(["KC", "KD", "KH", "KS", "QC", "QD", "QH", ""])
    game = Game(position=one_empty, clock=FakeClock())
    assert (game.capacity(), game.capacity(True)) == (10, 5)
    two_empty = build(["KC", "KD", "KH", "KS", "QC", "QD", "", ""], cells="QH - QS")
    game = Game(position=two_empty, clock=FakeClock())
    assert (game.capacity(), game.capacity(True)) == (12, 6)
    full = build(["KC", "KD", "KH", "KS", "QC", "QD", "QH", "JC"], cells="QS JD JH JS")
    game = Game(position=full, clock=FakeClock())
    assert (game.capacity(), game.capacity(True)) == (1, 1)
    kings = Rules(empty_column=EmptyColumn.KING)
    game = Game(position=two_empty, rules=kings, clock=FakeClock())
    assert (game.capacity(), game.capacity(True)) == (3, 3)


def test_capacity_is_what_the_rules_allow() -> None:
    run = "9H 8S 7H 6S 5H 4S"
    start = build([run, "TS", "9D", "KC", "KD", "KH", "QC", "QD"])
    game = Game(position=start, clock=FakeClock())
    assert game.capacity() == 5
    with pytest.raises(IllegalMoveError) as info:
        game.play(Move(column(0), column(1), 6))
    assert info.value.refusal.reason is Reason.TOO_MANY_CARDS
    assert (info.value.refusal.moving, info.value.refusal.capacity) == (6, 5)
    assert game.moves == 0
    game.play(Move(column(0), column(2), 5))
    assert game.moves == 1
    assert game.position.columns[2][-6:] == tuple(_cards("9D 8S 7H 6S 5H 4S"))

    start = build([run, "TS", "9D", "KC", "KD", "KH", "QC", ""])
    game = Game(position=start, clock=FakeClock())
    assert (game.capacity(), game.capacity(True)) == (10, 5)
    with pytest.raises(IllegalMoveError) as info:
        game.play(Move(column(0), column(7), 6))
    assert info.value.refusal.reason is Reason.TOO_MANY_CARDS
    assert (info.value.refusal.moving, info.value.refusal.capacity) == (6, 5)
    game.play(Move(column(0), column(7), 5))
    game.undo()
    game.play(Move(column(0), column(1), 6))
    assert game.position.columns[1][-7:] == tuple(_cards("TS " + run))


def test_cards_home_counts_foundations() -> None:
    pos = Position.from_text((BOARDS / "good_midgame.board").read_text(encoding="utf-8"))
    game = Game(position=pos, clock=FakeClock())
    assert game.cards_home() == 3


# --- clock -------------------------------------------------------------------------------


def test_clock_starts_at_first_move_and_pauses() -> None:
    clock = FakeClock(1000.0)
    game = Game(1, clock=clock)
    clock.t = 1500.0
    assert game.elapsed() == 0.0
    game.clock.pause()  # the page hides and shows again before any move
    game.clock.resume()
    clock.t = 1600.0
    assert game.elapsed() == 0.0
    game.play(mv("8a"))
    assert game.elapsed() == 0.0
    clock.t = 1630.0
    assert game.elapsed() == 30.0
    game.clock.pause()
    game.clock.pause()
    clock.t = 2000.0
    assert game.elapsed() == 30.0
    game.clock.resume()  # the page is visible again
    clock.t = 2010.0
    assert game.elapsed() == 40.0
    game.play(mv("18"))
    clock.t = 2015.5
    assert game.elapsed() == 45.5
    game.undo()
    clock.t = 2020.5
    assert game.elapsed() == 50.5


def test_clock_stops_on_win_and_restart_resets() -> None:
    clock = FakeClock(0.0)
    game = Game(position=near_won(), auto_move=False, clock=clock)
    game.play(mv("1a"))  # TC to a cell
    clock.t = 10.0
    while not game.is_won():
        assert game.finish_step() is not None
        clock.t += 1.0
    won_at = game.elapsed()
    assert won_at == pytest.approx(10.0 + 15.0)
    clock.t += 1000.0
    assert game.elapsed() == won_at
    game.clock.pause()
    game.clock.resume()  # showing the page again does not restart a won game's clock
    clock.t += 1000.0
    assert game.elapsed() == won_at
    game.undo()  # back from the win: time runs again
    clock.t += 5.0
    assert game.elapsed() == pytest.approx(won_at + 5.0)
    game.redo()
    clock.t += 100.0
    assert game.elapsed() == pytest.approx(won_at + 5.0)
    game.restart()
    assert game.elapsed() == 0.0
    clock.t += 100.0
    assert game.elapsed() == 0.0
    game.play(mv("1a"))
    clock.t += 3.0
    assert game.elapsed() == 3.0


# --- finish, stuck, win ------------------------------------------------------------------


def test_can_finish_becomes_true() -> None:
    blocked = Position.from_text(
        "Foundations: H-9 C-9 D-9 S-9\nFreecells: - - - -\n"
        ": KC QC JC TC\n: KD QD JD TD\n: KH QH TH JH\n: KS QS JS TS\n:\n:\n:\n:\n"
    )
    game = Game(position=blocked, auto_move=False, clock=FakeClock())
    assert not game.can_finish()
    assert game.finish_step() is None
    assert game.moves == 0
    game.play(mv("3a"))
    assert game.can_finish()
    game.undo()
    assert not game.can_finish()
    game.play(mv("35"))
    assert game.can_finish()


def test_finish_step_one_card_per_turn() -> None:
    game = Game(position=near_won(), clock=FakeClock())
    assert game.can_finish()
    history = [game.position]
    while game.can_finish():
        before = game.position
        turn = game.finish_step()
        assert turn is not None
        assert turn.auto == ()
        assert turn.move.dst.kind == FOUNDATION
        assert game.cards_home() == before.cards_home() + 1
        # the lowest card that can go goes first
        assert max(game.position.foundations) - min(game.position.foundations) <= 1
        history.append(game.position)
    assert game.is_won()
    assert game.moves == 16
    assert game.score == 160
    assert game.finish_step() is None
    assert not game.can_finish()
    for i in range(16, 0, -1):
        assert game.position == history[i]
        game.undo()
        assert game.position == history[i - 1]
        assert game.cards_home() == 36 + i - 1
        assert game.score == 10 * (i - 1)
    assert game.position == near_won()


def test_not_stuck_at_start_and_stuck_in_a_dead_position() -> None:
    assert not Game(1, clock=FakeClock()).is_stuck()
    # every exposed card is black and no ace or two is exposed: full cells, nothing can move
    dead = build(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"], cells="3S 4S 5S 6S")
    assert dead.empty_cells() == 0 and empty_columns(dead) == 0
    game = Game(position=dead, clock=FakeClock())
    assert game.legal_moves() == []
    assert game.is_stuck()
    assert not game.can_finish()
    with pytest.raises(IllegalMoveError):
        game.play(mv("12"))
    # one free cell makes it alive again
    alive = build(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"], cells="3S 4S 5S -")
    assert not Game(position=alive, clock=FakeClock()).is_stuck()
    # a won game is over, not stuck
    won = Position.from_text("Foundations: H-K C-K D-K S-K\nFreecells: - - - -\n" + ":\n" * 8)
    assert not Game(position=won, clock=FakeClock()).is_stuck()


def test_play_deal_1_to_the_end(deal_1_solution: list[Move]) -> None:
    clock = FakeClock(0.0)
    game = Game(1, clock=clock)
    for i, m in enumerate(deal_1_solution):
        assert not game.is_won()
        clock.t = float(i)
        turn = game.play(m)
        assert all(a.dst.kind == FOUNDATION for a in turn.auto)
    assert game.is_won()
    assert game.position.foundations == (13, 13, 13, 13)
    assert game.cards_home() == 52
    assert game.score == 520
    assert game.moves == len(deal_1_solution)
    assert not game.is_stuck() and not game.can_finish()
    assert game.finish_step() is None
    stopped_at = game.elapsed()
    assert stopped_at == float(len(deal_1_solution) - 1)
    clock.t += 500.0
    assert game.elapsed() == stopped_at
    # the same game without auto-moves: every card is a move of its own
    manual = Game(1, auto_move=False, clock=FakeClock())
    for turn in game.turns:
        for m in turn.moves:
            assert manual.play(m).auto == ()
    assert manual.is_won()
    assert manual.score == 520
    assert manual.moves == sum(len(t.moves) for t in game.turns)
    # undo everything goes back to the deal
    while game.undo():
        pass
    assert game.position == Position.deal(1) and game.score == 0


# --- score -------------------------------------------------------------------------------


def test_score_with_cards_taken_back() -> None:
    rules = Rules(foundation_return=True)
    start = build(["AH", "AS", "KD", "KH", "KS", "QC", "QD", "QH"])
    game = Game(position=start, rules=rules, auto_move=False, clock=FakeClock())
    game.play(mv("1h"))
    assert game.score == 10
    game.play(mv("2h"))
    assert game.score == 20
    game.play(mv("h3a"))  # the ace of hearts comes back
    assert game.score == 5
    assert game.cards_home() == 1
    game.play(mv("h4b"))  # the ace of spades too: the score stays at zero
    assert game.score == 0
    assert game.cards_home() == 0
    game.play(mv("ah"))
    assert game.score == 10
    scores = []
    while game.can_undo():
        game.undo()
        scores.append(game.score)
    assert scores == [0, 5, 20, 10, 0]
    # without the rule, cards do not come back
    strict = Game(position=start, auto_move=False, clock=FakeClock())
    strict.play(mv("1h"))
    with pytest.raises(IllegalMoveError) as info:
        strict.play(mv("h3a"))
    assert info.value.refusal.reason is Reason.FROM_FOUNDATION_OFF
    assert strict.score == 10


def test_score_counts_auto_moves() -> None:
    start = build(["2H AH 9C", "KC", "KD", "KH", "KS", "QC", "QD", "QH"], cells="- AD")
    game = Game(position=start, clock=FakeClock())
    game.play(mv("1a"))
    assert game.cards_home() == 3
    assert game.score == 30


# --- refused moves -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("12", Reason.NOT_ONE_LOWER),
        ("48", Reason.WRONG_COLOUR),
        ("1h", Reason.NOT_NEXT_FOR_FOUNDATION),
        ("1h1", Reason.WRONG_FOUNDATION),
        ("9a", Reason.NO_SUCH_PILE),
        ("1i", Reason.NO_SUCH_PILE),
        ("11", Reason.SAME_PILE),
        ("b1", Reason.NOTHING_TO_MOVE),
        ("ab", Reason.CELL_TO_CELL),
        ("2a", Reason.CELL_TAKEN),
        ("h31", Reason.FROM_FOUNDATION_OFF),
        ("12x2", Reason.BROKEN_SEQUENCE),
        ("12x9", Reason.BAD_COUNT),
        ("hh", Reason.FOUNDATION_TO_FOUNDATION),
    ],
)
def test_refused_move_changes_nothing(text: str, reason: Reason) -> None:
    clock = FakeClock(0.0)
    game = Game(1, clock=clock)
    game.play(mv("8a"))
    game.play(mv("7b"))
    game.undo()
    clock.t = 10.0
    state = (game.position, game.moves, game.score, game.turns, game.can_redo(), game.elapsed())
    saved = game.to_json()
    with pytest.raises(IllegalMoveError) as info:
        game.play(mv(text))
    assert isinstance(info.value, ValueError)
    assert info.value.refusal.reason is reason
    assert info.value.move == mv(text)
    assert game.check(mv(text)) == info.value.refusal
    assert (game.position, game.moves, game.score, game.turns, game.can_redo(), game.elapsed()) == state
    assert game.to_json() == saved
    redone = game.redo()
    assert redone is not None and redone.move == mv("7b")


def test_refused_moves_with_a_run() -> None:
    game = Game(1, clock=FakeClock())
    game.play(mv("8a"))
    game.play(mv("18"))  # column 8 ends 7D 6S
    for text, reason in [
        ("8bx2", Reason.ONE_CARD_TO_CELL),
        ("8hx2", Reason.ONE_CARD_TO_FOUNDATION),
        ("82x2", Reason.NOT_ONE_LOWER),
    ]:
        with pytest.raises(IllegalMoveError) as info:
            game.play(mv(text))
        assert info.value.refusal.reason is reason, text
    assert game.moves == 2


def test_restart() -> None:
    clock = FakeClock(0.0)
    game = Game(1, clock=clock)
    game.play(mv("8a"))
    game.play(mv("18"))
    game.undo()
    clock.t = 50.0
    game.restart()
    assert game.position == game.start == Position.deal(1)
    assert game.moves == 0 and game.score == 0 and game.turns == ()
    assert not game.can_undo() and not game.can_redo()
    assert game.elapsed() == 0.0
    assert game.deal == 1
    game.play(mv("8a"))
    assert game.moves == 1
    board = Game(position=near_won(), clock=clock)
    board.finish_step()
    board.restart()
    assert board.position == near_won() and board.score == 0


# --- save and load -----------------------------------------------------------------------


def _played(
    seed: int, n: int = 30, rules: Rules = FREECELL, auto_move: bool = True
) -> tuple[Game, FakeClock]:
    clock = FakeClock(100.0)
    game = Game(1 + seed, rules=rules, auto_move=auto_move, clock=clock)
    rng = random.Random(seed)
    for _ in range(n):
        moves = game.legal_moves()
        if not moves:
            break
        clock.t += 1.25
        game.play(rng.choice(moves))
    return game, clock


def _history(game: Game) -> list[Position]:
    return [t.before for t in game.turns] + [game.position]


def test_save_is_compact_versioned_json() -> None:
    game, _ = _played(1)
    text = game.to_json()
    data = json.loads(text)
    assert data["version"] == 1 and type(data["version"]) is int
    assert json.dumps(data, separators=(",", ":")) == text
    assert "\n" not in text and ": " not in text and ", " not in text
    assert data["deal"] == 2
    assert "board" not in data


@pytest.mark.parametrize(
    ("rules", "auto_move"),
    [
        (FREECELL, True),
        (FREECELL, False),
        (Rules(free_cells=3, foundation_return=True), True),
        (Rules(free_cells=2, build=Build.SUIT, empty_column=EmptyColumn.KING), False),
        (Rules(free_cells=0, build=Build.ANY), True),
    ],
)
def test_save_and_load_restores_everything(rules: Rules, auto_move: bool) -> None:
    game, clock = _played(3, 40, rules, auto_move)
    assert game.moves >= 5
    for _ in range(3):
        game.undo()
    clock.t += 7.0
    text = game.to_json()
    new_clock = FakeClock(5.0)
    loaded = Game.from_json(text, clock=new_clock)
    assert loaded.deal == game.deal
    assert loaded.start == game.start
    assert loaded.rules == rules
    assert loaded.auto_move is auto_move
    assert loaded.position == game.position
    assert loaded.score == game.score
    assert loaded.moves == game.moves
    assert loaded.turns == game.turns
    assert loaded.can_redo()
    assert loaded.elapsed() == pytest.approx(game.elapsed(), abs=1e-3)
    assert loaded.to_json() == text
    # the clock is restored paused; the next move sets it running
    new_clock.t += 100.0
    assert loaded.elapsed() == pytest.approx(game.elapsed(), abs=1e-3)
    # redo, then undo all the way back
    for _ in range(3):
        assert loaded.redo() is not None
        assert game.redo() is not None
        assert loaded.position == game.position and loaded.score == game.score
    assert not loaded.can_redo()
    assert _history(loaded) == _history(game)
    while loaded.undo():
        pass
    assert loaded.position == game.start and loaded.moves == 0


def test_save_and_load_board_game() -> None:
    start = Position.from_text((BOARDS / "good_midgame.board").read_text(encoding="utf-8"))
    clock = FakeClock()
    game = Game(position=start, clock=clock)
    rng = random.Random(2)
    for _ in range(20):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        clock.t += 0.5
    game.undo()
    text = game.to_json()
    data = json.loads(text)
    assert "deal" not in data and isinstance(data["board"], str)
    loaded = Game.from_json(text, clock=FakeClock())
    assert loaded.deal is None
    assert loaded.start == start
    assert loaded.position == game.position
    assert loaded.turns == game.turns
    assert loaded.can_redo()
    assert loaded.to_json() == text
    assert Game.from_json(text.encode("utf-8"), clock=FakeClock()).to_json() == text


def test_save_and_load_won_game(deal_1_solution: list[Move]) -> None:
    clock = FakeClock(0.0)
    game = Game(1, clock=clock)
    for m in deal_1_solution:
        clock.t += 2.0
        game.play(m)
    assert game.is_won()
    text = game.to_json()
    new_clock = FakeClock(0.0)
    loaded = Game.from_json(text, clock=new_clock)
    assert loaded.is_won() and loaded.score == 520
    assert loaded.elapsed() == game.elapsed()
    new_clock.t += 99.0
    assert loaded.elapsed() == game.elapsed()
    assert loaded.to_json() == text


def test_a_long_game_saves_and_restores() -> None:
    game = Game(position=near_won(), auto_move=False, clock=FakeClock())
    game.play(mv("15"))
    for _ in range(10_000):  # TC back and forth between two empty columns
        game.play(mv("56"))
        game.play(mv("65"))
    assert game.moves == 20_001
    text = game.to_json()
    assert Game.from_json(text, clock=FakeClock()).to_json() == text


def _save() -> str:
    game, clock = _played(4, 12)
    game.undo()
    game.undo()
    clock.t += 3.0
    return game.to_json()


REAL_SAVE = _save()
REAL = json.loads(REAL_SAVE)


def _with(**changes: object) -> str:
    data = dict(REAL)
    for k, v in changes.items():
        if v is _DROP:
            data.pop(k, None)
        else:
            data[k] = v
    return json.dumps(data)


_DROP = object()


def _raw(key: str, raw: str) -> str:
    """The real save with ``key`` set to ``raw``, JSON text that ``json.dumps`` would not write."""
    return _with(**{key: _DROP}).replace("{", f'{{"{key}":{raw},', 1)


def test_real_save_loads() -> None:
    assert len(REAL["turns"]) >= 5 and len(REAL["redo"]) == 2
    assert Game.from_json(REAL_SAVE, clock=FakeClock()).to_json() == REAL_SAVE
    assert Game.from_json(_with(), clock=FakeClock()).to_json() == REAL_SAVE


def test_every_prefix_is_refused() -> None:
    for i in range(len(REAL_SAVE)):
        with pytest.raises(GameLoadError):
            Game.from_json(REAL_SAVE[:i], clock=FakeClock())
        with pytest.raises(GameLoadError):
            Game.from_json(REAL_SAVE[:i].encode("utf-8"), clock=FakeClock())


_ILLEGAL = REAL["turns"][:1] + ["12x9"]
_TOGGLES = ["15"] + ["56", "65"] * 50_001  # TC between two empty columns: every move legal
_NESTED = "[" * 100_000 + "]" * 100_000

BAD_SAVES: dict[str, object] = {
    # corrupt
    "empty": "",
    "spaces": "   ",
    "not json": "freecell!",
    "bad bytes": b"\xff\xfe\x00{",
    "bom": "\ufeff" + REAL_SAVE,
    "trailing garbage": REAL_SAVE + "x",
    "two objects": REAL_SAVE + REAL_SAVE,
    # foreign
    "null": "null",
    "number": "42",
    "string": '"freecell-game"',
    "array": json.dumps([REAL]),
    "empty object": "{}",
    "other format": _with(format="chess-game"),
    "no format": _with(format=_DROP),
    "version 2": _with(version=2),
    "version 0": _with(version=0),
    "version true": _with(version=True),
    "version text": _with(version="1"),
    "no version": _with(version=_DROP),
    "version null": _with(version=None),
    # hostile
    "nested arrays": _NESTED,
    "nested in a save": _raw("turns", _NESTED),
    "nested objects": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "huge elapsed": _raw("elapsed", "1e400"),
    "huge deal": _raw("deal", "1e400"),
    "huge int deal": _raw("deal", "9" * 5000),
    "huge int elapsed": _raw("elapsed", "9" * 400),
    "huge version": _raw("version", "1e400"),
    "huge free cells": _raw("rules", '{"free_cells":1e400}'),
    "illegal move": _with(turns=_ILLEGAL, redo=[]),
    "illegal redo": _with(redo=["12x9"]),
    "auto-move not home": _with(deal=1, turns=["8a+7b"], redo=[]),
    "bad move text": _with(turns=["zz"], redo=[]),
    "empty turn": _with(turns=[""], redo=[]),
    "long turn": _with(turns=["1a" + "+1h" * 1000], redo=[]),
    "100003 turns": _with(deal=_DROP, board=near_won().to_text(), turns=_TOGGLES, redo=[]),
    "100003 redo": _with(deal=_DROP, board=near_won().to_text(), turns=_TOGGLES[:1], redo=_TOGGLES[1:]),
    "negative elapsed": _with(elapsed=-1),
    "nan elapsed": _raw("elapsed", "NaN"),
    "infinite elapsed": _raw("elapsed", "Infinity"),
    "nan deal": _raw("deal", "NaN"),
    "too much elapsed": _with(elapsed=10**12),
    "unknown field": _with(player="me"),
    "deal 0": _with(deal=0),
    "deal -1": _with(deal=-1),
    "deal too big": _with(deal=MAX_DEAL + 1),
    "deal and board": _with(board=Position.deal(1).to_text()),
    "no start": _with(deal=_DROP),
    "duplicate card board": _with(
        deal=_DROP, turns=[], redo=[], board=(BOARDS / "duplicate.board").read_text(encoding="utf-8")
    ),
    "51 card board": _with(
        deal=_DROP, turns=[], redo=[], board=(BOARDS / "fifty_one.board").read_text(encoding="utf-8")
    ),
    "huge board": _with(deal=_DROP, turns=[], redo=[], board=Position.deal(1).to_text() + " " * 20_000),
    "too large": _with(player="x" * 1_100_000),
    "rules for ten columns": _with(rules={"columns": 10}),
    "unknown rule": _with(rules={"colour": "red"}),
    # wrong types
    "deal text": _with(deal="1"),
    "deal float": _with(deal=1.5),
    "deal true": _with(deal=True),
    "deal null": _with(deal=None),
    "deal list": _with(deal=[1]),
    "board number": _with(deal=_DROP, board=5),
    "board list": _with(deal=_DROP, board=["JD"]),
    "rules list": _with(rules=[]),
    "rules text": _with(rules="freecell"),
    "rules null": _with(rules=None),
    "free cells text": _with(rules={"free_cells": "4"}),
    "free cells float": _with(rules={"free_cells": 4.0}),
    "free cells true": _with(rules={"free_cells": True}),
    "free cells 9": _with(rules={"free_cells": 9}),
    "build list": _with(rules={"build": ["suit"]}),
    "build object": _with(rules={"build": {"a": 1}}),
    "build unknown": _with(rules={"build": "colour"}),
    "empty column number": _with(rules={"empty_column": 1}),
    "foundation return number": _with(rules={"foundation_return": 1}),
    "auto_move text": _with(auto_move="yes"),
    "auto_move number": _with(auto_move=1),
    "auto_move null": _with(auto_move=None),
    "turns object": _with(turns={"0": "1a"}),
    "turns text": _with(turns="1a"),
    "turns null": _with(turns=None),
    "turn number": _with(turns=[1]),
    "turn null": _with(turns=[None]),
    "turn list": _with(turns=[["1a"]]),
    "turn object": _with(turns=[{"from": "1", "to": "a"}]),
    "redo object": _with(redo={}),
    "redo number": _with(redo=[7]),
    "elapsed text": _with(elapsed="3"),
    "elapsed true": _with(elapsed=True),
    "elapsed list": _with(elapsed=[1]),
    "elapsed null": _with(elapsed=None),
    "format number": _with(format=1),
    # not text at all
    "None": None,
    "int": 42,
    "dict": dict(REAL),
    "list": [REAL_SAVE],
    "bytearray": bytearray(REAL_SAVE, "utf-8"),
}


@pytest.mark.parametrize("name", list(BAD_SAVES))
def test_bad_saves_raise_game_load_error(name: str) -> None:
    with pytest.raises(GameLoadError) as info:
        Game.from_json(BAD_SAVES[name], clock=FakeClock())  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_bad_save_variants_are_otherwise_good() -> None:
    """The hostile saves above fail for the one thing wrong with them."""
    Game.from_json(_with(deal=1, turns=["8a", "7b"], redo=[]), clock=FakeClock())
    Game.from_json(_with(deal=_DROP, board=near_won().to_text(), turns=_TOGGLES[:999], redo=[]),
                   clock=FakeClock())
    Game.from_json(_with(deal=_DROP, board=near_won().to_text(), turns=[], redo=_TOGGLES[:999]),
                   clock=FakeClock())
    Game.from_json(_with(deal=_DROP, turns=[], redo=[], board=Position.deal(1).to_text()), clock=FakeClock())
    Game.from_json(_with(elapsed=0), clock=FakeClock())
    Game.from_json(_raw("elapsed", "1e3"), clock=FakeClock())


def test_auto_move_in_history_must_be_legal() -> None:
    first = REAL["turns"][0].split("+")[0]
    with pytest.raises(GameLoadError):
        Game.from_json(_with(turns=[first + "+1h1+1h1+1h1"], redo=[]), clock=FakeClock())


def test_history_beyond_the_cap_folds_into_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import freecell.game as game_module

    monkeypatch.setattr(game_module, "MAX_TURNS", 4)
    game = Game(position=near_won(), auto_move=False, clock=FakeClock())
    game.deal = 617  # as if the game had started from a deal
    game.play(mv("15"))
    for _ in range(5):  # the ten of clubs back and forth between two empty columns
        game.play(mv("56"))
        game.play(mv("65"))
    assert len(game.turns) == 4 and game.moves == 4
    text = game.to_json()
    data = json.loads(text)
    assert "deal" not in data and "board" in data  # the start is no longer the deal's
    restored = Game.from_json(text, clock=FakeClock())
    assert restored.position == game.position and restored.moves == 4
    game.restart()
    assert game.position == Position.deal(617) and game.moves == 0


# --- the option "cards back from the foundations", during a game ----------------------------------


def test_foundation_return_switched_on_and_off_during_a_game(deal_1_solution: list[Move]) -> None:
    game = Game(1)
    for m in deal_1_solution[:12]:
        game.play(m)
    assert game.cards_home() > 0, "some card went home in the first moves"
    assert not any(m.src.kind == FOUNDATION for m in game.legal_moves())  # the option is off
    game.allow_foundation_return(True)
    assert game.rules.foundation_return
    back = next((m for m in game.legal_moves() if m.src.kind == FOUNDATION), None)
    assert back is not None
    game.play(back)
    game.allow_foundation_return(False)
    # the history with that move in it still saves and loads
    again = Game.from_json(game.to_json())
    assert again.position == game.position and again.moves == game.moves
    assert not again.rules.foundation_return


def test_a_variant_keeps_the_foundation_return_option() -> None:
    game = Game(617, variant="bakers", rules=Rules(build=Build.SUIT, foundation_return=True))
    assert game.rules.foundation_return and game.variant is not None
    assert Game.from_json(game.to_json()).rules.foundation_return
