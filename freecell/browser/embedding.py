"""Embed mode in the page: the compact layout, events to the host, its commands.

What is sent and accepted is defined (and checked) in
:mod:`freecell.ui.address.embed`; this module only moves messages.  Nothing from a
message reaches the page except through :func:`freecell.ui.address.embed.parse_command`,
whose result is a command kind and a checked deal number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from js import JSON, Array, Object, document, window
from pyodide.ffi import create_proxy, to_js

from ..game import Game
from ..ui.address.embed import Command, Commands, event, parse_command
from ..ui.address.query import EmbedRequest
from .dom import framed

MAX_COMMAND_FIELDS = 3  # source, type, deal: more is no command (parse_command)


class Embedding:
    """Messages to and from the parent page; ``on_command`` gets each command it may obey."""

    def __init__(self, req: EmbedRequest, on_command: Callable[[Command], None]) -> None:
        self.on_command = on_command
        self.req = req
        self.parent: Any = None
        self._listener: Any = None
        self._frame: Any = None  # the animation-frame callback that obeys the latest command
        self.waiting = Commands()
        self.sent: list[str] = []
        if not req.embed:
            return
        document.documentElement.classList.add("embed")
        if framed():
            self.parent = window.parent
        if self.parent is not None and req.hosts:
            self._listener = create_proxy(self.on_message)
            window.addEventListener("message", self._listener)

    @property
    def active(self) -> bool:
        return self.req.embed

    def address(self, deal: int, variant: str = "freecell") -> str:
        """The page's address for a deal (of a variant), keeping the embedding parameters."""
        params: list[tuple[str, str]] = [("deal", str(deal))]
        if variant != "freecell":
            params.append(("variant", variant))
        if self.req.embed:
            params.append(("embed", "1"))
            params += [("host", h) for h in self.req.hosts]
        return "?" + urlencode(params)

    # --- out -----------------------------------------------------------------
    def send(self, kind: str, game: Game) -> None:
        """Tell the parent page (embed mode only) that a game started or was won."""
        if self.parent is None:
            return
        msg = event(kind, game.deal, game.moves, game.elapsed())
        try:
            self.parent.postMessage(to_js(msg, dict_converter=Object.fromEntries), self.req.target)
            self.sent.append(kind)
        except Exception:
            pass  # a parent that went away, or a target origin the browser refuses

    # --- in --------------------------------------------------------------------
    def on_message(self, e: Any) -> None:
        try:
            if e.source != self.parent:
                return
            origin = str(e.origin)
            if origin not in self.req.hosts:
                return  # before its data is read: a stranger's 50 MB costs nothing (parse_command decides)
            data = e.data
            keys = None
            if isinstance(data, str):
                text = data
            elif Array.isArray(data):
                return  # a command is an object, never a list (2 million items took 2.5 s to write out)
            else:  # an object: its own keys too (JSON.stringify drops a field set to undefined)
                keys = [str(k) for k in Object.keys(data)]
                if len(keys) > MAX_COMMAND_FIELDS:
                    return
                text = str(JSON.stringify(data))
        except Exception:
            return  # data that cannot be read as JSON (a cycle, a function, ...)
        command = parse_command(origin, text, self.req.hosts, keys)
        if command is not None and self.waiting.push(command):
            if self._frame is None:
                self._frame = create_proxy(self._obey)
            window.requestAnimationFrame(self._frame)  # a flood of commands is one, the latest

    def _obey(self, _time: Any = None) -> None:
        command = self.waiting.take()
        if command is not None and self._listener is not None:
            self.on_command(command)

    def unbind(self) -> None:
        self.waiting.take()
        if self._frame is not None:
            self._frame.destroy()
            self._frame = None
        if self._listener is not None:
            window.removeEventListener("message", self._listener)
            self._listener.destroy()
            self._listener = None
