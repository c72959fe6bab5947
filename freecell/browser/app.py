"""The page: one :meth:`Page.apply` that carries every change of the session to the screen.

:class:`Page` puts the pieces together (the session, the table view, the
chrome around it, the events, the solver worker, storage, the embedding
host) and applies each :class:`~freecell.ui.session.change.Change` in one order:

1. a press in progress is cancelled if the game changed under it;
2. the table is reshaped (another variant), restyled (a look setting) and
   drawn once, animated through the change's frames;
3. the status bar, buttons, panels, bars, message and notice are rendered
   from the session (rendering only reads it), and a panel or a playback
   put or take their history entry (:mod:`.history`: Back closes them);
4. the effects run (storage, the solver, the host, the address, timers);
5. the change's sentence is said in the live region;
6. what an effect gave that the session must know (a save written or
   refused) goes back to it as an intent, and its change is applied in turn.

Modules below it never call back up into it: they get the session, and
``apply`` as a plain function.  No visible text is written here.
"""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

from js import Date, document, window
from pyodide.ffi import create_proxy

from .. import precompiled
from ..position import Position
from ..ui.address.embed import Command
from ..ui.address.link import without_moves
from ..ui.address.query import parse_embed
from ..ui.analysis.replies import AskSolver, CancelSolver, Reply
from ..ui.progress.keyvalue import MemoryStorage, StoredDataError
from ..ui.progress.progress import Progress
from ..ui.progress.settings import KEY_SETTINGS, Settings, load_settings, text_to_store
from ..ui.progress.stored_table import KEY_DRAWN, TABLE_CLASSES, drawn_record
from ..ui.session import change as ch
from ..ui.session.opening import Boot, boot_for
from ..ui.session.session import Session
from ..ui.table.layout import LARGE_MIN_STRIP, MIN_STRIP, compute_layout
from .access import Access
from .chrome import Chrome
from .dom import Bindings, framed, js_object, q, set_attr
from .embedding import Embedding
from .events import Events, now
from .history import History, entry_state
from .i18n import browser_language, build_language_choice, fetch_catalogue, load_catalogue, translate_page
from .solver_client import SolverClient
from .storage import SafeStorage
from .view import TableView

ANIMATION_SCALE = {"normal": 1.0, "fast": 0.5}  # animation durations, scaled ("off": none at all)


