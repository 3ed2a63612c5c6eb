"""Hardening of the web server, in process (loopback only, bounded in count and time):
hosts and origins, sizes, malformed input, rates, table creation, retention."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import ORIGIN, FakeClock, Player, create, join

from mattis.web import guard, retention
from mattis.web.app import create_app
from mattis.web.limits import Limits
from mattis.web.netlog import NetworkEvents
from mattis.web.origin import Hosts, origin_ok
from mattis.web.rates import Flood, Gate
from mattis.web.store import Store
from mattis.web.untrusted import clip, loads
from tiers import HUNG

JSON = {"content-type": "application/json"}


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Any]:
    """``app_with(**limits)``: a TestClient on a fresh app with those limits."""
    clients: list[TestClient] = []

    def make(**changes: Any) -> TestClient:
        app = create_app(str(tmp_path / f"h{len(clients)}.db"), bot_delay=0, test_mode=True,
                         limits=Limits(**changes))
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.__exit__(None, None, None)


@pytest.fixture
def no_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail if anything was logged at ERROR or above (a traceback is logged at ERROR)."""
    caplog.set_level(logging.WARNING)
    yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


def spectator(client: TestClient, tid: str, headers: dict[str, str] | None = None) -> Player:
    p = Player.__new__(Player)
    p.cm = client.websocket_connect(f"/ws/{tid}", headers=headers or dict(ORIGIN))
    p.ws = p.cm.__enter__()
    p.ws.send_json({"type": "hello"})
    p.raw, p.last = [], {}
    return p


def closed_with(p: Player) -> int:
    """Read until the server closes the socket; its close code."""
    with pytest.raises(WebSocketDisconnect) as e:
        for _ in range(10_000):
            p.raw.append(p.ws.receive_text())
    p.close()
    return int(e.value.code)


# ---------------------------------------------------------------- units


def test_token_buckets_pace_a_connection_and_its_address() -> None:
    clock = FakeClock()
    limits = Limits(message_rate=2, message_burst=4, sync_rate=1, sync_burst=2, address_rate=3,
                          address_burst=6, max_wait=2, flood_after=5, flood_forgive=10)
    hub = Gate(limits, clock)
    a = hub.pace("10.0.0.1")
    # The burst goes through at once, then each message waits its turn at the rate.
    assert [a.wait('{"type":"move"}') for _ in range(4)] == [0, 0, 0, 0]
    assert a.wait('{"type":"move"}') == pytest.approx(0.5)
    clock.now += 10  # a quiet while refills the buckets
    assert a.wait('{"type":"move"}') == 0
    # A sync also pays the smaller sync bucket.
    assert [a.wait('{"type":"sync"}') for _ in range(2)] == [0, 0]
    assert a.wait('{"type":"sync"}') == pytest.approx(1.0)
    # Connections from one address share its bucket; another address has its own.
    clock.now += 10
    b, c = hub.pace("10.0.0.1"), hub.pace("10.0.0.1")
    waits = [p.wait("x") for _ in range(3) for p in (b, c)]
    assert waits[:6] == [0] * 6 and b.wait("x") > 0
    assert hub.pace("10.0.0.2").wait("x") == 0
    # An address that keeps sending past what it can wait off is a flood.
    with pytest.raises(Flood):
        for _ in range(20):
            c.wait("x")


def test_untrusted_json_is_bounded() -> None:
    assert loads('{"a": [1, 2.5, "x", true, null]}') == {"a": [1, 2.5, "x", True, None]}
    for text in ('{"players": ' + "1" * 5000 + "}", "[" * 100_000 + "]" * 100_000, "[" * 20 + "]" * 20,
                 '{"a": NaN}', '{"a": Infinity}', '{"a": 1e999}', "{", b'{"a": "\xff"}'):
        with pytest.raises((json.JSONDecodeError, UnicodeDecodeError)):
            loads(text)
    assert clip("x" * 5_000_000) == "x" * 120 + "…"
    assert clip(7) == 7 and clip("short") == "short"


