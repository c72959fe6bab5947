"""Fixtures of the cross-engine tests: one engine's tab for a whole scenario, its own server.

The scenario (``scenario.py``) is one player's visits in one engine, in order:
the first visit, a move, a hint, the service worker and the snapshots, a link
shared, then offline a reload that boots from the snapshots and plays.  Each
engine's test file is a class of its own (``test_firefox.py``,
``test_webkit.py``), so pytest-xdist runs the engines
side by side, and the class's ``tab`` is booted once.  Chromium has no class
here: the browser tests (``tests/browser/``) drive it through every one of these
steps, and ``test_offline.py`` checks its console as the scenario does (a class
``engine = "chromium"`` runs the scenario in it, a Playwright context, when a
change to the scenario itself needs a reference run).

The site is a copy of the built one with ``builder/page_hook.js`` in its head
(:func:`builder.browsers.hooked_copy`: WebDriver passes no console through),
served on a port of its own by ``build.serving``, which a test stops to go
offline.  An engine that cannot be had here is skipped with its one-line
reason (``tests/run.py`` installs them where it can, and says so when it
cannot).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from builder import browsers


class Visit:
    """The state a scenario carries from test to test: the tab, the server, the game."""

    def __init__(self, tab: browsers.Page, root: Path) -> None:
        self.tab = tab
        self.root = root
        self.url = ""
        self.game: Any = None
        self.moves: list[Any] = []
        self._server: contextlib.ExitStack | None = None
        self.failed = False

    def serve(self) -> str:
        import build

        stack = contextlib.ExitStack()
        self.url = stack.enter_context(build.serving(self.root, port=self.port))
        self._server = stack
        return self.url

    def stop_server(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None

    port = 0


@pytest.fixture(scope="session")
def built_site() -> Path:
    import build

    given = os.environ.get("FREECELL_TEST_DIST")
    return Path(given).resolve() if given else build.build()


@pytest.fixture(scope="class")
def visit(request: pytest.FixtureRequest, built_site: Path) -> Iterator[Visit]:
    engine = request.cls.engine
    reason = browsers.missing(engine)
    if reason is not None:
        pytest.skip(f"{engine} cannot be driven here: {reason}")
    # Chromium: a context of pytest-playwright's browser (a process runs one Playwright only)
    shared = request.getfixturevalue("browser") if engine == "chromium" else None
    with tempfile.TemporaryDirectory(prefix=f"site-{engine}-") as tmp, \
            browsers.open_engine(engine, shared) as tab:
        root = browsers.hooked_copy(built_site, Path(tmp) / "site")
        v = Visit(tab, root)
        v.serve()
        v.port = int(v.url.rsplit(":", 1)[1].strip("/"))
        try:
            yield v
        finally:
            v.stop_server()


@pytest.fixture
def step(visit: Visit) -> Visit:
    """The visit, for one step of the scenario: skipped once an earlier step failed."""
    if visit.failed:
        pytest.skip("an earlier step of this engine's scenario failed")
    return visit


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    visit = getattr(item, "funcargs", {}).get("step")
    if report.failed and isinstance(visit, Visit):
        visit.failed = True
