"""Issue 24's rules, in CPython: only a tab that played writes, a watched game is never won,
results are never lost to storage, host commands are coalesced, verdicts belong to positions.
"""

from __future__ import annotations

import json
import random

from freecell.game import Game
from freecell.ui.address.query import parse_query
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.save_format import parse_key, read_head
from freecell.ui.progress.saved_games import SaveOutcome, SaveStore


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def head_key(local: MemoryStorage) -> str:
    (key,) = [k for k in local.data if (p := parse_key(k)) is not None and p.gen is None]
    return key


def head_of(local: MemoryStorage) -> tuple[int, int, int]:
    key = head_key(local)
    h = read_head(local.data[key], key)
    return h.rev, h.n, h.moves


def store(local: MemoryStorage, name: str, tab: MemoryStorage | None = None) -> SaveStore:
    return SaveStore(local, tab if tab is not None else MemoryStorage(), writer=f"w{name}")


def play(st: SaveStore, game: Game, n: int, now: float, seed: int = 1) -> None:
    rng = random.Random(seed)
    for i in range(n):
        game.play(rng.choice(game.legal_moves()))
        assert st.save(game, now + i).ok


# --- only a tab that played writes ------------------------------------------------------------


def test_a_tab_that_opens_or_shows_a_game_writes_nothing_and_the_player_loses_no_move() -> None:
    local, t = MemoryStorage(), Clock()
    a = store(local, "a")
    game_a = a.restore(parse_query("?deal=3"), t).game
    assert game_a is not None
    play(a, game_a, 1, 1.0)
    t.t += 30
    assert a.save(game_a, 2.0).ok  # a's clock, 30 s in
    rev = head_of(local)
    b = store(local, "b")  # a plain address in a second tab: a's game, shown
    game_b = b.restore(parse_query(""), t).game
    assert game_b is not None and game_b.moves == 1
    game_b.clock.resume()  # the page shows: the clock of a started game runs
    t.t += 5
    written = local.writes
    for now in (10.0, 11.0):  # drawn, hidden, shown, hidden again
        assert b.save(game_b, now).outcome is SaveOutcome.SAVED
        game_b.clock.pause()
        game_b.clock.resume()
        t.t += 5
    assert local.writes == written and head_of(local) == rev  # not a byte: no rev bump
    play(a, game_a, 2, 20.0, seed=2)  # a plays on, and is saved
    assert head_of(local)[1:] == (3, 3)
    assert b.changed(head_key(local)).conflict  # newer moves: now b shows the notice


def test_a_reload_writes_nothing_until_the_tab_plays() -> None:
    local, t = MemoryStorage(), Clock()
    tab = MemoryStorage()
    a = store(local, "a", tab)
    game = a.restore(parse_query("?deal=3"), t).game
    assert game is not None
    play(a, game, 3, 1.0)
    t.t += 30
    for _ in range(200):  # a long undo/redo session makes a reload want to compact it
        game.undo()
        game.redo()
        assert a.save(game, 2.0).ok
    rev = head_of(local)
    written = local.writes
    again = store(local, "a", tab)  # the reload: the same tab's memory
    game2 = again.restore(parse_query("?deal=3"), t).game
    assert game2 is not None and game2.to_json() == game.to_json()
    game2.clock.resume()
    t.t += 10
    assert again.save(game2, 3.0).ok
    assert local.writes == written and head_of(local) == rev
    play(again, game2, 1, 4.0)  # a move: now it writes, the compaction too
    assert head_of(local)[2] == game2.moves


def test_only_newer_moves_make_another_tab_show_the_notice() -> None:
    local, t = MemoryStorage(), Clock()
    a = store(local, "a")
    game_a = a.restore(parse_query("?deal=8"), t).game
    assert game_a is not None
    play(a, game_a, 2, 1.0)
    t.t += 30
    assert a.save(game_a, 2.0).ok
    b = store(local, "b")
    game_b = b.restore(parse_query("?deal=8"), t).game
    assert game_b is not None
    game_a.clock.resume()
    t.t += 20
    assert a.save(game_a, 5.0).ok  # a's clock only: no newer move
    key = head_key(local)
    assert not b.changed(key).conflict and not b.conflict
    play(b, game_b, 1, 6.0, seed=4)  # b plays on from the same moves: saved, nothing lost
    assert not b.conflict and head_of(local)[1] == 3
    assert a.changed(key).conflict  # now a is the older tab: it has newer moves to fetch
    game_a.play(game_a.legal_moves()[0])
    assert a.save(game_a, 7.0).outcome is SaveOutcome.CONFLICT


# --- a watched game is never a win -------------------------------------------------------------


