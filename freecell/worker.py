"""The solver service behind the page's Web Worker: a small JSON protocol.

Pure Python (tested in CPython); ``static/solver-worker.js`` loads Pyodide,
feeds it every message as JSON text and posts back what :meth:`Service.step`
returns.  No Python object crosses the boundary.

Page to worker::

    {"type": "solve", "id": 7, "board": "<board text>", "rules": {...},
     "budget_ms": 3000,                        # search this position
     "keep": 6,                                # optional: search 6 goes on beside it
     "path": {"board": "<board text>",         # optional: a known solution from
              "moves": [{"from": ..., "to": ..., "count": ...}, ...]}}   # that board
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
    {"type": "improved", "id": 7, "moves": [...], "count": 24, "turns": 31}
                                           # a shorter solution of request 7's position
    {"type": "pong", "id": 8}
    {"type": "error", "id": 7 | null, "message": "..."}     # a bad message

The search runs in slices of :data:`SLICE_NODES` nodes; between slices the
worker yields to its event loop, so a new message is seen within a few tens
of milliseconds.  The newest solve request is the *foreground* search.

A search that ran out of budget (or was cancelled) is kept, paused, until a
request for another position comes: a new ``solve`` for the same board and
rules resumes it where it stopped, with ``budget_ms`` more of search (its
``ms`` and ``nodes`` in the result count the whole search).  This is how the
page gives a quick hint first and then keeps looking for a proof.

``keep`` (a proof carries down): a ``solve`` may name an earlier request whose
search is still undecided (the foreground one it replaces, the background
one, or the paused one).  That search goes on in the *background* instead of
being dropped: no ``cancelled`` for it; when it reaches a verdict, or its own
``budget_ms`` (of its own search time) runs out, it posts its ``result`` with
its own id (out of budget it is then the paused search).  Every other held
search is dropped (``cancelled`` for the foreground or background one that
stops), so at most one search runs in the background.  While both
run, the background takes :data:`BACKGROUND_SLICES` slices for each one of
the foreground (a lost deal like 11982 is proven within seconds while the
position on the table still gets its answer, :data:`BACKGROUND_SLICES` + 1
times slower).  ``cancel`` with the background search's id stops it (it is
then the paused search).  Progress comes for both, each with its own id.

Memory: all the searches held (foreground, background, paused: never more
than two at once) share the solver's cap, :data:`freecell.solver.MAX_STATES`
states: before each slice the search to run is capped at that many minus the
states the other one holds, and a search that reaches its cap ends
``unknown``.

``path`` (known solutions answer their successors): a solution known from
another position, at most :data:`MAX_PATH_MOVES` moves, each legal from that
board under the request's rules and ending with every card home.  The search
takes every position along it as solved (:class:`freecell.known.KnownPath`).

Shortening (:mod:`freecell.improve`): after a ``solved`` result, the
worker goes on looking for a shorter solution of that position while it has
nothing else to do (:meth:`Service.step_idle`, called while
:attr:`Service.improving` and not :attr:`Service.busy`), in slices of
:data:`IMPROVE_SLICE_S` seconds, :data:`IMPROVE_SECONDS` in all, each slice
after a rest (:attr:`Service.idle_rest_ms`, which any message ends): the
first after :data:`IMPROVE_DELAY_MS` of quiet; then, for the first
:data:`IMPROVE_BURST_S` of it (where most turns are saved), so that it takes
at most :data:`IMPROVE_BURST_SHARE` of one core, and after that at most
:data:`IMPROVE_SHARE`.  The page (a phone's other core, a busy machine) keeps
the rest while the player plays, the par is short within seconds of the deal,
and the last turns come long before a win.  Each
solution found with fewer turns as the moves counter counts them (the par's
unit; checked by the engine) is posted as ``improved`` with the result's id,
its ``turns`` and its ``count`` in player moves with maximum auto-play.  Any request comes first: a
search started pauses it; the next ``solved`` result of another position
replaces it; ``cancel`` with its id drops it.

Every field is checked against an allow-list; anything else (a bad ``keep``
or ``path`` included) gets an ``error`` reply, never an exception.
"""

from __future__ import annotations

import json
from typing import Any

from .beams import WEIGHTS, WIDTHS, schedule
from .counts import game_count, record_count
from .improve import TURNS, Improver
from .known import KnownPath
from .piles import Move, MoveError
from .position import BoardError, Position
from .rules import Rules
from .solver import MAX_STATES, SOLVED, UNKNOWN, UNSOLVABLE, Result, Solver

