"""The SVG table: one group per card, keyed by the card, moved by diffing.

:class:`TableView` draws what it is given (a position, a layout, a selection)
and animates the change from what it showed before.

Motion (:meth:`TableView.show`): the change's frames are played one after
another, each step a glide of :data:`STEP_MS` with easing (shorter steps for
a long sequence, never under :data:`MIN_STEP_MS`, the whole within about
:data:`MAX_ANIMATION_MS`): a multi-card move card by card through the free
cells, then each auto-move.  Cards that were dragged start from where the
pointer left them; a drop that plays nothing (refused, or off the piles)
glides them back.  Animations use the Web Animations API on top of the final
``transform``, so the table is always in its final state at once and an
animation never blocks input: the next press finishes it
(:meth:`TableView.finish_animations`).  Their pace is the player's
(``speed``: 1 normal, 0.5 fast; ``animate`` off for none, as with reduced
motion).  A new deal is dealt from a pile, card by card
(:meth:`TableView.deal_in`), and a win makes the cards hop off the
foundations (:meth:`TableView.celebrate`); a key or a press anywhere ends
either at once.  At the first show, cards the early script drew a few
pixels off glide to their places.

While cards are dragged, the pile they would land on lights up
(:meth:`TableView.mark_drop`, ``rect.pile.drop-ok`` and its top card
``.card.drop-target``).  The view is built for a number of free cells and
columns; a game of another shape (Eight Off's 8 cells, Seahaven's 10
columns) calls :meth:`TableView.reshape`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from functools import partial
from typing import Any, TypeVar

from js import document, window
from pyodide.ffi import create_once_callable, to_js

from ..cards import Card, card_text, is_red, rank
from ..piles import CELL, COLUMN, FOUNDATION
from ..position import Position
from ..ui.table.cardart import CORNER
from ..ui.table.layout import Layout, Rect, Spot, restack, stacking
from ..ui.table.sprite import face_id, pile_id

SVG_NS = "http://www.w3.org/2000/svg"
STEP_MS = 200  # one step of a move (a single-card move is one step), at the normal pace
MIN_STEP_MS = 70  # the shortest step, for the longest sequences
MAX_ANIMATION_MS = 1400  # a sequence takes about this at most (unless its steps would get shorter)
EASING = "cubic-bezier(0.25, 0.8, 0.3, 1)"  # a quick start that settles: a card put down
DEAL_EACH_MS = 15  # the deal: a card leaves the pile this long after the one before
DEAL_GLIDE_MS = 260  # and glides this long (52 cards: about 1 s in all, at the normal pace)
WIN_HOP_MS = 520  # the win: each card hops up off its foundation and lands again
WIN_EACH_MS = 27  # the next one this long after (52 cards: about 2 s in all)
RING_OUTSET = 3.0  # the focus ring is drawn this far outside the card or pile

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


def _name(el: JsElement, name: str | None) -> None:
    """An element as a keyboard target named ``name`` (a button), or hidden when ``None``."""
    if name is None:
        for attr in ("role", "aria-label", "tabindex"):
            el.removeAttribute(attr)
        el.setAttribute("aria-hidden", "true")
    else:
        el.removeAttribute("aria-hidden")
        el.setAttribute("role", "button")
        el.setAttribute("aria-label", name)
        if not el.hasAttribute("tabindex"):
            el.setAttribute("tabindex", "-1")


K = TypeVar("K")


def _rename(names: dict[K, str | None], elements: Mapping[K, JsElement], new: Mapping[K, str | None]) -> None:
    """Give each element whose name changed its new name (``names`` keeps the current ones)."""
    for key, name in new.items():
        if names.get(key, "") != name:
            names[key] = name
            el = elements.get(key)
            if el is not None:
                _name(el, name)


def _js(obj: object) -> Any:
    from js import Object

    return to_js(obj, dict_converter=Object.fromEntries)


class TableView:
    """Card and pile elements of ``svg#table``, and what they currently show."""

    def __init__(self, svg_root: JsElement, free_cells: int, columns: int) -> None:
        self.root = svg_root
        self.piles_g = document.getElementById("piles")
        self.cards_g = document.getElementById("cards")
        # where the early drawing (static/early.js) put each card, on the screen: the first show
        # glides the cards from there, so that no card jumps when the page takes over
        self.early: dict[str, tuple[float, float]] = {}
        for g in list(self.cards_g.querySelectorAll("g[data-early]")):
            box = g.getBoundingClientRect()
            self.early[str(g.getAttribute("data-early"))] = (float(box.left), float(box.top))
        # whatever was drawn before (an earlier page object, the early drawing) goes
        self.piles_g.replaceChildren()
        self.cards_g.replaceChildren()
        for old in list(svg_root.querySelectorAll(".focus-layer")):
            old.remove()
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
        self.animations: dict[Card, Any] = {}  # each card's running animation
        self.trailing: list[Any] = []  # glides a later animation of the same card waits for (the win)
        self.lifted: set[Card] = set()  # the cards drawn above the others at the last show
        self.landing: set[Card] = set()  # cards just dragged: they glide from where they were let go
        self.back: set[Card] = set()  # those gliding back (class landing): drawn over the bars, as dragged
        self.drop_mark: tuple[str, Card | None] | None = None  # the pile (and its top card) lit up
        self.animate = True
        self.speed = 1.0  # animation durations are scaled by this
        self.large = False
        self._face_key: tuple[float, float, bool] | None = None
        self.pile_el: dict[str, JsElement] = {}
        # accessible names (None: not a keyboard target, hidden from assistive technology)
        self.card_names: dict[Card, str | None] = {}
        self.card_bg: dict[Card, JsElement] = {}  # a card's face rect: its keyboard target
        self.face_el: dict[Card, JsElement] = {}  # its <use> of the sprite's face
        self.pile_names: dict[str, str | None] = {}
        self.tab_stop: JsElement = None
        for c in range(52):
            g = svg("g", {"class": "card " + ("suit-red" if is_red(c) else "suit-black"),
                          "data-card": card_text(c)})
            self.card_el[c] = g
            self.cards_g.appendChild(g)
            self.order.append(c)
        # the keyboard focus ring, above the cards: a dark halo under a bright ring, so that
        # it shows on the felt and on a white card alike
        self.focus_g = svg("g", {"class": "focus-layer", "aria-hidden": "true"})
        self.ring_halo = svg("rect", {"class": "focus-ring-halo"})
        self.ring = svg("rect", {"class": "focus-ring"})
        self.focus_g.appendChild(self.ring_halo)
        self.focus_g.appendChild(self.ring)
        self.root.appendChild(self.focus_g)

    # --- geometry ------------------------------------------------------
    def reshape(self, free_cells: int, columns: int) -> None:
        """Another number of free cells or columns: the piles are drawn anew at the next layout."""
        if (free_cells, columns) == (self.free_cells, self.columns):
            return
        self.finish_animations()
        self.free_cells, self.columns = free_cells, columns
        self.layout = None
        self.piles_g.replaceChildren()
        self.pile_el = {}
        self.marked = {}
        self.tab_stop = None

    def set_layout(self, layout: Layout) -> None:
        self.layout = layout
        self.root.setAttribute("viewBox", f"0 0 {layout.width:.1f} {layout.height:.1f}")
        self._draw_piles(layout)
        self._draw_faces()

    def set_style(self, large: bool) -> None:
        """The large indices: the faces change at once (four colours are the style sheet's)."""
        self.large = large
        self._draw_faces()

    def _draw_faces(self) -> None:
        """Each card: its face rect (the keyboard target, named by the page) under its sprite symbol.

        The elements are made once; another size or the large indices only
        change their attributes (so the focus stays on its card).  The four
        colours are the style sheet's (the table's ``four-colour`` class).
        """
        layout = self.layout
        if layout is None:
            return
        w, h = layout.card_w, layout.card_h
        key = (round(w, 1), round(h, 1), self.large)
        if key == self._face_key:
            return
        self._face_key = key
        size = {"width": f"{w:.1f}", "height": f"{h:.1f}"}
        corner = f"{w * CORNER:.1f}"
        for c, g in self.card_el.items():
            bg = self.card_bg.get(c)
            if bg is None:
                bg = svg("rect", {"class": "card-bg", "x": "0", "y": "0"})
                _name(bg, self.card_names.get(c))
                self.card_bg[c] = bg
                g.appendChild(bg)
                face = svg("use", {"class": "face-use", "aria-hidden": "true"})
                self.face_el[c] = face
                g.appendChild(face)
            for k, v in {**size, "rx": corner, "ry": corner}.items():
                bg.setAttribute(k, v)
            face = self.face_el[c]
            for k, v in size.items():
                face.setAttribute(k, v)
            face.setAttribute("href", "#" + face_id(c, self.large))

    def _draw_piles(self, layout: Layout) -> None:
        self.piles_g.replaceChildren()
        self.pile_el = {}
        for pile, r in layout.piles():
            name = pile.text()
            g = svg("g", {"class": "pile-group", "transform": f"translate({r.x:.1f} {r.y:.1f})"})
            kind = {CELL: "cell", FOUNDATION: "foundation", COLUMN: "column"}[pile.kind]
            suit = pile.index if pile.kind == FOUNDATION else None
            g.appendChild(svg("use", {"href": "#" + pile_id(kind, suit), "width": f"{layout.card_w:.1f}",
                                      "height": f"{layout.card_h:.1f}", "aria-hidden": "true"}))
            area = svg("rect", {"class": "pile", "data-pile": name, "x": "0", "y": "0",
                                "width": f"{r.w:.1f}", "height": f"{r.h:.1f}",
                                "fill": "transparent"})
            if name in self.marked:
                area.setAttribute("data-hint", self.marked[name])
            _name(area, self.pile_names.get(name))
            g.appendChild(area)
            self.pile_el[name] = area
            self.piles_g.appendChild(g)
        self.tab_stop = None  # the areas are new: the page places the focus again

    # --- drawing -------------------------------------------------------
    def finish_animations(self, cards: set[Card] | None = None) -> None:
        """End running animations at once (of ``cards`` only, if given): the cards are where they go."""
        for c in list(self.animations) if cards is None else [c for c in cards if c in self.animations]:
            with contextlib.suppress(Exception):  # an animation already gone is fine
                self.animations.pop(c).finish()
        if cards is None:
            for a in self.trailing:
                with contextlib.suppress(Exception):
                    a.finish()
            self.trailing = []

    def remaining_ms(self) -> float:
        """How long the running animations go on (0: none is running)."""
        left = 0.0
        for a in [*self.animations.values(), *self.trailing]:
            with contextlib.suppress(Exception):  # an animation already gone is fine
                if str(a.playState) == "running":
                    left = max(left, float(a.effect.getComputedTiming().endTime) - float(a.currentTime or 0))
        return left

    def show(self, pos: Position, frames: list[Position] | None = None,
             animate: bool = True) -> None:
        """Draw ``pos``; animate from what was shown, through ``frames`` (the first is what was shown)."""
        layout = self.layout
        if layout is None:
            return
        spots = layout.spots(pos)
        landing, self.landing = self.landing, set()
        for c in self.back:
            self.card_el[c].classList.remove("landing")
        # the cards that go to another place (or glide back from a drag) are drawn above the others,
        # with the cards lying on them (stacking), lower ones later; and those still gliding there
        # from the last change.  Not at the first drawing, nor for a glide within the same place
        # (from the early drawing, a resize): a card lifted for such a glide would stay over the
        # card below it, hiding its corner
        moved = {c for c in range(52)
                 if c in self.where and self.where[c] != (spots[c].pile.text(), spots[c].index)}
        self.animations = {c: a for c, a in self.animations.items() if str(a.playState) == "running"}
        self.trailing = [a for a in self.trailing if str(a.playState) == "running"]
        order, self.lifted = stacking(spots, moved | landing | (self.lifted & set(self.animations)))
        if order != self.order:
            for c, under in restack(self.order, order):  # under: the card drawn next over it, or None
                self.cards_g.insertBefore(self.card_el[c], None if under is None else self.card_el[under])
            self.order = order
        glide = animate and self.animate
        before = dict(self.shown)
        paths: dict[Card, list[tuple[float, float]]] = {}
        if glide and frames and len(frames) > 1:
            per_frame = [layout.spots(p) for p in frames[:-1]]
            for c in range(52):
                paths[c] = [(f[c].x, f[c].y) for f in per_frame] + [(spots[c].x, spots[c].y)]
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
            if old is not None and c in paths:
                paths[c][0] = old  # from where it is on the screen (where a drag left it)
            elif old is not None and old != new and (glide or (c in landing and self.animate)):
                paths[c] = [old, new]  # no frames: straight there (a drag let go, an undo)
            if old != new:
                el.style.transform = _transform(*new)
                self.shown[c] = new
        # a card that moves now (or is put elsewhere) stops its glide; the others glide on (Finish's
        # next card does not cut the last one short)
        if self.early:
            paths.update(self._from_early())
        paths = {c: pts for c, pts in paths.items() if any(p != pts[0] for p in pts)}
        self.finish_animations({c for c in range(52) if c in paths or self.shown.get(c) != before.get(c)})
        glide_ms = self._play(paths)
        # a card let go over the bars glides back over them, as it was dragged (the table's box cut it
        # off: it slid in from under the edge); while it glides, the table is drawn over the bars
        self.back = landing & set(paths)
        for c in self.back:
            self.card_el[c].classList.add("landing")
        if self.back:
            window.setTimeout(create_once_callable(partial(self._landed, self.back)), glide_ms)

    def _landed(self, cards: set[Card]) -> None:
        """The glide back from a drag is over: the table within its box again (unless a later
        drawing took its cards on: its own set of them)."""
        if cards is self.back:
            for c in cards:
                self.card_el[c].classList.remove("landing")
            self.back = set()

    def _from_early(self) -> dict[Card, list[tuple[float, float]]]:
        """Once, at the first show: a glide for each card from where the early drawing had it.

        The early script draws from a grid of layouts (static/early.js), within
        a few pixels of the page's own; what is left glides, unless motion is off.
        """
        early, self.early = self.early, {}
        layout = self.layout
        box = self.root.getBoundingClientRect()
        if not self.animate or layout is None or not box.width or not box.height:
            return {}
        scale = min(float(box.width) / layout.width, float(box.height) / layout.height)  # the viewBox's
        paths: dict[Card, list[tuple[float, float]]] = {}
        for c, el in self.card_el.items():
            was = early.get(card_text(c))
            if was is None or c not in self.shown:
                continue
            now = el.getBoundingClientRect()
            dx, dy = (was[0] - float(now.left)) / scale, (was[1] - float(now.top)) / scale
            if abs(dx) > 0.5 or abs(dy) > 0.5:
                x, y = self.shown[c]
                paths[c] = [(x + dx, y + dy), (x, y)]
        return paths

    def _play(self, paths: dict[Card, list[tuple[float, float]]]) -> float:
        """Animate each card along its points, frame by frame on one timeline (see the module doc);
        how long it runs, in ms."""
        moving = paths  # only cards that move
        if not moving:
            return 0.0
        n = max(len(pts) for pts in moving.values()) - 1
        steps = [k for k in range(1, n + 1)
                 if any(k < len(pts) and pts[k] != pts[k - 1] for pts in moving.values())]
        step = max(MIN_STEP_MS, min(STEP_MS, MAX_ANIMATION_MS / len(steps))) * self.speed
        at = [0.0] * (n + 1)  # when frame k is reached; a step where nothing moves takes no time
        for k in range(1, n + 1):
            at[k] = at[k - 1] + (step if k in steps else 0.0)
        total = at[n]
        for c, pts in moving.items():
            keys: list[dict[str, object]] = [{"offset": 0.0, "transform": _transform(*pts[0]),
                                              "easing": "linear"}]
            for k in range(1, len(pts)):
                if pts[k] == pts[k - 1]:
                    continue
                start = at[k - 1] / total
                if keys[-1]["offset"] != start:  # hold still until this card's step comes
                    keys.append({"offset": start, "transform": _transform(*pts[k - 1]), "easing": EASING})
                else:
                    keys[-1]["easing"] = EASING
                keys.append({"offset": at[k] / total, "transform": _transform(*pts[k]), "easing": "linear"})
            if keys[-1]["offset"] != 1.0:
                keys.append({"offset": 1.0, "transform": keys[-1]["transform"], "easing": "linear"})
            timing = {"duration": total, "easing": "linear"}
            self.animations[c] = self.card_el[c].animate(_js(keys), _js(timing))
        return total

    def deal_in(self) -> None:
        """Deal the cards on the table from a pile below it, card by card, row by row (New deal,
        Replay); about 1 s at the normal pace, none without animations.  Any press ends it."""
        layout = self.layout
        if layout is None or not self.animate:
            return
        pile = (layout.width / 2 - layout.card_w / 2, layout.height - layout.card_h)
        where = {c: self.where[c] for c in range(52) if c in self.where}
        order = sorted(where, key=lambda c: (where[c][1], where[c][0]))
        self.finish_animations()
        for k, c in enumerate(order):
            keys = [{"transform": _transform(*pile)}, {"transform": _transform(*self.shown[c])}]
            timing = {"duration": DEAL_GLIDE_MS * self.speed, "delay": k * DEAL_EACH_MS * self.speed,
                      "easing": EASING, "fill": "backwards"}
            self.animations[c] = self.card_el[c].animate(_js(keys), _js(timing))
        self._ended_by_a_press()

    def celebrate(self) -> None:
        """The win: once the last cards have glided home, they hop off the foundations, kings
        first, about 2 s; any press ends it."""
        if self.layout is None or not self.animate:
            return
        hop = self.layout.card_h * 0.6
        order = sorted(self.shown, key=lambda c: (-rank(c), c))  # kings first
        wait = self.remaining_ms()  # the winning move and the cards it sends home, first
        self.trailing += [a for a in self.animations.values() if str(a.playState) == "running"]
        self.animations = {}
        for k, c in enumerate(order):
            x, y = self.shown[c]
            keys = [{"transform": _transform(x, y)}, {"transform": _transform(x, y - hop), "offset": 0.4},
                    {"transform": _transform(x, y)}]
            timing = {"duration": WIN_HOP_MS * self.speed, "delay": wait + k * WIN_EACH_MS * self.speed,
                      "easing": "ease-in-out"}
            self.animations[c] = self.card_el[c].animate(_js(keys), _js(timing))
        self._ended_by_a_press()

    def _ended_by_a_press(self) -> None:
        """A key or a press anywhere ends the running animations at once (each listener fires once)."""
        for kind in ("pointerdown", "keydown"):
            document.addEventListener(kind, create_once_callable(lambda _e: self.finish_animations()),
                                      _js({"capture": True, "once": True}))

    def mark_drop(self, pile: str | None) -> None:
        """Light up the pile a drag would land on, and the card on top of it; ``None``: none."""
        if pile == (None if self.drop_mark is None else self.drop_mark[0]):
            return
        on_it = [(index, c) for c, (name, index) in self.where.items() if name == pile]
        mark = None if pile is None else (pile, max(on_it)[1] if on_it else None)
        if self.drop_mark is not None:
            old_pile, old_card = self.drop_mark
            el = self.pile_el.get(old_pile)
            if el is not None:
                el.classList.remove("drop-ok")
            if old_card is not None:
                self.card_el[old_card].classList.remove("drop-target")
        self.drop_mark = mark
        if mark is not None:
            el = self.pile_el.get(mark[0])
            if el is not None:
                el.classList.add("drop-ok")
            if mark[1] is not None:
                self.card_el[mark[1]].classList.add("drop-target")

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

    # --- accessibility -------------------------------------------------
    def set_names(self, cards: dict[Card, str | None], piles: dict[str, str | None]) -> None:
        """Accessible names of the keyboard targets; ``None`` hides an element from them."""
        _rename(self.card_names, self.card_bg, cards)
        _rename(self.pile_names, self.pile_el, piles)

    def target_element(self, card: Card | None, pile: str) -> JsElement:
        """The focusable element of a card (its face rect) or of a pile (its drop area)."""
        return self.card_bg.get(card) if card is not None else self.pile_el.get(pile)

    def set_tab_stop(self, el: JsElement, ring: Rect | None) -> None:
        """Make ``el`` the table's one tab stop (roving tabindex) and ring it."""
        if self.tab_stop is not None and self.tab_stop is not el and self.tab_stop.hasAttribute("role"):
            self.tab_stop.setAttribute("tabindex", "-1")
        if el is not None:
            el.setAttribute("tabindex", "0")
        self.tab_stop = el
        if ring is None:
            self.focus_g.setAttribute("visibility", "hidden")
            return
        self.focus_g.removeAttribute("visibility")
        radius = (self.layout.card_w * 0.08 if self.layout else 0.0) + RING_OUTSET
        for rect in (self.ring_halo, self.ring):  # same box; the halo is a wider stroke below
            rect.setAttribute("x", f"{ring.x - RING_OUTSET:.1f}")
            rect.setAttribute("y", f"{ring.y - RING_OUTSET:.1f}")
            rect.setAttribute("width", f"{ring.w + 2 * RING_OUTSET:.1f}")
            rect.setAttribute("height", f"{ring.h + 2 * RING_OUTSET:.1f}")
            rect.setAttribute("rx", f"{radius:.1f}")

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
        """The drag is over: the cards glide from where they were let go at the next :meth:`show`."""
        self.mark_drop(None)
        for c in cards:
            self.card_el[c].classList.remove("dragging")
        self.landing = set(cards)
