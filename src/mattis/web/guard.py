"""Hardening of ``mattis serve`` against dropped, buggy and hostile clients.

Everything here is bounded in count and in time, and nothing here knows the game:

* :class:`Limits`: every limit in one place (the CLI sets them, docs/web.md lists them).
* :class:`Bucket`: a token bucket.  Each WebSocket has its own bucket and shares one
  per client address; a message that finds the buckets empty is *read later* (the
  reader sleeps, so a flooder's own socket fills up and only the flooder slows down),
  and a connection that keeps going over its own rates is closed with close code
  4429.  ``sync`` requests (each builds a whole frame) have their own, smaller bucket.
* :func:`loads`: JSON with bounded numbers and nesting; what it refuses raises a
  :class:`json.JSONDecodeError`, like any other bad JSON.
* :class:`Guard`: the ASGI middleware: the ``Host`` allowlist (against DNS rebinding),
  the scheme-exact ``Origin`` check for WebSockets, request body size, a cap on
  WebSockets per address, and rate limits on API requests and table creation.
* :class:`Hub`: the per-address buckets and socket counts; with several workers on
  PostgreSQL they are those of all workers together (:class:`Shared`, kept by
  :class:`mattis.web.pgstore.PgLimits`), so an address gets each limit once in all.
* :func:`guarded_protocol`: the HTTP protocol class for uvicorn: a socket that has
  not sent a whole request head within ``first_request_timeout`` seconds (its first,
  or a later one on a kept-alive socket), or whose head grows past ``max_head``, is
  closed; when silent sockets crowd the server
  (per address or in all), the oldest silent one is closed to make room, so a
  slowloris cannot lock out a new visitor.
* :func:`clip`: no input is echoed back longer than a few dozen characters.
* :func:`quiet_network_events`: what a client does to its own connection (drops it
  mid-handshake, resets it, sends a text frame that is not UTF-8) is logged as one line
  at debug level, never as a traceback.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

from . import fairness

log = logging.getLogger("mattis.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CLOSE_FLOOD: Final = 4429
"""WebSocket close code for a client that sends faster than the limits allow."""
CLOSE_TOO_BIG: Final = 1009
"""WebSocket close code for a message over ``Limits.max_message`` (RFC 6455: message too big)."""
CLOSE_UNSUPPORTED: Final = 1003
"""WebSocket close code for a binary message (RFC 6455: unsupported data)."""
CLOSE_POLICY: Final = 1008
"""WebSocket close code for too many connections from one address (RFC 6455: policy violation)."""

LOOPBACK: Final = ("localhost", "127.0.0.1", "::1")
PACE: Final = "mattis.pace"
"""The ASGI scope key under which :class:`Guard` leaves a WebSocket's :class:`Pace`."""


