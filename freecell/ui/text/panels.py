"""The panels' texts: the win panel, the statistics, the deal of the day, the unfinished games.

Pure functions of a :class:`~freecell.ui.text.catalogue.Catalogue` and values;
each :class:`~freecell.ui.text.status.Item` is a DOM hook of the README
(``data-stat``, ``data-role``, ``data-win``) with its raw value.
"""

from __future__ import annotations

from datetime import date

from ...deals import daily_deal
from ...game import Game
from ..analysis.playback import Par, ParState
from ..progress.daily import DailyRecord, daily_day
from ..progress.saved_games import Summary
from ..progress.stats import Tally
from .catalogue import Catalogue
from .speech import plural
from .status import Item


def win_values(cat: Catalogue, game: Game) -> dict[str, str]:
    return {
        "time": cat.time(game.elapsed()),
        "moves": str(game.moves),
        "home": cat.t("status.home", n=game.cards_home()),
        "deal": "" if game.deal is None else str(game.deal),
    }


def par_text(cat: Catalogue, moves: int, par: Par | None, watched: bool = False) -> str:
    """The win panel's line of moves: ``You: 84 moves, the solver's: 79, counted the same way.``
    (or while it counts).

    ``watched``: the solver played some of the game (or a link brought it
    partway), so the moves are not the player's to set beside the solver's:
    the line gives the solver's own from the deal alone (``""`` when none is known),
    and says it is shorter when it is: one found after the playback had started.
    """
    if par is None or (par.state is ParState.KNOWN and par.moves is None):
        par = Par(ParState.UNKNOWN)
    key = _PAR_KEYS[par.state, watched]
    if watched and par.moves is not None and par.moves < moves:
        key = "win.par_watched_shorter"  # found while a longer one played (Show solution pressed early)
    if not key:
        return ""
    par_moves = "" if par.moves is None else plural(cat, "win.moves_n", par.moves)
    return cat.t(key, you=plural(cat, "win.moves_n", moves), par=par.moves, par_moves=par_moves)


_PAR_KEYS = {
    (ParState.KNOWN, False): "win.par", (ParState.KNOWN, True): "win.par_watched",
    (ParState.SEARCHING, False): "win.par_searching", (ParState.SEARCHING, True): "win.par_watched_searching",
    (ParState.UNKNOWN, False): "win.par_unknown", (ParState.UNKNOWN, True): "",
}


def watch_again(moves: int, par: Par | None) -> bool:
    """Whether the win panel offers to watch "a short solution": only one shorter than the game
    just won (a player's 53 moves beside the solver's 53 was offered one as long; a watched game
    no longer than it was the same solution, or one as short).  While it is counted, yes."""
    return not (par is not None and par.moves is not None and moves <= par.moves)


def win_title_key(watched: bool) -> str:
    """The win panel's title: "You won!", or "Solved" for a game the player did not win alone."""
    return "win.title_watched" if watched else "win.title"


def daily_items(cat: Catalogue, record: DailyRecord, today: date, game: Game) -> list[Item]:
    """The deal of the day: today's number, solved or not, the streaks (the settings and stats panels)."""
    solved = record.solved(today)
    n = daily_deal(today)
    return [
        Item("daily-deal", str(n), cat.t("daily.today", n=n)),
        Item("daily-solved", "yes" if solved else "no",
             cat.t("daily.solved" if solved else "daily.not_solved")),
        Item("daily-streak", str(record.streak(today)), plural(cat, "daily.days", record.streak(today))),
        Item("daily-longest", str(record.longest), plural(cat, "daily.days", record.longest)),
        Item("daily-here", "yes" if daily_day(game, today) == today else "no", ""),
    ]


def stats_items(cat: Catalogue, s: Tally, key: str | None) -> list[Item]:
    """The statistics panel's figures; the last two are for the deal on the table (``key``)."""
    rate = s.win_rate()
    none = cat.t("stats.none")
    items = [
        Item("played", str(s.played), str(s.played)),
        Item("won", str(s.won), str(s.won)),
        Item("rate", "" if rate is None else str(rate),
             none if rate is None else cat.t("stats.rate_value", n=rate)),
        Item("streak", str(s.streak), str(s.streak)),
        Item("longest", str(s.longest), str(s.longest)),
        Item("best-score", str(s.best_score), str(s.best_score) if s.won else none),
    ]
    record = s.best(key) if key is not None else None
    if record is None:
        items += [Item("best-time", "", none), Item("fewest-moves", "", none)]
    else:
        items += [Item("best-time", str(record.best_seconds), cat.time(record.best_seconds)),
                  Item("fewest-moves", str(record.fewest_moves), str(record.fewest_moves))]
    return items


def when(cat: Catalogue, then_ms: float, now_ms: float) -> str:
    """How long ago a game was last played: ``just now``, ``5 minutes ago``, ``2 days ago``."""
    minutes = max(0, int((now_ms - then_ms) // 60_000))
    if minutes < 1:
        return cat.t("unfinished.when.now")
    if minutes < 60:
        return plural(cat, "unfinished.when.minutes", minutes)
    if minutes < 48 * 60:
        return plural(cat, "unfinished.when.hours", minutes // 60)
    return plural(cat, "unfinished.when.days", minutes // (24 * 60))


def unfinished_items(cat: Catalogue, games: list[Summary], now_ms: float,
                     current: str | None = None) -> list[tuple[str, str, bool]]:
    """The unfinished games' list: ``(id, text, on the table now)`` of each, the most recent first."""
    out = []
    for g in sorted(games, key=lambda g: g.played, reverse=True):
        name = cat.t("unfinished.deal", n=g.deal) if g.deal is not None else cat.t("unfinished.board")
        if g.variant not in (None, "freecell"):
            name = cat.t("unfinished.with_variant", game=name, variant=cat.t(f"variant.{g.variant}"))
        here = g.id == current  # the game on the table: "on the table", not when it was last saved
        text = cat.t("unfinished.item", game=name, moves=plural(cat, "unfinished.moves", g.moves),
                     when=cat.t("unfinished.when.here") if here else when(cat, g.played, now_ms))
        out.append((g.id, text, here))
    return out


def stuck_text(cat: Catalogue, moves: int) -> str:
    """The stuck panel's text: undo, replay or a new deal; only a new deal with no move made (a
    deal with no legal move at all, whose Undo and Replay do nothing)."""
    return cat.t("stuck.text" if moves else "stuck.text_start")


def deal_error_text(cat: Catalogue, code: str | None) -> str:
    """Why the number typed in the settings' deal field is no deal (``""``: it is one)."""
    return "" if code is None else cat.t("deal.error." + code)


def daily_won_text(cat: Catalogue, streak: str) -> str:
    """The win panel's line when today's deal was just won, with the streak (``3 days``)."""
    return cat.t("win.daily", streak=streak)


def stats_deal_title(cat: Catalogue, deal: int | None) -> str:
    """The title of the statistics of the deal on the table (``""`` for a board)."""
    return "" if deal is None else cat.t("stats.deal_title", n=deal)
