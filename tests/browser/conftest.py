"""Fixtures of the browser tests: the built site on localhost, Chromium, guarded pages.

* ``site`` (session): builds ``dist/`` once with ``build.build()`` and serves it
  from a thread on a free 127.0.0.1 port; its value is the base URL, ending in
  ``/``.  With ``FREECELL_TEST_DIST=/some/dir`` in the environment that
  directory is served as it is, without building (to try the tests against
  another build).
* ``browser_type_launch_args``: Debian's ``/usr/bin/chromium`` when it exists
  (Playwright cannot download its own browsers everywhere), else Playwright's
  Chromium; headless, no sandbox, no GPU, no background traffic.
* ``open_context``: a factory of browser contexts (``open_context(has_touch=True)``)
  whose every request is logged and checked: a URL that is not on 127.0.0.1 /
  localhost (``data:`` and ``blob:`` are fine) is aborted and fails the test at
  teardown, and so does an uncaught page error or a PyScript error box
  (``.py-error``).  ``page`` is a page of such a context, 1280x800.

Playwright is a test requirement (requirements-dev.txt): without it these tests
fail to import, on purpose, rather than being skipped without a word.
"""

from __future__ import annotations

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
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    import build

    ours = build.chromium_launch_args()
    args = {**browser_type_launch_args, **{k: v for k, v in ours.items() if k != "args"}}
    args["args"] = [*browser_type_launch_args.get("args", []), *ours["args"]]
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # No service worker unless a test asks for one (test_offline.py does, with
    # @pytest.mark.browser_context_args(service_workers="allow")): requests it
    # answers would bypass the tests' routes, and each context would install it.
    return {**browser_context_args, "viewport": VIEWPORT, "locale": "en-GB", "service_workers": "block"}


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
        page.on("pageerror", lambda err: self.page_errors.append(str(err)))
        page.on("console", lambda msg: self.console.append(f"{msg.type}: {msg.text}"))


@pytest.fixture
def request_log() -> RequestLog:
    return RequestLog()


@pytest.fixture
def open_context(new_context: Callable[..., Any], request_log: RequestLog) -> Iterator[Callable[..., Any]]:
    """``open_context(**kwargs)``: a guarded browser context (see the module doc)."""
    contexts: list[Any] = []

    def _open(**kwargs: Any) -> Any:
        ctx = new_context(**kwargs)
        ctx.on("request", request_log.on_request)
        ctx.on("page", request_log.watch_page)
        # Nothing may leave the machine even when the check below fails the test.
        ctx.route(lambda url: not is_local(url), lambda route: route.abort("blockedbyclient"))
        contexts.append(ctx)
        return ctx

    yield _open

    problems = []
    if request_log.foreign:
        problems.append("requests that leave localhost:\n  " + "\n  ".join(sorted(set(request_log.foreign))))
    if request_log.page_errors:
        problems.append("uncaught page errors:\n  " + "\n  ".join(request_log.page_errors))
    for ctx in contexts:
        for pg in ctx.pages:
            if pg.is_closed():
                continue
            try:
                boxes = pg.locator(".py-error").all_inner_texts()
            except Exception:  # the page is gone or navigating; nothing to read
                boxes = []
            if boxes:
                problems.append("PyScript error boxes on the page:\n  " + "\n  ".join(boxes))
    if request_log.console:
        print("browser console:\n  " + "\n  ".join(request_log.console[-200:]))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def page(open_context: Callable[..., Any]) -> Any:
    """A fresh page (1280x800) in a guarded context."""
    return open_context().new_page()
