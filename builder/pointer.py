"""Where a player's pointer goes on the table (the points of cards and piles, the clicks, the taps),
and where the table shows each card (:func:`read_layout`, :func:`expected_layout`).

Shared by the browser tests (``tests/browser/helpers.py``) and the benchmarks
that play on the page (``bench/hints.py``, ``bench/firsthint.py``).  Cards are
clicked where they can be seen: a covered card shows only its top strip, so a
card is clicked near its top edge (8% of its height), at a point where
``document.elementFromPoint`` finds that very card; a pile is clicked where its
drop area (or a card lying on that pile) is the topmost element.  Before any
point is read, running animations are let finish and the element must keep
the same box for two frames.  The page's attributes read here are the DOM
hooks of ``docs/embedding.md``.
"""

from __future__ import annotations

from typing import Any

from freecell.cards import card_text, make_card, suit
from freecell.engine import check_move
from freecell.game import Game
from freecell.piles import CELL, COLUMN, FOUNDATION, HOME, Move, cell, column, foundation
from freecell.position import Position

STEP_TIMEOUT = 10_000  # ms: one move, one panel, one re-render
CARDS = "svg#table g#cards g.card"


class Unreachable(AssertionError):
    """The point of a card or pile is covered by another element: what a test reports as failed."""


def _card_selector(card: str) -> str:
    return f'{CARDS}[data-card="{card}"]'


def _pile_selector(pile: str) -> str:
    return f'svg#table g#piles rect.pile[data-pile="{pile}"]'


def card_locator(page: Any, card: str) -> Any:
    return page.locator(_card_selector(card))


def pile_locator(page: Any, pile: str) -> Any:
    return page.locator(_pile_selector(pile))


# --- where to click --------------------------------------------------------------------

# Both functions: let animations end, make sure the box is still for two frames,
# scroll it into view if needed, then look for a point where the element itself
# is on top.
_SETTLE_FN = """
async function settle(el, kind) {
  const running = () => document.getAnimations().filter(a => {
    const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
    return a.playState === 'running' && !(t && t.iterations === Infinity);
  });
  for (let i = 0; i < 10 && running().length; i++) {
    await Promise.race([Promise.all(running().map(a => a.finished.catch(() => null))),
                        new Promise(r => setTimeout(r, 1000))]);
  }
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  let last = null;
  for (let i = 0; i < 120; i++) {
    const r = el.getBoundingClientRect();
    const key = [r.left, r.top, r.width, r.height].join();
    if (key === last) break;
    last = key;
    await frame();
  }
  // Scroll only when needed: a card whose top strip is not in view, a pile
  // area of which nothing is in view (a column's area may be taller than the
  // viewport; its visible part is enough).
  const r = el.getBoundingClientRect();
  const out = kind === 'card'
    ? (r.top < 0 || r.top + r.height * 0.2 > innerHeight || r.left < 0 || r.right > innerWidth)
    : (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth);
  if (out) {
    el.scrollIntoView({block: kind === 'card' ? 'center' : 'nearest', inline: 'nearest'});
    await frame();
  }
}
"""

_CARD_POINT_FN = """
function point(el, frac) {
  const r = el.getBoundingClientRect();
  const xs = [0.5, 0.35, 0.65, 0.2, 0.8];
  const ys = [frac, frac * 0.6, frac * 1.4, frac * 0.3];
  for (const fy of ys) for (const fx of xs) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) return {x, y};
  }
  const x = r.left + r.width / 2, y = r.top + r.height * frac;
  const hit = document.elementFromPoint(x, y);
  return {x, y, covered: hit ? hit.outerHTML.slice(0, 120) : 'nothing (outside the viewport)'};
}
"""

_PILE_POINT_FN = """
function point(el, pile) {
  const r = el.getBoundingClientRect();
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const xs = [0.5, 0.3, 0.7];
  const ys = [0.9, 0.75, 0.6, 0.5, 0.4, 0.25, 0.1, 0.97, 0.03];
  const onPile = (hit) => {
    if (!hit) return false;
    if (hit === el) return true;
    const g = hit.closest('g.card');
    return !!g && g.getAttribute('data-pile') === pile;
  };
  // the drop area itself first, a card lying on the pile next
  for (const strict of [true, false]) for (const fy of ys) for (const fx of xs) {
    const x = left + (right - left) * fx, y = top + (bottom - top) * fy;
    const hit = document.elementFromPoint(x, y);
    if (strict ? hit === el : onPile(hit)) return {x, y};
  }
  const x = (left + right) / 2, y = (top + bottom) / 2;
  const hit = document.elementFromPoint(x, y);
  return {x, y, covered: hit ? hit.outerHTML.slice(0, 120) : 'nothing (outside the viewport)'};
}
"""


# The element may be drawn again while it settles (a new deal redraws the piles): a detached
# element's box is all zeros, whose point (0, 0) lies on the status bar.  Look it up again then.
_FIND_SETTLED = """
  let el = document.querySelector(selector);
  for (let i = 0; el !== null && i < 10; i++) {
    await settle(el, kind);
    if (el.isConnected) break;
    el = document.querySelector(selector);
  }
  if (el === null || !el.isConnected) return null;
"""


