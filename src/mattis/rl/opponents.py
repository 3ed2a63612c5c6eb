"""Opponents for the research environments: bot names, policy callables, frozen
snapshots of a learner, and pools of them for self-play.

An opponent is given as one of

* a bot name or level (``"easy"``, ``"random"``, ``"heuristic"``, ...; see
  :func:`mattis.play.make_bot`), seeded per episode and seat by the one seed scheme;
* an :class:`mattis.play.Agent` (any object with ``name`` and ``act(obs) -> Move``),
  used as it is;
* a policy callable ``policy(observation, mask) -> action``: ``observation`` is the
  float32 tensor of :class:`mattis.rl.encoding.Encoder` for the opponent's own seat,
  ``mask`` the bool mask of its legal actions, the answer an action number
  (:class:`mattis.rl.encoding.ActionSpace`); :func:`frozen_policy` makes one from a
  learner (a frozen snapshot);
* an :class:`OpponentPool`, which draws one of its members for each episode (self-play
  against a league of earlier snapshots).

Policy opponents see exactly what a learner in their seat would see, and nothing more.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from ..core import Move, Observation, Rules
from ..play import Agent, Seed, derive_seed, make_bot
from .encoding import ActionSpace, Encoder

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]
PolicyFn = Callable[[Obs, Mask], Any]
"""``policy(observation, mask) -> action`` (an int or a NumPy integer)."""

Opponent = Union[str, Agent, PolicyFn, "OpponentPool"]


class PolicyAgent:
    """An :class:`~mattis.play.Agent` that asks a policy callable for its moves."""

    def __init__(self, policy: PolicyFn, rules: Rules, players: int, name: str = "policy") -> None:
        self.name = name
        self.policy = policy
        self.space = ActionSpace(rules)
        self.encoder = Encoder(players)

    def act(self, obs: Observation) -> Move:
        mask = self.space.mask(obs.legal).astype(bool)
        a = int(self.policy(self.encoder.encode(obs), mask))
        if not 0 <= a < self.space.size or not mask[a]:
            raise ValueError(f"policy {self.name!r} chose action {a}, which is not legal for seat {obs.seat}")
        return self.space.move(a)


class BatchPolicy:
    """A policy asked for many games at once: ``fn(observations, masks) -> actions``
    with ``observations`` float32 ``(k, obs_size)``, ``masks`` bool ``(k, actions)``
    and one action per row back.  The batched engine (:mod:`mattis.rl.batched`, and
    :class:`~mattis.rl.vector_env.MattisVectorEnv` on it) asks it once for every game
    waiting on it; anywhere else it is an ordinary policy callable, asked with a batch
    of one."""

    def __init__(self, fn: Callable[[Obs, Mask], Any], name: str = "batch_policy") -> None:
        self.fn = fn
        self.name = name
        self.__name__ = name

    def __call__(self, obs: Obs, mask: Mask) -> int:
        actions = np.asarray(self.fn(obs[None, :], mask[None, :])).reshape(-1)
        return int(actions[0])


def frozen_policy(model: Any, deterministic: bool = False) -> PolicyFn:
    """A frozen snapshot of a learner as a policy callable.

    ``model`` is anything with a ``policy`` whose ``predict(obs, action_masks=mask,
    deterministic=...)`` returns ``(action, state)`` (a Stable-Baselines3 /
    sb3-contrib ``MaskablePPO``), or such a policy itself.  The policy is deep-copied
    now, so later training does not change the snapshot."""
    policy = copy.deepcopy(getattr(model, "policy", model))

    def act(obs: Obs, mask: Mask) -> int:
        action, _ = policy.predict(obs, action_masks=mask, deterministic=deterministic)
        return int(np.asarray(action).reshape(-1)[0])

    return act


def random_policy(seed: int | None = None) -> PolicyFn:
    """A policy callable choosing uniformly among the legal actions (seeded)."""
    rng = np.random.default_rng(seed)

    def act(obs: Obs, mask: Mask) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return act


class OpponentPool:
    """A league of opponents; each episode each pooled seat draws one member.

    ``base`` members always stay; :meth:`add` appends a member (typically a
    :func:`frozen_policy` snapshot of the learner) and, past ``max_added``, drops the
    oldest added one.  ``base_weight`` is the chance of drawing from ``base`` while
    added members exist (so a learner keeps meeting the fixed bots)."""

    def __init__(self, base: Sequence[Opponent] = ("easy",), max_added: int = 5,
                 base_weight: float = 0.5) -> None:
        if not base:
            raise ValueError("an opponent pool needs at least one base member")
        if not 0.0 <= base_weight <= 1.0:
            raise ValueError("base_weight must lie in [0, 1]")
        self.base: list[Opponent] = list(base)
        self.added: list[Opponent] = []
        self.max_added = max_added
        self.base_weight = base_weight

    def add(self, opponent: Opponent) -> None:
        """Add a member (the oldest added one leaves past ``max_added``)."""
        self.added.append(opponent)
        while len(self.added) > max(self.max_added, 0):
            self.added.pop(0)

    def draw(self, rng: random.Random) -> Opponent:
        """One member for one seat of one episode."""
        if self.added and rng.random() >= self.base_weight:
            return rng.choice(self.added)
        return rng.choice(self.base)

    def __len__(self) -> int:
        return len(self.base) + len(self.added)


def check_opponent(spec: Opponent) -> None:
    """Raise ``ValueError`` for an opponent that cannot be used (an unknown bot name,
    something that is neither a name, an agent, a callable nor a pool)."""
    if isinstance(spec, OpponentPool):
        for member in [*spec.base, *spec.added]:
            check_opponent(member)
    elif isinstance(spec, str):
        make_bot(spec, 0)
    elif not (isinstance(spec, Agent) or callable(spec)):
        raise ValueError(f"an opponent is a bot name, an Agent, a policy callable or an OpponentPool, not {spec!r}")


def opponent_specs(opponents: Opponent | Sequence[Opponent], players: int) -> list[Opponent]:
    """One opponent for every seat but the learner's: ``opponents`` for each, or one per
    other seat in seat order after the learner's; each checked (:func:`check_opponent`)."""
    if isinstance(opponents, (str, OpponentPool)) or callable(opponents) or isinstance(opponents, Agent):
        specs: list[Opponent] = [opponents] * (players - 1)
    else:
        specs = list(opponents)
    if len(specs) != players - 1:
        raise ValueError(f"need {players - 1} opponents, got {len(specs)}")
    for spec in specs:
        check_opponent(spec)
    return specs


def resolve(spec: Opponent, rules: Rules, players: int, seed: Seed, episode: int, seat: int) -> Agent:
    """The agent of ``spec`` for one seat of one episode (bots seeded by the seed
    scheme: ``derive_seed(seed, "bot", episode, seat)``; a pool draws with
    ``derive_seed(seed, "pool", episode, seat)``)."""
    if isinstance(spec, OpponentPool):
        rng = random.Random(derive_seed(seed, "pool", episode, seat))
        spec = spec.draw(rng)
    if isinstance(spec, str):
        return make_bot(spec, derive_seed(seed, "bot", episode, seat))
    if isinstance(spec, Agent):
        return spec
    if callable(spec):
        return PolicyAgent(spec, rules, players, name=getattr(spec, "__name__", "policy"))
    raise ValueError(f"not an opponent: {spec!r}")


__all__ = ["BatchPolicy", "Opponent", "OpponentPool", "PolicyAgent", "PolicyFn", "check_opponent", "frozen_policy",
           "opponent_specs", "random_policy", "resolve"]
