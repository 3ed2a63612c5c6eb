"""kill -9 in the middle of a game: the restarted server has every table back exactly,
the players get their seats back with their tokens, bots resume, no move lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import first_legal, wait_up
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from mattis.core import GameRecord
from tiers import HUNG


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, bot_delay: str = "0.05") -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", str(db), "--bot-delay", bot_delay, "--test-mode"],
                            stdout=subprocess.DEVNULL, stderr=open(str(db) + ".log", "ab"))
    wait_up(proc, f"http://127.0.0.1:{port}", Path(str(db) + ".log"))
    return proc


class Seat:
    def __init__(self, port: int, tid: str, token: str) -> None:
        origin = Origin(f"http://127.0.0.1:{port}")
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{port}/ws/{tid}", origin=origin, open_timeout=HUNG)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.last: dict[str, Any] = {}
        self.n = 0

    def recv(self) -> dict[str, Any]:
        self.last = json.loads(self.ws.recv(timeout=HUNG))
        return self.last

    def sync(self) -> dict[str, Any]:
        self.n += 1
        self.ws.send(json.dumps({"type": "sync", "echo": self.n}))
        while self.recv().get("echo") != self.n:
            pass
        return self.last


def seen_moves(frames: list[dict[str, Any]], into: dict[int, str]) -> None:
    """Collect (index -> "seat move") from the move logs of frames."""
    for f in frames:
        obs = f.get("obs")
        if obs:
            for i, e in enumerate(obs["log"]):
                into[obs["log_start"] + i] = f"{e['seat']} {e['move']}"


def play_until(seats: dict[int, Seat], stop: int, log: dict[int, str]) -> dict[str, Any]:
    """Play first-legal moves until ``stop`` moves are made or the game ends (fails only a
    stuck game: tiers.HUNG)."""
    give_up = time.monotonic() + HUNG
    while time.monotonic() < give_up:
        f = {}
        for s in seats.values():
            f = s.sync()
            seen_moves([f], log)
        obs = f["obs"]
        if f["status"] == "over" or f["seq"] >= stop:
            return f
        who = seats.get(obs["to_act"])
        if who is not None and who.last["seq"] == f["seq"] and who.last["obs"]["legal"]:
            who.ws.send(json.dumps({"type": "move", "game": who.last["game"], "seq": who.last["seq"],
                                    "move": first_legal(who.last)}))
            who.recv()
        else:
            time.sleep(0.02)  # a bot is thinking
    raise AssertionError("the game got stuck")


def test_kill_9_mid_game_and_finish_after_restart(tmp_path: Path) -> None:
    db, port = tmp_path / "live.db", free_port()
    proc = start_server(db, port)
    try:
        base = f"http://127.0.0.1:{port}"
        t = httpx.post(f"{base}/api/tables", json={"preset": "mattis", "players": 3, "name": "Anne", "seed": 21,
                                                   "seats": [{"kind": "human"}, {"kind": "human"},
                                                             {"kind": "bot", "level": "easy"}]}).json()
        j = httpx.post(f"{base}/api/tables/{t['table']}/join", json={"invite": t["invite"], "name": "Bo"}).json()
        tokens = {0: t["token"], 1: j["token"]}
        seats = {i: Seat(port, t["table"], tok) for i, tok in tokens.items()}
        seats[0].sync()
        seats[0].ws.send(json.dumps({"type": "start"}))
        log: dict[int, str] = {}
        f = play_until(seats, 30, log)
        assert f["status"] == "playing"
        # A person to act sends a move and the server is killed at once: answered or not.
        while True:
            actor = seats.get(f["obs"]["to_act"])
            if actor is not None and actor.sync()["obs"]["legal"]:
                break
            f = play_until(seats, f["seq"] + 1, log)
        f = actor.last
        k, move = f["seq"], first_legal(f)
        actor.ws.send(json.dumps({"type": "move", "game": 1, "seq": k, "move": move}))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

        proc = start_server(db, port)
        seats = {i: Seat(port, t["table"], tok) for i, tok in tokens.items()}
        for i, s in seats.items():
            g = s.sync()
            assert g["you"] == i and g["game"] == 1 and g["status"] == "playing"
        after = seats[0].last["seq"]
        seen_moves([seats[0].last], log)
        assert after >= k
        if after == k:  # the move was not logged before the kill: nobody was told it happened
            assert log.get(k) is None
        # Sending it again for position k: applied once, never twice.
        actor = seats[f["obs"]["to_act"]]
        actor.ws.send(json.dumps({"type": "move", "game": 1, "seq": k, "move": move}))
        reply = actor.recv()
        while "error" not in reply and (reply["seq"] == k or after > k):  # (a seat reconnecting is news too)
            reply = actor.recv()
        if after == k:
            assert "error" not in reply and reply["seq"] >= k + 1
        else:
            # refused as stale; a bot may have moved on since the sync (the server resumes its turn)
            assert "already changed" in reply["error"] and reply["seq"] >= after
        final = play_until(seats, 10_000, log)
        assert final["status"] == "over"
        rec = httpx.get(f"{base}/api/tables/{t['table']}/games/1/record")
        assert rec.status_code == 200
        record = GameRecord.loads(rec.text)
        assert record.replay().is_over
        assert len(record.moves) == final["seq"]
        assert record.moves[k] == f"{f['obs']['to_act']} {move}"
        assert all(record.moves[i] == m for i, m in log.items()), "a move seen by the players differs from the log"
        for s in seats.values():
            s.ws.close()
    finally:
        proc.kill()
        proc.wait()
