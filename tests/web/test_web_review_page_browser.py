"""The review page for a non-expert, in Debian's Chromium: after a finished game, the
chart, then exactly the sentences of the lab's plain words (mattis.lab.review_words:
the deal's luck, the accuracy, the three costliest choices), then the detail behind a
tap; in both languages."""

from __future__ import annotations

import os
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, create_table, play_to_end  # noqa: E402

from mattis.lab.review import Review  # noqa: E402
from mattis.lab.review_words import player_words  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")



def texts(page: Any, selector: str) -> list[str]:
    loc = page.locator(selector)
    return [loc.nth(i).inner_text().strip() for i in range(loc.count())]


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_the_review_page_shows_the_chart_and_the_labs_sentences(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    ctx.add_init_script("localStorage.setItem('mattis.lang', 'en')")
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 2, ["bot"], seed=9)
        page.click("#btn-start")
        page.wait_for_selector("#felt")
        play_to_end([page])
        tid = page.url.rstrip("/").split("/")[-1]
        for lang in ("en", "nb"):
            if lang == "nb":  # the page in Norwegian asks for the review again (cached: the same review)
                page.click("#lang")
                page.wait_for_function("() => document.documentElement.lang === 'nb'")
            page.click("#btn-analyse")
            page.wait_for_selector("#analysis-chart")  # the review takes a while: waits up to tiers.HUNG
            body = page.request.get(f"{server}/api/tables/{tid}/games/1/analysis?seat=0&lang={lang}").json()
            rv = Review.from_json(body)
            words = player_words(rv, lang)
            # the chart: one point per decision of the seat whose figures are informative
            assert page.locator("#analysis-chart circle.played").count() == sum(d.informative for d in rv.decisions) > 0
            assert page.locator("#analysis-chart-title").inner_text().strip() == words.title
            assert texts(page, "#analysis-summary p") == list(words.summary)
            assert len(words.summary) == 2  # the deal's luck and the accuracy
            assert page.locator("#analysis-heading").inner_text().strip() == words.heading
            assert texts(page, "#analysis-top li") == list(words.choices)
            assert words.choices, "the game of seed 9 has a marked (proven) choice"
            # the detail is there, collapsed, and opens on a tap
            detail = page.locator("#analysis-detail")
            assert detail.get_attribute("open") is None
            assert not page.locator("#analysis-list").is_visible()
            page.click("#analysis-detail summary")
            assert page.locator("#analysis-list").is_visible()
            assert page.locator("#analysis-list li").count() >= len(rv.decisions)
            assert page.locator("#analysis-list button.deeper").count() == len(rv.decisions)
            if lang == "en":  # look deeper at the last decision: its line and a note come back in place
                n = rv.decisions[-1].number
                page.click(f"#analysis-list button[data-deeper='{n}']")
                page.wait_for_selector(f"#analysis-list li[data-move='{n}'] .deepnote:not([role])")
                deep = page.request.get(f"{server}/api/tables/{tid}/games/1/analysis/deeper?seat=0&move={n}"
                                        f"&lang=en").json()
                item = page.locator(f"#analysis-list li[data-move='{n}']")
                assert item.locator(".deepnote").inner_text().strip() == deep["note"]
                assert item.locator("span").first.inner_text().split() == deep["lines"][0].split()
                assert deep["note"].startswith("Looked at deeper: ")
            page.click("#analysis-detail summary")  # closed again for the next language
            page.click("#btn-analysis-back")
            page.wait_for_selector("#result")
    finally:
        ctx.close()
