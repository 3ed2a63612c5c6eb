"""Hardening of ``mattis serve`` against dropped, buggy and hostile clients: :class:`Guard`,
the ASGI middleware: the ``Host`` allowlist (against DNS rebinding), the scheme-exact
``Origin`` check for WebSockets, request body size, a cap on WebSockets per address, and
rate limits on API requests and table creation; and :func:`receive_text`, a WebSocket's
next message, paced.

Everything in the guard is bounded in count and in time, and nothing in it knows the game.
Its parts: every limit (:mod:`mattis.web.limits`), the rates and the per-address state
(:mod:`mattis.web.rates`), untrusted input (:mod:`mattis.web.untrusted`), hosts and origins
(:mod:`mattis.web.origin`), the silent sockets (:mod:`mattis.web.doorman`), the network
events in the log (:mod:`mattis.web.netlog`).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from .fairness import FLOOD_REASON
from .origin import Hosts, Scope, header, host_name, origin_ok
from .rates import Flood, Gate, Pace
from .untrusted import lang_of

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

PACE: Final = "mattis.pace"
"""The ASGI scope key under which :class:`Guard` leaves a WebSocket's :class:`Pace`."""


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

    def __init__(self, app: ASGIApp, hub: Gate, hosts: Hosts, words: Callable[[str, str], str]) -> None:
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
            await ws.close(code=CLOSE_FLOOD, reason=FLOOD_REASON)
            return None
        if wait:
            await asyncio.sleep(wait)
    return str(text)

