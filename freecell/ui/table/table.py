"""What a tap, a drag or a drop means: the table's UI state, without a DOM.

:class:`TableState` holds the selection and turns abstract input (a tap on a
card, a tap on a pile, a drop) into an :class:`Outcome`: a move played, a
selection made or dropped, or a refusal with its reason.  It never edits
piles: it asks the :class:`~freecell.game.Game`, whose ``check`` is the one
legality function.  The browser layer renders outcomes and nothing else.

Tap rules:

- With nothing selected, a tap on a column's exposed card or a free-cell card
  that can go to its foundation sends it there at once.  Otherwise the card is
  selected, with the cards below it when they form a run (a broken run is
  refused with ``broken_sequence``).
- With the "smart" tap (a setting), a card that cannot go home goes, with the
  run below it, to the best place for it: a column where it builds (the one
  that makes the longer run), else an empty column, else a free cell (one
  card).  Only when none takes it is it selected.
- A double tap (or double click) on a card sends it, with the run below it,
  to the best place whatever the tap setting: its foundation, else where a
  smart tap sends it (:meth:`TableState.double_tap`); only when none takes
  it is it selected.
- With a selection, a tap on the selected card drops the selection; a tap on
  another card of the same column selects from there instead; a tap anywhere
  else is the destination: the move is played, or refused with its reason,
  and the selection ends either way.
- A second tap at the same place soon after a tap that sent its own card away
  (home, or to the best place) is the rest of one gesture (a double click on
  an ace its first click sent home) and does nothing (:func:`tap_kind`): it
  would otherwise fall on the card under the moved one, or on the moved card
  where it flies.  A tap that played a selected card's move leaves the next
  tap free, however soon.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...cards import Card, make_card, suit
from ...engine import IllegalMoveError, expand, run_length
from ...game import Game, Turn
from ...piles import CELL, COLUMN, FOUNDATION, HOME, Move, Pile
from ...rules import Reason, Refusal


@dataclass(frozen=True, slots=True)
class Selection:
    """Cards picked up: from ``index`` to the end of ``pile`` (one card elsewhere)."""

    pile: Pile
    index: int
    count: int


class OutcomeKind(StrEnum):
    MOVED = "moved"
    SELECTED = "selected"
    DESELECTED = "deselected"
    REFUSED = "refused"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an input did: a move played (its turn, the single-card steps of its move), a selection
    made or dropped, a refusal, or nothing."""

    kind: OutcomeKind
    turn: Turn | None = None
    steps: tuple[Move, ...] = ()
    refusal: Refusal | None = None
    selection: Selection | None = None


NOTHING_DONE = Outcome(OutcomeKind.NONE)
DOUBLE_TAP_MS = 400  # a second tap on the same card within this is a double tap (to the best place)
TAP_SLOP_PX = 24  # a second tap this near the first, across and down (CSS pixels), is at the same place


class TapKind(StrEnum):
    SINGLE = "single"  # a tap of its own
    DOUBLE = "double"  # the second tap on the same card, soon: to the best place
    ECHO = "echo"  # the second tap at the place a tap just sent its card away from: nothing


@dataclass(frozen=True, slots=True)
class Tap:
    """A tap on the table: the card's pile and index (``index`` -1: a pile or the felt), when
    (ms) and where (CSS pixels), and whether it sent that card away (``moved``)."""

    pile: Pile | None
    index: int
    at: float
    x: float
    y: float
    moved: bool = False


def tap_kind(last: Tap | None, tap: Tap) -> TapKind:
    """What ``tap`` is after ``last``, the tap before it (see the module docstring)."""
    if last is None or tap.at - last.at > DOUBLE_TAP_MS:
        return TapKind.SINGLE
    if last.moved:
        near = abs(tap.x - last.x) <= TAP_SLOP_PX and abs(tap.y - last.y) <= TAP_SLOP_PX
        return TapKind.ECHO if near else TapKind.SINGLE
    if tap.index >= 0 and (tap.pile, tap.index) == (last.pile, last.index):
        return TapKind.DOUBLE
    return TapKind.SINGLE


