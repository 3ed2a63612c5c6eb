"""Typed events: what a move did, in public terms (like PokerKit's operations).

The classes live in the core (:mod:`mattis.core.events`), because the state emits
them as it makes a move; the play layer re-exports them for its users.  The
referee hands them out: :meth:`mattis.play.Referee.apply`.
"""

from __future__ import annotations

from ..core.events import (
    BlodmattisFound,
    Event,
    GameOver,
    MovePlayed,
    PhaseTwoBegins,
    PlayerOut,
    PlayerWaiting,
    TrickCleared,
    TrickTaken,
)

__all__ = [
    "BlodmattisFound", "Event", "GameOver", "MovePlayed", "PhaseTwoBegins", "PlayerOut", "PlayerWaiting",
    "TrickCleared", "TrickTaken",
]
