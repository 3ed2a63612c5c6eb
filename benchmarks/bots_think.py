"""Think time per decision of each level (mean, 99th percentile, max) and the
2-player phase 2 solver on 12 cards each.

    python benchmarks/bots_think.py [GAMES] [--rules mattis,hund,...] [--levels expert,...]
                                    [--against LEVEL] [--cpu] [--no-solver]

Each level plays seat 0 of 3-player games (seeds 0..GAMES-1) against two heuristic
bots (``--against``: two bots of another level), per preset given (default mattis).
Times are wall clock (``time.perf_counter``), or with ``--cpu`` the process's CPU
time (``time.process_time``), which a loaded machine does not inflate; the line
also gives the decisions with more than one legal move and their mean, and for a bot
with the phase 2 endgame solver how often it was asked and what it decided
(:class:`mattis.bots.search.SolverCount`)."""

from __future__ import annotations

import random
import sys
import time

from mattis.bots.search import SolverCount
from mattis.bots.solver import two_player_values
from mattis.core import Move, Observation, State, preset
from mattis.play import Agent, Referee, make_bot, play_until


class Timed:
    """An agent that notes how long each of its decisions took."""

    def __init__(self, agent: Agent, times: list[float], choice: list[float], cpu: bool = False) -> None:
        self.agent = agent
        self.name = agent.name
        self.times = times
        self.choice = choice
        self.clock = time.process_time if cpu else time.perf_counter

    def act(self, obs: Observation) -> Move:
        t0 = self.clock()
        move = self.agent.act(obs)
        dt = self.clock() - t0
        self.times.append(dt)
        if len(obs.legal) > 1:
            self.choice.append(dt)
        return move


def think(level: str, games: int, rules: str = "mattis", against: str = "heuristic", cpu: bool = False) -> None:
    times: list[float] = []
    choice: list[float] = []
    solver = SolverCount()
    for g in range(games):
        referee = Referee.new(preset(rules), 3, seed=g)
        bot = make_bot(level, g)
        agents: dict[int, Agent] = {0: Timed(bot, times, choice, cpu), 1: make_bot(against, 1),
                                    2: make_bot(against, 2)}
        play_until(referee, agents)
        count = getattr(bot, "solver", None)  # the search bots' endgame solver counts
        if isinstance(count, SolverCount):
            solver.add(count)
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    mean_choice = 1000 * sum(choice) / len(choice) if choice else 0.0
    print(f"{rules:10s} {level:8s} decisions {len(times):5d}  mean {1000 * sum(times) / len(times):7.1f} ms  "
          f"p99 {1000 * p99:7.1f} ms  max {1000 * times[-1]:7.1f} ms  "
          f"({len(choice)} with a choice: mean {mean_choice:.1f} ms; {'CPU' if cpu else 'wall clock'})")
    if solver.asked:
        print(f"{'':10s} {level:8s} endgame solver asked {solver.asked}: decided {solver.decided}, narrowed "
              f"{solver.narrowed}, every move alike {solver.undecided}, over its node budget {solver.over_limit}")


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
    levels = args[args.index("--levels") + 1].split(",") if "--levels" in args else ["easy", "medium", "hard", "expert"]
    against = args[args.index("--against") + 1] if "--against" in args else "heuristic"
    for name in presets:
        for level in levels:
            think(level, games, name, against, "--cpu" in args)
    if "--no-solver" not in args:
        solver12("mattis", 20)
        solver12("skitgubbe", 5)
