"""How well do the review's chances match what happens?  (docs/analyze.md)

Seeded games of bots at one level (``--level``, default ``medium``) are reviewed for
seat 0 (``mattis.lab.review``); every judged decision's chance after the move made
is compared with whether seat 0 was in the end the loser.  Prints, per band of the
estimate, the decisions, the mean estimate and the share of them whose seat got away,
with a 95% Wilson interval (decisions of one game are not independent: the interval is
optimistic), the Brier score of the estimates against the one of always guessing the
overall rate, and how many marks fell in games the seat got away from.

    python benchmarks/review_calibration.py --rules mattis --games 40 --budget 32 --epsilon 0.1 --epsilon 0.3
"""

from __future__ import annotations

import argparse

from mattis.bots.evaluate import Budget
from mattis.core import preset
from mattis.lab.arena import wilson
from mattis.lab.review import review
from mattis.play import Referee, derive_seed, make_bot


def report(title: str, pairs: list[tuple[float, int]]) -> None:
    print(f"{title}: {len(pairs)} decisions")
    print("  estimate band   decisions  mean estimate  got away  95% interval")
    for lo in (0.0, 0.2, 0.4, 0.6, 0.8):
        hi = lo + 0.2
        band = [(p, y) for p, y in pairs if lo <= p < hi or (hi >= 1.0 and p == 1.0)]
        if not band:
            continue
        k = sum(y for _, y in band)
        w = wilson(k, len(band))
        mean = sum(p for p, _ in band) / len(band)
        print(f"  {lo:.1f}-{hi:.1f}        {len(band):9d}  {mean:13.2f}  {k / len(band):8.2f}  {w[0]:.2f}-{w[1]:.2f}")
    base = sum(y for _, y in pairs) / len(pairs)
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    brier0 = sum((base - y) ** 2 for _, y in pairs) / len(pairs)
    print(f"  Brier score {brier:.3f} (always {base:.2f}: {brier0:.3f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--budget", type=int, default=32)
    ap.add_argument("--level", default="medium")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--epsilon", type=float, action="append", default=None,
                    help="the playouts' share of random moves (repeat to compare on the same games; default 0.1)")
    a = ap.parse_args()
    rules = preset(a.rules)
    eps_list = a.epsilon or [0.1]
    pairs: dict[tuple[float, int], list[tuple[float, int]]] = {(e, ph): [] for e in eps_list for ph in (1, 2)}
    marks = {e: [0, 0] for e in eps_list}
    safe_games = 0
    for g in range(a.games):
        ref = Referee.new(rules, a.players, seed=derive_seed(a.seed, "deal", g))
        bots = {s: make_bot(a.level, derive_seed(a.seed, "bot", g, s)) for s in range(a.players)}
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
        for e in eps_list:
            rv = review(ref.record(), 0, Budget(samples=a.budget, epsilon=e), seed=a.seed)
            got_away = int(rv.outcome == "safe")
            if e == eps_list[0]:
                safe_games += got_away
            marks[e][got_away] += sum(1 for d in rv.decisions if d.mark == "??")
            for d in rv.decisions:
                pairs[(e, d.phase)].append((d.after, got_away))
    print(f"{a.rules}, {a.players} players, {a.games} games of {a.level} bots, seat 0 reviewed at budget "
          f"{a.budget}, seed {a.seed}; seat 0 got away in {safe_games} games")
    for e in eps_list:
        report(f"epsilon {e}, both phases", pairs[(e, 1)] + pairs[(e, 2)])
        for ph in (1, 2):
            report(f"epsilon {e}, phase {ph}", pairs[(e, ph)])
        print(f"  '??' marks: {marks[e][0]} in the {a.games - safe_games} games seat 0 lost, "
              f"{marks[e][1]} in the {safe_games} it got away from")


if __name__ == "__main__":
    main()
