"""Keyboard play, focus and speech: the table for keyboard and screen-reader players.

The accessibility design:

- The SVG table is ``role="application"`` named "FreeCell table", with its
  keys described by ``aria-describedby``.  Inside it the keyboard targets
  are ``role="button"`` elements with an ``aria-label``: each column card
  ("queen of spades, column 3, card 4 of 6"), each free cell and foundation
  ("free cell a, empty", "foundation hearts: five of hearts") and each empty
  column.  Everything else in the SVG is ``aria-hidden``.
- Focus is real DOM focus with a roving tabindex (one tab stop: the current
  target), not ``aria-activedescendant``: every screen reader, mobile ones
  included, reads the focused element, while active-descendant support is
  uneven (VoiceOver).  ``role="grid"`` was not chosen because the cards of a
  column cannot be children of their pile's gridcell: all cards live in one
  layer, ordered for drawing and animation, and ``aria-owns`` would have to
  be rewritten on every move.  The application role also lets the arrow keys
  through to the page in every screen reader's browse mode.  The grid of
  piles is in the keys (:mod:`freecell.ui.table.focus`): left and right across the
  piles, up and down along a column and between the two rows.
- The focus is drawn by a ring of our own above the cards (a bright ring on
  a dark halo, so it shows on felt and on cards), shown when the table has
  ``:focus-visible``.  It never gets lost: a redraw that rebuilds or reorders
  the focused element focuses the target again, a closed panel gives the
  focus back to what opened it, and a button that becomes disabled or hidden
  under the focus hands it to the table.
- Speech goes through one visually hidden polite live region
  (``data-role="announce"``): moves ("seven of hearts to column 4"), auto-moves,
  selections, refusals (the refusal line's own text), hints, the win and a
  stuck game.  The visible message line is not a live region, so nothing is
  said twice.
"""

from __future__ import annotations

from typing import Any

from js import document

from ..piles import COLUMN, Pile, column
from ..position import Position
from ..ui.table.focus import KEYS, Target, navigate, ring_rect, settle
from ..ui.table.table import Selection
from ..ui.text.catalogue import Catalogue
from ..ui.text.speech import accessible_names
from .dom import js_object, js_or_none
from .view import TableView

ACTIVATE_KEYS = ("Enter", " ", "Spacebar")
# what Tab stops at in a panel (a tab list's other tabs, tabindex -1, are reached by arrows)
FOCUS_STOPS = ", ".join(f'{t}:not([tabindex="-1"])'
                        for t in ("button", "input", "select", "textarea", "a[href]", "[tabindex]"))


class Access:
    """The keyboard target, the accessible names, the focus ring and the live region."""

    def __init__(self, view: TableView, svg: Any) -> None:
        self.view = view
        self.svg = svg
        self.target = Target(column(0))
        self.region = document.querySelector('[data-role="announce"]')
        self.opener: Any = None  # what had the focus when a panel opened
        self._drawn: Position | None = None
        self._pos: Position | None = None

    # --- focus -----------------------------------------------------------------
    def table_has_focus(self) -> bool:
        active = js_or_none(document.activeElement)
        return active is not None and bool(self.svg.contains(active)) and active != self.svg

    def refresh(self, cat: Catalogue, pos: Position, selection: Selection | None, refocus: bool) -> None:
        """After a redraw: names, the tab stop and the ring; focus again if the table had it.

        After a change of position the target goes to its pile's exposed card;
        otherwise it keeps its card.
        """
        keep = pos == self._drawn
        self._drawn = self._pos = pos
        self.target = settle(self.target, pos, keep_index=keep)
        cards, piles = accessible_names(cat, pos, selection)
        self.view.set_names(cards, {p.text(): name for p, name in piles.items()})
        self.place(refocus)

    def element(self) -> Any:
        pos = self._pos
        if pos is None:
            return None
        t = self.target = settle(self.target, pos, keep_index=True)
        card = pos.columns[t.pile.index][t.index] if t.pile.kind == COLUMN and t.index >= 0 else None
        return self.view.target_element(card, t.pile.text())

    def place(self, focus: bool) -> None:
        layout = self.view.layout
        pos = self._pos
        ring = ring_rect(layout, pos, self.target) if layout is not None and pos is not None else None
        el = self.element()
        self.view.set_tab_stop(el, ring)
        if focus and el is not None:
            el.focus(js_object({"preventScroll": True}))

    def point_at(self, pile: Pile | None, index: int) -> None:
        """A pointer went to a pile: the keyboard carries on from there."""
        if pile is not None and pile.index >= 0:
            self.target = Target(pile, index if pile.kind == COLUMN else -1)

    def focus_table(self) -> None:
        self.place(True)

    # --- keys ------------------------------------------------------------------
    def navigate(self, key: str) -> bool:
        """Arrows, Home and End on the table: the target moves; whether the key was one of them."""
        if key not in KEYS or self._pos is None:
            return False
        moved = navigate(self.target, key, self._pos, self.view.layout)
        if moved is not None:
            self.target = moved
            self.place(True)
        return True

    # --- panels ----------------------------------------------------------------
    def panel_opened(self) -> None:
        active = js_or_none(document.activeElement)
        if active is None or active == document.body:
            self.opener = None  # nothing had the focus: the table gets it back
        elif js_or_none(active.closest(".panel")) is None:
            self.opener = active

    def panel_closed(self) -> None:
        """Give the focus back to what opened the panel (the table's target if that is gone)."""
        opener, self.opener = self.opener, None
        active = js_or_none(document.activeElement)
        lost = active is None or active == document.body or js_or_none(active.closest(".panel")) is not None
        if not lost:
            return
        usable = opener is not None and bool(opener.isConnected) and not _unusable(opener)
        if usable and not self.svg.contains(opener):
            opener.focus()
            return
        self.place(True)

    def keep_in_panel(self, backwards: bool) -> bool:
        """Tab (``backwards``: Shift+Tab) with a panel open goes round within it, never to the table
        behind, where keys do nothing while it is open; whether it moved the focus."""
        panel = js_or_none(document.querySelector(".panel[data-panel]:not([hidden])"))
        if panel is None:
            return False
        stops = [el for el in panel.querySelectorAll(FOCUS_STOPS)
                 if not _unusable(el) and el.getClientRects().length]
        if not stops:
            return False
        first, last = stops[0], stops[-1]
        active = js_or_none(document.activeElement)
        inside = active is not None and bool(panel.contains(active))
        if inside and active != (first if backwards else last):
            return False  # the browser's own next stop is in the panel
        (last if backwards else first).focus()
        return True

    def rescue(self) -> None:
        """After an action: a focus left on nothing, or on a button now disabled or hidden, goes on."""
        active = js_or_none(document.activeElement)
        if active is None or active == document.body or _unusable(active):
            panel = js_or_none(document.querySelector(".panel[data-panel]:not([hidden])"))
            if panel is not None:
                first = js_or_none(panel.querySelector("button:not([disabled]), input"))
                if first is not None:
                    first.focus()
                    return
            self.place(True)

    # --- speech ----------------------------------------------------------------
    def announce(self, text: str) -> None:
        """Say ``text`` in the polite live region.

        The text goes into a new element each time, so a sentence said twice
        in a row is read twice.
        """
        if not text:
            return
        p = document.createElement("p")
        p.textContent = text
        self.region.replaceChildren(p)


def _unusable(el: Any) -> bool:
    """A disabled control, or one inside something hidden."""
    return bool(getattr(el, "disabled", False)) or js_or_none(el.closest("[hidden]")) is not None
