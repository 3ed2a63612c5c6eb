"""The review's marks, what they are worth and what a review costs (docs/analyze.md).

Seeded games of bots at one level (``--level``, default ``medium``) in each preset
(``--rules``, repeat it; ``--players``, skitgubbe at ``--skitgubbe-players``) are reviewed
for every seat (``mattis.lab.review``) under each of ``--seeds``.  Prints per preset:

* the CPU seconds of a review (``time.process_time`` around :func:`review`, seed 0; mean,
  median and max over the seat-games);
* the marks per seat-game (under the first seed) and the marks and named moves (the
  best or better move a decision names) that differ between the seeds;
* with ``--reference N``: every mark checked by an independent re-evaluation of the two
  moves it compares (the named move and the move made) with ``N`` paired playouts each
  and its own seed: the mark is false where the reference's cost is below the mark's
  threshold (5, 10, 15 points); the false-mark rate with its 95% Wilson interval (the
  marks of one game are not independent: the interval is optimistic).

    python benchmarks/review_marks.py --rules mattis --rules hund --rules blodmattis --rules skitgubbe \
        --players 4 --games 3 --seed 9300 --seeds 0,1,2 --reference 1000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from review_calibration import bot_game  # the same seeded bot games

from mattis.bots.evaluate import Budget, evaluate
from mattis.core import GameRecord, parse_record_move, preset
from mattis.lab.arena import wilson
from mattis.lab.review import BLUNDER, CHECK_Z, DUBIOUS, MISTAKE, Decision, Review, review
from mattis.play import Referee, derive_seed

THRESHOLD = {"??": BLUNDER, "?": MISTAKE, "?!": DUBIOUS}
Ref = tuple[str, float, tuple[float, float, int] | None]


def named(d: Decision) -> str | None:
    """The move a decision names (the proven best, or the better move of a mark)."""
    return str(d.best) if d.resolved or d.mark else None


def reference(record: GameRecord, rv: Review, playouts: int, seed: int) -> list[Ref]:
    """Each marked decision's mark, the reference cost (the named move's chance less the
    move made's), and the review's check (cost, standard error; None for a proven mark)."""
    marked = {d.number: d for d in rv.decisions if d.mark}
    ref = Referee(record.start())
    out: list[Ref] = []
    for number, text in enumerate(record.moves, start=1):
        s, move = parse_record_move(text)
        if number in marked:
            d = marked[number]
            ev = evaluate(ref.observation(s), Budget(samples=playouts, epsilon=rv.budget.epsilon),
                          random.Random(derive_seed(seed, "reference", rv.seat, number)), only={d.best, d.played})
            out.append((d.mark, ev.of(d.best).chance - ev.of(d.played).chance, d.check))
        ref.apply(s, move, events=False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", action="append", default=None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--skitgubbe-players", type=int, default=3)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--budget", type=int, default=64)
    ap.add_argument("--level", default="medium")
    ap.add_argument("--seed", type=int, default=9300, help="the deal and bot seed of the games")
    ap.add_argument("--seeds", default="0,1,2", help="the review seeds")
    ap.add_argument("--reference", type=int, default=0, metavar="N",
                    help="paired playouts per move of the reference re-evaluation of each mark (0: none)")
    ap.add_argument("--detail", action="store_true", help="print each mark, its reference cost and its check")
    a = ap.parse_args()
    seeds = [int(x) for x in a.seeds.split(",")]
    all_refs: list[Ref] = []
    for name in a.rules or ["mattis"]:
        rules = preset(name)
        players = a.skitgubbe_players if name == "skitgubbe" else a.players
        cpu: list[float] = []
        marks: list[int] = []
        judged = decisions_differ = named_differ = 0
        refs: list[Ref] = []
        for g in range(a.games):
            record = bot_game(rules, players, a.level, a.seed, g)
            for seat in range(players):
                reviews: list[Review] = []
                for sd in seeds:
                    t = time.process_time()
                    reviews.append(review(record, seat, Budget(samples=a.budget), seed=sd))
                    if sd == seeds[0]:
                        cpu.append(time.process_time() - t)
                marks.append(sum(1 for d in reviews[0].decisions if d.mark))
                for ds in zip(*(rv.decisions for rv in reviews), strict=True):
                    judged += ds[0].judged
                    decisions_differ += len({d.mark for d in ds}) > 1
                    named_differ += len({named(d) for d in ds}) > 1
                if a.reference:
                    refs.extend(reference(record, reviews[0], a.reference, a.seed))
            print(f"  {name} game {g}: {len(record.moves)} moves, marks per seat {marks[-players:]}, cpu "
                  f"{', '.join(f'{c:.2f}' for c in cpu[-players:])} s", flush=True)
        n = len(marks)
        print(f"{name}, {players} players, {a.games} games of {a.level} bots (seed {a.seed}), every seat reviewed "
              f"at budget {a.budget} under seeds {seeds}")
        print(f"  CPU per review: mean {statistics.mean(cpu):.2f} s, median {statistics.median(cpu):.2f} s, "
              f"max {max(cpu):.2f} s ({n} reviews)")
        print(f"  marks: {sum(marks)} in {n} seat-games ({sum(marks) / n:.2f} per seat-game; "
              f"{', '.join(f'{m} {sum(1 for r in refs if r[0] == m)}' for m in THRESHOLD) if refs else ''})")
        print(f"  judged decisions {judged}: marks that differ between the seeds {decisions_differ}, "
              f"named moves that differ {named_differ}")
        if a.reference:
            report(refs, f"  reference ({a.reference} paired playouts per move)")
        all_refs.extend(refs)
    if a.reference and len(a.rules or []) > 1:
        report(all_refs, f"every preset, reference ({a.reference} paired playouts per move)")
    if a.detail:
        for m, c, chk in all_refs:
            print(f"  mark {m:2} reference {c:.4f} check {chk}")


def level(c: float) -> str:
    return "??" if c >= BLUNDER - 1e-9 else "?" if c >= MISTAKE - 1e-9 else "?!" if c >= DUBIOUS - 1e-9 else ""


def report(refs: list[Ref], title: str) -> None:
    false = sum(1 for m, c, _ in refs if c < THRESHOLD[m] - 1e-9)
    unmarked = sum(1 for _, c, _ in refs if c < DUBIOUS - 1e-9)
    lo, hi = wilson(false, len(refs)) if refs else (0.0, 1.0)
    print(f"{title}: {len(refs)} marks, {false} false (reference cost below the mark's threshold): "
          f"{false / max(1, len(refs)):.1%} (95% {lo:.1%}-{hi:.1%}); {unmarked} below {round(100 * DUBIOUS)} points; "
          f"reference costs {sorted(round(100 * c) for _, c, _ in refs)}")
    # what a stricter check (its cost less z standard errors) would have kept of these marks
    for z in (CHECK_Z + 0.25, CHECK_Z + 0.5, CHECK_Z + 1.0):
        kept = [(m if chk is None else level(chk[0] - z * chk[1]), c) for m, c, chk in refs]
        kept = [(m, c) for m, c in kept if m]
        f = sum(1 for m, c in kept if c < THRESHOLD[m] - 1e-9)
        print(f"    with the check's cost less {z:g} standard errors: {len(kept)} marks, {f} false")


if __name__ == "__main__":
    main()
