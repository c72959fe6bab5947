"""What build.py writes into the page's scripts from the game's Python (page_data)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from builder.site import BOOT_MARK, SPRITE_MARK, page_data
from freecell.ui.progress.settings import CHOICE_SETTINGS, LANGUAGES

ROOT = Path(__file__).resolve().parents[1]


def test_the_page_gets_the_one_list_of_languages_and_settings_and_the_sprite(tmp_path: Path) -> None:
    shutil.copy2(ROOT / "index.html", tmp_path / "index.html")
    shutil.copytree(ROOT / "static", tmp_path / "static")
    page_data(tmp_path)
    boot = (tmp_path / "static" / "boot.js").read_text(encoding="utf-8")
    m = re.search(r"const BOOT = (\{.*?\}) /\* __FREECELL_BOOT__ \*/;", boot)
    assert m, "boot.js lost its BOOT line"
    data = json.loads(m.group(1))
    assert data == {"languages": list(LANGUAGES), "theme": list(CHOICE_SETTINGS["theme"]),
                    "speed": list(CHOICE_SETTINGS["speed"])}
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert SPRITE_MARK not in index and '<symbol id="face-QS"' in index
    # the sources keep their marks (the build writes into its copy only)
    assert SPRITE_MARK in (ROOT / "index.html").read_text(encoding="utf-8")
    assert BOOT_MARK in (ROOT / "static" / "boot.js").read_text(encoding="utf-8")
