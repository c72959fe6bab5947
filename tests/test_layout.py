"""The table's geometry (:mod:`freecell.ui.table.layout`): everything fits, nothing overlaps, the rule holds.

The rule (see the module's docstring): the card size depends on the table's
box only, as large as fits a column of ``PLANNED`` cards at the readable
strip; each column fans by its own length; only a column longer than the
layout's capacity makes the cards smaller.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell.game import Game
from freecell.position import Position
from freecell.ui.table import cardart
from freecell.ui.table.layout import (
    CARD_RATIO,
    LARGE_MIN_STRIP,
    MAX_CARD_WIDTH,
    MAX_FAN,
    MIN_STRIP,
    MIN_STRIP_PX,
    PLANNED,
    Layout,
    Rect,
    Spot,
    compute_layout,
    gap_needed,
    restack,
    stacking,
)

# The table area's box (top, width, height) at a viewport, as measured in the built page
# (bench/layout.py --page): a status bar of 32 px above; below, the message line and the action
# bar (beside it in phone landscape).  390x730 is the phone with slimmer bars.
AREAS = {
    (390, 844): (32, 390, 658),
    (844, 390): (32, 740, 358),
    (1280, 800): (32, 1280, 684),
    (360, 640): (32, 360, 454),
    (768, 1024): (32, 768, 908),
    (390, 730 + 32 + 82): (32, 390, 730),
}
SIZES = [(w, h) for _, w, h in AREAS.values()] + [(320, 480), (1920, 1000), (600, 300), (200, 900)]
SHAPES = [(4, 8), (8, 8), (4, 10), (0, 8), (1, 8)]  # (free cells, columns): FreeCell, Eight Off, Seahaven...
STRIPS = [MIN_STRIP, LARGE_MIN_STRIP]


def top_row(lay: Layout) -> list[Rect]:
    return list(lay.cells) + list(lay.foundations)


def long_column(length: int, columns: int = 8) -> Position:
    """Column 1 holds ``length`` cards, the others share the rest."""
    first = list(range(length))
    rest = list(range(length, 52))
    cols = [first] + [rest[i :: columns - 1] for i in range(columns - 1)]
    return Position(tuple(tuple(c) for c in cols), (None,) * 4, (0, 0, 0, 0))


def strips(lay: Layout, pos: Position) -> list[float]:
    """The strip every covered card shows, from the cards' spots."""
    spots = lay.spots(pos)
    out = []
    for col in pos.columns:
        ys = [spots[c].y for c in col]
        out += [b - a for a, b in itertools.pairwise(ys)]
    return out


# --- everything fits ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("left_handed", [False, True])
def test_everything_fits_and_nothing_overlaps(size: tuple[int, int], shape: tuple[int, int],
                                              left_handed: bool) -> None:
    w, h = size
    cells, cols = shape
    lay = compute_layout(w, h, cells, cols, 7, left_handed=left_handed)
    assert len(lay.cells) == cells and len(lay.columns) == cols and len(lay.foundations) == 4
    boxes = top_row(lay) + list(lay.columns)
    for r in boxes:
        assert r.x >= 0 and r.x + r.w <= w + 1e-6
    for a, b in itertools.combinations(top_row(lay), 2):
        assert a.overlap(b) == 0  # side by side, or one row above the other
    for a, b in itertools.combinations(lay.columns, 2):
        assert a.x + a.w <= b.x + 1e-6 or b.x + b.w <= a.x + 1e-6
    for r in top_row(lay):
        if lay.side:  # beside the columns, clear of them
            assert all(r.x + r.w < c.x or c.x + c.w < r.x for c in lay.columns)
        else:
            assert r.y + r.h < lay.columns[0].y  # the columns below the top rows
        assert r.y + r.h <= h + 1e-6
    if lay.lane is not None:  # the bars' lane: on the table, clear of every pile's own place
        assert lay.lane.x >= 0 and lay.lane.x + lay.lane.w <= w + 1e-6 and lay.lane.y + lay.lane.h <= h + 1e-6
        for r in top_row(lay):
            assert lay.lane.overlap(r) == 0
        for n in (1, 7, PLANNED):
            col = lay.columns[0]
            assert lay.lane.overlap(Rect(col.x, col.y, col.w, lay.column_bottom(0, n) - col.y)) == 0
    # a column up to the capacity fits, at the readable strip or wider
    assert lay.capacity >= PLANNED
    for n in (1, 7, PLANNED, lay.capacity):
        assert lay.column_bottom(0, n) <= h + 1e-6
        assert lay.fan(n) >= lay.card_h * MIN_STRIP - 1e-9


