"""Watch the solution, share a game, the deal of the day, par: the session's side, in CPython.

- playback (:mod:`freecell.ui.analysis.playback`): a solution becomes the game's turns;
  watching plays them one turn at a time on a ticketed timer, pauses, steps
  both ways, changes speed, stops at any intent of the player (who plays on
  from there), and every step is undone like any turn; a watched game is
  never a win in the statistics;
- links: a link with moves opens that game at that point, undo goes back to
  its start; a bad link says why in one line and gives the plain deal;
- the deal of the day: a pure function of the date, from the winnable deals;
  its wins are kept apart from the statistics, merged, and make a streak;
- par: the solver's move count beside the player's on the win panel, from
  the known solution of the start, else asked of the worker after the win.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.deals import UNWINNABLE_DEALS, daily_deal
from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import Solver
from freecell.ui.address.link import game_link
from freecell.ui.analysis import analysis as an
from freecell.ui.analysis import playback as pb
from freecell.ui.analysis import replies as rp
from freecell.ui.analysis.playback import NoSolution, Par, ParState, PlaybackState
from freecell.ui.progress.daily import KEY_DAILY, DailyRecord, apply_win, daily_day, read_daily
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.progress import Progress
from freecell.ui.progress.stats import KEY_STATS, read_tally
from freecell.ui.session import change as ch
from freecell.ui.session.opening import boot_for
from freecell.ui.session.session import Session
from freecell.ui.text.bars import watch_text
from freecell.ui.text.panels import daily_items, par_text, watch_again, win_title_key
from tests.support.sessions import Clock, Wall, asks, catalogue, run, solve

DAY = date(2025, 3, 14)


def page(query: str = "?deal=1", local: MemoryStorage | None = None, today: date = DAY) -> Session:
    """A session started from the address ``query`` as the page starts it (links included)."""
    progress = Progress(local if local is not None else MemoryStorage(), MemoryStorage(), wall=Wall(),
                        today=lambda: today)
    s = Session(catalogue(), progress=progress, clock=Clock())
    run(s, s.opening.start(boot_for(query, s.clock)))
    return s


def known(s: Session) -> rp.SolverReply:
    """The worker's answer about the position on the table, given to the session."""
    reply = solve(s.position, s)
    run(s, s.solver_reply(s.position, reply))
    return reply


def win(s: Session, reply: rp.SolverReply) -> ch.Change:
    """The player plays the solution ``reply`` (about the start) to the win, turn by turn."""
    change = ch.Change()
    for step in pb.plan(s.game.start, reply.moves, s.game.rules):
        change = run(s, s.play(step.move))
        assert s.position == step.after
    assert s.game.is_won()
    return change


def ticket(change: ch.Change) -> ch.WatchNext:
    timers = [e for e in change.effects if isinstance(e, ch.WatchNext)]
    assert len(timers) == 1, change.effects
    return timers[0]


# --- the plan of a solution ----------------------------------------------------------------


@pytest.mark.parametrize("deal", [1, 617, 11981])
def test_a_solution_as_turns_replays_to_the_win_and_counts_as_the_moves_counter(deal: int) -> None:
    start = Position.deal(deal)
    moves = Solver(start, FREECELL).solve(max_nodes=200_000).moves
    steps = pb.plan(start, moves, FREECELL, auto_move=True)
    game = Game(deal)
    for step in steps:
        game.replay(step.text())
        assert game.position == step.after
    assert game.is_won() and game.moves == len(steps) == pb.par(start, moves, FREECELL)
    assert all(m.dst.kind == 2 for s in steps for m in s.auto)  # only cards going home ride along
    assert pb.par(start, moves, FREECELL, auto_move=False) == len(moves)


# --- watching ---------------------------------------------------------------------------------


