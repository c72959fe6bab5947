"""One player's visits, the same in every engine (a class per engine: see conftest.py).

In order, on one tab of a fresh profile:

1. the first visit boots from byte-code, never from a snapshot: no snapshot is
   fetched before the game is ready, and the page and the worker say
   ``bytecode``;
2. a move by clicks (tap-tap, and a card sent home with one click); the
   browser's Back over a panel closes the panel and the game stays; the
   Settings panel keeps its width from tab to tab (Firefox's scroll bar);
3. a hint: the bar shows a move and marks its piles;
4. the service worker takes control and caches the build, the page stores
   the snapshots once idle;
5. the share button copies the game's link (the clipboard stubbed);
6. offline (the server stopped), a reload keeps the game (its moves, where
   every card is) and boots the page and the worker from their snapshots,
   with Pyodide's WebAssembly call trampoline wherever the engine has one;
   a move and a hint.  (The shared link opening its game is Python's, the
   same in every engine: tests/browser/test_share_watch.py opens it; a
   reload here spares a third boot, the dearest thing a scenario does.)
7. no console error or warning, no uncaught error, no CSP violation, at any step.
"""

from __future__ import annotations

import pytest

from freecell.game import Game
from freecell.piles import Move
from tests.support.tables import solution_lines

from . import table
from .conftest import Visit

pytestmark = pytest.mark.engines

DEAL = 1


def _no_console(v: Visit) -> None:
    said = v.tab.console()
    assert said == [], f"{v.tab.engine} console: {said}"


def _next_move(v: Visit) -> Move:
    return Move.parse(v.moves.pop(0))


