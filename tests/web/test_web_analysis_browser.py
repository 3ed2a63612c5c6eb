"""The web page's "Analyse" in Debian's Chromium: after the game, the chart and the list."""

from __future__ import annotations

import os
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, create_table, play_to_end  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")



@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_analyse_button_shows_the_chart_and_the_list(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    ctx.add_init_script("localStorage.setItem('mattis.lang', 'en')")
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 2, ["bot"], seed=3)
        page.click("#btn-start")
        page.wait_for_selector("#felt")
        play_to_end([page])
        page.click("#btn-analyse")
        page.wait_for_selector("#analysis-chart")  # the review takes a while: waits up to tiers.HUNG
        assert page.locator("#analysis h2").inner_text().startswith("Review of the game for Anne")
        items = page.locator("#analysis-list li")
        assert items.count() > 3
        assert page.locator("#analysis-chart circle").count() > 0
        page.click("#btn-analysis-back")
        page.wait_for_selector("#result")
    finally:
        ctx.close()
