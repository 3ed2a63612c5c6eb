"""Fairness between tables: no flood of one kind slows another table's moves.

The server is one event loop per worker, so whatever a flooder makes it do is time the
other tables wait.  The per-connection and per-address budgets of :mod:`mattis.web.rates`
pace each socket, and two of them bound a flood of many sockets:

* :class:`~mattis.web.rates.Bans`: an address whose sockets were closed for flooding
  (:data:`mattis.web.guard.CLOSE_FLOOD`) ``flood_ban_after`` times has its new
  connections closed as they open, before a byte is read (:mod:`mattis.web.doorman`;
  a WebSocket that gets past it is refused, HTTP 403) for ``flood_ban`` seconds, and its sockets
  that are still over their own rates are closed at once instead of after
  ``flood_after`` times; so 200 flooding sockets from ten addresses are closed within a
  few seconds and do not come back.  A family behind one NAT is not refused for one
  buggy page: it takes several floods.
* :func:`~mattis.web.rates.busy_in_a_busy_address`: a socket sending more than a quarter of its own rate,
  sustained, while its address is over the address's rate counts as over its rates (a
  strike), so twenty sockets that each keep their own rate but together flood their
  address are closed too (their reads are paced by the address, so their own rate alone
  never shows it); a page at that address, sending a heartbeat and a move now and then,
  is only slowed.

What is here bounds what a flood can cost the loop:

* :class:`Outbox`: the frames waiting to be sent to one socket.  A table's state frame
  supersedes the earlier ones: once ``LATEST_AFTER`` frames wait (a reader slower than
  the table), the state frames still waiting are dropped and only the newest is kept, so
  a slow spectator costs one frame per send, never a growing queue; a reply to the
  socket's own request (a refusal, a ``sync`` answer) is never dropped.
* :func:`fan_out`: a broadcast builds each distinct view once (a frame depends only on
  the seat, the language, the history flag and a former seat) and shares the text among
  the sockets with that view, seated players first, so 300 spectators cost one frame
  build and 300 sends, and the players are sent theirs before the spectators.

* :class:`SendTurns`: spectators' frames are sent at most ``SPECTATOR_SENDS_PER_TURN``
  between two looks at the network, so a table with hundreds of spectators does not hold
  other tables' moves behind a burst of sends.

* :class:`SpectatorPace`: a crowd of spectators (more than ``spectators_paced_after`` at a
  table, :class:`~mattis.web.limits.Limits`) is sent the table's newest state at most
  ``spectator_frames`` times a second, not one frame a move: every frame carries the log's
  last moves, so a spectator who misses a frame misses no move in the log, and the loop's
  work for 300 spectators no longer grows with how fast the players play.  A few watchers
  (a family's grandmother) are sent every move as before.

* :func:`paced_ws_protocol`: a socket's input is parsed only as fast as the app reads it,
  a few kilobytes at a time, so a flooder's messages wait in its own socket buffers
  instead of being parsed ten thousand at once.

* :func:`guard_threads`: with several workers, the guard's database round trips have
  threads of their own, so a storm of sockets never queues ahead of a table's writes.

``lang`` requests build a whole frame, as ``sync`` does, so both pay the ``sync`` bucket
(:meth:`mattis.web.rates.Pace.wait`): at most ``sync_rate`` answers a second per socket,
and a socket that keeps asking faster is closed.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, Protocol, TypeVar

LATEST_AFTER: Final = 8
"""Frames that may wait for a socket before its waiting state frames are superseded by the newest."""
OUTBOX_MOST: Final = 500
"""Frames that may wait for a socket in all (past this, more are dropped: a client that stopped
reading gets the latest state when it reconnects or asks for it)."""
FLOOD_REASON: Final = "flood: more messages than allowed"
"""The close reason sent with :data:`mattis.web.guard.CLOSE_FLOOD`."""


class Outbox:
    """The frames waiting to be sent to one socket, oldest first (the API of the
    :class:`asyncio.Queue` it replaces: ``put_nowait``, ``get``, ``get_nowait``, ``empty``,
    ``qsize``); ``None`` tells the writer to stop.  :meth:`push` with ``latest=True`` is a
    table's state frame, which supersedes the state frames still waiting once
    :data:`LATEST_AFTER` frames wait."""

    def __init__(self, latest_after: int = LATEST_AFTER, most: int = OUTBOX_MOST) -> None:
        self.items: deque[tuple[str | None, bool]] = deque()
        self.latest_after = latest_after
        self.most = most
        self.superseded = 0
        """State frames dropped because a newer one was pushed while they waited."""
        self.ready = asyncio.Event()

    def push(self, text: str, latest: bool = False) -> None:
        if latest and len(self.items) >= self.latest_after:
            kept = [item for item in self.items if not item[1]]
            self.superseded += len(self.items) - len(kept)
            self.items = deque(kept)
        if len(self.items) > self.most:
            return  # a client that stopped reading; it gets the latest state when it reconnects
        self.items.append((text, latest))
        self.ready.set()

    def put_nowait(self, text: str | None) -> None:
        self.items.append((text, False))
        self.ready.set()

    def get_nowait(self) -> str | None:
        if not self.items:
            raise asyncio.QueueEmpty
        text = self.items.popleft()[0]
        if not self.items:
            self.ready.clear()
        return text

    async def get(self) -> str | None:
        while not self.items:
            await self.ready.wait()
        return self.get_nowait()

    def empty(self) -> bool:
        return not self.items

    def qsize(self) -> int:
        return len(self.items)


class Viewer(Protocol):
    """What a frame depends on besides the table (``mattis.web.app.Conn``)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def lang(self) -> str: ...
    @property
    def history(self) -> bool: ...
    @property
    def former(self) -> int | None: ...


