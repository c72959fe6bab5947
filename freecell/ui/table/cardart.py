"""Card faces and empty-pile marks as lists of SVG elements: pure data, no DOM.

Every function returns ``Elem`` tuples ``(tag, attributes, text)`` in the
card's own coordinates: (0, 0) is its top-left corner, ``width`` x ``height``
its size, and the elements are drawn in list order.  The caller wraps a card
in ``<g class="card suit-red">`` (or ``suit-black``) and moves the group;
colours, fonts and outlines come from ``static/style.css`` through the classes
set here, so the art follows the theme.

A card face::

    +------------+   the top strip (TOP_STRIP x width high) holds the rank,
    | 10      ♥  |   bold and large, and the suit side by side: it is what a
    |            |   column shows of a card covered by the next one
    |     ♥      |   a big suit in the middle
    |            |
    |        10♥ |   a small index, upright, bottom right
    +------------+

Suit symbols are drawn as paths rather than as text, so they look the same
on every system (no emoji fallback, no font with tiny or shifted suits).
Sizes are numbers in user units, proportional to ``width``: the art scales
with the card.

    >>> elems = card_face(37, 60, 84)   # ten of diamonds
    >>> elems[0][0], elems[0][1]["class"]
    ('rect', 'card-bg')
    >>> [text for tag, attrs, text in elems if tag == "text"]
    ['10', '10']
    >>> elems[1][1]["class"], elems[1][1]["font-size"]
    ('card-rank suit-red', '22.8')
"""

from __future__ import annotations

from ...cards import RANK_LETTERS, SUIT_LETTERS, is_red, rank, suit

Elem = tuple[str, dict[str, str], str | None]

CARD_RATIO = 1.4
"""Height / width the art is designed for (a poker card is 88/63 = 1.397)."""

TOP_STRIP = 0.35
"""Height of the top index (rank and suit), as a fraction of the card's WIDTH.

A column must show at least this much of each covered card (the tail of the
Q included): at CARD_RATIO it is 0.25 of the card's height.
"""

LARGE_TOP_STRIP = 0.47
"""The top strip of a large-index card (``large=True``): ranks a third bigger."""

CORNER = 0.08  # corner radius / width

# The top index: rank on the left, suit on the right, both about the same height.
_PAD_X = 0.055  # left and right margin / width
_PAD_TOP = 0.035  # top margin / width
_RANK_SIZE = 0.38  # font size / width
_CAP = 0.72  # cap height / font size of a sans font (Arial, Helvetica, Roboto, SF, DejaVu: 0.70-0.73)
_TEN_EM = 1.18  # the width "10" is drawn at, in ems (Arial Bold: 1.11, DejaVu Sans Bold: 1.39)
_SUIT_SIZE = 0.28  # suit box / width: about the cap height of the rank

# The small index at the bottom right, upright.
_SMALL_RANK = 0.2
_SMALL_SUIT = 0.15
_PAD_BOTTOM = 0.06  # bottom margin / width

# The middle suit.
_PIP_SIZE = 0.56

# Large indices, for players who read small ranks badly: (rank, "10" width in ems, suit,
# small rank, small suit), as fractions of the width.
_NORMAL = (_RANK_SIZE, _TEN_EM, _SUIT_SIZE, _SMALL_RANK, _SMALL_SUIT)
_LARGE = (0.5, 1.0, 0.3, 0.27, 0.19)  # "10" at 1.0 em: at 1.06 it touched a spade (0.06 of the width apart)

# Suits in a 1 x 1 box, absolute M/L/C/Z commands only, so every number pair
# is a point (the control points stay inside the box too).  Clubs are three
# circles (four Bezier quarters each) and a stem, all drawn clockwise so the
# non-zero fill rule unites them.
_K = 0.5523  # Bezier circle constant


def _circle(cx: float, cy: float, r: float) -> str:
    k = _K * r
    return (
        f"M {cx + r} {cy} "
        f"C {cx + r} {cy + k} {cx + k} {cy + r} {cx} {cy + r} "
        f"C {cx - k} {cy + r} {cx - r} {cy + k} {cx - r} {cy} "
        f"C {cx - r} {cy - k} {cx - k} {cy - r} {cx} {cy - r} "
        f"C {cx + k} {cy - r} {cx + r} {cy - k} {cx + r} {cy} Z "
    )


