"""Deep-copies and pickles a Gymnasium env and a vector env in the middle of seeded
games, then steps the original and both copies with the same actions and prints, as
JSON, whether they stayed equal (observations, masks, rewards, terminations,
truncations) through several episodes, and how many episodes ended.  Run by
tests/rl/test_rl_conventions.py once with ``MATTIS_PURE=1`` and once without: the
compiled core's batch (mypyc) needs its own pickling (mattis.rl.batched)."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from typing import Any

import numpy as np

from mattis.core import build_kind
from mattis.rl.gym_env import MattisEnv
from mattis.rl.vector_env import MattisVectorEnv


def _copies(env: Any) -> list[Any]:
    return [env, copy.deepcopy(env), pickle.loads(pickle.dumps(env))]


def single(steps: int) -> tuple[str, int]:
    env = MattisEnv(players=3, opponents=["random", "easy"], seat="rotate")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(7):  # into the game, then copy
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            env.reset()
    envs = _copies(env)
    ended = 0
    for t in range(steps):
        masks = [e.action_masks() for e in envs]
        if any(not np.array_equal(m, masks[0]) for m in masks):
            return f"masks differ at step {t}", ended
        a = int(rng.choice(np.flatnonzero(masks[0])))
        results = [e.step(a) for e in envs]
        obs0, r0, term0, trunc0, _ = results[0]
        for obs, r, term, trunc, _ in results[1:]:
            if not (np.array_equal(obs, obs0) and (r, term, trunc) == (r0, term0, trunc0)):
                return f"steps differ at step {t}", ended
        if term0 or trunc0:
            ended += 1
            firsts = [e.reset()[0] for e in envs]
            if any(not np.array_equal(o, firsts[0]) for o in firsts):
                return f"resets differ after step {t}", ended
    return "same", ended


def vector(steps: int) -> tuple[str, int]:
    venv = MattisVectorEnv(4, players=3, opponents="random", seat="rotate", overrides={"phase2_cap": 60})
    venv.reset(seed=9)
    rng = np.random.default_rng(9)

    def act(masks: Any) -> Any:
        return (rng.random(masks.shape) * masks).argmax(axis=1)

    for _ in range(5):
        venv.step(act(venv.games.masks))
    envs = _copies(venv)
    ended = 0
    for t in range(steps):
        a = act(envs[0].games.masks)
        results = [e.step(a) for e in envs]
        obs0, r0, term0, trunc0, _ = results[0]
        for obs, r, term, trunc, _ in results[1:]:
            if not all(np.array_equal(x, y) for x, y in ((obs, obs0), (r, r0), (term, term0), (trunc, trunc0))):
                return f"steps differ at step {t}", ended
        if any(not np.array_equal(e.games.masks, envs[0].games.masks) for e in envs):
            return f"masks differ at step {t}", ended
        ended += int(term0.sum() + trunc0.sum())
    return "same", ended


def main(steps: int) -> dict[str, Any]:
    one, one_ended = single(steps)
    many, many_ended = vector(steps)
    return {"build": build_kind(), "env": one, "env_episodes": one_ended, "vector": many,
            "vector_episodes": many_ended}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