def test_origin_must_be_an_allowed_host_with_the_exact_scheme_and_port() -> None:
    hosts = Hosts(["localhost", "127.0.0.1", "mattis.example.org"])

    def scope(scheme: str, host: str, origin: str | None) -> dict[str, Any]:
        headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else [])
        return {"type": "websocket", "scheme": scheme, "headers": headers}

    ok = [("ws", "127.0.0.1:8000", "http://127.0.0.1:8000"), ("ws", "localhost:8000", "http://localhost:8000"),
          ("wss", "mattis.example.org", "https://mattis.example.org"),
          ("wss", "mattis.example.org:443", "https://mattis.example.org")]
    bad = [("ws", "127.0.0.1:8000", "https://127.0.0.1:8000"),   # the scheme differs
           ("wss", "mattis.example.org", "http://mattis.example.org"),
           ("ws", "127.0.0.1:8000", "http://127.0.0.1:3000"),    # another port (another site) on this host
           ("ws", "rebind.evil.example:8000", "http://rebind.evil.example:8000"),  # DNS rebinding: Host = Origin
           ("ws", "127.0.0.1:8000", "http://evil.example"), ("ws", "127.0.0.1:8000", None),
           ("ws", "127.0.0.1:8000", "null"), ("ws", "127.0.0.1:8000", "http://127.0.0.1:99999"),
           ("ws", "127.0.0.1:8000", "http://user@127.0.0.1:8000")]
    assert all(origin_ok(scope(*case), hosts) for case in ok)
    assert not any(origin_ok(scope(*case), hosts) for case in bad)
    # Bound to every interface, any IP address is a name of this server, but no other name is.
    home = Hosts.default("0.0.0.0")
    assert home.allowed("192.168.1.23") and home.allowed("localhost") and not home.allowed("rebind.evil.example")
    assert not Hosts.default("127.0.0.1").allowed("192.168.1.23")
    assert Hosts.default("127.0.0.1", ["Mattis.Example.org"]).allowed("mattis.example.org")


# ---------------------------------------------------------- through the app


def test_unknown_hosts_and_foreign_origins_are_refused(app_with: Any, no_errors: None) -> None:
    client = app_with()
    assert client.get("/").status_code == 200
    r = client.get("/", headers={"host": "rebind.evil.example"})
    assert r.status_code == 421 and "--allowed-host" in r.json()["error"]
    r = client.post("/api/tables", headers={"host": "rebind.evil.example", "accept-language": "nb-NO,nb;q=0.9"},
                    json={"preset": "mattis", "players": 2, "name": "A"})
    assert r.status_code == 421 and "svarer ikke" in r.json()["error"]
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}])
    for headers in ({"origin": "https://testserver"}, {"origin": "http://testserver:8080"},
                    {"origin": "http://evil.example"}, {"host": "evil.example", "origin": "http://evil.example"}, {}):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{t['table']}", headers=headers) as ws:
            ws.receive_json()
    watcher = spectator(client, str(t["table"]))
    assert watcher.recv()["status"] in ("lobby", "playing")
    watcher.close()


def test_oversized_input_is_refused_and_never_echoed(app_with: Any, no_errors: None) -> None:
    client = app_with()
    huge = {"preset": "mattis", "players": 2, "name": "A", "overrides": {"x" * 5_000_000: 1}}
    r = client.post("/api/tables", content=json.dumps(huge), headers=JSON)
    assert r.status_code == 413 and len(r.content) < 200 and r.json()["error"] == "the request is too large"
    # Under the size limit but long: the refusal quotes at most a short piece of it.
    r = client.post("/api/tables", json={**huge, "overrides": {"y" * 40_000: 1}})
    assert r.status_code == 400 and len(r.content) < 400 and "yyyy" in r.json()["error"]
    r = client.post("/api/tables", json={**huge, "overrides": {}, "name": "Z" * 50_000})
    assert r.status_code == 200  # a long name is cut to 24 characters, not refused
    # A lying Content-Length is refused before the body is read.
    r = client.post("/api/tables", content=b"{}", headers={**JSON, "content-length": "99999999999999"})
    assert r.status_code in (400, 413)
    # A WebSocket message over the limit closes the socket with 1009 (message too big).
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}])
    p = spectator(client, str(t["table"]))
    p.recv()
    p.ws.send_text(json.dumps({"type": "sync", "pad": "x" * 10_000}))
    assert closed_with(p) == guard.CLOSE_TOO_BIG


