"""What a worker's lazy copies save (not a test): one PostgreSQL log of many finished
games, one worker holding their leases, and a second worker joining it.

With several workers on PostgreSQL a worker holds only the tables it owns and the ones its
clients use (docs/deploy.md); before, every worker read every table of the log when it
started and applied every event of every table.  This fills a throwaway PostgreSQL with
``--tables`` tables of ``--games`` finished three-player games each (random bots, played
through the web table's own events, so the log is what a server writes), starts a first
worker (it takes every lease: it holds every table; the second is started once the first
has read them all, i.e. has gone quiet), then a second one on the same database, and
prints each one's time to answer and resident memory::

    python benchmarks/web_lazy.py --tables 400 --games 3
    python benchmarks/web_lazy.py --tables 400 --games 3 --server-src OLD/src   # the second worker from before
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time

import httpx

from mattis.play import make_bot, next_move
from mattis.web.pgserver import temporary_server
from mattis.web.pgstore import PgStore
from mattis.web.table import Table


def fill(url: str, tables: int, games: int, seed: int) -> int:
    """Write the logs of ``tables`` tables of ``games`` finished games each; the events written."""
    store = PgStore(url)
    written = 0
    try:
        for i in range(tables):
            seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
            ev, _token = Table.create_event("mattis", None, 3, seats, "Kari", seed + i)
            table = Table.from_create(ev)
            events = [ev]
            for g in range(games):
                deal = table.deal_event(0, "easy")
                table.apply(deal)
                events.append(deal)
                agents = {s: make_bot("random", seed * 1000 + i * 10 + g) for s in range(3)}
                while table.referee is not None and not table.referee.is_over:
                    chosen = next_move(table.referee, agents)
                    assert chosen is not None
                    seat, move = chosen
                    move_ev = table.move_event(seat, table.game, table.seq, str(move))
                    table.apply(move_ev)
                    events.append(move_ev)
            with store.db.cursor() as cur:  # one table's log in one round trip (a server appends one by one)
                cur.executemany("INSERT INTO events (table_id, n, at, data) VALUES (%s, %s, %s, %s)",
                                [(ev["id"], n, time.time(), json.dumps(e, separators=(",", ":")))
                                 for n, e in enumerate(events)])
            written += len(events)
    finally:
        store.close()
    return written


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def settle(pid: int) -> float:
    """Wait until process ``pid`` has used under 0.05 s of processor time in 3 s (it has read
    the tables it took over: it takes them over a third of a lease, 2 s, after it starts);
    the seconds waited."""
    def cpu() -> int:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    t0 = time.monotonic()
    last = cpu()
    while True:
        time.sleep(3)
        now = cpu()
        if now - last < 0.05 * os.sysconf("SC_CLK_TCK"):
            return time.monotonic() - t0
        last = now


def worker(url: str, src: str | None) -> tuple[subprocess.Popen[bytes], float]:
    """One ``mattis serve`` on a free port of ``url``; the process and its seconds to answer."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--port", str(port), "--db", url,
                             "--bot-delay", "0", "--bot-processes", "0"], env=env, stdout=subprocess.DEVNULL)
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the worker exited ({proc.returncode})")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5)
            return proc, time.monotonic() - t0
        except httpx.HTTPError:
            time.sleep(0.05)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=400)
    ap.add_argument("--games", type=int, default=3, help="finished games per table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-src", help="PYTHONPATH of the second worker (e.g. another checkout's src)")
    args = ap.parse_args()
    with open("/proc/loadavg") as f:
        print(f"load average at the start: {' '.join(f.read().split()[:3])}", flush=True)
    with temporary_server(durable=True) as url:
        t0 = time.monotonic()
        events = fill(url, args.tables, args.games, args.seed)
        print(f"the log: {args.tables} tables, {args.tables * args.games} finished games, {events} events "
              f"(written in {time.monotonic() - t0:.0f} s)", flush=True)
        first, up1 = worker(url, None)
        try:
            busy = settle(first.pid)
            print(f"first worker (takes every lease, holds every table): answered after {up1:.1f} s, "
                  f"busy {busy:.0f} s more, then {rss_mib(first.pid):.0f} MiB resident", flush=True)
            second, up2 = worker(url, args.server_src)
            try:
                time.sleep(3)
                print(f"second worker ({args.server_src or 'this checkout'}): answered after {up2:.1f} s, "
                      f"{rss_mib(second.pid):.0f} MiB resident", flush=True)
            finally:
                second.terminate()
                second.wait()
        finally:
            first.terminate()
            first.wait()
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {' '.join(f.read().split()[:3])}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