SPECTATOR_SENDS_PER_TURN: Final = 16
"""Spectators' frames sent between two looks at the network (:class:`SendTurns`)."""


class SendTurns:
    """Spectators' sends take turns with everything else on the event loop: at most
    ``per_turn`` of them between two looks at the network, the rest in the order they
    asked, a turn later.  Without this, a move at a table watched by 300 spectators woke
    300 writers that all sent in one pass of the loop, and a move from any other table
    that arrived meanwhile waited behind all 300 sends; now it waits behind at most
    ``per_turn``.  Players' frames never wait for a turn."""

    def __init__(self, per_turn: int = SPECTATOR_SENDS_PER_TURN) -> None:
        self.per_turn = per_turn
        self.used = 0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.reset_due = False

    async def turn(self) -> None:
        """Wait for a turn to send one frame."""
        if self.used < self.per_turn and not self.waiting:
            self.used += 1
            self._due()
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(fut)
        self._due()
        await fut

    def _due(self) -> None:
        if not self.reset_due:
            self.reset_due = True
            asyncio.get_running_loop().call_soon(self._next_turn)  # runs after the next look at the network

    def _next_turn(self) -> None:
        self.reset_due = False
        self.used = 0
        while self.waiting and self.used < self.per_turn:
            fut = self.waiting.popleft()
            if not fut.done():  # a writer cancelled while it waited is skipped
                fut.set_result(None)
                self.used += 1
        if self.used:
            self._due()


class SpectatorPace:
    """When each table's spectators may next be sent a frame (a crowd is sent the newest state at
    most ``rate`` times a second): :meth:`plan` says *now*, *later* (after a delay, for which the
    caller schedules one send) or *already planned*; :meth:`sent` records a send made later."""

    PRUNE_AT: Final = 1000
    """Tables remembered before those whose pause is over are forgotten."""

    def __init__(self) -> None:
        self.next_at: dict[str, float] = {}
        self.planned: set[str] = set()

    def plan(self, table: str, now: float, rate: float) -> float | None:
        """``0.0``: send the spectators their frame now; a delay in seconds: send it then (one
        send, the newest state at that time); ``None``: a send is already planned."""
        if table in self.planned:
            return None
        due = self.next_at.get(table)
        if due is None or now >= due:
            if len(self.next_at) >= self.PRUNE_AT:
                self.next_at = {t: d for t, d in self.next_at.items() if d > now}
            self.next_at[table] = now + 1.0 / rate
            return 0.0
        self.planned.add(table)
        return due - now

    def sent(self, table: str, now: float, rate: float) -> None:
        """The planned send was made (or given up) at ``now``."""
        self.planned.discard(table)
        self.next_at[table] = now + 1.0 / rate


V = TypeVar("V", bound=Viewer)


def fan_out(conns: Iterable[V], build: Callable[[V], str]) -> list[tuple[V, str]]:
    """Each socket with its frame, seated players first; ``build`` is called once per
    distinct view (seat, language, history, former seat)."""
    built: dict[tuple[int | None, str, bool, int | None], str] = {}
    out: list[tuple[V, str]] = []
    for c in sorted(conns, key=lambda c: c.seat is None):
        key = (c.seat, c.lang, c.history, c.former)
        text = built.get(key)
        if text is None:
            text = built[key] = build(c)
        out.append((c, text))
    return out


GUARD_THREADS: Final = 4
"""Threads for the guard's calls to the limits shared by the workers (:func:`guard_threads`)."""


def guard_threads() -> ThreadPoolExecutor:
    """The guard's own threads for its database round trips (a socket's count, a request's
    bucket), so that 2,500 sockets opening at once queue there and not in the event loop's
    default threads, where the store writes the tables' moves."""
    return ThreadPoolExecutor(GUARD_THREADS, thread_name_prefix="mattis-guard")


READ_CHUNK: Final = 4096
"""Bytes of a WebSocket's input parsed at once (:func:`paced_ws_protocol`)."""


def paced_ws_protocol() -> type[asyncio.Protocol]:
    """uvicorn's ``websockets-sansio`` WebSocket protocol, parsing a socket's input only as
    fast as the app reads it: at most :data:`READ_CHUNK` bytes at a time, and the next
    chunk only once the app has taken every message parsed so far.  uvicorn's own parses a
    whole read (up to 256 KiB: some 10,000 small messages) in one go, holding the event
    loop, and queues every message for the app however slowly the app takes them; here a
    flooder's input waits unparsed (and, its reading paused, in its own socket buffers),
    so it costs what the guard lets the app read, not what the flooder sends.  Pass it as
    uvicorn's ``ws=``."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol as Base

    class Paced(Base):
        unparsed: bytearray

        def data_received(self, data: bytes) -> None:
            if not hasattr(self, "unparsed"):
                self.unparsed = bytearray()
            self.unparsed += data
            self.feed()

        def feed(self) -> None:
            """Parse chunks until a message waits for the app (or nothing is left)."""
            while self.unparsed and self.queue.empty() and not self.transport.is_closing():
                chunk = bytes(self.unparsed[:READ_CHUNK])
                del self.unparsed[:READ_CHUNK]
                super().data_received(chunk)
            if self.unparsed and not self.read_paused:
                self.read_paused = True  # uvicorn resumes it once the app has taken its messages
                self.transport.pause_reading()

        async def receive(self) -> Any:
            message = await super().receive()
            if getattr(self, "unparsed", None) and self.queue.empty():
                self.feed()
            return message

    return Paced