def test_watch_shows_the_count_then_plays_turn_by_turn_on_its_timer() -> None:
    s = page()
    known(s)
    change = s.watch.start()
    playback = s.watch.playback
    assert playback is not None and playback.state == PlaybackState.PLAYING and playback.done == 0
    assert playback.total >= 1 and f"{playback.total} moves" in change.announce
    assert ticket(change).ms == pb.LEAD_MS  # the number of moves is on show before the first step
    assert watch_text(s.cat, playback) == f"A solution in {playback.total} moves"
    first = run(s, s.watch.tick(ticket(change).ticket))
    assert s.game.moves == 1 and playback.done == 1 and first.frames and first.game_changed
    assert first.announce.startswith(f"Move 1 of {playback.total}: ")
    assert ch.SaveGame() in first.effects
    assert s.watch.tick(ticket(change).ticket) == ch.Change()  # a stale timer plays nothing
    second = run(s, s.watch.tick(ticket(first).ticket))
    assert s.game.moves == 2 and ticket(second).ms == pb.WATCH_STEP_MS["normal"]


def test_pause_play_step_both_ways_and_speed() -> None:
    s = page()
    known(s)
    start = s.watch.start()
    paused = s.watch.toggle()
    assert s.watch.playback is not None and s.watch.playback.state == PlaybackState.PAUSED
    assert paused.announce == "Paused"
    assert s.watch.tick(ticket(start).ticket) == ch.Change()  # paused: the timer in flight does nothing
    run(s, s.watch.step(forward=True))
    run(s, s.watch.step(forward=True))
    assert s.game.moves == 2 and s.watch.playback.done == 2 and s.watch.playback.state == PlaybackState.PAUSED
    back = run(s, s.watch.step(forward=False))
    assert s.game.moves == 1 and s.watch.playback.done == 1 and s.game.can_redo()
    assert back.frames[0] != back.frames[-1] and back.announce == f"Move 1 of {s.watch.playback.total}"
    assert s.position == s.watch.playback.position()
    faster = s.watch.faster()
    assert s.watch.playback.speed == "fast" and faster.announce == "Fast" and not faster.effects
    playing = s.watch.toggle()
    assert ticket(playing).ms == pb.WATCH_STEP_MS["fast"]
    s.watch.faster()
    assert s.watch.playback.speed == "slow" and s.watch.speed == "slow"


def test_a_touch_stops_the_playback_and_play_goes_on_from_there_every_step_undoable() -> None:
    s = page()
    known(s)
    change = s.watch.start()
    for _ in range(3):
        change = run(s, s.watch.tick(ticket(change).ticket))
    assert s.game.moves == 3
    pos = s.position
    selected = s.tap_card(*next((m.src, len(pos.columns[m.src.index]) - 1) for m in s.game.legal_moves()
                                if m.src.kind == 0))
    assert s.watch.playback is None and selected.announce.startswith("Stopped watching")
    assert s.position == pos  # the touch stopped it where it stood
    assert s.watch.tick(ticket(change).ticket) == ch.Change()
    for n in (2, 1, 0):
        run(s, s.undo())
        assert s.game.moves == n
    assert s.position == s.game.start


def test_escape_and_the_close_button_stop_it() -> None:
    s = page()
    known(s)
    s.watch.start()
    assert s.escape() == ch.Change(kind="watch", announce="Stopped watching: play on from here.")
    assert s.watch.playback is None and s.escape() is None


def test_watch_asks_the_solver_when_nothing_is_known_and_starts_with_its_answer() -> None:
    s = page()
    s.analysis.known.clear()
    s.analysis.asking = None
    change = s.watch.start()
    assert s.watch.playback is not None and s.watch.playback.state == PlaybackState.SEARCHING
    assert [a.position for a in asks(change)] == [s.position]
    assert change.announce == "Looking for a solution…"
    ready = s.solver_reply(s.position, solve(s.position, s))
    assert s.watch.playback.state == PlaybackState.PLAYING and ticket(ready).ms == pb.LEAD_MS
    assert "moves" in ready.announce


