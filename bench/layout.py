"""The table's layout figures per screen size: card width, fans, where the lowest card ends.

Run it from the repository root::

    python3 -m bench.layout                  # figures from freecell.ui.table.layout (no browser)
    python3 -m bench.layout --page           # the same, measured in the built page (Chromium)
    python3 -m bench.layout --page --shots /tmp/shots   # and a screenshot of each

Without ``--page`` the figures come from :func:`freecell.ui.table.layout.compute_layout`
applied to the table area's box at each viewport (:data:`AREAS`, measured in
the built page: the status bar above, the message line and the action bar
below, or beside in phone landscape).  With ``--page``, the site built by
``build.build()`` is served on a free 127.0.0.1 port, each viewport is opened
at ``?deal=1``, at ``?board=`` with a 17-card column (:func:`long_board`) and
at deal 1 of Seahaven and of Eight Off, and the figures are read from the
cards' boxes on screen.

The figures, per viewport and position: card width; the strip a covered card
shows in the short columns and in the longest one (the fan); where the lowest
card ends, in pixels from the top of the viewport and as a share of its
height; and the width of the card's top index (``cardart.TOP_STRIP``), which a
strip must not be under.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.common import loadavg, wait_ready
from freecell.cards import make_card
from freecell.position import Position
from freecell.ui.table.cardart import LARGE_TOP_STRIP, TOP_STRIP
from freecell.ui.table.layout import compute_layout

# viewport (w, h) -> the table area's box (top, width, height), measured in the built page
AREAS = {
    (390, 844): (32.0, 390.0, 658.0),
    (844, 390): (32.0, 740.0, 358.0),
    (1280, 800): (32.0, 1280.0, 684.0),
    (360, 640): (32.0, 360.0, 454.0),
    (768, 1024): (32.0, 768.0, 908.0),
}


def long_board(length: int = 17) -> Position:
    """Deal-like columns, column 1 holding ``length`` cards: buried cards (the aces), then K♠ down to 2♥."""
    run = [make_card(13 - k, 3 if k % 2 == 0 else 2) for k in range(12)]  # KS QH JS TH ... 2H
    rest = [c for c in range(52) if c not in run]
    buried = length - len(run)
    first = rest[:buried] + run
    others = rest[buried:]
    cols = [first] + [others[i::7] for i in range(7)]
    return Position(tuple(tuple(c) for c in cols), (None,) * 4, (0, 0, 0, 0)).validate()


def figures(pos: Position, top: float, width: float, height: float, viewport_h: float,
            large: bool = False) -> dict[str, float]:
    """The figures of ``pos`` drawn by compute_layout in a table area ``width`` x ``height`` at ``top``."""
    from freecell.ui.table.layout import LARGE_MIN_STRIP, MIN_STRIP

    longest = max(len(c) for c in pos.columns)
    lay = compute_layout(width, height, len(pos.cells), len(pos.columns), longest,
                         LARGE_MIN_STRIP if large else MIN_STRIP)
    fans = [lay.fan(len(c)) for c in pos.columns if len(c) > 1]
    low = top + lay.bottom(pos)
    return {"card_w": lay.card_w, "short": max(fans), "long": min(fans), "low": low,
            "share": low / viewport_h, "index": lay.card_w * (LARGE_TOP_STRIP if large else TOP_STRIP),
            "capacity": lay.capacity}


def line(size: tuple[int, int], name: str, f: dict[str, float]) -> str:
    cap = f" capacity {int(f['capacity'])}" if "capacity" in f else ""
    return (f"{size[0]}x{size[1]:<5} {name:<14} card {f['card_w']:5.1f} px  strip {f['short']:5.1f} / "
            f"{f['long']:5.1f} px (index {f['index']:4.1f})  lowest card ends at {f['low']:4.0f} px "
            f"({f['share']:.0%}){cap}")


def cases() -> list[tuple[str, Position, bool]]:
    from freecell.game import Game

    out = [("deal 1", Position.deal(1), False), ("17-card column", long_board(), False),
           ("deal 1 large", Position.deal(1), True), ("17 large", long_board(), True)]
    for vid in ("seahaven", "eightoff"):
        out.append((f"{vid} deal 1", Game(1, variant=vid).position, False))
    return out


def pure() -> None:
    for size, (top, w, h) in AREAS.items():
        for name, pos, large in cases():
            print(line(size, name, figures(pos, top, w, h, size[1], large)))


MEASURE_JS = """() => {
  const a = document.getElementById('table-area').getBoundingClientRect();
  const cards = Array.from(document.querySelectorAll('svg#table g#cards g.card'))
    .map(g => { const r = g.getBoundingClientRect();
                return [g.dataset.pile, Number(g.dataset.index), r.top, r.width, r.bottom]; });
  return {area: [a.top, a.width, a.height], cards};
}"""


def measured(data: dict[str, Any], viewport_h: float) -> dict[str, float]:
    cols: dict[str, list[tuple[int, float]]] = {}
    for pile, index, top, _, _ in data["cards"]:
        if pile in "1234567890":
            cols.setdefault(pile, []).append((index, top))
    fans = []
    for v in cols.values():
        v.sort()
        if len(v) > 1:
            fans.append(min(b[1] - a[1] for a, b in itertools.pairwise(v)))
    card_w = max(c[3] for c in data["cards"])
    low = max(c[4] for c in data["cards"] if c[0] in "1234567890")
    return {"card_w": card_w, "short": max(fans), "long": min(fans), "low": low,
            "share": low / viewport_h, "index": card_w * TOP_STRIP}


def page(shots: Path | None) -> None:
    from playwright.sync_api import sync_playwright

    import build

    urls = {"deal 1": "?deal=1", "17-card column": "?board=" + quote(long_board().to_text(), safe=""),
            "seahaven deal 1": "?deal=1&variant=seahaven", "eightoff deal 1": "?deal=1&variant=eightoff"}
    with build.built_copy() as site, build.serving(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(**build.chromium_launch_args())
        try:
            for size in AREAS:
                for name, query in urls.items():
                    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-GB")
                    pg = ctx.new_page()
                    pg.goto(base + query)
                    wait_ready(pg)
                    pg.wait_for_function("document.getAnimations().length === 0")
                    data = pg.evaluate(MEASURE_JS)
                    top, w, h = data["area"]
                    area = f"  [area {w:.0f}x{h:.0f} at {top:.0f}]"
                    print(line(size, name, measured(data, size[1])) + area)
                    if shots is not None:
                        shots.mkdir(parents=True, exist_ok=True)
                        slug = name.split()[0].replace("-", "").replace("deal", "freecell")
                        pg.screenshot(path=str(shots / f"{size[0]}x{size[1]}-{slug}.png"))
                    ctx.close()
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", action="store_true", help="measure the built page in Chromium")
    ap.add_argument("--shots", type=Path, help="with --page: save a screenshot of each size here")
    args = ap.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in loadavg())}")
    if args.page:
        page(args.shots)
    else:
        pure()
    return 0


if __name__ == "__main__":
    sys.exit(main())
