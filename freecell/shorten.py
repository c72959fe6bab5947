"""Shortening a solution: card moves, rewritten and re-searched stretch by stretch.

The solver's best-first search finds long solutions (a weighted estimate
trades length for speed).  :func:`shorten` makes them shorter before they are
returned, in three passes over card moves:

*Card moves* and their *supports* are :mod:`freecell.cardmoves`'s: a card
and where it goes, not from which column to which; the moves of a stretch
beyond the supports' lower bound are its *slack*.

1. Edits: delete one move, or send its card straight to where it goes next
   (and drop the later move); kept when the rest still plays and wins.
2. Windows: for a stretch with slack, a small depth-first search (moves that
   put a card onto its support at the stretch's end first, then a bounded
   number of other moves of the stretch's own cards) looks for a shorter way
   to the same state; a transposition table keyed by the supports keeps it
   from searching a state twice.  Each search and the whole pass have a node
   budget, so the pass costs a bounded time.
3. Auto-moves: every safe card goes home as soon as it can (as the game
   plays it), and its later moves are dropped.

Every pass keeps a rewrite only if the whole solution still plays legally
(under the rules' own checks, on :class:`freecell.cardmoves.Table`) and
ends with every card home; the solver replays the result through the engine
before returning it.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cardmoves import (
    AT_HOME,
    CELL0,
    TO_CELL,
    TO_EMPTY,
    TO_HOME,
    CardMove,
    Table,
    Undo,
    card_moves,
    pile_moves,
    replay,
    tail_supports,
    take_back,
)
from .piles import Move
from .position import Position
from .rules import Rules

# the window pass: the longest stretch searched, the nodes of one search, of the pass
WINDOWS = (10, 20)
WINDOW_NODES = 30
PASS_NODES = 300


class _Budget(Exception):
    """A window search ran out of nodes."""


def _edits(position: Position, rules: Rules, cms: list[CardMove]) -> list[CardMove]:
    """Delete a move, or send its card at once where it goes next, while the rest still wins."""
    table = Table(position, rules)
    k = 0
    undo: list[Undo] = []
    while k < len(cms):
        b, d = cms[k]
        better = None
        if d != TO_HOME:
            alts: list[int | None] = [None]
            for b2, d2 in cms[k + 1:]:
                if b2 == b:
                    if d2 != d:
                        alts.append(d2)
                    break
            for alt in alts:
                if alt is not None:
                    rec = table.play(b, alt)
                    if rec is None:
                        continue
                    undo.append(rec)
                kept = replay(table, cms[k + 1:], undo)
                if kept is not None and table.won() and len(kept) + (alt is not None) < len(cms) - k:
                    better = ([] if alt is None else [(b, alt)]) + kept
                take_back(table, undo)
                if better is not None:
                    break
        if better is not None:
            cms = cms[:k] + better
            continue  # the same place again: the next move may go too
        rec = table.play(b, d)
        if rec is None:
            raise AssertionError("a kept line stopped playing")
        k += 1
    return cms


def _search(table: Table, target: bytes, cards: Sequence[int], limit: int, max_nodes: int
            ) -> tuple[list[CardMove] | None, int]:
    """At most ``limit`` card moves of ``cards`` from the table's state to the supports ``target``.

    Depth first: first the moves that put a card onto its support in
    ``target``, then (while the bound allows) the other moves of those
    cards; ``None`` when there is none or the nodes run out.  With the
    number of nodes searched; the table is left as it was.
    """
    sup = table.sup
    h = sum(1 for c in cards if sup[c] != target[c])
    goal = tuple(target)  # a tuple's items are read faster than bytes' (by the interpreter)
    if h > limit:
        return None, 0
    path: list[CardMove] = []
    recs: list[Undo] = []
    seen: dict[bytes, int] = {}
    nodes = 0
    play, undo, cols = table.play, table.undo, table.cols

    def dfs(g: int, h: int) -> bool:
        nonlocal nodes
        if h == 0:
            return True
        if g + h > limit:
            return False
        key = bytes(sup)
        if seen.get(key, 999) <= g:
            return False
        seen[key] = g
        nodes += 1
        if nodes > max_nodes:
            raise _Budget
        loc = table.loc
        found = table.found
        fits = table.fits
        for c in cards:
            t = goal[c]
            if sup[c] == t:
                continue
            if t < TO_EMPTY:  # onto a card: only if it is a column's last card
                at = loc[t]
                if at >= CELL0 or cols[at][-1] != t:
                    continue
            elif t == TO_HOME and found[c & 3] != c >> 2:
                continue
            at = loc[c]
            if at < CELL0:  # refuse at once what play would: a buried card home or to a
                col = cols[at]  # cell, or one under a card that does not build on it
                if col[-1] != c and (t >= TO_CELL or not fits[col[col.index(c) + 1]][c]):
                    continue
            rec = play(c, t)
            if rec is not None:
                path.append((c, t))
                recs.append(rec)
                if dfs(g + 1, h - 1):
                    return True
                path.pop()
                undo(recs.pop())
        if g + 1 + h > limit:
            return False
        # the cards that can move: each column's last run, the free cells' cards
        tops = [col[-1] for col in cols if col]
        room = -1 in table.cells
        empty = [] in cols
        for c in cards:
            s = sup[c]
            t = goal[c]
            cost = 0 if s != t else 1
            if g + 1 + h + cost > limit:
                continue
            at = loc[c]
            if at >= AT_HOME:
                continue
            alone = at >= CELL0  # in a cell; else a column's last card, or in its last run
            if not alone:
                col = cols[at]
                if col[-1] == c:
                    alone = True
                elif not _in_run(col, c, fits):
                    continue
            row = fits[c]
            dests = [x for x in tops if row[x]]
            if empty and s != TO_EMPTY:
                dests.append(TO_EMPTY)
            if room and alone and s != TO_CELL:
                dests.append(TO_CELL)
            for d in dests:
                if d == t:
                    continue
                rec = play(c, d)
                if rec is not None:
                    path.append((c, d))
                    recs.append(rec)
                    if dfs(g + 1, h + cost):
                        return True
                    path.pop()
                    undo(recs.pop())
        return False

    try:
        found = dfs(0, h)
    except _Budget:
        found = False
    take_back(table, recs)
    return (path if found else None), nodes


def _in_run(col: list[int], c: int, fits: list[list[bool]]) -> bool:
    """Whether every card lying on ``c`` in ``col`` builds on the one below it."""
    p = col.index(c)
    return all(fits[col[i]][col[i - 1]] for i in range(p + 1, len(col)))




def _windows(position: Position, rules: Rules, cms: list[CardMove], window: int, budget: int
             ) -> tuple[list[CardMove], int]:
    """Re-search stretches with slack for a shorter way to the same state (see the module doc)."""
    table = Table(position, rules)
    sups = [bytes(table.sup), *tail_supports(table, cms)]
    spent = 0
    i = 0
    undo: list[Undo] = []
    while i < len(cms) - 2 and spent < budget:
        si = sups[i]
        lb = 0
        far = -1
        for j in range(i + 1, min(len(cms), i + window) + 1):
            b, d = cms[j - 1]
            lb += (d != si[b]) - (sups[j - 1][b] != si[b])
            if j - i - lb >= 1 and j - i >= 2:
                far = j
        if far > 0:
            cards: list[int] = []
            for b, _ in cms[i:far]:
                if b not in cards:
                    cards.append(b)
            path, nodes = _search(table, sups[far], cards, far - i - 1, min(WINDOW_NODES, budget - spent))
            spent += nodes
            if path is not None:
                kept = replay(table, path + cms[far:], undo)
                won = kept is not None and table.won()
                take_back(table, undo)
                if won and kept is not None and len(kept) < len(cms) - i:
                    cms = cms[:i] + kept
                    sups = sups[:i + 1] + tail_supports(table, kept)
                    continue
        if table.play(*cms[i]) is None:
            raise AssertionError("a kept line stopped playing")
        i += 1
    return cms, spent




def shorten(position: Position, rules: Rules, moves: Sequence[Move], budget: int = PASS_NODES) -> list[Move]:
    """A solution as short as the passes above make it (never longer); ``moves`` must win."""
    cms = card_moves(position, rules, moves)
    cms = _edits(position, rules, cms)
    for window in WINDOWS:
        if budget <= 0:
            break
        cms, spent = _windows(position, rules, cms, window, budget)
        budget -= spent
        cms = _edits(position, rules, cms)
    out = pile_moves(position, rules, cms)
    return out if out is not None and len(out) <= len(moves) else list(moves)
