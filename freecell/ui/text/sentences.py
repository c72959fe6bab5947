"""What the session says after an intent: the message line under the table and the live region.

Every sentence of an intent's :class:`~freecell.ui.session.change.Change`
(``message`` and ``announce``) comes from here, by what happened: the
session picks the function, never a catalogue key.  The moves, selections
and names of cards are :mod:`freecell.ui.text.speech`'s; the bars' are
:mod:`freecell.ui.text.bars`'.  Text from outside (the address, a link) is
isolated (:func:`~freecell.ui.address.sanitize.isolate`) so that it cannot
reorder the words around it.

    >>> cat = Catalogue("en", {"deal.started": "Deal {n}", "msg.undone": "Move undone"})
    >>> deal_started(cat, 617), undone(cat)
    ('Deal 617', 'Move undone')
"""

from __future__ import annotations

from ...game import Game
from ..address.link import Linked
from ..address.query import StartRequest
from ..address.sanitize import isolate
from ..analysis.playback import Playback, Speed
from .catalogue import Catalogue
from .speech import plural


def joined(*words: str) -> str:
    """Sentences said one after the other (the empty ones left out)."""
    return " ".join(w for w in words if w)


# --- a new game on the table ---------------------------------------------------------------


def deal_started(cat: Catalogue, deal: int, kept: bool = False) -> str:
    """A new deal on the table; ``kept``: the game left for it is kept, and Undo brings it back."""
    return cat.t("deal.started_kept" if kept else "deal.started", n=deal)


def double_tap_tip(cat: Catalogue) -> str:
    """A tip, at the first card selected by a tap: the best place is a double tap away."""
    return cat.t("msg.double_tap_tip")


def hint_again_tip(cat: Catalogue) -> str:
    """A tip, at the first hint that shows a move: Hint again plays it."""
    return cat.t("msg.hint_again_tip")


def restored(cat: Catalogue) -> str:
    """A kept game is back on the table, as it was left."""
    return cat.t("msg.restored")


def back_to_game(cat: Catalogue, deal: int | None) -> str:
    """Undo on a fresh deal brought back the game New deal (or Replay) left."""
    return cat.t("msg.back_to_game", n=deal) if deal is not None else restored(cat)


def replayed(cat: Catalogue, deal: int | None, kept: bool) -> str:
    """Replay: the deal from its start; ``kept``: Undo brings back the game left."""
    first = cat.t("msg.replayed", n=deal) if deal is not None else cat.t("msg.replayed_board")
    return joined(first, cat.t("msg.undo_brings_back") if kept else "")


def daily_started(cat: Catalogue, deal: int) -> str:
    return cat.t("daily.started", n=deal)


def address_refused(cat: Catalogue, request: StartRequest) -> str:
    """The address asked for something that is no game: why (its value isolated)."""
    return cat.t(request.error or "", text=isolate(request.error_text))


def on_the_table(cat: Catalogue, game: Game, variant: str) -> str:
    """After the line of what an address ignored: what is on the table instead."""
    if game.moves or game.can_redo():
        return restored(cat)  # a game in progress came back
    name = cat.t("variant." + variant)
    if game.deal is None:
        return cat.t("address.board", variant=name)
    return cat.t("address.deal", n=game.deal, variant=name)


def playing(cat: Catalogue, deal: int) -> str:
    """A deal asked for is the game on the table already: it goes on as it is."""
    return cat.t("msg.playing", n=deal)


def moves_unread(cat: Catalogue) -> str:
    """A link's moves could not be read, and the player's own game of its deal goes on instead."""
    return cat.t("moves.error.resumed")


def link_opened(cat: Catalogue, link: Linked) -> str:
    """A shared link's game: the moves it was opened at, or why its moves were refused."""
    if link.error is not None:
        deal = link.game.deal if link.game is not None else None
        return cat.t(link.error, text=isolate(link.error_text), n=deal)
    moves = link.game.moves if link.game is not None else 0
    return cat.t("link.opened", n=moves) if moves else ""


# --- the game on the table --------------------------------------------------------------------


def deselected(cat: Catalogue) -> str:
    return cat.t("say.deselected")


def won(cat: Catalogue, game: Game, watched: bool = False) -> str:
    """The last card home: "You won", or "Solved" when the player did not win it alone."""
    return cat.t("say.solved" if watched else "say.won", moves=plural(cat, "say.moves_n", game.moves),
                 time=cat.time(game.elapsed()))


def stuck(cat: Catalogue, moves: int) -> str:
    """No legal move left: after ``moves`` turns, or none at all from the deal (nothing to undo)."""
    return cat.t("say.stuck" if moves else "say.stuck_start")


def undone(cat: Catalogue) -> str:
    return cat.t("msg.undone")


def redone(cat: Catalogue) -> str:
    return cat.t("msg.redone")


def nothing_to_undo(cat: Catalogue) -> str:
    return cat.t("msg.nothing_to_undo")


def nothing_to_redo(cat: Catalogue) -> str:
    return cat.t("msg.nothing_to_redo")


def back_to_winnable(cat: Catalogue) -> str:
    return cat.t("msg.back_winnable")


def finish_not_yet(cat: Catalogue) -> str:
    return cat.t("msg.finish_not_yet")


def finish_stopped(cat: Catalogue) -> str:
    return cat.t("msg.finish_stopped")


# --- keeping and sharing -----------------------------------------------------------------------


def stats_reset(cat: Catalogue) -> str:
    return cat.t("msg.stats_reset")


def share_unavailable(cat: Catalogue) -> str:
    """A game of rules no variant names cannot be given as a link."""
    return cat.t("share.unavailable")


def shared(cat: Catalogue, how: str) -> str:
    """The link was ``copied`` or ``shared``."""
    return cat.t("share." + how)


def share_by_hand(cat: Catalogue) -> str:
    return cat.t("share.by_hand")


def deal_copied(cat: Catalogue, deal: int, ok: bool) -> str:
    """The deal number went to the clipboard (``ok``), or could not."""
    return cat.t("msg.copied" if ok else "msg.copy_failed", n=deal)


# --- the playback ---------------------------------------------------------------------------


def watch_stopped(cat: Catalogue) -> str:
    """The playback stopped: the player has the table."""
    return cat.t("watch.stopped")


def watch_paused(cat: Catalogue) -> str:
    return cat.t("watch.paused")


def watch_playing(cat: Catalogue) -> str:
    return cat.t("watch.playing")


def watch_speed(cat: Catalogue, speed: Speed) -> str:
    return cat.t("watch.speed." + speed)


def watch_keys(cat: Catalogue) -> str:
    """How to step the playback from the keyboard."""
    return cat.t("watch.keys")


def watch_step(cat: Catalogue, playback: Playback, move: str) -> str:
    """The step just played: ``Move 3 of 79: seven of hearts to column 4``."""
    return cat.t("watch.say_step", n=playback.done, total=playback.total, move=move)
