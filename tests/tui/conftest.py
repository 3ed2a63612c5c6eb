"""Textual's Pilot, made to wait on a condition rather than on time.

``pilot.press`` and ``pilot.pause`` wait for the messages queued when they are
called, then for the process to look idle (its CPU time not advancing).  A key
travels further than that: the app forwards it to the screen, the screen passes it
back up to the app's bindings, an action schedules callbacks, a closing window pops
in a task.  On a busy machine (the process not scheduled, so it "looks idle") the
wait could end halfway, and a test asserted on a state still changing.  Here every
wait goes on until no part of the app has a message queued, twice in a row, so a
test sees the app after it has handled everything sent to it, however slow the
machine.  The only bound is one that fails a hung app.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from textual.pilot import Pilot

from tiers import HUNG

_wait_for_queued = Pilot._wait_for_screen


def pending(pilot: Pilot[Any]) -> int:
    """Messages queued anywhere in the app: the app, every screen (closing ones too), every widget."""
    app = pilot.app
    return app.message_queue_size + sum(node.message_queue_size for node in list(app._registry))


async def settle(pilot: Pilot[Any], timeout: float = HUNG) -> bool:
    """Wait until the app and all its parts have handled every message, twice in a row
    (fails only an app that never settles: tiers.HUNG)."""
    end = time.monotonic() + HUNG
    quiet = 0
    while quiet < 2:
        if not pilot.app.screen_stack:  # the app has closed: nothing left to wait for
            return False
        if time.monotonic() > end:
            raise AssertionError(f"the app never settled: messages still queued after {HUNG:.0f} s")
        await _wait_for_queued(pilot, timeout=HUNG)
        quiet = quiet + 1 if pending(pilot) == 0 else 0
    return True


@pytest.fixture(autouse=True)
def settled_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``pilot.press``/``pilot.pause`` in these tests waits for :func:`settle`."""
    monkeypatch.setattr(Pilot, "_wait_for_screen", settle)
