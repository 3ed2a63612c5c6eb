"""What one seat may know: the observation.

Bots, front ends and research adapters see the game only through an
:class:`Observation`.  It holds the seat's own hand, everything that lies face
up or was laid face up (and so is public history), counts of hidden cards, and
the trump once it is shown; nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move
from .rules import Rules

PHASE1, PHASE2, OVER = 1, 2, 3

HistoryItem = tuple[int, Move, tuple[Card, ...]]
"""One public event: (seat, move, cards it showed).  For ``chance`` the card
turned up; for ``pickup`` the cards taken back."""


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the game (see the module docstring)."""

    seat: int
    rules: Rules
    players: int
    dealer: int
    phase: int
    """1 (stikk, collecting), 2 (shedding) or 3 (over)."""
    to_act: int | None
    legal: tuple[Move, ...]
    """This seat's legal moves when it is to act, else empty."""
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    piles: tuple[tuple[Card, ...], ...]
    """Phase 1: the cards each seat has won (they were laid face up)."""
    tricks_won: tuple[int, ...]
    stock_count: int
    set_aside_count: int
    """Cards set aside unseen before the deal (two players)."""
    trump: int | None
    """The trump suit, once it is shown."""
    trump_card: Card | None
    trump_holder: int | None
    """Who holds the trump card (face down, or drawn face up), once known."""
    trick_leader: int | None
    table1: tuple[tuple[int, Card], ...]
    """Phase 1: the cards on the table in the order laid, with who laid them."""
    fighters: tuple[int, ...]
    """Phase 1: the seats in a running krig or støting."""
    table2: tuple[tuple[int, tuple[Card, ...]], ...]
    """Phase 2: the entries of the trick in order, with who laid each."""
    trick_need: int
    """Phase 2: entries that complete the current trick (0 when the table is empty)."""
    known: tuple[tuple[Card, ...], ...]
    """For each seat, the cards publicly known to be in its hand."""
    in_game: tuple[int, ...]
    finished: tuple[int, ...]
    losers: tuple[int, ...]
    blodmattis: tuple[int, ...]
    last_trick: tuple[int, tuple[Card, ...]] | None
    """The last completed phase 1 trick (winner, cards), or the last phase 2 trick
    (who completed it, cards)."""
    out_count: int
    history: tuple[HistoryItem, ...]
    end_reason: str | None
    """``None`` while playing; ``"normal"``, ``"repetition"``, ``"cap"`` or ``"stuck"``."""

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat
