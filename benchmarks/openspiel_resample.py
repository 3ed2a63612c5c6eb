"""The cost of ``python_mattis``'s ``resample_from_infostate``, in µs per call.

    nice -n 10 python benchmarks/openspiel_resample.py --rules mattis --players 3 --games 5 --calls 200 --seed 7

Plays seeded games with ``easy`` in every seat; in each, at move 10 and at the
game's last decision (a late move, its number printed) it resamples the information
state of the player to act ``--calls`` times (each with its own seeded ``rng``) and
prints the median CPU µs per call over the games (CPU time: the machine is
shared), and the determinizer's own share (``sample_state`` on the same
observation and seeds), which the resampler cannot go below.  Needs the ``rl`` extra (OpenSpiel).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import pyspiel

from mattis.core.determinize import sample_state
from mattis.rl import openspiel_game
from mattis.rl.openspiel_game import MattisBot


def per_call(state: Any, calls: int, seed: int) -> tuple[float, float]:
    """CPU µs per resample, and per call of the determinizer alone (``sample_state``)."""
    p = state.current_player()
    t0 = time.process_time()
    for k in range(calls):
        state.resample_from_infostate(p, None, rng=random.Random(seed * 100_003 + k))
    t1 = time.process_time()
    obs = state.engine.observation(p)
    for k in range(calls):
        sample_state(obs, random.Random(seed * 100_003 + k))
    t2 = time.process_time()
    return (t1 - t0) / calls * 1e6, (t2 - t1) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    assert openspiel_game.SHORT_NAME == "python_mattis"
    game = pyspiel.load_game(f"python_mattis(rules={a.rules},players={a.players})")
    early: list[tuple[float, float]] = []
    late: list[tuple[float, float]] = []
    lengths: list[int] = []
    for g in range(a.games):
        deck = list(range(52))
        random.Random(a.seed * 1000 + g).shuffle(deck)
        bots = [MattisBot("easy", seed=a.seed * 1000 + g * 10 + i) for i in range(a.players)]
        state = game.new_initial_state()
        for c in deck:
            state.apply_action(c)
        states = []
        while not state.is_terminal():
            states.append(state.clone())
            state.apply_action(bots[state.current_player()].step(state))
        early.append(per_call(states[10], a.calls, g))
        late.append(per_call(states[-1], a.calls, g))
        lengths.append(len(states) - 1)
    print(f"{a.rules}, {a.players} players, {a.games} games, {a.calls} calls each, seed {a.seed}")
    for name, xs in (("move 10", early), (f"last decision (moves {', '.join(map(str, lengths))})", late)):
        print(f"  {name}: median {statistics.median(x for x, _ in xs):.0f} CPU µs per call "
              f"(games: {', '.join(f'{x:.0f}' for x, _ in xs)}); sample_state alone "
              f"{statistics.median(y for _, y in xs):.0f} µs")


if __name__ == "__main__":
    main()
