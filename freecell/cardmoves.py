"""Card moves: a line of moves told by card, played on a mutable table.

A pile move says which column or cell a card leaves and which it goes to; a
*card move* ``(card, destination)`` says only which card goes (with every card
lying on it) and where: onto another card (a card number), into an empty
column (:data:`TO_EMPTY`), into a free cell (:data:`TO_CELL`) or home
(:data:`TO_HOME`).  The same card moves play from any relabelling of a
position, so a stretch of them can be replaced by any other that reaches the
same state up to the order of the columns and of the free cells (the solver's
canonical key), and the moves after it still play; and the rest of a known
solution often still plays from a position a move or two off it
(:func:`repair`).  A card move whose card already lies where it goes is
dropped (it has become a no-op).

The *support* of a card is what that destination says for where it lies now;
the 52 supports determine a state up to that relabelling, and every move
changes exactly one card's support.  So the number of cards whose supports
differ between two states (:func:`distance`) is a lower bound on the moves
between them.

:class:`Table` plays card moves under the rules' own checks, reimplemented on
mutable lists, and undoes them; :mod:`freecell.shorten` rewrites solutions
with it and :mod:`freecell.known` repairs them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .piles import CELL, COLUMN, HOME, Move, Pile, cell, column, foundation
from .position import Position
from .rules import Build, EmptyColumn, Rules

TO_EMPTY, TO_CELL, TO_HOME = 52, 53, 54  # destinations (and supports) besides a card
CELL0, AT_HOME = 16, 32  # where a card is: a column 0-9, a free cell CELL0 + i, or home
CardMove = tuple[int, int]  # (card, destination)
Undo = tuple[int, int, int, int, int]  # what Table.play returns: the record to undo a move


class Table:
    """A mutable position that plays card moves, checks them, and undoes them."""

    __slots__ = ("any_empty", "back", "cells", "cols", "fits", "found", "king_only", "loc", "sup")

    def __init__(self, position: Position, rules: Rules) -> None:
        self.cols = [list(c) for c in position.columns]
        self.cells = [-1 if c is None else c for c in position.cells]
        self.found = list(position.foundations)
        self.fits = _fits(rules)
        self.any_empty = rules.empty_column is EmptyColumn.ANY
        self.king_only = not self.any_empty
        self.back = rules.foundation_return
        self.loc = [0] * 52
        self.sup = bytearray(52)
        for i, col in enumerate(self.cols):
            below = TO_EMPTY
            for c in col:
                self.loc[c] = i
                self.sup[c] = below
                below = c
        for i, c in enumerate(self.cells):
            if c >= 0:
                self.loc[c] = CELL0 + i
                self.sup[c] = TO_CELL
        for s in range(4):
            for r in range(self.found[s]):
                self.loc[r * 4 + s] = AT_HOME
                self.sup[r * 4 + s] = TO_HOME

    def won(self) -> bool:
        return sum(self.found) == 52

    def card_move(self, m: Move) -> CardMove:
        """The card move of a (legal) pile move in this position."""
        src, dst = m.src, m.dst
        if src.kind == COLUMN:
            b = self.cols[src.index][-m.count]
        elif src.kind == CELL:
            b = self.cells[src.index]
        else:
            b = (self.found[src.index] - 1) * 4 + src.index
        if dst.kind == COLUMN:
            col = self.cols[dst.index]
            return b, (col[-1] if col else TO_EMPTY)
        return b, (TO_CELL if dst.kind == CELL else TO_HOME)

    def apply(self, m: Move) -> CardMove:
        """Play a legal pile move exactly as given (into the cell or column it names): its card move."""
        b, d = self.card_move(m)
        src, dst = m.src, m.dst
        where = src.index if src.kind == COLUMN else CELL0 + src.index if src.kind == CELL else AT_HOME
        to = dst.index if dst.kind == COLUMN else CELL0 + dst.index if dst.kind == CELL else AT_HOME
        self._move(b, where, to, m.count)
        self.sup[b] = d
        return b, d

    def play(self, b: int, d: int) -> Undo | None:
        """Play a card move if it is legal: the record to undo it, else ``None``.

        A move to where the card already lies is not legal here either (a
        caller that replays a solution drops it).
        """
        old = self.sup[b]
        if d == old:
            return None
        where = self.loc[b]
        if where < CELL0:
            col = self.cols[where]
            if col[-1] == b:
                n = 1
            else:
                fits = self.fits
                p = col.index(b)
                n = len(col) - p
                for i in range(p + 1, len(col)):
                    if not fits[col[i]][col[i - 1]]:
                        return None
        elif where < AT_HOME:
            n = 1
        else:
            if not self.back or self.found[b & 3] != (b >> 2) + 1:
                return None
            n = 1
        if d == TO_HOME:
            if n != 1 or self.found[b & 3] != b >> 2:
                return None
            to = AT_HOME
        elif d == TO_CELL:
            if n != 1 or -1 not in self.cells:
                return None
            to = CELL0 + self.cells.index(-1)
        else:  # one card always fits in the free space; more are counted
            cols = self.cols
            if d == TO_EMPTY:
                if [] not in cols or (self.king_only and (b >> 2) != 12):
                    return None
                to = cols.index([])
                if n > 1:
                    free = self.cells.count(-1) + 1
                    if self.any_empty and n > free << (cols.count([]) - 1):
                        return None
                    if n > free and not self.any_empty:
                        return None
            else:
                to = self.loc[d]
                if to >= CELL0 or to == where or cols[to][-1] != d or not self.fits[b][d]:
                    return None
                if n > 1:
                    free = self.cells.count(-1) + 1
                    if n > (free << cols.count([]) if self.any_empty else free):
                        return None
        if n == 1:  # _move's first case, inline: most moves here are of one card
            if where < CELL0:
                self.cols[where].pop()
            elif where < AT_HOME:
                self.cells[where - CELL0] = -1
            else:
                self.found[b & 3] -= 1
            if to < CELL0:
                self.cols[to].append(b)
            elif to < AT_HOME:
                self.cells[to - CELL0] = b
            else:
                self.found[b & 3] += 1
            self.loc[b] = to
        else:
            self._move(b, where, to, n)
        self.sup[b] = d
        return b, where, to, n, old

    def undo(self, rec: Undo) -> None:
        b, where, to, n, old = rec
        self._move(b, to, where, n)
        self.sup[b] = old

    def pile_move(self, rec: Undo) -> Move:
        """The pile move that a played card move was."""
        b, where, to, n, _ = rec
        dst = HOME if to == AT_HOME else _pile(to, b)
        return Move(_pile(where, b), dst, n)

    def _move(self, b: int, where: int, to: int, n: int) -> None:
        if n == 1:  # b alone (a column's last card, when it comes from one)
            if where < CELL0:
                self.cols[where].pop()
            elif where < AT_HOME:
                self.cells[where - CELL0] = -1
            else:
                self.found[b & 3] -= 1
            if to < CELL0:
                self.cols[to].append(b)
            elif to < AT_HOME:
                self.cells[to - CELL0] = b
            else:
                self.found[b & 3] += 1
            self.loc[b] = to
            return
        if where < CELL0:
            col = self.cols[where]
            cards = col[-n:]
            del col[-n:]
        elif where < AT_HOME:
            cards = [b]
            self.cells[where - CELL0] = -1
        else:
            cards = [b]
            self.found[b & 3] -= 1
        if to < CELL0:
            self.cols[to].extend(cards)
        elif to < AT_HOME:
            self.cells[to - CELL0] = b
        else:
            self.found[b & 3] += 1
        loc = self.loc
        for c in cards:
            loc[c] = to


def _pile(where: int, card: int) -> Pile:
    if where < CELL0:
        return column(where)
    if where < AT_HOME:
        return cell(where - CELL0)
    return foundation(card & 3)


_FITS: dict[tuple[Build, int], list[list[bool]]] = {}


def _fits(rules: Rules) -> list[list[bool]]:
    """``fits[card][base]``: whether ``card`` builds on ``base`` (one table per build rule)."""
    key = (rules.build, 0)
    table = _FITS.get(key)
    if table is None:
        table = _FITS[key] = [[rules.builds_on(c, b) for b in range(52)] for c in range(52)]
    return table


def _safe(card: int, found: Sequence[int], rules: Rules) -> bool:
    """:func:`freecell.engine.is_safe_home` on a table's foundations."""
    r = (card >> 2) + 1
    if r <= 2:
        return True
    if rules.foundation_return:
        return False
    if rules.build is Build.SUIT:
        return True
    s = card & 3
    if rules.build is Build.ALTERNATE:
        red = s == 1 or s == 2
        return all(found[t] >= r - 1 for t in range(4) if (t == 1 or t == 2) != red)
    return all(found[t] >= r - 1 for t in range(4) if t != s)


