"""The web tables on PostgreSQL: the event log's second-writer refusal, the leases, and
games played across two real worker processes (one of them killed with SIGKILL mid-game).

These tests start a throwaway PostgreSQL from the installed server binaries
(:func:`mattis.web.pgserver.temporary_server`, as the ``postgres`` user when run as
root) and skip, saying why, where there are none; CI installs them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_restart import Seat, free_port, play_until, seen_moves
from web_helpers import cards_in, first_legal, secret_cards, states_by_seq, wait_up

from mattis.core import GameRecord, card_code
from mattis.web.pgserver import bindir, temporary_server
from mattis.web.pgstore import PgStore
from mattis.web.store import StoreConflict
from tiers import HUNG, wait_until

pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg (the 'pg' extra)")
if bindir() is None:
    pytest.skip("no PostgreSQL server binaries (initdb, postgres); apt-get install postgresql",
                allow_module_level=True)


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with temporary_server() as url:
        yield url


def test_a_second_writer_of_the_same_event_number_is_refused_and_the_log_is_unchanged(pg: str) -> None:
    one, two = PgStore(pg), PgStore(pg)
    try:
        one.append("fork", 0, {"type": "create", "by": "one"})
        one.append("fork", 1, {"type": "move", "move": "play 7C"})
        with pytest.raises(StoreConflict):
            two.append("fork", 1, {"type": "move", "move": "play 8C"})
        assert two.events("fork") == [{"type": "create", "by": "one"}, {"type": "move", "move": "play 7C"}]
        two.append("fork", 2, {"type": "move", "move": "play 9C"})  # the next number is free for either
        assert [e["move"] for e in one.events("fork", 1)] == ["play 7C", "play 9C"]
    finally:
        one.close()
        two.close()


def test_a_lease_is_held_by_one_worker_until_it_stops_renewing(pg: str) -> None:
    store = PgStore(pg)
    try:
        assert store.claim("leased", "w1", 30)
        assert not store.claim("leased", "w2", 30)  # held
        assert store.take_expired("w2", 30) == [] or "leased" not in store.take_expired("w2", 30)
        assert store.renew("w1", 30) >= {"leased"}
        assert store.owner("leased") == "w1"
        assert store.claim("gone", "w1", 0.001)
        import time

        time.sleep(0.05)  # w1 stopped renewing "gone"
        assert "gone" in store.take_expired("w2", 30)
        assert store.owner("gone") == "w2"
        assert "gone" not in store.renew("w1", 30)  # the old owner learns it lost it
    finally:
        store.close()


# ----------------------------------------------------------------- two real workers
LEASE = "1.5"  # seconds: a killed owner's tables are taken over once it runs out (nothing waits on a clock)


def start_worker(url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """One ``mattis serve`` worker on its own port (the separate-ports layout behind a proxy)."""
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", url, "--bot-delay", "0.05", "--test-mode",
                             "--bot-processes", "0", "--limit", f"lease_seconds={LEASE}"],
                            stdout=subprocess.DEVNULL, stderr=open(log, "ab"))  # noqa: SIM115
    wait_up(proc, f"http://127.0.0.1:{port}", log)
    return proc


class Recorder(Seat):
    """A seat's connection that keeps every frame it receives (for the leak check)."""

    def __init__(self, port: int, tid: str, token: str) -> None:
        super().__init__(port, tid, token)
        self.raw: list[str] = []

    def recv(self) -> dict[str, Any]:
        text = str(self.ws.recv(timeout=HUNG))
        self.raw.append(text)
        self.last = json.loads(text)
        return self.last


def until_seen(seat: Seat, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Sync until the seat's frame satisfies ``pred`` (another worker's event has reached this one)."""
    return wait_until(lambda: seat.last if pred(seat.sync()) else None, f"seen by the seat (last: {seat.last})",
                      poll=0.01)


def logged_moves(url: str, tid: str) -> list[tuple[int, int, str]]:
    """(game, seq, "seat move") of every move event in the table's log, in log order."""
    store = PgStore(url)
    try:
        return [(e["game"], e["seq"], f"{e['seat']} {e['move']}") for e in store.events(tid) if e["type"] == "move"]
    finally:
        store.close()