def test_a_top_row_wider_than_the_columns_splits_on_a_tall_narrow_table() -> None:
    """Eight Off on a phone held upright: the free cells above the foundations, bigger cards."""
    one_row = compute_layout(390, 200, 8, 8, 7)  # too short to split
    assert {r.y for r in one_row.cells + one_row.foundations} == {one_row.cells[0].y}
    lay = compute_layout(390, 658, 8, 8, 7)
    assert lay.card_w > (390 - 13 * 3) / 12 * 1.15  # far more than twelve across can have
    assert {r.y for r in lay.cells} == {lay.cells[0].y}
    assert {r.y for r in lay.foundations} == {lay.foundations[0].y}
    assert lay.cells[0].y < lay.foundations[0].y
    assert [r.x for r in lay.cells] == [r.x for r in lay.columns]  # each cell over a column
    assert min(r.x for r in lay.foundations) > lay.cells[3].x  # the foundations at the far side
    left = compute_layout(390, 658, 8, 8, 7, left_handed=True)
    assert max(r.x for r in left.foundations) < left.cells[4].x
    wide = compute_layout(1280, 684, 8, 8, 7)  # room enough: one row
    assert {r.y for r in wide.cells + wide.foundations} == {wide.cells[0].y}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("size", [(1280, 684), (390, 658)])
def test_left_handed_mirrors_the_top_row(shape: tuple[int, int], size: tuple[int, int]) -> None:
    cells, cols = shape
    right = compute_layout(*size, cells, cols, 7)
    left = compute_layout(*size, cells, cols, 7, left_handed=True)
    split = len({r.y for r in top_row(right)}) > 1
    if cells and not split:
        assert max(r.x for r in right.cells) < min(r.x for r in right.foundations)
        assert max(r.x for r in left.foundations) < min(r.x for r in left.cells)
    # the order within each row stays the same, and the columns do not move
    assert [r.x for r in left.cells] == sorted(r.x for r in left.cells)
    assert [r.x for r in left.foundations] == sorted(r.x for r in left.foundations)
    assert left.columns == right.columns
    assert left.card_w == right.card_w and left.capacity == right.capacity


def test_the_strip_constants_keep_the_cards_top_index_whole() -> None:
    assert CARD_RATIO == cardart.CARD_RATIO
    assert MIN_STRIP * CARD_RATIO >= cardart.TOP_STRIP - 1e-9
    assert LARGE_MIN_STRIP * CARD_RATIO >= cardart.LARGE_TOP_STRIP - 1e-9


# --- the card size: as large as fits, and independent of the columns ---------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("min_strip", STRIPS)
def test_the_cards_are_as_large_as_fits(size: tuple[int, int], shape: tuple[int, int],
                                        min_strip: float) -> None:
    """The width, a planned column at the readable strip, or the largest card: one of them is reached."""
    w, h = size
    cells, cols = shape
    lay = compute_layout(w, h, cells, cols, 0, min_strip)
    slots = max(cols, cells + 4) if len({r.y for r in top_row(lay)}) == 1 else max(cols, cells, 4)
    across = slots * lay.card_w + (slots + 1) * gap_needed(lay.card_w)
    down = lay.column_bottom(0, PLANNED) + gap_needed(lay.card_w)  # the bottom margin
    assert across <= w + 1e-6 and down <= h + 1e-6
    assert lay.card_w == MAX_CARD_WIDTH or across > w - 1e-6 or down > h - 1e-6
    # and the readable strip is reached at exactly the capacity
    assert lay.fan(lay.capacity) >= lay.card_h * min_strip - 1e-9
    assert lay.room / lay.capacity < lay.card_h * min_strip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("min_strip", STRIPS)
