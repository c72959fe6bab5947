"""First visits over a throttled link: bytes before ready, cards visible, ready, and all bytes.

Run it from the repository root (it builds ``dist/`` first)::

    python3 -m bench.firstvisit                    # 3 interleaved rounds of each link
    python3 -m bench.firstvisit --runs 5 --links loopback,slow4g --json /tmp/first.json

Each round opens the plain address (``/``) in a fresh browser context of
headless Chromium, service workers allowed, as a new player does.  The link
is made by the server, not the browser, so that the page, its solver worker
and the service worker share it as they would a phone's: every answer waits
one round trip before its headers, and all answers share one bandwidth (a
token bucket over the bytes sent).  Links (as Chrome's DevTools presets):

* ``loopback``: no throttling;
* ``fast4g``: 9 Mbit/s, 170 ms round trip;
* ``slow4g``: 1.6 Mbit/s, 150 ms round trip.

Measured, medians over the rounds: *cards* (the first ``g.card`` in the
document, from the navigation start: static/early.js's table), *ready*
(``<html data-state=ready>``), *bytes before ready* (what the server sent
until then, headers left out), and *all bytes* (what it sent until the
service worker is active and the page has stored both snapshots in its cache,
or 120 s after ready).
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

import build

from .common import loadavg, results_file, write_json

LINKS: dict[str, tuple[float, float]] = {  # bits per second, round trip in seconds
    "loopback": (0.0, 0.0),
    "fast4g": (9e6, 0.170),
    "slow4g": (1.6e6, 0.150),
}
CHUNK = 16 * 1024
TIMES_JS = """
(() => {
  const t = window.__times = {};
  const seen = () => {
    if (!t.cards && document.querySelector('svg#table g.card')) t.cards = performance.now();
    if (!t.ready && document.documentElement.dataset.state === 'ready') t.ready = performance.now();
  };
  new MutationObserver(seen).observe(document, {subtree: true, childList: true, attributes: true});
})();
"""
SNAPSHOTS_JS = """
async () => {
  for (const name of await caches.keys()) {
    if (name.endsWith(' snapshots')) return (await (await caches.open(name)).keys()).length;
  }
  return 0;
}
"""


class Link:
    """One shared link: a round trip before each answer, one bandwidth for all bytes."""

    def __init__(self, bits_per_second: float, round_trip: float) -> None:
        self.rate = bits_per_second / 8
        self.round_trip = round_trip
        self.lock = threading.Lock()
        self.free_at = 0.0
        self.sent = 0

    def send(self, out: BinaryIO, data: bytes) -> None:
        if self.rate:
            with self.lock:
                start = max(time.monotonic(), self.free_at)
                self.free_at = start + len(data) / self.rate
                until = self.free_at
            time.sleep(max(0.0, until - time.monotonic()))
        out.write(data)
        with self.lock:
            self.sent += len(data)


def handler_for(link: Link) -> type[build.Handler]:
    class Throttled(build.Handler):
        LINK: ClassVar[Link] = link

        def send_head(self) -> Any:
            time.sleep(self.LINK.round_trip)
            return super().send_head()

        def copyfile(self, source: Any, outputfile: Any) -> None:
            while chunk := source.read(CHUNK):
                self.LINK.send(outputfile, chunk)

    return Throttled


def visit(browser: Any, site: Path, link_name: str) -> dict[str, float]:
    link = Link(*LINKS[link_name])
    with build.serving(site, handler_class=handler_for(link)) as url:
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      service_workers="allow")
        page = context.new_page()
        page.add_init_script(TIMES_JS)
        page.goto(url, wait_until="commit")
        page.wait_for_function("() => window.__times && window.__times.ready", timeout=300_000, polling=50)
        before_ready = link.sent
        times = page.evaluate("() => window.__times")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = page.evaluate("() => !!(navigator.serviceWorker.controller)") and \
                page.evaluate(SNAPSHOTS_JS) >= 2
            if done:
                break
            page.wait_for_timeout(500)  # polling the page's caches: nothing to wait on
        context.close()
        return {"cards_ms": times.get("cards", float("nan")), "ready_ms": times["ready"],
                "bytes_before_ready": before_ready, "bytes_all": link.sent,
                "snapshots_stored": float(done)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--links", default="loopback,fast4g,slow4g")
    parser.add_argument("--json", type=Path, default=results_file("firstvisit"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site = build.build()
    links = args.links.split(",")
    results: dict[str, list[dict[str, float]]] = {name: [] for name in links}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for _ in range(args.runs):
            for name in links:
                results[name].append(visit(browser, site, name))
                print(name, json.dumps(results[name][-1]), flush=True)
        browser.close()
    print(f"{'link':10} {'cards ms':>9} {'ready ms':>9} {'MB before ready':>16} {'MB in all':>10}")
    summary = {}
    for name, rows in results.items():
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        summary[name] = med
        before, total = med["bytes_before_ready"] / 1e6, med["bytes_all"] / 1e6
        print(f"{name:10} {med['cards_ms']:9.0f} {med['ready_ms']:9.0f} {before:16.2f} {total:10.2f}")
    write_json(args.json, {"load": loadavg(), "runs": results, "medians": summary})


if __name__ == "__main__":
    main()