def _page(local: MemoryStorage, tab: MemoryStorage, query: str = "?deal=617"):  # type: ignore[no-untyped-def]
    from freecell.ui.progress.progress import Progress
    from freecell.ui.session.session import Session
    from tests.test_session import Clock as SClock
    from tests.test_session import Wall, catalogue, run
    from tests.test_watch_share_daily import boot_for

    progress = Progress(local, tab, wall=Wall())
    s = Session(catalogue(), progress=progress, clock=SClock())
    run(s, s.opening.start(boot_for(query, s.clock)))
    return s


def test_a_watched_game_is_never_a_win_whatever_reloads_come_between() -> None:
    from freecell.ui.analysis import playback as pb
    from freecell.ui.progress.stats import KEY_STATS, read_tally
    from tests.test_session import run
    from tests.test_watch_share_daily import known, ticket

    local, tab = MemoryStorage(), MemoryStorage()
    s = _page(local, tab)
    reply = known(s)
    change = s.watch.start()
    for _ in range(3):
        change = run(s, s.watch.tick(ticket(change).ticket))
    assert s.game.moves == 3
    for _ in range(2):  # reloaded twice: the mark is in the saved game
        s = _page(local, tab)
        assert s.game.moves == 3
    steps = pb.plan(s.game.start, reply.moves, s.game.rules)
    for step in steps[3:]:  # the player plays the rest of the watched solution
        run(s, s.play(step.move))
    assert s.game.is_won()
    tally = read_tally(local.read(KEY_STATS))[0]
    assert tally.won == 0 and tally.streak == 0


def test_a_game_opened_partway_through_from_a_link_is_never_a_win() -> None:
    """A shared link with moves: those moves were someone else's, so its win (one move, "0:00")
    is no win of the player's, nor a best time; a reload keeps it so.  A link to a deal with no
    move yet is the player's own game, counted as any."""
    from freecell.game import Game
    from freecell.piles import Move
    from freecell.ui.address.link import game_link
    from freecell.ui.progress.stats import KEY_STATS, read_tally
    from tests.support.tables import solution_lines
    from tests.test_session import run

    lines = solution_lines(1)
    shared = Game(1)
    for line in lines[:-2]:
        shared.play(Move.parse(line))
    local, tab = MemoryStorage(), MemoryStorage()
    s = _page(local, tab, game_link(shared) or "")
    assert s.game.moves == len(lines) - 2
    run(s, s.play(Move.parse(lines[-2])))
    s = _page(local, tab, "")  # reloaded: still not the player's
    run(s, s.play(Move.parse(lines[-1])))
    assert s.game.is_won()
    tally = read_tally(local.read(KEY_STATS))[0]
    assert tally.won == 0 and tally.streak == 0 and tally.deals == ()
    s = _page(local, MemoryStorage(), game_link(Game(1)) or "?deal=1")  # a deal's link, at its start
    for line in lines:
        run(s, s.play(Move.parse(line)))
    assert read_tally(local.read(KEY_STATS))[0].won == 1


# --- results are never lost to storage -----------------------------------------------------------