def test_nothing_to_watch_says_why_without_saying_lost() -> None:
    s = page()
    s.analysis.known.clear()
    s.watch.start()
    assert s.watch.playback is not None
    reply = rp.SolverReply(rp.Verdict.UNSOLVABLE)
    change = s.solver_reply(s.position, reply)
    assert s.watch.playback.state == PlaybackState.NONE and s.watch.playback.reason == NoSolution.UNSOLVABLE
    assert "lost" not in change.announce.lower() and change.announce.startswith("No solution from here")
    other = page()
    other.analysis.known.clear()
    other.watch.start()
    other.solver_unavailable(first=True, dead=True)
    assert other.watch.playback is not None and other.watch.playback.reason == NoSolution.UNAVAILABLE


def test_the_playback_to_the_end_wins_but_a_watched_game_is_not_a_win() -> None:
    local = MemoryStorage()
    s = page(local=local)
    run(s, s.play(s.game.legal_moves()[0]))  # started by the player: played
    known(s)
    change = s.watch.start()
    while s.watch.playback is not None:
        change = run(s, s.watch.tick(ticket(change).ticket))
    assert s.game.is_won() and s.panel == "win"
    tally = read_tally(local.read(KEY_STATS))[0]
    assert tally.played == 1 and tally.won == 0 and tally.streak == 0 and tally.open == ()
    # and the panel says so: the solver finished it, so the moves are the game's, not the player's
    assert s.progress.watched and win_title_key(s.progress.watched) == "win.title_watched"
    assert f"Solved in {s.game.moves} moves, time" in change.announce and "You won" not in change.announce
    assert par_text(s.cat, s.game.moves, s.par, s.progress.watched) == (
        "The solver is counting its own moves from the deal…")
    s.solver_reply(s.game.start, solve(s.game.start, s))
    assert s.par is not None and s.par.state is ParState.KNOWN and s.par.moves is not None
    # its own, not set beside the game's (which it helped play)
    assert par_text(s.cat, s.par.moves, s.par, s.progress.watched) == (
        f"The solver’s own solution from the deal: {s.par.moves} moves, counted the same way.")
    # and says it is shorter when it is (found after the playback of a longer one had started)
    assert par_text(s.cat, s.par.moves + 5, s.par, s.progress.watched) == (
        f"The solver knows a shorter one from the deal: {s.par.moves} moves, counted the same way.")
    assert par_text(s.cat, s.game.moves, Par(ParState.UNKNOWN), s.progress.watched) == ""
    # its solution is offered on the panel only when shorter than the game just won (watched or not)
    assert watch_again(s.par.moves + 1, s.par) and not watch_again(s.par.moves, s.par)
    assert watch_again(s.par.moves, None) and watch_again(s.par.moves, Par(ParState.SEARCHING))


def test_watch_a_short_solution_from_the_win_panel_replays_the_deal_with_the_solver() -> None:
    local = MemoryStorage()
    s = page(local=local)
    win(s, known(s))  # the start's solution: par, and the playback from the start
    assert s.par is not None and s.par.state is ParState.KNOWN
    won = read_tally(local.read(KEY_STATS))[0].won
    change = s.watch.solution()
    assert s.game.moves == 0 and s.watch.playback is not None
    assert s.watch.playback.state == PlaybackState.PLAYING
    assert s.par is not None and s.watch.playback.total == s.par.moves
    while s.watch.playback is not None:
        change = run(s, s.watch.tick(ticket(change).ticket))
    assert s.game.is_won() and read_tally(local.read(KEY_STATS))[0].won == won


# --- par -----------------------------------------------------------------------------------------


