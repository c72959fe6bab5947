"""The shortened solution in use on the page, in real Chromium (issue 27's page side).

After a deal's first solution the solver worker goes on shortening it in idle
time and posts each shorter one (``improved``, see freecell/worker.py); the
page takes it for par, "Show solution" and the hint line.  The other browser
tests start their workers without the shortening (``#shorten=0``, see
tests/browser/conftest.py); this one is marked ``shortening`` and gets a page
of its own, whose worker shortens as a player's does.

Written against the page's hooks (docs/embedding.md): the hint bar
``[data-panel=hint]`` and its ``[data-action=watch]``, the playback bar
``[data-panel=watch]`` with ``data-state`` and ``data-total`` (the solution's
moves, as the moves counter counts them); and the worker's messages as
tests/browser/helpers.py's recorder logs them.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from freecell.counts import game_count
from freecell.piles import Move
from freecell.position import Position
from freecell.rules import FREECELL

from .helpers import RECORDER_JS, STEP_TIMEOUT, deal_url, open_page

pytestmark = pytest.mark.browser

ANSWER_TIMEOUT = 30_000
# deal 2: the first solution takes 43 turns; a few milliseconds of shortening find 35
DEAL = 2

WORKER_REPLIES_JS = """(kind) => window.__fc.worker
    .filter(e => e.dir === 'in' && e.data && e.data.type === kind).map(e => e.data)"""


@pytest.mark.shortening
def test_show_solution_plays_the_shortened_solution(page: Any, site: str) -> None:
    page.add_init_script(RECORDER_JS)
    open_page(page, deal_url(site, DEAL))
    start = Position.deal(DEAL)
    page.wait_for_function(f"() => ({WORKER_REPLIES_JS})('result').length > 0", timeout=ANSWER_TIMEOUT)
    first = page.evaluate(WORKER_REPLIES_JS, "result")[0]
    assert first["verdict"] == "solved"
    first_turns = game_count(start, [Move.from_json(m) for m in first["moves"]], FREECELL)
    page.wait_for_function(f"() => ({WORKER_REPLIES_JS})('improved').length > 0", timeout=ANSWER_TIMEOUT)
    page.locator("body").press("h")
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=ANSWER_TIMEOUT)
    page.locator("[data-panel=hint] [data-action=watch]").click()
    bar = page.locator("[data-panel=watch]")
    expect(bar).to_have_attribute("data-state", "playing", timeout=STEP_TIMEOUT)
    total = int(bar.get_attribute("data-total") or 0)
    improved = page.evaluate(WORKER_REPLIES_JS, "improved")
    assert all(m["turns"] < first_turns for m in improved), (first_turns, improved)
    # the playback is one of the shortened solutions the page had by then, not the first
    assert total in {m["turns"] for m in improved}, (total, first_turns, [m["turns"] for m in improved])
    assert total < first_turns
