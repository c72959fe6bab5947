"""The page's side of the solver worker: requests with ids, stale replies dropped.

One module worker (``static/solver-worker.js``) runs the solver under its own
Pyodide.  It is started once the page's runtime is up (so the runtime files
come from the cache, not downloaded twice).  Every request carries an id and
the position it is about; a reply whose id is not the current one is dropped.
A worker that reports a fatal error, or sends nothing for
:data:`SILENCE_MS` while it owes a reply, is terminated and replaced after a
growing delay, and the request it owed is sent again; the page is told
(``on_unavailable(first, dead)``) so that it says "hint unavailable" at most
once.  After :data:`MAX_FAILURES` failures in a row the client gives up and
answers every request with an error at once: play goes on without hints.
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
MAX_FAILURES = 4  # in a row, without a result in between: then hints stay off
FIRST_RETRY_MS = 500  # doubled after each failure

Reply = dict[str, Any]


class SolverClient:
    def __init__(self, on_unavailable: Callable[[bool, bool], None]) -> None:
        self.worker: Any = None
        self.ready = False
        self.next_id = 1
        self.current: int | None = None
        self.callback: Callable[[Reply], None] | None = None
        self.pending: str | None = None  # the request waiting for the worker to be ready
        self.on_unavailable = on_unavailable
        self.told_unavailable = False
        self.restarts = 0
        self.failures = 0
        self.dead = False
        self.last_text: str | None = None
        self._watchdog: Any = None
        self._on_message = create_proxy(self._message)
        self._on_error = create_proxy(self._error)

    # --- the worker -----------------------------------------------------
    def start(self) -> None:
        opts = to_js({"type": "module", "name": "freecell-solver"}, dict_converter=Object.fromEntries)
        try:
            self.worker = window.Worker.new(WORKER_URL, opts)
        except Exception:  # e.g. a sandboxed frame with an opaque origin refuses workers
            self.worker = None
            self.dead = True  # no hints; play goes on
            callback = self.callback
            self.current, self.callback, self.pending = None, None, None
            first = not self.told_unavailable
            self.told_unavailable = True
            self.on_unavailable(first, True)
            if callback is not None:
                callback({"type": "error", "message": "no solver"})
            return
        self.worker.addEventListener("message", self._on_message)
        self.worker.addEventListener("error", self._on_error)
        self.ready = False

    def restart(self) -> None:
        """Replace a worker that crashed or stopped answering (after a growing delay)."""
        if self.worker is not None:
            self.worker.removeEventListener("message", self._on_message)
            self.worker.removeEventListener("error", self._on_error)
            self.worker.terminate()
            self.worker = None
        self.ready = False
        self._disarm()
        self.restarts += 1
        self.failures += 1
        first = not self.told_unavailable
        self.told_unavailable = True
        if self.current is not None and self.pending is None:
            self.pending = self.last_text  # owed: ask the next worker again
        if self.failures > MAX_FAILURES:
            self.dead = True
            callback = self.callback
            self.current, self.callback, self.pending = None, None, None
            self.on_unavailable(first, True)
            if callback is not None:
                callback({"type": "error", "message": "no solver"})
            return
        self.on_unavailable(first, False)
        delay = FIRST_RETRY_MS * 2 ** (self.failures - 1)
        window.setTimeout(create_once_callable(lambda *_: self.start()), delay)

    def _error(self, _event: Any) -> None:
        if self.worker is not None:
            self.restart()

    # --- requests ---------------------------------------------------------
    def solve(self, pos: Position, rules: Rules, budget_ms: int,
              callback: Callable[[Reply], None]) -> int:
        """Ask for a verdict on ``pos``; any earlier request is cancelled."""
        rid = self.next_id
        self.next_id += 1
        if self.dead:
            callback({"type": "error", "id": rid, "message": "no solver"})
            return rid
        self.current = rid
        self.callback = callback
        text = json.dumps({"type": "solve", "id": rid, "board": pos.to_text(),
                           "rules": rules.to_json(), "budget_ms": budget_ms})
        self.last_text = text
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
        if self.current is not None and self.worker is not None:
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
            if kind == "result":
                self.failures = 0
            callback = self.callback
            self.current = None
            self.callback = None
            if callback is not None:
                callback(msg)
