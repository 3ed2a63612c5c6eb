"""The server's sockets before a request: :func:`guarded_protocol`, the HTTP protocol class
for uvicorn: a socket that has not sent a whole request head within ``first_request_timeout``
seconds (its first, or a later one on a kept-alive socket), or whose head grows past
``max_head``, is closed; when silent sockets crowd the server (per address or in all, the
:class:`Doorman`), the oldest silent one is closed to make room, so a slowloris cannot lock
out a new visitor.  And the process's limit on open files (:func:`raise_file_limit`).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .limits import Limits
from .rates import Bans, Buckets


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


def guarded_protocol(limits: Limits, bans: Bans | None = None) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools, else h11) with the first-request timeout, the
    head size limit and the silent-socket caps of ``limits``; pass it as ``http=``.  A socket
    from an address ``bans`` has banned for flooding (the app's :class:`~mattis.web.rates.Bans`)
    is closed as it opens, before a byte of it is read: a flood of reconnects then costs the
    server an accept and a close each, not a request parsed and answered with 403."""
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
            if bans is not None and bans.refuse(peer):  # (behind a proxy the peer is the proxy,
                transport.abort()  # which is never banned: its clients are banned by the app, by name)
                return
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
