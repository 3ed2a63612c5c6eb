"""Stable-Baselines3 / sb3-contrib adapter for :class:`~mattis.rl.vector_env.MattisVectorEnv`.

>>> from mattis.rl.vector_env import MattisVectorEnv
>>> from mattis.rl.sb3 import sb3_vec_env
>>> # venv = sb3_vec_env(MattisVectorEnv(8, players=3))       # needs stable-baselines3
>>> # MaskablePPO("MlpPolicy", venv).learn(100_000)            # sb3-contrib

Stable-Baselines3 wants its own ``VecEnv`` (it wraps anything else in a
``DummyVecEnv``): a ``reset()`` that returns only the observations, ``step_async`` /
``step_wait``, ``dones`` (terminated or truncated), a list of info dicts in which a game
that ended carries ``terminal_observation`` and ``TimeLimit.truncated`` (the phase 2
cap), and ``env_method`` / ``get_attr`` over the games.  sb3-contrib's MaskablePPO
reads the masks with ``env_method("action_masks")``; after an auto-reset each game's
mask is the new episode's (the vector env resets in the same step).

``stable_baselines3`` is imported only when :func:`sb3_vec_env` is called without
``base`` (it is not a dependency of the project); ``base`` may be any class with the
constructor ``(num_envs, observation_space, action_space)``, such as sb3's ``VecEnv``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .vector_env import MattisVectorEnv

Indices = int | Iterable[int] | None


class SB3Adapter:
    """The methods of sb3's ``VecEnv`` over a :class:`MattisVectorEnv` (mixed into
    ``VecEnv`` by :func:`sb3_vec_env`)."""

    def __init__(self, venv: MattisVectorEnv) -> None:
        self.venv = venv  # first: sb3's VecEnv.__init__ asks the games for their render_mode
        super().__init__(venv.num_envs, venv.single_observation_space,  # type: ignore[call-arg]
                         venv.single_action_space)
        self.num_envs = venv.num_envs
        self._actions: npt.NDArray[np.int64] | None = None
        self._next_seeds: list[int | None] | None = None

    # -------------------------------------------------------------- stepping
    def reset(self) -> npt.NDArray[np.float32]:
        """Every game dealt anew (seeded by :meth:`seed` when it was called since the
        last reset); returns the observations only, as sb3 does."""
        seeds, self._next_seeds = self._next_seeds, None
        obs, _ = self.venv.reset(seed=seeds)
        return obs

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(-1)

    def step_wait(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_async() first")
        actions, self._actions = self._actions, None
        obs, rewards, terms, truncs, infos = self.venv.step(actions)
        dones = terms | truncs
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        masks = infos["action_mask"]
        for i in range(self.num_envs):
            out[i]["action_mask"] = masks[i]
        if dones.any():
            final_obs = infos["final_obs"]
            final_info = infos["final_info"]
            for j in np.flatnonzero(dones):
                d = out[int(j)]
                d["terminal_observation"] = final_obs[j]
                d["TimeLimit.truncated"] = bool(truncs[j] and not terms[j])
                if "illegal_action" in final_info and final_info["_illegal_action"][j]:
                    d["illegal_action"] = True
        return obs, rewards, dones, out

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64],
                                                             npt.NDArray[np.bool_], list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The seeds of the next :meth:`reset`: game ``i`` gets ``seed + i``."""
        seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        self._next_seeds = seeds
        return seeds

    def close(self) -> None:
        self.venv.close()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, shape ``(num_envs, actions)``."""
        return self.venv.action_masks()

    # ------------------------------------------------------ the games' attributes
    def _indices(self, indices: Indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        return [getattr(self.venv.envs[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        for i in self._indices(indices):
            setattr(self.venv.envs[i], attr_name, value)

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self.venv.envs[0], attr_name)

    def env_method(self, method_name: str, *method_args: Any, indices: Indices = None,
                   **method_kwargs: Any) -> list[Any]:
        return [getattr(self.venv.envs[i], method_name)(*method_args, **method_kwargs)
                for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[None]:
        return [None] * self.num_envs


def sb3_vec_env(venv: MattisVectorEnv, base: type | None = None) -> Any:
    """``venv`` as a Stable-Baselines3 ``VecEnv`` (``base``: the class to mix the
    adapter into; by default sb3's ``VecEnv``, imported now)."""
    if base is None:
        try:
            base = importlib.import_module("stable_baselines3.common.vec_env").VecEnv
        except ImportError as e:
            raise ImportError("the sb3 adapter needs stable-baselines3: pip install stable-baselines3 "
                              "sb3-contrib") from e
    cls = type("MattisSB3VecEnv", (SB3Adapter, base), {})
    return cls(venv)


__all__ = ["SB3Adapter", "sb3_vec_env"]
