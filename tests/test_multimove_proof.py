"""Brute-force proof that the multi-card move limit is exact.

The engine lets ``(f + 1) * 2**e`` cards move at once with ``f`` free cells
and ``e`` empty columns (an empty destination not counted), and ``f + 1`` when
only kings may fill an empty column.  Here an exhaustive search over
single-card moves decides, for each ``f`` in 0..4 and ``e`` in 0..3, whether a
run of ``L`` cards can reach its destination in order; it must succeed exactly
when ``L`` is within the limit.

The model: the run's cards may go to free cells, to empty columns (any card
may start an empty column; kings only under the king rule), onto another card
of the run when the build rule allows, to the destination, or back to the
column they came from.  The rest of the table does not help: the other columns
hold cards that accept nothing.  A destination that is not empty holds a card
one rank above the run's head, so the run is at most 12 cards long there and
13 into an empty column.  Where the limit is above the longest possible run,
the search must show that the longest run gets through.

A state keeps, for each spot, the run's indices it holds (0 is the head, the
highest card).  Free cells are interchangeable, and so are empty-column spots:
their contents are sorted in the state key.
"""

from __future__ import annotations

import pytest

from freecell.engine import capacity, check_move
from freecell.rules import FREECELL, EmptyColumn, Reason, Rules
from tests.support.boards import alternating_run, sequence_position

KING_RULES = Rules(empty_column=EmptyColumn.KING)

Stack = tuple[int, ...]
# (source column, free cells (sorted), empty-column spots (sorted), destination)
State = tuple[Stack, Stack, tuple[Stack, ...], Stack]


def run_reaches_destination(
    length: int, free_cells: int, empty_columns: int, *, to_empty: bool, rules: Rules
) -> bool:
    """Whether single-card moves can carry the whole run to the destination, in order."""
    run = alternating_run(13 if to_empty else 12, length)
    # fits[i][j]: card j of the run may lie on card i of the run
    fits = [[rules.builds_on(run[j], run[i]) for j in range(length)] for i in range(length)]
    king_only = rules.empty_column is EmptyColumn.KING

    def may_start_column(j: int) -> bool:
        return not king_only or run[j] // 4 + 1 == 13

    def may_go_on(stack: Stack, j: int, *, base_takes_head: bool, empty_takes_any: bool) -> bool:
        if stack:
            return fits[stack[-1]][j]
        if base_takes_head and j == 0:
            return True
        return empty_takes_any and may_start_column(j)

    start: State = (tuple(range(length)), (), ((),) * empty_columns, ())
    goal = tuple(range(length))
    seen = {start}
    stack = [start]  # depth first finds a way through sooner; unreachable means all was searched
    while stack:
        src, cells, spots, dst = stack.pop()
        # every card that may move: (where from, index of that spot, card)
        tops: list[tuple[str, int, int]] = []
        if src:
            tops.append(("src", 0, src[-1]))
        tops += [("cell", k, c) for k, c in enumerate(cells)]
        tops += [("spot", k, s[-1]) for k, s in enumerate(spots) if s]
        if dst:
            tops.append(("dst", 0, dst[-1]))
        for where, k, card in tops:
            n_src, n_cells, n_spots, n_dst = src, list(cells), list(spots), dst
            if where == "src":
                n_src = src[:-1]
            elif where == "cell":
                del n_cells[k]
            elif where == "spot":
                n_spots[k] = spots[k][:-1]
            else:
                n_dst = dst[:-1]
            targets: list[State] = []
            # back to the column it came from: onto the card above it, or the head onto the base
            if where != "src" and may_go_on(n_src, card, base_takes_head=True, empty_takes_any=False):
                targets.append((n_src + (card,), tuple(n_cells), tuple(n_spots), n_dst))
            if where != "cell" and len(n_cells) < free_cells:
                targets.append((n_src, (*n_cells, card), tuple(n_spots), n_dst))
            for j, spot in enumerate(n_spots):
                if where == "spot" and j == k:
                    continue
                if may_go_on(spot, card, base_takes_head=False, empty_takes_any=True):
                    put = list(n_spots)
                    put[j] = spot + (card,)
                    targets.append((n_src, tuple(n_cells), tuple(put), n_dst))
            if where != "dst" and may_go_on(
                n_dst, card, base_takes_head=not to_empty, empty_takes_any=to_empty
            ):
                if n_dst + (card,) == goal:
                    return True
                targets.append((n_src, tuple(n_cells), tuple(n_spots), n_dst + (card,)))
            for s, c, sp, d in targets:
                key = (s, tuple(sorted(c)), tuple(sorted(sp)), d)
                if key not in seen:
                    seen.add(key)
                    stack.append(key)
    return False


def test_the_search_sees_the_easy_cases() -> None:
    # One card always moves; two cards with nothing free never do.
    assert run_reaches_destination(1, 0, 0, to_empty=False, rules=FREECELL)
    assert run_reaches_destination(1, 0, 0, to_empty=True, rules=FREECELL)
    assert not run_reaches_destination(2, 0, 0, to_empty=False, rules=FREECELL)
    assert not run_reaches_destination(2, 0, 0, to_empty=True, rules=FREECELL)
    # Three cards with one cell and one empty column: 3 <= 4.
    assert run_reaches_destination(3, 1, 1, to_empty=False, rules=FREECELL)
    # Under the king rule the empty column does not help: 3 > 2.
    assert not run_reaches_destination(3, 1, 1, to_empty=False, rules=KING_RULES)


def _limit(f: int, e: int, rules: Rules) -> int:
    return f + 1 if rules.empty_column is EmptyColumn.KING else (f + 1) * 2**e


@pytest.mark.parametrize("rules", [FREECELL, KING_RULES], ids=["any", "king"])
@pytest.mark.parametrize("to_empty", [False, True], ids=["to-column", "to-empty"])
@pytest.mark.parametrize("e", range(4))
@pytest.mark.parametrize("f", range(5))
def test_capacity_is_exact(f: int, e: int, to_empty: bool, rules: Rules) -> None:
    limit = _limit(f, e, rules)
    longest = 13 if to_empty else 12
    # The engine's number, in a real position with exactly this free space.
    pos, _ = sequence_position(1, f, e, to_empty=to_empty, rules=rules)
    assert capacity(pos, rules, to_empty_column=to_empty) == limit
    # Brute force: the limit gets through and one more card does not (where a
    # run can be that long; else the longest run gets through).
    for length in sorted({min(limit, longest), limit + 1} & set(range(1, longest + 1))):
        reached = run_reaches_destination(length, f, e, to_empty=to_empty, rules=rules)
        assert reached == (length <= limit), (f, e, to_empty, length, limit)
        # check_move says the same of the real multi-card move.
        pos, move = sequence_position(length, f, e, to_empty=to_empty, rules=rules)
        refusal = check_move(pos, move, rules)
        if reached:
            assert refusal is None, move.text()
        else:
            assert refusal is not None
            numbers = (refusal.reason, refusal.moving, refusal.capacity)
            assert numbers == (Reason.TOO_MANY_CARDS, length, limit)
