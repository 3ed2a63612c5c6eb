"""``mattis join``: a terminal seat at a web table, against a real server on loopback
(line mode and the Textual table): whole games, a dropped connection, a stand-in while
away, a rematch, and one line with exit status 2 for every bad start."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from join_helpers import Host, Terminal, check_frames, create_table, records
from test_web_restart import free_port, start_server
from web_helpers import secret_cards, states_by_seq

from mattis.core import card_code
from mattis.tui.i18n import t
from mattis.tui.remote import JoinError, Note, connect_seat, parse_link, resume_link, run_plain
from tiers import HUNG, wait_until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("join") / "j.db"
    port = free_port()
    proc = start_server(db, port, bot_delay="0")
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def mattis(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mattis.cli.main", *args], input=stdin, capture_output=True,
                          text=True, timeout=HUNG)


def test_links_are_read_as_the_browser_reads_them() -> None:
    invite = parse_link("http://127.0.0.1:8000/t/AbC_1-x?invite=XYZ")
    assert (invite.base, invite.table, invite.invite, invite.token) == ("http://127.0.0.1:8000", "AbC_1-x", "XYZ", None)
    assert invite.ws_url == "ws://127.0.0.1:8000/ws/AbC_1-x"
    back = parse_link("https://cards.example/t/T1#seat=tok%2Ben")
    assert (back.base, back.token, back.ws_url) == ("https://cards.example", "tok+en", "wss://cards.example/ws/T1")
    for bad in ("", "cards.example/t/T1?invite=x", "ftp://h/t/T1?invite=x", "http://h/x/T1?invite=x",
                "http://h/t/T1", "http://h/t/../x?invite=y", "http://h:99999/t/T1?invite=x", "http://[::1/t/T?invite=x"):
        with pytest.raises(JoinError):
            parse_link(bad)


def test_every_bad_start_is_one_line_and_status_2(server: str) -> None:
    full = create_table(server, [{"kind": "human"}, {"kind": "bot"}], seed=1)
    dead = f"http://127.0.0.1:{free_port()}/t/T?invite=x"
    for args in (["not a link"], ["http://127.0.0.1:1/t/../../etc?invite=x"], [dead],
                 [f"{server}/t/{full['table']}#seat=not-a-token"],
                 [f"{server}/t/{full['table']}?invite={full['invite']}"],
                 [f"{server}/t/{full['table']}?invite=wrong"], [f"{server}/t/NoSuchTable?invite=x"]):
        r = mattis("join", *args, *(["--plain"] if len(args[0]) % 2 else []), "--lang", "en")
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("mattis join: "), (args, r.stderr)
        assert "Traceback" not in r.stderr and r.stdout == ""
    r = mattis("join", f"{server}/t/{full['table']}?invite={full['invite']}", "--plain", "--lang", "en")
    assert "full" in r.stderr  # the server's own reason, in words


def test_a_terminal_seat_plays_two_games_through_a_dropped_connection(server: str) -> None:
    table = create_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=7)
    tid = table["table"]
    frames: list[dict[str, Any]] = []
    notes: list[Note] = []

    def watch(f: dict[str, Any]) -> None:
        frames.append(f)

    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "en", notes.append, watch)
    assert seat.session.you == 1
    host = Host(server, tid, table["token"])
    dropped = False

    def drop_once(f: dict[str, Any]) -> None:  # the network drops the connection in the middle of game 1
        nonlocal dropped
        frames.append(f)
        if not dropped and f.get("game") == 1 and f.get("seq", 0) >= 20:
            dropped = True
            seat.conn.drop()

    seat.conn.watch = drop_once
    screen = Terminal(again=["y"], first=["hint", "back"])
    try:
        assert run_plain(seat, screen, screen) == 0
    finally:
        host.close()
    assert host.error is None
    out = screen.getvalue()
    assert dropped and seat.conn.connections >= 2
    assert t("en", "join.dropped") in out and t("en", "join.back") in out
    last = frames[-1]
    assert last["game"] == 2 and last["status"] == "over" and last["obs"]["end_reason"] is not None
    assert out.count(t("en", "end.title")) == 2  # both games' end screens, in the terminal
    assert "> Hint: " in out and t("en", "join.no_take_back") in out
    assert seat.session.away_moves == 0  # nobody played for the seat: it was never away long enough
    recs = records(server, tid, 2)
    assert check_frames(frames, 1, recs) > 60
    # the check catches a card the seat may not see, anywhere in a frame
    f = next(f for f in frames if f.get("game") == 1 and f.get("seq") == 10)
    st, public = states_by_seq(recs[1])[10]
    other = min(secret_cards(st, public, 1))
    with pytest.raises(AssertionError):
        check_frames([{**f, "note": f"by the way: {card_code(other)}"}], 1, recs)


def test_a_bot_plays_for_the_seat_while_it_is_away_and_gives_it_back(server: str) -> None:
    table = create_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=8,
                         grace=1)
    tid = table["table"]
    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "en", lambda n: None)
    link = resume_link(seat)
    host = Host(server, tid, table["token"])
    screen = Terminal(quit_at=3)  # leaves at its third turn
    try:
        assert run_plain(seat, screen, screen) == 0
        assert "mattis join '" + link + "'" in screen.getvalue()
        # away: after the table's grace the server's bot plays the seat
        wait_until(lambda: any(f["seats"][1]["standin"] for f in host.frames), "a stand-in for the seat")
        wait_until(lambda: any(f.get("obs") and f["obs"]["to_act"] != 1 and f["seats"][1]["standin"]
                               and any(h["seat"] == 1 for h in f["obs"]["log"][-1:]) for f in host.frames),
                   "a move played for the seat")
        frames: list[dict[str, Any]] = []
        back = connect_seat(link, "ignored", "en", lambda n: None, frames.append)
        assert back.session.you == 1
        wait_until(lambda: host.frames and not host.frames[-1]["seats"][1]["standin"], "the seat handed back")
        screen2 = Terminal()
        assert run_plain(back, screen2, screen2) == 0
    finally:
        host.close()
    assert t("en", "turn.you") in screen2.getvalue()  # the seat played on from the terminal
    assert back.session.away_moves == 0  # a new terminal cannot tell the seat's own earlier moves from the bot's
    assert frames[-1]["status"] == "over"
    check_frames(frames, 1, records(server, tid, 1))


def test_a_terminal_away_for_a_while_is_told_what_the_bot_played_for_it(server: str) -> None:
    table = create_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=13,
                         grace=1)
    tid = table["table"]
    frames: list[dict[str, Any]] = []
    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "en", lambda n: None)
    host = Host(server, tid, table["token"])
    away = False

    def stand_in_moved() -> bool:
        return any(f.get("obs") and f["seats"][1]["standin"] and f["obs"]["log"]
                   and f["obs"]["log"][-1]["seat"] == 1 for f in host.frames)

    def come_back() -> None:
        wait_until(stand_in_moved, "a move played for the seat while it was away")
        seat.conn.online.set()

    def go_away(f: dict[str, Any]) -> None:  # the network goes down for a while on the seat's turn
        nonlocal away
        frames.append(f)
        if not away and f.get("status") == "playing" and f["seq"] >= 6 and f["obs"]["to_act"] == 1:
            away = True
            seat.conn.online.clear()
            seat.conn.drop()
            threading.Thread(target=come_back, daemon=True).start()

    seat.conn.watch = go_away
    screen = Terminal()
    try:
        assert run_plain(seat, screen, screen) == 0
    finally:
        host.close()
    assert away and seat.session.away_moves >= 1
    assert t("en", "join.played_for_you", n=seat.session.away_moves) in screen.getvalue()
    assert frames[-1]["status"] == "over"
    assert check_frames(frames, 1, records(server, tid, 1)) > 20


@pytest.mark.slow  # over 10 s on a busy machine: CI runs it, the fast tier for work does not
def test_the_terminal_table_plays_a_game_at_a_web_table(server: str) -> None:
    """The Textual table (Textual's pilot) as a seat: the same screens as ``mattis play``."""
    from mattis.tui.remote_app import RemoteApp

    table = create_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=9)
    tid = table["table"]
    frames: list[dict[str, Any]] = []
    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "nb", lambda n: None, frames.append)
    host = Host(server, tid, table["token"])
    said: list[str] = []
    seat.wait_for_game(said.append)
    assert said == [t("nb", "join.lobby")]

    async def play() -> RemoteApp:
        from mattis.tui.app import EndScreen

        app = RemoteApp(seat)
        async with app.run_test(size=(80, 24)) as pilot:
            end = asyncio.get_running_loop().time() + HUNG
            tried_back = False
            while not (isinstance(app.screen, EndScreen) and app.remote.game == 2):
                assert asyncio.get_running_loop().time() < end, "the games at the web table hung"
                if isinstance(app.screen, EndScreen):
                    assert app.remote.over and app.remote.game == 1
                    await pilot.press("n")  # the next game of the sitting, asked for from the terminal
                    continue
                s = app.remote
                if s.human_to_act and not tried_back:
                    tried_back = True
                    await pilot.press("u")  # no take-backs at a web table: one line says why
                    assert app.message == t("nb", "join.no_take_back")
                if s.human_to_act and (s.game, s.seq) not in sent:
                    sent.add((s.game, s.seq))
                    app.submit(s.observation().legal[0])
                await pilot.pause(0.01)
            assert tried_back
            app.action_save_quit()
            await pilot.pause()
        return app

    sent: set[tuple[int, int]] = set()
    try:
        app = asyncio.run(play())
    finally:
        host.close()
        seat.conn.close()
    assert frames[-1]["status"] == "over" and frames[-1]["obs"]["end_reason"] is not None
    assert frames[-1]["game"] == 2 and frames[-1]["tally"]["games"] == 2
    assert app.farewell == [t("nb", "join.bye", link=resume_link(seat))] and not app.failed
    assert len(sent) >= 5  # the seat's moves, made from the terminal table
    assert any(line.startswith("Tor ") or "Du " in line for line in seat.session.log)
    assert check_frames(frames, 1, records(server, tid, 2)) > 40


