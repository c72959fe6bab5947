"""Fixtures of the browser tests: the built site on localhost, Chromium, guarded pages.

* ``site`` (session): builds ``dist/`` once with ``build.build()`` and serves it
  from a thread on a free 127.0.0.1 port; its value is the base URL, ending in
  ``/``.  With ``FREECELL_TEST_DIST=/some/dir`` in the environment that
  directory is served as it is, without building (to try the tests against
  another build).
* the browser is Debian's Chromium, headless and quiet (``tests/conftest.py``);
* ``open_context``: a factory of browser contexts (``open_context(has_touch=True)``)
  whose every request is logged and checked: a URL that is not on 127.0.0.1 /
  localhost (``data:`` and ``blob:`` are fine) fails the test at teardown (and
  fails itself: ``tests/conftest.py``'s ``NOTHING_LEAVES``), and so does an
  uncaught page error or a PyScript error box (``.py-error``).  ``fresh_page``
  is a page of such a context, 1280x800: a real first boot of the page (Pyodide
  and the solver worker).
* ``page``: the shared page.  One page of one guarded context is booted once
  for the whole run; each test gets it with its storage cleared, reduced
  motion (a test marked ``motion`` gets the glides), its size back to
  1280x800 and nothing of the last test's faked visibility, and
  :func:`helpers.open_page` starts the game a URL asks for in it without
  booting again (``window.freecellRestart``: the page object is started
  anew in the same runtime, with the same solver worker).  The same checks
  apply (no request off the machine, no page error, no PyScript error box)
  to what happened during the test.  A test that must see a real boot or a
  reload uses ``fresh_page`` or ``open_context``.
* ``returning_tab()``: a new tab of the shared page's browser, for a test that needs a page of
  its own (an init script, a route) but not a first visit: a returning player's, whose page and
  worker boot from the snapshots the shared page cached, from the HTTP cache it filled (1.5 to 2
  CPU-s less than a first boot in a new context: a new tab still compiles the WebAssembly).
  The shared page, reset, stays open behind it (another tab of the same browser: the same
  localStorage, emptied); the same checks apply to the tab, which is closed after the test.
* ``touch_page``: the same for a phone (a touch screen, a mobile browser), its
  own shared page, booted once for the touch tests.
* the solver workers of all these pages do not shorten solutions in idle time
  (``NO_SHORTENING_JS``: up to 3 s of CPU after each solution, which only the
  tests marked ``shortening`` look at; they get a page of their own whose
  worker shortens as a player's does).

Playwright is a test requirement (requirements-dev.txt): without it these tests
fail to import, on purpose, rather than being skipped without a word.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
VIEWPORT = {"width": 1280, "height": 800}


# Chromium's renderer crashes now and then while Pyodide boots on a slow or loaded machine ("Target
# crashed": 1 in 3 fresh-clone runs here on 2026-12-06): SIGSEGV on a guard page, as V8's WebAssembly
# trap handler uses (with --js-flags=--no-wasm-trap-handler, 3 workers on 2 cores: no crash, against 15
# without; ../shared/PLATFORM.md).  The tests keep the players' configuration: a browser test whose
# page crashed runs once more (pytest-rerunfailures; the summary counts the reruns), and no other
# failure is run again.
CRASHED = "Target crashed"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=[CRASHED]))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A shared page the next test does not use is left with its solver worker idle
    (:func:`helpers.rest_solver`)."""
    yield
    for name in ("page", "touch_page"):
        pg = getattr(item, "funcargs", {}).get(name)
        if pg is None or (nextitem is not None and name in getattr(nextitem, "fixturenames", ())):
            continue
        from .helpers import is_shared, rest_solver

        if is_shared(pg) and restartable(pg):
            try:
                rest_solver(pg)
            except Exception as e:  # closed: the next test that uses it boots it again
                print(f"the shared page could not start deal 1 after {item.nodeid}: {e}")
                with contextlib.suppress(Exception):
                    pg.close()


