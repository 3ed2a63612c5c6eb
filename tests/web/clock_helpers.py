"""A clock for the web hub whose time moves only when the test says (:class:`ManualClock`), and
the in-process table helpers the clock tests share."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

from fastapi import WebSocket

from mattis.web.conn import Conn
from mattis.web.hub import Hub
from mattis.web.table import Table
from mattis.web.waits import Waits
from tiers import HUNG


class ManualClock(Waits):
    """The hub's clock for tests: the time is :attr:`t` and moves only by :meth:`advance`; a timer
    (``clock``, ``grace``, ``host``, ``heartbeat``) wakes once the time has passed its end.  The
    bots' and restarts' pauses return at once; the kinds in ``real`` are slept in real time (a
    browser's heartbeat comes in real time)."""

    def __init__(self, real: frozenset[str] = frozenset()) -> None:
        self.t = 0.0
        self.real = real
        self.sleepers: list[tuple[float, str, asyncio.Future[None]]] = []
        self.waits: list[tuple[str, float]] = []

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float, what: str) -> None:
        self.waits.append((what, seconds))
        if what in ("bot", "restart") or seconds <= 0:  # (a deadline already past: at once, as asyncio does)
            await asyncio.sleep(0)
            return
        if what in self.real:
            await asyncio.sleep(seconds)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sleepers.append((self.t + seconds, what, fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move the time on; every timer whose end has come wakes."""
        self.t += seconds
        due = [f for end, _what, f in self.sleepers if end <= self.t]
        self.sleepers = [s for s in self.sleepers if s[0] > self.t]
        for f in due:
            if not f.done():
                f.set_result(None)

    def waiting(self, what: str) -> int:
        """Timers of this kind asleep now."""
        return sum(1 for _end, w, f in self.sleepers if w == what and not f.done())


async def until(cond: Any, what: str) -> None:
    """Let the hub's tasks run until ``cond()`` holds (fails only when hung: tiers.HUNG)."""
    end = time.monotonic() + HUNG
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"{what}: still not so (hung)")
        await asyncio.sleep(0.001)


def conn(seat: int | None, lang: str = "en") -> Conn:
    return Conn(cast(WebSocket, None), seat, "nb" if lang == "nb" else "en")


def frames(c: Conn) -> list[dict[str, Any]]:
    """Every frame sent to the connection since the last call (read off its queue)."""
    out: list[dict[str, Any]] = []
    while not c.queue.empty():
        text = c.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def last_state(c: Conn) -> dict[str, Any]:
    states = [f for f in frames(c) if f.get("type") == "state"]
    assert states, "no frame was sent"
    return states[-1]


async def send(hub: Hub, table: Table, c: Conn, **msg: Any) -> None:
    await hub.handle(table, c, json.dumps(msg))


async def new_hub(tmp_path: Path, clock: ManualClock, heartbeat: float = 2.0) -> Hub:
    hub = Hub(str(tmp_path / "clock.db"), 0, test_mode=True, heartbeat=heartbeat)
    hub.waits = clock
    await hub.start()
    await until(lambda: clock.waiting("heartbeat") == 1, "the heartbeat asleep")  # beats count from now
    return hub


def on_hub(tmp_path: Path, body: Callable[[Hub, ManualClock], Awaitable[None]]) -> None:
    """Run ``body(hub, clock)`` on a fresh hub driven by a manual clock, and close the hub."""
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            await body(hub, clock)
        finally:
            await hub.close()

    asyncio.run(main())
