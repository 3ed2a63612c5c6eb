"""The ASGI app: pages, the table API, the WebSocket hub and the bots.

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
(every :data:`HEARTBEAT` seconds) and then is not heard for :data:`HEARTBEAT_MISSES`
beats in a row is *away* (not connected) until it is heard again, long before the
WebSocket's own ping timeout.  Every wait goes through :class:`Waits` (tests put in
their own clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..core import CHOICES, OPTIONS, PRESET_DOCS, PRESETS, Move, Observation
from ..core.cards import Lang
from ..core.text import how_to_play, option_label, option_value_text, rules_in_words
from ..play import Agent, Referee, make_bot, next_move
from ..play.agents import DEFAULT_LEVEL
from . import analysis, fairness, guard, messages, retention
from .cluster import Cluster
from .pgstore import PgStore
from .store import EventLog, StoreConflict, StoreError, describe, open_store
from .table import BANK_CHOICES, CLOCK_CHOICES, GRACE_DEFAULT, LEVELS, Event, Refusal, Table, Timer, think
from .view import frame, hint_json, notice, replay_steps

log = logging.getLogger("mattis.web")

STATIC: Final = Path(str(files("mattis.web") / "static"))
MAX_MESSAGE: Final = 4096
FAST_DELAY: Final = 0.05
"""The bots' pause when no person is left to act (fast-forward)."""
RESTART_PAUSE: Final = 1.0
"""Seconds before a bot or timer task that failed runs again; doubled for each failure in a row
at the same move, up to :data:`RESTART_PAUSE_MAX` (a failing database is not hammered, a bug
in the scheduler does not flood the log)."""
RESTART_PAUSE_MAX: Final = 60.0
HEARTBEAT: Final = 2.0
"""Seconds between a page's pings (the page is told in each frame, ``heartbeat``), and between
the server's looks at who has been heard."""
HEARTBEAT_MISSES: Final = 3
"""Looks in a row without a word from a page that pings before its seat counts as away: a dead
network is noticed after 3 to 4 beats (6-8 s at the default beat)."""
QR_TEXT_MAX: Final = 400
REPLAY_CACHE: Final = 64
"""Replays kept built (a whole game each; the least recently asked is dropped first)."""
FULL_RETRY_AFTER: Final = 3600
"""``Retry-After`` (seconds) when the server holds ``max_tables`` tables: the retention sweep runs hourly."""
HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class Waits:
    """How the bots and timers wait and tell the time: asyncio's clock.  Tests put in one that
    records each wait (``what``: ``bot``, ``grace``, ``clock``, ``host``, ``heartbeat``,
    ``restart``) and returns at once, or one whose time moves only when the test says, so the
    scheduler's chosen delays are checked, not measured."""

    async def sleep(self, seconds: float, what: str) -> None:
        await asyncio.sleep(seconds)

    def now(self) -> float:
        """The time the turn clocks' deadlines are on (seconds; only differences matter)."""
        return time.monotonic()


class BotFailed(Exception):
    """A bot chose an illegal move (a bug in the bot): its task fails and is restarted."""


@dataclass(eq=False)
class Conn:
    """One open WebSocket: bound to a seat (or ``None`` = spectator) when it opened."""

    ws: WebSocket
    seat: int | None
    lang: Lang
    queue: fairness.Outbox = field(default_factory=fairness.Outbox)
    history: bool = False
    """Its frames carry the game's whole public history (a terminal seat asks for it in its hello)."""
    pings: bool = False
    """The page sends heartbeats (``ping``): its silence counts (pages that never ping, like an
    older client, are seen as connected until their socket closes)."""
    heard: bool = False
    """Something came from the page since the last heartbeat look."""
    missed: int = 0
    """Heartbeat looks in a row that found nothing from the page."""
    away: bool = False
    """Not heard for :data:`HEARTBEAT_MISSES` looks: its seat counts as not connected."""
    reacted: float | None = None
    """When (the hub's clock) this page last showed a reaction."""
    former: int | None = None
    """The seat this connection had before the host gave it to a bot (given back: it has it again)."""
    hinting: asyncio.Task[None] | None = None
    """The hint this page asked for, while it is worked out (one at a time, :meth:`Hub.ask_hint`)."""
    hinted: tuple[tuple[int, int, int, Lang], dict[str, Any]] | None = None
    """The last hint worked out for this page: (seat, game, move, language) and what it was sent."""

    def push(self, text: str, latest: bool = False) -> None:
        """Queue ``text``; ``latest``: a table's state frame, which supersedes older ones (:class:`fairness.Outbox`)."""
        self.queue.push(text, latest)


