"""Every limit of the web server in one place (:class:`Limits`: the CLI sets them, docs/web.md
lists them), and what a test server lifts (:data:`TEST_SERVER`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


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
    address's rate (:func:`mattis.web.rates.busy_in_a_busy_address`)."""
    flood_forgive: float = 10.0
    """Seconds after which one time over the rates is forgiven."""
    flood_ban_after: int = 3
    """An address whose sockets were closed for flooding this many times (one forgiven every
    ``flood_ban`` seconds) has its new connections closed as they open (and its new WebSockets
    refused where the doorman is not in front), and its sockets over their own rates are
    closed at once, until one is forgiven (:class:`mattis.web.rates.Bans`; per worker)."""
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
    spectators_paced_after: int = 20
    """Spectators at one table (at this worker) past which they are sent its state at most
    ``spectator_frames`` times a second (the newest state; each frame carries the log's last
    moves) instead of one frame a move (:class:`mattis.web.fairness.SpectatorPace`)."""
    spectator_frames: float = 2.0
    lease_seconds: float = 6.0
    """With several workers (PostgreSQL): a table's lease lasts this long; its owner renews it
    every third of it, and another worker takes the table over when it has run out."""


TEST_SERVER: Final[dict[str, Any]] = {"message_rate": 1e6, "message_burst": 1e6, "sync_rate": 1e6, "sync_burst": 1e6,
                      "create_burst": 1e6, "get_burst": 1e6, "heavy_burst": 1e6, "analysis_burst": 1e6}
"""What a test server (``create_app(test_mode=True)``, ``mattis serve --test-mode``) lifts
unless told otherwise: the per-connection message rates (test clients play as fast as
the machine allows), table creation and GET requests per address.  The hardening tests
set them."""

