"""The mixed table: one terminal seat (``mattis join`` in line mode), one browser seat
(Debian's Chromium under Playwright) and a bot play a whole game at a real server on
loopback; every frame the terminal received holds only what its seat may see."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from join_helpers import Terminal, check_frames, records  # noqa: E402
from test_web_browser import CHROMIUM, act, create_table, dataset  # noqa: E402

from mattis.tui.i18n import t  # noqa: E402
from mattis.tui.remote import connect_seat, run_plain  # noqa: E402
from tiers import HUNG, wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")


def test_a_terminal_seat_a_browser_seat_and_a_bot_play_a_whole_game(server: str, browser: Any) -> None:  # noqa: F811
    ctx = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 3, ["human", "bot"], seed=11)
        invite = page.locator("#invite-link").input_value()
        frames: list[dict[str, Any]] = []
        seat = connect_seat(invite, "Tor", "en", lambda n: None, frames.append)
        assert seat.session.you == 1
        page.wait_for_function("() => !document.querySelector('.lobby .seatlist').textContent.includes('free seat')")
        page.click("#btn-start")
        screen = Terminal()
        result: list[int] = []
        terminal = threading.Thread(target=lambda: result.append(run_plain(seat, screen, screen)), daemon=True)
        terminal.start()
        # the browser plays its own turns until the game is over (the terminal plays on its thread)
        acted: str | None = None
        end = time.monotonic() + HUNG
        while dataset(page).get("status") != "over":
            assert time.monotonic() < end, "the mixed game hung"
            assert terminal.is_alive() or result, "the terminal seat stopped in the middle of the game"
            d = dataset(page)
            if d.get("myturn") == "1" and acted != d.get("seq") and "sent" not in d:
                acted = d["seq"]
                act(page)
            else:
                time.sleep(0.01)
        page.wait_for_selector("#result")
        wait_until(lambda: not terminal.is_alive(), "the terminal seat leaving after the game")
        assert result == [0]
    finally:
        ctx.close()
    out = screen.getvalue()
    last = frames[-1]
    assert last["status"] == "over" and last["obs"]["end_reason"] is not None
    assert last["obs"]["finished"] or last["obs"]["losers"]  # an outcome: who went out, who lost
    assert t("en", "end.title") in out and t("en", "turn.you") in out
    tid = last["table"]
    assert check_frames(frames, 1, records(server, tid, 1)) > 30
