"""What the OpenSpiel deal of ``python_mattis`` costs per decision: the speed race's
OpenSpiel loop (:func:`mattis.rl.speed._openspiel`: ``chance_outcomes()``, its
sampling, ``apply_action``) timed over the 52 chance nodes of each game alone, then
divided by the game's decisions (random legal actions).

    python benchmarks/openspiel_deal.py [--rules R ...] [--players N] [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

from mattis.rl import openspiel_game  # noqa: F401  (registers python_mattis)
from mattis.rl.speed import build_label


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["mattis", "blodmattis"])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    print(f"{build_label()} core, {a.seconds:g} CPU s a preset")
    for rules in a.rules:
        game = pyspiel.load_game(f"python_mattis(rules={rules},players={a.players})")
        rng = random.Random(1)
        deal = 0.0
        decisions = games = 0
        end = time.process_time() + a.seconds
        while time.process_time() < end:
            s = game.new_initial_state()
            t0 = time.process_time()
            while s.is_chance_node():
                outcomes = s.chance_outcomes()
                r = rng.random()
                acc = 0.0
                pick = outcomes[-1][0]
                for act, p in outcomes:
                    acc += p
                    if r < acc:
                        pick = act
                        break
                s.apply_action(pick)
            deal += time.process_time() - t0
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
            games += 1
        print(f"{rules} {a.players}p: {games} games, {decisions / games:.0f} decisions a game, deal "
              f"{1e6 * deal / games:.0f} µs a game, {1e6 * deal / decisions:.2f} µs a decision")


if __name__ == "__main__":
    main()
