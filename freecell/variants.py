"""Variants: FreeCell's relatives as named rules plus a way of dealing.

A :class:`Variant` is a value: an id (``"freecell"``, ``"bakers"``, ...), its
:class:`~freecell.rules.Rules` and how a deal number becomes a starting
position.  :data:`VARIANTS` holds them all by id; :func:`variant` looks one up
and raises :class:`ValueError` (one readable line) for an unknown id.

Every variant numbers its deals like Microsoft FreeCell (1 to 8,589,934,591)
and reuses the same shuffle (:func:`freecell.deals.deal_cards`): deal N of any
variant starts from the 52 cards of FreeCell deal N in dealing order, then
lays them out its own way, always round-robin from the first column:

* the FreeCell family (4, 3, 2, 1 or 0 free cells) and Baker's Game: the
  Microsoft layout exactly (8 columns, 7 cards in the first four, 6 in the
  others), every free cell empty;
* Eight Off: the first 48 cards into 8 columns of 6, the last 4 into free
  cells a-d (cells e, f, g and i stay empty).  These four are the seventh
  cards of the Microsoft layout's first four columns, so an Eight Off deal is
  the FreeCell deal of the same number with those cards lifted into cells;
* Seahaven Towers: the first 50 cards into 10 columns of 5, the last 2 into
  the middle free cells b and c (a and d stay empty), as the game is usually
  shown.

    >>> from freecell.cards import card_text
    >>> start = variant("eightoff").deal(1)
    >>> [card_text(c) for c in start.cells if c is not None]
    ['6S', '9C', '2H', '6H']
    >>> [len(col) for col in variant("seahaven").deal(1).columns]
    [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from .cards import Card
from .deals import deal_cards
from .position import Position
from .rules import Build, EmptyColumn, Rules


@dataclass(frozen=True)
class Variant:
    """A named game: its id, its rules, and how deal N is laid out.

    ``cells_dealt`` names the free cells that get the last cards of the deck,
    in order (empty for the FreeCell family).
    """

    id: str
    rules: Rules
    cells_dealt: tuple[int, ...] = ()

    def deal(self, number: int) -> Position:
        """The starting position of deal ``number`` in this variant."""
        return lay_out(deal_cards(number), self.rules, self.cells_dealt)

    @property
    def table_shows_it(self) -> bool:
        """Whether its table alone tells it from FreeCell's: other counts of free cells or columns,
        or cards dealt to the cells (Baker's Game's does not: it differs in its rules only).

        >>> [v.id for v in VARIANTS.values() if not v.table_shows_it]
        ['freecell', 'bakers']
        """
        classic = Rules()
        return ((self.rules.free_cells, self.rules.columns, self.cells_dealt)
                != (classic.free_cells, classic.columns, ()))


def lay_out(cards: list[Card], rules: Rules, cells_dealt: tuple[int, ...] = ()) -> Position:
    """52 cards in dealing order as a starting position.

    The last ``len(cells_dealt)`` cards go into those free cells, in order;
    the others go round-robin into ``rules.columns`` columns, the first card
    into the first column (so the first columns get one more card when the
    count does not divide evenly, as in Microsoft's deal).
    """
    table = len(cards) - len(cells_dealt)
    cells: list[Card | None] = [None] * rules.free_cells
    for i, c in zip(cells_dealt, cards[table:], strict=True):
        cells[i] = c
    n = rules.columns
    columns = tuple(tuple(cards[i:table:n]) for i in range(n))
    return Position(columns, tuple(cells)).validate(rules)


VARIANTS: MappingProxyType[str, Variant] = MappingProxyType({
    v.id: v
    for v in (
        Variant("freecell", Rules()),
        Variant("freecell3", Rules(free_cells=3)),
        Variant("freecell2", Rules(free_cells=2)),
        Variant("freecell1", Rules(free_cells=1)),
        Variant("freecell0", Rules(free_cells=0)),
        Variant("bakers", Rules(build=Build.SUIT)),
        Variant(
            "eightoff",
            Rules(free_cells=8, build=Build.SUIT, empty_column=EmptyColumn.KING),
            cells_dealt=(0, 1, 2, 3),
        ),
        Variant(
            "seahaven",
            Rules(columns=10, build=Build.SUIT, empty_column=EmptyColumn.KING),
            cells_dealt=(1, 2),
        ),
    )
})


def variant(variant_id: object) -> Variant:
    """The variant with this id; :class:`ValueError` names the known ones otherwise."""
    found = VARIANTS.get(variant_id) if isinstance(variant_id, str) else None
    if found is None:
        shown = repr(variant_id)
        if len(shown) > 24:
            shown = shown[:20] + "…"
        raise ValueError(f"unknown variant {shown}: use one of {', '.join(VARIANTS)}")
    return found

