"""The page: binds pointer, page-visibility and button events to the game.

Events are bound once and delegated from the table root and the document;
every handler asks the pure :class:`~freecell.ui.table.TableState` (which
asks the engine) and then renders the outcome.  Nothing here edits piles, and
no visible text is written here: it all comes from the message catalogue.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from js import document, performance, window
from pyodide.ffi import create_once_callable, create_proxy, jsnull

from .. import engine
from ..cards import Card
from ..deals import DealNumberError, draw_deal, parse_deal_number
from ..game import Game, Turn
from ..piles import Move, MoveError, Pile
from ..position import Position
from ..rules import Refusal
from ..ui.focus import KEYS, shortcut
from ..ui.i18n import Catalogue, choose_language
from ..ui.layout import LARGE_MIN_STRIP, MIN_STRIP, Rect, compute_layout
from ..ui.speech import selection_sentence, turn_sentence
from ..ui.start import parse_embed, parse_query
from ..ui.table import Outcome, TableState
from ..variants import VARIANTS
from .access import Access
from .assist import Assist
from .embedding import Embedding
from .longpress import LongPress
from .persist import Persistence, catalogue_for_settings, switch_language, translate_page, variant_id
from .settings import SettingsPanel
from .view import TableView

DRAG_THRESHOLD_PX = 8
MESSAGE_MS = 6000


def _now() -> float:
    return float(performance.now()) / 1000.0


def q(selector: str) -> Any:
    return document.querySelector(selector)


def qa(selector: str) -> list[Any]:
    return list(document.querySelectorAll(selector))


class Press:
    """A pointer that went down on the table, until it comes up."""

    def __init__(self, pointer_id: int, x: float, y: float, pile: Pile | None,
                 index: int, on_card: bool) -> None:
        self.pointer_id = pointer_id
        self.x0, self.y0 = x, y
        self.pile = pile
        self.index = index
        self.on_card = on_card
        self.dragging = False
        self.dead = False
        self.picking = False  # a long press opened the sequence picker
        self.cards: list[Card] = []
        self.base: dict[Card, Any] = {}


class App:
    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.svg = document.getElementById("table")
        self.area = document.getElementById("table-area")
        self.game: Game = Game(1, clock=_now)
        self.state = TableState(self.game)
        self.view = TableView(self.svg, self.game.rules.free_cells, self.game.rules.columns)
        self.press: Press | None = None
        self._proxies: list[Any] = []
        self._message_timer: Any = None
        self._layout_pending = False
        self._shown_time = ""
        self.assist = Assist(self)
        self.persist = Persistence(self, _now)
        self.embedding = Embedding(self, parse_embed(str(window.location.search)))
        self.access = Access(self)
        self.longpress = LongPress(self)
        self.settings_panel = SettingsPanel(self)
        self.large_cards = False
        self.left_handed = False
        self.show_score = False
        self.speed_off = False
        self.drawn_at_random = False
        self.level: str | None = None
        self._reduce = window.matchMedia("(prefers-reduced-motion: reduce)")
        self.view.animate = not bool(self._reduce.matches)

    # --- start ---------------------------------------------------------
    def start(self) -> None:
        req = parse_query(str(window.location.search))
        self.persist.load()
        saved = self.persist.saved_game(req)
        if saved is not None:
            self.new_game(restored=saved)
        elif req.board is not None:
            self.new_game(position=req.board, variant=req.variant)
        elif req.deal is not None:
            self.new_game(deal=req.deal, variant=req.variant)
        else:
            self.action_new()
        if req.error:
            self.say(self.cat.t(req.error, text=req.error_text), reason="url")
        self.build_rules()
        self.bind()
        self.persist.ready()
        for name in ("new", "settings", "hint"):
            q(f'.actionbar [data-action="{name}"]').removeAttribute("disabled")
        document.documentElement.dataset.state = "ready"
        self.assist.start()

    def new_game(self, deal: int | None = None, position: Position | None = None,
                 restored: Game | None = None, variant: str | None = None) -> None:
        """Deal ``deal``, lay out ``position``, or bring back the ``restored`` game.

        A new game is of ``variant`` (classic FreeCell if ``None``) and plays
        with the settings of the moment (auto-move, cards back from the
        foundations, the tap).
        """
        prefs = self.persist.settings
        old_rules = self.game.rules
        self.drawn_at_random = False
        self.level = None
        if restored is not None:
            self.game = restored
        else:
            self.game = Game(deal, position=position, variant=variant or "freecell",
                             auto_move=prefs.flag("auto-move"), clock=_now)
        self.game.auto_move = prefs.flag("auto-move")
        if self.game.rules.foundation_return != prefs.flag("foundation-return"):
            self.game.allow_foundation_return(prefs.flag("foundation-return"))
        if self.game.rules != old_rules:
            self.assist.rules_changed()  # Baker's Game deal 5 looks like FreeCell deal 5
        self.state = TableState(self.game, smart=prefs.choice("tap") == "smart")
        self.view.reshape(self.game.rules.free_cells, self.game.rules.columns)
        self.hide_panels()
        if self.game.deal is not None:
            window.history.replaceState(None, "", self.embedding.address(self.game.deal,
                                                                         self.variant_id()))
        if restored is not None and (restored.moves or restored.can_redo()):
            self.say(self.cat.t("msg.restored"))
        elif self.game.deal is not None:
            self.say(self.cat.t("deal.started", n=self.game.deal))
        self.persist.adopt(restored=restored is not None)
        self.relayout(animate=False)
        self.update_status()
        self.assist.position_changed()
        if self.game.is_won():
            self.show_win()
        elif self.game.is_stuck():
            self.show_panel("stuck")
            self.access.announce(self.cat.t("say.stuck"))

    # --- binding -------------------------------------------------------
    def _on(self, target: Any, event: str, handler: Any, **opts: bool) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        if opts:
            from js import Object
            from pyodide.ffi import to_js

            target.addEventListener(event, proxy, to_js(opts, dict_converter=Object.fromEntries))
        else:
            target.addEventListener(event, proxy)

    def bind(self) -> None:
        self._on(self.svg, "pointerdown", self.on_pointer_down)
        self._on(self.svg, "pointermove", self.on_pointer_move)
        self._on(self.svg, "pointerup", self.on_pointer_up)
        self._on(self.svg, "pointercancel", self.on_pointer_cancel)
        self._on(self.svg, "contextmenu", lambda e: e.preventDefault())
        self._on(document, "click", self.on_click)
        self._on(document, "keydown", self.on_key)
        self._on(document, "visibilitychange", self.on_visibility)
        self._on(window, "pagehide", lambda _e: self.persist.save_game())
        self._on(document.getElementById("deal-form"), "submit", self.on_deal_submit)
        self.settings_panel.bind()
        self._on(self._reduce, "change", self.on_reduced_motion)
        observer = window.ResizeObserver.new(create_proxy(lambda *_: self.schedule_layout()))
        observer.observe(self.area)
        self._observer = observer
        tick = create_proxy(lambda *_: self.update_time())
        self._proxies.append(tick)
        window.setInterval(tick, 250)

    def unbind(self) -> None:
        for p in self._proxies:
            p.destroy()
        self._proxies = []
        self.settings_panel.unbind()

    # --- layout --------------------------------------------------------
    def schedule_layout(self) -> None:
        if self._layout_pending:
            return
        self._layout_pending = True
        window.requestAnimationFrame(create_once_callable(lambda *_: self.relayout(animate=False)))

    def relayout(self, animate: bool = False) -> None:
        self._layout_pending = False
        self.draw(animate=animate)

    def draw(self, frames: list[Position] | None = None, animate: bool = True) -> None:
        """Fit the layout to the table's box and the longest column, then show the game."""
        had_focus = self.access.table_has_focus()
        box = self.area.getBoundingClientRect()
        pos = self.game.position
        layout = compute_layout(float(box.width), float(box.height), self.game.rules.free_cells,
                                self.game.rules.columns, max(len(c) for c in pos.columns),
                                LARGE_MIN_STRIP if self.large_cards else MIN_STRIP,
                                left_handed=self.left_handed)
        if self.view.layout != layout:
            self.view.set_layout(layout)
        self.view.show(pos, frames=frames, animate=animate)
        self.view.set_selected(self.selected_cards())
        self.access.refresh(refocus=had_focus)

    # --- pointer -------------------------------------------------------
    def _svg_point(self, e: Any) -> tuple[float, float]:
        box = self.svg.getBoundingClientRect()
        layout = self.view.layout
        scale = layout.width / float(box.width) if layout and box.width else 1.0
        return (float(e.clientX) - float(box.left)) * scale, (float(e.clientY) - float(box.top)) * scale

    def on_pointer_down(self, e: Any) -> None:
        if e.pointerType == "mouse" and e.button != 0:
            return
        if self.assist.finishing:
            self.assist.stop_finish()
            e.preventDefault()
            return
        if self.press is not None:
            return
        target = e.target
        card_el = _js_or_none(target.closest("[data-card]"))
        pile_el = _js_or_none(target.closest("[data-pile]"))
        pile: Pile | None = None
        index = -1
        if card_el is not None:
            pile = _pile_of(card_el.getAttribute("data-pile"))
            index = int(card_el.getAttribute("data-index") or -1)
        elif pile_el is not None:
            pile = _pile_of(pile_el.getAttribute("data-pile"))
        self.press = Press(e.pointerId, float(e.clientX), float(e.clientY), pile, index,
                           card_el is not None)
        self.longpress.arm(self.press)
        with contextlib.suppress(Exception):  # a pointer already gone cannot be captured
            self.svg.setPointerCapture(e.pointerId)
        e.preventDefault()

    def on_pointer_move(self, e: Any) -> None:
        p = self.press
        if p is None or p.dead or e.pointerId != p.pointer_id or not p.on_card or p.pile is None:
            return
        if p.picking:
            self.longpress.slide(e)
            return
        dx, dy = float(e.clientX) - p.x0, float(e.clientY) - p.y0
        if not p.dragging:
            if dx * dx + dy * dy < DRAG_THRESHOLD_PX**2:
                return
            self.longpress.disarm()  # moved beyond the slop: a drag, not a long press
            picked = self.state.pick(p.pile, p.index)
            if isinstance(picked, Refusal):
                p.dead = True
                self.refuse(picked)
                return
            self.state.selection = None
            self.view.set_selected(set())
            layout = self.view.layout
            if layout is None:
                return
            spots = layout.spots(self.game.position)
            p.cards = [c for c in range(52) if spots[c].pile == p.pile and spots[c].index >= picked.index]
            p.cards.sort(key=lambda c: spots[c].index)
            if p.pile.kind != 0:  # cells and foundations: just the card on top
                p.cards = p.cards[-1:]
            p.base = {c: spots[c] for c in p.cards}
            p.dragging = True
            self.view.drag_begin(p.cards)
        box = self.svg.getBoundingClientRect()
        layout = self.view.layout
        scale = layout.width / float(box.width) if layout and box.width else 1.0
        self.view.drag_to(p.cards, p.base, dx * scale, dy * scale)

    def on_pointer_up(self, e: Any) -> None:
        p = self.press
        if p is None or e.pointerId != p.pointer_id:
            return
        self.press = None
        self.longpress.disarm()
        if p.dead:
            return
        if p.picking:
            self.longpress.release(e)
            return
        if p.dragging:
            self.view.drag_end(p.cards)
            layout = self.view.layout
            if layout is None or p.pile is None:
                return
            x, y = self._svg_point(e)
            head = p.cards[0]
            hx, hy = self.view.shown[head]
            dst = layout.drop_target(Rect(hx, hy, layout.card_w, layout.card_h), x, y)
            self.access.point_at(dst, -1)
            self.handle(self.state.drop(p.pile, p.index, dst))
            return
        self.access.point_at(p.pile, p.index)
        if p.pile is None:
            self.handle(self.state.clear())
        elif p.on_card:
            self.handle(self.state.tap_card(p.pile, p.index))
        else:
            self.handle(self.state.tap_pile(p.pile))

    def on_pointer_cancel(self, e: Any) -> None:
        p = self.press
        if p is None or e.pointerId != p.pointer_id:
            return
        self.press = None
        self.longpress.disarm()
        if p.picking:
            self.longpress.cancel()
        if p.dragging:
            self.view.drag_end(p.cards)
            self.draw()

    # --- outcomes ------------------------------------------------------
    def handle(self, out: Outcome) -> None:
        if out.kind == "moved" and out.turn is not None:
            self.after_turn(out.turn, out.steps)
        elif out.kind == "refused" and out.refusal is not None:
            self.draw()
            self.refuse(out.refusal)
        elif out.kind in ("selected", "deselected"):
            self.draw()
            if out.selection is not None:
                self.access.announce(selection_sentence(self.cat, self.game.position, out.selection))
            else:
                self.access.announce(self.cat.t("say.deselected"))
        self.view.set_selected(self.selected_cards())

    def after_turn(self, turn: Turn, steps: tuple[Move, ...] = (), finishing: bool = False) -> None:
        frames = [turn.before]
        pos = turn.before
        for m in steps or (turn.move,):
            pos = engine.apply_move(pos, m)
            frames.append(pos)
        for m in turn.auto:
            pos = engine.apply_move(pos, m)
            frames.append(pos)
        self.draw(frames=frames)
        self.clear_message()
        self.update_status()
        self.assist.position_changed(finishing)
        self.persist.turn_played()
        words = [] if finishing else [turn_sentence(self.cat, turn)]
        if self.game.is_won():
            self.show_win()
            time = self.cat.time(self.game.elapsed())
            words.append(self.cat.t("say.won", moves=self.game.moves, time=time))
        elif self.game.is_stuck():
            self.show_panel("stuck")
            words.append(self.cat.t("say.stuck"))
        self.access.announce(" ".join(w for w in words if w))

    def refuse(self, refusal: Refusal) -> None:
        self.say(self.cat.refusal(refusal), reason=refusal.reason.value)

    def selected_cards(self) -> set[Card]:
        sel = self.state.selection
        layout = self.view.layout
        if sel is None or layout is None:
            return set()
        spots = layout.spots(self.game.position)
        return {c for c, s in spots.items() if s.pile == sel.pile and s.index >= sel.index}

    # --- keys ----------------------------------------------------------
    def on_key(self, e: Any) -> None:
        target = e.target
        key = str(e.key)
        if key == "Escape":
            if self.on_escape():
                e.preventDefault()
            return
        if _typing(target):
            return
        if key == "Enter" and self.assist.finishing:
            self.assist.stop_finish()
            e.preventDefault()
            return
        if self.longpress.is_open or _js_or_none(q(".panel[data-panel]:not([hidden])")) is not None:
            return  # an open panel has the keyboard (Tab, Enter on its buttons, Escape)
        chord = bool(e.ctrlKey or e.metaKey or e.altKey)
        if not chord and bool(self.svg.contains(target)) and self.access.on_table_key(e):
            e.preventDefault()
            return
        if not chord and key in KEYS and (target is None or target == document.body):
            self.access.focus_table()  # arrows with the focus nowhere: into the table
            e.preventDefault()
            return
        action = shortcut(key, shift=bool(e.shiftKey), ctrl=bool(e.ctrlKey), alt=bool(e.altKey),
                          meta=bool(e.metaKey))
        if action is None:
            return
        button = _js_or_none(q(f'.actionbar [data-action="{action}"]'))
        if button is None or button.disabled:
            return
        if action == "finish" and button.hidden:
            return
        e.preventDefault()
        getattr(self, "action_" + action)()
        self.access.rescue()

    def on_escape(self) -> bool:
        """Escape: close the picker, else an open panel, else the hint bar, else drop the selection."""
        if self.longpress.is_open:
            self.longpress.cancel()
            return True
        if _js_or_none(q(".panel[data-panel]:not([hidden])")) is not None:
            self.hide_panels()
            return True
        if not q('[data-panel="hint"]').hidden:
            self.assist.clear_hint()
            self.access.rescue()
            return True
        if self.state.selection is not None:
            self.handle(self.state.clear())
            return True
        return False

    # --- buttons -------------------------------------------------------
    def on_click(self, e: Any) -> None:
        button = _js_or_none(e.target.closest("[data-action]"))
        if button is None or button.disabled:
            return
        action = str(button.getAttribute("data-action"))
        handler = getattr(self, "action_" + action.replace("-", "_"), None)
        if handler is not None:
            handler()
            self.access.rescue()

    def action_undo(self) -> None:
        self.state.clear()
        turn = self.game.undo()
        self.hide_panels()
        if turn is None:
            self.say(self.cat.t("msg.nothing_to_undo"))
        else:
            self.draw()
            self.say(self.cat.t("msg.undone"))
        self.view.set_selected(set())
        self.update_status()
        self.assist.position_changed()
        self.persist.changed()

    def redraw_after_jump(self) -> None:
        """The game jumped (several undos at once): draw it and analyse again."""
        self.state.clear()
        self.hide_panels()
        self.draw()
        self.update_status()
        self.assist.position_changed()
        self.persist.changed()

    def play_move(self, move: Move) -> None:
        self.handle(self.state.play(move))

    def action_hint(self) -> None:
        self.assist.hint_pressed()

    def action_finish(self) -> None:
        self.assist.finish_pressed()

    def action_back_to_winnable(self) -> None:
        self.assist.back_to_winnable()

    def action_redo(self) -> None:
        self.state.clear()
        turn = self.game.redo()
        if turn is None:
            self.say(self.cat.t("msg.nothing_to_redo"))
        else:
            self.after_turn(turn)  # says the move again
            self.say(self.cat.t("msg.redone"), speak=False)
        self.view.set_selected(set())

    def action_new(self) -> None:
        """A deal drawn from the source chosen in the settings, of the variant chosen there."""
        prefs = self.persist.settings
        self.new_game(deal=draw_deal(prefs.choice("deal-source") or "all"),
                      variant=prefs.choice("variant"))
        self.drawn_at_random = True

    def variant_id(self) -> str:
        """The variant of the game on the table (``freecell`` for a classic game saved without one)."""
        return variant_id(self.game) or "freecell"

    def action_replay(self) -> None:
        self.game.restart()
        self.persist.replaying()
        self.redraw_after_jump()

    def open_deal(self, deal: int) -> None:
        """Play deal ``deal`` of classic FreeCell (asked by the embedding page)."""
        self.new_game(deal=deal)

    # --- statistics, notices, language (freecell/browser/persist.py) ----
    def action_stats(self) -> None:
        self.persist.show_stats()

    def action_stats_reset(self) -> None:
        self.persist.ask_reset()

    def action_stats_reset_confirm(self) -> None:
        self.persist.reset_stats()

    def action_stats_reset_cancel(self) -> None:
        self.persist.cancel_reset()

    def action_notice_close(self) -> None:
        self.persist.close_notice()

    def switch_language(self, lang: str | None) -> None:
        self._task = asyncio.ensure_future(switch_language(self, lang))

    def refresh_texts(self) -> None:
        """The language changed: every text written from Python, again."""
        self._shown_time = ""
        self.draw(animate=False)
        self.update_status()
        self.assist.position_changed()

    def action_look(self) -> None:
        self.hide_panels()

    def action_close(self) -> None:
        self.hide_panels()

    def action_picker_up(self) -> None:
        self.longpress.step(up=True)

    def action_picker_down(self) -> None:
        self.longpress.step(up=False)

    def action_picker_close(self) -> None:
        self.longpress.cancel()

    def action_rules(self) -> None:
        self.show_panel("rules")

    def action_settings(self) -> None:
        self.show_panel("settings")
        field = q('[data-field="deal"]')
        field.value = "" if self.game.deal is None else str(self.game.deal)
        q('[data-role="deal-error"]').textContent = ""

    def action_copy_deal(self) -> None:
        self._task = asyncio.ensure_future(self._copy_deal())

    async def _copy_deal(self) -> None:
        n = self.game.deal
        if n is None:
            return
        try:
            await window.navigator.clipboard.writeText(str(n))
            self.say(self.cat.t("msg.copied", n=n))
        except Exception:
            self.say(self.cat.t("msg.copy_failed", n=n))

    def on_deal_submit(self, e: Any) -> None:
        e.preventDefault()
        text = str(q('[data-field="deal"]').value)
        error = q('[data-role="deal-error"]')
        try:
            n = parse_deal_number(text)
        except DealNumberError as err:
            error.textContent = self.cat.t("deal.error." + err.code)
            error.setAttribute("data-code", err.code)
            return
        error.textContent = ""
        self.new_game(deal=n, variant=self.persist.settings.choice("variant"))

    def on_setting(self, e: Any) -> None:
        """A control of the settings panel changed: it applies at once and is kept."""
        target = e.target
        field = str(target.getAttribute("data-field") or "")
        if str(target.type) == "checkbox":
            self.apply_setting(field, bool(target.checked))
        elif str(target.tagName).upper() == "SELECT" and field != "language":
            self.apply_setting(field, str(target.value))
        self.persist.setting_changed(target)

    def apply_setting(self, name: str, value: bool | str | None) -> None:
        """Setting ``name`` takes effect (also to restore saved settings): see settings.py."""
        self.settings_panel.apply(name, value)

    def update_motion(self) -> None:
        """Animations unless the player turned them off or the system asks for reduced motion."""
        self.view.animate = not bool(self._reduce.matches) and not self.speed_off
        if not self.view.animate:
            self.view.finish_animations()

    def on_reduced_motion(self, _e: Any) -> None:
        self.update_motion()

    # --- page visibility -----------------------------------------------
    def on_visibility(self, _e: Any) -> None:
        if str(document.visibilityState) == "hidden":
            self.game.clock.pause()
            self.persist.save_game()
        else:
            self.game.clock.resume()
        self.update_time()

    # --- panels, status and messages -----------------------------------
    def show_panel(self, name: str) -> None:
        self.hide_panels()
        self.longpress.cancel()
        self.access.panel_opened()
        panel = q(f'[data-panel="{name}"]')
        panel.hidden = False
        first = _js_or_none(panel.querySelector("button:not([disabled]), input"))
        if first is not None:
            first.focus()

    def hide_panels(self) -> None:
        was_open = False
        for p in qa(".panel[data-panel]"):
            was_open = was_open or not p.hidden
            p.hidden = True
        if was_open:
            self.access.panel_closed()

    def show_win(self) -> None:
        g = self.game
        values = {
            "time": self.cat.time(g.elapsed()),
            "moves": str(g.moves),
            "home": self.cat.t("status.home", n=g.cards_home()),
            "deal": "" if g.deal is None else str(g.deal),
        }
        for key, text in values.items():
            q(f'[data-win="{key}"]').textContent = text
        deal_value = q('[data-win="deal"]')
        for el in (q('[data-panel="win"] dt[data-i18n="win.deal"]'), deal_value.parentElement):
            el.hidden = g.deal is None
        self.show_panel("win")

    def update_status(self) -> None:
        g = self.game
        self._stat("capacity", g.capacity(), self.cat.t("status.capacity", n=g.capacity()))
        self._stat("home", g.cards_home(), self.cat.t("status.home", n=g.cards_home()))
        self._stat("moves", g.moves, self.cat.t("status.moves", n=g.moves))
        deal_el = q('[data-status="deal"]')
        if g.deal is None:
            self._stat("deal", "", "")
        elif self.level is not None:
            level = self.cat.t(f"difficulty.{self.level}")
            self._stat("deal", g.deal, self.cat.t("status.deal_level", n=g.deal, level=level))
        else:
            self._stat("deal", g.deal, self.cat.t("status.deal", n=g.deal))
        variant = self.variant_id()
        # the classic game goes without a name; a variant's name stands next to the deal
        self._stat("variant", variant, "" if variant == "freecell" else self.cat.t(f"variant.{variant}"))
        score = q('[data-status="score"]')
        score.hidden = not self.show_score
        self._stat("score", g.score, self.cat.t("status.score", n=g.score))
        if self.level is None:
            deal_el.removeAttribute("data-difficulty")
        else:
            deal_el.setAttribute("data-difficulty", self.level)
        for undo in qa('[data-action="undo"]'):
            undo.disabled = not g.can_undo()
        q('.actionbar [data-action="redo"]').disabled = not g.can_redo()
        self.update_time()

    def update_time(self) -> None:
        secs = int(self.game.elapsed())
        text = self.cat.time(secs)
        if text != self._shown_time:
            self._shown_time = text
            self._stat("time", secs, text)

    def _stat(self, name: str, value: object, text: str) -> None:
        el = q(f'[data-status="{name}"]')
        el.setAttribute("data-value", str(value))
        el.textContent = text

    def say(self, text: str, reason: str | None = None, speak: bool = True) -> None:
        """Show ``text`` in the message line (a refusal with its ``reason``), and say it."""
        el = q('[data-role="message"]')
        el.textContent = text
        if speak:
            self.access.announce(text)
        if reason:
            el.setAttribute("data-reason", reason)
        else:
            el.removeAttribute("data-reason")
        if self._message_timer is not None:
            window.clearTimeout(self._message_timer)
        self._message_timer = window.setTimeout(create_once_callable(self.clear_message), MESSAGE_MS)

    def clear_message(self, *_: Any) -> None:
        el = q('[data-role="message"]')
        el.textContent = ""
        el.removeAttribute("data-reason")

    # --- rules panel ---------------------------------------------------
    def build_rules(self) -> None:
        body = document.getElementById("rules-body")
        body.replaceChildren()
        t = self.cat.t
        for section in ("setup", "moves", "multi", "finish", "deals"):
            h = document.createElement("h3")
            h.textContent = t(f"rules.{section}.title")
            body.appendChild(h)
            for para in self.cat.paragraphs(f"rules.{section}.body"):
                p = document.createElement("p")
                p.textContent = para
                body.appendChild(p)
            if section == "multi":
                body.appendChild(self._capacity_table())
                note = document.createElement("p")
                note.textContent = t("rules.multi.empty_note")
                body.appendChild(note)
        # the variants: each one's name and rules
        h = document.createElement("h3")
        h.textContent = t("rules.variants.title")
        h.setAttribute("data-rules", "variants")
        body.appendChild(h)
        intro = document.createElement("p")
        intro.textContent = t("rules.variants.intro")
        body.appendChild(intro)
        for vid in VARIANTS:
            h4 = document.createElement("h4")
            h4.textContent = t(f"variant.{vid}")
            h4.setAttribute("data-variant", vid)
            body.appendChild(h4)
            p = document.createElement("p")
            p.textContent = t(f"rules.variant.{vid}")
            body.appendChild(p)

    def _capacity_table(self) -> Any:
        t = self.cat.t
        table = document.createElement("table")
        table.className = "capacity-table"
        cap = document.createElement("caption")
        cap.textContent = t("rules.multi.table_caption")
        table.appendChild(cap)
        head = document.createElement("tr")
        head.appendChild(document.createElement("td"))  # the corner: no header
        for e in range(5):
            th = document.createElement("th")
            th.setAttribute("scope", "col")
            th.textContent = t("rules.multi.col_label", n=e)
            head.appendChild(th)
        table.appendChild(head)
        for f in range(5):
            row = document.createElement("tr")
            th = document.createElement("th")
            th.setAttribute("scope", "row")
            th.textContent = t("rules.multi.row_label", n=f)
            row.appendChild(th)
            for e in range(5):
                td = document.createElement("td")
                td.textContent = str((f + 1) * 2**e)
                row.appendChild(td)
            table.appendChild(row)
        return table


def _js_or_none(value: Any) -> Any:
    """JavaScript's null and undefined as None (Pyodide gives ``jsnull`` for null)."""
    if value is None or value is jsnull:
        return None
    return value


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


async def load_catalogue() -> Catalogue:
    """The catalogue boot.js fetched, or fetch it here if that failed."""
    try:
        data = await window.freecellI18n
        return Catalogue(str(data.lang), json.loads(window.JSON.stringify(data.messages)))
    except Exception:
        from pyodide.http import pyfetch

        lang = choose_language([str(x) for x in window.navigator.languages or []])
        resp = await pyfetch(f"./static/i18n/{lang}.json")
        return Catalogue.from_json(lang, await resp.string())


async def main() -> App:
    try:
        cat = await load_catalogue()
        chosen = await catalogue_for_settings(cat)
        if chosen is not cat:
            cat = chosen
            translate_page(cat)
        app = App(cat)
        app.start()
    except Exception:
        window.dispatchEvent(window.Event.new("freecell:failed"))
        raise
    window.freecellApp = create_proxy(app)
    return app

