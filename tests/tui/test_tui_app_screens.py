"""The table's windows and keys, by keys through Textual's Pilot at 80x24 in both
languages: take back (u), how to play (?), statistics (i), settings (s), the history
(l: every trick, the whole log, known cards), a completed trick left on the table,
house rules on the main screen, the end screen's take-backs."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from screen_text import widget_text as shown
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from mattis.core import PHASE2, GameRecord, card_symbol, preset
from mattis.core.text import how_to_play
from mattis.play import Referee, make_bot
from mattis.tui.app import MattisApp
from mattis.tui.history import tricks
from mattis.tui.i18n import Lang, t
from mattis.tui.render import rules_lines
from mattis.tui.screens import EndScreen, HistoryScreen, InfoScreen, SettingsScreen
from mattis.tui.session import Session
from mattis.tui.settings import load_settings
from mattis.tui.stats import stats_lines

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def make_app(tmp_path: Path, lang: Lang, seed: int = 4, rules: str = "mattis", delay: float = 0.0,
             **overrides: object) -> MattisApp:
    session = Session(rules=preset(rules, **overrides), players=3, levels=["easy"] * 3, lang=lang, seed=seed,
                      save_path=tmp_path / "game.json", stats_path=tmp_path / "stats.json")
    session.start()
    return MattisApp(session, delay=delay, settings_file=tmp_path / "settings.json")




def static_text(widget: Static) -> str:
    content = widget.content
    return content if isinstance(content, str) else str(content)


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_take_back_undoes_to_the_previous_decision_and_the_end_screen_counts_it(tmp_path: Path,
                                                                              lang: Lang) -> None:
    app = make_app(tmp_path, lang)
    session = app.session

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("u")  # nothing to take back yet
            assert static_text(app.widget("message")) == t(lang, "takeback.none")
            assert t(lang, "tui.keys.take_back") not in static_text(app.widget("keys"))
            before = session.observation()
            await pilot.press("enter")
            assert len(session.observation().history) > len(before.history)
            assert t(lang, "tui.keys.take_back") in static_text(app.widget("keys"))
            await pilot.press("u")
            after = session.observation()
            # back to the same decision: the same hand, the same legal moves, the same table
            assert (after.hand, after.legal, after.table1, after.history) == (
                before.hand, before.legal, before.table1, before.history)
            assert session.take_backs == 1
            # the saved record keeps only the line played on
            saved = GameRecord.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
            assert len(saved.moves) == len(after.history)
            # play on to the end: the end screen says how many take-backs were used
            rng = random.Random(3)
            while not isinstance(app.screen, EndScreen):
                app.submit(rng.choice(session.observation().legal))
                await pilot.pause()
            end = static_text(app.screen.query_one("#end-text", Static))
            assert t(lang, "end.take_backs", n=1) in end

    asyncio.run(scenario())


@pytest.mark.parametrize("rules", ["mattis", "skitgubbe"])
@pytest.mark.parametrize("lang", ["nb", "en"])
def test_how_to_play_is_a_few_full_pages_that_page_down_turns(tmp_path: Path, lang: Lang, rules: str) -> None:
    """At 80x24 how to play is a few full pages (not one small page per topic), each
    shown whole; Page Down turns to the next page, Page Up back, as ←/→ do; every topic
    is there once, in order, under the game's name written as a name ("Mattis")."""
    app = make_app(tmp_path, lang, rules=rules)
    topics = how_to_play(app.session.rules, lang)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            window = app.screen
            assert isinstance(window, InfoScreen)
            total = len(window.pages)
            assert total <= len(topics) // 2, total  # fuller pages: mattis has 13 topics, 4 pages at 80x24
            seen = []
            for n in range(1, total + 1):
                await pilot.pause()
                assert t(lang, "tui.info.pages", n=n, total=total) in shown(window.query_one("#info-page"))
                assert window.query_one(VerticalScroll).max_scroll_y == 0  # the page is shown whole
                seen.append(static_text(window.query_one("#info-text", Static)))
                await pilot.press("pagedown")
            assert isinstance(app.screen, InfoScreen) and window.page == total - 1  # it stops at the last page
            await pilot.press("pageup")
            assert window.page == total - 2
            text = "\n".join(seen)
            at = 0
            for heading, paragraph in topics:
                at = text.index(paragraph, at)
                assert heading in text
            assert seen[0].startswith(t(lang, "tui.howto.title", name=rules.capitalize()))
            assert rules.capitalize() in seen[0].splitlines()[0]
            assert shown(window.query_one("#info-close")).strip()
            await pilot.press("x")
            assert len(app.screen_stack) == 1

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_statistics_window_shows_the_games_finished(tmp_path: Path, lang: Lang) -> None:
    app = make_app(tmp_path, lang, seed=9)
    session = app.session

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("i")
            text = static_text(app.screen.query_one("#info-text", Static))
            assert t(lang, "stats.none") in text
            await pilot.press("escape")
            rng = random.Random(1)
            while not isinstance(app.screen, EndScreen):
                app.submit(rng.choice(session.observation().legal))
                await pilot.pause()
            await pilot.press("n")  # play again: the finished game is counted
            await pilot.press("i")
            text = static_text(app.screen.query_one("#info-text", Static))
            lines = stats_lines(lang, tmp_path / "stats.json")
            assert text.splitlines()[2:] == lines
            assert lines[0] in (t(lang, "stats.total", games=1, lost=0), t(lang, "stats.total", games=1, lost=1))

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_settings_screen_saves_and_applies_to_the_game_in_progress(tmp_path: Path, lang: Lang) -> None:
    app = make_app(tmp_path, lang)
    other: Lang = "en" if lang == "nb" else "nb"

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            before = app.session.record_text()
            await pilot.press("s")
            assert isinstance(app.screen, SettingsScreen)
            # language: the other one; the name: typed; the pace: the next choice
            await pilot.press("right")                      # language
            await pilot.press("down", "down", "down", "down", "right")  # pace
            await pilot.press("down", *"Kari")              # name
            await pilot.press("down", "down", "right")      # the second house rule: ties
            await pilot.press("enter")
            assert len(app.screen_stack) == 1
            # the language, the name and the pace at once; the house rule from the next game
            assert static_text(app.widget("message")) == t(other, "tui.settings.applied_next")
            assert app.lang == app.session.lang == other
            assert app.session.names[0] == "Kari" and "Kari" in shown(app.widget("players"))
            assert app.delay == 0.0
            assert app.session.rules == preset("mattis")  # the game is played out by its rules
            assert json.loads(app.session.record_text())["moves"] == json.loads(before)["moves"]

    asyncio.run(scenario())
    saved = load_settings(tmp_path / "settings.json")
    assert saved.lang == other
    assert saved.name == "Kari"
    assert saved.delay == 0.0
    assert set(saved.overrides) == {"ties"}
    assert saved.make_rules().ties.value == saved.overrides["ties"]
    app.session.next_game()
    assert app.session.rules == saved.make_rules()
    # Escape leaves without saving
    app = make_app(tmp_path, lang)

    async def cancel() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s", "right", "down", "right", "escape")
            assert len(app.screen_stack) == 1
            assert app.lang == lang

    asyncio.run(cancel())
    assert load_settings(tmp_path / "settings.json") == saved