class Page:
    """The session on the screen."""

    def __init__(self, session: Session, storage: SafeStorage, query: str,
                 client: SolverClient | None = None) -> None:
        self.session = session
        self.storage = storage
        self.started = False  # the first game is on the table (later new games are dealt in)
        self.bindings = Bindings()
        self.svg = document.getElementById("table")
        self.area = document.getElementById("table-area")
        rules = session.game.rules
        self.view = TableView(self.svg, rules.free_cells, rules.columns)
        self.access = Access(self.view, self.svg)
        self.chrome = Chrome(self.view, self.access, self.bindings)
        self.events = Events(session, self.view, self.access, self.chrome, self.bindings, self.apply,
                             self.schedule_layout)
        if client is None:
            client = SolverClient(self.bindings, self.on_reply, self.on_unavailable)
        else:  # a worker already running (a restart of the page object): it answers here now
            client.adopt(self.bindings, self.on_reply, self.on_unavailable)
        self.client = client
        self.embedding = Embedding(parse_embed(query), self.on_command)
        self.history = History(self.bindings, enabled=not self.embedding.active and not framed(),
                               on_back=lambda: self.apply(self.session.back()))
        self._layout_pending = False
        self._finish_timer: Any = None
        self._watch_timer: Any = None
        self._look: tuple[object, ...] | None = None
        self._task: Any = None

    # --- start -------------------------------------------------------------
    def start(self, boot: Boot) -> None:
        s = self.session
        self.chrome.panels.build_rules(s.cat, s.variant())
        build_language_choice(s.cat, s.settings.language)
        self.events.bind(on_motion=self.motion_changed, on_tick=lambda: self.chrome.status.time(self.session))
        if self.events.settings_panel is not None:
            self.events.settings_panel.select_tab("game")
        self.apply(s.opening.start(boot))
        self.started = True  # the first game is on the table as it was drawn early: not dealt again
        for name in ("new", "game-menu", "settings", "hint"):
            q(f'.actionbar [data-action="{name}"]').removeAttribute("disabled")
        document.documentElement.dataset.state = "ready"
        # what came before it, a player waited for; the detail says how many dataclasses were compiled
        window.performance.mark("freecell:ready", js_object({"detail": dict(precompiled.counts)}))
        if self.client.worker is None and not self.client.dead:
            self.client.start()

    def stop(self, keep_worker: bool = False) -> SolverClient:
        """Unbind everything: events, timers, proxies, and the worker unless ``keep_worker``."""
        self.events.unbind()
        self.embedding.unbind()
        self.chrome.reset()
        if keep_worker:
            self.client.cancel()
        else:
            self.client.stop()
        return self.client

    # --- the one path to the screen --------------------------------------------
    def apply(self, change: ch.Change) -> None:
        if not self.bindings.live:  # stopped (a restart): a task that ends now changes nothing
            return
        s = self.session
        if change.game_changed:
            self.events.cancel_press()
        if change.new_game:
            rules = s.game.rules
            self.view.reshape(rules.free_cells, rules.columns)
        if change.texts:
            translate_page(s.cat)
            self.chrome.bars.retranslate(s.cat)
            build_language_choice(s.cat, s.settings.language)
        if change.texts or change.new_game:  # the rules of the variant on the table first
            self.chrome.panels.build_rules(s.cat, s.variant())
        if self.restyle() or change.redraw or change.frames:
            self.draw(frames=list(change.frames), animate=bool(change.frames))
        if change.new_game and self.started and s.game.moves == 0 and s.watch.playback is None:
            self.view.deal_in()  # New deal, Replay, a deal by number: dealt from a pile
        elif change.kind is ch.ChangeKind.MOVED and s.game.is_won() and s.watch.playback is None:
            self.view.celebrate()
        if self.events.settings_panel is not None:
            self.events.settings_panel.show(s.settings)
        self.chrome.render(s, change.message)
        self.history.panels(s.closable)
        answers: list[ch.Change] = []
        for effect in change.effects:
            self.run(effect, answers)
        if change.announce:
            self.access.announce(change.announce)
        for answer in answers:  # what the effects gave, told to the session: applied in turn
            self.apply(answer)

    # --- drawing -----------------------------------------------------------------
    def schedule_layout(self) -> None:
        if self._layout_pending:
            return
        self._layout_pending = True
        self.bindings.frame(self._relayout)

    def _relayout(self) -> None:
        """Another size: the table, the status bar (what fits on its line) and the floating bars anew."""
        self._layout_pending = False
        self.chrome.resized()
        self.draw(animate=False)
        self.chrome.render(self.session)

    def draw(self, frames: list[Position] | None = None, animate: bool = True) -> None:
        """Fit the layout to the table's box, then show the game (through ``frames``)."""
        s = self.session
        had_focus = self.access.table_has_focus()
        box = self.area.getBoundingClientRect()
        pos = s.position
        rules = s.game.rules
        layout = compute_layout(float(box.width), float(box.height), rules.free_cells, rules.columns,
                                max(len(c) for c in pos.columns),
                                LARGE_MIN_STRIP if s.settings.flag("large-cards") else MIN_STRIP,
                                left_handed=s.settings.flag("left-handed"))
        if self.view.layout != layout:
            self.view.set_layout(layout)
            self.chrome.bars.remark()
            self.chrome.bars.lane(layout)
            # a column too long for the box at 18 px strips: the table is taller, and its area scrolls
            taller = layout.height > float(box.height) + 0.5
            self.svg.style.height = f"{layout.height:.0f}px" if taller else ""
            set_attr(self.area, "data-scroll", "" if taller else None)
        self.view.show(pos, frames=frames, animate=animate)
        self.view.set_selected(s.table.selected_cards())
        self.access.refresh(s.cat, pos, s.table.selection, refocus=had_focus)

    def restyle(self) -> bool:
        """The look settings and the system's motion preference on the table; whether they changed.

        It only sets styles: the caller draws (once) when they changed.
        """
        st = self.session.settings
        look = (st.flag("four-colour"), st.flag("large-cards"), st.flag("left-handed"), st.choice("speed"),
                st.choice("theme"), self.events.reduced_motion)
        if look == self._look:
            return False
        self._look = look
        four, large, left, speed, theme, reduced = look
        self.view.set_style(large=bool(large))
        for cls, on in (("four-colour", four), ("large-cards", large), ("left-handed", left)):
            self.svg.classList.toggle(cls, bool(on))
        self.view.speed = ANIMATION_SCALE.get(str(speed), 1.0)
        self.view.animate = not reduced and speed != "off"
        if not self.view.animate:
            self.view.finish_animations()
        root = document.documentElement
        root.setAttribute("data-speed", str(speed))
        root.setAttribute("data-theme", str(theme))
        meta = q('meta[name="theme-color"]')
        felt = str(window.getComputedStyle(root).getPropertyValue("--felt")).strip()
        if meta is not None and felt:
            meta.setAttribute("content", felt)
        return True

    def motion_changed(self) -> None:
        """The system's reduced-motion preference changed: the table's motion follows it."""
        if self.restyle():
            self.draw(animate=False)

    # --- effects ----------------------------------------------------------------------
    def run(self, effect: ch.Effect, answers: list[ch.Change]) -> None:
        """Carry out ``effect``; what the session must hear of it goes into ``answers``."""
        s = self.session
        if isinstance(effect, ch.SaveGame):
            self._answer(answers, s.keeping.saved(s.progress.save(s.game)))
            if effect.whole and not self._keep_drawing():
                self._answer(answers, s.keeping.storage_failed())
        elif isinstance(effect, ch.SaveSettings):
            # read again: a newer page in another tab may have written its settings since
            text = text_to_store(s.settings, self.storage.read(KEY_SETTINGS))
            if text is not None and not self.storage.write(KEY_SETTINGS, text):
                self._answer(answers, s.keeping.storage_failed())
        elif isinstance(effect, AskSolver):
            self.client.solve(effect.ask)
        elif isinstance(effect, CancelSolver):
            self.client.cancel()
        elif isinstance(effect, ch.TellHost):
            self.embedding.send(effect.kind, s.game)
        elif isinstance(effect, ch.SetAddress):
            self._set_address()
        elif isinstance(effect, ch.LoadLanguage):
            self._task = asyncio.ensure_future(self._load_language(effect.lang))
        elif isinstance(effect, ch.FinishNext):
            self.bindings.cancel(self._finish_timer)
            self._finish_timer = self.bindings.later(effect.ms, self._finish_step)
        elif isinstance(effect, ch.WatchNext):
            self.bindings.cancel(self._watch_timer)
            ticket = effect.ticket
            self._watch_timer = self.bindings.later(effect.ms, lambda: self._watch_tick(ticket))
        elif isinstance(effect, ch.ShareLink):
            self._task = asyncio.ensure_future(self._share(effect.query))

    @staticmethod
    def _answer(answers: list[ch.Change], change: ch.Change | None) -> None:
        if change is not None:
            answers.append(change)

    def _set_address(self) -> None:
        s = self.session
        if s.game.deal is not None:
            self.history.address(self.embedding.address(s.game.deal, s.variant()))
        else:  # a board's link: a reload opens the game kept, not the link's moves again
            query = without_moves(str(window.location.search))
            self.history.address(query or str(window.location.pathname))

    def _keep_drawing(self) -> bool:
        """The table as drawn now, for static/early.js to draw at the next load; whether it was kept.

        See :mod:`freecell.ui.progress.stored_table`.
        """
        s = self.session
        layout = self.view.layout
        if layout is None:
            return True
        st = s.settings
        status = self.chrome.status.kept(s)  # what fits on the bar at this size, as shown
        classes = [name for name in TABLE_CLASSES if st.flag(name)]
        return self.storage.write(KEY_DRAWN, drawn_record(layout, s.position, deal=s.game.deal,
                                                          variant=s.variant(), large=st.flag("large-cards"),
                                                          classes=classes, status=status))

    def _finish_step(self) -> None:
        self._finish_timer = None
        self.apply(self.session.finish_step())

    def _watch_tick(self, ticket: int) -> None:
        self._watch_timer = None
        self.apply(self.session.watch.tick(ticket))

    async def _share(self, query: str) -> None:
        """The link on this page's address: the system's share sheet on a touch screen that has one,
        else the clipboard; the session says how it went (by hand when neither works)."""
        url = str(window.location.origin) + str(window.location.pathname) + query
        nav = window.navigator
        how = "failed"
        share = getattr(nav, "share", None)
        if share is not None and bool(window.matchMedia("(pointer: coarse)").matches):
            try:
                await nav.share(js_object({"url": url, "title": str(document.title)}))
                how = "shared"
            except Exception as e:  # AbortError: the player closed the sheet
                how = "cancelled" if "AbortError" in str(e) else "failed"
        if how == "failed":
            try:
                await nav.clipboard.writeText(url)
                how = "copied"
            except Exception:
                how = "failed"
        self.apply(self.session.keeping.shared(how, url))

    async def _load_language(self, lang: str | None) -> None:
        cat = await fetch_catalogue(lang or browser_language())
        if cat is not None:
            self.apply(self.session.preferences.set_catalogue(cat))

    # --- the worker and the host ------------------------------------------------------
    def on_reply(self, pos: Position, reply: Reply) -> None:
        self.apply(self.session.solver_reply(pos, reply))

    def on_unavailable(self, first: bool, dead: bool) -> None:
        self.apply(self.session.solver_unavailable(first, dead))

    def on_command(self, command: Command) -> None:
        if command.kind == "deal" and command.deal is not None:
            self.apply(self.session.opening.open_deal(command.deal))
        elif command.kind == "new":
            self.apply(self.session.opening.new_deal())


