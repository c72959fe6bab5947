"""A returning player's table, drawn by static/early.js before Python, is the table Python draws;
a first visit's deal, drawn there too, is the deal Python then plays.

The page keeps its drawing when it is hidden (freecell/ui/progress/stored_table.py); on the
next load early.js draws it from that, with the sprite's symbols.  Here the
page's runtime is held back (its PyScript module is not answered) so that
only early.js has run; the table is photographed, then Python is let in and
the table photographed again: the same pixels, the cards in the same places.
"""

from __future__ import annotations

from typing import Any

import pytest

from freecell.game import Game
from freecell.piles import Move
from freecell.ui.table.first_table import FIRST_DEALS

from .helpers import deal_url, expect_game, open_page, play_move_on_page, set_visibility, wait_ready

pytestmark = pytest.mark.browser

PLACES_JS = """
(attr) => Object.fromEntries(Array.from(document.querySelectorAll('svg#table g#cards g.card'))
  .map(g => [g.getAttribute(attr), g.style.transform]))
"""


def test_the_early_table_is_python_s_table_and_none_for_another_game_or_bad_data(fresh_page: Any,
                                                                                 site: str) -> None:
    """The early table of the game kept is Python's table, pixel for pixel; then, from that same
    kept drawing, no early table for an address that asks for another deal, nor from stored
    drawings that are damaged or hostile, and the page still boots after them (one visit's boot
    for both: a first boot is the dearest thing these tests do)."""
    page = fresh_page
    open_page(page, deal_url(site, 617))
    game = Game(deal=617)
    play_move_on_page(page, game, Move.parse("8a"))
    set_visibility(page, "hidden")  # the page keeps its drawing
    python_places = page.evaluate(PLACES_JS, "data-card")
    held: list[Any] = []
    page.route("**/vendor/pyscript/**", lambda route: held.append(route))
    page.reload(wait_until="commit")
    page.wait_for_function("() => document.documentElement?.dataset.early === 'drawn'", timeout=20_000)
    assert page.evaluate("() => document.documentElement.dataset.state") == "loading"
    assert page.evaluate(PLACES_JS, "data-early") == python_places
    table = page.locator("svg#table")
    page.evaluate("() => { document.getElementById('loading').hidden = true; }")  # over the table
    early = table.screenshot(animations="disabled")
    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyscript/**")
    wait_ready(page)
    expect_game(page, game)
    assert page.evaluate(PLACES_JS, "data-card") == python_places
    assert page.locator("svg#table [data-early]").count() == 0  # Python's own drawing now
    assert table.screenshot(animations="disabled") == early, "the early table is not Python's table"

    # the same drawing kept, another deal asked for: none; nor from bad stored drawings
    set_visibility(page, "hidden")
    held.clear()
    page.route("**/vendor/pyscript/**", lambda route: held.append(route))
    page.goto(deal_url(site, 5), wait_until="commit")  # another deal than the one kept
    page.wait_for_function("() => document.documentElement?.dataset.early !== undefined")
    assert page.evaluate("() => document.documentElement.dataset.early") == "none"
    for bad in ('{"v": 1, "w": 1e9}', "not json", '{"v":1,"cards":[["<img>",0,0,"face-AC"]]}'):
        page.evaluate("(t) => localStorage.setItem('freecell.drawn', t)", bad)
        page.goto(site, wait_until="commit")
        page.wait_for_function("() => document.documentElement?.dataset.early !== undefined")
        assert page.evaluate("() => document.documentElement.dataset.early") == "none", bad
        assert page.locator("svg#table g#cards > *").count() == 0
    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyscript/**")
    page.goto(site)
    wait_ready(page)


BOXES_JS = """
(attr) => Object.fromEntries(Array.from(document.querySelectorAll('svg#table g#cards g.card'))
  .map(g => { const r = g.getBoundingClientRect(); return [g.getAttribute(attr), [r.x, r.y, r.width]]; }))
"""


# every card animation the page starts: the card and its keyframes
GLIDES_JS = """
window.__glides = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keys, timing) {
  if (this.matches && this.matches('svg#table g#cards g.card'))
    window.__glides.push(this.getAttribute('data-card'));
  return animate.call(this, keys, timing);
};
"""
# the layout shifts of the load (the Layout Instability API), with what moved
SHIFTS_JS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__shifts.push([e.value, (e.sources || []).map(
      (s) => s.node ? (s.node.id || s.node.nodeName) : '?').join(' ')]);
  }
}).observe({type: 'layout-shift', buffered: true});
"""
TWO_FRAMES_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
STILL_JS = """() => !document.getAnimations().some(a => a.playState === 'running' && a.effect
  && a.effect.target && a.effect.target.matches && a.effect.target.matches('svg#table g#cards g.card'))"""


# each column's cards in the order they are drawn: each over the one above it
DRAWN_ORDER_JS = """() => { const cols = {};
  for (const g of document.querySelectorAll('svg#table g#cards g.card')) {
    const pile = g.getAttribute('data-pile');
    if (/^[0-9]+$/.test(pile)) (cols[pile] = cols[pile] || []).push(+g.getAttribute('data-index'));
  }
  return cols; }"""


@pytest.mark.motion  # the glide from the early drawing is the point
@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_a_first_visit_sees_a_deal_at_once_and_plays_that_deal(fresh_page: Any, site: str,
                                                               size: tuple[int, int]) -> None:
    """Nothing stored, a plain address: early.js draws one of the build's deals (first_table.py),
    and the page's Python deals that very deal, each card within a few pixels of where it was,
    and gliding from there: no card jumps.  A phone on its side, where the grid's layouts
    are furthest from the page's (9 px; 1.4 px at 1280x800); and upright, where some cards
    need no glide (each card must still be drawn over the one above it: a card lifted for
    its glide hid the corner of the card below it until the first move)."""
    page = fresh_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.add_init_script(GLIDES_JS)
    page.add_init_script(SHIFTS_JS)
    held: list[Any] = []
    page.route("**/vendor/pyscript/**", lambda route: held.append(route))
    # early.js held back until the page above it has been painted, as on a slow link
    early_script: list[Any] = []
    page.route("**/static/early.js", lambda route: early_script.append(route))
    page.goto(site, wait_until="commit")
    page.wait_for_function("() => document.getElementById('loading') !== null", polling="raf")
    page.evaluate(TWO_FRAMES_JS)
    assert len(early_script) == 1
    early_script[0].continue_()
    page.unroute("**/static/early.js")
    page.wait_for_function("() => document.documentElement?.dataset.early !== undefined", timeout=20_000)
    assert page.evaluate("() => document.documentElement.dataset.early") == "first"
    deal = int(page.evaluate("() => document.documentElement.dataset.firstDeal"))
    assert deal in FIRST_DEALS
    assert page.evaluate("() => document.documentElement.dataset.state") == "loading"
    early = page.evaluate(BOXES_JS, "data-early")
    assert len(early) == 52
    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyscript/**")
    wait_ready(page)
    expect_game(page, Game(deal=deal))
    page.wait_for_function(STILL_JS)
    late = page.evaluate(BOXES_JS, "data-card")
    assert set(late) == set(early)
    for pile, order in page.evaluate(DRAWN_ORDER_JS).items():
        assert order == sorted(order), f"column {pile} drawn in the order {order}"
    off = {card: max(abs(a - b) for a, b in zip(early[card], late[card], strict=True)) for card in late}
    worst = max(off.values())
    print(f"first visit at {page.viewport_size}: the cards moved by at most {worst:.1f} px")
    # the grid's rows around the box, interpolated in the page's arrangement (first_table.py)
    assert worst <= 12, f"the cards moved by {worst:.1f} px when Python took over"
    glided = set(page.evaluate("() => window.__glides"))
    jumped = [card for card, d in off.items() if d > 1 and card not in glided]
    assert jumped == [], f"cards that jumped to their place: {jumped}"
    assert page.locator("svg#table [data-early]").count() == 0
    # nothing jumped on the way either: not the loading line (shown over the table, then moved
    # under it when early.js drew), not the bars
    shifts = page.evaluate("() => window.__shifts")
    assert sum(value for value, _ in shifts) < 0.02, f"layout shifts: {shifts}"


def test_no_first_visit_deal_when_something_is_kept_or_asked(fresh_page: Any, site: str) -> None:
    page = fresh_page
    held: list[Any] = []
    page.route("**/vendor/pyscript/**", lambda route: held.append(route))
    page.goto(deal_url(site, 5), wait_until="commit")  # the address asks for a deal
    page.wait_for_function("() => document.documentElement?.dataset.early !== undefined")
    marks = "() => [document.documentElement.dataset.early, document.documentElement.dataset.firstDeal]"
    assert page.evaluate(marks) == ["none", None]
    page.evaluate("() => localStorage.setItem('freecell.settings', '{}')")  # a visit before this one
    page.goto(site, wait_until="commit")
    page.wait_for_function("() => document.documentElement?.dataset.early !== undefined")
    assert page.evaluate("() => document.documentElement.dataset.early") == "none"
    for route in held:
        route.continue_()
    page.unroute("**/vendor/pyscript/**")
