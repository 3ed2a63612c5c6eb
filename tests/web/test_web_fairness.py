"""Fairness between tables (mattis.web.fairness): a flood of one kind is closed, bounded or
coalesced, so another table plays on.  Behaviour only: frames and closes are counted, never timed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import ManualClock, conn, frames, last_state, on_hub, send, until
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import ORIGIN, FakeClock, Player, create, first_legal, join

from mattis.web import fairness, guard, rates
from mattis.web.app import create_app
from mattis.web.hub import Hub
from mattis.web.limits import TEST_SERVER, Limits
from mattis.web.table import Table


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Any]:
    """``served(**limits)``: an app with those limits (the test server's lifted message rates
    otherwise) and ``client(address)``: a TestClient on it whose requests come from ``address``."""
    made: list[TestClient] = []

    def make(**changes: Any) -> Any:
        app = create_app(str(tmp_path / "f.db"), bot_delay=0, test_mode=True,
                         limits=Limits(**{**TEST_SERVER, **changes}))

        def client(address: str) -> TestClient:
            c = TestClient(app, client=(address, 50000))
            c.__enter__()
            made.append(c)
            return c
        return client

    yield make
    while OPEN:  # a socket a failed test left open would hold its client's exit
        with contextlib.suppress(Exception):
            OPEN.pop().__exit__(None, None, None)
    for c in reversed(made):
        c.__exit__(None, None, None)


OPEN: list[Any] = []
"""The spectators' sockets still open (closed by the ``served`` fixture)."""


def closed(ws: Any) -> WebSocketDisconnect:
    """Read until the server closes the socket; how it closed it."""
    with pytest.raises(WebSocketDisconnect) as e:
        for _ in range(10_000):
            ws.receive_text()
    return e.value


def spectate(client: TestClient, tid: str) -> Any:
    cm = client.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN))
    ws = cm.__enter__()
    OPEN.append(cm)
    ws.send_json({"type": "hello"})
    ws.receive_text()
    return cm, ws


def leave(cm: Any) -> None:
    OPEN.remove(cm)
    cm.__exit__(None, None, None)


def test_a_flooder_is_closed_with_a_reason_its_address_is_shut_out_and_another_table_plays(served: Any) -> None:
    # flood_ban_after floods from one address: each socket is closed with 4429 and a reason
    # in words, then that address may not open another WebSocket (refused before the
    # handshake) while another address may, and another table's people play on.
    make = served(message_rate=5, message_burst=10, flood_after=5, flood_ban_after=2, flood_ban=1e6)
    flood, home = make("10.0.0.66"), make("10.0.0.1")
    t = create(home, "mattis", [{"kind": "human"}, {"kind": "human"}], seed=3)
    j = join(home, str(t["table"]), str(t["invite"]), "Ola")
    target = create(home, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=4)
    for _ in range(2):
        cm, ws = spectate(flood, str(target["table"]))
        for _ in range(100):
            ws.send_text(json.dumps({"type": "ping"}))
        shut = closed(ws)
        assert shut.code == guard.CLOSE_FLOOD and shut.reason == fairness.FLOOD_REASON
        leave(cm)
    with pytest.raises(WebSocketDisconnect) as refused:  # refused before the handshake
        spectate(flood, str(target["table"]))
    assert refused.value.code == guard.CLOSE_POLICY
    anne, ola = Player(home, str(t["table"]), str(t["token"])), Player(home, str(t["table"]), str(j["token"]))
    anne.send({"type": "start"})
    players = {0: anne, 1: ola}
    f = anne.until(lambda f: f.get("status") == "playing")
    for _ in range(6):  # six moves, each seen by both
        seq = f["seq"]
        actor = players[f["obs"]["to_act"]]
        actor.until(lambda g: g.get("seq") == seq)  # noqa: B023
        actor.move(first_legal(actor.last))
        f = anne.until(lambda g: g.get("seq", 0) > seq)  # noqa: B023
    assert f["seq"] >= 6 and "error" not in f
    anne.close()
    ola.close()


def test_sockets_that_share_a_flooding_address_are_closed_though_each_keeps_its_own_rate() -> None:
    # Twenty sockets from one address each send at just under their own rate (5/s), which
    # together is four times the address's rate: each is read at the address's pace, and
    # the busy ones are closed; a quiet socket of that address is only slowed.
    clock = FakeClock()
    limits = Limits(message_rate=5, message_burst=10, address_rate=25, address_burst=50, flood_after=5)
    hub = rates.Gate(limits, clock)
    paces = [hub.pace("10.0.0.9") for _ in range(20)]
    quiet = hub.pace("10.0.0.9")
    flooded: set[int] = set()
    for _ in range(200):  # 200 steps of 0.2 s: each live socket sends one message a step
        clock.now += 0.2
        for k, p in enumerate(paces):
            if k not in flooded:
                try:
                    p.wait('{"type":"ping"}')
                except rates.Flood:
                    flooded.add(k)
    assert len(flooded) == 20
    assert quiet.wait('{"type":"ping"}') <= limits.max_wait  # never a Flood


