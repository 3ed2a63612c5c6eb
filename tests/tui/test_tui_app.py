"""The Textual card table, driven headless through Textual's Pilot with keys only."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from mattis.core import CHANCE, PHASE2, GameRecord, Move, MoveKind, load_record, preset, seat_names
from mattis.play import Referee
from mattis.tui.app import EndScreen, HistoryScreen, InfoScreen, MattisApp
from mattis.tui.session import Session, fix_you

SIZE = (110, 44)


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot waits for the app to go idle after each key in slices of 20 ms; 4 ms slices
    detect idleness just as well and make these whole-game tests four times quicker."""
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004, raising=False)


def make_app(tmp_path: Path, rules: str = "mattis", seed: int = 1, lang: str = "nb", players: int = 3,
             delay: float = 0.0, **overrides: object) -> MattisApp:
    session = Session(rules=preset(rules, **overrides), players=players, levels=["medium"] * players,
                      lang=lang, seed=seed, save_path=tmp_path / "game.json")  # type: ignore[arg-type]
    session.start()
    return MattisApp(session, delay=delay)


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text."""
    content = widget.content
    if isinstance(content, str):
        return content
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text(styles=False).rstrip("\n")


async def lay_by_keys(pilot: Pilot[Path | None], app: MattisApp, move: Move) -> None:
    """Make ``move`` the way a person would: arrows to a card, Space to mark, Enter to lay."""
    if move.kind is MoveKind.CHANCE:
        await pilot.press("c")
        return
    if move.kind is MoveKind.PICKUP:
        await pilot.press("p")
        return
    hand = app.hand
    marked = len(move.cards) > 1
    for card in move.cards:
        target = hand.cards.index(card)
        step = target - hand.cursor
        keys = ["right"] * step if step > 0 else ["left"] * -step
        if keys:
            await pilot.press(*keys)
        assert hand.cards[hand.cursor] == card
        if marked:
            await pilot.press("space")
    await pilot.press("enter")


async def play_to_end(pilot: Pilot[Path | None], app: MattisApp, rng: random.Random) -> int:
    """Play the human seat with random legal moves, by keys, until the end screen shows."""
    moves = 0
    while not isinstance(app.screen, EndScreen):
        obs = app.session.observation()
        assert obs.legal, "the human must be to act while the table is shown"
        before = len(obs.history)
        await lay_by_keys(pilot, app, rng.choice(obs.legal))
        assert len(app.session.observation().history) > before, app.message
        moves += 1
        assert moves < 1000
    return moves


@pytest.mark.parametrize("rules", ["mattis", *(pytest.param(r, marks=pytest.mark.slow)  # 10-15 s each: CI runs them
                                               for r in ("hund", "blodmattis", "skitgubbe"))])
def test_whole_game_by_keys_reaches_the_end_screen(tmp_path: Path, rules: str) -> None:
    app = make_app(tmp_path, rules=rules, seed=20 + len(rules), lang="en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            moves = await play_to_end(pilot, app, random.Random(rules))
            assert moves > 0
            end = text_of(app.screen.query_one("#end-text", Static))
            # The saved record, replayed by the referee, is the truth the end screen must match.
            referee = Referee.from_record(load_record(str(tmp_path / "game.json")))
            truth = referee.outcome
            assert truth is not None
            names = seat_names(3, 0, "en")
            order = [f"{i}. {names[s]}" for i, s in enumerate(truth.finished, start=1)]
            positions = [end.index(line) for line in order]
            assert positions == sorted(positions)
            # The loser is named in the variant's word: Skitgubbe's loser is the skitgubbe.
            word = "the skitgubbe" if rules == "skitgubbe" else "Mattis"
            if truth.mattis is not None:
                assert fix_you(f"{names[truth.mattis]} is {word}!", "You", "en") in end
                assert f"{names[truth.mattis]}: 1" in end.split(f"Times {word}")[1]
            else:
                assert f"No {word.removeprefix('the ')} this time." in end
            assert rules != "skitgubbe" or "Mattis" not in end
            for s in truth.blodmattis:
                assert f"{names[s]} (Blodmattis)" in end
            if rules == "mattis":
                # Play again: the loser deals the next game.
                await pilot.press("n")
                assert not isinstance(app.screen, EndScreen)
                assert app.session.observation().dealer == referee.next_dealer
                assert app.session.observation().history == () or app.session.observation().legal

    asyncio.run(scenario())


def test_illegal_choice_shows_the_reason_and_changes_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path, rules="mattis", seed=3, lang="nb", sequences=2)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            # Phase 1: there is nothing to pick up.
            before = app.session.record_text()
            await pilot.press("p")
            assert app.session.record_text() == before
            assert text_of(app.query_one("#message", Static)) == "det er ingenting å ta opp i fase 1"
            # Play on (by keys) until phase 2 offers a card that may not be laid.
            rng = random.Random(5)
            while True:
                assert not isinstance(app.screen, EndScreen), "no illegal card came up in phase 2"
                obs = app.session.observation()
                illegal = [c for c in app.hand.cards if c not in app.hand.legal]
                if obs.phase == PHASE2 and obs.table2 and illegal:
                    break
                await lay_by_keys(pilot, app, rng.choice(obs.legal))
            before = app.session.record_text()
            step = app.hand.cards.index(illegal[0]) - app.hand.cursor
            await pilot.press(*(["right"] * step if step > 0 else ["left"] * -step), "enter")
            message = text_of(app.query_one("#message", Static))
            assert app.session.record_text() == before
            assert message.startswith(("det må være høyere enn", "du må følge farge", "du har ikke noe som kan stikke"))
            # ... and the game goes on: a legal move is accepted and clears the message.
            await lay_by_keys(pilot, app, app.session.observation().legal[0])
            assert app.session.record_text() != before
            assert text_of(app.query_one("#message", Static)) == ""

    asyncio.run(scenario())


@pytest.mark.parametrize("chance", ["off", "lead"])
def test_the_key_line_offers_sjanse_only_where_it_may_be_taken(tmp_path: Path, chance: str) -> None:
    """Under ``chance=off`` phase 1's key line and buttons offer no sjanse (they did: "c sjanse")."""
    app = make_app(tmp_path, rules="mattis", seed=2, lang="nb", chance=chance)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            obs = app.session.observation()
            assert obs.phase != PHASE2 and obs.hand
            keys = text_of(app.query_one("#keys", Static))
            assert ("c sjanse" in keys) == (chance != "off"), keys
            assert app.query_one("#b-chance").display == (chance != "off")

    asyncio.run(scenario())


