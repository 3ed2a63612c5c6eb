"""A batched environment: ``num_envs`` games of :class:`~mattis.rl.gym_env.MattisEnv`
stepped per call, with NumPy arrays in and out (Gymnasium's vector API), on the
compiled batched engine (:class:`mattis.rl.batched.BatchedGames`).

>>> from mattis.rl.vector_env import MattisVectorEnv
>>> venv = MattisVectorEnv(4, players=3, opponents="random")
>>> obs, info = venv.reset(seed=0)
>>> obs.shape[0], venv.action_masks().shape[0], info["action_mask"].shape[0]
(4, 4, 4)

* ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (Gymnasium's convention); each
  game then continues its own reproducible sequence of episodes.
* ``step(actions)`` takes an int array of shape ``(num_envs,)`` and returns
  ``(observations (num_envs, obs_size) float32, rewards float64, terminations bool,
  truncations bool, infos)``.  ``infos`` follows Gymnasium 1.x's layout exactly (as
  ``gymnasium.vector.SyncVectorEnv`` builds it from the same games): each key of a
  game's info is an array over the games with a boolean ``_key`` array saying which
  games have it (``infos["action_mask"]`` int8 ``(num_envs, actions)``, also given as
  bool by :meth:`MattisVectorEnv.action_masks`).
* Auto-reset in the same step (``metadata["autoreset_mode"] =
  AutoresetMode.SAME_STEP``): a game that ends is dealt anew at once; its returned
  observation is the new episode's first, the last one of the ended episode is in
  ``infos["final_obs"][i]`` (an object array) and its info in ``infos["final_info"]``
  (a dict of arrays with ``_key`` masks), ``infos["_final_obs"]`` and
  ``infos["_final_info"]`` mark the games that ended.  Gymnasium 1.x's own default is
  ``NEXT_STEP`` (a step that only resets); SAME_STEP is chosen because Stable-Baselines3
  (and sb3-contrib's MaskablePPO, which needs the new episode's mask at once) expects
  it: :mod:`mattis.rl.sb3` adapts this env to its ``VecEnv``.
* The phase 2 cap is a truncation (``truncations[i]``), every other end a termination.

The games run in this process, inside one compiled call per step
(:class:`mattis.core.batch.Batch`; the pure-Python core runs the same code and gives
the same arrays); ``envs[i]`` is a light view of game ``i`` (its ``players``,
``rules``, ``space``, ``seat`` and ``action_masks()``, what Stable-Baselines3's
``get_attr``/``env_method`` ask for).  The speed race (:mod:`mattis.rl.speed`) reports
its decisions per second beside the single environment's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import Rules
from .batched import BatchedGames
from .encoding import ActionSpace
from .opponents import Opponent


class GameView:
    """Game ``index`` of a :class:`MattisVectorEnv`, as code written for a list of
    single environments asks for it (Stable-Baselines3's ``get_attr`` and
    ``env_method``)."""

    render_mode: str | None = None
    """The vector env renders nothing (sb3's ``VecEnv`` asks each game for it)."""

    def __init__(self, games: BatchedGames, index: int) -> None:
        self._games = games
        self.index = index

    @property
    def players(self) -> int:
        return self._games.players

    @property
    def rules(self) -> Rules:
        return self._games.rules

    @property
    def space(self) -> ActionSpace:
        return self._games.space

    @property
    def seat(self) -> int:
        """The learner's seat in this game's current episode."""
        return self._games.seat(self.index)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """This game's learner's legal actions now."""
        mask: npt.NDArray[np.bool_] = self._games.masks[self.index].copy()
        return mask

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """The opponents of every game of the vector env from its next episode on (the
        games share them: :meth:`MattisVectorEnv.set_opponents`)."""
        self._games.set_opponents(opponents)

    def close(self) -> None:
        """Nothing to close (the games live in the vector env)."""


class MattisVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`MattisEnv` games stepped together (see the module docstring).

    Keyword arguments are :class:`MattisEnv`'s (rules, players, overrides, seat,
    dealer, opponents, zero_sum, card_order), and ``engine`` (:class:`BatchedGames`'s,
    ``"auto"`` by default: the native engine for the four presets against ``random``
    and ``easy`` opponents, the Python batched path otherwise; ``games.engine`` says
    which).  The native engine cannot change its opponents to bots it does not play: :meth:`set_opponents` (and
    a view's) refuses them with a ``ValueError`` there; make the env with
    ``engine="python"`` to train against opponents that change (self-play pools)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, **env_kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if env_kwargs.pop("render_mode", None) is not None:
            raise ValueError("the batched environment does not render; render one MattisEnv instead")
        env_kwargs.pop("render_seat", None)
        # the native engine where it covers the games (BatchedGames' default, "auto"); it
        # refuses a later change to opponents it does not play (set_opponents)
        env_kwargs.setdefault("engine", "auto")
        self.num_envs = num_envs
        self.games = games = BatchedGames(num_envs, **env_kwargs)
        self.envs = [GameView(games, i) for i in range(num_envs)]
        self.players = games.players
        self.single_observation_space = spaces.Box(0.0, 1.0, (games.size,), np.float32)
        self.single_action_space = spaces.Discrete(games.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._started = False

    @property
    def decisions(self) -> int:
        """Moves made by every seat (learners and opponents) in these games so far."""
        return self.games.decisions

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        self.games.reset(seed)
        self._started = True
        return self.games.obs.copy(), self._infos({})

    def step(self, actions: npt.NDArray[np.int64] | Sequence[int]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        g = self.games
        g.step(actions)
        infos: dict[str, Any] = {}
        ended = g.terminations | g.truncations
        if ended.any():
            zeros = np.zeros(g.actions, np.int8)
            for i in np.flatnonzero(ended).tolist():
                facts = g.final_facts[i]
                assert facts is not None
                phase, dealer, finished, ranked, losers = facts
                info: dict[str, Any] = {"action_mask": zeros.copy(), "phase": phase, "seat": int(g.final_seats[i]),
                                        "dealer": dealer, "finished": finished, "ranked": ranked, "losers": losers}
                if g.illegal[i]:
                    info["illegal_action"] = True
                infos = self._add_info(infos, {"final_obs": g.final_obs[i].copy(), "final_info": info}, i)
        return (g.obs.copy(), g.rewards.copy(), g.terminations.copy(), g.truncations.copy(), self._infos(infos))

    def _infos(self, infos: dict[str, Any]) -> dict[str, Any]:
        """Every game's info in Gymnasium's layout, as ``VectorEnv._add_info`` would
        build it game by game from :class:`MattisEnv`'s infos (the same arrays and
        dtypes; a test compares them)."""
        g = self.games
        n = self.num_envs
        every = np.ones(n, np.bool_)
        phase = np.full(n, None, dtype=object)
        finished = np.full(n, None, dtype=object)
        ranked = np.full(n, None, dtype=object)
        losers = np.full(n, None, dtype=object)
        dealer = np.zeros(n, dtype=int)
        for i in range(n):
            phase[i], dealer[i], finished[i], ranked[i], losers[i] = g.facts(i)
        infos["action_mask"] = g.masks.astype(np.int8)
        infos["phase"] = phase
        infos["seat"] = np.array([g.seat(i) for i in range(n)], dtype=int)
        infos["dealer"] = dealer
        infos["finished"] = finished
        infos["ranked"] = ranked
        infos["losers"] = losers
        for key in ("action_mask", "phase", "seat", "dealer", "finished", "ranked", "losers"):
            infos["_" + key] = every.copy()
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's learner now, shape ``(num_envs, actions)``."""
        return self.games.masks.copy()

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Set the opponents of every game from its next episode on
        (see :meth:`MattisEnv.set_opponents`); on the native engine, opponents it does
        not play raise ``ValueError`` (make the env with ``engine="python"``)."""
        self.games.set_opponents(opponents)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process."""


__all__ = ["GameView", "MattisVectorEnv"]
