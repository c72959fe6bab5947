"""The texts the page shows, from the session's state: status bar, hint bar, win panel, statistics.

Pure functions of a :class:`~freecell.ui.text.catalogue.Catalogue` and values, so the
page renders them the same way after any change (a move, a language switch)
and the tests read them in CPython.  Every ``(name, value, text)`` item is a
DOM hook of the README: ``data-status=name`` (or ``data-stat``) with the raw
value in ``data-value``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from ...cards import card_symbol, make_card, suit
from ...deals import daily_deal
from ...engine import moving_cards
from ...game import Game
from ...piles import CELL, COLUMN, FOUNDATION, Move
from ...position import Position
from ..analysis import playback as pb
from ..analysis.analysis import FALLBACK, FOUND, SEARCHING, UNAVAILABLE, UNSOLVABLE_BAR, WON, HintBar, Verdict
from ..progress.daily import DailyRecord, daily_day
from ..progress.saved_games import Summary
from ..progress.stats import Tally
from .catalogue import Catalogue
from .speech import plural

WINNABLE = {Verdict.SOLVED: "yes", Verdict.UNSOLVABLE: "no", Verdict.UNKNOWN: "unknown"}


@dataclass(frozen=True, slots=True)
class Item:
    """One figure: its hook name, its raw value, its text; ``hidden``: not shown."""

    name: str
    value: str
    text: str
    hidden: bool = False


def status_items(cat: Catalogue, game: Game, variant: str, level: str | None, verdict: Verdict,
                 show_score: bool, show_winnable: bool) -> list[Item]:
    """The status bar, item by item, in full (``time`` is rendered on its own, every tick).

    A won game shows its result where the winnability was ("Won", with the
    value ``yes``, whatever the winnability setting) and no capacity.
    """
    won = game.is_won()
    items = [
        Item("capacity", str(game.capacity()), cat.t("status.capacity", n=game.capacity()), hidden=won),
        Item("home", str(game.cards_home()), cat.t("status.home", n=game.cards_home())),
        Item("moves", str(game.moves), cat.t("status.moves", n=game.moves)),
    ]
    if game.deal is None:
        items.append(Item("deal", "", ""))
    elif level is not None:
        items.append(Item("deal", str(game.deal),
                          cat.t("status.deal_level", n=game.deal, level=cat.t(f"difficulty.{level}"))))
    else:
        items.append(Item("deal", str(game.deal), cat.t("status.deal", n=game.deal)))
    # the classic game goes without a name; a variant's name stands next to the deal
    items.append(Item("variant", variant, "" if variant == "freecell" else cat.t(f"variant.{variant}")))
    items.append(Item("score", str(game.score), cat.t("status.score", n=game.score), hidden=not show_score))
    if won:
        items.append(Item("winnable", "yes", cat.t("status.won")))
    else:
        value = WINNABLE[verdict]
        items.append(Item("winnable", value, cat.t("status.winnable." + value), hidden=not show_winnable))
    return items


# What gives way, in turn, when the status bar does not fit on one line: the short variant name,
# then the cards home (the foundations show them), the deal number (its difficulty stays),
# the difficulty, the moves, the variant (last: Baker's Game looks like FreeCell and builds by
# suit).  The capacity, the time, the score and the winnability (or the result) stay.
SHORTER = ("variant-short", "home", "deal-number", "deal", "moves", "variant")


def status_plans(cat: Catalogue, items: list[Item], level: str | None) -> list[list[Item]]:
    """The status bar from its full form to its shortest: each plan gives way a step more (:data:`SHORTER`).

    The page shows the first plan whose items fit on one line (their widths
    are measured there: :func:`first_fit`).
    """
    plans = [items]
    current = items
    for step in SHORTER:
        changed = []
        for item in current:
            if step == "variant-short" and item.name == "variant" and item.value != "freecell":
                item = replace(item, text=cat.t(f"variant.short.{item.value}"))
            elif step == "deal-number" and item.name == "deal" and item.text:
                item = replace(item, text=cat.t(f"difficulty.{level}") if level else "", hidden=not level)
            elif item.name == step:
                item = replace(item, hidden=True)
            changed.append(item)
        if changed != current:
            plans.append(changed)
            current = changed
    return plans


def fits(widths: list[float], room: float, gap: float) -> bool:
    """Whether items of these widths (0: not shown) and the gaps between them fit in ``room``.

    >>> fits([60, 0, 50], room=120, gap=10), fits([60, 40, 50], room=120, gap=10)
    (True, False)
    """
    shown = [w for w in widths if w > 0]
    return sum(shown) + gap * max(0, len(shown) - 1) <= room


def first_fit(widths: list[list[float]], room: float, gap: float) -> int:
    """The first plan whose items fit in ``room`` (:func:`fits`); the last if none does.

    >>> first_fit([[60, 40, 50], [60, 0, 50]], room=130, gap=10)
    1
    >>> first_fit([[60, 40, 50]], room=100, gap=10)
    0
    """
    return next((i for i, plan in enumerate(widths) if fits(plan, room, gap)), max(0, len(widths) - 1))


def time_item(cat: Catalogue, game: Game) -> Item:
    secs = int(game.elapsed())
    return Item("time", str(secs), cat.time(secs))


def where(cat: Catalogue, pos: Position, move: Move) -> tuple[str, str]:
    """The card a move takes and where it goes, as words: ``("7♥", "column 4")``."""
    cards = moving_cards(pos, move)
    card = card_symbol(cards[0]) if cards else "?"
    if move.dst.kind == FOUNDATION:
        place = cat.t("where.foundation")
    elif move.dst.kind == CELL:
        place = cat.t("where.cell")
    elif pos.columns[move.dst.index]:
        place = cat.t("where.column", n=move.dst.index + 1)
    else:
        place = cat.t("where.empty_column")
    return card, place


def hint_text(cat: Catalogue, bar: HintBar) -> str:
    """The hint bar's sentence."""
    if bar.state == WON:
        return cat.t("hint.won")
    if bar.state == SEARCHING:
        return cat.t("hint.searching")
    if bar.state == UNSOLVABLE_BAR:
        return cat.t("hint.unsolvable")
    if bar.move is None:
        return cat.t("hint.unavailable")
    card, place = where(cat, bar.position, bar.move)
    if bar.state == UNAVAILABLE:
        return cat.t("hint.no_solver", card=card, where=place)
    if bar.state == FOUND:
        return cat.t("hint.found", card=card, where=place)
    key = "hint.suggestion" if bar.suggestion else "hint.fallback"
    return cat.t(key, card=card, where=place)