def card_moves(position: Position, rules: Rules, moves: Sequence[Move]) -> list[CardMove]:
    """The card moves of a line of pile moves (each must be legal: not checked here)."""
    table = Table(position, rules)
    return [table.apply(m) for m in moves]


def replay(table: Table, cms: Sequence[CardMove], undo: list[Undo]
            ) -> list[CardMove] | None:
    """Play card moves, dropping those already done; ``None`` at the first illegal one.

    Every move played is pushed on ``undo`` (the caller takes the table back).
    """
    kept = []
    play = table.play
    sup = table.sup
    for b, d in cms:
        rec = play(b, d)
        if rec is None:
            if sup[b] == d:
                continue
            return None
        undo.append(rec)
        kept.append((b, d))
    return kept


def take_back(table: Table, undo: list[Undo]) -> None:
    while undo:
        table.undo(undo.pop())


def tail_supports(table: Table, cms: Sequence[CardMove]) -> list[bytes]:
    """The supports after each of ``cms`` played from the table (taken back after)."""
    undo: list[Undo] = []
    out = []
    for b, d in cms:
        rec = table.play(b, d)
        if rec is None:
            raise AssertionError("a kept line stopped playing")
        undo.append(rec)
        out.append(bytes(table.sup))
    take_back(table, undo)
    return out