def test_wait_it_is_annes_turn_goes_when_anne_has_moved(server: str) -> None:
    """A key pressed at the terminal table while the host (Anne) is to act says "Vent, Anne
    er i tur."; once her move has come back from the table, that line is gone."""
    from mattis.tui.remote_app import RemoteApp

    table = create_table(server, [{"kind": "human"}, {"kind": "human"}], seed=9)
    tid = table["table"]
    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "nb", lambda n: None, lambda f: None)
    gate = threading.Event()  # Anne moves only when the test lets her
    host = Host(server, tid, table["token"], gate=gate)
    seat.wait_for_game(lambda line: None)
    wait = t("nb", "err.not_your_turn", name="Anne")

    async def play() -> None:
        app = RemoteApp(seat)
        async with app.run_test(size=(80, 24)) as pilot:
            loop = asyncio.get_running_loop()
            end = loop.time() + HUNG
            while app.remote.observation().to_act != 0:  # Tor moves until it is Anne's turn
                assert loop.time() < end and not app.remote.over, "never Anne's turn"
                s = app.remote
                if s.human_to_act and (s.game, s.seq) not in sent:
                    sent.add((s.game, s.seq))
                    app.submit(s.observation().legal[0])
                await pilot.pause(0.01)
            await pilot.press("c")  # sjanse, on Anne's turn
            assert app.message == wait
            before = app.remote.seq
            gate.set()
            while app.remote.seq == before:
                assert loop.time() < end, "Anne's move never came back"
                await pilot.pause(0.01)
            await pilot.pause()
            assert app.message != wait, "the wait line outlived the wait"
            app.action_save_quit()
            await pilot.pause()

    sent: set[tuple[int, int]] = set()
    try:
        asyncio.run(play())
    finally:
        gate.set()
        host.close()
        seat.conn.close()
    assert host.error is None


