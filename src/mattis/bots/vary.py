"""Not walking into a cycle: a phase 2 position seen before is a reason to vary.

A bot that chooses the same move in the same position plays a cycle to its end once
it enters one: when a phase 2 position comes back, every position of the loop comes
back, and the repetition rule stops the game at its third occurrence (docs/rules.md,
"Where the engine goes beyond the texts").  A person would not play the same thing a
second time round.  :class:`CycleGuard` is that memory for a bot: it notes the move
the seat made in each phase 2 position it saw, and when the observation says the
present position has occurred before (:attr:`~mattis.core.Observation.repetitions`
at least 2: public, since what decides it was all laid or taken in view), it names the
moves the seat already made here, so that the bot chooses among the others.

The position as the seat sees it is its own hand, the table, every hand's size, who
is still in and who is waiting (the engine's key also holds the other hands, which the
seat does not see; the count the observation gives is the engine's).  The memory is
the seat's own, the bot's past moves; it is forgotten when a new game starts (an
observation outside phase 2, or a history shorter than the last one seen).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import SUIT, Move, Observation
from ..core.observation import PHASE2

SeenKey = tuple[object, ...]


def seen_key(obs: Observation) -> SeenKey:
    """The phase 2 position as the seat to act sees it."""
    return (obs.seat, obs.hand_mask, tuple(cards for _, cards in obs.table2), obs.hand_counts, obs.still_in,
            obs.waiting, obs.trick_need)


class CycleGuard:
    """The moves this seat made in each phase 2 position (see the module's docstring)."""

    __slots__ = ("_made", "_history")

    def __init__(self) -> None:
        self._made: dict[SeenKey, list[Move]] = {}
        self._history = 0

    def _sync(self, obs: Observation) -> None:
        n = len(obs.history)
        if obs.phase != PHASE2 or n < self._history:
            self._made.clear()  # another game, or phase 2 not yet begun
        self._history = n

    def avoid(self, obs: Observation) -> tuple[Move, ...]:
        """The moves to avoid now: those the seat already made in this position, when the
        observation says the position occurred before; else none."""
        self._sync(obs)
        if obs.phase != PHASE2 or obs.repetitions < 2:
            return ()
        return tuple(self._made.get(seen_key(obs), ()))

    def choices(self, obs: Observation) -> Sequence[Move]:
        """The legal moves to choose from: all of them, less those to avoid while any other
        is left; and of those, the ones in another suit than every move to avoid, if any
        (a card of the same suit next to the one laid last time mostly plays the same
        loop again)."""
        avoid = self.avoid(obs)
        if not avoid:
            return obs.legal
        rest = [m for m in obs.legal if m not in avoid]
        if not rest:
            return obs.legal
        used = {SUIT[c] for m in avoid for c in m.cards}
        other = [m for m in rest if not any(SUIT[c] in used for c in m.cards)]
        return other if other else rest

    def note(self, obs: Observation, move: Move) -> Move:
        """Remember that the seat made ``move`` at ``obs`` (phase 2 only); returns ``move``."""
        if obs.phase == PHASE2 and len(obs.legal) > 1:
            self._made.setdefault(seen_key(obs), []).append(move)
        return move
