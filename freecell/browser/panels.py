"""The panels: the win panel, the statistics, the unfinished games, the settings' figures, the rules.

:meth:`Panels.render` fills the panel on show (``data-panel``) from the
session and shows it alone; a panel that opens takes the focus, one that
closes gives it back (:class:`~.access.Access`).  Texts come from
:mod:`freecell.ui.text.panels`; the rules panel is built once per language
(:meth:`Panels.build_rules`).
"""

from __future__ import annotations

from typing import Any

from js import Date, document

from ..rules import move_capacity
from ..ui.progress.progress import game_key
from ..ui.session.change import Panel
from ..ui.session.session import Session
from ..ui.text.catalogue import Catalogue
from ..ui.text.panels import (
    daily_items,
    daily_won_text,
    deal_error_text,
    par_text,
    stats_deal_title,
    stats_items,
    stuck_text,
    unfinished_items,
    watch_again,
    win_title_key,
    win_values,
)
from ..ui.text.status import Item
from ..variants import VARIANTS
from .access import Access
from .dom import Bindings, js_or_none, q, qa, set_attr, set_hidden, set_text
from .view import TableView

RULES_SECTIONS = ("setup", "moves", "multi", "finish", "deals")


# the win panel waits for the last cards to glide home and hop (view.celebrate), this long at most
WIN_WAIT_MS = 2600


class Panels:
    """The panel on show, filled from the session."""

    def __init__(self, access: Access, view: TableView, bindings: Bindings) -> None:
        self.access = access
        self.view = view
        self.bindings = bindings
        self.shown: Panel | None = None
        self._arriving: Any = None  # the timer that shows the win panel once the cards are home

    def render(self, s: Session) -> None:
        name = s.panel
        if name is Panel.WIN:
            self._win(s)
        elif name is Panel.STATS:
            self._stats(s)
        elif name is Panel.UNFINISHED:
            self._unfinished(s)
        elif name is Panel.STUCK:
            set_text(q('[data-role="stuck-text"]'), stuck_text(s.cat, s.game.moves))
        elif name is Panel.GAME:
            error = q('[data-role="deal-error"]')
            code = s.opening.deal_error
            set_text(error, deal_error_text(s.cat, code))
            set_attr(error, "data-code", code)
        if name in (Panel.GAME, Panel.STATS):
            for item in _daily(s):
                for el in qa(f'[data-role="{item.name}"], [data-stat="{item.name}"]'):
                    set_attr(el, "data-value", item.value)
                    set_text(el, item.text)
        if name != self.shown:
            self._show(s, name)

    def _show(self, s: Session, name: Panel | None) -> None:
        """Show panel ``name`` alone (``None``: none), moving the focus in or back."""
        was_open = self.shown is not None
        self.shown = name
        for p in qa(".panel[data-panel]"):
            p.hidden = True
        if name is None:
            if was_open:
                self.access.panel_closed()
            return
        if not was_open:
            self.access.panel_opened()
        panel = q(f'[data-panel="{name}"]')
        panel.hidden = False
        if name is Panel.GAME:
            q('[data-field="deal"]').value = "" if s.game.deal is None else str(s.game.deal)
        elif name is Panel.STATS:
            set_hidden(q('[data-role="stats-confirm"]'), True)
        elif name is Panel.RULES:  # the text, so that the arrows and Page Down scroll it at once
            q("#rules-body").focus()
            return
        elif name is Panel.WIN:
            self._arrive(panel)
            return
        elif name is Panel.SHARE:
            field = q('[data-role="share-link"]')
            field.value = s.keeping.share_url or ""
            field.focus()
            field.select()
            return
        first = js_or_none(panel.querySelector("button:not([disabled]), input"))
        if first is not None:
            first.focus()

    def _win(self, s: Session) -> None:
        for key, text in win_values(s.cat, s.game).items():
            set_text(q(f'[data-win="{key}"]'), text)
        watched = s.progress.watched
        for item in stats_items(s.cat, s.progress.tally, game_key(s.game)):  # the streak, the best time
            if item.name in ("streak", "best-time"):
                el = q(f'[data-win="{item.name}"]')
                set_attr(el, "data-value", item.value)
                set_text(el, item.text)
                set_hidden(el, watched)  # not the player's win: their record is not its business
                set_hidden(el.previousElementSibling, watched)
        deal_value = q('[data-win="deal"]')
        for el in (q('[data-panel="win"] dt[data-i18n="win.deal"]'), deal_value.parentElement):
            set_hidden(el, s.game.deal is None)
        title = q("#win-title")
        set_attr(title, "data-i18n", win_title_key(watched))  # so that a new language keeps it
        set_text(title, s.cat.t(win_title_key(watched)))
        par = q('[data-win="par"]')
        line = par_text(s.cat, s.game.moves, s.par, watched)
        set_text(par, line)
        set_hidden(par, not line)
        set_attr(par, "data-state", "" if s.par is None else s.par.state)
        set_attr(par, "data-value", "" if s.par is None or s.par.moves is None else str(s.par.moves))
        daily = {i.name: i for i in _daily(s)}
        won_today = daily["daily-here"].value == "yes" and daily["daily-solved"].value == "yes"
        won_text = daily_won_text(s.cat, daily["daily-streak"].text) if won_today else ""
        set_text(q('[data-win="daily"]'), won_text)
        set_hidden(q('[data-win="daily"]'), not won_today)
        set_hidden(q('[data-panel="win"] [data-action="watch-solution"]'),
                   s.analysis.unavailable or not watch_again(s.game.moves, s.par))

    def _arrive(self, panel: Any) -> None:
        """The win panel, once the cards are home and have hopped (at most :data:`WIN_WAIT_MS`;
        a key or a press anywhere at once): until then it is there but unseen, so that the win
        is seen first.  Then the focus goes to the way on (not the Copy beside the deal number)."""
        self.bindings.cancel(self._arriving)
        wait = min(self.view.remaining_ms(), WIN_WAIT_MS)

        def arrived(*_: Any) -> None:
            self.bindings.cancel(self._arriving)
            self._arriving = None
            if self.shown is Panel.WIN and panel.hasAttribute("data-arriving"):
                panel.removeAttribute("data-arriving")
                q('[data-panel="win"] [data-action="new"]').focus()

        if wait <= 0:
            panel.removeAttribute("data-arriving")
            q('[data-panel="win"] [data-action="new"]').focus()
            return
        set_attr(panel, "data-arriving", "yes")
        self._arriving = self.bindings.later(wait, arrived)
        for kind in ("pointerdown", "keydown"):  # bound with the page's others: undone with them
            self.bindings.on(document, kind, arrived, capture=True, once=True)

    def _stats(self, s: Session) -> None:
        key = game_key(s.game)
        for item in stats_items(s.cat, s.progress.tally, key):
            el = q(f'[data-stat="{item.name}"]')
            set_attr(el, "data-value", item.value)
            set_text(el, item.text)
        set_hidden(q('[data-role="stats-deal"]'), key is None)
        set_text(q('[data-role="stats-deal-title"]'), stats_deal_title(s.cat, s.game.deal))

    def _unfinished(self, s: Session) -> None:
        """The unfinished games, each a button to go on with it (``data-action=resume``)."""
        ul = q('[data-role="unfinished-list"]')
        ul.replaceChildren()
        items = unfinished_items(s.cat, s.progress.unfinished(), float(Date.now()), s.progress.game_id)
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

    # --- the statistics' reset, asked first ------------------------------------------------
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

    # --- the rules panel -------------------------------------------------------------------
    def build_rules(self, cat: Catalogue, on_table: str = "freecell") -> None:
        """The rules panel, in ``cat``'s language: a variant on the table (``on_table``) first."""
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

        if on_table != "freecell":  # what the table plays, before the rules it changes
            add("h3", t("rules.on_table", name=t(f"variant.{on_table}")), data_rules="on-table")
            add("p", t(f"rules.variant.{on_table}"))
            add("p", t("rules.on_table_note"))
        for section in RULES_SECTIONS:
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


