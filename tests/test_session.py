"""The headless page (:mod:`freecell.ui.session.session`): every intent and the Change it returns, in CPython.

These tests hold the page's logic (what a tap, an undo, a hint, a solver
reply, a setting does); the browser tests only check that the DOM follows.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from freecell.cards import parse_card
from freecell.engine import check_move, moving_cards
from freecell.game import Game
from freecell.piles import CELL, FOUNDATION, Move, Pile, column
from freecell.position import Position
from freecell.rules import FREECELL, Reason, Refusal
from freecell.ui.address.query import parse_query
from freecell.ui.analysis import analysis as an
from freecell.ui.analysis import replies as rp
from freecell.ui.analysis.analysis import HintState
from freecell.ui.progress.damage import Lost
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.progress import Progress
from freecell.ui.progress.save_entries import SaveOutcome
from freecell.ui.progress.save_format import parse_key
from freecell.ui.progress.settings import Settings, load_settings
from freecell.ui.session import change as ch
from freecell.ui.session.opening import Boot, boot_for
from freecell.ui.session.session import FINISH_STEP_MS, Session
from freecell.ui.text import speech
from freecell.ui.text.bars import hint_text, notice_text
from freecell.ui.text.catalogue import Catalogue
from freecell.ui.text.panels import stuck_text
from freecell.ui.text.status import Item, first_fit, status_items, status_plans, time_item
from freecell.variants import variant
from tests.support.boards import board
from tests.support.sessions import Clock, Wall, asks, catalogue, run, session, solve

# The stuck-panel board of the issue: the last move, J♣ onto Q♥, leaves no legal move.
STUCK = ("Foundations: H-0 C-0 D-0 S-0/Freecells: KH KD KC KS/: TS 5S QS 7C 9S 4D/: QD 7S 6D 7D AC 8H"
         "/: 3D TC 4H 2C 4S 5H/: 6H 2D 6C AH 9D JC/: AS 5C 8C JS TH QH/: 4C 5D AD JH 3S QC"
         "/: 2H TD 8S 8D 9C 7H/: 3C 9H 2S 6S JD 3H")


# --- starting --------------------------------------------------------------------------


def test_start_deals_what_the_address_asks_and_asks_the_solver() -> None:
    s = Session(catalogue(), clock=Clock())
    change = s.opening.start(Boot(parse_query("?deal=617")))
    assert s.game.deal == 617 and change.new_game and change.game_changed and change.redraw
    assert change.message == ch.MessageLine("Deal 617")
    assert [a.position for a in asks(change)] == [s.position]
    assert ch.SetAddress() in change.effects and ch.SaveGame(whole=True) in change.effects


def test_a_bad_address_says_why_and_deals_anyway() -> None:
    s = Session(catalogue(), clock=Clock())
    change = s.opening.start(Boot(parse_query("?deal=banana")))
    assert s.game.deal is not None
    assert change.message is not None and change.message.reason == "url" and "banana" in change.message.text


def test_the_saved_game_comes_back_unless_the_address_asks_for_another() -> None:
    local, tab = MemoryStorage(), MemoryStorage()
    s = session("?deal=617", local=local, tab=tab)
    run(s, s.play(s.game.legal_moves()[0]))
    reload = session("", local=local, tab=tab)
    assert reload.game.deal == 617 and reload.game.moves == 1
    other = session("?deal=5", local=local, tab=tab)
    assert other.game.deal == 5 and other.game.moves == 0
    back = session("?deal=617", local=local, tab=MemoryStorage())  # a new tab asks for it: it goes on
    assert back.game.deal == 617 and back.game.moves == 1


def opened(query: str, local: MemoryStorage, tab: MemoryStorage | None = None) -> tuple[Session, ch.Change]:
    """A page opened at ``query`` as the browser opens it (:func:`boot_for`), and what its start said."""
    s = Session(catalogue(), None, Progress(local, tab if tab is not None else MemoryStorage(), wall=Wall()),
                clock=Clock())
    return s, run(s, s.opening.start(boot_for(query, s.clock)))


def said(change: ch.Change) -> str:
    """The message line, without the isolates around the address's text."""
    assert change.message is not None
    return change.message.text.replace("\u2068", "").replace("\u2069", "")


@pytest.mark.parametrize("query", ["?deal=abc", "?deal=0", "?variant=bogus", "?deal=6%E2%80%8B17",
                                   "?board=JD", "&".join(["x=1"] * 30)])
def test_a_bad_address_brings_back_the_game_in_progress(query: str) -> None:
    """It replaced deal 617, two moves in, with a random deal ("...; here is another deal.")."""
    local, tab = MemoryStorage(), MemoryStorage()
    s = session("?deal=617", local=local, tab=tab)
    play(s, 2)
    for this_tab in (tab, MemoryStorage()):  # a reload, another tab: as a plain address does
        again, change = opened(query, local, this_tab)
        assert again.game.deal == 617 and again.game.moves == 2 and again.position == s.position
        assert change.message is not None and change.message.reason == "url"
        text = said(change)
        assert text.endswith(". Your game is back where you left it.") and "another" not in text


def test_a_bad_address_with_no_game_to_bring_back_deals_and_says_which() -> None:
    s, change = opened("?deal=abc", MemoryStorage())
    assert s.game.deal is not None and s.game.moves == 0
    assert said(change) == ("The address asks for deal “abc”, which does not exist. "
                            f"Here is deal {s.game.deal} of FreeCell.")


@pytest.mark.parametrize(("query", "deal", "variant", "says"), [
    ("?deal=617&variant=bogus", 617, "freecell",
     "The address asks for the game “bogus”, which does not exist. Here is deal 617 of FreeCell."),
    ("?variant=bogus&deal=617", 617, "freecell",
     "The address asks for the game “bogus”, which does not exist. Here is deal 617 of FreeCell."),
    ("?deal=617&variant=EightOff", 617, "eightoff", "Deal 617"),  # the id in any case
    ("?deal=617&variant=SEAHAVEN", 617, "seahaven", "Deal 617"),
    ("?variant=eightoff&deal=abc", None, "eightoff", "The address asks for deal “abc”, which does not exist. "
                                                     "Here is deal {n} of Eight Off."),
])
def test_a_bad_part_of_the_address_leaves_the_good_ones(query: str, deal: int | None, variant: str,
                                                        says: str) -> None:
    """A bad variant threw the good deal away (and a bad deal the good variant): a random classic deal."""
    s, change = opened(query, MemoryStorage())
    assert s.variant() == variant and s.game.moves == 0
    assert deal is None or s.game.deal == deal
    assert said(change) == says.format(n=s.game.deal)
    assert (change.message is not None and change.message.reason == "url") == (says != "Deal 617")


def test_a_bad_variant_beside_a_deal_in_progress_goes_on_with_it() -> None:
    local = MemoryStorage()
    s = session("?deal=617", local=local)
    play(s, 2)
    s2, change = opened("?deal=617&variant=bogus", local)
    assert s2.game.deal == 617 and s2.game.moves == 2
    assert said(change) == ("The address asks for the game “bogus”, which does not exist. "
                            "Your game is back where you left it.")


