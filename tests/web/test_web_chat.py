"""The table's chat and the turn clock's time bank, through the hub and the server.

The chat: text lines from seated players, trimmed, at most ``chat_length`` characters and
``chat_lines`` a seat per ``chat_window`` seconds (refused in words past either), names and
lines sent as text (a ``<script>`` arrives as those characters), the host mutes a seat (told
in words), spectators read but do not write, the lines are logged with the table (a page that
connects again sees them) and stay out of a game's record and replay unless asked.

The time bank: when a seat's turn clock runs out her bank is spent first; only when it is
empty does a bot play the turn (``tiden gikk ut``); what she spent is logged with her move,
and the bank is full again each game.  Time moves only when the test says (:class:`ManualClock`).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import ManualClock, conn, frames, last_state, on_hub, send, until
from web_helpers import Web, create, join, play_out

from mattis.bots import RandomBot
from mattis.web.conn import Conn
from mattis.web.hub import Hub
from mattis.web.limits import Limits
from mattis.web.refusal import Refusal
from mattis.web.seats import BANK_CHOICES
from mattis.web.table import Table

LIMITS = Limits()


async def table_of(hub: Hub, friends: int = 1, clock: int | None = None, bank: int | None = None,
                   name: str = "Ola") -> Table:
    """The host (Anne) and ``friends`` people joined (``name`` 1, ``name`` 2, …)."""
    seats = [{"kind": "human"}] * (friends + 1)
    ev, _ = Table.create_event("mattis", {}, friends + 1, seats, "Anne", 3, 60, clock, bank)
    table = await hub.create(ev)
    for i in range(1, friends + 1):
        jev, _ = table.join_event(table.invite, f"{name} {i}" if friends > 1 else name)
        await hub.commit(table, jev)
    return table


def seat_conn(hub: Hub, table: Table, seat: int | None, lang: str = "en") -> Conn:
    c = conn(seat, lang)
    hub.conns.setdefault(table.id, set()).add(c)
    return c


def logged(hub: Hub, table: Table, kind: str) -> list[dict[str, Any]]:
    assert hub.store is not None
    return [e for e in hub.store.events(table.id, 0) if e["type"] == kind]


def said(c: Conn) -> list[str]:
    """The chat lines this page is shown now, as "name: text"."""
    return [f"{line['name']}: {line['text']}" for line in last_state(c)["chat"]["lines"] if "text" in line]


# ------------------------------------------------------------------ the chat
def test_a_line_is_trimmed_and_at_most_the_length_limit(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await table_of(hub)
        anne, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb")
        await send(hub, table, ola, type="chat", text="  hei\n\tAnne  ")
        assert said(anne) == ["Ola: hei Anne"]
        await send(hub, table, ola, type="chat", text="x" * (LIMITS.chat_length + 1))
        state = last_state(ola)
        assert state["error"] == f"meldingen er for lang: høyst {LIMITS.chat_length} tegn"
        await send(hub, table, ola, type="chat", text=" \n ")
        assert last_state(ola)["error"] == "skriv noe før du sender"
        await send(hub, table, ola, type="chat", text="y" * LIMITS.chat_length)  # just at the limit
        assert said(anne)[-1] == "Ola: " + "y" * LIMITS.chat_length
        await send(hub, table, ola, type="chat", text=5)
        assert "error" in last_state(ola)  # a number is not text (messages.check)
        assert len(logged(hub, table, "chat")) == 2

    on_hub(tmp_path, body)


def test_a_seat_writes_at_most_the_rate_limit_then_waits(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await table_of(hub)
        anne, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1)
        for k in range(LIMITS.chat_lines):
            await send(hub, table, ola, type="chat", text=f"line {k}")
            clock.advance(1)
        await send(hub, table, ola, type="chat", text="one too many")
        error = last_state(ola)["error"]
        assert error.startswith("you are writing fast – wait ") and error.endswith(" s before the next line")
        await send(hub, table, anne, type="chat", text="the host has her own limit")  # per seat
        assert said(anne)[-1] == "Anne: the host has her own limit"
        clock.advance(LIMITS.chat_window)
        await send(hub, table, ola, type="chat", text="later")
        assert "error" not in last_state(ola)
        assert said(anne)[-1] == "Ola: later"
        assert [e["text"] for e in logged(hub, table, "chat") if e["seat"] == 1][-1] == "later"
        assert len(logged(hub, table, "chat")) == LIMITS.chat_lines + 2

    on_hub(tmp_path, body)


def test_a_script_in_a_name_or_a_line_arrives_as_text(web: Web) -> None:
    evil = '<script>alert("x")</script>'
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "human"}])
    j = join(web.client, t["table"], t["invite"], "<b onclick=x()>Ola</b>")
    anne, ola = web.player(t["table"], t["token"]), web.player(t["table"], j["token"])
    ola.until(lambda f: f.get("type") == "state")
    ola.send({"type": "chat", "text": evil})
    f = anne.until(lambda f: bool(f.get("chat", {}).get("lines")))
    assert f["chat"]["lines"][-1]["text"] == evil
    assert f["chat"]["lines"][-1]["name"] == "<b onclick=x()>Ola</b>"
    raw = anne.raw[-1]
    assert json.loads(raw)["chat"]["lines"][-1]["text"] == evil  # the characters themselves, not escaped to &lt;
    assert "&lt;" not in raw


def test_the_host_mutes_a_seat_which_is_told_in_words_and_spectators_read_only(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await table_of(hub, friends=2, name="Ola")
        anne, ola, kari = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb"), seat_conn(hub, table, 2)
        watcher = seat_conn(hub, table, None, "nb")
        await send(hub, table, kari, type="mute", at=1)
        assert last_state(kari)["error"] == "only the host can mute a player"
        await send(hub, table, anne, type="mute", at=1)
        state = last_state(ola)
        assert state["chat"]["may"] is False and state["chat"]["muted"] == [1]
        assert state["chat"]["lines"][-1] == {"n": 1, "mute": 1, "muted": True, "name": "Ola 1"}
        await send(hub, table, ola, type="chat", text="hallo?")
        assert last_state(ola)["error"] == "verten har slått av praten din ved dette bordet"
        await send(hub, table, anne, type="mute", at=1)
        assert last_state(anne)["error"] == "that player is already muted"
        await send(hub, table, kari, type="chat", text="Kari is not muted")
        seen = last_state(watcher)  # a spectator reads
        assert [line["text"] for line in seen["chat"]["lines"] if "text" in line] == ["Kari is not muted"]
        assert seen["chat"]["may"] is False
        await send(hub, table, watcher, type="chat", text="me too")
        assert last_state(watcher)["error"] == "tilskuere kan lese praten, men ikke skrive"
        await send(hub, table, anne, type="mute", at=1, muted=False)
        assert last_state(ola)["chat"]["may"] is True
        await send(hub, table, ola, type="chat", text="takk")
        assert said(anne)[-1] == "Ola 1: takk"
        assert [e["muted"] for e in logged(hub, table, "mute")] == [True, False]

    on_hub(tmp_path, body)


def test_a_page_that_connects_again_sees_the_recent_lines_and_so_does_a_restarted_server(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await table_of(hub)
        anne, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1)
        await send(hub, table, anne, type="chat", text="velkommen")
        await send(hub, table, ola, type="chat", text="takk")
        hub.conns[table.id].discard(ola)
        again = seat_conn(hub, table, 1)
        await send(hub, table, again, type="sync")
        assert said(again) == ["Anne: velkommen", "Ola: takk"]
        assert hub.store is not None
        events = hub.store.events(table.id, 0)
        restored = Table.from_create(events[0])
        for ev in events[1:]:
            restored.apply(ev)
        assert [line["text"] for line in restored.chat.view(1)["lines"]] == ["velkommen", "takk"]

    on_hub(tmp_path, body)


def test_the_chat_is_not_in_the_record_or_the_replay_unless_asked(web: Web) -> None:
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    anne = web.player(t["table"], t["token"])
    anne.until(lambda f: f.get("type") == "state")
    anne.send({"type": "chat", "text": "før spillet"})
    anne.until(lambda f: len(f.get("chat", {}).get("lines", [])) == 1)
    anne.send({"type": "start"})
    anne.until(lambda f: f.get("status") == "playing")
    anne.send({"type": "chat", "text": "lykke til"})
    anne.until(lambda f: len(f.get("chat", {}).get("lines", [])) == 2)
    play_out({0: anne}, [])
    base = f"/api/tables/{t['table']}/games/1"
    record = web.client.get(f"{base}/record")
    assert record.status_code == 200
    assert "lykke til" not in record.text and "chat" not in record.json()
    replay = web.client.get(f"{base}/replay")
    assert replay.status_code == 200 and "lykke til" not in replay.text
    asked = web.client.get(f"{base}/record?chat=1").json()
    assert asked["chat"] == [{"seat": 0, "name": "Anne", "text": "lykke til"}]  # that game's lines only


def test_the_offline_app_refuses_a_chat_line_in_words() -> None:
    from mattis.web.solo import Solo

    solo = Solo()
    status, created = solo.request("POST", "/api/tables",
                                   json.dumps({"preset": "mattis", "players": 2, "name": "Anne"}))
    assert status == 200, created
    tid = json.loads(created)["table"]
    out, changed = solo.message(tid, json.dumps({"type": "chat", "text": "hei"}), "nb")
    assert out is not None and not changed
    assert json.loads(out)["error"] == "det er ingen prat i appen uten nett: her er det bare du og botene"


# ------------------------------------------------------------- the time bank
def test_the_bank_is_chosen_with_the_clock_and_logged() -> None:
    for bank in BANK_CHOICES:
        ev, _ = Table.create_event("mattis", {}, 2, None, "Anne", 1, 60, 30, bank)
        assert Table.from_create(ev).bank == bank
    for clock, bad in ((30, 45), (30, True), (30, "30"), (None, 30)):
        with pytest.raises(Refusal) as e:
            Table.create_event("mattis", {}, 2, None, "Anne", 1, 60, clock, bad)
        assert e.value.key == "web.refused.bad_bank"
        assert "bare med tenketid" in e.value.nb


async def ola_to_act(hub: Hub, table: Table, anne: Conn, bot: RandomBot) -> bool:
    """The host plays her own turns until Ola (seat 1) is to act (False: the game ended first)."""
    while table.status == "playing" and table.person_to_act() != 1:
        if table.person_to_act() == 0:
            assert table.referee is not None
            await send(hub, table, anne, type="move", game=table.game, seq=table.seq,
                       move=str(bot.act(table.referee.observation(0))))
        await asyncio.sleep(0.001)
    return table.status == "playing"


def test_the_bank_is_spent_before_a_bot_plays_the_turn_and_is_full_again_next_game(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: ManualClock) -> None:
        table = await table_of(hub, clock=30, bank=30)
        anne, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb")
        await send(hub, table, anne, type="start")
        bots = {0: RandomBot(1), 1: RandomBot(2)}
        assert await ola_to_act(hub, table, anne, bots[0])
        state = last_state(ola)
        assert state["bank"] == 30 and state["banks"] == [30, 30]
        assert state["timer"] == {"seat": 1, "kind": "clock", "left": 30.0, "total": 30, "paused": False, "bank": 30.0}
        seq = table.seq
        clock.advance(30)  # her turn clock is out: the bank runs, no bot yet
        await until(lambda: clock.waiting("clock") == 1, "the bank running")
        clock.advance(10)
        await send(hub, table, ola, type="sync")
        timer = last_state(ola)["timer"]
        assert (timer["left"], timer["bank"]) == (0.0, 20.0) and table.seq == seq
        assert not logged(hub, table, "cover")
        assert table.referee is not None  # she moves herself with 20 s left in the bank
        await send(hub, table, ola, type="move", game=1, seq=seq, move=str(bots[1].act(table.referee.observation(1))))
        assert table.seq == seq + 1
        assert [e.get("bank") for e in logged(hub, table, "move") if e["seq"] == seq] == [10.0]
        assert table.banks == [30.0, 20.0] and last_state(ola)["banks"] == [30, 20]
        assert await ola_to_act(hub, table, anne, bots[0])
        seq = table.seq
        await send(hub, table, ola, type="sync")
        assert last_state(ola)["timer"]["bank"] == 20.0
        clock.advance(30 + 19)
        await until(lambda: clock.waiting("clock") == 1, "a second of the bank left")
        assert not logged(hub, table, "cover")
        clock.advance(1)  # the clock and the bank are out: a bot plays this one turn
        await until(lambda: table.seq > seq, "the bot's move for her")
        assert logged(hub, table, "cover") == [{"type": "cover", "game": 1, "seq": seq, "seat": 1, "why": "clock"}]
        assert [e["by"] for e in logged(hub, table, "move") if e["seq"] == seq] == ["clock"]
        assert table.banks[1] == 0.0
        if await ola_to_act(hub, table, anne, bots[0]):  # the bank is empty: the clock alone
            await send(hub, table, ola, type="sync")
            assert last_state(ola)["timer"]["bank"] == 0.0
        assert hub.store is not None  # the log rebuilds the banks as they are
        events = hub.store.events(table.id, 0)
        restored = Table.from_create(events[0])
        for ev in events[1:]:
            restored.apply(ev)
        assert restored.banks == table.banks
        while table.status == "playing":  # both play on to the end of the game
            seat = table.person_to_act()
            if seat is not None:
                await send(hub, table, anne if seat == 0 else ola, type="move", game=1, seq=table.seq,
                           move=str(bots[seat].act(table.referee.observation(seat))))
            await asyncio.sleep(0.001)
        frames(anne)
        await send(hub, table, ola, type="rematch", game=1)
        assert table.game == 2 and table.banks == [30.0, 30.0]
        assert last_state(anne)["banks"] == [30, 30]

    on_hub(tmp_path, body)
