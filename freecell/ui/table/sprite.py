"""The card faces and pile marks as one SVG sprite: every drawing of a card uses these symbols.

``build.py`` writes :func:`sprite_svg` into ``index.html``, so the small
script that draws a returning player's table before Python runs
(``static/early.js``) and the page's Python (:mod:`freecell.browser.view`)
draw the same pixels: a card is ``<rect class="card-bg">`` (its face and
keyboard target) under ``<use href="#face-QS">``; an empty pile is
``<use href="#pile-cell">``.  Symbols are drawn at a reference size and
scaled by their ``viewBox``; the art of :mod:`freecell.ui.table.cardart` is
proportional to the card's width, so a symbol scaled to any card is that
card's art.

Colours come from the style sheet through custom properties, which the
elements inside a ``<use>`` inherit from the table: a suit's ink is
``var(--ink-c)`` (clubs) to ``var(--ink-s)``, set by ``svg#table`` and by its
``four-colour`` class (see ``static/style.css``).

    >>> face_id(47), face_id(47, large=True), pile_id("foundation", 2)
    ('face-QS', 'face-L-QS', 'pile-foundation-h')
    >>> "<symbol id=\\"face-TD\\"" in sprite_svg()
    True
"""

from __future__ import annotations

from html import escape

from ...cards import ACE, SUIT_LETTERS, SUITS, card_text, make_card, suit
from .cardart import CARD_RATIO, Elem, card_face, pile_mark

WIDTH = 100.0  # the symbols' own size: a card of 100 x 140 units
HEIGHT = WIDTH * CARD_RATIO
PILE_KINDS = ("cell", "column", "foundation")
_DROP = ("suit-red", "suit-black")  # the suit's own class (suit-c ... suit-s) carries the ink


def drawn(v: float) -> float:
    """A coordinate as the drawings of the table kept for static/early.js hold it: to 0.1 px."""
    return round(float(v), 1)


def face_id(card: int, large: bool = False) -> str:
    return ("face-L-" if large else "face-") + card_text(card)


def pile_id(kind: str, suit: int | None = None) -> str:
    if kind == "foundation" and suit is not None:
        return f"pile-foundation-{SUIT_LETTERS[suit].lower()}"
    return f"pile-{kind}"


def _element(e: Elem) -> str:
    tag, attrs, text = e
    if "class" in attrs:
        attrs = {**attrs, "class": " ".join(c for c in attrs["class"].split() if c not in _DROP)}
    out = "".join(f' {k}="{escape(v, quote=True)}"' for k, v in attrs.items())
    return f"<{tag}{out}>{escape(text)}</{tag}>" if text is not None else f"<{tag}{out}/>"


def _symbol(ident: str, elems: list[Elem], cls: str) -> str:
    body = "".join(_element(e) for e in elems)
    return (f'<symbol id="{ident}" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" overflow="visible">'
            f'<g class="{cls}">{body}</g></symbol>')


def sprite_svg() -> str:
    """The whole sprite: an invisible ``<svg>`` of symbols (faces, large faces, pile marks).

    The suits of a face are drawn the same on every rank: they are one symbol
    per suit (``ink-c``, ``ink-L-c``...), which each face uses under its ranks.
    """
    symbols: list[str] = []
    for large in (False, True):
        prefix = "ink-L-" if large else "ink-"
        for s in SUITS:  # the ace's drawing of each suit
            elems = card_face(make_card(ACE, s), WIDTH, HEIGHT, four_colour=True, large=large)[1:]
            symbols.append(_symbol(prefix + SUIT_LETTERS[s].lower(), [e for e in elems if e[0] == "path"],
                                   "ink"))
        for c in range(52):
            # the face rect is the page's own (the card's keyboard target)
            face = card_face(c, WIDTH, HEIGHT, four_colour=True, large=large)[1:]
            elems = [e for e in face if e[0] == "text"]
            ink: Elem = ("use", {"href": f"#{prefix}{SUIT_LETTERS[suit(c)].lower()}", "width": f"{WIDTH:g}",
                                 "height": f"{HEIGHT:g}"}, None)
            symbols.append(_symbol(face_id(c, large), [*elems, ink], "face"))
    for kind in PILE_KINDS:
        suits: tuple[int | None, ...] = (0, 1, 2, 3) if kind == "foundation" else (None,)
        for mark in suits:
            symbols.append(_symbol(pile_id(kind, mark), pile_mark(kind, WIDTH, HEIGHT, mark), "mark"))
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="sprite" aria-hidden="true" focusable="false">'
            f'<defs>{"".join(symbols)}</defs></svg>')
