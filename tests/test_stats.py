"""Statistics: what counts as played, won, abandoned; streaks; bests; the JSON form; several tabs.

The loader is fed arbitrary JSON (Hypothesis) and hostile records: it returns
statistics or raises :class:`StatsLoadError`, nothing else.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.rules import Build, Rules
from freecell.ui.progress import stats as stats_module
from freecell.ui.progress.stats import (
    MAX_DEALS,
    MAX_OPEN,
    STATS_FORMAT,
    STATS_VERSION,
    Abandoned,
    DealRecord,
    Reset,
    Started,
    Statistics,
    StatsEvent,
    StatsLoadError,
    Tally,
    Won,
    apply,
    deal_key,
    read_tally,
    rules_id,
)

K1, K2 = deal_key(1), deal_key(617)


def test_keys() -> None:
    assert K1 == "freecell:1"
    assert deal_key(617, Rules(free_cells=2)) == "c2x8.alternate.any:617"
    assert rules_id(Rules(build=Build.SUIT, foundation_return=True)) == "c4x8.suit.any.return"


def test_nothing_counts_before_the_first_move() -> None:
    s = Statistics()
    assert (s.played, s.won, s.win_rate()) == (0, 0, None)
    assert not s.record_abandon()  # nothing was open
    assert s.streak == 0 and s.played == 0


def test_win_counts_once() -> None:
    s = Statistics()
    s.record_start(K1)
    assert (s.played, s.open) == (1, K1)
    assert s.record_win(K1, 95.7, 84, 520)
    assert (s.played, s.won, s.streak, s.longest, s.best_score, s.open) == (1, 1, 1, 1, 520, None)
    assert s.best(K1) == DealRecord(95, 84)
    assert s.win_rate() == 100
    assert not s.record_win(K1, 10, 10, 999)  # undo and redo: the same win again
    assert (s.won, s.best_score, s.best(K1)) == (1, 520, DealRecord(95, 84))


def test_a_win_of_a_game_not_open_does_not_count() -> None:
    s = Statistics()
    s.record_start(K1)
    assert not s.record_win(K2, 10, 10, 10)
    assert s.won == 0 and s.open == K1


def test_abandon_breaks_the_streak_and_stays_a_loss() -> None:
    s = Statistics()
    for key in (K1, K2):
        s.record_start(key)
        s.record_win(key, 100, 90, 500)
    assert (s.streak, s.longest) == (2, 2)
    s.record_start(K1)
    assert s.record_abandon()
    assert (s.played, s.won, s.streak, s.longest, s.open) == (3, 2, 0, 2, None)
    assert s.win_rate() == 67
    s.record_start(K2)
    s.record_win(K2, 50, 120, 300)
    assert (s.streak, s.longest) == (1, 2)
    assert s.best(K2) == DealRecord(50, 90)  # the best time and the fewest moves, each on its own
    assert s.best_score == 500


def test_a_new_start_abandons_the_open_game() -> None:
    s = Statistics()
    s.record_start(K1)
    s.record_win(K1, 1, 1, 1)
    s.record_start(K1)
    s.record_start(K2)  # the first one was left unfinished
    assert (s.played, s.streak, s.open) == (3, 0, K2)


def test_strange_numbers_are_clamped() -> None:
    s = Statistics()
    s.record_start(K1)
    s.record_win(K1, float("nan"), -5, -3)
    assert s.best(K1) == DealRecord(stats_module.MAX_SECONDS, 1)
    assert s.best_score == 0
    assert Statistics.from_json(s.to_json()) == s
    with pytest.raises(ValueError):
        s.record_start("<img src=x>:1")


def test_old_deal_records_go_first() -> None:
    s = Statistics()
    for n in range(1, MAX_DEALS + 3):
        s.record_start(deal_key(n))
        s.record_win(deal_key(n), n, n, n)
    assert len(s.deals) == MAX_DEALS
    assert deal_key(1) not in s.deals and deal_key(MAX_DEALS + 2) in s.deals


def test_json_round_trip() -> None:
    s = Statistics()
    s.record_start(K1)
    s.record_win(K1, 61.2, 77, 480)
    s.record_start(K2)
    back = Statistics.from_json(s.to_json())
    assert back == s
    data = json.loads(s.to_json())
    assert data["format"] == STATS_FORMAT and data["version"] == STATS_VERSION
    assert data["deals"] == {K1: [61, 77]} and data["open"] == K2


def _valid() -> dict[str, object]:
    s = Statistics()
    s.record_start(K1)
    s.record_win(K1, 61, 77, 480)
    data: dict[str, object] = json.loads(s.to_json())
    return data


@pytest.mark.parametrize(
    "change",
    [
        {"version": 2},
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
def test_bad_fields_raise_the_documented_error(change: dict[str, object]) -> None:
    data = _valid()
    data.update(change)
    with pytest.raises(StatsLoadError):
        Statistics.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "text",
    ["", "null", "[]", "{}", "not json", '"freecell-stats"', "{" * 100_000, "x" * 300_000,
     json.dumps({**_valid(), "deals": {f"freecell:{n}": [1, 1] for n in range(1, MAX_DEALS + 2)}})],
    ids=["empty", "null", "list", "object", "text", "string", "deep", "huge", "too-many-deals"],
)
def test_garbage_raises_the_documented_error(text: str) -> None:
    with pytest.raises(StatsLoadError):
        Statistics.from_json(text)


def test_not_text_raises_the_documented_error() -> None:
    for value in (None, 5, b"{}", ["x"]):
        with pytest.raises(StatsLoadError):
            Statistics.from_json(value)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_json_never_raises_anything_else(value: object) -> None:
    with contextlib.suppress(StatsLoadError):
        Statistics.from_json(json.dumps(value))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["format", "version", "played", "won", "streak", "longest", "best_score", "open",
                     "deals"]),
    JSON, max_size=9,
).map(lambda d: {"format": STATS_FORMAT, "version": STATS_VERSION, **d}))
def test_near_valid_records_never_raise_anything_else(value: dict[str, object]) -> None:
    try:
        s = Statistics.from_json(json.dumps(value))
    except StatsLoadError:
        return
    assert 0 <= s.won <= s.played and 0 <= s.streak <= s.longest <= s.won
    assert Statistics.from_json(s.to_json()) == s


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
    old = Statistics()
    old.record_start(K1)
    old.record_win(K1, 40, 90, 300)
    old.record_start(K2)
    stored = Shared(old.to_json())
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
