"""Start-up: a meaningful frame at once, a load failure with a retry, the browser's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import READY_TIMEOUT, deal_url, open_page

browser = pytest.mark.browser
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"


def _messages(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


@browser
def test_runtime_that_cannot_load_shows_a_retry(open_context: Any, site: str, request_log: Any) -> None:
    ctx = open_context()
    failing = {"on": True}

    def maybe_fail(route: Any) -> None:
        if failing["on"]:
            route.abort("connectionreset")
        else:
            route.continue_()

    ctx.route("**/pyodide.asm.wasm", maybe_fail)
    page = ctx.new_page()
    page.goto(deal_url(site, 1))
    # the frame and the loading line are there before Python is
    expect(page.locator("[data-role=loading]")).to_have_text(_messages("en")["loading"])
    expect(page.locator("html")).to_have_attribute("data-state", "failed", timeout=READY_TIMEOUT)
    box = page.locator("[data-panel=load-failed]")
    expect(box).to_be_visible()
    expect(box).to_contain_text(_messages("en")["load_failed"])
    # the failed load's own errors are expected; anything after the retry is not
    request_log.page_errors.clear()
    failing["on"] = False
    box.locator("[data-action=retry]").click()
    expect(page.locator("html")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT)
    expect(page.locator("svg#table g.card")).to_have_count(52)
    # the failed first attempt leaves PyScript error boxes behind only on the old page
    expect(page.locator(".py-error")).to_have_count(0)


@browser
@pytest.mark.browser_context_args(locale="fr-FR")
def test_french_browser_gets_french_words(page: Any, site: str) -> None:
    fr = _messages("fr")
    open_page(page, deal_url(site, 617))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(fr["action.new"])
    expect(page.locator("[data-status=capacity]")).to_have_text(fr["status.capacity"].format(n=5))
    page.locator(".actionbar [data-action=rules]").click()
    expect(page.locator("[data-panel=rules] h2")).to_have_text(fr["rules.title"])
    expect(page.locator("[data-panel=rules]")).to_contain_text("cellules libres")


@browser
@pytest.mark.browser_context_args(locale="ja-JP")
def test_other_languages_fall_back_to_english(page: Any, site: str) -> None:
    open_page(page, deal_url(site, 1))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".actionbar [data-action=new]")).to_have_text(_messages("en")["action.new"])