def test_par_from_the_known_solution_of_the_start() -> None:
    s = page()
    reply = known(s)
    change = win(s, reply)
    assert s.par is not None
    assert s.par.moves == pb.par(s.game.start, reply.moves, s.game.rules) == s.game.moves
    # not searched again: given back with its solution, which the worker finds at once (then shortens)
    assert [a.path for a in asks(change) if a.position == s.game.start] == [
        (s.game.start, s.analysis.solution(s.game.start))]
    text = par_text(s.cat, s.game.moves, s.par)
    assert text == f"You: {s.game.moves} moves, the solver’s: {s.par.moves}, counted the same way."
    assert not s.progress.watched and "You won in" in change.announce
    assert change.announce.endswith(text)  # said with the win, as the panel's focus does not read it


def test_par_is_asked_of_the_worker_after_the_win_when_not_known() -> None:
    board = Position.from_text("Foundations: H-Q C-K D-K S-K\nFreecells: KH - - -\n" + ":\n" * 8)
    s = page("?board=" + "/".join(board.to_text().splitlines()))
    s.analysis.known.clear()
    change = run(s, s.play(Move.parse("ah")))
    assert s.game.is_won() and s.par is not None and s.par.state is ParState.SEARCHING
    ask = [a for a in asks(change) if a.position == s.game.start]
    assert ask and ask[0].budget_ms > an.HINT_BUDGET_MS
    assert par_text(s.cat, 1, Par(ParState.SEARCHING)).startswith("You: 1 move;")
    s.solver_reply(s.game.start, solve(s.game.start, s))
    assert s.par is not None and s.par.state is ParState.KNOWN and s.par.moves == 1


def test_the_par_is_the_starts_solution_however_many_positions_were_solved_since() -> None:
    s = page()
    reply = known(s)  # the start solved when dealt
    # a long game: far more positions solved since than the page remembers (each solution
    # answers for every position along it)
    since = 0
    for deal in range(2, 40):
        if since > an.MAX_KNOWN:
            break
        other = Position.deal(deal)
        answer = solve(other, s)
        s.solver_reply(other, answer)
        since += len(answer.moves)
    assert since > an.MAX_KNOWN and len(s.analysis.known) <= an.MAX_KNOWN
    change = win(s, reply)
    assert [a.path for a in asks(change) if a.position == s.game.start] == [  # not searched again
        (s.game.start, s.analysis.solution(s.game.start))]
    assert s.par == Par(ParState.KNOWN, pb.par(s.game.start, reply.moves, s.game.rules))


def test_a_shorter_solution_of_the_start_after_the_win_lowers_the_par() -> None:
    from freecell.improve import TURNS, Improver

    s = page()
    s.analysis.known.clear()
    first = solve(s.game.start, s)
    win(s, first)  # the player won before the worker knew the start
    assert s.par == Par(ParState.SEARCHING)
    s.solver_reply(s.game.start, first)
    long = pb.par(s.game.start, first.moves, s.game.rules)
    assert s.par == Par(ParState.KNOWN, long)
    imp = Improver(s.game.start, first.moves, s.game.rules, unit=TURNS)
    imp.run(max_nodes=5_000)  # deal 1: 53 turns -> 50
    assert imp.fewest_turns < long
    data = {"type": "improved", "moves": [m.to_json() for m in imp.fewest], "turns": imp.fewest_turns}
    shorter = rp.parse_reply(data, s.game.start, s.game.rules)
    assert isinstance(shorter, rp.SolverReply)
    s.solver_reply(s.game.start, shorter)  # shortened by the worker while the panel is on show
    assert s.par == Par(ParState.KNOWN, imp.fewest_turns)
    assert par_text(s.cat, s.game.moves, s.par) == (
        f"You: {s.game.moves} moves, the solver’s: {imp.fewest_turns}, counted the same way.")


# --- links -----------------------------------------------------------------------------------------