LANGS: Final[tuple[Lang, ...]] = ("nb", "en")
REACTIONS: Final = ("👍", "😄", "😮", "😬", "👏", "🙈")
"""The quick reactions a seated player may show the table (no free text)."""
REACTION_GAP: Final = 3.0
"""Seconds between two reactions from one page (more often: refused, in words)."""
PONG: Final = '{"type":"pong"}'
"""The answer to a page's heartbeat (a page that hears nothing for a while knows its network is down)."""
GRACE_CHOICES: Final = (15, 30, 60, 120, 300, None)
HOUSE_OPTIONS: Final = tuple(spec.name for spec in OPTIONS if spec.house)
"""The rule options a host may change in the create form (not the engine's limits or the
player counts, which the preset and the seat count settle)."""


def _plain(value: object) -> object:
    """An option value as JSON (StrEnums as their text)."""
    return value if isinstance(value, bool | int) else str(value)


def house_options() -> list[dict[str, Any]]:
    """Each house-rule option with its values, all in the players' words in both languages."""
    out: list[dict[str, Any]] = []
    for spec in OPTIONS:
        if not spec.house:
            continue
        option, values = spec.name, spec.values
        out.append({"option": option, "label": {lang: option_label(option, lang) for lang in LANGS},
                    "values": [{"value": v, "text": {lang: option_value_text(option, v, lang) for lang in LANGS}}
                               for v in values]})
    return out


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as SVG (segno, error correction M)."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
    return buf.getvalue().decode("utf-8")


def _lang(value: object) -> Lang:
    return "nb" if value == "nb" else "en"


def _notice(refusal: Refusal, lang: Lang) -> str:
    """A refused hello, in the client's language."""
    return notice(refusal.en, refusal.nb, lang)