class EngineScenario:
    engine = ""

    def test_1_first_visit_boots_from_byte_code(self, step: Visit) -> None:
        tab = step.tab
        tab.goto(step.url + f"?deal={DEAL}")
        table.wait_ready(tab)
        assert tab.call("() => document.documentElement.dataset.boot") == "bytecode"
        # before ready: once the page is ready and idle, it stores them for next time (runtime.mjs)
        fetched = tab.call("""() => { const ready = performance.getEntriesByName('freecell:ready')[0];
          return performance.getEntriesByType('resource').filter((e) => e.name.includes('/snapshots/')
            && (!ready || e.startTime < ready.startTime)).map((e) => e.name); }""")
        assert fetched == [], f"a first visit fetched snapshots before it was ready: {fetched}"
        ready = table.wait_worker(tab)
        assert ready["boot"] == "bytecode"
        step.game = Game(deal=DEAL)
        step.moves = solution_lines(DEAL)
        table.expect_layout(tab, step.game)
        _no_console(step)

    def test_2_moves_by_clicks(self, step: Visit) -> None:
        tab = step.tab
        for _ in range(3):
            table.play(tab, step.game, _next_move(step))
        table.click(tab, ".actionbar [data-action=rules]")
        tab.wait("() => !document.querySelector('[data-panel=rules]').hidden"
                 " && history.state === 'freecell-panel'", timeout=table.STEP, what="the rules panel")
        tab.back()
        tab.wait("() => document.querySelector('[data-panel=rules]').hidden"
                 " && history.state !== 'freecell-panel'", timeout=table.STEP, what="Back closing the panel")
        assert tab.call("() => location.search") == f"?deal={DEAL}"
        table.expect_layout(tab, step.game)
        # Settings: the tabs and lists stay put from tab to tab, one that scrolls too (Firefox's
        # classic scroll bar took 12 px from the panel on the Play tab alone)
        table.click(tab, ".actionbar [data-action=settings]")
        widths = []
        for name in ("game", "play", "look"):
            tab.call(f"() => document.querySelector('[data-tab={name}]').click()")
            widths.append(tab.wait("() => { const p = document.querySelector('[data-panel=settings]');"
                                   " return !p.hidden && [p.clientWidth, p.scrollHeight > p.clientHeight]; }",
                                   timeout=table.STEP, what="the settings panel"))
        if tab.engine == "firefox":
            assert any(scrolls for _, scrolls in widths), widths  # else this shows nothing
            assert len({width for width, _ in widths}) == 1, widths
        tab.call("() => document.querySelector('[data-panel=settings] [data-action=close]').click()")
        tab.wait("() => document.querySelector('[data-panel=settings]').hidden", timeout=table.STEP,
                 what="the settings panel closed")
        _no_console(step)

    def test_3_a_hint_marks_a_move(self, step: Visit) -> None:
        tab = step.tab
        table.click(tab, ".actionbar [data-action=hint]")
        state = tab.wait("() => { const b = document.querySelector('[data-panel=hint]'); return !b.hidden"
                         " && ['found', 'fallback'].includes(b.dataset.state) && b.dataset.state; }",
                         timeout=table.READY, what="the hint bar with a move")
        marks = tab.call("() => [...document.querySelectorAll('svg#table rect.pile[data-hint]')]"
                         ".map((e) => e.dataset.hint).sort()")
        assert marks == ["from", "to"], f"{state} hint marks {marks}"
        _no_console(step)

    def test_4_the_service_worker_and_the_snapshots(self, step: Visit) -> None:
        tab = step.tab
        # the service worker registered once the game was ready, and the page stored the
        # snapshots once it was idle; wait for both (step 6 comes back offline)
        tab.wait("async () => { const r = await navigator.serviceWorker.getRegistration();"
                 " return !!(r && r.active); }", timeout=table.READY, what="an active service worker")
        tab.wait("async () => { const n = (await caches.keys()).find((n) => n.endsWith(' snapshots'));"
                 " return !!n && (await (await caches.open(n)).keys()).length === 2; }",
                 timeout=table.READY, what="the page's cache of snapshots")
        _no_console(step)

    def test_5_the_share_button_copies_the_link(self, step: Visit) -> None:
        tab = step.tab
        tab.call("() => { window.__copied = []; Object.defineProperty(navigator, 'clipboard', {configurable:"
                 " true, value: {writeText: async (t) => { window.__copied.push(String(t)); }}}); }")
        table.click(tab, ".actionbar [data-action=game-menu]")
        table.click(tab, "[data-panel=game] [data-action=share]")
        link = tab.wait("() => window.__copied[0] || (document.querySelector('[data-role=share-link]')"
                        " || {}).value", timeout=table.STEP, what="the shared link")
        assert link.startswith(step.url) and "moves=" in link, link
        # the copied link closes the panel, and the page steps back over the panel's history entry:
        # a visit started before that step would be cut short by it (net::ERR_ABORTED)
        tab.wait("() => document.querySelector('[data-panel=game]').hidden"
                 " && history.state !== 'freecell-panel'",
                 timeout=table.STEP, what="the game panel closed and its history entry left")
        _no_console(step)

    def test_6_offline_a_reload_boots_from_the_snapshots_keeps_the_game_plays_and_hints(
            self, step: Visit) -> None:
        tab = step.tab
        step.stop_server()
        tab.reload()
        table.wait_ready(tab)
        assert tab.call("() => !!navigator.serviceWorker.controller")
        info = tab.call("async () => (await import('./static/runtime.mjs')).runtimeInfo()")
        ready = table.wait_worker(tab)
        assert (info["boot"], ready["boot"]) == ("snapshot", "snapshot"), (info, ready, tab.call(
            "async () => [await caches.keys(), (await Promise.all((await caches.keys()).map(async (n) =>"
            " (await (await caches.open(n)).keys()).map((r) => r.url).filter((u) => u.includes('snap')))))]"),
            tab.console())
        # Pyodide's own choice of call path, kept by the snapshot (iOS keeps the JS one)
        assert info["trampoline"] == ready["trampoline"]
        # no stack switching (JSPI) in any engine, as the snapshots were made (static/runtime.mjs)
        assert (info["stackSwitching"], ready["stack_switching"]) == ("off", "off"), (info, ready)
        print(f"{tab.engine}: page {info}, worker trampoline {ready['trampoline']}")
        table.expect_layout(tab, step.game)
        assert table.status(tab, "moves") == str(step.game.moves)
        table.play(tab, step.game, _next_move(step))
        table.click(tab, ".actionbar [data-action=hint]")
        tab.wait("() => { const b = document.querySelector('[data-panel=hint]');"
                 " return !b.hidden && ['found', 'fallback'].includes(b.dataset.state); }",
                 timeout=table.READY, what="a hint offline")
        _no_console(step)
