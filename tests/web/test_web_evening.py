"""A real evening at the web table, through the WebSocket and HTTP API: a friend who is
away gets a bot for their turns and the seat back on return; the host changes seats,
re-invites, ends a game; two rematches at once; the rules in words; records with names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from web_helpers import CODE, Frame, Player, Web, create, first_legal, join

from mattis.core import GameRecord


def _table(web: Web, grace: int | None = 1, preset: str = "mattis", seed: int = 3) -> tuple[dict[str, Any], Player]:
    body = {"preset": preset, "players": 3, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}],
            "name": "Anne", "seed": seed, "grace": grace}
    r = web.client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    t: dict[str, Any] = r.json()
    host = web.player(t["table"], t["token"])
    host.recv()
    return t, host


def _friend_turn_or_over(f: Frame) -> bool:
    return f.get("status") == "over" or (f.get("status") == "playing" and f["obs"]["to_act"] == 1)


def test_a_bot_plays_for_an_absent_friend_and_hands_the_seat_back(web: Web) -> None:
    t, host = _table(web, grace=1)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    friend = web.player(t["table"], ola["token"])
    friend.recv()
    host.send({"type": "start"})
    host.until(lambda f: f.get("status") == "playing")
    friend.close()  # the phone is dropped
    web.players.remove(friend)
    # The host plays its own turns; the friend's seat is played by a stand-in bot after the grace period.
    stood_in_moves = 0
    since: int | None = None  # the move number when the stand-in was first seen
    for _ in range(400):
        f = host.sync()
        if f["status"] == "over":
            break
        if since is None and f["seats"][1]["standin"]:
            since = f["seq"]
        if since is not None:
            o = f["obs"]
            stood_in_moves = sum(1 for k, e in enumerate(o["log"]) if e["seat"] == 1 and o["log_start"] + k >= since)
            if stood_in_moves >= 2:
                break
        if f["obs"]["to_act"] == 0:
            host.move(first_legal(f))
        host.until(lambda g: g.get("seq") != f["seq"]  # noqa: B023
                   or g["seats"][1]["standin"] != f["seats"][1]["standin"])  # noqa: B023
    seen_standin = since is not None
    assert seen_standin, "no bot took over the absent friend's seat"
    assert stood_in_moves >= 1, "the stand-in bot made no move for the absent friend"
    # Everyone sees who plays the seat: the frame says the seat is stood in for.
    assert host.sync()["status"] == "playing" and host.last["seats"][1]["standin"] is True
    # Ola comes back on the same token: the seat is hers again, and her turn now waits for her.
    back = web.player(t["table"], ola["token"])
    f = back.until(lambda g: g.get("type") == "state" and g["seats"][1]["standin"] is False)
    assert f["you"] == 1
    for _ in range(400):
        f = host.sync()
        if _friend_turn_or_over(f):
            break
        if f["obs"]["to_act"] == 0:
            host.move(first_legal(f))
        host.until(lambda g: g.get("seq") != f["seq"])  # noqa: B023
    assert f["status"] == "playing", "the game ended before Ola's next turn (choose another seed)"
    seq = f["seq"]
    again = back.sync()
    assert again["obs"]["to_act"] == 1 and again["seq"] == seq  # nobody played Ola's turn for her
    back.move(first_legal(again))
    assert back.until(lambda g: g.get("seq", 0) > seq)["seats"][1]["standin"] is False


def test_grace_is_a_table_setting_and_never_is_allowed(web: Web) -> None:
    t, host = _table(web, grace=None)
    assert host.last["grace"] is None
    bad = web.client.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "A", "grace": 0,
                                               "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert bad.status_code == 400 and "1" in bad.json()["error"]
    default = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}])
    p = web.player(default["table"], default["token"])
    assert p.recv()["grace"] == 60


def test_the_host_changes_seats_before_the_start_and_removes_a_friend(web: Web) -> None:
    t, host = _table(web)
    host.send({"type": "seat", "at": 1, "kind": "bot", "level": "easy"})
    f = host.until(lambda g: g["seats"][1]["kind"] == "bot")
    assert f["seats"][1]["level"] == "easy"
    r = web.client.post(f"/api/tables/{t['table']}/join", json={"invite": t["invite"], "name": "Ola"})
    assert r.status_code == 400  # no free seat left: both others are bots
    host.send({"type": "seat", "at": 1, "kind": "open"})
    host.until(lambda g: g["seats"][1]["kind"] == "open")
    ola = join(web.client, t["table"], t["invite"], "Ola")
    friend = web.player(t["table"], ola["token"])
    assert friend.recv()["you"] == 1
    # Only the host may change seats.
    friend.send({"type": "seat", "at": 2, "kind": "open"})
    assert "host" in friend.until(lambda g: "error" in g)["error"]
    host.send({"type": "seat", "at": 1, "kind": "open"})  # Ola never came to the table: removed
    host.until(lambda g: g["seats"][1]["kind"] == "open")
    gone = web.player(t["table"], ola["token"])
    assert gone.recv()["type"] == "refused"
    host.send({"type": "start"})  # start without her: a bot takes the free seat
    f = host.until(lambda g: g.get("status") == "playing")
    assert f["seats"][1]["kind"] == "bot"


def test_reinvite_gives_a_new_resume_token_and_revokes_the_old(web: Web) -> None:
    t, host = _table(web)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    host.send({"type": "seat", "at": 1, "kind": "reinvite"})
    f = host.until(lambda g: "reinvite" in g)
    new_token = f["reinvite"]["token"]
    assert f["reinvite"]["seat"] == 1 and new_token != ola["token"]
    assert web.player(t["table"], ola["token"]).recv()["type"] == "refused"
    second_phone = web.player(t["table"], new_token)
    g = second_phone.recv()
    assert g["you"] == 1 and g["status"] == "playing" and g["obs"]["hand"]


def test_the_host_replaces_a_player_by_a_bot_and_ends_the_game(web: Web) -> None:
    t, host = _table(web, grace=None)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    host.send({"type": "seat", "at": 1, "kind": "bot", "level": "medium"})
    f = host.until(lambda g: g["seats"][1]["kind"] == "bot")
    assert f["seats"][1]["name"] == "Ola"  # everyone sees whose seat the bot now plays
    told = web.player(t["table"], ola["token"]).recv()  # her old link: she watches, and is told why
    assert told["type"] == "state" and told["you"] is None and told["given"] == 1 and not told["obs"].get("hand")
    f = host.sync()
    dealer = f["obs"]["dealer"]
    if f["status"] == "playing":
        host.send({"type": "end"})
        f = host.until(lambda g: g.get("status") == "ended")
        host.move(first_legal(f) if f["obs"]["legal"] else "chance")
        assert "over" in host.until(lambda g: "error" in g)["error"]
        assert f["tally"]["mattis"] == [0, 0, 0]  # nobody lost the ended game
    host.send({"type": "rematch", "game": f["game"]})
    g = host.until(lambda x: x.get("game") == 2 and x.get("status") in ("playing", "over"))
    if f["status"] == "ended":
        assert g["obs"]["dealer"] == dealer  # the same dealer deals again


def _away_until_over(web: Web, tid: str, *players: Player) -> Frame:
    """Everyone leaves; stand-in bots (grace 1 s) play the game out; a spectator sees the end."""
    for p in players:
        p.close()
        web.players.remove(p)
    watcher = web.player(tid, None)
    f = watcher.until(lambda g: g.get("status") == "over")
    watcher.close()
    web.players.remove(watcher)
    return f


def test_two_rematch_requests_at_once_make_one_new_game_and_no_error(web: Web) -> None:
    t, host = _table(web, grace=1, seed=5)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    assert _away_until_over(web, t["table"], host)["game"] == 1
    anne = web.player(t["table"], t["token"])
    friend = web.player(t["table"], ola["token"])
    anne.recv()
    friend.recv()
    anne.send({"type": "rematch", "game": 1})
    friend.send({"type": "rematch", "game": 1})
    for p in (anne, friend):
        f = p.sync()
        assert f["game"] == 2 and f["status"] in ("playing", "over")
        assert not any("error" in _loads(text) for text in p.raw)


def _loads(text: str) -> dict[str, Any]:
    import json

    d: dict[str, Any] = json.loads(text)
    return d


def test_meta_offers_every_house_rule_in_words_in_both_languages(web: Web) -> None:
    meta = web.client.get("/api/meta").json()
    ident = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")  # option identifiers like pickup_optional
    assert meta["options"]
    for opt in meta["options"]:
        for lang in ("nb", "en"):
            assert opt["label"][lang] and not ident.match(opt["label"][lang])
            for v in opt["values"]:
                assert v["text"][lang] and not ident.match(v["text"][lang])
        assert len({v["text"]["nb"] for v in opt["values"]}) == len(opt["values"])
    for name, p in meta["presets"].items():
        assert all(not ident.match(value) for _label, value in p["words"]["nb"]), name
        assert set(p["values"]) == {o["option"] for o in meta["options"]}
        for o in meta["options"]:  # the form can show each preset's own value (else it would change it)
            assert p["values"][o["option"]] in [v["value"] for v in o["values"]], (name, o["option"])
    assert meta["db"] == str(web.db.resolve())  # the full path: which web.db


def test_house_rules_chosen_in_the_form_are_the_rules_in_force(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}],
               overrides={"ties": "stoting", "pickup_optional": True, "sequences": 2})
    r = web.client.get(f"/api/tables/{t['table']}/rules").json()
    house_nb = dict(r["house"]["nb"])
    assert house_nb == {"Like høye kort": "støting", "Kan ta opp selv om du kan stikke": "ja",
                        "Serie/rad (minste lengde)": "2"}
    assert len(r["words"]["en"]) > len(r["house"]["en"])
    old = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], overrides={"ties": "stoting"})
    assert dict(web.client.get(f"/api/tables/{old['table']}/rules").json()["house"]["en"])
    assert web.client.get("/api/tables/nope/rules").status_code == 404


def test_a_refused_move_names_cards_as_on_the_cards(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=2)
    p = web.player(t["table"], t["token"], lang="nb")
    p.recv()
    p.send({"type": "start"})
    for _ in range(200):
        f = p.until(lambda g: g.get("status") in ("playing", "over"))
        f = p.sync()
        if f["status"] == "over":
            break
        if f["obs"]["to_act"] == 0:
            hand = set(f["obs"]["hand"])
            bad = [c for c in hand if f"play {c}" not in f["obs"]["legal"]]
            if bad:
                p.move(f"play {bad[0]}")
                err = p.until(lambda g: "error" in g)["error"]
                assert not any(CODE.match(w.strip(".,:;()")) for w in err.split()), err
                return
            p.move(first_legal(f))
            p.until(lambda g: g.get("seq") != f["seq"])  # noqa: B023
    # No position with an illegal card in hand came up in this deal: nothing to check.


def test_the_downloaded_record_carries_the_players_names(web: Web) -> None:
    t, host = _table(web, grace=1)
    join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    _away_until_over(web, t["table"], host)
    r = web.client.get(f"/api/tables/{t['table']}/games/1/record")
    assert r.status_code == 200
    data = r.json()
    assert data["names"] == ["Anne", "Ola", "Cato (bot)"]
    assert GameRecord.from_json(data).replay().is_over
    steps = web.client.get(f"/api/tables/{t['table']}/games/1/replay?lang=nb").json()["steps"]
    assert len(steps) == len(data["moves"]) + 1 and steps[0]["text"] == ""
    assert all(sum(len(h) for h in st["hands"]) <= 52 for st in steps)
    assert steps[1]["text"].startswith(("Anne ", "Ola ", "Cato (bot) "))  # the move in words
    assert not CODE.match(steps[1]["text"].split()[-1])  # cards as on the cards, not codes


def test_qr_codes_are_svg_and_bounded(web: Web) -> None:
    ok = web.client.post("/api/qr", json={"text": "http://testserver/t/abc#seat=xyz"})
    assert ok.status_code == 200 and ok.json()["svg"].startswith("<svg")
    big = web.client.post("/api/qr", json={"text": "x" * 5000})
    assert big.status_code == 400 and "x" * 50 not in big.text


def test_friends_may_start_when_the_host_has_left_the_lobby(web: Web) -> None:
    t, host = _table(web, grace=1)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    friend = web.player(t["table"], ola["token"])
    friend.recv()
    friend.send({"type": "start"})
    assert "host" in friend.until(lambda g: "error" in g)["error"]  # the host is here: only she starts
    host.close()
    web.players.remove(host)
    f = friend.until(lambda g: g.get("host_away") is True)  # after the grace period
    assert f["status"] == "lobby"
    friend.send({"type": "start"})
    assert friend.until(lambda g: g.get("status") == "playing")["seats"][2]["kind"] == "bot"


def test_bots_play_fast_once_no_person_is_left_to_act(web: Web) -> None:
    t, host = _table(web, grace=1)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    table = web.hub.tables[t["table"]]
    assert table.humans_to_play()  # Anne is at the table (and Ola's seat waits for her)
    host.close()  # everyone has left: after the grace period bots stand in for both
    web.players.remove(host)
    watcher = web.player(t["table"], None)
    f = watcher.until(lambda g: g.get("status") == "over" or (g["seats"][0]["standin"] and g["seats"][1]["standin"]))
    if f["status"] != "over":
        assert not table.humans_to_play()
    assert watcher.until(lambda g: g.get("status") == "over")["obs"]["losers"] is not None
    assert ola["seat"] == 1


def test_old_clients_may_still_send_house_rules_as_text(web: Web) -> None:
    r = web.client.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "A",
                                             "seats": [{"kind": "human"}, {"kind": "bot"}],
                                             "overrides": "sequences=2 pickup_optional=true"})
    assert r.status_code == 200, r.text
    house = dict(web.client.get(f"/api/tables/{r.json()['table']}/rules").json()["house"]["en"])
    assert set(house.values()) == {"2", "yes"}
    bad = web.client.post("/api/tables", json={"preset": "mattis", "players": 2, "name": "A",
                                               "seats": [{"kind": "human"}, {"kind": "bot"}], "overrides": "sequences"})
    assert bad.status_code == 400


def test_seat_changes_and_an_ended_game_survive_a_restart(web: Web) -> None:
    from starlette.testclient import TestClient

    from mattis.web.app import create_app

    t, host = _table(web, grace=None)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    host.send({"type": "seat", "at": 1, "kind": "reinvite"})
    new_token = host.until(lambda g: "reinvite" in g)["reinvite"]["token"]
    host.send({"type": "seat", "at": 2, "kind": "bot", "level": "easy"})  # already a bot: a new level
    host.until(lambda g: g["seats"][2]["level"] == "easy")
    host.send({"type": "end"})
    host.until(lambda g: g.get("status") == "ended")
    with TestClient(create_app(str(web.db), bot_delay=0, test_mode=True)) as again:
        back = Player(again, t["table"], new_token)
        try:
            f = back.recv()
            assert f["you"] == 1 and f["status"] == "ended" and f["seats"][2]["level"] == "easy"
        finally:
            back.close()
        old = Player(again, t["table"], ola["token"])
        try:
            assert old.recv()["type"] == "refused"
        finally:
            old.close()


@pytest.mark.slow
def test_no_frame_leaks_a_card_while_a_bot_stands_in_or_to_a_returning_player(web: Web) -> None:
    """Frames to the host, to a spectator and to Ola coming back (on a new token) hold only
    what that seat may see, checked against the referee's truth from the record."""
    import json

    from web_helpers import cards_in, secret_cards, states_by_seq

    t, host = _table(web, grace=1, seed=8)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    spectator = web.player(t["table"], None)
    host.send({"type": "start"})
    host.until(lambda g: g.get("status") == "playing")
    # Anne plays; Ola is away, so a bot stands in for her; midway Ola is re-invited and returns.
    back: Player | None = None
    ola_moves = 0
    for _ in range(3000):
        f = host.sync()
        if f["status"] == "over" or ola_moves >= 6:
            break
        if back is None and f["seats"][1]["standin"] and f["seq"] > 20:
            host.send({"type": "seat", "at": 1, "kind": "reinvite"})
            back = web.player(t["table"], host.until(lambda g: "reinvite" in g)["reinvite"]["token"])
            back.recv()
            continue
        actor = host if f["obs"]["to_act"] == 0 else back if f["obs"]["to_act"] == 1 and back is not None else None
        if actor is not None:
            actor.sync()
            actor.move(first_legal(actor.last))
            ola_moves += actor is back
        host.until(lambda g: g.get("seq") != f["seq"] or g.get("status") == "over"  # noqa: B023
                   or g["seats"][1]["standin"] != f["seats"][1]["standin"])  # noqa: B023
    assert back is not None and ola_moves >= 1
    for p in (host, back):  # both leave; stand-in bots play the game out, the spectator watches
        p.sync()
        p.close()
        web.players.remove(p)
    spectator.until(lambda g: g.get("status") == "over")
    states = states_by_seq(web.client.get(f"/api/tables/{t['table']}/games/1/record").text)
    checked = 0
    for viewer, conn in ((0, host), (1, back), (None, spectator)):
        for raw in conn.raw:
            frame = json.loads(raw)
            if frame.get("status") != "playing":
                continue
            st, public = states[frame["seq"]]
            assert not cards_in(frame) & secret_cards(st, public, viewer), (viewer, frame["seq"])
            checked += 1
    assert checked > 40
    assert ola["token"] not in "".join(host.raw + spectator.raw)
