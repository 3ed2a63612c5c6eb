"""Browser tests: Debian's Chromium driven by Playwright plays whole games by clicking."""

from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")


from mattis.core import GameRecord  # noqa: E402
from tiers import HUNG  # noqa: E402


def dataset(page: Any) -> dict[str, str]:
    d: dict[str, str] = page.evaluate("() => Object.assign({}, document.body.dataset)")
    return d


def enabled(page: Any, selector: str) -> bool:
    """A button that is shown (only buttons that can apply are) and enabled."""
    b = page.locator(selector)
    return bool(b.count() and b.is_enabled())


def act(page: Any, keyboard: bool = False) -> None:
    """Play this page's turn the way a person would: the first playable card, else chance / pick up."""
    cards = page.locator(".hand .card")
    legal = page.locator(".hand .card.legal")
    if legal.count():
        if keyboard:
            codes = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
            idx = codes.index(legal.first.get_attribute("data-card"))
            if idx < 9:
                page.keyboard.press(str(idx + 1))
            else:
                legal.first.click()
        else:
            legal.first.click()
        if enabled(page, "#btn-play"):
            if keyboard:
                page.keyboard.press("Enter")
            else:
                page.click("#btn-play")
    elif enabled(page, "#btn-chance"):
        page.keyboard.press("c") if keyboard else page.click("#btn-chance")
    else:
        page.keyboard.press("p") if keyboard else page.click("#btn-pickup")


AGAIN = 2.0
"""Seconds after which a page that still shows its turn at the same position, with no move on
its way, acts again, as a person would whose click did not take: on a busy machine a page's
connection can drop and come back (its heartbeat, 6.5 s unheard) with the move lost, or the
move be refused.  Only how soon the game goes on depends on it, never whether a test passes;
a click that did take is not sent twice (the page sends one move a position, the server
refuses a second)."""


def play_to_end(pages: list[Any], keyboard: bool = False) -> None:
    """Each page plays its own turns until the game is over (fails only a hung game: tiers.HUNG)."""
    acted: dict[int, tuple[str, float]] = {}
    again = 0
    end = time.monotonic() + 0.9 * HUNG  # before conftest.py's bound, so that the pages are described
    while time.monotonic() < end:
        states = [dataset(p) for p in pages]
        if all(s.get("status") == "over" for s in states):
            for p in pages:
                p.wait_for_selector("#result")
            return
        for i, (p, s) in enumerate(zip(pages, states, strict=True)):
            if s.get("myturn") != "1" or "sent" in s:
                continue
            last = acted.get(i)
            if last is not None and last[0] == s.get("seq"):
                if time.monotonic() - last[1] < AGAIN:
                    continue
                again += 1
            acted[i] = (s["seq"], time.monotonic())
            act(p, keyboard)
            break
        else:
            time.sleep(0.01)
    raise AssertionError(f"the game did not end in time ({again} clicks made again); the pages: "
                         + "; ".join(describe(p) for p in pages))


def describe(page: Any) -> str:
    """What a page shows that says why it waits: its data, its connection line, an error."""
    said = page.evaluate("() => [document.getElementById('conn').textContent,"
                         " Array.from(document.querySelectorAll('.error')).map((e) => e.textContent).join(' / ')]")
    return f"{dataset(page)} conn={said[0]!r} error={said[1]!r} legal={page.locator('.hand .card.legal').count()}"


def create_table(page: Any, base: str, preset: str, players: int, kinds: list[str], seed: int) -> None:
    page.goto(f"{base}/?seed={seed}")
    page.fill("#name", "Anne")
    page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    for i, kind in enumerate(kinds, start=1):
        page.select_option(f"#seat-kind-{i}", kind)
    page.click("#create")
    page.wait_for_selector(".lobby h2")


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_three_friends_and_a_bot_play_a_whole_game(server: str, browser: Any) -> None:
    ctxs = [browser.new_context(viewport={"width": 1000, "height": 800}) for _ in range(3)]
    try:
        host = ctxs[0].new_page()
        create_table(host, server, "mattis", 4, ["human", "human", "bot"], seed=4)
        invite = host.locator("#invite-link").input_value()
        assert "?invite=" in invite
        guests = []
        for k, ctx in enumerate(ctxs[1:], start=1):
            g = ctx.new_page()
            g.goto(invite)
            g.fill("#name", ["Bjørn", "Cato"][k - 1])
            g.click("#join")
            g.wait_for_selector(".seatlist")
            guests.append(g)
        host.wait_for_function("() => document.querySelectorAll('.lobby .seatlist li').length === 4 && "
                               "!document.querySelector('.lobby .seatlist').textContent.includes('free seat')")
        host.click("#btn-start")
        pages = [host, *guests]
        for p in pages:
            p.wait_for_selector("#felt")
        # Each page shows its own hand only, and the others' as counts.
        for i, p in enumerate(pages):
            assert p.locator(".hand .card").count() == 3
            assert p.locator(f"#seat-{(i + 1) % 4} .mini").inner_text().strip().endswith("3")
        play_to_end(pages)
        for p in pages:
            assert re.search("is Mattis|are Mattis|game is over", p.locator("#result h2").inner_text())
        # The record of the game can be downloaded and replayed.
        href = host.locator("#download").get_attribute("href")
        rec = GameRecord.loads(host.request.get(server + href).text())
        assert rec.players == 4 and rec.replay().is_over
    finally:
        for c in ctxs:
            c.close()


@pytest.mark.parametrize("preset,players,seed", [
    ("mattis", 2, 3),
    *(pytest.param(*c, marks=pytest.mark.slow)  # about 9 s each on a busy machine: CI runs them
      for c in (("hund", 3, 5), ("blodmattis", 3, 6), ("skitgubbe", 2, 7)))])
def test_each_preset_short_game_by_keyboard_and_rematch(server: str, browser: Any, preset: str,
                                                        players: int, seed: int) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone in portrait
    try:
        page = ctx.new_page()
        create_table(page, server, preset, players, ["bot"] * (players - 1), seed)
        page.click("#btn-start")
        page.wait_for_selector("#felt")
        assert page.locator(f"text={preset}").count()
        page.reload()  # a reload (or a lost connection) gives the seat back
        page.wait_for_selector(".hand .card")
        play_to_end([page], keyboard=True)
        # Norwegian and back.
        page.click("#lang")
        pw.expect(page.locator("#btn-rematch")).to_have_text("Omkamp (taperen gir)")
        loser = "er skitgubben" if preset == "skitgubbe" else "er Mattis"  # the variant's word for the loser
        pw.expect(page.locator("#turn")).to_contain_text(re.compile(f"{loser}!|Spillet er over"))
        page.click("#lang")
        pw.expect(page.locator("#btn-rematch")).to_have_text("Rematch (the loser deals)")
        page.click("#btn-rematch")
        page.click("#btn-rematch-yes")  # a rematch is confirmed
        page.wait_for_function("() => document.body.dataset.status === 'playing'")
        pw.expect(page.locator(".rulesname")).to_contain_text("game 2")
    finally:
        ctx.close()
