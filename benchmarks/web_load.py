"""Load benchmark for ``mattis serve`` (not a test): many bot-played tables at once over
real WebSockets on 127.0.0.1.

Every seat of every table is a client-side bot that picks a random legal move from its
seat's view, so the server sees only people-like clients; the latency of a move is the
time from sending it to receiving the new state on the same socket (bot thinking is not
included).  Finished games are rematched, so tables stay busy for the whole run.

    python benchmarks/web_load.py --tables 200 --players 3 --seconds 30            # people-like pace
    python benchmarks/web_load.py --tables 200 --players 3 --seconds 30 --think 0  # flat out: throughput

With ``--think T`` each bot waits 0.5T..1.5T seconds before sending (the pace of the
server's own bots is 0.8 s); with ``--think 0`` every table moves as fast as the server
answers, so the latency is mostly queueing behind the other tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import websockets


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []


async def seat(url: str, tid: str, token: str, rng: random.Random, stats: Stats, stop: float,
               connected: asyncio.Event, held: set[str], think: float) -> None:
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    async with websockets.connect(url, origin=origin, max_size=2**20, compression=None) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": token}))
        connected.set()
        sent_at: float | None = None
        sent_seq = -1
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            f: dict[str, Any] = json.loads(raw)
            if "error" in f:
                stats.errors.append(f["error"])
            if sent_at is not None and f["seq"] > sent_seq or (f["status"] == "over" and sent_at is not None):
                stats.latencies.append(time.monotonic() - sent_at)
                stats.moves += 1
                sent_at = None
            if f["status"] == "playing":
                held.add(tid)
            obs = f.get("obs")
            if f["status"] == "lobby" and f["host"] and all(s["kind"] == "human" for s in f["seats"]) and \
                    all(s["connected"] for s in f["seats"]):
                await ws.send(json.dumps({"type": "start"}))
            elif obs and f["status"] == "over" and f["host"] and f["seq"] != sent_seq:
                stats.games += 1
                sent_seq = f["seq"]
                await ws.send(json.dumps({"type": "rematch"}))
            elif obs and obs["legal"] and f["seq"] != sent_seq and f["status"] == "playing":
                move = rng.choice(obs["legal"])  # the bot "thinks" here, before the clock starts
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                sent_seq, sent_at = f["seq"], time.monotonic()
                await ws.send(json.dumps({"type": "move", "game": f["game"], "seq": f["seq"], "move": move}))


async def main_async(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    tables: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(args.tables):
            r = (await client.post("/api/tables", json={"preset": args.preset, "players": args.players,
                                                        "name": "Load", "seats": [{"kind": "human"}] * args.players}))
            t = r.json()
            tokens = [t["token"]]
            for k in range(1, args.players):
                j = await client.post(f"/api/tables/{t['table']}/join", json={"invite": t["invite"], "name": f"P{k}"})
                tokens.append(j.json()["token"])
            tables.append((t["table"], tokens))
    ws_base = base.replace("http://", "ws://")
    stop = time.monotonic() + args.seconds + 5
    rng = random.Random(args.seed)
    held: set[str] = set()
    tasks = []
    for tid, tokens in tables:
        for tok in tokens:
            tasks.append(asyncio.create_task(seat(f"{ws_base}/ws/{tid}", tid, tok, random.Random(rng.random()),
                                                  stats, stop, asyncio.Event(), held, args.think)))
    await asyncio.sleep(5)  # warm up: connect and start every table
    stats.latencies.clear()
    stats.moves = 0
    m0 = time.monotonic()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - m0
    failed = [r for r in results if isinstance(r, BaseException)]
    print(f"connections: {len(tasks)} ({len(failed)} failed: {failed[:1]})")
    print(f"tables held (playing at once): {len(held)} of {len(tables)}")
    print(f"measured {elapsed:.1f} s: {stats.moves} moves, {stats.moves / elapsed:.0f} moves/s, "
          f"{stats.games} games finished")
    if stats.latencies:
        lat = sorted(stats.latencies)
        def p(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000

        print(f"move latency ms: p50 {p(0.5):.1f}  p90 {p(0.9):.1f}  p99 {p(0.99):.1f}  max {lat[-1] * 1000:.1f} "
              f"(mean {statistics.mean(lat) * 1000:.1f})")
    print(f"refusals: {len(stats.errors)} {stats.errors[:3]}")
    return stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--preset", default="mattis")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a bot thinks before each move (not timed; 0 = flat out, measures throughput)")
    ap.add_argument("--url", help="use a running server (default: start one on 127.0.0.1 with a fresh db)")
    args = ap.parse_args()
    proc = None
    base = args.url
    if base is None:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        db = os.path.join(tempfile.mkdtemp(), "load.db")
        proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--port", str(port),
                                 "--db", db, "--bot-delay", "0"])
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(base + "/api/meta", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    try:
        asyncio.run(main_async(args, base))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