_SUIT_PATHS: tuple[str, ...] = (
    # clubs
    _circle(0.5, 0.25, 0.235)
    + _circle(0.26, 0.565, 0.235)
    + _circle(0.74, 0.565, 0.235)
    + "M 0.43 0.45 L 0.57 0.45 C 0.56 0.72 0.6 0.87 0.72 1 L 0.28 1 C 0.4 0.87 0.44 0.72 0.43 0.45 Z",
    # diamonds
    "M 0.5 0 C 0.61 0.17 0.74 0.33 0.89 0.5 C 0.74 0.67 0.61 0.83 0.5 1 "
    "C 0.39 0.83 0.26 0.67 0.11 0.5 C 0.26 0.33 0.39 0.17 0.5 0 Z",
    # hearts
    "M 0.5 0.96 C 0.36 0.82 0 0.62 0 0.33 C 0 0.14 0.13 0.04 0.27 0.04 "
    "C 0.39 0.04 0.47 0.11 0.5 0.21 C 0.53 0.11 0.61 0.04 0.73 0.04 "
    "C 0.87 0.04 1 0.14 1 0.33 C 1 0.62 0.64 0.82 0.5 0.96 Z",
    # spades
    "M 0.5 0 C 0.6 0.14 1 0.36 1 0.6 C 1 0.75 0.89 0.84 0.76 0.84 "
    "C 0.66 0.84 0.58 0.8 0.54 0.73 C 0.55 0.85 0.6 0.94 0.72 1 L 0.28 1 "
    "C 0.4 0.94 0.45 0.85 0.46 0.73 C 0.42 0.8 0.34 0.84 0.24 0.84 "
    "C 0.11 0.84 0 0.75 0 0.6 C 0 0.36 0.4 0.14 0.5 0 Z",
)

_FOUR_COLOUR = ("suit-c", "suit-d", "suit-h", "suit-s")


def _num(v: float) -> str:
    """A short decimal for an attribute: ``12``, ``3.25``, never ``-0``."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def suit_path(suit: int, x: float, y: float, size: float) -> str:
    """Path data of ``suit`` (0-3) drawn in the ``size`` x ``size`` box at (x, y)."""
    out: list[str] = []
    nums: list[float] = []
    for tok in _SUIT_PATHS[suit].split():
        if tok.isalpha():
            out.append(tok)
            continue
        nums.append(float(tok))
        if len(nums) == 2:
            out.append(_num(x + nums[0] * size))
            out.append(_num(y + nums[1] * size))
            nums.clear()
    return " ".join(out)


def rank_text(card: int) -> str:
    """``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
    r = rank(card)
    return "10" if r == 10 else RANK_LETTERS[r - 1]


def colour_class(card: int, *, four_colour: bool = False) -> str:
    """The colour classes of ``card``: ``suit-red`` or ``suit-black``, plus ``suit-c``/``-d``/``-h``/``-s``
    with four colours (the page's ``<g class="card ...">`` can use the same string)."""
    base = "suit-red" if is_red(card) else "suit-black"
    return f"{base} {_FOUR_COLOUR[suit(card)]}" if four_colour else base


def _rank_attrs(
    rank: str, x: float, y: float, size: float, anchor: str, cls: str, ten_em: float = _TEN_EM
) -> dict[str, str]:
    attrs = {
        "class": cls,
        "x": _num(x),
        "y": _num(y),
        "font-size": _num(size),
        "font-weight": "700",
        "text-anchor": anchor,
        "dominant-baseline": "alphabetic",
    }
    if rank == "10":
        # Wide fonts draw "10" wider than the strip allows: squeeze it to a width most
        # system fonts (Arial, Helvetica, Roboto, Segoe) draw anyway.
        attrs["textLength"] = _num(size * ten_em)
        attrs["lengthAdjust"] = "spacingAndGlyphs"
    return attrs