def _point_js(point_fn: str) -> str:
    """One call into the page: find the element, let it settle, pick the point (``null``: not there
    yet).  A round trip per point, not five: a move is two points, and the tests play hundreds."""
    return ("async ([selector, kind, extra]) => {\n" + _SETTLE_FN + point_fn
            + _FIND_SETTLED + "  return point(el, extra);\n}")


_CARD_POINT_JS = _point_js(_CARD_POINT_FN)
_PILE_POINT_JS = _point_js(_PILE_POINT_FN)


def _point(page: Any, selector: str, kind: str, js: str, extra: object, what: str) -> tuple[float, float]:
    p = page.evaluate(js, [selector, kind, extra])
    if p is None:  # not drawn yet: wait for it as long as a step may take
        page.locator(selector).wait_for(state="attached", timeout=STEP_TIMEOUT)
        p = page.evaluate(js, [selector, kind, extra])
    if "covered" in p:
        raise Unreachable(f"{what} cannot be reached: the top element there is {p['covered']}")
    return float(p["x"]), float(p["y"])


def card_point(page: Any, card: str, frac: float = 0.08) -> tuple[float, float]:
    """A visible point of a card near its top edge (the strip a covered card shows)."""
    return _point(page, _card_selector(card), "card", _CARD_POINT_JS, frac, f"the card {card}")


def pile_point(page: Any, pile: str) -> tuple[float, float]:
    """A point over a pile's drop area: on the area itself, else on a card of that pile."""
    return _point(page, _pile_selector(pile), "pile", _PILE_POINT_JS, pile, f"the pile {pile}")


def click_card(page: Any, card: str) -> None:
    page.mouse.click(*card_point(page, card))


def click_pile(page: Any, pile: str) -> None:
    page.mouse.click(*pile_point(page, pile))


def tap_card(page: Any, card: str) -> None:
    page.touchscreen.tap(*card_point(page, card))


def tap_pile(page: Any, pile: str) -> None:
    page.touchscreen.tap(*pile_point(page, pile))


# --- moves -------------------------------------------------------------------------------


def source_card(pos: Position, move: Move) -> str:
    """The card to press for ``move``: for k cards, the k-th from the bottom of the column."""
    if move.src.kind == COLUMN:
        col = pos.columns[move.src.index]
        if not 1 <= move.count <= len(col):
            raise ValueError(f"{move.text()}: column too short")
        return card_text(col[-move.count])
    if move.src.kind != CELL:
        raise ValueError(f"{move.text()}: moves from a foundation are not played here")
    c = pos.cells[move.src.index]
    if c is None:
        raise ValueError(f"{move.text()}: the free cell is empty")
    return card_text(c)


def destination_pile(pos: Position, move: Move) -> str:
    """The page's name of the destination: ``1``-``8``, ``a``-``d``, ``h1``-``h4``."""
    if move.dst.kind == FOUNDATION:
        c = pos.columns[move.src.index][-1] if move.src.kind == COLUMN else pos.cells[move.src.index]
        if c is None:
            raise ValueError(f"{move.text()}: the free cell is empty")
        return foundation(suit(c)).text()
    return move.dst.text()


def goes_home_on_tap(pos: Position, move: Move, game: Game) -> bool:
    """Whether a tap on the source card of ``move`` sends that card home at once."""
    if move.count != 1 or move.src.kind not in (COLUMN, CELL):
        return False
    return check_move(pos, Move(move.src, HOME), game.rules) is None


# --- where the table shows each card --------------------------------------------------

Layout = dict[str, tuple[str, int]]  # card -> (pile, index in the pile)

_READ_LAYOUT_JS = """
() => Array.from(document.querySelectorAll('svg#table g#cards g.card')).map(
  g => [g.getAttribute('data-card'), g.getAttribute('data-pile'), g.getAttribute('data-index')])
"""


def expected_layout(pos: Position) -> Layout:
    """``{"QS": ("3", 4), ...}`` for every one of the 52 cards, as the page must show them."""
    out: Layout = {}
    for i, col in enumerate(pos.columns):
        for k, c in enumerate(col):
            out[card_text(c)] = (column(i).text(), k)
    for i, held in enumerate(pos.cells):
        if held is not None:
            out[card_text(held)] = (cell(i).text(), 0)
    for s, n in enumerate(pos.foundations):
        for r in range(n):
            out[card_text(make_card(r + 1, s))] = (foundation(s).text(), r)
    if len(out) != 52:
        raise ValueError(f"not a full position: {len(out)} cards")
    return out


def read_layout(page: Any) -> Layout:
    """Where the page shows each card (two elements for one card is an error)."""
    rows = page.evaluate(_READ_LAYOUT_JS)
    out: Layout = {}
    for card, pile, index in rows:
        if card in out:
            raise AssertionError(f"two elements for the card {card}")
        out[card] = (pile, int(index) if index is not None and index.isdigit() else -1)
    return out


def layout_diff(want: Layout, got: Layout) -> str:
    """The cards where ``got`` differs from ``want``, a line each (30 at most)."""
    lines = []
    for card in sorted(set(want) | set(got)):
        if want.get(card) != got.get(card):
            lines.append(f"  {card}: want {want.get(card)}, page has {got.get(card)}")
    if len(got) != 52:
        lines.append(f"  the page has {len(got)} card elements, not 52")
    return "\n".join(lines[:30]) or "  (none)"
