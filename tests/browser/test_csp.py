"""The Content-Security-Policy: the page and the solver worker run under it without a violation.

The page carries ``CSP`` in a ``<meta>`` and the dev server sends it as a
header (``CSP_WORKER`` for the worker scripts, which run under their
own response's policy).  A ``securitypolicyviolation`` listener is in the page
from the start (an init script) and in the worker (put in front of its
script by a route), and every violation is also written to the console; the
page boots, plays a move and gets a hint from the worker, and none may have
fired.  At the end a forbidden inline script in the page, and ``eval`` in the
worker, show that the policies are enforced and that the listeners hear them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from builder.server import CSP, CSP_WORKER
from freecell.game import Game
from freecell.piles import Move

from .helpers import STEP_TIMEOUT, deal_url, play_move_on_page, solution_lines, wait_ready

browser = pytest.mark.browser

WORKER_TIMEOUT = 120_000  # ms: the worker boots its own Pyodide after the page's
VIOLATION = "CSP violation"

PAGE_JS = f"""
window.__csp = [];
window.__workers = [];
document.addEventListener('securitypolicyviolation', (e) => {{
  const text = e.effectiveDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber;
  window.__csp.push(text);
  console.error('{VIOLATION} (page): ' + text);
}});
if (typeof Worker !== 'undefined') {{
  const Original = Worker;
  window.Worker = function (url, options) {{
    const w = new Original(url, options);
    window.__workers.push(w);
    return w;
  }};
  window.Worker.prototype = Original.prototype;
}}
"""

# In front of static/solver-worker.js: report violations; on "csp-probe" try
# eval (forbidden there) without the solver's loop ever seeing the message.
WORKER_JS = f"""
self.addEventListener('securitypolicyviolation', (e) => {{
  console.error('{VIOLATION} (worker): ' + e.effectiveDirective + ' ' + e.blockedURI + ' '
                + e.sourceFile + ':' + e.lineNumber);
}});
self.addEventListener('message', (e) => {{
  if (e.data !== 'csp-probe') return;
  e.stopImmediatePropagation();
  try {{ (0, eval)('1'); }} catch (err) {{ /* blocked, as it should be */ }}
}});
"""


def _violations(console: list[str]) -> list[str]:
    return [line for line in console if VIOLATION in line]


@browser
def test_page_and_worker_run_under_the_policy_without_a_violation(
    open_context: Any, site: str, request_log: Any
) -> None:
    ctx = open_context()
    ctx.add_init_script(PAGE_JS)
    worker_headers: dict[str, str] = {}

    def worker_script(route: Any) -> None:
        response = route.fetch()
        worker_headers.update(response.headers)
        route.fulfill(response=response, body=WORKER_JS + response.text())

    ctx.route("**/static/solver-worker.js", worker_script)
    page = ctx.new_page()
    document = page.goto(deal_url(site, 1))
    assert document is not None
    assert document.headers.get("content-security-policy") == CSP
    meta = page.locator('meta[http-equiv="Content-Security-Policy"]')
    expect(meta).to_have_attribute("content", CSP)
    wait_ready(page)

    # a move, then a hint from the worker
    game = Game(deal=1)
    play_move_on_page(page, game, Move.parse(solution_lines(1)[0]))
    page.locator(".actionbar [data-action=hint]").click()
    expect(page.locator("[data-panel=hint]")).to_have_attribute("data-state", "found", timeout=WORKER_TIMEOUT)
    assert worker_headers.get("content-security-policy") == CSP_WORKER

    assert page.evaluate("() => window.__csp") == []
    assert _violations(request_log.console) == []
    refused = [line for line in request_log.console if re.search(r"Content.Security.Policy|Refused to", line)]
    assert refused == []

    # the policies hold and the listeners hear them: an inline script in the
    # page, eval in the worker
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
        " document.head.append(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0", timeout=STEP_TIMEOUT)
    assert page.evaluate("() => window.__ran") is None
    assert page.evaluate("() => window.__csp[0]").startswith("script-src-elem inline")
    assert page.evaluate("() => window.__workers.length") >= 1
    with page.expect_console_message(lambda m: f"{VIOLATION} (worker): script-src eval" in m.text,
                                     timeout=STEP_TIMEOUT):
        page.evaluate("() => window.__workers[window.__workers.length - 1].postMessage('csp-probe')")
    request_log.console.clear()  # the two violations above were on purpose
