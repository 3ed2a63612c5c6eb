"""How well do the review's chances match what happens?  (docs/analyze.md)

Seeded games of bots at one level (``--level``, default ``medium``) are reviewed for
seat 0 (``mattis.lab.review``); every judged decision's chance after the move made
is compared with whether seat 0 was in the end the loser.  Prints, per band of the
estimate, the decisions, the mean estimate and the share of them whose seat got away,
with a 95% Wilson interval (decisions of one game are not independent: the interval is
optimistic), the Brier score of the estimates against the one of always guessing the
overall rate, and how many marks fell in games the seat got away from.

    python benchmarks/review_calibration.py --rules mattis --games 40 --budget 32 --epsilon 0.1 --epsilon 0.3

``--stability`` measures instead what a review's marks are worth and what it costs: the
same games reviewed under each of ``--seeds`` (are the marks and the named best moves the
same? do the sampled figures move?), the CPU seconds per review (mean and max), and every
judged decision checked against a reference evaluation with ``--reference`` playouts per
legal move (another seed): the marks (the solver's proofs), and what the playouts alone
would mark (``Decision.estimated_mark``, the rule the review no longer shows), against the
reference's own mark (its cost against the thresholds).

    python benchmarks/review_calibration.py --stability --rules mattis --players 3 --games 10 --seed 9100 \
        --budget 64 --seeds 0,1,2 --reference 1000
"""

from __future__ import annotations

import argparse
import random
import time

from mattis.bots.evaluate import Budget, evaluate
from mattis.core import GameRecord, Rules, parse_record_move, preset
from mattis.lab.arena import calibration_error, reliability, wilson
from mattis.lab.review import BLUNDER, DUBIOUS, MISTAKE, Review, review
from mattis.play import Referee, derive_seed, make_bot, play_until


def report(title: str, pairs: list[tuple[float, int]]) -> None:
    print(f"{title}: {len(pairs)} decisions")
    print("  estimate band   decisions  mean estimate  got away  95% interval")
    for band in reliability(pairs):
        w = wilson(band.hits, band.count)
        print(f"  {band.lo:.1f}-{band.hi:.1f}        {band.count:9d}  {band.mean:13.2f}  {band.share:8.2f}  "
              f"{w[0]:.2f}-{w[1]:.2f}")
    base = sum(y for _, y in pairs) / len(pairs)
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    brier0 = sum((base - y) ** 2 for _, y in pairs) / len(pairs)
    print(f"  Brier score {brier:.3f} (always {base:.2f}: {brier0:.3f}); calibration error "
          f"{calibration_error(pairs):.3f} (the root mean square over the decisions of the gap between "
          "their band's mean estimate and the share that got away: mattis.bots.evaluate.CALIBRATION)")


def bot_game(rules: Rules, players: int, level: str, seed: int, g: int) -> GameRecord:
    """Game ``g`` of ``level`` bots at every seat (the deal and the bots seeded from ``seed``)."""
    ref = Referee.new(rules, players, seed=derive_seed(seed, "deal", g))
    play_until(ref, {s: make_bot(level, derive_seed(seed, "bot", g, s)) for s in range(players)})
    return ref.record()


def mark_of(cost: float) -> str:
    return "??" if cost >= BLUNDER - 1e-9 else "?" if cost >= MISTAKE - 1e-9 else "?!" if cost >= DUBIOUS - 1e-9 else ""


def reference_costs(record: GameRecord, rv: Review, playouts: int, seed: int) -> dict[int, tuple[float, set[str]]]:
    """Per judged decision (its move number): the reference cost of the move made and the
    moves within 2 standard errors of the reference's best."""
    wanted = {d.number for d in rv.decisions if d.judged}
    ref = Referee(record.start())
    out: dict[int, tuple[float, set[str]]] = {}
    for number, text in enumerate(record.moves, start=1):
        s, move = parse_record_move(text)
        if s == rv.seat and number in wanted:
            ev = evaluate(ref.observation(s), Budget(samples=playouts), random.Random(derive_seed(seed, "ref", number)))
            best = ev.best
            near = {str(v.move) for v in ev.values if best.chance - v.chance <= 2.0 * (v.gap_se or 0.0)}
            out[number] = (best.chance - ev.of(move).chance, near)
        ref.apply(s, move, events=False)
    return out