class TableState:
    """The selection on a game's table, and the meaning of taps and drops."""

    def __init__(self, game: Game, smart: bool = False) -> None:
        self.game = game
        self.selection: Selection | None = None
        self.smart = smart  # what a tap does: "smart" moves, or home-else-select

    # --- what can be picked up ----------------------------------------
    def pick(self, pile: Pile, index: int) -> Selection | Refusal:
        """The cards a tap or a drag on card ``index`` of ``pile`` picks up."""
        pos = self.game.position
        if pile.kind == COLUMN:
            col = pos.columns[pile.index] if 0 <= pile.index < len(pos.columns) else ()
            if not 0 <= index < len(col):
                return Refusal(Reason.NOTHING_TO_MOVE)
            count = len(col) - index
            if run_length(col, self.game.rules) < count:
                return Refusal(Reason.BROKEN_SEQUENCE)
            return Selection(pile, index, count)
        if pile.kind == CELL:
            if not 0 <= pile.index < len(pos.cells) or pos.cells[pile.index] is None:
                return Refusal(Reason.NOTHING_TO_MOVE)
            return Selection(pile, 0, 1)
        if not self.game.rules.foundation_return:
            return Refusal(Reason.FROM_FOUNDATION_OFF)
        if not 0 <= pile.index < 4 or pos.foundations[pile.index] == 0:
            return Refusal(Reason.NOTHING_TO_MOVE)
        return Selection(pile, pos.foundations[pile.index] - 1, 1)

    def _home_move(self, pile: Pile, index: int) -> Move | None:
        """The move sending this card home, if it is exposed and can go now."""
        pos = self.game.position
        if pile.kind == COLUMN:
            if index != len(pos.columns[pile.index]) - 1:
                return None
        elif pile.kind != CELL:
            return None
        move = Move(pile, HOME)
        return move if self.game.check(move) is None else None

    def selected_cards(self) -> set[Card]:
        """The cards of the selection, as the table shows them lifted."""
        sel = self.selection
        if sel is None:
            return set()
        pos = self.game.position
        if sel.pile.kind == COLUMN:
            return set(pos.columns[sel.pile.index][sel.index:])
        if sel.pile.kind == CELL:
            c = pos.cells[sel.pile.index]
            return set() if c is None else {c}
        n = pos.foundations[sel.pile.index]
        return {make_card(n, sel.pile.index)} if n else set()

    # --- input -----------------------------------------------------------
    def tap_card(self, pile: Pile, index: int) -> Outcome:
        sel = self.selection
        if sel is not None:
            if pile == sel.pile:
                if index == sel.index or pile.kind != COLUMN:
                    return self.clear()
                return self._select(pile, index)
            return self.move_to(pile)
        home = self._home_move(pile, index)
        if home is not None:
            return self._play(home)
        if self.smart:
            best = self.smart_move(pile, index)
            if best is not None:
                return self._play(best)
        return self._select(pile, index)

    def double_tap(self, pile: Pile, index: int) -> Outcome:
        """A double tap on card ``index`` of ``pile``: to the best place (the first tap's selection goes)."""
        self.selection = None
        home = self._home_move(pile, index)
        if home is not None:
            return self._play(home)
        best = self.smart_move(pile, index)
        if best is not None:
            return self._play(best)
        return self._select(pile, index)

    def smart_move(self, pile: Pile, index: int) -> Move | None:
        """Where a smart tap sends the cards from card ``index`` of ``pile``, if anywhere."""
        picked = self.pick(pile, index)
        if isinstance(picked, Refusal) or pile.kind == FOUNDATION:
            return None
        pos = self.game.position
        count = picked.count
        builds: list[tuple[int, int, Move]] = []
        empty: Move | None = None
        for i, col in enumerate(pos.columns):
            if i == pile.index and pile.kind == COLUMN:
                continue
            move = Move(pile, Pile(COLUMN, i), count)
            if self.game.check(move) is not None:
                continue
            if col:
                # the longer the run it joins, the better; then the leftmost column
                builds.append((-run_length(col, self.game.rules), i, move))
            elif empty is None and not (pile.kind == COLUMN and count == len(pos.columns[pile.index])):
                empty = move  # a whole column into an empty one changes nothing
        if builds:
            return min(builds)[2]
        if empty is not None:
            return empty
        if pile.kind == COLUMN and count == 1:
            for i, c in enumerate(pos.cells):
                if c is None:
                    return Move(pile, Pile(CELL, i))
        return None

    def tap_pile(self, pile: Pile) -> Outcome:
        """A tap on a pile's empty area (or below a column's cards)."""
        if self.selection is None:
            return NOTHING_DONE
        if pile == self.selection.pile:
            return self.clear()
        return self.move_to(pile)

    def move_to(self, dst: Pile) -> Outcome:
        """Play the selection to ``dst``; the selection ends either way."""
        sel = self.selection
        if sel is None:
            return NOTHING_DONE
        self.selection = None
        if dst.kind == FOUNDATION:
            dst = HOME if sel.count == 1 else dst
        return self._play(Move(sel.pile, dst, sel.count))

    def drop(self, pile: Pile, index: int, dst: Pile | None) -> Outcome:
        """Cards dragged from card ``index`` of ``pile`` and released over ``dst``."""
        self.selection = None
        if dst is None or dst == pile:
            return Outcome(OutcomeKind.DESELECTED)
        picked = self.pick(pile, index)
        if isinstance(picked, Refusal):
            return Outcome(OutcomeKind.REFUSED, refusal=picked)
        if dst.kind == FOUNDATION and picked.count == 1:
            dst = HOME
        return self._play(Move(pile, dst, picked.count))

    def landing(self, pile: Pile, index: int, dst: Pile | None) -> Pile | None:
        """Where cards dragged from card ``index`` of ``pile`` would land if released over ``dst``.

        ``None`` if that drop would be refused (or is no move: back where they
        came from, or off the piles).  A card dropped on any foundation goes to
        its own suit's, so that is the pile named.  Nothing changes.
        """
        if dst is None or dst == pile:
            return None
        picked = self.pick(pile, index)
        if isinstance(picked, Refusal):
            return None
        move = Move(pile, HOME if dst.kind == FOUNDATION and picked.count == 1 else dst, picked.count)
        if self.game.check(move) is not None:
            return None
        if move.dst == HOME:
            pos = self.game.position
            card = pos.cells[pile.index] if pile.kind == CELL else pos.columns[pile.index][-1]
            return Pile(FOUNDATION, suit(card or 0))
        return dst

    def play(self, move: Move) -> Outcome:
        """Play a move chosen elsewhere (a hint); the selection ends."""
        self.selection = None
        return self._play(move)

    def select(self, pile: Pile, index: int) -> Outcome:
        """Select the cards from card ``index`` of ``pile``, never sending one home."""
        return self._select(pile, index)

    def clear(self) -> Outcome:
        had = self.selection is not None
        self.selection = None
        return Outcome(OutcomeKind.DESELECTED) if had else NOTHING_DONE

    def _select(self, pile: Pile, index: int) -> Outcome:
        picked = self.pick(pile, index)
        if isinstance(picked, Refusal):
            self.selection = None
            return Outcome(OutcomeKind.REFUSED, refusal=picked)
        self.selection = picked
        return Outcome(OutcomeKind.SELECTED, selection=picked)

    def _play(self, move: Move) -> Outcome:
        try:
            turn = self.game.play(move)  # checks the move once
        except IllegalMoveError as e:
            return Outcome(OutcomeKind.REFUSED, refusal=e.refusal)
        steps = tuple(expand(turn.before, move, self.game.rules))  # the position it was played in
        return Outcome(OutcomeKind.MOVED, turn=turn, steps=steps)
