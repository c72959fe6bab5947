"""The SVG table: one group per card, keyed by the card, moved by diffing.

:class:`TableView` draws what it is given (a position, a layout, a selection)
and animates the change from what it showed before, through the positions of
a move's single-card steps when there are several.  Animations use the Web
Animations API on top of the final ``transform``, so the table is always in
its final state at once and an animation never blocks the next input.
"""

from __future__ import annotations

import contextlib
from typing import Any

from js import document
from pyodide.ffi import to_js

from ..cards import Card, card_text, is_red
from ..piles import CELL, COLUMN, FOUNDATION
from ..position import Position
from ..ui.cardart import card_face, pile_mark
from ..ui.layout import Layout, Spot

SVG_NS = "http://www.w3.org/2000/svg"
STEP_MS = 90  # one single-card step of an animation
MAX_ANIMATION_MS = 1100

JsElement = Any


def svg(tag: str, attrs: dict[str, str] | None = None, text: str | None = None) -> JsElement:
    el = document.createElementNS(SVG_NS, tag)
    for k, v in (attrs or {}).items():
        el.setAttribute(k, v)
    if text is not None:
        el.textContent = text
    return el


def _transform(x: float, y: float) -> str:
    return f"translate({x:.1f}px, {y:.1f}px)"


def _js(obj: object) -> Any:
    from js import Object

    return to_js(obj, dict_converter=Object.fromEntries)


