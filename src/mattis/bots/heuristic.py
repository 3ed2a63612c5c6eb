"""The heuristic bot: the rule texts' advice as fixed rules (see :mod:`.policy`)."""

from __future__ import annotations

import random

from ..core import Move, Observation
from ..core.observation import PHASE1
from .policy import DEFAULT_KNOBS, Knobs, phase1_choice, phase2_choice


def heuristic_move(obs: Observation, knobs: Knobs = DEFAULT_KNOBS) -> Move:
    """The heuristic's move for ``obs`` (which must be this seat's turn)."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    trump = obs.trump if obs.trump is not None else -1
    if obs.phase == PHASE1:
        pot = [c for _, c in obs.table1]
        return phase1_choice(obs.hand, obs.round_cards, pot, legal, trump, obs.rules, bool(obs.fighters), knobs)
    nxt = obs.next_seat_in(obs.seat)
    known = obs.known[nxt]
    next_hand = known if len(known) == obs.hand_counts[nxt] else None
    return phase2_choice(legal, not obs.table2, trump, next_hand, obs.rules, len(obs.hand), knobs)


class HeuristicBot:
    """Rules of thumb; knobs as constructor parameters.  Think time: microseconds."""

    def __init__(self, seed: int | None = None, knobs: Knobs = DEFAULT_KNOBS) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.knobs = knobs

    def act(self, obs: Observation) -> Move:
        return heuristic_move(obs, self.knobs)
