"""FreeCell: cards, Microsoft deals, rules, game sessions and (later) a solver.

Pure Python: it runs in CPython and in Pyodide.  Only ``freecell.browser``
imports ``js``, ``pyodide`` or ``pyscript``.
"""

from .cards import Card, CardError, card_name, card_symbol, card_text, parse_card
from .deals import (
    MAX_DEAL,
    MIN_DEAL,
    DealNumberError,
    deal_columns,
    parse_deal_number,
    random_deal_number,
)
from .engine import (
    IllegalMoveError,
    apply_move,
    can_finish,
    capacity,
    check_move,
    expand,
    is_stuck,
    legal_moves,
    play,
    safe_automove,
)
from .game import Game, GameLoadError, Turn
from .piles import Move, MoveError, Pile
from .position import BoardError, Position
from .rules import FREECELL, Build, EmptyColumn, Reason, Refusal, Rules

__version__ = "0.1.0"

__all__ = [
    "FREECELL", "MAX_DEAL", "MIN_DEAL", "BoardError", "Build", "Card", "CardError",
    "DealNumberError", "EmptyColumn", "Game", "GameLoadError", "IllegalMoveError",
    "Move", "MoveError", "Pile", "Position", "Reason", "Refusal", "Rules", "Turn",
    "apply_move", "can_finish", "capacity", "card_name", "card_symbol", "card_text",
    "check_move", "deal_columns", "expand", "is_stuck", "legal_moves",
    "parse_card", "parse_deal_number", "play", "random_deal_number", "safe_automove",
]