BAD_BODIES: list[bytes] = [
    b'{"preset": "mattis", "players": ' + b"9" * 5000 + b', "name": "A"}',
    b"[" * 50_000 + b"]" * 50_000,
    b'{"a": ' + b"[" * 30 + b"]" * 30 + b"}",
    b'{"preset": "mattis", "players": NaN, "name": "A"}',
    b'{"preset": "mattis", "players": 1e400, "name": "A"}',
    b'{"preset": "mattis", "name": "\xff\xfe"}',
    b"", b"null", b"[1, 2]", b'"text"', b"{",
]
WRONG_TYPES: list[dict[str, Any]] = [
    {"preset": 7}, {"preset": ["mattis"]}, {"preset": "nosuch"}, {"players": "3"}, {"players": 2.5},
    {"players": True}, {"players": -1}, {"players": 10**20}, {"seats": "x"}, {"seats": [1, 2]},
    {"seats": [{"kind": "human"}, {"kind": "alien"}]}, {"seats": [{"kind": "human"}, {"kind": "bot", "level": ["x"]}]},
    {"name": 5}, {"name": {"x": 1}}, {"name": ""}, {"overrides": [1]}, {"overrides": "sequences"},
    {"overrides": {"sequences": [1]}}, {"overrides": {"sequences": {"a": 1}}}, {"overrides": {"": 1}},
    {"grace": "x"}, {"grace": -1}, {"grace": 1e300}, {"grace": [60]}, {"seed": "1"},
]


def test_malformed_requests_get_a_clear_4xx_and_no_traceback(app_with: Any, no_errors: None) -> None:
    client = app_with(api_burst=500, create_burst=500)  # this test sends many requests on purpose
    for raw in BAD_BODIES:
        r = client.post("/api/tables", content=raw, headers=JSON)
        assert 400 <= r.status_code < 500 and r.json()["error"], raw[:40]
    r = client.post("/api/tables", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 400 and r.json()["error"] == "send JSON"
    base = {"preset": "mattis", "players": 2, "name": "A", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    answers = {json.dumps(change): client.post("/api/tables", json={**base, **change}) for change in WRONG_TYPES}
    wrong = {k: r.status_code for k, r in answers.items() if not 400 <= r.status_code < 500}
    assert not wrong
    assert all(isinstance(r.json()["error"], str) for r in answers.values())
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "human"}])
    for change in ({"invite": 5}, {"invite": None}, {"invite": t["invite"], "name": ["x"]}, {"invite": "x" * 9000}):
        r = client.post(f"/api/tables/{t['table']}/join", json=change)
        assert 400 <= r.status_code < 500 and r.json()["error"], change
    for path in (f"/api/tables/{t['table']}/games/x/record", f"/api/tables/{t['table']}/games/{'9' * 5000}/record",
                 f"/api/tables/{t['table']}/games/-1/record", "/api/tables/" + "z" * 3000 + "/games/1/record",
                 "/nosuch", "/static/" + "%00" * 10):
        assert 400 <= client.get(path).status_code < 500, path[:60]


