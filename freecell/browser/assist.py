"""Hints, the winnability indicator, Finish and "back to the last winnable position".

Every position the game reaches is analysed once by the solver worker (a
verdict, a hint, and for a solved one the whole solution, which also answers
for the positions along it).  A search that finds no verdict within the hint
budget gives a fallback move at once and then goes on in the background (the
worker resumes it) for up to :data:`DEEP_BUDGET_MS` more, so a lost position
is proven lost and a hard one still gets a real solution; the indicator and
a fallback hint on show are updated when it ends.  The Hint button shows what
is known, or asks; any move cancels a search in flight, and its reply is
dropped.  The hint bar
never says the player has lost: an unsolvable position gets a plain sentence
and four ways out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from js import window
from pyodide.ffi import create_once_callable

from ..cards import card_symbol
from ..engine import apply_move, moving_cards
from ..piles import CELL, COLUMN, FOUNDATION, Move, MoveError
from ..position import Position
from .solver_client import Reply, SolverClient

if TYPE_CHECKING:
    from .app import App

HINT_BUDGET_MS = 3000
DEEP_BUDGET_MS = 20000  # the background search that follows an unfinished one
FINISH_STEP_MS = 140
MAX_KNOWN = 400


def q(selector: str) -> Any:
    from js import document

    return document.querySelector(selector)


class Assist:
    def __init__(self, app: App) -> None:
        self.app = app
        self.client = SolverClient(self.unavailable)
        self.known: OrderedDict[Position, Reply] = OrderedDict()
        self.asking: Position | None = None  # the position the worker is working on
        self.deep = False  # whether that search is the background one after a fallback
        self.fallback: tuple[Position, Reply] | None = None  # the latest unfinished answer
        self.wants_hint = False
        self.hint_move: Move | None = None
        self.hint_for: Position | None = None
        self.winnability = True
        self.winnable_only = False
        self.finishing = False
        self._finish_timer: Any = None

    def start(self) -> None:
        self.client.start()
        self.position_changed()

    def rules_changed(self) -> None:
        """Another variant, or cards back from the foundations: what was known held under other rules."""
        self.known.clear()
        self.fallback = None

    # --- analysis ----------------------------------------------------------
    def position_changed(self, finishing: bool = False) -> None:
        """Called after every change of the table."""
        if not finishing:
            self.stop_finish(quiet=True)
        self.client.cancel()
        self.asking = None
        self.deep = False
        self.wants_hint = False
        self.clear_hint()
        self.update_finish_button()
        pos = self.app.game.position
        if pos in self.known:
            self.show_winnable(self.known[pos])
        else:
            self.set_winnable("unknown")
            if self.winnability and not finishing and not pos.is_won():
                self.ask(pos)

    def ask(self, pos: Position, deep: bool = False) -> None:
        self.asking = pos
        self.deep = deep
        self.client.solve(pos, self.app.game.rules, DEEP_BUDGET_MS if deep else HINT_BUDGET_MS,
                          lambda reply: self.answered(pos, reply, deep))

    def answered(self, pos: Position, reply: Reply, deep: bool = False) -> None:
        self.asking = None
        self.deep = False
        result = reply.get("type") == "result"
        if result and reply.get("verdict") != "unknown":
            self.remember(pos, reply)
        if pos != self.app.game.position:
            return
        self.show_winnable(reply)
        if self.wants_hint:
            self.wants_hint = False
            self.show_hint(pos, reply)
        elif deep and self.hint_for == pos and reply.get("verdict") != "unknown":
            self.show_hint(pos, reply)  # the fallback on show becomes a real answer
        if result and reply.get("verdict") == "unknown":
            self.fallback = (pos, reply)
            if not deep:
                self.ask(pos, deep=True)  # the worker resumes the same search

    def remember(self, pos: Position, reply: Reply) -> None:
        self.known[pos] = reply
        if reply.get("verdict") == "solved":
            try:
                moves = [Move.from_json(m) for m in reply.get("moves", [])]
            except MoveError:
                moves = []
            state = pos
            for i, m in enumerate(moves[:-1]):
                state = apply_move(state, m)
                rest = moves[i + 1:]
                self.known[state] = {**reply, "moves": [x.to_json() for x in rest],
                                     "hint": rest[0].to_json()}
        while len(self.known) > MAX_KNOWN:
            self.known.popitem(last=False)

    # --- winnability ---------------------------------------------------------
    def show_winnable(self, reply: Reply) -> None:
        verdict = reply.get("verdict")
        game = self.app.game
        if game.moves == 0 and self.app.game.position == game.start:
            self.start_verdict(verdict, reply.get("difficulty"))
        self.set_winnable({"solved": "yes", "unsolvable": "no"}.get(str(verdict), "unknown"))

    def start_verdict(self, verdict: object, level: object) -> None:
        """What the solver says of a fresh deal: its difficulty, or that it cannot be won."""
        game = self.app.game
        if game.deal is None:
            return
        if verdict == "unsolvable" and self.winnable_only and self.app.drawn_at_random:
            self.app.action_new()  # winnable deals only: draw again
            return
        if verdict == "solved" and level in ("easy", "medium", "hard"):
            self.app.level = str(level)
            self.app.update_status()

    def set_winnable(self, value: str) -> None:
        el = q('[data-status="winnable"]')
        el.hidden = not self.winnability
        el.setAttribute("data-value", value)
        el.textContent = self.app.cat.t("status.winnable." + value)

    # --- hints -----------------------------------------------------------------
    def hint_pressed(self) -> None:
        game = self.app.game
        pos = game.position
        if pos.is_won():
            self.show_bar("found", self.app.cat.t("hint.won"))
            return
        if self.hint_move is not None and self.hint_for == pos:
            move = self.hint_move
            self.clear_hint()
            self.app.play_move(move)  # the second press plays it
            return
        reply = self.known.get(pos)
        if reply is None and self.fallback is not None and self.fallback[0] == pos:
            reply = self.fallback[1]  # while the background search goes on
        if reply is not None:
            self.show_hint(pos, reply)
            return
        self.wants_hint = True
        self.show_bar("searching", self.app.cat.t("hint.searching"))
        if self.asking != pos:
            self.ask(pos)

    def show_hint(self, pos: Position, reply: Reply) -> None:
        t = self.app.cat.t
        verdict = reply.get("verdict")
        if reply.get("type") != "result":
            self.show_bar("unavailable", t("hint.unavailable"))
            return
        if verdict == "unsolvable":
            self.hint_move = self.hint_for = None
            self.app.view.mark({})
            self.show_bar("unsolvable", t("hint.unsolvable"))
            back = q('[data-panel="hint"] [data-action="back-to-winnable"]')
            back.hidden = self.last_winnable() is None
            return
        move = None
        try:
            if reply.get("hint"):
                move = Move.from_json(reply["hint"])
        except MoveError:
            move = None
        if move is None or self.app.game.check(move) is not None:
            self.show_bar("unavailable", t("hint.unavailable"))
            return
        words = self.describe(pos, move)
        state = "found" if verdict == "solved" else "fallback"
        key = "hint.found" if state == "found" else "hint.fallback"
        self.show_bar(state, t(key, card=words[0], where=words[1]))
        self.hint_move, self.hint_for = move, pos
        self.mark(pos, move)

    def describe(self, pos: Position, move: Move) -> tuple[str, str]:
        t = self.app.cat.t
        cards = moving_cards(pos, move)
        card = card_symbol(cards[0]) if cards else "?"
        if move.dst.kind == FOUNDATION:
            where = t("where.foundation")
        elif move.dst.kind == CELL:
            where = t("where.cell")
        elif pos.columns[move.dst.index]:
            where = t("where.column", n=move.dst.index + 1)
        else:
            where = t("where.empty_column")
        return card, where

    def mark(self, pos: Position, move: Move) -> None:
        dst = move.dst
        cards = moving_cards(pos, move)
        marked = {c: "from" for c in cards}
        if dst.kind == FOUNDATION:
            suit = (cards[0] & 3) if cards else 0
            dst_name = f"h{suit + 1}"
            if pos.foundations[suit]:
                marked[(pos.foundations[suit] - 1) * 4 + suit] = "to"
        else:
            dst_name = dst.text()
            if dst.kind == COLUMN and pos.columns[dst.index]:
                marked[pos.columns[dst.index][-1]] = "to"
        areas = {dst_name} if dst.kind != COLUMN or not pos.columns[dst.index] else set()
        self.app.view.mark({move.src.text(): "from", dst_name: "to"}, marked, areas)

    def clear_hint(self) -> None:
        self.hint_move = None
        self.hint_for = None
        self.app.view.mark({})
        bar = q('[data-panel="hint"]')
        bar.hidden = True
        bar.setAttribute("data-state", "")

    def show_bar(self, state: str, text: str) -> None:
        bar = q('[data-panel="hint"]')
        bar.setAttribute("data-state", state)
        q('[data-role="hint-text"]').textContent = text
        bar.hidden = False
        self.app.access.announce(text)  # the hint bar is not a live region: the page says it

    def unavailable(self, first: bool, dead: bool) -> None:
        """The worker failed: say so once; it is replaced and asked again unless ``dead``."""
        if dead:
            self.asking = None
        if self.wants_hint and (first or dead):
            self.wants_hint = False
            self.show_bar("unavailable", self.app.cat.t("hint.unavailable"))

    # --- back to the last winnable position -----------------------------------
    def last_winnable(self) -> int | None:
        """How many turns to undo to reach the latest position proven winnable."""
        game = self.app.game
        positions = [game.start, *(t.after for t in game.turns)]
        for back, pos in enumerate(reversed(positions)):
            if self.known.get(pos, {}).get("verdict") == "solved":
                return back
        return None

    def back_to_winnable(self) -> None:
        back = self.last_winnable()
        if back is None:
            return
        for _ in range(back):
            self.app.game.undo()
        self.app.redraw_after_jump()
        self.app.say(self.app.cat.t("msg.back_winnable"))

    # --- finish -------------------------------------------------------------------
    def update_finish_button(self) -> None:
        can = self.app.game.can_finish() or self.finishing
        q('.actionbar [data-action="finish"]').hidden = not can
        q('.actionbar [data-action="new"]').hidden = can

    def finish_pressed(self) -> None:
        if self.finishing:
            self.stop_finish()
            return
        if not self.app.game.can_finish():
            return
        self.finishing = True
        self._finish_step()

    def _finish_step(self, *_: Any) -> None:
        self._finish_timer = None
        if not self.finishing:
            return
        turn = self.app.game.finish_step()
        if turn is None:
            self.finishing = False
            self.update_finish_button()
            return
        self.app.after_turn(turn, finishing=True)
        if self.app.game.is_won():
            self.finishing = False
            self.update_finish_button()
            return
        self._finish_timer = window.setTimeout(create_once_callable(self._finish_step), FINISH_STEP_MS)

    def stop_finish(self, quiet: bool = False) -> None:
        if not self.finishing:
            return
        self.finishing = False
        if self._finish_timer is not None:
            window.clearTimeout(self._finish_timer)
            self._finish_timer = None
        self.update_finish_button()
        if not quiet:
            self.app.say(self.app.cat.t("msg.finish_stopped"))

