"""What a screen reader hears: accessible names and announcements, from the real catalogues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from freecell.cards import parse_card
from freecell.game import Game
from freecell.piles import Move, cell, column, foundation
from freecell.position import Position
from freecell.ui.analysis.playback import Par, ParState
from freecell.ui.progress.save_entries import Summary
from freecell.ui.table.table import Selection
from freecell.ui.text.catalogue import Catalogue
from freecell.ui.text.panels import par_text, unfinished_items
from freecell.ui.text.sentences import won
from freecell.ui.text.speech import (
    accessible_names,
    card_words,
    column_card_label,
    move_sentence,
    pile_label,
    pile_name,
    plural,
    selection_sentence,
    turn_sentence,
)
from tests.support.tables import board_from_parts

I18N = Path(__file__).resolve().parent.parent / "static" / "i18n"


def cat(lang: str) -> Catalogue:
    return Catalogue.from_json(lang, (I18N / f"{lang}.json").read_text(encoding="utf-8"))


EN, FR = cat("en"), cat("fr")
# column 3 holds six cards, the queen of spades fourth
BOARD = board_from_parts(
    {1: "9H 8S 7H 6S", 2: "TC", 3: "QS", 4: "KS", 5: "AD", 6: "JS", 7: "8C", 8: "5D"},
    cells="KC - - -", foundations=(0, 0, 5, 0),
)


def test_every_card_has_words_in_both_languages() -> None:
    for c in (EN, FR):
        names = [card_words(c, card) for card in range(52)]
        assert len(set(names)) == 52
        assert not any("card." in n or "{" in n for n in names), names
    assert card_words(EN, parse_card("QS")) == "queen of spades"
    assert card_words(FR, parse_card("QS")) == "dame de pique"
    assert card_words(FR, parse_card("AH")) == "as de cœur"
    assert card_words(EN, parse_card("TD")) == "ten of diamonds"


def test_pile_names() -> None:
    assert pile_name(EN, column(2)) == "column 3"
    assert pile_name(EN, cell(0)) == "free cell a"
    assert pile_name(EN, foundation(2)) == "foundation hearts"
    assert pile_name(FR, cell(3)) == "cellule libre d"
    assert pile_name(FR, foundation(3)) == "fondation pique"
    assert pile_name(FR, column(7)) == "colonne 8"


def test_column_card_names() -> None:
    col = tuple(parse_card(t) for t in ("2H", "5C", "9D", "QS", "JH", "TC"))
    pos = Position(((),) * 2 + (col,) + ((),) * 5, (None,) * 4)
    assert column_card_label(EN, pos, 2, 3) == "queen of spades, column 3, card 4 of 6"
    assert column_card_label(FR, pos, 2, 3) == "dame de pique, colonne 3, carte 4 sur 6"
    assert column_card_label(EN, pos, 2, 5, selected=True) == "ten of clubs, column 3, card 6 of 6, selected"


def test_pile_labels() -> None:
    assert pile_label(EN, BOARD, cell(1)) == "free cell b, empty"
    assert pile_label(EN, BOARD, cell(0)) == "free cell a: king of clubs"
    assert pile_label(EN, BOARD, foundation(2)) == "foundation hearts: five of hearts"
    assert pile_label(EN, BOARD, foundation(0)) == "foundation clubs, empty"
    assert pile_label(FR, BOARD, foundation(2)) == "fondation cœur\u00a0: cinq de cœur"
    assert pile_label(FR, BOARD, cell(1)) == "cellule libre b, vide"


def test_accessible_names_cover_every_target_once() -> None:
    sel = Selection(column(0), len(BOARD.columns[0]) - 3, 3)
    cards, piles = accessible_names(EN, BOARD, sel)
    named = [c for c, n in cards.items() if n is not None]
    assert sorted(named) == sorted(c for col in BOARD.columns for c in col)  # column cards only
    assert all(piles[column(i)] is None for i in range(8))  # no empty column here
    assert {p.text() for p, n in piles.items() if n is not None} == {*"abcd", "h1", "h2", "h3", "h4"}
    selected = [n for n in cards.values() if n and n.endswith(", selected")]
    assert len(selected) == 3
    assert cards[parse_card("6S")] == f"six of spades, column 1, card {len(BOARD.columns[0])} of " \
        f"{len(BOARD.columns[0])}, selected"
    empty = Position(((),) + BOARD.columns[1:], BOARD.cells, BOARD.foundations)
    _, piles = accessible_names(EN, empty, None)
    assert piles[column(0)] == "column 1, empty"


def test_move_words() -> None:
    pos = BOARD
    assert move_sentence(EN, pos, Move.parse("2b")) == "ten of clubs to free cell b"
    assert move_sentence(EN, pos, Move.parse("13x3")) == "3 cards headed by eight of spades to column 3"
    assert move_sentence(FR, pos, Move.parse("2b")) == "dix de trèfle dans la cellule libre b"
    seven = Game(position=board_from_parts(
        {1: "7H", 2: "KS", 3: "QH", 4: "8C", 5: "9D", 6: "5S", 7: "4H", 8: "6C"}))
    turn = seven.play(Move.parse("14"))
    assert turn_sentence(EN, turn) == "seven of hearts to column 4"
    assert turn_sentence(FR, turn) == "sept de cœur sur la colonne 4"


def test_auto_moves_are_said_after_the_move() -> None:
    game = Game(position=board_from_parts(
        {1: "AH 5C", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"}, cells="- 2H - -"))
    turn = game.play(Move.parse("1a"))
    assert turn_sentence(EN, turn) == (
        "five of clubs to free cell a Also to the foundations: ace of hearts, two of hearts.")
    home = Game(position=board_from_parts(
        {1: "3D", 2: "KS", 3: "QH", 4: "JC", 5: "9D", 6: "8S", 7: "7H", 8: "6C"}, foundations=(1, 2, 0, 2)))
    assert turn_sentence(EN, home.play(Move.parse("1h"))) == "three of diamonds to its foundation"


def test_selection_words() -> None:
    n = len(BOARD.columns[0])
    assert selection_sentence(EN, BOARD, Selection(column(0), n - 1, 1)) == "six of spades selected"
    assert selection_sentence(EN, BOARD, Selection(column(0), n - 3, 3)) == (
        "3 cards selected, headed by eight of spades")
    assert selection_sentence(FR, BOARD, Selection(cell(0), 0, 1)) == "Sélection\u00a0: roi de trèfle"


@pytest.mark.parametrize(("lang", "n", "want"), [
    ("en", 1, "1 card"), ("en", 3, "3 cards"), ("fr", 1, "1 carte"), ("fr", 2, "2 cartes"),
    ("fr", 0, "0 carte"), ("en", 0, "0 cards"),
    ("ro", 1, "1 carte"), ("ro", 5, "5 cărți"), ("ro", 19, "19 cărți"), ("ro", 20, "20 de cărți"),
    ("ro", 45, "45 de cărți"), ("ro", 101, "101 cărți"), ("ro", 120, "120 de cărți"), ("ro", 0, "0 cărți"),
])
def test_plural(lang: str, n: int, want: str) -> None:
    assert plural(cat(lang), "picker.count", n) == want


def test_refusal_words_are_the_message_line_words() -> None:
    game = Game(deal=1)
    refusal = game.check(Move.parse("28"))
    assert refusal is not None
    data = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    words = data["reason.wrong_colour"].format(card="9♣", bases="10♦ or 10♥", onto="10♣")
    assert EN.refusal(refusal) == words


@pytest.mark.parametrize(("lang", "moves", "watched", "want"), [
    ("en", 1, False, "You: 1 move, the solver’s: 1, counted the same way."),
    ("en", 44, True, "The solver’s own solution from the deal: 47 moves, counted the same way."),
    # a watched game longer than the solver's: a shorter one came after the playback started
    ("en", 53, True, "The solver knows a shorter one from the deal: 47 moves, counted the same way."),
    ("de", 53, True, "Der Löser kennt ab dem Geben eine kürzere: 47 Züge, gleich gezählt."),
    ("ro", 44, True, "Soluția programului de rezolvare de la împărțire: 47 de mutări, numărate la fel."),
    ("ro", 44, False, "Tu: 44 de mutări, programul de rezolvare: 47, numărate la fel."),
    ("ro", 19, False, "Tu: 19 mutări, programul de rezolvare: 47, numărate la fel."),
])
def test_the_par_line_counts_the_moves_in_words(lang: str, moves: int, watched: bool, want: str) -> None:
    par = Par(ParState.KNOWN, 1 if moves == 1 else 47)
    assert par_text(cat(lang), moves, par, watched) == want


class _Finished:
    """What the won sentence reads of a game: its move count and its time."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def elapsed(self) -> float:
        return 65.0


