"""A table's chat: short text lines from the seated players, the host's mutes, and what a page is shown.

The lines and the mutes are events in the table's log (``chat``, ``mute``; checked by
:meth:`mattis.web.table.Table.chat_event` and :meth:`~mattis.web.table.Table.mute_event`), so
a page that connects again, or a server started again, has the recent lines; they are never
part of a game's record or its replay (the record download adds them only when asked,
``?chat=1``).  The rate per seat is connection state, not logged (:attr:`Chat.sent`).

A line is text only: printable characters, spaces collapsed, trimmed (:func:`clean_line`).
The page shows it with ``textContent``: a ``<script>`` in a name or a line is text.

>>> clean_line("  hei\\n\\tpå   deg\\u0007 ")
'hei på deg'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Final

CHAT_KEEP: Final = 50
"""Lines (and mute notes) a table keeps in memory: a page is sent the last :data:`CHAT_TAIL`."""
CHAT_TAIL: Final = 20
"""Lines in each frame (a page that connects again sees these)."""


def clean_line(raw: str) -> str:
    """A chat line as shown: every run of blanks or control characters one space, trimmed."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in raw).split())


@dataclass
class Chat:
    """One table's chat: the recent lines (each ``{"n", "seat", "name", "text", "game"}``, or a
    mute note ``{"n", "mute", "muted", "name"}``), the muted seats, and when each seat last wrote."""

    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEEP))
    muted: set[int] = field(default_factory=set)
    count: int = 0
    """Lines and notes so far (numbers them: a page counts the ones it has not seen)."""
    sent: dict[int, deque[float]] = field(default_factory=dict)
    """Per seat: when (the hub's clock) its recent lines were sent (the rate limit; not logged)."""

    def too_fast(self, seat: int, now: float, lines: int, window: float) -> float | None:
        """Seconds to wait before ``seat`` may write again, if it wrote ``lines`` lines in the
        last ``window`` seconds; ``None`` (and the line counted) if it may write now."""
        recent = self.sent.setdefault(seat, deque())
        while recent and now - recent[0] >= window:
            recent.popleft()
        if len(recent) >= lines:
            return window - (now - recent[0])
        recent.append(now)
        return None

    def apply(self, ev: dict[str, Any]) -> None:
        """A logged ``chat`` or ``mute`` event."""
        self.count += 1
        if ev["type"] == "chat":
            self.lines.append({"n": self.count, "seat": ev["seat"], "name": ev["name"], "text": ev["text"],
                               "game": ev.get("game", 0)})
            return
        if ev["muted"]:
            self.muted.add(ev["seat"])
        else:
            self.muted.discard(ev["seat"])
        self.lines.append({"n": self.count, "mute": ev["seat"], "muted": ev["muted"], "name": ev["name"]})

    def view(self, viewer: int | None) -> dict[str, Any]:
        """What a page is shown: the last lines, the muted seats, and whether it may write
        (seated and not muted; a spectator reads only)."""
        tail = list(self.lines)[-CHAT_TAIL:]
        return {"lines": tail, "muted": sorted(self.muted),
                "may": viewer is not None and viewer not in self.muted}
