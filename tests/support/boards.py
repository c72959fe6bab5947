"""Small helpers for the engine tests: build positions by hand, play at random.

A hand-built position lists only the cards that matter.  :func:`board` puts
every other card where it belongs: on its foundation when all the cards of its
suit below it are off the table, otherwise (a card whose suit has a lower card
still on the table) at the top of the column named by ``bury``, under the
cards given for that column.  Every position it returns passes
``Position.validate(rules)``: 52 distinct cards.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence

import pytest

from freecell.cards import Card, make_card, parse_card, rank, suit
from freecell.engine import apply_move, check_move, legal_moves
from freecell.piles import ANY_FOUNDATION, CELL, COLUMN, FOUNDATION, Move, Pile
from freecell.position import Position
from freecell.rules import FREECELL, Build, EmptyColumn, Rules

ColumnsSpec = Mapping[int, str] | Sequence[str]



def empty_columns(pos: Position) -> int:
    """How many columns of ``pos`` are empty."""
    return sum(1 for c in pos.columns if not c)

def cards(text: str) -> tuple[Card, ...]:
    """``"KS QH JC"`` as cards, in the order written."""
    return tuple(parse_card(t) for t in text.split())


def twenty_card_board() -> Position:
    """Column 1 holds 20 cards (8 that head no run, then a run from K♠ to 2♦): a long table."""
    run = list(cards("KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D"))
    rest = [c for c in range(52) if c not in run]
    cols = [tuple(rest[:8] + run)] + [tuple(rest[8:][i::7]) for i in range(7)]
    return Position(tuple(cols), (None,) * 4, (0, 0, 0, 0))


def mv(text: str) -> Move:
    """A move in standard notation: ``"38x3"``, ``"1h"``, ``"a5"``."""
    return Move.parse(text)


def board(
    columns: ColumnsSpec,
    cells: str | Sequence[str | None] = (),
    *,
    rules: Rules = FREECELL,
    bury: int | None = None,
) -> Position:
    """A position from column texts and free-cell cards; the other cards go home.

    ``columns`` maps column numbers (1-based, as in move notation) to their
    cards from the top (hidden) card to the exposed one, or lists all columns
    in order; columns not named are empty.  ``cells`` is ``"8D - -"`` or a
    sequence of card texts and ``None``; it is padded with empty cells up to
    ``rules.free_cells``.  Cards that cannot go home (because a lower card of
    their suit is on the table) are put at the top of column ``bury``; without
    ``bury`` such cards are an error.
    """
    if isinstance(columns, Mapping):
        bad = [k for k in columns if not 1 <= k <= rules.columns]
        if bad:
            raise ValueError(f"no column {bad[0]} with {rules.columns} columns")
        cols = [cards(columns.get(i + 1, "")) for i in range(rules.columns)]
    else:
        if len(columns) > rules.columns:
            raise ValueError(f"{len(columns)} columns given, the rules have {rules.columns}")
        cols = [cards(t) for t in columns] + [()] * (rules.columns - len(columns))
    cell_items = cells.split() if isinstance(cells, str) else list(cells)
    cell_cards: list[Card | None] = [
        None if t is None or t in ("-", "--") else parse_card(t) for t in cell_items
    ]
    if len(cell_cards) > rules.free_cells:
        raise ValueError(f"{len(cell_cards)} cells given, the rules have {rules.free_cells}")
    cell_cards += [None] * (rules.free_cells - len(cell_cards))
    on_table = [c for col in cols for c in col] + [c for c in cell_cards if c is not None]
    present = set(on_table)
    if len(present) != len(on_table):
        raise ValueError("a card is given twice")
    foundations = [13, 13, 13, 13]
    for c in present:
        foundations[suit(c)] = min(foundations[suit(c)], rank(c) - 1)
    missing = [
        make_card(r, s)
        for s in range(4)
        for r in range(foundations[s] + 1, 14)
        if make_card(r, s) not in present
    ]
    if missing:
        if bury is None:
            raise ValueError(f"{len(missing)} cards above the foundations are not placed; pass bury=")
        cols[bury - 1] = tuple(missing) + cols[bury - 1]
    pos = Position(
        tuple(cols),
        tuple(cell_cards),
        (foundations[0], foundations[1], foundations[2], foundations[3]),
    )
    return pos.validate(rules)


def spread(
    table: Sequence[Card],
    rules: Rules,
    *,
    empty_cells: int,
    empty_columns: int,
    first: Sequence[Sequence[Card]] = (),
) -> Position:
    """All 52 cards on the table with exactly the given free space.

    ``first`` gives the first columns exactly; the cards of ``table`` not in
    them fill the cells that are not free and then the remaining non-empty
    columns, round robin.  Foundations are empty.
    """
    used = {c for col in first for c in col}
    rest = [c for c in table if c not in used]
    taken_cells = rules.free_cells - empty_cells
    cell_cards: list[Card | None] = [rest.pop() for _ in range(taken_cells)]
    cell_cards += [None] * empty_cells
    n_filled = rules.columns - empty_columns - len(first)
    if n_filled < 1:
        raise ValueError("no column left for the other cards")
    fill: list[list[Card]] = [[] for _ in range(n_filled)]
    for i, c in enumerate(rest):
        fill[i % n_filled].append(c)
    cols = [tuple(c) for c in first] + [tuple(c) for c in fill] + [()] * empty_columns
    return Position(tuple(cols), tuple(cell_cards)).validate(rules)


def alternating_run(top_rank: int, length: int, *, red_first: bool = False) -> tuple[Card, ...]:
    """A run that builds down in alternating colours, its highest card first."""
    out = []
    for i in range(length):
        r = top_rank - i
        red = red_first != (i % 2 == 1)
        # cycle through both suits of each colour so the run looks like play
        s = (1, 2)[(i // 2) % 2] if red else (0, 3)[(i // 2) % 2]
        out.append(make_card(r, s))
    return tuple(out)


def all_piles(rules: Rules) -> list[Pile]:
    """Every pile a move may name: columns, cells, ``h`` and ``h1``-``h4``."""
    return (
        [Pile(COLUMN, i) for i in range(rules.columns)]
        + [Pile(CELL, i) for i in range(rules.free_cells)]
        + [Pile(FOUNDATION, ANY_FOUNDATION)]
        + [Pile(FOUNDATION, s) for s in range(4)]
    )


def brute_force_moves(pos: Position, rules: Rules) -> set[Move]:
    """Every move ``check_move`` accepts, found by trying every pile pair and count.

    A move to a named foundation ``h1``-``h4`` is given as the same move to
    ``h`` (the form :func:`legal_moves` uses).
    """
    out: set[Move] = set()
    piles = all_piles(rules)
    longest = max((len(c) for c in pos.columns), default=1)
    for src in piles:
        top = longest if src.kind == COLUMN else 2
        for dst in piles:
            for n in range(0, top + 2):
                m = Move(src, dst, n)
                if check_move(pos, m, rules) is None:
                    if dst.kind == FOUNDATION:
                        m = Move(src, Pile(FOUNDATION, ANY_FOUNDATION), n)
                    out.add(m)
    return out


def random_walk(
    pos: Position,
    rules: Rules,
    rng: random.Random,
    steps: int,
    *,
    home_bias: float = 0.3,
    build_bias: float = 0.5,
) -> list[Position]:
    """Positions reached by random legal moves.

    Home moves are picked with probability ``home_bias`` and moves onto a
    non-empty column with ``build_bias`` (when there are any), so that walks
    build the long runs that multi-card moves need.
    """
    seen = [pos]
    for _ in range(steps):
        moves = legal_moves(pos, rules)
        if not moves:
            break
        pos = apply_move(pos, pick_move(pos, moves, rng, home_bias, build_bias))
        seen.append(pos)
    return seen


def pick_move(
    pos: Position, moves: Sequence[Move], rng: random.Random, home_bias: float, build_bias: float
) -> Move:
    """One of ``moves`` at random, with the biases of :func:`random_walk`."""
    home = [m for m in moves if m.dst.kind == FOUNDATION]
    build = [m for m in moves if m.dst.kind == COLUMN and pos.columns[m.dst.index]]
    r = rng.random()
    if home and r < home_bias:
        return rng.choice(home)
    if build and r < home_bias + build_bias:
        return rng.choice(build)
    return rng.choice(moves)


def deal_positions(
    deals: Iterable[int], rules: Rules, rng: random.Random, steps: int, every: int
) -> list[Position]:
    """Every ``every``-th position of a random walk from each deal's start, and the last."""
    out: list[Position] = []
    for n in deals:
        walk = random_walk(Position.deal(n, rules), rules, rng, steps)
        out += walk[::every]
        if (len(walk) - 1) % every:
            out.append(walk[-1])  # where the walk ended, stuck or not
    return out


