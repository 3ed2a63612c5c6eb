"""The heuristic bot: the rule texts' advice as fixed rules (see :mod:`.policy`)."""

from __future__ import annotations

import random

from ..core import Card, Move, Observation
from ..core.observation import PHASE1
from .policy import DEFAULT_KNOBS, Knobs, phase1_choice, phase2_choice


def round_cards(obs: Observation) -> list[Card]:
    """The phase 1 cards laid in the current round (in a krig: since it began)."""
    if not obs.fighters:
        return [c for _, c in obs.table1]
    idx = obs.fighters.index(obs.seat) if obs.seat in obs.fighters else len(obs.fighters)
    return [c for _, c in obs.table1[len(obs.table1) - idx:]] if idx else []


def next_seat_in(obs: Observation, seat: int) -> int:
    n = obs.players
    s = (seat + 1) % n
    for _ in range(n):
        if obs.is_in(s):
            return s
        s = (s + 1) % n
    return seat


def heuristic_move(obs: Observation, knobs: Knobs = DEFAULT_KNOBS) -> Move:
    """The heuristic's move for ``obs`` (which must be this seat's turn)."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    trump = obs.trump if obs.trump is not None else -1
    if obs.phase == PHASE1:
        rnd = round_cards(obs)
        pot = [c for _, c in obs.table1]
        return phase1_choice(obs.hand, rnd, pot, legal, trump, knobs)
    nxt = next_seat_in(obs, obs.seat)
    known = obs.known[nxt]
    next_hand = known if len(known) == obs.hand_counts[nxt] else None
    return phase2_choice(legal, not obs.table2, trump, next_hand, obs.rules.pickup, len(obs.hand), knobs)


class HeuristicBot:
    """Rules of thumb; knobs as constructor parameters.  Think time: microseconds."""

    def __init__(self, seed: int | None = None, knobs: Knobs = DEFAULT_KNOBS) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.knobs = knobs

    def act(self, obs: Observation) -> Move:
        return heuristic_move(obs, self.knobs)
