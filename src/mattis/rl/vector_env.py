"""A batched environment: ``num_envs`` games of :class:`~mattis.rl.gym_env.MattisEnv`
stepped per call, with NumPy arrays in and out (Gymnasium's vector API).

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

The games run one after another in this process (the engine is pure Python; a
process pool would add more in transfer than it saves at these step costs);
the speed race (:mod:`mattis.rl.speed`) reports its decisions per second beside the
single environment's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .encoding import obs_size
from .gym_env import MattisEnv


class MattisVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`MattisEnv` games stepped together (see the module docstring).

    Keyword arguments go to every :class:`MattisEnv` (rules, players, overrides, seat,
    dealer, opponents)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, **env_kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if env_kwargs.get("render_mode") is not None:
            raise ValueError("the batched environment does not render; render one MattisEnv instead")
        self.num_envs = num_envs
        self.envs = [MattisEnv(**env_kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self._actions = int(self.single_action_space.n)
        size = obs_size(first.players)
        self._obs = np.zeros((num_envs, size), np.float32)
        self._masks = np.zeros((num_envs, self._actions), np.bool_)
        self._started = False

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"need {self.num_envs} seeds, got {len(seeds)}")
        infos: dict[str, Any] = {}
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            self._obs[i], info = env.reset(seed=s)
            self._masks[i] = info["action_mask"]
            infos = self._add_info(infos, info, i)
        self._started = True
        return self._obs.copy(), infos

    def step(self, actions: npt.NDArray[np.int64] | Sequence[int]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() first")
        acts = np.asarray(actions).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise ValueError(f"need {self.num_envs} actions, got {acts.shape[0]}")
        rewards = np.zeros(self.num_envs, np.float64)  # as SyncVectorEnv
        terms = np.zeros(self.num_envs, np.bool_)
        truncs = np.zeros(self.num_envs, np.bool_)
        infos: dict[str, Any] = {}
        step_infos: list[dict[str, Any]] = []
        for i, env in enumerate(self.envs):
            obs, reward, term, trunc, info = env._step(int(acts[i]))
            rewards[i] = reward
            if term or trunc:
                terms[i], truncs[i] = term, trunc
                infos = self._add_info(infos, {"final_obs": env._encoder.encode(obs), "final_info": info}, i)
                self._obs[i], info = env.reset()
            else:
                env._encoder.encode(obs, self._obs[i])
            self._masks[i] = info["action_mask"]  # the same mask action_masks() gives, as int8
            step_infos.append(info)
        return self._obs.copy(), rewards, terms, truncs, self._batch_infos(infos, step_infos)

    def _batch_infos(self, infos: dict[str, Any], step_infos: list[dict[str, Any]]) -> dict[str, Any]:
        """Every game's info in Gymnasium's layout, as ``VectorEnv._add_info`` would
        build it game by game (the same arrays and dtypes; a test compares them), key
        by key when every game has the same keys (the usual case)."""
        keys = step_infos[0].keys()
        if any(info.keys() != keys for info in step_infos):
            for i, info in enumerate(step_infos):
                infos = self._add_info(infos, info, i)
            return infos
        every = np.ones(self.num_envs, np.bool_)
        for key in keys:
            first = step_infos[0][key]
            if key == "action_mask":
                infos[key] = self._masks.astype(np.int8)
            elif type(first) is int:
                infos[key] = np.array([info[key] for info in step_infos], dtype=int)
            else:
                column = np.full(self.num_envs, None, dtype=object)
                for i, info in enumerate(step_infos):
                    column[i] = info[key]
                infos[key] = column
            infos["_" + key] = every.copy()
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game's learner now, shape ``(num_envs, actions)``."""
        return self._masks.copy()

    def set_opponents(self, opponents: Any) -> None:
        """Set the opponents of every game from its next episode on
        (see :meth:`MattisEnv.set_opponents`)."""
        for env in self.envs:
            env.set_opponents(opponents)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


__all__ = ["MattisVectorEnv"]