@dataclass(frozen=True)
class Limits:
    """Every limit of the web server (the defaults suit a family evening and a few hundred
    spectators; docs/web.md explains each)."""

    message_rate: float = 10.0
    """WebSocket messages per second per connection (sustained)."""
    message_burst: float = 30.0
    """WebSocket messages a connection may send at once before the rate applies."""
    sync_rate: float = 2.0
    """``sync`` and ``lang`` requests per second per connection (each builds a whole frame)."""
    sync_burst: float = 6.0
    address_rate: float = 200.0
    """WebSocket messages per second from one client address, all its connections together."""
    address_burst: float = 400.0
    max_wait: float = 5.0
    """The longest a message waits before it is read (a busy address waits this much at most)."""
    flood_after: int = 20
    """A connection that goes over its own rates this many times is closed (4429); a ``sync`` or
    ``lang`` over the sync rate counts as ``message_rate / sync_rate`` times (5).  So is one
    that keeps sending at more than a quarter of its rate while its address is over the
    address's rate (:func:`mattis.web.fairness.busy_in_a_busy_address`)."""
    flood_forgive: float = 10.0
    """Seconds after which one time over the rates is forgiven."""
    flood_ban_after: int = 3
    """An address whose sockets were closed for flooding this many times (one forgiven every
    ``flood_ban`` seconds) is refused new WebSockets, and its sockets over their own rates are
    closed at once, until one is forgiven (:class:`mattis.web.fairness.Bans`; per worker)."""
    flood_ban: float = 30.0
    max_message: int = 8192
    """Largest WebSocket message in bytes (larger: closed with 1009)."""
    max_body: int = 65536
    """Largest request body in bytes (larger: HTTP 413)."""
    body_timeout: float = 10.0
    """Seconds a client may take to send a request body (slower: HTTP 408)."""
    first_request_timeout: float = 10.0
    """Seconds a new socket may take to send its first request head (slower: closed)."""
    max_head: int = 32768
    """Largest request head (request line and headers) in bytes (larger: HTTP 431)."""
    max_connections: int = 4000
    """Open sockets in all (HTTP and WebSocket); the server raises its file limit to fit."""
    max_silent: int = 1024
    """Sockets that have not yet sent a request head, in all (past this the oldest is closed)."""
    max_silent_per_address: int = 32
    """Such silent sockets from one address (past this, and past the handshake burst, that
    address's oldest is closed)."""
    handshake_burst: float = 320.0
    """Sockets one address may open at once beyond ``max_silent_per_address`` before its oldest
    silent one is closed (a club of 150 behind one NAT: a page and a WebSocket each)."""
    handshake_rate: float = 10.0
    """How fast that burst comes back (sockets per second)."""
    max_sockets_per_address: int = 200
    """Open WebSockets from one client address."""
    api_rate: float = 5.0
    """API requests (POST) per second from one address."""
    api_burst: float = 30.0
    get_rate: float = 100.0
    """Cheap GET requests (the page, static files, ``/api/meta``, the rules) per second from one address."""
    get_burst: float = 1200.0
    """(A page load is 7 requests: 150 people behind one NAT opening it at once fit.)"""
    heavy_rate: float = 1.0
    """Replays and record downloads per second from one address (a replay is built once per
    game and kept, but each answer is a whole game)."""
    heavy_burst: float = 20.0
    analysis_rate: float = 4.0
    """Analysis requests per second from one address (the page asks once a second while its
    review is queued or running; the reviews themselves are queued, see ``mattis.web.analysis``)."""
    analysis_burst: float = 40.0
    get_wait: float = 2.0
    """A GET over its rate waits its turn up to this many seconds, then is answered; one that
    would wait longer waits this long and is then refused with 429 and ``Retry-After`` (so a
    flooder's own connections slow down, and a refusal costs the server little)."""
    create_rate: float = 30.0 / 3600
    """Tables created per second from one address (30 an hour)."""
    create_burst: float = 20.0
    max_tables: int = 5000
    """Tables held at once (past this, creation is refused until old tables expire)."""
    keep_days: float = 30.0
    """A table with no event for this many days is deleted (finished or not)."""
    keep_unstarted_hours: float = 24.0
    """A table whose first game never started is deleted this many hours after its last event."""
    max_addresses: int = 10000
    """Client addresses whose buckets are remembered (the least recently seen are forgotten)."""
    chat_length: int = 200
    """Characters in one chat line (after trimming; longer: refused, in words)."""
    chat_lines: int = 5
    """Chat lines one seat may send in ``chat_window`` seconds (more: refused, in words)."""
    chat_window: float = 15.0
    lease_seconds: float = 6.0
    """With several workers (PostgreSQL): a table's lease lasts this long; its owner renews it
    every third of it, and another worker takes the table over when it has run out."""


TEST_SERVER: Final[dict[str, Any]] = {"message_rate": 1e6, "message_burst": 1e6, "sync_rate": 1e6, "sync_burst": 1e6,
                      "create_burst": 1e6, "get_burst": 1e6, "heavy_burst": 1e6, "analysis_burst": 1e6}
"""What a test server (``create_app(test_mode=True)``, ``mattis serve --test-mode``) lifts
unless told otherwise: the per-connection message rates (test clients play as fast as
the machine allows), table creation and GET requests per address.  The hardening tests
set them."""


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


