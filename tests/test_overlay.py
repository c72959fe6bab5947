"""Where the hint bar and the notice float (:mod:`freecell.ui.table.overlay`): never over what they need.

Over the three sizes of the issue (their table areas: the page's bars taken
off), deal 1, Seahaven, Eight Off and a board with a 17-card column, for
every legal move as the hint, a bar floating over the table covers none of
the cards and piles the hint names, and the notice none of those nor the
free cells, the foundations or the hint bar.  Where the layout keeps a lane
beside the table, the bars stacked in it cover no card at all, a 20-card
column included (issue 25).
"""

from __future__ import annotations

import pytest

from freecell.game import Game
from freecell.position import Position
from freecell.ui.analysis.analysis import HintBar, HintState
from freecell.ui.table import overlay
from freecell.ui.table.layout import Layout, Rect, compute_layout
from freecell.ui.text.bars import hint_marks
from tests.support.boards import cards

# The table area at each size (the status bar, message line and buttons taken off, as the page has them).
AREAS = {"390x844": (390.0, 658.0), "844x390": (740.0, 358.0), "1280x800": (1280.0, 656.0)}
BAR_H = 44.0  # a hint bar of one line (two on a phone: see test_a_taller_bar)


def long_column(buried: int = 5) -> Position:
    run = list(cards("KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D"))
    rest = [c for c in range(52) if c not in run]
    cols = [tuple(rest[:buried] + run)] + [tuple(rest[buried:][i::7]) for i in range(7)]
    return Position(tuple(cols), (None,) * 4, (0, 0, 0, 0))


def games() -> dict[str, Game]:
    return {"deal 1": Game(1), "seahaven": Game(5, variant="seahaven"),
            "eightoff": Game(5, variant="eightoff"), "17 cards": Game(position=long_column()),
            "20 cards": Game(position=long_column(8))}


def bar_span(layout: Layout) -> tuple[float, float]:
    """A bar floating over the table: 8 px in from each side (or over the columns), at most 40rem wide."""
    return overlay.float_span(layout)


def overlaps(y: float, h: float, x0: float, x1: float, r: Rect) -> bool:
    return y < r.y + r.h and y + h > r.y and x0 < r.x + r.w and x1 > r.x


def layout_for(size: str, game: Game) -> Layout:
    w, h = AREAS[size]
    rules = game.rules
    return compute_layout(w, h, rules.free_cells, rules.columns, max(len(c) for c in game.position.columns))


@pytest.mark.parametrize("size", AREAS)
@pytest.mark.parametrize("name", ["deal 1", "seahaven", "eightoff", "17 cards", "20 cards"])
def test_the_bars_never_cover_what_the_hint_names(size: str, name: str) -> None:
    game = games()[name]
    pos = game.position
    layout = layout_for(size, game)
    x0, x1 = bar_span(layout)
    for move in game.legal_moves():
        piles, cards, _ = hint_marks(HintBar(HintState.FOUND, pos, move))
        named = overlay.hint_rects(layout, pos, piles, cards)
        assert named
        y = overlay.place(layout.height, BAR_H, x0=x0, x1=x1, must=named,
                          avoid=overlay.everything(layout, pos))
        assert 0 <= y <= layout.height - BAR_H
        assert not [r for r in named if overlaps(y, BAR_H, x0, x1, r)], (move.text(), y)
        hint = Rect(x0, y, x1 - x0, BAR_H)
        must = [*overlay.top_row(layout), *named, hint]
        ny = overlay.place(layout.height, 40.0, x0=x0, x1=x1, must=must,
                           avoid=overlay.everything(layout, pos))
        assert not [r for r in must if overlaps(ny, 40.0, x0, x1, r)], (move.text(), ny)


@pytest.mark.parametrize("size", AREAS)
def test_on_felt_to_spare_the_bars_cover_no_card_at_all(size: str) -> None:
    game = Game(1)
    layout = layout_for(size, game)
    x0, x1 = bar_span(layout)
    everything = overlay.everything(layout, game.position)
    y = overlay.place(layout.height, BAR_H, x0=x0, x1=x1, must=[], avoid=everything)
    assert not [r for r, _ in everything if overlaps(y, BAR_H, x0, x1, r)]


