"""The chat and the time bank on two phones (390×844, touch) in Debian's Chromium: the host
makes a table with a turn clock and a time bank, a friend joins under a name with markup in
it; the chat is behind a tap (the header's button, which counts the lines not yet seen); a
line with a ``<script>`` in it goes from one phone to the other as text; the host mutes the
friend, who is told so in words and can no longer write; in the game the turn clock shows
the bank that follows it, and each seat shows its bank.  In English and in Norwegian.  (The limits themselves are tested
through the hub: tests/web/test_web_chat.py.)"""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
EVIL = '<script>window.pwned = 1</script><b>hei</b>'


def phone(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)


def test_two_phones_chat_behind_a_tap_the_host_mutes_and_the_bank_is_shown(server: str, browser: Any) -> None:
    ctxs = [phone(browser), phone(browser)]
    try:
        host = ctxs[0].new_page()
        host.goto(f"{server}/?seed=3")
        host.fill("#name", "Anne")
        host.select_option("#preset", "mattis")
        host.select_option("#players", "2")
        host.select_option("#seat-kind-1", "human")
        host.select_option("#clock", "30")
        host.select_option("#bank", "30")
        host.tap("#create")
        host.wait_for_selector(".lobby h2")
        invite = host.locator("#invite-link").input_value()
        ola = ctxs[1].new_page()
        ola.goto(invite)
        ola.fill("#name", "<i>Ola</i>")
        ola.tap("#join")
        ola.wait_for_selector(".seatlist")

        # The chat is behind a tap: the panel is hidden until the header's button is tapped.
        assert ola.locator("#chat").is_hidden()
        ola.tap("#chat-btn")
        assert ola.locator("#chat").is_visible()
        ola.fill("#chat-input", EVIL)
        ola.tap("#chat-send")
        ola.wait_for_selector("#chat-lines li[data-n='1']")

        host.wait_for_selector("#chat-btn[data-unread='1']")  # the count of lines not yet seen
        assert host.locator("#chat-btn").inner_text() == "Chat (1 new)"
        assert host.locator("#chat").is_hidden()
        host.tap("#chat-btn")
        line = host.locator("#chat-lines li[data-n='1']")
        assert line.inner_text() == f"<i>Ola</i>: {EVIL}"  # the characters themselves: no markup made
        assert line.locator("script, b, i").count() == 0
        assert host.evaluate("() => window.pwned") is None
        host.wait_for_selector("#chat-btn[data-unread='0']")
        box = host.locator("#chat").bounding_box()
        assert box is not None and box["width"] <= PHONE["width"] and box["height"] <= PHONE["height"]

        host.tap("#chat-mute-1")  # the host mutes her: she is told in words, and cannot write
        ola.wait_for_selector("#chat-input:disabled")
        assert ola.locator("#chat-note").inner_text() == \
            "The host has muted you at this table: you can read the chat but not write."
        assert ola.locator("#chat-lines li[data-n='2']").inner_text() == "The host has muted <i>Ola</i>."
        ola.tap("#chat-close")  # (on a phone the panel covers the whole screen, the header too)
        ola.tap("#lang")  # and in Norwegian
        ola.wait_for_selector("#chat-btn:text-is('Prat')")  # (the host's note was seen: her panel was open)
        ola.tap("#chat-btn")
        assert ola.locator("#chat-note").inner_text() == \
            "Verten har slått av praten din ved dette bordet: du kan lese, men ikke skrive."
        ola.tap("#chat-close")
        host.tap("#chat-close")

        # The game: the turn clock with the time bank that follows it, and each seat's bank.
        host.locator("#btn-start").tap()
        host.wait_for_selector("#timer")
        timer = host.locator("#timer").inner_text()
        assert timer.endswith("(+30 s in the time bank)"), timer
        assert host.locator("#seat-1 .tags").inner_text().endswith("time bank 30 s")
        bank = ola.wait_for_selector("#timer[data-bank]").get_attribute("data-bank")  # counted down on the page
        assert bank is not None and 0 < int(bank) <= 30
    finally:
        for c in ctxs:
            c.close()
