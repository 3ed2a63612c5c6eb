"""Typed events: what a move did, in public terms (like PokerKit's operations).

:func:`events_between` compares two observations of the same seat before and
after a move and names what happened.  Everything it reports is public, so it
is the same for every seat; the referee, the terminal log, the web page and
the records all speak this vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Card, Move, Observation, Outcome, Phase


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


Event = MovePlayed | TrickTaken | TrickCleared | PhaseTwoBegins | PlayerOut | BlodmattisFound | GameOver


def events_between(before: Observation, after: Observation) -> list[Event]:
    """The public events from ``before`` to ``after`` (two observations of one seat),
    in the order they happened."""
    out: list[Event] = [MovePlayed(seat, move, shown) for seat, move, shown in after.history[len(before.history):]]
    if before.phase is Phase.COLLECT:
        for s in range(after.players):
            if after.tricks_won[s] > before.tricks_won[s] and after.last_trick is not None:
                out.append(TrickTaken(s, after.last_trick[1]))
        if after.phase is not Phase.COLLECT:
            out.append(PhaseTwoBegins(after.trump, after.trump_card, after.trump_holder))
    elif after.last_trick is not None and after.last_trick != before.last_trick:
        out.append(TrickCleared(after.last_trick[0], after.last_trick[1]))
    for s in after.blodmattis[len(before.blodmattis):]:
        out.append(BlodmattisFound(s))
    # Only those who went out: players ranked at a forced end are in ``ranked``, not here.
    for i, s in enumerate(after.finished[len(before.finished):], start=len(before.finished) + 1):
        out.append(PlayerOut(s, i))
    outcome = after.outcome
    if outcome is not None and not before.is_over:
        out.append(GameOver(outcome))
    return out
