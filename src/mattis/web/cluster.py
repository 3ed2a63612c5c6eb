"""Several web workers on one PostgreSQL database (``mattis serve --db postgresql://... --workers N``).

A worker keeps in memory only the tables it needs (*lazy copies*): those it owns (see
below) and those its clients sit at or ask for, each rebuilt from the one event log when
first needed and kept current from it; a copy neither owned nor used here for a lease is
dropped (:meth:`mattis.web.service.TableService.evict`).  The workers talk only through PostgreSQL's
LISTEN/NOTIFY on one channel (:data:`mattis.web.pgstore.CHANNEL`), with small JSON
messages:

``ev`` (table, number, and the event when it fits in a notification)
    an event was committed (sent by the append itself, in the same statement, so it
    arrives only once the event can be read).  Each worker holding the table applies it (reading the log
    instead when the event did not fit, or when it has missed one before it), and
    sends *its own* clients their frames, each built from that seat's observation
    (:func:`mattis.web.view.frame`): frames never travel between workers, only events
    do, so no seat can get another seat's view.
``pr`` (worker, table, seats)
    the seats connected to that worker at that table (a seat is online if it is
    connected to any worker that is alive).
``st`` (table, stood-in seats, host away)
    the owner's connection state of a table (who a bot plays for, :meth:`Table.stand_in`);
    every worker keeps the last one of each table, for a copy it reads later.
``hb`` (worker)
    a heartbeat, every third of a lease; a worker not heard from for a lease is gone,
    and its clients' presence with it.
``hi`` / ``bye`` (worker)
    a worker started (the others send it their presence and state) or stopped.
``del`` (table)
    retention deleted a table.

**Ownership.** Each table has a lease row (owner, expiry) in PostgreSQL.  Its owner runs
its bots and its grace timers; it renews all its leases every third of
``Limits.lease_seconds``, and a worker whose renewal finds a lease gone stops the bots
there.  Every worker takes over leases that have run out (their owner was killed or
stopped), and the new owner reads the table's log to its end before its bots play.

**Commands** (moves, start, join, seat changes) are checked and appended by whichever
worker the client is connected to, against its copy of the table: the primary key
(table, number) makes the log the arbiter.  A worker whose copy was behind gets a
conflict, reads the events it missed and checks the request again (a move for a
position that has changed is then refused as stale, exactly as on one worker).  So no
command waits for a forwarding round trip, and moves go on while a table's owner is
being replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

from .pglimits import PgLimits
from .pgstore import CHANNEL, PgStore
from .store import StoreError

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("mattis.web")


class Worker(Protocol):
    """What the cluster asks of this worker's hub (:class:`mattis.web.hub.Hub`)."""

    @property
    def tables(self) -> dict[str, Table]: ...

    def heard(self, tid: str, n: int | None = None, event: dict[str, Any] | None = None) -> None: ...

    def taken(self, tid: str) -> None: ...

    def lost(self, tid: str) -> None: ...

    def forget(self, tid: str) -> None: ...

    def evict(self) -> list[str]: ...

    def presence_changed(self, tid: str) -> None: ...

    def broadcast(self, table: Table) -> None: ...

    def local_seats(self, table: Table) -> set[int]: ...


