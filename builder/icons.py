"""The manifest's PNG icons, rendered from ``static/icon.svg`` (by hand: ``python3 build.py icons``)."""

from __future__ import annotations

from .browsers import chromium_launch_args
from .project import ROOT

ICON_SIZES = (192, 512)


def render_icons() -> None:
    """Render ``static/icon.svg`` to the manifest's PNG icons with headless Chromium.

    The PNGs are committed; run this again only when icon.svg changes.
    """
    from playwright.sync_api import sync_playwright

    svg = (ROOT / "static" / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**chromium_launch_args())
        for size in ICON_SIZES:
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