def test_keys_during_a_bots_turn_wait(tmp_path: Path) -> None:
    # Seat 1 (a bot) leads the first trick; with a long delay the bot has not moved yet.
    app = make_app(tmp_path, seed=8, lang="en", delay=600)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            assert text_of(app.query_one("#message", Static)) == "Wait, it is Bjørn's turn."
            assert app.session.observation().history == ()
            await pilot.press("q")
        assert app.return_value == tmp_path / "game.json"

    asyncio.run(scenario())


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
@pytest.mark.parametrize("key", ["q", "ctrl+c"])
def test_quit_saves_a_record_that_resume_continues(tmp_path: Path, key: str) -> None:
    app = make_app(tmp_path, seed=4, lang="en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(2)
            for _ in range(4):
                await lay_by_keys(pilot, app, rng.choice(app.session.observation().legal))
            await pilot.press(key)

    asyncio.run(scenario())
    saved = GameRecord.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved.moves == Referee.from_record(saved).record().moves
    assert len(saved.moves) >= 4 and not Referee.from_record(saved).is_over
    # Resume in a new app: the same position, and play goes on to the end.
    session = Session(rules=saved.rules, players=saved.players, levels=["medium"] * 3, lang="en",
                      save_path=tmp_path / "game.json")
    session.resume(saved)
    assert session.observation() == Referee.from_record(saved).observation(0)
    resumed = MattisApp(session, delay=0)

    async def finish() -> None:
        async with resumed.run_test(size=SIZE) as pilot:
            await play_to_end(pilot, resumed, random.Random(9))

    asyncio.run(finish())
    final = load_record(str(tmp_path / "game.json"))
    assert final.moves[: len(saved.moves)] == saved.moves
    assert Referee.from_record(final).is_over


def test_rules_last_trick_and_hint_screens(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=6, lang="nb")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            assert isinstance(app.screen, InfoScreen)
            text = text_of(app.screen.query_one("#info-text", Static))
            assert "Regler i bruk: mattis" in text and "Sjanse: når du spiller ut" in text
            await pilot.press("down", "pagedown")
            assert isinstance(app.screen, InfoScreen)  # arrows scroll, they do not close
            await pilot.press("x")
            assert not isinstance(app.screen, InfoScreen)
            await pilot.press("l")
            assert isinstance(app.screen, HistoryScreen)
            text = text_of(app.screen.query_one("#history-trick-text", Static))
            # the history opens on the last trick: who took it, in words
            last = app.session.observation().last_trick
            assert last is not None
            assert f"{app.session.names[last[0]]} tok stikket" in text
            await pilot.press("escape")
            assert not isinstance(app.screen, HistoryScreen)
            before = app.session.record_text()
            await pilot.press("h")
            hint = text_of(app.query_one("#message", Static))
            assert hint.startswith("Hint: ") and hint.count(".") >= 2  # the move, then why
            assert app.session.record_text() == before  # a hint makes no move

    asyncio.run(scenario())


def screen_text(app: MattisApp) -> list[str]:
    names = ("top", "players", "table", "log-text", "turn", "keys")
    parts = [text_of(app.query_one(f"#{name}", Static)) for name in names]
    return [*parts, str(app.hand.render()), str(app.hand.cards), str(sorted(app.hand.legal))]


def test_screen_shows_nothing_hidden_from_the_human(tmp_path: Path) -> None:
    """Information boundary: deal the cards hidden from seat 0 afresh (same observation for
    seat 0) and the screen and the hint stay exactly the same."""
    from mattis.core.determinize import sample_state

    app = make_app(tmp_path, rules="mattis", seed=31, lang="en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            rng = random.Random(3)
            checked = 0
            for turn in range(60):
                if isinstance(app.screen, EndScreen):
                    break
                if turn % 6 == 0:
                    session = app.session
                    real = session.referee
                    before, hint = screen_text(app), session.hint()
                    other = Referee(sample_state(real.observation(0), random.Random(turn)))
                    truth, dreamt = real.snapshot_for_referee(), other.snapshot_for_referee()
                    # seat 0's own hand is the same in both, so any difference is in hidden cards
                    differs = dreamt["hands"] != truth["hands"] or dreamt["stock"] != truth["stock"]
                    session.referee = other
                    app.refresh_view()
                    assert screen_text(app) == before
                    assert session.hint() == hint
                    session.referee = real
                    app.refresh_view()
                    checked += differs
                await lay_by_keys(pilot, app, rng.choice(app.session.observation().legal))
            assert checked >= 3  # positions where the hidden cards really were dealt differently

    asyncio.run(scenario())


def test_mouse_click_lays_a_card(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=2, lang="en")

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            hand = app.hand
            target = 2 if len(hand.cards) > 2 else 0
            card = hand.cards[target]
            before = len(app.session.observation().history)
            # the hand view has one column of padding; each card is 6 columns wide
            assert await pilot.click("#hand", offset=(1 + 6 * target + 2, 0))
            history = app.session.observation().history
            assert len(history) > before and history[before][1].cards == (card,)
            # the Sjanse button does what the c key does
            while app.session.observation().legal and CHANCE not in app.session.observation().legal:
                await lay_by_keys(pilot, app, app.session.observation().legal[0])
            n = len(app.session.observation().history)
            assert await pilot.click("#b-chance")
            assert app.session.observation().history[n][1] == CHANCE

    asyncio.run(scenario())
