"""The long-press sequence picker: which cards of a column go with the pressed one.

A long press on a column card opens the picker on that card.  Its first card
can go up the column (one card more) as far as the sequence at the bottom of
the column reaches, and down to the exposed card (one card).  Confirming only
selects those cards; the table is never changed here.

    >>> from freecell.position import Position
    >>> from freecell.piles import column
    >>> from freecell.rules import FREECELL
    >>> from freecell.cards import parse_card
    >>> col = tuple(parse_card(c) for c in "KS 9H 8S 7H 6S".split())
    >>> pos = Position((col,) + ((),) * 7, (None,) * 4)
    >>> p = Picker.open(pos, FREECELL, column(0), 4)
    >>> p.count, p.step_up(), p.step_up(), p.count
    (1, True, True, 3)
    >>> p.step_up(), p.step_up(), p.count, p.first
    (True, False, 4, 1)
    >>> p.selection()
    Selection(pile=Pile(kind=0, index=0), index=1, count=4)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import run_length
from ...piles import COLUMN, Pile
from ...position import Position
from ...rules import Rules
from .table import Selection


@dataclass(slots=True)
class Picker:
    """How many cards go with a pressed column card: ``first`` to the column's end."""

    pile: Pile
    deepest: int  # the highest card that can lead the sequence
    last: int  # the exposed card
    first: int

    @classmethod
    def open(cls, pos: Position, rules: Rules, pile: Pile, index: int) -> Picker | None:
        """A picker on card ``index`` of column ``pile``, or ``None`` if there is no such card.

        A card above the sequence at the bottom of the column starts the
        picker at the sequence's first card: the most that can go together.
        """
        if pile.kind != COLUMN or not 0 <= pile.index < len(pos.columns):
            return None
        col = pos.columns[pile.index]
        if not 0 <= index < len(col):
            return None
        deepest = len(col) - run_length(col, rules)
        return cls(pile, deepest, len(col) - 1, max(index, deepest))

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    @property
    def most(self) -> int:
        return self.last - self.deepest + 1

    def step_up(self) -> bool:
        """One card more, if the sequence goes on up the column."""
        if self.first <= self.deepest:
            return False
        self.first -= 1
        return True

    def step_down(self) -> bool:
        """One card fewer, down to the exposed card alone."""
        if self.first >= self.last:
            return False
        self.first += 1
        return True

    def selection(self) -> Selection:
        return Selection(self.pile, self.first, self.count)
