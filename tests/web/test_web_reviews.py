"""Reviews for everyone: Analyse is queued per table (the tables take turns), several
reviews run at once up to the server's budget, the page is told its place in the queue
and then the decisions done, results are kept per game and seat, and every finished game
of the sitting stays reachable (replay, review, record) after a rematch."""

from __future__ import annotations

import asyncio
from typing import Any

from test_web_analysis import finished_record, until_done
from web_helpers import Web, create, join, play_out

from mattis.bots.evaluate import Budget
from mattis.core import GameRecord
from mattis.lab.review import decisions_of
from mattis.web.reviews import Analyses, Job


def test_the_queue_takes_tables_in_turn_and_runs_up_to_its_budget() -> None:
    one, two = finished_record(3), finished_record(5)
    names = ["A", "B", "C"]

    async def run() -> None:
        gate = Analyses(Budget(samples=2), parallel=2)
        try:
            asked = [gate.ask(("t1", 1, s), one, names) for s in range(3)] + [gate.ask(("t2", 1, 0), two, names)]
            jobs = [j for j in asked if isinstance(j, Job)]
            assert len(jobs) == 4
            # Two run at once (the budget); table t1's third waits behind table t2's first.
            assert [j.running for j in jobs] == [True, True, False, False]
            assert gate.order() == [jobs[3], jobs[2]]
            assert gate.position(jobs[3]) == 1 and gate.position(jobs[2]) == 2
            assert jobs[0].total == decisions_of(GameRecord.loads(one), 0) and jobs[0].done == 0
            assert gate.ask(("t1", 1, 2), one, names) is jobs[2]  # asking again does not queue it twice
            while gate.jobs:
                await asyncio.sleep(0.05)
            assert gate.runs == 4 and gate.most_running == 2
            assert all(gate.cached(k) is not None for k in (("t1", 1, 0), ("t1", 1, 1), ("t1", 1, 2), ("t2", 1, 0)))
            assert not isinstance(gate.ask(("t1", 1, 1), one, names), Job)  # now from the cache
        finally:
            gate.close()

    asyncio.run(run())


def test_three_players_press_analyse_at_once_and_game_one_stays_reachable(web: Web) -> None:
    web.client.app.state.analyses.budget = Budget(samples=2)  # type: ignore[attr-defined]
    seats: list[dict[str, Any]] = [{"kind": "human"}] * 3
    t = create(web.client, "mattis", seats, seed=11)
    tid = t["table"]
    tokens = [t["token"]] + [join(web.client, tid, t["invite"], n)["token"] for n in ("Bo", "Cai")]
    players = {s: web.player(tid, tok) for s, tok in enumerate(tokens)}
    players[0].sync()
    players[0].send({"type": "start"})
    last = play_out(players, [])
    assert last["status"] == "over" and last["records"] == [1]
    url = f"/api/tables/{tid}/games/1/analysis"
    # All three press Analyse at once: each is answered with its place or its progress, none refused.
    first = [web.client.get(url, params={"seat": s}) for s in range(3)]
    assert [r.status_code for r in first] == [202, 202, 202]  # a new review is never answered at once
    assert first[0].json()["status"] == "running"
    for r in first:
        body = r.json()
        assert (body["status"] == "queued" and body["position"] >= 1) or \
               (body["status"] == "running" and 0 <= body["done"] <= body["total"])
    reviews = [until_done(web.client, url, {"seat": s, "lang": "en"}) for s in range(3)]
    assert [r.status_code for r in reviews] == [200] * 3
    assert [r.json()["name"] for r in reviews] == ["Anne", "Bo", "Cai"]
    # A rematch: game 2 is dealt; game 1's review, replay and record are still there.
    players[0].send({"type": "rematch", "game": 1})
    f = players[0].until(lambda g: g.get("game") == 2 and g.get("status") == "playing")
    assert f["records"] == [1]
    runs = web.client.app.state.analyses.runs  # type: ignore[attr-defined]
    again = web.client.get(url, params={"seat": 1, "lang": "nb"})
    assert again.status_code == 200 and again.json()["decisions"] == reviews[1].json()["decisions"]
    assert web.client.app.state.analyses.runs == runs  # type: ignore[attr-defined]  # from the cache
    assert web.client.get(f"/api/tables/{tid}/games/1/replay").json()["game"] == 1
    assert web.client.get(f"/api/tables/{tid}/games/1/record").status_code == 200
    assert web.client.get(f"/api/tables/{tid}/games/2/analysis").status_code == 404  # not over yet


def test_a_review_that_cannot_be_made_is_reported_not_lost() -> None:
    async def run() -> None:
        gate = Analyses(Budget(samples=2), parallel=1)
        try:
            bad = finished_record(3).replace('"moves"', '"moves_"')
            try:
                gate.ask(("t", 1, 0), bad, ["A", "B", "C"])
            except Exception as e:
                assert type(e).__name__ == "ReviewError"
            else:
                raise AssertionError("a broken record was queued")
        finally:
            gate.close()

    asyncio.run(run())