def is_local(url: str) -> bool:
    """Whether a request URL stays on this machine (data: and blob: never leave it)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob"):
        return True
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return False
    host = parts.hostname or ""
    return host in LOCAL_HOSTS or f"[{host}]" in LOCAL_HOSTS


# --- the site ------------------------------------------------------------------


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    import build  # the repository's build.py: build() and the Handler (MIME types, no-cache)

    given = os.environ.get("FREECELL_TEST_DIST")
    dist = Path(given).resolve() if given else build.build()
    with build.serving(dist) as url:
        yield url


# --- the browser ---------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # No service worker unless a test asks for one (test_offline.py does, with
    # @pytest.mark.browser_context_args(service_workers="allow")): requests it
    # answers would bypass the tests' routes, and each context would install it.
    return {**browser_context_args, "viewport": VIEWPORT, "locale": "en-GB", "service_workers": "block"}


# The solver worker started without its shortening in idle time (``#shorten=0`` on its address, see
# static/solver-worker.js): up to 3 s of CPU after each solution, which no test but those marked
# ``shortening`` looks at (tests/browser/test_par.py), as the glides are looked at only where
# marked ``motion``.
NO_SHORTENING_JS = r"""
(() => {
  const Native = window.Worker;
  if (!Native) return;
  window.Worker = class extends Native {
    constructor(url, opts) {
      const text = String(url);
      super(text.includes('solver-worker') && !text.includes('#') ? text + '#shorten=0' : url, opts);
    }
  };
})();
"""


def shortening(request: pytest.FixtureRequest) -> bool:
    """Whether a test's pages' solver workers shorten solutions in idle time (marked ``shortening``)."""
    return request.node.get_closest_marker("shortening") is not None


def motion(request: pytest.FixtureRequest) -> str:
    """The ``reduced_motion`` a test's pages have: ``reduce``, or ``no-preference`` if it is marked
    ``motion``.  The same moves, without the glides that Playwright's clicks would wait out (a card
    is clicked once it stands still); the motion is tested where it is the point
    (tests/browser/test_motion.py, the speed setting)."""
    return "no-preference" if request.node.get_closest_marker("motion") is not None else "reduce"


class RequestLog:
    """Every request of a context, the ones that would leave the machine, and errors."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.foreign: list[str] = []
        self.page_errors: list[str] = []
        self.console: list[str] = []

    def on_request(self, request: Any) -> None:
        url = request.url
        self.urls.append(url)
        if not is_local(url):
            self.foreign.append(url)

    def watch_page(self, page: Any) -> None:
        page.on("pageerror", lambda err: self.page_errors.append(error_text(err)))
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}"))


@pytest.fixture
def request_log() -> RequestLog:
    return RequestLog()


