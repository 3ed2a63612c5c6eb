r"""What skill could any estimator reach on the calibration table's games?  (docs/analyze.md)

The games are :mod:`value_calibration`'s (the same deals, bots and cache: ``--cache``
must hold them, or they are played).  For a position ``s`` (the whole truth) the best
Brier score of any predictor of "this seat gets away" that knows ``s`` is
``Var(y | s)``; an observation is a function of ``s``, so no observer's estimator does
better (:mod:`mattis.lab.bound`).  Per game, from two positions (three with ``--phase1-games``):

* **the start of phase 2** (the first phase 2 position): ``--k`` continuations by fresh
  bots of ``--level`` (new seeds), plus the game's own ending (its bots had kept nothing
  from phase 1, so it is one more draw from the same distribution): ``k + 1`` outcomes
  per seat, their sample variance ``v[g, seat]``.  Information only grows along a game,
  so ``E[Var(y | s_t)] >= E[Var(y | s_T)]`` for ``t`` before ``T``: weighted by the
  seat's number of phase 1 decisions in that game (every move it made in phase 1, as
  the table counts decisions), ``sum v * n1 / sum n1`` is a lower bound on any
  estimator's phase 1 Brier score, so ``1 - that / Brier(base)`` an upper bound on its
  phase 1 skill; weighted by the phase 2 decisions it is an upper bound on the best
  phase 2 Brier score, so a lower bound on the reachable phase 2 skill.
* **one phase 2 decision per game** (drawn uniformly among the game's phase 2
  decisions, seeded): from the position right after it (the position the table scores
  for that decision) ``--k`` continuations plus the game's own ending; the fresh bots'
  opponent model first takes in what its seat saw at its earlier phase 2 decisions
  (:func:`mattis.lab.bound.watching_bots`), so they are the game's bots as they stood
  there.  The mover's variance times the game's number of phase 2 decisions is an
  unbiased estimate of the sum of ``Var(y | s_t)`` over the game's phase 2 decisions:
  the best phase 2 Brier score of any estimator that knows everything, so an upper
  bound on the reachable phase 2 skill.
* **one phase 1 decision per game** (``--phase1-games``, ``--phase1-k``): the same from
  a phase 1 decision drawn uniformly among the game's phase 1 decisions: the mover's
  variance times the game's number of phase 1 decisions estimates the sum of
  ``Var(y | s_t)`` over the game's phase 1 decisions without bias, so this upper bound
  on the reachable phase 1 skill is tight where the start of phase 2's is loose (it
  credits no decision with what is learnt after it).
* **from the mover's view** (``--observer-games``, ``--observer-m``): the same phase 1
  decision as ``--phase1-games`` (the same draw), but each of ``--observer-m``
  continuations starts from its own world drawn from the mover's observation right
  after its move (:func:`mattis.lab.bound.continue_from_view`: the determinizer's
  worlds, fresh bots); the mover's sample variance over them (the game's own ending
  not counted) times the game's number of phase 1 decisions estimates the sum of
  ``Var_det(y | o_t)`` over them: the best phase 1 Brier score of an estimator that
  sees only the mover's observation, as far as the determinizer's posterior stands in
  for the true one, so an upper bound on the phase 1 skill such an estimator can reach.
  Whether it stands in is checked as the other positions are: a continuation's ending
  should agree with the game's own as often as with another continuation's.
  ``--observer-only`` continues from these positions alone.  ``--beliefs`` says how the
  worlds are drawn: ``uniform`` (every deal consistent with the view alike), ``bots``
  (weighed by the bots' own policy: :data:`mattis.bots.beliefs.EASY` for ``--level easy``,
  the softened rules of thumb :data:`~mattis.bots.beliefs.HUMAN` for a searching level,
  whose policy is too dear to ask per world), or a model's name (``easy``, ``human``).

Skill intervals: 95%, bootstrap over games (the base rate's Brier score, the bound and
the model's score recomputed on each resample).  The model is the shipped one (or
``--weights``), scored as :mod:`value_calibration` scores it, on the same games.
Every continuation's fallbacks (a search bot that sampled no state and played
unsearched; a logged warning of the bots) are counted and printed; the CPU time of
the continuations is printed too.  Each game's continuations are kept in ``--cache``.

    python benchmarks/value_bound.py --games mattis=40,hund=40,blodmattis=30,skitgubbe=40 \
        --inside-games 40 --phase1-games 40 --phase1-k 1 --level expert --seed 7001 --k 2 \
        --cache /tmp/mattis-calibration --workers 2
    python benchmarks/value_bound.py --games blodmattis=20 --rules blodmattis \
        --observer-only --observer-games 20 --observer-m 8 --level expert --seed 7001 \
        --cache /tmp/mattis-calibration
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from value_calibration import CHUNK, decisions, games  # noqa: E402

from mattis.bots.beliefs import MODELS  # noqa: E402
from mattis.bots.search import perfect_info  # noqa: E402
from mattis.bots.value import load_models, model_for  # noqa: E402
from mattis.core import Rules, preset  # noqa: E402
from mattis.core.observation import PHASE2  # noqa: E402
from mattis.lab.bound import continue_from_view, continue_game, phase2_start, position, sample_variance  # noqa: E402
from mattis.lab.train import GameRecord, replay  # noqa: E402
from mattis.play import Referee, make_bot  # noqa: E402
from mattis.play.agents import Agent  # noqa: E402
from mattis.play.seeds import derive_seed  # noqa: E402


class _Maker:
    """A picklable bot factory of one level."""

    def __init__(self, level: str) -> None:
        self.level = level

    def __call__(self, seed: int) -> Agent:
        return make_bot(self.level, seed)


def _seeds(seed: int, where: str, game: int, k: int, players: int) -> list[list[int]]:
    return [[derive_seed(seed, "bound", where, game, j, s) or 0 for s in range(players)] for j in range(k)]


def belief_model(beliefs: str, level: str) -> str:
    """The name of the model (:data:`mattis.bots.beliefs.MODELS`) ``--beliefs`` asks for
    with bots of ``level``."""
    if beliefs == "bots":
        return "easy" if level == "easy" else "human"
    if beliefs not in MODELS:
        raise ValueError(f"unknown beliefs {beliefs!r}")
    return beliefs


def one_position(name: str, rec: GameRecord, where: str, level: str, seed: int, k: int,
                 cache: Path | None, beliefs: str = "uniform") -> dict[str, Any]:
    """``k`` continuations of one game from one position (``where``: ``start``, the start of
    phase 2; ``inside``, right after a phase 2 decision drawn from the seed; ``phase1``,
    right after a phase 1 decision drawn from the seed; ``observer``, the same phase 1
    decision, each continuation from a world drawn from the mover's view), read back
    from ``cache`` when there: the position (``at``), the mover there (``inside``), the
    game's own ending (``real``) and the continuations' (``away``), their bot decisions,
    fallbacks and CPU seconds."""
    weighed = f"-{beliefs}" if where == "observer" and beliefs != "uniform" else ""
    path = (cache / f"{name}-{level}-s{seed}-p{rec.players}-g{rec.number}-bound-{where}-k{k}{weighed}.json"
            if cache is not None else None)
    if path is not None and path.exists():
        saved: dict[str, Any] = json.loads(path.read_text())
        return saved
    rules = preset(name)
    out: dict[str, Any] = {"real": [0 if s in rec.losers else 1 for s in range(rec.players)]}
    if where == "start":
        at = phase2_start(rules, rec)
    else:
        two = where == "inside"
        seats = [(seat, ref.observation(seat).phase == PHASE2) for ref, seat, _ in replay(rules, rec)]
        # the observer's decision is the phase 1 one: the same draw
        among = [i for i, (_, phase2) in enumerate(seats) if phase2 == two]
        if not among:  # no decision of that phase to weigh: nothing to continue
            out.update(at=None, away=[], decisions=0, fallbacks=0, cpu=0.0, mover=0)
            return out
        pick = random.Random(derive_seed(seed, "bound", "pick" if two else "pick1", rec.number)).choice(among)
        at = pick + 1
        out["mover"] = seats[pick][0]
    t0 = time.process_time()
    if where == "observer":
        view = position(rules, rec, at).observation(out["mover"])
        runs = continue_from_view(view, _Maker(level), _seeds(seed, where, rec.number, k, rec.players),
                                  [derive_seed(seed, "bound", "world", rec.number, j) or 0 for j in range(k)],
                                  MODELS[beliefs])
    else:
        runs = continue_game(rules, rec, at, _Maker(level),
                             _seeds(seed, where, rec.number, k, rec.players))
    out.update(at=at, away=[list(r) for r in runs.away], decisions=runs.decisions, fallbacks=runs.fallbacks,
               cpu=time.process_time() - t0)
    if path is not None:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(out))
        tmp.replace(path)
    return out


def _job(args: tuple[str, GameRecord, str, str, int, int, Path | None, str]) -> dict[str, Any]:
    logging.basicConfig(level=logging.WARNING)
    return one_position(*args)


def variances(res: dict[str, Any], real: bool = True) -> list[float]:
    """Per seat: the sample variance of the ``k`` continuations and the game's ending
    (without it if not ``real``)."""
    runs = [res["real"], *res["away"]] if real else list(res["away"])
    if len(runs) < 2:
        return [0.0] * len(res["real"])
    return [sample_variance([r[s] for r in runs]) for s in range(len(res["real"]))]


def mover(done: dict[tuple[str, int, str], dict[str, Any]], name: str, count: int, where: str,
          real: bool = True) -> tuple[list[int], np.ndarray]:
    """Of games ``0 .. count - 1`` of ``name``: those continued from ``where`` (one decision
    a game), and the mover's variance in each (a column)."""
    kept = [g for g in range(count) if (name, g, where) in done]
    return kept, np.array([variances(done[(name, g, where)], real)[done[(name, g, where)]["mover"]]
                           for g in kept]).reshape(-1, 1)


def per_game(rules: Rules, records: Sequence[GameRecord]) -> tuple[np.ndarray, np.ndarray]:
    """Per game, per seat: its phase 1 and its phase 2 decisions (moves it made)."""
    n1 = np.zeros((len(records), records[0].players))
    n2 = np.zeros_like(n1)
    for i, rec in enumerate(records):
        for ref, seat, _ in replay(rules, rec):
            (n2 if ref.observation(seat).phase == PHASE2 else n1)[i, seat] += 1
    return n1, n2


def every_hand_known(rules: Rules, records: Sequence[GameRecord]) -> tuple[int, int]:
    """Of the phase 2 decisions (as the table counts them): how many leave the mover
    knowing every hand (then its observation is the whole position, and the bound is
    what an estimator that sees only that observation could reach), and how many in all."""
    known = total = 0
    for rec in records:
        ref = Referee.new(rules, rec.players, seed=rec.deal, dealer=rec.dealer)
        for move in rec.moves:
            seat = ref.to_act
            assert seat is not None
            two = ref.observation(seat).phase == PHASE2
            ref.apply(seat, move, events=False)
            if two:
                total += 1
                known += perfect_info(ref.observation(seat))
    return known, total


def bootstrap(num: np.ndarray, den: np.ndarray, p: np.ndarray, y: np.ndarray, game: np.ndarray,
              rng: np.random.Generator, boots: int = 1000) -> tuple[float, float, float, float, float]:
    """(bound's skill, low, high, model's skill, base Brier) with 95% bootstrap intervals over
    games: ``num[i] / den[i]`` is game ``i``'s bound Brier sum and weight; ``p``, ``y``,
    ``game`` the decisions (``game`` the index into ``num``)."""
    by = [np.flatnonzero(game == i) for i in range(len(num))]

    def one(pick: np.ndarray) -> tuple[float, float]:
        idx = np.concatenate([by[i] for i in pick])
        base = float(((y[idx] - y[idx].mean()) ** 2).mean())
        bound = float(num[pick].sum() / den[pick].sum())
        return 1 - bound / base if base else float("nan"), base

    everything = np.arange(len(num))
    s, base = one(everything)
    sk = [one(rng.choice(everything, len(everything)))[0] for _ in range(boots)]
    sk = [v for v in sk if not np.isnan(v)]
    idx = np.concatenate(by)
    model = 1 - float(((p[idx] - y[idx]) ** 2).mean()) / base
    return s, float(np.percentile(sk, 2.5)), float(np.percentile(sk, 97.5)), model, base


def bernoulli_spread(v: float, m: int) -> float:
    """The variance of the sample variance (divisor ``m - 1``) of ``m`` Bernoulli draws
    whose variance is ``v``: ``(mu4 - v^2 (m - 3) / (m - 1)) / m`` with ``mu4 = v (1 - 3 v)``."""
    return (v * (1 - 3 * v) - v * v * (m - 3) / (m - 1)) / m


def draws_per_position(v: Sequence[float], m: int) -> str:
    """How the spread of the positions' variance estimates ``v`` (``m`` draws each)
    splits into the positions' own spread and the draws' (Bernoulli, at the pooled
    variance), and what it would be per continuation at other ``m``: the CPU each
    estimate of the mean costs at equal width, relative to ``m`` draws."""
    if len(v) < 3:
        return ""
    mean = float(np.mean(v))
    total = float(np.var(v, ddof=1))
    between = max(0.0, total - bernoulli_spread(mean, m))
    cost = {j: (between + bernoulli_spread(mean, j)) * j for j in (2, 4, m, 16)}
    rel = ", ".join(f"m = {j} {c / cost[m]:.2f}" for j, c in sorted(cost.items()))
    return (f"; the positions' variance estimates spread {total:.4f} (mean {mean:.3f}), of which "
            f"{bernoulli_spread(mean, m):.4f} is the {m} draws' (Bernoulli at the mean), so the positions' own "
            f"{between:.4f}; continuations needed for the same width, relative to m = {m}: {rel}")


def observer_note(name: str, runs: Sequence[dict[str, Any]], m: int) -> str:
    """What the continuations from the mover's view cost, and whether the game's own
    ending agrees with one as often as two of them agree with each other (the mover's
    outcome: if the determinizer's posterior is the true one, the game's ending is one
    more draw from the same distribution)."""
    same = [0, 0]
    real = [0, 0]
    for r in runs:
        s = r["mover"]
        outs = [run[s] for run in r["away"]]
        for i, o in enumerate(outs):
            real[0] += o == r["real"][s]
            real[1] += 1
            for other in outs[i + 1:]:
                same[0] += o == other
                same[1] += 1
    cpu = sum(r["cpu"] for r in runs)
    count = sum(len(r["away"]) for r in runs)
    return (f"{name}, from the mover's view: {len(runs)} positions, m = {m} continuations each "
            f"(each from its own sampled world; the game's own ending not counted), "
            f"{sum(r['decisions'] for r in runs)} bot decisions, fallbacks {sum(r['fallbacks'] for r in runs)}; "
            f"{count} continuations' CPU {cpu:.0f} s ({cpu / max(1, count):.1f} s each); the mover's outcome in a "
            f"continuation agrees with another continuation's {same[0] / max(1, same[1]):.1%} ({same[1]} pairs), "
            f"with the game's ending {real[0] / max(1, real[1]):.1%} ({real[1]} pairs); the mover got away in "
            f"{sum(sum(run[r['mover']] for run in r['away']) for r in runs) / max(1, count):.1%} of the "
            f"continuations and {sum(r['real'][r['mover']] for r in runs) / max(1, len(runs)):.1%} of the games"
            + draws_per_position([variances(r, real=False)[r["mover"]] for r in runs], m))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", default="40", help="games per preset: a number, or PRESET=N,... per preset")
    ap.add_argument("--inside-games", type=int, default=20,
                    help="of these, the first N a preset are continued from one phase 2 decision too")
    ap.add_argument("--phase1-games", type=int, default=0,
                    help="of these, the first N a preset are continued from one phase 1 decision too")
    ap.add_argument("--phase1-k", type=int, default=1,
                    help="continuations from the phase 1 decision (the game's own ending is one more)")
    ap.add_argument("--observer-games", type=int, default=0,
                    help="of these, the first N a preset are continued from the mover's view at their phase 1 decision")
    ap.add_argument("--observer-m", type=int, default=8,
                    help="continuations from the mover's view, each from its own sampled world (2 at least)")
    ap.add_argument("--observer-only", action="store_true",
                    help="continue from the mover's view only (no start, inside or phase 1 positions)")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--beliefs", default="uniform", choices=["bots", *MODELS],
                    help="how the observer's worlds are weighed (bots: the bots' own policy)")
    ap.add_argument("--seed", type=int, default=7001)
    ap.add_argument("--k", type=int, default=2, help="continuations per position (the game's own ending is one more)")
    ap.add_argument("--weights", default=None)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--cached-only", action="store_true",
                    help="only the games whose chunk is in --cache (none played here)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--continue-only", default=None, metavar="PRESET=FIRST",
                    help="continue only that preset's games from FIRST on, print nothing (to share the work out)")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    counts = ({k: int(v) for k, v in (part.split("=") for part in a.games.split(","))} if "=" in a.games
              else {name: int(a.games) for name in a.rules.split(",")})
    names = [n for n in a.rules.split(",") if n in counts]
    rng = np.random.default_rng(a.seed)
    rng_phase1 = np.random.default_rng([a.seed, 1])  # its own, so the other cells' intervals do not move with it
    rng_view = np.random.default_rng([a.seed, 2])
    models = load_models(a.weights)
    cpu0 = time.process_time()
    records: dict[str, list[GameRecord]] = {}
    for name in names:
        count = counts[name]
        if a.cached_only and a.cache is not None:
            count = 0
            while count < counts[name] and (a.cache / f"{name}-{a.level}-s{a.seed}-p{a.players}-{count}.pkl").exists():
                count += CHUNK
            count = min(count, counts[name])
        if count:
            records[name] = games(preset(name), a.players, count, a.seed, a.level, a.cache)
    # Game by game across the presets, so a run cut short leaves every preset with about as many.
    firsts = {"observer": a.observer_games} if a.observer_only else {
        "start": sys.maxsize, "inside": a.inside_games, "phase1": a.phase1_games, "observer": a.observer_games}
    ks = {"start": a.k, "inside": a.k, "phase1": a.phase1_k, "observer": a.observer_m}
    beliefs = belief_model(a.beliefs, a.level)
    jobs = [(name, recs[i], where, a.level, a.seed, ks[where], a.cache, beliefs)
            for i in range(max(map(len, records.values()), default=0))
            for name, recs in records.items() if i < len(recs)
            for where, first in firsts.items() if i < first]
    if a.continue_only:
        only, first = a.continue_only.split("=")
        jobs = [j for j in jobs if j[0] == only and j[1].number >= int(first)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        done = dict(zip([(j[0], j[1].number, j[2]) for j in jobs], pool.map(_job, jobs), strict=True))
    wall = time.perf_counter() - t0
    if a.continue_only:
        return
    rows: list[str] = []
    notes: list[str] = []
    for name, recs in records.items():
        rules = preset(name)
        chances, game, ph, y = decisions(rules, recs, models)
        p = chances[model_for(rules, a.weights).name]
        gi = np.array([int(g) for g in game])  # game numbers are 0 .. len(recs) - 1
        n1, n2 = per_game(rules, recs)
        started = [g for g in range(len(recs)) if (name, g, "start") in done]
        v_start = np.array([variances(done[(name, g, "start")]) for g in started]).reshape(len(started), -1
                                                                                             if started else a.players)
        inside, v_inside = mover(done, name, len(recs), "inside")
        first, v_first = mover(done, name, len(recs), "phase1")
        viewed, v_view = mover(done, name, len(recs), "observer", real=False)  # the game's ending: not a draw
        cells = (
            (1, "upper", "start of phase 2", v_start * n1[started], n1[started], started),
            (2, "lower", "start of phase 2", v_start * n2[started], n2[started], started),
            (2, "upper", "one phase 2 decision a game", v_inside * n2[inside], n2[inside], inside),
            (1, "upper", "one phase 1 decision a game", v_first * n1[first], n1[first], first),
            (1, "upper", "one phase 1 decision a game, mover's view", v_view * n1[viewed], n1[viewed], viewed),
        )
        for phase, kind, where, num, den, keep in cells:
            sel = (ph == phase) & np.isin(gi, keep)
            if not sel.any() or not keep:
                continue
            local = {g: i for i, g in enumerate(keep)}
            s, lo, hi, ms, base = bootstrap(num.sum(axis=1), den.sum(axis=1), p[sel], y[sel],
                                            np.array([local[int(g)] for g in gi[sel]]),
                                            rng_view if where.endswith("view") else
                                            rng_phase1 if where.endswith("phase 1 decision a game") else rng)
            rows.append(f"| {name} | {phase} | {len(keep)} | {int(sel.sum())} | {base:.3f} | {ms:+.2f} |"
                        f" {where} | {kind} | {s:+.2f} ({lo:+.2f} to {hi:+.2f}) |")
        runs = [done[key] for key in done if key[0] == name and key[2] != "observer"]
        # Exchangeable or not: if the fresh bots play as the game's own did, a continuation
        # agrees with the game's ending as often as with another continuation.
        pairs = {"each other": [0, 0], "the game's ending": [0, 0]}
        for r in runs:
            for s in range(len(r["real"])):
                for i, run in enumerate(r["away"]):
                    pairs["the game's ending"][0] += run[s] == r["real"][s]
                    pairs["the game's ending"][1] += 1
                    for other in r["away"][i + 1:]:
                        pairs["each other"][0] += run[s] == other[s]
                        pairs["each other"][1] += 1
        known, total = every_hand_known(rules, recs)
        agree = ", ".join(f"with {k} {a / max(1, n):.1%} ({n} seat pairs)" for k, (a, n) in pairs.items())
        cpu = sum(r["cpu"] for r in runs)
        count = sum(len(r["away"]) for r in runs)
        if viewed:
            notes.append(observer_note(name, [done[(name, g, "observer")] for g in viewed], a.observer_m))
        if not runs:
            continue
        notes.append(f"{name}: {len(recs)} games ({len(inside)} continued from inside phase 2 too, {len(first)} "
                     f"from inside phase 1 with k = {a.phase1_k}), k = {a.k} "
                     f"continuations a position (+ the game's own ending); {len(runs)} positions, "
                     f"{sum(r['decisions'] for r in runs)} bot decisions, "
                     f"fallbacks {sum(r['fallbacks'] for r in runs)}; "
                     f"{count} continuations' CPU {cpu:.0f} s ({cpu / max(1, count):.1f} s each); "
                     f"a seat's outcome in a continuation agrees {agree}; the mover knows every hand after "
                     f"{known} of the {total} phase 2 decisions ({known / max(1, total):.0%})")
    print(f"{a.players} players, games of {a.level} bots, seed {a.seed}; skill = 1 - Brier/Brier(base rate), "
          f"95% bootstrap over games; the model's skill on the same decisions")
    print()
    print("| preset | phase | games | decisions | Brier (base) | model's skill | bound measured at | bound |"
          " any estimator's skill (95%) |")
    print("|---|---|---:|---:|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    for n in notes:
        print(f"- {n}")
    print(f"- this run: wall {wall:.0f} s for the continuations not in the cache; "
          f"this process's CPU {time.process_time() - cpu0:.0f} s (the workers' is in the continuations' CPU)")


if __name__ == "__main__":
    main()
