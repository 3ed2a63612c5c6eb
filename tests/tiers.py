"""Sizes that depend on the test tier (see conftest.py): ``scale(fast, slow)``; and
:data:`HUNG`, the one bound on how long a test waits for anything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

def is_slow() -> bool:
    """Whether this run includes the slow tier (``pytest --slow``, which conftest.py's
    ``pytest_configure`` marks in the environment; read at each call, since this module is
    imported by conftest.py before that hook runs)."""
    return os.environ.get("MATTIS_SLOW") == "1"


def scale(fast: int, slow: int) -> int:
    """``slow`` in the slow tier, else ``fast``."""
    return slow if is_slow() else fast


HUNG = float(os.environ.get("MATTIS_TEST_HANG", "900"))
"""Seconds after which a test, or anything a test waits for (a subprocess, a socket, a
server starting), counts as hung and fails.  Never a measure of speed: a test waits on a
condition or an event, and this bound only ends a wait that would otherwise never end, so
a busy machine slows the tests down but never fails them (conftest.py applies it to every
test: ``MATTIS_TEST_HANG`` changes it)."""


def wait_until(cond: Callable[[], T | None], what: str, poll: float = 0.02) -> T:
    """Poll ``cond()`` until it returns something true, and return that; fail only after
    :data:`HUNG` seconds (``what`` names the awaited thing in the failure)."""
    end = time.monotonic() + HUNG
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"{what}: still not so after {HUNG:.0f} s (hung)")
        time.sleep(poll)


def run_on_core(script: Path, arg: int, pure: bool) -> dict[str, str]:
    """Run a test script (``python script arg``) on the pure-Python core (``MATTIS_PURE=1``)
    or the compiled one, and return the JSON object it prints."""
    env = {**os.environ, "MATTIS_PURE": "1" if pure else "0"}
    done = subprocess.run([sys.executable, str(script), str(arg)], env=env, capture_output=True, text=True,
                          check=True, timeout=HUNG)
    result: dict[str, str] = json.loads(done.stdout)
    return result
