"""Card faces and pile marks: well-formed SVG data, inside the card, classed for the CSS."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from freecell.cards import is_red, make_card
from freecell.ui.table.cardart import CARD_RATIO, TOP_STRIP, Elem, card_face, pile_mark

SIZES = [(44.0, 44.0 * CARD_RATIO), (60.0, 84.0), (100.0, 140.0), (112.6, 157.7), (50.0, 90.0), (50.0, 55.0)]
COLOUR_CLASSES = {"suit-red", "suit-black"}
FOUR = {0: "suit-c", 1: "suit-d", 2: "suit-h", 3: "suit-s"}
EPS = 0.006  # attributes are rounded to 2 decimals


def classes(e: Elem) -> set[str]:
    return set(e[1].get("class", "").split())


def path_points(d: str) -> list[tuple[float, float]]:
    """The points of a path made of absolute M/L/C/Z commands (control points included)."""
    nums: list[float] = []
    for tok in d.split():
        if tok.isalpha():
            assert tok in "MLCZ", f"only absolute M L C Z commands: {tok}"
        else:
            nums.append(float(tok))
    assert len(nums) % 2 == 0
    return list(zip(nums[::2], nums[1::2], strict=True))


def extent(e: Elem) -> tuple[float, float, float, float]:
    """The box an element covers: exact for rects and paths, an upper bound for text."""
    tag, a, text = e
    if tag == "rect":
        x, y = float(a["x"]), float(a["y"])
        return x, y, x + float(a["width"]), y + float(a["height"])
    if tag == "path":
        pts = path_points(a["d"])
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)
    assert tag == "text"
    assert text
    x, y, size = float(a["x"]), float(a["y"]), float(a["font-size"])
    assert a["dominant-baseline"] == "alphabetic"
    # a bold sans glyph is at most about 0.75 em wide; "10" is squeezed to textLength
    width = float(a["textLength"]) if "textLength" in a else 0.75 * size * len(text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[a["text-anchor"]]
    return left, y - 0.76 * size, left + width, y + 0.22 * size


def inside(e: Elem, w: float, h: float) -> bool:
    x0, y0, x1, y1 = extent(e)
    return x0 >= -EPS and y0 >= -EPS and x1 <= w + EPS and y1 <= h + EPS


@pytest.mark.parametrize("four", [False, True])
@pytest.mark.parametrize(("w", "h"), SIZES)
def test_every_card_is_well_formed(w: float, h: float, four: bool) -> None:
    for card in range(52):
        elems = card_face(card, w, h, four_colour=four)
        assert elems
        tag, attrs, text = elems[0]
        assert tag == "rect" and attrs["class"] == "card-bg" and text is None
        assert (attrs["x"], attrs["y"]) == ("0", "0")
        for e in elems:
            assert isinstance(e[0], str) and e[0] in ("rect", "text", "path")
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in e[1].items()), e
            assert e[2] is None or isinstance(e[2], str)
            if e[0] == "text":
                assert e[2] and e[2].strip(), f"empty text in {e}"
            assert inside(e, w, h), f"card {card} {w}x{h}: {e[0]} {e[1].get('class')} at {extent(e)}"


@pytest.mark.parametrize(("w", "h"), SIZES)
def test_rank_texts(w: float, h: float) -> None:
    expected = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for card in range(52):
        ranks = [t for tag, a, t in card_face(card, w, h) if tag == "text" and "card-rank" in a["class"]]
        assert ranks and set(ranks) == {expected[card // 4]}
    ten = card_face(make_card(10, 2), w, h)
    assert next(t for tag, _, t in ten if tag == "text") == "10"


def test_colour_classes() -> None:
    for card in range(52):
        elems = card_face(card, 60, 84)
        coloured = elems[1:]
        assert coloured
        want = "suit-red" if is_red(card) else "suit-black"
        for e in coloured:
            assert classes(e) & COLOUR_CLASSES == {want}, e
            assert not classes(e) & set(FOUR.values())
        assert "suit-red" not in classes(elems[0]) and "suit-black" not in classes(elems[0])


def test_four_colour_classes() -> None:
    seen = set()
    for card in range(52):
        elems = card_face(card, 60, 84, four_colour=True)
        for e in elems[1:]:
            mine = classes(e) & set(FOUR.values())
            assert mine == {FOUR[card % 4]}, e
            # red / black stay, so the two-colour rules still apply underneath
            assert classes(e) & COLOUR_CLASSES == {"suit-red" if is_red(card) else "suit-black"}
            seen |= mine
    assert seen == set(FOUR.values())


def test_element_classes_and_top_strip() -> None:
    w, h = 44.0, 61.6
    for card in range(52):
        elems = card_face(card, w, h)
        kinds = [c for e in elems[1:] for c in classes(e) if c in ("card-rank", "card-suit", "card-pip")]
        assert {"card-rank", "card-suit", "card-pip"} <= set(kinds)
        # the top index: the first rank and suit, side by side, large, inside the top strip
        rank = next(e for e in elems if "card-rank" in classes(e))
        suit = next(e for e in elems if "card-suit" in classes(e))
        assert "card-corner" not in classes(rank) and "card-corner" not in classes(suit)
        assert 0.36 * w <= float(rank[1]["font-size"]) <= 0.42 * w
        assert rank[1]["font-weight"] == "700"
        r, s = extent(rank), extent(suit)
        # the baseline and the tail of a Q (about 0.1 em below it) are in the strip
        assert float(rank[1]["y"]) + 0.1 * float(rank[1]["font-size"]) <= TOP_STRIP * w
        assert s[3] <= TOP_STRIP * w
        assert r[2] <= s[0], "rank and suit side by side, not overlapping"
        assert s[3] - s[1] >= 0.25 * w, "the suit is large"


@given(
    card=st.integers(0, 51),
    w=st.floats(20, 400),
    ratio=st.floats(1.0, 2.0),
    four=st.booleans(),
)
def test_any_size_stays_inside(card: int, w: float, ratio: float, four: bool) -> None:
    h = w * ratio
    for e in card_face(card, w, h, four_colour=four):
        assert inside(e, w, h), (e, extent(e))


def test_bad_card() -> None:
    with pytest.raises(ValueError):
        card_face(52, 60, 84)
    with pytest.raises(ValueError):
        card_face(-1, 60, 84)


@pytest.mark.parametrize(("w", "h"), SIZES)
def test_pile_marks(w: float, h: float) -> None:
    for kind in ("cell", "foundation", "column"):
        elems = pile_mark(kind, w, h)
        assert elems[0][0] == "rect" and "pile-mark" in classes(elems[0])
        assert f"pile-mark-{kind}" in classes(elems[0])
        for e in elems:
            assert all(isinstance(v, str) for v in e[1].values())
            assert inside(e, w, h), e
    assert len(pile_mark("cell", w, h)) == 1
    assert len(pile_mark("column", w, h)) == 1
    ace = pile_mark("foundation", w, h)
    assert [(tag, t) for tag, _, t in ace[1:]] == [("text", "A")]
    assert "pile-label" in classes(ace[1])
    for s in range(4):
        marks = pile_mark("foundation", w, h, s)
        assert len(marks) == 2 and marks[1][0] == "path" and "pile-label" in classes(marks[1])
        assert inside(marks[1], w, h)


def test_bad_pile_mark() -> None:
    with pytest.raises(ValueError):
        pile_mark("tableau", 60, 84)
    with pytest.raises(ValueError):
        pile_mark("foundation", 60, 84, 4)


@given(card=st.integers(0, 51), w=st.floats(20, 400), ratio=st.floats(1.0, 2.0), four=st.booleans())
def test_large_indices_stay_inside(card: int, w: float, ratio: float, four: bool) -> None:
    for e in card_face(card, w, w * ratio, four_colour=four, large=True):
        assert inside(e, w, w * ratio), (e, extent(e))


@pytest.mark.parametrize(("w", "h"), SIZES)
def test_large_indices_are_bigger_and_fit_their_strip(w: float, h: float) -> None:
    from freecell.ui.table.cardart import LARGE_TOP_STRIP
    from freecell.ui.table.layout import CARD_RATIO as LAYOUT_RATIO
    from freecell.ui.table.layout import LARGE_MIN_STRIP

    assert LARGE_MIN_STRIP * LAYOUT_RATIO >= LARGE_TOP_STRIP  # the layout shows the whole strip
    for card in range(52):
        normal, large = card_face(card, w, h), card_face(card, w, h, large=True)
        sizes = [[float(a["font-size"]) for tag, a, _ in face if tag == "text"] for face in (normal, large)]
        assert all(big >= 1.3 * small for small, big in zip(*sizes, strict=True))  # top and corner
        rank = next(e for e in large if "card-rank" in classes(e))
        suit = next(e for e in large if "card-suit" in classes(e))
        assert float(rank[1]["y"]) + 0.1 * float(rank[1]["font-size"]) <= LARGE_TOP_STRIP * w
        assert extent(rank)[2] + 0.08 * w <= extent(suit)[0], "rank and suit side by side, apart"
