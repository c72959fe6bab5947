"""Statistics (freecell.ui.progress.stats): what counts as played, won, abandoned; bests; several tabs.

The reader is fed arbitrary JSON (Hypothesis) and hostile records, of today's
version and of older pages' (version 1): it returns statistics or says they
were damaged (then fresh), never raises.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.rules import Build, Rules
from freecell.ui.progress import stats as stats_module
from freecell.ui.progress.stats import (
    LEGACY_VERSION,
    MAX_DEALS,
    MAX_OPEN,
    STATS_FORMAT,
    TALLY_VERSION,
    Abandoned,
    DealRecord,
    Reset,
    Started,
    StatsEvent,
    Tally,
    Won,
    apply,
    deal_key,
    merge,
    read_tally,
    rules_id,
)

K1, K2 = deal_key(1), deal_key(617)


def test_keys() -> None:
    assert K1 == "freecell:1"
    assert deal_key(617, Rules(free_cells=2)) == "c2x8.alternate.any:617"
    assert rules_id(Rules(build=Build.SUIT, foundation_return=True)) == "c4x8.suit.any.return"


def test_strange_numbers_are_clamped() -> None:
    tally, _ = merge(Tally(), Started("a", K1))
    tally, counted = merge(tally, Won("a", K1, float("nan"), -5, -3))
    assert counted and tally.best(K1) == DealRecord(stats_module.MAX_SECONDS, 1) and tally.best_score == 0
    assert merge(tally, Started("b", "<img src=x>:1")) == (tally, False)


def test_old_deal_records_go_first() -> None:
    tally = Tally()
    for n in range(1, MAX_DEALS + 3):
        tally, _ = merge(tally, Started(f"g{n}", deal_key(n)))
        tally, _ = merge(tally, Won(f"g{n}", deal_key(n), n, n, n))
    deals = dict(tally.deals)
    assert len(deals) == MAX_DEALS
    assert deal_key(1) not in deals and deal_key(MAX_DEALS + 2) in deals


def test_the_stored_form() -> None:
    tally, _ = merge(Tally(), Started("a", K1))
    tally, _ = merge(tally, Won("a", K1, 61.2, 77, 480))
    tally, _ = merge(tally, Started("b", K2))
    data = json.loads(tally.to_json())
    assert data["format"] == STATS_FORMAT and data["version"] == TALLY_VERSION
    assert data["deals"] == {K1: [61, 77]} and data["open"] == [["b", K2]]
    assert read_tally(tally.to_json()) == (tally, False)


# --- the statistics of older pages (version 1, one tab's, written whole) ------------------------------


def _older() -> dict[str, object]:
    """Statistics as an older page stored them: one game won, none open."""
    return {"format": STATS_FORMAT, "version": LEGACY_VERSION, "played": 1, "won": 1, "streak": 1,
            "longest": 1, "best_score": 480, "open": None, "deals": {K1: [61, 77]}}


@pytest.mark.parametrize(
    "change",
    [
        {"version": 2},  # today's version, whose open games are a list
        {"version": 3},
        {"version": True},
        {"format": "freecell-game"},
        {"played": -1},
        {"played": 1.5},
        {"played": True},
        {"played": "1"},
        {"won": 5},  # more wins than games
        {"streak": 3},  # a streak longer than the longest
        {"open": "<script>alert(1)</script>"},
        {"open": 7},
        {"deals": {"__proto__": [1, 1]}},
        {"deals": {"freecell:1": [1]}},
        {"deals": {"freecell:1": [1, 0]}},
        {"deals": {"freecell:1": {"time": 1, "moves": 1}}},
        {"deals": []},
        {"extra": 1},
        {"constructor": {"prototype": {"polluted": True}}},
    ],
    ids=repr,
)
def test_a_bad_field_of_an_older_record_starts_fresh(change: dict[str, object]) -> None:
    data = _older()
    assert read_tally(json.dumps(data))[1] is False
    data.update(change)
    assert read_tally(json.dumps(data)) == (Tally(), True)


@pytest.mark.parametrize(
    "text",
    ["", "null", "[]", "{}", "not json", '"freecell-stats"', "{" * 100_000, "x" * 300_000,
     json.dumps({**_older(), "deals": {f"freecell:{n}": [1, 1] for n in range(1, MAX_DEALS + 2)}})],
    ids=["empty", "null", "list", "object", "text", "string", "deep", "huge", "too-many-deals"],
)
def test_garbage_starts_fresh(text: str) -> None:
    assert read_tally(text) == (Tally(), True)


def test_not_text_starts_fresh() -> None:
    assert read_tally(None) == (Tally(), False)  # nothing stored yet
    for value in (5, b"{}", ["x"]):
        assert read_tally(value) == (Tally(), True)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["format", "version", "played", "won", "streak", "longest", "best_score", "open",
                     "deals"]),
    JSON, max_size=9,
).map(lambda d: {"format": STATS_FORMAT, "version": LEGACY_VERSION, **d}))
def test_near_valid_older_records_never_raise_and_add_up(value: dict[str, object]) -> None:
    tally, damaged = read_tally(json.dumps(value))
    assert 0 <= tally.won <= tally.played and 0 <= tally.streak <= tally.longest <= tally.won
    assert damaged or read_tally(tally.to_json()) == (tally, False)


# --- several tabs: changes merged into what is stored (version 2) ----------------------------------

class Shared:
    """The stored statistics, as every tab reads and writes them: each change read, merged, written."""

    def __init__(self, text: str | None = None) -> None:
        self.text = text

    def __call__(self, change: StatsEvent) -> bool:
        out = apply(self.text, change)
        self.text = out.text
        return out.counted

    @property
    def tally(self) -> Tally:
        tally, damaged = read_tally(self.text)
        assert not damaged
        return tally


def test_two_tabs_winning_and_playing_keep_both() -> None:
    """Tab A wins 617 with a record; tab B then plays its first move: both are kept."""
    stored = Shared()
    stored(Started("a", K2))  # tab A's first move
    stored(Started("b", K1))  # tab B opened meanwhile and played: A's game is not abandoned
    assert stored(Won("a", K2, 95.5, 80, 520))
    stored(Started("c", "freecell:3"))  # B's next game
    t = stored.tally
    assert (t.played, t.won, t.streak, t.best_score) == (3, 1, 1, 520)
    assert t.best(K2) == DealRecord(95, 80)
    assert t.open_games() == ("b", "c")


def test_opening_another_tab_abandons_nothing_and_leaving_for_good_does() -> None:
    stored = Shared()
    stored(Started("a", K1))
    stored(Won("a", K1, 10, 60, 100))
    stored(Started("b", K2))
    stored(Started("c", K1))  # another tab: b is still open, the streak goes on
    assert stored.tally.streak == 1 and stored.tally.open_games() == ("b", "c")
    assert stored(Abandoned("b"))  # dropped from the unfinished games: now it is a loss
    assert stored.tally.streak == 0 and not stored(Abandoned("b"))
    assert not stored(Won("b", K2, 1, 1, 1))  # an abandoned game's win does not count


def test_every_change_is_idempotent() -> None:
    stored = Shared()
    assert stored(Started("a", K1)) and not stored(Started("a", K1))  # a restored game says it again
    assert stored(Won("a", K1, 30, 70, 200)) and not stored(Won("a", K1, 20, 60, 300))  # undo, redo
    t = stored.tally
    assert (t.played, t.won, t.best_score, t.best(K1)) == (1, 1, 200, DealRecord(30, 70))
    assert stored(Started("a", K1))  # Replay after the win: played again
    assert stored.tally.played == 2


def test_boards_and_bad_ids_count_nowhere() -> None:
    stored = Shared()
    assert not stored(Started("a", None)) and not stored(Started("<b>", K1))
    assert not stored(Started("a", "617"))
    assert stored.tally == Tally()


def test_reset_keeps_the_games_under_way_as_played() -> None:
    stored = Shared()
    stored(Started("a", K1))
    stored(Won("a", K1, 1, 1, 1))
    stored(Started("b", K2))
    stored(Reset())
    t = stored.tally
    assert (t.played, t.won, t.streak, t.longest, t.best_score, t.deals) == (1, 0, 0, 0, 0, ())
    assert stored(Won("b", K2, 5, 9, 50)) and stored.tally.won == 1


def test_the_open_games_are_bounded() -> None:
    stored = Shared()
    stored(Started("w", K1))
    stored(Won("w", K1, 1, 1, 1))
    for i in range(MAX_OPEN + 1):
        stored(Started(f"g{i}", K2))
    t = stored.tally
    assert len(t.open) == MAX_OPEN and "g0" not in t.open_games() and t.streak == 0


def test_statistics_of_an_older_page_are_read_and_its_open_game_is_the_moved_one() -> None:
    old = {**_older(), "played": 2, "best_score": 300, "open": K2, "deals": {K1: [40, 90]}}
    stored = Shared(json.dumps(old))
    t = stored.tally
    assert (t.played, t.won, t.streak, t.best(K1)) == (2, 1, 1, DealRecord(40, 90))
    assert t.open == (("v1", K2),)
    assert stored(Won("v1", K2, 50, 100, 400))
    assert json.loads(stored.text or "")["version"] == 2


def test_damaged_statistics_start_fresh_with_the_change() -> None:
    out = apply('{"format": "freecell-stats", "version": 2}', Started("a", K1))
    assert out.damaged and out.tally.played == 1
    assert read_tally(out.text) == (out.tally, False)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_stored_statistics_never_raise(value: object) -> None:
    out = apply(json.dumps(value), Started("a", K1))
    assert read_tally(out.text) == (out.tally, False)


CHANGES = st.one_of(
    st.builds(Started, st.sampled_from(["a", "b", "c", "d"]), st.sampled_from([K1, K2, None])),
    st.builds(Won, st.sampled_from(["a", "b", "c", "d"]), st.sampled_from([K1, K2]),
              st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**12),
              st.integers(-5, 10**12)),
    st.builds(Abandoned, st.sampled_from(["a", "b", "c", "d"])),
    st.just(Reset()),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(CHANGES, max_size=30))
def test_merged_statistics_always_add_up(changes: list[StatsEvent]) -> None:
    stored = Shared()
    wins = 0
    for change in changes:
        counted = stored(change)
        if isinstance(change, Reset):
            wins = 0
        elif isinstance(change, Won) and counted:
            wins += 1
        t = stored.tally
        assert 0 <= t.streak <= t.longest <= t.won <= t.played and t.won == wins
        assert len(set(t.open_games())) == len(t.open) <= MAX_OPEN
        assert read_tally(t.to_json())[0] == t
