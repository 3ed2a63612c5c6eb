"""The WebSocket hub (:class:`Hub`): all tables, their connections and their bots.  It is
built in layers, each a module with one job: the table service (:mod:`mattis.web.service`),
the bots and timers (:mod:`mattis.web.scheduler`), connections and presence
(:mod:`mattis.web.presence`), and here the top one: each WebSocket's life and its requests.

Every change follows one path (:meth:`Hub.commit`): the request is checked
against the table and the engine, the event is appended to the SQLite log, then
applied in memory, then every connection at the table is sent its own view
(built by :func:`mattis.web.view.frame`).  Bots act from their seat's
observation only (through the play layer's :func:`~mattis.play.next_move`),
after a delay people can follow (much shorter once no person is left to act).

A person who is not connected when it is their turn gets the table's grace
period; then a bot plays their seat (:meth:`Table.stand_in`) until they connect
again, which hands the seat straight back.  A connected person gets the table's
turn clock, if it has one; then a bot plays that one turn (a ``cover`` event).
Whether a page is still there is known from its heartbeat: a page that pings
(every :data:`~mattis.web.conn.HEARTBEAT` seconds) and then is not heard for
:data:`~mattis.web.conn.HEARTBEAT_MISSES` beats in a row is *away* (not connected) until it
is heard again, long before the WebSocket's own ping timeout.  Every wait goes through :class:`~mattis.web.waits.Waits`
(tests put in their own clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Final

from fastapi import WebSocket, WebSocketDisconnect

from ..core import Observation
from ..core.cards import Lang
from . import guard, messages
from .conn import Conn
from .origin import origin_ok
from .presence import Presence
from .refusal import Refusal
from .store import StoreConflict, StoreError
from .table import Table
from .untrusted import loads
from .view import hint_json, notice

log = logging.getLogger("mattis.web")

MAX_MESSAGE: Final = 4096
REACTIONS: Final = ("👍", "😄", "😮", "😬", "👏", "🙈")
"""The quick reactions a seated player may show the table (no free text)."""
REACTION_GAP: Final = 3.0
"""Seconds between two reactions from one page (more often: refused, in words)."""
PONG: Final = '{"type":"pong"}'
"""The answer to a page's heartbeat (a page that hears nothing for a while knows its network is down)."""


def _lang(value: object) -> Lang:
    return "nb" if value == "nb" else "en"


def _notice(refusal: Refusal, lang: Lang) -> str:
    """A refused hello, in the client's language."""
    return notice(refusal.en, refusal.nb, lang)


