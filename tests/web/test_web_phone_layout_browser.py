"""Where things lie on a phone (390x844, touch) and on a laptop (1280x800) in Debian's Chromium,
read from the elements' boxes: on her turn with a turn clock her countdown is right by her hand
(not only in the bar at the top of the page), then her time bank's; a playable card's dot lies
on its own card, over no text (not "Your turn", not the countdown, not another card); the review
chart's marks (``?``, ``??``) and labels lie inside the chart and the screen.

The clock runs on the hub's clock (:class:`ManualClock`): its time moves only when the test says.
Every wait is on a condition, never a sleep."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pw = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, create_table, play_to_end  # noqa: E402
from test_web_clock_browser import Server  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
NEAR = 40
"""The most pixels between her countdown and her hand."""
WORDS = {
    "en": {"turn": "Your turn", "clock": r"You have \d+ s left", "bank": r"You are using your time bank: \d+ s left"},
    "nb": {"turn": "Din tur", "clock": r"Du har \d+ sek igjen", "bank": r"Du bruker tidsbanken: \d+ sek igjen"},
}
Box = list[float]
MY_CLOCK = "() => document.body.dataset.myturn === '1' && document.body.dataset.timer === 'clock:0'"
"""Her turn, with her turn clock running."""


@pytest.fixture
def clock_server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "clock.db")
    yield s
    s.stop()


def context(browser: Any, viewport: dict[str, int], lang: str) -> Any:
    phone = viewport is PHONE
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    ctx.add_init_script(f"localStorage.setItem('mattis.lang', '{lang}')")
    return ctx


def boxes(page: Any, selector: str) -> list[Box]:
    """The shown elements of ``selector``: [left, top, right, bottom] each (transforms included)."""
    got: list[Box] = page.evaluate("""(sel) => Array.from(document.querySelectorAll(sel))
      .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0)
      .map((r) => [r.left, r.top, r.right, r.bottom])""", selector)
    return got


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Box, b: Box) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def the(page: Any, selector: str) -> Box:
    found = boxes(page, selector)
    assert len(found) == 1, f"{selector}: {len(found)} shown"
    return found[0]


def assert_countdown_by_the_hand(page: Any, viewport: dict[str, int]) -> None:
    """Her countdown: on the screen, over her hand's width and at most :data:`NEAR` px above it."""
    screen = [0.0, 0.0, float(viewport["width"]), float(viewport["height"])]
    clock, hand = the(page, "#hand-timer"), the(page, "#hand")
    assert inside(clock, screen), (clock, screen)
    assert hand[0] <= clock[0] and clock[2] <= hand[2], (clock, hand)
    assert clock[3] <= hand[1] + 1 and hand[1] - clock[3] <= NEAR, (clock, hand)


def assert_dots_clear(page: Any, phone: bool, lang: str) -> None:
    """Each playable card has its dot, lying on that card and over no text nor other card; her
    lifted cards clear "Your turn" and the countdown."""
    if phone:  # docked: "Your turn" right above her hand
        assert page.locator(".dockturn").inner_text() == WORDS[lang]["turn"]
    turn = boxes(page, ".dockturn")
    assert bool(turn) == phone
    heads = turn + boxes(page, "#hand-timer")
    clashes: list[str] = page.evaluate("""() => {
      const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const texts = [];  // every piece of text on the page, with the card it is drawn on (if any)
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim()) continue;
        const range = document.createRange(); range.selectNodeContents(n);
        for (const r of range.getClientRects())
          if (r.width > 0 && r.height > 0)
            texts.push({ r, text: n.textContent.trim(), card: n.parentElement.closest('.hand .card') });
      }
      const out = [], cards = Array.from(document.querySelectorAll('.hand .card'));
      for (const card of cards) {
        const dot = card.querySelector('.dot');
        const name = card.dataset.card;
        if (!card.classList.contains('legal')) { if (dot) out.push('a dot on ' + name + ', not playable'); continue; }
        if (!dot) { out.push('no dot on ' + name); continue; }
        const d = dot.getBoundingClientRect(), c = card.getBoundingClientRect();
        if (d.left < c.left || d.top < c.top || d.right > c.right || d.bottom > c.bottom)
          out.push(name + "'s dot " + box(d) + ' off its card ' + box(c));
        for (const t of texts)
          if (t.card !== card && meets(d, t.r))
            out.push(name + "'s dot " + box(d) + ' over "' + t.text + '" ' + box(t.r));
        for (const other of cards)
          if (other !== card && meets(d, other.getBoundingClientRect()))
            out.push(name + "'s dot over " + other.dataset.card);
      }
      return out;
    }""")
    assert clashes == []
    dots = boxes(page, ".hand .card .dot")
    assert dots and len(dots) == page.locator(".hand .card.legal").count()
    for dot in dots:
        for head in heads:
            assert not meets(dot, head), (dot, head)
    for card in boxes(page, ".hand .card"):
        for head in heads:
            assert not meets(card, head), (card, head)


