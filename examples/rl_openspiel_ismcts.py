"""OpenSpiel's ISMCTS bot against random bots on python_mattis, a few games.

    python examples/rl_openspiel_ismcts.py --games 3 --simulations 10 --players 3
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from mattis.rl import openspiel_game  # noqa: F401  (registers python_mattis)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--simulations", type=int, default=10)
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    game = pyspiel.load_game(f"python_mattis(rules={a.rules},players={a.players})")
    rng = random.Random(a.seed)
    losses = 0
    start = time.perf_counter()
    for g in range(a.games):
        ismcts_seat = g % a.players  # rotate the ISMCTS seat
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(a.seed + g))
        bots = {p: pyspiel.make_uniform_random_bot(p, a.seed + 100 * g + p) for p in range(a.players)}
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=a.simulations,
                               random_state=np.random.RandomState(a.seed + g))
        worlds = random.Random(a.seed + g)  # seeded determinizations: the run is reproducible
        bot.set_resampler(lambda state, player, w=worlds: state.resample_from_infostate(player, None, rng=w))
        bots[ismcts_seat] = bot
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        lost = returns[ismcts_seat] < 0
        losses += lost
        print(f"game {g + 1}: ISMCTS in seat {ismcts_seat} {'lost' if lost else 'did not lose'}; returns {returns}")
    print(f"ISMCTS ({a.simulations} simulations/move) lost {losses} of {a.games} games "
          f"(a random seat loses about 1 game in {a.players}: {a.games / a.players:.1f} of {a.games}); "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
