"""The solver service behind the page's Web Worker (:mod:`freecell.worker`), in CPython.

``static/solver-worker.js`` only relays text: it hands every message from the
page to :meth:`Service.receive`, posts what that returns, and calls
:meth:`Service.step` while :attr:`Service.busy`.  These tests drive the
service the same way (:func:`drive`), so everything the worker can say is
checked here without a browser:

* ``ping`` / ``pong``; a ``solve`` that runs, slice by slice, to a ``result``;
  every solution replayed through the engine, every hint checked with
  ``check_move``;
* only the newest request is worked on: a new ``solve`` cancels the one
  before (``cancelled`` with the old id), ``cancel`` stops, a ``cancel`` with
  an id that is not the current one is ignored;
* bad messages (not JSON, not an object, no id, a bool id, too long, an
  unknown type, a bad board, budget or rules) are answered with an ``error``
  and never raise, whatever the text (a Hypothesis property);
* budget exhaustion gives ``unknown`` and a legal hint; deal 11982 searched to
  the end (in the background, see below) gives ``unsolvable`` and no hint;
* every message the service returns survives ``json.dumps`` (the worker
  posts it as a plain object);
* ``keep``: the search named goes on in the background (no ``cancelled``),
  its result comes with its own id; a solve without ``keep`` drops it (with
  ``cancelled``); ``cancel`` stops either search by its id; the background
  takes BACKGROUND_SLICES slices for each foreground one, its own budget, and
  the two searches share the memory cap; deal 11982 is proven in the
  background while a foreground search runs beside it, counted in slices;
* ``path``: a known solution answers a position one move off it in a few
  nodes; malformed ``keep`` and ``path`` values, and unknown fields, get an
  ``error``.

Runtime: about 15 s; deal 11982 is searched to the end once here (about
62,000 nodes, in slices of 150 beside a foreground search).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freecell.engine import apply_move, check_move, legal_moves
from freecell.known import position_key
from freecell.piles import Move
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import MAX_STATES, Solver
from freecell.worker import (
    BACKGROUND_SLICES,
    MAX_BUDGET_MS,
    MAX_MESSAGE,
    MAX_PATH_MOVES,
    PROGRESS_EVERY,
    SLICE_NODES,
    Service,
    difficulty,
)
from tests.support.solving import ENOUGH_NODES
from tests.support.values import json_values

UNSOLVABLE_DEAL = 11982
MAX_STEPS = 100_000  # slices: far more than any search here needs (11982 takes about 400)

Message = dict[str, Any]


def solve_text(rid: object, board: object, budget_ms: object = 3000, rules: object = None,
               **extra: object) -> str:
    msg: dict[str, object] = {"type": "solve", "id": rid, "board": board, "budget_ms": budget_ms,
                              "rules": FREECELL.to_json() if rules is None else rules}
    msg.update(extra)
    return json.dumps(msg)


def deal_board(n: int) -> str:
    return Position.deal(n).to_text()


def check_messages(msgs: list[Message]) -> None:
    """Each message is a JSON object with a known type, as the worker posts it."""
    assert isinstance(msgs, list)
    for m in msgs:
        assert json.loads(json.dumps(m)) == m, m
        assert m["type"] in {"ready", "progress", "result", "cancelled", "pong", "error"}, m
        if m["type"] == "error":
            assert isinstance(m["message"], str) and 0 < len(m["message"]) <= 200, m


def receive(service: Service, text: Any) -> list[Message]:
    out = service.receive(text)
    check_messages(out)
    return out


def drive(service: Service, max_steps: int = MAX_STEPS) -> tuple[list[Message], Message]:
    """Step the service as the worker does until a result; (the progress messages, the result)."""
    progress: list[Message] = []
    for _ in range(max_steps):
        assert service.busy, "the service stopped without a result"
        out = service.step()
        check_messages(out)
        for m in out:
            if m["type"] == "result":
                assert m is out[-1]
                assert not service.busy and service.step() == []
                return progress, m
            assert m["type"] == "progress", m
            progress.append(m)
    raise AssertionError(f"no result after {max_steps} slices")


def check_result_shape(m: Message, rid: int) -> None:
    assert m["type"] == "result" and m["id"] == rid
    assert m["verdict"] in ("solved", "unsolvable", "unknown")
    assert isinstance(m["nodes"], int) and m["nodes"] >= 0
    assert isinstance(m["ms"], int) and m["ms"] >= 0
    assert isinstance(m["moves"], list)
    assert m["hint"] is None or set(m["hint"]) == {"from", "to", "count"}
    if m["verdict"] == "solved":
        assert m["difficulty"] == difficulty(m["nodes"])
    else:
        assert m["moves"] == [] and m["difficulty"] is None


def replay_moves(pos: Position, moves: list[Any]) -> Position:
    for i, data in enumerate(moves):
        move = Move.from_json(data)
        refusal = check_move(pos, move, FREECELL)
        assert refusal is None, f"move {i + 1} ({move.text()}) is illegal: {refusal}"
        pos = apply_move(pos, move)
    return pos


def is_error(msgs: list[Message], rid: object = None) -> bool:
    return len(msgs) == 1 and msgs[0]["type"] == "error" and msgs[0]["id"] == rid


# --- ping, solve, result --------------------------------------------------------------


def test_ping_pong() -> None:
    s = Service()
    assert receive(s, json.dumps({"type": "ping", "id": 8})) == [{"type": "pong", "id": 8}]
    assert receive(s, json.dumps({"type": "ping", "id": 0})) == [{"type": "pong", "id": 0}]
    assert not s.busy and s.step() == []


def test_idle_service_does_nothing() -> None:
    s = Service()
    assert not s.busy
    assert s.step() == []


def test_solve_deal_1_to_a_solution_that_replays() -> None:
    s = Service()
    start = Position.deal(1)
    assert receive(s, solve_text(7, start.to_text())) == []  # nothing to say until it is done
    assert s.busy
    _, result = drive(s)
    check_result_shape(result, 7)
    assert result["verdict"] == "solved"
    assert result["moves"], "a fresh deal needs moves"
    assert replay_moves(start, result["moves"]).is_won()
    assert result["hint"] == result["moves"][0]
    assert result["difficulty"] in ("easy", "medium", "hard")
    # the service is free again: a ping is answered, a cancel of the finished id says nothing
    assert receive(s, json.dumps({"type": "ping", "id": 9})) == [{"type": "pong", "id": 9}]
    assert receive(s, json.dumps({"type": "cancel", "id": 7})) == []


def test_solve_runs_in_slices() -> None:
    """One step is one slice of SLICE_NODES nodes: a hard search takes many steps, with progress."""
    s = Service()
    receive(s, solve_text(3, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS))
    nodes = []
    for i in range(1, 2 * PROGRESS_EVERY + 1):
        out = s.step()
        check_messages(out)
        if i % PROGRESS_EVERY:
            assert out == [], f"slice {i} said {out}"
        else:
            assert len(out) == 1 and out[0]["type"] == "progress" and out[0]["id"] == 3, out
            nodes.append(out[0]["nodes"])
    assert nodes == [PROGRESS_EVERY * SLICE_NODES, 2 * PROGRESS_EVERY * SLICE_NODES]
    assert s.busy


def test_solve_of_a_won_position() -> None:
    won = Position(tuple(() for _ in range(8)), (None,) * 4, (13, 13, 13, 13))
    s = Service()
    receive(s, solve_text(1, won.to_text()))
    _, result = drive(s)
    check_result_shape(result, 1)
    assert result["verdict"] == "solved" and result["moves"] == [] and result["hint"] is None


def test_default_budget_and_rules() -> None:
    """budget_ms and rules may be left out (3 s, classic rules)."""
    s = Service()
    assert receive(s, json.dumps({"type": "solve", "id": 4, "board": deal_board(1)})) == []
    _, result = drive(s)
    check_result_shape(result, 4)
    assert result["verdict"] == "solved"


def test_other_rules_are_used() -> None:
    """A board with three free cells is read and solved under those rules."""
    rules = Rules(free_cells=3)
    start = Position.deal(1, rules)
    s = Service()
    assert receive(s, solve_text(2, start.to_text(), rules=rules.to_json())) == []
    _, result = drive(s)
    check_result_shape(result, 2)
    assert result["verdict"] == "solved"
    pos = start
    for data in result["moves"]:
        move = Move.from_json(data)
        assert check_move(pos, move, rules) is None, move.text()
        pos = apply_move(pos, move)
    assert pos.is_won()


# --- only the newest request ----------------------------------------------------------------


def test_new_solve_cancels_the_previous_one() -> None:
    s = Service()
    assert receive(s, solve_text(1, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS)) == []
    s.step()
    assert receive(s, solve_text(2, deal_board(1))) == [{"type": "cancelled", "id": 1}]
    _, result = drive(s)
    check_result_shape(result, 2)
    assert result["verdict"] == "solved"
    assert replay_moves(Position.deal(1), result["moves"]).is_won()


def test_cancel_stops_the_search() -> None:
    s = Service()
    receive(s, solve_text(5, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS))
    s.step()
    assert receive(s, json.dumps({"type": "cancel", "id": 5})) == [{"type": "cancelled", "id": 5}]
    assert not s.busy
    assert s.step() == []
    assert receive(s, json.dumps({"type": "cancel", "id": 5})) == []  # once only


def test_cancel_before_any_slice() -> None:
    s = Service()
    receive(s, solve_text(6, deal_board(1)))
    assert receive(s, json.dumps({"type": "cancel", "id": 6})) == [{"type": "cancelled", "id": 6}]
    assert s.step() == []


def test_stale_ids_are_ignored() -> None:
    s = Service()
    # a cancel when nothing runs
    assert receive(s, json.dumps({"type": "cancel", "id": 1})) == []
    receive(s, solve_text(1, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS))
    assert receive(s, solve_text(2, deal_board(1))) == [{"type": "cancelled", "id": 1}]
    # a cancel of the replaced request, and of an id never seen, change nothing
    assert receive(s, json.dumps({"type": "cancel", "id": 1})) == []
    assert receive(s, json.dumps({"type": "cancel", "id": 99})) == []
    assert s.busy
    progress, result = drive(s)
    assert all(m["id"] == 2 for m in progress)
    check_result_shape(result, 2)  # the result is about the newest request only
    assert result["verdict"] == "solved"


def test_a_bad_solve_still_cancels_the_one_before() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(1)))
    out = receive(s, solve_text(2, "nonsense"))
    assert [m["type"] for m in out] == ["cancelled", "error"]
    assert out[0]["id"] == 1 and out[1]["id"] == 2
    assert not s.busy and s.step() == []


# --- bad messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{",
        "[1, 2]",
        "42",
        "null",
        '"solve"',
        "[" * 5000 + "]" * 5000,  # deeper than the JSON reader goes
        '{"type": "solve", "board": "x"}',  # no id
        '{"type": "ping"}',
        '{"type": "cancel", "id": null}',
        '{"type": "ping", "id": true}',  # a bool is not an id
        '{"type": "solve", "id": false, "board": "x"}',
        '{"type": "ping", "id": -1}',
        '{"type": "ping", "id": 9007199254740992}',  # 2**53
        '{"type": "ping", "id": 1.5}',
        '{"type": "ping", "id": "7"}',
        '{"type": "ping", "id": NaN}',
        '{"type": "ping", "id": [1]}',
    ],
    ids=lambda t: repr(t[:40]),
)
def test_bad_messages_give_an_error_without_an_id(text: str) -> None:
    s = Service()
    out = receive(s, text)
    assert is_error(out), out
    assert not s.busy


@pytest.mark.parametrize("value", [None, b'{"type": "ping", "id": 1}', 42, {"type": "ping", "id": 1}])
def test_non_text_gives_an_error(value: Any) -> None:
    out = receive(Service(), value)
    assert is_error(out), out


def test_huge_text_gives_an_error() -> None:
    s = Service()
    text = json.dumps({"type": "ping", "id": 1, "pad": "x" * MAX_MESSAGE})
    assert len(text) > MAX_MESSAGE
    assert is_error(receive(s, text))
    # the longest accepted message is still read
    pad = MAX_MESSAGE - len(json.dumps({"type": "ping", "id": 1, "pad": ""}))
    assert receive(s, json.dumps({"type": "ping", "id": 1, "pad": "x" * pad})) == [{"type": "pong", "id": 1}]


@pytest.mark.parametrize("kind", ["frobnicate", "result", "ready", "", None, 3])
def test_unknown_type_gives_an_error_with_the_id(kind: object) -> None:
    s = Service()
    out = receive(s, json.dumps({"type": kind, "id": 3}))
    assert is_error(out, 3), out
    assert repr(kind) in out[0]["message"]


def test_unknown_type_without_id() -> None:
    out = receive(Service(), json.dumps({"type": "frobnicate"}))
    assert is_error(out, None), out


@pytest.mark.parametrize(
    "board",
    [
        "nonsense",
        "",
        42,
        None,
        ["AS"],
        Position.deal(5).to_text().replace("AS", "AH"),  # a card twice, one missing
        "\n".join(Position.deal(5).to_text().splitlines()[:-1]),  # seven columns
        "x" * 15_000,
    ],
    ids=["nonsense", "empty", "number", "null", "list", "duplicate", "seven-columns", "long"],
)
def test_bad_board_gives_an_error(board: object) -> None:
    s = Service()
    out = receive(s, solve_text(4, board))
    assert is_error(out, 4), out
    assert not s.busy


def test_missing_board_gives_an_error() -> None:
    s = Service()
    out = receive(s, json.dumps({"type": "solve", "id": 4}))
    assert is_error(out, 4), out


@pytest.mark.parametrize("budget", [0, -5, MAX_BUDGET_MS + 1, 10**30, "3000", True, 1.5, None, [3000]])
def test_bad_budget_gives_an_error(budget: object) -> None:
    s = Service()
    out = receive(s, solve_text(4, deal_board(1), budget_ms=budget))
    assert is_error(out, 4), out
    assert not s.busy


@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        [],
        None,
        {"free_cells": 9},
        {"free_cells": True},
        {"free_cells": "4"},
        {"columns": 0},
        {"build": "sideways"},
        {"empty_column": "queens"},
        {"foundation_return": "yes"},
        {"bogus": 1},
        {"columns": 7},  # a legal rule, but the board has eight columns
    ],
    ids=repr,
)
def test_bad_rules_give_an_error(rules: object) -> None:
    s = Service()
    text = json.dumps({"type": "solve", "id": 4, "board": deal_board(1), "rules": rules})
    out = receive(s, text)
    assert is_error(out, 4), out
    assert not s.busy


# Any text at all, and any object made of the protocol's keys with odd values:
# the service answers with a list of well-formed messages and never raises.
_values = json_values(key=8, entries=4, leaves=12, nan=False)
_messages = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["solve", "cancel", "ping", "result", "x"]) | _values,
        "id": st.integers(-3, 2**54) | _values,
        "board": st.sampled_from([deal_board(1), "nonsense", ""]) | _values,
        "rules": st.just(FREECELL.to_json()) | _values,
        "budget_ms": st.integers(-10, 70_000) | _values,
        "keep": st.integers(-3, 10) | _values,
        "path": st.just({"board": deal_board(1), "moves": []}) | _values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200), _messages.map(json.dumps)))
def test_any_message_is_answered_without_raising(text: str) -> None:
    s = Service()
    receive(s, text)
    for _ in range(3):  # a few slices of whatever it accepted
        check_messages(s.step())
    receive(s, json.dumps({"type": "ping", "id": 1}))


# --- budgets, verdicts, hints -------------------------------------------------------------------


@pytest.mark.parametrize("deal", [UNSOLVABLE_DEAL, 617])
def test_budget_exhaustion_gives_unknown_and_a_legal_hint(deal: int) -> None:
    s = Service()
    start = Position.deal(deal)
    receive(s, solve_text(9, start.to_text(), budget_ms=1))
    _, result = drive(s)
    check_result_shape(result, 9)
    assert result["verdict"] == "unknown"
    assert result["moves"] == [] and result["difficulty"] is None
    assert 0 < result["nodes"] <= 2 * SLICE_NODES  # it stopped after a slice or so
    # after a slice the search has a best state, so there is a move to suggest
    assert result["hint"] is not None
    move = Move.from_json(result["hint"])
    assert check_move(start, move, FREECELL) is None, move.text()


# --- a paused search is resumed -----------------------------------------------------------------


def test_same_position_after_unknown_resumes_the_search() -> None:
    s = Service()
    board = deal_board(UNSOLVABLE_DEAL)
    receive(s, solve_text(1, board, budget_ms=1))
    _, first = drive(s)
    assert first["verdict"] == "unknown"
    receive(s, solve_text(2, board, budget_ms=1))
    _, second = drive(s)
    assert second["verdict"] == "unknown" and second["id"] == 2
    # the counts go on from where the first search stopped: it was resumed, not restarted
    assert second["nodes"] > first["nodes"]
    assert second["ms"] >= first["ms"]


def test_resumed_search_reaches_the_same_verdict_as_one_run() -> None:
    one = Service()
    receive(one, solve_text(1, deal_board(617), budget_ms=MAX_BUDGET_MS))
    _, whole = drive(one)
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=1))
    _, part = drive(s)
    assert part["verdict"] == "unknown"
    rid = 2
    while True:
        receive(s, solve_text(rid, deal_board(617), budget_ms=1))
        _, result = drive(s)
        if result["verdict"] != "unknown":
            break
        rid += 1
    assert result["verdict"] == whole["verdict"] == "solved"
    assert result["nodes"] == whole["nodes"]  # the search is deterministic and was never restarted
    replay_moves(Position.deal(617), result["moves"])


def test_cancelled_search_is_resumed_by_the_same_position() -> None:
    s = Service()
    board = deal_board(617)
    receive(s, solve_text(1, board))
    for _ in range(3):
        check_messages(s.step())
    nodes = s.job.solver.nodes if s.job else 0
    assert nodes == 3 * SLICE_NODES
    assert receive(s, json.dumps({"type": "cancel", "id": 1})) == [{"type": "cancelled", "id": 1}]
    receive(s, solve_text(2, board, budget_ms=1))
    _, result = drive(s)
    assert result["nodes"] > nodes  # went on from the cancelled search's nodes


def test_another_position_drops_the_paused_search() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=1))
    drive(s)
    assert s.paused is not None
    receive(s, solve_text(2, deal_board(1)))
    assert s.paused is None  # one search held at a time
    _, result = drive(s)
    assert result["verdict"] == "solved"
    receive(s, solve_text(3, deal_board(617), budget_ms=1))
    _, again = drive(s)
    assert again["nodes"] <= 2 * SLICE_NODES  # started afresh


def test_other_rules_do_not_resume() -> None:
    s = Service()
    board = deal_board(617)
    receive(s, solve_text(1, board, budget_ms=1))
    drive(s)
    three = Rules(free_cells=3).to_json()
    receive(s, solve_text(2, board, budget_ms=1, rules=three))
    _, result = drive(s)
    assert result["nodes"] <= 2 * SLICE_NODES


# --- difficulty ----------------------------------------------------------------------------------


def test_difficulty_label() -> None:
    assert difficulty(0) == "easy"
    assert difficulty(399) == "easy"
    assert difficulty(400) == "medium"
    assert difficulty(3999) == "medium"
    assert difficulty(4000) == "hard"
    assert difficulty(10**9) == "hard"


@pytest.mark.parametrize("deal", [1, 617])
def test_difficulty_of_a_solved_deal(deal: int) -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(deal)))
    _, result = drive(s)
    assert result["verdict"] == "solved"
    assert result["difficulty"] == difficulty(result["nodes"])
    # the label grows with the effort: deal 617 is harder than deal 1
    if deal == 1:
        assert result["difficulty"] == "easy"
    else:
        assert result["difficulty"] in ("medium", "hard")


# --- keep: a search goes on in the background ------------------------------------------------


def step_all(s: Service, max_steps: int = MAX_STEPS) -> dict[int, Message]:
    """Step until nothing runs: the result of each id."""
    results: dict[int, Message] = {}
    for _ in range(max_steps):
        if not s.busy:
            return results
        for m in s.step():
            check_messages([m])
            if m["type"] == "result":
                assert m["id"] not in results
                results[m["id"]] = m
    raise AssertionError("still busy")


def test_keep_goes_on_in_the_background_and_answers_with_its_own_id() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=MAX_BUDGET_MS))
    for _ in range(2):
        assert s.step() == []
    assert receive(s, solve_text(2, deal_board(1), keep=1)) == []  # no "cancelled" for 1
    assert s.job is not None and s.job.id == 2
    assert s.background is not None and s.background.id == 1
    results = step_all(s)
    assert set(results) == {1, 2}
    for rid, n in ((1, 617), (2, 1)):
        check_result_shape(results[rid], rid)
        assert results[rid]["verdict"] == "solved"
        assert replay_moves(Position.deal(n), results[rid]["moves"]).is_won()


def test_a_solve_without_keep_drops_the_background_search() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=MAX_BUDGET_MS))
    s.step()
    receive(s, solve_text(2, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS, keep=1))
    s.step()
    out = receive(s, solve_text(3, deal_board(1)))
    assert sorted(m["id"] for m in out) == [1, 2] and {m["type"] for m in out} == {"cancelled"}
    assert s.background is None
    assert set(step_all(s)) == {3}


def test_keep_of_a_paused_search_and_of_an_unknown_id() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=1))
    _, first = drive(s)
    assert first["verdict"] == "unknown" and s.paused is not None
    receive(s, solve_text(2, deal_board(1), keep=1))  # the paused search goes on beside
    assert s.background is not None and s.background.id == 1
    assert s.paused is None
    results = step_all(s)
    assert results[2]["verdict"] == "solved"
    assert results[1]["verdict"] == "unknown"  # its own budget (1 ms) was spent: one slice more
    receive(s, solve_text(3, deal_board(2), keep=99))  # nothing held by that id: nothing kept
    assert s.background is None and s.paused is None
    assert set(step_all(s)) == {3}


def test_keep_of_the_same_position_resumes_it_in_the_foreground() -> None:
    s = Service()
    board = deal_board(617)
    receive(s, solve_text(1, board, budget_ms=MAX_BUDGET_MS))
    s.step()
    solver = s.job.solver if s.job else None
    receive(s, solve_text(2, board, keep=1))
    assert s.job is not None and s.job.solver is solver and s.background is None


def test_background_slices_and_the_shared_memory_cap() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS))
    s.step()
    receive(s, solve_text(2, deal_board(21554), budget_ms=MAX_BUDGET_MS, keep=1))
    fg, bg = s.job, s.background
    assert fg is not None and bg is not None
    rounds = 5
    for _ in range(rounds * (BACKGROUND_SLICES + 1)):
        check_messages(s.step())
        assert fg.solver.max_states + bg.solver.size == MAX_STATES or (
            bg.solver.max_states + fg.solver.size == MAX_STATES)
    assert fg.slices == rounds
    assert bg.slices == 1 + rounds * BACKGROUND_SLICES


def test_cancel_of_the_background_or_the_foreground() -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=MAX_BUDGET_MS))
    s.step()
    receive(s, solve_text(2, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS, keep=1))
    # cancelling the foreground leaves the background running
    assert receive(s, json.dumps({"type": "cancel", "id": 2})) == [{"type": "cancelled", "id": 2}]
    assert s.busy and s.job is None and s.background is not None
    s.step()
    # cancelling the background stops it: it is then the paused search, resumed by its board
    assert receive(s, json.dumps({"type": "cancel", "id": 1})) == [{"type": "cancelled", "id": 1}]
    assert not s.busy and s.paused is not None and s.paused.id == 1
    assert receive(s, json.dumps({"type": "cancel", "id": 1})) == []
    nodes = s.paused.solver.nodes
    receive(s, solve_text(3, deal_board(617)))
    _, result = drive(s)
    assert result["verdict"] == "solved" and result["nodes"] > nodes


# A lost deal whose proof is quick (6,269 nodes, a third of a second): deal 21 with two free
# cells.  The proof of 11982 itself (61,803 nodes) runs once in the suite (tests/support/searches.py).
LOST_RULES = Rules(free_cells=2)
LOST_START = Position.deal(21, LOST_RULES)
LOST_NODES = 6_269


def test_a_lost_start_is_proven_in_the_background_while_a_foreground_search_runs() -> None:
    """The search of a lost deal's start goes on beside the search of the position after a
    move; it ends ``unsolvable`` (no hint) with the start's id, in the node count of a search
    alone, while the foreground had one slice in BACKGROUND_SLICES + 1 and answered."""
    start = LOST_START
    rules = LOST_RULES.to_json()
    s = Service()
    receive(s, solve_text(11, start.to_text(), budget_ms=MAX_BUDGET_MS, rules=rules))
    for _ in range(20):
        check_messages(s.step())
    # in front, a search that lasts longer than the proof behind: 11982's start, classic rules
    receive(s, solve_text(12, deal_board(UNSOLVABLE_DEAL), budget_ms=MAX_BUDGET_MS, keep=11))
    progress: list[Message] = []
    result = None
    fg_slices = 0
    steps = 0
    while steps < MAX_STEPS:
        steps += 1
        fg_before = s.job.slices if s.job else None
        out = s.step()
        check_messages(out)
        if s.job is not None and fg_before is not None and s.job.slices > fg_before:
            fg_slices += 1
        progress += [m for m in out if m["type"] == "progress" and m["id"] == 11]
        done = [m for m in out if m["type"] == "result" and m["id"] == 11]
        if done:
            result = done[0]
            break
    assert result is not None
    check_result_shape(result, 11)
    assert result["verdict"] == "unsolvable", result
    assert result["hint"] is None and result["moves"] == [] and result["difficulty"] is None
    assert 1000 < result["nodes"] <= LOST_NODES + SLICE_NODES  # the search alone takes 6,269
    background = -(-result["nodes"] // SLICE_NODES) - 20
    assert abs(steps - background * (BACKGROUND_SLICES + 1) / BACKGROUND_SLICES) <= BACKGROUND_SLICES + 1
    assert fg_slices >= steps // (BACKGROUND_SLICES + 1) - 1
    counts = [m["nodes"] for m in progress]
    assert counts and counts == sorted(counts) and counts[-1] <= result["nodes"]
    assert s.job is not None and s.job.id == 12  # the foreground search goes on alone


# --- path: a known solution -----------------------------------------------------------------------


def known_path(n: int) -> tuple[Position, list[Message]]:
    start = Position.deal(n)
    return start, [m.to_json() for m in Solver(start).solve(max_nodes=ENOUGH_NODES).moves]


def test_a_path_answers_a_position_off_it_in_a_few_nodes() -> None:
    start, moves = known_path(617)
    pos = replay_moves(start, moves[:30])
    line = {position_key(replay_moves(start, moves[:k])) for k in range(len(moves) + 1)}
    offs = [apply_move(pos, m) for m in legal_moves(pos, FREECELL)]
    offs = [p for p in offs if position_key(p) not in line]
    path = {"board": start.to_text(), "moves": moves}
    fast = 0
    for rid, off in enumerate(offs[:6]):
        s = Service()
        receive(s, solve_text(rid, off.to_text(), path=path))
        _, result = drive(s)
        if result["verdict"] == "solved":
            assert replay_moves(off, result["moves"]).is_won()
            fast += result["nodes"] <= 40
    assert fast >= 2
    assert len(json.dumps(path)) < MAX_MESSAGE


def test_the_longest_path_fits_in_a_message() -> None:
    move = {"from": "1", "to": "h", "count": 1}
    text = solve_text(1, deal_board(1), path={"board": deal_board(1), "moves": [move] * MAX_PATH_MOVES},
                      keep=2**53 - 1)
    assert len(text) < MAX_MESSAGE



@pytest.mark.parametrize(
    "extra",
    [
        {"keep": "1"},
        {"keep": True},
        {"keep": -1},
        {"keep": 1.5},
        {"keep": 2**53},
        {"keep": [1]},
        {"keep": {"id": 1}},
        {"keep": 4},  # the request's own id
        {"path": "moves"},
        {"path": []},
        {"path": {}},
        {"path": {"board": deal_board(1)}},
        {"path": {"moves": []}},
        {"path": {"board": deal_board(1), "moves": [], "extra": 1}},
        {"path": {"board": 1, "moves": []}},
        {"path": {"board": "nonsense", "moves": []}},
        {"path": {"board": deal_board(1), "moves": {}}},
        {"path": {"board": deal_board(1), "moves": []}},  # not a solution: nothing is home
        {"path": {"board": deal_board(1), "moves": [{"from": "a", "to": "1", "count": 1}]}},  # illegal
        {"path": {"board": deal_board(1), "moves": ["1h"]}},
        {"path": {"board": deal_board(1), "moves": [{"from": "z", "to": "h"}]}},
        {"path": {"board": deal_board(1), "moves": [{"from": "1", "to": "h", "count": 0}]}},
        {"path": {"board": deal_board(1), "moves": [{"from": "1", "to": "h"}] * (MAX_PATH_MOVES + 1)}},
        {"path": {"board": deal_board(1), "moves": [[[[]]]]}},
        {"frobnicate": 1},  # not a field of solve
    ],
    ids=lambda e: repr(e)[:60],
)
def test_bad_keep_and_path_give_an_error(extra: dict[str, object]) -> None:
    s = Service()
    receive(s, solve_text(1, deal_board(617), budget_ms=MAX_BUDGET_MS))
    out = receive(s, solve_text(4, deal_board(1), **extra))
    assert [m["type"] for m in out] == ["cancelled", "error"] and out[1]["id"] == 4, out
    assert not s.busy and s.background is None


def test_null_keep_and_path_are_left_out() -> None:
    s = Service()
    assert receive(s, solve_text(4, deal_board(1), keep=None, path=None)) == []
    _, result = drive(s)
    assert result["verdict"] == "solved"


def test_shortening_waits_for_quiet_then_takes_a_burst_then_a_share_of_one_core() -> None:
    from freecell.worker import (
        IMPROVE_BURST_S,
        IMPROVE_BURST_SHARE,
        IMPROVE_DELAY_MS,
        IMPROVE_SHARE,
        IMPROVE_SLICE_S,
    )

    def share() -> float:
        rest = service.idle_rest_ms / 1000
        assert 0 < rest < IMPROVE_DELAY_MS / 1000
        return IMPROVE_SLICE_S / (IMPROVE_SLICE_S + rest)

    service = Service(improve_nodes=50)
    service.receive(json.dumps({"type": "solve", "id": 1, "board": Position.deal(1).to_text(),
                                "rules": FREECELL.to_json(), "budget_ms": 60_000}))
    while service.busy:
        service.step()
    assert service.improving and service.idle_rest_ms == IMPROVE_DELAY_MS  # before the first slice
    service.step_idle()
    assert share() == pytest.approx(IMPROVE_BURST_SHARE, rel=0.05)  # the burst: most turns come here
    assert service.improver is not None
    runs = service.improver[2].runs  # each width along the best before the next (the page's seconds are few)
    assert [(r.width, r.cut > 0) for r in runs[:4]] == [(40, False)] * 3 + [(150, False)]
    assert (runs[6].width, runs[6].cut) == (150, 5)
    while service.improving and service.improver[2].seconds < IMPROVE_BURST_S:
        service.step_idle()
    assert service.improving  # deal 1 is still being shortened after the burst
    assert share() == pytest.approx(IMPROVE_SHARE, rel=0.05)
    assert IMPROVE_SHARE < IMPROVE_BURST_SHARE
