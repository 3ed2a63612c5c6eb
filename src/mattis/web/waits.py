"""The clock the web server's bots, timers and heartbeats wait on (tests put in their own)."""

from __future__ import annotations

import asyncio
import time


class Waits:
    """How the bots and timers wait and tell the time: asyncio's clock.  Tests put in one that
    records each wait (``what``: ``bot``, ``grace``, ``clock``, ``host``, ``heartbeat``,
    ``restart``) and returns at once, or one whose time moves only when the test says, so the
    scheduler's chosen delays are checked, not measured."""

    async def sleep(self, seconds: float, what: str) -> None:
        await asyncio.sleep(seconds)

    def now(self) -> float:
        """The time the turn clocks' deadlines are on (seconds; only differences matter)."""
        return time.monotonic()

