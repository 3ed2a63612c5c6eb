"""Key storms: seeded random keys (every bound key, letters, digits, Enter, Escape,
arrows, Tab, and auto-repeat bursts of one key sent faster than the app handles them)
on the table and in every window (rules, how to play, statistics, history, settings,
the end screen, the analysis).  The app must never raise, and the game may change
only by legal moves from the deal it started with.

A burst is queued at once, so the app meets the keys after the first while that one
is still being handled (a window closing); the tests then wait until the app has
handled them all (``settle`` in tests/conftest.py), so what they assert does not depend on how
fast the machine is.

Every window is stormed at its own size, drawn from the seed (80x24 up to 160x50: the
terminal is resized before each storm).  Fast tier: a few hundred keys; slow tier
(``--slow``): more than 1,400 over its two games, while two busy processes (at nice 10, started by the
test and stopped in its teardown, :func:`cpu_load`) load both cores, so that every CI
run storms the windows on a loaded machine.  Nothing asserted depends on how fast the
keys arrive or are handled."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from mattis.core import GameRecord, parse_record_move, preset
from mattis.play import Referee
from mattis.tui.analysis import AnalysisScreen
from mattis.tui.app import MattisApp
from mattis.tui.screens import EndScreen, HistoryScreen, InfoScreen, SettingsScreen
from mattis.tui.session import HUMAN, Session
from mattis.tui.settings import Settings
from tiers import HUNG, is_slow, scale, wait_until

KEYS = [
    "left", "right", "up", "down", "home", "end", "pageup", "pagedown", "enter", "space", "escape", "tab",
    "shift+tab", "backspace", "question_mark", "f1", "delete", "comma", "full_stop", "minus",
    *"abcdefghijklmnoprstuvwxyz0123456789",  # every letter but q (which saves and quits)
]
BURSTY = ["enter", "escape", "space", "right", "left", "down", "r", "l", "h", "u", "n", "c", "p", "i", "s", "a",
          "question_mark"]
OPENERS = {"": ("table", "Screen"), "r": ("rules", "InfoScreen"), "l": ("history", "HistoryScreen"),
           "question_mark": ("how to play", "InfoScreen"), "i": ("statistics", "InfoScreen"),
           "s": ("settings", "SettingsScreen"), "h": ("hint", "Screen"), "u": ("take-back", "Screen")}
"""Keys that open each window on the table (rules, history, how to play, statistics,
settings; h and u act on the table), with the window's name and class."""

EVERY_WINDOW = {"table", "hint", "take-back", "rules", "history", "how to play", "statistics", "settings",
                "end screen", "analysis"}

LOAD_NICE = 10
"""The niceness of the busy processes of :func:`cpu_load`."""


BUSY = "import os\nwhile os.getppid() == {parent}:\n    pass\n"
"""A busy loop that lasts while its parent lives."""


def busy_command(parent: int) -> list[str]:
    """A process that keeps a core busy while ``parent`` lives (it stops by itself once
    its parent is gone, even one killed with no time to clean up)."""
    return [sys.executable, "-c", BUSY.format(parent=parent)]