class Refusing(MemoryStorage):
    """localStorage whose writes of some keys throw (refused, full) while ``refuse`` holds them."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse: set[str] = set()

    def write(self, key: str, text: str) -> bool:
        return False if key in self.refuse else super().write(key, text)


def test_a_win_whose_statistics_write_failed_is_written_at_the_next_chance_exactly_once() -> None:
    from freecell.ui.progress.stats import KEY_STATS, read_tally
    from tests.test_session import run
    from tests.test_watch_share_daily import known, win

    local, tab = Refusing(), MemoryStorage()
    s = _page(local, tab)
    reply = known(s)
    local.refuse.add(KEY_STATS)  # the statistics cannot be written: played, then won, both refused
    win(s, reply)
    assert read_tally(local.read(KEY_STATS))[0].won == 0
    local.refuse.clear()
    run(s, s.keeping.hidden())  # the page hidden: the game is saved, and what was not written is
    tally = read_tally(local.read(KEY_STATS))[0]
    assert (tally.played, tally.won, tally.streak) == (1, 1, 1)
    run(s, s.keeping.hidden())  # again: counted once
    for _ in range(2):
        s.progress.save(s.game)
    assert read_tally(local.read(KEY_STATS))[0].won == 1


def test_results_kept_while_storage_fails_merge_with_another_tabs() -> None:
    from freecell.ui.progress.stats import KEY_STATS, read_tally
    from tests.test_session import run
    from tests.test_watch_share_daily import known, win

    local = Refusing()
    a = _page(local, MemoryStorage(), "?deal=1")
    b = _page(local, MemoryStorage(), "?deal=617")
    ra, rb = known(a), known(b)
    local.refuse.add(KEY_STATS)
    win(a, ra)  # a's win cannot be written
    local.refuse.clear()
    win(b, rb)  # b's is
    assert read_tally(local.read(KEY_STATS))[0].won == 1
    run(a, a.keeping.hidden())
    tally = read_tally(local.read(KEY_STATS))[0]
    assert (tally.played, tally.won) == (2, 2) and tally.open == ()


# --- host commands cannot flood the game ----------------------------------------------------------


def test_a_flood_of_host_commands_is_one_command_the_latest() -> None:
    from freecell.ui.address.embed import Command, Commands

    waiting = Commands()
    asks = sum(waiting.push(Command("deal", n)) for n in range(1, 3001))
    assert asks == 1 and waiting.take() == Command("deal", 3000) and waiting.take() is None
    assert waiting.push(Command("deal", 5)) and not waiting.push(Command("new"))
    assert waiting.take() == Command("new")  # the latest, whatever its kind
    assert waiting.dropped == 3000


# --- messages name what they refuse ----------------------------------------------------------------


def test_an_invisible_character_in_a_deal_number_is_named_and_a_query_refusal_has_its_own_line() -> None:
    from freecell.ui.address.query import MAX_FIELDS, MAX_QUERY
    from freecell.ui.text import sentences as say
    from tests.test_session import catalogue

    cat = catalogue()
    for query, char in (("?deal=617%E2%80%AE", "U+202E"), ("?deal=6%E2%80%8B17", "U+200B"),
                        ("?deal=61%007", "U+0000")):
        req = parse_query(query)
        assert req.reason == "deal.invisible" and req.deal is None
        text = say.address_refused(cat, req)
        assert f"an invisible character \u2068{char}\u2069" in text and "does not exist" not in text, text
    many = "?" + "&".join(f"f{i}=1" for i in range(MAX_FIELDS + 1))
    long = "?deal=617&x=" + "a" * MAX_QUERY
    for query, words in ((many, "more than 20 fields"), (long, "longer than 200,000 characters")):
        req = parse_query(query)
        text = say.address_refused(cat, req)
        assert words in text and "position" not in text, text
    assert "position" in say.address_refused(cat, parse_query("?board=JD"))  # a position: that line


# --- verdicts tied to positions ---------------------------------------------------------------------


def _no(pos, rules):  # type: ignore[no-untyped-def]
    from freecell.ui.analysis import replies as rp

    data = {"type": "result", "verdict": "unsolvable", "moves": [], "hint": None, "nodes": 9, "ms": 1,
            "difficulty": None}
    reply = rp.parse_reply(data, pos, rules)
    assert isinstance(reply, rp.SolverReply)
    return reply


def test_a_no_that_this_page_did_not_ask_for_or_whose_worker_was_replaced_is_asked_again() -> None:
    from freecell.position import Position
    from freecell.rules import FREECELL
    from freecell.ui.analysis.analysis import Analysis
    from freecell.ui.analysis.replies import Verdict

    start = Position.deal(617)
    child = __import__("freecell.engine", fromlist=["apply_move"]).apply_move(
        start, Game(617).legal_moves()[0])
    a = Analysis(FREECELL)
    a.answered(start, _no(start, FREECELL))  # never asked of this page's search: not kept
    assert a.verdict_on([start]) is Verdict.UNKNOWN and a.verdict_on([start, child]) is Verdict.UNKNOWN
    a.asking = start
    a.answered(start, _no(start, FREECELL))  # asked: kept, and carried down the line
    assert a.verdict_on([start, child]) is Verdict.UNSOLVABLE
    a.solver_failed(first=True, dead=False)  # the worker that said it was replaced: asked again
    assert a.verdict_on([start]) is Verdict.UNKNOWN and a.verdict_on([start, child]) is Verdict.UNKNOWN


# --- settings of another page: read as far as understood, never written over ---------------------


def test_settings_of_a_newer_page_keep_what_is_understood_and_are_never_written_over() -> None:
    from freecell.ui.progress.settings import SETTINGS_FORMAT, SETTINGS_VERSION, load_settings

    text = json.dumps({"format": SETTINGS_FORMAT, "version": SETTINGS_VERSION + 1, "score": True,
                       "theme": "light", "speed": "warp", "haptics": "strong"})
    s, damaged = load_settings(text)
    assert not damaged  # "warp" may be a newer page's speed: nothing to say
    assert s.flag("score") and s.choice("theme") == "light" and s.choice("speed") == "normal"
    changed = s.with_flag("score", False).with_choice("language", "fr")
    assert not changed.flag("score") and changed.language == "fr"  # applies here, in this tab...
    assert changed.to_json() == text  # ...and what the page writes back is the newer record as it was


def test_an_unknown_settings_field_is_dropped_without_a_word() -> None:
    from freecell.ui.progress.settings import SETTINGS_FORMAT, Settings, load_settings

    text = json.dumps({"format": SETTINGS_FORMAT, "version": 1, "score": True, "haptics": "strong"})
    assert load_settings(text) == (Settings().with_flag("score", True), False)
