"""A session in CPython as the page has one: its catalogue, clocks, storage, and the worker's replies."""

from __future__ import annotations

from pathlib import Path

from freecell.position import Position
from freecell.solver import Solver
from freecell.ui.address.query import parse_query
from freecell.ui.analysis import replies as rp
from freecell.ui.progress.keyvalue import MemoryStorage
from freecell.ui.progress.progress import Progress
from freecell.ui.progress.settings import Settings
from freecell.ui.session import change as ch
from freecell.ui.session.opening import Boot
from freecell.ui.session.session import Session
from freecell.ui.text.catalogue import Catalogue

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"


def catalogue(lang: str = "en") -> Catalogue:
    return Catalogue.from_json(lang, (I18N / f"{lang}.json").read_text(encoding="utf-8"))


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Wall:
    """The page's wall clock (``Date.now()``, ms), moved by hand."""

    def __init__(self) -> None:
        self.ms = 1_700_000_000_000.0

    def __call__(self) -> float:
        return self.ms


def session(query: str = "?deal=1", settings: Settings | None = None, local: MemoryStorage | None = None,
            tab: MemoryStorage | None = None, wall: Wall | None = None) -> Session:
    """A page: ``local`` is the origin's localStorage (shared by tabs), ``tab`` this tab's sessionStorage."""
    progress = Progress(local if local is not None else MemoryStorage(),
                        tab if tab is not None else MemoryStorage(), wall=wall or Wall())
    s = Session(catalogue(), settings, progress, clock=Clock())
    run(s, s.opening.start(Boot(parse_query(query))))
    return s


def run(s: Session, change: ch.Change) -> ch.Change:
    """What the page does with a change's storage effects (the rest is the DOM's)."""
    for effect in change.effects:
        if isinstance(effect, ch.SaveGame):
            s.keeping.saved(s.progress.save(s.game))
    return change


def asks(change: ch.Change) -> list[rp.Ask]:
    return [e.ask for e in change.effects if isinstance(e, rp.AskSolver)]


def solve(pos: Position, s: Session, nodes: int = 200_000) -> rp.SolverReply:
    """What the worker would answer about ``pos``, as the page parses it."""
    r = Solver(pos, s.game.rules).solve(max_nodes=nodes)
    data = {"type": "result", "verdict": r.verdict, "moves": [m.to_json() for m in r.moves],
            "hint": r.moves[0].to_json() if r.moves else None, "nodes": r.nodes, "ms": 1,
            "difficulty": "easy" if r.verdict == "solved" else None}
    reply = rp.parse_reply(data, pos, s.game.rules)
    assert isinstance(reply, rp.SolverReply)
    return reply
