"""The turn clock, the heartbeat and the host's controls (nudge, skip, pause, give a seat back),
driven in-process through the hub's injectable clock (:class:`ManualClock`): the time moves
only when the test says, so every deadline is checked, never measured."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import ManualClock, conn, frames, last_state, new_hub, send, until

from mattis.bots import RandomBot
from mattis.web.conn import HEARTBEAT_MISSES, Conn
from mattis.web.hub import Hub
from mattis.web.refusal import Refusal
from mattis.web.seats import CLOCK_CHOICES
from mattis.web.table import Table


async def table_at(hub: Hub, kinds: tuple[str, ...], clock: int | None = 30, grace: int | None = 60,
                   seed: int = 3) -> tuple[Table, dict[int, str]]:
    """A table whose seats are ``kinds`` (``host``, ``friend``, ``bot``), the friends joined; the tokens."""
    seats = [{"kind": "bot" if k == "bot" else "human", "level": "easy"} for k in kinds]
    ev, token = Table.create_event("mattis", {}, len(kinds), seats, "Anne", seed, grace, clock)
    table = await hub.create(ev)
    tokens = {0: token}
    for i, k in enumerate(kinds):
        if k == "friend":
            jev, tokens[i] = table.join_event(table.invite, f"Ola {i}")
            await hub.commit(table, jev)
    return table, tokens


def seat_conn(hub: Hub, table: Table, seat: int | None, lang: str = "en") -> Conn:
    c = conn(seat, lang)
    hub.conns.setdefault(table.id, set()).add(c)
    return c


def logged(hub: Hub, table: Table) -> list[dict[str, Any]]:
    assert hub.store is not None
    return hub.store.events(table.id, 0)


async def her_turn(table: Table, seat: int) -> None:
    """Let the bots play until ``seat`` is to act and plays the turn herself."""
    await until(lambda: table.person_to_act() == seat, f"seat {seat} to act")


async def play(hub: Hub, table: Table, c: Conn, bot: RandomBot) -> None:
    """The person of ``c`` makes a legal move of her own."""
    assert table.referee is not None and c.seat is not None
    move = bot.act(table.referee.observation(c.seat))
    seq = table.seq
    await send(hub, table, c, type="move", game=table.game, seq=seq, move=str(move))
    assert table.seq == seq + 1, last_state(c).get("error")


def test_the_clock_is_chosen_at_creation_and_logged() -> None:
    for clock in CLOCK_CHOICES:
        ev, _ = Table.create_event("mattis", {}, 2, None, "Anne", 1, 60, clock)
        assert ev["clock"] == clock
        assert Table.from_create(ev).clock == clock
    for bad in (10, 45, "30", True, 30.0 + 0.5):
        with pytest.raises(Refusal) as e:
            Table.create_event("mattis", {}, 2, None, "Anne", 1, 60, bad)
        assert e.value.key == "web.refused.bad_clock"
        assert "30 sek" in e.value.nb and "2 min" in e.value.nb and "30 s" in e.value.en
    ev, _ = Table.create_event("mattis", {}, 2, None, "Anne", 1)
    del ev["clock"]  # a table logged before the clock existed
    assert Table.from_create(ev).clock is None


def test_a_connected_player_whose_clock_runs_out_gets_a_bot_for_that_turn_and_keeps_her_seat(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, tokens = await table_at(hub, ("host", "bot", "friend"), clock=30)
            host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 2, "nb")
            await send(hub, table, host, type="start")
            people = {0: RandomBot(1), 2: RandomBot(2)}
            while table.person_to_act() != 2:  # the host plays her own turns; Ola's comes
                if table.person_to_act() == 0:
                    await play(hub, table, host, people[0])
                await asyncio.sleep(0.001)
            seq = table.seq
            state = last_state(ola)
            assert state["clock"] == 30
            assert state["timer"] == {"seat": 2, "kind": "clock", "left": 30.0, "total": 30, "paused": False}
            clock.advance(29)
            await until(lambda: clock.waiting("clock") == 1, "the clock still running")
            await send(hub, table, ola, type="sync")
            assert table.seq == seq and last_state(ola)["timer"]["left"] == 1.0  # her turn still
            clock.advance(1)  # her time is up: a bot plays this one turn
            await until(lambda: table.seq > seq, "the stand-in's move")
            covers = [e for e in logged(hub, table) if e["type"] == "cover"]
            assert covers == [{"type": "cover", "game": 1, "seq": seq, "seat": 2, "why": "clock"}]
            move = [e for e in logged(hub, table) if e["type"] == "move" and e["seq"] == seq]
            assert move and move[0]["seat"] == 2
            # her seat stays hers: the same token, no stand-in for the rest of the game
            assert table.seats[2].kind == "human" and table.seat_of(tokens[2]) == 2
            assert 2 not in table.standin
            while table.status == "playing" and table.person_to_act() != 2:  # her next turn: she plays it
                if table.person_to_act() == 0:
                    await play(hub, table, host, people[0])
                await asyncio.sleep(0.001)
            if table.status == "playing":
                assert table.timer is not None and table.timer.kind == "clock" and table.timer.left_at(clock.t) == 30
                await play(hub, table, ola, people[2])
                assert len([e for e in logged(hub, table) if e["type"] == "cover"]) == 1
        finally:
            await hub.close()

    asyncio.run(main())


def test_a_page_not_heard_for_three_heartbeats_is_away_then_back(tmp_path: Path) -> None:
    """A page that pings and then falls silent is away at the HEARTBEAT_MISSES-th beat that finds
    nothing from it (not one earlier: 6-8 s of silence at the 2 s beat); it is her turn, so the
    grace period starts and a bot plays her seat; her next word hands the seat back.  A page that
    never pings (an older client) is never called away."""
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock, heartbeat=2.0)
        try:
            table, _ = await table_at(hub, ("host", "friend", "friend"), clock=None, grace=15)
            host, ola, kari = seat_conn(hub, table, 0), seat_conn(hub, table, 1), seat_conn(hub, table, 2)
            for c in (host, ola):
                await send(hub, table, c, type="ping")
                assert frames(c)[-1] == {"type": "pong"}
            await send(hub, table, host, type="start")
            beats = 0  # the first beat finds Ola's ping; then HEARTBEAT_MISSES beats find nothing
            while beats < HEARTBEAT_MISSES:  # the host pings every beat, Ola has gone silent
                await send(hub, table, host, type="ping")
                clock.advance(2.0)
                beats += 1
                await until(lambda: clock.waiting("heartbeat") == 1, "the next beat")
            assert hub.connected(table) == {0, 1, 2}  # not yet
            await send(hub, table, host, type="ping")
            clock.advance(2.0)
            await until(lambda: 1 not in hub.connected(table), "Ola away")
            assert hub.connected(table) == {0, 2}  # the host pinged; Kari never pings: seen as there
            seats = last_state(host)["seats"]
            assert [s["connected"] for s in seats] == [True, False, True]
            # her turn comes while she is away: the grace period, then a bot for her seat
            people = {0: RandomBot(4), 2: RandomBot(5)}
            while table.to_act() != 1:
                seat = table.person_to_act()
                if seat in people:
                    await play(hub, table, host if seat == 0 else kari, people[seat])
                await asyncio.sleep(0.001)
            await until(lambda: table.timer is not None and table.timer.kind == "grace", "the grace period")
            clock.advance(15)
            await until(lambda: 1 in table.standin, "a bot for Ola")
            await send(hub, table, ola, type="ping")  # her network is back
            assert 1 not in table.standin and 1 in hub.connected(table)
            assert last_state(ola)["seats"][1]["connected"] is True
        finally:
            await hub.close()

    asyncio.run(main())


def test_only_the_host_nudges_skips_and_pauses_and_the_others_are_told_why(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, _ = await table_at(hub, ("host", "friend"), clock=60)
            host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb")
            await send(hub, table, host, type="start")
            for kind, words in (("nudge", "bare verten kan puffe en spiller"),
                                ("skip", "bare verten kan la en bot ta et trekk for en annen"),
                                ("pause", "bare verten kan sette spillet på pause")):
                frames(ola)
                await send(hub, table, ola, type=kind, paused=True, at=0)
                assert last_state(ola)["error"] == words
            assert not table.paused and not any(e["type"] in ("cover", "pause") for e in logged(hub, table))
        finally:
            await hub.close()

    asyncio.run(main())


def test_the_host_nudges_then_skips_a_turn(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, tokens = await table_at(hub, ("host", "friend"), clock=None)
            host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1)
            await send(hub, table, host, type="start")
            people = RandomBot(6)
            while table.person_to_act() != 1:
                await play(hub, table, host, people)
            frames(host), frames(ola)
            await send(hub, table, host, type="nudge", at=1)
            assert any(f.get("nudge") == {"by": "Anne"} for f in frames(ola))
            assert last_state(host)["nudged"] == 1
            await send(hub, table, host, type="nudge", at=1)  # once a turn
            assert last_state(host)["error"] == "that player has already been nudged this turn"
            assert not any("nudge" in f for f in frames(ola))
            seq = table.seq
            await send(hub, table, host, type="skip")
            await until(lambda: table.seq > seq, "the bot's move for Ola")
            cover = [e for e in logged(hub, table) if e["type"] == "cover"]
            assert cover == [{"type": "cover", "game": 1, "seq": seq, "seat": 1, "why": "host"}]
            assert table.seat_of(tokens[1]) == 1 and 1 not in table.standin
            await send(hub, table, host, type="skip")  # not Ola's turn now, or the host's own
            if table.person_to_act() == 0:
                assert last_state(host)["error"] is not None  # the host's own turn is not skipped for her
        finally:
            await hub.close()

    asyncio.run(main())


def test_a_paused_table_stops_moves_clock_and_bots_and_the_clock_goes_on_from_where_it_stood(
        tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, _ = await table_at(hub, ("host", "friend", "bot"), clock=60)
            host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb")
            await send(hub, table, host, type="start")
            bots = {0: RandomBot(8), 1: RandomBot(9)}
            while table.person_to_act() != 1:
                if table.person_to_act() == 0:
                    await play(hub, table, host, bots[0])
                await asyncio.sleep(0.001)
            clock.advance(20)
            await send(hub, table, host, type="pause", paused=True)
            assert table.paused and logged(hub, table)[-1] == {"type": "pause", "game": 1, "paused": True}
            state = last_state(ola)
            assert state["paused"] is True and state["timer"]["paused"] is True and state["timer"]["left"] == 40
            clock.advance(600)  # a long pause: the clock stands still
            seq = table.seq
            await send(hub, table, ola, type="move", game=1, seq=seq, move="pickup")
            assert last_state(ola)["error"] == "spillet står på pause; verten kan la det fortsette"
            assert table.seq == seq and 1 not in table.standin and table.cover is None
            await send(hub, table, host, type="pause", paused=True)
            assert last_state(host)["error"] == "the game is already paused"
            await send(hub, table, host, type="pause", paused=False)
            assert last_state(ola)["timer"]["left"] == 40 and last_state(host)["paused"] is False
            clock.advance(40)
            await until(lambda: table.seq > seq, "the bot's move for Ola after what was left of her clock")
            assert [e["why"] for e in logged(hub, table) if e["type"] == "cover"] == ["clock"]
        finally:
            await hub.close()

    asyncio.run(main())


def test_a_pause_survives_a_restart(tmp_path: Path) -> None:
    async def main() -> str:
        hub = await new_hub(tmp_path, ManualClock())
        table, _ = await table_at(hub, ("host", "bot"), clock=30)
        host = seat_conn(hub, table, 0)
        await send(hub, table, host, type="start")
        await until(lambda: table.person_to_act() == 0, "the host to act")
        await send(hub, table, host, type="pause", paused=True)
        await hub.close()
        return table.id

    tid = asyncio.run(main())

    async def again() -> None:
        hub = await new_hub(tmp_path, ManualClock())
        try:
            t = hub.tables[tid]
            assert t.paused and t.clock == 30 and t.bot_to_act() is None and t.to_act() is None
        finally:
            await hub.close()

    asyncio.run(again())


def test_the_host_gives_a_seat_back_and_the_old_token_works_again(tmp_path: Path) -> None:
    async def main() -> None:
        hub = await new_hub(tmp_path, ManualClock())
        try:
            table, tokens = await table_at(hub, ("host", "friend", "friend"), clock=None)
            host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1)
            await send(hub, table, host, type="start")
            await send(hub, table, ola, type="seat", at=2, kind="back")
            assert last_state(ola)["error"] == "only the host can change the seats"
            await send(hub, table, host, type="seat", at=2, kind="back")
            assert last_state(host)["error"] == "there is no person to give that seat back to"
            await send(hub, table, host, type="seat", at=1, kind="bot", level="easy")
            assert table.seats[1].kind == "bot" and table.seat_of(tokens[1]) is None and ola.seat is None
            assert last_state(host)["seats"][1]["back"] is True
            await send(hub, table, host, type="seat", at=1, kind="back")
            assert table.seats[1].kind == "human" and table.seats[1].name == "Ola 1"
            assert table.seat_of(tokens[1]) == 1  # her old token works again
            assert ola.seat == 1  # and her open page has the seat again
            assert logged(hub, table)[-1]["back"] is True
            # a bot's seat may instead get a new link (the old token then stays dead)
            await send(hub, table, host, type="seat", at=2, kind="bot", level="easy")
            frames(host)
            await send(hub, table, host, type="seat", at=2, kind="reinvite")
            link = [f for f in frames(host) if "reinvite" in f]
            assert link and link[0]["reinvite"]["seat"] == 2
            assert table.seat_of(link[0]["reinvite"]["token"]) == 2 and table.seat_of(tokens[2]) is None
        finally:
            await hub.close()

    asyncio.run(main())


def test_the_frame_names_the_clock_for_every_viewer(tmp_path: Path) -> None:
    """Spectators see the countdown of the player to act too (the deadline is public)."""
    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, _ = await table_at(hub, ("host", "bot"), clock=120)
            host, watcher = seat_conn(hub, table, 0), seat_conn(hub, table, None)
            await send(hub, table, host, type="start")
            await until(lambda: table.person_to_act() == 0, "the host to act")
            clock.advance(100)
            await send(hub, table, watcher, type="sync")
            timer = last_state(watcher)["timer"]
            assert timer == {"seat": 0, "kind": "clock", "left": 20.0, "total": 120, "paused": False}
            assert json.loads(json.dumps(timer)) == timer
        finally:
            await hub.close()

    asyncio.run(main())


def test_reactions_are_from_the_list_shown_to_the_table_and_rate_limited(tmp_path: Path) -> None:
    from mattis.web.hub import REACTION_GAP, REACTIONS

    async def main() -> None:
        clock = ManualClock()
        hub = await new_hub(tmp_path, clock)
        try:
            table, _ = await table_at(hub, ("host", "friend"), clock=None)
            host, ola, watcher = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb"), seat_conn(hub, table, None)
            await send(hub, table, ola, type="react", emote=REACTIONS[0])
            for c in (host, ola, watcher):
                assert last_state(c)["reaction"] == {"seat": 1, "emote": REACTIONS[0], "n": 1}
            await send(hub, table, ola, type="react", emote=REACTIONS[1])  # too soon
            assert last_state(ola)["error"] == "vent litt før du sender en ny reaksjon"
            assert not frames(host)
            await send(hub, table, host, type="react", emote="free text")
            assert last_state(host)["error"] == "unknown reaction"
            await send(hub, table, watcher, type="react", emote=REACTIONS[0])
            assert last_state(watcher)["error"] == "spectators cannot play"
            clock.advance(REACTION_GAP)
            await send(hub, table, ola, type="react", emote=REACTIONS[1])
            assert last_state(host)["reaction"] == {"seat": 1, "emote": REACTIONS[1], "n": 2}
        finally:
            await hub.close()

    asyncio.run(main())
