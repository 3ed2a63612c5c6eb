"""The table service: every table this worker holds, rebuilt from the event log and kept
current from it, and the one path every change takes (:meth:`TableService.commit`): the
event is appended to the log (SQLite, or PostgreSQL shared with the other workers,
:mod:`mattis.web.cluster`), then applied in memory, then the bots are woken and every
connection at the table is sent its own view.

The hub is built in layers, each adding one job to the one below: this service (the tables,
their log, the other workers), the bots and timers (:mod:`mattis.web.scheduler`), the
connections and who is present (:mod:`mattis.web.presence`), the WebSocket requests
(:mod:`mattis.web.hub`).  What this layer asks of the ones above is declared at the end of
:class:`TableService` (and made there).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from concurrent.futures import Executor

from .cluster import Cluster
from .conn import HEARTBEAT, Conn
from .database import open_store
from .fairness import SendTurns, SpectatorPace
from .limits import Limits
from .origin import LOOPBACK, Hosts
from .pgstore import PgStore
from .rates import Gate
from .store import EventLog, StoreConflict, StoreError
from .table import Table
from .tablestate import Event
from .waits import Waits

log = logging.getLogger("mattis.web")


class TableService:
    """All tables this worker holds and their event log (the state of the whole hub is kept here)."""

    def __init__(self, db_path: str, bot_delay: float, test_mode: bool, bot_processes: int = 0,
                 heartbeat: float = HEARTBEAT) -> None:
        self.db_path = db_path
        self.heartbeat = heartbeat
        self.beats: asyncio.Task[None] | None = None
        self.bot_delay = bot_delay
        self.test_mode = test_mode
        self.bot_processes = bot_processes
        self.pool: Executor | None = None
        """Processes the bots think in (``bot_processes`` > 0); otherwise a thread of this worker."""
        self.store: EventLog | None = None
        self.cluster: Cluster | None = None
        """This worker's part of a PostgreSQL cluster (``None``: the only worker)."""
        self.send_turns = SendTurns()
        """Spectators' sends, a few between two looks at the network (:class:`fairness.SendTurns`)."""
        self.spectator_pace = SpectatorPace()
        """When each table's crowd of spectators may next be sent a frame (:class:`fairness.SpectatorPace`)."""
        self.spectator_tasks: dict[str, asyncio.Task[None]] = {}
        """Per table: the planned send to its crowd of spectators."""
        self.tables: dict[str, Table] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.hosts = Hosts(LOOPBACK)  # set by create_app
        self.limits = Limits()  # set by create_app
        self.grace_tasks: dict[str, tuple[tuple[int, int, int], asyncio.Task[None]]] = {}
        self.waits = Waits()
        self.reactions = 0
        """Reactions shown so far (numbers them, so a page shows each once)."""
        self.restarts: Counter[str] = Counter()
        """Bot and timer tasks that failed and were restarted, by kind (``bots``, ``timer``, ``heartbeat``)."""
        self.failed_at: dict[str, tuple[int, int, int]] = {}
        """Per table: the position (game, move, failures in a row) where its bot task last failed."""
        self.locks: dict[str, asyncio.Lock] = {}
        """One per table: a request is checked, logged and applied under it (the log write may
        wait for the database while other tables go on)."""
        self.to_take: deque[str] = deque()
        """Tables this worker took over (a lease that ran out) and has yet to read (:meth:`taken`)."""
        self.taker: asyncio.Task[None] | None = None
        self.gate: Gate | None = None
        """The guard's per-address limits (set by ``create_app``; shared by the workers on PostgreSQL)."""
        self.used: dict[str, float] = {}
        """With several workers: when each table held here was last asked for by a request (a
        table neither owned here nor with a client here is dropped once idle, :meth:`evict`)."""

    # ----------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Open the log, listen to the other workers (PostgreSQL), rebuild every table, start the bots."""
        self.store = open_store(self.db_path)
        if isinstance(self.store, PgStore):
            self.cluster = Cluster(self, self.store, self.db_path, self.limits.lease_seconds)
            await self.cluster.start()
            if self.gate is not None:  # every worker's clients count against the same limits
                self.gate.shared = self.cluster.limits
        if self.bot_processes > 0:
            self.pool = self._new_pool()
        self.load()
        if self.cluster is not None:
            self.cluster.begin()
        self.beats = asyncio.get_running_loop().create_task(self._heartbeats())

    def load(self) -> None:
        """Rebuild every table by replaying its events (with several workers, none: each worker
        reads a table when it takes its lease or a client asks for it, :meth:`table`)."""
        assert self.store is not None
        if self.cluster is not None:
            return
        for tid, events in self.store.tables():
            try:
                t = Table.from_create(events[0])
                for ev in events[1:]:
                    t.apply(ev)
            except Exception as e:  # keep serving the other tables; the log itself is left untouched
                log.error("table %s could not be restored from its log (%s: %s); skipped", tid, type(e).__name__, e)
                continue
            self.tables[tid] = t
        for t in self.tables.values():
            self.kick_bots(t)

    async def close(self) -> None:
        if self.beats is not None:
            self.beats.cancel()
        if self.taker is not None:
            self.taker.cancel()
        for task in list(self.bot_tasks.values()):
            task.cancel()
        for _key, task in list(self.grace_tasks.values()):
            task.cancel()
        for task in list(self.spectator_tasks.values()):
            task.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        if self.store is not None:
            self.store.close()

    # ------------------------------------------------------ other workers
    def owns(self, table: Table) -> bool:
        """Whether this worker runs the table's bots and timers (always, when it is the only one)."""
        return self.cluster is None or self.cluster.owns(table.id)

    def refresh(self, tid: str, n: int | None = None, event: Event | None = None) -> None:
        """Read the events of a table this worker has not applied yet (another worker wrote them),
        apply them, send this worker's clients their frames.  ``event``: event number ``n``, as
        the notification brought it (used if it is the next one; else the log is read)."""
        if self.store is None:
            return
        table = self.tables.get(tid)
        have = 0 if table is None else table.events
        if n is not None and n < have:
            return  # applied already (this worker wrote it)
        if event is not None and n == have:
            events = [event]
        else:
            try:
                events = self.store.events(tid, have)
            except StoreError as e:
                log.error("%s", e)
                return
        if not events:
            return
        try:
            new = table is None
            if table is None:
                table = Table.from_create(events[0])
                events = events[1:]
            for ev in events:
                if ev["type"] == "seat":
                    self.drop_seat(table, ev["seat"], ev)
                table.apply(ev)
            if new and self.cluster is not None:  # who a bot stands in for, as its owner last said
                self.cluster.restore_state(table)
        except Exception as e:
            log.error("table %s could not be brought up to date from its log (%s: %s); dropped",
                      tid, type(e).__name__, e)
            self.forget(tid)
            return
        self.tables[tid] = table
        self.kick_bots(table)
        self.broadcast(table)

    def lock(self, tid: str) -> asyncio.Lock:
        lock = self.locks.get(tid)
        if lock is None:
            lock = self.locks[tid] = asyncio.Lock()
        return lock

    def heard(self, tid: str, n: int | None = None, event: Event | None = None) -> None:
        """Another worker committed event ``n`` of a table (a notification; ``None``: read the
        log to its end): apply it once no request of this worker is being written at that table."""
        if tid not in self.tables:
            return  # a table this worker holds no copy of: read from the log when it is needed
        lock = self.locks.get(tid)
        if lock is None or not lock.locked():
            self.refresh(tid, n, event)
            return

        async def later() -> None:
            async with lock:
                self.refresh(tid, n, event)

        asyncio.get_running_loop().create_task(later())

    def taken(self, tid: str) -> None:
        """This worker took a table over: read its log to the end, then its bots and timers run here.
        The tables taken are read one at a time, the loop free between two (so a worker taking
        over hundreds of tables still renews its leases and answers while it reads them)."""
        self.to_take.append(tid)
        if self.taker is None or self.taker.done():
            self.taker = asyncio.get_running_loop().create_task(self._take_all())
            self.taker.add_done_callback(self._taker_ended)

    async def _take_all(self) -> None:
        while self.to_take:
            tid = self.to_take.popleft()
            async with self.lock(tid):
                self.refresh(tid)
            table = self.tables.get(tid)
            if table is not None:
                if self.cluster is not None:
                    self.cluster.publish_state(table)
                self.kick_bots(table)
            await asyncio.sleep(0)  # the loop's other work (lease renewals, requests) between two tables

    def _taker_ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            e = task.exception()
            log.error("reading the tables taken over failed (%s: %s); the rest are read again", type(e).__name__, e)
            if self.to_take:
                self.taker = asyncio.get_running_loop().create_task(self._take_all())
                self.taker.add_done_callback(self._taker_ended)

    def lost(self, tid: str) -> None:
        """Another worker owns the table now: stop its bots and timers here."""
        task = self.bot_tasks.pop(tid, None)
        if task is not None:
            task.cancel()
        entry = self.grace_tasks.pop(tid, None)
        if entry is not None:
            entry[1].cancel()

    def forget(self, tid: str) -> None:
        """A table deleted (by retention, here or at another worker)."""
        self.lost(tid)
        self.tables.pop(tid, None)
        self.conns.pop(tid, None)
        self.locks.pop(tid, None)
        self.used.pop(tid, None)

    def presence_changed(self, tid: str) -> None:
        """Who is connected at another worker changed: the owner hands seats back and restarts its timers."""
        table = self.tables.get(tid)
        if table is None:
            return
        if self.owns(table):
            on = self.connected(table)
            for seat in list(table.standin):
                if seat in on:
                    table.hand_back(seat)
            if 0 in on:
                table.host_away = False
        self.kick_bots(table)
        self.broadcast(table)

    def may_delete(self, tid: str) -> bool:
        """Retention may delete this table here (with several workers: only its owner, nobody connected anywhere)."""
        return self.cluster is None or (self.cluster.owns(tid) and not self.cluster.remote_seats(tid))

    def deleted(self, tid: str) -> None:
        if self.cluster is not None:
            self.cluster.deleted(tid)

    async def _write(self, tid: str, n: int, ev: Event) -> None:
        """Append to the log: SQLite at once (a local file), PostgreSQL in a thread, so the
        loop serves the other tables while the database answers."""
        assert self.store is not None
        if self.cluster is None:
            self.store.append(tid, n, ev)
        else:
            await asyncio.to_thread(self.store.append, tid, n, ev)

    async def _append(self, table: Table, ev: Event) -> None:
        """Append the table's next event (the caller holds the table's lock); on a conflict (another
        worker wrote that number first) read what was missed and raise :class:`StoreConflict`
        (the caller checks again)."""
        try:
            await self._write(table.id, table.events, ev)
        except StoreConflict:
            self.refresh(table.id)
            raise

    # -------------------------------------------------------------- changes
    async def commit(self, table: Table, ev: Event) -> None:
        """Log the event, apply it, tell everyone, wake the bots (under the table's lock)."""
        await self._append(table, ev)
        table.apply(ev)
        self.kick_bots(table)  # first: a clock it starts is in the frames
        self.broadcast(table)

    async def commit_quiet(self, table: Table, ev: Event) -> None:
        """:meth:`commit` without re-waking the bots (the bot loop is already running); a person
        to act next gets her clock at once."""
        await self._append(table, ev)
        table.apply(ev)
        if table.bot_to_act() is None:
            self.watch_absent(table)
        self.broadcast(table)

    async def create(self, ev: Event) -> Table:
        async with self.lock(ev["id"]):
            await self._write(ev["id"], 0, ev)
            t = self.tables[ev["id"]] = Table.from_create(ev)
        if self.cluster is not None:
            await asyncio.to_thread(self.cluster.claim, t.id)
        return t

    def table(self, tid: str) -> Table | None:
        """A table by id (with several workers, one just made at another worker is read from the log)."""
        table = self.tables.get(tid)
        if self.cluster is None:
            return table
        if table is None and len(tid) < 40:
            self.refresh(tid)
            table = self.tables.get(tid)
        if table is not None:
            self.used[tid] = asyncio.get_running_loop().time()
        return table

    def evict(self) -> list[str]:
        """With several workers: drop the copies of tables this worker neither owns nor has a
        client at, once no request has asked for them for a lease (they are read from the log
        again when needed); the tables dropped."""
        if self.cluster is None:
            return []
        now = asyncio.get_running_loop().time()
        idle = [tid for tid in self.tables
                if not self.cluster.owns(tid) and not self.conns.get(tid)
                and now - self.used.get(tid, 0.0) > self.limits.lease_seconds
                and not (tid in self.locks and self.locks[tid].locked())]
        for tid in idle:
            self.tables.pop(tid, None)
            self.conns.pop(tid, None)
            self.locks.pop(tid, None)
            self.used.pop(tid, None)
            self.failed_at.pop(tid, None)
        return idle

    async def count_tables(self) -> int:
        """Tables the server holds (with several workers, in the log: each worker holds only some)."""
        if isinstance(self.store, PgStore):
            return await asyncio.to_thread(self.store.tables_held)
        return len(self.tables)

    # ------------------------------------------------- made by the layers above
    def kick_bots(self, table: Table) -> None:
        """Start the bots if one is to act, else the clock of the person to act (:mod:`mattis.web.scheduler`)."""
        raise NotImplementedError

    def watch_absent(self, table: Table) -> bool:
        """Run the clock of the person to act; whether it changed (:mod:`mattis.web.scheduler`)."""
        raise NotImplementedError

    def _new_pool(self) -> Executor:
        """The processes the bots think in (:mod:`mattis.web.scheduler`)."""
        raise NotImplementedError

    async def _heartbeats(self) -> None:
        """Look at who has been heard every beat, for as long as the server runs (:mod:`mattis.web.presence`)."""
        raise NotImplementedError

    def connected(self, table: Table) -> set[int]:
        """Seats with a page open, at any worker (:mod:`mattis.web.presence`)."""
        raise NotImplementedError

    def local_seats(self, table: Table) -> set[int]:
        """Seats with a page open at this worker that is not away (:mod:`mattis.web.presence`)."""
        raise NotImplementedError

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its frame (:mod:`mattis.web.presence`)."""
        raise NotImplementedError

    def drop_seat(self, table: Table, seat: int, ev: Event | None = None) -> None:
        """A seat's person removed, replaced or given back: their connections told (:mod:`mattis.web.presence`)."""
        raise NotImplementedError
