"""The test tiers.

``python -m pytest`` runs the fast tier: every behaviour, with small property
runs (a few minutes on two cores).  ``python -m pytest --slow`` (what CI runs)
adds the slow tier: the 5,600-game property runs, the statistical bot ladders and
the whole-game terminal and browser tests that take over 10 s each on a busy machine
(tests marked ``slow``), and scales the property runs up
(:mod:`tiers`).

Every test runs under a hang guard (:data:`tiers.HUNG` seconds, 15 minutes unless
``MATTIS_TEST_HANG`` says otherwise): a test still running then fails with the stacks
of all its threads, and a worker that cannot be interrupted (stuck in C code) exits two
minutes later, which pytest-xdist reports as a crashed test.  So a hung test fails
instead of holding the run forever; no test asserts anything about time.

The TUI tests (tests/tui) drive the app through Textual's Pilot, whose ``press`` and
``pause`` wait for the messages queued when they are called, then for the process to
look idle (its CPU time not advancing).  A key travels further than that: the app
forwards it to the screen, the screen passes it back up to the app's bindings, an
action schedules callbacks, a closing window pops in a task; and a busy machine (the
process not scheduled, so it "looks idle") could end the wait halfway, so a test
asserted on a state still changing.  There every wait goes on until no part of the app
has a message queued, twice in a row (:func:`settle`): a test sees the app after it has
handled everything sent to it, however slow the machine.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Generator
from types import FrameType
from typing import Any

import pytest

from tiers import HUNG

HARD_EXIT_AFTER = 120.0
"""Seconds past :data:`tiers.HUNG` after which a test that the signal could not stop
ends its process (``faulthandler``: the stacks, then exit)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the slow tier (what CI runs)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: the slow tier (large property runs, statistical bot ladders)")
    if config.getoption("--slow"):
        os.environ["MATTIS_SLOW"] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or os.environ.get("MATTIS_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow tier: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """The hang guard around a test's setup, call and teardown (see the module's docstring)."""
    can_signal = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    old: object = None
    if can_signal:
        def hung(signum: int, frame: FrameType | None) -> None:
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
            pytest.fail(f"{item.nodeid} still running after {HUNG:.0f} s: hung (stacks on stderr)", pytrace=True)

        old = signal.signal(signal.SIGALRM, hung)
        signal.setitimer(signal.ITIMER_REAL, HUNG)
    faulthandler.dump_traceback_later(HUNG + HARD_EXIT_AFTER, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        if can_signal:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)  # type: ignore[arg-type]


async def settle(pilot: Any, wait_for_queued: Callable[..., Awaitable[bool]]) -> bool:
    """Wait until the app and all its parts (the app, every screen, closing ones too, every
    widget) have no message queued, twice in a row; fails only an app that never settles
    (:data:`tiers.HUNG`).  ``wait_for_queued`` is Textual's own ``Pilot._wait_for_screen``
    (which waits for what is queued when it is called)."""
    app = pilot.app
    end = time.monotonic() + HUNG
    quiet = 0
    while quiet < 2:
        if not app.screen_stack:  # the app has closed: nothing left to wait for
            return False
        if time.monotonic() > end:
            raise AssertionError(f"the app never settled: messages still queued after {HUNG:.0f} s")
        await wait_for_queued(pilot, timeout=HUNG)
        pending = app.message_queue_size + sum(node.message_queue_size for node in list(app._registry))
        quiet = quiet + 1 if pending == 0 else 0
    return True


@pytest.fixture(autouse=True)
def settled_pilot(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the TUI tests every ``pilot.press``/``pilot.pause`` waits for :func:`settle`."""
    if request.path.parent.name != "tui":
        return
    from textual.pilot import Pilot

    textual_wait = Pilot._wait_for_screen

    async def wait(pilot: Any, timeout: float = HUNG) -> bool:
        return await settle(pilot, textual_wait)

    monkeypatch.setattr(Pilot, "_wait_for_screen", wait)
