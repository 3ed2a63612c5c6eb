"""The rates: what each client may send, and how fast.

* :class:`Bucket`: a token bucket.  Each WebSocket has its own bucket and shares one
  per client address (:class:`Pace`); a message that finds the buckets empty is *read later* (the
  reader sleeps, so a flooder's own socket fills up and only the flooder slows down),
  and a connection that keeps going over its own rates is closed with close code
  4429.  ``sync`` and ``lang`` requests (each builds a whole frame) have their own, smaller
  bucket.  A socket that keeps its own rate but sends more than a quarter of it while its
  address is over the address's rate counts as over (:func:`busy_in_a_busy_address`), and
  an address whose sockets were closed for flooding several times is refused new sockets
  for a while (:class:`Bans`; see :mod:`mattis.web.fairness`).
* :class:`Gate`: the per-address buckets and socket counts; with several workers on
  PostgreSQL they are those of all workers together (:class:`Shared`, kept by
  :class:`mattis.web.pglimits.PgLimits`), so an address gets each limit once in all.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final, Protocol

from .fairness import guard_threads
from .limits import Limits

log = logging.getLogger("mattis.web")


def cost_class(method: str, path: str) -> str:
    """Which per-address bucket a request pays: ``api`` (every POST and other writes),
    ``analysis`` (a game review), ``heavy`` (a replay or a record download), ``get``
    (everything else: the page, static files, ``/api/meta``, the rules)."""
    if method not in ("GET", "HEAD"):
        return "api"
    if path.startswith("/api/tables/"):
        if path.endswith("/analysis"):
            return "analysis"
        if path.endswith("/replay") or path.endswith("/record"):
            return "heavy"
    return "get"


class Bucket:
    """A token bucket: ``rate`` tokens a second, holding at most ``burst``.  The level may go
    below zero: that is the debt a caller waits off (:meth:`take` returns the wait)."""

    __slots__ = ("rate", "burst", "level", "at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.at = now

    def take(self, now: float, cost: float = 1.0) -> float:
        """Take ``cost`` tokens; the seconds until the level is back to zero (0 if it did not go below)."""
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        self.level -= cost
        return 0.0 if self.level >= 0 else -self.level / self.rate

    def refund(self, cost: float = 1.0) -> None:
        self.level += cost

    def full(self, now: float) -> bool:
        return self.level + (now - self.at) * self.rate >= self.burst


class Buckets:
    """One bucket per key (a client address), the least recently used forgotten past ``size``."""

    def __init__(self, rate: float, burst: float, size: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self.clock = clock
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def get(self, key: str) -> Bucket:
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = Bucket(self.rate, self.burst, self.clock())
            while len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return b

    def take(self, key: str, cost: float = 1.0) -> float:
        return self.get(key).take(self.clock(), cost)


class Flood(Exception):
    """A connection sends faster than it may wait off: close it (:data:`CLOSE_FLOOD`)."""


class Bans:
    """Per address, how many of its sockets were closed for flooding lately (a token bucket
    of ``flood_ban_after`` tokens, one back every ``flood_ban`` seconds): an address with
    no token left is banned until one comes back."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.closes: OrderedDict[str, Bucket] = OrderedDict()
        self.closed = 0
        """Sockets closed for flooding (for tests and the benchmark)."""
        self.refused = 0
        """New sockets refused because their address is banned."""

    def flooded(self, address: str) -> None:
        """A socket of ``address`` was closed for flooding."""
        self.closed += 1
        b = self.closes.get(address)
        if b is None:
            b = self.closes[address] = Bucket(1 / self.limits.flood_ban, self.limits.flood_ban_after, self.clock())
            while len(self.closes) > self.limits.max_addresses:
                self.closes.popitem(last=False)
        b.take(self.clock())

    def banned(self, address: str) -> bool:
        b = self.closes.get(address)
        if b is None:
            return False
        now = self.clock()
        if b.full(now):
            del self.closes[address]
            return False
        return b.level + (now - b.at) * b.rate < 1

    def refuse(self, address: str) -> bool:
        """Whether a new socket from ``address`` is refused (counted)."""
        if self.banned(address):
            self.refused += 1
            return True
        return False


BUSY_SHARE: Final = 4
"""A socket sending more than its own rate over this, sustained, is busy (a page sends a
heartbeat every two seconds and a move now and then)."""


def busy_bucket(limits: Limits, now: float) -> Bucket:
    """The bucket that tells a busy socket (:func:`busy_in_a_busy_address`)."""
    return Bucket(limits.message_rate / BUSY_SHARE, limits.message_burst, now)


