"""Bots think off the event loop (``bot_processes``: a process pool of the worker), so an
expert bot's search at one table does not hold up another table's moves."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient
from web_helpers import Frame, Player, Web, create, first_legal, join

from mattis.web.app import create_app


def test_an_expert_bot_thinking_at_one_table_does_not_hold_up_another_tables_moves(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    app = create_app(str(db), bot_delay=0.01, test_mode=True, bot_processes=1)
    with TestClient(app) as client:
        web = Web(client, db)
        try:
            a = create(client, "mattis", [{"kind": "human"}, {"kind": "bot", "level": "expert"},
                                          {"kind": "bot", "level": "expert"}], seed=4)
            anne = web.player(a["table"], a["token"])
            b = create(client, "mattis", [{"kind": "human"}] * 3, seed=5, name="Bo")
            tokens = [b["token"]] + [join(client, b["table"], b["invite"], n)["token"] for n in ("Cy", "Di")]
            people = {i: web.player(b["table"], tok) for i, tok in enumerate(tokens)}
            for p in (anne, people[0]):
                p.sync()
                p.send({"type": "start"})

            def anne_to_act(f: Frame) -> bool:
                return bool(f.get("status") == "playing" and f["obs"]["to_act"] == 0 and f["obs"]["legal"])

            # Anne plays until a bot is to act after the bots have moved once (the pool's process is warm).
            f = anne.until(lambda g: g.get("status") == "playing")
            while not (f["seq"] >= 3 and f["obs"]["to_act"] != 0):
                if anne_to_act(f):
                    anne.move(first_legal(f))
                f = anne.recv()
            s, bot = f["seq"], f["obs"]["to_act"]  # the expert bot is thinking now (about 0.3 s a move)

            # Meanwhile, at the other table, two moves are made and answered ...
            answered = []
            for _ in range(2):
                g = people[0].sync()
                actor: Player = people[g["obs"]["to_act"]]
                h = actor.sync()
                actor.move(first_legal(h))
                answered.append(actor.until(lambda x: x.get("seq", 0) > h["seq"])["seq"])  # noqa: B023
            # ... before the bot's move at the first table is made.
            assert anne.sync()["seq"] == s, "the other table waited for the bot's search"
            assert answered == [answered[0], answered[0] + 1]
            done = anne.until(lambda g: g.get("seq", 0) > s)
            assert done["obs"]["log"][-1]["seat"] == bot  # and then the bot did move
        finally:
            for p in web.players:
                p.close()