# --- the table ---------------------------------------------------------------------------


def test_a_move_returns_its_frames_once_and_says_it(monkeypatch: pytest.MonkeyPatch) -> None:
    s = session()
    calls: list[object] = []
    real = speech.apply_move
    monkeypatch.setattr(speech, "apply_move", lambda *a: calls.append(a) or real(*a))
    move = s.game.legal_moves()[0]
    change = s.play(move)
    assert change.kind == "moved" and change.game_changed
    assert change.frames[0] == s.game.turns[-1].before and change.frames[-1] == s.position
    assert change.announce and not calls  # the sentence reuses the frames: no second replay
    assert ch.SaveGame() in change.effects and ch.TellHost("started") in change.effects


def test_a_refused_drop_says_why_and_changes_nothing() -> None:
    s = session()
    before = s.position
    change = s.drop(column(0), 6, column(1))  # 6♠ onto 9♣
    assert change.kind == "refused" and s.position == before and not change.game_changed
    assert change.message is not None and change.message.reason == "not_one_lower"
    assert change.announce == change.message.text


# A run of six in column 1 (9C down to 4H), one free cell (d), one empty column (3).
RUN = board({1: "9C 8D 7S 6H 5C 4H", 2: "TD", 4: "5S 3H", 5: "8H", 6: "9S", 7: "QD"}, "KC KD KH -", bury=8)


def test_a_refusal_names_the_real_cards_and_numbers() -> None:
    s = session()  # deal 1: 6♠ ends column 1, 9♣ column 2
    assert s.drop(column(0), 6, column(1)).announce == "6♠ goes on 7♦ or 7♥, not on 9♣."
    # one free cell, one empty column: 4 onto a card, 2 into the empty column (itself not counted)
    b = session("?board=" + quote(RUN.to_text()))
    top = len(b.position.columns[0]) - 6
    assert b.drop(column(0), top, column(1)).announce == (
        "Too many cards to move at once: at most 4 onto 10♦, not 6 (1 empty free cell, 1 empty column).")
    assert b.drop(column(0), top + 2, column(2)).announce == (
        "Too many cards to move at once: at most 2 into an empty column, not 4 "
        "(1 empty free cell, no other empty column).")
    fr = Session(catalogue("fr"), clock=Clock())
    fr.opening.start(Boot(parse_query("?board=" + quote(RUN.to_text()))))
    assert fr.drop(column(0), top, column(1)).announce == (
        "Trop de cartes à la fois\u202f: 4 au plus sur 10♦, pas 6 (1 cellule libre, 1 colonne vide).")


def test_a_refusal_under_other_rules_says_why() -> None:
    cat = catalogue()
    kings = Refusal(Reason.TOO_MANY_CARDS, 5, 4, cells=3, columns=7)
    assert cat.refusal(kings, variant("seahaven").rules) == (
        "Too many cards to move at once: at most 4, not 5 (3 empty free cells; empty columns take only "
        "kings).")
    king = Refusal(Reason.NOT_ONE_LOWER, card=parse_card("KS"), onto=parse_card("9C"))
    assert cat.refusal(king) == "A king goes only into an empty column, not on 9♣."
    suit = Refusal(Reason.WRONG_SUIT, card=parse_card("8S"), onto=parse_card("9H"))
    assert cat.refusal(suit, variant("bakers").rules) == (
        "Here a card goes only on its own suit: 8♠ goes on 9♠, not on 9♥.")
    colour = Refusal(Reason.WRONG_COLOUR, card=parse_card("8D"), onto=parse_card("9H"))
    assert catalogue("de").refusal(colour) == (
        "Rot und Schwarz müssen sich abwechseln: 8♦ gehört auf 9♣ oder 9♠, nicht auf 9♥.")
    broken = Refusal(Reason.BROKEN_SEQUENCE)
    assert cat.refusal(broken) == "These cards are not a sequence in alternating colours."
    assert cat.refusal(broken, variant("seahaven").rules) == "These cards are not a sequence in one suit."
    assert Catalogue("en", {}).refusal(kings) == "refusal.too_many_kings"  # a missing text shows its key


def test_a_card_refused_by_its_foundation_is_told_the_card_it_waits_for() -> None:
    deal1 = Position.deal(1)  # 6♠ ends column 1, no card home
    refusal = check_move(deal1, Move.parse("1h"), FREECELL)
    assert refusal == Refusal(Reason.NOT_NEXT_FOR_FOUNDATION, card=parse_card("6S"))
    assert catalogue().refusal(refusal) == "Not yet: A♠ goes up before 6♠."
    on_two = Refusal(Reason.NOT_NEXT_FOR_FOUNDATION, card=parse_card("5H"), onto=parse_card("2H"))
    assert catalogue().refusal(on_two) == "Not yet: 3♥ goes up before 5♥."
    assert catalogue("fr").refusal(on_two) == (
        "Pas encore\u202f: 3♥ monte avant 5♥.")


def test_a_drag_asks_where_the_cards_would_land_and_changes_nothing() -> None:
    s = session()  # deal 1: 6♠ ends column 1, 9♣ column 2, 6♥ column 4, A♥ column 7 (K♥ on it)
    before = s.position
    assert s.landing(column(0), 6, column(1)) is None  # 6♠ onto 9♣
    assert s.landing(column(0), 6, column(0)) is None and s.landing(column(0), 6, None) is None
    assert s.landing(column(0), 6, Pile(CELL, 2)) == Pile(CELL, 2)
    assert s.landing(column(0), 5, Pile(CELL, 0)) is None  # 6♦ 6♠ is no run
    b = session("?board=" + quote(board({1: "AH", 2: "2C"}, bury=8).to_text()))
    n = len(b.position.columns[0]) - 1
    assert b.landing(column(0), n, Pile(FOUNDATION, 0)) == Pile(FOUNDATION, 2)  # any foundation: the hearts'
    assert s.position == before and s.table.selection is None and s.game.moves == 0


def test_a_dragged_run_lands_in_one_step_a_tapped_one_step_by_step() -> None:
    query = "?board=" + quote(RUN.to_text())
    tapped, dragged = session(query), session(query)
    two = len(RUN.columns[0]) - 2  # 5♣ 4♥ into the empty column 3: through the free cell
    tapped.tap_card(column(0), two)
    by_tap = tapped.tap_pile(column(2))
    by_drag = dragged.drop(column(0), two, column(2))
    assert by_tap.kind == by_drag.kind == "moved" and tapped.position == dragged.position
    auto = len(dragged.game.turns[-1].auto)
    assert len(by_tap.frames) == 1 + 3 + auto and len(by_drag.frames) == 1 + 1 + auto
    assert by_drag.frames[0] == by_tap.frames[0] and by_drag.frames[-1] == by_tap.frames[-1]


