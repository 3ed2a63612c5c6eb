"""An outage in the browser: the table greys, a click is said "not sent", and the move is sent
once the connection is back (Chromium under Playwright; waits on the page's state, never a sleep)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, act, dataset  # noqa: E402
from test_web_evening_browser import LAPTOP, context, new_table  # noqa: E402
from test_web_restart import free_port, start_server  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_click_during_an_outage_is_not_sent_then_sent_when_the_server_is_back(
        browser: Any, tmp_path: Path, lang: str) -> None:
    db, port = tmp_path / "outage.db", free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(db, port, bot_delay="0")
    ctx = context(browser, base, LAPTOP, lang)
    try:
        page = ctx.new_page()
        new_table(page, base, friends=0, bots=1, seed=5, grace=None)  # the server's 60 s: no stand-in meanwhile
        page.click("#btn-start")
        page.wait_for_function("() => document.body.dataset.myturn === '1' && document.body.dataset.offline !== '1'")
        seq = dataset(page)["seq"]
        server.kill()
        server.wait()
        page.wait_for_function("() => document.body.dataset.offline === '1'")  # greyed
        assert page.evaluate("() => document.body.classList.contains('offline')")
        act(page)  # her move, clicked while the server is down
        pw.expect(page.locator("#conn")).to_contain_text("not sent" if lang == "en" else "ikke sendt")
        assert dataset(page)["seq"] == seq
        act(page)  # another click is said too, not silently ignored
        pw.expect(page.locator("#conn")).to_contain_text("not sent" if lang == "en" else "ikke sendt")
        server = start_server(db, port, bot_delay="0")
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'")  # the move went through
        pw.expect(page.locator("#conn")).to_contain_text("your move has been sent" if lang == "en"
                                                         else "trekket ditt er sendt")
        assert dataset(page)["offline"] == "0"
    finally:
        server.kill()
        server.wait()
        ctx.close()