def test_a_seat_the_host_gives_to_a_bot_ends_the_terminal_in_one_line(server: str) -> None:
    table = create_table(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=12)
    tid = table["table"]
    seat = connect_seat(f"{server}/t/{tid}?invite={table['invite']}", "Tor", "en", lambda n: None)
    host = Host(server, tid, table["token"])
    asked = False

    def give_away(f: dict[str, Any]) -> None:
        nonlocal asked
        if not asked and f.get("status") == "playing" and f.get("seq", 0) >= 6:
            asked = True
            host.ws.send(json.dumps({"type": "seat", "at": 1, "kind": "bot"}))

    seat.conn.watch = give_away
    screen = Terminal()
    try:
        with pytest.raises(JoinError, match=re.escape(t("en", "join.given_away", name="Tor"))):
            run_plain(seat, screen, screen)
    finally:
        host.close()
    assert asked


def test_a_seat_whose_server_is_gone_stops_trying_and_says_how_to_come_back(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    db = tmp_path_factory.mktemp("gone") / "g.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port, bot_delay="0")
    try:
        table = create_table(base, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=14)
        notes: list[Note] = []
        seat = connect_seat(f"{base}/t/{table['table']}?invite={table['invite']}", "Tor", "en", notes.append)
        seat.conn.give_up_after = 3
        you = seat.session.you
    finally:
        proc.kill()
        proc.wait()
    with pytest.raises(JoinError) as gone:
        while True:
            seat.next()
    assert [n.kind for n in notes] == ["dropped"]
    assert "3 tries in a row" in str(gone.value) and resume_link(seat) in str(gone.value)
    proc = start_server(db, port, bot_delay="0")  # the server is up again: the link in the message takes the seat back
    try:
        back = connect_seat(resume_link(seat), "Tor", "en", lambda n: None)
        assert back.session.you == you and back.conn.token == seat.conn.token
        back.conn.close()
    finally:
        proc.kill()
        proc.wait()
