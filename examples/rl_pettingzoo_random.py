"""Baselines on the PettingZoo environment: a random agent and a "lowest card" agent.

Seat 0 plays a policy, the other seats play uniformly random legal actions.  A
random seat 0 loses about 1/players of the games; a better policy loses fewer.

    python examples/rl_pettingzoo_random.py --games 100 --rules mattis --players 3
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

import numpy as np

from mattis.rl import mattis_v0
from mattis.rl.encoding import ActionSpace

Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def random_policy(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def make_lowest_policy(space: ActionSpace) -> Policy:
    """Lay the lowest-ranked legal single card; sequences and pickup only when nothing else."""
    def policy(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(mask)
        singles = [int(a) for a in legal if a < 52]
        if singles:
            return min(singles, key=lambda c: (c % 13, c // 13))
        return int(legal[0])
    return policy


def loss_rate(policy: Policy, games: int, rules: str, players: int, seed: int) -> tuple[float, float, float]:
    """Seat 0's loss rate and its 95% Wilson interval."""
    env = mattis_v0.env(rules=rules, players=players)
    rng = np.random.default_rng(seed)
    losses = 0
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                if agent == "player_0" and reward < 0:
                    losses += 1
                env.step(None)
                continue
            pol = policy if agent == "player_0" else random_policy
            env.step(pol(obs["observation"], obs["action_mask"], rng))
    p = losses / games
    z = 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    env = mattis_v0.env(rules=a.rules, players=a.players)
    space = ActionSpace(env.unwrapped.rules)
    print(f"{a.rules}, {a.players} players, {a.games} games; seat 0 vs random opponents "
          f"(a random seat loses about {1 / a.players:.2f})")
    for name, pol in (("random", random_policy), ("lowest card", make_lowest_policy(space))):
        p, lo, hi = loss_rate(pol, a.games, a.rules, a.players, a.seed)
        print(f"  {name:<12} loss rate {p:.3f} (95% interval {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