def test_the_ban_ends_and_one_flood_is_not_a_ban() -> None:
    clock = FakeClock()
    limits = Limits(flood_ban_after=3, flood_ban=30)
    hub = rates.Gate(limits, clock)

    async def opens(address: str) -> bool:
        ok = await hub.open_socket(address)
        if ok:
            hub.close_socket(address)
        return ok

    for _ in range(2):
        hub.pace("10.0.0.7").flooded()
    assert asyncio.run(opens("10.0.0.7"))  # two floods from a NAT: still welcome
    hub.pace("10.0.0.7").flooded()
    assert not asyncio.run(opens("10.0.0.7")) and asyncio.run(opens("10.0.0.8"))
    clock.now += 30
    assert asyncio.run(opens("10.0.0.7"))


def test_lang_requests_are_answered_at_the_sync_rate_and_a_flood_of_them_closed(served: Any) -> None:
    # 300 lang switches at once: each would build a whole frame.  They pay the sync bucket:
    # a burst is answered, then at most flood_after more, then the socket is closed.
    client = served(sync_rate=2, sync_burst=3, flood_after=5)("10.0.0.2")
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=3)
    cm, ws = spectate(client, str(t["table"]))
    for n in range(300):
        ws.send_text(json.dumps({"type": "lang", "lang": ("nb", "en")[n % 2]}))
    ws.send_text(json.dumps({"type": "sync", "echo": 999}))  # answered only if the socket is still open
    answers, code = 0, None
    try:
        for _ in range(10_000):
            f = json.loads(ws.receive_text())
            if f.get("echo") == 999:
                break
            answers += f.get("type") == "state"
    except WebSocketDisconnect as e:
        code = e.code
    assert code == guard.CLOSE_FLOOD
    assert answers <= 3 + 5 + 1
    leave(cm)


async def two_seats(hub: Hub) -> Table:
    seats = [{"kind": "human"}, {"kind": "human"}]
    ev, _ = Table.create_event("mattis", {}, 2, seats, "Anne", 3, 60, None, None)
    table = await hub.create(ev)
    jev, _ = table.join_event(table.invite, "Ola")
    await hub.commit(table, jev)
    return table


def test_a_spectator_that_does_not_read_is_sent_only_the_latest_frame(tmp_path: Path) -> None:
    # A spectator whose frames pile up (it reads none) while the table plays 40 moves holds
    # at most LATEST_AFTER + 1 frames, the newest last; the players, who read, see every move.
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await two_seats(hub)
        anne, ola, slow = conn(0), conn(1), conn(None)
        for c in (anne, ola, slow):
            hub.conns.setdefault(table.id, set()).add(c)
        await send(hub, table, anne, type="start")
        seen = 0
        for _ in range(40):
            mine = [last_state(anne), last_state(ola)]
            if mine[0]["status"] != "playing":
                break
            f = mine[mine[0]["obs"]["to_act"]]
            actor = (anne, ola)[f["you"]]
            await send(hub, table, actor, type="move", game=f["game"], seq=f["seq"], move=first_legal(f))
            seen += 1
        waiting = frames(slow)
        assert seen >= 20
        assert len(waiting) <= fairness.LATEST_AFTER + 1
        assert waiting[-1]["seq"] == table.seq
        assert slow.queue.superseded >= seen - fairness.LATEST_AFTER - 1

    on_hub(tmp_path, body)


