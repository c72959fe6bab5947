"""Small endgames decided exactly, and the survey of safe auto-moves over them.

:class:`Solver` tries every legal single-card move and remembers the
positions it proved lost (on a key that ignores the order of columns and of
free cells); :func:`survey` runs it over seeded random endgames, before and
after each safe auto-move, and counts what breaks (``tests/test_automove_safety.py``,
``tests/test_variants.py``).
"""

from __future__ import annotations

import contextlib
import functools
import random
from dataclasses import dataclass, field

from freecell.engine import (
    apply_move,
    home_moves,
    is_safe_home,
    legal_moves,
    moving_cards,
    play,
    safe_automove,
)
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.rules import Rules
from tests.support.boards import Key, Undecided, endgame, key


class Solver:
    """Exact solver over single-card moves; remembers the positions proved lost."""

    def __init__(self, rules: Rules, budget: int = 60_000) -> None:
        self.rules = rules
        self.budget = budget
        self.lost: set[Key] = set()

    def moves(self, pos: Position) -> list[Move]:
        out = [m for m in legal_moves(pos, self.rules, distinct=True) if m.count == 1]
        out.sort(key=lambda m: m.dst.kind == FOUNDATION)  # home moves are tried first
        return out

    def solve(self, pos: Position) -> list[Move] | None:
        """A winning line of single-card moves, or ``None`` if there is none."""
        if pos.is_won():
            return []
        root = key(pos)
        if root in self.lost:
            return None
        parent: dict[Key, tuple[Key, Move] | None] = {root: None}
        stack = [(root, pos)]
        while stack:
            k, here = stack.pop()
            for m in self.moves(here):
                nxt = apply_move(here, m)
                nk = key(nxt)
                if nxt.is_won():
                    line = [m]
                    step = parent[k]
                    while step is not None:
                        line.append(step[1])
                        step = parent[step[0]]
                    return line[::-1]
                if nk in parent or nk in self.lost:
                    continue
                parent[nk] = (k, m)
                stack.append((nk, nxt))
                if len(parent) > self.budget:
                    raise Undecided
        self.lost.update(parent)  # everything reachable was searched: all lost
        return None


def replay(pos: Position, line: list[Move], rules: Rules) -> None:
    for m in line:
        pos = play(pos, m, rules)  # raises on an illegal move
    assert pos.is_won()


@dataclass
class Tally:
    positions: int = 0
    undecided: int = 0
    winnable: int = 0
    lost: int = 0
    auto_winnable: int = 0  # a safe move offered in a winnable position
    auto_lost: int = 0
    unsafe_losing: int = 0  # an unsafe home move that turns a win into a loss
    broken: list[str] = field(default_factory=list)


@functools.cache
def survey(rules: Rules, seed: int, count: int) -> Tally:
    """Solve ``count`` random endgames and their safe auto-moves; note what breaks.

    Cached: a survey is run once and read by several tests.
    """
    rng = random.Random(seed)
    solver = Solver(rules)
    t = Tally()
    for _ in range(count):
        pos = endgame(rng, rules)
        t.positions += 1
        try:
            before = solver.solve(pos)
            move = safe_automove(pos, rules)
            after = None if move is None else solver.solve(apply_move(pos, move))
        except Undecided:
            t.undecided += 1
            continue
        if before is None:
            t.lost += 1
        else:
            t.winnable += 1
            replay(pos, before, rules)
        if move is not None:
            card = moving_cards(pos, move)[0]
            assert move.dst.kind == FOUNDATION and is_safe_home(pos, card, rules)
            if before is None:
                t.auto_lost += 1
            else:
                t.auto_winnable += 1
            if after is not None:
                replay(apply_move(pos, move), after, rules)
            if (before is None) != (after is None):
                t.broken.append(f"{move.text()} in\n{pos.to_text()}")
        if before is not None:
            # Every other home move too: the ones the rule calls safe must keep
            # the win; count the unsafe ones that lose it.
            for m in home_moves(pos):
                if m == move:
                    continue
                safe = is_safe_home(pos, moving_cards(pos, m)[0], rules)
                with contextlib.suppress(Undecided):
                    lost = solver.solve(apply_move(pos, m)) is None
                    if safe and lost:
                        t.broken.append(f"{m.text()} (also safe) in\n{pos.to_text()}")
                    t.unsafe_losing += not safe and lost
    return t
