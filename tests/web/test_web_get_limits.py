"""GET floods contained: every request pays a per-address bucket by its cost (pages and
static files, replays and records, analyses), a replay is built once per game, the table
cap answers 503 with Retry-After, a head over ``max_head`` is refused even when it comes
whole in one send, and one address may open a documented burst of sockets at once.
The limiter's decisions are asserted as counts, never as latencies."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web_hardening_server import Server, wait_closed
from web_helpers import Player, create, first_legal

import mattis.web.app as web_app
from mattis.web.app import create_app
from mattis.web.doorman import Doorman, head_size
from mattis.web.limits import TEST_SERVER, Limits
from mattis.web.rates import Gate, cost_class
from mattis.web.view import replay_steps


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_cost_class_has_its_own_bucket_per_address() -> None:
    clock = Clock()
    hub = Gate(Limits(), clock)
    replay = "/api/tables/abc/games/1/replay"
    # 20 connections on a replay from one address: the burst of 20 at once, the next two wait
    # their turn (1 s, 2 s: up to get_wait), the rest are refused.
    decisions = [hub.admit("10.0.0.1", "GET", replay) for _ in range(25)]
    assert decisions == [(0.0, "")] * 20 + [(1.0, ""), (2.0, "")] + [(3.0, "web.refused.slow_down")] * 3
    wait, key = hub.admit("10.0.0.1", "GET", "/api/tables/abc/games/1/record")  # records share the bucket
    assert wait == 3.0 and key == "web.refused.slow_down"
    assert hub.refused == {"heavy": 4}
    # The same address still gets the page and static files, and may still ask for an analysis.
    assert hub.admit("10.0.0.1", "GET", "/static/app.js") == (0.0, "")
    assert hub.admit("10.0.0.1", "GET", "/api/tables/abc/games/1/analysis") == (0.0, "")
    # Another address is not touched by the first one's flood.
    assert all(hub.admit("10.0.0.2", "GET", replay) == (0.0, "") for _ in range(20))
    clock.now += 3.0  # three seconds later: one more at once, two more waiting their turn
    assert [hub.admit("10.0.0.1", "GET", replay)[1] for _ in range(5)].count("") == 3
    # Pages and static files: a burst of 1,200 (150 page loads), then 100 a second (200 more waiting up to 2 s).
    assert [hub.admit("10.0.0.3", "GET", "/")[1] for _ in range(1500)].count("") == 1400
    # POSTs pay the API bucket and never wait; a new table pays the creation bucket as well.
    assert [hub.admit("10.0.0.4", "POST", "/api/tables") == (0.0, "") for _ in range(25)].count(True) == 20
    assert hub.admit("10.0.0.4", "POST", "/api/tables")[1] == "web.refused.too_many_tables"
    assert hub.refused["create"] == 6 and hub.refused["get"] == 100 and hub.refused["heavy"] == 6


def test_the_cost_classes() -> None:
    assert cost_class("GET", "/api/tables/x/games/2/replay") == "heavy"
    assert cost_class("GET", "/api/tables/x/games/2/record") == "heavy"
    assert cost_class("GET", "/api/tables/x/games/2/analysis") == "analysis"
    assert cost_class("HEAD", "/static/style.css") == "get"
    assert cost_class("GET", "/api/tables/x/rules") == "get"
    assert cost_class("POST", "/api/tables/x/join") == "api"


def finished_table(client: TestClient) -> str:
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], seed=4)
    p = Player(client, t["table"], t["token"])
    try:
        p.sync()
        p.send({"type": "start"})
        f = p.until(lambda g: g.get("status") in ("playing", "over"))
        while f["status"] != "over":
            if f["obs"]["to_act"] == 0:
                p.move(first_legal(f), seq=f["seq"], game=f["game"])
            f = p.recv()
    finally:
        p.close()
    return str(t["table"])


def test_replays_are_rate_limited_and_built_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []

    def counting(text: str, names: list[str], lang: Any, by: dict[int, str] | None = None) -> list[dict[str, Any]]:
        built.append(1)
        return replay_steps(text, names, lang, by)

    monkeypatch.setattr(web_app, "replay_steps", counting)
    limits = Limits(**{**TEST_SERVER, "heavy_burst": 5.0, "heavy_rate": 1e-6, "get_wait": 0.01})
    app = create_app(str(tmp_path / "g.db"), bot_delay=0, test_mode=True, limits=limits)
    with TestClient(app) as client:
        tid = finished_table(client)
        url = f"/api/tables/{tid}/games/1/replay"
        answers = [client.get(url) for _ in range(8)]
        assert [r.status_code for r in answers] == [200] * 5 + [429] * 3
        assert answers[0].json()["steps"] and answers[4].content == answers[0].content
        assert int(answers[5].headers["retry-after"]) >= 1 and "too many requests" in answers[5].json()["error"]
        assert built == [1]  # five answers, one replay built
        assert client.get(f"/api/tables/{tid}/games/1/record").status_code == 429  # the same bucket
        # Another address gets the replay, from the cache; the flooder still gets the page.
        other = TestClient(app, client=("10.0.0.9", 5000))
        assert other.get(url).status_code == 200 and built == [1]
        assert client.get("/").status_code == 200
        assert app.state.hub.limits.heavy_burst == 5.0


def test_a_full_server_answers_503_with_retry_after(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "f.db"), bot_delay=0, test_mode=True,
                     limits=Limits(**{**TEST_SERVER, "max_tables": 1}))
    body = {"preset": "mattis", "players": 2, "name": "A", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    with TestClient(app) as client:
        assert client.post("/api/tables", json=body).status_code == 200
        r = client.post("/api/tables", json={**body, "lang": "nb"})
        assert r.status_code == 503 and int(r.headers["retry-after"]) == web_app.FULL_RETRY_AFTER
        assert r.json()["error"] == "tjeneren har for mange bord nå; prøv igjen senere"


def test_head_size_counts_the_head_not_the_body() -> None:
    head = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    assert head_size(0, b"", head + b"body" * 100) == len(head)
    assert head_size(0, b"", b"GET / HTTP/1.1\r\nX: " + b"a" * 40_000) == 40_019
    # The blank line split over two sends.
    first = b"GET / HTTP/1.1\r\nHost: x\r\n"
    assert head_size(len(first), first[-3:], b"\r\nrest") == len(first) + 2


class Proto:
    """A socket as the doorman sees it."""


def test_one_address_may_open_a_burst_of_sockets_at_once() -> None:
    clock = Clock()
    limits = Limits()
    door = Doorman(limits, clock)
    # A club of 150 behind one NAT opens the page and its WebSocket at once: 300 handshakes.
    club = [Proto() for _ in range(300)]
    assert sum(len(door.arrive(p, "10.1.1.1")) for p in club) == 0
    # Past max_silent_per_address + handshake_burst that address's own oldest makes room.
    more = [Proto() for _ in range(60)]
    evicted = [e for p in more for e in door.arrive(p, "10.1.1.1")]
    assert len(evicted) == 300 + 60 - limits.max_silent_per_address - int(limits.handshake_burst)
    assert evicted == club[:len(evicted)]
    # Another address's visitor is never the one closed.
    visitor = Proto()
    assert door.arrive(visitor, "10.2.2.2") == [] and visitor in door.silent
    for p in club + more:
        door.leave(p)
    clock.now += 1.0  # ten handshakes of the burst came back
    again = [Proto() for _ in range(limits.max_silent_per_address + 12)]
    assert sum(len(door.arrive(p, "10.1.1.1")) for p in again) == 2


def test_a_whole_head_over_max_head_in_one_send_is_refused(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        big = socket.create_connection(("127.0.0.1", server.port))
        big.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 40_000 + b"\r\n\r\n")
        assert wait_closed(big).startswith(b"HTTP/1.1 431")
        ok = socket.create_connection(("127.0.0.1", server.port))
        ok.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 30_000 + b"\r\n"
                   b"Connection: close\r\n\r\n")
        assert wait_closed(ok).startswith(b"HTTP/1.1 200")
    finally:
        log = server.stop()
    assert "Traceback" not in log
