r"""How well does the learned value model's chance match what happens?  (docs/analyze.md)

Held-out games are dealt from ``--seed`` (``derive_seed(seed, "deal", g)``; training
deals from ``derive_seed(seed, "train", ...)`` of its own seed, so no deal is shared)
and played by bots of one level (``--level``, ``expert`` by default).  At every
decision of every seat, the seat's chance to avoid being the loser right after the
move it made is taken from the value model (the seat's observation after the move;
what the review shows as "after") and compared with whether the seat was in the end a
loser.  Per preset and phase (the phase of the decision): the games and decisions, the
Brier score of always guessing the cell's own base rate, the model's Brier score and
its skill ``1 - Brier / Brier_base`` with a 95% interval (bootstrap over games, since
a game's decisions share their outcome).

The old playout estimator (:func:`mattis.bots.evaluate.evaluate`, the review's
numbers at ``--budget`` samples: the chance after the move made) is scored on every
decision with a choice in the first ``--playout-games`` games, with the model on the
same decisions beside it.

How much of the outcome is still open, whatever the estimator: ``value_bound.py``
(continuations of these games by fresh expert bots from the true position; an upper
bound on any estimator's skill).

``--cache DIR`` keeps the played games (chunks of 10, as deal and moves) and the
playout estimates there, so scoring another model replays them instead of playing
again.  ``--png FILE`` draws the reliability diagram (the model's chance in ten bands
against the share that got away, per preset and phase).

    python benchmarks/value_calibration.py --games 30 --level expert --seed 7003 \
        --cache /tmp/mattis-calibration-7003 --png docs/img/value_calibration.png

(docs/analyze.md's table; the earlier one, seed 7001, was
``--games mattis=40,hund=40,blodmattis=30,skitgubbe=40 --seed 7001 --playout-games 2``.)

``--games mattis=30,hund=20,...`` gives each preset its own number of games.

``--baseline FILE`` compares two weights files on the same decisions (how a new model
was chosen, on dev games of a seed of their own): per preset and phase the
baseline's skill and the paired difference, ``--weights`` minus ``--baseline``, with a
95% bootstrap over games (the same resampled games for both).

    python benchmarks/value_calibration.py --games 10 --level expert --seed 7201 \
        --weights new.npz --baseline src/mattis/bots/value_weights.npz --cache /tmp/dev
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mattis.bots.evaluate import Budget, evaluate
from mattis.bots.value import ValueModel, features, live_mask, load_models, model_for
from mattis.core import Rules, preset
from mattis.lab.train import GameRecord, cached_games, play_game, replay
from mattis.play import Referee, derive_seed

CHUNK = 10
"""Games per cache file."""


def games(rules: Rules, players: int, count: int, seed: int, level: str, cache: Path | None) -> list[GameRecord]:
    """The held-out games ``0 .. count - 1``: every seat the ``level`` bot, no noise."""
    out: list[GameRecord] = []
    for first in range(0, count, CHUNK):
        path = cache / f"{rules.name}-{level}-s{seed}-p{players}-{first}.pkl" if cache is not None else None

        def make(first: int = first) -> list[GameRecord]:
            return [play_game(rules, g, players, derive_seed(seed, "deal", g), g % players, [level] * players,
                              [derive_seed(seed, "bot", g, s) for s in range(players)], 0.0,
                              random.Random(derive_seed(seed, "noise", g))) for g in range(first, first + CHUNK)]

        chunk, _ = cached_games(path, make)
        out.extend(chunk)
    return out[:count]


def playouts(rules: Rules, rec: GameRecord, budget: int, seed: int, cache: Path | None) -> list[float | None]:
    """Per decision of ``rec``: the playout estimator's chance after the move made
    (``None`` where the seat had one legal move)."""
    path = (cache / f"{rules.name}-s{seed}-p{rec.players}-g{rec.number}-playouts-b{budget}.json"
            if cache is not None else None)
    if path is not None and path.exists():
        saved: list[float | None] = json.loads(path.read_text())
        return saved
    rng = random.Random(derive_seed(seed, "evaluate", rec.number))
    out: list[float | None] = []
    for ref, seat, move in replay(rules, rec):
        obs = ref.observation(seat)
        out.append(evaluate(obs, Budget(samples=budget), rng).of(move).chance if len(obs.legal) > 1 else None)
    if path is not None:
        path.write_text(json.dumps(out))
    return out


def decisions(rules: Rules, records: Sequence[GameRecord], models: dict[str, ValueModel]
              ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """Every decision of ``records``: each model's chance after it, the game, the phase,
    whether the seat got away."""
    xs: list[list[list[float]]] = []
    lives: list[list[bool]] = []
    game: list[int] = []
    phase: list[int] = []
    away: list[int] = []
    exact: list[float | None] = []
    for rec in records:
        ref = Referee.new(rules, rec.players, seed=rec.deal, dealer=rec.dealer)
        for move in rec.moves:
            seat = ref.to_act
            assert seat is not None
            phase.append(int(ref.observation(seat).phase))
            ref.apply(seat, move, events=False)
            seen = ref.observation(seat)
            xs.append(features(seen))
            lives.append(live_mask(seen))
            exact.append(1.0 - (1.0 / len(seen.losers) if seat in seen.losers else 0.0) if seen.is_over else None)
            game.append(rec.number)
            away.append(int(seat not in rec.losers))
    return _chances(xs, lives, exact, models), np.array(game), np.array(phase), np.array(away, dtype=float)


def _chances(xs: list[list[list[float]]], lives: list[list[bool]], exact: list[float | None],
             models: dict[str, ValueModel]) -> dict[str, np.ndarray]:
    x = np.asarray(xs, np.float32)
    live = np.asarray(lives, bool)
    out: dict[str, np.ndarray] = {}
    for name, m in models.items():
        p = 1.0 - m.batch(x, live)[:, 0]
        out[name] = np.array([e if e is not None else float(v) for e, v in zip(exact, p, strict=True)])
    return out


def speed(rules: Rules, rec: GameRecord, model: ValueModel) -> tuple[float, float, int]:
    """Microseconds per call of one position at a time (features and network): the
    mean of ``model.losers`` and of :func:`features` alone, over every seat's
    observation along ``rec``."""
    seen = [ref.observation(s) for ref, _, _ in replay(rules, rec) for s in range(rec.players)]
    t0 = time.perf_counter()
    for obs in seen:
        features(obs)
    t1 = time.perf_counter()
    for obs in seen:
        model.losers(obs)
    t2 = time.perf_counter()
    return 1e6 * (t2 - t1) / len(seen), 1e6 * (t1 - t0) / len(seen), len(seen)


def skill(p: np.ndarray, y: np.ndarray, game: np.ndarray, rng: np.random.Generator,
          boots: int = 1000) -> tuple[float, float, float, float, float]:
    """(Brier, base Brier, skill, skill low, skill high): bootstrap over games."""
    def one(idx: np.ndarray) -> tuple[float, float]:
        b = float(((p[idx] - y[idx]) ** 2).mean())
        b0 = float(((y[idx] - y[idx].mean()) ** 2).mean())
        return b, b0

    b, b0 = one(np.arange(len(p)))
    uniq = np.unique(game)
    by = {int(g): np.flatnonzero(game == g) for g in uniq}
    sk: list[float] = []
    for _ in range(boots):
        pick = rng.choice(uniq, len(uniq))
        idx = np.concatenate([by[int(g)] for g in pick])
        bb, bb0 = one(idx)
        if bb0 > 0:
            sk.append(1 - bb / bb0)
    lo, hi = (float(np.percentile(sk, 2.5)), float(np.percentile(sk, 97.5))) if sk else (float("nan"),) * 2
    return b, b0, 1 - b / b0 if b0 else float("nan"), lo, hi


def skill_diff(p: np.ndarray, q: np.ndarray, y: np.ndarray, game: np.ndarray, rng: np.random.Generator,
               boots: int = 1000) -> tuple[float, float, float]:
    """(skill of ``p`` minus skill of ``q``, low, high): the same decisions, a 95%
    bootstrap over games (each resample scores both on the same games)."""
    def one(idx: np.ndarray) -> float:
        b0 = float(((y[idx] - y[idx].mean()) ** 2).mean())
        return (float(((q[idx] - y[idx]) ** 2).mean()) - float(((p[idx] - y[idx]) ** 2).mean())) / b0 if b0 else 0.0

    uniq = np.unique(game)
    by = {int(g): np.flatnonzero(game == g) for g in uniq}
    ds = [one(np.concatenate([by[int(g)] for g in rng.choice(uniq, len(uniq))])) for _ in range(boots)]
    return one(np.arange(len(p))), float(np.percentile(ds, 2.5)), float(np.percentile(ds, 97.5))


def draw(path: str, cells: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(r for r, _ in cells))
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 3.6), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, name in zip(axes, names, strict=True):
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--")
        for phase, colour in ((1, "#d95f02"), (2, "#1b9e77")):
            if (name, phase) not in cells:
                continue
            p, y = cells[(name, phase)]
            edges = np.linspace(0, 1, 11)
            band = np.clip(np.digitize(p, edges) - 1, 0, 9)
            xs, ys = [], []
            for k in range(10):
                sel = band == k
                if sel.sum() >= 20:
                    xs.append(p[sel].mean())
                    ys.append(y[sel].mean())
            ax.plot(xs, ys, "o-", color=colour, label=f"phase {phase}", ms=3)
        ax.set_title(name)
        ax.set_xlabel("model's chance to get away")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("share that got away")
    axes[0].legend(loc="upper left", fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", default="40", help="games per preset: a number, or PRESET=N,... per preset")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--seed", type=int, default=7001)
    ap.add_argument("--playout-games", type=int, default=0,
                    help="games whose decisions the old estimator scores")
    ap.add_argument("--budget", type=int, default=32, help="the old estimator's samples")
    ap.add_argument("--weights", default=None, help="a weights file (default: the shipped one)")
    ap.add_argument("--baseline", default=None,
                    help="a second weights file, compared with --weights on the same decisions")
    ap.add_argument("--cache", type=Path, default=None, help="keep played games and playout estimates here")
    ap.add_argument("--png", default=None)
    a = ap.parse_args(argv)
    if a.cache is not None:
        a.cache.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(a.seed)
    models = load_models(a.weights)
    baseline = load_models(a.baseline) if a.baseline is not None else None
    prng = np.random.default_rng([a.seed, 1])  # the comparison's own, so the table is the same without it
    counts = ({k: int(v) for k, v in (part.split("=") for part in a.games.split(","))} if "=" in a.games
              else {name: int(a.games) for name in a.rules.split(",")})
    cells: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
    transfer: dict[str, dict[str, float]] = {}
    print(f"{a.players} players, held-out games of {a.level} bots ({a.games} per preset), seed {a.seed}; "
          f"every decision of every seat; skill = 1 - Brier/Brier(base rate), 95% bootstrap over games")
    print()
    print("| preset | phase | games | decisions | base rate | Brier (base) | Brier (model) | skill (95%) |"
          " playouts: decisions | Brier (playouts) | skill (playouts) | skill (model, same) |")
    print("|---|---|---:|---:|---|---|---|---|---:|---|---|---|")
    paired: list[str] = []
    for name in a.rules.split(","):
        t0 = time.perf_counter()
        rules = preset(name)
        records = games(rules, a.players, counts[name], a.seed, a.level, a.cache)
        chances, game, ph, y = decisions(rules, records, models)
        us, us_features, calls = speed(rules, records[0], model_for(rules, a.weights))
        p = chances[model_for(rules, a.weights).name]
        base = None
        if baseline is not None:
            base = decisions(rules, records, {"baseline": model_for(rules, a.baseline)})[0]["baseline"]
        old = np.full(len(p), np.nan)
        at = 0
        for rec in records:
            if rec.number < a.playout_games:
                est = playouts(rules, rec, a.budget, a.seed, a.cache)
                old[at:at + len(est)] = [np.nan if e is None else e for e in est]
            at += len(rec.moves)
        for phase in (1, 2):
            sel = ph == phase
            if not sel.any():
                continue
            cells[(name, phase)] = (p[sel], y[sel])
            b, b0, s, lo, hi = skill(p[sel], y[sel], game[sel], rng)
            extra = " | | | |"
            pp = sel & ~np.isnan(old)
            if pp.any():
                eb, _, es, elo, ehi = skill(old[pp], y[pp], game[pp], rng)
                _, _, ms, mlo, mhi = skill(p[pp], y[pp], game[pp], rng)
                extra = (f" {int(pp.sum())} ({len(np.unique(game[pp]))} games) | {eb:.3f} |"
                         f" {es:+.2f} ({elo:+.2f} to {ehi:+.2f}) | {ms:+.2f} ({mlo:+.2f} to {mhi:+.2f}) |")
            print(f"| {name} | {phase} | {len(np.unique(game[sel]))} | {int(sel.sum())} | {y[sel].mean():.2f} |"
                  f" {b0:.3f} | {b:.3f} | {s:+.2f} ({lo:+.2f} to {hi:+.2f}) |{extra}", flush=True)
            if base is not None:
                _, _, bs, _, _ = skill(base[sel], y[sel], game[sel], prng, boots=0)
                d, dlo, dhi = skill_diff(p[sel], base[sel], y[sel], game[sel], prng)
                paired.append(f"| {name} | {phase} | {int(sel.sum())} | {bs:+.3f} | {s:+.3f} |"
                              f" {d:+.3f} ({dlo:+.3f} to {dhi:+.3f}) |")
        transfer[name] = {other: 1 - float(((po - y) ** 2).mean()) / float(((y - y.mean()) ** 2).mean())
                          for other, po in chances.items()}
        print(f"<!-- {name}: {time.perf_counter() - t0:.0f} s; one position at a time: {us:.0f} us a call "
              f"({us_features:.0f} us of it the features; {calls} calls) -->", flush=True)
    if paired:
        print()
        print(f"The same decisions, {a.weights} minus the baseline {a.baseline} (95% bootstrap over games):")
        print()
        print("| preset | phase | decisions | skill (baseline) | skill (weights) | weights - baseline (95%) |")
        print("|---|---|---:|---|---|---|")
        print("\n".join(paired), flush=True)
    names = sorted({m for row in transfer.values() for m in row})
    print()
    print("Skill (both phases) of each preset's model on each preset's games: one model per preset, or one for all?")
    print()
    print("| games / model | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for name, row in transfer.items():
        print(f"| {name} | " + " | ".join(f"{row[m]:+.2f}" if m in row else "-" for m in names) + " |")
    if a.png:
        per = ", ".join(f"{n} {counts[n]}" for n in a.rules.split(","))
        draw(a.png, cells, f"held-out games of {a.level} bots ({per}; {a.players} players, seed {a.seed})")
        print(f"\nwrote {a.png}")


if __name__ == "__main__":
    main()
