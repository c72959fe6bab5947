"""The page's side of the solver worker: requests with ids, replies parsed once, stale ones dropped.

One module worker (``static/solver-worker.js``) runs the solver under its own
Pyodide.  It is started once the page's runtime is up (so the runtime files
come from the cache, not downloaded twice); ``<html data-worker="ready">``
says when it answers.  Every request carries an id and the position it is
about; the client knows which requests it still wants answered (the one in
flight, and one kept searching in the background: ``keep``), and drops any
other reply.  A reply is parsed against the protocol
(:func:`freecell.ui.analysis.replies.parse_reply`: shape, types, every move legal when
replayed) before anything uses it; a bad one is logged once and answered as
a failure, so the hint falls back.

A worker that reports a fatal error, or sends nothing for :data:`SILENCE_MS`
while it owes a reply, is terminated and replaced after a growing delay, and
the request it owed is sent again; the page is told (``on_unavailable(first,
dead)``) so that it says "hint unavailable" at most once.  After
:data:`MAX_FAILURES` failures in a row the client gives up and answers every
request with a failure at once: play goes on without hints.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from js import JSON, console, document, window

from ..position import Position
from ..rules import Rules
from ..ui.analysis.replies import Ask, Reply, SolverFailure, parse_reply, solve_message
from .dom import Bindings, js_object

SILENCE_MS = 8000
WORKER_URL = "./static/solver-worker.js"
MAX_SOLVED = 8  # solved requests remembered, for the worker's shorter solutions of them
MAX_FAILURES = 4  # in a row, without a result in between: then hints stay off
FIRST_RETRY_MS = 500  # doubled after each failure


class SolverClient:
    """Sends :class:`~freecell.ui.analysis.replies.Ask` requests; ``on_reply(position, reply)`` answers."""

    def __init__(self, bindings: Bindings, on_reply: Callable[[Position, Reply], None],
                 on_unavailable: Callable[[bool, bool], None]) -> None:
        self.bindings = bindings
        self.on_reply = on_reply
        self.on_unavailable = on_unavailable
        self.worker: Any = None
        self.ready = False
        self.next_id = 1
        self.jobs: dict[int, tuple[Position, Rules]] = {}  # the requests still wanted
        self.solved: dict[int, tuple[Position, Rules]] = {}  # solved requests, the newest last
        self.current: int | None = None  # the foreground one
        self.background: int | None = None
        # the requests waiting for the worker to be ready, in order: the one in flight, and the
        # one it keeps searching behind it if that one was never sent either
        self.pending: list[tuple[int, str]] = []
        self.last_text: str | None = None
        self.told_unavailable = False
        self.logged_bad = False
        self.failures = 0
        self.restarts = 0
        self.dead = False
        self._watchdog: Any = None
        self._message_proxy: Any = None
        self._error_proxy: Any = None

    def adopt(self, bindings: Bindings, on_reply: Callable[[Position, Reply], None],
              on_unavailable: Callable[[bool, bool], None]) -> None:
        """Answer another page object from now on (nothing owed to the old one is delivered)."""
        self.cancel()
        self._disarm()
        self.jobs.clear()
        self.current = self.background = None
        self.bindings, self.on_reply, self.on_unavailable = bindings, on_reply, on_unavailable

    # --- the worker -----------------------------------------------------
    def start(self) -> None:
        from pyodide.ffi import create_proxy

        try:
            self.worker = window.Worker.new(WORKER_URL, js_object({"type": "module",
                                                                         "name": "freecell-solver"}))
        except Exception:  # e.g. a sandboxed frame with an opaque origin refuses workers
            self.worker = None
            self._give_up()
            return
        if self._message_proxy is None:
            self._message_proxy = create_proxy(self._message)
            self._error_proxy = create_proxy(self._error)
        self.worker.addEventListener("message", self._message_proxy)
        self.worker.addEventListener("error", self._error_proxy)
        self.ready = False

    def stop(self) -> None:
        """Terminate the worker and destroy the proxies (the page is torn down)."""
        self._drop_worker()
        for proxy in (self._message_proxy, self._error_proxy):
            if proxy is not None:
                proxy.destroy()
        self._message_proxy = self._error_proxy = None

    def _drop_worker(self) -> None:
        if self.worker is not None:
            self.worker.removeEventListener("message", self._message_proxy)
            self.worker.removeEventListener("error", self._error_proxy)
            self.worker.terminate()
            self.worker = None
        self.ready = False
        self._disarm()

    def _give_up(self) -> None:
        """No worker at all: every request owed is answered with a failure; hints stay off."""
        self.dead = True
        owed = [self.jobs[i][0] for i in (self.current, self.background) if i is not None and i in self.jobs]
        self.jobs.clear()
        self.current = self.background = None
        self.pending = []
        first = not self.told_unavailable
        self.told_unavailable = True
        self.on_unavailable(first, True)
        for pos in owed:
            self.on_reply(pos, SolverFailure("no solver"))

    def restart(self) -> None:
        """Replace a worker that crashed or stopped answering (after a growing delay)."""
        self._drop_worker()
        self.restarts += 1
        self.failures += 1
        first = not self.told_unavailable
        self.told_unavailable = True
        self.background = None  # its search died with the worker
        if self.current is not None and not self.pending and self.last_text is not None:
            self.pending = [(self.current, self.last_text)]  # owed: ask the next worker again
        if self.failures > MAX_FAILURES:
            self._give_up()
            return
        self.on_unavailable(first, False)
        self.bindings.later(FIRST_RETRY_MS * 2 ** (self.failures - 1), self.start)

    def _error(self, _event: Any) -> None:
        if self.worker is not None:
            self.restart()

    # --- requests ---------------------------------------------------------
    def solve(self, ask: Ask) -> None:
        """Ask for a verdict on ``ask.position``; the request in flight is replaced (or kept behind)."""
        if self.dead:
            self.on_reply(ask.position, SolverFailure("no solver"))
            return
        rid = self.next_id
        self.next_id += 1
        keep = None
        for held in (self.current, self.background):
            if held is not None and ask.keep is not None and self.jobs.get(held, (None,))[0] == ask.keep:
                keep = held
        for held in list(self.jobs):
            if held != keep:
                del self.jobs[held]
        self.background = keep
        self.current = rid
        self.jobs[rid] = (ask.position, ask.rules)
        text = json.dumps(solve_message(ask, rid, keep))
        self.last_text = text
        if self.ready:
            self.worker.postMessage(text)
            self._arm()
        else:  # the search kept behind goes first, if it was waiting too (else the worker never
            # hears of it, and the proof it would carry down is lost)
            self.pending = [*(p for p in self.pending if p[0] == keep), (rid, text)]

    def cancel(self) -> None:
        """Stop the search in flight; its reply, if it comes, is dropped (the background one goes on)."""
        rid = self.current
        if rid is not None:
            self.jobs.pop(rid, None)
            if self.ready:
                self.worker.postMessage(json.dumps({"type": "cancel", "id": rid}))
        self.current = None
        self.pending = [p for p in self.pending if p[0] == self.background]
        if self.background is None:
            self._disarm()

    def _arm(self) -> None:
        self._disarm()
        self._watchdog = self.bindings.later(SILENCE_MS, self._silent)

    def _disarm(self) -> None:
        self.bindings.cancel(self._watchdog)
        self._watchdog = None

    def _silent(self) -> None:
        self._watchdog = None
        if self.jobs and self.worker is not None:
            self.restart()

    def _bad(self, what: str) -> None:
        if not self.logged_bad:
            self.logged_bad = True
            console.warn(f"freecell: a solver reply was refused ({what})")

    def _ready(self) -> None:
        """The worker is up: the requests waiting for it go."""
        self.ready = True
        document.documentElement.setAttribute("data-worker", "ready")
        if self.pending:
            for _, text in self.pending:
                self.worker.postMessage(text)
            self.pending = []
            self._arm()

    def _keep_solved(self, rid: int, msg: dict[str, Any], pos: Position, rules: Rules) -> None:
        """Remember a solved request: the worker may post a shorter solution of it later."""
        if msg.get("type") == "result" and msg.get("verdict") == "solved":
            self.solved[rid] = (pos, rules)
            while len(self.solved) > MAX_SOLVED:
                del self.solved[next(iter(self.solved))]

    def _improved(self, msg: dict[str, Any], rid: object) -> None:
        """A shorter solution of a position solved before: par, Show solution and hints use it."""
        if isinstance(rid, bool) or not isinstance(rid, int) or rid not in self.solved:
            return
        pos, rules = self.solved[rid]
        reply = parse_reply(msg, pos, rules)
        if reply is None:
            self._bad("improved")
        else:
            self.on_reply(pos, reply)

    def _message(self, event: Any) -> None:
        try:
            msg = json.loads(str(JSON.stringify(event.data)))
        except Exception:  # a cycle, a function, undefined: not a message of ours
            self._bad("not JSON")
            return
        if not isinstance(msg, dict):
            self._bad("not an object")
            return
        kind = msg.get("type")
        if kind == "ready":
            self._ready()
            return
        if kind == "error" and msg.get("fatal") is True:
            self.restart()
            return
        rid = msg.get("id")
        if kind == "improved":
            self._improved(msg, rid)
            return
        if isinstance(rid, bool) or not isinstance(rid, int) or rid not in self.jobs:
            return  # about a position no longer wanted (or not ours)
        if kind == "progress":
            self._arm()
            return
        if kind not in ("result", "error"):
            return
        pos, rules = self.jobs.pop(rid)
        self._keep_solved(rid, msg, pos, rules)
        if rid == self.current:
            self.current = None
        if rid == self.background:
            self.background = None
        if self.jobs:
            self._arm()
        else:
            self._disarm()
        reply = parse_reply(msg, pos, rules)
        if reply is None:
            self._bad(f"type {str(kind)[:20]!r}")
            reply = SolverFailure("bad reply")
        elif kind == "result":
            self.failures = 0
        self.on_reply(pos, reply)
