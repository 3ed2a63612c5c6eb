"""The web page's "Analyse": finished games only, queued, cached."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from starlette.testclient import TestClient
from web_helpers import Web, create

from mattis.bots.evaluate import Budget
from mattis.core import parse_record_move, preset
from mattis.play import Referee, make_bot
from mattis.web.analysis import router
from mattis.web.reviews import Analyses


@dataclass
class FakeSeat:
    name: str


@dataclass
class FakeTable:
    records: dict[int, str] = field(default_factory=dict)
    seats: list[FakeSeat] = field(default_factory=list)
    by_bot: dict[int, dict[int, str]] = field(default_factory=dict)


@dataclass
class FakeHub:
    tables: dict[str, FakeTable] = field(default_factory=dict)

    def table(self, tid: str) -> FakeTable | None:
        return self.tables.get(tid)


def finished_record(seed: int) -> str:
    ref = Referee.new(preset("mattis"), 3, seed=seed)
    bots = {s: make_bot("heuristic", s) for s in range(3)}
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
    return ref.record().dumps()


def until_done(client: TestClient, url: str, params: dict[str, Any]) -> Any:
    """Ask for a review until it is there (the server answers 202 with its progress meanwhile)."""
    for _ in range(100_000):
        r = client.get(url, params=params)
        if r.status_code != 202:
            return r
        body = r.json()
        assert body["status"] in ("queued", "running")
        time.sleep(0.05)
    raise AssertionError("the review never came")


def test_analysis_of_a_finished_game_is_queued_and_cached() -> None:
    text = finished_record(3)
    hub = FakeHub({"t1": FakeTable({1: text}, [FakeSeat("Kari"), FakeSeat("Bot 1"), FakeSeat("Bot 2")])})
    gate = Analyses(Budget(samples=2), parallel=1)
    app = FastAPI()
    app.include_router(router(hub, gate))
    with TestClient(app) as client:
        url = "/api/tables/t1/games/1/analysis"
        first = client.get(url, params={"seat": 0, "lang": "nb"})
        assert first.status_code == 202 and first.json()["status"] in ("queued", "running")
        r = until_done(client, url, {"seat": 0, "lang": "nb"})
        assert r.status_code == 200, r.text
        body = r.json()
        mine = [m for m in json.loads(text)["moves"] if parse_record_move(m)[0] == 0]
        assert body["seat"] == 0 and body["name"] == "Kari" and body["forced"] + len(body["decisions"]) == len(mine)
        assert body["lines"][0].startswith("Gjennomgang av spillet for Kari")
        assert gate.runs == 1
        assert client.get(url, params={"seat": 0, "lang": "en"}).json()["decisions"] == body["decisions"]
        assert gate.runs == 1  # the second answer came from the cache
        assert until_done(client, url, {"seat": 1}).json()["name"] == "Bot 1" and gate.runs == 2
        assert client.get(url, params={"seat": 3}).status_code == 400
        assert client.get("/api/tables/t1/games/2/analysis").status_code == 404
        assert client.get("/api/tables/nope/games/1/analysis").status_code == 404


def test_the_server_analyses_no_game_in_play(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], seed=9)
    p0 = web.player(t["table"], t["token"])
    p0.sync()
    p0.send({"type": "start"})
    p0.until(lambda f: f.get("status") == "playing")
    r = web.client.get(f"/api/tables/{t['table']}/games/1/analysis", params={"seat": 0})
    assert r.status_code == 404 and "no finished game" in r.json()["error"]


def test_look_deeper_at_one_decision_through_the_queue_and_in_place_in_the_review() -> None:
    """A look deeper is a job like a review (202 while it waits or runs, then cached); its
    decision is the review of that one move at the deeper budget, and from then on the
    game's review has it in place of the first look."""
    from mattis.core import GameRecord
    from mattis.lab.review import decision_lines, decision_numbers, deeper, review

    text = finished_record(3)
    budget = Budget(samples=2, solver_nodes=200)
    hub = FakeHub({"t1": FakeTable({1: text}, [FakeSeat("Kari"), FakeSeat("Bot 1"), FakeSeat("Bot 2")])})
    gate = Analyses(budget, parallel=1)
    app = FastAPI()
    app.include_router(router(hub, gate))
    record = GameRecord.loads(text)
    numbers = decision_numbers(record, 0)
    move = numbers[len(numbers) // 2]
    with TestClient(app) as client:
        url = "/api/tables/t1/games/1/analysis"
        first = until_done(client, url, {"seat": 0, "lang": "nb"}).json()
        deep = client.get(url + "/deeper", params={"seat": 0, "move": move, "lang": "nb"})
        assert deep.status_code == 202 and deep.json()["status"] in ("queued", "running")
        r = until_done(client, url + "/deeper", {"seat": 0, "move": move, "lang": "nb"})
        assert r.status_code == 200, r.text
        body = r.json()
        want = review(record, 0, deeper(budget), seed="t1/1", names=["Kari", "Bot 1", "Bot 2"],
                      decision=move).decisions[0]
        assert body["decision"] == want.to_json() and body["samples"] == 2 * 16
        full = gate.cached(("t1", 1, 0))
        assert full is not None and body["lines"] == decision_lines(want, full, "nb")
        was = next(x for x in full.decisions if x.number == move)
        assert body["note"] == (f"Sett dypere på: 32 simulerte spill per lovlige trekk (før: "
                                f"{round(100 * was.before)} % → {round(100 * was.after)} %).")
        assert gate.runs == 2
        # the game's review now has the deeper decision in place, in its JSON and its text
        again = client.get(url, params={"seat": 0, "lang": "nb"}).json()
        at = [d["move"] for d in again["decisions"]].index(move)
        assert again["decisions"][at] == want.to_json()
        assert [d for i, d in enumerate(again["decisions"]) if i != at] == \
            [d for i, d in enumerate(first["decisions"]) if i != at]
        assert body["lines"][0] in again["lines"]
        assert client.get(url + "/deeper", params={"seat": 0, "move": move}).status_code == 200
        assert gate.runs == 2  # from the cache
        # not a decision of the seat: another seat's move, or a move number past the end
        other = next(n for n in range(1, len(record.moves) + 1) if parse_record_move(record.moves[n - 1])[0] != 0)
        for bad in (other, len(record.moves) + 5):
            no = client.get(url + "/deeper", params={"seat": 0, "move": bad, "lang": "en"})
            assert no.status_code == 400 and "not a choice of that seat" in no.json()["error"]
        assert client.get("/api/tables/t1/games/9/analysis/deeper", params={"move": move}).status_code == 404


def test_a_look_deeper_that_fails_is_logged_and_answered(monkeypatch: Any, caplog: Any) -> None:
    import mattis.web.reviews as reviews

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the solver broke")

    text = finished_record(3)
    hub = FakeHub({"t1": FakeTable({1: text}, [FakeSeat("Kari"), FakeSeat("Bot 1"), FakeSeat("Bot 2")])})
    gate = Analyses(Budget(samples=2), parallel=1)
    monkeypatch.setattr(reviews, "_review_in_process", broken)
    monkeypatch.setattr(gate, "_start_pool", lambda: None)  # run in the server's own threads: the patch holds
    app = FastAPI()
    app.include_router(router(hub, gate))
    from mattis.core import GameRecord
    from mattis.lab.review import decision_numbers

    move = decision_numbers(GameRecord.loads(text), 0)[0]
    with TestClient(app) as client:
        url = "/api/tables/t1/games/1/analysis/deeper"
        r = until_done(client, url, {"seat": 0, "move": move})
        assert r.status_code == 500 and "RuntimeError: the solver broke" in r.json()["detail"]
        assert "Could not look deeper at move" in r.json()["error"]
    assert any("move " + str(move) + " (deeper) failed: RuntimeError: the solver broke" in m.getMessage()
               for m in caplog.records)
