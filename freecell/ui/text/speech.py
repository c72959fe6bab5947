"""Words for a screen reader: the accessible names of cards and piles, and what was done.

Every word comes from the message catalogue; this module only picks the keys
and fills them in.  Names follow one pattern so a player hears the same thing
the same way each time::

    queen of spades, column 3, card 4 of 6      a column card
    free cell a, empty                           an empty pile
    foundation hearts: five of hearts            a free cell or foundation that holds cards

and the live region says what happened: ``seven of hearts to column 4``,
``Also to the foundations: ace of hearts, two of hearts.``, the refusal's
own sentence, a hint, the win.

    >>> from freecell.ui.text.catalogue import Catalogue
    >>> cat = Catalogue("en", {"card.name": "{rank} of {suit}", "card.rank.queen": "queen",
    ...                        "card.suit.spades": "spades"})
    >>> card_words(cat, 47)
    'queen of spades'
"""

from __future__ import annotations

import re
from functools import lru_cache

from ...cards import RANK_NAMES, SUIT_NAMES, Card, make_card, rank, suit
from ...engine import apply_move, moving_cards
from ...game import Turn
from ...piles import CELL, CELL_NAMES, COLUMN, FOUNDATION, Move, Pile
from ...position import Position
from ..table.table import Selection
from .catalogue import Catalogue

# Languages whose singular covers 0 as well as 1 ("0 carte").
_ZERO_IS_ONE = frozenset({"fr"})


# Languages that put a word between a number from 20 on and its noun ("45 de mutări", but
# "5 mutări", "101 mutări"): the word, and when (the last two digits 0 or 20 to 99).
_NUMBER_LINK = {"ro": "de"}


def plural(cat: Catalogue, key: str, n: int) -> str:
    """``key.one`` or ``key.other`` for ``n`` (``{n}`` filled in; Romanian's "de" where it goes)."""
    one = n == 1 or (n == 0 and cat.lang in _ZERO_IS_ONE)
    text = cat.t(key + (".one" if one else ".other"), n=n)
    link = _NUMBER_LINK.get(cat.lang)
    if link and n >= 20 and not 1 <= n % 100 <= 19:
        text = re.sub(r"(\d[\d.]*) ", rf"\1 {link} ", text, count=1)
    return text


def card_words(cat: Catalogue, card: Card) -> str:
    return cat.t("card.name", rank=cat.t("card.rank." + RANK_NAMES[rank(card) - 1]),
                 suit=cat.t("card.suit." + SUIT_NAMES[suit(card)]))


def pile_name(cat: Catalogue, pile: Pile) -> str:
    """``column 3``, ``free cell a``, ``foundation hearts``."""
    if pile.kind == COLUMN:
        return cat.t("pile.column", n=pile.index + 1)
    if pile.kind == CELL:
        return cat.t("pile.cell", n=CELL_NAMES[pile.index])
    return cat.t("pile.foundation", n=cat.t("card.suit." + SUIT_NAMES[pile.index]))


def _with_selected(cat: Catalogue, label: str, selected: bool) -> str:
    return cat.t("a11y.selected", label=label) if selected else label


def column_card_label(cat: Catalogue, pos: Position, col: int, index: int, selected: bool = False) -> str:
    return _column_labels(cat, col, pos.columns[col], index if selected else len(pos.columns[col]))[index]


@lru_cache(maxsize=512)
def _column_labels(cat: Catalogue, col: int, cards: tuple[Card, ...], selected_from: int) -> tuple[str, ...]:
    """The names of a column's cards, those from ``selected_from`` on said selected.  Kept for the
    next drawing: a move changes one or two columns, and the page names every card after each."""
    pile = pile_name(cat, Pile(COLUMN, col))
    return tuple(_with_selected(cat, cat.t("a11y.card", card=card_words(cat, c), pile=pile, i=j + 1,
                                           n=len(cards)), j >= selected_from)
                 for j, c in enumerate(cards))


