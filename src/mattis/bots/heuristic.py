"""The heuristic bot: the rule texts' advice as fixed rules (see :mod:`.policy`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ..core import Move, Observation
from ..core.observation import PHASE1
from .policy import DEFAULT_KNOBS, Knobs, phase1_choice, phase2_choice
from .vary import CycleGuard


def heuristic_move(obs: Observation, knobs: Knobs = DEFAULT_KNOBS, legal: Sequence[Move] | None = None) -> Move:
    """The heuristic's move for ``obs`` (which must be this seat's turn), chosen from
    ``legal`` (some of the legal moves; all of them when ``None``)."""
    legal = obs.legal if legal is None else legal
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
    """Rules of thumb; knobs as constructor parameters.  Think time: microseconds.
    In a phase 2 position that occurred before it does not make the move it made
    there again (:class:`~mattis.bots.vary.CycleGuard`), and under undertrekk it then
    leads a card the next player can beat rather than one she cannot, so it does not
    play a cycle round to the repetition rule."""

    def __init__(self, seed: int | None = None, knobs: Knobs = DEFAULT_KNOBS) -> None:
        self.name = "heuristic"
        self.rng = random.Random(seed)
        self.knobs = knobs
        self.guard = CycleGuard()

    def act(self, obs: Observation) -> Move:
        choices = self.guard.choices(obs)
        knobs = self.knobs
        if self.guard.avoid(obs):
            # Varying: under undertrekk, lead what the next player can beat, so that the
            # trick goes on towards being cleared instead of passing the cards round.
            knobs = dataclasses.replace(knobs, safe_lead_bonus=-knobs.safe_lead_bonus)
        return self.guard.note(obs, heuristic_move(obs, knobs, choices))
