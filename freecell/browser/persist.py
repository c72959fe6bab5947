"""Saving and restoring: the game in progress, the statistics, the settings.

The page calls a few hooks (:meth:`Persistence.adopt` when a game comes on
the table, :meth:`Persistence.turn_played` after every turn,
:meth:`Persistence.changed` after undo and jumps); this module keeps the
statistics honest (:mod:`freecell.ui.stats`), writes the three entries of
:mod:`freecell.ui.store` through :class:`~.storage.SafeStorage`, fills the
statistics panel and shows the one-line notices.

The clock of a restored game: it comes back at the saved time (saved with
every turn, and when the page is hidden or closed), running if the game had
started and is not won (as a game on a page in view always is), stopped if it
was won.  The time the page spent closed is not counted.

Notices (``[data-role=notice]``, kind in ``data-notice``): ``storage`` when
storage is refused or a write fails ("progress not saved"), ``damaged``
when stored data could not be used and was started fresh.  Each kind is said
at most once per page load.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from js import document, window
from pyodide.ffi import jsnull

from ..game import Game
from ..rules import FREECELL
from ..ui.i18n import Catalogue, choose_language
from ..ui.start import StartRequest
from ..ui.stats import Statistics, deal_key
from ..ui.store import (
    CHOICE_SETTINGS,
    FLAG_SETTINGS,
    KEY_GAME,
    KEY_SETTINGS,
    KEY_STATS,
    Restored,
    Settings,
    restore,
)
from .storage import SafeStorage

if TYPE_CHECKING:
    from .app import App

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "es": "Español",
                  "it": "Italiano", "ro": "Română"}


def q(selector: str) -> Any:
    el = document.querySelector(selector)
    return None if el is None or el is jsnull else el


def variant_id(game: Game) -> str | None:
    """The variant of a game (a classic game saved without one is ``freecell``), or ``None``."""
    if game.variant is not None:
        return game.variant.id
    return "freecell" if replace(game.rules, foundation_return=False) == FREECELL else None


def game_key(game: Game) -> str | None:
    """The statistics key of a game: its variant (or rules) and deal; ``None`` for a board."""
    if game.deal is None:
        return None
    variant = getattr(game, "variant", None)
    if variant is not None:
        return f"{variant.id}:{game.deal}"
    return deal_key(game.deal, game.rules)


class Persistence:
    def __init__(self, app: App, clock: Callable[[], float]) -> None:
        self.app = app
        self.clock = clock
        self.said: set[str] = set()
        self.storage = SafeStorage(self._storage_failed)
        self.restored = Restored()
        self.stats = Statistics()
        self.settings = Settings()
        self.state = "fresh"  # of the game on the table: fresh, open (started) or done (won)
        self.loaded = False

    # --- start ---------------------------------------------------------------
    def load(self) -> None:
        """Read what was stored (never raises); apply the settings the first deal needs."""
        self.restored = restore(self.storage.read, clock=self.clock)
        self.stats = self.restored.stats
        self.settings = self.restored.settings
        # what the first analysis and a first random deal need; the rest is applied in ready()
        assist = self.app.assist
        assist.winnability = self.settings.flag("winnability")
        assist.winnable_only = self.settings.choice("deal-source") == "winnable"
        self.loaded = True

    def saved_game(self, req: StartRequest) -> Game | None:
        """The stored game, if the address asks for nothing else (or for that very game)."""
        game = self.restored.game
        if game is None:
            return None
        asked = req.variant or "freecell"
        if req.board is not None:
            same = game.deal is None and game.start == req.board and variant_id(game) == asked
            return game if same else None
        if req.deal is not None:
            return game if game.deal == req.deal and variant_id(game) == asked else None
        return game

    def ready(self) -> None:
        """The page is bound and running: settings on their controls, damage reported."""
        self.build_language_choice()
        for name in FLAG_SETTINGS:
            self.app.apply_setting(name, self.settings.flag(name))  # it sets its control too
        for name in CHOICE_SETTINGS:
            self.app.apply_setting(name, self.settings.choice(name))
        self.storage.report_refused()
        if self.restored.damaged:
            for key in self.restored.damaged:  # start those entries fresh now
                self._write_entry(key)
            self.notice("damaged")

    # --- the game on the table ------------------------------------------------
    def adopt(self, restored: bool = False) -> None:
        """A game came on the table (dealt, replayed, or restored from storage)."""
        game = self.app.game
        key = game_key(game)
        if restored and game.is_won():
            self.state = "done"
        elif restored and (game.moves or game.can_redo()):
            self.state = "open"
            if key is not None and self.stats.open != key:  # the statistics lost it: count it now
                self.stats.record_start(key)
                self.save_stats()
            if game.clock.started:
                game.clock.start()  # it ran when the page closed
        else:
            self.state = "fresh"
            if self.stats.record_abandon():  # a started game was left unfinished
                self.save_stats()
        self.save_game()

    def replaying(self) -> None:
        """The deal started over (Replay): an unfinished started game is abandoned."""
        self.adopt()

    def turn_played(self) -> None:
        """After every turn (a move, a redo, a Finish step)."""
        game = self.app.game
        key = game_key(game)
        if self.state == "fresh":
            self.state = "open"
            if key is not None:
                self.stats.record_start(key)
                self.save_stats()
            self.app.embedding.send("started", game)
        if self.state == "open" and game.is_won():
            self.state = "done"
            if key is not None and self.stats.record_win(key, game.elapsed(), game.moves, game.score):
                self.save_stats()
            self.app.embedding.send("won", game)
        self.save_game()

    def changed(self) -> None:
        """After an undo or a jump back: save."""
        self.save_game()

    # --- writing ----------------------------------------------------------------
    def save_game(self) -> None:
        if self.loaded:
            self.storage.write(KEY_GAME, self.app.game.to_json())

    def save_stats(self) -> None:
        if self.loaded:
            self.storage.write(KEY_STATS, self.stats.to_json())

    def save_settings(self) -> None:
        if self.loaded:
            self.storage.write(KEY_SETTINGS, self.settings.to_json())

    def _write_entry(self, key: str) -> None:
        {KEY_GAME: self.save_game, KEY_STATS: self.save_stats, KEY_SETTINGS: self.save_settings}[key]()

    # --- settings ---------------------------------------------------------------
    def setting_changed(self, target: Any) -> None:
        """A control of the settings panel changed: keep it; a new language applies at once."""
        name = str(target.getAttribute("data-field") or "")
        if name in FLAG_SETTINGS:
            self.settings = self.settings.with_flag(name, bool(target.checked))
        elif name in CHOICE_SETTINGS:
            value = str(target.value or "") or None
            new = self.settings.with_choice(name, value)
            if new == self.settings and value is not None:
                return  # not a value we offer
            self.settings = new
            if name == "language":
                self.app.switch_language(value)
        else:
            return
        self.save_settings()

    def build_language_choice(self) -> None:
        select = q('select[data-field="language"]')
        if select is None:
            return
        select.replaceChildren()
        options = [("", self.app.cat.t("settings.language_auto"))]
        options += [(code, LANGUAGE_NAMES.get(code, code)) for code in CHOICE_SETTINGS["language"]]
        current = self.settings.language or ""
        for value, label in options:
            opt = document.createElement("option")
            opt.value = value
            opt.textContent = label
            opt.selected = value == current
            select.appendChild(opt)

    # --- statistics panel -------------------------------------------------------
    def show_stats(self) -> None:
        self.fill_stats()
        self.app.show_panel("stats")
        confirm = q('[data-role="stats-confirm"]')
        if confirm is not None:
            confirm.hidden = True

    def fill_stats(self) -> None:
        t = self.app.cat.t
        s = self.stats
        rate = s.win_rate()
        none = t("stats.none")
        figures: dict[str, tuple[object, str]] = {
            "played": (s.played, str(s.played)),
            "won": (s.won, str(s.won)),
            "rate": ("" if rate is None else rate, none if rate is None else t("stats.rate_value", n=rate)),
            "streak": (s.streak, str(s.streak)),
            "longest": (s.longest, str(s.longest)),
            "best-score": (s.best_score, str(s.best_score) if s.won else none),
        }
        game = self.app.game
        key = game_key(game)
        record = s.best(key) if key is not None else None
        figures["best-time"] = ("", none) if record is None else (
            record.best_seconds, self.app.cat.time(record.best_seconds))
        figures["fewest-moves"] = ("", none) if record is None else (
            record.fewest_moves, str(record.fewest_moves))
        for name, (value, text) in figures.items():
            el = q(f'[data-stat="{name}"]')
            if el is not None:
                el.setAttribute("data-value", str(value))
                el.textContent = text
        deal_box = q('[data-role="stats-deal"]')
        if deal_box is not None:
            deal_box.hidden = key is None
            title = q('[data-role="stats-deal-title"]')
            if title is not None:
                title.textContent = "" if game.deal is None else t("stats.deal_title", n=game.deal)

    def ask_reset(self) -> None:
        confirm = q('[data-role="stats-confirm"]')
        if confirm is None:
            return
        confirm.hidden = False
        button = q('[data-action="stats-reset-confirm"]')
        if button is not None:
            button.focus()

    def cancel_reset(self) -> None:
        confirm = q('[data-role="stats-confirm"]')
        if confirm is not None:
            confirm.hidden = True
        button = q('[data-action="stats-reset"]')
        if button is not None:
            button.focus()

    def reset_stats(self) -> None:
        """Start the statistics afresh; a game under way counts as played in them."""
        self.stats = Statistics()
        key = game_key(self.app.game)
        if self.state == "open" and key is not None:
            self.stats.record_start(key)
        self.save_stats()
        self.fill_stats()
        self.cancel_reset()
        self.app.say(self.app.cat.t("msg.stats_reset"))

    # --- notices ------------------------------------------------------------------
    def _storage_failed(self, _what: str) -> None:
        self.notice("storage")

    def notice(self, kind: str) -> None:
        """Say ``kind`` (``storage`` or ``damaged``) once for this page load."""
        if kind in self.said:
            return
        self.said.add(kind)
        box = q('[data-role="notice"]')
        if box is None:
            return
        box.setAttribute("data-notice", kind)
        text = q('[data-role="notice-text"]')
        if text is not None:
            text.textContent = self.app.cat.t(f"notice.{kind}")
        box.hidden = False

    def close_notice(self) -> None:
        box = q('[data-role="notice"]')
        if box is not None:
            box.hidden = True

    def refresh_texts(self, cat: Catalogue) -> None:
        """The language changed: the texts this module wrote, again."""
        box = q('[data-role="notice"]')
        text = q('[data-role="notice-text"]')
        if box is not None and text is not None and not box.hidden:
            kind = str(box.getAttribute("data-notice") or "")
            if kind in ("storage", "damaged"):
                text.textContent = cat.t(f"notice.{kind}")
        self.build_language_choice()
        self.fill_stats()


def stored_language() -> str | None:
    """The language chosen in the settings, read before the page is built (or ``None``)."""
    storage = SafeStorage(lambda _what: None)
    return restore(storage.read).settings.language


async def catalogue_for_settings(cat: Catalogue) -> Catalogue:
    """The catalogue of the language chosen in the settings, if it is not the one loaded."""
    lang = stored_language()
    if lang is None or lang == cat.lang:
        return cat
    loaded = await fetch_catalogue(lang)
    return cat if loaded is None else loaded


async def fetch_catalogue(lang: str) -> Catalogue | None:
    from pyodide.http import pyfetch

    if lang not in CHOICE_SETTINGS["language"]:
        return None
    try:
        resp = await pyfetch(f"./static/i18n/{lang}.json")
        if not resp.ok:
            return None
        return Catalogue.from_json(lang, await resp.string())
    except Exception:
        return None


def translate_page(cat: Catalogue) -> None:
    """Every static label of the page in ``cat``'s language (as boot.js does at load)."""
    document.documentElement.lang = cat.lang
    for el in document.querySelectorAll("[data-i18n]"):
        el.textContent = cat.t(str(el.getAttribute("data-i18n")))
    for el in document.querySelectorAll("[data-i18n-title]"):
        el.setAttribute("title", cat.t(str(el.getAttribute("data-i18n-title"))))
    for el in document.querySelectorAll("[data-i18n-aria-label]"):
        el.setAttribute("aria-label", cat.t(str(el.getAttribute("data-i18n-aria-label"))))


async def switch_language(app: App, lang: str | None) -> None:
    """Show the page in ``lang`` now (``None``: the browser's language)."""
    if lang is None:
        lang = choose_language([str(x) for x in window.navigator.languages or []])
    if lang == app.cat.lang:
        return
    cat = await fetch_catalogue(lang)
    if cat is None:
        return
    app.cat = cat
    translate_page(cat)
    app.build_rules()
    app.clear_message()
    app.refresh_texts()
    app.persist.refresh_texts(cat)