@pytest.mark.parametrize("left_handed", [False, True])
def test_a_growing_column_never_rescales_the_table_within_the_capacity(
        size: tuple[int, int], shape: tuple[int, int], min_strip: float, left_handed: bool) -> None:
    w, h = size
    cells, cols = shape
    lay = compute_layout(w, h, cells, cols, 0, min_strip, left_handed)
    for longest in range(lay.capacity + 1):
        assert compute_layout(w, h, cells, cols, longest, min_strip, left_handed) == lay
    # one card more: smaller cards, just enough for that column to fit at the readable strip
    for longest in (lay.capacity + 1, 19, 30):
        if longest <= lay.capacity:
            continue
        small = compute_layout(w, h, cells, cols, longest, min_strip, left_handed)
        # smaller cards, or a taller table, or the band kept for the bars given to the column
        assert small.card_w < lay.card_w or small.height > lay.height or (lay.lane and not small.lane)
        assert small.capacity >= longest
        assert small.column_bottom(0, longest) <= small.height + 1e-6
        assert small.fan(longest) >= min(small.card_h * min_strip, MIN_STRIP_PX) - 1e-9
        if small.height > max(h, 160):  # taller than the box only to keep the strips readable
            assert small.fan(longest) == pytest.approx(small.card_h * min_strip)
            assert small.card_h * min_strip == pytest.approx(MIN_STRIP_PX) or small.card_w == lay.card_w


def test_capacity_is_at_least_nineteen_cards_on_a_phone_held_upright() -> None:
    """Where the width limits the cards, the height left holds any FreeCell column: no rescale ever."""
    for size in [(390, 658), (390, 730), (360, 454 + 100), (412, 729)]:
        assert compute_layout(*size).capacity >= 19, size
    assert compute_layout(390, 658, min_strip=LARGE_MIN_STRIP).capacity >= 19


# --- each column's own fan ----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("min_strip", STRIPS)
def test_each_column_fans_by_its_own_length(size: tuple[int, int], min_strip: float) -> None:
    lay = compute_layout(*size, min_strip=min_strip)
    fans = [lay.fan(n) for n in range(1, lay.capacity + 3)]
    assert all(a >= b for a, b in itertools.pairwise(fans))  # longer, never wider
    assert fans[0] == lay.fan_max <= lay.card_h * MAX_FAN + 1e-9
    assert lay.fan(7) == lay.fan_max  # a deal's columns share the full fan
    assert min(fans) == pytest.approx(lay.card_h * min_strip)
    # a column that tightens uses the room to the table's bottom, no more
    for n in range(2, lay.capacity + 1):
        if lay.fan(n) < lay.fan_max:
            assert (n - 1) * lay.fan(n) == pytest.approx(lay.room)
    pos = long_column(17)
    spots = lay.spots(pos)
    for i, col in enumerate(pos.columns):
        step = lay.fan(len(col))
        for j, c in enumerate(col):
            assert spots[c].x == lay.columns[i].x
            assert spots[c].y == pytest.approx(lay.columns[i].y + j * step)
    assert lay.bottom(pos) == pytest.approx(max(spots[c].y for c in range(17)) + lay.card_h)


def test_bottom_of_an_empty_table_is_the_top_row() -> None:
    lay = compute_layout(390, 658)
    empty = Position(((),) * 8, (None,) * 4, (13, 13, 13, 13))
    assert lay.bottom(empty) == max(r.y + r.h for r in top_row(lay))


# --- the targets of issue 16 --------------------------------------------------------------------


@pytest.mark.parametrize("area", [AREAS[(390, 844)], (32, 390, 730)])
def test_phone_upright_deal_1_fills_the_screen_with_readable_strips(area: tuple[int, int, int]) -> None:
    top, w, h = area
    pos = Position.deal(1)
    lay = compute_layout(w, h, 4, 8, 7)
    assert lay.card_w >= 45
    assert 3 <= lay.gap <= 4
    assert min(strips(lay, pos)) >= 30
    assert 0.55 <= (top + lay.bottom(pos)) / 844 <= 0.85


@pytest.mark.parametrize("area", [AREAS[(390, 844)], (32, 390, 730)])
@pytest.mark.parametrize("min_strip", STRIPS)
def test_phone_upright_a_17_card_column_stays_readable(area: tuple[int, int, int], min_strip: float) -> None:
    _, w, h = area
    pos = long_column(17)
    short = compute_layout(w, h, 4, 8, 7, min_strip)
    lay = compute_layout(w, h, 4, 8, 17, min_strip)
    assert lay == short  # no rescale
    index = cardart.LARGE_TOP_STRIP if min_strip == LARGE_MIN_STRIP else cardart.TOP_STRIP
    long_strips = strips(lay, Position((pos.columns[0],) + ((),) * 7, (None,) * 4, (0, 0, 0, 0)))
    assert min(long_strips) >= max(18, lay.card_w * index)  # every rank readable
    assert lay.bottom(pos) <= h
    assert lay.fan(7) > lay.fan(17)  # the short columns keep their fan