async def change_setting(pilot: Any, app: MattisApp, key: str, step: int) -> None:
    """Open the settings screen, wait until it is the screen, move to the line ``key``,
    change it by ``step`` and save (keys pressed before the screen is up would go to the
    table, however fast the machine)."""
    window = SettingsScreen(app.session_settings(), app.lang)
    rows = [k for k, _, _ in window.fields()]
    await pilot.press("s")
    for _ in range(10_000):
        if isinstance(app.screen, SettingsScreen):
            break
        await pilot.pause(0.01)
    assert isinstance(app.screen, SettingsScreen)
    await pilot.press(*["down"] * rows.index(key), *["right" if step > 0 else "left"] * abs(step), "enter")


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_a_new_language_applies_at_once_to_every_word_on_the_table(tmp_path: Path, lang: Lang) -> None:
    app = make_app(tmp_path, lang)
    other: Lang = "en" if lang == "nb" else "nb"

    async def scenario() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await change_setting(pilot, app, "lang", 1)
            assert app.lang == app.session.lang == other
            assert static_text(app.widget("message")) == t(other, "tui.settings.applied")
            assert app.default_screen.query_one("#log").border_title == t(other, "label.log")
            assert str(app.default_screen.query_one("#b-hint", Button).label) == t(other, "btn.hint")
            assert app.session.names[0] == t(other, "word.you")
            await pilot.press("r")  # the rules window speaks it too
            assert isinstance(app.screen, InfoScreen)
            rules = "\n".join(app.screen.lines)
            assert rules == "\n".join(rules_lines(app.session.rules, other, app.session.observation(),
                                                  app.session.names))

    asyncio.run(scenario())