@pytest.mark.parametrize(("lang", "moves", "watched", "want"), [
    ("en", 1, False, "You won in 1 move, time 1:05."),
    ("en", 44, False, "You won in 44 moves, time 1:05."),
    ("en", 1, True, "Solved in 1 move, time 1:05."),
    ("de", 1, False, "Sie haben in 1 Zug gewonnen, Zeit: 1:05."),
    ("de", 44, True, "Gelöst in 44 Zügen, Zeit: 1:05."),
    ("fr", 1, False, "Vous avez gagné en 1 coup, temps\u00a0: 1:05."),
    ("ro", 45, False, "Ai câștigat în 45 de mutări, timp: 1:05."),
    ("ro", 1, True, "Rezolvat în 1 mutare, timp: 1:05."),
])
def test_the_won_sentence_counts_its_moves(lang: str, moves: int, watched: bool, want: str) -> None:
    assert won(cat(lang), _Finished(moves), watched) == want  # type: ignore[arg-type]


def test_the_unfinished_list_says_which_game_is_on_the_table() -> None:
    """The game on the table was listed like the others ("16 minutes ago": when it was last saved)."""
    minute = 60_000.0
    now = 1_700_000_000_000.0
    games = [Summary("a", "freecell", 617, None, 1, 0, 0, False, now - 16 * minute, 1),
             Summary("b", "bakers", 5, None, 7, 0, 3, False, now - 5 * minute, 1),
             Summary("c", None, None, "board", 1, 0, 0, False, now - 3 * 1440 * minute, 1)]
    assert unfinished_items(EN, games, now, current="a") == [
        ("b", "Deal 5, Baker’s Game · 7 moves · 5 minutes ago", False),
        ("a", "Deal 617 · 1 move · on the table", True),
        ("c", "A position · 1 move · 3 days ago", False),
    ]
