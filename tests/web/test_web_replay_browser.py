"""The replay, the tally and "how to play" in Debian's Chromium: a slider, step by trick,
autoplay, the trump and the stock, who laid each card and who took the trick; every
finished game of the sitting can be replayed, reviewed and downloaded from the tally
after a rematch; the rules page links to how to play under the rules in force."""

from __future__ import annotations

import os
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, create_table, play_to_end  # noqa: E402

from mattis.core import preset  # noqa: E402
from mattis.core.text import how_to_play  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")



def test_replay_tally_and_how_to_play(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    ctx.add_init_script("localStorage.setItem('mattis.lang', 'en'); localStorage.setItem('mattis.pace', '0')")
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 2, ["bot"], seed=3)
        page.click("#btn-start")
        page.wait_for_selector("#felt")
        play_to_end([page])
        tid = page.evaluate("() => location.pathname.split('/').pop()")
        steps = page.request.get(f"{server}/api/tables/{tid}/games/1/replay?lang=en").json()["steps"]
        # The replay: a slider over every move, the trump and the stock, step by trick.
        page.click("#btn-replay")
        page.wait_for_selector("#replay-slider")
        assert page.locator("#replay-slider").get_attribute("max") == str(len(steps) - 1)
        assert page.locator("#replay-trump").inner_text().startswith("Trump:")
        assert page.locator("#replay-stock").inner_text().startswith("Bunke (stock):")
        first = next(i for i, s in enumerate(steps) if s["took"] is not None)
        page.click("#replay-next-trick")
        pw.expect(page.locator("#replay-step")).to_have_text(f"Move {first} of {len(steps) - 1}")
        names = ["Anne", page.locator("#replay .replayhands li").nth(1).locator("strong").inner_text().rstrip(": ")]
        assert page.locator("#replay-taker").inner_text() == f"{names[steps[first]['took']]} takes the trick"
        laid = [c.inner_text() for c in page.locator("#replay-trick .entry .cap").all()]
        assert laid == [names[s] for s, _c in steps[first]["taken"]]
        assert page.locator("#replay-tricks").inner_text() == "Tricks done: 1"
        page.evaluate("() => { const s = document.getElementById('replay-slider'); s.value = '5';"
                      " s.dispatchEvent(new Event('change')); }")
        pw.expect(page.locator("#replay-step")).to_have_text(f"Move 5 of {len(steps) - 1}")
        page.click("#replay-play")  # autoplay moves on by itself, and pauses when pressed again
        pw.expect(page.locator("#replay-step")).to_have_text(f"Move 7 of {len(steps) - 1}")
        page.click("#replay-play")
        pw.expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
        page.click("#btn-replay-back")
        # The last trick names who laid each of its cards.
        page.click("#btn-last")
        captions = [c.inner_text() for c in page.locator("#trick figure.laid figcaption").all()]
        last = next(s for s in reversed(steps) if s["took"] is not None)
        assert captions == [names[s] for s, _c in last["taken"]]
        # How to play, from the rules page: the terminal's text for the rules in force.
        page.click("#btn-rules")
        page.click("#btn-howto")
        assert page.locator("#howto-page h2").inner_text() == "How to play Mattis"  # the game as a name
        heads = [h.inner_text() for h in page.locator("#howto-page h3").all()]
        assert heads == [h for h, _p in how_to_play(preset("mattis"), "en")]
        page.click("#btn-howto-back")
        # After a rematch, game 1 is still in the tally: replay, review and download.
        page.click("#btn-rematch")
        page.click("#btn-rematch-yes")
        page.wait_for_function("() => document.body.dataset.status === 'playing' && document.body.dataset.seq !== ''")
        game1 = page.locator('#tally-games li[data-game="1"]')
        assert game1.locator("[data-record]").get_attribute("href") == f"/api/tables/{tid}/games/1/record"
        game1.locator("[data-replay]").click()
        page.wait_for_selector("#replay-slider")
        page.click("#btn-replay-back")
        page.locator('#tally-games li[data-game="1"] [data-analyse]').click()
        page.wait_for_selector("#analysis-progress, #analysis-chart")
    finally:
        ctx.close()