@pytest.mark.parametrize("viewport,lang", [
    pytest.param(PHONE, "nb", id="phone-nb"),
    pytest.param(PHONE, "en", id="phone-en", marks=pytest.mark.slow),  # about 3 s each: the work tier runs two
    pytest.param(LAPTOP, "en", id="laptop-en"),
])
def test_her_countdown_is_by_her_hand_and_the_dots_lie_on_their_cards(
        browser: Any, clock_server: Server, viewport: dict[str, int], lang: str) -> None:
    server, words, phone = clock_server, WORDS[lang], viewport is PHONE
    ctx = context(browser, viewport, lang)
    try:
        page = ctx.new_page()
        page.goto(f"{server.base}/?seed=5")
        page.wait_for_selector("#bank option >> nth=1", state="attached")  # the form, with the server's choices
        page.fill("#name", "Kari")
        page.select_option("#preset", "mattis")
        page.select_option("#players", "2")
        page.select_option("#seat-kind-1", "bot")
        page.select_option("#clock", "30")
        page.select_option("#bank", "30")
        page.click("#create")
        page.click("#btn-start")
        page.wait_for_function(MY_CLOCK)
        assert re.match(words["clock"], page.inner_text("#timer"))  # the bar at the top, as before
        assert_countdown_by_the_hand(page, viewport)  # and by her hand
        assert re.match(words["clock"], page.inner_text("#hand-timer"))
        assert_dots_clear(page, phone, lang)

        # Her 30 s are out: her time bank runs, and that countdown is by her hand.  (A second page of
        # hers is sent the table as it is now; the first counts down in real time.)
        server.advance(30)
        url = page.url
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function(MY_CLOCK)
        assert re.fullmatch(words["bank"], page.inner_text("#timer"))
        assert_countdown_by_the_hand(page, viewport)
        assert re.fullmatch(words["bank"], page.inner_text("#hand-timer"))  # (both are written at once)
        assert_dots_clear(page, phone, lang)
        if os.environ.get("MATTIS_SHOTS"):
            page.screenshot(path=os.path.join(os.environ["MATTIS_SHOTS"], f"bank-{viewport['width']}-{lang}.png"))
    finally:
        ctx.close()


CHART = """() => {
  const svg = document.getElementById('analysis-chart'), s = svg.getBoundingClientRect(), out = [];
  for (const e of svg.querySelectorAll('text, circle')) {
    const r = e.getBoundingClientRect();
    const box = (b) => [b.left, b.top, b.right, b.bottom].map(Math.round).join(',');
    if (r.left < Math.max(0, s.left) || r.top < s.top || r.right > Math.min(window.innerWidth, s.right)
        || r.bottom > s.bottom)
      out.push(e.tagName + ' ' + (e.textContent || e.getAttribute('class')) + ' at ' + box(r) + ' outside ' + box(s));
  }
  return out;
}"""


@pytest.mark.slow  # a whole game and its review, three times over 10 s: CI runs it
def test_the_review_charts_marks_and_labels_lie_inside_it_on_a_phone_and_a_laptop(server: str, browser: Any) -> None:
    ctx = context(browser, PHONE, "nb")
    try:
        page = ctx.new_page()
        create_table(page, server, "mattis", 2, ["bot"], seed=9)  # its last choice is marked "??": at the right edge
        page.click("#btn-start")
        page.wait_for_selector("#felt")
        play_to_end([page])
        for lang, viewport in (("nb", PHONE), ("en", PHONE), ("en", LAPTOP)):
            if lang != page.evaluate("() => document.documentElement.lang"):
                page.click("#lang")
                page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.set_viewport_size(viewport)
            page.wait_for_function(f"() => window.innerWidth === {viewport['width']}")
            page.click("#btn-analyse")
            page.wait_for_selector("#analysis-chart")  # the review takes a while: waits up to tiers.HUNG
            chart = the(page, "#analysis-chart")
            assert 0 <= chart[0] and chart[2] <= viewport["width"], chart
            assert page.locator("#analysis-chart .marktext").count() >= 1
            assert page.evaluate(CHART) == []
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
            if os.environ.get("MATTIS_SHOTS"):
                page.locator("#analysis-chart").screenshot(
                    path=os.path.join(os.environ["MATTIS_SHOTS"], f"chart-{viewport['width']}-{lang}.png"))
            page.click("#btn-analysis-back")
            page.wait_for_selector("#result")
    finally:
        ctx.close()