def test_malformed_websocket_messages_are_refused_or_closed_without_traceback(app_with: Any,
                                                                              no_errors: None) -> None:
    client = app_with()
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "human"}])
    tok = join(client, str(t["table"]), str(t["invite"]), "Bo")["token"]
    tid = str(t["table"])
    # A hello that cannot be read closes the socket with 4400; a binary hello too.
    for hello in ('{"token": ' + "1" * 5000 + "}", "[" * 5000, "{", '{"lang": NaN}'):
        with client.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN)) as ws:
            ws.send_text(hello)
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_text()
            assert e.value.code == 4400
    with client.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN)) as ws:
        ws.send_bytes(b'{"type": "hello"}')
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_text()
        assert e.value.code == 4400
    # In play: every malformed request is answered with a reason and the connection goes on.
    p = Player(client, tid, tok)
    p.recv()
    for text in ("{", "[1]", '"sync"', "null", '{"type": ' + "[" * 40 + "]" * 40 + "}",
                 '{"type": "sync", "echo": ' + "7" * 5000 + "}", '{"type": "move", "game": "x", "seq": [], "move": 5}',
                 '{"type": "move", "game": 1, "seq": 0, "move": {"a": 1}}', '{"type": ["sync"]}',
                 '{"type": "nosuch"}', '{"type": "start", "level": {"x": 1}}', '{"type": "seat", "seat": "x"}',
                 '{"type": "move", "seat": [0], "move": "play 4C"}', "\u0000\ud7ff"):
        p.ws.send_text(text)
        f = p.until(lambda f: "error" in f)
        assert isinstance(f["error"], str) and len(f["error"]) < 200, text[:40]
        p.last = {}
    assert p.sync()["status"] == "lobby"
    # Binary data in play closes with 1003 (unsupported data).
    p.ws.send_bytes(b"\x00\x01")
    assert closed_with(p) == guard.CLOSE_UNSUPPORTED


def test_a_flood_is_slowed_then_closed_and_the_table_plays_on(app_with: Any, no_errors: None) -> None:
    # A spectator who knows only the table id sends 300 syncs at once (each would build a
    # whole frame): the first few are answered, the rest are read at the sync rate, and
    # after flood_after times over its rates the socket is closed with 4429.
    client = app_with(sync_rate=5, sync_burst=3, flood_after=10, address_rate=5, address_burst=10)
    t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=3)
    tid = str(t["table"])
    flooder = spectator(client, tid)
    flooder.recv()
    for n in range(300):
        flooder.ws.send_text(json.dumps({"type": "sync", "echo": n}))
    assert closed_with(flooder) == guard.CLOSE_FLOOD
    answered = [json.loads(text)["echo"] for text in flooder.raw if '"echo"' in text]
    assert answered == list(range(len(answered))) and len(answered) <= 3 + 10 + 1
    # The address is busy now, but a quiet connection from it is only slowed, never closed:
    # the table's host connects and plays.
    host = Player(client, tid, str(t["token"]))
    host.send({"type": "start"})
    assert host.until(lambda f: f.get("status") == "playing")["obs"]["hand"]
    assert host.sync()["status"] == "playing"
    host.close()


