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

``--spectators 300`` adds 300 spectator sockets watching the first table (each is sent
every frame); ``--flood`` adds a hostile spectator on the second table, in its own
process, sending ``sync`` requests (and junk) as fast as its socket takes them.
``--server-src OTHER_CHECKOUT/src`` runs the server from another checkout (before/after).
``--workers 2 --pg`` runs two workers on a throwaway PostgreSQL (started from the installed
binaries, ``fsync`` on) instead of one worker on a SQLite file.  ``--compare`` runs, one
after another in the same run, 1 worker with SQLite and 2 workers with PostgreSQL, each at
the ``--think`` pace and flat out, and prints the four rows side by side::

    python benchmarks/web_load.py --compare --tables 200 --players 3 --seconds 12 --think 1

With several workers the sockets of one table land on different workers (the kernel
spreads the connections over the shared port), so every move also crosses between them.
Every client here comes from 127.0.0.1, so the server started here is configured so its
own clients never meet a limit: the per-address limits are raised (as if each table sat
at its own address) and so are the per-connection rates, except with ``--flood``, whose
flooder must meet them.  The run reports any of its own sockets the server refused or
closed ("refused sockets"), which should be none.  The GET limits (pages, replays,
records) are left as they are, since none of its players asks for them.

``--get-flood 20`` adds, half-way through the measured time, 20 connections from this
same address asking for the replay of a finished long game (Blodmattis, at least 400
moves, played out first by one client against two of the server's bots) over and over, in
a process of their own, and reports the other tables' move latency before and during the
flood, with the flooders' answers by status; ``--no-get-limits`` lifts the server's GET
limits (the flood without them), and ``--halves`` reports the same halves without a
flood (the control)::

    python benchmarks/web_load.py --tables 20 --players 3 --seconds 12 --think 0.5 --get-flood 20

``--fairness`` measures how a flood of one kind slows *other* tables: ``--tables`` victim
tables (default 4) play at a people-like pace (``--think``, default 0.3 s) from 127.0.0.1,
first quiet and then during each flood in turn, ``--seconds`` (default 8) each, on a server
with its deployed limits (nothing raised).  The floods come from a process of their own,
their sockets bound to ten addresses of their own (127.0.1.2 .. 127.0.1.11 for the first
flood, 127.0.2.x for the next, ...: Linux routes all of 127/8 to loopback, so the server
sees ten addresses, which its per-address socket cap shows in the idle flood): 200 sockets
on another table sending ``sync``, ``lang`` or ``ping`` as fast as they can (reading their
answers); 300 spectators of the first victim table; 2,500 sockets opened and left idle (more than the per-address cap);
and the single-socket flood of ``--flood``.  One row per scenario: the victims' p50/p99 quiet
and during, the ratio of the p99s, moves/s, the flood sockets the server closed or refused
(by close code), and the load average at the start and end::

    python benchmarks/web_load.py --fairness                       # 1 worker, SQLite
    python benchmarks/web_load.py --fairness --workers 2 --pg      # 2 workers, PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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


def loadavg() -> str:
    """The machine's load average (1, 5, 15 minutes), to print beside every figure."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []
        self.row: dict[str, Any] = {}
        self.refused: dict[str, int] = {}
        """This benchmark's own sockets the server refused or closed, by reason (should stay empty)."""
        self.timed: list[tuple[float, float, str]] = []
        """(when, latency, table) of every move measured, to split a run at the GET flood's start."""

    def refuse(self, why: str) -> None:
        self.refused[why] = self.refused.get(why, 0) + 1


async def seat(url: str, tid: str, token: str, rng: random.Random, stats: Stats, stop: float,
               connected: asyncio.Event, held: set[str], think: float) -> None:
    """One seat's client; a socket the server refuses or closes is counted in ``stats.refused``."""
    try:
        await _seat(url, tid, token, rng, stats, stop, connected, held, think)
    except websockets.InvalidStatus as e:
        stats.refuse(f"handshake {e.response.status_code}")
        raise
    except websockets.ConnectionClosed as e:
        stats.refuse(f"closed {e.rcvd.code if e.rcvd else 'without a code'}")
        raise
    except OSError as e:
        stats.refuse(f"connect: {type(e).__name__}")
        raise


async def _seat(url: str, tid: str, token: str, rng: random.Random, stats: Stats, stop: float,
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
                stats.timed.append((time.monotonic(), stats.latencies[-1], tid))
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


async def watch(url: str, stop: float, count: list[int]) -> None:
    """A spectator: reads every frame until ``stop``."""
    origin = url.replace("ws://", "http://").split("/ws/")[0]
    async with websockets.connect(url, origin=origin, max_size=2**20, compression=None) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello"}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                count[0] += 1
            except TimeoutError:
                break


def flood_process(url: str, seconds: float) -> None:
    """A hostile spectator (its own process): syncs and junk as fast as the socket takes them."""
    async def one(text: str) -> tuple[int, int | None]:
        origin = url.replace("ws://", "http://").split("/ws/")[0]
        sent = 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:  # reconnect when closed, as a hostile client would
            try:
                async with websockets.connect(url, origin=origin, max_size=2**20,  # type: ignore[arg-type]
                                              compression=None) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    reader = asyncio.create_task(ws.wait_closed())
                    while time.monotonic() < end and not reader.done():
                        await ws.send(text)
                        sent += 1
                        if sent % 100 == 0:
                            await asyncio.sleep(0)
            except (websockets.ConnectionClosed, OSError):
                await asyncio.sleep(0.1)
        return sent, None

    async def main() -> None:
        results = await asyncio.gather(one('{"type":"sync"}'), one('{"type":"sync"}'),
                                       one('{"type":"move","move":[[[[[[]]]]]]}'))
        print(f"flooders sent {sum(r[0] for r in results)} messages", flush=True)

    asyncio.run(main())


async def long_game(base: str, preset: str, seed: int, at_least: int) -> tuple[str, int, int]:
    """A finished game to replay: one client plays random moves against two of the server's
    bots (``--bot-delay 0``), game after game (rematches) until one has ``at_least`` moves
    (at most 100 games; the longest then); the table, that game's number and its moves."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        t = (await client.post("/api/tables", json={"preset": preset, "players": 3, "name": "Long",
                                                    "seats": seats})).json()
    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + f"/ws/{t['table']}"
    best = (0, 0)
    async with websockets.connect(url, origin=base, max_size=2**22, compression=None) as ws:  # type: ignore[arg-type]
        await ws.send(json.dumps({"type": "hello", "token": t["token"]}))
        asked = 0
        while True:
            f = json.loads(await ws.recv())
            if f["status"] == "lobby" and not asked:
                asked = 1
                await ws.send(json.dumps({"type": "start"}))
            elif f["status"] == "over" and asked == f["game"]:
                best = max(best, (f["seq"], f["game"]))
                if best[0] >= at_least or f["game"] >= 100:
                    break
                asked = f["game"] + 1
                await ws.send(json.dumps({"type": "rematch", "game": f["game"]}))
            elif f["status"] == "playing" and f.get("obs") and f["obs"]["legal"] and f["obs"]["to_act"] == 0:
                await ws.send(json.dumps({"type": "move", "game": f["game"], "seq": f["seq"],
                                          "move": rng.choice(f["obs"]["legal"])}))
    return t["table"], best[1], best[0]


def get_flood_process(base: str, path: str, connections: int, start: float, stop: float, out: Any) -> None:
    """``connections`` clients from this one address asking for ``path`` over and over, in a
    process of their own (so their reading does not slow the measuring clients); the count
    of answers by status goes to ``out``."""
    codes: dict[int, int] = {}

    async def one() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            while time.time() < stop:
                try:
                    r = await client.get(path)
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1
                except httpx.HTTPError:
                    codes[0] = codes.get(0, 0) + 1

    async def main() -> None:
        await asyncio.sleep(max(0.0, start - time.time()))
        codes[-1] = round(stop - time.time())  # -1: the seconds the flood ran
        await asyncio.gather(*(one() for _ in range(connections)))

    asyncio.run(main())
    out.put(codes)


async def main_async(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    print(f"load average at the start: {loadavg()}", flush=True)
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
    long_tid, long_game_no, long_moves = "", 0, 0
    if args.get_flood:
        long_tid, long_game_no, long_moves = await long_game(base, args.flood_preset, args.seed, args.flood_moves)
        print(f"the game replayed by the GET flood: {long_moves} moves ({args.flood_preset})", flush=True)
    ws_base = base.replace("http://", "ws://")
    stop = time.monotonic() + args.seconds + 5
    rng = random.Random(args.seed)
    held: set[str] = set()
    tasks = []
    for tid, tokens in tables:
        for tok in tokens:
            tasks.append(asyncio.create_task(seat(f"{ws_base}/ws/{tid}", tid, tok, random.Random(rng.random()),
                                                  stats, stop, asyncio.Event(), held, args.think)))
    seen = [0]
    for _ in range(args.spectators):
        tasks.append(asyncio.create_task(watch(f"{ws_base}/ws/{tables[0][0]}", stop, seen)))
    flooder = None
    if args.flood:
        import multiprocessing

        flooder = multiprocessing.get_context("spawn").Process(
            target=flood_process, args=(f"{ws_base}/ws/{tables[1][0]}", args.seconds + 5))
        flooder.start()
    flood_codes: dict[int, int] = {}
    flood_at = time.monotonic() + 5 + args.seconds / 2
    getter = None
    if args.get_flood:  # wall-clock times: the flood runs in a process of its own
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        got = ctx.Queue()
        wall = time.time() - time.monotonic()
        path = f"/api/tables/{long_tid}/games/{long_game_no}/replay"
        getter = ctx.Process(target=get_flood_process, args=(base, path, args.get_flood, flood_at + wall,
                                                              stop + wall, got))
        getter.start()
    await asyncio.sleep(5)  # warm up: connect and start every table
    stats.latencies.clear()
    stats.timed.clear()
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
    print(f"refused sockets (this benchmark's own): {sum(stats.refused.values())} {stats.refused}")
    if stats.refused:
        print("WARNING: the server refused or closed some of this benchmark's own sockets, so this run "
              "measures the limits, not the server (with --url, raise the server's limits)", flush=True)
    print(f"load average at the end: {loadavg()}", flush=True)
    if getter is not None:
        flood_codes = got.get(timeout=60)
        getter.join(30)
    if args.get_flood or args.halves:
        def split(before: bool) -> list[float]:
            return sorted(lat for at, lat, _tid in stats.timed if (at < flood_at) == before)

        def q(lat: list[float], x: float) -> float:
            return lat[min(len(lat) - 1, int(x * len(lat)))] * 1000 if lat else float("nan")

        calm, flooded = split(True), split(False)
        if args.get_flood:
            print(f"GET flood: {args.get_flood} connections from one address on the replay of a {long_moves}-move "
                  f"game from {flood_at - m0:.1f} s: answers by status {dict(sorted(flood_codes.items()))}")
        print(f"the other tables' move latency: first half p50 {q(calm, .5):.1f} ms p99 {q(calm, .99):.1f} ms "
              f"({len(calm)} moves); second half{' (the GET flood)' if args.get_flood else ''} "
              f"p50 {q(flooded, .5):.1f} ms p99 {q(flooded, .99):.1f} ms ({len(flooded)} moves)", flush=True)
    if args.spectators:
        print(f"spectators: {args.spectators}, frames they received: {seen[0]}")
    if flooder is not None:
        flooder.join(30)
    stats.row = {"held": len(held), "moves/s": stats.moves / elapsed, "p50": p(0.5) if stats.latencies else None,
                 "p99": p(0.99) if stats.latencies else None, "failed": len(failed),
                 "refused": sum(stats.refused.values()), "load": loadavg()}
    if stats.latencies:
        print(f"ROW think={args.think} spectators={args.spectators} flood={args.flood} "
              f"moves/s={stats.moves / elapsed:.0f} p50={p(0.5):.1f} p99={p(0.99):.1f} held={len(held)} "
              f"refused_sockets={stats.row['refused']} load={stats.row['load']}", flush=True)
    return stats


def tree_rss(pid: int) -> dict[int, float]:
    """The resident memory (MiB) of process ``pid`` and of every process under it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out: dict[int, float] = {}
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
            out[p] = kib / 1024
        except (OSError, StopIteration):
            pass
        todo += children.get(p, [])
    return out


def workers_rss(proc: subprocess.Popen[bytes], workers: int) -> list[float]:
    """The resident memory (MiB) of each worker of the server ``proc`` (the largest ``workers``
    processes of its tree: the supervisor and the helper processes are small)."""
    return sorted(tree_rss(proc.pid).values(), reverse=True)[:workers]


def start_server(args: argparse.Namespace, db: str, workers: int,
                 port: int | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``mattis serve`` on a free port of 127.0.0.1 (or ``port``) with ``workers`` workers on ``db``."""
    import socket

    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = args.server_src
    cmd = [sys.executable, "-m", "mattis.cli.main", "serve", "--port", str(port), "--db", db, "--bot-delay", "0"]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    if args.profile:
        cmd += ["--profile-dir", args.profile]
    helptext = subprocess.run([*cmd[:4], "--help"], env=env, capture_output=True, text=True).stdout
    # every client is 127.0.0.1 here: its own clients must never meet a limit (but --fairness
    # runs on the deployed limits: its floods come from addresses of their own)
    for item in getattr(args, "server_limit", None) or ():
        cmd += ["--limit", item]
    if "--limit" in helptext and not getattr(args, "fairness", False):
        for item in ("max_sockets_per_address=100000", "address_rate=1000000", "address_burst=1000000",
                     "api_rate=100000", "api_burst=100000", "create_burst=100000",
                     "max_silent_per_address=4000", "max_silent=4000"):
            cmd += ["--limit", item]
        if not args.flood:  # the per-connection rates too, unless a flooder must meet them (--flood)
            for item in ("message_rate=1000000", "message_burst=1000000", "sync_rate=1000000",
                         "sync_burst=1000000"):
                cmd += ["--limit", item]
        if args.no_get_limits and "heavy_rate" in subprocess.run([sys.executable, "-c", (
                "import dataclasses\ntry:\n    from mattis.web.limits import Limits\n"  # older servers: in guard
                "except ImportError:\n    from mattis.web.guard import Limits\n"
                "print([f.name for f in dataclasses.fields(Limits)])")],
                env=env, capture_output=True, text=True).stdout:
            for item in ("get_rate=1000000", "get_burst=1000000", "heavy_rate=1000000", "heavy_burst=1000000"):
                cmd += ["--limit", item]
    proc = subprocess.Popen(cmd, env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(base + "/api/meta", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    return proc, base


def run_one(args: argparse.Namespace, db: str, workers: int) -> Stats:
    if db.startswith("postgresql://"):
        db += f"?options=-c%20synchronous_commit%3D{args.pg_commit}"
    proc, base = start_server(args, db, workers)
    try:
        stats = asyncio.run(main_async(args, base))
        stats.row["rss"] = workers_rss(proc, workers)
        print(f"the workers' resident memory at the end: {', '.join(f'{m:.0f} MiB' for m in stats.row['rss'])}",
              flush=True)
        if workers > 1 and not args.no_join:
            stats.row["join"] = join_worker(args, db)
        return stats
    finally:
        proc.terminate()
        proc.wait()


def join_worker(args: argparse.Namespace, db: str) -> tuple[float, float]:
    """One more worker joins the running ones on the same database (on a port of its own, as
    behind a proxy): the seconds until it answers, and its resident memory (MiB) once it has
    taken its first leases (a lease's time later); no client of the run sits at its tables."""
    t0 = time.monotonic()
    proc, base = start_server(args, db, 1)
    try:
        up = time.monotonic() - t0
        time.sleep(6)
        rss = workers_rss(proc, 1)[0]
    finally:
        proc.terminate()
        proc.wait()
    print(f"a worker joining the running ones: answered after {up:.1f} s, {rss:.0f} MiB resident", flush=True)
    return up, rss


def compare(args: argparse.Namespace) -> None:
    """1 worker with SQLite and 2 workers with PostgreSQL, at the ``--think`` pace and flat out."""
    from mattis.web.pgserver import temporary_server

    pace = args.think
    rows: dict[tuple[str, float], dict[str, Any]] = {}
    for think in (pace, 0.0):
        args.think = think
        print(f"--- 1 worker, SQLite, think {think}", flush=True)
        rows["sqlite", think] = run_one(args, os.path.join(tempfile.mkdtemp(), "load.db"), 1).row
        with temporary_server(durable=True) as url:
            print(f"--- 2 workers, PostgreSQL, think {think}", flush=True)
            rows["pg", think] = run_one(args, url, 2).row

    def ms(v: float | None) -> str:
        return "—" if v is None else f"{v:,.1f} ms"

    def cell(r: dict[str, Any]) -> str:
        return (f"{r['held']} | {r['moves/s']:,.0f} | {ms(r['p50'])} | {ms(r['p99'])} | {r['refused']} | "
                f"{' + '.join(f'{m:.0f}' for m in r['rss'])} MiB | {r['load']}")

    print(f"\n{args.tables} tables x {args.players} seats, {args.seconds:g} s measured after a 5 s warm-up")
    print("| pace | 1 worker, SQLite: tables held | moves/s | p50 | p99 | refused sockets | memory | load after "
          "| 2 workers, PostgreSQL: tables held | moves/s | p50 | p99 | refused sockets | memory | load after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for think in (pace, 0.0):
        name = f"human pace (`--think {pace:g}`)" if think else "flat out (`--think 0`)"
        print(f"| {name} | {cell(rows['sqlite', think])} | {cell(rows['pg', think])} |", flush=True)
    for think in (pace, 0.0):
        if "join" in rows["pg", think]:
            up, rss = rows["pg", think]["join"]
            print(f"a third worker joining after the PostgreSQL run at think {think:g}: answered after {up:.1f} s, "
                  f"{rss:.0f} MiB", flush=True)


FLOODS: dict[str, str] = {
    "sync": "200 sockets, 10 addresses, `sync` as fast as they can",
    "lang": "200 sockets, 10 addresses, `lang` as fast as they can",
    "ping": "200 sockets, 10 addresses, `ping` as fast as they can",
    "spectators": "300 spectators of a victim table, 10 addresses",
    "idle": "2,500 sockets opened and left idle, 10 addresses",
    "single": "one address, 3 sockets: `sync` x2 + junk (`--flood`)",
}
"""The --fairness scenarios, in the order they run."""


def fair_flood_process(kind: str, block: int, flood_url: str, victim_url: str, ready: Any, stop: Any,
                       out: Any, nice: int = 0) -> None:
    """One --fairness flood (``kind``, a key of :data:`FLOODS`) in a process of its own, its
    sockets bound to addresses 127.0.``block``.2 and up (each flood its own, so the bans of
    one do not meet the next); it runs until ``stop`` is set and puts its
    counts in ``out``: messages sent, frames received, sockets the server closed (by close
    code) or refused (by HTTP status), sockets open at the end.  ``nice``: its CPU priority
    lowered by that much (``--flood-nice``)."""
    if nice:
        os.nice(nice)
    counts: dict[str, Any] = {"sent": 0, "received": 0, "closed": {}, "refused": {}, "open": 0}

    def note(what: str, key: object) -> None:
        counts[what][str(key)] = counts[what].get(str(key), 0) + 1

    async def one(url: str, address: str, texts: tuple[str, ...], read: bool) -> None:
        origin = url.replace("ws://", "http://").split("/ws/")[0]
        while not stop.is_set():  # reconnect when closed, as a hostile client would
            try:
                async with websockets.connect(url, origin=origin, max_size=2**20, compression=None,  # type: ignore[arg-type]
                                              local_addr=(address, 0), open_timeout=30) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    counts["open"] += 1
                    try:
                        async def reader() -> None:
                            with contextlib.suppress(websockets.ConnectionClosed):
                                async for _ in ws:
                                    counts["received"] += 1
                        task = asyncio.create_task(reader()) if read else asyncio.create_task(ws.wait_closed())
                        while not stop.is_set() and not task.done():
                            if not texts:
                                await asyncio.sleep(0.2)
                                continue
                            await ws.send(texts[counts["sent"] % len(texts)])
                            counts["sent"] += 1
                            await asyncio.sleep(0)
                        if task.done() and ws.close_code is not None:
                            note("closed", ws.close_code)
                    finally:
                        counts["open"] -= 1
                    if stop.is_set():
                        return
            except websockets.InvalidStatus as e:
                note("refused", e.response.status_code)
            except websockets.ConnectionClosed as e:
                note("closed", e.rcvd.code if e.rcvd else "none")
            except (OSError, TimeoutError) as e:
                note("refused", type(e).__name__)
            await asyncio.sleep(0.5)

    async def main() -> None:
        texts = {"sync": ('{"type":"sync"}',), "ping": ('{"type":"ping"}',),
                 "lang": ('{"type":"lang","lang":"nb"}', '{"type":"lang","lang":"en"}')}  # switching back and forth
        if kind in texts:
            tasks = [one(flood_url, f"127.0.{block}.{2 + i % 10}", texts[kind], True) for i in range(200)]
        elif kind == "spectators":
            tasks = [one(victim_url, f"127.0.{block}.{2 + i % 10}", (), True) for i in range(300)]
        elif kind == "idle":
            tasks = [one(flood_url, f"127.0.{block}.{2 + i % 10}", (), False) for i in range(2500)]
        else:
            tasks = [one(flood_url, f"127.0.{block}.2", ('{"type":"sync"}',), True) for _ in range(2)]
            tasks.append(one(flood_url, f"127.0.{block}.2", ('{"type":"move","move":[[[[[[]]]]]]}',), True))
        running = [asyncio.create_task(t) for t in tasks]
        await asyncio.sleep(2)  # the sockets open
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        out.put(dict(counts))  # now: the sockets still opening or closing are not waited for
        await asyncio.wait(running, timeout=3)
        for t in running:
            t.cancel()

    asyncio.run(main())


async def fairness_async(args: argparse.Namespace, base: str, label: str) -> list[dict[str, Any]]:
    """The victims quiet, then during each flood of :data:`FLOODS`: one row each."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    stats = Stats()
    tables: list[tuple[str, list[str]]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for k in range(args.tables + 1):  # the last one is the flood's table (its lobby)
            t = (await client.post("/api/tables", json={"preset": args.preset, "players": args.players,
                                                        "name": f"Fair {k}",
                                                        "seats": [{"kind": "human"}] * args.players})).json()
            tokens = [t["token"]]
            for j in range(1, args.players):
                r = await client.post(f"/api/tables/{t['table']}/join", json={"invite": t["invite"], "name": f"P{j}"})
                tokens.append(r.json()["token"])
            tables.append((t["table"], tokens))
    ws_base = base.replace("http://", "ws://")
    rng = random.Random(args.seed)
    held: set[str] = set()
    far = time.monotonic() + 1e6
    tasks = [asyncio.create_task(seat(f"{ws_base}/ws/{tid}", tid, tok, random.Random(rng.random()), stats, far,
                                      asyncio.Event(), held, args.think))
             for tid, tokens in tables[:-1] for tok in tokens]
    flood_url, victim_url = f"{ws_base}/ws/{tables[-1][0]}", f"{ws_base}/ws/{tables[0][0]}"
    await asyncio.sleep(4)  # warm up: every table connected and started

    def window(t0: float, t1: float, table: str | None = None, others: bool = False) -> tuple[float, float, int]:
        """p50 and p99 (ms) and how many moves, of every victim table's moves in [t0, t1), or of
        ``table``'s only, or (``others``) of every victim table but ``table``."""
        lat = sorted(lat for at, lat, tid in stats.timed
                     if t0 <= at < t1 and (table is None or (tid == table) != others))
        if not lat:
            return float("nan"), float("nan"), 0
        return lat[len(lat) // 2] * 1000, lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000, len(lat)

    rows: list[dict[str, Any]] = []
    load0 = loadavg()
    t0 = time.monotonic()
    await asyncio.sleep(args.seconds)
    t1 = time.monotonic()
    quiet = window(t0, t1)
    rows.append({"scenario": "quiet", "p50": quiet[0], "p99": quiet[1], "moves/s": quiet[2] / args.seconds,
                 "watched p99": window(t0, t1, tables[0][0])[1], "others p99": window(t0, t1, tables[0][0], True)[1],
                 "load0": load0, "load1": loadavg(), "closed": {}, "refused": {}, "sent": 0})
    print(f"{label} quiet: p50 {quiet[0]:.1f} ms p99 {quiet[1]:.1f} ms {quiet[2] / args.seconds:.1f} moves/s "
          f"(load {load0} -> {loadavg()})", flush=True)
    for block, kind in enumerate(args.scenarios.split(","), start=1):
        ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
        proc = ctx.Process(target=fair_flood_process, args=(kind, block, flood_url, victim_url, ready, stop, out,
                                                                 args.flood_nice))
        proc.start()
        for _ in range(300):
            if ready.is_set():
                break
            await asyncio.sleep(0.1)
        load0 = loadavg()
        t0 = time.monotonic()
        await asyncio.sleep(args.seconds)
        t1 = time.monotonic()
        during = window(t0, t1)
        watched, rest = window(t0, t1, tables[0][0]), window(t0, t1, tables[0][0], others=True)
        load1 = loadavg()
        stop.set()
        counts: dict[str, Any] = {}
        for _ in range(300):
            try:
                counts = out.get_nowait()
                break
            except Exception:
                await asyncio.sleep(0.1)
        proc.join(5)
        if proc.is_alive():
            proc.kill()
        row = {"scenario": kind, "p50": during[0], "p99": during[1], "moves/s": during[2] / args.seconds,
               "load0": load0, "load1": load1, "closed": counts.get("closed", {}),
               "refused": counts.get("refused", {}), "sent": counts.get("sent", 0),
               "received": counts.get("received", 0), "open": counts.get("open", 0),
               "watched p99": watched[1], "others p99": rest[1]}
        rows.append(row)
        print(f"{label} {kind}: p50 {during[0]:.1f} ms p99 {during[1]:.1f} ms ({during[1] / quiet[1]:.1f}x quiet) "
              f"{during[2] / args.seconds:.1f} moves/s; flood sockets open at the end {row['open']}, "
              f"sent {row['sent']}, got {row['received']} frames, "
              f"closed {row['closed']}, refused {row['refused']} (load {load0} -> {load1})", flush=True)
        await asyncio.sleep(2)  # the flood's sockets close
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if stats.refused:
        print(f"WARNING: the victims' own sockets were refused or closed: {stats.refused}", flush=True)
    return rows


def fairness(args: argparse.Namespace) -> None:
    """--fairness: one server (``--workers``, ``--pg``), the victims quiet and under each flood."""
    label = f"{args.workers} worker{'s' if args.workers > 1 else ''}, {'PostgreSQL' if args.pg else 'SQLite'}"

    def run(db: str) -> list[dict[str, Any]]:
        if db.startswith("postgresql://"):
            db += f"?options=-c%20synchronous_commit%3D{args.pg_commit}"
        proc, base = start_server(args, db, args.workers)
        try:
            return asyncio.run(fairness_async(args, base, label))
        finally:
            proc.terminate()
            proc.wait()

    if args.pg:
        from mattis.web.pgserver import temporary_server

        with temporary_server(durable=True) as url:
            rows = run(url)
    else:
        rows = run(os.path.join(tempfile.mkdtemp(), "fair.db"))
    quiet = rows[0]
    print(f"\n{label}: {args.tables} victim tables x {args.players} seats at --think {args.think:g}, "
          f"{args.seconds:g} s a scenario")
    print("| flood | victim p50 quiet / during | p99 quiet / during | p99 ratio | victim moves/s | "
          "flood sockets closed (code: n) / refused | load at start, end |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        name = "quiet" if r["scenario"] == "quiet" else FLOODS[r["scenario"]]
        shut = ", ".join(f"{k}: {v}" for k, v in sorted(r["closed"].items())) or "0"
        ref = ", ".join(f"{k}: {v}" for k, v in sorted(r["refused"].items())) or "0"
        print(f"| {name} | {quiet['p50']:.1f} / {r['p50']:.1f} ms | {quiet['p99']:.1f} / {r['p99']:.1f} ms | "
              f"{r['p99'] / quiet['p99']:.1f}x | {r['moves/s']:.1f} | {shut} / {ref} | "
              f"{r['load0']}, {r['load1']} |", flush=True)
    for r in rows:
        if r["scenario"] == "spectators":
            print(f"\nwith {FLOODS['spectators']}: the watched table's p99 {quiet['watched p99']:.1f} / "
                  f"{r['watched p99']:.1f} ms ({r['watched p99'] / quiet['watched p99']:.1f}x), the other victim "
                  f"tables' {quiet['others p99']:.1f} / {r['others p99']:.1f} ms "
                  f"({r['others p99'] / quiet['others p99']:.1f}x)", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--preset", default="mattis")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a bot thinks before each move (not timed; 0 = flat out, measures throughput)")
    ap.add_argument("--server-limit", action="append", default=[], metavar="NAME=VALUE",
                    help="one of the server's limits for this run (mattis serve --limit; repeatable)")
    ap.add_argument("--spectators", type=int, default=0, help="spectator sockets watching the first table")
    ap.add_argument("--flood", action="store_true", help="a hostile spectator flooding the second table")
    ap.add_argument("--get-flood", type=int, default=0, metavar="N",
                    help="N connections from this one address asking for the replay of a finished long game "
                         "over and over, from half-way through the measured time (the tables' latency is "
                         "reported before and during it)")
    ap.add_argument("--halves", action="store_true",
                    help="report the latency of the first and second half of the measured time (the control "
                         "for --get-flood, which starts half-way)")
    ap.add_argument("--flood-preset", default="blodmattis", help="the preset of the game --get-flood replays")
    ap.add_argument("--flood-moves", type=int, default=400,
                    help="the game --get-flood replays has at least this many moves (games are played until one has)")
    ap.add_argument("--no-get-limits", action="store_true",
                    help="lift the server's GET limits (pages, replays, records): the flood without them")
    ap.add_argument("--server-src", help="PYTHONPATH for the server (e.g. another checkout's src, for before/after)")
    ap.add_argument("--url", help="use a running server (default: start one on 127.0.0.1 with a fresh db)")
    ap.add_argument("--workers", type=int, default=1, help="workers of the server started here")
    ap.add_argument("--pg", action="store_true", help="the server started here uses a throwaway PostgreSQL")
    ap.add_argument("--profile", metavar="DIR", help="cProfile each server worker into DIR (worker-PID.prof)")
    ap.add_argument("--pg-commit", choices=("on", "off"), default="off",
                    help="PostgreSQL's synchronous_commit for the server's connections (default off: like the "
                         "SQLite store's synchronous=NORMAL, a committed event survives a killed worker but "
                         "not a power cut; on: each commit waits for its fsync)")
    ap.add_argument("--no-join", action="store_true",
                    help="with several workers, do not start one more worker at the end of the run (it measures "
                         "what a worker joining a running server holds: its time to answer and its memory)")
    ap.add_argument("--compare", action="store_true",
                    help="1 worker with SQLite vs 2 workers with PostgreSQL, at --think and flat out")
    ap.add_argument("--fairness", action="store_true",
                    help="victim tables quiet and during each flood (many sockets from many loopback addresses, "
                         "spectators, idle sockets, one flooder), on the server's deployed limits")
    ap.add_argument("--flood-nice", type=int, default=0,
                    help="with --fairness, lower the flood processes' CPU priority by this much (19: their CPU "
                         "hardly competes with the server's, as a flood from other machines would not)")
    ap.add_argument("--scenarios", default=",".join(FLOODS),
                    help=f"with --fairness, the floods to run, in order (of {','.join(FLOODS)})")
    args = ap.parse_args()
    if args.fairness:
        if "--tables" not in sys.argv:
            args.tables = 4
        if "--seconds" not in sys.argv:
            args.seconds = 8
        if "--think" not in sys.argv:
            args.think = 0.3
        fairness(args)
        return 0
    if args.compare:
        compare(args)
        return 0
    if args.url is not None:
        asyncio.run(main_async(args, args.url))
        return 0
    if args.pg:
        from mattis.web.pgserver import temporary_server

        with temporary_server(durable=True) as url:
            run_one(args, url, args.workers)
        return 0
    run_one(args, os.path.join(tempfile.mkdtemp(), "load.db"), args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