def test_two_workers_one_table_and_a_kill_9_of_the_owner_loses_no_move(pg: str, tmp_path: Path) -> None:
    ports = [free_port(), free_port()]
    workers = [start_worker(pg, p, tmp_path / f"w{i}.log") for i, p in enumerate(ports)]
    seats: dict[int, Seat] = {}
    recorders: list[tuple[int, Seat]] = []
    try:
        a, b = (f"http://127.0.0.1:{p}" for p in ports)
        t = httpx.post(f"{a}/api/tables", json={"preset": "mattis", "players": 3, "name": "Anne", "seed": 33,
                                                "seats": [{"kind": "human"}, {"kind": "human"},
                                                          {"kind": "bot", "level": "easy"}]}).json()
        tid = t["table"]
        # Bo joins through the other worker, just after the table was made at the first.
        j = httpx.post(f"{b}/api/tables/{tid}/join", json={"invite": t["invite"], "name": "Bo"})
        assert j.status_code == 200, j.text
        tokens = {0: t["token"], 1: j.json()["token"]}
        seats = {0: Recorder(ports[0], tid, tokens[0]), 1: Recorder(ports[1], tid, tokens[1])}
        recorders = list(seats.items())
        assert seats[1].sync()["seats"][0]["name"] == "Anne"
        seats[0].sync()
        seats[0].ws.send(json.dumps({"type": "start"}))
        until_seen(seats[1], lambda g: g.get("status") == "playing")  # the deal reaches the other worker
        seen: dict[int, str] = {}
        f = play_until(seats, 24, seen)  # moves from both workers, the bot at the table's owner
        assert f["status"] == "playing" and f["seq"] >= 24
        assert {i: m for i, m in enumerate(g[2] for g in logged_moves(pg, tid))} == seen

        # Anne (on the owner) sends a move and the owner is killed at once: logged or not.
        while True:
            actor_seat = f["obs"]["to_act"]
            actor = seats.get(actor_seat)
            if actor_seat == 0 and actor is not None and actor.sync()["obs"]["legal"] \
                    and actor.last["seq"] == seats[1].sync()["seq"]:
                break
            f = play_until(seats, f["seq"] + 1, seen)
        f = seats[0].last
        k, move = f["seq"], first_legal(f)
        seats[0].ws.send(json.dumps({"type": "move", "game": 1, "seq": k, "move": move}))
        os.kill(workers[0].pid, signal.SIGKILL)
        workers[0].wait()
        seats[0].ws.close()

        # Anne's page reconnects, to the worker that is left; it takes the table over and its bot plays on.
        seats[0] = Recorder(ports[1], tid, tokens[0])
        recorders.append((0, seats[0]))
        g = seats[0].sync()
        assert g["you"] == 0 and g["game"] == 1 and g["status"] == "playing"
        seen_moves([g], seen)
        after = g["seq"]
        assert after >= k  # (past k if the new owner's bot has played on already)
        # Sending it again for position k: applied once, never twice.
        seats[0].ws.send(json.dumps({"type": "move", "game": 1, "seq": k, "move": move}))
        reply = seats[0].recv()
        while "error" not in reply and reply["seq"] == k:
            reply = seats[0].recv()
        if after == k:
            assert "error" not in reply and reply["seq"] >= k + 1
        else:
            assert "already changed" in reply["error"]
        final = play_until(seats, 10_000, seen)
        assert final["status"] == "over"
        rec = httpx.get(f"{b}/api/tables/{tid}/games/1/record")
        assert rec.status_code == 200
        record = GameRecord.loads(rec.text)
        assert record.replay().is_over and len(record.moves) == final["seq"]
        assert record.moves[k] == f"0 {move}"
        assert any(m.startswith("2 ") for m in record.moves[k + 1:]), "the bot did not play on at the new owner"
        logged = logged_moves(pg, tid)
        assert [(game, seq) for game, seq, _ in logged] == [(1, i) for i in range(len(record.moves))]
        assert [m for _, _, m in logged] == record.moves, "the log differs from the game's record"
        assert all(record.moves[i] == m for i, m in seen.items()), "a move the players saw differs from the log"
        # Each seat, on either worker, was sent its own view only.
        states = states_by_seq(rec.text)
        checked = 0
        for viewer, conn in recorders:
            assert isinstance(conn, Recorder)
            for raw in conn.raw:
                f = json.loads(raw)
                if f.get("status") not in ("playing", "over"):
                    continue
                st, public = states[f["seq"]]
                leaked = cards_in(f) & secret_cards(st, public, viewer)
                assert not leaked, f"seat {viewer} at move {f['seq']} was sent {sorted(leaked)}"
                assert sorted(f["obs"]["hand"]) == sorted(card_code(c) for c in st.hand(viewer))
                checked += 1
        assert checked > 40
    finally:
        for s in seats.values():
            with contextlib.suppress(Exception):
                s.ws.close()
        for w in workers:
            w.kill()
            w.wait()
