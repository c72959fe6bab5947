"""Everything around the table, drawn from the session: status bar, buttons, panels, hint bar, notices.

:meth:`Chrome.render` is called by the page after every change and writes
only what differs from what is shown (``textContent`` and attributes, never
markup).  The texts come from :mod:`freecell.ui.text.screen`.  Panels keep the
focus where a keyboard player expects it (:class:`~.access.Access`): an
opened panel takes it, a closed one gives it back.

The status bar stays on one line: its texts are measured (a canvas's
``measureText`` in the bar's fonts, no layout) and the first of
:func:`~freecell.ui.text.screen.status_plans` that fits is shown.  The hint bar
and the notice float over the table where :func:`freecell.ui.table.overlay.place`
puts them, clear of the cards and piles the hint names (and, for the notice,
of the free cells and foundations).
"""

from __future__ import annotations

from typing import Any

from js import Date, document, window

from ..rules import move_capacity
from ..ui.analysis import playback as pb
from ..ui.progress.progress import game_key
from ..ui.session.change import MessageLine
from ..ui.session.session import Session
from ..ui.table import overlay
from ..ui.table.layout import Rect
from ..ui.text import screen
from ..ui.text.catalogue import Catalogue
from ..variants import VARIANTS
from .access import Access
from .dom import Bindings, js_or_none, q, qa, set_attr, set_hidden, set_text
from .view import TableView

MESSAGE_MS = 6000


