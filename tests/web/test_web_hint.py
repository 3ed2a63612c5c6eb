"""The hint at a web table (``{"type": "hint"}``): a seated player on her own turn gets
``mattis.lab.hint.hint`` for her own view, on her own socket only; anyone else is refused
in words.  The offline app's hint is in test_web_solo.py."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import ManualClock, conn, frames, new_hub, send, until
from web_helpers import ORIGIN, Frame, Player, Web, create, first_legal, join, settled

from mattis.core import Observation
from mattis.lab.hint import hint
from mattis.play.seeds import position_seed
from mattis.web import hub as web_hub
from mattis.web.table import Table


class Seat(Player):
    """A seat's connection that asks for the whole public history in its hello (as a terminal
    seat does), so the test can rebuild the seat's observation from what the seat was sent."""

    def __init__(self, web: Web, tid: str, token: str, lang: str = "en") -> None:
        self.cm = web.client.websocket_connect(f"/ws/{tid}", headers=dict(ORIGIN))
        self.ws = self.cm.__enter__()
        self.ws.send_json({"type": "hello", "lang": lang, "token": token, "history": True})
        self.raw: list[str] = []
        self.last: Frame = {}
        web.players.append(self)


def seen(f: Frame) -> Observation:
    """The seat's observation, rebuilt from its frame alone (nothing it was not sent)."""
    return Observation.from_json({**f["obs"], "rules": f["rules"]})


def ask(p: Player) -> Frame:
    """Ask for a hint and read up to the answer (a hint or a refusal)."""
    p.send({"type": "hint"})
    return p.until(lambda f: "hint" in f or "error" in f)


def expected(f: Frame, lang: str = "en") -> tuple[str, str]:
    obs = seen(f)
    h = hint(obs, lang, position_seed(None, "hint", obs))  # type: ignore[arg-type]
    return str(h.move), h.text


def no_hint_in(p: Player) -> None:
    p.sync()
    assert not any("hint" in json.loads(text) for text in p.raw)


def test_the_seat_to_act_gets_the_hint_of_its_own_view_and_no_one_else_sees_it(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=3)
    anne = Seat(web, t["table"], t["token"])
    watcher = web.player(t["table"], None)
    anne.sync()
    anne.send({"type": "start"})
    phases: set[int] = set()
    asked = 0
    while True:
        f = anne.until(lambda g: g.get("status") in ("playing", "over") and settled(g))
        if f["status"] == "over" or 2 in phases:
            break
        phase = f["obs"]["phase"]
        if phase not in phases and len(f["obs"]["legal"]) > 1:
            phases.add(phase)
            got = ask(anne)
            asked += 1
            assert "error" not in got, got["error"]
            h: dict[str, Any] = got["hint"]
            assert (h["game"], h["seq"]) == (f["game"], f["seq"])
            assert h["move"] in f["obs"]["legal"] and h["text"].startswith("Hint: ")
            # The very hint of the seat's observation as its frames show it: it cannot come from
            # a card the seat does not see, since nothing else goes into it.
            assert (h["move"], h["text"]) == expected(f)
            assert h["cards"] == h["move"].split()[1:]
            assert ask(anne)["hint"] == h  # asked again in the same position: the same
        anne.move(first_legal(anne.last))
        seq: int = f["seq"]
        anne.until(lambda g: bool(g.get("seq", 0) > seq))  # noqa: B023
    assert phases == {1, 2} and asked == 2
    # A spectator is refused in words, and never sees a seat's hint.
    watcher.send({"type": "hint"})
    assert watcher.until(lambda g: "error" in g)["error"] == "spectators cannot play"
    no_hint_in(watcher)


def test_at_a_table_of_friends_only_the_one_to_act_gets_a_hint_and_only_on_her_socket(web: Web) -> None:
    t = create(web.client, "blodmattis", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], seed=5)
    tid = t["table"]
    b = join(web.client, tid, t["invite"], "Bjørn")
    anne = Seat(web, tid, t["token"], "nb")
    bjorn = Seat(web, tid, b["token"])
    anne.sync()
    anne.send({"type": "start"})
    f = anne.until(lambda g: g.get("status") == "playing" and settled(g) and len(g["obs"]["legal"]) > 1)
    actor, other = (anne, bjorn) if f["obs"]["to_act"] == 0 else (bjorn, anne)
    other.sync()
    refused = ask(other)
    assert "hint" not in refused
    assert refused["error"] in ("ingen hint nå: det er ikke din tur", "no hint now: it is not your turn")
    got = ask(actor)["hint"]
    lang = "nb" if actor is anne else "en"
    assert (got["move"], got["text"]) == expected(actor.last, lang)
    assert got["text"].startswith("Hint: ")
    no_hint_in(other)


def test_one_hint_at_a_time_per_page_and_none_in_the_log(tmp_path: Path) -> None:
    """In-process (the hub's own loop): a second ask while the first is still being worked out
    is refused in words; the hint leaves no trace in the table's event log."""
    async def main() -> None:
        hub = await new_hub(tmp_path, ManualClock())
        try:
            ev, _ = Table.create_event("mattis", {}, 2, [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
                                       "Anne", 3, None, None)
            table = await hub.create(ev)
            anne = conn(0)
            hub.conns.setdefault(table.id, set()).add(anne)
            await send(hub, table, anne, type="start")
            await until(lambda: table.person_to_act() == 0, "Anne to act")
            assert hub.store is not None
            events = len(hub.store.events(table.id, 0))
            frames(anne)
            await send(hub, table, anne, type="hint")  # worked out by a task that has not run yet
            await send(hub, table, anne, type="hint")
            assert [f["error"] for f in frames(anne)] == ["a hint is on its way; wait for it"]
            await until(lambda: anne.hinting is not None and anne.hinting.done(), "the hint worked out")
            sent = frames(anne)
            assert len(sent) == 1 and sent[0]["hint"]["move"] in sent[0]["obs"]["legal"]
            assert len(hub.store.events(table.id, 0)) == events
        finally:
            await hub.close()

    asyncio.run(main())


def test_a_hint_that_fails_is_logged_and_said_and_the_game_goes_on(
        web: Web, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: object) -> dict[str, Any]:
        raise RuntimeError("a bug in the hint")

    monkeypatch.setattr(web_hub, "hint_json", broken)
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot"}], seed=3)
    anne = web.player(t["table"], t["token"])
    anne.send({"type": "start"})
    f = anne.until(lambda g: g.get("status") == "playing" and settled(g) and len(g["obs"]["legal"]) > 1)
    with caplog.at_level(logging.ERROR, logger="mattis.web"):
        assert ask(anne)["error"] == "the hint could not be worked out; try again"
    assert any("the hint for seat 0 failed" in r.getMessage() and r.exc_info for r in caplog.records)
    seq: int = f["seq"]
    anne.move(first_legal(anne.last))
    assert anne.until(lambda g: bool(g.get("seq", 0) > seq))["status"] in ("playing", "over")