def test_a_new_bot_level_applies_from_the_bots_next_decision(tmp_path: Path) -> None:
    app = make_app(tmp_path, "en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            old = dict(app.session.agents)
            await change_setting(pilot, app, "bots", 2)  # easy -> hard
            assert static_text(app.widget("message")) == t("en", "tui.settings.applied")
            assert app.session.levels[1:] == ["hard", "hard"]
            assert all(app.session.agents[seat] is not old[seat] for seat in (1, 2))
            assert {type(a) for a in app.session.agents.values()} == {type(make_bot("hard", 0))}

    asyncio.run(scenario())


def test_other_players_wait_for_the_next_game_and_say_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, "nb")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            before = app.session.record_text()
            await change_setting(pilot, app, "players", 1)  # 3 -> 4
            assert static_text(app.widget("message")) == t("nb", "tui.settings.applied_next")
            assert app.session.players == 3 and app.session.record_text() == before
            app.session.next_game()
            assert app.session.players == 4 and app.session.observation().players == 4
            assert len(app.session.names) == 4 and app.session.names[0] == "Du"
            assert len(app.session.tally) == 4 and len(app.session.levels) == 4

    asyncio.run(scenario())


def test_settings_start_from_the_file_and_change_the_players(tmp_path: Path) -> None:
    app = make_app(tmp_path, "en")
    (tmp_path / "settings.json").write_text(json.dumps({"rules": "hund", "players": 4}), encoding="utf-8")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            window = app.screen
            assert isinstance(window, SettingsScreen)
            text = static_text(window.query_one("#settings-text", Static))
            assert "Rules: ‹ Hund ›" in text and "Players: ‹ 4 ›" in text
            rows = [key for key, _, _ in window.fields()]
            await pilot.press(*["down"] * rows.index("players"), "left", "enter")
            assert len(app.screen_stack) == 1

    asyncio.run(scenario())
    saved = load_settings(tmp_path / "settings.json")
    assert (saved.rules, saved.players) == ("hund", 3)


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_history_browses_every_trick_and_the_whole_log(tmp_path: Path, lang: Lang) -> None:
    app = make_app(tmp_path, lang, seed=12)
    session = app.session

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(4)
            while session.observation().phase is not PHASE2 or len(session.observation().history) < 40:
                if session.over:
                    break
                app.submit(rng.choice(session.observation().legal))
                await pilot.pause()
            record = session.referee.record()
            await pilot.press("l")
            window = app.screen
            assert isinstance(window, HistoryScreen)
            # it opens on the last completed trick; End goes to the one being played
            taken = [i for i, tr in enumerate(window.tricks) if not tr[-1].strip() == t(lang, "tui.history.open")]
            assert window.index == taken[-1]
            await pilot.press("end")
            assert window.index == len(window.tricks) - 1
            # browse back to the first trick, counting pages
            pages = [static_text(window.query_one("#history-trick-text", Static))]
            for _ in range(200):
                await pilot.press("left")
                text = static_text(window.query_one("#history-trick-text", Static))
                if text == pages[-1]:
                    break
                pages.append(text)
            pages.reverse()
            assert pages[0].startswith(t(lang, "tui.history.trick1", n=1, total=len(window.tricks)))
            # every move of the game appears once, in a trick: a page is its heading, its
            # moves and who took it (or that it is not finished)
            assert sum(len(page.splitlines()) - 2 for page in pages) == len(record.moves)
            assert len(window.tricks) >= 10
            names = session.names
            took = [page.splitlines()[-1].strip() for page in pages]
            assert all(line == t(lang, "tui.history.open") or any(line.startswith(n + " ") for n in names)
                       for line in took)
            # the whole log is there and scrolls
            log = static_text(window.query_one("#history-log Static", Static))
            assert log.splitlines() == session.log
            await pilot.press("pageup", "up", "down")
            assert isinstance(app.screen, HistoryScreen)
            # the known cards of the other hands, in full
            obs = session.observation()
            known = static_text(window.query_one("#history-known", Static))
            for seat in (1, 2):
                if obs.known[seat]:
                    assert t(lang, "tui.history.known", name=names[seat], cards=" ".join(
                        card_symbol(c) for c in obs.known[seat])) in known
            await pilot.press("escape")
            assert len(app.screen_stack) == 1
            assert session.referee.record().moves == record.moves  # the window changed nothing

    asyncio.run(scenario())


def test_a_completed_trick_stays_on_the_table_with_who_took_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, "nb", seed=5, delay=600)  # the bots wait: we look at the table between moves
    session = app.session

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(40):
                obs = session.observation()
                if obs.to_act != 0:
                    session.bot_step()
                    app.refresh_view()
                    await pilot.pause()
                else:
                    app.submit(obs.legal[0])
                    await pilot.pause()
                obs = session.observation()
                if obs.last_trick is not None and not obs.table1 and obs.to_act != 0:
                    taker = session.names[obs.last_trick[0]]
                    table = shown(app.default_screen.query_one("#table"))
                    assert t("nb", "tui.table.took1", name=taker) in table
                    return
            raise AssertionError("no trick was completed before a bot's lead")

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_house_rules_show_on_the_main_screen(tmp_path: Path, lang: Lang) -> None:
    app = make_app(tmp_path, lang, sequences=2)
    plain = make_app(tmp_path, lang)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            house = shown(app.default_screen.query_one("#house"))
            assert t(lang, "tui.house", rules="")[:5] in house
            assert t(lang, "opt.sequences") in house
        async with plain.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert not plain.default_screen.query_one("#house").display

    asyncio.run(scenario())


