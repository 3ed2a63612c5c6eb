"""The per-address limits of several workers on one PostgreSQL database are those of all
of them together: one address gets each documented limit once in total, whichever worker
its requests and sockets land on (table creation, a GET cost class, WebSockets).

Two real ``mattis serve`` workers on their own ports share a throwaway PostgreSQL (the
separate-ports layout behind a proxy; ``--workers 2`` on one port shares the same way,
but there the kernel picks the worker), and every request alternates between them, so a
worker-local limit would let twice as much through.  Each bucket's rate is set so low
that no token comes back during the test: the counts do not depend on how fast the
machine is.

Also here, since they are the other half of what several workers share: a worker holds
only the tables it owns or its clients use (lazy copies), and workers started together
split the leases that ran out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from web_helpers import wait_up
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from mattis.web.limits import TEST_SERVER, Limits
from mattis.web.pglimits import PgLimits
from mattis.web.pgserver import bindir, temporary_server
from mattis.web.pgstore import PgStore
from tiers import HUNG, wait_until

pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg (the 'pg' extra)")
if bindir() is None:
    pytest.skip("no PostgreSQL server binaries (initdb, postgres); apt-get install postgresql",
                allow_module_level=True)

CREATE_BURST = 3
HEAVY_BURST = 5
SOCKETS = 4
SLOW = "0.00001"  # tokens a second: none comes back while the test runs


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with temporary_server() as url:
        yield url


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_worker(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    limits = {"create_burst": CREATE_BURST, "create_rate": SLOW, "heavy_burst": HEAVY_BURST, "heavy_rate": SLOW,
              "get_wait": "0.01", "max_sockets_per_address": SOCKETS, "lease_seconds": "1.5"}
    cmd = [sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", url, "--bot-delay", "0", "--bot-processes", "0"]
    for name, value in limits.items():
        cmd += ["--limit", f"{name}={value}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(log, "ab"))  # noqa: SIM115
    wait_up(proc, f"http://127.0.0.1:{port}", log)
    return proc


@pytest.fixture(scope="module")
def workers(pg: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    folder = tmp_path_factory.mktemp("workers")
    ports = [free_port(), free_port()]
    procs = [start_worker(pg, p, folder / f"w{i}.log") for i, p in enumerate(ports)]
    try:
        yield [f"http://127.0.0.1:{p}" for p in ports]
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=HUNG)
            except subprocess.TimeoutExpired:
                p.kill()
        for i in range(2):
            text = (folder / f"w{i}.log").read_text()
            assert "Traceback" not in text, text


def full_buckets(pg: str) -> None:
    """Every address's limits full again: each test measures its limit from a full bucket
    (the module's tests share one server and its workers on an xdist worker, and which of
    them run there, in what order, depends on how the run was split)."""
    store = PgStore(pg)
    try:
        store.db.execute("DELETE FROM buckets")
    finally:
        store.close()


def test_table_creation_is_limited_per_address_across_the_workers(pg: str, workers: list[str]) -> None:
    full_buckets(pg)
    made = []
    for i in range(2 * CREATE_BURST + 2):
        r = httpx.post(workers[i % 2] + "/api/tables", json={"preset": "mattis", "players": 3, "name": "Ola"},
                       timeout=HUNG)
        assert r.status_code in (200, 429), r.text
        if r.status_code == 429:
            assert "too many new tables" in r.json()["error"] and int(r.headers["retry-after"]) > 0
        made.append(r.status_code == 200)
    assert made.count(True) == CREATE_BURST  # not CREATE_BURST on each worker
    assert made[:CREATE_BURST] == [True] * CREATE_BURST


def test_a_get_cost_class_is_limited_per_address_across_the_workers(pg: str, workers: list[str]) -> None:
    full_buckets(pg)
    codes = [httpx.get(workers[i % 2] + f"/api/tables/nosuch/games/{i}/record", timeout=HUNG).status_code
             for i in range(2 * HEAVY_BURST + 2)]
    assert codes.count(404) == HEAVY_BURST and codes.count(429) == HEAVY_BURST + 2, codes  # the app answers 404
    assert codes[:HEAVY_BURST] == [404] * HEAVY_BURST


def spectate(base: str, tid: str) -> ClientConnection:
    ws = connect(base.replace("http://", "ws://") + f"/ws/{tid}", origin=Origin(base), open_timeout=HUNG)
    ws.send(json.dumps({"type": "hello"}))
    assert json.loads(ws.recv(timeout=HUNG))["table"] == tid  # in, and sent the table
    return ws


def refused(base: str, tid: str) -> bool:
    try:
        spectate(base, tid).close()
    except InvalidStatus as e:
        assert e.response.status_code == 403
        return True
    return False


def test_websockets_are_counted_per_address_across_the_workers(pg: str, workers: list[str]) -> None:
    full_buckets(pg)
    r = httpx.post(workers[0] + "/api/tables", json={"preset": "mattis", "players": 3, "name": "Ola"}, timeout=HUNG)
    assert r.status_code == 200, r.text
    tid = r.json()["table"]
    with contextlib.ExitStack() as stack:
        held = []
        for i in range(SOCKETS):
            ws = spectate(workers[i % 2], tid)
            stack.callback(ws.close)
            held.append(ws)
        assert refused(workers[0], tid) and refused(workers[1], tid)  # SOCKETS in all, not on each
        held[1].close()  # one of the second worker's closes: a socket is free again, at either worker
        wait_until(lambda: not refused(workers[0], tid), "the closed socket no longer counted")


def test_workers_sharing_one_port_give_an_address_the_limit_once(pg: str, tmp_path: Path) -> None:
    """``mattis serve --workers 2``: the kernel hands each new connection to either worker;
    whichever it picks, the address gets the limit once."""
    full_buckets(pg)  # the other tests' requests came from this address too
    port, log = free_port(), tmp_path / "serve.log"
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", pg, "--workers", "2", "--bot-delay", "0",
                             "--bot-processes", "0", "--limit", f"create_burst={CREATE_BURST}",
                             "--limit", f"create_rate={SLOW}"],
                            stdout=subprocess.DEVNULL, stderr=open(log, "ab"))  # noqa: SIM115
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(proc, base, log)
        codes = [httpx.post(base + "/api/tables", json={"preset": "mattis", "players": 3, "name": "Ola"},
                            headers={"connection": "close"}, timeout=HUNG).status_code  # a new connection each
                 for _ in range(4 * CREATE_BURST)]
        assert codes.count(200) == CREATE_BURST and codes.count(429) == 3 * CREATE_BURST, codes
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=HUNG)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert "Traceback" not in log.read_text()


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (not a zombie)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_workers_end_when_their_supervisor_is_killed_outright(pg: str, tmp_path: Path) -> None:
    """``mattis serve --workers 2`` killed with SIGKILL (no chance to stop its workers):
    the workers notice their parent is gone and end, so none is left holding the port."""
    port, log = free_port(), tmp_path / "serve.log"
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", pg, "--workers", "2", "--bot-delay", "0",
                             "--bot-processes", "0"],
                            stdout=subprocess.DEVNULL, stderr=open(log, "ab"))  # noqa: SIM115
    try:
        wait_up(proc, f"http://127.0.0.1:{port}", log)
        workers = wait_until(lambda: {p for p in children(proc.pid) if alive(p)} or None, "the workers started")
        # the spawn context's resource tracker is a child too; the web workers are the ones serving
        assert len(workers) >= 2
    finally:
        proc.kill()
        proc.wait()
    wait_until(lambda: not any(alive(p) for p in workers), "every worker ended after its supervisor was killed")


def test_the_shared_bucket_takes_refunds_and_refuses_as_the_local_one(pg: str) -> None:
    store = PgStore(pg)
    try:
        shared = PgLimits(store, "w", 30)
        rate, burst = 1e-5, 2.0
        assert shared.take("t 10.0.0.9", rate, burst, 1, 0) == (True, 0.0)
        assert shared.take("t 10.0.0.9", rate, burst, 1, 0) == (True, 0.0)
        taken, wait = shared.take("t 10.0.0.9", rate, burst, 1, 0)
        assert not taken and wait == pytest.approx(1 / rate, rel=0.01)  # Retry-After: a token's time
        shared.take("t 10.0.0.9", rate, burst, -1, float("inf"))  # a refund
        assert shared.take("t 10.0.0.9", rate, burst, 1, 0)[0]
        assert shared.take("t 10.0.0.8", rate, burst, 1, 0)[0]  # another address has its own
        assert shared.open_socket("10.0.0.9", 1) and not shared.open_socket("10.0.0.9", 1)
        shared.close_socket("10.0.0.9")
        assert shared.open_socket("10.0.0.9", 1)
        other = PgLimits(store, "gone", 0.001)  # a worker that stopped renewing: its sockets stop counting
        assert other.open_socket("10.0.0.7", 1)
        wait_until(lambda: shared.open_socket("10.0.0.7", 1), "the gone worker's socket expired")
        shared.release()  # a worker stopping: its sockets no longer count
        assert shared.open_socket("10.0.0.9", 1)
        other.release()
    finally:
        shared.release()
        store.close()


def test_every_limit_is_documented_with_its_default_and_how_several_workers_count_it() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "web.md").read_text()
    table = doc[doc.index("| what | limit (`NAME`: default)"):]
    rows = table[:table.index("\n\n")].splitlines()[2:]
    kinds = {"per connection", "per worker", "per message", "per request", "**shared**", "the same at every worker"}
    for f in dataclasses.fields(Limits):
        value = getattr(Limits(), f.name)
        text = (f"{value // 1024} KiB" if f.name in ("max_body", "max_head")
                else f"{value * 3600:g} an hour" if f.name == "create_rate" else f"{value:g}")
        row = [r for r in rows if f"`{f.name}`: {text}" in r]
        assert len(row) == 1, f"{f.name} = {text} is not in the limits table of docs/web.md"
        workers = row[0].rstrip(" |").rsplit("|", 1)[1].strip()
        assert any(workers.startswith(k) for k in kinds), (f.name, workers)
    shared = [r for r in rows if r.endswith("| **shared** |") or "| **shared** (" in r]
    for name in ("create_burst", "heavy_burst", "max_sockets_per_address"):  # what the tests above count
        assert any(f"`{name}`" in r for r in shared)


# ------------------------------------------------------------------ lazy copies
def test_a_worker_holds_only_the_tables_it_owns_or_its_clients_use(pg: str) -> None:
    """Two workers in this process (two apps on one database): the tables made at the first
    are not copied to the second until a client of the second sits at one; the second then
    follows that table's moves, and drops its copy once nobody of its own uses it."""
    from starlette.testclient import TestClient
    from web_helpers import ORIGIN

    from mattis.web.app import create_app

    limits = Limits(**{**TEST_SERVER, "lease_seconds": 0.5})
    one, two = (create_app(pg, bot_delay=0, test_mode=True, limits=limits) for _ in range(2))
    with TestClient(one) as a, TestClient(two) as b:
        hub_a, hub_b = one.state.hub, two.state.hub
        made = [a.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "Kari", "seed": i,
                                           "seats": [{"kind": "human"}, {"kind": "bot"}]}).json()
                for i in range(3)]
        tids = {m["table"] for m in made}
        assert tids <= set(hub_a.tables)  # made there: owned and held there
        assert not tids & set(hub_b.tables)  # nothing copied to the other worker
        tid, token = made[0]["table"], made[0]["token"]
        with b.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN)) as host:  # the host sits at the second worker
            host.send_json({"type": "hello", "token": token})
            assert host.receive_json()["table"] == tid
            assert tid in hub_b.tables and not (tids - {tid}) & set(hub_b.tables)
            host.send_json({"type": "start"})
            bot_moved = False
            while not bot_moved:  # the bot plays at its owner (the first worker); the second's copy follows
                f = host.receive_json()
                obs = f.get("obs") or {}
                bot_moved = any(e["seat"] == 1 for e in obs.get("log", ()))
                if f["status"] == "playing" and obs.get("legal") and obs.get("to_act") == 0:
                    host.send_json({"type": "move", "game": f["game"], "seq": f["seq"], "move": obs["legal"][0]})
            assert not (tids - {tid}) & set(hub_b.tables)
        portal = b.portal
        assert portal is not None
        wait_until(lambda: tid not in portal.call(_evict, hub_b), "the unused copy dropped")
        assert tids <= set(hub_a.tables)  # the owner keeps its tables


async def _evict(hub: object) -> set[str]:
    hub.evict()  # type: ignore[attr-defined]
    return set(hub.tables)  # type: ignore[attr-defined]


def test_workers_started_together_split_the_leases_that_ran_out() -> None:
    """A worker takes one in as many leases that ran out as there are live workers (rounded
    up), so workers started together on an old log each hold their share, not one all."""
    with temporary_server() as url:
        store = PgStore(url)
        try:
            for i in range(9):
                store.append(f"old{i}", 0, {"type": "create"})
            store.adopt_unleased()  # a log from before: every lease has run out
            first = store.take_expired("w1", 30, share=2)
            second = store.take_expired("w2", 30, share=2)
            assert len(first) == 5 and len(second) == 2  # 9/2 and then 4/2, rounded up
            assert not set(first) & set(second)
            assert store.take_expired("w2", 30) == sorted({f"old{i}" for i in range(9)} - set(first) - set(second))
        finally:
            store.close()
