"""The player's progress: what counts as a game played, won or abandoned, and when to save.

Pure rules over :class:`~freecell.ui.stats.Statistics`, for the
:class:`~freecell.ui.session.Session`: each method returns the effects to
run (save the game, save the statistics, tell the embedding host).

A game on the table is ``fresh`` (no move yet), ``open`` (started) or
``done`` (won).  Its first move makes it played (and tells the host
"started"); its last card makes it won ("won"); a started game left
unfinished for another deal, or replayed from its start, is abandoned (the
streak ends).  A game restored from storage keeps its state; one the
statistics lost track of is counted as played again.
"""

from __future__ import annotations

from dataclasses import replace

from ..game import Game
from ..rules import FREECELL
from .change import Effect, SaveGame, SaveStats, TellHost
from .stats import Statistics, deal_key

FRESH, OPEN, DONE = "fresh", "open", "done"


def variant_id(game: Game) -> str | None:
    """The variant of a game (a classic game saved without one is ``freecell``), or ``None``."""
    if game.variant is not None:
        return game.variant.id
    return "freecell" if replace(game.rules, foundation_return=False) == FREECELL else None


def game_key(game: Game) -> str | None:
    """The statistics key of a game: its variant (or rules) and deal; ``None`` for a board."""
    if game.deal is None:
        return None
    if game.variant is not None:
        return f"{game.variant.id}:{game.deal}"
    return deal_key(game.deal, game.rules)


class Progress:
    """The statistics and the state of the game on the table."""

    def __init__(self, stats: Statistics | None = None) -> None:
        self.stats = stats if stats is not None else Statistics()
        self.state = FRESH

    def adopt(self, game: Game, restored: bool = False) -> list[Effect]:
        """A game came on the table (dealt, replayed, or restored from storage)."""
        key = game_key(game)
        out: list[Effect] = []
        if restored and game.is_won():
            self.state = DONE
        elif restored and (game.moves or game.can_redo()):
            self.state = OPEN
            if key is not None and self.stats.open != key:  # the statistics lost it: count it now
                self.stats.record_start(key)
                out.append(SaveStats())
        else:
            self.state = FRESH
            if self.stats.record_abandon():  # a started game was left unfinished
                out.append(SaveStats())
        out.append(SaveGame(whole=True))
        return out

    def turn_played(self, game: Game) -> list[Effect]:
        """After every turn (a move, a redo, a Finish step)."""
        key = game_key(game)
        out: list[Effect] = []
        if self.state == FRESH:
            self.state = OPEN
            if key is not None:
                self.stats.record_start(key)
                out.append(SaveStats())
            out.append(TellHost("started"))
        if self.state == OPEN and game.is_won():
            self.state = DONE
            if key is not None and self.stats.record_win(key, game.elapsed(), game.moves, game.score):
                out.append(SaveStats())
            out.append(TellHost("won"))
        out.append(SaveGame())
        return out

    def reset(self, game: Game) -> list[Effect]:
        """Start the statistics afresh; a game under way counts as played in them."""
        self.stats = Statistics()
        key = game_key(game)
        if self.state == OPEN and key is not None:
            self.stats.record_start(key)
        return [SaveStats()]
