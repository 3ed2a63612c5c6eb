"""Hardening of a real ``mattis serve`` on 127.0.0.1 (a subprocess): silent sockets
(slowloris), malformed WebSocket frames, a flooding client closed while another table
plays on (its effect on that table's latency is a benchmark: ``benchmarks/web_load.py
--flood``, docs/web.md)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from web_helpers import wait_up
from websockets.typing import Origin

from mattis.web.doorman import raise_file_limit
from tiers import HUNG, scale, wait_until

REAL_RATES = ("--limit", "message_rate=10", "--limit", "message_burst=30", "--limit", "sync_rate=2",
              "--limit", "sync_burst=6")
"""A test server lifts the per-connection rates (mattis.web.limits.TEST_SERVER); these are the defaults."""



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, tmp: Path, *args: str) -> None:
        self.port = free_port()
        self.log = tmp / "server.log"
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--db", str(tmp / "h.db"), "--bot-delay", "0",
                                      "--test-mode", *args],
                                     stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"))
        wait_up(self.proc, self.base, self.log)

    def stop(self) -> str:
        self.proc.terminate()
        self.proc.wait(HUNG)
        return self.log.read_text()

    def table(self, seats: int = 2) -> tuple[str, list[str]]:
        r = httpx.post(self.base + "/api/tables", json={"preset": "mattis", "players": seats, "name": "A",
                                                        "seats": [{"kind": "human"}] * seats, "seed": 5})
        t = r.json()
        tokens = [t["token"]]
        for k in range(1, seats):
            tokens.append(httpx.post(f"{self.base}/api/tables/{t['table']}/join",
                                     json={"invite": t["invite"], "name": f"P{k}"}).json()["token"])
        return t["table"], tokens


@pytest.fixture
def tmp(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def still_open(socks: list[socket.socket]) -> int:
    n = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(1) != b"":
                n += 1
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def wait_closed(s: socket.socket) -> bytes:
    """Read until the server closes ``s``; what it sent (fails if it never does: tiers.HUNG)."""
    s.settimeout(HUNG)
    got = b""
    try:
        while part := s.recv(65536):
            got += part
    except TimeoutError:
        raise AssertionError(f"the server did not close the socket in {HUNG:.0f} s (hung)") from None
    except OSError:  # reset: closed too
        pass
    return got


def test_silent_sockets_do_not_lock_out_a_new_visitor(tmp: Path) -> None:
    n = scale(400, 800)
    raise_file_limit(n + 200)
    # No handshake burst here (a burst lets one address open more at once; tests/web/test_web_get_limits.py).
    server = Server(tmp, "--limit", "first_request_timeout=3", "--limit", "handshake_burst=0.5",
                    "--limit", "handshake_rate=0.000001")
    try:
        silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(n)]
        # A new visitor gets the page and a seat at once; the oldest silent sockets made room.
        assert httpx.get(server.base + "/", timeout=HUNG).status_code == 200
        tid, tokens = server.table()

        async def hello() -> dict[str, Any]:
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}",
                                          origin=Origin(server.base)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
                frame: dict[str, Any] = json.loads(await ws.recv())
                return frame

        assert asyncio.run(hello())["status"] == "lobby"
        wait_until(lambda: still_open(silent) <= 32, "the oldest silent sockets closed")  # max_silent_per_address
        # A socket that starts a request and never finishes its head is closed after the timeout.
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert wait_closed(slow) == b""
        # So is a kept-alive socket whose next request head never ends.
        kept = socket.create_connection(("127.0.0.1", server.port))
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = b""
        while b"\r\n\r\n" not in first:
            first += kept.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 1")
        wait_closed(kept)

        def send_fails() -> bool:
            try:
                kept.sendall(b"27.0.0.1\r\n")
            except OSError:
                return True
            return False

        wait_until(send_fails, "a send on the closed socket failing")
        # A request head that never ends is refused with 431.
        big = socket.create_connection(("127.0.0.1", server.port))
        big.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: " + b"a" * 40_000 + b"\r\n")
        assert wait_closed(big).startswith(b"HTTP/1.1 431")
        for s in [*silent, slow, big, kept]:
            s.close()
        assert httpx.get(server.base + "/api/meta", timeout=HUNG).status_code == 200
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]


def frame(opcode: int, payload: bytes, masked: bool = True, fin: bool = True) -> bytes:
    head = bytes([(0x80 if fin else 0) | opcode])
    mask_bit = 0x80 if masked else 0
    n = len(payload)
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def close_code(data: bytes) -> int | None:
    """The code of the close frame the server sent (skipping the handshake and data frames)."""
    i = data.find(b"\r\n\r\n") + 4
    while i + 2 <= len(data):
        opcode, n = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if n == 126:
            n, i = struct.unpack("!H", data[i:i + 2])[0], i + 2
        elif n == 127:
            n, i = struct.unpack("!Q", data[i:i + 8])[0], i + 8
        if opcode == 0x8:
            return int(struct.unpack("!H", data[i:i + 2])[0]) if n >= 2 else 1005
        i += n
    return None


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_malformed_websocket_frames_are_closed_with_a_code_and_no_traceback(tmp: Path) -> None:
    server = Server(tmp)
    try:
        tid, tokens = server.table()
        hello = frame(0x1, json.dumps({"type": "hello"}).encode())
        cases = {"unmasked": (hello + frame(0x1, b'{"type":"sync"}', masked=False), {1002}),
                 "reserved opcode": (hello + frame(0x3, b"x"), {1002}),
                 "not UTF-8": (hello + frame(0x1, b"\xff\xfe\xfd"), {1007}),
                 "too big": (hello + frame(0x1, b"x" * 20_000), {1009}),
                 "binary": (hello + frame(0x2, b"\x00\x01"), {1003}),
                 "continuation without start": (hello + frame(0x0, b"x"), {1002}),
                 "binary hello": (frame(0x2, b"{}"), {4400})}
        got = {}
        for name, (data, _) in cases.items():
            s = socket.create_connection(("127.0.0.1", server.port))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall((f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                       f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                       f"Origin: {server.base}\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head:  # the frames follow the server's 101, as a browser's do
                head += s.recv(4096)
            assert head.startswith(b"HTTP/1.1 101")
            s.sendall(data)
            got[name] = close_code(head + wait_closed(s))
            s.close()
        assert all(got[name] in codes for name, (_, codes) in cases.items()), got
        assert httpx.get(server.base + "/api/meta", timeout=HUNG).status_code == 200
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]


async def play_moves(base: str, tid: str, tokens: list[str], moves: int, rng: random.Random) -> int:
    """Play ``moves`` moves at a two-person table, each sent once the last one's new state
    came back; the moves the table took (each seen as a new state on the mover's socket)."""
    url = base.replace("http://", "ws://") + f"/ws/{tid}"
    socks = [await websockets.connect(url, origin=Origin(base), max_size=2**20) for _ in tokens]
    last: list[dict[str, Any]] = [{}, {}]
    for ws, tok in zip(socks, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "token": tok}))
        last[socks.index(ws)] = json.loads(await ws.recv())
    await socks[0].send(json.dumps({"type": "start"}))
    played = 0

    def key(f: dict[str, Any]) -> tuple[int, int]:
        return (-1, -1) if f.get("status", "lobby") == "lobby" else (int(f["game"]), int(f["seq"]))

    target = (1, 0)
    try:
        while played < moves:
            for i, ws in enumerate(socks):  # read each socket up to the newest state
                while key(last[i]) < target:
                    last[i] = json.loads(await ws.recv())
            f = last[0]
            if f["status"] == "over":
                await socks[0].send(json.dumps({"type": "rematch", "game": f["game"]}))
                target = (f["game"] + 1, 0)
                continue
            actor = f["obs"]["to_act"]
            g = last[actor]
            await socks[actor].send(json.dumps({"type": "move", "game": g["game"], "seq": g["seq"],
                                                "move": rng.choice(g["obs"]["legal"])}))
            while key(last[actor]) <= key(g):
                last[actor] = json.loads(await socks[actor].recv())
            assert key(last[actor]) == (g["game"], g["seq"] + 1), (key(g), key(last[actor]))
            played += 1
            target = key(last[actor])
    finally:
        for ws in socks:
            await ws.close()
    return played


