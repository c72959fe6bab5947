"""The table as the tests expect it: known solutions, where each of the 52 cards lies, boards by hand.

Shared by the CPython tests and the browser tests (``tests/browser/helpers.py``
imports these under the same names).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from builder.pointer import Layout as Layout
from builder.pointer import expected_layout as expected_layout
from freecell.cards import make_card, parse_card
from freecell.game import Game
from freecell.piles import Move
from freecell.position import Position

SOLUTIONS = Path(__file__).resolve().parents[1] / "data" / "solutions"



def solution_lines(deal: int) -> list[str]:
    """The known solution of a deal: one move per line, in our notation."""
    return (SOLUTIONS / f"deal_{deal}.txt").read_text().split()


def replay_solution(deal: int) -> Game:
    game = Game(deal=deal, auto_move=True)
    for line in solution_lines(deal):
        game.play(Move.parse(line))
    return game

def board_from_parts(
    columns: Mapping[int, str],
    cells: str = "",
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Position:
    """A position from the cards that matter; every other card is buried.

    ``columns`` maps column numbers (1-8) to their exposed part, top card
    first (``"9H 8S 7H 6S"``); ``cells`` is ``"KC KS - -"``; ``foundations``
    counts the cards home per suit (clubs, diamonds, hearts, spades).  The
    cards neither named nor home are dealt round-robin over the columns,
    *above* (deeper than) the named cards, so they change nothing that can
    move.  Every column gets at least one named card.
    """
    named_cols = {i: [parse_card(t) for t in columns.get(i, "").split()] for i in range(1, 9)}
    assert all(named_cols.values()), "name at least the exposed card of every column"
    cell_cards = [None if t == "-" else parse_card(t) for t in cells.split()]
    cell_cards += [None] * (4 - len(cell_cards))
    home = {make_card(r + 1, s) for s in range(4) for r in range(foundations[s])}
    used = home | {c for cs in named_cols.values() for c in cs} | {c for c in cell_cards if c is not None}
    rest = [c for c in range(52) if c not in used]
    buried: dict[int, list[int]] = {i: [] for i in range(1, 9)}
    for k, c in enumerate(rest):
        buried[k % 8 + 1].append(c)
    cols = tuple(tuple(buried[i] + named_cols[i]) for i in range(1, 9))
    pos = Position(cols, tuple(cell_cards), foundations)
    return pos.validate()