def test_after_a_win_the_status_shows_the_result_not_a_capacity() -> None:
    s = session("?deal=1")
    for m in solution(1):
        run(s, s.play(m))
    items = {i.name: i for i in status_items(s.cat, s.game, s.variant(), s.level, s.verdict(),
                                             show_score=False, show_winnable=False)}
    assert items["capacity"].hidden
    result = items["winnable"]
    assert (result.value, result.text, result.hidden) == ("yes", "Won", False)


def test_the_capacity_is_never_more_than_the_columns_hold() -> None:
    near = "Foundations: H-J C-Q D-K S-K\nFreecells: KH QH - -\n: KC\n" + ":\n" * 7
    s = session("?board=" + quote(near))
    assert s.game.capacity() == 3 * 2**7  # two free cells and seven empty columns
    items = {i.name: i for i in status_items(s.cat, s.game, s.variant(), s.level, s.verdict(),
                                             show_score=False, show_winnable=False)}
    assert (items["capacity"].value, items["capacity"].text) == ("1", "Move up to 1")


def test_finish_with_cards_that_cannot_all_go_up_says_why_nothing_happens() -> None:
    s = session("?deal=1")
    before = s.position
    change = s.finish()
    assert s.position == before and not s.finishing and not s.game.can_finish()
    assert change.message is not None and change.message.text.startswith("Not yet: Finish comes once")
    assert change.announce == change.message.text


def test_the_status_bar_gives_way_step_by_step() -> None:
    s = session("?deal=5&variant=seahaven")
    items = status_items(s.cat, s.game, s.variant(), "easy", s.verdict(), show_score=True, show_winnable=True)
    plans = status_plans(s.cat, items, "easy")
    texts = [{i.name: (i.text if not i.hidden else None) for i in plan} for plan in plans]
    assert texts[0]["variant"] == "Seahaven Towers" and texts[0]["deal"] == "#5 · easy"
    assert texts[1]["variant"] == "Seahaven" and texts[2]["home"] is None
    assert texts[3]["deal"] == "#5" and texts[3]["capacity"] == "Move up to 3"  # Seahaven: 2 cells free
    assert texts[4]["capacity"] == "3 at once" and texts[4]["deal"] == "#5"  # the number stays longer
    assert texts[5]["deal"] is None
    # Seahaven's table shows it (ten columns, two cards in the cells): its name goes before the moves
    assert texts[6]["variant"] is None and texts[6]["moves"] == "Moves 0" and texts[7]["moves"] is None
    assert len(texts) == 8
    for t in texts:  # what always stays
        assert t["capacity"] and t["time" if "time" in t else "capacity"] and t["winnable"] == "Winnable?"
        assert t["score"] == "Score 0"
    # room is kept for the answer to come: "Winnable?" is measured as "✓ Winnable" too, and back
    winnable = next(i for i in items if i.name == "winnable")
    assert (winnable.shown(), winnable.also) == ("Winnable?", "✓ Winnable")
    assert first_fit([[10.0, 10.0], [10.0, 0.0]], room=15, gap=2) == 1


def test_a_variant_that_looks_like_freecell_keeps_its_name_longest() -> None:
    def gone_at(plans: list[list[Item]], name: str) -> int:
        return next(n for n, plan in enumerate(plans) if any(i.name == name and i.hidden for i in plan))

    for variant_id, name_outlasts_moves in (("bakers", True), ("freecell0", False), ("eightoff", False)):
        s = session(f"?deal=5&variant={variant_id}")
        items = status_items(s.cat, s.game, s.variant(), "easy", s.verdict(), show_score=False,
                             show_winnable=True)
        plans = status_plans(s.cat, items, "easy")
        assert (gone_at(plans, "variant") > gone_at(plans, "moves")) == name_outlasts_moves, variant_id


def test_a_lost_game_says_so_in_fewer_words_before_the_moves_give_way() -> None:
    """FreeCell without cells proven lost at 390 px: "Impossible à gagner" (French), "No se puede ganar"
    (Spanish) took the moves' room.  In every language its short form comes first, and is shorter."""
    root = Path(__file__).resolve().parents[1] / "static" / "i18n"
    for path in sorted(root.glob("*.json")):
        cat = Catalogue.from_json(path.stem, path.read_text(encoding="utf-8"))
        game = Game(5, variant="freecell0")
        items = status_items(cat, game, "freecell0", None, rp.Verdict.UNSOLVABLE, show_score=False,
                             show_winnable=True)
        plans = status_plans(cat, items, None)
        shown = [{i.name: (None if i.hidden else i.shown()) for i in plan} for plan in plans]
        long, short = cat.t("status.winnable.never"), cat.t("status.winnable.no_short")
        assert len(short) < len(long), path.stem
        first_short = next(n for n, plan in enumerate(shown) if plan["winnable"] == "✗ " + short)
        assert shown[first_short - 1]["winnable"] == "✗ " + long and shown[first_short]["moves"], path.stem
        assert all(plan["winnable"] == "✗ " + short for plan in shown[first_short:]), path.stem


def test_a_drop_back_where_it_came_from_redraws_in_place() -> None:
    s = session()
    change = s.drop(column(0), 6, column(0))
    assert change.kind == "deselected" and change.redraw and not change.game_changed


def test_undo_and_redo_glide_and_say_so() -> None:
    s = session()
    s.play(s.game.legal_moves()[0])
    after = s.position
    undo = s.undo()
    assert undo.kind == "undone" and undo.frames == (after, s.position)
    assert undo.message == ch.MessageLine("Move undone")
    redo = s.redo()
    assert redo.kind == "redone" and s.position == after and redo.message == ch.MessageLine("Move redone")
    assert s.undo().kind == "undone" and s.undo().message == ch.MessageLine("Nothing to undo")


def test_stuck_panel_undo_brings_the_table_back() -> None:
    """The defect: after the last move the stuck panel's Undo must undo on the table too."""
    s = session("?board=" + STUCK)
    change = s.drop(column(3), 5, column(4))  # J♣ onto Q♥
    assert change.kind == "moved" and s.panel == "stuck" and "No moves left" in change.announce
    before = s.game.turns[-1].before
    undo = s.undo()
    assert undo.kind == "undone" and undo.redraw and undo.game_changed and s.panel is None
    assert s.position == before and s.game.moves == 0
    assert s.redo().kind == "redone" and s.panel == "stuck"
    assert s.opening.replay().kind == "new-game" and s.panel is None and s.position == s.game.start
    assert s.opening.new_deal().new_game and s.panel is None


def test_every_change_of_the_game_cancels_a_press() -> None:
    """A press held while the deal changes (N, undo, the host) must not play on the new game."""
    s = session()
    s.play(s.game.legal_moves()[0])
    assert s.undo().game_changed
    assert s.opening.new_deal().game_changed
    assert s.opening.open_deal(5).game_changed
    s.play(s.game.legal_moves()[0])
    assert s.opening.replay().game_changed
    assert not s.tap_card(column(0), 6).game_changed  # a selection is not a change of the game


def test_selected_cards_follow_the_selection() -> None:
    s = session()
    s.tap_card(column(0), 6)
    assert s.table.selected_cards() == {parse_card("6S")}
    assert s.tap_card(column(0), 6).kind == "deselected" and s.table.selected_cards() == set()