SLICE_NODES = 150
PROGRESS_EVERY = 20  # slices
MAX_MESSAGE = 20_000
MAX_BUDGET_MS = 60_000
MAX_PATH_MOVES = 400  # 400 moves of ~36 characters: well within MAX_MESSAGE
BACKGROUND_SLICES = 3  # background slices for each foreground slice, while both run
IMPROVE_SECONDS = 3.0  # the shortening of one solution, in all
IMPROVE_SLICE_S = 0.04  # one slice of it (the page waits at most this for an answer)
IMPROVE_BURST_S = 2.5  # the first of those seconds, taken quickly: the par within 5 s of the deal
IMPROVE_BURST_SHARE = 0.8  # of one core, at most, during the burst: 2.5 s of CPU over about 3 s
IMPROVE_SHARE = 0.125  # of one core, at most, after it: the last 0.5 s over 4 s
IMPROVE_DELAY_MS = 500  # of quiet before a solution's first slice (the first moves of a deal)
SOLVE_FIELDS = frozenset({"type", "id", "board", "rules", "budget_ms", "keep", "path"})

Message = dict[str, Any]


def difficulty(nodes: int) -> str:
    """A label from the solver's effort on a fresh deal."""
    if nodes < 400:
        return "easy"
    if nodes < 4000:
        return "medium"
    return "hard"