def test_table_creation_is_rate_limited_per_address_and_in_all(tmp_path: Path, no_errors: None) -> None:
    limits = Limits(create_burst=3, create_rate=1e-6, max_tables=6)
    app = create_app(str(tmp_path / "c.db"), bot_delay=0, test_mode=True, limits=limits)
    body = {"preset": "mattis", "players": 2, "name": "A", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    with TestClient(app) as one:
        assert [one.post("/api/tables", json=body).status_code for _ in range(3)] == [200] * 3
        r = one.post("/api/tables", json=body, headers={"accept-language": "nb"})
        assert r.status_code == 429 and r.json()["error"] == "for mange nye bord herfra; vent en stund og prøv igjen"
        # Another address still may, until the server holds max_tables.
        other = TestClient(app, client=("10.0.0.2", 4000))
        assert [other.post("/api/tables", json=body).status_code for _ in range(3)] == [200] * 3
        third = TestClient(app, client=("10.0.0.3", 4000))
        r = third.post("/api/tables", json=body)
        assert r.status_code == 503 and "too many tables" in r.json()["error"] and r.headers["retry-after"]
        assert len(app.state.hub.tables) == 6


def test_abandoned_tables_expire_and_live_ones_stay(tmp_path: Path, no_errors: None) -> None:
    db = tmp_path / "r.db"
    app = create_app(str(db), bot_delay=0, test_mode=True)
    with TestClient(app) as client:
        hub = app.state.hub
        lobby = create(client, "mattis", [{"kind": "human"}, {"kind": "human"}])["table"]
        started = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=2)
        watched = create(client, "hund", [{"kind": "human"}, {"kind": "human"}])["table"]
        host = Player(client, str(started["table"]), str(started["token"]))
        host.recv()
        host.send({"type": "start"})
        host.until(lambda f: f.get("status") == "playing")
        host.close()
        watcher = spectator(client, str(watched))
        watcher.recv()
        now = max(Store(str(db)).last_events().values())
        assert retention.sweep(hub, now + 3600) == []  # an hour later: all kept
        assert retention.sweep(hub, now + 25 * 3600) == [lobby]  # never started, a day old: gone
        assert set(hub.tables) == {started["table"], watched}
        month = now + 31 * 86400
        assert retention.sweep(hub, month) == [started["table"]]  # a month untouched: gone
        assert set(hub.tables) == {watched}  # someone is watching that one
        watcher.close()
        r = client.post(f"/api/tables/{lobby}/join", json={"invite": "x", "name": "Eve"})
        assert r.status_code == 404
    # Gone from the log too: a restarted server does not bring them back.
    assert set(Store(str(db)).last_events()) == {watched}
    with TestClient(create_app(str(db), bot_delay=0, test_mode=True)) as again:
        assert set(again.app.state.hub.tables) == {watched}  # type: ignore[attr-defined]


def test_limits_are_one_frozen_set_of_numbers() -> None:
    limits = Limits()
    assert all(isinstance(getattr(limits, f.name), int | float) for f in dataclasses.fields(limits))
    assert limits.max_silent_per_address < limits.max_silent < limits.max_connections


def test_bad_limit_flags_get_one_clear_line_and_a_nonzero_exit(tmp_path: Path) -> None:
    import subprocess
    import sys

    run = [sys.executable, "-c", "import sys; from mattis.cli.main import main; sys.exit(main(sys.argv[1:]))",
           "serve", "--port", "8799", "--db", str(tmp_path / "x.db")]
    for flags, words in ((["--limit", "nosuch=1"], "--limit takes NAME=VALUE"),
                         (["--limit", "message_rate=abc"], "must be a number"),
                         (["--limit", "max_body=1.5"], "must be a number (whole)"),
                         (["--limit", "max_wait=-1"], "must be above 0"),
                         (["--allowed-host", "a/b"], "takes a host name"),
                         (["--keep-days", "0"], "a number of days from 0.001"),
                         (["--max-connections", "3"], "a whole number from 16")):
        r = subprocess.run([*run, *flags], capture_output=True, text=True, timeout=HUNG)
        assert r.returncode != 0 and words in r.stderr and "Traceback" not in r.stderr, (flags, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("exc", [ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "pipe")])
def test_a_network_event_is_one_debug_line(exc: Exception, caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("mattis.test.network")
    logger.addFilter(NetworkEvents())
    try:
        with caplog.at_level(logging.WARNING, logger.name):
            try:
                raise exc
            except OSError:
                logger.exception("Exception in ASGI application\n")
        assert caplog.records == []  # below the server's level: nothing
        with caplog.at_level(logging.DEBUG, logger.name):
            try:
                raise exc
            except OSError:
                logger.exception("Exception in ASGI application\n")
        [record] = caplog.records
        assert record.levelno == logging.DEBUG and record.exc_info is None
        assert caplog.text.count("\n") == 1 and "Traceback" not in caplog.text
        assert type(exc).__name__ in record.getMessage()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger.name):  # a bug in the app keeps its traceback
            try:
                raise KeyError("seat")
            except KeyError:
                logger.exception("Exception in ASGI application\n")
        assert "Traceback" in caplog.text
    finally:
        logger.filters.clear()