# --- hints and the solver ----------------------------------------------------------------------


def test_a_hint_answers_at_once_then_the_solver_replaces_it() -> None:
    s = session()
    pos = s.position
    change = s.hint()
    bar = s.analysis.bar
    assert bar is not None and bar.state == HintState.FALLBACK and bar.suggestion and bar.move is not None
    assert change.announce == hint_text(s.cat, bar)
    assert change.message == ch.CLEAR  # a quick guess: no tip that Hint again plays it (it may be lost)
    reply = solve(pos, s)
    answer = s.solver_reply(pos, reply)
    assert s.analysis.bar is not None and s.analysis.bar.state == HintState.FOUND
    assert s.analysis.bar.move == reply.moves[0] and answer.announce.startswith("Try this")
    played = s.hint()  # the second press plays it
    assert played.kind == "moved" and s.game.turns[-1].move == reply.moves[0]
    assert s.verdict() is rp.Verdict.SOLVED  # along the known solution
    # the first hint with a move of a solution brings a tip, once: a second press plays it
    again = s.hint()
    assert s.analysis.bar is not None and s.analysis.bar.state == HintState.FOUND
    tip = again.message
    assert tip is not None and tip.text == "Tip: press Hint again to play the move it shows."
    assert s.hint().kind == "moved"
    assert s.hint().message == ch.CLEAR  # once


def test_a_hint_takes_the_refusal_off_the_message_line() -> None:
    """In landscape a refusal stood beside the hint bar that came after it."""
    s = session("?deal=1")
    refused = s.drop(column(1), 6, column(7))
    assert refused.message is not None and refused.message.reason
    assert s.hint().message == ch.CLEAR


