"""Rules as data, and the reason codes of refused moves.

A :class:`Rules` value says everything that varies between FreeCell and its
relatives: how many free cells, how columns build, what may fill an empty
column, whether cards may come back from a foundation.  Variants are values of
this class, not subclasses.

A refused move is described by a :class:`Refusal`: a :class:`Reason` code (the
page translates it) and the numbers or cards that explain it: for a sequence
too long for the free space, how many cards move, how many may, and the free
cells and empty columns behind that; for a card put on the wrong one, both
cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card, card_text, is_red


class Build(StrEnum):
    """How a card may go on a column card: one rank lower and ..."""

    ALTERNATE = "alternate"  # ... the other colour (FreeCell)
    SUIT = "suit"  # ... the same suit (Baker's Game, Eight Off, Seahaven)
    ANY = "any"  # ... any suit


class EmptyColumn(StrEnum):
    """What may be put into an empty column."""

    ANY = "any"
    KING = "king"


MAX_CELLS = 8
MAX_COLUMNS = 10


@dataclass(frozen=True)
class Rules:
    """The rules of one game.  The defaults are classic FreeCell."""

    free_cells: int = 4
    columns: int = 8
    build: Build = Build.ALTERNATE
    empty_column: EmptyColumn = EmptyColumn.ANY
    foundation_return: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.free_cells, bool) or not isinstance(self.free_cells, int):
            raise ValueError("free_cells must be a whole number")
        if not 0 <= self.free_cells <= MAX_CELLS:
            raise ValueError(f"free_cells must be 0 to {MAX_CELLS}, not {self.free_cells}")
        if isinstance(self.columns, bool) or not isinstance(self.columns, int):
            raise ValueError("columns must be a whole number")
        if not 1 <= self.columns <= MAX_COLUMNS:
            raise ValueError(f"columns must be 1 to {MAX_COLUMNS}, not {self.columns}")
        object.__setattr__(self, "build", Build(self.build))
        object.__setattr__(self, "empty_column", EmptyColumn(self.empty_column))
        if not isinstance(self.foundation_return, bool):
            raise ValueError("foundation_return must be true or false")

    def builds_on(self, card: Card, base: Card) -> bool:
        """Whether ``card`` may lie on ``base`` in a column."""
        if base // 4 != card // 4 + 1:
            return False
        if self.build is Build.ALTERNATE:
            return is_red(card) != is_red(base)
        if self.build is Build.SUIT:
            return (card & 3) == (base & 3)
        return True

    def to_json(self) -> dict[str, Any]:
        return {
            "free_cells": self.free_cells,
            "columns": self.columns,
            "build": self.build.value,
            "empty_column": self.empty_column.value,
            "foundation_return": self.foundation_return,
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rules from their JSON form; ``ValueError`` on anything else."""
        if not isinstance(data, dict):
            raise ValueError("rules must be an object")
        allowed = {"free_cells", "columns", "build", "empty_column", "foundation_return"}
        extra = set(data) - allowed
        if extra:
            raise ValueError(f"unknown rule {sorted(map(str, extra))[0]!r}")
        return cls(**data)


FREECELL = Rules()


def move_capacity(free_cells: int, empty_columns: int) -> int:
    """How many cards may move at once with this free space: ``(free_cells + 1) * 2 ** empty_columns``.

    ``empty_columns`` counts the empty columns that can hold cards set aside:
    not the destination when it is one of them, and none when only kings may
    fill an empty column (:func:`freecell.engine.capacity` applies the rules).

    >>> move_capacity(4, 0), move_capacity(1, 1), move_capacity(0, 3)
    (5, 4, 8)
    """
    return (free_cells + 1) << max(empty_columns, 0)


class Reason(StrEnum):
    """Why a move is refused.  The value is the message id the page translates."""

    NO_SUCH_PILE = "no_such_pile"
    SAME_PILE = "same_pile"
    NOTHING_TO_MOVE = "nothing_to_move"
    BAD_COUNT = "bad_count"  # fewer than one card, or more than the pile holds
    BROKEN_SEQUENCE = "broken_sequence"  # the cards are not a run that builds
    TOO_MANY_CARDS = "too_many_cards"  # more than the free space allows
    ONE_CARD_TO_CELL = "one_card_to_cell"
    ONE_CARD_TO_FOUNDATION = "one_card_to_foundation"
    CELL_TAKEN = "cell_taken"
    CELL_TO_CELL = "cell_to_cell"
    NOT_NEXT_FOR_FOUNDATION = "not_next_for_foundation"
    WRONG_FOUNDATION = "wrong_foundation"  # a named foundation of another suit
    FOUNDATION_TO_FOUNDATION = "foundation_to_foundation"
    FROM_FOUNDATION_OFF = "from_foundation_off"
    WRONG_COLOUR = "wrong_colour"
    WRONG_SUIT = "wrong_suit"
    NOT_ONE_LOWER = "not_one_lower"
    KING_ONLY = "king_only"  # only a king (or a run headed by one) fills an empty column


@dataclass(frozen=True)
class Refusal:
    """A refused move: the reason, and what the page needs to explain it with the real cards.

    For TOO_MANY_CARDS: ``moving`` (cards the move asks to carry), ``capacity``
    (cards the free space allows there), ``cells`` (empty free cells) and
    ``columns`` (empty columns, the destination not counted when it is one of
    them; under the kings-only rule they do not help, which shows as
    ``capacity == cells + 1``), and ``onto``: the destination's exposed card,
    ``None`` for an empty column.  For NOT_ONE_LOWER, WRONG_COLOUR and
    WRONG_SUIT: ``card`` (the first card that moves) and ``onto`` (the card it
    was put on).  For NOT_NEXT_FOR_FOUNDATION: ``card`` and ``onto``, the top
    card of its suit's foundation (``None`` while that is empty).  Other
    refusals carry the reason alone.
    """

    reason: Reason
    moving: int = 0
    capacity: int = 0
    cells: int = 0
    columns: int = 0
    card: Card | None = None
    onto: Card | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reason": self.reason.value}
        if self.reason is Reason.TOO_MANY_CARDS:
            out.update(moving=self.moving, capacity=self.capacity, cells=self.cells, columns=self.columns)
        for name in ("card", "onto"):
            value = getattr(self, name)
            if value is not None:
                out[name] = card_text(value)
        return out
