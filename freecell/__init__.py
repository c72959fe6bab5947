"""FreeCell: cards, Microsoft deals, rules as data, the engine, games, variants, and a solver.

The core (``freecell.cards``, ``deals``, ``piles``, ``position``, ``rules``,
``engine``, ``game``, ``variants``; the solver: ``solver``, ``shorten``,
``known``, and the worker's service ``worker``) is pure Python that runs in
CPython and in Pyodide; the page is ``freecell.ui`` (its logic, without a
DOM) and ``freecell.browser`` (the DOM).  Only ``freecell.browser`` imports
``js``, ``pyodide`` or ``pyscript``.

The first thing it does is :func:`freecell.precompiled.install`: in the built
site, the dataclasses below take the methods the build compiled.
"""

# ruff: noqa: E402 - the install comes before the first dataclass is made
from .precompiled import install as _install_precompiled

_install_precompiled()

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
    NotASolutionError,
    apply_move,
    can_finish,
    capacity,
    check_move,
    expand,
    is_stuck,
    legal_moves,
    play,
    safe_automove,
    verify_solution,
)
from .game import Game, GameLoadError, Turn
from .piles import Move, MoveError, Pile
from .position import BoardError, Position
from .rules import FREECELL, Build, EmptyColumn, Reason, Refusal, Rules, move_capacity

__version__ = "0.1.0"

__all__ = [
    "FREECELL", "MAX_DEAL", "MIN_DEAL", "BoardError", "Build", "Card", "CardError",
    "DealNumberError", "EmptyColumn", "Game", "GameLoadError", "IllegalMoveError",
    "Move", "MoveError", "NotASolutionError", "Pile", "Position", "Reason", "Refusal", "Rules", "Turn",
    "apply_move", "can_finish", "capacity", "card_name", "card_symbol", "card_text",
    "check_move", "deal_columns", "expand", "is_stuck", "legal_moves", "move_capacity",
    "parse_card", "parse_deal_number", "play", "random_deal_number", "safe_automove", "verify_solution",
]
