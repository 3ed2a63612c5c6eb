"""A masked random agent in the Gymnasium environment, against the project's bots.

    python examples/rl_gym_random.py --episodes 100 --opponents easy
"""

from __future__ import annotations

import argparse

import numpy as np

from mattis.rl.gym_env import MattisEnv


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=100)
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--opponents", default="random", help="bot name or level for the other seats")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    env = MattisEnv(rules=a.rules, players=a.players, opponents=a.opponents)
    rng = np.random.default_rng(a.seed)
    total = 0.0
    steps = 0
    for ep in range(a.episodes):
        env.reset(seed=a.seed + ep)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
        total += float(reward)
    print(f"{a.rules}, {a.players} players, masked random learner vs {a.opponents!r} bots: "
          f"{a.episodes} episodes, {steps} learner steps, loss rate {-total / a.episodes:.3f} "
          f"(mean reward {total / a.episodes:.3f}; a random seat among equals loses about {1 / a.players:.2f})")


if __name__ == "__main__":
    main()