def busy_in_a_busy_address(busy: Bucket, now: float, address_wait: float) -> bool:
    """Whether this message makes its socket a flooder though it keeps its own rate: its
    socket sends more than ``message_rate / BUSY_SHARE`` sustained (``busy`` pays for every
    message) while its address is over the address's rate."""
    return busy.take(now) > 0 and address_wait > 0


class Pace:
    """The message budget of one WebSocket: its own buckets and its address's."""

    def __init__(self, limits: Limits, address: Bucket, clock: Callable[[], float] = time.monotonic,
                 bans: Bans | None = None, address_name: str = "") -> None:
        now = clock()
        self.bans = bans
        self.address_name = address_name
        self.limits = limits
        self.clock = clock
        self.own = Bucket(limits.message_rate, limits.message_burst, now)
        self.sync = Bucket(limits.sync_rate, limits.sync_burst, now)
        self.address = address
        self.strikes = Bucket(1 / limits.flood_forgive, limits.flood_after, now)
        self.busy = busy_bucket(limits, now)

    def wait(self, text: str) -> float:
        """Seconds to wait before handling this message (0 mostly, at most ``max_wait``).
        A message that names ``sync`` or ``lang`` also pays the sync bucket (one spelt with escapes
        still pays the connection's bucket).  Raises :class:`Flood` once this connection
        has itself gone over its own rates ``flood_after`` times (one such time is
        forgiven every ``flood_forgive`` seconds); waits caused only by a busy address
        never count against a quiet connection (one that sends less than a quarter of its
        rate; a busier one counts them: :func:`busy_in_a_busy_address`), and a
        connection of a banned address is closed the first time it goes over
        (:class:`Bans`)."""
        now = self.clock()
        own = self.own.take(now)
        if "sync" in text or "lang" in text:  # both build a whole frame
            own = max(own, self.sync.take(now))
        shared = self.address.take(now)
        if busy_in_a_busy_address(self.busy, now, shared) or own > 0:
            weight = max(1.0, own * self.limits.message_rate)  # a sync over its rate weighs its wait
            if self.strikes.take(now, weight) > 0 or (self.bans is not None and self.bans.banned(self.address_name)):
                raise Flood
        return min(max(own, shared), self.limits.max_wait)

    def flooded(self) -> None:
        """This connection is closed for flooding (its address may be banned: :class:`Bans`)."""
        if self.bans is not None:
            self.bans.flooded(self.address_name)


class Shared(Protocol):
    """Per-address buckets and WebSocket counts kept where every worker sees them (with a
    PostgreSQL store: :class:`mattis.web.pglimits.PgLimits`).  Its calls block (a database
    round trip): the guard makes them in a thread."""

    def take(self, key: str, rate: float, burst: float, cost: float, most_wait: float) -> tuple[bool, float]:
        """Take ``cost`` tokens from the bucket ``key`` (``rate`` a second, at most ``burst``)
        unless the debt would take longer than ``most_wait`` seconds to wait off:
        ``(taken, wait)``, the wait (0 if none) whether taken or not (then it is ``Retry-After``)."""
        ...

    def open_socket(self, address: str, cap: int) -> bool:
        """Count one more WebSocket of ``address`` unless all the workers together hold ``cap``."""
        ...

    def close_socket(self, address: str) -> None:
        """One WebSocket of ``address`` counted by :meth:`open_socket` closed."""
        ...


