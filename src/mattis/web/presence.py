"""Connections and presence: who is connected at a table (at this worker and, with several,
at the others), each connection's frame sent to it (built by :func:`mattis.web.view.frame`),
and the heartbeat.  A page that pings (every :data:`~mattis.web.conn.HEARTBEAT` seconds) and
then is not heard for :data:`~mattis.web.conn.HEARTBEAT_MISSES` beats in a row is *away* (not
connected) until it is heard again, long before the WebSocket's own ping timeout.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from .conn import HEARTBEAT_MISSES, Conn
from .fairness import fan_out
from .refusal import Refusal
from .scheduler import RESTART_PAUSE, Scheduler
from .table import Table
from .tablestate import Event
from .view import frame

log = logging.getLogger("mattis.web")


class Presence(Scheduler):
    """Who is at each table, and what each connection is sent."""

    def connected(self, table: Table) -> set[int]:
        """Seats with a page open (at any worker)."""
        on = self.local_seats(table)
        if self.cluster is not None:
            on |= self.cluster.remote_seats(table.id)
        return on

    def local_seats(self, table: Table) -> set[int]:
        """Seats with a page open at this worker that is not away (its heartbeat is heard)."""
        return {c.seat for c in self.conns.get(table.id, ()) if c.seat is not None and not c.away}

    def broadcast(self, table: Table) -> None:
        conns = self.conns.get(table.id, set())
        if self.cluster is not None:
            self.cluster.publish_presence(table)
            self.cluster.publish_state(table)
        if not conns:
            return
        spectators = sum(1 for c in conns if c.seat is None)
        if spectators <= self.limits.spectators_paced_after:
            self.push_frames(table, conns)
            return
        self.push_frames(table, [c for c in conns if c.seat is not None])
        delay = self.spectator_pace.plan(table.id, self.waits.now(), self.limits.spectator_frames)
        if delay == 0.0:
            self.push_frames(table, [c for c in conns if c.seat is None])
        elif delay is not None:
            task = self.supervise(table, "spectators", lambda: self._paced(table, delay))
            self.spectator_tasks[table.id] = task
            task.add_done_callback(lambda t: self.spectator_tasks.pop(table.id, None) if
                                   self.spectator_tasks.get(table.id) is t else None)

    async def _paced(self, table: Table, delay: float) -> None:
        """The planned send to a table's crowd of spectators: the newest state, ``delay`` seconds on."""
        try:
            await self.waits.sleep(delay, "spectators")
            self.push_frames(table, [c for c in self.conns.get(table.id, ()) if c.seat is None])
        finally:
            self.spectator_pace.sent(table.id, self.waits.now(), self.limits.spectator_frames)

    def push_frames(self, table: Table, conns: Iterable[Conn]) -> None:
        """Each connection its frame of the table's state (one build per distinct view)."""
        on = self.connected(table)
        now = self.waits.now()
        for c, text in fan_out(conns, lambda c: frame(
                table, c.seat, c.lang, connected=on, history=c.history, now=now, heartbeat=self.heartbeat,
                former=c.former)):
            c.push(text, latest=True)

    def reply(self, table: Table, conn: Conn, error: Refusal | None = None, echo: int | None = None,
              extra: dict[str, Any] | None = None) -> None:
        conn.push(frame(table, conn.seat, conn.lang, connected=self.connected(table), error=error, echo=echo,
                        extra=extra, history=conn.history, now=self.waits.now(), heartbeat=self.heartbeat,
                        former=conn.former))

    def drop_seat(self, table: Table, seat: int, ev: Event | None = None) -> None:
        """The person in a seat was removed, replaced or re-invited: their old token's
        connections become spectators.  Given back (``back``): the connections that had the
        seat before a bot took it have it again (the same token)."""
        back = ev is not None and ev.get("back") is True
        for c in self.conns.get(table.id, ()):
            if back and c.former == seat and c.seat is None:
                c.seat, c.former = seat, None
            elif c.seat == seat and not back:
                c.seat, c.former = None, seat if ev is not None and ev.get("kind") == "bot" else None

    # ----------------------------------------------------------- heartbeat
    async def _heartbeats(self) -> None:
        """Look at who has been heard every beat, for as long as the server runs; a failure is
        logged, counted and the loop goes on after the restart pause (never silently gone)."""
        while True:
            try:
                while True:
                    await self.waits.sleep(self.heartbeat, "heartbeat")
                    self.beat()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.restarts["heartbeat"] += 1
                log.error("heartbeat task failed (%s: %s); restarted (%d heartbeat restarts so far)",
                          type(e).__name__, e, self.restarts["heartbeat"])
                await self.waits.sleep(RESTART_PAUSE, "restart")

    def beat(self) -> None:
        """One heartbeat look: a seat's page that pings and has not been heard for
        :data:`HEARTBEAT_MISSES` looks in a row is away (its seat counts as not connected, so
        the grace period starts if it is her turn); the tables where that happened are told."""
        for tid, conns in list(self.conns.items()):
            gone: list[int] = []
            for c in list(conns):
                if c.seat is None or not c.pings or c.away:
                    continue
                if c.heard:
                    c.heard, c.missed = False, 0
                    continue
                c.missed += 1
                if c.missed >= HEARTBEAT_MISSES:
                    c.away = True
                    gone.append(c.seat)
            table = self.tables.get(tid)
            if gone and table is not None:
                log.info("table %s: seat %s not heard for %d heartbeats: away", tid,
                         ", ".join(str(g) for g in gone), HEARTBEAT_MISSES)
                self.kick_bots(table)
                self.broadcast(table)

    def heard_from(self, table: Table, conn: Conn) -> None:
        """Something came from a page: an away one is back (its seat handed back at once)."""
        conn.heard, conn.missed = True, 0
        if not conn.away:
            return
        conn.away = False
        if conn.seat is not None:
            table.hand_back(conn.seat)
            if conn.seat == 0:
                table.host_away = False
        self.kick_bots(table)
        self.broadcast(table)

