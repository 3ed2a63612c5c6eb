"""No table is ever stuck: the bot scheduler over every seat order, its supervisor, its pace.

The hub is driven in-process (no sockets): people are connections the test makes moves for,
and the hub's waits are recorded instead of slept (:class:`Recorder`), so the scheduler's
chosen delays are asserted, never measured.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import WebSocket

from mattis.bots import RandomBot
from mattis.core import PRESETS, Move, Observation
from mattis.play import Agent
from mattis.play import make_bot as real_make_bot
from mattis.web import tablestate as table_module
from mattis.web.conn import Conn
from mattis.web.hub import Hub
from mattis.web.scheduler import FAST_DELAY, RESTART_PAUSE, RESTART_PAUSE_MAX
from mattis.web.seats import Seat, people_in
from mattis.web.table import Table
from mattis.web.waits import Waits
from tiers import scale

DELAY = 0.8


class Recorder(Waits):
    """Records every wait the hub asks for (with whether a person was still in the game, read
    from the referee's list of who went out) and returns at once."""

    def __init__(self) -> None:
        self.waits: list[tuple[str, float, bool]] = []
        self.table: Table | None = None

    async def sleep(self, seconds: float, what: str) -> None:
        self.waits.append((what, seconds, self.table is not None and person_still_in(self.table)))
        await asyncio.sleep(0)


def person_still_in(table: Table) -> bool:
    """The truth from the game itself: a person playing her own seat has not gone out yet."""
    ref = table.referee
    if ref is None or ref.is_over:
        return False
    obs = ref.observation(0)
    gone = set(obs.finished) | set(obs.losers)  # went out, or lost while the others play on (Blodmattis)
    return any(s.kind == "human" and i not in table.standin and i not in gone for i, s in enumerate(table.seats))


def hub_at(tmp_path: Path, name: str = "web.db") -> tuple[Hub, Recorder]:
    hub = Hub(str(tmp_path / name), DELAY, test_mode=True)
    rec = Recorder()
    hub.waits = rec
    return hub, rec


def conn(seat: int) -> Conn:
    return Conn(cast(WebSocket, None), seat, "en")


async def new_table(hub: Hub, preset: str, kinds: tuple[str, ...], seed: int) -> tuple[Table, dict[int, Conn]]:
    """A table whose seats are ``kinds`` (``host``, ``friend``, ``bot``), the friends joined."""
    seats = [{"kind": "human" if k != "bot" else "bot", "level": "easy"} for k in kinds]
    ev, _token = Table.create_event(preset, {}, len(kinds), seats, "Anne", seed)
    table = await hub.create(ev)
    for i, k in enumerate(kinds):
        if k == "friend":
            ev, _ = table.join_event(table.invite, f"Friend {i}")
            await hub.commit(table, ev)
            assert ev["seat"] == i
    return table, {0: conn(0)}


async def play_out(hub: Hub, table: Table, conns: dict[int, Conn], people: dict[int, Agent]) -> list[int]:
    """Start the game and play it to its end: the connected people by ``people``, everyone else by
    the hub's bots (absent friends after the grace period).  Fails if the table is ever stuck: a
    bot (or an absent person) is to act and no task of the hub will make that move.  Returns
    the order the seats went out in."""
    for c in conns.values():
        hub.conns.setdefault(table.id, set()).add(c)
    await hub.handle(table, conns[0], json.dumps({"type": "start", "level": "easy"}))
    assert table.status == "playing"
    while table.status == "playing":
        ref = table.referee
        assert ref is not None
        seat = ref.to_act
        assert seat is not None
        if seat in conns and seat not in table.standin:
            seq = table.seq
            move = people[seat].act(ref.observation(seat))
            await hub.handle(table, conns[seat], json.dumps({"type": "move", "game": table.game, "seq": seq,
                                                            "move": str(move)}))
            assert table.seq == seq + 1 or table.status != "playing", "a person's legal move was refused"
            continue
        tasks: list[asyncio.Task[None]] = []
        bot = hub.bot_tasks.get(table.id)
        if bot is not None and not bot.done():
            tasks.append(bot)
        grace = hub.grace_tasks.get(table.id)
        if grace is not None and not grace[1].done():
            tasks.append(grace[1])
        assert tasks, (f"stuck: seat {seat} ({table.seats[seat].kind}) to act at move {table.seq}, "
                       f"still in {sorted(table.still_in())}, and no bot or timer task will move")
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    ref = table.referee
    assert ref is not None and ref.is_over
    return list(ref.observation(0).finished)


def arrangements(n: int) -> list[tuple[str, ...]]:
    """Every arrangement of host (seat 0, the one who makes the table), friends and bots."""
    return [("host", *rest) for rest in itertools.product(("friend", "bot"), repeat=n - 1)]


def sweep_cases() -> list[tuple[str, tuple[str, ...]]]:
    """The slow tier: every arrangement of two to five seats in every preset, and 8 of the
    32 six-seat ones a preset (a seeded sample: each pattern of friends and bots after the
    host that a six-seat table can hold, but for its last seat, is already in the five-seat
    sweep; the six-seat games are the longest, and all 128 cost about as much as the rest);
    the fast tier a seeded sample of 8 of them all."""
    cases = [(preset, kinds) for preset, rules in PRESETS.items()
             for n in rules.allowed_players() if 2 <= n <= 6 for kinds in arrangements(n)]
    if not scale(0, 1):
        return random.Random(23).sample(cases, 8)
    rng = random.Random(6)
    swept: list[tuple[str, tuple[str, ...]]] = []
    for preset in PRESETS:
        mine = [c for c in cases if c[0] == preset]
        six = [c for c in mine if len(c[1]) == 6]
        swept += [c for c in mine if len(c[1]) < 6] + rng.sample(six, min(8, len(six)))
    return swept


@pytest.mark.parametrize(("preset", "kinds"), sweep_cases(), ids=lambda v: v if isinstance(v, str) else "-".join(v))
def test_every_seat_order_plays_to_the_end(tmp_path: Path, preset: str, kinds: tuple[str, ...]) -> None:
    """Host, friends and bots in this order: whole games with the seats going out in the orders
    the deals bring (friends present in one game, away and stood in for in the other), and
    each game ends, with no bot or timer task failing on the way.  The slow tier sweeps
    every arrangement up to five seats and a sample at six (:func:`sweep_cases`), one game
    each (friends present where the number of bots is even, away where it is odd: both
    for every preset and table size); the fast tier plays both games on a sample of
    arrangements."""
    orders: set[tuple[int, ...]] = set()
    bots = kinds.count("bot")
    seeds = [bots % 2] if scale(0, 1) else [0, 1]

    async def main() -> None:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        try:
            for seed in seeds:  # seed 0: friends present; seed 1: away
                table, conns = await new_table(hub, preset, kinds, 100 * seed + len(kinds))
                rec.table = table
                present = seed % 2 == 0
                for i, k in enumerate(kinds):
                    if k == "friend" and present:
                        conns[i] = conn(i)
                people: dict[int, Agent] = {i: RandomBot(seed * 10 + i) for i in conns}
                order = await play_out(hub, table, conns, people)
                orders.add(tuple(order))
                assert not present or not table.standin  # present friends play their own seats
                # the pace: people's pace while one is in, the fast-forward once none is
                bot_waits = [(s, p) for what, s, p in rec.waits if what == "bot"]
                assert bot_waits or all(k != "bot" for k in kinds)
                assert all(s == (DELAY if p else FAST_DELAY) for s, p in bot_waits), bot_waits
                rec.waits.clear()
            assert sum(hub.restarts.values()) == 0
        finally:
            await hub.close()

    asyncio.run(main())
    assert orders


def test_people_in_reads_the_seats_still_in_for_every_arrangement() -> None:
    """Every arrangement of 2-6 seats, every set of seats gone out, every seat stood in for or not:
    a person is in exactly when a person's own seat is among those still in."""
    for n in range(2, 7):
        for kinds in arrangements(n):
            seats = [Seat("bot" if k == "bot" else "human", k) for k in kinds]
            for mask in range(1 << n):
                still = frozenset(i for i in range(n) if mask >> i & 1)
                for smask in range(1 << n):
                    standin = {i for i in range(n) if smask >> i & 1}
                    want = any(kinds[i] != "bot" and i not in standin for i in still)
                    assert people_in(seats, standin, still) is want, (kinds, still, standin)


def test_the_bots_pace_follows_who_is_still_in(tmp_path: Path) -> None:
    """A host alone with bots: her bots play at people's pace from the first move while she is in
    (seat 0 counts: it is a seat number, not a flag), and fast-forward once she is out."""
    async def main() -> None:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        try:
            for seed in range(4):
                table, conns = await new_table(hub, "blodmattis", ("host", "bot", "bot"), seed)
                rec.table = table
                await play_out(hub, table, conns, {0: RandomBot(seed)})
                bot_waits = [(s, p) for what, s, p in rec.waits if what == "bot"]
                assert bot_waits[0] == (DELAY, True)  # the first bot move, with the host in
                assert all(s == (DELAY if p else FAST_DELAY) for s, p in bot_waits)
                rec.waits.clear()
        finally:
            await hub.close()

    asyncio.run(main())


def test_the_fast_forward_once_the_host_is_out(tmp_path: Path) -> None:
    """Some deal sends the host out while two bots play on: those moves are fast-forwarded."""
    async def main() -> None:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        try:
            for seed in range(40):
                table, conns = await new_table(hub, "mattis", ("host", "bot", "bot"), seed)
                rec.table = table
                order = await play_out(hub, table, conns, {0: RandomBot(seed)})
                fast = [s for what, s, p in rec.waits if what == "bot" and not p]
                rec.waits.clear()
                if order and order[0] == 0:
                    assert fast and set(fast) == {FAST_DELAY}
                    return
            pytest.fail("no deal of 40 sent the host out first")
        finally:
            await hub.close()

    asyncio.run(main())


class Failing:
    """A bot that fails (raises) on chosen decisions, else plays like ``inner``."""

    def __init__(self, inner: Agent, fail: set[int] | None) -> None:
        self.name = "failing"
        self.inner = inner
        self.fail = fail
        self.calls = 0

    def act(self, obs: Observation) -> Move:
        self.calls += 1
        if self.fail is None or self.calls in self.fail:
            raise RuntimeError("injected bot failure")
        return self.inner.act(obs)


@pytest.mark.parametrize("always", [False, True], ids=["once", "always"])
def test_a_failing_bot_is_logged_restarted_and_the_game_finishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, always: bool) -> None:
    """Seat 1's bot raises on its third decision (``once``), or on every decision (``always``):
    each failure is logged and counted and the task restarted after the restart pause; a bot
    failing twice at the same move is replaced for that move by a random legal move; the game ends."""
    made: list[Failing] = []
    real = real_make_bot

    def make_bot(name: str, seed: int | None = None) -> Agent:
        bot = real(name, seed)
        if not made:  # the first bot built (seat 1) fails; the bots built after a restart do not
            made.append(Failing(bot, None if always else {3}))
            return made[0]
        return Failing(bot, None) if always else bot

    monkeypatch.setattr(table_module, "make_bot", make_bot)

    async def main() -> int:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        try:
            table, conns = await new_table(hub, "mattis", ("host", "bot", "bot"), 7)
            rec.table = table
            with caplog.at_level(logging.ERROR, logger="mattis.web"):
                await play_out(hub, table, conns, {0: RandomBot(7)})
            assert table.status == "over"
            restarts = [s for what, s, _ in rec.waits if what == "restart"]
            assert len(restarts) == hub.restarts["bots"]
            # the first failure at a move waits the restart pause, the second twice as long
            assert set(restarts) == ({RESTART_PAUSE, 2 * RESTART_PAUSE} if always else {RESTART_PAUSE})
            return hub.restarts["bots"]
        finally:
            await hub.close()

    restarts = asyncio.run(main())
    failures = [r.getMessage() for r in caplog.records if "task at table" in r.getMessage()]
    assert failures and all("bots task" in m and "RuntimeError: injected bot failure" in m for m in failures)
    assert len(failures) == restarts
    if always:  # two failures for each bot move, each then played by a random legal move
        fallbacks = [r for r in caplog.records if "a random legal move is played" in r.getMessage()]
        assert restarts == 2 * len(fallbacks) > 0
    else:
        assert restarts == 1
        assert failures[0].endswith("(1 bots restarts so far)")


