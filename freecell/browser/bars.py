"""The bars over and under the table: the hint bar, the playback bar, the notice line, the message line.

The hint bar (``data-panel=hint``) and the notice line (``data-role=notice``)
go to the felt the layout keeps for them (``Layout.lane``): stacked down the
lane beside the table (``data-lane="side"`` on ``#table-area``, whose
``--lane-x`` / ``--lane-w`` the message line uses too on a phone held
sideways), or one of them on one line in the band along the bottom
(``data-fit="line"``, or two lines in smaller print,
``data-fit="band"``).  Otherwise they float over the table where
:func:`freecell.ui.table.overlay.place` puts them, clear of the cards and
piles the hint names (and, for the notice, of the free cells and
foundations), and of every exposed card if they can; the hint's cards and
piles are marked on the table (``data-hint``).  The playback bar (``data-panel=watch``) shows where a
solution being watched stands.  The message line (``data-role=message``) says
a refusal or what an intent did, for a few seconds.  Texts come from
:mod:`freecell.ui.text.bars`; everything is written only when it differs.
"""

from __future__ import annotations

from typing import Any

from ..position import Position
from ..ui.analysis.playback import PlaybackState
from ..ui.session.change import MessageLine
from ..ui.session.session import Session
from ..ui.table import overlay
from ..ui.table.layout import Layout, Rect
from ..ui.text.bars import hint_marks, hint_state, hint_text, notice_text, watch_play_label, watch_text
from ..ui.text.catalogue import Catalogue
from ..ui.text.sentences import watch_speed
from .dom import Bindings, q, set_attr, set_hidden, set_text
from .view import TableView

MESSAGE_MS = 6000
WATCHABLE = ("found", "fallback", "searching")  # hint bars that offer to show the solution


def _cut(el: Any) -> bool:
    """Whether the words of a bar on one line are cut short (``text-overflow: ellipsis``)."""
    words = el.querySelector(".hint-text, .notice-text")
    return words is not None and float(words.scrollWidth) > float(words.clientWidth) + 1