class Pace:
    """The message budget of one WebSocket: its own buckets and its address's."""

    def __init__(self, limits: Limits, address: Bucket, clock: Callable[[], float] = time.monotonic,
                 bans: fairness.Bans | None = None, address_name: str = "") -> None:
        now = clock()
        self.bans = bans
        self.address_name = address_name
        self.limits = limits
        self.clock = clock
        self.own = Bucket(limits.message_rate, limits.message_burst, now)
        self.sync = Bucket(limits.sync_rate, limits.sync_burst, now)
        self.address = address
        self.strikes = Bucket(1 / limits.flood_forgive, limits.flood_after, now)
        self.busy = fairness.busy_bucket(limits, now)

    def wait(self, text: str) -> float:
        """Seconds to wait before handling this message (0 mostly, at most ``max_wait``).
        A message that names ``sync`` or ``lang`` also pays the sync bucket (one spelt with escapes
        still pays the connection's bucket).  Raises :class:`Flood` once this connection
        has itself gone over its own rates ``flood_after`` times (one such time is
        forgiven every ``flood_forgive`` seconds); waits caused only by a busy address
        never count against a quiet connection (one that sends less than a quarter of its
        rate; a busier one counts them: :func:`fairness.busy_in_a_busy_address`), and a
        connection of a banned address is closed the first time it goes over
        (:class:`fairness.Bans`)."""
        now = self.clock()
        own = self.own.take(now)
        if "sync" in text or "lang" in text:  # both build a whole frame
            own = max(own, self.sync.take(now))
        shared = self.address.take(now)
        if fairness.busy_in_a_busy_address(self.busy, now, shared) or own > 0:
            weight = max(1.0, own * self.limits.message_rate)  # a sync over its rate weighs its wait
            if self.strikes.take(now, weight) > 0 or (self.bans is not None and self.bans.banned(self.address_name)):
                raise Flood
        return min(max(own, shared), self.limits.max_wait)

    def flooded(self) -> None:
        """This connection is closed for flooding (its address may be banned: :class:`fairness.Bans`)."""
        if self.bans is not None:
            self.bans.flooded(self.address_name)


class Shared(Protocol):
    """Per-address buckets and WebSocket counts kept where every worker sees them (with a
    PostgreSQL store: :class:`mattis.web.pgstore.PgLimits`).  Its calls block (a database
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


class Hub:
    """The guard's shared state: the address buckets and the open WebSockets per address.
    With :attr:`shared` set (several workers on PostgreSQL), the buckets of every request
    (its cost class and table creation) and the count of WebSockets per address are
    those of all workers together; the local ones serve only if the database cannot be
    reached (said once in the log)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.shared: Shared | None = None
        """Set by the server when it runs on PostgreSQL (:class:`mattis.web.pgstore.PgLimits`)."""
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
        self.bans = fairness.Bans(limits, clock)
        self.threads = fairness.guard_threads()
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


# ------------------------------------------------------------------- input


class BadJson(json.JSONDecodeError):
    """JSON this server does not read: a number too long, nesting too deep, NaN."""


MAX_DIGITS: Final = 30
MAX_DEPTH: Final = 12


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise BadJson("number too long", text[:MAX_DIGITS], 0)
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise BadJson("number too long", text[:MAX_DIGITS], 0)
    value = float(text)
    if not math.isfinite(value):
        raise BadJson("number out of range", text[:MAX_DIGITS], 0)
    return value


def _constant(text: str) -> Any:
    raise BadJson("not a JSON number", text, 0)


def _depth(obj: Any, level: int = 0) -> None:
    if level > MAX_DEPTH:
        raise BadJson("nesting too deep", "", 0)
    if isinstance(obj, dict):
        for v in obj.values():
            _depth(v, level + 1)
    elif isinstance(obj, list):
        for v in obj:
            _depth(v, level + 1)


def loads(text: str | bytes) -> Any:
    """``json.loads`` for untrusted input: numbers of at most 30 characters, finite, no NaN,
    at most 12 levels deep.  Anything else raises :class:`json.JSONDecodeError` (or
    :class:`UnicodeDecodeError` for bytes that are not UTF-8), never another error."""
    try:
        obj = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise BadJson("nesting too deep", "", 0) from None
    _depth(obj)
    return obj


def clip(value: object, limit: int = 120) -> object:
    """A value to be written into a message (a string from a client, an error that quotes
    one), cut to ``limit`` characters with an ellipsis; numbers and short values unchanged."""
    if isinstance(value, int | float):
        return value
    text = str(value)
    return text[:limit] + "…" if len(text) > limit else value


def words(key: str, lang: str) -> str:
    """A catalogue text (the guard's refusals are ``web.refused.*``)."""
    from ..core.text import say

    return say(key, "nb" if lang == "nb" else "en")


def lang_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """``nb`` if the browser's first language is Norwegian, else ``en``."""
    for name, value in headers:
        if name == b"accept-language":
            first = value.decode("latin-1").split(",")[0].strip().lower()
            return "nb" if first[:2] in ("nb", "no", "nn") else "en"
    return "en"