def test_a_crowd_of_spectators_is_sent_the_newest_state_a_few_times_a_second(tmp_path: Path) -> None:
    # Past spectators_paced_after spectators, five moves made at one instant reach the players
    # as five frames but the spectators as two: the first at once, then, once 1/spectator_frames
    # seconds have passed, the newest state, whose log still holds all five moves.  With no
    # more spectators than that, each is sent every move again.
    async def body(hub: Hub, clock: ManualClock) -> None:
        hub.limits = Limits(spectators_paced_after=2, spectator_frames=4.0)
        table = await two_seats(hub)
        anne, ola = conn(0), conn(1)
        crowd = [conn(None) for _ in range(3)]
        for c in (anne, ola, *crowd):
            hub.conns.setdefault(table.id, set()).add(c)
        await send(hub, table, anne, type="start")
        clock.advance(1.0)
        mine = [last_state(anne), last_state(ola)]
        for c in crowd:
            frames(c)

        async def moves(n: int) -> None:
            for _ in range(n):
                f = mine[mine[0]["obs"]["to_act"]]
                await send(hub, table, (anne, ola)[f["you"]], type="move", game=f["game"], seq=f["seq"],
                           move=first_legal(f))
                mine[:] = [last_state(anne), last_state(ola)]  # the players are sent every move

        before = table.seq
        await moves(5)
        assert table.seq == before + 5
        at_once = [[f for f in frames(c) if f.get("type") == "state"] for c in crowd]
        assert [len(fs) for fs in at_once] == [1, 1, 1]
        assert all(fs[0]["seq"] == before + 1 for fs in at_once)
        await until(lambda: clock.waiting("spectators") == 1, "one send planned for the crowd")
        clock.advance(0.25)
        await until(lambda: all(not c.queue.empty() for c in crowd), "the paced frame sent")
        later = [[f for f in frames(c) if f.get("type") == "state"] for c in crowd]
        assert [len(fs) for fs in later] == [1, 1, 1]
        newest = later[0][0]
        assert newest["seq"] == table.seq
        assert newest["obs"]["log"] == mine[0]["obs"]["log"]  # with the moves the spectators' frames skipped
        hub.conns[table.id].discard(crowd.pop())  # two spectators: not a crowd
        clock.advance(1.0)
        await moves(3)
        assert [len([f for f in frames(c) if f.get("type") == "state"]) for c in crowd] == [3, 3]
        assert clock.waiting("spectators") == 0

    on_hub(tmp_path, body)


def test_a_reply_to_a_request_is_never_superseded() -> None:
    box = fairness.Outbox(latest_after=2)
    box.push("state 1", latest=True)
    box.push("answer to sync", latest=False)
    for n in range(2, 10):
        box.push(f"state {n}", latest=True)
    got = [box.get_nowait() for _ in range(box.qsize())]
    assert got[0] == "answer to sync" and got[-1] == "state 9" and len(got) <= 3


class FakeTransport(asyncio.Transport):
    """Records what the protocol does to its socket."""

    def __init__(self) -> None:
        super().__init__()
        self.out = bytearray()
        self.paused = False
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.5", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.out += data

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False


def test_a_sockets_input_is_parsed_only_as_fast_as_the_app_reads_it() -> None:
    # 2,000 messages arrive in one read (as from a flooder): the protocol parses a few
    # kilobytes, leaves the rest unparsed with the socket's reading paused, and parses more
    # only as the app takes what it has; the app gets every message, in order.
    import uvicorn
    from uvicorn.server import ServerState
    from websockets.client import ClientProtocol
    from websockets.frames import Frame, Opcode
    from websockets.uri import parse_uri

    n = 2000
    got: list[str] = []
    waiting: list[int] = []

    async def main() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            assert (await receive())["type"] == "websocket.connect"
            await send({"type": "websocket.accept"})
            while len(got) < n:
                got.append((await receive())["text"])
                waiting.append(proto.queue.qsize())  # parsed, not yet taken

        paced: Any = fairness.paced_ws_protocol()
        config = uvicorn.Config(app, ws=paced, lifespan="off", log_level="warning")
        config.load()
        proto = paced(config, ServerState(), {}, _loop=asyncio.get_running_loop())
        client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/x"))
        client.send_request(client.connect())
        data = b"".join(client.data_to_send())
        data += b"".join(Frame(Opcode.TEXT, b'{"type":"ping","n":%04d}' % k).serialize(mask=True)
                         for k in range(n))
        transport = FakeTransport()
        proto.connection_made(transport)
        proto.data_received(data)
        assert proto.queue.qsize() < n / 8 and transport.paused  # the rest waits unparsed
        for _ in range(100_000):
            if len(got) == n:
                break
            await asyncio.sleep(0)

    asyncio.run(main())
    assert got == [f'{{"type":"ping","n":{k:04d}}}' for k in range(n)]
    assert max(waiting) < n / 8


def test_spectators_sends_take_turns_so_a_move_never_waits_behind_all_of_them() -> None:
    """300 spectators' writers woken by one move send a few at a time: another table's move
    that arrives meanwhile (a callback queued after the first turn) is handled after at most
    two turns of sends, not after all 300; every spectator still sends, in the order it asked,
    and a writer cancelled while it waits gives its turn to the next."""

    async def main() -> tuple[list[str], int]:
        turns = fairness.SendTurns(per_turn=8)
        order: list[str] = []

        async def spectator(i: int) -> None:
            await turns.turn()
            order.append(f"s{i}")

        tasks = [asyncio.create_task(spectator(i)) for i in range(300)]
        await asyncio.sleep(0)  # every writer asks for its turn; the first 8 send
        asyncio.get_running_loop().call_soon(lambda: order.append("move"))
        tasks[50].cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return order, turns.used

    order, _used = asyncio.run(main())
    assert order.index("move") <= 16, order[:30]
    sent = [int(x[1:]) for x in order if x != "move"]
    assert sent == [i for i in range(300) if i != 50]
