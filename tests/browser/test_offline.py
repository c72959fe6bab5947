"""Offline play and updates through the service worker (``static/sw.js``, ``static/offline.js``).

These tests serve builds of their own (``build.build()`` into a temporary
directory) on one 127.0.0.1 port that they can stop and serve again with
another build: the same origin, as the browser sees it.  Service workers are
allowed here (the other browser tests block them, see ``conftest.py``).

* After one visit the game boots, plays, gets a hint from the solver worker
  and wins with the context offline and the server stopped; every response
  then comes from the service worker, and the page and the worker boot from
  their memory snapshots, which the first visit (booted from byte-code) did
  not wait for.
* An update: a build whose files do not match its service worker (a deploy
  half done) is never installed; a proper new build is announced by the
  banner, the old files are served until the player accepts, then the page
  reloads and runs the new build, and the old cache is gone.
* An embedded page registers no service worker and offers no install; the
  same page not embedded does, and then an error, a partial answer or another
  content for a file is never cached.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

import build
from builder.site import cached_on_use, site_files
from freecell.game import Game
from freecell.piles import FOUNDATION, Move
from freecell.ui.address.link import game_link

from .helpers import (
    STEP_TIMEOUT,
    WORKER_SPY_JS,
    deal_url,
    expect_game,
    open_page,
    play_move_on_page,
    solution_lines,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

INSTALL_TIMEOUT = 60_000  # ms: the service worker fetches and checks about 14 MB
WORKER_TIMEOUT = 120_000  # ms: the solver worker boots its own Pyodide
MARKER = '<meta name="freecell-test-build" content="B">'

# Content-Security-Policy violations on the page, recorded from the start.
CSP_JS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__csp.push(e.effectiveDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));
"""


# --- builds and a server that can stop and come back on the same port ---------------------


class FaultyHandler(build.Handler):
    """The dev server's handler; a path in ``faults`` gets that status and body instead."""

    faults: ClassVar[dict[str, tuple[int, bytes]]] = {}

    def do_GET(self) -> None:
        fault = self.faults.get(self.path.split("?", 1)[0])
        if fault is None:
            super().do_GET()
            return
        status, body = fault
        self.send_response(status)
        if status == 206:
            self.send_header("Content-Range", f"bytes 0-{len(body) - 1}/100000")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server:
    """Serves one directory at a time on a port that stays the same."""

    def __init__(self) -> None:
        self.port = 0
        self.url = ""
        self._running: contextlib.ExitStack | None = None

    def start(self, directory: Path) -> str:
        assert self._running is None
        stack = contextlib.ExitStack()
        self.url = stack.enter_context(build.serving(directory, port=self.port, handler_class=FaultyHandler))
        self.port = urlsplit(self.url).port or 0
        self._running = stack
        return self.url

    def stop(self) -> None:
        if self._running is not None:
            self._running.close()
            self._running = None


@pytest.fixture
def server() -> Iterator[Server]:
    FaultyHandler.faults = {}
    srv = Server()
    yield srv
    srv.stop()
    FaultyHandler.faults = {}


class Builds:
    def __init__(self, root: Path) -> None:
        self.a = build.build(root / "a")
        self.hash_a = _hash(self.a)
        # B: a new version (one page changed)
        self.b = root / "b"
        shutil.copytree(self.a, self.b)
        index = self.b / "index.html"
        index.write_text(index.read_text().replace("<title>", MARKER + "\n  <title>", 1))
        self.hash_b = build.finish(self.b)
        # B, half deployed: its service worker is there, one of its files is still A's (in
        # every encoding the server may send it: as it is, .br, .gz)
        self.b_half = root / "b-half"
        shutil.copytree(self.b, self.b_half)
        for name in ("index.html", "index.html.br", "index.html.gz"):
            shutil.copy2(self.a / name, self.b_half / name)
        assert self.hash_a != self.hash_b


def _hash(site: Path) -> str:
    return str(json.loads((site / "build.json").read_text())["hash"])


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return Builds(tmp_path_factory.mktemp("sites"))


# --- the page and its service worker ---------------------------------------------------------


