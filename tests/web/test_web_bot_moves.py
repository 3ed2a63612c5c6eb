"""Who played it: a move a bot made for a person (her turn clock ran out, the host skipped her
turn, she was away, the host gave her seat to a bot) is said to be a bot's, and why, everywhere
it is shown: the logged event (``by``), the page's log and last-move line (the frame's log
words), the seat's tag, the replay, the review and the terminal seat's log; and the person whose
seat was given to a bot is told so in words.  In-process, on the hub's manual clock."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, cast

from clock_helpers import ManualClock, frames, on_hub, send, until
from test_web_clock import play, seat_conn, table_at

from mattis.bots import RandomBot
from mattis.core import Move, parse_move
from mattis.core.text import describe_bot_move
from mattis.tui.remote import JoinError, RemoteSession, Seat
from mattis.web.analysis import mark_bot_moves
from mattis.web.conn import Conn
from mattis.web.hub import Hub
from mattis.web.table import Table
from mattis.web.view import replay_steps

WHY_NB = {"clock": "tiden gikk ut", "host": "verten hoppet over turen", "away": "borte",
          "given": "verten ga plassen til en bot"}
WHY_EN = {"clock": "time ran out", "host": "the host skipped the turn", "away": "away",
          "given": "the host gave the seat to a bot"}


def states(c: Conn) -> list[dict[str, Any]]:
    return [f for f in frames(c) if f.get("type") == "state"]


def log_entry(state: dict[str, Any], seq: int) -> dict[str, Any]:
    obs = state["obs"]
    entry: dict[str, Any] = obs["log"][seq - obs["log_start"]]
    return entry


def test_the_one_line_says_bot_for_whom_and_why() -> None:
    king = parse_move("play KH")
    assert describe_bot_move("Ola", king, (), "clock", "nb") == "Bot for Ola: hjerter konge (tiden gikk ut)"
    assert describe_bot_move("Ola", king, (), "host", "en") == "Bot for Ola: king of hearts (the host skipped the turn)"
    assert describe_bot_move("Du", king, (), "away", "nb") == "Bot for deg: hjerter konge (borte)"
    assert describe_bot_move("You", king, (), "given", "en") == \
        "Bot for you: king of hearts (the host gave the seat to a bot)"


def test_clock_skip_away_and_given_moves_are_shown_as_the_bots_everywhere(tmp_path: Path) -> None:
    on_hub(tmp_path, evening)


async def evening(hub: Hub, clock: ManualClock) -> None:
    table, _tokens = await table_at(hub, ("host", "friend"), clock=30, grace=60)
    host, ola = seat_conn(hub, table, 0), seat_conn(hub, table, 1, "nb")
    term = seat_conn(hub, table, 1, "nb")  # a terminal seat (``mattis join``): it asks for the whole history
    term.history = True
    await send(hub, table, host, type="start")
    people = {0: RandomBot(1), 1: RandomBot(2)}
    session = RemoteSession("nb")
    seen: dict[str, int] = {}  # why: the move number the bot made for Ola

    async def to_ola() -> None:
        """The host plays her own turns until Ola is to act (and Ola's terminal takes its frames)."""
        while table.person_to_act() != 1:
            assert table.status == "playing"
            if table.person_to_act() == 0:
                await play(hub, table, host, people[0])
            await asyncio.sleep(0.001)

    async def bot_moved(why: str, seq: int) -> None:
        await until(lambda: table.seq > seq, f"a bot's move for Ola ({why})")
        seen[why] = seq
        ev = [e for e in logged(hub, table) if e["type"] == "move" and e["seq"] == seq]
        assert ev[0]["seat"] == 1 and ev[0].get("by") == why  # logged: who and why
        hub.broadcast(table)  # (the frames after the move: the bot's next moves may follow)
        for c, words in ((ola, WHY_NB), (host, WHY_EN)):
            if c not in hub.conns[table.id]:  # Ola's page while her phone is away
                continue
            state = states(c)[-1]
            if state["you"] is None:  # Ola's page while a bot has her seat
                continue
            entry = log_entry(state, seq)
            assert entry["by"] == why and entry["seat"] == 1
            assert entry["text"].startswith("Bot for Ola 1: ") and entry["text"].endswith(f"({words[why]})")
            assert state["obs"]["bot_moves"][str(seq)] == why
            if table.seq == seq + 1:  # nothing after it yet: the last-move line is this one
                assert state["obs"]["log"][-1]["text"] == entry["text"]
            if why != "given":  # the seat's tag says a bot made her last move, until she moves herself
                assert state["seats"][1]["bot_last"] == why

    # 1. Her turn clock runs out.
    await to_ola()
    seq = table.seq
    clock.advance(30)
    await bot_moved("clock", seq)

    # 2. The host skips her turn: the frame says why the bot plays it (not "time ran out").
    await to_ola()
    seq = table.seq
    frames(host)
    await send(hub, table, host, type="skip")
    first = states(host)[0]
    assert first["seats"][1]["covered"] is True and first["seats"][1]["cover_why"] == "host"
    await bot_moved("host", seq)

    # 3. Her phone drops: the grace period, then a bot plays for her while she is away.
    await to_ola()
    seq = table.seq
    for c in (ola, term):
        hub.conns[table.id].discard(c)
    hub.kick_bots(table)
    clock.advance(60)
    await bot_moved("away", seq)
    await until(lambda: table.person_to_act() in (0, None) or table.status != "playing", "the bot stands in")
    for c in (ola, term):  # she is back (as serve_ws does at a hello)
        hub.conns[table.id].add(c)
    table.hand_back(1)
    hub.kick_bots(table)
    hub.broadcast(table)
    feed(session, term)

    # 4. The host gives her seat to a bot: her page is told so, in words, with what to do.
    if table.status == "playing":
        await to_ola()
        feed(session, term)
        seq = table.seq
        await send(hub, table, host, type="seat", at=1, kind="bot")
        told = states(ola)[-1]
        assert told["you"] is None and told["given"] == 1
        gone = [f for f in frames(term) if f.get("type") == "state" and f["you"] is None][-1]
        try:  # the terminal seat says the same, and ends
            Seat(cast(Any, None), RemoteSession("nb"), lambda _n: None).take(gone)
            raise AssertionError("the terminal seat went on without its seat")
        except JoinError as e:
            assert "Verten har gitt plassen din (Ola 1) til en bot" in str(e) and "Gi plassen tilbake" in str(e)
        await bot_moved("given", seq)
        await send(hub, table, host, type="seat", at=1, kind="back")  # given back: her page has it again
        back = states(ola)[-1]
        assert back["you"] == 1 and back["given"] is None

    # The rest of the game, each playing her own turns.
    while table.status == "playing":
        if table.person_to_act() in people:
            who = cast(int, table.person_to_act())
            await play(hub, table, ola if who == 1 else host, people[who])
        await asyncio.sleep(0.001)
    feed(session, term)
    assert {"clock", "host", "away"} <= set(seen)

    # The terminal seat's log: the same moves, "Bot for deg: ... (why)".
    for why in seen:
        line = [x for x in session.log if x.startswith("Bot for deg: ") and x.endswith(f"({WHY_NB[why]})")]
        assert line, (why, session.log)
    assert sum(x.startswith("Bot for deg: ") for x in session.log) == len(table.by_bot[1])

    # The replay: the same words in its steps, with who and why.
    names = [s.name for s in table.seats]
    steps = replay_steps(table.records[1], names, "nb", table.by_bot[1])
    for why, seq in seen.items():
        assert steps[seq + 1]["by"] == why and steps[seq + 1]["seat"] == 1
        assert steps[seq + 1]["text"].startswith("Bot for Ola 1: ") and steps[seq + 1]["text"].endswith(
            f"({WHY_NB[why]})")
    assert sum(1 for s in steps if s["by"]) == len(table.by_bot[1])

    # A restart rebuilds who played what from the log.
    events = logged(hub, table)
    again = Table.from_create(events[0])
    for ev in events[1:]:
        again.apply(ev)
    assert again.by_bot == table.by_bot and set(table.by_bot[1].values()) == set(seen)

    # The review of Ola's game marks the decisions a bot made and says so in its summary.
    body: dict[str, Any] = {"decisions": [{"move": n + 1} for n in range(table.seq)],
                            "lines": [f"{n + 1}. x" for n in range(table.seq)], "words": {"summary": []}}
    mark_bot_moves(body, table.by_bot[1], table.records[1], 1, "Ola 1", "en")
    for why, seq in seen.items():
        assert body["decisions"][seq]["by"] == why
        assert body["lines"][seq] == f"{seq + 1}. x (played by a bot: {WHY_EN[why]})"
    listed = ", ".join(f"move {n + 1} ({WHY_EN[why]})" for n, why in sorted(table.by_bot[1].items()))
    n = len(table.by_bot[1])
    assert body["words"]["summary"] == [f"{n} of the moves were played by a bot for Ola 1: {listed}."]
    host_body: dict[str, Any] = {"decisions": [], "lines": [], "words": {"summary": []}}
    mark_bot_moves(host_body, table.by_bot[1], table.records[1], 0, "Anne", "en")
    assert host_body["words"]["summary"] == []  # none of the host's moves was a bot's


def feed(session: RemoteSession, c: Conn) -> None:
    """The terminal seat takes its frames (those while it had its seat)."""
    for f in frames(c):
        if f.get("type") == "state" and f.get("you") == 1:
            session.update(f)


def logged(hub: Hub, table: Table) -> list[dict[str, Any]]:
    assert hub.store is not None
    return hub.store.events(table.id, 0)


def test_an_old_log_without_who_shows_the_move_under_the_players_name() -> None:
    ev, _ = Table.create_event("mattis", {}, 2, None, "Anne", 5)
    t = Table.from_create(ev)
    t.apply(t.deal_event(0))
    assert t.referee is not None
    seat = t.referee.to_act
    assert seat is not None
    move: Move = RandomBot(1).act(t.referee.observation(seat))
    t.apply(t.move_event(seat, t.game, 0, str(move)))
    assert t.by_bot == {}
    from mattis.web.view import frame
    state = json.loads(frame(t, 0, "nb"))
    assert state["obs"]["log"][0]["by"] is None and not state["obs"]["log"][0]["text"].startswith("Bot for")
    assert state["obs"]["bot_moves"] == {}
