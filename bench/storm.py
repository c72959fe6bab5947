"""A storm of random input on the page, with the game checked against its saved self (issue 24).

Too long for CI.  Run it from the repository root (it builds ``dist/`` first)::

    python3 -m bench.storm                        # 5,000 events, seed 24
    python3 -m bench.storm --events 10000 --seed 7 --json /tmp/storm.json

One page of a touch-enabled context, in Chromium, starts at ``?deal=617``
(a page to go back to before it, so that a swipe that navigates would land
somewhere).  Events are drawn at random: taps (mouse and touch) anywhere on
the page, mouse drags of a card to anywhere, touch drags, long presses,
keys (the game's and Tab, Enter, Escape, Space, arrows), resizes (390x844,
844x390, 1280x800), the page hidden and shown, settings changed (a random
check box or list of the settings panel), swipes over open panels, the
bars and the felt, from the edges too.  Every 100 events (and at the end)
the page is hidden and shown (it saves) and checked:

* 52 card elements, each card once, in a legal layout: the layout is that
  of the game saved in the page's storage, replayed move by move in CPython
  (``SaveStore.restore`` of a copy of ``localStorage`` and ``sessionStorage``);
* no uncaught page error, no PyScript error box;
* the page never navigated away (a marker set at the start is still there;
  no top-level navigation after the start), and never scrolled sideways.

A layout read while a timer (Finish, the playback) moves cards may differ
once: a check is read three times before it counts as failed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

SIZES = [(390, 844), (844, 390), (1280, 800)]
KEYS = ["u", "r", "h", "n", "f", "Escape", "Enter", "Tab", "Shift+Tab", "Space", "ArrowLeft", "ArrowRight",
        "ArrowUp", "ArrowDown", "1", "2", "3", "4", "5", "6", "7", "8", "a", "b", "c", "d", "z", "Control+z"]
VIS_JS = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
CARDS_JS = """() => Array.from(document.querySelectorAll('svg#table g#cards g.card')).map(g => {
  const r = g.getBoundingClientRect(); return [r.x + r.width / 2, r.y + Math.min(10, r.height / 4)]; })"""


class Storm:
    def __init__(self, page: Any, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.cdp = page.context.new_cdp_session(page)
        self.size = SIZES[0]

    def point(self) -> tuple[float, float]:
        w, h = self.size
        return self.rng.uniform(0, w - 1), self.rng.uniform(0, h - 1)

    def card_point(self) -> tuple[float, float]:
        pts = self.page.evaluate(CARDS_JS)
        return tuple(self.rng.choice(pts)) if pts else self.point()

    def touch(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y, "id": 1}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def swipe(self, x0: float, x1: float, y: float) -> None:
        self.touch("touchStart", x0, y)
        for k in range(1, 7):
            self.touch("touchMove", x0 + (x1 - x0) * k / 6, y + self.rng.uniform(-8, 8))
        self.touch("touchEnd")

    # --- the events -------------------------------------------------------------------
    def tap(self) -> None:
        x, y = self.card_point() if self.rng.random() < 0.6 else self.point()
        self.page.mouse.click(x, y)

    def touch_tap(self) -> None:
        x, y = self.card_point() if self.rng.random() < 0.6 else self.point()
        self.page.touchscreen.tap(x, y)

    def drag(self) -> None:
        x, y = self.card_point()
        tx, ty = self.card_point() if self.rng.random() < 0.7 else self.point()
        m = self.page.mouse
        m.move(x, y)
        m.down()
        m.move(tx, ty, steps=4)
        m.up()

    def touch_drag(self) -> None:
        x, y = self.card_point()
        tx, ty = self.card_point()
        self.touch("touchStart", x, y)
        for k in range(1, 5):
            self.touch("touchMove", x + (tx - x) * k / 4, y + (ty - y) * k / 4)
        self.touch("touchEnd")

    def long_press(self) -> None:
        x, y = self.card_point()
        self.touch("touchStart", x, y)
        self.page.wait_for_timeout(600)
        if self.rng.random() < 0.5:
            self.touch("touchMove", x, y - 40)
        self.touch("touchEnd")

    def key(self) -> None:
        self.page.keyboard.press(self.rng.choice(KEYS))

    def resize(self) -> None:
        self.size = self.rng.choice(SIZES)
        self.page.set_viewport_size({"width": self.size[0], "height": self.size[1]})

    def visibility(self) -> None:
        self.page.evaluate(VIS_JS, "hidden")
        self.page.evaluate(VIS_JS, "visible")

    def setting(self) -> None:
        p = self.page
        opener = p.locator(".actionbar [data-action=settings]")
        if not opener.is_visible():
            p.keyboard.press("Escape")
            return
        opener.click(timeout=3000)
        panel = p.locator("[data-panel=settings]")
        fields = panel.locator("input[type=checkbox][data-field]:visible, select[data-field]:visible")
        n = fields.count()
        if n:
            f = fields.nth(self.rng.randrange(n))
            if f.evaluate("e => e.tagName") == "SELECT":
                options = f.locator("option").all_inner_texts()
                if options and f.get_attribute("data-field") != "language":
                    f.select_option(index=self.rng.randrange(len(options)), timeout=3000)
            else:
                f.click(timeout=3000)
        p.keyboard.press("Escape")

    def panel_swipe(self) -> None:
        p = self.page
        name = self.rng.choice(["settings", "rules", None])
        if name is not None:
            opener = p.locator(f".actionbar [data-action={name}]")
            if opener.is_visible():
                opener.click(timeout=3000)
        w, h = self.size
        y = self.rng.uniform(2, h - 2)
        x0, x1 = self.rng.choice([(1, w - 2), (w - 2, 1), (w * 0.2, w * 0.8), (w * 0.8, w * 0.2)])
        self.swipe(x0, x1, y)
        p.keyboard.press("Escape")


EVENTS = {"tap": 20, "touch_tap": 15, "drag": 14, "touch_drag": 10, "long_press": 2, "key": 22, "resize": 3,
          "visibility": 4, "setting": 4, "panel_swipe": 6}


def check(page: Any, log: dict[str, Any]) -> list[str]:
    """What is wrong with the page now (empty: nothing)."""
    from builder.pointer import expected_layout, layout_diff, read_layout
    from freecell.ui.progress.keyvalue import MemoryStorage
    from freecell.ui.progress.saved_games import SaveStore

    problems: list[str] = []
    if page.evaluate("() => window.__stay") != 1 or log["navigations"]:
        problems.append(f"navigated away ({log['navigations']} navigations)")
    if page.evaluate("() => [scrollX, document.scrollingElement.scrollLeft]") != [0, 0]:
        problems.append("scrolled sideways")
    if log["errors"]:
        problems.append("page errors: " + " | ".join(log["errors"][:3]))
    if page.locator(".py-error").count():
        problems.append("a PyScript error box")
    diff = ""
    for _attempt in range(3):
        page.evaluate(VIS_JS, "hidden")  # saved now
        data = page.evaluate("""() => ({local: Object.fromEntries(Object.entries(localStorage)),
                                        tab: Object.fromEntries(Object.entries(sessionStorage))})""")
        got = read_layout(page)
        page.evaluate(VIS_JS, "visible")
        local, tab = MemoryStorage(), MemoryStorage()
        local.data, tab.data = dict(data["local"]), dict(data["tab"])
        restored = SaveStore(local, tab).restore(None)
        if restored.game is None:
            diff = "nothing saved to compare with"
        else:
            want = expected_layout(restored.game.position)
            if want == got and len(got) == 52:
                log["seen"].append((restored.game.deal, restored.game.moves, restored.game.is_won()))
                return problems
            shown = page.evaluate("""() => ['deal', 'moves'].map(
                name => document.querySelector(`[data-status=${name}]`)?.dataset.value)""")
            memo = tab.data.get("freecell.tab")
            diff = (f"the page shows deal {shown[0]} at move {shown[1]}; storage gives deal "
                    f"{restored.game.deal} at move {restored.game.moves} (tab: {memo})\n"
                    + layout_diff(want, got))
        page.wait_for_timeout(400)  # a Finish or a playback step on its timer: read again
    return [*problems, "the page is not its saved game:\n" + diff]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--every", type=int, default=100)
    ap.add_argument("--dist", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    import build

    dist = args.dist or build.build()
    rng = random.Random(args.seed)
    kinds, weights = list(EVENTS), list(EVENTS.values())
    counts: Counter[str] = Counter()
    failures: list[tuple[int, list[str]]] = []
    log: dict[str, Any] = {"errors": [], "navigations": 0, "foreign": [], "seen": []}
    slow: Counter[str] = Counter()
    checks = 0
    t0 = time.perf_counter()
    with build.serving(dist) as site, sync_playwright() as pw:
        browser = pw.chromium.launch(**build.chromium_launch_args())
        ctx = browser.new_context(has_touch=True, viewport={"width": 390, "height": 844},
                                  service_workers="block", reduced_motion="reduce", locale="en-GB")
        ctx.route(lambda u: not u.startswith(site),
                  lambda r: (log["foreign"].append(r.request.url), r.abort()))
        page = ctx.new_page()
        page.on("pageerror", lambda e: log["errors"].append(str(e)[:300]))
        page.goto(site + "?deal=5")
        page.goto(site + "?deal=617")
        page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=120_000)
        page.evaluate("() => { window.__stay = 1; }")
        page.on("load", lambda _p: log.__setitem__("navigations", log["navigations"] + 1))  # a new document
        storm = Storm(page, rng)
        for i in range(1, args.events + 1):
            kind = rng.choices(kinds, weights)[0]
            counts[kind] += 1
            try:
                getattr(storm, kind)()
            except Exception as e:  # a click on something that went away: the storm goes on
                slow[type(e).__name__] += 1
                page.keyboard.press("Escape")
            if i % args.every == 0 or i == args.events:
                checks += 1
                problems = check(page, log)
                if problems:
                    failures.append((i, problems))
                    print(f"event {i}: " + "; ".join(problems), flush=True)
                    log["errors"].clear()
                    log["navigations"] = 0
                if i % 1000 == 0:
                    spent = time.perf_counter() - t0
                    print(f"{i} events, {spent:.0f} s, {len(failures)} failed checks", flush=True)
        browser.close()
    wall = time.perf_counter() - t0
    out = {"events": args.events, "seed": args.seed, "seconds": round(wall, 1), "by_kind": dict(counts),
           "checks": checks, "failed_checks": len(failures), "failures": failures[:20],
           "event_exceptions": dict(slow), "requests_off_machine": log["foreign"][:10],
           "games_seen": len({d for d, _m, _w in log["seen"]}),
           "most_moves_at_a_check": max((m for _d, m, _w in log["seen"]), default=0),
           "checks_with_moves": sum(1 for _d, m, _w in log["seen"] if m), "won_at_a_check": sum(
               1 for _d, _m, w in log["seen"] if w)}
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
