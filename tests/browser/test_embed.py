"""The game embedded in another site's page, in real Chromium.

A tiny host page is served by a second local server (plain files, without the
game's headers), on another port (so the game is a cross-origin frame), under
two names:

* ``127.0.0.1``: the same site as the game; the frame keeps its storage;
* ``localhost``: another site; this Chromium refuses storage to third-party
  frames (``localStorage`` throws ``SecurityError``, IndexedDB is refused),
  which is what an embedding on someone else's site gets.

In both the frame (``?embed=1&host=<host origin>``) must boot, play a move,
find a hint in its solver worker (so the worker runs without cross-origin
isolation and without storage), tell the host ``started`` with the fixed
message shape, and ignore every message that is not a documented command
from an allowed origin.  The host page records what it receives
(``window.__msgs``); an init script in every frame counts the messages the
frame receives (``window.__received``), so a test knows a message has been
handled before it looks at the table, and the commands obeyed (``window.__addresses``: each
sets the address once).

The helpers of ``helpers.py`` work on the frame through :class:`InFrame`
(the frame's DOM, the top page's mouse): the frame sits at the top left of
the host page without a border, so both have the same coordinates.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from freecell.game import Game
from freecell.piles import CELL, Move
from freecell.position import Position
from freecell.ui.address.link import game_link

from .helpers import (
    READY_TIMEOUT,
    STEP_TIMEOUT,
    card_point,
    expect_layout,
    expect_status,
    pile_point,
    play_move_on_page,
    wait_ready,
)

pytestmark = pytest.mark.browser

DEAL = 617
FIRST_MOVE = Move.parse("82")  # QH onto KS: the worker answers in a few hundred nodes
HINT_TIMEOUT = 150_000  # ms: the worker boots its own Pyodide after the frame's, slow on a busy machine

HOST_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>host</title>
<style>html, body {{ margin: 0; padding: 0; }}
iframe {{ display: block; border: 0; width: 390px; height: 600px; }}</style></head>
<body><iframe id="game" src="{src}" title="FreeCell"></iframe>
<script>
window.__msgs = [];
addEventListener("message", (e) => {{ window.__msgs.push({{origin: e.origin, data: e.data}}); }});
window.sendToGame = (data) => document.getElementById("game").contentWindow.postMessage(data, "*");
</script></body></html>
"""

FRAME_JS = """
if (window.top !== window) {
  window.__received = 0;
  addEventListener("message", () => { window.__received += 1; });
  window.__addresses = 0;  // each command obeyed sets the address once
  const real = history.replaceState.bind(history);
  history.replaceState = (...args) => { window.__addresses += 1; return real(...args); };
}
"""


class InFrame:
    """A frame seen as a page by the helpers: its own DOM, the top page's mouse."""

    def __init__(self, page: Any, frame: Any) -> None:
        self._frame = frame
        self.mouse = page.mouse
        self.touchscreen = page.touchscreen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._frame, name)


