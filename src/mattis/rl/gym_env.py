"""A Gymnasium single-agent environment: one seat against the project's bots.

>>> from mattis.rl.gym_env import MattisEnv
>>> env = MattisEnv(rules="mattis", players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, bool(env.action_masks().any())
(True, True)

The learner plays seat ``seat`` (default 0); the other seats are ``make_bot(level)``
agents that see only their own observations, moved by the one play loop
(:func:`mattis.play.play_until`) until it is the learner's turn.  Deals and bots are
seeded by the one seed scheme (:class:`mattis.play.Sitting`, :func:`mattis.play.derive_seed`):
``reset(seed=s)`` starts a reproducible sequence of episodes, a plain ``reset()``
continues it (or, before any seed was given, deals from :mod:`secrets`).  The dealer
stays ``dealer`` in every episode.  Observation: the float32 tensor of
:func:`mattis.rl.encoding.encode`; actions: :class:`mattis.rl.encoding.ActionSpace`;
:meth:`MattisEnv.action_masks` gives the legal actions as MaskablePPO
(sb3-contrib) expects, and ``info["action_mask"]`` holds the same.

Reward: -1 when the learner loses (is Mattis, or a Blodmattis), 0 otherwise, given
when its fate is settled (game over, or it went out safely).  A deal that settles the
learner's fate before its first move is skipped by ``reset``.  An illegal action
ends the episode at once with reward -1 and ``info["illegal_action"] = True``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Agent, make_bot
from ..bots.base import DEFAULT_LEVEL
from ..core import Rules
from ..play import Referee, Sitting, play_until
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
        self._sitting = Sitting(self.rules, players, seed=None, dealer=self.dealer)
        self._referee: Referee | None = None
        self._bots: dict[int, Agent] = {}

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._sitting = Sitting(self.rules, self.players, seed=seed, dealer=self.dealer)
        others = [s for s in range(self.players) if s != self.seat]
        levels = dict(zip(others, self.opponent_names, strict=True))
        while True:  # skip the rare deal that settles the learner's fate before it acts
            self._referee = self._sitting.deal()
            self._bots = self._sitting.bots(levels)
            self._play_bots()
            if self._settled() is None:
                return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        ref = self._referee
        if ref is None:
            raise RuntimeError("call reset() first")
        if self._settled() is not None:
            raise RuntimeError("the episode is over; call reset()")
        a = int(action)
        move = self.space.move(a) if 0 <= a < self.space.size else None
        if move is None or ref.check(self.seat, move) is not None:
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        ref.apply(self.seat, move, events=False)
        self._play_bots()
        fate = self._settled()
        return self._obs(), (fate if fate is not None else 0.0), fate is not None, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all False when it is not to act)."""
        ref = self._referee
        if ref is None:
            raise RuntimeError("call reset() first")
        return self.space.mask(ref.observation(self.seat).legal).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self._referee is None:
            return None
        return render_text(self._referee)

    # ------------------------------------------------------------ internals
    def _play_bots(self) -> None:
        """The opponents' moves, up to the learner's turn or until its fate is settled."""
        ref = self._referee
        assert ref is not None
        play_until(ref, self._bots, stop=lambda r: self._settled() is not None)

    def _settled(self) -> float | None:
        """The learner's reward once its fate is known, else ``None``."""
        ref = self._referee
        assert ref is not None
        obs = ref.observation(self.seat)
        if self.seat in obs.losers:
            return -1.0
        if self.seat in obs.finished or obs.is_over:
            return 0.0
        return None

    def _obs(self) -> Obs:
        ref = self._referee
        assert ref is not None
        return encode(ref.observation(self.seat))

    def _info(self) -> dict[str, Any]:
        ref = self._referee
        assert ref is not None
        obs = ref.observation(self.seat)
        return {"action_mask": self.space.mask(obs.legal), "phase": obs.phase,
                "finished": obs.finished, "ranked": obs.ranked, "losers": obs.losers}


def register() -> None:
    """Register ``mattis/Mattis-v0`` with Gymnasium (``gym.make("mattis/Mattis-v0", players=4)``)."""
    if "mattis/Mattis-v0" not in gym.registry:
        gym.register(id="mattis/Mattis-v0", entry_point="mattis.rl.gym_env:MattisEnv")


__all__ = ["MattisEnv", "register"]