def pile_label(cat: Catalogue, pos: Position, pile: Pile, selected: bool = False) -> str:
    """The name of a free cell, a foundation or a column as a whole."""
    name = pile_name(cat, pile)
    top: Card | None
    if pile.kind == CELL:
        top = pos.cells[pile.index]
    elif pile.kind == FOUNDATION:
        n = pos.foundations[pile.index]
        top = make_card(n, pile.index) if n else None
    else:
        col = pos.columns[pile.index]
        top = col[-1] if col else None
    if top is None:
        return cat.t("a11y.pile_empty", pile=name)
    return _with_selected(cat, cat.t("a11y.pile_holds", pile=name, card=card_words(cat, top)), selected)


def accessible_names(
    cat: Catalogue, pos: Position, selection: Selection | None
) -> tuple[dict[Card, str | None], dict[Pile, str | None]]:
    """Names of the column cards and of the piles targeted as a whole; ``None``: not a target.

    Column cards are the targets of their column; free cells, foundations and
    empty columns are targets themselves, their name saying what they hold.
    """
    cards: dict[Card, str | None] = dict.fromkeys(range(52))
    piles: dict[Pile, str | None] = {}
    for i, col in enumerate(pos.columns):
        pile = Pile(COLUMN, i)
        start = selection.index if selection is not None and selection.pile == pile else len(col)
        cards.update(zip(col, _column_labels(cat, i, col, start), strict=True))
        piles[pile] = None if col else pile_label(cat, pos, pile)
    for i in range(len(pos.cells)):
        pile = Pile(CELL, i)
        piles[pile] = pile_label(cat, pos, pile, selection is not None and selection.pile == pile)
    for s in range(4):
        pile = Pile(FOUNDATION, s)
        piles[pile] = pile_label(cat, pos, pile, selection is not None and selection.pile == pile)
    return cards, piles


# --- what happened ---------------------------------------------------------------


def move_sentence(cat: Catalogue, pos: Position, move: Move) -> str:
    """``seven of hearts to column 4`` for a (legal) move played from ``pos``."""
    cards = moving_cards(pos, move)
    if not cards:
        return ""
    card = card_words(cat, cards[0])
    dst = move.dst
    if dst.kind == FOUNDATION:
        return cat.t("say.to_foundation", card=card)
    if dst.kind == CELL:
        return cat.t("say.to_cell", card=card, cell=CELL_NAMES[dst.index])
    if len(cards) > 1:
        return cat.t("say.run_to_column", count=len(cards), card=card, n=dst.index + 1)
    return cat.t("say.to_column", card=card, n=dst.index + 1)


def auto_sentence(cat: Catalogue, pos: Position, moves: tuple[Move, ...]) -> str:
    """The cards that went home by themselves after a move, or ``""``."""
    names: list[str] = []
    for m in moves:
        names += [card_words(cat, c) for c in moving_cards(pos, m)]
        pos = apply_move(pos, m)
    return cat.t("say.auto", cards=", ".join(names)) if names else ""


def turn_sentence(cat: Catalogue, turn: Turn, after_move: Position | None = None) -> str:
    """The move of a turn and its auto-moves, in one announcement.

    ``after_move``: the position after the move and before its auto-moves, if
    the caller has it already.
    """
    if after_move is None:
        after_move = apply_move(turn.before, turn.move)
    parts = [move_sentence(cat, turn.before, turn.move), auto_sentence(cat, after_move, turn.auto)]
    return " ".join(p for p in parts if p)


def selection_sentence(cat: Catalogue, pos: Position, selection: Selection) -> str:
    pile = selection.pile
    if pile.kind == COLUMN:
        card = pos.columns[pile.index][selection.index]
    elif pile.kind == CELL:
        cell = pos.cells[pile.index]
        if cell is None:
            return ""
        card = cell
    else:
        card = make_card(pos.foundations[pile.index], pile.index)
    if selection.count == 1:
        return cat.t("say.selected_one", card=card_words(cat, card))
    return cat.t("say.selected_many", count=selection.count, card=card_words(cat, card))
