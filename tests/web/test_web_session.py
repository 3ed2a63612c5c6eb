"""A session at one table: rematch with the loser dealing, the tally, bots resuming after a restart."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient
from web_helpers import Player, Web, create, first_legal, play_out

from mattis.core import GameRecord
from mattis.play import first_dealer
from mattis.web.app import create_app


def test_rematch_the_loser_deals_and_the_tally_counts(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], seed=9)
    p0 = web.player(t["table"], t["token"])
    p0.sync()
    p0.send({"type": "start"})
    losers: list[int] = []
    for game in (1, 2):
        last = play_out({0: p0}, [])
        assert last["game"] == game and last["status"] == "over"
        rec = GameRecord.loads(web.client.get(f"/api/tables/{t['table']}/games/{game}/record").text)
        end = rec.replay()
        assert last["obs"]["losers"] == end.losers
        losers += end.losers
        tally = [losers.count(s) for s in range(3)]
        assert last["tally"] == {"games": game, "mattis": tally}
        p0.send({"type": "rematch"})
        nxt = p0.until(lambda f: bool(f["game"] == game + 1))  # noqa: B023
        assert nxt["obs"]["dealer"] == end.next_dealer  # the loser deals
        assert nxt["seq"] == 0 and nxt["status"] == "playing"


def test_bots_resume_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "r.db")
    slow = create_app(db, bot_delay=3600, test_mode=True)  # the bot never gets to move here
    with TestClient(slow) as client:
        t = create(client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=2)
        p = Player(client, t["table"], t["token"])
        p.sync()
        p.send({"type": "start"})
        f = p.until(lambda f: f["status"] == "playing")
        while f["obs"]["to_act"] == 0:  # play until the bot is to act
            p.move(first_legal(f))
            seq = f["seq"]
            f = p.until(lambda g: bool(g["seq"] > seq))  # noqa: B023
        stuck = f["seq"]
        assert f["obs"]["to_act"] == 1
        p.close()
    fast = create_app(db, bot_delay=0, test_mode=True)
    with TestClient(fast) as client:
        p = Player(client, t["table"], t["token"])
        g = p.until(lambda g: g.get("seq", 0) > stuck)  # the bot moved on its own after the restart
        assert g["you"] == 0 and g["game"] == 1
        p.close()


def test_a_test_servers_seed_deals_and_plays_the_same_games(web: Web) -> None:
    """Same seed: the same deals and the same bot moves; another seed: another deal."""
    records = []
    for seed in (5, 5, 6):
        t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], seed=seed)
        p = web.player(t["table"], t["token"])
        p.sync()
        p.send({"type": "start"})
        play_out({0: p}, [])
        records.append(GameRecord.loads(web.client.get(f"/api/tables/{t['table']}/games/1/record").text))
    assert records[0].deck == records[1].deck and records[0].moves == records[1].moves
    assert records[0].deck != records[2].deck


def test_the_first_dealer_is_drawn_and_the_loser_leads_the_rematch(web: Web) -> None:
    """"Trekk om hvem som gir" and "mange lar taperen spille ut første stikk neste gang"
    (Regler for kortspillet Skitgubbe), with ``next_leader=loser``."""
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    dealers = set()
    for seed in range(1, 7):
        t = create(web.client, "skitgubbe", seats, seed=seed, overrides={"next_leader": "loser"})
        p0 = web.player(t["table"], t["token"])
        p0.sync()
        p0.send({"type": "start"})
        first = p0.until(lambda f: bool(f["game"] == 1))
        assert first["obs"]["dealer"] == first_dealer(seed, 3)
        dealers.add(first["obs"]["dealer"])
    assert len(dealers) > 1, "not always seat 0"
    last = play_out({0: p0}, [])
    end = GameRecord.loads(web.client.get(f"/api/tables/{t['table']}/games/1/record").text).replay()
    p0.send({"type": "rematch"})
    p0.until(lambda f: bool(f["game"] == 2))
    play_out({0: p0}, [])
    second = GameRecord.loads(web.client.get(f"/api/tables/{t['table']}/games/2/record").text)
    assert last["game"] == 1 and second.dealer == second.leader == end.next_dealer