class Bars:
    """The bars around the table, rendered from a :class:`~freecell.ui.session.session.Session`."""

    def __init__(self, view: TableView, bindings: Bindings) -> None:
        self.view = view
        self.bindings = bindings
        self._marks: object = None
        self._placed: dict[str, object] = {}  # what each floating bar was placed for
        self._lane: object = None
        self._shown = MessageLine("")
        self._message_timer: Any = None
        self._fit_pending = False

    def resized(self) -> None:
        """The page changed size: the floating bars are placed anew."""
        self._placed = {}

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
        set_attr(el, "data-state", hint_state(bar))
        set_text(q('[data-role="hint-text"]'), hint_text(s.cat, bar))
        set_hidden(q('[data-panel="hint"] [data-action="back-to-winnable"]'), bar.back is None)
        set_hidden(q('[data-panel="hint"] [data-action="watch"]'),
                   bar.state not in WATCHABLE or s.analysis.unavailable)
        set_hidden(el, False)
        marks = hint_marks(bar)
        self._mark(*marks)
        layout = self.view.layout
        if layout is not None:
            named = overlay.hint_rects(layout, s.position, marks[0], marks[1])
            self._place("hint", el, (bar, layout), named, s.position, first=True)

    def lane(self, layout: Layout | None) -> None:
        """The lane the layout keeps for the bars, told to the page's CSS (``#table-area``, ``.app``)."""
        lane = layout.lane if layout is not None else None
        kind = None if lane is None else "side" if layout is not None and layout.side else "band"
        key = (kind, lane)
        if key == self._lane:
            return
        self._lane = key
        set_attr(q("#table-area"), "data-lane", kind)
        app = q("#app")
        if app is None:
            return
        if kind == "side" and lane is not None:
            app.style.setProperty("--lane-x", f"{lane.x:.0f}px")
            app.style.setProperty("--lane-w", f"{lane.w:.0f}px")
        else:
            app.style.removeProperty("--lane-x")
            app.style.removeProperty("--lane-w")

    def _place(self, name: str, el: Any, what: object, must: list[Rect], pos: Position,
               first: bool, above: Rect | None = None) -> None:
        """Put a bar in the lane if it fits there, else where it covers nothing it must not."""
        layout = self.view.layout
        key = (what, str(el.textContent), above)
        if layout is None or self._placed.get(name) == key:
            return
        self._placed[name] = key
        lane = layout.lane
        # measured at the lane's width, not at the width it last floated at (a resize from upright)
        el.style.removeProperty("left")
        el.style.removeProperty("width")
        if lane is not None and layout.side:
            set_attr(el, "data-fit", "lane")
            if above is None:
                top: float | None = lane.y
            else:
                tops = overlay.stack(lane, [above.h, float(el.offsetHeight)])
                top = tops[1]
            if top is not None:
                self._top(el, top)
                return
        elif lane is not None and first:
            set_attr(el, "data-fit", "line")
            if not _cut(el):
                self._top(el, lane.y + max(0.0, (lane.h - float(el.offsetHeight)) / 2))
                return
            # its words would end in "…" on one line (a hint while the solver looks, a long notice):
            # on two lines in smaller print, if the band holds them; else it floats
            set_attr(el, "data-fit", "band")
            if float(el.offsetHeight) <= lane.h:
                self._top(el, lane.y + (lane.h - float(el.offsetHeight)) / 2)
                return
        set_attr(el, "data-fit", "float")
        x0, x1 = overlay.float_span(layout)
        el.style.left = f"{x0:.0f}px"
        el.style.width = f"{x1 - x0:.0f}px"
        # the band below the table too: a bar on its line is in ``must`` (the hint, for the notice)
        height = lane.y + lane.h if lane is not None and not layout.side else layout.height
        top = overlay.place(height, float(el.offsetHeight), x0=x0, x1=x1, must=must,
                            avoid=overlay.everything(layout, pos), keep=overlay.exposed(layout, pos))
        self._top(el, top)

    @staticmethod
    def _top(el: Any, top: float) -> None:
        if str(el.getAttribute("data-fit")) != "float":
            el.style.removeProperty("left")
            el.style.removeProperty("width")
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
        playback = s.watch.playback
        if playback is None:
            if not el.hidden:
                set_hidden(el, True)
                set_attr(el, "data-state", "")
            return
        set_attr(el, "data-state", playback.state)
        set_attr(el, "data-step", str(playback.done))
        set_attr(el, "data-total", str(playback.total))
        set_text(q('[data-role="watch-text"]'), watch_text(s.cat, playback))
        playing = playback.state is PlaybackState.PLAYING
        play = q('[data-action="watch-play"]')
        set_attr(play, "aria-label", watch_play_label(s.cat, playing))
        play.disabled = not playback.on or (playback.state is PlaybackState.PAUSED and playback.at_end())
        q('[data-action="watch-back"]').disabled = not playback.on or playback.done == 0
        q('[data-action="watch-forward"]').disabled = not playback.on or playback.at_end()
        speed = q('[data-action="watch-speed"]')
        set_attr(speed, "data-value", playback.speed)
        set_text(speed, watch_speed(s.cat, playback.speed))
        set_hidden(speed, not playback.on)
        set_hidden(el, False)

    # --- the notice line and the message line -----------------------------------------------
    def notice(self, s: Session) -> None:
        box = q('[data-role="notice"]')
        if box is None:
            return
        kind = s.keeping.notice
        if kind is None:
            set_hidden(box, True)
            return
        set_attr(box, "data-notice", kind)
        set_text(q('[data-role="notice-text"]'), notice_text(s.cat, kind, s.keeping.lost))
        set_hidden(q('[data-role="notice"] [data-action="resume-here"]'), kind != "other-tab")
        set_hidden(q('[data-role="notice"] [data-action="copy-link"]'), kind != "storage")
        set_hidden(box, False)
        layout = self.view.layout
        if layout is not None:
            pos = s.position
            must = overlay.top_row(layout)
            bar = s.analysis.bar
            if bar is not None and bar.position == pos:
                piles, cards, _ = hint_marks(bar)
                must += overlay.hint_rects(layout, pos, piles, cards)
            hint = self.hint_box()
            if hint is not None:
                must.append(hint)
            self._place("notice", box, (kind, pos, layout, hint), must, pos, first=hint is None, above=hint)

    def retranslate(self, cat: Catalogue) -> None:
        """Another language: the message on show said in it (the same few seconds), or cleared."""
        shown = self._shown
        if shown.text and shown.again is not None:
            self._shown = MessageLine(shown.again(cat), shown.reason, shown.again)
            set_text(q('[data-role="message"]'), self._shown.text)
            self._fit_later()
        elif shown.text:
            self.say(MessageLine(""))

    def say(self, message: MessageLine) -> None:
        """Show ``message`` in the line under the table (``""`` clears it) for a few seconds."""
        self._shown = message
        el = q('[data-role="message"]')
        set_text(el, message.text)
        set_attr(el, "data-reason", message.reason or None)
        self._fit_later()
        self.bindings.cancel(self._message_timer)
        self._message_timer = None
        if message.text:
            self._message_timer = self.bindings.later(MESSAGE_MS, lambda: self.say(MessageLine("")))

    def _fit_later(self) -> None:
        """The message line fitted once before the next paint (:func:`_fit_message`): measured there,
        its size costs no layout of its own, where measured at once it laid the page out in the middle
        of a move's drawing, and again at the paint."""
        if not self._fit_pending:
            self._fit_pending = True
            self.bindings.frame(self._fit_now)

    def _fit_now(self) -> None:
        self._fit_pending = False
        _fit_message(q('[data-role="message"]'))


def _fit_message(el: Any) -> None:
    """The message line in smaller print when its words do not fit (three lines in a phone's two:
    "Too many cards to move at once: at most 16 onto 8♠, not 13 (3 empty free cells, 2 empty
    columns)." at 360 px), so that none is cut.  An empty line is not measured."""
    if el is None:
        return
    set_attr(el, "data-fit", None)
    if not str(el.textContent or ""):
        return
    if el.scrollHeight > el.clientHeight or el.scrollWidth > el.clientWidth:
        set_attr(el, "data-fit", "small")