def sequence_position(
    length: int,
    empty_cells: int,
    empty_columns: int,
    *,
    to_empty: bool,
    rules: Rules = FREECELL,
) -> tuple[Position, Move]:
    """A run of ``length`` cards in column 1 and the move that carries it all.

    The run alternates colours and starts at a king (``to_empty``: it goes to
    an empty column) or at a black queen that goes onto the red king alone in
    column 2.  There are exactly ``empty_cells`` free cells and
    ``empty_columns`` empty columns besides the destination; every other card
    is in the other cells and columns, under nothing that matters.
    """
    top = 13 if to_empty else 12
    run = alternating_run(top, length)
    dst_base = () if to_empty else (make_card(13, 2),)  # the king of hearts
    used = set(run) | set(dst_base)
    junk = [c for c in range(52) if c not in used]
    src = (junk.pop(),) + run
    first = [src] if to_empty else [src, dst_base]
    pos = spread(
        junk,
        rules,
        empty_cells=empty_cells,
        empty_columns=empty_columns + (1 if to_empty else 0),
        first=first,
    )
    dst = rules.columns - 1 if to_empty else 1
    return pos, Move(Pile(COLUMN, 0), Pile(COLUMN, dst), length)


# --- fc-solve, the reference solver (Debian: freecell-solver-bin) -------------------------------

