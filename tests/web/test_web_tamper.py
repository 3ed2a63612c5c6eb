"""A tampered client: every bad request is refused with a reason and the game goes on unharmed."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect
from web_helpers import ORIGIN, Web, create, first_legal, join, play_out, states_by_seq

from mattis.core import card_code, card_symbol, parse_card


def two_people(web: Web, seed: int = 11) -> tuple[dict[str, object], str]:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "human"}], seed=seed)
    tok1 = join(web.client, str(t["table"]), str(t["invite"]), "Bjørn")["token"]
    return t, tok1


def test_bad_requests_are_refused_with_reasons_and_change_nothing(web: Web) -> None:
    t, tok1 = two_people(web)
    tid = str(t["table"])
    p0, p1 = web.player(tid, str(t["token"])), web.player(tid, tok1, lang="nb")
    watcher = web.player(tid, None)
    p1.until(lambda f: f["seats"][1]["kind"] == "human")

    # Only the host starts.
    p1.send({"type": "start"})
    assert p1.until(lambda f: "error" in f)["error"] == "bare verten kan starte spillet"
    p0.send({"type": "start"})
    f0 = p0.until(lambda f: f["status"] == "playing")
    to_act = f0["obs"]["to_act"]
    actor, other = (p0, p1) if to_act == 0 else (p1, p0)
    actor.until(lambda f: f["status"] == "playing")
    other.until(lambda f: f["status"] == "playing")
    hand = actor.last["obs"]["hand"]
    not_held = next(card_code(c) for c in range(52) if card_code(c) not in hand)
    seq0 = actor.last["seq"]

    def refused(conn: object, msg: dict[str, object]) -> str:
        conn.send(msg)  # type: ignore[attr-defined]
        f = conn.until(lambda f: "error" in f)  # type: ignore[attr-defined]
        assert f["seq"] == seq0 and f["game"] == 1
        conn.last = {k: v for k, v in f.items() if k != "error"}  # type: ignore[attr-defined]
        return str(f["error"])

    # An illegal move: the engine's reason.
    en_or_nb = refused(actor, {"type": "move", "game": 1, "seq": seq0, "move": f"play {not_held}"})
    shown = card_symbol(parse_card(not_held))
    assert en_or_nb in (f"you do not hold {shown}", f"du har ikke {shown}")
    # Nonsense, a move that cannot be read, a stale sequence number, a wrong game.
    assert "cannot read" in refused(p0, {"type": "move", "game": 1, "seq": seq0, "move": "play 1Z"}) or to_act != 0
    assert refused(actor, {"type": "move", "game": 1, "seq": seq0 - 1, "move": f"play {hand[0]}"}).startswith(
        ("that move was sent for a position", "trekket gjaldt"))
    assert refused(actor, {"type": "move", "game": 2, "seq": seq0, "move": f"play {hand[0]}"}).startswith(
        ("that move was sent for a position", "trekket gjaldt"))
    # Out of turn, and acting for another seat.
    other_hand = other.last["obs"]["hand"]
    assert refused(other, {"type": "move", "game": 1, "seq": seq0, "move": f"play {other_hand[0]}"}) in (
        "it is not your turn", "det er ikke din tur")
    assert refused(other, {"type": "move", "seat": to_act, "game": 1, "seq": seq0, "move": f"play {hand[0]}"}) in (
        "you can only act for your own seat", "du kan bare spille for din egen plass")
    # A spectator cannot play; junk is refused.
    assert refused(watcher, {"type": "move", "game": 1, "seq": seq0, "move": f"play {hand[0]}"}) == (
        "spectators cannot play")
    watcher.ws.send_text("{not json")
    assert watcher.until(lambda f: "error" in f)["error"] == "not a JSON message"
    watcher.last = {}
    assert refused(actor, {"type": "start"}) in ("the game has already started", "spillet har allerede startet")
    assert refused(actor, {"type": "rematch"}) in ("the game is still going", "spillet er ikke ferdig")

    # A doubled click: the same move twice with the same sequence number is applied once.
    move = first_legal(actor.last)
    actor.send({"type": "move", "game": 1, "seq": seq0, "move": move})
    actor.send({"type": "move", "game": 1, "seq": seq0, "move": move})
    applied = actor.until(lambda f: f["seq"] == seq0 + 1)
    assert "error" not in applied
    second = actor.until(lambda f: "error" in f)
    assert second["seq"] == seq0 + 1
    assert "trekket gjaldt" in second["error"] or "already changed" in second["error"]
    actor.last = {k: v for k, v in second.items() if k != "error"}

    # Nothing was harmed: play the game out; the record holds each accepted move once.
    last = play_out({0: p0, 1: p1}, [watcher])
    rec = web.client.get(f"/api/tables/{tid}/games/1/record")
    states = states_by_seq(rec.text)
    assert len(states) - 1 == last["seq"] and states[-1][0].is_over
    assert states[1][0].moves()[0][1].__str__() == move


def test_stolen_or_forged_tokens_give_nothing(web: Web) -> None:
    a = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=1)
    b = create(web.client, "hund", [{"kind": "human"}, {"kind": "bot"}], seed=2, name="Bo")
    # The host token of table A at table B: refused, connection closed.
    for token in (a["token"], "x" * 43, ""):
        ws = web.client.websocket_connect(f"/ws/{b['table']}", headers=dict(ORIGIN))
        with ws:
            ws.send_json({"type": "hello", "token": token})
            msg = ws.receive_json()
            assert msg == {"type": "refused", "error": "this seat token is not valid at this table"}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
    # An unknown table, and a bad invite code.
    ws = web.client.websocket_connect("/ws/nosuchtable", headers=dict(ORIGIN))
    with ws:
        ws.send_json({"type": "hello", "token": a["token"]})
        assert ws.receive_json()["error"] == "there is no such table"
    r = web.client.post(f"/api/tables/{b['table']}/join", json={"invite": a["invite"], "name": "Eve"})
    assert r.status_code == 400 and "not valid" in r.json()["error"]
    # Seat tokens are stored hashed: the database never holds the token itself.
    data = web.db.read_bytes() + (web.db.with_name(web.db.name + "-wal").read_bytes()
                                  if web.db.with_name(web.db.name + "-wal").exists() else b"")
    assert a["token"].encode() not in data and b["token"].encode() not in data


def test_other_origins_are_rejected(web: Web) -> None:
    a = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=1)
    for headers in ({"origin": "http://evil.example"}, {}):
        with pytest.raises(WebSocketDisconnect):
            with web.client.websocket_connect(f"/ws/{a['table']}", headers=headers) as ws:
                ws.receive_json()


def test_seeds_only_on_test_servers(tmp_path: object) -> None:
    from pathlib import Path

    from starlette.testclient import TestClient

    from mattis.web.app import create_app

    app = create_app(str(Path(str(tmp_path)) / "p.db"), bot_delay=0, test_mode=False)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "A", "seed": 1})
        assert r.status_code == 400 and "test servers" in r.json()["error"]
        r = client.post("/api/tables", json={"preset": "mattis", "players": 9, "name": "A"})
        assert r.status_code == 400 and r.json()["error"] == "mattis allows 2-6 players"
        r = client.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "A",
                                             "overrides": {"sequences": "seven"}})
        assert r.status_code == 400 and "sequences" in r.json()["error"]


def test_refusals_come_in_the_language_the_client_asked_for(web: Web) -> None:
    bad = {"preset": "mattis", "players": 9, "name": "A"}
    for lang, words in (("nb", "mattis er for 2-6 spillere"), ("en", "mattis allows 2-6 players"),
                        (None, "mattis allows 2-6 players")):
        r = web.client.post("/api/tables", json={**bad, "lang": lang})
        assert r.status_code == 400 and r.json()["error"] == words
    r = web.client.post("/api/tables/nosuchtable/join", json={"invite": "x", "name": "Eve", "lang": "nb"})
    assert r.status_code == 404 and r.json()["error"] == "det finnes ikke noe slikt bord"
    ws = web.client.websocket_connect("/ws/nosuchtable", headers=dict(ORIGIN))
    with ws:
        ws.send_json({"type": "hello", "lang": "nb"})
        assert ws.receive_json() == {"type": "refused", "error": "det finnes ikke noe slikt bord"}
    # A seated client that switches language is refused in the new one.
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=3)
    p = web.player(str(t["table"]), str(t["token"]))
    p.until(lambda f: f.get("type") == "state")
    p.send({"type": "rematch"})
    assert p.until(lambda f: "error" in f)["error"] == "no game to rematch yet"
    p.last = {}
    p.send({"type": "lang", "lang": "nb"})
    p.send({"type": "rematch"})
    assert p.until(lambda f: "error" in f)["error"] == "det er ikke noe spill å ta omkamp på ennå"
