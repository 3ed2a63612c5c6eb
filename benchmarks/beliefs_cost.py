r"""The weighted determinizer: its cost per world and how typical the true deal is.

For each preset, games in which every seat plays ``easy`` (seeds ``--seed`` on; with
``--slip`` each move is, with that chance, another legal move drawn at random instead:
then every seat plays exactly the ``easy`` model's policy when ``--slip`` is its 0.01);
in each, the view of the seat to act after ``--moves`` moves.  From it ``--worlds``
worlds are drawn each way asked (``--ways``): uniformly (``uniform``: ``sample_worlds``
without a model, the uniform determinizer), weighted by the ``easy`` model (the
opponents known to play ``easy``, slip 1%) and by the ``human`` model (the rules of
thumb softened, slip 40%), with ``--particles`` particles (``--stages``,
``--moves-each`` and ``--max-replays``: the sampler's other settings, its defaults if
not given).  Per way: CPU milliseconds per world returned (the
mean, and the 99th percentile over the calls), histories replayed per call, and two
checks of calibration against the truth:

* **rank**: the true deal's likelihood under the ``easy`` model among the worlds'
  (ties broken at random), as a fraction: uniform between 0 and 1 (mean 0.5, each
  tenth of the range holding a tenth of the games) if the true deal is a typical draw
  of the worlds, near 1 if the worlds are ones in which the opponents would not have
  played as they did; the mean (± two standard errors) and the share of games in each
  fifth of the range;
* **agree**: the share of worlds in which every move the opponents made is the one
  ``easy`` makes there (the true deal's is 1 unless a slip was played).

Run: ``python benchmarks/beliefs_cost.py --rules mattis,blodmattis --games 10``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from mattis.bots.beliefs import EASY, HUMAN, easy_game
from mattis.core import State
from mattis.core.determinize import MoveModel, sample_worlds, world_likelihood

WAYS: dict[str, MoveModel | None] = {"uniform": None, "easy": EASY, "human": HUMAN}


def true_rank(s: State, worlds: list[State], rng: random.Random) -> tuple[float, float, bool]:
    """The true deal's rank among ``worlds`` by likelihood under ``easy`` (ties at random),
    the share of worlds in which every opponent move is ``easy``'s, and whether it is so
    in the true deal."""
    seat = s.to_act
    assert seat is not None
    obs = s.observation(seat)
    truth = world_likelihood(obs, s, EASY)
    decisions = sum(1 for who, _m, _c in obs.history if who != seat)
    lik = [world_likelihood(obs, w, EASY) for w in worlds]
    below = sum(1 for x in lik if x < truth - 1e-9)
    ties = sum(1 for x in lik if abs(x - truth) <= 1e-9)
    rank = (below + rng.random() * (ties + 1)) / (len(lik) + 1)
    floor = decisions * math.log(0.99) - 1e-9
    agree = sum(1 for x in lik if x >= floor) / len(lik)
    return rank, agree, truth >= floor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--ways", default="uniform,easy,human")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--particles", type=int, default=32)
    ap.add_argument("--stages", type=int, default=None, help="tempering stages (default: sample_worlds')")
    ap.add_argument("--moves-each", type=int, default=None, help="moves per particle and stage (default: its own)")
    ap.add_argument("--max-replays", type=int, default=None, help="histories replayed per call at most")
    ap.add_argument("--slip", type=float, default=0.0, help="the bots' chance of a random other move")
    ap.add_argument("--seed", type=int, default=35000)
    args = ap.parse_args()
    extra = {key: v for key, v in (("stages", args.stages), ("moves", args.moves_each),
                                   ("max_replays", args.max_replays)) if v is not None}
    print(f"| preset | worlds | CPU ms per world (mean) | p99 | replays per call | rank of the true deal "
          f"(mean, {args.games} games) | games per fifth of the rank | worlds where every move is easy's "
          f"| true deals where every move is easy's |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.rules.split(","):
        for label in args.ways.split(","):
            model = WAYS[label]
            cpu: list[float] = []
            replays = 0
            ranks: list[float] = []
            agree: list[float] = []
            true_agree = 0
            for g in range(args.games):
                s = easy_game(name, args.seed + g, args.moves, args.slip)
                if s is None or s.to_act is None:
                    continue
                obs = s.observation(s.to_act)
                rng = random.Random(g)
                t0 = time.process_time()
                worlds = sample_worlds(obs, rng, args.worlds, model, particles=args.particles, **extra)
                cpu.append((time.process_time() - t0) / args.worlds)
                replays += worlds.replays
                r, a, t = true_rank(s, worlds.states, rng)
                ranks.append(r)
                agree.append(a)
                true_agree += t
            k = len(ranks)
            mean = sum(ranks) / k
            sd = (sum((r - mean) ** 2 for r in ranks) / (k - 1)) ** 0.5 if k > 1 else 0.0
            cpu.sort()
            p99 = cpu[min(k - 1, math.ceil(0.99 * k) - 1)]
            fifths = [sum(1 for r in ranks if i / 5 <= r < (i + 1) / 5) for i in range(5)]
            print(f"| {name} | {label} | {sum(cpu) / k * 1e3:.1f} | {p99 * 1e3:.1f} | "
                  f"{replays / k:.0f} | {mean:.2f} ± {2 * sd / k ** 0.5:.2f} | "
                  f"{' / '.join(map(str, fifths))} | {sum(agree) / k:.2f} | {true_agree / k:.2f} |", flush=True)


if __name__ == "__main__":
    main()
