"""The ``learned`` bot: one ply on the value model, no search.

For each legal move it looks at the position right after the move, through the
seat's own eyes, and asks the value model (:mod:`mattis.bots.value`) for the seat's
chance of being the loser there; it plays the move with the lowest chance (the first
in ``legal`` order on a tie).  What the position after a move looks like can depend on
hidden cards (the cards drawn from the stock after a trick, the stock card a sjanse
lays), so the move is applied to ``samples`` determinizations of the observation
(:func:`mattis.core.determinize.sample_worlds`, the same ones for every move; weighed
by a model of the other seats with ``beliefs`` other than ``uniform``) and the
chances are averaged; in phase 2, once every hand is known, one exact position is
enough.  It shows what the model knows on its own: no playouts, no solver.

Without NumPy the model cannot run: the bot then plays as the heuristic (``easy``)
and says so once in a logged warning.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

from ..core import Move, Observation, State
from ..core.determinize import DeterminizeError, sample_worlds
from ..core.observation import PHASE2, observe
from .beliefs import MODELS
from .heuristic import heuristic_move
from .search import BELIEF_REPLAYS, perfect_info
from .value import ValueModel, has_numpy, model_for

__all__ = ["LearnedBot", "after_positions", "move_chances"]

log = logging.getLogger(__name__)

DEFAULT_SAMPLES = 8
"""Determinizations per decision while some cards are hidden."""


def _states(obs: Observation, samples: int, rng: random.Random, beliefs: str = "uniform") -> list[State]:
    """The positions the move is tried on: one if the seat knows every hand in phase 2,
    else ``samples`` determinizations (weighed by the model ``beliefs`` names)."""
    full = obs.phase is PHASE2 and perfect_info(obs)
    model = None if full else MODELS[beliefs]
    return sample_worlds(obs, rng, 1 if full else samples, model, particles=max(16, samples),
                         max_replays=BELIEF_REPLAYS).states


def after_positions(obs: Observation, samples: int, rng: random.Random,
                    beliefs: str = "uniform") -> list[list[Observation]]:
    """For each legal move (in ``obs.legal`` order), the seat's observation right after it
    on each determinization (weighed by the model ``beliefs`` names,
    :data:`mattis.bots.beliefs.MODELS`).  Raises
    :class:`~mattis.core.determinize.DeterminizeError` where no state fits the
    observation (a game that began from a position)."""
    states = _states(obs, samples, rng, beliefs)
    out: list[list[Observation]] = []
    for move in obs.legal:
        row: list[Observation] = []
        for st in states:
            s = st.clone()
            s.apply(move)
            row.append(observe(s, obs.seat))
        out.append(row)
    return out


def move_chances(obs: Observation, model: ValueModel, samples: int = DEFAULT_SAMPLES,
                 rng: random.Random | None = None, beliefs: str = "uniform") -> list[tuple[Move, float]]:
    """Each legal move with the model's chance that the seat avoids being the loser after
    it (the mean over the determinizations, weighed by the model ``beliefs`` names)."""
    after = after_positions(obs, samples, rng or random.Random(0), beliefs)
    flat = [o for row in after for o in row]
    losers = model.many(flat)
    out: list[tuple[Move, float]] = []
    i = 0
    for move, row in zip(obs.legal, after, strict=True):
        k = len(row)
        out.append((move, 1.0 - sum(p[0] for p in losers[i:i + k]) / k))
        i += k
    return out


def best_of(chances: Sequence[tuple[Move, float]]) -> Move:
    """The move with the highest chance, the first on a tie."""
    best, value = chances[0]
    for move, v in chances[1:]:
        if v > value + 1e-12:
            best, value = move, v
    return best


class LearnedBot:
    """One ply on the value model (see the module docstring)."""

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES, weights: str | None = None,
                 beliefs: str = "uniform") -> None:
        if beliefs not in MODELS:
            raise ValueError(f"unknown beliefs {beliefs!r}; choose from {', '.join(MODELS)}")
        self.name = "learned"
        self.beliefs = beliefs
        """How the determinizations are weighed (:data:`mattis.bots.beliefs.MODELS`)."""
        self.rng = random.Random(seed)
        self.samples = samples
        self.weights = weights
        self.fallback = not has_numpy()
        if self.fallback:
            log.warning("the learned bot needs NumPy for its value model; it plays as the heuristic (easy) instead")

    def act(self, obs: Observation) -> Move:
        legal = obs.legal
        if len(legal) == 1 or self.fallback:
            return legal[0] if len(legal) == 1 else heuristic_move(obs)
        try:
            chances = move_chances(obs, model_for(obs.rules, self.weights), self.samples, self.rng,
                                   self.beliefs)
        except DeterminizeError:
            log.warning("the learned bot cannot sample this position (a game begun from a position); "
                        "it plays the heuristic's move")
            return heuristic_move(obs)
        return best_of(chances)