class Gate:
    """The guard's shared state: the address buckets and the open WebSockets per address.
    With :attr:`shared` set (several workers on PostgreSQL), the buckets of every request
    (its cost class and table creation) and the count of WebSockets per address are
    those of all workers together; the local ones serve only if the database cannot be
    reached (said once in the log)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.shared: Shared | None = None
        """Set by the server when it runs on PostgreSQL (:class:`mattis.web.pglimits.PgLimits`)."""
        self.shared_failed = False
        self.messages = Buckets(limits.address_rate, limits.address_burst, limits.max_addresses, clock)
        self.api = Buckets(limits.api_rate, limits.api_burst, limits.max_addresses, clock)
        self.gets = {"get": Buckets(limits.get_rate, limits.get_burst, limits.max_addresses, clock),
                     "heavy": Buckets(limits.heavy_rate, limits.heavy_burst, limits.max_addresses, clock),
                     "analysis": Buckets(limits.analysis_rate, limits.analysis_burst, limits.max_addresses, clock),
                     "api": self.api}
        self.refused: dict[str, int] = {}
        """Requests refused with 429, per cost class (for tests and the load benchmark)."""
        self.creates = Buckets(limits.create_rate, limits.create_burst, limits.max_addresses, clock)
        self.sockets: dict[str, int] = {}
        self.bans = Bans(limits, clock)
        self.threads = guard_threads()
        """The threads of the :attr:`shared` calls (not the loop's default ones, which the store's writes use)."""

    def pace(self, address: str) -> Pace:
        return Pace(self.limits, self.messages.get(address), self.clock, self.bans, address)

    def admit(self, address: str, method: str, path: str) -> tuple[float, str]:
        """What to do with a request from ``address``: ``(wait, "")``: answer it after
        ``wait`` seconds (0 mostly; a GET over its rate waits its turn, up to ``get_wait``);
        ``(retry_after, key)``: refuse it with 429, ``Retry-After`` and the catalogue text
        ``key`` (a refused request costs no tokens).  Every request pays its cost class's
        bucket (:func:`cost_class`); a new table also pays the creation bucket.  Writes
        never wait: over the rate they are refused at once."""
        kind = cost_class(method, path)
        buckets = self.gets[kind]
        wait = buckets.take(address)
        if wait > (self.limits.get_wait if kind != "api" else 0.0):
            buckets.get(address).refund()
            self.refused[kind] = self.refused.get(kind, 0) + 1
            return wait, "web.refused.slow_down"
        if method == "POST" and path == "/api/tables":
            made = self.creates.take(address)
            if made > 0:
                self.creates.get(address).refund()
                buckets.get(address).refund()
                self.refused["create"] = self.refused.get("create", 0) + 1
                return made, "web.refused.too_many_tables"
        return wait, ""

    async def check(self, address: str, method: str, path: str) -> tuple[float, str]:
        """:meth:`admit` against the buckets of all workers (:attr:`shared`), or this
        worker's own when there is none or it cannot be reached."""
        if self.shared is None:
            return self.admit(address, method, path)
        try:
            wait, key, kind = await asyncio.get_running_loop().run_in_executor(
                self.threads, self._admit_shared, self.shared, address, method, path)
        except Exception as e:
            self._shared_down(e)
            return self.admit(address, method, path)
        self.shared_failed = False
        if key:
            self.refused[kind] = self.refused.get(kind, 0) + 1
        return wait, key

    def _shared_down(self, e: Exception) -> None:
        if not self.shared_failed:
            log.error("the per-address limits shared by the workers cannot be read (%s: %s); "
                      "this worker's own serve until they can", type(e).__name__, e)
        self.shared_failed = True

    def _admit_shared(self, shared: Shared, address: str, method: str, path: str) -> tuple[float, str, str]:
        """:meth:`admit`'s decision on the shared buckets (in a thread): ``(wait, key, kind)``."""
        kind = cost_class(method, path)
        b = self.gets[kind]
        taken, wait = shared.take(f"{kind} {address}", b.rate, b.burst, 1.0,
                                  self.limits.get_wait if kind != "api" else 0.0)
        if not taken:
            return wait, "web.refused.slow_down", kind
        if method == "POST" and path == "/api/tables":
            c = self.creates
            made, later = shared.take(f"create {address}", c.rate, c.burst, 1.0, 0.0)
            if not made:
                shared.take(f"{kind} {address}", b.rate, b.burst, -1.0, math.inf)  # the refund
                return later, "web.refused.too_many_tables", "create"
        return wait, "", kind

    async def open_socket(self, address: str) -> bool:
        """Whether ``address`` may open one more WebSocket (counted here, and at :attr:`shared`)."""
        cap = self.limits.max_sockets_per_address
        if self.bans.refuse(address):
            return False
        if self.shared is not None:
            try:
                ok = await asyncio.get_running_loop().run_in_executor(self.threads, self.shared.open_socket,
                                                                      address, cap)
            except Exception as e:
                self._shared_down(e)
            else:
                self.shared_failed = False
                if not ok:
                    return False
                self.sockets[address] = self.sockets.get(address, 0) + 1
                return True
        if self.sockets.get(address, 0) >= cap:
            return False
        self.sockets[address] = self.sockets.get(address, 0) + 1
        return True

    def close_socket(self, address: str) -> None:
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)
        if self.shared is not None:  # in a thread, not awaited: a closing socket waits for nothing
            try:
                asyncio.get_running_loop().run_in_executor(self.threads, self._close_shared, self.shared, address)
            except RuntimeError:  # the server is stopping: its sockets stop counting with it (PgLimits.release)
                pass

    def _close_shared(self, shared: Shared, address: str) -> None:
        try:
            shared.close_socket(address)
        except Exception as e:
            self._shared_down(e)