class Cluster:
    """This worker's part: its leases, its listener, the other workers' presence."""

    def __init__(self, hub: Worker, store: PgStore, url: str, ttl: float) -> None:
        self.hub = hub
        self.store = store
        self.url = url
        self.ttl = ttl
        self.me = secrets.token_hex(6)
        self.owned: set[str] = set()
        self.presence: dict[str, dict[str, frozenset[int]]] = {}
        """worker -> table -> seats connected there."""
        self.heard: dict[str, float] = {}
        """worker -> when it was last heard (monotonic)."""
        self.sent_presence: dict[str, frozenset[int]] = {}
        self.sent_state: dict[str, tuple[tuple[int, ...], bool]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.outbox: list[dict[str, Any]] = []
        self.flusher: asyncio.Task[None] | None = None
        self.listener: Any = None
        self.ready = asyncio.Event()
        self.states: dict[str, tuple[frozenset[int], bool]] = {}
        """table -> (stood-in seats, host away), as its owner last said (for copies read later)."""
        self.limits = PgLimits(store, self.me, ttl)
        """The per-address limits of all workers together (the guard's :attr:`~mattis.web.rates.Gate.shared`)."""

    # ----------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Listen first (so no event is missed), then let the hub load the tables, then take leases."""
        await self._listen_connect()
        self.tasks.append(asyncio.get_running_loop().create_task(self._listen()))

    def begin(self) -> None:
        """After the tables are loaded: adopt old logs, say hello.  The leases that ran out are
        taken from the next tick on, a third of a lease later, once the other workers' heartbeats
        have said how many share them (so workers started together split them)."""
        self.store.adopt_unleased()
        self.tick(take=False)
        self.send({"k": "hi", "w": self.me})
        self.tasks.append(asyncio.get_running_loop().create_task(self._leases()))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.limits.release()
        self.store.release(self.me)  # the others take these tables at their next tick
        with contextlib.suppress(StoreError):
            self.store.notify_many([*self.outbox, {"k": "bye", "w": self.me}])
        if self.listener is not None:
            with contextlib.suppress(Exception):
                await self.listener.close()

    async def _listen_connect(self) -> None:
        import psycopg

        self.listener = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self.listener.execute(f"LISTEN {CHANNEL}")

    async def _listen(self) -> None:
        while True:
            try:
                async for note in self.listener.notifies():
                    try:
                        self.on_message(json.loads(note.payload))
                    except Exception as e:  # one bad message must not stop the listener
                        log.error("cluster message %r: %s: %s", note.payload[:200], type(e).__name__, e)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.error("the database's notifications stopped (%s); reconnecting", e)
            await asyncio.sleep(1)
            with contextlib.suppress(Exception):
                await self._listen_connect()
                for tid in list(self.hub.tables):  # whatever was missed meanwhile
                    self.hub.heard(tid)

    async def _leases(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                self.tick()
            except Exception as e:
                log.error("lease renewal failed: %s", e)

    # --------------------------------------------------------------- leases
    def owns(self, tid: str) -> bool:
        return tid in self.owned

    def claim(self, tid: str) -> None:
        """A table this worker just made is its own."""
        if self.store.claim(tid, self.me, self.ttl):
            self.owned.add(tid)

    def tick(self, take: bool = True) -> None:
        """Heartbeat, renew, notice lost leases, take over leases that ran out (this worker's share
        of them: one in as many as there are live workers), forget gone workers."""
        self.send({"k": "hb", "w": self.me})
        held = self.store.renew(self.me, self.ttl)
        for tid in self.owned - held:
            log.warning("table %s: lease lost to another worker", tid)
            self.owned.discard(tid)
            self.hub.lost(tid)
        self.owned |= held
        now = time.monotonic()
        live = 1 + sum(1 for when in self.heard.values() if now - when <= self.ttl)
        for tid in self.store.take_expired(self.me, self.ttl, share=live) if take else ():
            self.owned.add(tid)
            self.hub.taken(tid)
        for w, when in list(self.heard.items()):
            if now - when > self.ttl:
                self.forget_worker(w)
        self.limits.renew()
        self.hub.evict()

    def forget_worker(self, w: str) -> None:
        self.heard.pop(w, None)
        for tid in self.presence.pop(w, {}):
            self.hub.presence_changed(tid)

    # ------------------------------------------------------------ messages
    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the other workers; they go out in order, in a thread, so a storm of
        reconnecting clients does not hold up the loop."""
        self.outbox.append(message)
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        while self.outbox:
            batch, self.outbox = self.outbox, []
            try:
                await asyncio.to_thread(self.store.notify_many, batch)
            except StoreError as e:
                log.error("%s", e)

    def on_message(self, m: dict[str, Any]) -> None:
        kind, w = m.get("k"), str(m.get("w", ""))
        if w and w != self.me:
            self.heard[w] = time.monotonic()
        if kind == "ev":
            self.hub.heard(m["t"], m["n"], m.get("e"))
        elif w == self.me or not w:
            return
        elif kind == "pr":
            self.presence.setdefault(w, {})[m["t"]] = frozenset(m["s"])
            self.hub.presence_changed(m["t"])
        elif kind == "st":
            self.states[m["t"]] = (frozenset(m["s"]), bool(m["a"]))
            table = self.hub.tables.get(m["t"])
            if table is not None and not self.owns(table.id):
                table.standin = set(m["s"])
                table.host_away = bool(m["a"])
                table.bots = {}
                self.hub.broadcast(table)
        elif kind == "hi":
            self.sent_presence.clear()
            self.sent_state.clear()
            for table in list(self.hub.tables.values()):
                self.publish_presence(table)
                self.publish_state(table)
        elif kind == "bye":
            self.forget_worker(w)
        elif kind == "del":
            self.states.pop(m["t"], None)
            self.hub.forget(m["t"])

    def restore_state(self, table: Table) -> None:
        """A copy just read from the log: who a bot stands in for, as its owner last said."""
        state = self.states.get(table.id)
        if state is not None and not self.owns(table.id):
            table.standin = set(state[0])
            table.host_away = state[1]

    def remote_seats(self, tid: str) -> set[int]:
        """Seats connected to the other live workers at a table."""
        out: set[int] = set()
        for tables in self.presence.values():
            out |= tables.get(tid, frozenset())
        return out

    def publish_presence(self, table: Table) -> None:
        seats = frozenset(self.hub.local_seats(table))
        if self.sent_presence.get(table.id, frozenset()) != seats:
            self.sent_presence[table.id] = seats
            self.send({"k": "pr", "w": self.me, "t": table.id, "s": sorted(seats)})

    def publish_state(self, table: Table) -> None:
        if not self.owns(table.id):
            return
        state = (tuple(sorted(table.standin)), table.host_away)
        if self.sent_state.get(table.id, ((), False)) != state:
            self.sent_state[table.id] = state
            self.send({"k": "st", "w": self.me, "t": table.id, "s": list(state[0]), "a": state[1]})

    def deleted(self, tid: str) -> None:
        self.owned.discard(tid)
        self.states.pop(tid, None)
        self.sent_presence.pop(tid, None)
        self.sent_state.pop(tid, None)
        self.send({"k": "del", "w": self.me, "t": tid})
