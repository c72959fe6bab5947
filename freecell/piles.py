"""Pile names and moves in standard notation.

Columns are ``1``-``9`` and ``0`` for a tenth; free cells are ``a``-``g`` and
``i`` (``h`` is taken: it is home, the foundations).  ``h`` as a destination
means "the foundation of this card's suit"; ``h1``-``h4`` name the foundation
of one suit (clubs, diamonds, hearts, spades), as a source when cards may come
back, or as a destination.

A move is a frozen value: source, destination and number of cards.  Its text
is the two pile names, then ``x`` and the count when it carries more than one
card:

    >>> Move.parse("38x3")
    Move(src=Pile(kind=0, index=2), dst=Pile(kind=0, index=7), count=3)
    >>> Move.parse("3h").text()
    '3h'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

COLUMN, CELL, FOUNDATION = 0, 1, 2
COLUMN_NAMES = "1234567890"
CELL_NAMES = "abcdefgi"
ANY_FOUNDATION = -1


class MoveError(ValueError):
    """Text or data that is not a move in standard notation."""


@dataclass(frozen=True, slots=True, order=True)
class Pile:
    """A pile: its kind (COLUMN, CELL, FOUNDATION) and its index.

    A foundation index is a suit (0-3), or ANY_FOUNDATION for ``h``.
    """

    kind: int
    index: int

    def text(self) -> str:
        if self.kind == COLUMN:
            return COLUMN_NAMES[self.index]
        if self.kind == CELL:
            return CELL_NAMES[self.index]
        return "h" if self.index == ANY_FOUNDATION else f"h{self.index + 1}"

    @staticmethod
    def parse(text: str) -> Pile:
        if not isinstance(text, str):
            raise MoveError(f"not a pile: {text!r}")
        if len(text) == 1:
            if text in COLUMN_NAMES:
                return Pile(COLUMN, COLUMN_NAMES.index(text))
            if text in CELL_NAMES:
                return Pile(CELL, CELL_NAMES.index(text))
            if text == "h":
                return Pile(FOUNDATION, ANY_FOUNDATION)
        if text == "10":
            return Pile(COLUMN, 9)
        if len(text) == 2 and text[0] == "h" and text[1] in "1234":
            return Pile(FOUNDATION, int(text[1]) - 1)
        raise MoveError(f"not a pile: {text!r} (columns 1-8, free cells a-d, foundation h)")


def column(i: int) -> Pile:
    return Pile(COLUMN, i)


def cell(i: int) -> Pile:
    return Pile(CELL, i)


def foundation(suit: int = ANY_FOUNDATION) -> Pile:
    return Pile(FOUNDATION, suit)


HOME = foundation()


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``count`` cards from ``src`` to ``dst``."""

    src: Pile
    dst: Pile
    count: int = 1

    def text(self) -> str:
        base = self.src.text() + self.dst.text()
        return base if self.count == 1 else f"{base}x{self.count}"

    def __str__(self) -> str:
        return self.text()

    @staticmethod
    def parse(text: str) -> Move:
        """Parse ``38``, ``3h``, ``a5``, ``h25``, ``38x3``."""
        if not isinstance(text, str) or not 2 <= len(text) <= 8:
            raise MoveError(f"not a move: {text!r}")
        body, sep, cnt = text.partition("x")
        count = 1
        if sep:
            if not (cnt.isascii() and cnt.isdigit() and len(cnt) <= 2):
                raise MoveError(f"not a move: {text!r} (bad card count)")
            count = int(cnt)
        if body.startswith("h") and len(body) == 3:
            src, dst = body[:2], body[2:]
        elif len(body) == 2:
            src, dst = body[0], body[1]
        elif len(body) == 3 and body[1] == "h":
            src, dst = body[0], body[1:]
        else:
            raise MoveError(f"not a move: {text!r}")
        return Move(Pile.parse(src), Pile.parse(dst), count)

    def to_json(self) -> dict[str, Any]:
        """The page's and the solver's form: ``{"from": "3", "to": "h", "count": 1}``."""
        return {"from": self.src.text(), "to": self.dst.text(), "count": self.count}

    @staticmethod
    def from_json(data: object) -> Move:
        if not isinstance(data, dict) or set(data) - {"from", "to", "count"}:
            raise MoveError("a move must be an object with from, to and count")
        count = data.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 52:
            raise MoveError("a move's count must be a whole number from 1 to 52")
        return Move(Pile.parse(data.get("from")), Pile.parse(data.get("to")), count)  # type: ignore[arg-type]
