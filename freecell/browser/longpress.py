"""The long press on a column card and its sequence picker panel.

A press that stays within :data:`SLOP_PX` of where it started for
:data:`LONG_PRESS_MS` (the browser's ``setTimeout``) opens the picker above
the sequence the pressed card belongs to: how many cards go with it, an up arrow (one card more), a
down arrow (one card fewer) and a close button in the corner.  Without lifting
the finger, sliding onto an arrow changes the first card once per entry;
releasing confirms, which only selects the cards (nothing moves until the
player taps or drags to a destination).  Releasing on the close button, or
Escape, closes the picker and leaves the table and the selection as they were.

The counting is :class:`freecell.ui.picker.Picker`; this module owns the
timer, the panel and where the pointer is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from js import document, window
from pyodide.ffi import create_proxy, jsnull

from ..piles import COLUMN
from ..ui.picker import Picker
from ..ui.speech import plural

if TYPE_CHECKING:
    from .app import App, Press

LONG_PRESS_MS = 480
SLOP_PX = 8  # the same as the drag threshold: a press that moves further is a drag
PANEL_GAP_PX = 10


def _js_or_none(value: Any) -> Any:
    return None if value is None or value is jsnull else value


class LongPress:
    def __init__(self, app: App) -> None:
        self.app = app
        self.panel = document.querySelector('[data-panel="picker"]')
        self.count_el = self.panel.querySelector('[data-role="picker-count"]')
        self.picker: Picker | None = None
        self.over: str | None = None  # the picker button under the pointer
        self._timer: Any = None
        self._fire_proxy = create_proxy(self._fire)
        app._proxies.append(self._fire_proxy)

    @property
    def is_open(self) -> bool:
        return self.picker is not None

    # --- the timer ---------------------------------------------------------------
    def arm(self, press: Press) -> None:
        """Start timing a press on a column card."""
        self.disarm()
        if press.on_card and press.pile is not None and press.pile.kind == COLUMN:
            self._timer = window.setTimeout(self._fire_proxy, LONG_PRESS_MS)

    def disarm(self) -> None:
        if self._timer is not None:
            window.clearTimeout(self._timer)
            self._timer = None

    def _fire(self, *_: Any) -> None:
        self._timer = None
        press = self.app.press
        if press is None or press.dead or press.dragging or press.pile is None:
            return
        picker = Picker.open(self.app.game.position, self.app.game.rules, press.pile, press.index)
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
        """Above the cards that can go together (so it never hides them), inside the table's box.

        Below the finger if there is no room above.
        """
        picker = self.picker
        if picker is None:
            return
        col = self.app.game.position.columns[picker.pile.index]
        card_el = self.app.view.card_el[col[picker.deepest]]
        card = card_el.getBoundingClientRect()
        area = self.app.area.getBoundingClientRect()
        w, h = float(self.panel.offsetWidth), float(self.panel.offsetHeight)
        left = float(card.left) + float(card.width) / 2 - w / 2 - float(area.left)
        left = max(4.0, min(left, float(area.width) - w - 4.0))
        top = float(card.top) - float(area.top) - h - PANEL_GAP_PX
        if top < 4.0:
            top = press.y0 - float(area.top) + 48.0
        self.panel.style.left = f"{left:.0f}px"
        self.panel.style.top = f"{top:.0f}px"

    def _update(self) -> None:
        picker = self.picker
        if picker is None:
            return
        text = plural(self.app.cat, "picker.count", picker.count)
        self.count_el.textContent = text
        self.count_el.setAttribute("data-value", str(picker.count))
        self.panel.querySelector('[data-action="picker-up"]').disabled = picker.first <= picker.deepest
        self.panel.querySelector('[data-action="picker-down"]').disabled = picker.first >= picker.last
        col = self.app.game.position.columns[picker.pile.index]
        self.app.view.set_selected(set(col[picker.first:]))
        self.app.access.announce(text)

    def _close(self) -> None:
        self.picker = None
        self.over = None
        self.panel.hidden = True

    # --- the pointer -------------------------------------------------------------
    def _action_at(self, e: Any) -> str | None:
        hit = _js_or_none(document.elementFromPoint(e.clientX, e.clientY))
        button = _js_or_none(hit.closest('[data-panel="picker"] [data-action]')) if hit is not None else None
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
        self.app.access.point_at(picker.pile, picker.first)
        self.app.handle(self.app.state.select(picker.pile, picker.first))

    def cancel(self) -> None:
        """Close without touching the table: the selection stays what it was."""
        if self.picker is None:
            return
        self._close()
        if self.app.press is not None:
            self.app.press.dead = True
        self.app.view.set_selected(self.app.selected_cards())

    # --- the buttons (a click reaches them only when no finger holds the picker) ---
    def step(self, up: bool) -> None:
        if self.picker is not None and (self.picker.step_up() if up else self.picker.step_down()):
            self._update()
