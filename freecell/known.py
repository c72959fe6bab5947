"""Known solutions: the positions along one, found again up to relabelling.

A :class:`KnownPath` is a solution known from some position (a search made
before, another request's answer).  Every position along it is winnable, with
the rest of the solution: the solver (:class:`freecell.solver.Solver`, its
``known`` argument) looks its states up by their canonical key
(:func:`state_key`: columns and free cells as sets), and relabels the rest to
the columns and cells of the position it reached (:meth:`KnownPath.rest`), so
the moves are in the player's own coordinates.  From a position off the
line, the rest may still play as card moves (:meth:`KnownPath.repair`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cardmoves import card_moves, distance, repair, supports
from .engine import NotASolutionError, verify_solution
from .piles import CELL, COLUMN, Move, Pile, cell, column
from .position import Position
from .rules import FREECELL, Rules

# how many of the states along a known solution nearest to a position are tried as
# the start of a repair (KnownPath.repair)
REPAIR_TRIES = 4


def state_key(cols: Sequence[tuple[int, ...]], cells: Sequence[int], found: Sequence[int]) -> bytes:
    """The canonical state, packed: about 100 bytes, against 250 as tuples.

    Columns in sorted order with a separator (no card is 255), then the
    free cells sorted (an empty one, -1, is 255), then the four foundations.
    """
    return (b"\xff".join(map(bytes, sorted(cols)))
            + bytes(sorted(c & 255 for c in cells)) + bytes(found))


def position_key(pos: Position) -> bytes:
    return state_key(pos.columns, [-1 if c is None else c for c in pos.cells], pos.foundations)


class KnownPath:
    """A known solution: the positions along it, each with the rest of the solution.

    ``moves`` must be legal from ``start`` under ``rules`` and end with every
    card home (``ValueError`` otherwise).
    """

    def __init__(self, start: Position, moves: Sequence[Move], rules: Rules = FREECELL) -> None:
        start.validate(rules)
        self.rules = rules
        self.moves = list(moves)
        try:
            self.positions = verify_solution(start, self.moves, rules)
        except NotASolutionError as e:
            raise ValueError(f"the path is not a solution: {e}") from None
        # a state met twice answers with its later place (the shorter rest)
        self._at = {position_key(p): i for i, p in enumerate(self.positions)}
        self._cards = card_moves(start, rules, self.moves)
        self._supports = supports(start, rules, self._cards)

    def find(self, key: bytes) -> int | None:
        """Where a state (:func:`state_key`) is along the path, or ``None``."""
        return self._at.get(key)

    def repair(self, pos: Position, tries: int = REPAIR_TRIES) -> list[Move] | None:
        """A solution from ``pos``: the rest of the known one, as card moves, from one of the
        ``tries`` states along it nearest to ``pos`` (:func:`freecell.cardmoves.repair`)."""
        here = supports(pos, self.rules, ())[0]
        near = sorted(range(len(self.positions)), key=lambda i: (distance(here, self._supports[i]), -i))
        return repair(pos, self.rules, self._cards, near[:tries])

    def rest(self, i: int, pos: Position) -> list[Move]:
        """The moves from state ``i`` on, relabelled to ``pos`` (the same state, its columns
        and cells in another order)."""
        cols, cells = _relabel(self.positions[i], pos)
        return _remap(self.moves[i:], cols, cells)


def _relabel(a: Position, b: Position) -> tuple[list[int], list[int]]:
    """Where each column and free cell of ``a`` is in ``b`` (the same state, relabelled)."""
    free_cols = [i for i, c in enumerate(b.columns) if not c]
    col_at = {c: i for i, c in enumerate(b.columns) if c}
    cols = [col_at[c] if c else free_cols.pop(0) for c in a.columns]
    free_cells = [i for i, c in enumerate(b.cells) if c is None]
    cell_at = {c: i for i, c in enumerate(b.cells) if c is not None}
    cells = [cell_at[c] if c is not None else free_cells.pop(0) for c in a.cells]
    return cols, cells


def _remap(moves: Sequence[Move], cols: list[int], cells: list[int]) -> list[Move]:
    def pile(p: Pile) -> Pile:
        if p.kind == COLUMN:
            return column(cols[p.index])
        if p.kind == CELL:
            return cell(cells[p.index])
        return p

    return [Move(pile(m.src), pile(m.dst), m.count) for m in moves]