@pytest.mark.parametrize("viewport", [(844, 390), (1280, 800), (360, 640), (768, 1024)])
def test_other_sizes_keep_every_strip_readable(viewport: tuple[int, int]) -> None:
    top, w, h = AREAS[viewport]
    for pos in (Position.deal(1), long_column(17)):
        longest = max(len(c) for c in pos.columns)
        lay = compute_layout(w, h, 4, 8, longest)
        assert min(strips(lay, pos)) >= lay.card_w * cardart.TOP_STRIP - 1e-6
        assert lay.bottom(pos) <= lay.height + 1e-6
        band = lay.lane.h if lay.lane is not None and not lay.side else 0.0  # the bars' band below
        assert top + lay.bottom(pos) + band >= 0.55 * viewport[1]  # the table uses the screen


@pytest.mark.parametrize("variant", ["seahaven", "eightoff"])
@pytest.mark.parametrize("viewport", list(AREAS))
def test_variants_fit_at_every_size(variant: str, viewport: tuple[int, int]) -> None:
    _, w, h = AREAS[viewport]
    pos = Game(1, variant=variant).position
    lay = compute_layout(w, h, len(pos.cells), len(pos.columns), max(len(c) for c in pos.columns))
    assert len(lay.columns) == len(pos.columns)
    assert lay.bottom(pos) <= lay.height + 1e-6
    assert min(strips(lay, pos)) >= lay.card_w * cardart.TOP_STRIP - 1e-6
    if viewport == (390, 844):
        assert lay.card_w >= (34 if variant == "seahaven" else 45)


# --- any size -----------------------------------------------------------------------------------


@given(
    st.floats(100, 2600), st.floats(100, 1600), st.sampled_from(SHAPES), st.integers(0, 40),
    st.sampled_from(STRIPS), st.booleans(),
)
def test_any_size_keeps_the_rule(w: float, h: float, shape: tuple[int, int], longest: int,
                                 min_strip: float, left_handed: bool) -> None:
    cells, cols = shape
    lay = compute_layout(w, h, cells, cols, longest, min_strip, left_handed)
    base = compute_layout(w, h, cells, cols, 0, min_strip, left_handed)
    assert (lay == base) == (longest <= base.capacity)
    assert lay.capacity >= max(PLANNED, longest)
    assert lay.fan(max(longest, 2)) >= lay.card_h * min_strip - 1e-9
    assert 0 < lay.card_w <= MAX_CARD_WIDTH
    assert lay.gap >= min(3.0, lay.card_w * 0.12) - 1e-9
    width, height = max(w, 160.0), max(h, 160.0)
    assert lay.column_bottom(cols - 1, max(longest, 1)) <= lay.height + 1e-6
    assert lay.height == height or lay.fan(longest) == pytest.approx(lay.card_h * min_strip)
    assert all(r.x >= -1e-6 and r.x + r.w <= width + 1e-6 for r in top_row(lay) + list(lay.columns))


# --- the targets of issue 25: the screen used, strips of 18 px or more ------------------------------


def span(lay: Layout) -> tuple[float, float]:
    boxes = top_row(lay) + list(lay.columns)
    return min(r.x for r in boxes), max(r.x + r.w for r in boxes)


def test_landscape_puts_the_piles_beside_the_columns_and_keeps_a_lane() -> None:
    """844x390: the cards are as large as the height allows, and the bars get felt of their own."""
    _, w, h = AREAS[(844, 390)]
    lay = compute_layout(w, h, 4, 8, 7)
    assert lay.side and lay.card_w >= 52  # was 45 with the top row above
    assert lay.lane is not None and lay.lane.w >= 150 and lay.lane.h >= h - 20
    x0, x1 = span(lay)
    assert x1 - x0 >= 0.75 * w


