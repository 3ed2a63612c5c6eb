"""The environment's share of a reference MaskablePPO training loop (goal: at most 10%).

Trains sb3-contrib's MaskablePPO (torch on the CPU, one thread; ``MlpPolicy`` with two
hidden layers of 256, as examples/rl_maskable_ppo.py) for a fixed number of steps on
:class:`~mattis.rl.vector_env.MattisVectorEnv` (``engine="auto"``: the native engine
for a preset against ``random`` opponents) through the sb3 adapter
(:func:`mattis.rl.sb3.sb3_vec_env`), and reports the share of the process's CPU time
(``time.process_time`` around each call) spent

* in the env as sb3 sees it: the adapter's ``reset``, ``step_wait`` and
  ``env_method`` (MaskablePPO reads the masks through ``env_method("action_masks")``),
  and within that the vector env's own ``reset``/``step``;
* in the policy's forward passes while collecting rollouts (``policy.forward`` and
  ``predict_values``), and in the updates (``MaskablePPO.train``).

    python benchmarks/rl_ppo_share.py [--rules R --players N] [--steps S] [--envs E] [--engine python]

Needs the train extra (``pip install 'mattis[train]'``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

GOAL = 0.10
"""The env's share of the loop's CPU time, at most."""


class Clock:
    """CPU seconds spent inside the wrapped calls, by name."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        self.spent.setdefault(name, 0.0)

        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[name] += time.process_time() - t

        return timed


def measure(rules: str, players: int, steps: int, envs: int, seed: int = 0, engine: str = "auto") -> dict[str, Any]:
    """Train for ``steps`` steps and return the CPU seconds of each part and in all."""
    import torch
    from sb3_contrib import MaskablePPO

    from mattis.rl.sb3 import sb3_vec_env
    from mattis.rl.vector_env import MattisVectorEnv

    torch.set_num_threads(1)
    venv = MattisVectorEnv(envs, rules=rules, players=players, opponents="random", seat="rotate", dealer="rotate",
                           engine=engine)
    env: Any = sb3_vec_env(venv)
    env.seed(seed)
    n_steps = 2048 // envs
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=256, learning_rate=3e-4, gamma=1.0,
                        ent_coef=0.01, seed=seed, verbose=0, device="cpu", policy_kwargs={"net_arch": [256, 256]})
    clock = Clock()
    for name in ("reset", "step_wait", "env_method"):
        setattr(env, name, clock.wrap(f"env: adapter {name}", getattr(env, name)))
    for name in ("reset", "step"):
        setattr(venv, name, clock.wrap(f"env: vector env {name}", getattr(venv, name)))
    policy = model.policy
    policy.forward = clock.wrap("policy: forward (rollouts)", policy.forward)
    policy.predict_values = clock.wrap("policy: predict_values (rollouts)", policy.predict_values)
    model.train = clock.wrap("policy: train (updates)", model.train)  # type: ignore[method-assign]
    start = time.process_time()
    wall = time.perf_counter()
    model.learn(total_timesteps=steps)
    total = time.process_time() - start
    return {"rules": rules, "players": players, "steps": model.num_timesteps, "envs": envs,
            "engine": venv.games.engine, "total": total, "wall": time.perf_counter() - wall, "spent": clock.spent}


def report(r: dict[str, Any]) -> str:
    spent = r["spent"]
    total = r["total"]
    env = sum(v for k, v in spent.items() if k.startswith("env: adapter"))
    policy = sum(v for k, v in spent.items() if k.startswith("policy"))
    lines = [f"{r['rules']} {r['players']}p, {r['steps']:,} steps, {r['envs']} envs, {r['engine']} engine: "
             f"{total:.1f} CPU s ({r['wall']:.1f} s wall)",
             "| part | CPU s | share |", "|---|---:|---:|"]
    for k, v in spent.items():
        lines.append(f"| {k} | {v:.2f} | {v / total:.1%} |")
    lines.append(f"| the env as sb3 sees it (the adapter's calls) | {env:.2f} | {env / total:.1%} |")
    lines.append(f"| the policy (forward passes and updates) | {policy:.2f} | {policy / total:.1%} |")
    lines.append(f"| the rest (sb3's rollout buffer, masks to tensors, callbacks) | {total - env - policy:.2f} | "
                 f"{(total - env - policy) / total:.1%} |")
    verdict = "met" if env / total <= GOAL else "not met"
    lines.append(f"env share {env / total:.1%} (goal ≤ {GOAL:.0%}): {verdict}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default=None, help="one preset (default: mattis 3p and blodmattis 5p)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--steps", type=int, default=32_768)
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--engine", default="auto", help="the vector env's engine: auto (default), native or python")
    a = ap.parse_args()
    runs = [(a.rules, a.players)] if a.rules else [("mattis", 3), ("blodmattis", 5)]
    for rules, players in runs:
        print(report(measure(rules, players, a.steps, a.envs, engine=a.engine)), flush=True)
        print()


if __name__ == "__main__":
    main()
