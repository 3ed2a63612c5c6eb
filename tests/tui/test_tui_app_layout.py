"""The card table fits every terminal from 80x24 up, in each phase and both languages:
the top line, the table, whose turn it is, the hand (with the cursor's card) and the key
help are on screen, not empty and not overlapping; below 80x24 one line asks for a
bigger window and the table's keys do nothing."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from screen_text import widget_text
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.widget import Widget

from mattis.core import PHASE1, PHASE2, card_symbol, preset
from mattis.tui.app import MIN_SIZE, MattisApp
from mattis.tui.i18n import Lang, t
from mattis.tui.session import Session

SIZES = [(80, 24), (100, 30), (120, 40), (200, 50)]
REGIONS = ["#top", "#table", "#turn", "#hand-box", "#keys"]


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def make_app(tmp_path: Path, seed: int, lang: Lang, players: int = 3) -> MattisApp:
    session = Session(rules=preset("mattis"), players=players, levels=["easy"] * players, lang=lang,
                      seed=seed, save_path=tmp_path / f"game-{seed}.json")
    session.start()
    return MattisApp(session, delay=0)




def check_fits(app: MattisApp, size: tuple[int, int]) -> None:
    screen = Region(0, 0, *size)
    regions = {}
    for name in REGIONS:
        widget = app.default_screen.query_one(name)
        assert widget.display and widget.visible, name
        region = widget.region
        assert region.width > 0 and region.height > 0, (name, size)
        assert screen.contains_region(region), (name, region, size)
        assert widget_text(widget).strip(), (name, size)
        regions[name] = region
    for a in REGIONS:
        for b in REGIONS:
            if a < b:
                assert not regions[a].overlaps(regions[b]), (a, b, size)
    obs = app.session.observation()
    lang = app.lang
    # whose turn it is, in words
    assert widget_text(app.default_screen.query_one("#turn")).strip().startswith(
        t(lang, "turn.you") if obs.to_act == 0 else t(lang, "turn.other", name=app.session.names[obs.to_act or 0])
        if obs.to_act is not None else t(lang, "turn.over"))
    # the cards on the table are shown
    table = widget_text(app.default_screen.query_one("#table"))
    laid = [c for _, c in obs.table1] if obs.phase is PHASE1 else [c for _, e in obs.table2 for c in e]
    for card in laid:
        assert card_symbol(card) in table, (card_symbol(card), table, size)
    # the cursor's card is within the part of the hand on screen
    box = app.default_screen.query_one("#hand-box", VerticalScroll)
    hand = app.hand
    row = hand.cursor_region()
    top = box.scroll_offset.y
    assert top <= row.y and row.bottom <= top + box.scrollable_content_region.height, (row, top, size)
    assert card_symbol(hand.cards[hand.cursor]) in widget_text(hand) if hand.cards else True


def phase2_seed(lang: Lang) -> tuple[int, list[int]]:
    """A seed whose game gives the human a phase 2 hand of at least 19 cards, and the
    human's moves (seeded random) that reach it."""
    for seed in range(1, 60):
        session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang=lang, seed=seed,
                          save_path=None)
        session.start()
        session.run_bots()
        rng = random.Random(seed)
        picks = []
        while session.observation().phase is PHASE1 and session.observation().legal:
            legal = session.observation().legal
            i = rng.randrange(len(legal))
            picks.append(i)
            assert session.try_move(legal[i]) is None
            session.run_bots()
        obs = session.observation()
        if obs.phase is PHASE2 and obs.legal and len(obs.hand) >= 19:
            return seed, picks
    raise AssertionError("no seed gives a 19-card phase 2 hand")


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_every_size_shows_table_hand_turn_and_keys_in_each_phase(tmp_path: Path, lang: Lang) -> None:
    seed, picks = phase2_seed(lang)
    app = make_app(tmp_path, seed, lang)

    async def scenario() -> None:
        async with app.run_test(size=SIZES[0]) as pilot:
            seen_cards_on_table = False
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                assert app.session.observation().phase is PHASE1
                check_fits(app, size)
            # on to phase 2 (the moves the search above made), checking a position with
            # cards on the table on the way
            session = app.session
            while session.observation().phase is PHASE1:
                obs = session.observation()
                if obs.table1 and not seen_cards_on_table:
                    seen_cards_on_table = True
                    for size in SIZES:
                        await pilot.resize_terminal(*size)
                        await pilot.pause()
                        check_fits(app, size)
                done = sum(1 for s, _, _ in obs.history if s == 0)
                app.submit(obs.legal[picks[done]])
                await pilot.pause()
            assert seen_cards_on_table
            obs = session.observation()
            assert obs.phase is PHASE2 and len(obs.hand) >= 19
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                check_fits(app, size)
                # the last card of a long hand scrolls into view, and the first again
                await pilot.press("end")
                check_fits(app, size)
                await pilot.press("home")
                check_fits(app, size)
                await pilot.press("down")
                check_fits(app, size)

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [(79, 24), (80, 23), (40, 10)])
def test_below_the_minimum_one_line_asks_for_a_bigger_window(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, seed=3, lang="nb")

    async def scenario() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            small = app.default_screen.query_one("#small")
            assert small.display and small.region.height == 1
            text = widget_text(small).strip()
            assert text.startswith("Gjør vinduet større") and f"{MIN_SIZE[0]}×{MIN_SIZE[1]}" in text
            for name in REGIONS:
                widget = app.default_screen.query_one(name)
                assert not all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))
            before = app.session.record_text()
            await pilot.press("enter", "right", "enter", "c", "r", "l")
            assert app.session.record_text() == before and len(app.screen_stack) == 1
            # made big enough, the table comes back
            await pilot.resize_terminal(*MIN_SIZE)
            await pilot.pause()
            assert not small.display
            check_fits(app, MIN_SIZE)

    asyncio.run(scenario())


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_table_size_fits_80x24_in_both_phases(tmp_path: Path, players: int) -> None:
    app = make_app(tmp_path, seed=players, lang="en", players=players)

    async def scenario() -> None:
        async with app.run_test(size=MIN_SIZE) as pilot:
            await pilot.pause()
            check_fits(app, MIN_SIZE)
            rng = random.Random(players)
            session = app.session
            while session.observation().phase is PHASE1 and session.observation().legal:
                app.submit(rng.choice(session.observation().legal))
                await pilot.pause()
                if session.observation().legal:
                    check_fits(app, MIN_SIZE)
            for _ in range(5):
                obs = session.observation()
                if not obs.legal:
                    break
                check_fits(app, MIN_SIZE)
                app.submit(rng.choice(obs.legal))
                await pilot.pause()

    asyncio.run(scenario())
