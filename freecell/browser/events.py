"""Every event of the page, bound once, turned into calls on the session.

Pointer events are delegated from the table root (``svg#table``), clicks
and keys from the document; the settings panel, the page's visibility, its
size and the clock are bound here too, all through one
:class:`~.dom.Bindings`, so :meth:`Events.unbind` undoes every one of them,
stops every timer and destroys every proxy.  Each handler asks the
:class:`~freecell.ui.session.session.Session` and hands the returned
:class:`~freecell.ui.session.change.Change` to ``apply`` (the page's one path to the
screen); nothing here decides a rule or edits a pile.

Where a long column makes the table taller than its box, a finger that goes
up or down from the felt, or from a card that cannot be picked, scrolls it
(the table takes every gesture itself, ``touch-action: none``; a mouse has
its wheel).  A press on the table lives until the pointer comes up; a change
of the game under it (a new deal, an undo by key, a host command) cancels it
(:meth:`Events.cancel_press`), as chessground cancels a drag whose piece
changed.  A press on the table while a solution plays stops the playback at
once, and then does what it always does (play goes on from there); while a
playback is on show, Space pauses or plays it and the left and right arrows
step it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from js import document, performance, window
from pyodide.ffi import jsnull

from ..piles import MoveError, Pile
from ..ui.progress.save_format import ID_SHAPE
from ..ui.session.change import Change, MessageLine, Panel
from ..ui.session.session import Session
from ..ui.table.focus import KEYS, SAYS_WHY, shortcut
from ..ui.table.layout import Rect
from ..ui.table.table import Selection, Tap, TapKind, tap_kind
from ..ui.text.sentences import deal_copied
from .access import ACTIVATE_KEYS, Access
from .chrome import Chrome
from .dom import Bindings, closest, q
from .longpress import LongPress, Press
from .settings import SettingsPanel
from .view import TableView

DRAG_THRESHOLD_PX = 8
TICK_MS = 250

Apply = Callable[[Change], None]


def now() -> float:
    return float(performance.now()) / 1000.0


def _typing(target: Any) -> bool:
    """Whether a key goes to a text field (shortcuts and table keys then stay out of the way)."""
    if target is None:
        return False
    tag = str(getattr(target, "tagName", "") or "").upper()
    return tag in ("INPUT", "TEXTAREA", "SELECT") or bool(getattr(target, "isContentEditable", False))


def _pile_of(name: object) -> Pile | None:
    try:
        return Pile.parse(str(name))
    except MoveError:
        return None


class Events:
    """The page's event handlers; ``apply`` receives every change they cause."""

    def __init__(self, session: Session, view: TableView, access: Access, chrome: Chrome,
                 bindings: Bindings, apply: Apply, relayout: Callable[[], None]) -> None:
        self.session = session
        self.view = view
        self.access = access
        self.chrome = chrome
        self.bindings = bindings
        self.apply = apply
        self.relayout = relayout
        self.svg = document.getElementById("table")
        self.area = document.getElementById("table-area")
        self.scroller = document.getElementById("table-scroll")  # scrolls when the table is taller
        self.press: Press | None = None
        self._over: Pile | None = None  # the pile a drag is over (its landing is lit up)
        self.longpress = LongPress(session, view, self.area, bindings,
                                   on_select=self._picked, announce=access.announce)
        self._last_tap: Tap | None = None  # the last tap, for a double tap (or its echo)
        self.settings_panel: SettingsPanel | None = None
        self._reduce = window.matchMedia("(prefers-reduced-motion: reduce)")
        self._task: Any = None

    @property
    def reduced_motion(self) -> bool:
        return bool(self._reduce.matches)

    # --- binding -------------------------------------------------------------
    def bind(self, on_motion: Callable[[], None], on_tick: Callable[[], None]) -> None:
        b = self.bindings
        b.on(self.svg, "pointerdown", self.on_pointer_down)
        b.on(self.svg, "pointermove", self.on_pointer_move)
        b.on(self.svg, "pointerup", self.on_pointer_up)
        b.on(self.svg, "pointercancel", self.on_pointer_cancel)
        b.on(self.svg, "contextmenu", lambda e: e.preventDefault())
        b.on(document, "click", self.on_click)
        b.on(document, "keydown", self.on_key)
        # how the player plays now: a panel opened by a tap or a click shows no focus ring on its
        # first button (style.css: html[data-input=pointer]); a key brings the ring back
        b.on(document, "pointerdown", self.on_any_pointer)
        b.on(document, "visibilitychange", self.on_visibility)
        b.on(window, "storage", self.on_storage)
        b.on(window, "pagehide", lambda _e: self.apply(self.session.keeping.hidden()))
        b.on(document.getElementById("deal-form"), "submit", self.on_deal_submit)
        b.on(self._reduce, "change", lambda _e: on_motion())
        b.observe_size(self.area, self.relayout)
        b.every(TICK_MS, on_tick)
        self.settings_panel = SettingsPanel(
            b, lambda name, value: self.apply(self.session.preferences.set_setting(name, value)))

    def unbind(self) -> None:
        self.cancel_press()
        self.bindings.unbind()

    # --- the press -------------------------------------------------------------
    def cancel_press(self) -> None:
        """The game changed under a press: it means nothing any more."""
        p = self.press
        self.press = None
        self.longpress.disarm()
        self.longpress.press = None
        if self.longpress.is_open:
            self.longpress.cancel()
        self._over = None
        if p is not None and p.dragging:
            self.view.drag_end(p.cards)

    def _picked(self, pile: Pile, index: int) -> None:
        self.access.point_at(pile, index)
        self.apply(self.session.select(pile, index))

    def _svg_scale(self) -> tuple[Any, float]:
        box = self.svg.getBoundingClientRect()
        layout = self.view.layout
        scale = layout.width / float(box.width) if layout and box.width else 1.0
        return box, scale

    def on_pointer_down(self, e: Any) -> None:
        if e.pointerType == "mouse" and e.button != 0:
            return
        if self.session.finishing:
            self.apply(self.session.finish())  # pressed again: it stops
            e.preventDefault()
            return
        if self.session.watch.playback is not None:  # the player takes over, from where the playback stands
            self.apply(self.session.watch.stop())
            e.preventDefault()  # the touch that stops it does nothing more: no card is picked up
            return
        if self.press is not None:
            return
        self.view.finish_animations()  # a new press never waits for a card still gliding
        target = e.target
        card_el = closest(target, "[data-card]")
        pile_el = closest(target, "[data-pile]")
        pile: Pile | None = None
        index = -1
        if card_el is not None:
            pile = _pile_of(card_el.getAttribute("data-pile"))
            index = int(card_el.getAttribute("data-index") or -1)
        elif pile_el is not None:
            pile = _pile_of(pile_el.getAttribute("data-pile"))
        self.press = Press(int(e.pointerId), float(e.clientX), float(e.clientY), pile, index,
                           card_el is not None, scroll_top=float(self.scroller.scrollTop))
        self.longpress.arm(self.press)
        with contextlib.suppress(Exception):  # a pointer already gone cannot be captured
            self.svg.setPointerCapture(e.pointerId)
        e.preventDefault()

    def _starts_scroll(self, p: Press, e: Any, dx: float, dy: float) -> bool:
        """Whether a finger that moved by ``(dx, dy)`` scrolls the table now (see the module doc).

        Up or down past the slop, on a table taller than its box, from the felt
        or from a card that cannot be picked (a card that can is dragged).
        """
        if (p.dragging or e.pointerType == "mouse" or abs(dy) <= abs(dx)
                or dx * dx + dy * dy < DRAG_THRESHOLD_PX**2 or not self.area.hasAttribute("data-scroll")):
            return False
        if not p.on_card or p.pile is None:
            return True
        return not isinstance(self.session.pick(p.pile, p.index), Selection)

    def on_pointer_move(self, e: Any) -> None:
        p = self.press
        if p is None or p.dead or e.pointerId != p.pointer_id:
            return
        dx, dy = float(e.clientX) - p.x0, float(e.clientY) - p.y0
        if p.scrolling:
            self.scroller.scrollTop = p.scroll_top - dy  # the table follows the finger
            return
        if p.picking:
            self.longpress.slide(e)
            return
        if self._starts_scroll(p, e, dx, dy):
            self.longpress.disarm()
            p.scrolling = True
            self.scroller.scrollTop = p.scroll_top - dy
            return
        if not p.on_card or p.pile is None:
            return
        if not p.dragging:
            if dx * dx + dy * dy < DRAG_THRESHOLD_PX**2:
                return
            self.longpress.disarm()  # moved beyond the slop: a drag, not a long press
            picked = self.session.pick(p.pile, p.index)
            if not isinstance(picked, Selection):
                p.dead = True
                self.apply(picked)
                return
            layout = self.view.layout
            if layout is None:
                return
            self.view.set_selected(set())
            spots = layout.spots(self.session.position)
            cards = [c for c in range(52) if spots[c].pile == p.pile and spots[c].index >= picked.index]
            cards.sort(key=lambda c: spots[c].index)
            if p.pile.kind != 0:  # cells and foundations: just the card on top
                cards = cards[-1:]
            p.cards = cards
            p.base = {c: spots[c] for c in cards}
            p.dragging = True
            self.view.drag_begin(p.cards)
        _, scale = self._svg_scale()
        self.view.drag_to(p.cards, p.base, dx * scale, dy * scale)
        self._light_landing(p, self._drop_target(p, e))

    def _drop_target(self, p: Press, e: Any) -> Pile | None:
        """The pile the dragged cards are over: the one their first card overlaps most, else the pointer's."""
        layout = self.view.layout
        if layout is None or not p.cards:
            return None
        box, scale = self._svg_scale()
        x = (float(e.clientX) - float(box.left)) * scale
        y = (float(e.clientY) - float(box.top)) * scale
        hx, hy = self.view.shown[p.cards[0]]
        return layout.drop_target(Rect(hx, hy, layout.card_w, layout.card_h), x, y, source=p.pile)

    def _light_landing(self, p: Press, over: Pile | None) -> None:
        """Light up where the cards would land if let go now (the session says; nothing changes)."""
        if p.pile is None or over == self._over:
            return
        self._over = over
        land = self.session.landing(p.pile, p.index, over)
        self.view.mark_drop(None if land is None else land.text())

    def on_pointer_up(self, e: Any) -> None:
        p = self.press
        if p is None or e.pointerId != p.pointer_id:
            return
        self.press = None
        self.longpress.disarm()
        self.longpress.press = None
        if p.dead or p.scrolling:
            return
        if p.picking:
            self.longpress.press = p
            self.longpress.release(e)
            self.longpress.press = None
            return
        s = self.session
        if p.dragging:
            dst = self._drop_target(p, e)
            self._over = None
            self.view.drag_end(p.cards)
            if self.view.layout is None or p.pile is None:
                return
            self.access.point_at(dst, -1)
            self.apply(s.drop(p.pile, p.index, dst))
            return
        tap = Tap(p.pile, p.index if p.on_card else -1, float(e.timeStamp), p.x0, p.y0)
        kind = tap_kind(self._last_tap, tap)
        if kind is TapKind.ECHO:  # the rest of a gesture whose first tap sent its own card away
            self._last_tap = None
            return
        self.access.point_at(p.pile, p.index)
        picked = s.table.selection is None  # a tap on a card now moves that card itself
        if p.pile is None:
            change = s.tap_nothing()
        elif p.on_card:
            change = (s.double_tap(p.pile, p.index) if kind is TapKind.DOUBLE  # to the best place
                      else s.tap_card(p.pile, p.index))
        else:
            change = s.tap_pile(p.pile)
        if kind is TapKind.DOUBLE and not change.game_changed:
            self._last_tap = None  # a double tap's second tap is not the first of another
        else:  # its card went from under the pointer (not a destination's tap: the next tap is free)
            sent = change.game_changed and p.on_card and (picked or kind is TapKind.DOUBLE)
            self._last_tap = replace(tap, moved=sent)
        self.apply(change)

    def on_pointer_cancel(self, e: Any) -> None:
        p = self.press
        if p is None or e.pointerId != p.pointer_id:
            return
        self.cancel_press()
        if p.dragging:
            self.apply(Change(redraw=True))

    def on_any_pointer(self, _e: Any) -> None:
        document.documentElement.setAttribute("data-input", "pointer")

    # --- keys ------------------------------------------------------------------
    def on_key(self, e: Any) -> None:
        document.documentElement.setAttribute("data-input", "keyboard")
        target = e.target
        key = str(e.key)
        s = self.session
        if key == "Escape":
            if self.longpress.is_open:
                self.longpress.cancel()
                e.preventDefault()
                return
            change = s.escape()
            if change is not None:
                self.apply(change)
                self.access.rescue()
                e.preventDefault()
            return
        if key == "Tab" and s.panel is not None and self.access.keep_in_panel(bool(e.shiftKey)):
            e.preventDefault()
            return
        if _typing(target):
            return
        if self._watch_key(e, key):
            return
        if key == "Enter" and s.finishing:
            self.apply(s.finish())  # pressed again: it stops
            e.preventDefault()
            return
        if s.panel is Panel.WIN and shortcut(key, shift=bool(e.shiftKey), ctrl=bool(e.ctrlKey),
                                             alt=bool(e.altKey), meta=bool(e.metaKey)) == "undo":
            e.preventDefault()  # U takes the last move back even from the win panel (which closes)
            self.action("undo")
            self.access.rescue()
            return
        if self.longpress.is_open or s.panel is not None:
            return  # an open panel has the keyboard (Tab, Enter on its buttons, Escape)
        chord = bool(e.ctrlKey or e.metaKey or e.altKey)
        if not chord and bool(self.svg.contains(target)):
            if self.access.navigate(key):
                e.preventDefault()
                return
            if key in ACTIVATE_KEYS:
                self.apply(s.activate(self.access.target, select_only=bool(e.shiftKey)))
                e.preventDefault()
                return
        if not chord and key in KEYS and (target is None or target == document.body):
            self.access.focus_table()  # arrows with the focus nowhere: into the table
            e.preventDefault()
            return
        action = shortcut(key, shift=bool(e.shiftKey), ctrl=bool(e.ctrlKey), alt=bool(e.altKey),
                          meta=bool(e.metaKey))
        if action is None or not (s.available(action) or action in SAYS_WHY):  # as for its button
            return
        e.preventDefault()
        self.action(action)
        self.access.rescue()

    def _watch_key(self, e: Any, key: str) -> bool:
        """Space pauses or plays the solution on show, the arrows step it; whether the key was that."""
        s = self.session
        playback = s.watch.playback
        if playback is None or not playback.on or s.panel is not None:
            return False
        if e.ctrlKey or e.metaKey or e.altKey or e.shiftKey:
            return False
        if key == " " and closest(e.target, "button") is not None:
            return False  # a focused button takes its own Space
        intents: dict[str, Callable[[], Change]] = {
            " ": s.watch.toggle, "ArrowRight": lambda: s.watch.step(forward=True),
            "ArrowLeft": lambda: s.watch.step(forward=False),
        }
        if key not in intents:
            return False
        e.preventDefault()
        self.apply(intents[key]())
        return True

    # --- buttons -------------------------------------------------------------------
    def on_click(self, e: Any) -> None:
        button = closest(e.target, "[data-action]")
        if button is None or button.disabled:
            return
        action = str(button.getAttribute("data-action"))
        if action == "resume":  # a game of the unfinished games' list
            game_id = str(button.getAttribute("data-game") or "")
            if ID_SHAPE.fullmatch(game_id):
                self.apply(self.session.opening.resume(game_id))
        else:
            self.action(action)
        self.access.rescue()

    def action(self, name: str) -> None:
        """The action of a button or a shortcut (``data-action``)."""
        s = self.session
        opening, watch, keeping = s.opening, s.watch, s.keeping
        intents: dict[str, Callable[[], Change]] = {
            "undo": s.undo, "redo": s.redo, "hint": s.hint, "finish": s.finish,
            "back-to-winnable": s.back_to_winnable,
            "rules": lambda: s.open_panel("rules"), "settings": lambda: s.open_panel("settings"),
            "game-menu": lambda: s.open_panel("game"),
            "stats": lambda: s.open_panel("stats"), "unfinished": lambda: s.open_panel("unfinished"),
            "close": s.close_panels, "look": s.close_panels,
            "new": opening.new_deal, "replay": opening.replay, "daily": opening.daily,
            "resume-here": opening.resume,
            "watch": watch.start, "watch-solution": watch.solution, "watch-play": watch.toggle,
            "watch-back": lambda: watch.step(forward=False),
            "watch-forward": lambda: watch.step(forward=True),
            "watch-speed": watch.faster, "watch-close": watch.stop,
            "stats-reset-confirm": keeping.reset_stats, "notice-close": keeping.close_notice,
            "share": keeping.share, "copy-link": keeping.share,
        }
        if name in intents:
            self.apply(intents[name]())
            if name == "stats-reset-confirm":
                self.chrome.panels.cancel_reset()
            return
        if name == "stats-reset":
            self.chrome.panels.ask_reset()
        elif name == "stats-reset-cancel":
            self.chrome.panels.cancel_reset()
        elif name == "picker-up":
            self.longpress.step(up=True)
        elif name == "picker-down":
            self.longpress.step(up=False)
        elif name == "picker-close":
            self.longpress.cancel()
        elif name == "copy-deal":
            self._task = asyncio.ensure_future(self._copy_deal())

    async def _copy_deal(self) -> None:
        n = self.session.game.deal
        if n is None:
            return
        try:
            await window.navigator.clipboard.writeText(str(n))
            ok = True
        except Exception:
            ok = False
        text = deal_copied(self.session.cat, n, ok)
        self.apply(Change(message=MessageLine(text), announce=text))

    def on_deal_submit(self, e: Any) -> None:
        e.preventDefault()
        self.apply(self.session.opening.play_deal(str(q('[data-field="deal"]').value)))

    # --- the page -------------------------------------------------------------------
    def on_storage(self, e: Any) -> None:
        """Another tab wrote to localStorage."""
        try:
            if e.storageArea != window.localStorage:
                return
            key = e.key
        except Exception:
            return
        self.apply(self.session.keeping.storage_changed(None if key is None or key is jsnull else str(key)))

    def on_visibility(self, _e: Any) -> None:
        if str(document.visibilityState) == "hidden":
            self.apply(self.session.keeping.hidden())
        else:
            self.apply(self.session.keeping.shown())
