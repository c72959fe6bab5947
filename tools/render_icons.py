"""Render static/icon.svg to the PNG icons of the web app manifest (run by hand).

    python3 tools/render_icons.py

Writes static/icon-192.png and static/icon-512.png with headless Chromium (the
browser the tests drive), transparent outside the icon's rounded square.  The
PNGs are committed; run this again only when icon.svg changes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402 - the repository's build.py, for the Chromium launch arguments

SIZES = (192, 512)


def main() -> int:
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "static" / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**build.chromium_launch_args())
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            page.set_content(
                "<!doctype html><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            out = ROOT / "static" / f"icon-{size}.png"
            page.screenshot(path=str(out), omit_background=True)
            page.close()
            print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