@contextmanager
def cpu_load(processes: int = 2) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``processes`` busy Python processes at nice :data:`LOAD_NICE` (one per core of a
    two-core CI machine) while the block runs; stopped (terminated, then killed) and
    reaped on the way out, whatever happened, so none outlives the test (and should
    the test's process be killed outright, they stop by themselves: :func:`busy_command`)."""
    busy: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(processes):
            busy.append(subprocess.Popen(busy_command(os.getpid()), stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         preexec_fn=lambda: os.nice(LOAD_NICE)))
        yield busy
    finally:
        for proc in busy:
            proc.terminate()
        for proc in busy:
            try:
                proc.wait(timeout=HUNG)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import textual._wait

    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.004, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def assert_legal_line(record: GameRecord, start: GameRecord) -> None:
    """The record is the deal it started from (a take-back deals only the cards the
    player has not seen afresh: her first hand stays), then only legal moves."""
    assert (record.dealer, record.players, record.rules) == (start.dealer, start.players, start.rules)
    assert Referee(record.start()).observation(0).hand == Referee(start.start()).observation(0).hand
    referee = Referee(record.start())
    for seat, move in map(parse_record_move, record.moves):
        assert referee.check(seat, move) is None, (seat, move)
        referee.apply(seat, move)


async def burst(pilot: Pilot[Path | None], key: str, times: int) -> None:
    """``times`` presses of ``key`` queued at once, as key auto-repeat does."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    char = {"enter": "\r", "space": " ", "escape": "\x1b", "question_mark": "?"}.get(key, key if len(key) == 1
                                                                                   else None)
    for _ in range(times):
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()


async def storm(pilot: Pilot[Path | None], rng: random.Random, keys: int) -> int:
    """Send about ``keys`` keys: single presses and bursts of one key."""
    sent = 0
    while sent < keys:
        if rng.random() < 0.25:
            n = rng.randint(2, 12)
            await burst(pilot, rng.choice(BURSTY), n)
            sent += n
        else:
            await pilot.press(rng.choice(KEYS))
            sent += 1
    return sent


def run_storm(tmp_path: Path, rules: str, seed: int, lang: str, keys_per_window: int) -> tuple[int, list[str]]:
    """Storm the table and each window in turn, then the end screen and the analysis,
    each at a size drawn from the seed; return the keys sent and the windows stormed
    (named as in :data:`EVERY_WINDOW`)."""
    session = Session(rules=preset(rules), players=3, levels=["easy"] * 3, lang=lang,  # type: ignore[arg-type]
                      seed=seed, save_path=tmp_path / "game.json", stats_path=tmp_path / "stats.json")
    session.start()
    app = MattisApp(session, delay=0, settings_file=tmp_path / "settings.json")
    starts: list[GameRecord] = [session.referee.record()]
    finished: list[GameRecord] = []
    real_next = session.next_game

    def next_game() -> None:
        finished.append(session.referee.record())
        real_next()
        starts.append(session.referee.record())

    session.next_game = next_game  # type: ignore[method-assign]
    real_apply = app.apply_settings

    def apply_settings(saved: Settings, before: Settings) -> str:
        """The settings window applies what the storm saved there, but the bots stay
        instant: a pace would have them move on a timer, and what the storm meets would
        then depend on how fast the machine is."""
        line = real_apply(saved, before)
        app.delay = 0
        return line

    app.apply_settings = apply_settings  # type: ignore[method-assign]
    rng = random.Random(seed)
    sent = 0
    stormed: list[str] = []

    async def storm_here(pilot: Pilot[Path | None], window: str) -> None:
        nonlocal sent
        stormed.append(window)
        sent += await storm(pilot, rng, keys_per_window)

    async def resize(pilot: Pilot[Path | None]) -> None:
        await pilot.resize_terminal(rng.randint(80, 160), rng.randint(24, 50))
        await pilot.pause()

    async def to_table(pilot: Pilot[Path | None]) -> None:
        while len(app.screen_stack) > 1 and not isinstance(app.screen, EndScreen):
            await pilot.press("escape")

    async def to_end_screen(pilot: Pilot[Path | None]) -> None:
        """Back to the table, then play the game out to its end screen (if not there)."""
        await to_table(pilot)
        while len(app.screen_stack) == 1 and not session.over:
            obs = session.observation()
            assert obs.legal
            app.submit(rng.choice(obs.legal))
            await pilot.pause()
        assert isinstance(app.screen, EndScreen)

    async def scenario() -> None:
        async with app.run_test(size=rng.choice([(80, 24), (100, 30), (120, 40)])) as pilot:
            for opener, (window, kind) in [*OPENERS.items()] * 2:
                await to_table(pilot)
                if isinstance(app.screen, EndScreen):  # a storm finished the game: the next one
                    await pilot.press("n")
                await resize(pilot)
                if opener:
                    await pilot.press(opener)
                assert type(app.screen).__name__ == kind, (opener, app.screen)
                await storm_here(pilot, window)
            # the end of a game: play it out and storm the end screen (which may deal the
            # next game); then play out again and storm the analysis
            await to_end_screen(pilot)
            await resize(pilot)
            await storm_here(pilot, "end screen")
            await to_end_screen(pilot)
            await pilot.press("a")
            assert isinstance(app.screen, AnalysisScreen)
            await resize(pilot)
            await storm_here(pilot, "analysis")
            await to_table(pilot)
            assert app.is_running
    asyncio.run(scenario())
    assert app.return_value is None  # never quit (q is not in the storm)
    for record, start in zip([*finished, session.referee.record()], starts, strict=True):
        assert_legal_line(record, start)
    return sent, stormed


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
@pytest.mark.parametrize(("rules", "seed", "lang"), [("mattis", 1, "nb"), ("skitgubbe", 2, "en")])
def test_key_storms_never_raise_and_only_legal_moves_change_the_game(tmp_path: Path, rules: str, seed: int,
                                                                     lang: str) -> None:
    """In the slow tier under CPU load (:func:`cpu_load`): CI storms every window on a
    busy machine in every run."""
    with cpu_load(2 if is_slow() else 0) as busy:
        sent, stormed = run_storm(tmp_path, rules, seed, lang, keys_per_window=scale(20, 50))
        assert all(proc.poll() is None for proc in busy)  # the load lasted the whole storm
    assert sent >= scale(250, 700)
    assert set(stormed) == EVERY_WINDOW


def test_the_cpu_load_runs_at_nice_10_and_leaves_no_process_behind() -> None:
    with cpu_load() as busy:
        assert len(busy) == 2
        for proc in busy:
            assert proc.poll() is None
            assert os.getpriority(os.PRIO_PROCESS, proc.pid) >= LOAD_NICE
        pids = [proc.pid for proc in busy]
    for proc, pid in zip(busy, pids, strict=True):
        assert proc.returncode is not None  # reaped: no zombie, no orphan
        assert not Path(f"/proc/{pid}").exists() or _not_ours(pid)


def test_the_cpu_load_stops_when_its_test_is_killed_outright() -> None:
    """A test process killed with SIGKILL runs no teardown: its busy processes notice
    that their parent is gone and stop."""
    script = (f"import os, subprocess, sys, time\n"
              f"child = subprocess.Popen([sys.executable, '-c', {BUSY!r}.format(parent=os.getpid())])\n"
              f"print(child.pid, flush=True)\n"
              f"time.sleep({HUNG})\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert running(child)
    parent.kill()
    parent.wait()
    wait_until(lambda: not running(child), "the busy process stopping after its parent was killed")


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _not_ours(pid: int) -> bool:
    """A pid reused by another process after ours was reaped (not a child of this test)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return int(stat.rsplit(")", 1)[1].split()[1]) != os.getpid()


def test_enter_enter_on_a_window_closes_it_once(tmp_path: Path) -> None:
    """The reported crash: with the rules or history window open, two keys in quick
    succession popped the table itself (``ScreenStackError``)."""
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=5,
                      save_path=tmp_path / "game.json")
    session.start()
    app = MattisApp(session, delay=0, settings_file=tmp_path / "settings.json")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for opener, window in (("r", InfoScreen), ("l", HistoryScreen), ("question_mark", InfoScreen),
                                   ("i", InfoScreen), ("s", SettingsScreen)):
                before = session.record_text()
                await pilot.press(opener)
                assert isinstance(app.screen, window)
                await burst(pilot, "escape", 2)
                assert len(app.screen_stack) == 1
                assert session.record_text() == before  # the second Escape went to the table: nothing laid
                await pilot.press(opener)
                await burst(pilot, "enter", 2)
                # the first Enter closed the window; the second reached the table and laid a card at most
                assert len(app.screen_stack) == 1

    asyncio.run(scenario())
    assert app.return_value is None


