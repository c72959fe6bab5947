"""The table's geometry (:mod:`freecell.ui.layout`): everything fits, nothing overlaps."""

from __future__ import annotations

import itertools

import pytest

from freecell.ui.layout import Layout, Rect, compute_layout

SIZES = [(390, 700), (844, 330), (1280, 720), (320, 480)]
SHAPES = [(4, 8), (8, 8), (4, 10), (0, 8), (1, 8)]  # (free cells, columns): FreeCell, Eight Off, Seahaven...


def top_row(lay: Layout) -> list[Rect]:
    return list(lay.cells) + list(lay.foundations)


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
        assert r.y + r.h < lay.columns[0].y  # the columns below the top rows
        assert r.y + r.h <= h + 1e-6


def test_a_top_row_wider_than_the_columns_splits_on_a_tall_narrow_table() -> None:
    """Eight Off on a phone held upright: the free cells above the foundations, bigger cards."""
    one_row = 390 / (12 + 13 * 0.12)
    lay = compute_layout(390, 700, 8, 8, 7)
    assert lay.card_w > one_row * 1.15
    assert {r.y for r in lay.cells} == {lay.cells[0].y}
    assert {r.y for r in lay.foundations} == {lay.foundations[0].y}
    assert lay.cells[0].y < lay.foundations[0].y
    assert [r.x for r in lay.cells] == [r.x for r in lay.columns]  # each cell over a column
    assert min(r.x for r in lay.foundations) > lay.cells[3].x  # the foundations at the far side
    left = compute_layout(390, 700, 8, 8, 7, left_handed=True)
    assert max(r.x for r in left.foundations) < left.cells[4].x
    wide = compute_layout(1280, 720, 8, 8, 7)  # room enough: one row
    assert {r.y for r in wide.cells + wide.foundations} == {wide.cells[0].y}


@pytest.mark.parametrize("shape", SHAPES)
def test_left_handed_mirrors_the_top_row(shape: tuple[int, int]) -> None:
    cells, cols = shape
    right = compute_layout(1280, 720, cells, cols, 7)
    left = compute_layout(1280, 720, cells, cols, 7, left_handed=True)
    if cells:
        assert max(r.x for r in right.cells) < min(r.x for r in right.foundations)
        assert max(r.x for r in left.foundations) < min(r.x for r in left.cells)
    # the order within each row stays the same, and the columns do not move
    assert [r.x for r in left.cells] == sorted(r.x for r in left.cells)
    assert [r.x for r in left.foundations] == sorted(r.x for r in left.foundations)
    assert left.columns == right.columns
    assert left.card_w == right.card_w