@pytest.fixture
def open_context(new_context: Callable[..., Any], request_log: RequestLog,
                 request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """``open_context(**kwargs)``: a guarded browser context (see the module doc)."""
    contexts: list[Any] = []

    def _open(**kwargs: Any) -> Any:
        kwargs.setdefault("reduced_motion", motion(request))
        ctx = new_context(**kwargs)
        if not shortening(request):
            ctx.add_init_script(NO_SHORTENING_JS)
        ctx.on("request", request_log.on_request)
        ctx.on("page", request_log.watch_page)
        # (nothing leaves the machine even when the check below fails the test: NOTHING_LEAVES)
        contexts.append(ctx)
        return ctx

    yield _open

    problems = check_log(request_log, [pg for ctx in contexts for pg in ctx.pages])
    if request_log.console:
        print("browser console:\n  " + "\n  ".join(request_log.console[-200:]))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def check_log(log: RequestLog, pages: list[Any]) -> list[str]:
    """What went wrong: requests off the machine, page errors, PyScript error boxes."""
    problems = []
    if log.foreign:
        problems.append("requests that leave localhost:\n  " + "\n  ".join(sorted(set(log.foreign))))
    if log.page_errors:
        problems.append("uncaught page errors:\n  " + "\n  ".join(log.page_errors))
    for pg in pages:
        if pg.is_closed():
            continue
        try:
            boxes = pg.locator(".py-error").all_inner_texts()
        except Exception:  # the page is gone or navigating; nothing to read
            boxes = []
        if boxes:
            problems.append("PyScript error boxes on the page:\n  " + "\n  ".join(boxes))
    return problems


@pytest.fixture
def fresh_page(open_context: Callable[..., Any]) -> Any:
    """A fresh page (1280x800) in a guarded context: a real first boot."""
    return open_context().new_page()


class Shared:
    """The one page booted for the whole run, and the log of the test using it now."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.log = RequestLog()
        self.page: Any = None

    def on_request(self, request: Any) -> None:
        self.log.on_request(request)

    def on_page_error(self, err: Any) -> None:
        self.log.page_errors.append(error_text(err))

    def on_console(self, msg: Any) -> None:
        self.log.console.append(f"{msg.type}: {msg.text}")


def _shared_context(browser: Any, args: dict[str, Any], site: str,
                    before: str | None = None) -> Iterator[Shared]:
    """A context whose one page is booted when a test first needs it, then kept (see ``page``);
    ``before``: an address of the site opened first (a page to go back to)."""
    from .helpers import RECORDER_JS, mark_shared, wait_ready

    context = browser.new_context(**args)
    out = Shared(context)
    context.on("request", out.on_request)
    context.add_init_script(NO_SHORTENING_JS)  # never marked "shortening": its tests get their own page
    context.add_init_script(RECORDER_JS)
    context.clock.install()  # a clock the tests can pause and run (it flows as usual till then)

    def boot() -> Any:
        pg = context.new_page()
        pg.on("pageerror", out.on_page_error)
        pg.on("console", out.on_console)
        if before is not None:
            pg.goto(site + before)
        pg.goto(site + "?deal=1")
        wait_ready(pg)
        mark_shared(pg, site)
        return pg

    out.boot = boot  # type: ignore[attr-defined]
    yield out
    context.close()


@pytest.fixture(scope="session")
def shared(browser: Any, browser_context_args: dict[str, Any], site: str) -> Iterator[Shared]:
    yield from _shared_context(browser, browser_context_args, site)


@pytest.fixture(scope="session")
def shared_touch(browser: Any, browser_context_args: dict[str, Any], site: str) -> Iterator[Shared]:
    """The shared page of a phone (a touch screen, a mobile browser): a small file of the site
    opened before it, a page that a swipe which navigated would go back to."""
    args = {**browser_context_args, "has_touch": True, "is_mobile": True}
    yield from _shared_context(browser, args, site, before="static/README.txt")


_RESET_JS = """
() => {
  for (const name of ['visibilityState', 'hidden']) delete document[name];
  try { localStorage.clear(); sessionStorage.clear(); } catch (e) { /* refused: nothing to clear */ }
  window.scrollTo(0, 0);
  if (window.__fc) window.__fc.reset();
  // the keyboard starts from the top of the page again, as after a load
  const start = document.createElement('span');
  start.tabIndex = -1;
  document.body.prepend(start);
  start.focus();
  start.blur();
  start.remove();
  return matchMedia('(prefers-reduced-motion: reduce)').matches;
}
"""


def error_text(err: Any) -> str:
    """An uncaught page error, with where it was thrown (the first lines of its stack)."""
    stack = [line.strip() for line in str(getattr(err, "stack", "") or "").splitlines()[1:4]]
    return " | ".join([str(err), *stack])


def restartable(pg: Any) -> bool:
    """Whether the shared page can start a new game without a boot (not closed, not crashed)."""
    if pg is None or pg.is_closed():
        return False
    try:
        return bool(pg.evaluate("() => typeof window.freecellRestart") == "function")
    except Exception as e:  # its renderer crashed: a new boot
        if CRASHED not in str(e):
            raise
        return False


@pytest.fixture
def page(request: pytest.FixtureRequest, shared: Shared, request_log: RequestLog,
         open_context: Callable[..., Any]) -> Iterator[Any]:
    """The shared page, reset for this test (see the module doc); ``open_page`` starts a game in it.

    A test marked ``browser_context_args(...)`` (a locale, service workers)
    gets a fresh page of a context with those arguments instead.
    """
    if request.node.get_closest_marker("browser_context_args") is not None or shortening(request):
        yield open_context().new_page()
        return
    yield from _reset_shared(request, shared, request_log)


@pytest.fixture
def returning_tab(page: Any, request_log: RequestLog) -> Iterator[Callable[[], Any]]:
    """``returning_tab()``: a new tab of the shared page's browser, a returning player's visit (see
    the module doc); each is closed after the test."""
    from .helpers import is_shared

    tabs: list[Any] = []
    shared = is_shared(page)

    def _open() -> Any:
        tab = page.context.new_page()  # (a test marked with context arguments: a tab of its context)
        if shared:
            tab.bring_to_front()  # (a tab behind gets no animation frames)
            request_log.watch_page(tab)
        tabs.append(tab)
        return tab

    yield _open
    if not shared:  # (its context is checked and closed as a whole: ``open_context``)
        return
    for tab in tabs:
        if tab.is_closed():
            continue
        problems = check_log(RequestLog(), [tab])  # its error boxes (its errors are in request_log)
        tab.close()
        request_log.page_errors.extend(problems)  # failed by ``page``'s teardown, with the rest
    if tabs and not page.is_closed():
        page.bring_to_front()  # the shared page in front again, with its animation frames


@pytest.fixture
def touch_page(request: pytest.FixtureRequest, shared_touch: Shared,
               request_log: RequestLog) -> Iterator[Any]:
    """The shared page of a phone (``shared_touch``), reset for this test as ``page`` is."""
    yield from _reset_shared(request, shared_touch, request_log)


def _reset_shared(request: pytest.FixtureRequest, shared: Shared, request_log: RequestLog) -> Iterator[Any]:
    pg = shared.page
    if not restartable(pg):
        if pg is not None and not pg.is_closed():
            pg.close()
        pg = shared.page = shared.boot()  # type: ignore[attr-defined]
    for other in [p for p in shared.context.pages if p is not pg]:
        other.close()  # a second tab a test opened (a crashed one would stop the context's clock)
    shared.log = request_log
    if pg.viewport_size != VIEWPORT:  # (known here: no round trip; a resize lays out and paints anew)
        pg.set_viewport_size(VIEWPORT)
    pg.clock.resume()
    pg.mouse.up()
    reduced = pg.evaluate(_RESET_JS)
    if reduced != (motion(request) == "reduce"):  # (a change of media restyles the whole document)
        pg.emulate_media(reduced_motion=motion(request))
    yield pg
    shared.log = RequestLog()
    problems = check_log(request_log, [pg])
    if request_log.console:
        print("browser console:\n  " + "\n  ".join(request_log.console[-200:]))
    if problems:
        shared.page = None  # the next test starts from a new boot
        pg.close()
        pytest.fail("\n".join(problems), pytrace=False)