def card_face(
    card: int, width: float, height: float, *, four_colour: bool = False, large: bool = False
) -> list[Elem]:
    """The face of ``card`` (0-51) as SVG elements in a ``width`` x ``height`` box.

    ``large``: ranks and suits of the indices a third bigger, the top strip
    :data:`LARGE_TOP_STRIP` high (the layout then fans columns wider).
    """
    if not 0 <= card < 52:
        raise ValueError(f"not a card: {card!r}")
    w, h = float(width), float(height)
    rank_size, ten_em, suit_frac, small_rank, small_suit_frac = _LARGE if large else _NORMAL
    colour = colour_class(card, four_colour=four_colour)
    s = suit(card)
    label = rank_text(card)
    out: list[Elem] = [
        (
            "rect",
            {
                "class": "card-bg",
                "x": "0",
                "y": "0",
                "width": _num(w),
                "height": _num(h),
                "rx": _num(w * CORNER),
                "ry": _num(w * CORNER),
            },
            None,
        )
    ]

    # Top strip: the rank on the left, the suit on the right, centred on the rank's capitals.
    pad_x, pad_top = w * _PAD_X, w * _PAD_TOP
    size = w * rank_size
    cap = size * _CAP
    suit_size = w * suit_frac
    top_attrs = _rank_attrs(label, pad_x, pad_top + cap, size, "start", f"card-rank {colour}", ten_em)
    out.append(("text", top_attrs, label))
    out.append(
        (
            "path",
            {
                "class": f"card-suit {colour}",
                "d": suit_path(s, w - pad_x - suit_size, pad_top + (cap - suit_size) / 2, suit_size),
            },
            None,
        )
    )

    # Bottom right, upright: a small rank and suit, the suit in the corner.
    small = w * small_rank
    small_cap = small * _CAP
    small_suit = w * small_suit_frac
    base = h - w * _PAD_BOTTOM
    suit_x = w - pad_x - small_suit
    small_attrs = _rank_attrs(label, suit_x - w * 0.02, base, small, "end", f"card-rank card-corner {colour}")
    corner: list[Elem] = [
        ("text", small_attrs, label),
        (
            "path",
            {
                "class": f"card-suit card-corner {colour}",
                "d": suit_path(s, suit_x, base - small_cap / 2 - small_suit / 2, small_suit),
            },
            None,
        ),
    ]

    # The middle suit, centred between the two indices.
    top = w * (LARGE_TOP_STRIP if large else TOP_STRIP)
    bottom = base - max(small_cap, small_suit) - w * 0.03
    pip = min(w * _PIP_SIZE, max(bottom - top, 0.0) * 0.92)
    if pip > w * 0.12:
        cy = (top + bottom) / 2
        d = suit_path(s, (w - pip) / 2, cy - pip / 2, pip)
        out.append(("path", {"class": f"card-pip {colour}", "d": d}, None))
    return out + corner


def pile_mark(kind: str, width: float, height: float, suit: int | None = None) -> list[Elem]:
    """The outline of an empty pile: ``cell``, ``foundation`` or ``column``."""
    if kind not in ("cell", "foundation", "column"):
        raise ValueError(f"no pile kind {kind!r}")
    w, h = float(width), float(height)
    # Inset by a little so a 2-unit stroke stays inside the box.
    inset = min(w, h) * 0.02
    out: list[Elem] = [
        (
            "rect",
            {
                "class": f"pile-mark pile-mark-{kind}",
                "x": _num(inset),
                "y": _num(inset),
                "width": _num(w - 2 * inset),
                "height": _num(h - 2 * inset),
                "rx": _num(w * CORNER),
                "ry": _num(w * CORNER),
            },
            None,
        )
    ]
    if kind != "foundation":
        return out
    if suit is not None:
        if not 0 <= suit < 4:
            raise ValueError(f"no suit {suit!r}")
        size = min(w * 0.5, h * 0.5)
        out.append(
            (
                "path",
                {
                    "class": f"pile-label pile-label-{SUIT_LETTERS[suit].lower()}",
                    "d": suit_path(suit, (w - size) / 2, (h - size) / 2, size),
                },
                None,
            )
        )
    else:
        fs = min(w * 0.5, h * 0.4)
        out.append(
            (
                "text",
                {
                    "class": "pile-label",
                    "x": _num(w / 2),
                    "y": _num(h / 2 + fs * _CAP / 2),
                    "font-size": _num(fs),
                    "font-weight": "700",
                    "text-anchor": "middle",
                    "dominant-baseline": "alphabetic",
                },
                "A",
            )
        )
    return out