def test_a_long_column_leaves_its_playable_card_in_view() -> None:
    """Phone landscape, a 17-card column down to the bottom: the bar covers the fan, not the card to play."""
    game = games()["17 cards"]
    pos = game.position
    layout = layout_for("844x390", game)
    x0, x1 = bar_span(layout)
    everything = overlay.everything(layout, pos)
    y = overlay.place(layout.height, BAR_H, x0=x0, x1=x1, must=[], avoid=everything)
    exposed = [r for r, w in everything if w == overlay.EXPOSED]
    assert not [r for r in exposed if overlaps(y, BAR_H, x0, x1, r)]


def test_a_taller_bar_and_no_room_at_all() -> None:
    # a bar taller than the table goes to its top; a bar that must not cover the whole table, to the bottom
    assert overlay.place(100, 150, x0=0, x1=100, must=[]) == 0.0
    assert overlay.place(300, 40, x0=0, x1=100, must=[Rect(0, 0, 100, 300)]) == 300 - 8 - 40
    # what lies outside the bar's width does not count
    assert overlay.place(300, 40, x0=0, x1=100, must=[Rect(200, 0, 50, 300)]) == 300 - 8 - 40


def covered_strips(layout: Layout, pos: Position, bar: Rect) -> int:
    """How many cards' visible parts (a covered card's strip, an exposed card's face) ``bar`` covers."""
    spots = layout.spots(pos)
    n = 0
    for col in pos.columns:
        step = layout.fan(len(col))
        for j, c in enumerate(col):
            h = layout.card_h if j == len(col) - 1 else step
            if bar.overlap(Rect(spots[c].x, spots[c].y, layout.card_w, h)) > 0:
                n += 1
    return n


@pytest.mark.parametrize("size", ["844x390", "1280x800"])
def test_in_the_lane_beside_the_table_the_bars_cover_no_card(size: str) -> None:
    """Issue 25's figure: at 844x390 with a 20-card column, 0 strips covered by each bar (was 27)."""
    game = games()["20 cards"]
    pos = game.position
    layout = layout_for(size, game)
    assert layout.lane is not None and layout.side
    hint_h, notice_h, message_h = 130.0, 150.0, 60.0  # measured at the lane's width in the page
    tops = overlay.stack(layout.lane, [hint_h, notice_h])
    assert None not in tops
    bars = [Rect(layout.lane.x, y, layout.lane.w, h) for y, h in zip(tops, [hint_h, notice_h], strict=True)
            if y is not None]
    bars.append(Rect(layout.lane.x, layout.lane.y + layout.lane.h - message_h, layout.lane.w, message_h))
    for bar in bars:
        assert covered_strips(layout, pos, bar) == 0
        for r in overlay.top_row(layout):
            assert bar.overlap(r) == 0


def test_a_bar_floating_over_a_long_column_spares_every_exposed_card() -> None:
    """Where nothing fits, a bar covers the fan's middle: never a named card, never an exposed one."""
    game = games()["20 cards"]
    pos = game.position
    for size in AREAS:
        layout = layout_for(size, game)
        x0, x1 = bar_span(layout)
        y = overlay.place(layout.height, BAR_H, x0=x0, x1=x1, must=[], avoid=overlay.everything(layout, pos),
                          keep=overlay.exposed(layout, pos))
        bar = Rect(x0, y, x1 - x0, BAR_H)
        assert not [r for r in overlay.exposed(layout, pos) if r.overlap(bar) > 0], size


def test_stacking_in_the_lane_stops_where_it_ends() -> None:
    lane = Rect(0, 10, 100, 100)
    assert overlay.stack(lane, [50, 30, 10]) == [10, 68, None]
    assert overlay.stack(lane, [120]) == [None]