FLOOD_LIMITS = (*REAL_RATES, "--limit", "flood_after=10")
"""The default rates, and a connection closed after 10 times over them (20 by default),
so that a sync flooder (2/s past a burst of 6) is closed in seconds rather than half a minute."""

FLOOD_MESSAGES = 200
"""Each flooder sends this many messages at once: many more than the server reads before
it closes the connection (at most a burst and ``flood_after`` waits, about 40 for junk and
17 for ``sync`` here), so that the close never depends on how fast anything runs."""


async def flood(base: str, tid: str, kind: str) -> tuple[int, int, int]:
    """A spectator who knows only the table id sends :data:`FLOOD_MESSAGES` messages as fast
    as the socket takes them, then reads until the server closes the socket; returns
    (messages sent, answers read, close code)."""
    url = base.replace("http://", "ws://") + f"/ws/{tid}"
    text = '{"type":"sync"}' if kind == "sync" else '{"type": "move", "move": ' + "[" * 10 + "]" * 10 + "}"
    sent = answered = 0
    async with websockets.connect(url, origin=Origin(base), max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        try:
            for _ in range(FLOOD_MESSAGES):
                await ws.send(text)
                sent += 1
        except websockets.ConnectionClosed:
            pass
        try:
            async for _ in ws:  # until the server closes it (a hung server fails at the bound below)
                answered += 1
        except websockets.ConnectionClosed:
            pass
        return sent, answered, ws.close_code or 0


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_a_flooding_client_is_closed_and_another_table_plays_on(tmp: Path) -> None:
    """Two ``sync`` flooders and a junk flooder on one table, each sending a fixed number
    of messages, are all closed with 4429 having had few answers, while another table
    plays its moves; the server logs no traceback.  (How much the flood slows the other
    table is measured, not asserted: ``benchmarks/web_load.py --flood``, docs/web.md.)"""
    # each of the two players sends at most 2 + 20 messages: within the burst of 30, so never
    # over its rate, however fast it plays
    moves = 40
    server = Server(tmp, *FLOOD_LIMITS)
    try:
        flood_tid, _ = server.table()
        busy_tid, busy_tokens = server.table()

        async def run() -> tuple[list[tuple[int, int, int]], int]:
            async with asyncio.timeout(HUNG):
                flooders = [asyncio.create_task(flood(server.base, flood_tid, kind))
                            for kind in ("sync", "sync", "junk")]
                played = await play_moves(server.base, busy_tid, busy_tokens, moves, random.Random(1))
                return list(await asyncio.gather(*flooders)), played

        floods, played = asyncio.run(run())
        assert played == moves  # the other table took every move
        assert [code for _, _, code in floods] == [4429, 4429, 4429], floods
        for sent, answered, _ in floods:
            assert answered < sent / 2, floods  # most of each flood was never read, let alone answered
        # three flood closes ban 127.0.0.1 (flood_ban_after): its new connections are closed as they
        # open, while another address is served
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=HUNG) as other:
            assert other.get(server.base + "/api/meta").status_code == 200
        with pytest.raises(httpx.TransportError):
            httpx.get(server.base + "/api/meta", timeout=HUNG)
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]


