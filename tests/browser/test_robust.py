"""No false alarm, no lost win, no counterfeit win (issue 24): gestures, tabs, watched games,
results kept through storage faults, host floods, verdicts, what messages name.

The rules are asserted in CPython where they are pure (tests/test_saves.py,
tests/test_session.py, tests/test_robust_logic.py); these tests check that the
page keeps them in Chromium.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import deal_url, wait_ready

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# Every element that scrolls itself (or clips, which makes it a scroll container too): its own
# touch-action starts a new chain, so the page root's "pan-y" does not reach inside it.
_SIDEWAYS_PANNERS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    const cs = getComputedStyle(el);
    const scrolls = !['visible', 'clip'].includes(cs.overflowX) || !['visible', 'clip'].includes(cs.overflowY);
    if (!scrolls || el.closest('svg')) continue;
    const ta = cs.touchAction;
    if (!(ta === 'none' || ta.split(' ').every(w => ['pan-y', 'pinch-zoom', 'pan-up', 'pan-down'].includes(w))))
      out.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + [...el.classList].join('.')) + ': ' + ta);
  }
  return out;
}"""


def _swipe(cdp: Any, x0: float, x1: float, y: float, steps: int = 8) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y, "id": 1}]})
    for k in range(1, steps + 1):
        x = x0 + (x1 - x0) * k / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_no_sideways_swipe_over_panels_bars_or_felt_leaves_the_page(open_context: Any, site: str) -> None:
    page = open_context(has_touch=True, is_mobile=True).new_page()
    page.set_viewport_size(PHONE)
    page.goto(deal_url(site, 5))
    page.goto(deal_url(site, 617))  # a page to go back to: a swipe that navigates would land there
    wait_ready(page)
    page.evaluate("() => { window.__stay = 1; }")
    cdp = page.context.new_cdp_session(page)
    w, h = PHONE["width"], PHONE["height"]
    for name in ["settings", "rules"]:
        page.locator(f".actionbar [data-action={name}]").first.click()
        panel = page.locator(f"[data-panel={name}]")
        panel.wait_for(state="visible")
        assert page.evaluate(_SIDEWAYS_PANNERS_JS) == []
        box = panel.bounding_box()
        for y in (box["y"] + 40, box["y"] + box["height"] / 2):
            for x0, x1 in ((1, w - 2), (w - 2, 1), (box["x"] + 5, box["x"] + box["width"] - 5)):
                _swipe(cdp, x0, x1, y)
        assert page.evaluate("() => window.__stay") == 1, "a swipe over a panel left the page"
        assert page.evaluate("() => [scrollX, document.scrollingElement.scrollLeft]") == [0, 0]
        page.keyboard.press("Escape")
        panel.wait_for(state="hidden")
    for y in (5, h / 2, h - 5):  # the status bar, the felt, the action bar
        _swipe(cdp, 1, w - 2, y)
        _swipe(cdp, w - 2, 1, y)
    assert page.evaluate("() => window.__stay") == 1
    assert page.url.endswith("deal=617")