def test_a_shared_link_opens_the_same_game_and_undo_goes_back_to_its_start() -> None:
    s = page("?deal=617")
    for _ in range(2):
        run(s, s.play(s.game.legal_moves()[0]))
    shared = s.keeping.share()
    link = next(e for e in shared.effects if isinstance(e, ch.ShareLink)).query
    assert link == game_link(s.game) and link.startswith("?deal=617&moves=")
    s.open_panel("game")  # share is in the game menu
    assert s.keeping.shared("copied", "http://x/" + link).message == ch.MessageLine(
        "Link copied: it opens this game at this move.")
    assert s.panel is None  # done: the panel closes and the line says so
    other = Session(catalogue(), clock=Clock())
    opened = run(other, other.opening.start(boot_for(link, other.clock)))
    assert other.position == s.position and other.game.moves == 2 and other.panel is None
    assert opened.message == ch.MessageLine("A shared game, at move 2.")
    assert ch.SetAddress() in opened.effects  # the address drops the moves: a reload keeps the game
    run(other, other.undo())
    run(other, other.undo())
    assert other.position == Position.deal(617)


def test_a_link_with_moves_opens_the_link_not_the_game_kept_for_the_deal() -> None:
    local = MemoryStorage()
    s = page("?deal=617", local=local)
    for _ in range(3):
        run(s, s.play(s.game.legal_moves()[0]))
    friend = page("?deal=617", local=MemoryStorage())
    run(friend, friend.play(friend.game.legal_moves()[-1]))
    link = game_link(friend.game)
    assert link is not None
    opened = page(link, local=local)
    assert opened.game.moves == 1 and opened.position == friend.position


@pytest.mark.parametrize(("query", "reason"), [
    ("?deal=617&moves=58.11", "moves.illegal"),
    ("?deal=617&moves=58.zz%3Cb%3E", "moves.garbage"),
    ("?deal=617&moves=" + "58." * 21_000, "moves.too_long"),
    ("?deal=617&variant=klondike&moves=58", "variant.unknown"),
])
def test_a_bad_link_gives_one_line_and_the_plain_deal(query: str, reason: str) -> None:
    s = Session(catalogue(), clock=Clock())
    change = s.opening.start(boot_for(query, s.clock))
    assert s.game.deal == 617 and s.game.moves == 0 and s.variant() == "freecell"
    assert change.message is not None and change.message.reason == "url"
    assert "\n" not in change.message.text and "<" not in change.message.text
    key = "link asks for the game" if reason == "variant.unknown" else "moves in this link cannot be played"
    assert key in change.message.text


def test_a_game_no_variant_names_cannot_be_shared() -> None:
    s = page()
    s.game = Game(1, rules=Rules(free_cells=2))
    change = s.keeping.share()
    assert not change.effects and change.message == ch.MessageLine("This game cannot be given as a link.")


def test_a_failed_copy_shows_the_link_to_copy_by_hand() -> None:
    s = page()
    change = s.keeping.shared("failed", "http://127.0.0.1/?deal=1")
    assert s.panel == "share" and s.keeping.share_url == "http://127.0.0.1/?deal=1"
    assert change.announce == "Copy this link to share the game:"
    assert s.keeping.shared("cancelled", "x") == ch.Change()


# --- the deal of the day ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.dates(min_value=date(1970, 1, 1), max_value=date(2200, 12, 31)))
def test_the_deal_of_the_day_is_a_winnable_deal_the_same_each_time(day: date) -> None:
    n = daily_deal(day)
    assert 1 <= n <= 1_000_000 and n not in UNWINNABLE_DEALS and daily_deal(day) == n


def test_the_deal_of_the_day_changes_with_the_date() -> None:
    days = [DAY + timedelta(days=i) for i in range(365)]
    assert len({daily_deal(d) for d in days}) >= 360
    assert daily_deal(DAY) == 773694  # fixed for ever: every device computes the same


