r"""The weighted determinizer: its cost per world and how typical the true deal is.

For each preset, games in which every seat plays ``easy`` (seeds ``--seed`` on); in
each, the view of the seat to act after ``--moves`` moves.  From it ``--worlds``
worlds are drawn three ways: uniformly (``sample_worlds`` without a model: the
uniform determinizer), weighted by the ``easy`` model (the opponents known to play
``easy``, slip 1%) and by the ``human`` model (the rules of thumb softened, slip 40%).
Per way: CPU seconds per call and per world returned, histories replayed per call,
and two checks of calibration against the truth:

* **rank**: the true deal's likelihood under the ``easy`` model among the worlds'
  (ties broken at random), as a fraction: about 0.5 on average (uniform between 0 and
  1) if the true deal is a typical draw of the worlds, near 1 if the worlds are ones
  in which the opponents would not have played as they did;
* **agree**: the share of worlds in which every move the opponents made is the one
  ``easy`` makes there (the true deal's is 1).

Run: ``python benchmarks/beliefs_cost.py --rules mattis,blodmattis --games 10``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from mattis.bots.beliefs import EASY, HUMAN
from mattis.bots.heuristic import heuristic_move
from mattis.core import State, preset
from mattis.core.determinize import MoveModel, sample_worlds, world_likelihood


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--particles", type=int, default=32)
    ap.add_argument("--seed", type=int, default=35000)
    args = ap.parse_args()
    ways: list[tuple[str, MoveModel | None]] = [("uniform", None), ("easy", EASY), ("human", HUMAN)]
    print(f"| preset | worlds | CPU ms per call | CPU ms per world | replays per call | rank of the true deal "
          f"(mean, {args.games} games) | worlds where every move is easy's |")
    print("|---|---|---|---|---|---|---|")
    for name in args.rules.split(","):
        rules = preset(name)
        for label, model in ways:
            cpu = 0.0
            replays = 0
            ranks: list[float] = []
            agree: list[float] = []
            for g in range(args.games):
                s = State.new(rules, 3, seed=args.seed + g)
                for _ in range(args.moves):
                    seat = s.to_act
                    assert seat is not None
                    s.apply(heuristic_move(s.observation(seat)))
                    if s.is_over:
                        break
                seat = s.to_act
                if seat is None:
                    continue
                obs = s.observation(seat)
                rng = random.Random(g)
                t0 = time.process_time()
                worlds = sample_worlds(obs, rng, args.worlds, model, particles=args.particles)
                cpu += time.process_time() - t0
                replays += worlds.replays
                truth = world_likelihood(obs, s, EASY)
                decisions = sum(1 for who, _m, _c in obs.history if who != seat)
                lik = [world_likelihood(obs, w, EASY) for w in worlds.states]
                below = sum(1 for x in lik if x < truth - 1e-9)
                ties = sum(1 for x in lik if abs(x - truth) <= 1e-9)
                ranks.append((below + rng.random() * (ties + 1)) / (len(lik) + 1))
                agree.append(sum(1 for x in lik if x >= decisions * math.log(0.99) - 1e-9) / len(lik))
            k = len(ranks)
            sd = (sum((r - sum(ranks) / k) ** 2 for r in ranks) / (k - 1)) ** 0.5 if k > 1 else 0.0
            print(f"| {name} | {label} | {cpu / k * 1e3:.0f} | {cpu / k / args.worlds * 1e3:.1f} | "
                  f"{replays / k:.0f} | {sum(ranks) / k:.2f} ± {2 * sd / k ** 0.5:.2f} | "
                  f"{sum(agree) / k:.2f} |", flush=True)


if __name__ == "__main__":
    main()
