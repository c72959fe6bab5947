"""Start-up: a meaningful frame at once, a load failure with a retry, the browser's language;
the page and the solver worker boot from their memory snapshot when it is cached, and from
byte-code otherwise (nothing cached, or a snapshot that is refused), and play either way."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.sync_api import expect

import build
from builder.site import RUNTIME_SOURCE
from freecell.game import Game
from freecell.piles import Move

from .helpers import (
    READY_TIMEOUT,
    WORKER_SPY_JS,
    deal_url,
    open_page,
    play_move_on_page,
    solution_lines,
    wait_ready,
)

browser = pytest.mark.browser
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"


def _messages(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


@browser
def test_runtime_that_cannot_load_shows_a_retry(open_context: Any, site: str, request_log: Any) -> None:
    ctx = open_context()
    failing = {"on": True}

    def maybe_fail(route: Any) -> None:
        if failing["on"]:
            route.abort("connectionreset")
        else:
            route.continue_()

    ctx.route("**/pyodide.asm.wasm", maybe_fail)
    page = ctx.new_page()
    page.goto(deal_url(site, 1))
    # the frame and the loading line are there before Python is
    expect(page.locator("[data-role=loading]")).to_have_text(_messages("en")["loading"])
    expect(page.locator("html")).to_have_attribute("data-state", "failed", timeout=READY_TIMEOUT)
    box = page.locator("[data-panel=load-failed]")
    expect(box).to_be_visible()
    expect(box).to_contain_text(_messages("en")["load_failed"])
    # the failed load's own errors are expected; anything after the retry is not
    request_log.page_errors.clear()
    failing["on"] = False
    box.locator("[data-action=retry]").click()
    expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT)
    expect(page.locator("svg#table g.card")).to_have_count(52)
    # the failed first attempt leaves PyScript error boxes behind only on the old page
    expect(page.locator(".py-error")).to_have_count(0)


@browser
@pytest.mark.browser_context_args(locale="ja-JP")
def test_other_languages_fall_back_to_english(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 1))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(_messages("en")["action.new"])


# --- the snapshot boot and its fallback ------------------------------------------------------

# Whether every one of these URLs is in the Cache API (where static/runtime.mjs looks).
READY_DETAIL_JS = "() => performance.getEntriesByName('freecell:ready')[0].detail"

CACHED_JS = """
async (urls) => {
  for (const url of urls) if (!(await caches.match(url))) return false;
  return true;
}
"""

# Put the server's answer for each URL into the page's snapshot cache, over what is there.
RECACHE_JS = """
async (urls) => {
  const names = (await caches.keys()).filter((n) => n.endsWith(' snapshots'));
  const cache = await caches.open(names[0]);
  for (const url of urls) await cache.put(url, await fetch(url, {cache: 'reload'}));
}
"""

RUNTIME_JS = """
async () => (await import('./static/runtime.mjs')).runtimeInfo()
"""


class OverridingHandler(build.Handler):
    """The dev server's handler; a path in ``override`` gets those bytes (gzip-encoded) instead.

    Encoded, as the server sends the snapshots: a browser context's in-memory
    HTTP cache keeps an answer of a few MB, not one of 13.
    """

    override: ClassVar[dict[str, bytes]] = {}

    def do_GET(self) -> None:
        body = self.override.get(self.path.split("?", 1)[0])
        if body is None:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextlib.contextmanager
def _own_server(site: str) -> Iterator[tuple[str, Path]]:
    """The built site (the ``site`` fixture's) on a server of its own that can swap a file's bytes."""
    del site  # built by the fixture
    given = os.environ.get("FREECELL_TEST_DIST")
    root = Path(given).resolve() if given else build.DIST
    OverridingHandler.override = {}
    try:
        with build.serving(root, handler_class=OverridingHandler) as url:
            yield url, root
    finally:
        OverridingHandler.override = {}


def _snapshot_paths(root: Path) -> dict[str, str]:
    text = (root / RUNTIME_SOURCE).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("const BUILD = "))
    entries = json.loads(line.removeprefix("const BUILD = ").removesuffix(";"))["snapshots"]
    return {kind: "/" + entry["url"].removeprefix("../") for kind, entry in entries.items()}


def _boots(page: Any, log: list[str]) -> tuple[str, str]:
    """How the page and the worker booted (waits for the worker's ready)."""
    try:
        page.wait_for_function("() => window.__workerReady !== null", timeout=READY_TIMEOUT)
    except Exception:
        print("console of the page and the worker:\n  " + "\n  ".join(log))
        raise
    boot = page.evaluate("() => document.documentElement.dataset.boot")
    return boot, page.evaluate("() => window.__workerReady")


def _mismatched(packed: bytes) -> bytes:
    """The same snapshot, said to be of another Pyodide build (its build id changed)."""
    runs = struct.unpack_from("<I", packed, 12)[0]
    start = 16 + 8 * runs  # the first run holds the snapshot's header: magic, sizes, then the build id
    assert struct.unpack_from("<I", packed, 16)[0] == 0
    out = bytearray(packed)
    out[start + 16] ^= 0xFF
    return bytes(out)


@browser
def test_the_page_and_the_worker_boot_from_cached_snapshots_and_from_byte_code_otherwise(
    new_context: Any, site: str, request_log: Any
) -> None:
    # No route in this context: Playwright turns the HTTP cache off when routing is on.
    ctx = new_context()
    ctx.on("request", request_log.on_request)
    ctx.on("page", request_log.watch_page)
    ctx.add_init_script(WORKER_SPY_JS)
    page = ctx.new_page()
    log: list[str] = []
    page.on("console", lambda m: log.append(m.text[:300]))
    page.on("worker", lambda w: w.on("console", lambda m: log.append("worker: " + m.text[:300])))
    game = Game(deal=1)
    moves = iter(solution_lines(1))
    with _own_server(site) as (base, root):
        # embedded: no service worker, so the page itself fetches the snapshots for next time
        url = base + "?deal=1&embed=1"
        snapshots = _snapshot_paths(root)
        absolute = [base + path.lstrip("/") for path in snapshots.values()]

        # a first visit: nothing cached, the page boots from byte-code, and plays (the
        # worker, started once the page is ready, may find its snapshot stored already)
        open_page(page, url)
        assert _boots(page, log)[0] == "bytecode"
        # ... and its dataclasses took the methods the build compiled (freecell/precompiled.py)
        counts = page.evaluate(READY_DETAIL_JS)
        assert counts["compiled"] == 0 and counts["precompiled"] >= 60, counts
        play_move_on_page(page, game, Move.parse(next(moves)))
        page.wait_for_function(CACHED_JS, arg=absolute, timeout=READY_TIMEOUT, polling=250)

        # the revisit: both from their snapshot, the game as it was, and play; both keep
        # Pyodide's WebAssembly call trampoline (the build makes the snapshots where it compiles)
        page.reload()
        wait_ready(page)
        assert _boots(page, log) == ("snapshot", "snapshot")
        assert page.evaluate(READY_DETAIL_JS)["compiled"] == 0  # the classes were made in the snapshot
        info = page.evaluate(RUNTIME_JS)
        assert info["trampoline"] == "wasm"
        assert page.evaluate("() => window.__workerTrampoline") == "wasm"
        # ... and neither switches stacks (JSPI), as the snapshots were made (static/runtime.mjs)
        assert info["stackSwitching"] == "off"
        assert page.evaluate("() => window.__workerStackSwitching") == "off"
        play_move_on_page(page, game, Move.parse(next(moves)))

        # snapshots that must be refused in the cache: the page's of another build
        # ("build id mismatch"), the worker's cut short; both boot from byte-code, and play
        page_snapshot = (root / snapshots["page"].lstrip("/")).read_bytes()
        worker_snapshot = (root / snapshots["worker"].lstrip("/")).read_bytes()
        OverridingHandler.override = {snapshots["page"]: gzip.compress(_mismatched(page_snapshot), 1),
                                      snapshots["worker"]: gzip.compress(worker_snapshot[:-4096], 1)}
        page.evaluate(RECACHE_JS, absolute)
        assert page.evaluate(CACHED_JS, absolute)
        page.reload()
        wait_ready(page)
        assert _boots(page, log) == ("bytecode", "bytecode")
        play_move_on_page(page, game, Move.parse(next(moves)))
        expect(page.locator(".py-error")).to_have_count(0)
    assert request_log.foreign == [] and request_log.page_errors == []