class TableView:
    """Card and pile elements of ``svg#table``, and what they currently show."""

    def __init__(self, svg_root: JsElement, free_cells: int, columns: int) -> None:
        self.root = svg_root
        self.piles_g = document.getElementById("piles")
        self.cards_g = document.getElementById("cards")
        self.free_cells = free_cells
        self.columns = columns
        self.layout: Layout | None = None
        self.card_el: dict[Card, JsElement] = {}
        self.shown: dict[Card, tuple[float, float]] = {}
        self.where: dict[Card, tuple[str, int]] = {}
        self.order: list[Card] = []
        self.selected: set[Card] = set()
        self.marked: dict[str, str] = {}
        self.hinted: set[Card] = set()
        self.animations: list[Any] = []
        self.animate = True
        self.four_colour = False
        self._face_size: tuple[float, float] | None = None
        self.pile_el: dict[str, JsElement] = {}
        for c in range(52):
            g = svg("g", {"class": "card " + ("suit-red" if is_red(c) else "suit-black"),
                          "data-card": card_text(c)})
            self.card_el[c] = g
            self.cards_g.appendChild(g)
            self.order.append(c)

    # --- geometry ------------------------------------------------------
    def set_layout(self, layout: Layout) -> None:
        self.layout = layout
        self.root.setAttribute("viewBox", f"0 0 {layout.width:.1f} {layout.height:.1f}")
        self._draw_piles(layout)
        size = (round(layout.card_w, 1), round(layout.card_h, 1))
        if size != self._face_size:
            self._face_size = size
            for c, g in self.card_el.items():
                g.replaceChildren()
                for tag, attrs, text in card_face(c, layout.card_w, layout.card_h,
                                                  four_colour=self.four_colour):
                    g.appendChild(svg(tag, attrs, text))

    def _draw_piles(self, layout: Layout) -> None:
        self.piles_g.replaceChildren()
        self.pile_el = {}
        for pile, r in layout.piles():
            name = pile.text()
            g = svg("g", {"class": "pile-group", "transform": f"translate({r.x:.1f} {r.y:.1f})"})
            kind = {CELL: "cell", FOUNDATION: "foundation", COLUMN: "column"}[pile.kind]
            suit = pile.index if pile.kind == FOUNDATION else None
            for tag, attrs, text in pile_mark(kind, layout.card_w, layout.card_h, suit):
                g.appendChild(svg(tag, attrs, text))
            area = svg("rect", {"class": "pile", "data-pile": name, "x": "0", "y": "0",
                                "width": f"{r.w:.1f}", "height": f"{r.h:.1f}",
                                "fill": "transparent"})
            if name in self.marked:
                area.setAttribute("data-hint", self.marked[name])
            g.appendChild(area)
            self.pile_el[name] = area
            self.piles_g.appendChild(g)

    # --- drawing -------------------------------------------------------
    def finish_animations(self) -> None:
        for a in self.animations:
            with contextlib.suppress(Exception):  # an animation already gone is fine
                a.finish()
        self.animations = []

    def show(self, pos: Position, frames: list[Position] | None = None,
             animate: bool = True) -> None:
        """Draw ``pos``; animate from what was shown, through ``frames`` if given."""
        layout = self.layout
        if layout is None:
            return
        self.finish_animations()
        spots = layout.spots(pos)
        moved = {c for c in range(52) if self.where.get(c) != (spots[c].pile.text(), spots[c].index)}
        order = sorted(range(52), key=lambda c: (c in moved, spots[c].index, c))
        if order != self.order:
            for c in order:
                self.cards_g.appendChild(self.card_el[c])
            self.order = order
        paths: dict[Card, list[tuple[float, float]]] = {}
        if frames and len(frames) > 2 and animate and self.animate:
            per_frame = [layout.spots(p) for p in frames[1:-1]]
            for c in range(52):
                pts = [(s[c].x, s[c].y) for s in per_frame]
                paths[c] = pts
        for c in range(52):
            s = spots[c]
            el = self.card_el[c]
            key = (s.pile.text(), s.index)
            if self.where.get(c) != key:
                el.setAttribute("data-pile", key[0])
                el.setAttribute("data-index", str(key[1]))
                self.where[c] = key
            old = self.shown.get(c)
            new = (s.x, s.y)
            if old != new:
                el.style.transform = _transform(*new)
                self.shown[c] = new
                if old is not None and animate and self.animate:
                    self._animate(el, [old, *paths.get(c, []), new])
            elif c in paths and any(p != new for p in paths[c]) and animate and self.animate:
                self._animate(el, [new, *paths[c], new])

    def _animate(self, el: JsElement, points: list[tuple[float, float]]) -> None:
        # drop repeated points so that the time goes to real motion
        pts = [points[0]]
        for p in points[1:]:
            if p != pts[-1]:
                pts.append(p)
        if len(pts) < 2:
            return
        duration = min(MAX_ANIMATION_MS, STEP_MS * (len(points) - 1))
        frames = [{"transform": _transform(x, y)} for x, y in pts]
        anim = el.animate(_js(frames), _js({"duration": duration, "easing": "ease-out"}))
        self.animations.append(anim)

    def mark(self, marks: dict[str, str], cards: dict[Card, str] | None = None,
             areas: set[str] | None = None) -> None:
        """Mark piles (and their cards) for a hint: ``{"3": "from", "h2": "to"}``; ``{}`` clears.

        ``areas`` are the marked piles whose area itself is drawn (a free cell,
        a foundation, an empty column); other piles show the mark on their cards.
        """
        self.marked = dict(marks)
        areas = areas or set()
        for name, el in self.pile_el.items():
            if name in marks:
                el.setAttribute("data-hint", marks[name])
            else:
                el.removeAttribute("data-hint")
            el.classList.toggle("hint-area", name in areas and name in marks)
        cards = cards or {}
        for c in self.hinted - set(cards):
            self.card_el[c].removeAttribute("data-hint")
        for c, role in cards.items():
            self.card_el[c].setAttribute("data-hint", role)
        self.hinted = set(cards)

    def set_selected(self, cards: set[Card]) -> None:
        for c in self.selected - cards:
            self.card_el[c].classList.remove("selected")
        for c in cards - self.selected:
            self.card_el[c].classList.add("selected")
        self.selected = set(cards)

    # --- dragging ------------------------------------------------------
    def drag_begin(self, cards: list[Card]) -> None:
        self.finish_animations()
        for c in cards:
            el = self.card_el[c]
            el.classList.add("dragging")
            self.cards_g.appendChild(el)
        self.order = [c for c in self.order if c not in cards] + list(cards)

    def drag_to(self, cards: list[Card], base: dict[Card, Spot], dx: float, dy: float) -> None:
        for c in cards:
            p = (base[c].x + dx, base[c].y + dy)
            self.card_el[c].style.transform = _transform(*p)
            self.shown[c] = p

    def drag_end(self, cards: list[Card]) -> None:
        for c in cards:
            self.card_el[c].classList.remove("dragging")
