"""A solution's length, in the two units that matter.

* :func:`game_count`: as the game's moves counter counts, the player's turns
  with the game's safe auto-move: a move, and the safe cards that then go home
  by themselves, is one turn (a move to a foundation the player has to make
  counts one).  This is the par on the win panel.
* :func:`record_count`: as solver records count (player moves with *maximum*
  auto-play, where every card that can go home goes at once): every move that
  is not to a foundation counts one, a multi-card move included; moves home
  are free.  This is the unit of the published near-optimal solutions the
  benchmark compares with.

>>> from freecell.piles import Move
>>> moves = [Move.parse("1a"), Move.parse("ah"), Move.parse("12")]
>>> record_count(moves)
2
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import apply_move, is_safe_home, moving_cards
from .piles import FOUNDATION, Move
from .position import Position
from .rules import Rules


def goes_home_by_itself(pos: Position, move: Move, rules: Rules) -> bool:
    """Whether ``move`` (legal in ``pos``) sends a card home that the game's auto-move would send."""
    if move.dst.kind != FOUNDATION or move.src.kind == FOUNDATION:
        return False
    cards = moving_cards(pos, move)
    return len(cards) == 1 and is_safe_home(pos, cards[0], rules)


def game_count(start: Position, moves: Sequence[Move], rules: Rules, auto_move: bool = True) -> int:
    """The player's turns: each move with the safe moves home right after it (see the module doc)."""
    turns = 0
    pos = start
    i = 0
    while i < len(moves):
        pos = apply_move(pos, moves[i])
        i += 1
        turns += 1
        while auto_move and i < len(moves) and goes_home_by_itself(pos, moves[i], rules):
            pos = apply_move(pos, moves[i])
            i += 1
    return turns


def record_count(moves: Sequence[Move]) -> int:
    """Player moves with maximum auto-play: the moves not to a foundation."""
    return sum(1 for m in moves if m.dst.kind != FOUNDATION)