def test_rules_window_lists_the_options_in_words(tmp_path: Path) -> None:
    app = make_app(tmp_path, "en", ties="stoting")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            text = static_text(app.screen.query_one("#info-text", Static))
            assert "ties" not in text.split("\n\n")[1] and "stoting" not in text  # no identifiers
            assert "støting" in text

    asyncio.run(scenario())


def test_windows_leave_the_game_unchanged(tmp_path: Path) -> None:
    app = make_app(tmp_path, "en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            before = app.session.record_text()
            for key in ("r", "l", "question_mark", "i", "s"):
                await pilot.press(key)
                assert len(app.screen_stack) == 2
                await pilot.press("enter" if key != "s" else "escape")
                assert len(app.screen_stack) == 1
            assert app.session.record_text() == before
            assert Referee.from_record(app.session.referee.record()).moves_played == app.session.referee.moves_played

    asyncio.run(scenario())


@pytest.mark.parametrize("rules", ["mattis", "hund", "blodmattis", "skitgubbe"])
def test_history_holds_only_cards_seen_in_public(tmp_path: Path, rules: str) -> None:
    """Information boundary: every card the history window names was shown on the table
    (laid, turned up by a sjanse, or taken back by a pickup), and its moves are the game's."""
    session = Session(rules=preset(rules), players=3, levels=["easy"] * 3, lang="en", seed=21,
                      save_path=tmp_path / "game.json")
    session.start()
    rng = random.Random(2)
    session.run_bots()
    while session.observation().legal:
        assert session.try_move(rng.choice(session.observation().legal)) is None
        session.run_bots()
        obs = session.observation()
        public = {c for _, _, shown_cards in obs.history for c in shown_cards}
        done = tricks(session.referee.record())
        named = {c for tr in done for _, _, cs in tr.moves for c in cs} | {c for tr in done for c in tr.cards}
        assert named <= public
        assert [(s, m) for tr in done for s, m, _ in tr.moves] == [(s, m) for s, m, _ in obs.history]


def test_wait_it_is_bjorns_turn_goes_when_bjorn_has_moved(tmp_path: Path) -> None:
    """A key pressed while a bot thinks says "Vent, Bjørn er i tur."; once the bots have
    moved and it is "Din tur", that line is gone (it said the opposite)."""
    app = make_app(tmp_path, "nb", seed=3, delay=0.3)
    s = app.session

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(400):  # a move of the human's, then a key while a bot is to move
                if s.human_to_act:
                    app.submit(s.observation().legal[0])
                if s.bot_to_act:
                    await pilot.press("c")  # sjanse: a move whatever the hand holds
                    if app.message.startswith("Vent, "):
                        break
                await pilot.pause(0.01)
            else:
                pytest.fail("never caught a bot's turn")
            said = app.message
            assert said in [t("nb", "err.not_your_turn", name=name) for name in s.names[1:]], said
            for _ in range(2000):
                if s.human_to_act or s.over:
                    break
                await pilot.pause(0.01)
            await pilot.pause()
            assert s.human_to_act or s.over
            assert said not in shown(app.default_screen.query_one("#message")), "the wait line outlived the wait"

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_an_avstikk_you_completed_stays_on_the_table_saying_du(tmp_path: Path, lang: Lang) -> None:
    """When the person lays the last card of an avstikk, the table says "Avstikk, du la det
    siste kortet:" ("you laid"), not the seat name "Du" inside the sentence."""
    app = make_app(tmp_path, lang, seed=5, delay=600)  # the bots wait: we look at the table between moves
    session = app.session
    rng = random.Random(5)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            while not session.over:
                obs = session.observation()
                if obs.to_act != 0:
                    session.bot_step()
                    app.refresh_view()
                    await pilot.pause()
                    continue
                app.submit(rng.choice(obs.legal))
                await pilot.pause()
                obs = session.observation()
                if obs.phase is PHASE2 and obs.last_trick is not None and obs.last_trick[0] == 0 \
                        and not obs.table2 and obs.history and obs.history[-1][0] == 0:
                    table = " ".join(w for w in shown(app.default_screen.query_one("#table")).split() if w != "│")
                    assert t(lang, "tui.table.took2", name="du" if lang == "nb" else "you") in table
                    assert "Du" not in table and "You" not in table
                    return
            raise AssertionError("the person never completed an avstikk")

    asyncio.run(scenario())