# --- small endgames and exact searches (tests/test_solver.py, tests/test_automove_safety.py) ---

Key = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[int, int, int, int]]


class Undecided(Exception):
    """An exact search went past its budget of positions."""


def key(pos: Position) -> Key:
    """The same for positions that differ only by the order of columns or of free cells."""
    return (
        tuple(sorted(pos.columns)),
        tuple(sorted(c for c in pos.cells if c is not None)),
        pos.foundations,
    )


def endgame(rng: random.Random, rules: Rules, low: int = 8, high: int = 14) -> Position:
    """``low`` to ``high`` cards on the table (the highest of each suit), dealt at random."""
    on_table = [0, 0, 0, 0]
    for _ in range(rng.randint(low, high)):
        on_table[rng.choice([s for s in range(4) if on_table[s] < 13])] += 1
    cards = [make_card(r, s) for s in range(4) for r in range(14 - on_table[s], 14)]
    rng.shuffle(cards)
    in_cells = rng.randint(0, rules.free_cells)
    cells: list[Card | None] = [cards.pop() for _ in range(in_cells)]
    cells += [None] * (rules.free_cells - in_cells)
    rng.shuffle(cells)
    columns: list[list[Card]] = [[] for _ in range(rules.columns)]
    for c in cards:
        columns[rng.randrange(rules.columns)].append(c)
    f = [13 - n for n in on_table]
    return Position(tuple(map(tuple, columns)), tuple(cells), (f[0], f[1], f[2], f[3])).validate(rules)


FC_SOLVE = shutil.which("fc-solve")
needs_fc_solve = pytest.mark.skipif(
    FC_SOLVE is None, reason="fc-solve is not on PATH (Debian: apt-get install freecell-solver-bin)"
)


def fc_solve(pos: Position, rules: Rules = FREECELL) -> str:
    """fc-solve's verdict on ``pos``: ``solved``, ``unsolvable`` or ``unknown`` (iterations ran out).

    fc-solve's default scan uses meta-moves and may call a solvable board
    unsolvable (``fc-solve --help``); its atomic-moves scan (``-to 01ABCDE``)
    is exhaustive but can take a minute where the default takes a
    millisecond (deal 12000).  So the default scan runs first and, only when
    it fails, the atomic one (``-ni``: the next instance runs when the one
    before found no solution).  Without ``-sel`` (``--show-exceeded-limits``),
    fc-solve 5.0 prints "I could not solve this game." also when ``-mi`` cut
    the search short.  fc-solve reads at most about 20 cards in a column, so
    the boards given to it keep their columns short.
    """
    assert FC_SOLVE is not None and not rules.foundation_return and rules.build is not Build.ANY
    game = ["--freecells-num", str(rules.free_cells), "--stacks-num", str(rules.columns)]
    if rules.build is Build.SUIT:
        game += ["--sequences-are-built-by", "suit"]
    if rules.empty_column is EmptyColumn.KING:
        game += ["--empty-stacks-filled-by", "kings"]
    limit = ["-mi", "3000000"]
    args = [FC_SOLVE, "-sel", *game, *limit, "-ni", *game, "-to", "01ABCDE", *limit, "-"]
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    r = subprocess.run(args, input=pos.to_text(), capture_output=True, text=True, timeout=120, env=env)
    out = r.stdout + r.stderr
    if "This game is solveable." in out:
        return "solved"
    if "I could not solve this game." in out:
        return "unsolvable"
    if "Iterations count exceeded." in out:
        return "unknown"
    raise AssertionError(f"fc-solve said: {out[:500]!r}")