def run_async(page: Any, js: str, timeout: float = STEP_TIMEOUT) -> Any:
    """Start the async function ``js`` in the page; wait (at most ``timeout``) for its result."""
    page.evaluate(
        f"""() => {{
              window.__async = undefined;
              ({js})().then((value) => {{ window.__async = {{value}}; }},
                            (error) => {{ window.__async = {{error: String(error)}}; }});
            }}"""
    )
    page.wait_for_function("() => window.__async !== undefined", timeout=timeout)
    result = page.evaluate("() => window.__async")
    assert "error" not in result, result["error"]
    return result.get("value")


def wait_controlled(page: Any) -> None:
    """Wait until the service worker is active and controls the page."""
    page.evaluate("() => { navigator.serviceWorker.ready.then(() => { window.__swReady = true; }); }")
    page.wait_for_function("() => window.__swReady === true && navigator.serviceWorker.controller !== null",
                           timeout=INSTALL_TIMEOUT)


def served_build(page: Any) -> str:
    """The hash in the build.json the page gets (through the service worker)."""
    return str(page.evaluate("async () => (await (await fetch('./build.json')).json()).hash"))


def cache_names(page: Any) -> list[str]:
    """The service worker's caches (one a build; not the page's own cache of snapshots)."""
    return list(page.evaluate("async () => (await caches.keys()).filter((n) => n.startsWith('freecell ')"
                              " && !n.endsWith(' snapshots'))"))


CACHED_JS = """
async (path) => {
  const url = new URL(path, location.href).href;
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(url)) return true;
  }
  return false;
}
"""


# Both snapshots in the page's own cache (static/runtime.mjs stores them when idle).
SNAPSHOTS_STORED_JS = """
async () => {
  const name = (await caches.keys()).find((n) => n.endsWith(' snapshots'));
  return !!name && (await (await caches.open(name)).keys()).length === 2;
}
"""


def is_cached(page: Any, path: str) -> bool:
    return bool(page.evaluate(CACHED_JS, path))


def banner(page: Any) -> Any:
    return page.locator("[data-panel=update]")


# --- offline ---------------------------------------------------------------------------------


def test_after_one_visit_the_game_plays_hints_and_wins_offline(
    open_context: Any, request_log: Any, server: Server, builds: Builds
) -> None:
    base = server.start(builds.a)
    ctx = open_context()
    ctx.add_init_script(CSP_JS)
    ctx.add_init_script(WORKER_SPY_JS)
    page = ctx.new_page()
    open_page(page, deal_url(base, 1))
    assert page.evaluate("() => document.documentElement.dataset.boot") == "bytecode"
    # the runtime came from this site (and no request of the visit left it: ``open_context``)
    assert any(u.startswith(base) and u.endswith(".wasm") for u in request_log.urls), request_log.urls
    wait_controlled(page)
    # every file a visit loads is in one cache named after the build; the snapshots, in the
    # page's own cache once it was idle
    page.wait_for_function(SNAPSHOTS_STORED_JS, timeout=WORKER_TIMEOUT)
    names = cache_names(page)
    assert len(names) == 1 and names[0].endswith(" " + builds.hash_a), names
    # (the page itself under the scope's URL, as the navigation asked for it)
    listed = ["./" if path == "index.html" else path
              for path, _ in site_files(builds.a) if not cached_on_use(path)]
    missing = [p for p in [*listed, "build.json", "static/i18n/en.json"] if not is_cached(page, p)]
    assert missing == [], f"not precached: {missing}"
    assert not is_cached(page, "static/i18n/fr.json")  # cached when chosen

    # the network goes away: the browser is offline and the server stopped
    server.stop()
    ctx.set_offline(True)
    responses: list[Any] = []
    failed: list[str] = []
    ctx.on("response", lambda r: responses.append(r))
    ctx.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure}, {r.resource_type})"))
    page.reload()
    wait_ready(page)
    # both from their snapshot, which the service worker cached after the first visit
    assert page.evaluate("() => document.documentElement.dataset.boot") == "snapshot"
    page.wait_for_function("() => window.__workerReady !== null", timeout=WORKER_TIMEOUT)
    assert page.evaluate("() => window.__workerReady") == "snapshot"
    # a hint: the solver worker boots offline too
    page.locator(".actionbar [data-action=hint]").click()
    hint = page.locator("[data-panel=hint]")
    expect(hint).to_have_attribute("data-state", "found", timeout=WORKER_TIMEOUT)
    # and moves to the win: the deal as its shared link has it two moves from the end, opened in
    # this runtime (as a reload does, without a boot: the boots are checked above), then played
    game, lines = Game(deal=1), solution_lines(1)
    for line in lines[:-2]:
        game.play(Move.parse(line))
    page.evaluate("(q) => { document.documentElement.dataset.state = 'loading'; window.freecellRestart(q); }",
                  game_link(game))
    wait_ready(page)
    expect_game(page, game)
    for line in lines[-2:]:
        try:
            play_move_on_page(page, game, Move.parse(line))
        except AssertionError as e:
            raise AssertionError(f"move {line} offline: {e}") from None
    assert game.is_won()
    expect(page.locator("[data-panel=win]")).to_be_visible(timeout=STEP_TIMEOUT)

    assert failed == [], f"requests that failed offline: {failed}"
    web = [r for r in responses if r.url.startswith("http")]
    assert web, "no response seen"
    not_from_sw = [r.url for r in web if not r.from_service_worker]
    assert not_from_sw == [], f"answered by something else than the service worker: {not_from_sw}"
    # (the snapshots are read from the service worker's cache itself, never requested: both
    # booted from them, above)
    for wanted in ("static/solver-worker.js", "vendor/pyodide/pyodide.asm.wasm", "freecell.zip"):
        assert any(r.url.endswith(wanted) for r in web), f"{wanted} never requested offline"
    assert page.evaluate("() => window.__csp") == []
    # nothing said on the console but for information, on the first visit, offline, or by a worker
    said = [line for line in request_log.console if not line.startswith(("info: ", "log: ", "debug: "))]
    assert said == [], said


