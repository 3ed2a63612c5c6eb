"""Plays seeded batches of games on the batched engine and prints, as JSON, a hash of
every array it wrote (tensors, masks, rewards, terminations, truncations, final
tensors) per preset, step by step.  Run by tests/rl/test_rl_batched.py once with
``MATTIS_PURE=1`` and once without: the compiled and the pure core must agree."""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from mattis.core import PRESETS, build_kind
from mattis.rl.batched import BatchedGames
from mattis.rl.opponents import BatchPolicy, Opponent


def _lowest(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
    return masks.argmax(axis=1)


def main(steps: int) -> dict[str, str]:
    out: dict[str, str] = {"build": build_kind()}
    for k, name in enumerate(PRESETS):
        players = 2 + k % 3
        policy: Opponent = BatchPolicy(_lowest)
        opponents: list[Opponent] = ["random", policy, "easy", "random", "random"][:players - 1]
        games = BatchedGames(5, rules=name, players=players, overrides={"phase2_cap": 150}, seat="rotate",
                             dealer="rotate", opponents=opponents,
                             card_order="rank_major" if k % 2 else "suit_major")
        games.reset(seed=k)
        h = hashlib.sha256()
        rng = np.random.default_rng(k)
        for t in range(steps):
            keys = rng.random(games.masks.shape) * games.masks
            acts = keys.argmax(axis=1)
            if t % 17 == 16:
                acts[t % 5] = games.actions  # not an action: the episode ends with -1
            games.step(acts)
            for a in (games.obs, games.masks, games.rewards, games.terminations, games.truncations,
                      games.final_obs[games.terminations | games.truncations]):
                h.update(np.ascontiguousarray(a).tobytes())
        h.update(str(games.decisions).encode())
        out[name] = h.hexdigest()
    return out


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