def test_desktop_spans_most_of_the_width() -> None:
    _, w, h = AREAS[(1280, 800)]
    lay = compute_layout(w, h, 4, 8, 7)
    x0, x1 = span(lay)
    assert lay.card_w >= 95  # was 84
    assert 0.8 <= (x1 - x0) / w <= 0.92


def test_phone_upright_keeps_a_band_for_the_bars_at_no_cost() -> None:
    _, w, h = AREAS[(390, 844)]
    lay = compute_layout(w, h, 4, 8, 7)
    assert not lay.side and lay.card_w >= 45
    assert lay.lane is not None and lay.lane.y + lay.lane.h == h and lay.lane.w == w
    assert lay.column_bottom(0, 20) <= lay.lane.y


@pytest.mark.parametrize("viewport", [(844, 390), (390, 844), (1280, 800)])
@pytest.mark.parametrize("min_strip", STRIPS)
def test_a_20_card_column_keeps_strips_of_18_px(viewport: tuple[int, int], min_strip: float) -> None:
    _, w, h = AREAS[viewport]
    pos = long_column(20)
    lay = compute_layout(w, h, 4, 8, 20, min_strip)
    assert min(strips(lay, pos)) >= MIN_STRIP_PX - 1e-6
    assert lay.bottom(pos) <= lay.height + 1e-6


def _drawn_in_pile_order(spots: dict[int, Spot], order: list[int]) -> bool:
    """Whether each pile's cards are drawn lower first (no card covers one that lies on it)."""
    at = {c: k for k, c in enumerate(order)}
    piles: dict[object, list[int]] = {}
    for c, s in spots.items():
        piles.setdefault(s.pile, []).append(c)
    return all(at[a] < at[b] for cards in piles.values() for a in cards for b in cards
               if spots[a].index < spots[b].index)


@given(st.integers(1, 32000), st.integers(1, 32000))
def test_a_new_deal_is_drawn_lower_cards_first(before: int, after: int) -> None:
    """The cards that go to another place are drawn over the rest, but never over a card that
    lies on them: deal 1 then deal 11982 left the three of clubs (column 8, third card in both)
    drawn under every other card, the king of spades on it hiding it."""
    layout = compute_layout(390, 844, 4, 8)
    old, new = layout.spots(Position.deal(before)), layout.spots(Position.deal(after))
    moved = {c for c in new if (old[c].pile, old[c].index) != (new[c].pile, new[c].index)}
    order, lifted = stacking(new, moved)
    assert sorted(order) == list(range(52)) and moved <= lifted
    assert _drawn_in_pile_order(new, order)


def _longest_increasing(seq: list[int]) -> int:
    best = [1] * len(seq)  # quadratic: the plain way, to check the fast one
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


@given(st.permutations(list(range(12))), st.permutations(list(range(12))))
def test_restack_draws_the_wanted_order_moving_the_fewest_cards(drawn: list[int], wanted: list[int]) -> None:
    """The document order the view gets by carrying out ``restack``'s moves one by one (as
    ``insertBefore`` does) is the wanted one, and only the cards off the longest run in order move."""
    doc = list(drawn)
    moves = restack(drawn, wanted)
    for card, before in moves:
        doc.remove(card)
        doc.insert(len(doc) if before is None else doc.index(before), card)
    assert doc == wanted
    at = {c: i for i, c in enumerate(drawn)}
    assert len(moves) == len(wanted) - _longest_increasing([at[c] for c in wanted])


def test_a_move_of_one_card_moves_one_element() -> None:
    layout = compute_layout(1280, 800, 4, 8)
    game = Game(deal=1)
    old = layout.spots(game.position)
    game.play(game.legal_moves()[0])  # 1a: one card to a free cell, nothing home
    new = layout.spots(game.position)
    moved = {c for c in new if (old[c].pile, old[c].index) != (new[c].pile, new[c].index)}
    assert len(restack(stacking(old, set())[0], stacking(new, moved)[0])) == len(moved) == 1


def test_deal_1_then_11982_keeps_the_three_of_clubs_under_the_king() -> None:
    layout = compute_layout(390, 844, 4, 8)
    old, new = layout.spots(Position.deal(1)), layout.spots(Position.deal(11982))
    moved = {c for c in new if (old[c].pile, old[c].index) != (new[c].pile, new[c].index)}
    assert moved != set(new)  # a card stays where it was: the case of the bug
    assert _drawn_in_pile_order(new, stacking(new, moved)[0])