def _daily(s: Session) -> list[Item]:
    return daily_items(s.cat, s.progress.daily, s.progress.today(), s.game)


def _capacity_table(cat: Catalogue) -> Any:
    """How many cards move at once, by empty free cells (rows) and empty columns (columns): each
    axis named once, its headers bare numbers (each named in full for a screen reader), so that
    the table fits a phone held upright."""
    t = cat.t
    table = document.createElement("table")
    table.className = "capacity-table"
    cap = document.createElement("caption")
    cap.textContent = t("rules.multi.table_caption")
    table.appendChild(cap)

    def cell(tag: str, text: str, label: str | None = None, **span: int) -> Any:
        el = document.createElement(tag)
        el.textContent = text
        if label is not None:
            el.setAttribute("aria-label", label)
        for name, n in span.items():
            el.setAttribute(name, str(n))
        return el

    top = document.createElement("tr")
    top.appendChild(cell("td", "", colspan=2, rowspan=2))  # the corner
    axis = cell("th", t("rules.multi.cols"), colspan=5)
    axis.setAttribute("scope", "colgroup")
    top.appendChild(axis)
    table.appendChild(top)
    head = document.createElement("tr")
    for e in range(5):
        th = cell("th", str(e), t("rules.multi.col_label", n=e))
        th.setAttribute("scope", "col")
        head.appendChild(th)
    table.appendChild(head)
    for f in range(5):
        row = document.createElement("tr")
        if f == 0:
            side = cell("th", t("rules.multi.rows"), rowspan=5)
            side.setAttribute("scope", "rowgroup")
            side.className = "axis"
            row.appendChild(side)
        th = cell("th", str(f), t("rules.multi.row_label", n=f))
        th.setAttribute("scope", "row")
        row.appendChild(th)
        for e in range(5):
            row.appendChild(cell("td", str(move_capacity(f, e))))
        table.appendChild(row)
    return table
