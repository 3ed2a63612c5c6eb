"""One open WebSocket at a table (:class:`Conn`): its seat, its language, its queue of frames
to send, and what its heartbeat says about it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Final

from fastapi import WebSocket

from ..core.cards import Lang
from .fairness import Outbox

HEARTBEAT: Final = 2.0
"""Seconds between a page's pings (the page is told in each frame, ``heartbeat``), and between
the server's looks at who has been heard."""
HEARTBEAT_MISSES: Final = 3
"""Looks in a row without a word from a page that pings before its seat counts as away: a dead
network is noticed after 3 to 4 beats (6-8 s at the default beat)."""

@dataclass(eq=False)
class Conn:
    """One open WebSocket: bound to a seat (or ``None`` = spectator) when it opened."""

    ws: WebSocket
    seat: int | None
    lang: Lang
    queue: Outbox = field(default_factory=Outbox)
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
        """Queue ``text``; ``latest``: a table's state frame, which supersedes older ones (:class:`Outbox`)."""
        self.queue.push(text, latest)