def _is_id(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**53


class _Job:
    def __init__(self, rid: int, key: tuple[str, str], solver: Solver, budget_ms: int) -> None:
        self.id = rid
        self.key = key  # (board text, rules JSON): what a later request may resume
        self.solver = solver
        self.budget_ms = budget_ms
        self.start_ms = solver.seconds * 1000  # search time spent before this request
        self.slices = 0


def _known_path(data: object, rules: Rules) -> KnownPath:
    """The ``path`` field, checked: ``ValueError`` for anything but a known solution."""
    if not isinstance(data, dict) or set(data) != {"board", "moves"}:
        raise ValueError("path must be an object with board and moves")
    board, moves = data["board"], data["moves"]
    if not isinstance(board, str):
        raise ValueError("path board must be text")
    if not isinstance(moves, list) or len(moves) > MAX_PATH_MOVES:
        raise ValueError(f"path moves must be a list of at most {MAX_PATH_MOVES} moves")
    start = Position.from_text(board, rules)
    return KnownPath(start, [Move.from_json(m) for m in moves], rules)


class Service:
    """Takes messages (JSON text), works in slices, returns messages to post."""

    def __init__(self, improve_seconds: float = IMPROVE_SECONDS, improve_nodes: int | None = None) -> None:
        self.improve_seconds = improve_seconds
        self.improve_nodes = improve_nodes  # slices of this many nodes instead of IMPROVE_SLICE_S (tests)
        self._sent_turns = 0  # the turns of the last solution posted for the improver's position
        self._unsent = False  # the improver holds fewer turns than posted
        self._improve_started = False  # the improver has had a slice (else: the longer first rest)
        self.improver: tuple[int, tuple[str, str], Improver] | None = None  # (id, key, the search)
        self.job: _Job | None = None  # the foreground search: the newest solve
        self.background: _Job | None = None  # a search kept going beside it ("keep")
        self.paused: _Job | None = None  # the last search stopped without a verdict
        self._turn = 0

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
            if kind in ("solve", "cancel", "ping") and not _is_id(rid):
                raise ValueError("a request needs a whole-number id")
        except (ValueError, TypeError, RecursionError) as e:
            return [{"type": "error", "id": None, "message": str(e)[:200]}]
        if kind == "ping":
            return [{"type": "pong", "id": rid}]
        if kind == "cancel":
            if self.improver is not None and self.improver[0] == rid:
                self.improver = None
            for slot in ("job", "background"):
                held: _Job | None = getattr(self, slot)
                if held is not None and held.id == rid:
                    setattr(self, slot, None)
                    self.paused = held
                    return [{"type": "cancelled", "id": rid}]
            return []
        if kind == "solve" and isinstance(rid, int):
            return self._start(rid, msg)
        return [{"type": "error", "id": rid, "message": f"unknown message type {kind!r}"[:200]}]

    def _start(self, rid: int, msg: Message) -> list[Message]:
        out: list[Message] = []
        try:
            extra = set(msg) - SOLVE_FIELDS
            if extra:
                raise ValueError(f"unknown field {sorted(map(str, extra))[0]!r}"[:200])
            rules = Rules.from_json(msg.get("rules", {}))
            board = msg.get("board")
            if not isinstance(board, str):
                raise BoardError("board must be text")
            pos = Position.from_text(board, rules)
            budget = msg.get("budget_ms", 3000)
            if not _is_id(budget) or not 0 < budget <= MAX_BUDGET_MS:
                raise ValueError("budget_ms must be 1 to 60000")
            keep = msg.get("keep")
            if keep is not None and (not _is_id(keep) or keep == rid):
                raise ValueError("keep must be the id of an earlier request")
            known = _known_path(msg["path"], rules) if msg.get("path") is not None else None
        except (ValueError, TypeError, MoveError, RecursionError) as e:
            if self.job is not None:  # a bad request still stops the one before
                out.append({"type": "cancelled", "id": self.job.id})
                self.paused, self.job = self.job, None
            out.append({"type": "error", "id": rid, "message": str(e)[:200]})
            return out
        key = (pos.to_text(), json.dumps(rules.to_json(), sort_keys=True))
        running = [j for j in (self.job, self.background) if j is not None]
        held = [*running, *([self.paused] if self.paused is not None else [])]
        self.job = self.background = self.paused = None  # held no longer than this, but for
        # the search to resume (same board and rules), and the one to keep going beside it
        resumed = next((j for j in held if j.key == key and j.solver.result is None), None)
        kept = next((j for j in held if j.id == keep and j is not resumed and j.solver.result is None), None)
        out += [{"type": "cancelled", "id": j.id} for j in running if j is not kept]
        if resumed is not None:
            self.job = _Job(rid, key, resumed.solver, budget)
            if known is not None:
                resumed.solver.use_known(known)
        else:
            self.job = _Job(rid, key, Solver(pos, rules, known=known), budget)
        self.background = kept
        return out

    @property
    def busy(self) -> bool:
        return self.job is not None or self.background is not None

    @property
    def improving(self) -> bool:
        """A solution is being shortened (:meth:`step_idle` has work, when nothing is :attr:`busy`)."""
        imp = self.improver
        return imp is not None and not imp[2].done and imp[2].seconds < self.improve_seconds

    @property
    def idle_rest_ms(self) -> int:
        """How long the worker rests before the next slice of :meth:`step_idle` (a message ends it)."""
        if not self._improve_started:
            return IMPROVE_DELAY_MS
        imp = self.improver
        share = IMPROVE_BURST_SHARE if imp is not None and imp[2].seconds < IMPROVE_BURST_S else IMPROVE_SHARE
        return round(IMPROVE_SLICE_S * 1000 * (1 / share - 1))

    def step_idle(self) -> list[Message]:
        """One slice of shortening, when no search is asked for; an ``improved`` message if it found one."""
        if self.busy or not self.improving or self.improver is None:
            return []
        rid, _, imp = self.improver
        self._improve_started = True
        nodes = self.improve_nodes
        before = imp.fewest_turns
        imp.run(max_nodes=nodes, seconds=None if nodes else IMPROVE_SLICE_S)
        if imp.fewest_turns >= before and not (self._unsent and imp.fewest_turns < self._sent_turns):
            return []
        self._unsent = False
        self._sent_turns = imp.fewest_turns
        return [{"type": "improved", "id": rid, "moves": [m.to_json() for m in imp.fewest],
                 "count": record_count(imp.fewest), "turns": imp.fewest_turns}]

    def _shorten_later(self, job: _Job, result: Result) -> None:
        """Shorten ``result``'s solution in idle time (unless its position is being shortened already)."""
        if self.improve_seconds <= 0 or not result.moves:
            return
        if self.improver is not None and self.improver[1] == job.key:
            return
        solver = job.solver
        # each width's beams along the best before the next width: they pay more within the seconds
        # the page has for the par (bench.par: 447 turns at 5 s over deals 1-12, against 457 when the
        # widths up to 1,500 first run from the start)
        imp = Improver(solver.position, result.moves, solver.rules, schedule(WIDTHS, WEIGHTS), unit=TURNS)
        self.improver = (job.id, job.key, imp)
        self._improve_started = False
        # the shortening pass in Improver() may have found fewer turns already: sent at the next slice
        self._sent_turns = game_count(solver.position, result.moves, solver.rules)
        self._unsent = imp.fewest_turns < self._sent_turns

    def step(self) -> list[Message]:
        """One slice of a search (the foreground's or the background's); the messages it produced."""
        fg, bg = self.job, self.background
        job: _Job | None = fg or bg
        if fg is not None and bg is not None:
            self._turn = (self._turn + 1) % (BACKGROUND_SLICES + 1)
            job = fg if self._turn == 0 else bg
        if job is None:
            return []
        others = sum(j.solver.size for j in (fg, bg, self.paused) if j is not None and j is not job)
        solver = job.solver
        solver.max_states = max(MAX_STATES - others, 0)
        result = solver.run(max_nodes=SLICE_NODES)
        job.slices += 1
        if result is None and solver.seconds * 1000 - job.start_ms >= job.budget_ms:
            result = Result(UNKNOWN, nodes=solver.nodes, seconds=solver.seconds)
            self.paused = job
        if result is None:
            if job.slices % PROGRESS_EVERY == 0:
                return [{"type": "progress", "id": job.id, "nodes": solver.nodes}]
            return []
        if job is fg:
            self.job = None
        else:
            self.background = None
        hint = None
        if result.verdict == SOLVED and result.moves:
            hint = result.moves[0].to_json()
            self._shorten_later(job, result)
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