# ------------------------------------------------------------- host, origin


def host_name(netloc: str) -> tuple[str, int | None]:
    """``("example.org", 8000)`` from ``example.org:8000``; IPv6 literals without brackets."""
    parts = urlsplit("//" + netloc)
    try:
        port = parts.port
    except ValueError:
        return "", None
    return (parts.hostname or "").lower().rstrip("."), port


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Hosts:
    """The names this server answers to (the ``Host`` allowlist).  ``ip_literals``: also any
    IP address (a server bound to every interface is reached by its LAN address, which it
    cannot know; a DNS-rebinding attack needs a *name*, never a bare address)."""

    def __init__(self, names: Iterable[str], ip_literals: bool = False) -> None:
        self.names = frozenset(host_name(n)[0] if ":" in n and not is_ip(n) else n.lower().strip("[]")
                               for n in names)
        self.ip_literals = ip_literals

    def allowed(self, name: str) -> bool:
        return name in self.names or (self.ip_literals and is_ip(name))

    @classmethod
    def default(cls, bound: str, extra: Iterable[str] = ()) -> Hosts:
        """The bound address and localhost; bound to every interface (``0.0.0.0``, ``::``), any IP address too."""
        wildcard = bound in ("0.0.0.0", "::", "")
        return cls([*LOOPBACK, bound, *extra], ip_literals=wildcard)


DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return bytes(v).decode("latin-1")
    return None


def origin_ok(scope: Scope, hosts: Hosts) -> bool:
    """A WebSocket's ``Origin`` is a page of this server: its host is allowed, its scheme is
    exactly the one this connection implies (``ws`` -> ``http``, ``wss`` -> ``https``, as
    the proxy reports it), and its port is the one the browser connected to (the ``Host``
    header, which is itself allowlisted)."""
    origin, host = header(scope, b"origin"), header(scope, b"host")
    if not origin or not host:
        return False
    expected = "https" if scope.get("scheme") == "wss" else "http"
    try:
        parts = urlsplit(origin)
        oport = parts.port
    except ValueError:
        return False
    if parts.scheme != expected or parts.path not in ("", "/") or parts.username or parts.query:
        return False
    oname = (parts.hostname or "").lower().rstrip(".")
    hname, hport = host_name(host)
    default = DEFAULT_PORTS[expected]
    return hosts.allowed(oname) and oname == hname and (oport or default) == (hport or default)


# -------------------------------------------------------------- middleware


class Refused(Exception):
    """Raised inside the app by the body reader: answer with this status."""

    def __init__(self, status: int, key: str) -> None:
        super().__init__(key)
        self.status = status
        self.key = key


