r"""How well does the learned value model's chance match what happens?  (docs/analyze.md)

Held-out games (dealt from ``--seed``, which training did not use: it uses
``derive_seed(seed, "train", ...)`` of its own seed) are played by bots of one level
(``--level``).  At every decision of every seat, the seat's chance to avoid being the
loser right after the move it made is taken from the value model (the seat's
observation after the move; what the review shows as "after") and compared with
whether the seat was in the end a loser.  Per preset and phase (the phase of the
decision): the decisions, the Brier score of always guessing the cell's own base rate,
the model's Brier score and its skill ``1 - Brier / Brier_base`` with a 95% interval
(bootstrap over games, since a game's decisions share their outcome).

The old playout estimator (:func:`mattis.bots.evaluate.evaluate`, the review's
numbers at ``--budget``) is scored on every decision of the first
``--playout-games`` games, with the model on the same decisions beside it.

``--png FILE`` draws the reliability diagram (the model's chance in ten bands
against the share that got away, per preset and phase).

    python benchmarks/value_calibration.py --games 60 --level medium --playout-games 8 \
        --png docs/img/value_calibration.png
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
from mattis.bots.value import load_models, model_for
from mattis.core import preset
from mattis.play import Referee, derive_seed, make_bot

Row = tuple[int, int, float, int]
"""(game, phase, chance, got away)."""


def play(rules_name: str, players: int, games: int, seed: int, level: str, playout_games: int,
         budget: int, weights: str | None
         ) -> tuple[list[Row], list[tuple[int, int, float, float, int]], dict[str, list[float]]]:
    rules = preset(rules_name)
    model = model_for(rules, weights)
    models = load_models(weights)
    others: dict[str, list[float]] = {name: [] for name in models}
    rows: list[Row] = []
    paired: list[tuple[int, int, float, float, int]] = []
    for g in range(games):
        ref = Referee.new(rules, players, seed=derive_seed(seed, "deal", g), dealer=g % players)
        bots = {s: make_bot(level, derive_seed(seed, "bot", g, s)) for s in range(players)}
        mine: list[tuple[int, int, float]] = []
        old: list[tuple[int, int, float, float]] = []
        rng = random.Random(derive_seed(seed, "evaluate", g))
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            obs = ref.observation(seat)
            move = bots[seat].act(obs)
            phase = int(obs.phase)
            ev = None
            if g < playout_games and len(obs.legal) > 1:
                ev = evaluate(obs, Budget(samples=budget), rng).of(move).chance
            ref.apply(seat, move, events=False)
            seen = ref.observation(seat)
            after = model.chance(seen)
            for name, m in models.items():
                others[name].append(m.chance(seen))
            mine.append((seat, phase, after))
            if ev is not None:
                old.append((seat, phase, ev, after))
        out = ref.outcome
        assert out is not None
        for seat, phase, p in mine:
            rows.append((g, phase, p, int(seat not in out.losers)))
        for seat, phase, ev, p in old:
            paired.append((g, phase, ev, p, int(seat not in out.losers)))
    return rows, paired, others


def skill(p: np.ndarray, y: np.ndarray, game: np.ndarray, rng: np.random.Generator,
          boots: int = 400) -> tuple[float, float, float, float, float]:
    """(Brier, base Brier, skill, skill low, skill high): bootstrap over games."""
    def one(idx: np.ndarray) -> tuple[float, float]:
        b = float(((p[idx] - y[idx]) ** 2).mean())
        b0 = float(((y[idx] - y[idx].mean()) ** 2).mean())
        return b, b0

    b, b0 = one(np.arange(len(p)))
    games = np.unique(game)
    by = {int(g): np.flatnonzero(game == g) for g in games}
    sk: list[float] = []
    for _ in range(boots):
        pick = rng.choice(games, len(games))
        idx = np.concatenate([by[int(g)] for g in pick])
        bb, bb0 = one(idx)
        if bb0 > 0:
            sk.append(1 - bb / bb0)
    lo, hi = (float(np.percentile(sk, 2.5)), float(np.percentile(sk, 97.5))) if sk else (float("nan"),) * 2
    return b, b0, 1 - b / b0 if b0 else float("nan"), lo, hi


def draw(path: str, cells: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted({r for r, _ in cells})
    fig, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 3.4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, name in zip(axes, names, strict=True):
        ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--")
        for phase, colour in ((1, "#d95f02"), (2, "#1b9e77")):
            if (name, phase) not in cells:
                continue
            p, y = cells[(name, phase)]
            edges = np.linspace(0, 1, 11)
            band = np.clip(np.digitize(p, edges) - 1, 0, 9)
            xs, ys, ns = [], [], []
            for k in range(10):
                sel = band == k
                if sel.sum() >= 20:
                    xs.append(p[sel].mean())
                    ys.append(y[sel].mean())
                    ns.append(sel.sum())
            ax.plot(xs, ys, "o-", color=colour, label=f"phase {phase}", ms=3)
        ax.set_title(name)
        ax.set_xlabel("model's chance to get away")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("share that got away")
    axes[0].legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--level", default="medium")
    ap.add_argument("--seed", type=int, default=2027)
    ap.add_argument("--playout-games", type=int, default=0,
                    help="games whose decisions the old estimator scores")
    ap.add_argument("--budget", type=int, default=32, help="the old estimator's samples")
    ap.add_argument("--weights", default=None, help="a weights file (default: the shipped one)")
    ap.add_argument("--png", default=None)
    ap.add_argument("--dump", default=None, help="also write each preset's decisions to DIR/<preset>.json")
    ap.add_argument("--load", default=None, help="read the decisions from DIR/<preset>.json instead of playing")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    cells: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}
    transfer: dict[str, dict[str, float]] = {}
    print(f"{a.players} players, {a.games} held-out games per preset of {a.level} bots, seed {a.seed}; "
          f"every decision of every seat; skill = 1 - Brier/Brier(base rate), 95% bootstrap over games")
    print()
    print("| preset | phase | decisions | base rate | Brier (base) | Brier (model) | skill (95%) |"
          " playout: decisions | Brier (playouts) | skill (playouts) | skill (model, same) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in a.rules.split(","):
        t0 = time.perf_counter()
        if a.load:
            saved = json.loads((Path(a.load) / f"{name}.json").read_text())
            rows = [(int(r[0]), int(r[1]), float(r[2]), int(r[3])) for r in saved["rows"]]
            paired = [(int(r[0]), int(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in saved["paired"]]
            others = saved["others"]
        else:
            rows, paired, others = play(name, a.players, a.games, a.seed, a.level, a.playout_games, a.budget,
                                        a.weights)
        if a.dump:
            Path(a.dump).mkdir(parents=True, exist_ok=True)
            (Path(a.dump) / f"{name}.json").write_text(json.dumps({"rows": rows, "paired": paired, "others": others}))
        game = np.array([r[0] for r in rows])
        ph = np.array([r[1] for r in rows])
        p = np.array([r[2] for r in rows])
        y = np.array([r[3] for r in rows], dtype=float)
        for phase in (1, 2):
            sel = ph == phase
            if not sel.any():
                continue
            cells[(name, phase)] = (p[sel], y[sel])
            b, b0, s, lo, hi = skill(p[sel], y[sel], game[sel], rng)
            extra = " | | | |"
            pp = [r for r in paired if r[1] == phase]
            if pp:
                pg = np.array([r[0] for r in pp])
                pe = np.array([r[2] for r in pp])
                pm = np.array([r[3] for r in pp])
                py = np.array([r[4] for r in pp], dtype=float)
                eb, _, es, elo, ehi = skill(pe, py, pg, rng)
                _, _, ms, mlo, mhi = skill(pm, py, pg, rng)
                extra = (f" {len(pp)} | {eb:.3f} | {es:+.2f} ({elo:+.2f} to {ehi:+.2f}) |"
                         f" {ms:+.2f} ({mlo:+.2f} to {mhi:+.2f}) |")
            print(f"| {name} | {phase} | {int(sel.sum())} | {y[sel].mean():.2f} | {b0:.3f} | {b:.3f} |"
                  f" {s:+.2f} ({lo:+.2f} to {hi:+.2f}) |{extra}", flush=True)
        transfer[name] = {}
        for other, chances in others.items():
            po = np.array(chances)
            transfer[name][other] = 1 - float(((po - y) ** 2).mean()) / float(((y - y.mean()) ** 2).mean())
        print(f"<!-- {name}: {time.perf_counter() - t0:.0f} s -->", flush=True)
    if transfer:
        names = sorted({m for row in transfer.values() for m in row})
        print()
        print("Skill (both phases) of each preset's model on each preset's games: one model per preset, or one "
              "for all?")
        print()
        print("| games / model | " + " | ".join(names) + " |")
        print("|---" * (len(names) + 1) + "|")
        for name, row in transfer.items():
            print(f"| {name} | " + " | ".join(f"{row[m]:+.2f}" if m in row else "-" for m in names) + " |")
    if a.png:
        draw(a.png, cells)
        print(f"\nwrote {a.png}")


if __name__ == "__main__":
    main()
