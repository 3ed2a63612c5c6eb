"""Refusals said plainly: who may change a seat or end the game, and which database a server reads."""

from __future__ import annotations

from typing import Any

from web_helpers import Player, Web, join


def told(p: Player) -> str:
    """The next refusal this connection is sent."""
    p.last = {}
    error: str = p.until(lambda f: "error" in f)["error"]
    return error


def _table(web: Web) -> tuple[dict[str, Any], dict[str, Any]]:
    body = {"preset": "mattis", "players": 3, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
            "name": "Anne", "seed": 4}
    r = web.client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    t: dict[str, Any] = r.json()
    return t, join(web.client, t["table"], t["invite"], "Ola")


def test_a_friend_changing_a_seat_or_ending_the_game_is_told_what_only_the_host_may_do(web: Web) -> None:
    t, ola = _table(web)
    friend = web.player(t["table"], ola["token"], "nb")
    friend.recv()
    friend.send({"type": "seat", "at": 2, "kind": "bot", "level": "easy"})
    assert told(friend) == "bare verten kan endre plassene"
    friend.send({"type": "lang", "lang": "en"})
    friend.recv()
    friend.send({"type": "seat", "at": 2, "kind": "open"})
    assert told(friend) == "only the host can change the seats"
    host = web.player(t["table"], t["token"])
    host.send({"type": "start"})
    friend.until(lambda f: f.get("status") == "playing")
    friend.send({"type": "end"})
    assert told(friend) == "only the host can end the game"
    friend.send({"type": "start"})  # and starting is still the host's, said as before
    assert told(friend) == "the game has already started"


def test_the_server_names_its_own_database_by_its_full_path(web: Web) -> None:
    """A page on a server started with another --db says which database that server reads: its full
    path (two databases may share a file name in different folders)."""
    db = web.client.get("/api/meta").json()["db"]
    assert db == str(web.db.resolve()) and db.startswith("/")