class Guard:
    """ASGI middleware: Host allowlist, Origin check, body limits, socket caps, API rates.
    ``words(key, lang)`` gives a refusal's text (the catalogue's ``web.refused.*``)."""

    def __init__(self, app: ASGIApp, hub: Hub, hosts: Hosts, words: Callable[[str, str], str]) -> None:
        self.app = app
        self.hub = hub
        self.hosts = hosts
        self.words = words

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else "?"
        name, _ = host_name(header(scope, b"host") or "")
        if kind == "websocket":
            await self.websocket(scope, receive, send, address, name)
        else:
            await self.http(scope, receive, send, address, name)

    async def answer(self, send: Send, scope: Scope, status: int, key: str, retry_after: float | None = None) -> None:
        text = self.words(key, lang_of(scope.get("headers", ())))
        body = json.dumps({"error": text}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        if retry_after is not None:
            headers.append((b"retry-after", str(max(1, math.ceil(retry_after))).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def http(self, scope: Scope, receive: Receive, send: Send, address: str, name: str) -> None:
        if not self.hosts.allowed(name):
            await self.answer(send, scope, 421, "web.refused.bad_host")
            return
        method = scope.get("method", "GET")
        path = str(scope.get("path", ""))
        wait, key = await self.hub.check(address, method, path)
        if key:
            if method in ("GET", "HEAD"):  # a flooder's connection waits before its refusal, too
                await asyncio.sleep(self.hub.limits.get_wait)
            await self.answer(send, scope, 429, key, retry_after=wait)
            return
        if wait > 0:
            await asyncio.sleep(wait)
        length = header(scope, b"content-length")
        limits = self.hub.limits
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > limits.max_body):
            await self.answer(send, scope, 413, "web.refused.too_big")
            return
        got = 0
        deadline = time.monotonic() + limits.body_timeout
        started = False

        async def bounded_receive() -> Message:
            nonlocal got
            try:
                msg = await asyncio.wait_for(receive(), timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                raise Refused(408, "web.refused.too_slow") from None
            if msg["type"] == "http.request":
                got += len(msg.get("body", b""))
                if got > limits.max_body:
                    raise Refused(413, "web.refused.too_big")
            return msg

        async def watched_send(msg: Message) -> None:
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
            await send(msg)

        try:
            await self.app(scope, bounded_receive, watched_send)
        except Refused as r:
            if not started:
                await self.answer(send, scope, r.status, r.key)

    async def websocket(self, scope: Scope, receive: Receive, send: Send, address: str, name: str) -> None:
        if not self.hosts.allowed(name) or not origin_ok(scope, self.hosts) \
                or not await self.hub.open_socket(address):
            await send({"type": "websocket.close", "code": CLOSE_POLICY})  # before accept: HTTP 403
            return
        scope[PACE] = self.hub.pace(address)
        try:
            await self.app(scope, receive, send)
        finally:
            self.hub.close_socket(address)


async def receive_text(ws: Any, pace: Pace | None, max_message: int) -> str | None:
    """The next text message of a Starlette WebSocket, paced; ``None`` after the socket was
    closed for a reason (binary data: 1003, too big: 1009, a flood: 4429).  A disconnect
    raises :class:`starlette.websockets.WebSocketDisconnect`, as ``receive_text`` does."""
    from starlette.websockets import WebSocketDisconnect

    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if text is None:
        await ws.close(code=CLOSE_UNSUPPORTED)
        return None
    if len(text) > max_message:
        await ws.close(code=CLOSE_TOO_BIG)
        return None
    if pace is not None:
        try:
            wait = pace.wait(text)
        except Flood:
            pace.flooded()
            await ws.close(code=CLOSE_FLOOD, reason=fairness.FLOOD_REASON)
            return None
        if wait:
            await asyncio.sleep(wait)
    return str(text)


# ------------------------------------------------------ the socket doorman


class Doorman:
    """The sockets of one server that have not yet sent a whole request head ("silent"),
    oldest first, per address and in all.  One address may hold ``max_silent_per_address``
    silent sockets, and open up to ``handshake_burst`` more at once (a club behind one
    NAT opening the page together; the burst comes back at ``handshake_rate`` a second)
    before its own oldest silent socket is closed for each new one (so it never holds more
    than ``max_silent_per_address + handshake_burst``)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.silent: OrderedDict[Any, str] = OrderedDict()
        self.by_address: dict[str, OrderedDict[Any, None]] = {}
        self.bursts = Buckets(limits.handshake_rate, limits.handshake_burst, limits.max_addresses, clock)

    def arrive(self, proto: Any, address: str) -> list[Any]:
        """Register a new silent socket; the ones to close to make room (oldest first)."""
        self.silent[proto] = address
        mine = self.by_address.setdefault(address, OrderedDict())
        mine[proto] = None
        evict = []
        cap = self.limits.max_silent_per_address
        if len(mine) > cap and (len(mine) > cap + self.limits.handshake_burst or self.bursts.take(address) > 0):
            if len(mine) <= cap + self.limits.handshake_burst:
                self.bursts.get(address).refund()
            evict.append(next(iter(mine)))  # the burst is spent: this address's oldest makes room
            self.leave(evict[-1])
        while len(self.silent) > self.limits.max_silent:
            evict.append(next(iter(self.silent)))
            self.leave(evict[-1])
        return evict

    def leave(self, proto: Any) -> None:
        address = self.silent.pop(proto, None)
        if address is None:
            return
        mine = self.by_address[address]
        mine.pop(proto, None)
        if not mine:
            del self.by_address[address]

    def oldest(self) -> Any | None:
        return next(iter(self.silent), None)


def head_size(before: int, tail: bytes, data: bytes) -> int:
    """The size of a request head that had ``before`` bytes (ending in ``tail``, its last few)
    when ``data`` came: up to its blank line if ``data`` ends the head, else all of it so far."""
    seen = tail + data
    ends = [i + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (i := seen.find(mark)) >= 0]
    return before - len(tail) + min(ends) if ends else before + len(data)


def guarded_protocol(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools, else h11) with the first-request timeout, the
    head size limit and the silent-socket caps of ``limits``; pass it as ``http=``."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # pragma: no cover - uvicorn without httptools
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]
    door = Doorman(limits)

    class Guarded(Base):
        doorman = door

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.head_bytes = 0
            self.waiting = False
            peer = self.client[0] if self.client else "?"
            if len(self.connections) > limits.max_connections:
                oldest = door.oldest()
                if oldest is None:  # full of working sockets: this one cannot be served
                    transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n"
                                    b"retry-after: 5\r\nconnection: close\r\n\r\n")
                    transport.close()
                    self.waiting = False
                    return
                door.leave(oldest)
                oldest.drop()
            self.peer = peer
            self.start_waiting()

        def start_waiting(self) -> None:
            """A request head is due: it must come whole within the timeout (the first one,
            and each later one on a kept-alive socket)."""
            self.waiting = True
            self.head_bytes = 0
            self.head_tail = b""
            self.seen_cycle = self.cycle
            for old in door.arrive(self, self.peer):
                old.drop()
            self.first_timer = self.loop.call_later(limits.first_request_timeout, self.too_slow)

        def drop(self) -> None:
            self.waiting = False
            self.first_timer.cancel()
            if not self.transport.is_closing():
                self.transport.close()

        def too_slow(self) -> None:
            if self.waiting:
                door.leave(self)
                self.drop()

        def data_received(self, data: bytes) -> None:
            if not self.waiting and self.cycle is not None and self.cycle.response_complete \
                    and not self.pipeline and self.transport.get_protocol() is self:
                self.start_waiting()  # the next request on a kept-alive socket begins
            if self.waiting and self.head_bytes + len(data) > limits.max_head \
                    and head_size(self.head_bytes, self.head_tail, data) > limits.max_head:
                door.leave(self)  # a head over the limit, whole or not: refused before it is parsed
                self.waiting = False
                self.first_timer.cancel()
                self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n"
                                     b"connection: close\r\n\r\n")
                self.transport.close()
                return
            if self.waiting:
                self.head_bytes += len(data)
                self.head_tail = (self.head_tail + data)[-3:]
            super().data_received(data)
            if not self.waiting:
                return
            if self.cycle is not self.seen_cycle or self.transport.get_protocol() is not self:
                self.waiting = False  # a whole request head arrived (a request, or the WebSocket upgrade)
                self.first_timer.cancel()
                door.leave(self)

        def connection_lost(self, exc: Exception | None) -> None:
            if getattr(self, "waiting", False):
                self.waiting = False
                self.first_timer.cancel()
                door.leave(self)
            super().connection_lost(exc)

    return Guarded


def network_event(exc: BaseException | None) -> bool:
    """Whether ``exc`` is something a client did to its own connection: a reset or a broken
    pipe, or a text frame that is not UTF-8 (as uvicorn's WebSocket protocol finds it); a
    decoding error in the app's own code is not one."""
    if isinstance(exc, ConnectionError):
        return True
    if not isinstance(exc, UnicodeDecodeError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and str(tb.tb_frame.f_globals.get("__name__", "")).startswith("uvicorn.protocols.")


class NetworkEvents(logging.Filter):
    """Turns a record whose exception is a :func:`network_event` into one line at
    debug level (without the traceback), shown only where debug is on; other records pass
    as they are."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not network_event(exc):
            return True
        text = record.getMessage().strip()
        record.msg = f"{text} ({type(exc).__name__}: {clip(str(exc))})"
        record.args = None
        record.exc_info = record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


SERVER_LOGGERS: Final = ("uvicorn.error", "uvicorn.asgi", "websockets.server", "websockets.protocol", "asyncio")
"""The loggers through which uvicorn, websockets and asyncio report a connection's end."""


def quiet_network_events() -> None:
    """Install :class:`NetworkEvents` on the server's loggers (once; after uvicorn has
    configured its logging)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, NetworkEvents) for f in logger.filters):
            logger.addFilter(NetworkEvents())


def raise_file_limit(wanted: int) -> int:
    """Raise this process's soft limit on open files towards ``wanted`` (up to the hard
    limit); the limit now in force."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else wanted
