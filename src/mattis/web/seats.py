"""A web table's seats and the clock of the seat to act (connection state): :class:`Seat`,
:class:`Timer`, the seat tokens (kept only as hashes), and the table settings' choices."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..play.agents import DEFAULT_LEVEL
from .refusal import Refusal

LEVELS = ("easy", "medium", "hard", "expert")
NAME_MAX = 24
GRACE_DEFAULT = 60
"""Seconds an absent player's turn waits before a bot plays it (a table setting)."""
GRACE_MAX = 3600
CLOCK_CHOICES = (None, 30, 60, 120)
"""The turn clocks a host may choose: seconds a connected player has for each turn (``None``: off)."""
BANK_CHOICES = (None, 30, 60)
"""The time banks a host may choose with a turn clock: seconds each seat has a game to spend
when its turn clock runs out, before a bot plays the turn (``None``: none)."""


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256 (they are random, 256 bits)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(raw: object) -> str:
    """A display name: printable, trimmed, 1..24 characters."""
    if not isinstance(raw, str):
        raise Refusal("name_not_text")
    name = "".join(ch for ch in raw if ch.isprintable()).strip()[:NAME_MAX]
    if not name:
        raise Refusal("no_name")
    return name


@dataclass
class Seat:
    """A seat: ``open`` (waiting for a person), ``human`` or ``bot``."""

    kind: str
    name: str
    level: str = DEFAULT_LEVEL
    token_hash: str | None = None
    former: str | None = None
    """A bot's seat that a person had: her token's hash, so the host can give the seat back
    (:meth:`Table.seat_event` ``back``) and her old token works again."""


def people_in(seats: list[Seat], standin: set[int], still_in: frozenset[int]) -> bool:
    """Whether a person who plays her own seat (not stood in for) is among the seats still in:
    the bots then play at a pace people can follow, else they fast-forward."""
    return any(s.kind == "human" and i not in standin and i in still_in for i, s in enumerate(seats))


@dataclass
class Timer:
    """The clock running for the seat to act (connection state, not logged): ``kind`` is
    ``clock`` (a connected player's turn clock), ``grace`` (an absent player's grace period)
    or ``host`` (the host away from the lobby).  ``ends`` is on the hub's clock
    (:meth:`mattis.web.waits.Waits.now`); while the table is paused ``left`` holds the
    seconds that were left."""

    seat: int
    game: int
    seq: int
    kind: str
    ends: float
    total: float
    left: float | None = None
    bank: float = 0.0
    """A turn clock's time bank: the seat's bank when the clock started, spent once the clock
    has run out (:attr:`ends` is after the clock and the bank)."""

    def key(self) -> tuple[int, int, int, str]:
        return self.game, self.seq, self.seat, self.kind

    def left_at(self, now: float) -> float:
        """Seconds left at ``now`` (frozen while paused)."""
        return max(0.0, self.ends - now) if self.left is None else self.left

    def clock_left(self, now: float) -> float:
        """Seconds left on the turn clock itself (then the bank runs)."""
        return max(0.0, self.left_at(now) - self.bank)

    def bank_left(self, now: float) -> float:
        """Seconds left in the bank (all of it while the clock runs)."""
        return min(self.bank, self.left_at(now))