def upgrade_request(port: int, tid: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n").encode()


def reset(s: socket.socket) -> None:
    """Close ``s`` with a TCP reset (SO_LINGER 0), as a phone that loses its network does."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def test_handshakes_dropped_midway_log_no_traceback(tmp: Path) -> None:
    # One WebSocket per address: the next one opens only once the server has finished with
    # the dropped one (a traceback from it would be in the log by then).
    server = Server(tmp, "--limit", "max_sockets_per_address=1")
    try:
        tid, tokens = server.table()

        async def hello() -> dict[str, Any] | None:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}",
                                              origin=Origin(server.base)) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
                    frame: dict[str, Any] = json.loads(await ws.recv())
                    return frame
            except websockets.InvalidStatus:  # the dropped socket is not done with yet: its slot is taken
                return None

        start = server.log.stat().st_size
        drops = 20
        for k in range(drops):
            s = socket.create_connection(("127.0.0.1", server.port))
            request = upgrade_request(server.port, tid)
            if k % 4 == 0:  # half the upgrade request
                s.sendall(request[:len(request) // 2])
                reset(s)
            elif k % 4 == 1:  # the whole request, reset before the 101 is read
                s.sendall(request)
                reset(s)
            elif k % 4 == 2:  # the whole request, closed before the 101 is read
                s.sendall(request)
                s.close()
            else:  # the 101 read, reset before the hello
                s.sendall(request)
                wait_closed_or(s, b"\r\n\r\n")
                reset(s)
            wait_until(lambda: asyncio.run(hello()), "a player's socket after a dropped handshake")
        assert httpx.get(server.base + "/api/meta", timeout=HUNG).status_code == 200
    finally:
        log = server.stop()
    dropped = log.encode()[start:].decode()
    assert "Traceback" not in dropped, dropped[-3000:]
    assert len(dropped.splitlines()) <= drops, dropped[-3000:]  # one line each at most


def wait_closed_or(s: socket.socket, mark: bytes) -> bytes:
    """Read from ``s`` until ``mark`` came (or the server closed it); what came."""
    s.settimeout(HUNG)
    got = b""
    while mark not in got and (part := s.recv(4096)):
        got += part
    return got


def first_bytes(source: str, port: int, tid: str) -> bytes:
    """What the server answers a WebSocket upgrade from ``source`` with (b"" if it closed the
    socket without a word)."""
    with socket.create_connection(("127.0.0.1", port), timeout=HUNG, source_address=(source, 0)) as s:
        try:
            s.sendall(upgrade_request(port, tid))
            return s.recv(64)
        except (ConnectionResetError, BrokenPipeError):
            return b""


@pytest.mark.slow  # a real server and a flood: CI runs it, the fast tier for work does not
def test_an_address_banned_for_flooding_is_closed_before_a_byte_is_read(tmp: Path) -> None:
    """Once an address's socket was closed for flooding ``flood_ban_after`` times, the server
    closes its new sockets as they open (no request parsed, no 403 written: a reconnect storm
    costs an accept each), while another address is served as before."""
    server = Server(tmp, *FLOOD_LIMITS, "--limit", "flood_ban_after=1", "--limit", "flood_ban=3600")
    try:
        tid, _ = server.table()
        assert first_bytes("127.0.0.1", server.port, tid).startswith(b"HTTP/1.1 101")
        _sent, _answered, code = asyncio.run(flood(server.base, tid, "sync"))
        assert code == 4429
        assert first_bytes("127.0.0.1", server.port, tid) == b""  # banned: closed unread
        assert first_bytes("127.0.0.2", server.port, tid).startswith(b"HTTP/1.1 101")  # another address
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]
