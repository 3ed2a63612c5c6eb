"""Who played it, in Debian's Chromium: the host on a laptop (English), her friend on a phone
(Norwegian).  The friend's turn clock runs out, the host skips her turn, her phone drops, and
the host gives her seat to a bot: each time a bot moves for her, and every place the move is
shown says it was a bot and why: the log on both pages, the last-move line, the seat's tag, the
replay and the review; the friend whose seat was given away is told so, with what to do.

The server runs in this process on the hub's manual clock (:class:`ManualClock`): the turn clock
and the grace period move only when the test says.  Every wait is on a condition."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from test_web_browser import CHROMIUM, dataset  # noqa: E402
from test_web_clock_browser import Server  # noqa: E402
from test_web_evening_browser import LAPTOP, PHONE, context, join, play_while  # noqa: E402

from mattis.bots.evaluate import Budget  # noqa: E402
from tiers import wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")

WHY = {"clock": ("tiden gikk ut", "time ran out"), "host": ("verten hoppet over turen", "the host skipped the turn"),
       "away": ("borte", "away"), "given": ("verten ga plassen til en bot", "the host gave the seat to a bot")}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "bots.db")
    yield s
    s.stop()


def bot_line(why: str, lang: str) -> str:
    """The pattern of a log line for a move a bot made for Ola."""
    return r"Bot for Ola: .+ \(" + re.escape(WHY[why][0 if lang == "nb" else 1]) + r"\)"


def log_text(page: Any, seq: int) -> str:
    """The page's log line of move ``seq`` (0 = the first move), read whether the log is open or not."""
    text: str = page.locator(f"#log li[data-n='{seq + 1}']").text_content()
    return text


def moved(server: Server, tid: str, seq: int) -> dict[str, Any]:
    wait_until(lambda: any(e["type"] == "move" and e["seq"] == seq for e in server.events(tid)), f"move {seq}")
    return next(e for e in server.events(tid) if e["type"] == "move" and e["seq"] == seq)


def shown_everywhere(server: Server, tid: str, seq: int, why: str, host: Any, ola: Any) -> None:
    """Move ``seq`` was a bot's for Ola (``why``), and both pages say so."""
    ev = moved(server, tid, seq)
    assert ev["seat"] == 1 and ev["by"] == why
    for page, lang in ((host, "en"), (ola, "nb")):
        page.wait_for_function(f"() => !!document.querySelector(\"#log li[data-n='{seq + 1}']\")")
        assert re.fullmatch(bot_line(why, lang), log_text(page, seq)), log_text(page, seq)
    if why != "given":  # the seat's tag on the host's page, until Ola moves herself again
        state = dataset(host)
        if int(state["seq"]) == seq + 1 or server.on_loop(lambda: server.hub.tables[tid].person_to_act()) == 0:
            pw.expect(host.locator("#seat-1 .tags")).to_contain_text(f"last move: bot ({WHY[why][1]})")
    if int(dataset(host)["seq"]) == seq + 1:  # nothing after it yet: the last-move line is this move
        pw.expect(host.locator("#last-action")).to_contain_text("Bot for Ola: ")
        pw.expect(host.locator("#last-action")).to_contain_text(f"({WHY[why][1]})")


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_clock_skip_dropped_phone_and_given_seat_moves_are_shown_as_a_bots(browser: Any, server: Server) -> None:
    server.on_loop(lambda: setattr(server.app.state.analyses, "budget", Budget(samples=2)))
    hctx, fctx = context(browser, server.base, LAPTOP, "en"), context(browser, server.base, PHONE, "nb")
    try:
        host = hctx.new_page()
        host.goto(f"{server.base}/?seed=11&grace=60")
        host.fill("#name", "Anne")
        host.select_option("#preset", "mattis")
        host.select_option("#players", "2")
        host.select_option("#seat-kind-1", "human")
        host.select_option("#clock", "30")
        host.click("#create")
        host.wait_for_selector("#invite-link")
        ola = fctx.new_page()
        join(ola, host.locator("#invite-link").input_value(), "Ola")
        host.click("#btn-start")
        tid = server.table().id

        def to_ola() -> int:
            play_while([host], lambda: dataset(ola).get("myturn") == "1")
            return int(dataset(ola)["seq"])

        # 1. Her turn clock runs out.
        seq = to_ola()
        server.advance(30)
        shown_everywhere(server, tid, seq, "clock", host, ola)

        # 2. The host skips her turn.
        seq = to_ola()
        host.wait_for_selector("#btn-skip")
        host.click("#btn-skip")
        shown_everywhere(server, tid, seq, "host", host, ola)

        # 3. Her phone drops (the page is gone); the grace period runs out; she comes back.
        seq = to_ola()
        ola.close()
        wait_until(lambda: server.on_loop(lambda: 1 not in server.hub.connected(server.hub.tables[tid])),
                   "her phone gone")
        server.advance(60)
        moved(server, tid, seq)
        ola = fctx.new_page()
        ola.goto(f"{server.base}/t/{tid}")
        ola.wait_for_selector("#felt")
        shown_everywhere(server, tid, seq, "away", host, ola)

        # 4. The host gives her seat to a bot: her page says so in words, with what to do.
        if dataset(host).get("status") == "playing":
            seq = to_ola()
            host.click("#host-tools summary")
            host.click("#seat-replace-1")
            pw.expect(ola.locator("#given-away")).to_contain_text("Verten har gitt plassen din (Ola) til en bot")
            pw.expect(ola.locator("#given-away")).to_contain_text("«Gi plassen tilbake til Ola»")
            shown_everywhere(server, tid, seq, "given", host, ola)
            host.click("#seat-back-1")  # given back: her page is her seat again, without a reload
            ola.wait_for_function("() => !document.getElementById('given-away') && !!document.querySelector('.hand')")

        play_while([host, ola], lambda: dataset(host).get("status") == "over")
        bots = {e["seq"]: e["by"] for e in server.events(tid) if e["type"] == "move" and e.get("by")}
        assert {"clock", "host", "away"} <= set(bots.values())

        # The replay on her phone: each of those moves says it was a bot's, and why.
        ola.wait_for_selector("#btn-replay")
        ola.click("#btn-replay")
        ola.wait_for_selector("#replay-slider")
        for n, why in bots.items():
            ola.evaluate(f"() => {{ const s = document.getElementById('replay-slider'); s.value = '{n + 1}';"
                         " s.dispatchEvent(new Event('change')); }")
            pw.expect(ola.locator("#replay-text")).to_have_text(re.compile(bot_line(why, "nb")))
        ola.click("#btn-replay-back")

        # The review of her game: the summary names the moves a bot made for her.
        ola.wait_for_selector("#btn-analyse")
        ola.click("#btn-analyse")
        ola.wait_for_selector("#analysis-chart")  # the review takes a while: waits up to tiers.HUNG
        pw.expect(ola.locator("#analysis-summary")).to_contain_text(
            f"{len(bots)} av trekkene ble spilt av en bot for Ola: ")
        for n, why in bots.items():
            pw.expect(ola.locator("#analysis-summary")).to_contain_text(f"trekk {n + 1} ({WHY[why][0]})")
    finally:
        hctx.close()
        fctx.close()