class Hub(Presence):
    """All tables, their connections and their bots: the table service, the bots and timers
    and presence (the layers below), and here each WebSocket's life and requests."""

    # ------------------------------------------------------------ websocket
    def origin_ok(self, ws: WebSocket) -> bool:
        """Only pages served by this server may open a WebSocket (:func:`mattis.web.origin.origin_ok`:
        an allowed host, the exact scheme, the port the browser connected to)."""
        return origin_ok(ws.scope, self.hosts)

    async def serve_ws(self, ws: WebSocket, tid: str) -> None:
        if not self.origin_ok(ws):
            await ws.close(code=4403)  # before accept: the handshake is refused (HTTP 403)
            return
        await ws.accept()
        try:
            hello = loads(await asyncio.wait_for(ws.receive_text(), timeout=15))
        except (TimeoutError, json.JSONDecodeError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client may be gone already
                await ws.close(code=4400)
            return
        if not isinstance(hello, dict):
            hello = {}
        lang = _lang(hello.get("lang"))
        try:
            messages.check({**hello, "type": "hello"})
        except Refusal as r:  # a field of the wrong type: said, and the socket closed (no hello, no table)
            await ws.send_text(_notice(r, lang))
            await ws.close(code=4400)
            return
        table = self.table(tid)
        if table is None:
            await ws.send_text(_notice(Refusal("no_table"), lang))
            await ws.close(code=4404)
            return
        seat: int | None = None
        former: int | None = None
        if hello.get("token") is not None:
            seat = table.seat_of(hello.get("token"))
            if seat is None:  # a seat the host gave to a bot: she watches, and is told so
                former = table.former_seat_of(hello.get("token"))
            if seat is None and former is None:
                await ws.send_text(_notice(Refusal("bad_token"), lang))
                await ws.close(code=4401)
                return
        conn = Conn(ws, seat, lang, history=hello.get("history") is True, former=former)
        self.conns.setdefault(tid, set()).add(conn)
        writer = asyncio.get_running_loop().create_task(self._writer(conn))
        if seat is not None:
            table.hand_back(seat)  # back from being away: the seat is theirs again at once
            if seat == 0:
                table.host_away = False
            self.kick_bots(table)
            self.broadcast(table)
        else:
            self.reply(table, conn)
        try:
            while True:
                text = await guard.receive_text(ws, ws.scope.get(guard.PACE), self.limits.max_message)
                if text is None:  # closed by the guard: binary, too big, or a flood
                    break
                await self.handle(table, conn, text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.conns.get(tid, set()).discard(conn)
            if conn.hinting is not None:
                conn.hinting.cancel()
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            if seat is not None:
                self.kick_bots(table)
                self.broadcast(table)

    async def _writer(self, conn: Conn) -> None:
        while True:
            text = await conn.queue.get()
            if text is None:
                return
            if conn.seat is None:  # a spectator's frame takes its turn (fairness.SendTurns)
                await self.send_turns.turn()
            try:
                await conn.ws.send_text(text)
            except Exception:  # the peer is gone; the reader side cleans up
                return

    async def handle(self, table: Table, conn: Conn, text: str, again: bool = False) -> None:
        """One request from a connection; refusals go back to that connection only.  If another
        worker wrote the table's next event first, the request is checked once more against
        the table brought up to date (``again``).  Anything from a page counts as its heartbeat."""
        if not again:
            self.heard_from(table, conn)
        try:
            if len(text) > MAX_MESSAGE:
                raise Refusal("too_long")
            try:
                msg = loads(text)
            except json.JSONDecodeError:
                raise Refusal("not_json_message") from None
            if not isinstance(msg, dict):
                raise Refusal("not_json_object")
            kind = msg.get("type")
            messages.check(msg)  # every field of its type (messages.MESSAGES), or refused in words
            if kind == "ping":  # the page's heartbeat (it has its frames: only a pong back)
                conn.pings = True
                conn.push(PONG)
                return
            if kind == "lang":
                conn.lang = _lang(msg.get("lang"))
                self.reply(table, conn)
                return
            if kind == "sync":  # "send me the table now", numbered so the client knows the answer
                self.reply(table, conn, echo=msg.get("echo"))  # an int or None (messages.check)
                return
            if conn.seat is None:
                raise Refusal("chat_spectator" if kind == "chat" else "spectator")
            if "seat" in msg and msg["seat"] != conn.seat:
                raise Refusal("other_seat")
            if kind == "react":
                self.react(table, conn, msg.get("emote"))
                return
            if kind == "hint":
                self.ask_hint(table, conn)
                return
            async with self.lock(table.id):  # checked against the table as it is when logged
                token: str | None = None
                if kind == "move":
                    ev = table.move_event(conn.seat, msg.get("game"), msg.get("seq"), msg.get("move"))
                    table.charge_bank(ev, self.waits.now())  # after her clock ran out: what she spent of her bank
                elif kind == "chat":
                    ev = table.chat_event(conn.seat, msg.get("text"), self.waits.now(), self.limits)
                elif kind == "mute":
                    ev = table.mute_event(conn.seat, msg.get("at"), msg.get("muted"))
                elif kind in ("start", "rematch"):
                    after = msg.get("game")
                    if kind == "rematch" and isinstance(after, int) and after < table.game:
                        self.reply(table, conn)  # someone else's rematch came first: that game is this one
                        return
                    if (kind == "start") != (table.referee is None):
                        raise Refusal("started" if kind == "start" else "no_rematch")
                    ev = table.deal_event(conn.seat, msg.get("level"))
                elif kind == "seat":
                    ev, token = table.seat_event(conn.seat, msg.get("at"), msg.get("kind"), msg.get("level"))
                elif kind == "end":
                    ev = table.end_event(conn.seat)
                elif kind == "pause":
                    ev = table.pause_event(conn.seat, msg.get("paused"))
                elif kind == "skip":
                    ev = table.skip_event(conn.seat)
                elif kind == "nudge":
                    self.nudge(table, conn, msg.get("at"))
                    return
                else:
                    raise Refusal("unknown_request")
                if ev["type"] == "seat":
                    self.drop_seat(table, ev["seat"], ev)
                await self.commit(table, ev)
                if token is not None:
                    self.reply(table, conn, extra={"reinvite": {"seat": ev["seat"], "token": token}})
        except Refusal as r:
            self.reply(table, conn, r)
        except StoreConflict as e:
            if not again:
                await self.handle(table, conn, text, again=True)
                return
            log.error("%s", e)
            self.reply(table, conn, Refusal("not_saved"))
        except StoreError as e:
            log.error("%s", e)
            self.reply(table, conn, Refusal("not_saved"))

    def react(self, table: Table, conn: Conn, emote: object) -> None:
        """A seated player's quick reaction, shown to everyone at the table (this worker's pages;
        not logged); one of :data:`REACTIONS`, at most one per :data:`REACTION_GAP` seconds."""
        if not isinstance(emote, str) or emote not in REACTIONS:
            raise Refusal("bad_reaction")
        now = self.waits.now()
        if conn.reacted is not None and now - conn.reacted < REACTION_GAP:
            raise Refusal("react_slow")
        conn.reacted = now
        self.reactions += 1
        shown = {"seat": conn.seat, "emote": emote, "n": self.reactions}
        for c in self.conns.get(table.id, ()):
            self.reply(table, c, extra={"reaction": shown})

    def nudge(self, table: Table, conn: Conn, at: object) -> None:
        """The host nudges the person to act: her pages are told (they show it and beep), the
        host's page is told it went (not logged; once a turn)."""
        assert conn.seat is not None
        seat = table.nudge(conn.seat, at)
        by = table.seats[conn.seat].name
        for c in self.conns.get(table.id, ()):
            if c.seat == seat:
                self.reply(table, c, extra={"nudge": {"by": by}})
        self.reply(table, conn, extra={"nudged": seat})

    def ask_hint(self, table: Table, conn: Conn) -> None:
        """A seated player asks for a hint on her own turn: worked out from her seat's observation
        only (:func:`~mattis.web.view.hint_json`), off the loop as a bot's move is, and sent to
        her page alone (``hint`` in a frame; not logged, as the terminal's hint is not).  One at a
        time per page; asked again in the same position, the same hint at once."""
        seat = conn.seat
        assert seat is not None
        ref = table.referee
        if ref is None or table.person_to_act() != seat:
            raise Refusal("no_hint")
        if conn.hinting is not None and not conn.hinting.done():
            raise Refusal("hint_busy")
        key = (seat, table.game, table.seq, conn.lang)
        if conn.hinted is not None and conn.hinted[0] == key:
            self.reply(table, conn, extra={"hint": conn.hinted[1]})
            return
        conn.hinting = asyncio.get_running_loop().create_task(self._hint(table, conn, key, ref.observation(seat)))

    async def _hint(self, table: Table, conn: Conn, key: tuple[int, int, int, Lang], obs: Observation) -> None:
        """Work the hint out (in the bots' processes, else in a thread) and send it, unless the
        game has moved on meanwhile (a hint for a past position is dropped)."""
        seat, game, seq, lang = key
        try:
            if self.pool is None:
                out = await asyncio.to_thread(hint_json, obs, lang, game, seq)
            else:
                out = await asyncio.get_running_loop().run_in_executor(self.pool, hint_json, obs, lang, game, seq)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in the hint (or the bots' process died): logged, said, the table goes on
            log.exception("table %s: the hint for seat %d failed", table.id, seat)
            self.reply(table, conn, Refusal("hint_failed"))
            return
        conn.hinted = (key, out)
        if conn.seat == seat and (table.game, table.seq) == (game, seq):
            self.reply(table, conn, extra={"hint": out})

