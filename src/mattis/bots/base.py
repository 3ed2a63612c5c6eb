"""The simplest bot (the agent interface and the registry by name are in
:mod:`mattis.play.agents`)."""

from __future__ import annotations

import random

from ..core import Move, Observation


class RandomBot:
    """Uniformly random legal moves (seeded for reproducibility)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Move:
        return self.rng.choice(obs.legal)
