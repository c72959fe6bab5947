"""Every game kept (freecell.ui.progress: saved_games, save_entries, save_format, save_failures).

- The save format: incremental records replay to the same game (Hypothesis
  over random play, undo, redo, restart, reloads); a write torn at every
  point of the log (the page closed between two writes) loses at most the
  last change and is never reported as damage; Finish saved step by step
  comes back exactly as last saved and finishes.
- Two tabs: two games, each closed in either order, both resumable; the
  same game in two tabs gives "conflict", never an overwrite.
- The unfinished list: bounded, the oldest dropped first and named.
- Damage, hostile data and a full store: never a crash, the legal prefix
  kept, the failure said; the "not saved" notice comes back after a
  dismissal, at most once a minute.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import json
import random
from collections.abc import Iterator
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position
from freecell.ui.address.query import parse_query
from freecell.ui.progress import save_entries, save_format, save_repair, saved_games
from freecell.ui.progress.damage import Lost
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.legacy import KEY_GAME, LEGACY_ID
from freecell.ui.progress.save_failures import FailureNotice
from freecell.ui.progress.save_format import CHUNK, KEY_TAB, PREFIX, parse_key, read_head
from freecell.ui.progress.saved_games import LIMIT, KeyKind, SaveOutcome, SaveStore
from freecell.ui.progress.stats import KEY_STATS


def clock() -> float:
    return 0.0


class LoggedStorage(MemoryStorage):
    """A MemoryStorage that logs every write and removal, to cut the log anywhere."""

    def __init__(self, quota: int | None = None) -> None:
        super().__init__(quota)
        self.log: list[tuple[str, str | None]] = []

    def write(self, key: str, text: str) -> bool:
        ok = super().write(key, text)
        if ok:
            self.log.append((key, text))
        return ok

    def remove(self, key: str) -> None:
        if key in self.data:
            self.log.append((key, None))
        super().remove(key)


def storage_after(log: list[tuple[str, str | None]], cut: int) -> MemoryStorage:
    store = MemoryStorage()
    for key, text in log[:cut]:
        if text is None:
            store.data.pop(key, None)
        else:
            store.data[key] = text
    return store


def ids(prefix: str = "g") -> Iterator[str]:
    n = 0
    while True:
        yield f"{prefix}{n}"
        n += 1


def tab_store(local: MemoryStorage, tab: MemoryStorage | None = None, name: str = "a") -> SaveStore:
    made = ids(name)
    return SaveStore(local, tab if tab is not None else MemoryStorage(), writer=f"w{name}",
                     new_id=lambda: next(made))


def do(game: Game, op: str, rng: random.Random) -> None:
    if op == "play":
        moves = game.legal_moves()
        if moves:
            game.play(rng.choice(moves))
    elif op == "undo":
        game.undo()
    elif op == "redo":
        game.redo()
    elif op == "restart":
        game.restart()
    elif op == "finish":
        game.finish_step()


def loaded(local: MemoryStorage) -> tuple[str | None, bool]:
    """The one game in ``local`` as JSON (``None``: none stored), and whether it was damaged."""
    store = SaveStore(local)
    games = store.summaries()
    if not games:
        return None, False
    assert len(games) == 1
    got = store.resume(games[0].id, clock)
    assert got is not None and got.game is not None
    return got.game.to_json(), got.damaged


@contextlib.contextmanager
def small_chunks(size: int = 3, slack: int = 4) -> Iterator[None]:
    """Chunks of a few records and an early compaction, so short games cross every boundary."""
    with mock.patch.object(save_format, "CHUNK", size), mock.patch.object(save_repair, "CHUNK", size), \
            mock.patch.object(save_entries, "CHUNK", size), \
            mock.patch.object(saved_games, "COMPACT_SLACK", slack):
        yield


OPS = st.lists(st.sampled_from(["play"] * 5 + ["undo", "undo", "redo", "redo", "restart", "finish", "idle"]),
               min_size=1, max_size=40)
DEALS = st.sampled_from([(617, "freecell"), (1, "freecell"), (5, "seahaven"), (12, "eightoff"),
                         (7, "bakers"), (3, "freecell2")])


# --- the format: records replay to the same game; a torn write loses at most the last change ------


@settings(max_examples=40, deadline=None)
@given(DEALS, OPS, st.integers(0, 2**32))
def test_a_write_torn_anywhere_loses_at_most_the_last_change(deal: tuple[int, str], ops: list[str],
                                                            seed: int) -> None:
    rng = random.Random(seed)
    with small_chunks():
        local = LoggedStorage()
        store = tab_store(local)
        game = Game(deal[0], variant=deal[1], clock=clock)
        store.start(game)
        states = [game.to_json()]  # the state after each save (the first: nothing saved)
        bounds = [0]  # how much of the log each save had written when it returned
        for i, op in enumerate(ops):
            do(game, op, rng)
            assert store.save(game, now=float(i)).ok
            states.append(game.to_json())
            bounds.append(len(local.log))
        fresh = states[0]
        for cut in range(len(local.log) + 1):
            last = max(i for i, b in enumerate(bounds) if b <= cut)
            allowed = {states[last]} if last + 1 == len(states) else {states[last], states[last + 1]}
            got, damaged = loaded(storage_after(local.log, cut))
            assert (got or fresh) in allowed, (cut, last)
            assert not damaged
            if cut in bounds:
                assert (got or fresh) == states[last]


@settings(max_examples=40, deadline=None)
@given(DEALS, st.lists(st.sampled_from(["play"] * 5 + ["undo", "redo", "restart", "finish", "reload"]),
                       max_size=60), st.integers(0, 2**32))
def test_records_replay_to_the_same_game_through_reloads(deal: tuple[int, str], ops: list[str],
                                                          seed: int) -> None:
    """Saving goes on after a reload (appending to a resumed game, compacting a long one)."""
    rng = random.Random(seed)
    with small_chunks():
        local = MemoryStorage()
        tab = MemoryStorage()
        store = tab_store(local, tab)
        game = Game(deal[0], variant=deal[1], clock=clock)
        store.start(game)
        for i, op in enumerate(ops):
            if op == "reload":
                store = tab_store(local, tab, name=f"r{i}")
                got = store.restore(None, clock)
                assert got.game is not None and not got.damaged
                assert got.game.to_json() == game.to_json()
                game = got.game
                continue
            do(game, op, rng)
            assert store.save(game, now=float(i)).ok
        again = tab_store(local, tab, name="end").restore(None, clock)
        assert again.game is not None and again.game.to_json() == game.to_json()
        # the stored chunks never hold more than a few times the history (compaction)
        head = read_head(local.data[store_key(local)], store_key(local)) if game.moves or game.can_redo() \
            else None
        if head is not None:
            assert head.n <= 2 * (head.moves + head.redo) + 4 + 3 * len(ops)


def test_a_compaction_torn_anywhere_leaves_the_game_whole() -> None:
    """A history long with undo and redo is written anew at the first move after a load (a load
    alone writes nothing): cut anywhere, the game is the one before the move or after it."""
    with small_chunks():
        local = MemoryStorage()
        store = tab_store(local)
        game = Game(617, clock=clock)
        store.start(game)
        play(store, game, 4, 1.0)
        for i in range(12):
            game.undo() if i % 2 == 0 else game.redo()
            assert store.save(game, 10.0 + i).ok
        expected = game.to_json()
        before = read_head(local.data[store_key(local)])
        logged = LoggedStorage()
        logged.data = dict(local.data)
        again = SaveStore(logged)
        got = again.resume(before.id, clock)
        assert got is not None and got.game is not None and got.game.to_json() == expected
        assert logged.log == []  # loaded, not played: nothing written
        got.game.play(got.game.legal_moves()[0])
        assert again.save(got.game, 30.0).ok
        played = got.game.to_json()
        after = read_head(logged.data[store_key(logged)])
        assert after.gen == before.gen + 1 and after.n < before.n  # compacted
        assert not any((p := parse_key(k)) is not None and p.gen == before.gen for k in logged.data)
        for cut in range(len(logged.log) + 1):
            state = MemoryStorage()
            state.data = dict(local.data)
            for key, text in logged.log[:cut]:
                if text is None:
                    state.data.pop(key, None)
                else:
                    state.data[key] = text
            assert loaded(state) in ((expected, False), (played, False)), cut
        assert loaded(logged) == (played, False)


def test_a_long_session_of_undo_and_redo_is_compacted_as_it_is_saved() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    game = Game(617, clock=clock)
    store.start(game)
    play(store, game, 3, 1.0)
    with mock.patch.object(saved_games, "COMPACT_AT", 20):
        for i in range(50):
            game.undo() if i % 2 == 0 else game.redo()
            assert store.save(game, 10.0 + i).ok
    head = read_head(local.data[store_key(local)])
    assert head.gen >= 2 and head.n <= 20
    assert loaded(local) == (game.to_json(), False)


def store_key(local: MemoryStorage) -> str:
    (key,) = [k for k in local.data if (p := parse_key(k)) is not None and p.gen is None]
    return key


def near_won() -> Position:
    return Position.from_text(
        "Foundations: H-9 C-9 D-9 S-9\nFreecells: - - - -\n"
        ": KC QC JC TC\n: KD QD JD TD\n: KH QH JH TH\n: KS QS JS TS\n:\n:\n:\n:\n"
    )


@pytest.mark.parametrize("steps_per_save", [1, 3])
def test_finish_and_saving_agree(steps_per_save: int) -> None:
    """What the records replay to is exactly the last saved turn, cut anywhere; Finish then wins."""
    local = LoggedStorage()
    store = tab_store(local)
    game = Game(position=near_won(), clock=clock)
    game.play(Move.parse("1a"))  # a first move: the game is started (KC... is left to Finish)
    store.start(game)
    assert store.save(game, 0.0).ok
    states, bounds = [game.to_json()], [len(local.log)]
    while game.can_finish():
        for _ in range(steps_per_save):
            game.finish_step()
        assert store.save(game, 1.0).ok  # as the page draws each step
        states.append(game.to_json())
        bounds.append(len(local.log))
    assert game.is_won()
    for cut in range(bounds[0], len(local.log) + 1):
        last = max(i for i, b in enumerate(bounds) if b <= cut)
        got, _damaged = loaded(storage_after(local.log, cut))
        assert got is not None
        assert got in states[last:last + 2]
        if cut in bounds:
            assert got == states[last]
        back = SaveStore(storage_after(local.log, cut)).resume(store.game_id or "", clock)
        assert back is not None and back.game is not None
        restored = back.game
        while restored.can_finish():
            restored.finish_step()
        assert restored.is_won()  # Finish on a restored game runs to the win


def test_a_turns_save_does_not_grow_with_the_game() -> None:
    """At 2,000 moves a turn writes about what it writes at 10: one chunk at most, and the head."""
    local = MemoryStorage()
    store = tab_store(local)
    game = Game(position=near_won(), auto_move=False, clock=clock)
    store.start(game)
    game.play(Move.parse("15"))
    assert store.save(game, 0.0).ok  # the first save makes the entry
    written: list[int] = []
    for i in range(2_000):
        game.play(Move.parse("56" if i % 2 == 0 else "65"))  # the ten of clubs between two empty columns
        before = sum(len(v) for v in local.data.values())
        count = local.writes
        assert store.save(game, float(i)).ok
        written.append(local.writes - count)
        assert sum(len(v) for v in local.data.values()) - before <= 10
    assert max(written) == 2  # the last chunk and the head, whatever the length
    head = read_head(local.data[store_key(local)], store_key(local))
    chunk_text = local.data[head.chunk(head.n // CHUNK)]
    assert len(head.to_json()) < 600 and len(chunk_text) <= 3 * CHUNK


# --- which game comes back -------------------------------------------------------------------


def play(store: SaveStore, game: Game, moves: int, now: float, seed: int = 0) -> None:
    rng = random.Random(seed)
    for i in range(moves):
        options = game.legal_moves()
        game.play(rng.choice(options))
        assert store.save(game, now + i).ok


@pytest.mark.parametrize("first_closed", ["a", "b"])
def test_two_tabs_two_games_each_closed_in_either_order_both_resumable(first_closed: str) -> None:
    local = MemoryStorage()
    tab_a, tab_b = MemoryStorage(), MemoryStorage()
    a, b = tab_store(local, tab_a, "a"), tab_store(local, tab_b, "b")
    game_a = a.restore(parse_query("?deal=1"), clock).game
    game_b = b.restore(parse_query("?deal=2"), clock).game
    assert game_a is not None and game_b is not None
    play(a, game_a, 5, 1000.0)
    play(b, game_b, 7, 2000.0, seed=1)
    play(a, game_a, 2, 3000.0, seed=2)
    closing = [("a", a, game_a), ("b", b, game_b)]
    if first_closed == "b":
        closing.reverse()
    for _name, store, game in closing:  # pagehide: the last save, then the tab is gone
        assert store.save(game, 4000.0).ok
    # each tab reloaded gets its own game back
    again_a = tab_store(local, tab_a, "a2").restore(parse_query("?deal=1"), clock)
    again_b = tab_store(local, tab_b, "b2").restore(None, clock)
    assert again_a.game is not None and again_a.game.to_json() == game_a.to_json()
    assert again_b.game is not None and again_b.game.to_json() == game_b.to_json()
    # and a new tab lists both; a plain address brings back the most recent (a's, played last)
    fresh = tab_store(local, MemoryStorage(), "c")
    listed = fresh.unfinished()
    assert [(s.deal, s.moves) for s in listed] == [(1, 7), (2, 7)]
    back = fresh.restore(None, clock)
    assert back.resumed and back.game is not None and back.game.deal == 1


def test_a_deal_asked_for_resumes_its_unfinished_game_or_starts_it() -> None:
    local = MemoryStorage()
    a = tab_store(local, name="a")
    game = a.restore(parse_query("?deal=617"), clock).game
    assert game is not None
    play(a, game, 3, 10.0)
    other = tab_store(local, name="b")
    got = other.restore(parse_query("?deal=617"), clock)
    assert got.resumed and got.game is not None and got.game.moves == 3
    assert other.game_id == a.game_id  # the same game: the tabs now watch each other
    got = tab_store(local, name="c").restore(parse_query("?deal=617&variant=bakers"), clock)
    assert not got.resumed and got.game is not None and got.game.moves == 0  # another variant
    got = tab_store(local, name="d").restore(parse_query("?deal=618"), clock)
    assert not got.resumed and got.game is not None and got.game.deal == 618
    # a request that is refused asks for nothing: the most recent comes back
    got = tab_store(local, name="e").restore(parse_query("?deal=0"), clock)
    assert got.resumed and got.game is not None and got.game.deal == 617
    # a game another tab is known to play is not taken by a plain address
    assert tab_store(local, name="f").restore(None, clock, busy={a.game_id or ""}).game is None


def test_a_tabs_untouched_deal_comes_back_on_reload_without_taking_room() -> None:
    local, tab = MemoryStorage(), MemoryStorage()
    store = tab_store(local, tab)
    game = Game(5, variant="eightoff", clock=clock)
    store.start(game)
    assert store.save(game, 1.0).ok
    assert not store.stored and store.unfinished() == [] and local.data == {}
    got = tab_store(local, tab, "b").restore(None, clock)
    assert got.game is not None and got.game.deal == 5 and got.game.variant is not None
    assert got.game.variant.id == "eightoff" and not got.resumed


def test_a_board_game_is_kept_and_found_by_its_board() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    text = Position.deal(1).to_text().replace("\n", "/").replace(" ", "+")
    game = store.restore(parse_query("?board=" + text), clock).game
    assert game is not None and game.deal is None
    game.play(game.legal_moves()[0])
    assert store.save(game, 1.0).ok
    (summary,) = store.unfinished()
    assert summary.deal is None and summary.board is not None and summary.stats_key is None
    got = tab_store(local, name="b").restore(parse_query("?board=" + text), clock)
    assert got.resumed and got.game is not None and got.game.moves == 1


def test_a_won_game_leaves_the_list_and_a_reload_shows_it() -> None:
    local, tab = MemoryStorage(), MemoryStorage()
    store = tab_store(local, tab)
    game = Game(position=near_won(), clock=clock)
    store.start(game)
    game.play(Move.parse("1a"))
    while game.finish_step() is not None:
        pass
    assert game.is_won() and store.save(game, 5.0).ok
    assert store.unfinished() == [] and store.summaries()[0].won
    got = tab_store(local, tab, "b").restore(None, clock)
    assert got.game is not None and got.game.is_won()
    assert tab_store(local, name="c").restore(None, clock).game is None  # nothing unfinished


# --- the unfinished list is bounded --------------------------------------------------------------


def test_the_unfinished_list_is_bounded_and_the_oldest_is_dropped_and_named() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    dropped = []
    for n in range(1, LIMIT + 3):
        game = Game(n, clock=clock)
        store.start(game)
        game.play(game.legal_moves()[0])
        result = store.save(game, float(n))
        assert result.ok
        dropped += [s.deal for s in result.dropped]
    assert dropped == [1, 2]
    listed = store.unfinished()
    assert len(listed) == LIMIT and [s.deal for s in listed] == list(range(LIMIT + 2, 2, -1))
    assert all(parse_key(k) is None or parse_key(k).deal not in (1, 2) for k in local.data)  # type: ignore[union-attr]
    assert listed[0].stats_key == f"freecell:{LIMIT + 2}"


def test_a_game_dropped_while_a_tab_plays_it_is_written_anew() -> None:
    local = MemoryStorage()
    a = tab_store(local, name="a")
    game = Game(1, clock=clock)
    a.start(game)
    play(a, game, 2, 1.0)
    a.discard(a.game_id or "")  # as if another tab had dropped it
    assert a.unfinished() == []
    play(a, game, 1, 2.0)
    (summary,) = a.unfinished()
    assert summary.moves == 3
    got, _ = loaded(local)
    assert got == game.to_json()


# --- other tabs ---------------------------------------------------------------------------------


def test_another_tab_that_saved_the_game_since_is_never_overwritten() -> None:
    local = LoggedStorage()
    a = tab_store(local, name="a")
    game_a = a.restore(parse_query("?deal=617"), clock).game
    assert game_a is not None
    play(a, game_a, 3, 1.0)
    b = tab_store(local, name="b")
    game_b = b.restore(parse_query("?deal=617"), clock).game
    assert game_b is not None and game_b.moves == 3
    play(a, game_a, 2, 10.0, seed=5)  # a plays on
    written = len(local.log)
    head_key = store_key(local)
    change = b.changed(head_key)  # the storage event in b
    assert change.kind is KeyKind.GAME and change.ours and change.conflict and b.conflict
    assert a.changed(head_key).conflict is False  # a wrote it itself
    game_b.play(game_b.legal_moves()[0])
    assert b.save(game_b, 20.0).outcome is SaveOutcome.CONFLICT
    assert len(local.log) == written  # nothing written over a's moves
    got = b.resume(b.game_id or "", clock)  # "reload that game here"
    assert got is not None and got.game is not None and got.game.to_json() == game_a.to_json()
    game_b = got.game
    assert not b.conflict
    play(b, game_b, 1, 30.0)
    assert a.save(game_a, 40.0).outcome is SaveOutcome.CONFLICT  # now a is the older tab


def test_a_conflict_is_found_without_the_storage_event_and_a_fork_keeps_both() -> None:
    local = MemoryStorage()
    a, b = tab_store(local, name="a"), tab_store(local, name="b")
    game_a = a.restore(parse_query("?deal=9"), clock).game
    assert game_a is not None
    play(a, game_a, 2, 1.0)
    game_b = b.restore(parse_query("?deal=9"), clock).game
    assert game_b is not None
    play(a, game_a, 1, 2.0)
    game_b.play(game_b.legal_moves()[-1])
    assert b.save(game_b, 3.0).outcome is SaveOutcome.CONFLICT
    assert b.fork(4.0).ok  # b's moves as a game of their own
    assert sorted(s.moves for s in a.unfinished()) == [3, 3]
    assert b.save(game_b, 5.0).ok and not b.conflict


def test_a_duplicated_tab_memory_gives_a_conflict_not_an_overwrite() -> None:
    local, tab = MemoryStorage(), MemoryStorage()
    a = tab_store(local, tab, "a")
    game_a = a.restore(parse_query("?deal=3"), clock).game
    copy = MemoryStorage()
    copy.data = dict(tab.data)  # "Duplicate tab" copies sessionStorage
    b = tab_store(local, copy, "b")
    game_b = b.restore(parse_query("?deal=3"), clock).game
    assert game_a is not None and game_b is not None and a.game_id == b.game_id
    play(a, game_a, 1, 1.0)
    game_b.play(game_b.legal_moves()[0])
    assert b.save(game_b, 2.0).outcome is SaveOutcome.CONFLICT


def test_storage_events_name_the_game_and_whether_it_is_this_tabs() -> None:
    local = MemoryStorage()
    a, b = tab_store(local, name="a"), tab_store(local, name="b")
    game = Game(4, clock=clock)
    a.start(game)
    play(a, game, 1, 1.0)
    b.start(Game(5, clock=clock))
    change = b.changed(store_key(local))
    assert change.kind is KeyKind.GAME and change.id == a.game_id
    assert not change.ours and not change.conflict
    chunk = next(k for k in local.data if (p := parse_key(k)) is not None and p.gen is not None)
    assert a.changed(chunk).ours and not a.changed(chunk).conflict
    assert b.changed(KEY_STATS).kind is KeyKind.STATS
    assert b.changed(None).kind is KeyKind.CLEARED
    assert b.changed("something.else").kind is KeyKind.OTHER
    assert b.changed(KEY_TAB).kind is KeyKind.OTHER


# --- faults --------------------------------------------------------------------------------------


def test_a_full_store_says_so_plays_on_and_saves_everything_once_there_is_room() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    game = Game(617, clock=clock)
    store.start(game)
    play(store, game, 3, 1.0)
    local.quota = local.used()  # full
    rng = random.Random(3)
    results = []
    for i in range(100):
        do(game, rng.choice(["play", "play", "undo", "redo"]), rng)
        results.append(store.save(game, 10.0 + i).outcome)
    assert SaveOutcome.FAILED in results and SaveOutcome.CONFLICT not in results
    got, _ = loaded(local)
    assert got is not None and json.loads(got)["turns"] == json.loads(game.to_json())["turns"][:3]
    local.quota = None
    assert store.save(game, 500.0).ok
    assert loaded(local)[0] == game.to_json()


def test_a_full_store_makes_room_by_removing_won_games_only() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    won = Game(position=near_won(), clock=clock)
    store.start(won)
    won.play(Move.parse("1a"))
    while won.finish_step() is not None:
        pass
    assert store.save(won, 1.0).ok
    unfinished = Game(2, clock=clock)
    store.start(unfinished)
    play(store, unfinished, 2, 2.0)
    game = Game(3, clock=clock)
    store.start(game)
    local.quota = local.used() + 50
    play(store, game, 1, 10.0)
    assert [s.deal for s in store.summaries()] == [3, 2]  # the won one went; the unfinished stayed


def test_a_damaged_history_keeps_its_legal_prefix_and_is_repaired() -> None:
    local = MemoryStorage()
    store = tab_store(local)
    game = Game(617, clock=clock)
    store.start(game)
    for text in ("58", "6a", "82x2"):
        game.play(Move.parse(text))
        assert store.save(game, 1.0).ok
    head = read_head(local.data[store_key(local)])
    local.data[head.chunk(0)] = "58 6a 11"  # the third record is illegal
    got = SaveStore(local).resume(head.id, clock)
    assert got is not None and got.damaged and got.game is not None and got.game.moves == 2
    again = SaveStore(local).resume(head.id, clock)  # written anew: said once
    assert again is not None and not again.damaged and again.game is not None and again.game.moves == 2


def test_a_board_whose_head_cannot_be_read_is_dropped_and_said() -> None:
    local = MemoryStorage()
    local.data[PREFIX + "freecell.board.x2"] = "[]"
    local.data[PREFIX + "freecell.board.x2.0.0"] = "58"
    store = SaveStore(local)
    lost = saved_games.Restored(None, lost=frozenset({Lost.GAME}))
    assert store.resume("x2", clock) == lost  # only its head knew its start
    assert store.resume("nothing", clock) is None
    assert not any(k.startswith(PREFIX + "freecell.board") for k in local.data)


def saved_617(local: MemoryStorage, moves: tuple[str, ...] = ("58", "6a", "82x2", "4b")) -> str:
    """The id of a game of deal 617 saved in ``local`` with ``moves`` played."""
    store = tab_store(local, name="s")
    game = Game(617, variant="freecell", clock=clock)
    store.start(game)
    for text in moves:
        game.play(Move.parse(text))
        assert store.save(game, 1.0).ok
    assert store.game_id is not None
    return store.game_id


def newer_head(text: str, how: str) -> str:
    data = json.loads(text)
    if how == "version":
        data["version"] = 2
    else:
        data["undo_budget"] = 3  # a field a newer page added
    return json.dumps(data)


@pytest.mark.parametrize("how", ["version", "unknown-field"])
def test_a_newer_pages_head_is_left_untouched_and_not_used(how: str) -> None:
    local = MemoryStorage()
    gid = saved_617(local)
    key = store_key(local)
    local.data[key] = newer_head(local.data[key], how)
    before = dict(local.data)
    tab = MemoryStorage()
    tab.data[KEY_TAB] = json.dumps({"format": "freecell-tab", "version": 1, "id": gid, "variant": "freecell",
                                    "deal": 617})  # this tab played it, before a newer page wrote it
    store = SaveStore(local, tab)
    assert store.resume(gid, clock) is None  # not used here...
    got = store.restore(None, clock)
    assert got == saved_games.Restored(None)  # ...nor said damaged: the page deals a game
    assert store.unfinished() == []
    for n in range(LIMIT + 2):  # this page's own games fill the list: the newer page's is never made room of
        game = Game(n + 1, clock=clock)
        store.start(game)
        game.play(game.legal_moves()[0])
        assert store.save(game, 10.0 + n).ok
    got = SaveStore(local).restore(parse_query("?deal=617"), clock)
    assert got.game is not None and got.game.moves == 0
    assert {k: v for k, v in local.data.items() if gid in k} == {k: v for k, v in before.items() if gid in k}


@pytest.mark.parametrize("damage", ["not-json", "truncated", "wrong-type"])
def test_a_damaged_head_is_rebuilt_from_its_key_and_chunks(damage: str) -> None:
    local = MemoryStorage()
    gid = saved_617(local)
    key = store_key(local)
    text = local.data[key]
    local.data[key] = {"not-json": "{not json", "truncated": text[:len(text) // 2],
                       "wrong-type": text.replace('"moves":4', '"moves":"four"')}[damage]
    a = tab_store(local)
    got = a.restore(parse_query("?deal=5"), clock, now=50.0)  # another deal: the damaged game is repaired...
    assert got.lost == {Lost.GAME} and got.game is not None and got.game.deal == 5
    (listed,) = a.unfinished()  # ...and listed again, with its moves
    assert (listed.id, listed.deal, listed.moves, listed.played) == (gid, 617, 4, 50.0)
    again = SaveStore(local).restore(parse_query("?deal=617"), clock)
    assert again.game is not None and again.game.moves == 4 and not again.damaged  # repaired: said once
    assert [t.text() for t in again.game.turns] == ["58", "6a", "82x2", "4b"]
    assert SaveStore(local).resume(gid, clock) is not None and read_head(local.data[key], key).watched
    # (whether its solution was shown went with the head: never counted a win)


def test_a_damaged_head_keeps_the_legal_prefix_of_its_chunks() -> None:
    local = MemoryStorage()
    gid = saved_617(local)
    key = store_key(local)
    head = read_head(local.data[key], key)
    local.data[head.chunk(0)] = "58 6a 11 4b"  # the third record is illegal
    local.data[key] = "{"
    got = SaveStore(local).resume(gid, clock)
    assert got is not None and got.damaged and got.game is not None and got.game.moves == 2


def test_a_torn_last_record_keeps_the_records_before_it() -> None:
    local = MemoryStorage()
    gid = saved_617(local)
    head = read_head(local.data[store_key(local)])
    local.data[head.chunk(0)] = "58 6a 82x2 4"  # the last move cut short
    got = SaveStore(local).resume(gid, clock)
    assert got is not None and got.damaged and got.game is not None
    assert [t.text() for t in got.game.turns] == ["58", "6a", "82x2"]
    again = SaveStore(local).resume(gid, clock)
    assert again is not None and not again.damaged and again.game is not None and again.game.moves == 3


def test_an_unreadable_tab_memory_loses_nothing_and_says_nothing() -> None:
    local = MemoryStorage()
    saved_617(local)
    tab = MemoryStorage()
    tab.data[KEY_TAB] = "{damaged"
    got = SaveStore(local, tab).restore(None, clock)
    assert got.game is not None and got.game.moves == 4 and not got.damaged


HOSTILE = ["", "null", "[]", "{}", "<img src=x onerror=alert(1)>", '{"__proto__": {"x": 1}}', "{" * 50_000,
           "[" * 100_000 + "]" * 100_000, "x" * 300_000, "\ud800", "u u u", "58+zz", "99x99",
           json.dumps({"format": "freecell-save", "version": 1, "id": "x1", "variant": "freecell",
                       "deal": 1, "rules": {}, "auto_move": True, "gen": 0, "n": 10**5, "rev": 1, "by": "",
                       "moves": 0, "redo": 0, "home": 0, "won": False, "elapsed": 0, "played": 0})]
KEYS = [PREFIX + "freecell.1.x1", PREFIX + "freecell.1.x1.0.0", PREFIX + "freecell.1.x1.0.1",
        PREFIX + "seahaven.board.x2", KEY_TAB, KEY_GAME]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), st.sampled_from(HOSTILE) | st.text(max_size=40), max_size=6))
def test_hostile_stored_data_never_raises(stored: dict[str, str]) -> None:
    local = MemoryStorage()
    tab = MemoryStorage()
    for key, text in stored.items():
        (tab if key == KEY_TAB else local).data[key] = text
    store = SaveStore(local, tab)
    store.migrate(1.0, clock)
    got = store.restore(parse_query("?deal=1"), clock)
    assert got.game is not None and got.game.deal == 1
    store.unfinished()
    assert store.save(got.game, 2.0).outcome in (SaveOutcome.SAVED, SaveOutcome.CONFLICT)


# --- older pages ---------------------------------------------------------------------------------


def test_the_single_game_of_older_pages_is_moved_into_the_list() -> None:
    old = Game(617, clock=clock)
    for text in ("58", "6a", "82x2", "4b"):
        old.play(Move.parse(text))
    old.undo()
    local = MemoryStorage()
    local.data[KEY_GAME] = old.to_json()
    store = SaveStore(local)
    assert store.migrate(5.0, clock) is False
    assert KEY_GAME not in local.data
    got = store.restore(None, clock)
    assert got.resumed and got.game is not None and got.game.to_json() == old.to_json()
    assert store.game_id == LEGACY_ID
    assert got.game.redo() is not None  # the turn undone can be redone


def test_an_older_damaged_game_keeps_its_legal_prefix() -> None:
    data = json.loads(Game(617).to_json())
    data["turns"] = ["58", "6a", "11"]
    local = MemoryStorage()
    local.data[KEY_GAME] = json.dumps(data)
    store = SaveStore(local)
    assert store.migrate(5.0, clock) is True
    got = store.restore(None, clock)
    assert got.game is not None and got.game.moves == 2


# --- the "not saved" notice ----------------------------------------------------------------------


def test_the_notice_comes_back_after_a_dismissal_at_most_once_a_minute() -> None:
    notice = FailureNotice()
    assert notice.failed(100.0)  # the first failure is said
    assert not notice.failed(101.0)  # on show: nothing more
    notice.dismissed()
    assert not notice.failed(120.0)  # dismissed, but said less than a minute ago
    assert notice.failed(160.0)  # the next failed save a minute on
    notice.dismissed()
    assert not notice.failed(200.0) and notice.failed(221.0)
    assert not notice.failed(10_000.0)  # still on show: never twice at once


# --- the new modules' examples ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["freecell.ui.address.sanitize", "freecell.ui.progress.keyvalue",
                                  "freecell.ui.progress.save_format", "freecell.ui.address.link",
                                  "freecell.ui.progress.save_failures", "freecell.ui.progress.saved_games"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
