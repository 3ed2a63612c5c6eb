"""The guard's side of the per-address limits shared by several workers, without a
database: two guards (two workers) on one shared store count one address once, and a
store that cannot be reached leaves each worker its own limits, said once in the log.
(tests/web/test_web_shared_limits.py does the same with two real workers on PostgreSQL.)"""

from __future__ import annotations

import asyncio
import logging

import pytest

from mattis.web import rates
from mattis.web.limits import Limits
from mattis.web.rates import Bucket, Gate
from mattis.web.store import StoreError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Shared:
    """A :class:`mattis.web.rates.Shared` in memory (what PostgreSQL keeps for the workers)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}
        self.sockets: dict[str, int] = {}

    def take(self, key: str, rate: float, burst: float, cost: float, most_wait: float) -> tuple[bool, float]:
        b = self.buckets.setdefault(key, Bucket(rate, burst, self.clock()))
        wait = b.take(self.clock(), cost)
        if wait > most_wait:
            b.refund(cost)
            return False, wait
        return True, wait

    def open_socket(self, address: str, cap: int) -> bool:
        if self.sockets.get(address, 0) >= cap:
            return False
        self.sockets[address] = self.sockets.get(address, 0) + 1
        return True

    def close_socket(self, address: str) -> None:
        self.sockets[address] -= 1


class Down:
    def take(self, key: str, rate: float, burst: float, cost: float, most_wait: float) -> tuple[bool, float]:
        raise StoreError("cannot reach the database: down")

    def open_socket(self, address: str, cap: int) -> bool:
        raise StoreError("cannot reach the database: down")

    def close_socket(self, address: str) -> None:
        raise StoreError("cannot reach the database: down")


def workers(limits: Limits, shared: rates.Shared | None, clock: Clock) -> list[Gate]:
    hubs = [Gate(limits, clock), Gate(limits, clock)]
    for h in hubs:
        h.shared = shared
    return hubs


def test_two_workers_on_one_shared_store_count_an_address_once() -> None:
    clock = Clock()
    limits = Limits(create_burst=3, heavy_burst=4, heavy_rate=0.001, max_sockets_per_address=5)
    hubs = workers(limits, Shared(clock), clock)

    async def go() -> tuple[list[str], list[str], list[bool]]:
        made = [(await hubs[i % 2].check("10.0.0.1", "POST", "/api/tables"))[1] for i in range(8)]
        heavy = [(await hubs[i % 2].check("10.0.0.1", "GET", "/api/tables/t/games/1/replay"))[1] for i in range(8)]
        sockets = [await hubs[i % 2].open_socket("10.0.0.1") for i in range(8)]
        return made, heavy, sockets

    made, heavy, sockets = asyncio.run(go())
    assert made == [""] * 3 + ["web.refused.too_many_tables"] * 5
    assert heavy == [""] * 4 + ["web.refused.slow_down"] * 4
    assert sockets == [True] * 5 + [False] * 3
    assert hubs[0].refused["create"] + hubs[1].refused["create"] == 5
    other = workers(limits, None, clock)  # without a shared store each worker counts its own: twice as much
    assert [asyncio.run(other[i % 2].check("10.0.0.1", "POST", "/api/tables"))[1] for i in range(8)].count("") == 6


def test_a_refused_creation_gives_back_the_request_s_token() -> None:
    clock = Clock()
    shared = Shared(clock)
    hub = workers(Limits(create_burst=1, api_burst=3), shared, clock)[0]
    got = [asyncio.run(hub.check("10.0.0.2", "POST", "/api/tables"))[1] for _ in range(3)]
    assert got == ["", "web.refused.too_many_tables", "web.refused.too_many_tables"]
    assert shared.buckets["api 10.0.0.2"].level == pytest.approx(2)  # only the creation that was made paid


def test_a_shared_store_that_cannot_be_reached_leaves_each_worker_its_own(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    hub = workers(Limits(create_burst=2, max_sockets_per_address=2), Down(), clock)[0]

    async def go() -> tuple[list[str], list[bool]]:
        made = [(await hub.check("10.0.0.3", "POST", "/api/tables"))[1] for _ in range(3)]
        sockets = [await hub.open_socket("10.0.0.3") for _ in range(3)]
        hub.close_socket("10.0.0.3")
        await asyncio.sleep(0)  # the shared release runs in a thread; it fails and is logged, not raised
        return made, sockets

    with caplog.at_level(logging.ERROR, logger="mattis.web"):
        made, sockets = asyncio.run(go())
    assert made == ["", "", "web.refused.too_many_tables"]  # the worker's own limit still holds
    assert sockets == [True, True, False]
    said = [r for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(said) == 1  # said once, not per request
