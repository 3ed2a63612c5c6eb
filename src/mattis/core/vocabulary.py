"""The typed vocabulary of the engine: phases, how a game ended, and why a move
is illegal.

Every value is an enum whose spelling is the one used in records, JSON and the
command line, so ``Phase.OVER == 3`` and ``Termination.CAP == "cap"`` hold and
old data reads unchanged.

>>> Termination("repetition") is Termination.REPETITION
True
>>> str(Illegal(Reason.MUST_BEAT, cards=(9,)))
'it must be higher than JC'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from .cards import Card, card_code


class Phase(IntEnum):
    """Where a game is: collecting tricks (stikk), shedding, or over."""

    COLLECT = 1
    """Phase 1: tricks (stikk) to win cards, with a stock to draw from."""
    SHED = 2
    """Phase 2: the cards won are the hand to get rid of."""
    OVER = 3


class Termination(StrEnum):
    """Why a game ended (like python-chess's ``Termination``)."""

    NORMAL = "normal"
    """Every player but the loser went out (or Blodmattis ended it)."""
    REPETITION = "repetition"
    """The third repetition of a phase 2 position; the players still in are ranked."""
    CAP = "cap"
    """The phase 2 move cap (``Rules.phase2_cap``); the players still in are ranked."""
    STUCK = "stuck"
    """No player still in has a move; the players still in are ranked."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: who went out in what order, who lost and why."""

    termination: Termination
    finished: tuple[int, ...]
    """Seats that went out, in order (never a seat ranked at a forced end)."""
    losers: tuple[int, ...]
    """Every seat that lost: each Blodmattis, then the Mattis (if any)."""
    blodmattis: tuple[int, ...]
    """Seats that won no trick in phase 1 under ``empty_hand=loses``."""
    mattis: int | None
    """The player left holding cards at the end of phase 2, if any."""
    ranked: tuple[int, ...] = ()
    """Seats still in at a forced end (repetition, cap, stuck), ranked ahead of the
    loser by cards held, best first: they did not go out."""

    def __reduce__(self) -> tuple[type[Outcome], tuple[Any, ...]]:
        """Pickle and copy by the constructor (the compiled core's frozen classes have no
        ``__setstate__``)."""
        return (Outcome, tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    @classmethod
    def of(cls, termination: Termination, finished: Sequence[int], losers: Sequence[int],
           blodmattis: Sequence[int], ranked: Sequence[int] = ()) -> Outcome:
        """The outcome of an ended game; the Mattis is the loser who is not a Blodmattis."""
        rest = [s for s in losers if s not in blodmattis]
        return cls(termination, tuple(finished), tuple(losers), tuple(blodmattis), rest[0] if rest else None,
                   tuple(ranked))

    @property
    def places(self) -> tuple[int, ...]:
        """The seats ahead of the losers, best first: those who went out, then those
        ranked at a forced end."""
        return self.finished + self.ranked

    @property
    def order(self) -> tuple[int, ...]:
        """Every seat, best first: who went out, who was ranked at a forced end, then
        the losers (each Blodmattis, then the Mattis)."""
        return self.places + tuple(s for s in self.losers if s not in self.places)

    def place(self, seat: int) -> int:
        """``seat``'s place: 1 = first out ... the number of players = the Mattis."""
        order = self.order
        return order.index(seat) + 1 if seat in order else len(order) + 1

    def score(self, seat: int) -> float:
        """How well ``seat`` did, from 0 to 1: 0 for a loser, 1 for the first out, and
        0.2 less from first to last of the places ahead of the losers (the search bots'
        playout value)."""
        if seat in self.losers:
            return 0.0
        return 1.0 - 0.2 * (self.place(seat) - 1) / max(1, len(self.order) - 1)

    @property
    def forced(self) -> bool:
        """Whether the game was stopped by an engine rule (repetition, cap, stuck)."""
        return self.termination is not Termination.NORMAL


class Reason(StrEnum):
    """Why a move is illegal: a code; the words for people are in the catalogue
    (:mod:`mattis.core.catalogue`), keyed by ``reason.<code>``."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    """``seat``: whose turn it is (a record move by the wrong seat)."""
    NO_PICKUP_IN_PHASE1 = "no_pickup_in_phase1"
    CHANCE_OFF = "chance_off"
    CHANCE_STOCK = "chance_stock"
    CHANCE_NO_STOCK = "chance_no_stock"
    CHANCE_NOT_LEADING = "chance_not_leading"
    ONE_CARD_IN_PHASE1 = "one_card_in_phase1"
    NOT_HELD = "not_held"
    """``cards``: the cards the player does not hold."""
    NO_CHANCE_IN_PHASE2 = "no_chance_in_phase2"
    NOTHING_TO_PICK_UP = "nothing_to_pick_up"
    MUST_BEAT_NOT_PICK_UP = "must_beat_not_pick_up"
    NO_SEQUENCES = "no_sequences"
    NOT_A_SEQUENCE = "not_a_sequence"
    SEQUENCE_TOO_SHORT = "sequence_too_short"
    """``number``: the shortest sequence allowed."""
    CANNOT_LEAD = "cannot_lead"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    """``cards``: the higher cards of the led suit the player holds (``follow=void``: no
    trump, nor another suit, while you hold the suit)."""
    MUST_FOLLOW_SUIT_PICK_UP = "must_follow_suit_pick_up"
    """``follow=void``: the player holds the led suit but nothing higher, so picking up
    is the one legal move (no trump while she holds the suit)."""
    MUST_PICK_UP = "must_pick_up"
    """``cards``: the top card; nothing the player holds may answer it, so picking up is
    the one legal move."""
    MUST_BEAT = "must_beat"
    """``cards``: the top card to beat."""
    MUST_FOLLOW_OR_TRUMP = "must_follow_or_trump"
    NOT_LEGAL = "not_legal"
    """Any other move that is not legal (the engine has no more precise reason)."""


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why a move is illegal: a :class:`Reason` and its parameters."""

    reason: Reason
    cards: tuple[Card, ...] = ()
    number: int = 0

    def __reduce__(self) -> tuple[type[Illegal], tuple[Reason, tuple[Card, ...], int]]:
        """Pickle and copy by the constructor (see :meth:`Outcome.__reduce__`)."""
        return (Illegal, (self.reason, self.cards, self.number))

    def __str__(self) -> str:
        """The engine's English message, with cards in record codes (``JC``)."""
        from .catalogue import TEXT

        return TEXT[f"reason.{self.reason}"][1].format(
            cards=" ".join(card_code(c) for c in self.cards), number=self.number)