class Hub:
    """All tables, their connections and their bots."""

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
        self.tables: dict[str, Table] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.hosts = guard.Hosts(guard.LOOPBACK)  # set by create_app
        self.limits = guard.Limits()  # set by create_app
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
        self.gate: guard.Hub | None = None
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

    def _new_pool(self) -> Executor:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from ..lab.pool import follow_parent

        return ProcessPoolExecutor(self.bot_processes, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=follow_parent)

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

    def local_seats(self, table: Table) -> set[int]:
        """Seats with a page open at this worker that is not away (its heartbeat is heard)."""
        return {c.seat for c in self.conns.get(table.id, ()) if c.seat is not None and not c.away}

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

    async def create(self, ev: Event) -> Table:
        async with self.lock(ev["id"]):
            await self._write(ev["id"], 0, ev)
            t = self.tables[ev["id"]] = Table.from_create(ev)
        if self.cluster is not None:
            await asyncio.to_thread(self.cluster.claim, t.id)
        return t

    def connected(self, table: Table) -> set[int]:
        """Seats with a page open (at any worker)."""
        on = self.local_seats(table)
        if self.cluster is not None:
            on |= self.cluster.remote_seats(table.id)
        return on

    def broadcast(self, table: Table) -> None:
        conns = self.conns.get(table.id, set())
        if self.cluster is not None:
            self.cluster.publish_presence(table)
            self.cluster.publish_state(table)
        if not conns:
            return
        on = self.connected(table)
        now = self.waits.now()
        for c, text in fairness.fan_out(conns, lambda c: frame(  # one build per distinct view
                table, c.seat, c.lang, connected=on, history=c.history, now=now, heartbeat=self.heartbeat,
                former=c.former)):
            c.push(text, latest=True)

    def reply(self, table: Table, conn: Conn, error: Refusal | None = None, echo: int | None = None,
              extra: dict[str, Any] | None = None) -> None:
        conn.push(frame(table, conn.seat, conn.lang, connected=self.connected(table), error=error, echo=echo,
                        extra=extra, history=conn.history, now=self.waits.now(), heartbeat=self.heartbeat,
                        former=conn.former))

    # ----------------------------------------------------------------- bots
    def kick_bots(self, table: Table) -> None:
        """Start the bots if one is to act, else the clock of the person to act (if any)."""
        if not self.owns(table):
            return
        if table.bot_to_act() is None:
            self.watch_absent(table)
            return
        self._stop_timer(table)
        table.timer = None
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            self.bot_tasks[table.id] = self.supervise(table, "bots", lambda: self._bots(table))

    def _wanted_timer(self, table: Table) -> tuple[int, str, float] | None:
        """The clock the table needs now: (seat, kind, seconds), or ``None``."""
        on = self.connected(table)
        seat = table.absent_to_act(on)
        if seat is not None:
            return None if table.grace is None else (seat, "grace", table.grace)
        seat = table.clocked_to_act(on)
        if seat is not None and table.clock is not None:
            return seat, "clock", table.clock
        if table.host_absent_in_lobby(on) and table.grace is not None:
            return 0, "host", table.grace
        return None

    def _stop_timer(self, table: Table) -> None:
        entry = self.grace_tasks.pop(table.id, None)
        if entry is not None:
            entry[1].cancel()

    def watch_absent(self, table: Table) -> bool:
        """Run the clock of the person to act: her turn clock if she is connected (then a bot
        plays that one turn), the grace period if she is away (then a bot plays her seat until
        she is back); a host away from the lobby gets the grace too (then anyone seated may
        start).  Paused: the clock stops where it is.  Returns whether the clock changed."""
        if not self.owns(table):
            return False
        now, old = self.waits.now(), table.timer
        if table.paused:
            self._stop_timer(table)
            if old is not None and old.left is None:
                old.left = old.left_at(now)
                return True
            return False
        want = self._wanted_timer(table)
        if want is None:
            self._stop_timer(table)
            table.timer = None
            return old is not None
        seat, kind, seconds = want
        running = self.grace_tasks.get(table.id)
        if old is not None and old.key() == (table.game, table.seq, seat, kind):
            if old.left is None and running is not None and not running[1].done():
                return False  # already running
            if old.left is not None:  # resumed after a pause: what was left
                old.ends, old.left = now + old.left, None
            timer = old
        else:
            bank = table.banks[seat] if kind == "clock" and seat < len(table.banks) else 0.0  # spent after the clock
            timer = Timer(seat, table.game, table.seq, kind, now + seconds + bank, seconds, bank=bank)
        self._stop_timer(table)
        table.timer = timer
        task = self.supervise(table, "timer", lambda: self._timer(table, timer))
        self.grace_tasks[table.id] = ((table.game, table.seq, seat), task)
        return True

    def supervise(self, table: Table, kind: str, body: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
        """Run a table's bot or timer task under a supervisor: if it fails it is logged, counted
        (:attr:`restarts`) and run again after :data:`RESTART_PAUSE`; a task never ends silently."""
        async def run() -> None:
            where, streak = (-1, -1), 0
            while True:
                try:
                    await body()
                    return
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    self.restarts[kind] += 1
                    streak = streak + 1 if (table.game, table.seq) == where else 1
                    where = (table.game, table.seq)
                    if kind == "bots":
                        self._note_failure(table)
                    log.error("%s task at table %s failed (%s: %s); restarted (%d %s restarts so far)",
                              kind, table.id, type(e).__name__, e, self.restarts[kind], kind)
                    await self.waits.sleep(min(RESTART_PAUSE * 2 ** (streak - 1), RESTART_PAUSE_MAX), "restart")

        task = asyncio.get_running_loop().create_task(run())
        task.add_done_callback(lambda t: self._ended(table, kind, t))
        return task

    def _ended(self, table: Table, kind: str, task: asyncio.Task[None]) -> None:
        """A supervised task ended: said in the log if by anything but finishing or being cancelled."""
        if task.cancelled():
            return
        e = task.exception()
        if e is not None:  # the supervisor itself failed: said, and the table is looked at again
            log.error("%s task at table %s ended (%s: %s); the table is woken again", kind, table.id,
                      type(e).__name__, e)
            self.restarts[kind] += 1
            asyncio.get_running_loop().call_soon(self.kick_bots, table)

    def _note_failure(self, table: Table) -> None:
        game, seq, times = self.failed_at.get(table.id, (-1, -1, 0))
        times = times + 1 if (game, seq) == (table.game, table.seq) else 1
        self.failed_at[table.id] = (table.game, table.seq, times)
        table.bots = {}  # the bots are built afresh from the position (a bot's state may be what failed)

    def bot_pause(self, table: Table) -> float:
        """The pause before a bot's move: one people can follow while a person is still in the
        game (playing her own seat), the fast-forward once none is."""
        return self.bot_delay if table.humans_to_play() else min(self.bot_delay, FAST_DELAY)

    async def _timer(self, table: Table, timer: Timer) -> None:
        """Wait out a clock, then: the grace period, a bot for the absent person's seat; the turn
        clock, a bot for this one turn (logged: a ``cover`` event); the host's, anyone may start."""
        await self.waits.sleep(timer.ends - self.waits.now(), timer.kind)
        entry = self.grace_tasks.get(table.id)
        if entry is not None and entry[1] is asyncio.current_task():
            del self.grace_tasks[table.id]  # done waiting: nothing to cancel any more
        if table.timer is not timer or timer.left is not None or table.paused:
            return
        if (table.game, table.seq) != (timer.game, timer.seq):
            return
        on = self.connected(table)
        if timer.kind == "host":
            if table.host_absent_in_lobby(on):
                table.host_away = True
                table.timer = None
                self.broadcast(table)
            return
        if timer.kind == "grace":
            if table.absent_to_act(on) != timer.seat:
                return
            table.stand_in(timer.seat)
            self.kick_bots(table)
            self.broadcast(table)
            return
        for again in (False, True):  # the clock ran out: a bot plays this one turn
            try:
                async with self.lock(table.id):
                    if table.timer is not timer or table.clocked_to_act(self.connected(table)) != timer.seat \
                            or (table.game, table.seq) != (timer.game, timer.seq):
                        return
                    log.info("table %s: seat %d's turn clock ran out at move %d; a bot plays the turn",
                             table.id, timer.seat, table.seq)
                    await self.commit(table, table.cover_event(timer.seat, "clock"))
                return
            except StoreConflict:
                if again:
                    raise

    async def _bots(self, table: Table) -> None:
        """Play the bots' turns at this table until a person is to act."""
        while True:
            await self.waits.sleep(self.bot_pause(table), "bot")
            ref = table.referee
            if ref is None or table.bot_to_act() is None:
                if self.watch_absent(table):
                    self.broadcast(table)
                return
            game, seq, agents = table.game, table.seq, table.agents()
            failed = self.failed_at.get(table.id)
            if failed is not None and failed[:2] == (game, seq) and failed[2] >= 2 and ref.to_act is not None:
                # the seat's bot failed here twice in a row: a random legal move, so the game goes on
                log.error("bot at table %s seat %d failed twice at move %d; a random legal move is played",
                          table.id, ref.to_act, seq)
                agents = {ref.to_act: make_bot("random", seq)}
            # Only the seat's own player coming back can change this game while a bot is to act,
            # so the bot may think off the loop; its move is dropped if the game moved meanwhile.
            chosen = await self._think(ref, agents)
            if chosen is None:
                return
            seat, move = chosen
            try:
                async with self.lock(table.id):
                    if table.bot_to_act() != seat or (table.game, table.seq) != (game, seq) or table.referee is not ref:
                        continue
                    ev = table.bot_move_event(seat, game, seq, str(move))  # says why, if for a person
                    await self.commit_quiet(table, ev)
            except Refusal as r:  # a bot returning an illegal move is a bug in the bot: the task fails
                raise BotFailed(f"seat {seat}: {r.en}") from None
            except StoreConflict:  # another worker's client moved first: look again
                continue

    async def _think(self, ref: Referee, agents: dict[int, Agent]) -> tuple[int, Move] | None:
        """The bot to act chooses its move from its seat's observation: in the process pool
        (``bot_processes``), else in a thread (inline when bots have no delay: the tests)."""
        if self.pool is None:
            return next_move(ref, agents) if self.bot_delay == 0 else await asyncio.to_thread(next_move, ref, agents)
        seat = ref.to_act
        if seat is None or seat not in agents:
            return None
        obs = ref.observation(seat)
        try:
            move, agent = await asyncio.get_running_loop().run_in_executor(self.pool, think, agents[seat], obs)
        except BrokenExecutor:  # the bots' process died (killed, out of memory): a new one, once
            log.error("the bots' process stopped; starting a new one")
            self.pool = self._new_pool()
            move, agent = await asyncio.get_running_loop().run_in_executor(self.pool, think, agents[seat], obs)
        agents[seat] = agent  # its generator goes on where the process left it: the same moves as in-process
        return seat, move

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

    async def commit_quiet(self, table: Table, ev: Event) -> None:
        """:meth:`commit` without re-waking the bots (the bot loop is already running); a person
        to act next gets her clock at once."""
        await self._append(table, ev)
        table.apply(ev)
        if table.bot_to_act() is None:
            self.watch_absent(table)
        self.broadcast(table)

    # ------------------------------------------------------------ websocket
    def origin_ok(self, ws: WebSocket) -> bool:
        """Only pages served by this server may open a WebSocket (:func:`guard.origin_ok`:
        an allowed host, the exact scheme, the port the browser connected to)."""
        return guard.origin_ok(ws.scope, self.hosts)

    async def serve_ws(self, ws: WebSocket, tid: str) -> None:
        if not self.origin_ok(ws):
            await ws.close(code=4403)  # before accept: the handshake is refused (HTTP 403)
            return
        await ws.accept()
        try:
            hello = guard.loads(await asyncio.wait_for(ws.receive_text(), timeout=15))
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
            try:
                await conn.ws.send_text(text)
            except Exception:  # the peer is gone; the reader side cleans up
                return

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
                msg = guard.loads(text)
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


def _replay_body(text: str, game: int, names: list[str], lang: Lang, by: dict[int, str] | None = None) -> bytes:
    """A finished game's replay as the JSON the page reads (:func:`replay_steps`; ``by``: the
    moves a bot made for a person, and why)."""
    steps = replay_steps(text, names, lang, by)
    return json.dumps({"game": game, "names": names, "steps": steps}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def create_app(db_path: str = "mattis.db", bot_delay: float = 0.8, test_mode: bool = False,
               limits: guard.Limits | None = None, hosts: guard.Hosts | None = None,
               bot_processes: int = 0, heartbeat: float = HEARTBEAT) -> FastAPI:
    """The web app.  ``test_mode`` lets table creation take a ``seed`` (reproducible deals).
    ``limits`` and ``hosts`` (the ``Host`` allowlist) are the guard's (:mod:`mattis.web.guard`);
    the default hosts are loopback and ``testserver`` (Starlette's test client)."""
    hub = Hub(db_path, bot_delay, test_mode, bot_processes, heartbeat)
    hub.limits = limits or (guard.Limits(**guard.TEST_SERVER) if test_mode else guard.Limits())
    hub.hosts = hosts or guard.Hosts([*guard.LOOPBACK, "testserver"])

    analyses = analysis.Analyses()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        sweeper = asyncio.get_running_loop().create_task(retention.keep(hub))
        yield
        sweeper.cancel()
        analyses.close()
        await hub.close()

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.analyses = analyses  # the reviews' queue and cache (tests set its budget)
    hub.gate = guard.Hub(hub.limits)
    app.add_middleware(guard.Guard, hub=hub.gate, hosts=hub.hosts, words=guard.words)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(analysis.router(hub, analyses))  # "Analyse": reviews of finished games (web/analysis.py)

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers=HEADERS)

    @app.get("/")
    async def index() -> FileResponse:
        return page()

    @app.get("/t/{tid}")
    async def table_page(tid: str) -> FileResponse:
        return page()

    meta_cache: dict[str, Any] = {}

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        """What the create form needs: presets (with their rules in words), the house-rule
        options with every value in words (both languages), bot levels, grace periods, turn clocks,
        and the name of this server's database (so a page can say which one it asked)."""
        if not meta_cache:
            meta_cache.update({
                "presets": {name: {"doc": PRESET_DOCS[name],
                                   "players": [r.allowed_players().start, r.allowed_players().stop - 1],
                                   "values": {o: _plain(getattr(r, o)) for o in HOUSE_OPTIONS},
                                   "words": {lang: rules_in_words(r, lang) for lang in LANGS}}
                            for name, r in PRESETS.items()},
                "options": house_options(),
                "choices": CHOICES, "levels": list(LEVELS), "default_level": DEFAULT_LEVEL,
                "grace": {"default": GRACE_DEFAULT, "choices": list(GRACE_CHOICES)},
                "clock": {"default": None, "choices": list(CLOCK_CHOICES)}, "reactions": list(REACTIONS),
                "bank": {"default": None, "choices": list(BANK_CHOICES)},
                "chat": {"length": hub.limits.chat_length},
                "db": describe(hub.db_path)})
        return meta_cache

    @app.get("/api/tables/{tid}/rules")
    async def table_rules(tid: str) -> JSONResponse:
        """The rules in force at a table in the players' words, all of them and the house rules,
        and how to play under them (``core.text.how_to_play``: the terminal's text)."""
        t = hub.table(tid)
        if t is None:
            return JSONResponse({"error": Refusal("no_table").en}, status_code=404)
        return JSONResponse({"name": t.rules.name,
                             "words": {lang: rules_in_words(t.rules, lang) for lang in LANGS},
                             "how": {lang: how_to_play(t.rules, lang) for lang in LANGS},
                             "house": {lang: rules_in_words(t.rules, lang, changed_only=True) for lang in LANGS}})

    @app.post("/api/qr")
    async def qr(request: Request) -> JSONResponse:
        """A QR code (SVG text) for a link to this server: an invite or a seat's resume link."""
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            text = data.get("text")
            if not isinstance(text, str) or not 0 < len(text) <= QR_TEXT_MAX:
                raise Refusal("bad_qr", most=QR_TEXT_MAX)
        except Refusal as r:
            return refused(r, lang)
        return JSONResponse({"svg": qr_svg(text)})

    async def body(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise Refusal("send_json")
        try:
            data = guard.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise Refusal("bad_json") from None
        if not isinstance(data, dict):
            raise Refusal("not_json_object")
        return data

    def refused(r: Refusal, lang: object, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": r.text(_lang(lang))}, status_code=status)

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            seed = data.get("seed")
            if seed is not None and (not hub.test_mode or not isinstance(seed, int) or isinstance(seed, bool)):
                raise Refusal("seed_not_allowed")
            ev, token = Table.create_event(data.get("preset", "mattis"), data.get("overrides"), data.get("players"),
                                           data.get("seats"), data.get("name"), seed,
                                           data.get("grace", GRACE_DEFAULT), data.get("clock"), data.get("bank"))
            if await hub.count_tables() >= hub.limits.max_tables:  # full: the hourly sweep may make room
                return JSONResponse({"error": Refusal("server_full").text(_lang(lang))}, status_code=503,
                                    headers={"Retry-After": str(FULL_RETRY_AFTER)})
            t = await hub.create(ev)
        except Refusal as r:
            return refused(r, lang)
        except StoreError as e:
            log.error("%s", e)
            return refused(Refusal("not_saved"), lang, 503)
        return JSONResponse({"table": t.id, "seat": 0, "token": token, "invite": t.invite})

    @app.post("/api/tables/{tid}/join")
    async def join_table(tid: str, request: Request) -> JSONResponse:
        lang: object = None
        try:
            data = await body(request)
            lang = data.get("lang")
            t = hub.table(tid)
            if t is None:
                return refused(Refusal("no_table"), lang, 404)
            for again in (False, True):  # once more if another worker wrote the table's next event first
                try:
                    async with hub.lock(t.id):
                        ev, token = t.join_event(data.get("invite"), data.get("name"))
                        await hub.commit(t, ev)
                    break
                except StoreConflict:
                    if again:
                        raise
        except Refusal as r:
            return refused(r, lang)
        except StoreError as e:
            log.error("%s", e)
            return refused(Refusal("not_saved"), lang, 503)
        return JSONResponse({"table": t.id, "seat": ev["seat"], "token": token})

    @app.get("/api/tables/{tid}/games/{game}/record")
    async def record(tid: str, game: int, chat: bool = False) -> Response:
        """A finished game's record (the core's ``GameRecord``); the table's chat during that
        game only when asked (``?chat=1``): it is never in the record otherwise."""
        t = hub.table(tid)
        text = t.records.get(game) if t is not None else None
        if t is None or text is None:
            return JSONResponse({"error": Refusal("no_record").en}, status_code=404)
        data = json.loads(text)
        data["names"] = [s.name for s in t.seats]  # who sat where (GameRecord reads and keeps it)
        if chat and hub.store is not None:
            events = (hub.store.events(tid, 0) if hub.cluster is None  # SQLite: a local file, read at once
                      else await asyncio.to_thread(hub.store.events, tid, 0))
            data["chat"] = [{"seat": e["seat"], "name": e["name"], "text": e["text"]}
                            for e in events if e["type"] == "chat" and e.get("game") == game]
        text = json.dumps(data, ensure_ascii=False, indent=1)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="mattis-{tid}-{game}.json"'})

    replays: OrderedDict[tuple[str, int, Lang, tuple[str, ...]], bytes] = OrderedDict()
    building: dict[tuple[str, int, Lang, tuple[str, ...]], asyncio.Future[bytes]] = {}

    @app.get("/api/tables/{tid}/games/{game}/replay")
    async def replay(tid: str, game: int, lang: str = "en") -> Response:
        """A finished game move by move (every hand shown: the game is over)."""
        t = hub.table(tid)
        text = t.records.get(game) if t is not None else None
        if t is None or text is None:
            return JSONResponse({"error": Refusal("no_record").en}, status_code=404)
        names = [s.name for s in t.seats]
        key = (tid, game, _lang(lang), tuple(names))
        body = replays.get(key)
        if body is None:  # built once per game (and names, language), however many ask at once
            job = building.get(key)
            if job is None:
                job = building[key] = asyncio.ensure_future(
                    asyncio.to_thread(_replay_body, text, game, names, _lang(lang), dict(t.by_bot.get(game, {}))))
                job.add_done_callback(lambda _j: building.pop(key, None))
            body = await asyncio.shield(job)
            replays[key] = body
            while len(replays) > REPLAY_CACHE:
                replays.popitem(last=False)
        else:
            replays.move_to_end(key)
        return Response(body, media_type="application/json")

    @app.websocket("/ws/{tid}")
    async def ws_endpoint(ws: WebSocket, tid: str) -> None:
        await hub.serve_ws(ws, tid)

    return app