def pile_moves(position: Position, rules: Rules, cms: Sequence[CardMove]) -> list[Move] | None:
    """The pile moves of a card line, every safe card sent home as soon as it can go."""
    table = Table(position, rules)
    out: list[Move] = []
    found = table.found

    def autos() -> None:
        again = True
        while again:
            again = False
            for c in [*(c for c in table.cells if c >= 0), *(col[-1] for col in table.cols if col)]:
                if found[c & 3] == c >> 2 and _safe(c, found, rules):
                    rec = table.play(c, TO_HOME)
                    if rec is not None:
                        out.append(table.pile_move(rec))
                        again = True

    autos()
    for b, d in cms:
        if table.loc[b] == AT_HOME and (d == TO_HOME or not rules.foundation_return):
            continue  # sent home early: its own moves go
        rec = table.play(b, d)
        if rec is None:
            if table.sup[b] == d:
                continue
            return None
        out.append(table.pile_move(rec))
        autos()
    return out if table.won() else None


def supports(position: Position, rules: Rules, cms: Sequence[CardMove]) -> list[bytes]:
    """The supports of every card in ``position`` and after each of ``cms``."""
    table = Table(position, rules)
    return [bytes(table.sup), *tail_supports(table, cms)]


def distance(a: bytes, b: bytes) -> int:
    """The cards whose supports differ: a lower bound on the moves between two states."""
    return sum(1 for x, y in zip(a, b, strict=True) if x != y)


def repair(position: Position, rules: Rules, cms: Sequence[CardMove], starts: Sequence[int]
           ) -> list[Move] | None:
    """The first of the lines ``cms[k:]`` (``k`` in ``starts``) that plays from ``position`` and wins.

    Card moves do not care where a card lies, only that it can go: so the
    rest of a known solution often plays, as it is, from a position a move
    or two off it.  Moves that became no-ops are dropped; as pile moves,
    with the safe auto-moves played as soon as they can go.
    """
    table = Table(position, rules)
    undo: list[Undo] = []
    for k in starts:
        kept = replay(table, cms[k:], undo)
        won = kept is not None and table.won()
        take_back(table, undo)
        if won and kept is not None:
            line = pile_moves(position, rules, kept)
            if line is not None:
                return line
    return None
