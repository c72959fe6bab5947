"""The status bar: the game's figures on one line, and the clock.

The items come from :mod:`freecell.ui.text.status` (each a hook
``data-status=name`` with its raw value in ``data-value``).  The bar stays
on one line: its texts are measured (a canvas's ``measureText`` in the bar's
fonts, no layout) and the first of :func:`~freecell.ui.text.status.status_plans`
that fits is shown.  The clock is written on its own, at every tick
(:meth:`StatusBar.time`), and only when its text changes.
"""

from __future__ import annotations

from typing import Any

from js import document, window

from ..ui.progress.daily import daily_day
from ..ui.session.session import Session
from ..ui.text.status import Item, fits, status_items, status_plans, time_item
from .dom import q, set_attr, set_hidden, set_text


class StatusBar:
    """``.statusbar``: its items, what fits of them, the clock."""

    def __init__(self) -> None:
        self._time = ""
        self.shown: list[tuple[str, str, bool]] = []  # (name, text, hidden), as on the bar now
        self._fit_key: object = None
        self._fit_choice = 0
        self._fonts: dict[str, str] = {}  # each item's CSS font, read again after a resize
        self._room: tuple[float, float] | None = None  # (room for the items, gap between them)
        self._canvas: Any = None

    def render(self, s: Session) -> None:
        """Every item as the game on the table has it."""
        items = status_items(s.cat, s.game, s.variant(), s.level, s.verdict(),
                             show_score=s.settings.flag("score"),
                             show_winnable=s.settings.flag("winnability"), loss=s.analysis.loss(s.line()))
        plans = status_plans(s.cat, items, s.level)
        clock = time_item(s.cat, s.game, s.settings.flag("timer"))
        shown = plans[self._fit(plans, "" if clock.hidden else clock.text)]
        for item in shown:
            el = q(f'[data-status="{item.name}"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
            set_hidden(el, item.hidden)
        self.shown = [(i.name, i.text, i.hidden) for i in shown]
        deal_el = q('[data-status="deal"]')
        set_attr(deal_el, "data-difficulty", s.level)
        today = s.progress.today()
        set_attr(deal_el, "data-daily", "yes" if daily_day(s.game, today) == today else None)
        self.time(s, force=True)

    def kept(self, s: Session) -> list[tuple[str, str, bool]]:
        """The bar as on the screen now, clock included: ``(name, text, hidden)`` of each item, for the
        table kept for the next visit (:mod:`freecell.ui.progress.stored_table`)."""
        clock = time_item(s.cat, s.game, s.settings.flag("timer"))
        return [*self.shown, (clock.name, clock.text, clock.hidden)]

    def resized(self) -> None:
        """The page changed size: the bar's room and fonts anew."""
        self._room = None
        self._fonts = {}
        self._fit_key = None

    def time(self, s: Session, force: bool = False) -> None:
        """The clock (``data-status=time``), when its text changed."""
        item = time_item(s.cat, s.game, s.settings.flag("timer"))
        if item.text != self._time or force:
            grew = len(item.text) != len(self._time) and not item.hidden
            self._time = item.text
            el = q('[data-status="time"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
            set_hidden(el, item.hidden)
            if grew and not force:  # 9:59 -> 10:00: the bar may have to give way
                self.render(s)

    def _fit(self, plans: list[list[Item]], time_text: str) -> int:
        """The first plan whose texts fit on the bar's one line (measured, not laid out)."""
        if self._room is None:
            bar = q(".statusbar")
            if bar is None:
                return 0
            style = window.getComputedStyle(bar)
            pad = _px(style.paddingLeft) + _px(style.paddingRight)
            self._room = (float(bar.clientWidth) - pad, _px(style.columnGap))
        room, gap = self._room
        key = (tuple((i.text, i.hidden, i.also) for plan in plans for i in plan), len(time_text), room)
        if key == self._fit_key:
            return self._fit_choice
        clock = self._width("time", time_text) if time_text else 0.0  # "": the timer is hidden
        choice = len(plans) - 1  # none fits: the shortest, cut short by the style sheet
        for i, plan in enumerate(plans):  # measured one plan at a time: most often the first fits
            widths = [clock] + [0.0 if it.hidden or not it.text
                                else max(self._width(it.name, it.shown()), self._width(it.name, it.also))
                                for it in plan]
            if fits(widths, room - 2.0, gap):
                choice = i
                break
        self._fit_key = key
        self._fit_choice = choice
        return choice

    def _width(self, name: str, text: str) -> float:
        """How wide ``text`` is in the font of the status item ``name``."""
        if self._canvas is None:
            self._canvas = document.createElement("canvas").getContext("2d")
        font = self._fonts.get(name)
        if font is None:
            el = q(f'[data-status="{name}"]')
            if el is None:
                return 0.0
            st = window.getComputedStyle(el)
            font = f"{st.fontStyle} {st.fontWeight} {st.fontSize} {st.fontFamily}"
            self._fonts[name] = font
        self._canvas.font = font
        return float(self._canvas.measureText(text).width) + 1.0


def _px(value: object) -> float:
    """A computed CSS length in pixels (``"12px"``; ``normal`` and the like: 0)."""
    text = str(value)
    try:
        return float(text.removesuffix("px"))
    except ValueError:
        return 0.0