class Chrome:
    """The page around the table, rendered from a :class:`~freecell.ui.session.session.Session`."""

    def __init__(self, view: TableView, access: Access, bindings: Bindings) -> None:
        self.view = view
        self.access = access
        self.bindings = bindings
        self.shown_panel: str | None = None
        self._message_timer: Any = None
        self._marks: object = None
        self._time = ""
        self.status_shown: list[tuple[str, str, bool]] = []  # (name, text, hidden), as on the bar now
        self._fit_key: object = None
        self._fit_choice = 0
        self._fonts: dict[str, str] = {}  # each item's CSS font, read again after a resize
        self._bar_room: tuple[float, float] | None = None  # (room for the items, gap between them)
        self._canvas: Any = None
        self._placed: dict[str, object] = {}  # what each floating bar was placed for

    def reset(self) -> None:
        """Nothing on show around the table (before another page object takes over)."""
        for p in qa(".panel[data-panel], [data-panel=hint], [data-panel=picker], [data-role=notice]"):
            p.hidden = True
        self.say(MessageLine(""))
        self.shown_panel = None

    # --- all of it ---------------------------------------------------------------
    def render(self, s: Session, message: MessageLine | None = None) -> None:
        self.status(s)
        self.buttons(s)
        self.hint(s)
        self.watch(s)
        self.panels(s)
        self.notice(s)
        if message is not None:
            self.say(message)

    def status(self, s: Session) -> None:
        g = s.game
        items = screen.status_items(s.cat, g, s.variant(), s.level, s.verdict(),
                                    show_score=s.settings.flag("score"),
                                    show_winnable=s.settings.flag("winnability"))
        plans = screen.status_plans(s.cat, items, s.level)
        time_text = screen.time_item(s.cat, g).text
        shown = plans[self._fit(plans, time_text)]
        for item in shown:
            el = q(f'[data-status="{item.name}"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
            set_hidden(el, item.hidden)
        self.status_shown = [(i.name, i.text, i.hidden) for i in shown]
        deal_el = q('[data-status="deal"]')
        set_attr(deal_el, "data-difficulty", s.level)
        daily = self._daily(s)[-1]
        set_attr(deal_el, "data-daily", "yes" if daily.value == "yes" else None)
        self.time(s, force=True)

    def resized(self) -> None:
        """The page changed size: the bar's room and fonts, and where the floating bars go, anew."""
        self._bar_room = None
        self._fonts = {}
        self._fit_key = None
        self._placed = {}

    def _fit(self, plans: list[list[screen.Item]], time_text: str) -> int:
        """The first plan whose texts fit on the bar's one line (measured, not laid out)."""
        if self._bar_room is None:
            bar = q(".statusbar")
            if bar is None:
                return 0
            style = window.getComputedStyle(bar)
            pad = _px(style.paddingLeft) + _px(style.paddingRight)
            self._bar_room = (float(bar.clientWidth) - pad, _px(style.columnGap))
        room, gap = self._bar_room
        key = (tuple((i.text, i.hidden) for plan in plans for i in plan), len(time_text), room)
        if key == self._fit_key:
            return self._fit_choice
        clock = self._width("time", time_text)
        choice = len(plans) - 1  # none fits: the shortest, cut short by the style sheet
        for i, plan in enumerate(plans):  # measured one plan at a time: most often the first fits
            widths = [clock] + [0.0 if it.hidden or not it.text else self._width(it.name, _prefixed(it))
                                for it in plan]
            if screen.fits(widths, room - 2.0, gap):
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

    def time(self, s: Session, force: bool = False) -> None:
        item = screen.time_item(s.cat, s.game)
        if item.text != self._time or force:
            grew = len(item.text) != len(self._time)
            self._time = item.text
            el = q('[data-status="time"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
            if grew and not force:  # 9:59 -> 10:00: the bar may have to give way
                self.status(s)

    def buttons(self, s: Session) -> None:
        for undo in qa('[data-action="undo"]'):
            undo.disabled = not s.can_undo()
        q('.actionbar [data-action="redo"]').disabled = not s.game.can_redo()
        can = s.can_finish()
        set_hidden(q('.actionbar [data-action="finish"]'), not can)
        set_hidden(q('.actionbar [data-action="new"]'), can)
        replay = q('.actionbar [data-action="replay"]')
        if replay is not None:
            replay.disabled = not s.can_replay()

    # --- the hint bar -------------------------------------------------------------
    def hint(self, s: Session) -> None:
        bar = s.analysis.bar
        el = q('[data-panel="hint"]')
        if bar is None or bar.position != s.position:
            if not el.hidden:
                set_hidden(el, True)
                set_attr(el, "data-state", "")
            self._mark({}, {}, set())
            return
        set_attr(el, "data-state", screen.hint_state(bar))
        set_text(q('[data-role="hint-text"]'), screen.hint_text(s.cat, bar))
        set_hidden(q('[data-panel="hint"] [data-action="back-to-winnable"]'), bar.back is None)
        set_hidden(q('[data-panel="hint"] [data-action="watch"]'),
                   bar.state not in ("found", "fallback", "searching") or s.analysis.unavailable)
        set_hidden(el, False)
        marks = screen.hint_marks(bar)
        self._mark(*marks)
        layout = self.view.layout
        if layout is not None:
            named = overlay.hint_rects(layout, s.position, marks[0], marks[1])
            self._place("hint", el, (bar, layout), named, overlay.everything(layout, s.position))

    def _place(self, name: str, el: Any, what: object, must: list[Rect],
               avoid: list[overlay.Weighted]) -> None:
        """Put a floating bar where it covers nothing it must not (:func:`~.overlay.place`)."""
        key = (what, str(el.textContent))
        if self._placed.get(name) == key:
            return
        self._placed[name] = key
        layout = self.view.layout
        if layout is None:
            return
        x0 = float(el.offsetLeft)
        top = overlay.place(layout.height, float(el.offsetHeight), x0=x0, x1=x0 + float(el.offsetWidth),
                            must=must, avoid=avoid)
        el.style.top = f"{top:.0f}px"
        el.style.bottom = "auto"

    def hint_box(self) -> Rect | None:
        """Where the hint bar is on show, in the table's coordinates."""
        el = q('[data-panel="hint"]')
        if el is None or el.hidden:
            return None
        return Rect(float(el.offsetLeft), float(el.offsetTop), float(el.offsetWidth), float(el.offsetHeight))

    def _mark(self, piles: dict[str, str], cards: dict[int, str], areas: set[str]) -> None:
        key = (piles, cards, areas)
        if key != self._marks:
            self._marks = key
            self.view.mark(piles, cards, areas)

    def remark(self) -> None:
        """The piles were drawn anew (another layout): put the marks on them again."""
        marks = self._marks
        self._marks = None
        if isinstance(marks, tuple):
            self._mark(*marks)

    # --- the playback bar ------------------------------------------------------------
    def watch(self, s: Session) -> None:
        """The solution being watched: its sentence, the step on show, the controls."""
        el = q('[data-panel="watch"]')
        playback = s.watching
        if playback is None:
            if not el.hidden:
                set_hidden(el, True)
                set_attr(el, "data-state", "")
            return
        set_attr(el, "data-state", playback.state)
        set_attr(el, "data-step", str(playback.done))
        set_attr(el, "data-total", str(playback.total))
        set_text(q('[data-role="watch-text"]'), screen.watch_text(s.cat, playback))
        on = playback.state in (pb.PLAYING, pb.PAUSED)
        play = q('[data-action="watch-play"]')
        set_attr(play, "aria-label", s.cat.t("action.watch_pause" if playback.state == pb.PLAYING
                                             else "action.watch_play"))
        play.disabled = not on or (playback.state == pb.PAUSED and playback.at_end())
        q('[data-action="watch-back"]').disabled = not on or playback.done == 0
        q('[data-action="watch-forward"]').disabled = not on or playback.at_end()
        speed = q('[data-action="watch-speed"]')
        set_attr(speed, "data-value", playback.speed)
        set_text(speed, s.cat.t("watch.speed." + playback.speed))
        set_hidden(speed, not on)
        set_hidden(el, False)

    def _daily(self, s: Session) -> list[screen.Item]:
        return screen.daily_items(s.cat, s.progress.daily, s.progress.today(), s.game)

    # --- panels -------------------------------------------------------------------------
    def panels(self, s: Session) -> None:
        name = s.panel
        if name == "win":
            values = screen.win_values(s.cat, s.game)
            for key, text in values.items():
                set_text(q(f'[data-win="{key}"]'), text)
            deal_value = q('[data-win="deal"]')
            for el in (q('[data-panel="win"] dt[data-i18n="win.deal"]'), deal_value.parentElement):
                set_hidden(el, s.game.deal is None)
            par = q('[data-win="par"]')
            set_text(par, screen.par_text(s.cat, s.game.moves, s.par, s.par_state))
            set_attr(par, "data-state", s.par_state or "")
            set_attr(par, "data-value", "" if s.par is None else str(s.par))
            daily = {i.name: i for i in self._daily(s)}
            won_today = daily["daily-here"].value == "yes" and daily["daily-solved"].value == "yes"
            set_text(q('[data-win="daily"]'), s.cat.t("win.daily", streak=daily["daily-streak"].text)
                     if won_today else "")
            set_hidden(q('[data-win="daily"]'), not won_today)
            set_hidden(q('[data-panel="win"] [data-action="watch-solution"]'), s.analysis.unavailable)
        elif name == "stats":
            self.fill_stats(s)
        elif name == "unfinished":
            self.fill_unfinished(s)
        if name in ("settings", "stats"):
            for item in self._daily(s):
                for el in qa(f'[data-role="{item.name}"], [data-stat="{item.name}"]'):
                    set_attr(el, "data-value", item.value)
                    set_text(el, item.text)
        if name == "settings":
            error = q('[data-role="deal-error"]')
            code = s.deal_error
            set_text(error, "" if code is None else s.cat.t("deal.error." + code))
            set_attr(error, "data-code", code)
        if name == self.shown_panel:
            return
        was_open = self.shown_panel is not None
        self.shown_panel = name
        for p in qa(".panel[data-panel]"):
            p.hidden = True
        if was_open and name is None:
            self.access.panel_closed()
        if name is None:
            return
        if not was_open:
            self.access.panel_opened()
        panel = q(f'[data-panel="{name}"]')
        panel.hidden = False
        if name == "settings":
            field = q('[data-field="deal"]')
            field.value = "" if s.game.deal is None else str(s.game.deal)
        if name == "stats":
            set_hidden(q('[data-role="stats-confirm"]'), True)
        if name == "share":
            field = q('[data-role="share-link"]')
            field.value = s.share_url or ""
            field.focus()
            field.select()
            return
        first = js_or_none(panel.querySelector("button:not([disabled]), input"))
        if first is not None:
            first.focus()

    def fill_stats(self, s: Session) -> None:
        key = game_key(s.game)
        for item in screen.stats_items(s.cat, s.progress.tally, key):
            el = q(f'[data-stat="{item.name}"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
        set_hidden(q('[data-role="stats-deal"]'), key is None)
        set_text(q('[data-role="stats-deal-title"]'),
                 "" if s.game.deal is None else s.cat.t("stats.deal_title", n=s.game.deal))

    def fill_unfinished(self, s: Session) -> None:
        """The unfinished games, each a button to go on with it (``data-action=resume``)."""
        ul = q('[data-role="unfinished-list"]')
        ul.replaceChildren()
        items = screen.unfinished_items(s.cat, s.progress.unfinished(), float(Date.now()), s.progress.game_id)
        for game_id, text, here in items:
            li = document.createElement("li")
            button = document.createElement("button")
            button.type = "button"
            button.setAttribute("data-action", "resume")
            button.setAttribute("data-game", game_id)
            button.textContent = text
            if here:
                button.setAttribute("aria-current", "true")
            li.appendChild(button)
            ul.appendChild(li)
        set_hidden(q('[data-role="unfinished-empty"]'), bool(items))

    def ask_reset(self) -> None:
        set_hidden(q('[data-role="stats-confirm"]'), False)
        button = q('[data-action="stats-reset-confirm"]')
        if button is not None:
            button.focus()

    def cancel_reset(self) -> None:
        set_hidden(q('[data-role="stats-confirm"]'), True)
        button = q('[data-action="stats-reset"]')
        if button is not None:
            button.focus()

    # --- the message line and the notice ------------------------------------------------
    def say(self, message: MessageLine) -> None:
        """Show ``message`` in the line under the table (``""`` clears it) for a few seconds."""
        el = q('[data-role="message"]')
        set_text(el, message.text)
        set_attr(el, "data-reason", message.reason or None)
        self.bindings.cancel(self._message_timer)
        self._message_timer = None
        if message.text:
            self._message_timer = self.bindings.later(MESSAGE_MS, lambda: self.say(MessageLine("")))

    def notice(self, s: Session) -> None:
        box = q('[data-role="notice"]')
        if box is None:
            return
        kind = s.notice
        if kind is None:
            set_hidden(box, True)
            return
        set_attr(box, "data-notice", kind)
        set_text(q('[data-role="notice-text"]'), s.cat.t("notice." + kind.replace("-", "_")))
        set_hidden(q('[data-role="notice"] [data-action="resume-here"]'), kind != "other-tab")
        set_hidden(q('[data-role="notice"] [data-action="copy-link"]'), kind != "storage")
        set_hidden(box, False)
        layout = self.view.layout
        if layout is not None:
            pos = s.position
            must = overlay.top_row(layout)
            bar = s.analysis.bar
            if bar is not None and bar.position == pos:
                piles, cards, _ = screen.hint_marks(bar)
                must += overlay.hint_rects(layout, pos, piles, cards)
            hint = self.hint_box()
            if hint is not None:
                must.append(hint)
            self._place("notice", box, (kind, pos, layout, hint), must, overlay.everything(layout, pos))

    # --- the rules panel ---------------------------------------------------------------------
    def build_rules(self, cat: Catalogue) -> None:
        body = document.getElementById("rules-body")
        body.replaceChildren()
        t = cat.t

        def add(tag: str, text: str, **attrs: str) -> Any:
            el = document.createElement(tag)
            el.textContent = text
            for k, v in attrs.items():
                el.setAttribute(k.replace("_", "-"), v)
            body.appendChild(el)
            return el

        for section in ("setup", "moves", "multi", "finish", "deals"):
            add("h3", t(f"rules.{section}.title"))
            for para in cat.paragraphs(f"rules.{section}.body"):
                add("p", para)
            if section == "multi":
                body.appendChild(_capacity_table(cat))
                add("p", t("rules.multi.empty_note"))
        add("h3", t("rules.variants.title"), data_rules="variants")
        add("p", t("rules.variants.intro"))
        for vid in VARIANTS:
            add("h4", t(f"variant.{vid}"), data_variant=vid)
            add("p", t(f"rules.variant.{vid}"))


def _prefixed(item: screen.Item) -> str:
    """An item's text as shown: the winnability's mark comes from the style sheet (``✓ Winnable``)."""
    if item.name == "winnable" and item.value in ("yes", "no"):
        return ("✓ " if item.value == "yes" else "✗ ") + item.text
    return item.text


def _px(value: object) -> float:
    """A computed CSS length in pixels (``"12px"``; ``normal`` and the like: 0)."""
    text = str(value)
    try:
        return float(text.removesuffix("px"))
    except ValueError:
        return 0.0


def _capacity_table(cat: Catalogue) -> Any:
    t = cat.t
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
            td.textContent = str(move_capacity(f, e))
            row.appendChild(td)
        table.appendChild(row)
    return table
