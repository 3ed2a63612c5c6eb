"""Typed events: what a move did, in public terms (like PokerKit's operations).

The state records them as it makes the move (:attr:`State.trace`, small tuples,
only while someone asks); :func:`move_events` turns one move's trace into these
classes.  Everything they say is public, so they are the same for every seat; the
referee hands them out (:mod:`mattis.play` re-exports them) and the terminal log,
the web page and the records speak this vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .moves import Move
from .state import (
    EV_BLODMATTIS,
    EV_GAME_OVER,
    EV_OUT,
    EV_PHASE_TWO,
    EV_TRICK_CLEARED,
    EV_TRICK_TAKEN,
    EV_WAITING,
    State,
    TraceItem,
)
from .vocabulary import Outcome

__all__ = [
    "BlodmattisFound", "Event", "GameOver", "MovePlayed", "PhaseTwoBegins", "PlayerOut", "PlayerWaiting",
    "TrickCleared", "TrickTaken", "apply_with_events", "move_events",
]


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """``seat`` made ``move``; ``shown`` are the cards it showed (laid, turned up by a
    sjanse, or taken back by a pickup)."""

    seat: int
    move: Move
    shown: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """Phase 1: ``seat`` won the trick (stikk) and its ``cards``."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickCleared:
    """Phase 2: ``seat`` completed a trick (avstikk); its ``cards`` leave play."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PhaseTwoBegins:
    """The cards won become the hands; the trump (trumf) is shown."""

    trump: int | None
    trump_card: Card | None
    trump_holder: int | None


@dataclass(frozen=True, slots=True)
class PlayerWaiting:
    """``going_out="cleared"``: ``seat`` laid her last card on a trick still open; she
    goes out when that trick is cleared (unless her entry is picked up first)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """``seat`` has no cards left and is out, ``place`` (1 = first)."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class BlodmattisFound:
    """``seat`` won no trick in phase 1 and has lost (Blodmattis)."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; ``outcome`` says how and who lost."""

    outcome: Outcome


Event = (MovePlayed | TrickTaken | TrickCleared | PhaseTwoBegins | PlayerWaiting | PlayerOut | BlodmattisFound
         | GameOver)


def _opt(value: int) -> int | None:
    return value if value >= 0 else None


def move_events(state: State, trace: list[TraceItem]) -> list[Event]:
    """The events of the move just made on ``state``, whose trace (recorded while
    :attr:`State.trace` was ``trace``) lists what it did: the move first, then the rest
    in the order it happened."""
    log = state.log
    if log is None:
        raise ValueError("no move was made")
    out: list[Event] = [MovePlayed(log[1], log[2], log[3])]
    for item in trace:
        kind = item[0]
        if kind == EV_TRICK_TAKEN:
            out.append(TrickTaken(item[1], item[2]))
        elif kind == EV_TRICK_CLEARED:
            out.append(TrickCleared(item[1], item[2]))
        elif kind == EV_PHASE_TWO:
            trump = _opt(item[1])
            out.append(PhaseTwoBegins(trump, _opt(item[2]) if trump is not None else None, _opt(item[3])))
        elif kind == EV_WAITING:
            out.append(PlayerWaiting(item[1]))
        elif kind == EV_OUT:
            out.append(PlayerOut(item[1], item[2]))
        elif kind == EV_BLODMATTIS:
            out.append(BlodmattisFound(item[1]))
        elif kind == EV_GAME_OVER:
            outcome = state.outcome
            if outcome is None:  # pragma: no cover - the state records the end only when over
                raise ValueError("a game over without an outcome")
            out.append(GameOver(outcome))
        else:  # pragma: no cover - every kind the state records is handled above
            raise ValueError(f"unknown trace item {item!r}")
    return out


def apply_with_events(state: State, move: Move) -> list[Event]:
    """Make ``move`` on ``state`` (as :meth:`State.apply`) and return what it did."""
    trace: list[TraceItem] = []
    state.trace = trace
    try:
        state.apply(move)
    finally:
        state.trace = None
    return move_events(state, trace)
