"""Phase 2 on a phone (390×844, touch) in Debian's Chromium: with a big hand, on her
turn, every card of the hand, "Ta opp" and "Siste stikk" are inside the screen and can
be tapped, wherever the page is scrolled, also after a refusal (said right above the
hand) and with a hint shown; the opponents' known cards are behind a tap; no key hints on a
touch screen."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, create_table, dataset, enabled  # noqa: E402
from test_web_restart import free_port, start_server  # noqa: E402

from tiers import HUNG  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
SEED = 4
"""A two-player Mattis deal where taking tricks with the highest card leaves Anne 27 cards in phase 2."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("phone") / "p.db"
    port = free_port()
    proc = start_server(db, port, bot_delay="0")
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def outside(page: Any, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the screen, or whose tap would land on
    something else (a card is tapped on its visible strip: the left of its corner index)."""
    bad: list[str] = page.evaluate("""(sel) => {
      const out = [];
      for (const e of document.querySelectorAll(sel)) {
        const r = e.getBoundingClientRect();
        const inside = r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
        const hit = document.elementFromPoint(r.left + 6, r.top + r.height / 2);
        if (!inside || !hit || !(hit === e || e.contains(hit)))
          out.push((e.dataset.card || e.id) + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      }
      return out;
    }""", selector)
    return bad


def assert_in_view(page: Any) -> None:
    """Her hand, "Ta opp" and "Siste stikk" in view, with the page at its top and at its bottom."""
    for where in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"() => window.scrollTo(0, {where})")
        page.wait_for_function(f"() => Math.abs(window.scrollY - Math.min({where}, "
                               "document.documentElement.scrollHeight - window.innerHeight)) < 2")
        assert outside(page, ".hand .card") == []
        assert outside(page, "#btn-pickup, #btn-last") == []


def tap(page: Any, selector: str) -> None:
    page.locator(selector).first.tap()


def my_turn(page: Any) -> dict[str, str] | None:
    """This page's dataset once it is her turn (None once the game is over)."""
    end = time.monotonic() + HUNG
    while time.monotonic() < end:
        s = dataset(page)
        if s.get("status") == "over":
            return None
        if s.get("myturn") == "1" and "sent" not in s:
            return s
        time.sleep(0.02)
    raise AssertionError("her turn did not come")


def wait_moved(page: Any, seq: str) -> None:
    page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}' || document.body.dataset.status === 'over'")


def test_phase_two_on_a_phone_keeps_the_hand_and_the_buttons_in_view(server: str, browser: Any) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.add_init_script("localStorage.setItem('mattis.lang', 'nb')")
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 2, ["bot"], seed=SEED)
        tap(page, "#btn-start")
        page.wait_for_selector("#felt")
        # Phase 1: Anne takes what she can with her highest playable card.
        while True:
            s = my_turn(page)
            assert s is not None, "the game ended in phase 1"
            if s["phase"] == "2":
                break
            if page.locator(".hand .card.legal").count():
                tap(page, ".hand .card.legal >> nth=-1")
            elif enabled(page, "#btn-chance"):
                tap(page, "#btn-chance")
            else:
                tap(page, "#btn-pickup")
            wait_moved(page, s["seq"])
        cards = page.locator(".hand .card").count()
        assert cards >= 18, cards
        # No key hints on a touch screen.
        assert page.locator("#btn-pickup").inner_text().strip() == "Ta opp"
        assert page.locator("#btn-last").inner_text().strip() == "Siste stikk"
        assert page.locator(".keys").count() == 0
        assert_in_view(page)
        # The hint: its sentence above the hand, its card (or button) marked, all still in view.
        assert page.locator("#btn-hint").inner_text().strip() == "Hint"
        tap(page, "#btn-hint")
        page.wait_for_function("() => document.body.dataset.hint")
        assert page.locator("#hint").inner_text().startswith("Hint: ")
        assert page.locator(".hand .card.hinted, .actions button.hinted").count() >= 1
        assert page.locator("#btn-hint").is_disabled()
        assert_in_view(page)
        assert outside(page, "#hint") == []
        # A refusal: a card that may not be played is tapped.  Said above the hand, which stays in view.
        refused = False
        known_seen = False
        while not refused:
            s = my_turn(page)
            assert s is not None, "the game ended before a card could be refused"
            if not known_seen and page.locator("#seat-1 details.known").count():
                known_seen = True
                assert page.locator("#seat-1 details.known").get_attribute("open") is None
                assert not page.locator("#seat-1 details.known div").is_visible()
                tap(page, "#seat-1 details.known summary")
                assert page.locator("#seat-1 details.known div").is_visible()
                assert "kjent:" in page.locator("#seat-1 details.known div").inner_text()
            illegal = page.locator(".hand .card:not(.legal)")
            if illegal.count():
                illegal.first.tap()
                page.wait_for_selector(".me #error")
                refused = True
            else:
                tap(page, ".hand .card.legal")
                wait_moved(page, s["seq"])
        assert dataset(page)["myturn"] == "1"
        assert page.locator(".hand .card").count() >= 18
        assert_in_view(page)
        assert outside(page, "#error") == []
        if os.environ.get("MATTIS_SHOTS"):
            page.screenshot(path=os.environ["MATTIS_SHOTS"])
        assert known_seen  # Bjørn picked up cards Anne saw: behind a tap
    finally:
        ctx.close()
