"""Event logs written before the web server ran its games on the play layer still load:
the finished game, the tally, the dealer and the hands come back as they were, and the
game in progress can be played to its end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from web_helpers import Player, play_out

from mattis.core import GameRecord
from mattis.web.app import create_app
from mattis.web.store import Store
from mattis.web.table import Table

DATA = Path(__file__).parent / "data" / "log_before_play_layer.json"


def old_log() -> dict[str, Any]:
    """Two people and an easy bot, seed 31: game 1 finished (the bot lost), then 12 moves
    of the rematch, which the bot deals; with the frame seat 0 was last sent."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def test_an_old_log_replays_into_the_same_table() -> None:
    log = old_log()
    events = log["events"]
    t = Table.from_create(events[0])
    for ev in events[1:]:
        t.apply(ev)
    assert (t.game, t.seq, t.status) == (log["game"], log["seq"], "playing")
    assert GameRecord.loads(t.records[1]).to_json() == log["record_game_1"]
    assert {"games": t.games_done, "mattis": t.tally} == log["tally"]
    assert t.referee is not None
    obs = t.referee.observation(0)
    assert (obs.dealer, obs.to_act) == (log["dealer"], log["to_act"])
    losers = GameRecord.from_json(log["record_game_1"]).replay().losers
    assert log["tally"]["mattis"] == [losers.count(s) for s in range(3)]


def test_a_server_restarted_on_an_old_log_finishes_the_game(tmp_path: Path) -> None:
    log = old_log()
    db = tmp_path / "old.db"
    store = Store(str(db))
    tid = log["events"][0]["id"]
    for n, ev in enumerate(log["events"]):
        store.append(tid, n, ev)
    store.close()
    with TestClient(create_app(str(db), bot_delay=0, test_mode=True)) as client:
        p0, p1 = (Player(client, tid, log["tokens"][str(i)]) for i in (0, 1))
        try:
            f = p0.sync()
            assert (f["you"], f["game"], f["seq"]) == (0, log["game"], log["seq"])
            assert f["obs"]["hand"] == log["hand_0"] and f["tally"] == log["tally"]
            last = play_out({0: p0, 1: p1}, [])
            assert last["status"] == "over" and last["game"] == 2 and last["tally"]["games"] == 2
            rec = GameRecord.loads(client.get(f"/api/tables/{tid}/games/2/record").text)
            assert rec.dealer == log["dealer"] and rec.replay().is_over
        finally:
            p0.close()
            p1.close()
