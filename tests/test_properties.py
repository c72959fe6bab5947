"""Hypothesis properties: random legal play, undo/redo, save/restore, and a loader that fails cleanly.

Games are played by drawing moves from ``legal_moves`` (with undo, redo and
finish steps mixed in), under any rules a deal can be played with.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freecell.deals import MAX_DEAL
from freecell.engine import check_move, legal_moves
from freecell.game import Game, GameLoadError
from freecell.piles import FOUNDATION
from freecell.position import Position
from freecell.rules import Build, EmptyColumn, Rules
from tests.support.values import json_values

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


deals = st.one_of(
    st.integers(1, 32_000), st.integers(1, 2**31 - 1), st.integers(2**31, 2**32 - 1),
    st.integers(2**32, MAX_DEAL),
)
rules_st = st.builds(
    Rules,
    free_cells=st.integers(0, 8),
    build=st.sampled_from(Build),
    empty_column=st.sampled_from(EmptyColumn),
    foundation_return=st.booleans(),
)
ACTIONS = ["play"] * 6 + ["undo", "redo", "finish"]
actions_st = st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2**16)), min_size=20, max_size=80)


def _snapshot(game: Game) -> tuple[object, ...]:
    return (game.position, game.score, game.moves, game.turns, game.can_redo())


def _act(game: Game, clock: FakeClock, action: str, choice: int) -> None:
    clock.t += 1 + choice % 7
    if action == "undo":
        game.undo()
    elif action == "redo":
        game.redo()
    elif action == "finish":
        game.finish_step()
    else:
        moves = game.legal_moves()
        if moves:
            game.play(moves[choice % len(moves)])


def _new(deal: int, rules: Rules, auto_move: bool) -> tuple[Game, FakeClock]:
    clock = FakeClock(100.0)
    return Game(deal, rules=rules, auto_move=auto_move, clock=clock), clock


@SETTINGS
@given(deal=deals, rules=rules_st, auto_move=st.booleans(), actions=actions_st)
def test_random_play_keeps_52_distinct_cards(
    deal: int, rules: Rules, auto_move: bool, actions: list[tuple[str, int]]
) -> None:
    game, clock = _new(deal, rules, auto_move)
    for action, choice in actions:
        moves = legal_moves(game.position, rules)
        for m in moves:
            assert check_move(game.position, m, rules) is None, m.text()
        _act(game, clock, action, choice)
        pos = game.position
        assert pos.validate(rules) is pos
        assert sorted(pos.all_cards()) == list(range(52))
        assert game.score >= 0
        assert game.moves == len(game.turns)
        for turn in game.turns:
            assert all(a.dst.kind == FOUNDATION for a in turn.auto)
            if not auto_move:
                assert turn.auto == ()


@SETTINGS
@given(deal=deals, rules=rules_st, auto_move=st.booleans(), actions=actions_st)
def test_undo_then_redo_is_identity(
    deal: int, rules: Rules, auto_move: bool, actions: list[tuple[str, int]]
) -> None:
    game, clock = _new(deal, rules, auto_move)
    for action, choice in actions:
        _act(game, clock, action, choice)
        before = _snapshot(game)
        if game.can_undo():
            turn = game.undo()
            assert turn is not None
            assert game.position == turn.before
            assert game.redo() is turn
            assert _snapshot(game) == before
        if game.can_redo():
            turn = game.redo()
            assert turn is not None and game.position == turn.after
            assert game.undo() is turn
            assert _snapshot(game) == before


@SETTINGS
@given(deal=deals, rules=rules_st, auto_move=st.booleans(), actions=actions_st)
def test_undo_all_returns_to_the_start(
    deal: int, rules: Rules, auto_move: bool, actions: list[tuple[str, int]]
) -> None:
    game, clock = _new(deal, rules, auto_move)
    for action, choice in actions:
        _act(game, clock, action, choice)
    history = [t.before for t in game.turns]
    scores = [0] + [t.score for t in game.turns[:-1]]
    while game.can_undo():
        game.undo()
        assert game.position == history.pop()
        assert game.score == scores.pop()
    assert history == []
    assert game.position == game.start == Position.deal(deal, rules)
    assert game.moves == 0 and game.score == 0 and game.cards_home() == 0


@SETTINGS
@given(deal=deals, rules=rules_st, auto_move=st.booleans(), actions=actions_st)
def test_save_then_restore_is_identity(
    deal: int, rules: Rules, auto_move: bool, actions: list[tuple[str, int]]
) -> None:
    game, clock = _new(deal, rules, auto_move)
    for action, choice in actions:
        _act(game, clock, action, choice)
    text = game.to_json()
    loaded = Game.from_json(text, clock=FakeClock(5.0))
    assert loaded.to_json() == text
    assert loaded.deal == deal and loaded.rules == rules and loaded.auto_move is auto_move
    assert _snapshot(loaded) == _snapshot(game)
    assert abs(loaded.elapsed() - game.elapsed()) <= 0.0005
    while game.redo():
        assert loaded.redo() is not None
        assert _snapshot(loaded) == _snapshot(game)
    assert loaded.redo() is None
    while game.undo():
        assert loaded.undo() is not None
        assert _snapshot(loaded) == _snapshot(game)
    assert loaded.undo() is None
    assert loaded.position == loaded.start == game.start


# --- the loader --------------------------------------------------------------------------


def _check_load(data: object) -> None:
    """Loading either fails with GameLoadError or gives a sound game that saves stably."""
    try:
        game = Game.from_json(data, clock=FakeClock())  # type: ignore[arg-type]
    except GameLoadError as e:
        assert str(e)
        return
    assert game.position.validate(game.rules) is game.position
    assert game.score >= 0
    again = game.to_json()
    assert Game.from_json(again, clock=FakeClock()).to_json() == again


def _real_saves() -> list[str]:
    out = []
    for seed, rules, auto_move in [
        (1, Rules(), True),
        (2, Rules(free_cells=2, foundation_return=True), False),
        (3, Rules(build=Build.SUIT, empty_column=EmptyColumn.KING), True),
    ]:
        rng = random.Random(seed)
        clock = FakeClock()
        game = Game(rng.randint(1, 32000), rules=rules, auto_move=auto_move, clock=clock)
        for _ in range(25):
            moves = game.legal_moves()
            if not moves:
                break
            clock.t += 2.5
            game.play(rng.choice(moves))
        game.undo()
        game.undo()
        out.append(game.to_json())
    board = Game(position=Position.deal(9), clock=FakeClock())
    board.play(board.legal_moves()[0])
    out.append(board.to_json())
    return out


REAL_SAVES = _real_saves()

JSON = json_values(text=20, key=10, items=5, entries=5, leaves=20, nan=None)


def test_real_saves_load() -> None:
    for text in REAL_SAVES:
        assert Game.from_json(text, clock=FakeClock()).to_json() == text


@FUZZ
@given(st.text())
def test_loader_on_any_text(text: str) -> None:
    _check_load(text)


@FUZZ
@given(st.binary())
def test_loader_on_any_bytes(data: bytes) -> None:
    _check_load(data)


@FUZZ
@given(JSON)
def test_loader_on_any_json(value: Any) -> None:
    _check_load(json.dumps(value))


@FUZZ
@given(
    st.fixed_dictionaries(
        {"format": st.just("freecell-game"), "version": st.just(1) | JSON},
        optional={
            "deal": st.integers(-5, MAX_DEAL + 5) | JSON,
            "board": st.sampled_from([Position.deal(4).to_text()]) | JSON,
            "rules": JSON,
            "auto_move": JSON,
            "turns": st.lists(st.sampled_from(["1a", "2b", "a1", "1h", "12", "38x2"]) | JSON),
            "redo": JSON,
            "elapsed": JSON,
        },
    )
)
def test_loader_on_save_shaped_json(value: dict[str, Any]) -> None:
    _check_load(json.dumps(value))


saves_st = st.sampled_from(REAL_SAVES)


@FUZZ
@given(text=saves_st, data=st.data())
def test_loader_on_save_without_a_key(text: str, data: st.DataObject) -> None:
    obj = json.loads(text)
    obj.pop(data.draw(st.sampled_from(sorted(obj))))
    _check_load(json.dumps(obj))


@FUZZ
@given(text=saves_st, data=st.data(), value=JSON)
def test_loader_on_save_with_a_value_replaced(text: str, data: st.DataObject, value: Any) -> None:
    obj = json.loads(text)
    obj[data.draw(st.sampled_from(sorted(obj)))] = value
    _check_load(json.dumps(obj))


@FUZZ
@given(text=saves_st, data=st.data(), value=JSON | st.text(max_size=12))
def test_loader_on_save_with_a_turn_replaced(text: str, data: st.DataObject, value: Any) -> None:
    obj = json.loads(text)
    key = data.draw(st.sampled_from(["turns", "redo"]))
    if obj[key]:
        obj[key][data.draw(st.integers(0, len(obj[key]) - 1))] = value
    else:
        obj[key].append(value)
    _check_load(json.dumps(obj))


@FUZZ
@given(text=saves_st, data=st.data())
def test_loader_on_truncated_save(text: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(text) - 1))
    try:
        Game.from_json(text[:cut], clock=FakeClock())
    except GameLoadError:
        return
    raise AssertionError(f"a save cut at {cut} loaded")


@FUZZ
@given(
    text=saves_st,
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.characters()), min_size=1, max_size=6),
)
def test_loader_on_save_with_flipped_characters(text: str, flips: list[tuple[int, str]]) -> None:
    chars = list(text)
    for i, c in flips:
        chars[i % len(chars)] = c
    _check_load("".join(chars))


@FUZZ
@given(text=saves_st, data=st.data())
def test_loader_on_save_with_bytes_flipped(text: str, data: st.DataObject) -> None:
    raw = bytearray(text.encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    _check_load(bytes(raw))
