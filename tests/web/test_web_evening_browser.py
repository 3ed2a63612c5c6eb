"""A real evening in Debian's Chromium: a friend's phone drops mid-game, a bot plays for her
and hands the seat back when she opens her resume link on a second device; the host's
lobby and seat tools, the rules page and house-rules form, replay, a server started on
the wrong database, and a long name on a phone.  Laptop and phone viewports, both languages."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, act, dataset, play_to_end  # noqa: E402
from test_web_restart import free_port, start_server  # noqa: E402

from mattis.core import GameRecord  # noqa: E402
from tiers import HUNG  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
LAPTOP = {"width": 1000, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("evening") / "evening.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    port = free_port()
    proc = start_server(db, port, bot_delay="0")
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def context(browser: Any, base: str, viewport: dict[str, int], lang: str) -> Any:
    ctx = browser.new_context(viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    ctx.add_init_script(f"localStorage.setItem('mattis.lang', '{lang}')")
    return ctx


def new_table(page: Any, base: str, friends: int, bots: int, seed: int, name: str = "Anne",
              grace: int | None = 1, house: dict[str, str] | None = None) -> str:
    """Create a table by the form; returns the invite link."""
    page.goto(f"{base}/?seed={seed}" + (f"&grace={grace}" if grace else ""))
    page.fill("#name", name)
    page.select_option("#preset", "mattis")
    page.select_option("#players", str(1 + friends + bots))
    for i in range(1, 1 + friends + bots):
        page.select_option(f"#seat-kind-{i}", "human" if i <= friends else "bot")
    if house:
        page.click("#house-rules summary")
        for option, label in house.items():
            page.select_option(f"#opt-{option}", label=label)
    page.click("#create")
    page.wait_for_selector("#invite-link")
    link: str = page.locator("#invite-link").input_value()
    return link


def join(page: Any, invite: str, name: str) -> None:
    page.goto(invite)
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_selector(".lobby .seatlist")


def play_while(pages: list[Any], until: Any) -> None:
    """Each page plays its own turns until ``until()`` holds (fails only a hung game: tiers.HUNG)."""
    acted: dict[int, str] = {}
    end = time.monotonic() + HUNG
    while time.monotonic() < end:
        if until():
            return
        for i, p in enumerate(pages):
            s = dataset(p)
            if s.get("myturn") == "1" and acted.get(i) != s.get("seq") and "sent" not in s:
                acted[i] = s["seq"]
                act(p)
                break
        else:
            time.sleep(0.02)
    raise AssertionError("the awaited moment did not come")


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_a_dropped_phone_gets_a_bot_and_the_seat_comes_back_on_another_device(server: str, browser: Any) -> None:
    laptop = context(browser, server, LAPTOP, "en")
    phone = context(browser, server, PHONE, "nb")
    phone2 = context(browser, server, PHONE, "nb")
    try:
        host = laptop.new_page()
        invite = new_table(host, server, friends=1, bots=1, seed=4, grace=1)
        ola = phone.new_page()
        join(ola, invite, "Ola")
        host.click("#btn-start")
        for p in (host, ola):
            p.wait_for_selector("#felt")
        # Seeing the game: after a trick its cards stay with who took it; the title says whose turn.
        # The taker's line is read in the same look that finds it (a locator's inner_text would wait for an
        # element that may be gone by then), and the host's page holds each trick for an hour (the pace
        # setting), so a slow machine cannot miss it.
        host.evaluate("() => localStorage.setItem('mattis.pace', '3600')")
        taker: list[str] = []

        def taker_shown() -> bool:
            taker.append(host.evaluate("() => document.querySelector('#taker')?.innerText ?? ''"))
            return taker[-1] != ""
        play_while([host, ola], taker_shown)
        assert re.search(r"takes the trick|take the trick", taker[-1])
        play_while([host, ola], lambda: dataset(ola).get("myturn") == "1")
        assert ola.title() == "Din tur – Mattis"
        resume = ola.locator("#resume-link").input_value()
        assert "#seat=" in resume
        dropped_at = int(dataset(ola)["seq"])
        phone.close()  # the phone is dropped on her turn
        # The grace period passes; a bot plays her turns and everyone sees it.
        play_while([host], lambda: host.locator("#seat-1.standin").count() > 0)
        pw.expect(host.locator("#seat-1 .tags")).to_contain_text("away – a bot plays for Ola")

        def bot_played_for_ola() -> bool:
            ns = host.locator('#log li[data-seat="1"]').evaluate_all("els => els.map(e => +e.dataset.n)")
            return any(n > dropped_at for n in ns)
        play_while([host], bot_played_for_ola)
        # She opens her resume link on another phone: the seat is hers again at once.
        ola2 = phone2.new_page()
        ola2.goto(resume)
        ola2.wait_for_selector(".hand")
        pw.expect(host.locator("#seat-1.standin")).to_have_count(0)
        assert "#seat=" not in ola2.url  # the token leaves the address bar
        pw.expect(ola2.locator("#seat-1 .seatname")).to_contain_text("Ola (deg)")
        # The last action stays in view on a phone scrolled to the bottom of the page.
        ola2.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        box = ola2.locator("#last-action").bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE["height"]
        ola2.click("#logbox summary")  # opened on a phone, the move log stays open move after move
        # ...and the game is played to its end by both of them.
        play_to_end([host, ola2])
        assert ola2.locator("#logbox").get_attribute("open") is not None
        pw.expect(ola2.locator("#result h2")).to_contain_text(re.compile("er Mattis|Spillet er over"))
        assert no_sideways_scroll(ola2)
    finally:
        for c in (laptop, phone, phone2):
            c.close()


@pytest.mark.slow
def test_the_host_runs_the_lobby_and_the_evening(server: str, browser: Any) -> None:
    laptop = context(browser, server, LAPTOP, "nb")
    guest = context(browser, server, PHONE, "en")
    late = context(browser, server, PHONE, "en")
    try:
        host = laptop.new_page()
        invite = new_table(host, server, friends=2, bots=0, seed=9, grace=None,
                           house={"ties": "støting"})
        # A friend's seat becomes a bot and back again, before the start.
        host.click("#seat-bot-2")
        pw.expect(host.locator('.lobby .seatlist li[data-seat="2"]')).to_contain_text("bot")
        host.click("#seat-open-2")
        pw.expect(host.locator('.lobby .seatlist li[data-seat="2"]')).to_contain_text("ledig plass")
        long_name = "Bjørn-Kristoffer Aasheim"  # 24 characters
        assert len(long_name) == 24
        g = guest.new_page()
        join(g, invite, long_name)
        assert no_sideways_scroll(g)
        # Someone who joins and never comes to the table is removed; the game starts without them.
        w = late.new_page()
        join(w, invite, "Kari")
        pw.expect(host.locator("#seat-remove-2")).to_be_visible()
        host.click("#seat-remove-2")
        pw.expect(host.locator('.lobby .seatlist li[data-seat="2"]')).to_contain_text("ledig plass")
        # The rules page, in the players' words: the house rule chosen in the form is there.
        host.click("#btn-rules")
        pw.expect(host.locator("#house-list")).to_contain_text("støting")
        text = host.locator("#rules-page").inner_text()
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text)  # no option identifiers
        host.click("#btn-rules-back")
        host.click("#btn-start")
        for p in (host, g):
            p.wait_for_selector("#felt")
        assert no_sideways_scroll(g)
        g.click("#btn-rules")
        pw.expect(g.locator("#house-list")).to_contain_text("støting")
        g.click("#btn-rules-back")
        # Re-invite: a new link for the guest; the old page stops being her seat.
        host.click("#host-tools summary")
        host.click("#seat-reinvite-1")
        link = host.locator("#reinvite-link").input_value()
        assert "#seat=" in link
        pw.expect(g.locator(".badge", has_text="spectator")).to_be_visible()
        # The host opening that link by mistake is asked, and keeps her own seat.
        mistake = laptop.new_page()
        mistake.goto(link)
        mistake.click("#keep-my-seat")
        pw.expect(mistake.locator("#seat-0 .seatname")).to_contain_text("Anne (deg)")
        mistake.close()
        g2 = guest.new_page()
        g2.goto(link)
        g2.click("#take-link-seat")  # this browser still holds the old (revoked) key: it asks first
        g2.wait_for_selector(".hand")
        # The host ends the game (after confirming); nobody loses it; a new game follows.
        host.click("#btn-end")
        host.click("#btn-end-yes")
        pw.expect(host.locator("#result h2")).to_contain_text("Verten avsluttet spillet")
        host.click("#btn-rematch")
        host.click("#btn-rematch-yes")
        host.wait_for_function("() => document.body.dataset.status === 'playing'")
        play_to_end([host, g2])
        # Replay the finished game in the browser, step by step.
        g2.click("#btn-replay")
        g2.wait_for_selector("#replay-step")
        assert g2.locator("#replay-step").inner_text() == "The deal"
        g2.click("#replay-next")
        pw.expect(g2.locator("#replay-step")).to_contain_text("Move 1 of")
        g2.keyboard.press("ArrowRight")
        pw.expect(g2.locator("#replay-step")).to_contain_text("Move 2 of")
        g2.click("#btn-replay-back")
        href = g2.locator("#download").get_attribute("href")
        data = g2.request.get(server + href).json()
        assert data["names"][:2] == ["Anne", long_name]
        assert GameRecord.from_json(data).replay().is_over
    finally:
        for c in (laptop, guest, late):
            c.close()


@pytest.mark.slow
def test_a_server_on_the_wrong_database_keeps_the_seat(server: str, browser: Any, tmp_path: Path) -> None:
    ctx = context(browser, server, PHONE, "en")
    port = free_port()
    other = start_server(tmp_path / "other.db", port, bot_delay="0")
    try:
        page = ctx.new_page()
        new_table(page, server, friends=0, bots=1, seed=2)
        tid = page.url.rsplit("/", 1)[1]
        token = page.evaluate(f"() => JSON.parse(localStorage.getItem('mattis.seat.{tid}')).token")
        # The same seat opened on a server started with another --db: it says so and keeps the key.
        wrong = f"http://127.0.0.1:{port}"
        page.goto(f"{wrong}/t/{tid}#seat={token}")
        pw.expect(page.locator("#no-table-kept")).to_contain_text("other.db")
        assert page.evaluate(f"() => localStorage.getItem('mattis.seat.{tid}') !== null")
        page.goto(f"{wrong}/")
        pw.expect(page.locator("#my-tables")).to_contain_text(tid)  # the start page lists the seat kept
    finally:
        other.kill()
        other.wait()
        ctx.close()
