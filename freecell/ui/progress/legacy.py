"""What older pages stored that today's page still reads, once, into today's form.

- ``freecell.game`` (:data:`KEY_GAME`): the single saved game of pages before
  every game was kept (:meth:`Game.to_json <freecell.game.Game.to_json>`:
  ``{"format": "freecell-game", "version": 1, "deal" or "board", "rules",
  "auto_move", "turns", "redo", "elapsed"}``).
  :meth:`~freecell.ui.progress.saved_games.SaveStore.migrate` moves it into
  the list of saved games with :func:`load_game` and removes it.
- the statistics of version 1 (one tab's, written whole) are read by
  :func:`freecell.ui.progress.stats.read_tally`, and an older settings
  field (``winnable-only``) by :func:`freecell.ui.progress.settings.load_settings`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ... import safejson
from ...deals import DealNumberError, check_deal_number
from ...game import MAX_SAVE_CHARS, SAVE_FORMAT, Game, GameLoadError
from ...rules import Rules
from .keyvalue import StoredDataError

KEY_GAME = "freecell.game"
LEGACY_ID = "v1"  # the id of that game in the list (and of its open game in older statistics)


def load_game(text: object, clock: Callable[[], float] = time.monotonic,
              keep_prefix: bool = False) -> tuple[Game, bool]:
    """The saved game, and whether it was damaged (started over, or cut short).

    The game comes back exactly (start, rules, history, redo, time, with the
    clock paused).  With ``keep_prefix``, a damaged history keeps its longest
    legal prefix (``True``: damaged); otherwise, or if the rest of the record
    is damaged too, but the deal number and rules are sound, that deal
    starts over (``True``); otherwise :class:`StoredDataError`.
    """
    if not isinstance(text, str):
        raise StoredDataError("a saved game is text")
    try:
        if keep_prefix:
            return Game.from_json_prefix(text, clock=clock)
        return Game.from_json(text, clock=clock), False
    except GameLoadError as e:
        reason = str(e)
    try:
        data = safejson.load_record(text, SAVE_FORMAT, MAX_SAVE_CHARS, "the saved game", StoredDataError)
        deal = check_deal_number(data["deal"])
        variant = data.get("variant")
        if variant is not None:
            return Game(deal, variant=str(variant), clock=clock), True
        return Game(deal, rules=Rules.from_json(data.get("rules", {})), clock=clock), True
    except (StoredDataError, DealNumberError, ValueError, TypeError, KeyError, RecursionError):
        raise StoredDataError(reason) from None