def test_a_proof_carries_down_the_line_of_play_until_undone_past() -> None:
    s = session("?deal=11982")
    start = s.position
    first = s.game.legal_moves()[0]
    change = s.play(first)
    (ask,) = asks(change)
    assert ask.keep == start  # the start's undecided search goes on behind
    second = s.game.legal_moves()[0]
    (ask2,) = asks(s.play(second))
    assert ask2.keep == start
    s.hint()
    lost = s.solver_reply(start, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert s.verdict() is rp.Verdict.UNSOLVABLE  # two moves after the proven start
    assert rp.CancelSolver() in lost.effects  # the search of the current position is moot
    assert s.analysis.bar is not None and s.analysis.bar.state == HintState.UNSOLVABLE
    assert s.hint().message == ch.CLEAR  # no tip that Hint again plays a move: there is none
    s.undo()
    assert s.verdict() is rp.Verdict.UNSOLVABLE
    s.undo()
    assert s.position == start and s.verdict() is rp.Verdict.UNSOLVABLE
    s.play(first)
    assert s.verdict() is rp.Verdict.UNSOLVABLE


def test_a_solution_found_under_other_rules_is_not_taken_for_the_same_cards() -> None:
    """Baker's Game deal 22 is FreeCell deal 22's very cards: a late FreeCell answer says nothing."""
    s = session("?deal=22")
    freecell = solve(s.position, s)
    assert freecell.verdict is rp.Verdict.SOLVED
    s.opening.open_deal(22, "bakers")
    assert s.variant() == "bakers" and s.position == Position.deal(22)
    change = s.solver_reply(s.position, freecell)  # e.g. a shortening posted before the change
    assert change.effects == () and s.verdict() is rp.Verdict.UNKNOWN
    assert s.position not in s.analysis.known
    s.solver_reply(s.position, solve(s.position, s))
    assert s.verdict() is rp.Verdict.UNSOLVABLE


def test_a_proof_is_withdrawn_when_the_player_undoes_past_it() -> None:
    s = session()
    s.play(s.game.legal_moves()[0])
    child = s.position
    s.solver_reply(child, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert s.verdict() is rp.Verdict.UNSOLVABLE
    s.undo()
    assert s.verdict() is rp.Verdict.UNKNOWN


def test_back_to_the_last_winnable_position() -> None:
    s = session()
    start = s.position
    s.solver_reply(start, solve(start, s))
    # play off the solution into a position said to be lost
    wrong = next(m for m in s.game.legal_moves() if m != s.analysis.known[start].rest[0])
    s.play(wrong)
    s.hint()
    s.solver_reply(s.position, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    bar = s.analysis.bar
    assert bar is not None and bar.state == HintState.UNSOLVABLE and bar.back == 1
    change = s.back_to_winnable()
    assert change.kind == "jumped" and s.position == start and s.verdict() is rp.Verdict.SOLVED


def test_winnable_only_draws_again_and_the_old_reply_does_not_touch_the_new_deal() -> None:
    """The defect: a lost deal replaced from inside the reply marked the new deal "not winnable"."""
    settings = Settings().with_choice("deal-source", "winnable").with_choice("variant", "freecell0")
    s = session("", settings=settings)
    old = s.position
    change = s.solver_reply(old, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert change.new_game and s.position != old and s.game.variant is not None
    assert s.verdict() is rp.Verdict.UNKNOWN  # the new deal is not marked lost
    again = s.solver_reply(old, rp.SolverReply(rp.Verdict.UNSOLVABLE))  # a late copy of the reply
    assert not again.new_game and s.verdict() is rp.Verdict.UNKNOWN


def test_winnable_only_never_deals_a_game_with_no_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without free cells, 1 deal in 26 has no move at all (deal 1): lost at once, no solver reply
    came to draw again, and "winnable only" dealt a lost game (and the test above failed then)."""
    from freecell.ui.session import opening

    drawn = iter([1, 23, 2])  # 1 and 23 have no move without free cells; 2 has
    monkeypatch.setattr(opening, "draw_deal", lambda source="all": next(drawn))
    settings = Settings().with_choice("deal-source", "winnable").with_choice("variant", "freecell0")
    s = session("?deal=5", settings=settings)
    change = s.opening.new_deal()
    assert change.new_game and s.game.deal == 2 and not s.game.is_stuck()
    assert s.verdict() is rp.Verdict.UNKNOWN
    # from all the deals, a lost one is dealt as it comes (the player chose them all)
    drawn = iter([1])
    s = session("?deal=5", settings=Settings().with_choice("variant", "freecell0"))
    s.opening.new_deal()
    assert s.game.deal == 1 and s.verdict() is rp.Verdict.UNSOLVABLE


def test_a_fresh_deal_gets_its_difficulty() -> None:
    s = session()
    s.solver_reply(s.position, solve(s.position, s))
    assert s.level == "easy"
    items = {i.name: i for i in status_items(s.cat, s.game, s.variant(), s.level, s.verdict(), False, True)}
    assert items["deal"].text == "#1 · easy" and items["winnable"].value == "yes"


def test_a_deal_keeps_its_difficulty_through_a_reload_and_a_new_deal_of_it() -> None:
    """"#1 · easy" became "#1" after a reload (the early table had just shown it): the deal's
    rating is kept, and shown again, mid-game, in another tab and when the deal comes again."""
    local = MemoryStorage()
    s = session(local=local)
    s.solver_reply(s.position, solve(s.position, s))
    play(s, 2)
    assert s.level == "easy"
    again = session("", local=local)  # a reload: the game comes back with its moves
    assert again.game.deal == 1 and again.game.moves == 2 and again.level == "easy"
    items = {i.name: i for i in status_items(again.cat, again.game, again.variant(), again.level,
                                             again.verdict(), False, True)}
    assert items["deal"].text == "#1 · easy"
    assert session("?deal=2", local=local).level is None  # another deal: not rated yet
    eight = session("?deal=1&variant=eightoff", local=local)
    assert eight.level is None  # Eight Off's deal 1 is not FreeCell's
    local.data["freecell.levels"] = "{damaged"  # a rating lost is asked again, not a notice
    assert session("?deal=1", local=local).level is None


def test_the_damaged_notice_names_what_was_lost() -> None:
    """"Saved data could not be read and was reset" said neither what nor that the rest was kept."""
    local = MemoryStorage()
    play(session(local=local), 2)
    (head,) = [k for k in local.data if (key := parse_key(k)) is not None and key.gen is None]
    local.data[head] = "{"  # the game's head: rebuilt from its moves
    local.data["freecell.stats"] = '{"format": "freecell-stats", "version": 2, "played": "x"}'
    again = session("", local=local)
    assert again.game.moves == 2 and again.keeping.notice == "damaged"
    assert again.keeping.lost == {Lost.GAME, Lost.STATS}
    cat = again.cat
    assert notice_text(cat, "damaged", again.keeping.lost) == " ".join(
        [cat.t("notice.damaged_game"), cat.t("notice.damaged_stats")])
    fresh = Session(catalogue(), None, Progress(MemoryStorage(), MemoryStorage(), wall=Wall()), clock=Clock())
    run(fresh, fresh.opening.start(Boot(parse_query("?deal=1"), damaged=True)))  # the settings
    assert fresh.keeping.notice == "damaged" and fresh.keeping.lost == {Lost.SETTINGS}
    assert notice_text(fresh.cat, "damaged", fresh.keeping.lost) == fresh.cat.t("notice.damaged_settings")
    assert session("?deal=1").keeping.notice is None  # nothing lost: nothing said


def test_an_unknown_verdict_resumes_the_search_while_it_makes_progress() -> None:
    """Issue 25: one Hint and waiting reaches a verdict: the search is not dropped after 3 + 20 s."""
    s = session()
    pos = s.position
    s.hint()
    hint = s.game.legal_moves()[0]
    change = s.solver_reply(pos, rp.SolverReply(rp.Verdict.UNKNOWN, hint=hint, nodes=9000))
    (deep,) = asks(change)
    assert deep.position == pos and deep.budget_ms == an.DEEP_BUDGET_MS
    bar = s.analysis.bar
    assert bar is not None and bar.state == HintState.FALLBACK and not bar.suggestion
    for nodes in (19_650, 40_000, 61_000):  # each round searched more: on again
        (deep,) = asks(s.solver_reply(pos, rp.SolverReply(rp.Verdict.UNKNOWN, hint=hint, nodes=nodes)))
        assert deep.position == pos
    # a round that searched next to nothing ended at the memory cap: not asked again
    assert not asks(s.solver_reply(pos, rp.SolverReply(rp.Verdict.UNKNOWN, hint=hint, nodes=61_100)))


def test_a_worker_failure_never_hides_a_suggestion() -> None:
    s = session()
    s.hint()
    s.solver_reply(s.position, rp.SolverFailure("boom"))
    assert s.analysis.bar is not None and s.analysis.bar.state == HintState.FALLBACK
    s.solver_unavailable(first=True, dead=True)
    assert s.analysis.unavailable and not asks(s.play(s.game.legal_moves()[0]))
    bar = s.analysis.show(s.line(), quick=False)
    assert bar.state == HintState.UNAVAILABLE


@pytest.mark.parametrize("data", [
    None, [], "result", {"type": "result"}, {"type": "result", "verdict": "solved", "moves": "3h"},
    {"type": "result", "verdict": "solved", "moves": [{"from": "9", "to": "h", "count": 1}]},
    {"type": "result", "verdict": "solved", "moves": [{"from": "1", "to": "2", "count": 1}]},
    {"type": "result", "verdict": "unknown", "hint": {"from": "1", "to": "2", "count": 1}},
    {"type": "result", "verdict": "unknown", "hint": None, "nodes": -1},
    {"type": "result", "verdict": "unknown", "hint": None, "difficulty": "<b>"},
    {"type": "result", "verdict": "solved", "moves": [{"from": "1"}] * 3000},
])
def test_malformed_replies_are_refused(data: object) -> None:
    assert rp.parse_reply(data, Position.deal(1), Game(1).rules) is None


# --- finish, settings, language --------------------------------------------------------------------

FINISH = """Foundations: C-K D-K H-Q S-J
Freecells: - - - -
: KH
: QS
: KS
:
:
:
:
:
"""


def test_what_the_action_bar_offers_is_the_sessions_to_say() -> None:
    """The buttons, and their shortcuts, ask the session whether they do something now."""
    s = session()
    assert not s.available("undo") and not s.available("redo") and not s.available("replay")
    assert s.available("hint") and s.available("new") and not s.available("finish")
    play(s, 1)
    assert s.available("undo") and s.available("replay") and not s.available("redo")
    s.undo()
    assert s.available("redo") and s.available("replay")
    f = session("?board=" + json.dumps(FINISH)[1:-1].replace("\\n", "/"))
    assert f.available("finish") and not f.available("new")  # Finish takes New deal's place


def test_finish_steps_until_won() -> None:
    s = session("?board=" + json.dumps(FINISH)[1:-1].replace("\\n", "/"))
    assert s.available("finish")
    change = s.finish()
    steps = 1
    while ch.FinishNext(FINISH_STEP_MS) in change.effects:
        change = s.finish_step()
        steps += 1
    assert s.game.is_won() and s.panel == "win" and not s.finishing and steps == 3
    assert ch.TellHost("won") in change.effects


def test_switching_the_language_keeps_the_search_the_hint_and_finish() -> None:
    """The defect: a language switch cancelled the search, cleared the hint and stopped Finish."""
    s = session()
    s.hint()
    bar = s.analysis.bar
    s.finishing = True
    change = s.preferences.set_catalogue(catalogue("fr"))
    assert change.texts and not change.effects
    assert s.analysis.bar == bar and s.finishing and s.analysis.asking == s.position
    assert hint_text(s.cat, bar).startswith("Une première idée")


def test_settings_apply_at_once_and_are_kept() -> None:
    s = session()
    change = s.preferences.set_setting("auto-move", False)
    assert ch.SaveSettings() in change.effects and s.game.auto_move is False
    assert s.preferences.set_setting("auto-move", False).kind == "none"  # no change, nothing to do
    look = s.preferences.set_setting("four-colour", True)
    assert look.kind == "settings" and look.redraw
    lang = s.preferences.set_setting("language", "de")
    assert ch.LoadLanguage("de") in lang.effects
    assert s.preferences.set_setting("language", "xx").kind == "none"
    assert s.preferences.set_setting("tap", "smart").kind == "settings" and s.table.smart
    off = s.preferences.set_setting("winnability", False)
    assert rp.CancelSolver() in off.effects


def test_the_timer_can_be_hidden_and_the_choice_is_kept() -> None:
    s = session()
    assert not time_item(s.cat, s.game, s.settings.flag("timer")).hidden  # on by default
    change = s.preferences.set_setting("timer", False)
    assert ch.SaveSettings() in change.effects and not change.redraw  # the status bar only
    assert time_item(s.cat, s.game, s.settings.flag("timer")).hidden
    assert load_settings(s.settings.to_json()) == (s.settings, False)  # kept with the settings


def test_a_dead_board_says_so_at_start() -> None:
    s = Session(catalogue(), clock=Clock())
    change = s.opening.start(Boot(parse_query("?board=" + STUCK)))
    assert s.panel is None  # one move is left on that board
    s.drop(column(3), 5, column(4))
    dead = s.line()[-1].to_text().replace("\n", "/")
    fresh = Session(catalogue(), clock=Clock())
    change = fresh.opening.start(Boot(parse_query("?board=" + dead)))
    # lost at once, without asking the worker (the status said "Winnable?" while it booted)
    assert fresh.verdict() is rp.Verdict.UNSOLVABLE
    assert not any(isinstance(e, rp.AskSolver) for e in change.effects), change.effects
    # with no move made, the words offer only a new deal: Undo and Replay have nothing to do
    assert fresh.panel == "stuck" and change.announce == "No legal move from this deal. Start a new one."
    assert stuck_text(fresh.cat, 0) == "This deal allows no legal move at all. Start a new one."
    assert stuck_text(s.cat, s.game.moves).startswith("No legal move is left on the table. Undo the last")


# --- every game kept: tabs, unfinished games, statistics (issue 17) -----------------------------


def play(s: Session, n: int = 1) -> None:
    for _ in range(n):
        run(s, s.play(s.game.legal_moves()[0]))


def solution(deal: int) -> list[Move]:
    return [Move.parse(t) for t in (Path(__file__).parent / "data" / "solutions" / f"deal_{deal}.txt")
            .read_text().split()]


def test_two_tabs_play_two_games_and_both_are_kept_whichever_closes_last() -> None:
    for order in ("ab", "ba"):
        local = MemoryStorage()
        a, b = session("?deal=1", local=local), session("?deal=2", local=local)
        play(a, 2)
        play(b, 3)
        closing = (a, b) if order == "ab" else (b, a)
        for tab in closing:
            run(tab, tab.keeping.hidden())
        games = {(g.deal, g.moves) for g in a.progress.unfinished()}
        assert games == {(1, 2), (2, 3)}
        again_a = session("?deal=1", local=local)
        again_b = session("?deal=2", local=local)
        assert (again_a.game.moves, again_b.game.moves) == (2, 3)


def test_a_tab_never_overwrites_newer_moves_of_another() -> None:
    local, memory = MemoryStorage(), MemoryStorage()
    a = session("?deal=1", local=local, tab=memory)
    play(a, 1)
    b = session("", local=local, tab=MemoryStorage())  # a second tab takes up the same game
    assert b.game.deal == 1 and b.progress.game_id == a.progress.game_id
    play(b, 2)
    key = next(k for k in local.keys() if k.startswith("freecell.save.") and k.count(".") == 4)  # noqa: SIM118
    assert a.keeping.storage_changed(key).kind == "panel" and a.keeping.notice == "other-tab"
    play(a, 1)  # not saved over the other tab's moves
    assert session("?deal=1", local=local, tab=MemoryStorage()).game.moves == 3
    a.opening.resume()  # the notice's button: the other tab's moves, here
    assert a.game.moves == 3 and a.keeping.notice is None


def test_statistics_from_two_tabs_are_merged() -> None:
    local = MemoryStorage()
    a = session("?deal=1", local=local)
    b = session("?deal=617", local=local)
    for move in solution(1):
        run(a, a.play(move))
    assert a.game.is_won()
    play(b, 1)  # tab B's first move, after A's win
    tally = session("?deal=5", local=local).progress.tally
    assert (tally.played, tally.won) == (2, 1)
    record = tally.best("freecell:1")
    assert record is not None and record.fewest_moves == a.game.moves


def test_new_deal_can_be_taken_back_and_counts_nothing() -> None:
    local = MemoryStorage()
    s = session("?deal=617", local=local)
    play(s, 2)
    new = run(s, s.opening.new_deal())
    assert s.game.deal != 617 or s.game.moves == 0
    # the line says so: the game is not lost
    assert new.message == ch.MessageLine(f"Deal {s.game.deal}. Undo brings back the game you left.")
    kept = s.progress.store.unfinished()[0].id
    assert s.progress.tally.streak == 0 and s.progress.tally.open_games() == (kept,)
    back = run(s, s.undo())  # Undo on the fresh deal: back to the game left
    assert s.game.deal == 617 and s.game.moves == 2
    assert back.message is not None and "617" in back.message.text
    assert s.progress.tally.played == 1


def test_a_link_whose_moves_cannot_be_read_resumes_the_players_game_of_its_deal() -> None:
    """It opened a fresh copy of the deal beside the player's own: two "Deal 617" in the list."""
    local, tab = MemoryStorage(), MemoryStorage()
    s = session("?deal=617", local=local, tab=tab)
    play(s, 3)
    again = Session(catalogue(), None, Progress(local, tab, wall=Wall()), clock=Clock())
    change = run(again, again.opening.start(boot_for("?deal=617&moves=zzz")))
    assert again.game.deal == 617 and again.game.moves == 3
    assert change.message == ch.MessageLine(
        "The moves in this link cannot be played; your own game of this deal goes on.", "url")
    assert len(again.progress.unfinished()) == 1
    # with no game of the deal kept: the deal from its start, as before
    fresh = Session(catalogue(), None, Progress(MemoryStorage(), MemoryStorage(), wall=Wall()), clock=Clock())
    change = run(fresh, fresh.opening.start(boot_for("?deal=617&moves=zzz")))
    assert fresh.game.deal == 617 and fresh.game.moves == 0
    assert change.message is not None
    assert change.message.text == "The moves in this link cannot be played; here is the deal from its start."


def test_replay_abandons_a_started_game_once_the_replay_starts() -> None:
    s = session("?deal=617")
    play(s, 1)
    old = s.progress.game_id
    change = run(s, s.opening.replay())
    assert change.new_game and change.game_changed and s.position == s.game.start and s.game.deal == 617
    assert change.message == ch.MessageLine("Deal 617 from the start. Undo brings back the game you left.")
    # kept until the replay's first move: nothing counted yet, the game still listed
    assert s.progress.tally.played == 1 and s.progress.tally.open_games() == (old,)
    play(s, 1)
    assert s.progress.tally.played == 2 and old not in s.progress.tally.open_games()
    assert [g.id for g in s.progress.unfinished()] == [s.progress.game_id]
    assert s.undo().kind == "undone" and s.undo().kind == "none"  # nothing to go back to now


def test_replay_taken_back_by_undo_brings_the_game_back() -> None:
    """One stray Shift+N loses nothing: Undo on the fresh replay is the game as it was."""
    s = session("?deal=617")
    play(s, 3)
    before, turns = s.position, [t.text() for t in s.game.turns]
    run(s, s.opening.replay())
    assert s.available("undo") and not s.game.can_undo()  # the Undo button and key stay on for it
    back = run(s, s.undo())
    assert back.new_game and s.position == before and [t.text() for t in s.game.turns] == turns
    assert back.message is not None and "617" in back.message.text
    assert s.progress.tally.played == 1 and s.progress.tally.streak == 0


def test_replay_of_a_fresh_or_won_game() -> None:
    s = session("?deal=1")
    assert not s.available("replay") and s.opening.replay() == ch.Change()  # nothing to replay
    for m in solution(1):
        run(s, s.play(m))
    assert s.game.is_won() and s.available("replay")
    change = run(s, s.opening.replay())
    assert s.game.moves == 0 and s.game.deal == 1 and s.panel is None
    assert change.message == ch.MessageLine("Deal 1 from the start.")  # a won game is not kept
    assert s.progress.tally.won == 1
    stuck = session("?board=" + STUCK)
    run(stuck, stuck.drop(column(3), 5, column(4)))
    assert run(stuck, stuck.opening.replay()).message == ch.MessageLine(
        "The game from its start. Undo brings back the game you left.")
    assert stuck.position == stuck.game.start and stuck.game.deal is None


def test_the_unfinished_list_is_bounded_and_the_oldest_goes() -> None:
    local, tab, wall = MemoryStorage(), MemoryStorage(), Wall()
    s = session("?deal=100", local=local, tab=tab, wall=wall)
    for n in range(100, 122):
        run(s, s.opening.open_deal(n))
        play(s, 1)
        wall.ms += 60_000
    deals = {g.deal for g in s.progress.unfinished()}
    assert len(deals) == 20 and 100 not in deals and 101 not in deals and 121 in deals
    assert len(s.progress.tally.open_games()) == 20  # the dropped ones were abandoned


def test_opening_a_deal_with_an_unfinished_game_resumes_it() -> None:
    local = MemoryStorage()
    s = session("?deal=617", local=local)
    play(s, 2)
    run(s, s.opening.open_deal(5))
    change = run(s, s.opening.open_deal(617))
    assert change.new_game and s.game.deal == 617 and s.game.moves == 2


@pytest.mark.parametrize("moves", [0, 2])
def test_asking_for_the_deal_on_the_table_keeps_the_game_as_it_is(moves: int) -> None:
    """It restarted deal 617 at move 0, and asked again, switched back: two games flipping."""
    s = session("?deal=617")
    play(s, moves)
    position = s.position
    line = "You are playing deal 617; “Replay deal” starts it over."
    for _ in range(3):
        s.open_panel("game")
        change = run(s, s.opening.play_deal("617"))  # the game menu's deal field
        assert not change.new_game and not change.game_changed and s.panel is None
        assert s.game.moves == moves and s.position == position
        assert change.message is not None and change.message.text == line
        change = run(s, s.opening.open_deal(617))  # the host's deal command, sent again
        assert not change.new_game and s.game.moves == moves and change.announce == line
        assert change.message is not None and change.message.text == line
    assert len(s.progress.unfinished()) == (1 if moves else 0)
    assert run(s, s.opening.open_deal(617, "bakers")).new_game  # another variant: another game
    assert s.variant() == "bakers" and s.game.moves == 0


def test_asking_for_a_won_deal_on_the_table_deals_it_again() -> None:
    s = session("?deal=1")
    for move in solution(1):
        run(s, s.play(move))
    assert s.game.is_won()
    change = run(s, s.opening.open_deal(1))
    assert change.new_game and s.game.deal == 1 and s.game.moves == 0


def test_what_a_write_gave_comes_back_as_an_intent() -> None:
    """The page writes (the effects), then tells the session; the notice line is the session's."""
    s = session()
    assert s.keeping.saved(SaveOutcome.SAVED) is None and s.keeping.notice is None
    conflict = s.keeping.saved(SaveOutcome.CONFLICT)
    assert conflict is not None and conflict.kind == "panel" and s.keeping.notice == "other-tab"
    s.keeping.close_notice()
    assert s.keeping.saved(SaveOutcome.FAILED) is not None and s.keeping.notice == "storage"
    assert s.keeping.storage_failed() is not None  # settings not written: said once a page load
    assert s.keeping.storage_failed() is None


def test_storage_full_says_so_again_after_a_minute() -> None:
    wall = Wall()
    s = session("?deal=617", local=MemoryStorage(quota=100), wall=wall)
    play(s, 1)
    assert s.keeping.notice == "storage"
    s.keeping.close_notice()
    play(s, 1)
    assert s.keeping.notice is None  # not at every move
    wall.ms += 61_000
    play(s, 1)
    assert s.keeping.notice == "storage"


# --- what the page sends the worker ----------------------------------------------------------------


def test_a_move_off_a_known_solution_sends_that_solution_and_the_worker_takes_it() -> None:
    from freecell.worker import Service

    s = session("?deal=617")
    s.solver_reply(s.position, solve(s.position, s))
    for _ in range(12):  # along the known solution: nothing to ask
        (move,) = s.analysis.known[s.position].rest[:1]
        assert not asks(s.play(move))
    start = s.position
    rest = s.analysis.known[start].rest
    wrong = next(m for m in s.game.legal_moves() if m != rest[0] and m.dst.kind != 2)
    (ask,) = asks(s.play(wrong))
    assert ask.path == (start, rest) and ask.keep is None
    nodes = []
    for sent in (ask, rp.Ask(ask.position, ask.rules, ask.budget_ms)):  # with the path, and without
        service = Service()
        assert service.receive(json.dumps(rp.solve_message(sent, 1))) == []  # accepted
        replies = []
        while service.busy:
            replies += service.step()
        (result,) = [r for r in replies if r["type"] == "result"]
        reply = rp.parse_reply(result, ask.position, s.game.rules)
        assert isinstance(reply, rp.SolverReply) and reply.verdict is rp.Verdict.SOLVED
        nodes.append(reply.nodes)
    assert nodes[0] < nodes[1], nodes  # back onto the known solution sooner


def test_the_kept_search_is_named_in_the_message() -> None:
    from freecell.worker import Service

    s = session("?deal=11982")
    service = Service()
    first = rp.Ask(s.position, s.game.rules, an.HINT_BUDGET_MS)
    assert service.receive(json.dumps(rp.solve_message(first, 1))) == []
    service.step()
    (ask,) = asks(s.play(s.game.legal_moves()[0]))
    out = service.receive(json.dumps(rp.solve_message(ask, 2, keep=1)))
    assert not any(m.get("type") == "error" for m in out)


def test_an_ancestors_search_out_of_budget_goes_on_behind_while_it_progresses() -> None:
    s = session("?deal=11982")
    start = s.position
    play(s, 2)
    current = s.position
    change = s.solver_reply(start, rp.SolverReply(rp.Verdict.UNKNOWN))  # its 3 s ran out, behind
    deep, again = asks(change)
    assert deep.position == start and deep.budget_ms == an.DEEP_BUDGET_MS
    assert again.position == current and again.keep == start
    assert s.analysis.background == start and s.analysis.asking == current
    assert not asks(s.solver_reply(start, rp.SolverReply(rp.Verdict.UNKNOWN)))  # no progress: no more


# --- issue 25: a lost game told as it is -------------------------------------------------------


def winnable_text(s: Session) -> str:
    items = {i.name: i for i in status_items(s.cat, s.game, s.variant(), s.level, s.verdict(), False, True,
                                             loss=s.analysis.loss(s.line()))}
    return items["winnable"].text


def test_a_deal_lost_from_its_start_is_never_no_longer_winnable() -> None:
    s = session("?deal=617&variant=seahaven")
    start = s.position
    s.solver_reply(start, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert s.analysis.loss(s.line()) is an.Loss.DEAL
    assert winnable_text(s) == "Cannot be won"
    s.hint()
    bar = s.analysis.bar
    assert bar is not None and hint_text(s.cat, bar) == "This deal cannot be won. Try another one."
    s.play(s.game.legal_moves()[0])  # still the deal's loss, moves later
    assert s.analysis.loss(s.line()) is an.Loss.DEAL and "longer" not in winnable_text(s)


def test_a_position_lost_by_the_last_move_says_so() -> None:
    s = session()
    start = s.position
    s.solver_reply(start, solve(start, s))
    wrong = next(m for m in s.game.legal_moves() if m != s.analysis.known[start].rest[0])
    s.play(wrong)
    s.solver_reply(s.position, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert s.analysis.loss(s.line()) is an.Loss.MOVE
    assert winnable_text(s) == "No longer winnable"
    s.hint()
    bar = s.analysis.bar
    assert bar is not None
    assert hint_text(s.cat, bar) == "Since your last move this game cannot be won. Undo it to play on."
    s.play(s.game.legal_moves()[0])  # a move later: lost earlier, the plain sentence and the way back
    assert s.analysis.loss(s.line()) is an.Loss.EARLIER
    s.hint()
    bar = s.analysis.bar
    assert bar is not None and bar.back == 2 and hint_text(s.cat, bar).startswith("No solution from here")


def test_a_loss_proven_with_nothing_winnable_before_blames_no_move() -> None:
    """Deal 11982 played on: a later position proven lost, the start never rated."""
    s = session("?deal=11982")
    play(s, 3)
    s.solver_reply(s.position, rp.SolverReply(rp.Verdict.UNSOLVABLE))
    assert s.analysis.loss(s.line()) is an.Loss.UNSURE
    assert winnable_text(s) == "Cannot be won"


def test_an_unrated_hint_says_it_is_not_proven_yet() -> None:
    s = session()
    pos = s.position
    s.hint()
    hint = s.game.legal_moves()[0]
    s.solver_reply(pos, rp.SolverReply(rp.Verdict.UNKNOWN, hint=hint, nodes=5000))
    bar = s.analysis.bar
    assert bar is not None and bar.state == HintState.FALLBACK
    assert hint_text(s.cat, bar).startswith("Not proven yet")
    assert "Try this" not in hint_text(s.cat, bar)


@pytest.mark.parametrize("lang", ["en", "fr", "it", "ro", "de", "es"])
def test_a_hint_of_several_cards_names_their_count_and_the_first(lang: str) -> None:
    """"Try this: 7♥ to column 6." moved 7♥ and the 6♠ on it: a player looked for one card."""
    pos = Game(12).position
    run = Move.parse("15x2")  # deal 12: the 9♦ and the 8♣ on it, from column 1 to column 5
    assert len(moving_cards(pos, run)) == 2 and moving_cards(pos, run)[0] == parse_card("9D")
    cat = catalogue(lang)
    text = hint_text(cat, an.HintBar(HintState.FOUND, pos, run))
    assert text == cat.t("hint.found", card=cat.t("where.run", count=2, card="9♦"),
                         where=cat.t("where.column", n=5))
    if lang == "en":
        assert text == "Try this: 2 cards headed by 9♦ to column 5."


def test_the_message_line_is_said_again_in_another_language() -> None:
    """"Deal 1" stayed English after a switch: the line carries how to say it again."""
    s = session()
    change = s.install(Game(7))
    line = change.message
    assert line is not None and line.text == "Deal 7" and line.again is not None
    assert line.again(catalogue("fr")) == catalogue("fr").t("deal.started", n=7) != line.text
    switched = s.preferences.set_catalogue(catalogue("fr"))
    assert switched.texts and switched.message is None  # the page says the line on show anew


def test_the_first_card_selected_by_a_tap_brings_one_tip() -> None:
    local = MemoryStorage()
    s = session("?board=" + quote(Game(1).position.to_text()), local=local)
    pos = s.position
    card = next((i, len(c) - 1) for i, c in enumerate(pos.columns)
                if s.table._home_move(column(i), len(c) - 1) is None)
    first = s.tap_card(column(card[0]), card[1])
    assert first.kind == "selected" and first.message is not None
    assert first.message.text.startswith("Tip: a double tap")
    s.tap_nothing()
    again = s.tap_card(column(card[0]), card[1])
    assert again.kind == "selected" and again.message is None  # once
    moved = s.double_tap(column(card[0]), card[1])
    assert moved.kind in ("moved", "selected")
    # once for good: a later visit, or another tab, says it no more
    later = session("?board=" + quote(Game(1).position.to_text()), local=local)
    tapped = later.tap_card(column(card[0]), card[1])
    assert tapped.kind == "selected" and tapped.message is None
    # where nothing could be kept, once a page session
    local.write("freecell.tips", "{damaged")
    fresh = session("?board=" + quote(Game(1).position.to_text()), local=local)
    tip = fresh.tap_card(column(card[0]), card[1]).message
    assert tip is not None and tip.text.startswith("Tip: a double tap")


def test_the_clock_stands_still_while_a_panel_covers_the_table() -> None:
    """The timer ran on while the player read the rules or changed a setting."""
    s = session("?deal=1")
    clock = s.clock
    assert isinstance(clock, Clock)
    s.play(s.game.legal_moves()[0])
    clock.t += 10
    s.open_panel("rules")
    clock.t += 100  # reading the rules
    s.keeping.hidden()
    s.keeping.shown()  # the page hidden and shown again: the panel is still open
    clock.t += 50
    s.close_panels()
    clock.t += 5
    assert round(s.game.elapsed()) == 15
