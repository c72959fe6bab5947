"""A host that floods the embedded game with commands: how soon does the frame answer again?

Run it from the repository root (it builds ``dist/`` first)::

    python3 -m bench.flood                 # 3,000 `deal` commands in 3 s, 3 rounds
    python3 -m bench.flood --commands 6000 --seconds 3 --rounds 5 --dist /tmp/old/dist

A host page on another local port frames ``?embed=1&host=<its origin>``; once
the game is ready the host sends ``{"source": "freecell-host", "type":
"deal", "deal": N}`` with N counting up, in bursts every 10 ms, for the given
time (issue 24: 3,005 messages in 3 s froze the frame for 279.8 s).  Figures:
the commands the frame obeyed (each sets its address once), and the time
from the last command sent until the frame shows the last deal and answers
a script (its ``data-status=deal``), then until a tap on a card is drawn
(the card selected).  Medians over the rounds.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

HOST = """<!doctype html><html><head><meta charset="utf-8"><title>host</title></head>
<body style="margin:0"><iframe id="game" src="{src}" style="border:0;width:390px;height:700px"></iframe>
<script>
window.flood = (count, seconds) => new Promise((done) => {{
  const bursts = Math.max(1, Math.round(seconds * 100)), per = Math.ceil(count / bursts);
  let n = 0;
  const w = document.getElementById("game").contentWindow;
  const tick = () => {{
    for (let k = 0; k < per && n < count; k++) {{
      n++;
      w.postMessage({{source: "freecell-host", type: "deal", deal: 20000 + n}}, "*");
    }}
    if (n < count) setTimeout(tick, 10); else done(performance.now());
  }};
  tick();
}});
</script></body></html>"""

COUNT_JS = """
if (window.top !== window) {
  window.__addresses = 0;
  const real = history.replaceState.bind(history);
  history.replaceState = (...args) => { window.__addresses += 1; return real(...args); };
}
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--commands", type=int, default=3000)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dist", type=Path, default=None, help="a built site to serve (default: build dist/)")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    import build

    dist = args.dist or build.build()
    root = Path(tempfile.mkdtemp(prefix="flood-host-"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    answered, tapped, obeyed = [], [], []
    with build.serving(dist) as site, sync_playwright() as pw:
        browser = pw.chromium.launch(**build.chromium_launch_args())
        last = 20000 + args.commands
        (root / "host.html").write_text(HOST.format(
            src=f"{site}?deal=1&embed=1&host={quote(origin, safe='')}"), encoding="utf-8")
        for r in range(args.rounds):
            ctx = browser.new_context(service_workers="block", reduced_motion="reduce")
            ctx.add_init_script(COUNT_JS)
            page = ctx.new_page()
            page.goto(f"{origin}/host.html")
            frame = None
            while frame is None:
                page.wait_for_timeout(100)
                frame = next((f for f in page.frames if f.url.startswith(site)), None)
            frame.wait_for_function("() => document.documentElement.dataset.state === 'ready'",
                                    timeout=120_000)
            before = frame.evaluate("() => window.__addresses")
            page.evaluate("([c, s]) => window.flood(c, s)", [args.commands, args.seconds])
            t0 = time.perf_counter()
            shows = f"() => document.querySelector('[data-status=deal]')?.dataset.value === '{last}'"
            frame.wait_for_function(shows, timeout=600_000, polling=20)
            answered.append((time.perf_counter() - t0) * 1000)
            card = frame.locator("svg#table g#cards g.card").last
            t1 = time.perf_counter()
            card.click()
            frame.wait_for_function("() => document.querySelector('svg#table g.card.selected') !== null",
                                    timeout=60_000, polling=10)
            tapped.append((time.perf_counter() - t0) * 1000)
            obeyed.append(frame.evaluate("() => window.__addresses") - before)
            tap_ms = (time.perf_counter() - t1) * 1000
            print(f"round {r + 1}: obeyed {obeyed[-1]} of {args.commands}; answering {answered[-1]:.0f} ms "
                  f"after the last command, a tap drawn at {tapped[-1]:.0f} ms ({tap_ms:.0f} ms for the tap)")
            ctx.close()
        browser.close()
    httpd.shutdown()
    print(f"median: obeyed {statistics.median(obeyed):.0f} of {args.commands} commands; the frame answers "
          f"{statistics.median(answered):.0f} ms after the flood, "
          f"a tap is drawn at {statistics.median(tapped):.0f} ms")


if __name__ == "__main__":
    main()
