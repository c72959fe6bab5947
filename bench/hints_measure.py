"""The hints benchmark's measurements: a cold page, a fresh deal with Hint after it, input while searching.

Each function drives a page of bench/hints_page.py and returns its figures
(``measure_cold``, ``measure_deal``, ``measure_input``); the same positions
are searched in CPython here (``cpython``) for the worker / CPython ratio, and
the worker's message log is read for searches in flight and cancels.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

from playwright.sync_api import Browser, Page

from bench.common import summary
from bench.hints_page import (
    ANSWER_TIMEOUT_MS,
    DEEP_TIMEOUT_MS,
    STEP_TIMEOUT_MS,
    WORKER_READY_JS,
    WORKER_TIMEOUT_MS,
    button_point,
    log,
    log_len,
    open_deal_by_form,
    recorded_page,
    tap_tap,
    wait_reply,
    wait_solve_for,
)
from builder.pointer import goes_home_on_tap
from freecell.cards import card_text
from freecell.engine import apply_move
from freecell.game import Game
from freecell.piles import FOUNDATION, Move
from freecell.position import Position
from freecell.solver import SOLVED, Solver

BUDGET_S = 3.0  # the page's HINT_BUDGET_MS
SEARCH_DEAL = 11982
SEARCH_MOVE = "1a"

# --- positions ---------------------------------------------------------------------------------


def solution_positions(pos: Position, moves: list[Move]) -> set[Position]:
    out = {pos}
    for m in moves:
        pos = apply_move(pos, m)
        out.add(pos)
    return out


def fresh_move(game: Game, known: set[Position]) -> Move | None:
    """A tap-tap move (to a free cell or a column) to a position the page has not analysed."""
    for m in game.legal_moves():
        if m.dst.kind == FOUNDATION or goes_home_on_tap(game.position, m, game):
            continue
        trial = Game(position=game.position)
        trial.play(m)
        if trial.position not in known and not trial.is_stuck() and not trial.is_won():
            return m
    return None


def cpython(pos: Position) -> dict[str, Any]:
    s = Solver(pos)
    t0 = time.perf_counter()
    r = s.solve(seconds=BUDGET_S)
    ms = (time.perf_counter() - t0) * 1000
    return {"verdict": r.verdict, "nodes": s.nodes, "ms": ms}


# --- measurements ------------------------------------------------------------------------------


def measure_cold(browser: Browser, base: str, deal: int, errors: list[str]) -> dict[str, Any]:
    with recorded_page(browser, f"{base}?deal={deal}", errors) as (page, ready):
        page.wait_for_function(WORKER_READY_JS, timeout=WORKER_TIMEOUT_MS)
        solve = wait_solve_for(page, Position.deal(deal), 0, timeout=WORKER_TIMEOUT_MS)
        reply = wait_reply(page, solve["data"]["id"])
        worker_ready = next(e["t"] for e in log(page) if e["dir"] == "in" and e["data"]["type"] == "ready")
        return {
            "deal": deal,
            "ready_to_worker_ready_ms": worker_ready - ready,
            "ready_to_verdict_ms": reply["t"] - ready,
            "verdict": reply["data"].get("verdict"),
            "worker_ms": reply["data"].get("ms"),
        }


def measure_deal(page: Page, deal: int) -> dict[str, Any]:
    start = Position.deal(deal)
    since = log_len(page)
    win_since = int(page.evaluate("() => window.__hb.winnable.length"))
    open_deal_by_form(page, deal)
    solve = wait_solve_for(page, start, since)
    reply = wait_reply(page, solve["data"]["id"])
    data = reply["data"]
    if data["type"] != "result":
        raise RuntimeError(f"deal {deal}: the worker said {data}")
    deep: dict[str, Any] | None = None
    if data["verdict"] == "unknown":
        # no verdict in the hint's budget: the page goes on in the background (the
        # worker resumes the same search); wait for that verdict before moving on
        board = start.to_text()
        page.wait_for_function(
            """([board, rid]) => window.__hb.worker.some(e => e.dir === 'out' && e.data
                 && e.data.type === 'solve' && e.data.board === board && e.data.id > rid)""",
            arg=[board, solve["data"]["id"]], timeout=STEP_TIMEOUT_MS)
        again = next(e for e in log(page) if e["dir"] == "out" and e["data"]["type"] == "solve"
                     and e["data"]["board"] == board and e["data"]["id"] > solve["data"]["id"])
        deep_reply = wait_reply(page, again["data"]["id"], timeout=DEEP_TIMEOUT_MS)
        deep = {"verdict": deep_reply["data"].get("verdict"),
                "request_to_verdict_ms": deep_reply["t"] - solve["t"],
                "worker_ms": deep_reply["data"].get("ms"), "worker_nodes": deep_reply["data"].get("nodes")}
    changes = page.evaluate("(k) => window.__hb.winnable.slice(k)", win_since)
    settled = [c["t"] for c in changes if c["value"] in ("yes", "no") and c["t"] >= solve["t"]]
    py = cpython(start)
    row: dict[str, Any] = {
        "deep": deep,
        "deal": deal,
        "verdict": data["verdict"],
        "difficulty": data.get("difficulty"),
        "verdict_ms": reply["t"] - solve["t"],
        "indicator_ms": (settled[0] - solve["t"]) if settled else None,
        "worker_ms": data["ms"],
        "worker_nodes": data["nodes"],
        "cpython_verdict": py["verdict"],
        "cpython_ms": py["ms"],
        "cpython_nodes": py["nodes"],
    }
    row["ratio"] = ratio(data["ms"], data["nodes"], py["ms"], py["nodes"])
    # Hint on a position not analysed yet: one move off the page's solution, then Hint at once
    game = Game(deal=deal)
    moves = [Move.from_json(m) for m in data.get("moves", [])] if data["verdict"] == SOLVED else []
    move = fresh_move(game, solution_positions(start, moves))
    if move is None:
        return row
    hint_at = button_point(page, "hint")
    since = log_len(page)
    bar_since = int(page.evaluate("() => window.__hb.bar.length"))
    clicks_since = int(page.evaluate("() => window.__hb.hintClick.length"))
    pos = game.position
    tap_tap(page, pos, move, game)
    game.play(move)
    page.mouse.click(*hint_at)
    page.wait_for_function(
        """(k) => window.__hb.bar.slice(k).some(
             e => !e.hidden && ['found', 'fallback', 'unsolvable', 'unavailable'].includes(e.state))""",
        arg=bar_since, timeout=ANSWER_TIMEOUT_MS,
    )
    click_t = page.evaluate("(k) => window.__hb.hintClick[k]", clicks_since)
    shown = next(e for e in page.evaluate("(k) => window.__hb.bar.slice(k)", bar_since)
                 if not e["hidden"] and e["state"] in ("found", "fallback", "unsolvable", "unavailable"))
    try:
        moved_solve = wait_solve_for(page, game.position, since, timeout=5_000)
    except Exception:  # the page knew that position already and asked nothing
        moved_reply: dict[str, Any] = {"t": -math.inf, "data": {}}
    else:
        moved_reply = wait_reply(page, moved_solve["data"]["id"])
    py_moved = cpython(game.position)
    md = moved_reply["data"]
    row["hint"] = {
        "move": move.text(),
        "state": shown["state"],
        "press_to_bar_ms": shown["t"] - click_t,
        "answered_before_press": moved_reply["t"] < click_t,
        "worker_ms": md.get("ms"),
        "worker_nodes": md.get("nodes"),
        "verdict": md.get("verdict"),
        "cpython_ms": py_moved["ms"],
        "cpython_nodes": py_moved["nodes"],
        "ratio": ratio(md.get("ms"), md.get("nodes"), py_moved["ms"], py_moved["nodes"]),
    }
    return row


def ratio(w_ms: Any, w_nodes: Any, c_ms: float, c_nodes: int) -> float | None:
    """Worker time per node over CPython time per node."""
    if not w_ms or not w_nodes or not c_nodes or c_ms <= 0:
        return None
    return float((w_ms / w_nodes) / (c_ms / c_nodes))


def measure_input(page: Page, n: int, expect_search: bool) -> dict[str, Any]:
    """``n`` tap-tap moves of column 1's bottom card to free cell a, each undone."""
    game = Game(deal=SEARCH_DEAL)
    move = Move.parse(SEARCH_MOVE)
    card = card_text(game.position.columns[move.src.index][-1])
    undo_at = button_point(page, "undo")
    samples: list[dict[str, Any]] = []
    if expect_search:
        page.wait_for_function("() => window.__hb.inFlight() !== null", timeout=WORKER_TIMEOUT_MS)
    for i in range(n):
        page.evaluate("() => { window.__hb.up = []; window.__hb.moved = []; }")
        tap_tap(page, game.position, move, game)
        page.wait_for_function(
            "(card) => window.__hb.moved.some("
            "m => m.card === card && m.pile === 'a' && m.frame !== undefined)",
            arg=card, timeout=STEP_TIMEOUT_MS,
        )
        rec = page.evaluate("() => ({up: window.__hb.up, moved: window.__hb.moved})")
        m = next(x for x in rec["moved"] if x["card"] == card and x["pile"] == "a")
        t_up = max(t for t in rec["up"] if t <= m["t"])
        samples.append({"up": t_up, "mutation_ms": m["t"] - t_up, "frame_ms": m["frame"] - t_up})
        page.mouse.click(*undo_at)
        page.wait_for_selector('[data-status=moves][data-value="0"]', state="attached",
                               timeout=STEP_TIMEOUT_MS)
        page.wait_for_function("(card) => document.querySelector(`g.card[data-card='${card}']`)"
                               ".getAttribute('data-pile') === '1'", arg=card, timeout=STEP_TIMEOUT_MS)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1}/{n} moves", file=sys.stderr, flush=True)
    entries = log(page)
    for s in samples:
        s["searching"] = searching_at(entries, s["up"])
    cancels = cancel_delays(entries, samples[0]["up"] - 1 if samples else 0)
    used = [s for s in samples if s["searching"]] if expect_search else samples
    return {
        "moves": n,
        "counted": len(used),
        "pointerup_to_mutation_ms": summary([s["mutation_ms"] for s in used]),
        "pointerup_to_next_frame_ms": summary([s["frame_ms"] for s in used]),
        "cancel_to_cancelled_ms": summary(cancels) if cancels else None,
        "samples": samples,
    }


def searching_at(entries: list[dict[str, Any]], t: float) -> bool:
    """Whether a solve request was in flight (posted to a ready worker, unanswered) at time ``t``."""
    current = None
    for e in entries:
        if e["t"] > t:
            break
        d = e["data"] or {}
        if e["dir"] == "out" and d.get("type") == "solve":
            current = d["id"]
        elif d.get("id") == current and (
            (e["dir"] == "out" and d.get("type") == "cancel")
            or (e["dir"] == "in" and d.get("type") in ("result", "error", "cancelled"))
        ):
            current = None
    return current is not None


def cancel_delays(entries: list[dict[str, Any]], since: float) -> list[float]:
    sent = {e["data"]["id"]: e["t"] for e in entries
            if e["dir"] == "out" and e["t"] >= since and (e["data"] or {}).get("type") == "cancel"}
    return [e["t"] - sent[e["data"]["id"]] for e in entries
            if e["dir"] == "in" and (e["data"] or {}).get("type") == "cancelled" and e["data"]["id"] in sent]