def test_an_unlogged_database_failure_in_the_bot_task_is_retried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The log refuses a bot's move once (the database was away): the task is restarted, not gone."""
    from mattis.web.store import StoreError

    async def main() -> int:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        try:
            table, conns = await new_table(hub, "mattis", ("host", "bot"), 3)
            rec.table = table
            assert hub.store is not None
            real_append = hub.store.append
            calls: list[int] = []

            def append(tid: str, n: int, ev: dict[str, Any]) -> None:
                if ev.get("type") == "move" and ev.get("seat") == 1 and not calls:
                    calls.append(n)
                    raise StoreError("cannot write the event log: injected")
                real_append(tid, n, ev)

            monkeypatch.setattr(hub.store, "append", append)
            with caplog.at_level(logging.ERROR, logger="mattis.web"):
                await play_out(hub, table, conns, {0: RandomBot(3)})
            assert calls and table.status == "over"
            return hub.restarts["bots"]
        finally:
            await hub.close()

    assert asyncio.run(main()) == 1
    assert any("StoreError: cannot write the event log: injected" in r.getMessage() for r in caplog.records)


def test_a_task_failing_at_the_same_move_waits_longer_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A failure before the bot is even asked (here: reading the pace) repeats at the same move: each
    restart is logged and waits twice as long as the one before, up to the most; then the fault is
    gone and the game finishes."""
    async def main() -> list[float]:
        hub, rec = hub_at(tmp_path)
        await hub.start()
        real = hub.bot_pause
        fails = [10]

        def bot_pause(table: Table) -> float:
            if fails[0] > 0 and table.seq == 5:
                fails[0] -= 1
                raise IndexError("injected")
            return real(table)

        monkeypatch.setattr(hub, "bot_pause", bot_pause)
        try:
            table, conns = await new_table(hub, "mattis", ("host", "bot", "bot"), 11)
            rec.table = table
            with caplog.at_level(logging.ERROR, logger="mattis.web"):
                await play_out(hub, table, conns, {0: RandomBot(11)})
            assert table.status == "over" and hub.restarts["bots"] == 10
            return [s for what, s, _ in rec.waits if what == "restart"]
        finally:
            await hub.close()

    pauses = asyncio.run(main())
    assert pauses == [min(RESTART_PAUSE * 2 ** k, RESTART_PAUSE_MAX) for k in range(10)]
    assert sum("IndexError: injected" in r.getMessage() for r in caplog.records) == 10
