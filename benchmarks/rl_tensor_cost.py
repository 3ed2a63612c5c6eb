"""Cost per call of python_mattis's tensors by how far the game has gone, and the
Gymnasium env's learner steps per CPU second against each opponent level.

    python benchmarks/rl_tensor_cost.py [--rules blodmattis] [--players 5] [--games 20] [--overrides phase2_cap:2000]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

from mattis.rl import openspiel_game
from mattis.rl.gym_env import MattisEnv


def tensor_cost(rules: str, players: int, games: int, overrides: str = "") -> None:
    game = openspiel_game.load(rules, players, overrides)
    obs_view = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    info_view = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    buckets: dict[int, list[float]] = {}
    rng = random.Random(1)
    for _ in range(games):
        s = game.new_initial_state()
        move = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            p = s.current_player()
            t = time.process_time()
            info_view.set_from(s, p)
            obs_view.set_from(s, p)
            buckets.setdefault(move // 100, []).append(time.process_time() - t)
            s.apply_action(rng.choice(s.legal_actions()))
            move += 1
    print(f"python_mattis {rules} {players}p {overrides}, {games} random games: observation + information-state "
          "tensor, µs per decision by move number (OpenSpiel's observer API: set_from)")
    print("| moves | decisions | µs per call |\n|---|---:|---:|")
    for b in sorted(buckets):
        xs = buckets[b]
        if len(xs) >= 20:
            print(f"| {b * 100}-{b * 100 + 99} | {len(xs)} | {1e6 * sum(xs) / len(xs):.0f} |")


def learner_steps(rules: str, players: int, level: str, seconds: float) -> float:
    env = MattisEnv(rules=rules, players=players, opponents=level, seat="rotate")
    env.reset(seed=0)
    rand = random.Random(0).random
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[int(rand() * len(legal))]))
        done = term or trunc
        steps += 1
        if done:
            env.reset()
    return steps / (time.process_time() - start)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="blodmattis")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--overrides", default="", help="python_mattis's overrides, e.g. phase2_cap:2000")
    args = ap.parse_args()
    tensor_cost(args.rules, args.players, args.games, args.overrides)
    print("\nGymnasium MattisEnv, mattis 3p, a random learner: learner steps per CPU second")
    print("| opponents | steps/s |\n|---|---:|")
    for level in ("random", "easy", "medium"):
        print(f"| {level} | {learner_steps('mattis', 3, level, args.seconds):,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
