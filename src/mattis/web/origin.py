"""Who may be served: the ``Host`` allowlist (against DNS rebinding, :class:`Hosts`) and the
scheme-exact ``Origin`` check for WebSockets (:func:`origin_ok`)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, MutableMapping
from typing import Any, Final
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]

LOOPBACK: Final = ("localhost", "127.0.0.1", "::1")


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

