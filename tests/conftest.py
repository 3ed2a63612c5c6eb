"""The test tiers.

``python -m pytest`` runs the fast tier: every behaviour, with small property
runs (a few minutes on two cores).  ``python -m pytest --slow`` (what CI runs)
adds the slow tier: the 6,000-game property runs and the statistical bot
ladders (tests marked ``slow``), and scales the property runs up
(:mod:`tiers`).

Every test runs under a hang guard (:data:`tiers.HUNG` seconds, 15 minutes unless
``MATTIS_TEST_HANG`` says otherwise): a test still running then fails with the stacks
of all its threads, and a worker that cannot be interrupted (stuck in C code) exits two
minutes later, which pytest-xdist reports as a crashed test.  So a hung test fails
instead of holding the run forever; no test asserts anything about time.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
from collections.abc import Generator
from types import FrameType

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
