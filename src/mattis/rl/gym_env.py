"""A Gymnasium single-agent environment: one seat against the project's bots.

>>> from mattis.rl.gym_env import MattisEnv
>>> env = MattisEnv(rules="mattis", players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, bool(env.action_masks().any())
(True, True)

The learner plays seat ``seat`` (default 0); the other seats are ``make_bot(level)``
agents that see only their own observations.  Observation: the float32 tensor of
:func:`mattis.rl.encoding.encode`; actions: :class:`mattis.rl.encoding.ActionSpace`;
:meth:`MattisEnv.action_masks` gives the legal actions as MaskablePPO
(sb3-contrib) expects, and ``info["action_mask"]`` holds the same.

Reward: -1 when the learner loses (is Mattis, or a Blodmattis), 0 otherwise, given
when its fate is settled (game over, or it went out safely).  A deal that settles the
learner's fate before its first move is skipped by ``reset``.  An illegal action
ends the episode at once with reward -1 and ``info["illegal_action"] = True``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Agent, make_bot
from ..bots.base import DEFAULT_LEVEL
from ..core import Rules, State
from .common import make_rules, render_text
from .encoding import ActionSpace, encode, obs_size

Obs = npt.NDArray[np.float32]


class MattisEnv(gym.Env[Obs, np.int64]):
    """One seat of a Mattis-family game against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str | Rules = "mattis", players: int = 3,
                 overrides: Mapping[str, Any] | str | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = DEFAULT_LEVEL, render_mode: str | None = None,
                 dealer: int = 0) -> None:
        self.rules = make_rules(rules, overrides)
        self.rules.check_players(players)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'ansi' or None")
        self.render_mode = render_mode
        self.players = players
        self.seat = seat
        self.dealer = dealer % players
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"need {players - 1} opponents, got {len(names)}")
        for name in names:
            make_bot(name, 0)  # fail early on an unknown bot name
        self.opponent_names = names
        self.space = ActionSpace(self.rules)
        self.observation_space = spaces.Box(0.0, 1.0, (obs_size(players),), np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self._seeds = random.Random(secrets.randbits(64))
        self._game: State | None = None
        self._bots: dict[int, Agent] = {}

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        others = [s for s in range(self.players) if s != self.seat]
        while True:  # skip the rare deal that settles the learner's fate before it acts
            self._game = State.new(self.rules, self.players, seed=self._seeds.getrandbits(64), dealer=self.dealer)
            self._bots = {s: make_bot(name, self._seeds.getrandbits(32))
                          for s, name in zip(others, self.opponent_names, strict=True)}
            self._play_bots()
            if self._settled() is None:
                return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        g = self._game
        if g is None:
            raise RuntimeError("call reset() first")
        if self._settled() is not None:
            raise RuntimeError("the episode is over; call reset()")
        a = int(action)
        move = self.space.move(a) if 0 <= a < self.space.size else None
        if move is None or g.to_act != self.seat or g.why_illegal(move) is not None:
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        g.apply(move)
        self._play_bots()
        fate = self._settled()
        return self._obs(), (fate if fate is not None else 0.0), fate is not None, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all False when it is not to act)."""
        g = self._game
        if g is None:
            raise RuntimeError("call reset() first")
        return self.space.mask(g.observation(self.seat).legal).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self._game is None:
            return None
        return render_text(self._game)

    # ------------------------------------------------------------ internals
    def _play_bots(self) -> None:
        g = self._game
        assert g is not None
        while g.to_act is not None and g.to_act != self.seat and self._settled() is None:
            seat = g.to_act
            g.apply(self._bots[seat].act(g.observation(seat)))

    def _settled(self) -> float | None:
        """The learner's reward once its fate is known, else ``None``."""
        g = self._game
        assert g is not None
        obs = g.observation(self.seat)
        if self.seat in obs.losers:
            return -1.0
        if self.seat in obs.finished or obs.is_over:
            return 0.0
        return None

    def _obs(self) -> Obs:
        g = self._game
        assert g is not None
        return encode(g.observation(self.seat))

    def _info(self) -> dict[str, Any]:
        g = self._game
        assert g is not None
        obs = g.observation(self.seat)
        return {"action_mask": self.space.mask(obs.legal), "phase": obs.phase,
                "finished": obs.finished, "losers": obs.losers}


def register() -> None:
    """Register ``mattis/Mattis-v0`` with Gymnasium (``gym.make("mattis/Mattis-v0", players=4)``)."""
    if "mattis/Mattis-v0" not in gym.registry:
        gym.register(id="mattis/Mattis-v0", entry_point="mattis.rl.gym_env:MattisEnv")


__all__ = ["MattisEnv", "register"]
