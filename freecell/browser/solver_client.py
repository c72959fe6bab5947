"""The page's side of the solver worker: requests with ids, stale replies dropped.

One module worker (``static/solver-worker.js``) runs the solver under its own
Pyodide.  It is started once the page's runtime is up (so the runtime files
come from the cache, not downloaded twice).  Every request carries an id and
the position it is about; a reply whose id is not the current one is dropped.
A worker that reports a fatal error, or sends nothing for
:data:`SILENCE_MS` while it owes a reply, is terminated and replaced; the page
is told once (``on_unavailable``) and play goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from js import JSON, Object, window
from pyodide.ffi import create_once_callable, create_proxy, to_js

from ..position import Position
from ..rules import Rules

SILENCE_MS = 8000
WORKER_URL = "./static/solver-worker.js"

Reply = dict[str, Any]


class SolverClient:
    def __init__(self, on_unavailable: Callable[[], None]) -> None:
        self.worker: Any = None
        self.ready = False
        self.next_id = 1
        self.current: int | None = None
        self.callback: Callable[[Reply], None] | None = None
        self.pending: str | None = None  # the request waiting for the worker to be ready
        self.on_unavailable = on_unavailable
        self.told_unavailable = False
        self.restarts = 0
        self._watchdog: Any = None
        self._on_message = create_proxy(self._message)
        self._on_error = create_proxy(self._error)

    # --- the worker -----------------------------------------------------
    def start(self) -> None:
        opts = to_js({"type": "module", "name": "freecell-solver"}, dict_converter=Object.fromEntries)
        self.worker = window.Worker.new(WORKER_URL, opts)
        self.worker.addEventListener("message", self._on_message)
        self.worker.addEventListener("error", self._on_error)
        self.ready = False

    def restart(self) -> None:
        """Replace a worker that crashed or stopped answering."""
        if self.worker is not None:
            self.worker.terminate()
        self.restarts += 1
        if not self.told_unavailable:
            self.told_unavailable = True
            self.on_unavailable()
        self.start()
        if self.current is not None and self.pending is None:
            self.current = None  # the lost request is not sent again
            self.callback = None

    def _error(self, _event: Any) -> None:
        self.restart()

    # --- requests ---------------------------------------------------------
    def solve(self, pos: Position, rules: Rules, budget_ms: int,
              callback: Callable[[Reply], None]) -> int:
        """Ask for a verdict on ``pos``; any earlier request is cancelled."""
        rid = self.next_id
        self.next_id += 1
        self.current = rid
        self.callback = callback
        text = json.dumps({"type": "solve", "id": rid, "board": pos.to_text(),
                           "rules": rules.to_json(), "budget_ms": budget_ms})
        if self.ready:
            self.worker.postMessage(text)
            self._arm()
        else:
            self.pending = text
        return rid

    def cancel(self) -> None:
        """Stop the running search; its reply, if it comes, is dropped."""
        if self.current is not None and self.ready:
            self.worker.postMessage(json.dumps({"type": "cancel", "id": self.current}))
        self.current = None
        self.callback = None
        self.pending = None
        self._disarm()

    def _arm(self) -> None:
        self._disarm()
        self._watchdog = window.setTimeout(create_once_callable(self._silent), SILENCE_MS)

    def _disarm(self) -> None:
        if self._watchdog is not None:
            window.clearTimeout(self._watchdog)
            self._watchdog = None

    def _silent(self, *_: Any) -> None:
        self._watchdog = None
        if self.current is not None:
            self.restart()

    def _message(self, event: Any) -> None:
        data = event.data
        try:
            msg = json.loads(str(JSON.stringify(data)))
        except ValueError:
            return
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "ready":
            self.ready = True
            if self.pending is not None:
                self.worker.postMessage(self.pending)
                self.pending = None
                self._arm()
            return
        if kind == "error" and msg.get("fatal"):
            self.restart()
            return
        rid = msg.get("id")
        if rid is None or rid != self.current:
            return  # a reply about a position that is no longer on the table
        if kind == "progress":
            self._arm()
            return
        if kind in ("result", "error"):
            self._disarm()
            callback = self.callback
            self.current = None
            self.callback = None
            if callback is not None:
                callback(msg)
