"""What one seat may know: the observation.

Bots, front ends and research adapters see the game only through an
:class:`Observation`.  It holds the seat's own hand, everything that lies face
up or was laid face up (and so is public history), counts of hidden cards, and
the trump once it is shown; nothing else.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import Card, cards_of
from .moves import Move
from .rules import Rules
from .vocabulary import Outcome, Phase, Termination

if TYPE_CHECKING:
    from .state import State

PHASE1, PHASE2, OVER = Phase.COLLECT, Phase.SHED, Phase.OVER
"""Short names of the three phases."""

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
    phase: Phase
    """Collecting tricks (stikk, 1), shedding (2) or over (3)."""
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
    """Phase 2: the seats that went out, in order."""
    ranked: tuple[int, ...]
    """The seats ranked ahead of the loser at a forced end (repetition, cap, stuck),
    best first: still in when the game was stopped, so they did not go out."""
    waiting: tuple[int, ...]
    """Phase 2, ``going_out="cleared"``: seats still in with an empty hand whose last
    entry lies on the table; each goes out when its trick is cleared."""
    losers: tuple[int, ...]
    blodmattis: tuple[int, ...]
    last_trick: tuple[int, tuple[Card, ...]] | None
    """The last completed phase 1 trick (winner, cards), or the last phase 2 trick
    (who completed it, cards)."""
    out_count: int
    history: tuple[HistoryItem, ...]
    end_reason: Termination | None
    """``None`` while playing, else how the game ended."""

    def __reduce__(self) -> tuple[type[Observation], tuple[Any, ...]]:
        """Pickle and copy by the constructor (the compiled core's frozen classes have no
        ``__setstate__``)."""
        return (Observation, tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (public), or ``None`` while it is being played."""
        if self.end_reason is None:
            return None
        return Outcome.of(self.end_reason, self.finished, self.losers, self.blodmattis, self.ranked)

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat


def observe(state: State, seat: int) -> Observation:
    """The observer: what ``seat`` may know of ``state`` now, and nothing else."""
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat}")
    n = state.n
    phase = state.phase
    trump = state.trump
    return Observation(
        seat=seat,
        rules=state.rules,
        players=n,
        dealer=state.dealer,
        phase=phase,
        to_act=state.to_act,
        legal=state.legal_moves() if state.to_act == seat else (),
        hand=tuple(cards_of(state.hands[seat])),
        hand_counts=tuple(h.bit_count() for h in state.hands),
        piles=tuple(tuple(cards_of(p)) for p in state.piles),
        tricks_won=tuple(state.tricks_won),
        stock_count=len(state.stock),
        set_aside_count=state.aside.bit_count(),
        trump=trump if trump >= 0 else None,
        trump_card=state.trump_card if trump >= 0 and state.trump_card >= 0 else None,
        trump_holder=state.trump_holder if state.trump_holder >= 0 else None,
        trick_leader=state.trick_leader if phase is Phase.COLLECT else None,
        table1=tuple(state.trick),
        fighters=tuple(state.round_seats) if state.fighting and phase is Phase.COLLECT else (),
        table2=tuple(state.table),
        trick_need=state.trick_size_now(),
        known=tuple(tuple(cards_of(k)) for k in state.known),
        in_game=tuple(s for s in range(n) if state.in_game >> s & 1) if phase is not Phase.COLLECT
        else tuple(range(n)),
        finished=tuple(state.finished),
        ranked=tuple(state.ranked),
        waiting=tuple(s for s in range(n) if state.pending >> s & 1),
        losers=tuple(state.losers),
        blodmattis=tuple(state.blodmattis),
        last_trick=state.last_trick,
        out_count=state.out.bit_count(),
        history=state.history_tuple(),
        end_reason=state.end_reason,
    )
