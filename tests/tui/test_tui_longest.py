"""Nothing is cut off at 80x24: the longest hint and the longest refusal of the
catalogue, in both languages, are shown whole on the message line of the table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from screen_text import widget_text

from mattis.core import preset
from mattis.core.catalogue import TEXT
from mattis.lab.hint import PLAYOUTS
from mattis.tui.app import MattisApp
from mattis.tui.i18n import Lang, t
from mattis.tui.session import Session


def make_app(tmp_path: Path, seed: int, lang: Lang) -> MattisApp:
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang=lang, seed=seed,
                      save_path=tmp_path / f"game-{seed}.json")
    session.start()
    return MattisApp(session, delay=0)



CARD = "10♠"
SHOWN = "10♠ 10♥"


def longest_messages(lang: Lang) -> list[str]:
    """The longest hint (with its key note) and the longest refusal, filled in with the
    widest cards."""
    figure = t(lang, "review.pct", p=100) + " ± 18"  # a chance as the hint shows it (mattis.lab.hint)
    three = "10♠ 10♥ 10♦"  # the most cards a phase 1 reason names (mattis.lab.hint.KEEP_SHOWN)
    fight = max((t(lang, f"term.{k}") for k in ("krig", "stoting", "stunsa")), key=len)
    whys = [t(lang, k, n=PLAYOUTS, p=figure, q=figure, other=t(lang, "move.play", cards=SHOWN), card=CARD, least=CARD,
              keep=three, worth=three, fight=fight)
            for k in TEXT if k.startswith("why.")]
    hint = t(lang, "hint.why", move=t(lang, "move.play", cards=CARD), why=max(whys, key=len))
    hint += "  " + max(t(lang, "tui.hint.enter"), t(lang, "hint.keys"), key=len)
    reasons = [t(lang, k, cards=SHOWN, number=13) for k in TEXT if k.startswith("reason.")]
    return [hint, max(reasons, key=len)]


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_longest_messages_are_shown_whole_at_80x24(tmp_path: Path, lang: Lang) -> None:
    app: MattisApp = make_app(tmp_path, 1, lang)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for message in longest_messages(lang):
                app.say(message)
                await pilot.pause()
                shown = " ".join(widget_text(app.default_screen.query_one("#message")).split())
                assert shown == " ".join(message.split()), (message, shown)

    asyncio.run(scenario())
