"""A game as a plain address, and back: ``?deal=617&moves=58-1h.6a.82x2``.

The link names the start (``deal=N``, or ``board=`` with the board text's
lines split by ``/``), the variant (``variant=ID``, left out for classic
FreeCell) and the turns on the table, in the engine's move notation:
turns separated by ``.``, and the auto-moves of a turn after its move,
each after a ``-`` (the engine's ``+``, which an address would turn into a
space).  Every character of a move list is one an address carries as it is.

:func:`parse_link` replays the turns through the engine, each move checked
(a turn's auto-moves must go home), so a tampered link can only give a
legal game; undo goes back to the start.  What cannot be used gives a
reason code and the plain deal (or board): ``moves.too_long`` (over
:data:`MAX_MOVES_CHARS` or :data:`MAX_LINK_TURNS`), ``moves.garbage`` (not move
notation), ``moves.illegal`` (a move refused where it is played),
``variant.unknown`` (then the deal of classic FreeCell); an address that
names no game at all gives no game and the reason of
:func:`freecell.ui.address.query.parse_query`.

>>> from freecell.game import Game
>>> from freecell.piles import Move
>>> game = Game(617)
>>> for text in ("58", "6a", "82x2"):
...     _ = game.play(Move.parse(text))
>>> game_link(game)
'?deal=617&moves=58.6a.82x2'
>>> back = parse_link("?deal=617&moves=58.6a.82x2")
>>> back.game.position == game.position, back.reason
(True, None)
>>> parse_link("?deal=617&moves=58.11").reason
'moves.illegal'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import quote_plus

from ...deals import DealNumberError
from ...game import Game, GameLoadError
from ...piles import Move, MoveError
from ...position import BoardError, Position
from ...rules import FREECELL
from .query import StartRequest, parse_query, query_fields, read_request
from .sanitize import clip

MAX_MOVES_CHARS = 60_000
MAX_LINK_TURNS = 20_000
TURN_SEP, AUTO_SEP = ".", "-"


def variant_id(game: Game) -> str | None:
    """The variant of a game (a classic game saved without one is ``freecell``), or ``None``.

    ``None``: rules that no variant names (older saves).  A link, a saved
    game and the statistics name a game's variant by this.
    """
    if game.variant is not None:
        return game.variant.id
    return "freecell" if replace(game.rules, foundation_return=False) == FREECELL else None


def starts_at_deal(game: Game) -> bool:
    """Whether ``game`` starts from its deal's own start (not from a board, nor folded by the history cap)."""
    if game.deal is None:
        return False
    try:
        if game.variant is not None:
            return game.start == game.variant.deal(game.deal)
        return game.start == Position.deal(game.deal, game.rules)
    except (BoardError, DealNumberError):
        return False


def game_link(game: Game) -> str | None:
    """The address fragment (``?deal=…&moves=…``) of ``game``'s start, variant and turns on the table.

    ``None`` for a game of rules that no variant names (older saves).
    """
    variant = variant_id(game)
    if variant is None:
        return None
    params: list[tuple[str, str]] = []
    if starts_at_deal(game):
        params.append(("deal", str(game.deal)))
    else:
        params.append(("board", "/".join(game.start.to_text().splitlines())))
    if variant != "freecell":
        params.append(("variant", variant))
    if game.moves:
        params.append(("moves", TURN_SEP.join(t.text().replace("+", AUTO_SEP) for t in game.turns)))
    return "?" + "&".join(f"{name}={quote_plus(value, safe='/:.-')}" for name, value in params)


@dataclass(frozen=True, slots=True)
class Linked:
    """What a link gave: the game (``None``: the address names none), and what could not be used."""

    game: Game | None
    request: StartRequest
    reason: str | None = None  # a reason code (see the module's docstring), or None
    error_text: str = ""  # the offending part, cleaned and shortened, for the message
    moves: bool = False  # the address carries moves (so it names a game at a point, not a deal)

    @property
    def moves_unread(self) -> bool:
        """Its moves could not be read (its deal stands, from the start)."""
        return self.reason is not None and self.reason.startswith("moves.")

    @property
    def error(self) -> str | None:
        """The message key of the refusal, if any."""
        if self.reason is None:
            return None
        if self.moves_unread:
            return "moves.error.url"
        if self.reason == "variant.unknown" and self.game is not None:
            return "variant.error.link"  # the same deal, of classic FreeCell
        return self.request.error or "variant.error.url"


def parse_link(query: object, clock: Callable[[], float] = time.monotonic) -> Linked:
    """The game of a link (see the module's docstring); never raises."""
    params = query_fields(query)
    if isinstance(params, str):
        req = parse_query(query)  # it says why, for any value
        return Linked(None, req, req.reason)
    req = read_request(params)
    raw = params.get("moves", [""])[0]
    moves = bool(raw)
    if req.deal is None and req.board is None:
        return Linked(None, req, req.reason, req.error_text, moves)
    if req.reason == "variant.unknown":  # the deal (or board) kept, of classic FreeCell, without the moves
        return Linked(_start(req, clock), req, req.reason, req.error_text, moves)
    if not raw:
        return Linked(_start(req, clock), req)
    if len(raw) > MAX_MOVES_CHARS or raw.count(TURN_SEP) >= MAX_LINK_TURNS:
        return Linked(_start(req, clock), req, "moves.too_long", moves=True)
    game = _start(req, clock)
    for token in raw.split(TURN_SEP):
        parts = token.split(AUTO_SEP)
        try:
            for part in parts:
                Move.parse(part)
        except MoveError:
            return Linked(_start(req, clock), req, "moves.garbage", clip(token), True)
        try:
            game.replay("+".join(parts))
        except GameLoadError:
            return Linked(_start(req, clock), req, "moves.illegal", clip(token), True)
    game.clock.reset()  # the link carries no time: the clock starts with the next move
    if game.is_won():
        game.clock.stopped = True
    return Linked(game, req, moves=True)


def without_moves(query: str) -> str:
    """The address ``query`` without its ``moves`` (what a reload should open: the game, not the link).

    >>> without_moves("?board=a/b&moves=58.6a&embed=1")
    '?board=a/b&embed=1'
    """
    kept = [p for p in query.lstrip("?").split("&") if p and p.partition("=")[0] != "moves"]
    return "?" + "&".join(kept) if kept else ""


def _start(req: StartRequest, clock: Callable[[], float]) -> Game:
    variant = req.variant or "freecell"
    if req.board is not None:
        return Game(position=req.board, variant=variant, clock=clock)
    return Game(req.deal, variant=variant, clock=clock)
