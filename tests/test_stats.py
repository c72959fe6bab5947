"""Statistics (freecell.ui.progress.stats): what counts as played, won, abandoned; bests; several tabs.

The reader is fed arbitrary JSON (Hypothesis) and hostile records, of today's
version and of older pages' (version 1): it returns statistics or says they
were damaged (every sound field and entry kept), never raises.  A newer
page's statistics and deal-of-the-day record are read and never written
over; damaged ones are repaired at load and named in what the page says.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.game import Game
from freecell.piles import Move
from freecell.rules import Build, Rules
from freecell.ui.progress import stats as stats_module
from freecell.ui.progress.daily import (
    DAILY_VERSION,
    KEY_DAILY,
    DailyRead,
    DailyRecord,
    apply_win,
    read_daily_stored,
)
from freecell.ui.progress.damage import Lost
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.progress import Progress
from freecell.ui.progress.stats import (
    KEY_STATS,
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
    read_stats,
    read_tally,
    rules_id,
)
from tests.support.values import json_values

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


BASE = Tally(1, 1, 1, 1, 480, (), ((K1, DealRecord(61, 77)),))  # _older(), as read


@pytest.mark.parametrize(
    ("change", "kept", "damaged"),
    [
        ({"version": 2}, {}, True),  # today's version, whose open games are a list: that field goes
        ({"version": True}, {}, True),  # read as today's: the open game of version 1 goes
        ({"version": 0}, {}, True),
        ({"played": -1}, {}, True),  # one game won: at least one played
        ({"played": 1.5}, {}, True),
        ({"played": True}, {}, True),
        ({"played": "1"}, {}, True),
        ({"best_score": "lots"}, {"best_score": 0}, True),
        ({"won": 5}, {"played": 5, "won": 5}, True),  # more wins than games: as many games
        ({"streak": 3}, {"played": 3, "won": 3, "streak": 3, "longest": 3}, True),
        ({"streak": "five"}, {"streak": 0}, True),
        ({"open": "<script>alert(1)</script>"}, {}, True),
        ({"open": 7}, {}, True),
        ({"deals": {"__proto__": [1, 1]}}, {"deals": ()}, True),
        ({"deals": {"freecell:1": [1]}}, {"deals": ()}, True),
        ({"deals": {"freecell:1": [1, 0]}}, {"deals": ()}, True),
        ({"deals": {"freecell:1": {"time": 1, "moves": 1}}}, {"deals": ()}, True),
        ({"deals": {K1: [61, 77], "freecell:5": [1, "x"]}}, {}, True),  # one bad entry: only it goes
        ({"deals": []}, {"deals": ()}, True),
        ({"extra": 1}, {}, False),  # an unknown field: dropped, nothing the player sees is lost
        ({"constructor": {"prototype": {"polluted": True}}}, {}, False),
    ],
    ids=repr,
)
def test_a_bad_field_or_entry_goes_alone(change: dict[str, object], kept: dict[str, object],
                                         damaged: bool) -> None:
    data = _older()
    assert read_tally(json.dumps(data)) == (BASE, False)
    data.update(change)
    read = read_stats(json.dumps(data))
    assert (read.tally, read.damaged, read.newer) == (replace(BASE, **kept), damaged, False)  # type: ignore[arg-type]


def test_bad_entries_of_todays_lists_go_alone() -> None:
    data = {"format": STATS_FORMAT, "version": TALLY_VERSION, "played": 4, "won": 2, "streak": 1,
            "longest": 2, "best_score": 9,
            "open": [["a", K1], ["<b>", K1], ["c", "x"], 5, ["d", K2], ["a", K2]],
            "deals": {K1: [61, 77], "bad": [1, 1], K2: [-1, 5], "freecell:3": [10, 20]}}
    tally, damaged = read_tally(json.dumps(data))
    assert damaged and tally.played == 4 and tally.won == 2 and tally.best_score == 9
    assert tally.open == (("a", K1), ("d", K2))
    assert tally.deals == ((K1, DealRecord(61, 77)), ("freecell:3", DealRecord(10, 20)))
    many = {**data, "deals": {f"freecell:{n}": [1, 1] for n in range(1, MAX_DEALS + 2)}}
    tally, damaged = read_tally(json.dumps(many))
    assert damaged and len(tally.deals) == MAX_DEALS and tally.deals[-1][0] == f"freecell:{MAX_DEALS + 1}"


def test_statistics_of_a_newer_page_are_read_and_never_written() -> None:
    newer = json.dumps({**_older(), "version": TALLY_VERSION + 1, "played": 2, "open": [["a", K2]],
                        "ratings": [1, 2]})
    read = read_stats(newer)
    assert read.newer and not read.damaged
    assert read.tally == replace(BASE, played=2, open=(("a", K2),))
    out = apply(newer, Won("a", K2, 10, 50, 100))
    assert out.newer and out.counted and out.tally.won == 2  # counted here; the caller does not write it


@pytest.mark.parametrize(
    "text",
    ["", "null", "[]", "{}", "not json", '"freecell-stats"', "{" * 100_000, "x" * 300_000,
     json.dumps({**_older(), "format": "freecell-game"})],
    ids=["empty", "null", "list", "object", "text", "string", "deep", "huge", "other-format"],
)
def test_garbage_starts_fresh(text: str) -> None:
    assert read_tally(text) == (Tally(), True)


def test_not_text_starts_fresh() -> None:
    assert read_tally(None) == (Tally(), False)  # nothing stored yet
    for value in (5, b"{}", ["x"]):
        assert read_tally(value) == (Tally(), True)


JSON = json_values(text=20)


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


def test_damaged_statistics_keep_what_can_be_read_with_the_change() -> None:
    out = apply('{"format": "freecell-stats", "version": 2}', Started("a", K1))
    assert out.damaged and out.tally.played == 1
    assert read_tally(out.text) == (out.tally, False)


@settings(max_examples=150, deadline=None)
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


@settings(max_examples=150, deadline=None)
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


# --- the page's side: damaged records repaired and named, a newer page's never written over --------

DAY = date(2025, 3, 14)


def _daily(**fields: object) -> str:
    return json.dumps({"format": "freecell-daily", "version": 1, "won": ["2025-03-13", "2025-03-14"],
                       "longest": 2, **fields})


def _progress(local: MemoryStorage) -> Progress:
    return Progress(local, MemoryStorage(), wall=lambda: 1.0, today=lambda: DAY, new_id=lambda: "g1")


def _first_move(progress: Progress) -> None:
    game = Game(617, variant="freecell")
    progress.adopt(game)
    game.play(Move.parse("58"))
    progress.turn_played(game)


def test_the_deal_of_the_days_bad_entries_go_alone() -> None:
    read = read_daily_stored(_daily(won=["2025-03-13", "bad", "2025-03-14", 5, "2025-02-30", "2025-03-14"]))
    assert read.record == DailyRecord((date(2025, 3, 13), DAY), 2) and read.damaged and not read.newer
    read = read_daily_stored(_daily(longest="five"))  # the longest run is counted again from the days
    assert read.record == DailyRecord((date(2025, 3, 13), DAY), 2) and read.damaged
    read = read_daily_stored(_daily(longest=1, x=1))  # too short a run is raised; the unknown field goes
    assert read.record == DailyRecord((date(2025, 3, 13), DAY), 2) and not read.damaged
    read = read_daily_stored(_daily(version=2, badges=["gold"]))
    assert read.newer and not read.damaged and read.record.solved(DAY)
    assert apply_win(_daily(version=2), DAY + timedelta(days=1)).newer


def test_damaged_statistics_and_daily_record_keep_the_rest_and_are_named_once() -> None:
    local = MemoryStorage()
    stats = {"format": STATS_FORMAT, "version": TALLY_VERSION, "played": 7, "won": 5, "streak": "five",
             "longest": 3, "best_score": 900, "open": [], "deals": {K1: [61, 77]}}
    local.data[KEY_STATS] = json.dumps(stats)
    local.data[KEY_DAILY] = _daily(won=["2025-03-14", "bad"], longest=1)
    progress = _progress(local)
    tally = read_tally(local.data[KEY_STATS])  # written back at once, repaired
    assert tally == (Tally(7, 5, 0, 3, 900, (), ((K1, DealRecord(61, 77)),)), False)
    assert read_daily_stored(local.data[KEY_DAILY]) == DailyRead(DailyRecord((DAY,), 1))
    assert progress.restore(None, lambda: 0.0).lost == {Lost.STATS, Lost.DAILY}
    assert _progress(local).restore(None, lambda: 0.0).lost == frozenset()  # said once
    assert _progress(local).in_memory == frozenset()


def test_a_newer_pages_statistics_are_never_written_over_and_count_here_in_memory() -> None:
    local = MemoryStorage()
    stats = json.dumps({**_older(), "version": TALLY_VERSION + 1, "ratings": {"elo": 1200}})
    daily = _daily(version=DAILY_VERSION + 1)
    local.data[KEY_STATS], local.data[KEY_DAILY] = stats, daily
    progress = _progress(local)
    assert progress.in_memory == {Lost.STATS, Lost.DAILY} and not progress.restore(None, lambda: 0.0).damaged
    _first_move(progress)
    assert progress.tally.played == 2 and progress.tally.open_games() == ("g1",)  # counted here...
    assert progress.flush() and progress.reread().played == 2
    progress.reset()
    assert progress.tally.won == 0 and progress.daily == DailyRecord()
    assert (local.data[KEY_STATS], local.data[KEY_DAILY]) == (stats, daily)  # ...never written over
    del local.data[KEY_STATS]  # the newer record went (cleared): this tab's results are written again
    assert progress.flush() and read_tally(local.data[KEY_STATS])[0] == progress.tally
    assert progress.tally.played == 1 and progress.in_memory == {Lost.DAILY}
