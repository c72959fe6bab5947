"""The hint bar and the playback bar as the page shows them: their sentences, states and marks.

The hint bar (``data-panel=hint``) says the move of a :class:`~freecell.ui.analysis.analysis.HintBar`
(:func:`hint_text`), shows its state (:func:`hint_state`) and marks its
cards and piles (:func:`hint_marks`); the playback bar (``data-panel=watch``)
says where a :class:`~freecell.ui.analysis.playback.Playback` stands
(:func:`watch_text`).

    >>> from freecell.position import Position
    >>> from freecell.piles import Move
    >>> from freecell.ui.analysis.analysis import HintBar, HintState
    >>> from freecell.ui.text.catalogue import Catalogue
    >>> cat = Catalogue("en", {"hint.found": "Try {card} to {where}.", "where.column": "column {n}"})
    >>> bar = HintBar(HintState.FOUND, Position.deal(1), Move.parse("34"))
    >>> hint_text(cat, bar), hint_marks(bar)[0]
    ('Try 2♥ to column 4.', {'3': 'from', '4': 'to'})
"""

from __future__ import annotations

from collections.abc import Collection

from ...cards import card_symbol, make_card, suit
from ...engine import moving_cards
from ...piles import CELL, COLUMN, FOUNDATION, Move
from ...position import Position
from ..analysis.analysis import HintBar, HintState, Loss
from ..analysis.playback import NoSolution, Playback, PlaybackState
from ..progress.damage import Lost
from .catalogue import Catalogue
from .speech import plural


def where(cat: Catalogue, pos: Position, move: Move) -> tuple[str, str]:
    """The cards a move takes and where they go, as words: ``("7♥", "column 4")``.

    Several cards are named by the first and their count: ``("2 cards headed by 7♥", ...)``.
    """
    cards = moving_cards(pos, move)
    card = card_symbol(cards[0]) if cards else "?"
    if len(cards) > 1:
        card = cat.t("where.run", count=len(cards), card=card)
    if move.dst.kind == FOUNDATION:
        place = cat.t("where.foundation")
    elif move.dst.kind == CELL:
        place = cat.t("where.cell")
    elif pos.columns[move.dst.index]:
        place = cat.t("where.column", n=move.dst.index + 1)
    else:
        place = cat.t("where.empty_column")
    return card, place


def hint_text(cat: Catalogue, bar: HintBar) -> str:
    """The hint bar's sentence."""
    if bar.state is HintState.WON:
        return cat.t("hint.won")
    if bar.state is HintState.SEARCHING:
        return cat.t("hint.searching")
    if bar.state is HintState.UNSOLVABLE:
        if bar.loss is Loss.DEAL:
            return cat.t("hint.unsolvable_deal")
        if bar.loss is Loss.MOVE:
            return cat.t("hint.unsolvable_move")
        return cat.t("hint.unsolvable")
    if bar.move is None:
        return cat.t("hint.unavailable")
    card, place = where(cat, bar.position, bar.move)
    if bar.state is HintState.UNAVAILABLE:
        return cat.t("hint.no_solver", card=card, where=place)
    if bar.state is HintState.FOUND:
        return cat.t("hint.found", card=card, where=place)
    key = "hint.suggestion" if bar.suggestion else "hint.fallback"
    return cat.t(key, card=card, where=place)


def hint_state(bar: HintBar) -> HintState:
    """``data-state`` of the hint bar (``won`` shows as ``found``, as it always has)."""
    return HintState.FOUND if bar.state is HintState.WON else bar.state


def hint_marks(bar: HintBar) -> tuple[dict[str, str], dict[int, str], set[str]]:
    """What the hinted move marks: piles (``{"3": "from", "h2": "to"}``), cards, and drawn areas.

    ``areas`` are the marked piles whose area itself is drawn (a free cell, a
    foundation, an empty column); other piles show the mark on their cards.
    """
    move, pos = bar.move, bar.position
    if move is None or bar.state not in (HintState.FOUND, HintState.FALLBACK, HintState.UNAVAILABLE):
        return {}, {}, set()
    dst = move.dst
    cards = moving_cards(pos, move)
    marked = dict.fromkeys(cards, "from")
    if dst.kind == FOUNDATION:
        home = suit(cards[0]) if cards else 0
        dst_name = f"h{home + 1}"
        if pos.foundations[home]:
            marked[make_card(pos.foundations[home], home)] = "to"
    else:
        dst_name = dst.text()
        if dst.kind == COLUMN and pos.columns[dst.index]:
            marked[pos.columns[dst.index][-1]] = "to"
    areas = {dst_name} if dst.kind != COLUMN or not pos.columns[dst.index] else set()
    return {move.src.text(): "from", dst_name: "to"}, marked, areas


def watch_text(cat: Catalogue, playback: Playback) -> str:
    """The playback bar's sentence: looking, the number of moves, the step on show, or why none."""
    if playback.state is PlaybackState.SEARCHING:
        return cat.t("watch.searching")
    if playback.state is PlaybackState.NONE:
        return cat.t("watch.none." + (playback.reason or NoSolution.NOT_FOUND))
    if playback.done == 0:
        return plural(cat, "watch.count", playback.total)
    return cat.t("watch.step", n=playback.done, total=playback.total)


def watch_play_label(cat: Catalogue, playing: bool) -> str:
    """The play button's name: it pauses a playing solution, else plays it."""
    return cat.t("action.watch_pause" if playing else "action.watch_play")


def notice_text(cat: Catalogue, kind: str, lost: Collection[Lost] = ()) -> str:
    """The notice line's sentence (``storage``, ``damaged``, ``other-tab``); a damaged one names
    what was ``lost``, a sentence each (what could be read of it was kept).

    >>> cat = Catalogue("en", {"notice.damaged": "Reset.", "notice.damaged_stats": "Stats.",
    ...                        "notice.damaged_game": "Game."})
    >>> notice_text(cat, "damaged"), notice_text(cat, "damaged", {Lost.STATS, Lost.GAME})
    ('Reset.', 'Game. Stats.')
    """
    if kind == "damaged" and lost:
        return " ".join(cat.t(f"notice.damaged_{what.value}") for what in Lost if what in lost)
    return cat.t("notice." + kind.replace("-", "_"))