def hint_state(bar: HintBar) -> str:
    """``data-state`` of the hint bar (``won`` shows as ``found``, as it always has)."""
    return FOUND if bar.state == WON else (FALLBACK if bar.state == FALLBACK else bar.state)


def hint_marks(bar: HintBar) -> tuple[dict[str, str], dict[int, str], set[str]]:
    """What the hinted move marks: piles (``{"3": "from", "h2": "to"}``), cards, and drawn areas.

    ``areas`` are the marked piles whose area itself is drawn (a free cell, a
    foundation, an empty column); other piles show the mark on their cards.
    """
    move, pos = bar.move, bar.position
    if move is None or bar.state not in (FOUND, FALLBACK, UNAVAILABLE):
        return {}, {}, set()
    dst = move.dst
    cards = moving_cards(pos, move)
    marked = dict.fromkeys(cards, "from")
    if dst.kind == FOUNDATION:
        home = suit(cards[0]) if cards else 0
        dst_name = f"h{home + 1}"
        if pos.foundations[home]:
            marked[make_card(pos.foundations[home], home)] = "to"
    else:
        dst_name = dst.text()
        if dst.kind == COLUMN and pos.columns[dst.index]:
            marked[pos.columns[dst.index][-1]] = "to"
    areas = {dst_name} if dst.kind != COLUMN or not pos.columns[dst.index] else set()
    return {move.src.text(): "from", dst_name: "to"}, marked, areas


def win_values(cat: Catalogue, game: Game) -> dict[str, str]:
    return {
        "time": cat.time(game.elapsed()),
        "moves": str(game.moves),
        "home": cat.t("status.home", n=game.cards_home()),
        "deal": "" if game.deal is None else str(game.deal),
    }


def par_text(cat: Catalogue, moves: int, par: int | None, state: str | None) -> str:
    """The win panel's line of moves: ``You: 84 moves, the solver's: 79.`` (or while it counts)."""
    if state == "known" and par is not None:
        return cat.t("win.par", you=moves, par=par)
    if state == "searching":
        return cat.t("win.par_searching", you=moves)
    return cat.t("win.par_unknown", you=moves)


def watch_text(cat: Catalogue, playback: pb.Playback) -> str:
    """The playback bar's sentence: looking, the number of moves, the step on show, or why none."""
    if playback.state == pb.SEARCHING:
        return cat.t("watch.searching")
    if playback.state == pb.NONE:
        return cat.t("watch.none." + (playback.reason or pb.NOT_FOUND))
    if playback.done == 0:
        return plural(cat, "watch.count", playback.total)
    return cat.t("watch.step", n=playback.done, total=playback.total)


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
        text = cat.t("unfinished.item", game=name, moves=plural(cat, "unfinished.moves", g.moves),
                     when=when(cat, g.played, now_ms))
        out.append((g.id, text, g.id == current))
    return out
