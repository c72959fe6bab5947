"""What every test of the suite shares: the repository on the import path, and the browser.

* The repository's root is importable (``freecell``, ``build``, ``builder``,
  ``tests.support``), whichever folder pytest starts from.
* ``browser_type_launch_args`` (pytest-playwright's): Debian's
  ``/usr/bin/chromium`` when it exists (Playwright cannot download its own
  browsers everywhere), else Playwright's Chromium; headless, no sandbox, no
  GPU, no background traffic (``builder.browsers.chromium_launch_args``), and
  no request that leaves the machine (``NOTHING_LEAVES``), and WebAssembly
  that V8 optimises later than players' browsers do (``LATER_TIER_UP``).  Its
  ``wait_for_function`` polls every ``POLL_MS``, not at every frame.  The
  Chromium tests (``tests/browser/``) and the cross-engine ones
  (``tests/engines/``) run in it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    from builder.browsers import chromium_launch_args

    ours = chromium_launch_args()
    args = {**browser_type_launch_args, **{k: v for k, v in ours.items() if k != "args"}}
    args["args"] = [*browser_type_launch_args.get("args", []), *ours["args"], *NOTHING_LEAVES, *LATER_TIER_UP]
    return args


# Nothing the tests' Chromium asks for leaves the machine: every request to another host goes to a
# proxy that is not there (port 9, discard: refused) and fails; Chromium never proxies loopback
# (127.0.0.1, localhost, [::1]).  The browser tests also log and fail every such request
# (tests/browser/conftest.py).  (A Playwright route per context did this before: it intercepted
# every request, about 0.2 CPU-s a page load in Chromium's browser and network processes, and
# turned the HTTP cache off.)
NOTHING_LEAVES = ["--proxy-server=http://127.0.0.1:9"]


# V8 compiles WebAssembly twice: at once with its baseline compiler (Liftoff), then each function
# that has run enough again with its optimising one (TurboFan), on background threads.  A test's
# page lives seconds, and a first boot spent 2 CPU-s on that second compile (of 7.5 to 8), most of
# it for code the test no longer runs.  With the budget 55 times the default (1.8 million), a page
# that runs for long (the shared pages, a worker's long proof) still has its hot functions
# optimised.  The same code runs either way; only when it becomes faster changes.  Measured here
# (2026-12-07, the solver run paused, two workers): the first-visit files (test_early, test_boot,
# test_persist, test_tabs) 203 to 214 CPU-s, now 167 to 175; the shared page's (test_settings,
# test_room, test_page) 180 to 183, now 176 to 180; Liftoff alone (``--liftoff-only``) made the
# shared pages' 13% slower.  Players' browsers and the benchmarks (bench/) keep V8's default.
LATER_TIER_UP = ["--js-flags=--wasm-tiering-budget=100000000"]


# ``page.wait_for_function`` (and a frame's) polls every 20 ms here, not at every animation frame
# (Playwright's default, ``polling="raf"``): a wait at each frame makes Chromium produce frames the
# whole time (its compositor, display compositor and the page's frame), 0.09 to 0.14 CPU-s a second
# of waiting against 0.02 to 0.05 (measured on a page at rest, 2026-12-07); the suite waits so
# about 200 s.  A wait that gives ``polling`` keeps it.
POLL_MS = 20


def _poll_by_default(method: Any) -> Any:
    def wait_for_function(self: Any, expression: str, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("polling", POLL_MS)
        return method(self, expression, *args, **kwargs)

    wait_for_function.__doc__ = method.__doc__
    return wait_for_function


def _install_polling() -> None:
    try:
        from playwright.sync_api import Frame, Page
    except ImportError:  # the browser tests fail to import on their own, with Playwright's reason
        return
    for cls in (Page, Frame):
        if not getattr(cls.wait_for_function, "_freecell_polling", False):
            cls.wait_for_function = _poll_by_default(cls.wait_for_function)  # type: ignore[method-assign]
            cls.wait_for_function._freecell_polling = True  # type: ignore[attr-defined]


_install_polling()
