"""Who leads phase 2 when the player due to lead it is already out: a Blodmattis holding
the trump card ("taper med en gang", Mattis regler – også kjent som Blodmattis) gives
the lead to the next player still in on her left (docs/rules.md, fixed rules)."""

from __future__ import annotations

import random

from mattis.core import PHASE2, preset
from mattis.play import Referee


def test_a_blodmattis_trump_holder_passes_the_phase_2_lead_to_her_left() -> None:
    rules = preset("blodmattis")
    seen = 0
    for seed in range(400):
        ref = Referee.new(rules, 5, seed=seed, dealer=seed % 5)
        rng = random.Random(seed)
        while not ref.is_over and ref.observation(0).phase is not PHASE2:
            seat = ref.to_act
            assert seat is not None
            ref.apply(seat, rng.choice(ref.observation(seat).legal))
        obs = ref.observation(0)
        if ref.is_over or obs.trump_holder not in obs.blodmattis:
            continue
        seen += 1
        holder = obs.trump_holder
        assert holder is not None
        left = next(s for s in ((holder + j) % 5 for j in range(1, 5)) if obs.is_in(s) and obs.hand_counts[s])
        assert ref.to_act == left
    assert seen >= 3, f"only {seen} deals where the trump holder is a Blodmattis"