_current: list[Page] = []
_restarting = asyncio.Lock()
_tasks: set[Any] = set()


def _wall() -> float:
    return float(Date.now())


def _today() -> date:
    """The device's local date (the deal of the day is that date's)."""
    d = Date.new()
    return date(int(d.getFullYear()), int(d.getMonth()) + 1, int(d.getDate()))


async def open_page(query: str, client: SolverClient | None = None, translate: bool = False) -> Page:
    """Read the settings, load the catalogue, and start a page for the address ``query``.

    The games and statistics are in ``localStorage`` (shared by the tabs) and
    what this tab plays in ``sessionStorage``; where storage is refused, in
    memory (the page says so once).
    """
    local = SafeStorage()
    tab = SafeStorage(which="sessionStorage")
    settings, damaged = Settings(), False
    text = local.read(KEY_SETTINGS)
    if text is not None:
        try:
            settings, damaged = load_settings(text)
        except StoredDataError:
            damaged = True
    cat, fetched = await load_catalogue(settings.language)
    if fetched or translate:
        translate_page(cat)
    refused = local.refused
    progress = Progress(MemoryStorage() if refused else local, None if tab.refused else tab, wall=_wall,
                        today=_today)
    session = Session(cat, settings, progress, clock=now)
    page = Page(session, local, query, client)
    first = str(document.documentElement.getAttribute("data-first-deal") or "")  # early.js, a first visit
    first_deal = int(first) if first.isascii() and first.isdigit() and len(first) <= 6 else None
    page.start(boot_for(query, now, damaged=damaged, storage_refused=refused, first_deal=first_deal))
    _current[:] = [page]
    return page


async def restart(query: str) -> None:
    """Start the page object again for the address ``query``, in the same runtime and worker.

    What a reload does, without booting Python again: the browser tests run
    many games on one page this way (``window.freecellRestart``).
    """
    async with _restarting:  # one at a time: each stops the page object the last one made
        await _restart(query)


async def _restart(query: str) -> None:
    document.documentElement.dataset.state = "loading"
    client = None
    if _current:
        old = _current[0]
        client = old.stop(keep_worker=not old.client.dead)
        if client.dead:
            client = None  # a worker that gave up: the new page object tries again
    window.history.replaceState(entry_state(), "", query or window.location.pathname)  # as a reload
    try:
        await open_page(query, client, translate=True)
    except Exception:
        window.dispatchEvent(window.Event.new("freecell:failed"))
        raise


async def main() -> Page:
    try:
        page = await open_page(str(window.location.search))
    except Exception:
        window.dispatchEvent(window.Event.new("freecell:failed"))
        raise
    window.freecellRestart = create_proxy(_restart_later)
    return page


def _restart_later(query: object) -> None:
    document.documentElement.dataset.state = "loading"
    _tasks.add(asyncio.ensure_future(restart(str(query))))