def stability(a: argparse.Namespace) -> None:
    rules = preset(a.rules)
    seeds = [int(x) for x in a.seeds.split(",")]
    cpu: list[float] = []
    judged = differ = best_differ = figures_moved = est_differ = 0
    proven: list[float] = []
    named = named_ok = 0
    est = {"agree": 0, "false": 0, "missed": 0, "marked": 0}
    ref_marked = 0
    for g in range(a.games):
        record = bot_game(rules, a.players, a.level, a.seed, g)
        reviews = []
        for sd in seeds:
            t = time.process_time()
            reviews.append(review(record, 0, Budget(samples=a.budget), seed=sd))
            cpu.append(time.process_time() - t)
        rows = [[(d.number, d.mark, str(d.best) if d.resolved else None) for d in rv.decisions if d.judged]
                for rv in reviews]
        for xs in zip(*rows, strict=True):
            judged += 1
            differ += len({x[1] for x in xs}) > 1
            best_differ += len({x[2] for x in xs}) > 1
        for ds in zip(*(rv.decisions for rv in reviews), strict=True):
            if ds[0].judged:
                figures_moved += len({d.after for d in ds}) > 1 or len({d.before for d in ds}) > 1
                est_differ += len({d.estimated_mark() for d in ds}) > 1
        refs = reference_costs(record, reviews[0], a.reference, a.seed) if a.reference else {}
        for d in reviews[0].decisions:
            if not d.judged or d.number not in refs:
                continue
            cost, near = refs[d.number]
            truth = mark_of(cost)
            ref_marked += truth != ""
            if d.mark:
                proven.append(cost)
            if d.resolved:
                named += 1
                named_ok += str(d.best) in near
            e = d.estimated_mark()
            est["marked"] += e != ""
            est["agree"] += e == truth
            est["false"] += e != "" and truth == ""
            est["missed"] += e == "" and truth != ""
        print(f"  game {g}: {sum(d.judged for d in reviews[0].decisions)} judged, marks "
              f"{[sum(1 for d in rv.decisions if d.mark) for rv in reviews]}, cpu "
              f"{', '.join(f'{c:.2f}' for c in cpu[-len(seeds):])} s", flush=True)
    print(f"{a.rules}, {a.players} players, {a.games} games of {a.level} bots (seed {a.seed}), seat 0 reviewed at "
          f"budget {a.budget} under seeds {seeds}")
    print(f"  CPU per review: mean {sum(cpu) / len(cpu):.2f} s, max {max(cpu):.2f} s ({len(cpu)} reviews)")
    print(f"  judged decisions: {judged}; marks that differ between the seeds: {differ}; named best moves that "
          f"differ: {best_differ}")
    print(f"  sampled figures that moved with the seed: {figures_moved} of {judged}; what the playouts alone would "
          f"mark differs in {est_differ}")
    if a.reference:
        n = sum(1 for _ in proven)
        print(f"  reference ({a.reference} playouts per move): {ref_marked} of {judged} decisions cost "
              f"{round(100 * DUBIOUS)} points or more")
        print(f"  marks (proven ??): {n}; their reference cost: "
              + (", ".join(f"{round(100 * c)}" for c in sorted(proven)) if proven else "none")
              + f"; below {round(100 * DUBIOUS)} points: {sum(c < DUBIOUS for c in proven)}")
        print(f"  named best moves: {named}; within 2 standard errors of the reference's best: {named_ok}")
        print(f"  the playouts alone (budget {a.budget}, cost less 2 standard errors): {est['marked']} marked, "
              f"same mark as the reference in {est['agree']} of {judged}, {est['false']} marked where the reference "
              f"has none, {est['missed']} unmarked where it has one")


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
    ap.add_argument("--stability", action="store_true",
                    help="measure the marks under several seeds, against a reference, and the CPU per review")
    ap.add_argument("--seeds", default="0,1,2", help="with --stability: the review seeds")
    ap.add_argument("--reference", type=int, default=0, metavar="N",
                    help="with --stability: playouts per legal move of the reference (0: none)")
    a = ap.parse_args()
    if a.stability:
        stability(a)
        return
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
