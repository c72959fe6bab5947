"""Everything around the table, drawn from the session: one :meth:`Chrome.render` for all of it.

:meth:`Chrome.render` is called by the page after every change and writes
only what differs from what is shown (``textContent`` and attributes, never
markup), in this order: the status bar (:mod:`.statusbar`), the action
bar's buttons (here), the hint and playback bars (:mod:`.bars`), the panel
on show (:mod:`.panels`), the notice line (placed clear of the hint bar)
and the message line.  Rendering reads the session and never changes it.
"""

from __future__ import annotations

from ..ui.session.change import MessageLine
from ..ui.session.session import Session
from .access import Access
from .bars import Bars
from .dom import Bindings, q, qa, set_hidden
from .panels import Panels
from .statusbar import StatusBar
from .view import TableView


class Chrome:
    """The page around the table, rendered from a :class:`~freecell.ui.session.session.Session`."""

    def __init__(self, view: TableView, access: Access, bindings: Bindings) -> None:
        self.status = StatusBar()
        self.bars = Bars(view, bindings)
        self.panels = Panels(access, view, bindings)

    def reset(self) -> None:
        """Nothing on show around the table (before another page object takes over)."""
        for p in qa(".panel[data-panel], [data-panel=hint], [data-panel=picker], [data-role=notice]"):
            p.hidden = True
        self.bars.say(MessageLine(""))
        self.panels.shown = None

    def render(self, s: Session, message: MessageLine | None = None) -> None:
        self.status.render(s)
        self.buttons(s)
        self.bars.hint(s)
        self.bars.watch(s)
        self.panels.render(s)
        self.bars.notice(s)
        if message is not None:
            self.bars.say(message)

    def resized(self) -> None:
        """The page changed size: the status bar's room and fonts, and where the floating bars go, anew."""
        self.status.resized()
        self.bars.resized()

    def buttons(self, s: Session) -> None:
        """The action bar: each button enabled (or shown) when the session says it does something."""
        for undo in qa('[data-action="undo"]'):
            undo.disabled = not s.available("undo")
        q('.actionbar [data-action="redo"]').disabled = not s.available("redo")
        set_hidden(q('.actionbar [data-action="finish"]'), not s.available("finish"))
        set_hidden(q('.actionbar [data-action="new"]'), not s.available("new"))
        for replay in qa('[data-action="replay"]'):  # the action bar's, the Game menu's, the hint bar's
            replay.disabled = not s.available("replay")
