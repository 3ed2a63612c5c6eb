"""The end screen's "Analyse": the review runs in the background and can be cancelled."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from screen_text import widget_text
from textual.pilot import Pilot
from textual.widgets import Button

from mattis.bots.evaluate import Budget
from mattis.core import GameRecord, preset
from mattis.lab.review import review
from mattis.play import Referee, make_bot
from mattis.tui import analysis
from mattis.tui.analysis import AnalysisScreen
from mattis.tui.app import EndScreen, MattisApp
from mattis.tui.i18n import Lang
from mattis.tui.session import Session
from tiers import HUNG

SIZE = (110, 44)


def finished_session(tmp_path: Path, seed: int = 4) -> Session:
    ref = Referee.new(preset("mattis"), 3, seed=seed)
    bots = {s: make_bot("heuristic", s) for s in range(3)}
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
    session = Session(rules=preset("mattis"), players=3, levels=["medium"] * 3, lang="en", seed=seed,
                      save_path=tmp_path / "game.json")
    session.resume(GameRecord.loads(ref.record().dumps()))
    return session


async def until(cond: Callable[[], bool], pilot: Pilot[Any]) -> None:
    """Wait until ``cond()`` holds (the review runs in a thread); fail only a hung app."""
    for _ in range(int(HUNG / 0.05)):
        if cond():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"still not so after {HUNG:.0f} s: hung")


def test_analyse_from_the_end_screen_shows_the_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "BUDGET", Budget(samples=2))
    app = MattisApp(finished_session(tmp_path), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, EndScreen), pilot)
            assert app.screen.query_one("#analyse", Button)
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await until(lambda: screen.result is not None, pilot)
            assert screen.result is not None
            # for players first: the chart, the costliest choices in words; then the detail
            assert screen.result.startswith("The chance to avoid being Mattis: You")
            assert "Every choice, one by one:" in screen.result
            assert "Review of the game for you" in screen.result.split("Every choice, one by one:")[1]
            assert "Forced moves" in screen.result
            await pilot.press("escape")
            await until(lambda: isinstance(app.screen, EndScreen), pilot)  # back to the end screen

    asyncio.run(scenario())


def test_analyse_can_be_cancelled_and_the_table_keeps_answering(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the review starts only once the window is closed, so it is cancelled at its first
    # decision however fast it would have been
    gate = threading.Event()

    def gated_review(*args: Any, **kwargs: Any) -> Any:
        assert gate.wait(HUNG)
        return review(*args, **kwargs)

    monkeypatch.setattr(analysis, "review", gated_review)
    app = MattisApp(finished_session(tmp_path, seed=6), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, EndScreen), pilot)
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await pilot.press("escape")
            await until(lambda: isinstance(app.screen, EndScreen), pilot)
            assert screen.stop.is_set()
            gate.set()
            await app.workers.wait_for_complete()
            assert screen.result is None  # cancelled before it was done: nothing shown
            await pilot.press("a")
            assert isinstance(app.screen, AnalysisScreen)
            await pilot.press("escape")

    asyncio.run(scenario())


def small_budget() -> Budget:
    return Budget(samples=2, solver_nodes=200)


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_look_deeper_at_the_chosen_decision_shows_its_new_figures_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang) -> None:
    """← → choose a decision, d looks deeper at it in the background: the decision
    becomes what the review of that one decision at the deeper budget says, in the chosen
    decision's lines and in the review's text, and the window says it looked deeper."""
    from mattis.lab.review import decision_lines, deeper
    from mattis.tui.i18n import t

    monkeypatch.setattr(analysis, "BUDGET", small_budget())
    session = finished_session(tmp_path)
    session.lang = lang
    app = MattisApp(session, delay=0)
    record = session.referee.record()

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: isinstance(app.screen, EndScreen), pilot)
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await until(lambda: screen.review is not None, pilot)
            rv = screen.review
            assert rv is not None and len(rv.decisions) >= 2
            start = screen.selected
            await pilot.press("right" if start == 0 else "left")
            assert screen.selected == (1 if start == 0 else start - 1)
            chosen = screen.chosen
            assert chosen is not None
            shown = str(screen.query_one("#analysis-selected").render())
            assert shown.startswith("▶ " + str(chosen.number) + ". ")
            await pilot.press("d")
            await until(lambda: chosen.number in screen.deepened, pilot)
            await pilot.pause()
            want = review(record, 0, deeper(small_budget()), seed=0, names=list(session.names), lang=lang,
                          decision=chosen.number).decisions[0]
            after = screen.review
            assert after is not None and after.decisions[screen.selected] == want
            assert want.samples == small_budget().samples * 16  # the deeper budget's playouts
            assert screen.result is not None and decision_lines(want, after, lang)[0] in screen.result
            # on screen, whole, at 80x24: the chosen decision's new lines, the note, the keys
            shown = " ".join(widget_text(screen.query_one("#analysis-selected")).split())
            for line in screen.selected_lines():
                assert " ".join(line.split()) in shown, (line, shown)
            assert " ".join(decision_lines(want, after, lang)[0].split()) in " ".join(
                " ".join(screen.selected_lines()).split())
            done = t(lang, "analyse.deeper_done", samples=want.samples, before="").split("(")[0]
            assert " ".join(done.split()) in shown
            keys = " ".join(widget_text(screen.query_one("#analysis-hint")).split())
            assert " ".join(t(lang, "analyse.keys").split()) in keys
            await pilot.press("escape")

    asyncio.run(scenario())


def test_a_look_deeper_that_fails_is_logged_and_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(analysis, "BUDGET", small_budget())

    def failing(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("decision") is not None:
            raise RuntimeError("the solver broke")
        return review(*args, **kwargs)

    monkeypatch.setattr(analysis, "review", failing)
    app = MattisApp(finished_session(tmp_path), delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: isinstance(app.screen, EndScreen), pilot)
            await pilot.press("a")
            screen = app.screen
            assert isinstance(screen, AnalysisScreen)
            await until(lambda: screen.review is not None, pilot)
            before = screen.review
            await pilot.press("d")
            await until(lambda: screen.deeper_running is None and "Could not" in screen.note, pilot)
            assert "RuntimeError: the solver broke" in screen.note
            assert screen.review == before  # nothing replaced
            await pilot.pause()
            shown = " ".join(widget_text(screen.query_one("#analysis-selected")).split())
            assert " ".join(screen.note.split()) in shown  # on screen, whole, at 80x24
            await pilot.press("escape")

    asyncio.run(scenario())
    assert any("looking deeper at move" in r.getMessage() for r in caplog.records)
