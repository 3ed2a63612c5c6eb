"""Hardening of a real ``mattis serve`` on 127.0.0.1 (a subprocess): silent sockets
(slowloris), malformed WebSocket frames, and a flooding client's effect on another
table's move latency (measured and printed, not asserted: see docs/web.md)."""

from __future__ import annotations

import asyncio
import base64
import json
import multiprocessing
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Origin

from mattis.web.guard import raise_file_limit
from tiers import scale

REAL_RATES = ("--limit", "message_rate=10", "--limit", "message_burst=30", "--limit", "sync_rate=2",
              "--limit", "sync_burst=6")
"""A test server lifts the per-connection rates (guard.TEST_SERVER); these are the defaults."""


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
        for _ in range(300):
            try:
                if httpx.get(self.base + "/api/meta", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        self.proc.kill()
        raise AssertionError("the server did not start: " + self.log.read_text())

    def stop(self) -> str:
        self.proc.terminate()
        self.proc.wait(10)
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


def wait_closed(s: socket.socket, seconds: float) -> bytes:
    """Read until the server closes ``s`` (or ``seconds`` pass); what it sent."""
    s.settimeout(seconds)
    got = b""
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            part = s.recv(65536)
            if not part:
                break
            got += part
    except (TimeoutError, OSError):
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
        assert httpx.get(server.base + "/", timeout=10).status_code == 200
        tid, tokens = server.table()

        async def hello() -> dict[str, Any]:
            async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}",
                                          origin=Origin(server.base)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
                frame: dict[str, Any] = json.loads(await ws.recv())
                return frame

        assert asyncio.run(hello())["status"] == "lobby"
        assert still_open(silent) <= 32  # max_silent_per_address
        # A socket that starts a request and never finishes its head is closed after the timeout.
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert wait_closed(slow, 20) == b""
        # So is a kept-alive socket whose next request head never ends.
        kept = socket.create_connection(("127.0.0.1", server.port))
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = b""
        while b"\r\n\r\n" not in first:
            first += kept.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 1")
        wait_closed(kept, 20)
        with pytest.raises(OSError):
            for _ in range(3):
                kept.sendall(b"27.0.0.1\r\n")
                time.sleep(0.2)
        # A request head that never ends is refused with 431.
        big = socket.create_connection(("127.0.0.1", server.port))
        big.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: " + b"a" * 40_000 + b"\r\n")
        assert wait_closed(big, 20).startswith(b"HTTP/1.1 431")
        for s in [*silent, slow, big, kept]:
            s.close()
        assert httpx.get(server.base + "/api/meta", timeout=10).status_code == 200
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
            got[name] = close_code(head + wait_closed(s, 20))
            s.close()
        assert all(got[name] in codes for name, (_, codes) in cases.items()), got
        assert httpx.get(server.base + "/api/meta", timeout=10).status_code == 200
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]


async def play_moves(base: str, tid: str, tokens: list[str], moves: int, rng: random.Random) -> list[float]:
    """Play ``moves`` moves flat out at a two-person table; the latency of each (send to new state)."""
    url = base.replace("http://", "ws://") + f"/ws/{tid}"
    socks = [await websockets.connect(url, origin=Origin(base), max_size=2**20) for _ in tokens]
    last: list[dict[str, Any]] = [{}, {}]
    for ws, tok in zip(socks, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "token": tok}))
        last[socks.index(ws)] = json.loads(await ws.recv())
    await socks[0].send(json.dumps({"type": "start"}))
    lat: list[float] = []

    def key(f: dict[str, Any]) -> tuple[int, int]:
        return (-1, -1) if f.get("status", "lobby") == "lobby" else (int(f["game"]), int(f["seq"]))

    target = (1, 0)
    try:
        while len(lat) < moves:
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
            t0 = time.monotonic()
            await socks[actor].send(json.dumps({"type": "move", "game": g["game"], "seq": g["seq"],
                                                "move": rng.choice(g["obs"]["legal"])}))
            while key(last[actor]) <= key(g):
                last[actor] = json.loads(await socks[actor].recv())
            lat.append(time.monotonic() - t0)
            target = key(last[actor])
    finally:
        for ws in socks:
            await ws.close()
    return lat


async def flood(base: str, tid: str, stop: asyncio.Event, sent: list[int], answered: list[int], kind: str) -> int:
    """A spectator who knows only the table id sends as fast as the socket takes; the close code."""
    url = base.replace("http://", "ws://") + f"/ws/{tid}"
    async with websockets.connect(url, origin=Origin(base), max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello"}))

        async def reader() -> None:
            async for _ in ws:
                answered[0] += 1

        task = asyncio.create_task(reader())
        text = '{"type":"sync"}' if kind == "sync" else '{"type": "move", "move": ' + "[" * 10 + "]" * 10 + "}"
        try:
            while not stop.is_set():
                await ws.send(text)
                sent[0] += 1
                if sent[0] % 50 == 0:
                    await asyncio.sleep(0)
        except websockets.ConnectionClosed:
            pass
        task.cancel()
        return ws.close_code or 0


def flood_process(base: str, tid: str, stop: Any, out: Any) -> None:
    """Two sync flooders and one junk flooder until ``stop``; puts (sent, answered, close codes)."""
    async def main() -> None:
        ev = asyncio.Event()
        sent, answered = [0], [0]
        tasks = [asyncio.create_task(flood(base, tid, ev, sent, answered, kind)) for kind in ("sync", "sync", "junk")]
        while not stop.is_set() and not all(t.done() for t in tasks):
            await asyncio.sleep(0.1)
        ev.set()
        codes = await asyncio.gather(*tasks)
        out.put((sent[0], answered[0], list(codes)))

    asyncio.run(main())


def p(lat: list[float], q: float) -> float:
    s = sorted(lat)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def test_a_flooding_client_leaves_another_tables_latency_near_normal(tmp: Path) -> None:
    # Flat out, one connection stays within its own rate limit (burst 30, 10/s, 60 strikes) for
    # about 150 moves; a longer run would be closed by the limit this test relies on.
    moves = 150
    server = Server(tmp, *REAL_RATES)
    try:
        quiet_tid, quiet_tokens = server.table()
        flood_tid, _ = server.table()
        busy_tid, busy_tokens = server.table()

        async def run() -> tuple[list[float], list[float]]:
            normal = await play_moves(server.base, quiet_tid, quiet_tokens, moves, random.Random(1))
            # The flooders run in their own process, so their sending does not slow the measuring client.
            flooders.start()
            await asyncio.sleep(1.0)
            flooded = await play_moves(server.base, busy_tid, busy_tokens, moves, random.Random(1))
            return normal, flooded

        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        stop = ctx.Event()
        flooders = ctx.Process(target=flood_process, args=(server.base, flood_tid, stop, out))
        normal, flooded = asyncio.run(run())
        stop.set()
        sent, answered, codes = out.get(timeout=60)
        flooders.join(30)
        print(f"\nanother table's move latency, {moves} moves flat out: normal p50 {p(normal, .5):.1f} ms "
              f"p99 {p(normal, .99):.1f} ms; with 2 sync flooders and a junk flooder p50 {p(flooded, .5):.1f} ms "
              f"p99 {p(flooded, .99):.1f} ms (x{statistics.median(flooded) / statistics.median(normal):.2f} at p50); "
              f"flooders sent {sent} messages, got {answered} answers, close codes {codes}")
        assert len(flooded) == moves  # the other table played every move
        assert answered < sent / 10  # most of the flood was never answered
        assert codes == [4429, 4429, 4429]
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-2000:]
