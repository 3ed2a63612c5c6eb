"""Every field of every message a page sends is held to its type (the one declaration,
mattis.web.messages.MESSAGES): a value of a wrong type is refused in words, in the sender's
language, with the table unchanged and the socket open; on the server and in the offline app.
A message type or field added to MESSAGES is covered here without a change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from web_helpers import ORIGIN, Player, Web, join

from mattis.core.cards import Lang
from mattis.core.text import say
from mattis.web.messages import FLAG, INT, KINDS, MESSAGES, TEXT, TEXTS, Kind, fields
from mattis.web.solo import LANGS, Solo

WRONG: dict[Kind, list[Any]] = {
    INT: [True, False, 1.5, 2.0, "1", [1], {"n": 1}],  # a bool is an int in Python, not here
    TEXT: [1, True, 1.5, ["move"], {"text": "x"}],
    FLAG: [1, 0, "true", [True], {"on": True}],
    TEXTS: ["4C", [1], ["4C", 5], [["4C"]], {"0": "4C"}],
}
"""Values of the wrong type for each kind of field (a kind without an entry fails the test
below: a new kind must say what is wrong for it)."""

CASES = [(kind, field) for kind in MESSAGES for field in fields(kind)]


def test_every_kind_of_field_has_wrong_values() -> None:
    assert set(WRONG) == set(KINDS)
    for kind, values in WRONG.items():
        assert values and not any(kind.test(v) for v in values), kind


def refusal(kind: str, field: str, lang: Lang) -> str:
    """The words a wrong ``field`` of a ``kind`` message is refused with."""
    return say(f"web.refused.{fields(kind)[field].refusal}", lang, field=field, message=kind)


def test_the_refusal_says_which_field_and_what_it_must_be() -> None:
    assert refusal("move", "game", "en") == '"game" in a "move" message must be a whole number'
    assert refusal("move", "game", "nb") == "«game» i en «move»-melding må være et heltall"
    assert refusal("pause", "paused", "en") == '"paused" in a "pause" message must be true or false'
    assert refusal("react", "emote", "nb") == "«emote» i en «react»-melding må være tekst"


def state(f: dict[str, Any]) -> tuple[Any, ...]:
    """What a wrong message must not change: the game, the move, the status, the pause, the seats."""
    return (f.get("game"), f.get("seq"), f.get("status"), f.get("paused"),
            json.dumps(f.get("seats"), sort_keys=True), json.dumps((f.get("obs") or {}).get("hand"), sort_keys=True))


def told(p: Player, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``msg`` then a ``sync``: the frames with a refusal that came before the sync's answer
    (so a message the server ignores fails here instead of waiting)."""
    p.send(msg)
    p.echo = getattr(p, "echo", 0) + 1
    p.send({"type": "sync", "echo": p.echo})
    refused = []
    while (f := p.recv()).get("echo") != p.echo:
        if "error" in f:
            refused.append(f)
    return refused


@pytest.mark.parametrize(("kind", "field"), CASES)
def test_a_wrong_type_is_refused_in_words_on_the_server(web: Web, kind: str, field: str) -> None:
    body = {"preset": "mattis", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Anne",
            "seed": 4}
    t = web.client.post("/api/tables", json=body).json()
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host = web.player(t["table"], t["token"], "en")
    friend = web.player(t["table"], ola["token"], "nb")
    host.send({"type": "start"})
    before = {p: state(p.until(lambda f: f.get("status") == "playing")) for p in (host, friend)}
    for value in WRONG[fields(kind)[field]]:
        if kind == "hello":  # the first message: refused in words, then the socket is closed
            with web.client.websocket_connect(f"/ws/{t['table']}", headers=dict(ORIGIN)) as ws:
                ws.send_text(json.dumps({"type": "hello", "token": t["token"], "lang": "nb", field: value}))
                said = json.loads(ws.receive_text())
                lang: Lang = "en" if field == "lang" else "nb"
                assert said == {"type": "refused", "error": refusal(kind, field, lang)}, (field, value)
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == 4400
            continue
        langs: tuple[tuple[Player, Lang], ...] = ((host, "en"), (friend, "nb"))
        for p, lang in langs:
            [f] = told(p, {"type": kind, field: value})
            assert f["error"] == refusal(kind, field, lang), (kind, field, value)
            assert state(f) == before[p], (kind, field, value)
    for p in (host, friend):  # both sockets are open and the table is as it was
        assert state(p.sync()) == before[p]


@pytest.mark.parametrize(("kind", "field"), CASES)
def test_a_wrong_type_is_refused_in_words_in_the_offline_app(kind: str, field: str) -> None:
    solo = Solo()
    status, body = solo.request("POST", "/api/tables", json.dumps({
        "preset": "mattis", "players": 2, "name": "Anne", "seed": 4,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}))
    assert status == 200, body
    tid = json.loads(body)["table"]
    solo.message(tid, '{"type":"start"}', "en")
    before = state(json.loads(solo.view(tid, "en")))
    for value in WRONG[fields(kind)[field]]:
        for lang in LANGS:
            text, changed = solo.message(tid, json.dumps({"type": kind, field: value}), lang)
            assert text is not None and not changed, (kind, field, value)
            f = json.loads(text)
            assert f["error"] == refusal(kind, field, lang), (kind, field, value)
            assert state(f) == before
