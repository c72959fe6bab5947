"""The solver service behind the page's Web Worker: a small JSON protocol.

Pure Python (tested in CPython); ``static/solver-worker.js`` loads Pyodide,
feeds it every message as JSON text and posts back what :meth:`Service.step`
returns.  No Python object crosses the boundary.

Page to worker::

    {"type": "solve", "id": 7, "board": "<board text>", "rules": {...},
     "budget_ms": 3000}                        # search this position
    {"type": "cancel", "id": 7}                # stop it (any new solve does too)
    {"type": "ping", "id": 8}                  # are you alive?

Worker to page::

    {"type": "ready"}                                        # once, at start
    {"type": "progress", "id": 7, "nodes": 1200}             # now and then
    {"type": "result", "id": 7, "verdict": "solved" | "unsolvable" | "unknown",
     "moves": [{"from": "3", "to": "h", "count": 1}, ...],  # the solution, if solved
     "hint": {"from": ..., "to": ..., "count": ...} | null, # what to suggest
     "nodes": 5400, "ms": 812, "difficulty": "easy" | "medium" | "hard" | null}
    {"type": "cancelled", "id": 7}
    {"type": "pong", "id": 8}
    {"type": "error", "id": 7 | null, "message": "..."}     # a bad message

The search runs in slices of :data:`SLICE_NODES` nodes; between slices the
worker yields to its event loop, so a new message is seen within a few tens
of milliseconds.  Only the newest solve request is worked on.

A search that ran out of budget (or was cancelled) is kept, paused, until a
request for another position comes: a new ``solve`` for the same board and
rules resumes it where it stopped, with ``budget_ms`` more of search (its
``ms`` and ``nodes`` in the result count the whole search).  This is how the
page gives a quick hint first and then, in the background, keeps looking for
a proof.  Only one search is ever held, so memory stays bounded by the
solver's own cap.
"""

from __future__ import annotations

import json
from typing import Any

from .position import BoardError, Position
from .rules import Rules
from .solver import SOLVED, UNKNOWN, UNSOLVABLE, Result, Solver

SLICE_NODES = 150
PROGRESS_EVERY = 20  # slices
MAX_MESSAGE = 20_000
MAX_BUDGET_MS = 60_000

Message = dict[str, Any]


def difficulty(nodes: int) -> str:
    """A label from the solver's effort on a fresh deal."""
    if nodes < 400:
        return "easy"
    if nodes < 4000:
        return "medium"
    return "hard"


class _Job:
    def __init__(self, rid: int, key: tuple[str, str], solver: Solver, budget_ms: int) -> None:
        self.id = rid
        self.key = key  # (board text, rules JSON): what a later request may resume
        self.solver = solver
        self.budget_ms = budget_ms
        self.start_ms = solver.seconds * 1000  # search time spent before this request
        self.slices = 0


class Service:
    """Takes messages (JSON text), works in slices, returns messages to post."""

    def __init__(self) -> None:
        self.job: _Job | None = None
        self.paused: _Job | None = None  # the last search stopped without a verdict

    def receive(self, text: str) -> list[Message]:
        """Handle one message from the page; returns the replies to post at once."""
        try:
            if not isinstance(text, str) or len(text) > MAX_MESSAGE:
                raise ValueError("message too large")
            msg = json.loads(text)
            if not isinstance(msg, dict):
                raise ValueError("a message is an object")
            kind = msg.get("type")
            rid = msg.get("id")
            if kind in ("solve", "cancel", "ping") and (
                isinstance(rid, bool) or not isinstance(rid, int) or not 0 <= rid < 2**53
            ):
                raise ValueError("a request needs a whole-number id")
        except (ValueError, TypeError, RecursionError) as e:
            return [{"type": "error", "id": None, "message": str(e)[:200]}]
        if kind == "ping":
            return [{"type": "pong", "id": rid}]
        if kind == "cancel":
            if self.job is not None and self.job.id == rid:
                self.paused, self.job = self.job, None
                return [{"type": "cancelled", "id": rid}]
            return []
        if kind == "solve" and isinstance(rid, int):
            return self._start(rid, msg)
        return [{"type": "error", "id": rid, "message": f"unknown message type {kind!r}"[:200]}]

    def _start(self, rid: int, msg: Message) -> list[Message]:
        out: list[Message] = []
        if self.job is not None:
            out.append({"type": "cancelled", "id": self.job.id})
            self.paused, self.job = self.job, None
        try:
            rules = Rules.from_json(msg.get("rules", {}))
            board = msg.get("board")
            if not isinstance(board, str):
                raise BoardError("board must be text")
            pos = Position.from_text(board, rules)
            budget = msg.get("budget_ms", 3000)
            if isinstance(budget, bool) or not isinstance(budget, int) or not 0 < budget <= MAX_BUDGET_MS:
                raise ValueError("budget_ms must be 1 to 60000")
        except (ValueError, TypeError) as e:
            out.append({"type": "error", "id": rid, "message": str(e)[:200]})
            return out
        key = (pos.to_text(), json.dumps(rules.to_json(), sort_keys=True))
        paused, self.paused = self.paused, None  # held no longer than this: one search at a time
        if paused is not None and paused.key == key and paused.solver.result is None:
            self.job = _Job(rid, key, paused.solver, budget)
        else:
            self.job = _Job(rid, key, Solver(pos, rules), budget)
        return out

    @property
    def busy(self) -> bool:
        return self.job is not None

    def step(self) -> list[Message]:
        """One slice of the current search; the messages it produced."""
        job = self.job
        if job is None:
            return []
        solver = job.solver
        result = solver.run(max_nodes=SLICE_NODES)
        job.slices += 1
        if result is None and solver.seconds * 1000 - job.start_ms >= job.budget_ms:
            result = Result(UNKNOWN, nodes=solver.nodes, seconds=solver.seconds)
            self.paused = job
        if result is None:
            if job.slices % PROGRESS_EVERY == 0:
                return [{"type": "progress", "id": job.id, "nodes": solver.nodes}]
            return []
        self.job = None
        hint = None
        if result.verdict == SOLVED and result.moves:
            hint = result.moves[0].to_json()
        elif result.verdict != UNSOLVABLE:
            best = solver.best_move()
            hint = best.to_json() if best is not None else None
        return [{
            "type": "result",
            "id": job.id,
            "verdict": result.verdict,
            "moves": [m.to_json() for m in result.moves] if result.verdict == SOLVED else [],
            "hint": hint,
            "nodes": solver.nodes,
            "ms": round(solver.seconds * 1000),
            "difficulty": difficulty(solver.nodes) if result.verdict == SOLVED else None,
        }]
