"""The turn clock and the heartbeat in Debian's Chromium, on a phone (390x844): a player who stops
acting gets a stand-in for that turn when her clock runs out, keeps her seat and plays her next
turn herself; a phone that goes silent with its socket open (a dead network) is seen as away by
the heartbeat, and is back when it is heard again.

The server runs in this process with the hub's clock replaced (:class:`ManualClock`): the turn
clock's time moves only when the test says; the heartbeat runs in real time (a browser pings in
real time).  Every wait is on a condition (the server's state, the page's), never a sleep."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

pw = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from clock_helpers import ManualClock  # noqa: E402
from test_web_browser import CHROMIUM, act, dataset  # noqa: E402
from test_web_evening_browser import PHONE  # noqa: E402
from test_web_restart import free_port  # noqa: E402

from mattis.web.app import create_app  # noqa: E402
from mattis.web.conn import HEARTBEAT_MISSES  # noqa: E402
from mattis.web.hub import Hub  # noqa: E402
from mattis.web.table import Table  # noqa: E402
from tiers import HUNG, wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
T = TypeVar("T")


class Server:
    """The app under uvicorn in a thread of this process, its hub's clock the test's."""

    def __init__(self, db: Path) -> None:
        self.clock = ManualClock(real=frozenset({"heartbeat"}))
        app = create_app(str(db), bot_delay=0, test_mode=True)
        self.app = app
        self.hub: Hub = app.state.hub
        self.hub.waits = self.clock
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="on"))
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        wait_until(lambda: self.server.started, "the server started")

    def _run(self) -> None:
        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve()

        asyncio.run(serve())

    def on_loop(self, fn: Callable[[], T]) -> T:
        """``fn()`` run on the server's loop (the hub is touched only there); its result."""
        assert self.loop is not None
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def call() -> None:
            try:
                done.set_result(fn())
            except BaseException as e:
                done.set_exception(e)

        self.loop.call_soon_threadsafe(call)
        return done.result(timeout=HUNG)

    def advance(self, seconds: float) -> None:
        """Move the hub's clock on (the turn clocks' time)."""
        self.on_loop(lambda: self.clock.advance(seconds))

    def table(self) -> Table:
        return self.on_loop(lambda: next(iter(self.hub.tables.values())))

    def events(self, tid: str) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            assert self.hub.store is not None
            return self.hub.store.events(tid, 0)

        return self.on_loop(read)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(HUNG)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "clock.db")
    yield s
    s.stop()


WORDS: dict[str, dict[str, Any]] = {
    "en": {"clock": ["off", "30 s", "60 s", "2 min"], "you": r"You have \d+ s left"},
    "nb": {"clock": ["av", "30 sek", "60 sek", "2 min"], "you": r"Du har \d+ sek igjen"},
}


@pytest.mark.slow  # 10 s each on a busy machine: CI runs both
@pytest.mark.parametrize("lang", ["en", "nb"])
def test_a_phone_that_stops_acting_gets_a_stand_in_keeps_her_seat_and_a_dead_network_is_noticed(
        browser: Any, server: Server, lang: str) -> None:
    words = WORDS[lang]
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.add_init_script(f"localStorage.setItem('mattis.lang', '{lang}')")
    try:
        page = ctx.new_page()
        page.goto(f"{server.base}/?seed=5")
        pw.expect(page.locator("#clock option")).to_have_text(words["clock"])  # waits for the form
        page.fill("#name", "Kari")
        page.select_option("#preset", "mattis")
        page.select_option("#players", "3")
        for i in (1, 2):
            page.select_option(f"#seat-kind-{i}", "bot")
        page.select_option("#clock", "30")
        page.click("#create")
        page.click("#btn-start")
        table = server.table()
        assert server.events(table.id)[0]["clock"] == 30  # logged in the create event
        token = page.evaluate(f"() => JSON.parse(localStorage.getItem('mattis.seat.{table.id}')).token")

        # Her turn: everyone sees her countdown; she does nothing, and her 30 s run out.
        page.wait_for_function("() => document.body.dataset.myturn === '1'"
                               " && document.body.dataset.timer === 'clock:0'")
        assert re.fullmatch(str(words["you"]), page.inner_text("#timer"))
        seq = int(dataset(page)["seq"])
        server.advance(29)
        assert int(dataset(page)["seq"]) == seq  # not yet: still her turn
        server.advance(1)
        page.wait_for_function(f"() => +document.body.dataset.seq > {seq}")
        covers = [e for e in server.events(table.id) if e["type"] == "cover"]
        assert covers == [{"type": "cover", "game": 1, "seq": seq, "seat": 0, "why": "clock"}]
        moved = [e for e in server.events(table.id) if e["type"] == "move" and e["seq"] == seq]
        assert moved and moved[0]["seat"] == 0  # a bot made her move for her

        # Her seat stays hers: the same token, not stood in for; her next turn she plays herself.
        t = server.table()
        assert server.on_loop(lambda: (t.seat_of(token), t.seats[0].kind, sorted(t.standin))) == (0, "human", [])
        page.wait_for_function(f"() => document.body.dataset.myturn === '1' && +document.body.dataset.seq > {seq}")
        mine = int(dataset(page)["seq"])
        act(page)
        page.wait_for_function(f"() => +document.body.dataset.seq > {mine}")
        log = server.events(table.id)
        assert [e["seat"] for e in log if e["type"] == "move" and e["seq"] == mine] == [0]
        assert not [e for e in log if e["type"] == "cover" and e["seq"] == mine]  # she played it herself

        # A dead network: the phone goes offline; nothing more comes from it, and its socket is not closed.
        assert server.hub.heartbeat * (HEARTBEAT_MISSES + 1) <= 10  # noticed within 10 s, as configured
        wait_until(lambda: server.on_loop(lambda: [c.pings for c in server.hub.conns[t.id]]) == [True],
                   "her page's heartbeat heard")
        ctx.set_offline(True)
        wait_until(lambda: server.on_loop(lambda: 0 not in server.hub.connected(t)), "her seat away by the heartbeat")
        assert server.on_loop(lambda: [c.away for c in server.hub.conns[t.id]]) == [True]  # its socket still open
        ctx.set_offline(False)  # her network is back: she is heard again
        wait_until(lambda: server.on_loop(lambda: 0 in server.hub.connected(t)), "her seat back")
        assert server.on_loop(lambda: 0 not in t.standin)
    finally:
        ctx.close()