def test_the_daily_button_deals_todays_deal_and_its_win_counts_for_the_day_and_the_streak() -> None:
    local = MemoryStorage()
    local.write(KEY_DAILY, apply_win(None, DAY - timedelta(days=1)).text)  # yesterday's was won
    s = page(local=local)
    change = run(s, s.opening.daily())
    assert s.game.deal == daily_deal(DAY) and s.variant() == "freecell"
    assert change.message == ch.MessageLine(f"Deal of the day: {daily_deal(DAY)}")
    items = {i.name: i for i in daily_items(s.cat, s.progress.daily, DAY, s.game)}
    assert items["daily-solved"].value == "no" and items["daily-here"].value == "yes"
    assert items["daily-streak"].value == "1"  # yesterday's still counts until today is over
    win(s, known(s))
    record = read_daily(local.read(KEY_DAILY))[0]
    assert record.solved(DAY) and record.streak(DAY) == 2 and record.longest == 2
    items = {i.name: i for i in daily_items(s.cat, s.progress.daily, DAY, s.game)}
    assert items["daily-solved"].text == "solved" and items["daily-streak"].text == "2 days"


def test_a_daily_deal_won_after_midnight_counts_for_its_day() -> None:
    game = Game(daily_deal(DAY))
    assert daily_day(game, DAY + timedelta(days=1)) == DAY and daily_day(game, DAY) == DAY
    assert daily_day(game, DAY + timedelta(days=2)) is None
    assert daily_day(Game(daily_deal(DAY), variant="bakers"), DAY) is None


def test_the_daily_record_is_merged_read_against_an_allow_list_and_reset_with_the_stats() -> None:
    text = apply_win(None, DAY).text
    text = apply_win(text, DAY).text  # counted once
    text = apply_win(text, DAY - timedelta(days=3)).text  # another tab, an older day
    record = read_daily(text)[0]
    assert record == DailyRecord((DAY - timedelta(days=3), DAY), 1)
    head = '{"format": "freecell-daily", "version": 1, '
    march = (date(2025, 3, 14), date(2025, 3, 15))
    # what is bad goes alone (a damaged day: said), the rest is kept; what is merely more than this
    # page knows (a field, a newer version) or can be made right (a run longer than said) is no damage
    for bad, want, damaged in [
            (head + '"won": ["2025-3-14"], "longest": 1}', DailyRecord((), 1), True),
            (head + '"won": ["2025-02-30", "2025-03-14"], "longest": 1}', DailyRecord(march[:1], 1), True),
            (head + '"won": [], "longest": 1, "x": 1}', DailyRecord((), 1), False),
            (head + '"won": ["2025-03-14", "2025-03-15"], "longest": 1}', DailyRecord(march, 2), False),
            (head + '"won": ["2025-03-14", "2025-03-14"], "longest": 1}', DailyRecord(march[:1], 1), False),
            ('{"format": "freecell-daily", "version": 2, "won": [], "longest": 0}', DailyRecord(), False),
            ("[]", DailyRecord(), True), ("{", DailyRecord(), True), (None, DailyRecord(), False),
            (5, DailyRecord(), True)]:
        assert read_daily(bad) == (want, damaged), bad
    local = MemoryStorage()
    local.write(KEY_DAILY, text)
    s = page(local=local)
    s.keeping.reset_stats()
    assert read_daily(local.read(KEY_DAILY))[0] == DailyRecord() == s.progress.daily


def test_another_tabs_daily_win_shows_here() -> None:
    local = MemoryStorage()
    s = page(local=local)
    local.write(KEY_DAILY, apply_win(None, DAY).text)
    assert s.keeping.storage_changed(KEY_DAILY).kind == "panel" and s.progress.daily.solved(DAY)


def test_back_closes_a_panel_then_stops_a_playback() -> None:
    """What the browser's Back closes (the page keeps a history entry while there is one)."""
    s = page()
    known(s)
    assert not s.closable
    s.watch.start()
    assert s.closable and s.watch.playback is not None and s.watch.playback.on
    s.open_panel("rules")  # over the playback (a key, say): Back closes the panel first
    assert s.closable and s.back().kind == "panel" and s.panel is None
    assert s.closable and s.back().kind == "watch" and s.watch.playback is None
    assert not s.closable and s.back() == ch.Change()
