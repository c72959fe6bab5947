"""The rules engine: legality, applying moves, legal moves, multi-card moves.

:func:`check_move` is the one legality function: the page, the game session
and the solver all ask it.  It returns ``None`` for a legal move, else a
:class:`~freecell.rules.Refusal` with a reason code.

Multi-card moves are a shortcut for single-card moves through free cells and
empty columns.  With ``f`` empty free cells and ``e`` empty columns (an empty
destination column not counted) at most ``(f + 1) * 2**e`` cards may move at
once; when only kings fill empty columns, those columns cannot hold the cards
set aside and the limit is ``f + 1``.  :func:`expand` gives the single-card
steps that realise a legal multi-card move, and the tests check by brute force
that the formula allows exactly what single-card steps can do.

Safe auto-moves (:func:`safe_automove`): a card goes to its foundation by
itself only when no card left on the table could still need it as a base.  A
card of rank ``r`` can be a base only for cards of rank ``r - 1`` that the build
rule lets lie on it (the other colour when colours alternate, the same suit
when suits follow, any suit otherwise); if all of those are already home,
nothing can ever be put on it, so sending it home loses nothing (any solution
of the position before stays a solution without the moves of that card).  Aces
and twos are always safe: an ace never needs a base, it can always go home.
When cards may come back from the foundations, a card home can come back and
want a base, so only aces and twos go up by themselves.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import KING, Card, is_red_suit
from .piles import ANY_FOUNDATION, CELL, COLUMN, FOUNDATION, Move, Pile, cell, column, foundation
from .position import Position
from .rules import Build, EmptyColumn, Reason, Refusal, Rules, move_capacity

_R = Refusal
_NO_SUCH_PILE = _R(Reason.NO_SUCH_PILE)
_SAME_PILE = _R(Reason.SAME_PILE)
_NOTHING = _R(Reason.NOTHING_TO_MOVE)
_BAD_COUNT = _R(Reason.BAD_COUNT)


class IllegalMoveError(ValueError):
    """A move the rules refuse; ``refusal`` says why."""

    def __init__(self, move: Move, refusal: Refusal) -> None:
        super().__init__(f"illegal move {move.text()}: {refusal.reason.value}")
        self.move = move
        self.refusal = refusal


def capacity(pos: Position, rules: Rules, to_empty_column: bool = False) -> int:
    """How many cards may move at once: to a non-empty column, or to an empty one (:func:`move_capacity`)."""
    if rules.empty_column is not EmptyColumn.ANY:
        return move_capacity(pos.cells.count(None), 0)
    e = sum(1 for c in pos.columns if not c) - (1 if to_empty_column else 0)
    return move_capacity(pos.cells.count(None), e)


def _exists(pos: Position, pile: Pile) -> bool:
    if pile.kind == COLUMN:
        return 0 <= pile.index < len(pos.columns)
    if pile.kind == CELL:
        return 0 <= pile.index < len(pos.cells)
    return pile.kind == FOUNDATION and (pile.index == ANY_FOUNDATION or 0 <= pile.index < 4)


def run_length(col: tuple[Card, ...], rules: Rules) -> int:
    """How many cards at the bottom of a column form a run that builds down."""
    n = len(col)
    if n == 0:
        return 0
    k = 1
    while k < n and rules.builds_on(col[n - k], col[n - k - 1]):
        k += 1
    return k


def moving_cards(pos: Position, move: Move) -> tuple[Card, ...]:
    """The cards a (checked) move carries, top card first."""
    src = move.src
    if src.kind == COLUMN:
        return pos.columns[src.index][-move.count :]
    if src.kind == CELL:
        c = pos.cells[src.index]
        return () if c is None else (c,)
    n = pos.foundations[src.index]
    return ((n - 1) * 4 + src.index,) if n else ()


def check_move(pos: Position, move: Move, rules: Rules) -> Refusal | None:
    """Why ``move`` is illegal in ``pos`` under ``rules``, or ``None`` if it is legal."""
    src, dst = move.src, move.dst
    if not (_exists(pos, src) and _exists(pos, dst)):
        return _NO_SUCH_PILE
    if src == dst or (src.kind == dst.kind == FOUNDATION and dst.index == ANY_FOUNDATION):
        return _R(Reason.FOUNDATION_TO_FOUNDATION) if src.kind == FOUNDATION else _SAME_PILE
    cards = _moving(pos, move, rules)
    if isinstance(cards, Refusal):
        return cards
    if dst.kind == FOUNDATION:
        return _to_foundation(pos, move, cards[0])
    if dst.kind == CELL:
        return _to_cell(pos, move)
    return _to_column(pos, move, rules, cards[0])


def _moving(pos: Position, move: Move, rules: Rules) -> tuple[Card, ...] | Refusal:
    """The cards ``move`` takes from its source (a run that builds), or why it cannot take them."""
    src, count = move.src, move.count
    if src.kind == COLUMN:
        col = pos.columns[src.index]
        if not col:
            return _NOTHING
        if not 1 <= count <= len(col):
            return _BAD_COUNT
        cards = col[-count:]
        for i in range(count - 1):
            if not rules.builds_on(cards[i + 1], cards[i]):
                return _R(Reason.BROKEN_SEQUENCE)
    elif src.kind == CELL:
        card = pos.cells[src.index]
        if card is None:
            return _NOTHING
        if count != 1:
            return _BAD_COUNT
        cards = (card,)
    else:
        if src.index == ANY_FOUNDATION:
            return _NO_SUCH_PILE
        if not rules.foundation_return:
            return _R(Reason.FROM_FOUNDATION_OFF)
        n = pos.foundations[src.index]
        if n == 0:
            return _NOTHING
        if count != 1:
            return _BAD_COUNT
        cards = ((n - 1) * 4 + src.index,)
    return cards


def _to_foundation(pos: Position, move: Move, head: Card) -> Refusal | None:
    if move.src.kind == FOUNDATION:
        return _R(Reason.FOUNDATION_TO_FOUNDATION)
    if move.count != 1:
        return _R(Reason.ONE_CARD_TO_FOUNDATION)
    s = head & 3
    if move.dst.index != ANY_FOUNDATION and move.dst.index != s:
        return _R(Reason.WRONG_FOUNDATION)
    n = pos.foundations[s]
    if n != head // 4:  # with the card on top of that foundation, if any
        return _R(Reason.NOT_NEXT_FOR_FOUNDATION, card=head, onto=(n - 1) * 4 + s if n else None)
    return None


def _to_cell(pos: Position, move: Move) -> Refusal | None:
    if move.src.kind == CELL:
        return _R(Reason.CELL_TO_CELL)
    if move.count != 1:
        return _R(Reason.ONE_CARD_TO_CELL)
    if pos.cells[move.dst.index] is not None:
        return _R(Reason.CELL_TAKEN)
    return None


def _to_column(pos: Position, move: Move, rules: Rules, head: Card) -> Refusal | None:
    dst, count = move.dst, move.count
    target = pos.columns[dst.index]
    if target:
        base = target[-1]
        if base // 4 != head // 4 + 1:
            return _R(Reason.NOT_ONE_LOWER, card=head, onto=base)
        if not rules.builds_on(head, base):
            reason = Reason.WRONG_COLOUR if rules.build is Build.ALTERNATE else Reason.WRONG_SUIT
            return _R(reason, card=head, onto=base)
        room = capacity(pos, rules)
    else:
        if rules.empty_column is EmptyColumn.KING and head // 4 + 1 != KING:
            return _R(Reason.KING_ONLY)
        room = capacity(pos, rules, to_empty_column=True)
    if count > room:
        empty = sum(1 for c in pos.columns if not c) - (0 if target else 1)
        return _R(Reason.TOO_MANY_CARDS, count, room, cells=pos.cells.count(None), columns=empty,
                  onto=target[-1] if target else None)
    return None


def apply_move(pos: Position, move: Move) -> Position:
    """The position after ``move``, which must be legal (it is not checked)."""
    cols = pos.columns
    cells = pos.cells
    found = pos.foundations
    src, dst, n = move.src, move.dst, move.count
    if src.kind == COLUMN:
        col = cols[src.index]
        cards = col[-n:]
        cols = cols[: src.index] + (col[:-n],) + cols[src.index + 1 :]
    elif src.kind == CELL:
        c = cells[src.index]
        if c is None:
            raise ValueError(f"apply_move: cell {src.text()} is empty")
        cards = (c,)
        cells = cells[: src.index] + (None,) + cells[src.index + 1 :]
    else:
        s = src.index
        cards = ((found[s] - 1) * 4 + s,)
        found = _with(found, s, found[s] - 1)
    if dst.kind == COLUMN:
        cols = cols[: dst.index] + (cols[dst.index] + cards,) + cols[dst.index + 1 :]
    elif dst.kind == CELL:
        cells = cells[: dst.index] + (cards[0],) + cells[dst.index + 1 :]
    else:
        s = cards[0] & 3
        found = _with(found, s, found[s] + 1)
    return Position(cols, cells, found)


def _with(found: tuple[int, int, int, int], s: int, v: int) -> tuple[int, int, int, int]:
    t = list(found)
    t[s] = v
    return (t[0], t[1], t[2], t[3])


class NotASolutionError(ValueError):
    """Moves that are not a solution: move ``index`` (from 0) is refused, or (``index`` ``None``) they
    do not end with every card home."""

    def __init__(self, message: str, index: int | None = None, move: Move | None = None,
                 refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.move = move
        self.refusal = refusal


def verify_solution(start: Position, moves: Sequence[Move], rules: Rules) -> list[Position]:
    r"""Replay ``moves`` from ``start``, each checked: the positions along them, ``start`` first.

    The one replay-and-verify of a solution (a worker's reply, a known path,
    the solver's own answer): :class:`NotASolutionError` when a move is
    refused where it is played or the last position is not won.

    >>> from freecell.rules import FREECELL
    >>> pos = Position.from_text("Foundations: H-K C-K D-K S-Q\nFreecells: KS\n" + ":\n" * 8)
    >>> len(verify_solution(pos, [Move.parse("ah")], FREECELL))
    2
    >>> verify_solution(pos, [], FREECELL)
    Traceback (most recent call last):
    ...
    freecell.engine.NotASolutionError: the moves do not end with every card home
    """
    positions = [start]
    pos = start
    for i, m in enumerate(moves):
        refusal = check_move(pos, m, rules)
        if refusal is not None:
            raise NotASolutionError(f"move {i + 1} ({m.text()}) is illegal: {refusal.reason.value}", i, m,
                                    refusal)
        pos = apply_move(pos, m)
        positions.append(pos)
    if not pos.is_won():
        raise NotASolutionError("the moves do not end with every card home")
    return positions


def play(pos: Position, move: Move, rules: Rules) -> Position:
    """Check then apply; :class:`IllegalMoveError` on a refused move."""
    refusal = check_move(pos, move, rules)
    if refusal is not None:
        raise IllegalMoveError(move, refusal)
    return apply_move(pos, move)


def legal_moves(pos: Position, rules: Rules, distinct: bool = False) -> list[Move]:
    """Every legal move (cell to cell never is one).

    With ``distinct``, moves that differ only by which empty free cell or which
    empty column they go to are given once (to the first such pile), and a
    whole column carried into an empty one (which changes nothing) is left
    out: this is the form the solver wants; the page wants them all.
    """
    empty_cells = [i for i, c in enumerate(pos.cells) if c is None]
    empty_cols = [i for i, c in enumerate(pos.columns) if not c]
    if distinct:
        empty_cells = empty_cells[:1]
        empty_cols = empty_cols[:1]
    out: list[Move] = []
    for si, col in enumerate(pos.columns):
        if col:
            out += _column_moves(pos, rules, si, empty_cells, empty_cols, distinct)
    # sources that hold one card: cells, and foundations when cards come back
    singles: list[tuple[Pile, Card]] = [(cell(i), c) for i, c in enumerate(pos.cells) if c is not None]
    if rules.foundation_return:
        singles += [(foundation(s), (n - 1) * 4 + s) for s, n in enumerate(pos.foundations) if n]
    for src, c in singles:
        out += _single_moves(pos, rules, src, c, empty_cells, empty_cols)
    return out


def _column_moves(pos: Position, rules: Rules, si: int, empty_cells: list[int], empty_cols: list[int],
                  distinct: bool) -> list[Move]:
    """The legal moves from column ``si`` (not empty): home, to a free cell, runs onto the columns."""
    col = pos.columns[si]
    bottom = col[-1]
    src = column(si)
    out = [Move(src, foundation())] if pos.foundations[bottom & 3] == bottom // 4 else []
    out += [Move(src, cell(i)) for i in empty_cells]
    run = run_length(col, rules)
    room = capacity(pos, rules)
    room_empty = capacity(pos, rules, to_empty_column=True)
    king_only = rules.empty_column is EmptyColumn.KING
    for di, target in enumerate(pos.columns):
        if di == si:
            continue
        if target:
            base = target[-1]
            k = next((k for k in range(1, min(run, room) + 1) if rules.builds_on(col[-k], base)), None)
            if k is not None:
                out.append(Move(src, column(di), k))
        elif di in empty_cols:
            for k in range(1, min(run, room_empty) + 1):
                if distinct and k == len(col):
                    break  # the whole column into an empty one: no change
                if not (king_only and col[-k] // 4 + 1 != KING):
                    out.append(Move(src, column(di), k))
    return out


def _single_moves(pos: Position, rules: Rules, src: Pile, c: Card, empty_cells: list[int],
                  empty_cols: list[int]) -> list[Move]:
    """The legal moves of card ``c``, alone on ``src`` (a free cell, or a foundation it may leave)."""
    out = [Move(src, foundation())] if src.kind == CELL and pos.foundations[c & 3] == c // 4 else []
    if src.kind == FOUNDATION:
        out += [Move(src, cell(i)) for i in empty_cells]
    king_only = rules.empty_column is EmptyColumn.KING
    for di, target in enumerate(pos.columns):
        if target:
            if rules.builds_on(c, target[-1]):
                out.append(Move(src, column(di)))
        elif di in empty_cols and not (king_only and c // 4 + 1 != KING):
            out.append(Move(src, column(di)))
    return out


def is_stuck(pos: Position, rules: Rules) -> bool:
    """No move is left that changes anything.

    Cell-to-cell shuffles are not moves, and neither is carrying a whole column
    into an empty one (the same position with the columns relabelled);
    :func:`legal_moves` leaves both out already.
    """
    return not pos.is_won() and not legal_moves(pos, rules, distinct=True)


def is_safe_home(pos: Position, card: Card, rules: Rules) -> bool:
    """Whether ``card`` (next for its foundation) can go home without loss.

    Why the rule is sound, for every build rule and either empty-column rule
    (cards never coming back from the foundations).  Let ``c`` have rank ``r``
    and suit ``s``; its dependants are the cards the build rule lets lie on it:
    the rank ``r - 1`` cards of the other colour (ALTERNATE), of the other
    suits (ANY), or of suit ``s`` alone (SUIT).  Say every dependant is home.
    Foundations only grow, so nothing can ever lie on ``c`` again: until it
    goes home, ``c`` is a column's last card or in a free cell, and a
    multi-card move that carries it carries it last.  Take any winning line
    from ``pos`` and delete ``c`` from it: drop the moves of ``c`` alone, carry
    one card less in the moves that carried it below others.  At each step the
    new position is the old one without ``c``, so no column bottom changes
    except where ``c`` was, and there are as many or more empty free cells and
    empty columns.  Each kept move is then legal: the same head card onto the
    same base (never ``c``) or into a column that was empty before too, the
    same run or that run less its last card, and a capacity at least as large
    (``(f + 1) * 2**e`` or, when only kings fill empty columns, ``f + 1``;
    both grow with ``f`` and ``e``).  Foundation moves of other suits are
    untouched, and the next card of suit ``s`` went home after ``c`` anyway.
    So the shortened line wins: the position after the move is winnable if
    the one before was (and conversely, by playing ``c`` home first).

    Under SUIT the only dependant of ``c`` is the card of rank ``r - 1`` of
    suit ``s``, and it is home because ``c`` is next for its foundation: every
    card that can go home is safe, whatever the free cells and columns.
    Aces have no dependant; a two's dependants are aces, and an ace never
    needs a base (whenever it could go onto the two it can go home instead),
    so aces and twos are always safe.  When cards may come back from the
    foundations a dependant can come back too, so only those two ranks are.
    ``tests/test_automove_safety.py`` and ``tests/test_variants.py`` check
    this exhaustively on small endgames.
    """
    r = card // 4 + 1
    if r <= 2:
        return True
    if rules.foundation_return:
        return False  # any card home could come back and want it as a base
    if rules.build is Build.SUIT:
        return True
    s = card & 3
    f = pos.foundations
    if rules.build is Build.ALTERNATE:
        red = is_red_suit(s)
        return all(f[t] >= r - 1 for t in range(4) if is_red_suit(t) != red)
    return all(f[t] >= r - 1 for t in range(4) if t != s)


def safe_automove(pos: Position, rules: Rules) -> Move | None:
    """One card that may go home by itself (see the module docstring), or ``None``."""
    f = pos.foundations
    for i, c in enumerate(pos.cells):
        if c is not None and f[c & 3] == c // 4 and is_safe_home(pos, c, rules):
            return Move(cell(i), foundation())
    for i, col in enumerate(pos.columns):
        if col:
            c = col[-1]
            if f[c & 3] == c // 4 and is_safe_home(pos, c, rules):
                return Move(column(i), foundation())
    return None


def home_moves(pos: Position) -> Iterator[Move]:
    """Moves that send an exposed card (column bottom or free cell) home."""
    f = pos.foundations
    for i, c in enumerate(pos.cells):
        if c is not None and f[c & 3] == c // 4:
            yield Move(cell(i), foundation())
    for i, col in enumerate(pos.columns):
        if col and f[col[-1] & 3] == col[-1] // 4:
            yield Move(column(i), foundation())


def finish_move(pos: Position) -> Move | None:
    """The next card Finish sends home: the lowest exposed card that can go."""
    best: Move | None = None
    best_rank = 99
    for m in home_moves(pos):
        r = pos.foundations[moving_cards(pos, m)[0] & 3]
        if r < best_rank:
            best, best_rank = m, r
    return best


def can_finish(pos: Position) -> bool:
    """Whether every card left can go home using only column bottoms and free cells."""
    if pos.is_won():
        return False
    while True:
        m = next(home_moves(pos), None)
        if m is None:
            return pos.is_won()
        pos = apply_move(pos, m)


def expand(pos: Position, move: Move, rules: Rules) -> list[Move]:
    """The single-card moves through free cells and empty columns that realise ``move``.

    ``move`` must be legal.  A one-card move expands to itself.
    """
    if move.count == 1:
        return [move]
    cells_free = [cell(i) for i, c in enumerate(pos.cells) if c is None]
    empties: list[Pile] = []
    if rules.empty_column is EmptyColumn.ANY:
        empties = [column(i) for i, c in enumerate(pos.columns) if not c and column(i) != move.dst]
    return _steps(move.count, move.src, move.dst, cells_free, empties)


def _steps(n: int, src: Pile, dst: Pile, cells_free: list[Pile], empties: list[Pile]) -> list[Move]:
    if n <= len(cells_free) + 1:
        use = cells_free[: n - 1]
        return (
            [Move(src, c) for c in use]
            + [Move(src, dst)]
            + [Move(c, dst) for c in reversed(use)]
        )
    aside_pile, rest = empties[0], empties[1:]
    half = (len(cells_free) + 1) << len(rest)
    aside = n - half if n > half else n // 2
    return (
        _steps(aside, src, aside_pile, cells_free, rest)
        + _steps(n - aside, src, dst, cells_free, rest)
        + _steps(aside, aside_pile, dst, cells_free, rest)
    )
