"""The status bar's texts, from the game on the table: item by item, and what gives way on a small screen.

Pure functions of a :class:`~freecell.ui.text.catalogue.Catalogue` and values,
so the page renders them the same way after any change (a move, a language
switch) and the tests read them in CPython.  Every :class:`Item` is a DOM hook
of the README: ``data-status=name`` (or ``data-stat``, ``data-role``) with
the raw value in ``data-value``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...game import Game
from ...variants import VARIANTS
from ..analysis.analysis import Loss
from ..analysis.replies import Verdict
from .catalogue import Catalogue

WINNABLE = {Verdict.SOLVED: "yes", Verdict.UNSOLVABLE: "no", Verdict.UNKNOWN: "unknown"}


# the marks the style sheet puts before a known winnability ("✓ Winnable")
MARKS = {"yes": "✓ ", "no": "✗ "}


@dataclass(frozen=True, slots=True)
class Item:
    """One figure: its hook name, its raw value, its text; ``hidden``: not shown.  ``also``: a text
    it often turns into, room kept for it (the bar does not give way when the answer comes)."""

    name: str
    value: str
    text: str
    hidden: bool = False
    also: str = ""

    def shown(self) -> str:
        """The text as the bar draws it, its mark included."""
        return MARKS.get(self.value, "") + self.text if self.name == "winnable" else self.text


def status_items(cat: Catalogue, game: Game, variant: str, level: str | None, verdict: Verdict,
                 show_score: bool, show_winnable: bool, loss: Loss | None = None) -> list[Item]:
    """The status bar, item by item, in full (``time`` is rendered on its own, every tick).

    A won game shows its result where the winnability was ("Won", with the
    value ``yes``, whatever the winnability setting) and no capacity.  A lost
    one says "No longer winnable" only when a position before was proven
    winnable (``loss``), else "Cannot be won": never blame for a deal lost
    from its start.
    """
    won = game.is_won()
    # how many cards may move at once, but never more than the columns hold ("up to 768" says nothing)
    capacity = min(game.capacity(), max(1, sum(map(len, game.position.columns))))
    items = [
        Item("capacity", str(capacity), cat.t("status.capacity", n=capacity), hidden=won),
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
        key = "status.winnable." + value
        if verdict is Verdict.UNSOLVABLE and loss not in (Loss.MOVE, Loss.EARLIER):
            key = "status.winnable.never"
        # "Winnable?" turns into "✓ Winnable" within a moment, and back at the next move: measured as
        # the wider of the two, the bar keeps its items as the answers come and go (the deal number
        # came and went at 390 px)
        also = {"unknown": MARKS["yes"] + cat.t("status.winnable.yes"),
                "yes": cat.t("status.winnable.unknown")}.get(value, "")
        items.append(Item("winnable", value, cat.t(key), hidden=not show_winnable, also=also))
    return items


# What gives way, in turn, when the status bar does not fit on one line: the short variant name,
# then the cards home (the foundations show them), the difficulty (the deal number stays: it is
# what a player shares or types again), the capacity's words ("5 at once", its label says the
# rest), the deal number, the name of a variant whose table shows it (other free cells or
# columns: Seahaven Towers, FreeCell without cells), a lost game's long words ("Cannot be won",
# "Impossible à gagner": "✗ Unwinnable", "✗ Insoluble"), the moves, the name of one that looks like
# FreeCell (last: Baker's Game builds by suit, and only its name says so).  The capacity, the
# time, the score and the winnability (or the result) stay.
SHORTER = ("variant-short", "home", "difficulty", "capacity-short", "deal", "variant-seen", "lost-short",
           "moves", "variant")


def _table_shows(variant_id: str) -> bool:
    """Whether the variant ``variant_id`` is one whose table shows it (:attr:`Variant.table_shows_it`)."""
    known = VARIANTS.get(variant_id)
    return known is not None and known.table_shows_it


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
            elif step == "difficulty" and item.name == "deal" and item.text and level:
                item = replace(item, text=cat.t("status.deal", n=item.value))
            elif step == "capacity-short" and item.name == "capacity":
                item = replace(item, text=cat.t("status.capacity_short", n=item.value))
            elif step == "lost-short" and item.name == "winnable" and item.value == "no":
                item = replace(item, text=cat.t("status.winnable.no_short"))
            elif item.name == step or (step == "variant-seen" and item.name == "variant"
                                       and _table_shows(item.value)):
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


def time_item(cat: Catalogue, game: Game, shown: bool = True) -> Item:
    """The time played (``shown``: the timer setting; the clock runs either way)."""
    secs = int(game.elapsed())
    return Item("time", str(secs), cat.time(secs), hidden=not shown)
