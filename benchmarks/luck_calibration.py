"""How well does the review's luck figure match what happens?  (docs/analyze.md)

The luck of a review (``mattis analyze``; :attr:`mattis.lab.review.Review.luck`) is the
learned value model's chance that the seat gets away, taken at phase 2's start with
its phase 2 hand and position.  Here it is worked out by the very function the review
calls (:func:`mattis.lab.review.phase2_luck`, by the model) for every seat of held-out
seeded games of bots at one level (``--level``, default ``medium``, the level of the
review's measurements in docs/analyze.md; the games of
``benchmarks/review_calibration.py``'s ``bot_game``: deal ``derive_seed(seed, "deal",
g)``, bots ``derive_seed(seed, "bot", g, seat)``), and set against whether that seat got
away.  Per preset and pooled: the games and seats, the Brier score of always guessing
the share that got away (the base rate), the model's Brier score and its skill
``1 - Brier / Brier_base`` (95% bootstrap over games), and the calibration error
(:func:`mattis.lab.arena.calibration_error`: the root mean square, over the seats, of
the gap between their band's mean chance and the share of the band that got away, in
bands of a fifth; the figure of :data:`mattis.bots.evaluate.CALIBRATION` for the
playouts), with the bands and a 95% bootstrap over games.  The pooled calibration error
is :data:`mattis.bots.value.CALIBRATION`, the model luck's ± as shown.

    python benchmarks/luck_calibration.py --games 300 --seed 9700

(the measurement; ``--seed 9701`` the same again on other games, to see that the figure
holds; the benchmark was tried out on ``--seed 9799``).  Four players in Mattis, Hund and
Blodmattis, three in Skitgubbe (``--players mattis=4,...``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from review_calibration import bot_game

from mattis.core import preset
from mattis.lab.arena import calibration_error, reliability, wilson
from mattis.lab.review import phase2_luck

PLAYERS = {"mattis": 4, "hund": 4, "blodmattis": 4, "skitgubbe": 3}
"""The table of each preset measured by default."""

Case = tuple[str, str, float, int]
"""A seat of a game: the game (preset and number), the preset, the luck, 1 if the seat
got away else 0."""


def cases(name: str, players: int, games: int, seed: int, level: str) -> tuple[list[Case], int]:
    """Every seat of ``games`` seeded games with its luck and whether it got away, and the
    seats without a luck (the game ended before phase 2)."""
    rules = preset(name)
    out: list[Case] = []
    missing = 0
    for g in range(games):
        record = bot_game(rules, players, level, seed, g)
        losers = record.replay().losers
        for seat in range(players):
            luck, _ = phase2_luck(record, seat, by="model")
            if luck is None:
                missing += 1
            else:
                out.append((f"{name} {g}", name, luck, int(seat not in losers)))
    return out, missing


def figures(rows: Sequence[Case]) -> tuple[float, float, float, float]:
    """The base rate's Brier score (each preset's own share that got away), the model's,
    its skill and the calibration error."""
    got: dict[str, list[int]] = {}
    for _, name, _, y in rows:
        got.setdefault(name, []).append(y)
    base = {name: sum(ys) / len(ys) for name, ys in got.items()}
    brier0 = sum((base[name] - y) ** 2 for _, name, _, y in rows) / len(rows)
    brier = sum((p - y) ** 2 for _, _, p, y in rows) / len(rows)
    return brier0, brier, 1.0 - brier / brier0, calibration_error([(p, y) for _, _, p, y in rows])


def bootstrap(rows: Sequence[Case], rng: random.Random, boots: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """95% intervals of the skill and the calibration error, resampling whole games."""
    by_game: dict[str, list[Case]] = {}
    for r in rows:
        by_game.setdefault(r[0], []).append(r)
    keys = list(by_game)
    skills: list[float] = []
    errors: list[float] = []
    for _ in range(boots):
        pick = [r for _ in keys for r in by_game[rng.choice(keys)]]
        _, _, s, c = figures(pick)
        skills.append(s)
        errors.append(c)
    skills.sort()
    errors.sort()
    lo, hi = int(0.025 * boots), int(0.975 * boots) - 1
    return (skills[lo], skills[hi]), (errors[lo], errors[hi])


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--players", default="", help="PRESET=N,... (default: 4 players, 3 in skitgubbe)")
    ap.add_argument("--games", type=int, default=300, help="games per preset")
    ap.add_argument("--level", default="medium")
    ap.add_argument("--seed", type=int, default=9700)
    ap.add_argument("--boots", type=int, default=400, help="bootstrap resamples (over games)")
    a = ap.parse_args(argv)
    players = dict(PLAYERS)
    players.update({k: int(v) for k, v in (part.split("=") for part in a.players.split(",") if part)})
    rng = random.Random(a.seed)
    print(f"The review's luck (the value model's chance at phase 2's start, mattis.lab.review.phase2_luck) "
          f"against whether the seat got away: {a.games} games of {a.level} bots per preset, seed {a.seed}; "
          f"every seat; skill = 1 - Brier/Brier(base rate); 95% bootstrap over games ({a.boots} resamples)")
    pooled: list[Case] = []
    table: list[str] = []
    for name in a.rules.split(","):
        t0 = time.process_time()
        rows, missing = cases(name, players[name], a.games, a.seed, a.level)
        pooled.extend(rows)
        b0, b, s, c = figures(rows)
        (slo, shi), (clo, chi) = bootstrap(rows, rng, a.boots)
        print(f"\n{name}, {players[name]} players: {a.games} games, {len(rows)} seats ({missing} without a luck), "
              f"{time.process_time() - t0:.0f} s CPU", flush=True)
        print("  chance band  seats  mean chance  got away  95% interval")
        for band in reliability([(p, y) for _, _, p, y in rows]):
            w = wilson(band.hits, band.count)
            print(f"  {band.lo:.1f}-{band.hi:.1f}    {band.count:6d}  {band.mean:11.3f}  {band.share:8.3f}  "
                  f"{w[0]:.2f}-{w[1]:.2f}")
        table.append(f"| {name} | {players[name]} | {a.games} | {len(rows)} | {b0:.3f} | {b:.3f} | "
                     f"{s:+.2f} ({slo:+.2f} to {shi:+.2f}) | {c:.3f} ({clo:.3f} to {chi:.3f}) |")
    b0, b, s, c = figures(pooled)
    (slo, shi), (clo, chi) = bootstrap(pooled, rng, a.boots)
    print("\n| preset | players | games | seats | Brier (base rate) | Brier (model) | skill (95%) |"
          " calibration error (95%) |")
    print("|---|---:|---:|---:|---|---|---|---|")
    print("\n".join(table))
    print(f"| pooled | | {a.games * len(table)} | {len(pooled)} | {b0:.3f} | {b:.3f} | {s:+.2f} ({slo:+.2f} to "
          f"{shi:+.2f}) | {c:.3f} ({clo:.3f} to {chi:.3f}) |")
    print(f"\nThe pooled calibration error, {c:.3f}, is mattis.bots.value.CALIBRATION (the model luck's ± as shown).")


if __name__ == "__main__":
    main()
