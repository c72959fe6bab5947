"""The improving search's beams, as data: their estimate's weightings and their order.

:class:`freecell.improve.Improver` runs beams one after another, each a :class:`Run`:

* the beam widens run after run (:data:`RUNS`; the worker's
  :data:`WIDTHS`): wider beams find shorter solutions, and cost more; each
  width is run with each of the estimate's weightings (:data:`WEIGHTS`) in
  turn, since a deal that one weighting leads astray another often solves
  shorter;
* from :data:`CUT_FROM` on, each width is also run from points along the
  best solution (after :data:`CUT_STEP`, 2 x :data:`CUT_STEP`... of its
  moves), that solution's moves up to there kept: a beam from a later
  position has fewer levels to fill, so it finds a shorter rest of the game
  that the beam from the start lost on the way;
* a *tapered* beam (:attr:`Run.taper`) narrows as it goes (:meth:`Run.width_at`):
  the levels near the start, where a short line parts from the long ones,
  keep the full width, and a wide beam costs about 60% of its nodes; on the
  deals whose short line only a 1,500-wide beam finds, the tapered one
  mostly finds it too, and two fit in the most where one did;
* :data:`RUNS` is the order of :func:`freecell.improve.improve_for` (and
  of the command line), rules as data: the narrow beams of the first
  budget, two wide ones tapered, one 1,000 wide, the other wide ones
  tapered, then the others, then the cut runs; :func:`schedule` makes the
  plainer order of any widths (each width from the start, then along the
  best, before the next: the worker's, whose few
  seconds of a slower engine the cut runs of the narrow beams pay more);
* :data:`FIRST_RUNS` are the beams of :class:`freecell.improve.FirstBeam`,
  for the solver.

What each weight counts is said where the estimate is worked out
(:mod:`freecell.improve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

# the worker's widths, run after run (schedule: each with each of WEIGHTS, from the start and along the best)
WIDTHS = (40, 150, 500, 1500, 4000)
# the widths from which a beam also runs from points along the best solution, every CUT_STEP moves
CUT_FROM, CUT_STEP, MAX_CUT = 150, 5, 60
# from this width on, a beam from the start takes the lighter weight of the groups first (the second
# of WEIGHTS): a wide beam needs less push towards them
LIGHT_FROM = 1500


class Weights(NamedTuple):
    """The estimate's weights: groups that must move, cards over a lower card, cards not home,
    free cells in use, empty columns (a bonus), cards not in order."""

    groups: int
    disorder: int
    left: int
    cells: int
    empty: int
    unsorted: int = 0


# each width is run with each of these in turn: the groups that must move first, then less so, then
# only what is not in order yet (each finds short solutions where the others go astray)
WEIGHTS = (Weights(6, 2, 1, 4, 3), Weights(3, 2, 1, 4, 3), Weights(0, 0, 1, 1, 0, 1))


# a tapered beam is this many levels from its full width to none, and never under TAPER_FLOOR of it
TAPER, TAPER_FLOOR = 40, 4


class Run(NamedTuple):
    """One beam: its width, its weighting, after how many moves of the best solution it starts,
    and whether it narrows as it goes (:meth:`width_at`)."""

    width: int
    weights: Weights
    cut: int = 0
    taper: bool = False

    def width_at(self, level: int) -> int:
        """The beam's width at ``level`` (the number of moves from its start).

        >>> [Run(1500, WEIGHTS[0], taper=True).width_at(n) for n in (1, 10, 20, 30, 35)]
        [1462, 1125, 750, 375, 375]
        >>> Run(1500, WEIGHTS[0]).width_at(35)
        1500
        """
        if not self.taper:
            return self.width
        return max(self.width // TAPER_FLOOR, self.width * (TAPER - level) // TAPER)


def schedule(widths: Sequence[int], weights: Sequence[Weights], cuts: bool = True) -> list[Run]:
    """Each width in turn: from the start with each weighting (from :data:`LIGHT_FROM` on, the
    lighter one first), then from points along the best (unless not ``cuts``).

    >>> [(r.width, r.cut) for r in schedule((40, 150, 500), WEIGHTS[:1])][:4]
    [(40, 0), (150, 0), (150, 5), (150, 10)]
    >>> [(r.width, WEIGHTS.index(r.weights)) for r in schedule((500, 1500), WEIGHTS[:2], False)]
    [(500, 0), (500, 1), (1500, 1), (1500, 0)]
    """
    def along(width: int) -> list[Run]:
        if not cuts or width < CUT_FROM:
            return []
        return [Run(width, w, cut) for cut in range(CUT_STEP, MAX_CUT, CUT_STEP) for w in weights]

    def start(width: int) -> list[Run]:
        order = list(weights)
        if width >= LIGHT_FROM and len(order) > 1:
            order[:2] = order[1::-1]
        return [Run(width, w) for w in order]

    return [run for width in widths for run in start(width) + along(width)]


def _runs(*beams: tuple[int, int], taper: bool = False) -> list[Run]:
    """Beams from the start, each ``(width, index in WEIGHTS)``."""
    return [Run(width, WEIGHTS[w], taper=taper) for width, w in beams]


# improve_for's beams (and the command line's), in order: chosen on profiles of each beam alone
# (bench.schedule, improve_for's rule on their exact curves), then checked by runs of the orders
# themselves (bench/README.md: a sample chosen by one order's worst deals favours any other order)
RUNS = tuple(
    # the first budget (0.4 s, 13,000 nodes): the narrow beams, and the lighter weighting's 300 wide in
    # the place of its 150 wide: deals 9464 and 20667 (the published 20) stop there with 28 moves from
    # the narrow beams, and this beam finds 21 and 22 (18 deals once over 1.35 times the published:
    # 3 over -> none)
    _runs((40, 0), (40, 1), (40, 2), (300, 1), (150, 0), (150, 2))
    # then the lighter weighting's beam 2,500 wide tapered, and the last weighting's 1,500 wide tapered:
    # the run at d2b116c stopped at 16,972 deals with 14177 at 34 moves (the published 25), whose short
    # line the first weighting's 1,500 tapered beam finds past the most, after the last weighting's
    # 1,000 wide, which found nothing.  Of every order of two beams ahead of the rest (306), played
    # on the profiles (bench.schedule) of the 61 deals of that run within 3 moves of 1.35 times the
    # published that went past the first budget, at 35,360 nodes a second: this one has none over (the
    # order before: 1), 1, 2, 5 and 17 deals at margins 0, 1, 2 and 3 (before: 3, 3, 15, 31), the ratio
    # to the published 1.153 (1.220); on 51 of that run's deals at a margin of 4, one came to 2 and
    # four to 3, the ratio 1.143 (1.171)
    + _runs((2500, 1), (1500, 2), taper=True)
    # then the last weighting's beam 1,000 wide: it finds short lines the others miss (15745: 23 moves,
    # as published, where the others find 25; 2946: 31, the published 28, where the tapered beams ahead
    # of it found 37)
    + _runs((1000, 2))
    # then the wide beams, tapered: the deals nearest 1.35 times the published find their short line
    # only in a beam 1,500 wide (29581: 34 moves, the published 28, where 40 was found in the most when
    # this beam came untapered, at 44,930 nodes, after the 1,000-wide one; tapered, 24,486).  Run on the
    # 660 deals of 1..32000's first 1,354 in the spread order that go past the first budget, against
    # the 1,500-wide untapered here: 19,109 moves against 19,080 (+0.15%), the deals within 3 moves of
    # 1.35 times the published 7 -> 5, within 2 moves 5 -> 3; with the tapered beams ahead of the
    # 1,000-wide one, 19,149 and 2946 at 37/28
    + _runs((1500, 1), (1500, 0), (2500, 0), taper=True)
    + _runs((500, 0), (500, 1), (500, 2), (1500, 1), (1500, 0), (1500, 2))
    # then from points along the best: after every beam from the start, as the cut runs are many and a
    # deal whose short line only a wide beam finds would spend its budget on them first (17173: 34 moves,
    # 19 from a 1,500-wide beam in half a second); and last the widest
    + [run for width in (150, 500, 1500) for run in schedule((width,), WEIGHTS) if run.cut]
    + schedule((4000,), WEIGHTS)
)


# FirstBeam's beams, in order: (width, index in WEIGHTS)
FIRST_RUNS = ((150, 0), (150, 2), (500, 0), (500, 2))
