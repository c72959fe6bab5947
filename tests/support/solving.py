"""A solver's answer checked: replayed through the engine, against an exact search, "sensible".

Node budgets, not seconds, wherever a test needs a solution it does not prove
lost: a node budget ends at the same point whatever the machine's load, so a
``solved`` never turns ``unknown`` on a busy machine.
"""

from __future__ import annotations

from pathlib import Path

from freecell.cards import KING, rank
from freecell.engine import apply_move, capacity, check_move, legal_moves, verify_solution
from freecell.piles import CELL, COLUMN, FOUNDATION, HOME, Move, cell, column, foundation
from freecell.position import Position
from freecell.rules import FREECELL, Build, EmptyColumn, Rules
from freecell.solver import SOLVED, UNSOLVABLE
from tests.support.boards import Key, Undecided, key

BOARDS = Path(__file__).resolve().parents[1] / "data" / "boards" / "solver"
# Enough for every deal the tests solve for a solution (deal 189, the largest, takes about 16,000).
ENOUGH_NODES = 200_000


def check_solution(start: Position, rules: Rules, moves: list[Move]) -> None:
    """Replay ``moves`` from ``start`` through the engine; they must win."""
    pos = start
    for i, m in enumerate(moves):
        refusal = check_move(pos, m, rules)
        assert refusal is None, f"move {i + 1} ({m.text()}) is illegal: {refusal}"
        if m.count > 1:
            to_empty = m.dst.kind == COLUMN and not pos.columns[m.dst.index]
            room = capacity(pos, rules, to_empty_column=to_empty)
            assert m.src.kind == COLUMN and m.dst.kind == COLUMN and m.count <= room, m.text()
        pos = apply_move(pos, m)
    assert pos.is_won()
    home_moves = sum(1 for m in moves if m.dst.kind == FOUNDATION)
    back_moves = sum(1 for m in moves if m.src.kind == FOUNDATION)
    assert home_moves - back_moves == 52 - start.cards_home()
    assert back_moves == 0 or rules.foundation_return
    assert verify_solution(start, moves, rules)[-1].is_won()  # the engine's own check agrees



def read_board(name: str, rules: Rules = FREECELL) -> Position:
    return Position.from_text((BOARDS / f"{name}.board").read_text(encoding="utf-8"), rules)



def single_moves(pos: Position, rules: Rules) -> list[Move]:
    """Every legal single-card move, found by asking ``check_move`` about each pair of piles."""
    sources = [column(i) for i, c in enumerate(pos.columns) if c]
    sources += [cell(i) for i, c in enumerate(pos.cells) if c is not None]
    if rules.foundation_return:
        sources += [foundation(s) for s in range(4) if pos.foundations[s]]
    targets = [HOME, *(column(i) for i in range(len(pos.columns)))]
    if None in pos.cells:
        targets.append(cell(pos.cells.index(None)))  # which empty cell does not matter
    out = [Move(s, t) for s in sources for t in targets if check_move(pos, Move(s, t), rules) is None]
    out.sort(key=lambda m: m.dst.kind == FOUNDATION)  # popped first from the stack
    return out


def exact(pos: Position, rules: Rules, budget: int = 50_000) -> list[Move] | None:
    """A winning line of single-card moves, or ``None`` when every reachable position is lost."""
    if pos.is_won():
        return []
    root = key(pos)
    parent: dict[Key, tuple[Key, Move] | None] = {root: None}
    stack = [(root, pos)]
    while stack:
        k, here = stack.pop()
        for m in single_moves(here, rules):
            nxt = apply_move(here, m)
            nk = key(nxt)
            if nk in parent:
                continue
            parent[nk] = (k, m)
            if nxt.is_won():
                line: list[Move] = []
                step = parent[nk]
                while step is not None:
                    line.append(step[1])
                    step = parent[step[0]]
                return line[::-1]
            if len(parent) > budget:
                raise Undecided
            stack.append((nk, nxt))
    return None


def exact_verdict(pos: Position, rules: Rules, budget: int = 50_000) -> str:
    line = exact(pos, rules, budget)
    if line is None:
        return UNSOLVABLE
    p = pos
    for m in line:
        assert check_move(p, m, rules) is None
        p = apply_move(p, m)
    assert p.is_won()
    return SOLVED



def why_not_sensible(pos: Position, move: Move | None, rules: Rules = FREECELL) -> str | None:
    """Why ``move`` is not a sensible move in ``pos``, or ``None`` if it is.

    Sensible means: legal; it changes the position, not just the order of
    columns or of free cells; and if one legal move can undo it at once (back
    to the same position, up to that order), then it does something: sends a
    card home, uncovers a card, empties a column, frees a cell by putting its
    card on a column card, or puts a king at the head of an empty column.
    What this leaves out is a shuffle: a whole column carried into an empty
    one, or a card other than a king parked from a free cell in an empty
    column (one kind of free space traded for another, nothing else changed).
    """
    if move is None:
        return "no move"
    refusal = check_move(pos, move, rules)
    if refusal is not None:
        return f"{move.text()} is illegal: {refusal.reason.value}"
    after = apply_move(pos, move)
    if key(after) == key(pos):
        return f"{move.text()} changes nothing but the order of the piles"
    undone = any(key(apply_move(after, back)) == key(pos) for back in legal_moves(after, rules))
    if not undone or move.dst.kind == FOUNDATION:
        return None
    dst_empty = move.dst.kind == COLUMN and not pos.columns[move.dst.index]
    if move.src.kind == COLUMN:
        left = len(pos.columns[move.src.index]) - move.count
        if left > 0 or not dst_empty:
            return None  # uncovers a card, or empties a column
    moved = pos.cells[move.src.index] if move.src.kind == CELL else None
    if move.src.kind == CELL and not dst_empty:
        return None  # a free cell's card put on a column card
    if dst_empty and moved is not None and rank(moved) == KING:
        return None
    return f"{move.text()} only shuffles free space and can be undone at once"

ENDGAME_RULES = [
    Rules(free_cells=0, columns=3),
    Rules(free_cells=1, columns=4),
    Rules(free_cells=2, columns=4),
    Rules(free_cells=0, columns=4, build=Build.SUIT),
    Rules(free_cells=1, columns=4, empty_column=EmptyColumn.KING),
    Rules(free_cells=1, columns=3, build=Build.ANY),
]