# --- updates ---------------------------------------------------------------------------------


# Look for a new version and follow its install to the end: "installed", or
# "redundant" when it failed ("gone" when it failed before the page heard of it).
UPDATE_JS = """
async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const found = new Promise((resolve) => reg.addEventListener('updatefound', () => resolve(reg.installing)));
  await reg.update();
  const worker = await found;
  if (!worker) return reg.waiting ? 'installed' : 'gone';
  return await new Promise((resolve) => {
    const check = () => {
      if (worker.state === 'installed' || worker.state === 'redundant') resolve(worker.state);
    };
    worker.addEventListener('statechange', check);
    check();
  });
}
"""


def test_an_update_waits_for_the_player_then_the_page_runs_the_new_build(
    open_context: Any, server: Server, builds: Builds
) -> None:
    url = deal_url(server.start(builds.a), 617)
    ctx = open_context()
    page = ctx.new_page()
    open_page(page, url)
    wait_controlled(page)
    assert served_build(page) == builds.hash_a

    # a deploy half done (B's service worker, one of A's files): never installed
    server.stop()
    server.start(builds.b_half)
    assert run_async(page, UPDATE_JS, timeout=INSTALL_TIMEOUT) in ("redundant", "gone")
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).waiting") is None
    assert [n.rsplit(" ", 1)[1] for n in cache_names(page)] == [builds.hash_a]
    expect(banner(page)).to_have_count(0)

    # B, whole: found on the next visit, installed, announced, not taken yet
    server.stop()
    server.start(builds.b)
    page.reload()
    wait_ready(page)
    expect(banner(page)).to_be_visible(timeout=INSTALL_TIMEOUT)
    assert served_build(page) == builds.hash_a
    expect(page.locator("meta[name=freecell-test-build]")).to_have_count(0)
    # not now: the banner goes; a reload still runs A, and offers B again
    banner(page).locator("[data-action=dismiss-update]").click()
    expect(banner(page)).to_be_hidden()
    page.reload()
    wait_ready(page)
    expect(page.locator("meta[name=freecell-test-build]")).to_have_count(0)
    assert served_build(page) == builds.hash_a
    expect(banner(page)).to_be_visible(timeout=STEP_TIMEOUT)
    assert sorted(n.rsplit(" ", 1)[1] for n in cache_names(page)) == sorted([builds.hash_a, builds.hash_b])

    # on a phone: the banner fits the screen
    page.set_viewport_size({"width": 390, "height": 844})
    box = banner(page).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] >= 0, box
    shots = os.environ.get("FREECELL_SCREENSHOTS")  # a folder, to look at the banner
    if shots:
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(Path(shots) / f"update-banner-390x844-{scheme}.png"))

    # a game in progress: two moves, one undone (so there is a redo too)
    page.set_viewport_size({"width": 1280, "height": 800})
    game = Game(617)
    for _ in range(2):
        play_move_on_page(page, game, next(m for m in game.legal_moves() if m.dst.kind != FOUNDATION))
    page.locator(".actionbar [data-action=undo]").click()
    expect(page.locator("[data-status=moves]")).to_have_attribute("data-value", "1")

    # the player agrees: the page reloads on B
    with page.expect_navigation(timeout=INSTALL_TIMEOUT):
        banner(page).locator("[data-action=update]").click()
    wait_ready(page)
    expect(page.locator("meta[name=freecell-test-build]")).to_have_count(1)
    assert served_build(page) == builds.hash_b
    assert [n.rsplit(" ", 1)[1] for n in cache_names(page)] == [builds.hash_b]
    expect(banner(page)).to_have_count(0)
    expect(page.locator("[data-status=deal]")).to_have_attribute("data-value", "617")
    # the game in progress survived the update, with its undo and redo
    expect(page.locator("[data-status=moves]")).to_have_attribute("data-value", "1")
    expect(page.locator(".actionbar [data-action=redo]")).to_be_enabled()
    page.locator(".actionbar [data-action=undo]").click()
    expect(page.locator("[data-status=moves]")).to_have_attribute("data-value", "0")