def human_moves(session: Session) -> list[str]:
    return [m for m in session.referee.record().moves if parse_record_move(m)[0] == HUMAN]


async def play_to_the_end(pilot: Pilot[Path | None], session: Session, rng: random.Random) -> None:
    app = pilot.app
    assert isinstance(app, MattisApp)
    while not isinstance(app.screen, EndScreen):
        app.submit(rng.choice(session.observation().legal))
        await pilot.pause()


@pytest.mark.parametrize("key", EndScreen.AGAIN)
def test_play_again_pressed_three_times_deals_one_new_game(tmp_path: Path, key: str) -> None:
    """The keys after the first arrive while the end screen closes: they are ignored,
    never passed on to the table (Enter laid a card in the new game) nor popping it."""
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="en", seed=7,
                      save_path=tmp_path / "game.json")
    session.start()
    app = MattisApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_the_end(pilot, session, random.Random(1))
            games = session.games
            await burst(pilot, key, 3)
            assert session.games == games + 1
            assert len(app.screen_stack) == 1
            # no key reached the new game's table (Enter laid a card there, or said why not)
            assert human_moves(session) == []
            assert app.message == ""

    asyncio.run(scenario())
    assert app.return_value is None


def test_analyse_twice_opens_one_analysis_and_escape_twice_returns_to_the_end_screen(tmp_path: Path) -> None:
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=7,
                      save_path=tmp_path / "game.json")
    session.start()
    app = MattisApp(session, delay=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_the_end(pilot, session, random.Random(2))
            games = session.games
            await burst(pilot, "a", 2)
            assert [type(s) for s in app.screen_stack[1:]] == [AnalysisScreen]
            await burst(pilot, "escape", 2)
            assert [type(s) for s in app.screen_stack[1:]] == [EndScreen]
            assert session.games == games

    asyncio.run(scenario())
    assert app.return_value is None


async def queue(pilot: Pilot[Path | None], keys: list[str]) -> None:
    """``keys`` queued at once (typed faster than the app handles them), then handled."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, {"enter": "\r", "escape": "\x1b", "question_mark": "?"}.get(key, key))
        event.set_sender(app)
        driver.send_message(event)
    await pilot.pause()


def test_keys_typed_while_a_window_opens_are_ignored(tmp_path: Path) -> None:
    """A key typed before a window was on top was meant for what was on screen then:
    the opener and Escape queued together leave the window open (Escape then closes
    it); on the end screen "a" and Escape leave the analysis open; after the analysis
    closes, an "n" typed with its Escape does not deal the next game."""
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="en", seed=7,
                      save_path=tmp_path / "game.json", stats_path=tmp_path / "stats.json")
    session.start()
    app = MattisApp(session, delay=0, settings_file=tmp_path / "settings.json")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for opener, (window, kind) in OPENERS.items():
                if kind == "Screen":
                    continue
                before = session.record_text()
                await queue(pilot, [opener, "escape"])
                assert type(app.screen).__name__ == kind, window  # still open
                await pilot.press("escape")
                assert len(app.screen_stack) == 1, window
                assert session.record_text() == before
            await play_to_the_end(pilot, session, random.Random(3))
            games = session.games
            await queue(pilot, ["a", "escape"])
            assert [type(s) for s in app.screen_stack[1:]] == [AnalysisScreen]
            await queue(pilot, ["escape", "n"])
            assert [type(s) for s in app.screen_stack[1:]] == [EndScreen]
            assert session.games == games
            await pilot.press("n")
            assert session.games == games + 1 and len(app.screen_stack) == 1

    asyncio.run(scenario())
    assert app.return_value is None
