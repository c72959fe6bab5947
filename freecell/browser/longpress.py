"""The long press on a column card and its sequence picker panel.

A press that stays within :data:`SLOP_PX` of where it started for
:data:`LONG_PRESS_MS` (the browser's ``setTimeout``) opens the picker above
the sequence the pressed card belongs to: how many cards go with it, an up arrow (one card more), a
down arrow (one card fewer) and a close button in the corner.  Without lifting
the finger, sliding onto an arrow changes the first card once per entry;
releasing confirms, which only selects the cards (nothing moves until the
player taps or drags to a destination).  Releasing on the close button, or
Escape, closes the picker and leaves the table and the selection as they were.

The counting is :class:`freecell.ui.table.picker.Picker`; this module owns the
timer, the panel and where the pointer is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from js import document

from ..cards import Card
from ..piles import COLUMN, Pile
from ..ui.session.session import Session
from ..ui.table import overlay
from ..ui.table.layout import Rect
from ..ui.table.picker import Picker
from ..ui.text.speech import plural
from .dom import Bindings, js_or_none
from .view import TableView

LONG_PRESS_MS = 480
SLOP_PX = 8  # the same as the drag threshold: a press that moves further is a drag
PANEL_GAP_PX = 10


@dataclass
class Press:
    """A pointer that went down on the table, until it comes up (or the game changes under it)."""

    pointer_id: int
    x0: float
    y0: float
    pile: Pile | None
    index: int
    on_card: bool
    dragging: bool = False
    dead: bool = False
    picking: bool = False  # a long press opened the sequence picker
    scrolling: bool = False  # a touch that scrolls a table taller than its box
    scroll_top: float = 0.0  # where that table stood when the press began
    cards: list[Card] = field(default_factory=list)
    base: dict[Card, Any] = field(default_factory=dict)


class LongPress:
    """The long-press timer and the picker panel; ``on_select(pile, index)`` confirms a choice."""

    def __init__(self, session: Session, view: TableView, area: Any, bindings: Bindings,
                 on_select: Callable[[Pile, int], None], announce: Callable[[str], None]) -> None:
        self.session = session
        self.view = view
        self.area = area
        self.bindings = bindings
        self.on_select = on_select
        self.announce = announce
        self.panel = document.querySelector('[data-panel="picker"]')
        self.count_el = self.panel.querySelector('[data-role="picker-count"]')
        self.picker: Picker | None = None
        self.press: Press | None = None
        self.over: str | None = None  # the picker button under the pointer
        self._timer: Any = None

    @property
    def is_open(self) -> bool:
        return self.picker is not None

    # --- the timer ---------------------------------------------------------------
    def arm(self, press: Press) -> None:
        """Start timing a press on a column card."""
        self.disarm()
        self.press = press
        if press.on_card and press.pile is not None and press.pile.kind == COLUMN:
            self._timer = self.bindings.later(LONG_PRESS_MS, self._fire)

    def disarm(self) -> None:
        self.bindings.cancel(self._timer)
        self._timer = None

    def _fire(self) -> None:
        self._timer = None
        press = self.press
        if press is None or press.dead or press.dragging or press.pile is None:
            return
        game = self.session.game
        picker = Picker.open(game.position, game.rules, press.pile, press.index)
        if picker is None:
            return
        press.picking = True
        self.picker = picker
        self.over = None
        self.panel.hidden = False
        self._place(press)
        self._update()

    # --- the panel -----------------------------------------------------------------
    def _place(self, press: Press) -> None:
        """Beside the cards that can go together, never over them (:func:`~.overlay.beside`)."""
        picker = self.picker
        if picker is None:
            return
        col = self.session.position.columns[picker.pile.index]
        first = self.view.card_el[col[picker.deepest]].getBoundingClientRect()
        last = self.view.card_el[col[picker.last]].getBoundingClientRect()
        area = self.area.getBoundingClientRect()
        run = Rect(float(first.left) - float(area.left), float(first.top) - float(area.top),
                   float(first.width), float(last.bottom) - float(first.top))
        w, h = float(self.panel.offsetWidth), float(self.panel.offsetHeight)
        left, top = overlay.beside(run, w, h, float(area.width), float(area.height), PANEL_GAP_PX)
        self.panel.style.left = f"{left:.0f}px"
        self.panel.style.top = f"{top:.0f}px"

    def _update(self) -> None:
        picker = self.picker
        if picker is None:
            return
        text = plural(self.session.cat, "picker.count", picker.count)
        self.count_el.textContent = text
        self.count_el.setAttribute("data-value", str(picker.count))
        self.panel.querySelector('[data-action="picker-up"]').disabled = picker.first <= picker.deepest
        self.panel.querySelector('[data-action="picker-down"]').disabled = picker.first >= picker.last
        col = self.session.position.columns[picker.pile.index]
        self.view.set_selected(set(col[picker.first:]))
        self.announce(text)

    def _close(self) -> None:
        self.picker = None
        self.over = None
        self.panel.hidden = True

    # --- the pointer -------------------------------------------------------------
    def _action_at(self, e: Any) -> str | None:
        hit = js_or_none(document.elementFromPoint(e.clientX, e.clientY))
        button = js_or_none(hit.closest('[data-panel="picker"] [data-action]')) if hit is not None else None
        return None if button is None else str(button.getAttribute("data-action"))

    def slide(self, e: Any) -> None:
        """The finger moves while the picker is open: entering an arrow steps once."""
        if self.picker is None:
            return
        action = self._action_at(e)
        if action == self.over:
            return
        self.over = action
        stepped = self.picker.step_up() if action == "picker-up" else (
            self.picker.step_down() if action == "picker-down" else False)
        if stepped:
            self._update()

    def release(self, e: Any) -> None:
        """The finger lifts: the close button cancels, anywhere else confirms."""
        if self._action_at(e) == "picker-close":
            self.cancel()
        else:
            self.confirm()

    def confirm(self) -> None:
        picker = self.picker
        if picker is None:
            return
        self._close()
        self.on_select(picker.pile, picker.first)

    def cancel(self) -> None:
        """Close without touching the table: the selection stays what it was."""
        if self.picker is None:
            return
        self._close()
        if self.press is not None:
            self.press.dead = True
        self.view.set_selected(self.session.table.selected_cards())

    # --- the buttons (a click reaches them only when no finger holds the picker) ---
    def step(self, up: bool) -> None:
        if self.picker is not None and (self.picker.step_up() if up else self.picker.step_down()):
            self._update()