class HostHandler(http.server.SimpleHTTPRequestHandler):
    """The host's pages: plain files, none of the game's headers (its policy would forbid the frame)."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def host_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """Another local server, on another port, for the host pages."""
    root = tmp_path_factory.mktemp("host")
    handler = functools.partial(HostHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name="host-server", daemon=True)
    thread.start()
    try:
        yield root, int(httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def host_page(host_server: tuple[Path, int], site: str, host_name: str, name: str,
              allowed: str | None = None) -> tuple[str, str]:
    """Write a host page; its URL and its origin.  ``allowed``: the ``host=`` given to the game."""
    root, port = host_server
    origin = f"http://{host_name}:{port}"
    src = f"{site}?deal={DEAL}&embed=1&host={quote(allowed or origin, safe='')}"
    (root / f"{name}.html").write_text(HOST_HTML.format(src=src), encoding="utf-8")
    return f"{origin}/{name}.html", origin


def open_frame(page: Any, url: str, site: str) -> InFrame:
    page.goto(url)
    game_frame = page.frame_locator("#game")
    expect(game_frame.locator("html")).to_have_attribute("data-state", re.compile("ready|failed"),
                                                         timeout=READY_TIMEOUT)
    frames = [f for f in page.frames if f.url.startswith(site)]
    assert len(frames) == 1, [f.url for f in page.frames]
    frame = InFrame(page, frames[0])
    wait_ready(frame)
    return frame


def host_messages(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.__msgs"))


def send(page: Any, frame: InFrame, data: Any, as_text: bool = False) -> None:
    """Post ``data`` from the host to the game and wait until the game has handled it."""
    before = frame.evaluate("() => window.__received")
    if as_text:
        text = data if isinstance(data, str) else json.dumps(data)
        page.evaluate("(text) => window.sendToGame(text)", text)
    else:
        page.evaluate("(data) => window.sendToGame(data)", data)
    frame.wait_for_function("(n) => window.__received > n", arg=before)


def expect_started_message(page: Any, site: str) -> None:
    page.wait_for_function("() => window.__msgs.length > 0", timeout=STEP_TIMEOUT)
    msgs = host_messages(page)
    assert msgs[0]["origin"] == site.rstrip("/")
    data = msgs[0]["data"]
    assert set(data) == {"source", "type", "deal", "moves", "seconds"}, data
    assert (data["source"], data["type"], data["deal"], data["moves"]) == ("freecell", "started", DEAL, 1)
    assert isinstance(data["seconds"], int) and data["seconds"] >= 0


def expect_hint_found(frame: InFrame) -> None:
    frame.locator(".actionbar [data-action=hint]").click()
    bar = frame.locator("[data-panel=hint]")
    expect(bar).to_have_attribute("data-state", "found", timeout=HINT_TIMEOUT)
    expect(bar.locator("[data-role=hint-text]")).not_to_have_text(re.compile(r"^\s*$"))


def storage_state(frame: InFrame) -> str:
    return str(frame.evaluate(
        "() => { try { localStorage.getItem('x'); return 'ok'; } catch (e) { return e.name; } }"))


def expect_hostile_messages_ignored(page: Any, frame: InFrame, hostile: bool = True) -> None:
    """Every message but a documented command is ignored; that one works (from move 1 of DEAL).
    ``hostile=False``: that one alone (the others' handling does not depend on the host's site)."""
    html = "<img src=x onerror=\"window.__fc_pwned=1\">"
    messages: list[tuple[Any, bool]] = [
        ({"source": "freecell-host", "type": "deal", "deal": html}, False),
        ({"source": "freecell-host", "type": "deal", "deal": 11, "extra": html}, False),
        ('{"source": "freecell-host", "type": "deal", "deal": 11, "__proto__": {"x": 1}}', True),
        ({"source": "freecell", "type": "deal", "deal": 11}, False),
        ({"source": "freecell-host", "type": "deal", "deal": 0}, False),
        ({"source": "freecell-host", "type": "deal", "deal": "11"}, False),
        ({"source": "freecell-host", "type": "eval", "code": "alert(1)"}, False),
        ([["deal", 11]], False),
        ("x" * 100_000, True),
        ("[" * 100_000 + "]" * 100_000, True),
        (None, False),
    ]
    if hostile:
        for data, as_text in messages:
            send(page, frame, data, as_text)
            expect_status(frame, "deal", DEAL)
            expect_status(frame, "moves", 1)
        # a message that cannot be read as JSON at all (it refers to itself)
        before = frame.evaluate("() => window.__received")
        page.evaluate("""() => { const o = {source: "freecell-host", type: "new"}; o.self = o;
                                 window.sendToGame(o); }""")
        frame.wait_for_function("(n) => window.__received > n", arg=before)
        expect_status(frame, "deal", DEAL)
        # an extra field set to undefined (JSON.stringify would drop it): not the documented shape
        before = frame.evaluate("() => window.__received")
        page.evaluate("""() => window.sendToGame({source: "freecell-host", type: "new", extra: undefined})""")
        frame.wait_for_function("(n) => window.__received > n", arg=before)
        expect_status(frame, "deal", DEAL)
    assert frame.evaluate("() => window.__fc_pwned") is None
    assert frame.locator("body img").count() == 0
    # the one shape that is accepted, from the allowed origin: it works, and a drag held
    # meanwhile is cancelled (it does not play on the new deal)
    x, y = card_point(frame, "QH")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 15, y + 15, steps=3)
    send(page, frame, {"source": "freecell-host", "type": "deal", "deal": 5})
    expect_status(frame, "deal", 5)
    page.mouse.move(*pile_point(frame, "2"), steps=4)
    page.mouse.up()
    expect_status(frame, "moves", 0)
    expect_layout(frame, Position.deal(5))


# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize(("host_name", "storage"), [("127.0.0.1", "ok"), ("localhost", "SecurityError")],
                         ids=["same-site", "third-party-no-storage"])
def test_embedded_game_plays_hints_tells_the_host_and_ignores_the_rest(
    open_context: Any, site: str, host_server: tuple[Path, int], host_name: str, storage: str
) -> None:
    ctx = open_context()
    ctx.add_init_script(FRAME_JS)
    page = ctx.new_page()
    url, _origin = host_page(host_server, site, host_name, f"plays-{host_name}")
    frame = open_frame(page, url, site)
    assert storage_state(frame) == storage
    expect(frame.locator("html")).to_have_class(re.compile(r"(^|\s)embed(\s|$)"))
    notice = frame.locator("[data-role=notice]")
    if storage == "ok":
        expect(notice).to_be_hidden()
    else:
        expect(notice).to_be_visible()
        expect(notice).to_have_attribute("data-notice", "storage")
    game = Game(deal=DEAL)
    expect_layout(frame, game.position)
    play_move_on_page(frame, game, FIRST_MOVE)
    expect_started_message(page, site)
    expect_hint_found(frame)
    # the address inside the frame keeps the embedding parameters
    assert re.search(r"[?&]embed=1(&|$)", frame.evaluate("() => location.search"))
    assert len(host_messages(page)) == 1  # one game, one "started"
    # Share in a frame: the plain page's link, copied, or offered to copy by hand where the
    # frame may not write to the clipboard (a cross-origin frame without the permission)
    length = page.evaluate("() => history.length")
    frame.locator(".actionbar [data-action=game-menu]").click()
    expect(frame.locator("[data-panel=game]")).to_be_visible()
    # a panel in a frame adds no history entry: the host page's Back stays the host's
    assert frame.evaluate("() => history.state") is None
    assert page.evaluate("() => history.length") == length
    frame.locator("[data-panel=game] [data-action=share]").click()
    link = site + (game_link(game) or "")
    shared = frame.locator("[data-panel=share]")
    expect(shared.or_(frame.locator("[data-role=message]", has_text="Link copied"))).to_be_visible(
        timeout=STEP_TIMEOUT)
    if shared.is_visible():
        expect(shared.locator("[data-role=share-link]")).to_have_value(link)
        page.keyboard.press("Escape")
        expect(shared).to_be_hidden()
    # hostile messages, in the same frame (a boot less), then the one accepted command
    expect_hostile_messages_ignored(page, frame, hostile=storage == "ok")
    if storage == "ok":  # and a game that trusts another origin, in the same frame started again
        expect_commands_from_an_origin_not_allowed_ignored(page, frame)
    else:  # and a flood of commands, in the same frame (a boot less)
        expect_a_flood_of_commands_coalesced(page, frame)


def expect_a_flood_of_commands_coalesced(page: Any, frame: InFrame) -> None:
    """Host commands cannot flood the game (issue 24): 3,000 ``deal`` commands at once are
    coalesced, the latest deal wins, and the game still answers."""
    before = frame.evaluate("() => window.__addresses")
    received = frame.evaluate("() => window.__received")
    page.evaluate("""() => { for (let n = 1; n <= 3000; n++)
        window.sendToGame({source: "freecell-host", type: "deal", deal: 10000 + n}); }""")
    frame.wait_for_function("(n) => window.__received >= n + 3000", arg=received, timeout=STEP_TIMEOUT * 3)
    deal = frame.locator("[data-status=deal]")
    expect(deal).to_have_attribute("data-value", "13000", timeout=STEP_TIMEOUT * 3)
    obeyed = frame.evaluate("() => window.__addresses") - before
    assert 1 <= obeyed <= 100, obeyed  # far fewer than 3,000: coalesced
    game = Game(13000)
    play_move_on_page(frame, game, next(m for m in game.legal_moves() if m.dst.kind == CELL))  # it answers


def expect_commands_from_an_origin_not_allowed_ignored(page: Any, frame: InFrame) -> None:
    """The game started again (as a reload does, without booting) for another deal, trusting
    another origin than the page that embeds it: the host's commands are ignored, and what the
    game tells its host goes to that other origin only (the browser drops it)."""
    told = len(host_messages(page))
    other = 7
    query = f"?deal={other}&embed=1&host={quote('http://127.0.0.1:1', safe='')}"
    frame.evaluate("(q) => { document.documentElement.dataset.state = 'loading'; "
                   "window.freecellRestart(q); }", query)
    wait_ready(frame)
    game = Game(deal=other)
    expect_layout(frame, game.position)
    play_move_on_page(frame, game, Move.parse("1a"))
    send(page, frame, {"source": "freecell-host", "type": "deal", "deal": 5})
    send(page, frame, {"source": "freecell-host", "type": "new"})
    expect_status(frame, "deal", other)
    expect_status(frame, "moves", 1)
    expect_hint_found(frame)  # takes seconds: the "started" event would have arrived long before
    assert len(host_messages(page)) == told  # addressed to the allowed origin only
