"""Think time per decision of each level (mean, 99th percentile, max) and the
2-player phase 2 solver on 12 cards each.

    python benchmarks/bots_think.py [GAMES] [--rules mattis,hund,...] [--no-solver]

Each level plays seat 0 of 3-player games (seeds 0..GAMES-1) against two heuristic
bots, per preset given (default mattis)."""

from __future__ import annotations

import random
import sys
import time

from mattis.bots.solver import two_player_values
from mattis.core import Move, Observation, State, preset
from mattis.play import Agent, Referee, make_bot, play_until


class Timed:
    """An agent that notes how long each of its decisions took."""

    def __init__(self, agent: Agent, times: list[float]) -> None:
        self.agent = agent
        self.name = agent.name
        self.times = times

    def act(self, obs: Observation) -> Move:
        t0 = time.perf_counter()
        move = self.agent.act(obs)
        self.times.append(time.perf_counter() - t0)
        return move


def think(level: str, games: int, rules: str = "mattis") -> None:
    times: list[float] = []
    for g in range(games):
        referee = Referee.new(preset(rules), 3, seed=g)
        agents: dict[int, Agent] = {0: Timed(make_bot(level, g), times), 1: make_bot("heuristic", 1),
                                    2: make_bot("heuristic", 2)}
        play_until(referee, agents)
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    print(f"{rules:10s} {level:8s} decisions {len(times):5d}  mean {1000 * sum(times) / len(times):7.1f} ms  "
          f"p99 {1000 * p99:7.1f} ms  max {1000 * times[-1]:7.1f} ms")


def solver12(rules_name: str, positions: int) -> None:
    r = preset(rules_name, min_players=2) if rules_name == "blodmattis" else preset(rules_name)
    ts: list[float] = []
    for seed in range(positions):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        s = State.from_position(r, [deck[:12], deck[12:24]], trump=rng.randrange(4), leader=0)
        t0 = time.perf_counter()
        two_player_values(s)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    print(f"2-player solver, 12 cards each, {rules_name}: {positions} random positions, every root move solved: "
          f"median {ts[len(ts) // 2]:.2f} s, max {ts[-1]:.2f} s, under 1 s: {sum(t < 1 for t in ts)}/{len(ts)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    games = int(args[0]) if args and args[0].isdigit() else 3
    presets = args[args.index("--rules") + 1].split(",") if "--rules" in args else ["mattis"]
    for name in presets:
        for level in ("easy", "medium", "hard", "expert"):
            think(level, games, name)
    if "--no-solver" not in args:
        solver12("mattis", 20)
        solver12("skitgubbe", 5)