# --- what is never cached ----------------------------------------------------------------------


FETCH_JS = """
async (path) => {
  const r = await fetch(path);
  return {status: r.status, body: await r.text()};
}
"""


def expect_errors_and_partial_answers_never_cached(page: Any, server: Server) -> None:
    """On a page the service worker controls: an error, a partial answer or another content for a
    file is never cached; the whole file is, and is then served without the server."""
    # a file that is not there: 404, passed on, not cached
    assert page.evaluate(FETCH_JS, "./static/missing.json")["status"] == 404
    assert not is_cached(page, "static/missing.json")

    # a file of the build cached on use (a language not chosen: the page is in English)
    # comes in only whole and unchanged; so does one that left the cache
    path = "static/i18n/fr.json"
    assert not is_cached(page, path)
    for status, body in ((500, b"broken"), (404, b"gone"), (206, b'{"a'), (200, b"{}")):
        FaultyHandler.faults = {"/" + path: (status, body)}
        got = page.evaluate(FETCH_JS, "./" + path)
        assert (got["status"], got["body"]) == (status, body.decode())
        assert not is_cached(page, path), f"a {status} answer ({body!r}) was cached"
    FaultyHandler.faults = {}
    got = page.evaluate(FETCH_JS, "./" + path)
    assert got["status"] == 200 and re.search(r'"action\.new"', got["body"])
    assert is_cached(page, path)
    # from then on it is served without the server
    server.stop()
    assert page.evaluate(FETCH_JS, "./" + path)["body"] == got["body"]


REGISTER_SPY_JS = """
window.__registered = [];
if (typeof ServiceWorkerContainer !== "undefined") {
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (...args) {
    window.__registered.push(String(args[0]));
    return register.apply(this, args);
  };
}
"""


def test_an_embedded_page_registers_nothing_and_offers_no_install_and_no_error_is_cached(
    open_context: Any, server: Server, builds: Builds
) -> None:
    server.start(builds.a)
    ctx = open_context()
    ctx.add_init_script(REGISTER_SPY_JS)
    page = ctx.new_page()
    open_page(page, server.url + "?deal=1&embed=1")
    # offline.js acts when the page turns ready (a mutation observer: done by now)
    expect(page.locator("link[rel=manifest]")).to_have_count(0)
    assert page.evaluate("() => window.__registered") == []
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    # the same page, not embedded, registers sw.js and links the manifest
    open_page(page, server.url + "?deal=1")
    expect(page.locator("link[rel=manifest]")).to_have_count(1)
    assert page.evaluate("() => window.__registered") == ["./sw.js"]
    # then, in control of that page, the service worker caches whole answers only (here, not in a
    # test of its own: a first boot less)
    wait_controlled(page)
    expect_errors_and_partial_answers_never_cached(page, server)