def test_the_host_nudges_pauses_and_skips_in_both_languages(browser: Any, server: Server) -> None:
    """The host (a laptop, in English) nudges her friend (a phone, in Norwegian), who sees and is
    told it; the friend's quick reaction is shown to the host (a second one at once is refused);
    the host pauses the table (both see it, in their languages, and the friend cannot play);
    resumes; then lets a bot play the friend's turn, and the friend plays her next one herself."""
    from test_web_evening_browser import LAPTOP, context, join, new_table, play_while

    hctx, fctx = context(browser, server.base, LAPTOP, "en"), context(browser, server.base, PHONE, "nb")
    try:
        host, friend = hctx.new_page(), fctx.new_page()
        invite = new_table(host, server.base, friends=1, bots=1, seed=7, grace=None)
        join(friend, invite, "Ola")
        host.click("#btn-start")
        play_while([host], lambda: dataset(friend).get("myturn") == "1")
        host.click("#btn-nudge")
        pw.expect(friend.locator("#nudge")).to_have_text("Anne minner deg på at det er din tur!")
        pw.expect(host.locator("#nudged")).to_have_text("Ola has been nudged.")
        pw.expect(host.locator("#btn-nudge")).to_be_disabled()  # once a turn

        friend.click("#react-0")  # a quick reaction, shown to the table
        pw.expect(host.locator("#reactions")).to_have_text("Ola: 👍")
        friend.click("#react-1")  # too soon after the last: refused in words
        pw.expect(friend.locator("#error")).to_have_text("vent litt før du sender en ny reaksjon")

        host.click("#btn-pause")
        pw.expect(friend.locator("#paused")).to_contain_text("Spillet står på pause")
        pw.expect(host.locator("#paused")).to_contain_text("The game is paused")
        friend.wait_for_function("() => document.body.dataset.paused === '1' && document.body.dataset.myturn === '0'")
        assert friend.locator(".hand .card.legal").count() == 0
        t = server.table()
        assert server.on_loop(lambda: (t.paused, t.timer)) == (True, None)  # no clock at this table
        host.click("#btn-pause")  # resume
        friend.wait_for_function("() => document.body.dataset.paused === '0' && document.body.dataset.myturn === '1'")

        seq = int(dataset(friend)["seq"])
        host.click("#btn-skip")
        friend.wait_for_function(f"() => +document.body.dataset.seq > {seq}")
        covers = [e for e in server.events(t.id) if e["type"] == "cover"]
        assert covers == [{"type": "cover", "game": 1, "seq": seq, "seat": 1, "why": "host"}]
        play_while([host], lambda: dataset(friend).get("myturn") == "1" or dataset(friend).get("status") != "playing")
        if dataset(friend).get("status") == "playing":
            mine = int(dataset(friend)["seq"])
            act(friend)
            friend.wait_for_function(f"() => +document.body.dataset.seq > {mine}")
            assert [e["seat"] for e in server.events(t.id) if e["type"] == "move" and e["seq"] == mine] == [1]
    finally:
        hctx.close()
        fctx.close()
