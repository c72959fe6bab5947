"""The solver's search order, pinned: the same states expanded in the same order.

Speed work on the solver (:mod:`freecell.solver`, :mod:`freecell.packed`,
:mod:`freecell.shorten`) must keep the search exactly the same search: the
same states expanded in the same order with the same priorities and
tie-breaks.  Then for every position the verdict, the number of nodes, the
states held and the (shortened) moves are what they were, which is what
makes "nodes per second before and after" a fair comparison.  These searches
pin that: a deal or a variant each, their node and state counts and a digest
of the moves, as recorded before the solver was made faster.  A change that
reorders the search (a different tie-break, a move generated in another
order, a priority computed otherwise) shows here, even when every verdict
stays right.

Deal 189 goes past the point where the beams start
(:data:`freecell.solver.DEEP_AFTER`), so their slices are pinned too; "deal
189 sides" is the same deal without the beams (:data:`freecell.solver.FIRST_BEAM`
off), so the side searches' slices are pinned as well.
"""

from __future__ import annotations

import hashlib

import pytest

from freecell import solver
from freecell.deals import deal_cards
from freecell.position import Position
from freecell.rules import FREECELL, Rules
from freecell.solver import SOLVED, UNSOLVABLE, Solver
from freecell.variants import lay_out, variant

# (what, verdict, nodes, states, moves, digest of the moves' text)
PINNED = [
    ("deal 1", SOLVED, 127, 745, 92, "4c3b1926ad3ad0a7"),
    ("deal 5", SOLVED, 579, 3145, 102, "2916560d84544ea3"),
    ("deal 617", SOLVED, 744, 1964, 95, "1d3bf16fded44e70"),
    ("deal 1941", SOLVED, 5783, 8065, 86, "5ad2c09a723d80ea"),
    ("deal 189", SOLVED, 18682, 31154, 80, "15dbb8cea65c8c36"),
    ("deal 189 sides", SOLVED, 16240, 33122, 99, "134611162b50e5a5"),
    ("bakers 3", SOLVED, 33, 279, 72, "e8842013b5cff611"),
    ("seahaven 2", SOLVED, 24, 142, 63, "0df9d0973cdd9d34"),
    ("freecell1 5", SOLVED, 12706, 15769, 102, "f6be03a30e98049d"),
    ("eightoff 4", SOLVED, 1474, 3947, 80, "78c55544e09e3dc7"),
    ("freecell0 7", UNSOLVABLE, 90, 90, 0, "e3b0c44298fc1c14"),
    ("return 3", SOLVED, 93, 1523, 75, "c1b954b81ccd32e1"),
]


def start(what: str) -> tuple[Position, Rules]:
    name, number = what.split()[:2]
    n = int(number)
    if name == "deal":
        return Position.deal(n), FREECELL
    if name == "return":  # cards may come back from the foundations
        rules = Rules(foundation_return=True)
        return lay_out(deal_cards(n), rules), rules
    v = variant(name)
    return v.deal(n), v.rules


@pytest.mark.parametrize(("what", "verdict", "nodes", "states", "length", "digest"), PINNED,
                         ids=[p[0] for p in PINNED])
def test_the_search_is_the_same_search(what: str, verdict: str, nodes: int, states: int,
                                       length: int, digest: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pos, rules = start(what)
    if what.endswith(" sides"):
        monkeypatch.setattr(solver, "FIRST_BEAM", False)
    r = Solver(pos, rules).solve(max_nodes=60_000)
    text = " ".join(m.text() for m in r.moves)
    assert (r.verdict, r.nodes, r.states, len(r.moves)) == (verdict, nodes, states, length)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
