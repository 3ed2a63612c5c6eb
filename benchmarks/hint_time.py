r"""How long a hint takes (``mattis.lab.hint.hint``, what the web table's **Hint** and the
terminal's ``h`` ask): seat 0's every real choice (more than one legal move) in seeded games
of Mattis (2 players), Blodmattis (3) and Skitgubbe (4), every seat played by ``easy``;
CPU seconds per hint, by phase (median, 90th percentile, most).

Run: ``python benchmarks/hint_time.py --games 2`` (docs/web.md, *The hint*).
"""

from __future__ import annotations

import argparse
import statistics
import time

from mattis.core import rules_from_json
from mattis.lab.hint import hint
from mattis.play import Sitting, make_bot
from mattis.play.seeds import position_seed

TABLES = (("mattis", 2), ("blodmattis", 3), ("skitgubbe", 4))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per rule set")
    ap.add_argument("--seed", type=int, default=100, help="the first game's seed")
    args = ap.parse_args()
    times: dict[int, list[float]] = {1: [], 2: []}
    for preset, players in TABLES:
        for g in range(args.games):
            ref = Sitting(rules_from_json({"preset": preset}), players, seed=args.seed + g).deal()
            bots = {i: make_bot("easy", i) for i in range(players)}
            while not ref.is_over:
                seat = ref.to_act
                assert seat is not None
                obs = ref.observation(seat)
                if seat == 0 and len(obs.legal) > 1:
                    t0 = time.process_time()
                    hint(obs, "en", position_seed(None, "hint", obs))
                    times[int(obs.phase)].append(time.process_time() - t0)
                ref.apply(seat, bots[seat].act(obs))
    for phase, ts in times.items():
        ts.sort()
        print(f"phase {phase}: {len(ts)} hints, median {statistics.median(ts):.2f} s, "
              f"90th percentile {ts[int(0.9 * len(ts))]:.2f} s, most {ts[-1]:.2f} s")


if __name__ == "__main__":
    main()
