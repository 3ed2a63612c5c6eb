"""Training the value model (:mod:`mattis.bots.value`) on self-play games, with NumPy.

    python -m mattis.lab.train --rules mattis,hund,blodmattis,skitgubbe --seed 1 --out value_weights.npz

**Data.**  Game ``g`` of a run is dealt with ``derive_seed(seed, "train", "deal", g)``
at a table size drawn from ``--players``; each seat is the ``medium`` bot with
probability ``--medium`` and ``easy`` otherwise, and the whole game plays a random
legal move instead with a probability drawn from ``--epsilon`` (noise, so the data
holds positions the bots would not reach).  At each move, with probability
``--sample``, every seat's observation is kept (its features, which seats may still
lose) with the game's outcome as the target: the loser's share (1, or 1/k for each
of k losers), relative to the observer.  Every tenth game (``g % 10 == 9``) is held
out: the validation score printed at the end is on those games only, and training
stops at the epoch where it was best.

**Training.**  Cross-entropy of the softmax over the live seats against the target,
Adam, mini-batches of 256, ``--epochs`` passes at most.  Seeded: the same command
gives the same weights on the same machine.  It prints the seed, the data size (games,
positions, rows), the time, the base rate's score and the model's.

``--out FILE``: the weights as ``<preset>/w1`` ... ``<preset>/b3``; a file that exists
keeps the other presets' models (the shipped file holds one per preset:
``src/mattis/bots/value_weights.npz``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.value import FEATURES, ValueModel, features, live_mask
from ..core import Rules, preset
from ..play import Referee, derive_seed, make_bot

__all__ = ["Data", "generate", "main", "score", "train"]

F32 = npt.NDArray[np.float32]


@dataclass
class Data:
    """Positions of one table size: inputs, live seats, targets, the game of each."""

    x: F32
    live: npt.NDArray[np.bool_]
    y: F32
    game: npt.NDArray[np.int64]

    @property
    def rows(self) -> int:
        return int(self.x.shape[0])


def generate(rules: Rules, games: int, seed: int, players: Sequence[int] = (3, 4, 3, 2), medium: float = 0.02,
             epsilons: Sequence[float] = (0.0, 0.05, 0.15), sample: float = 0.15,
             first: int = 0) -> dict[int, Data]:
    """Positions of ``games`` self-play games (numbered from ``first``), by table size."""
    buf: dict[int, tuple[list[list[list[float]]], list[list[bool]], list[list[float]], list[int]]] = {}
    sizes = [p for p in players if rules.min_players <= p <= rules.max_players]
    if not sizes:
        raise ValueError(f"{rules.name}: none of the table sizes {list(players)} is allowed")
    for g in range(first, first + games):
        n = sizes[g % len(sizes)]
        rng = random.Random(derive_seed(seed, "train", "noise", g))
        deal = derive_seed(seed, "train", "deal", g)
        ref = Referee.new(rules, n, seed=deal, dealer=g % n)
        bots = {s: make_bot("medium" if rng.random() < medium else "easy",
                            derive_seed(seed, "train", "bot", g, s)) for s in range(n)}
        eps = rng.choice(list(epsilons))
        kept: list[tuple[list[list[float]], list[bool], int]] = []
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            if rng.random() < sample:
                for s in range(n):
                    o = ref.observation(s)
                    kept.append((features(o), live_mask(o), s))
            obs = ref.observation(seat)
            move = rng.choice(obs.legal) if rng.random() < eps else bots[seat].act(obs)
            ref.apply(seat, move, events=False)
        outcome = ref.outcome
        assert outcome is not None
        losers = outcome.losers
        xs, ms, ys, gs = buf.setdefault(n, ([], [], [], []))
        for f, m, s in kept:
            xs.append(f)
            ms.append(m)
            ys.append([(1.0 / len(losers) if (s + k) % n in losers else 0.0) if losers else 1.0 / n
                       for k in range(n)])
            gs.append(g)
    return {n: Data(np.asarray(xs, np.float32).reshape(-1, n, FEATURES), np.asarray(ms, bool).reshape(-1, n),
                    np.asarray(ys, np.float32).reshape(-1, n), np.asarray(gs, np.int64))
            for n, (xs, ms, ys, gs) in buf.items()}


def _init(rng: np.random.Generator, hidden: tuple[int, int]) -> dict[str, F32]:
    h1, h2 = hidden

    def he(a: int, b: int) -> F32:
        out: F32 = (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
        return out

    return {"w1": he(FEATURES, h1), "b1": np.zeros(h1, np.float32), "w2": he(h1, h2),
            "b2": np.zeros(h2, np.float32), "w3": he(h2, 1) * np.float32(0.1), "b3": np.zeros(1, np.float32)}


def _loss_grad(p: dict[str, F32], x: F32, live: npt.NDArray[np.bool_], y: F32,
               l2: float) -> tuple[float, dict[str, F32]]:
    z1 = x @ p["w1"] + p["b1"]
    a1 = np.maximum(z1, 0.0)
    z2 = a1 @ p["w2"] + p["b2"]
    a2 = np.maximum(z2, 0.0)
    s = (a2 @ p["w3"])[..., 0] + p["b3"][0]
    s = np.where(live, s, -1e9)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s) * live
    q = e / e.sum(axis=-1, keepdims=True)
    b = x.shape[0]
    loss = float(-(y * np.log(np.maximum(q, 1e-9))).sum() / b)
    ds = ((q - y) * live / b).astype(np.float32)
    g: dict[str, F32] = {}
    g["w3"] = np.einsum("bsh,bs->h", a2, ds)[:, None]
    g["b3"] = np.asarray([ds.sum()], np.float32)
    da2 = ds[..., None] * p["w3"][:, 0]
    dz2 = da2 * (z2 > 0)
    g["w2"] = np.einsum("bsi,bsj->ij", a1, dz2)
    g["b2"] = dz2.sum(axis=(0, 1))
    da1 = dz2 @ p["w2"].T
    dz1 = da1 * (z1 > 0)
    g["w1"] = np.einsum("bsi,bsj->ij", x, dz1)
    g["b1"] = dz1.sum(axis=(0, 1))
    for k in ("w1", "w2", "w3"):
        g[k] = g[k] + l2 * p[k]
    return loss, g


def score(model: ValueModel, data: dict[int, Data]) -> tuple[float, float, int]:
    """(the model's mean cross-entropy, the observer's Brier score, rows) on ``data``."""
    ce = 0.0
    brier = 0.0
    rows = 0
    for d in data.values():
        if not d.rows:
            continue
        q = model.batch(d.x, d.live)
        ce += float(-(d.y * np.log(np.maximum(q, 1e-9))).sum())
        brier += float(((q[:, 0] - d.y[:, 0]) ** 2).sum())
        rows += d.rows
    return ce / max(1, rows), brier / max(1, rows), rows


def split(data: dict[int, Data], held: int = 10) -> tuple[dict[int, Data], dict[int, Data]]:
    """(training, held-out) by game: game ``g`` is held out when ``g % held == held - 1``."""
    tr: dict[int, Data] = {}
    va: dict[int, Data] = {}
    for n, d in data.items():
        h = d.game % held == held - 1
        tr[n] = Data(d.x[~h], d.live[~h], d.y[~h], d.game[~h])
        va[n] = Data(d.x[h], d.live[h], d.y[h], d.game[h])
    return tr, va


def train(data: dict[int, Data], seed: int, valid: dict[int, Data] | None = None, epochs: int = 5,
          hidden: tuple[int, int] = (32, 16), lr: float = 2e-3, l2: float = 1e-3, batch: int = 256,
          name: str = "", log: Any = None) -> ValueModel:
    """A model fitted to ``data`` (Adam); with ``valid``, the epoch best on it."""
    rng = np.random.default_rng(seed)
    p = _init(rng, hidden)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    best: tuple[float, dict[str, F32]] | None = None
    groups = [d for d in data.values() if d.rows]
    for epoch in range(epochs):
        order: list[tuple[Data, npt.NDArray[np.int64]]] = []
        for d in groups:
            idx = rng.permutation(d.rows)
            order.extend((d, idx[i:i + batch]) for i in range(0, d.rows, batch))
        rng.shuffle(order)
        total = 0.0
        for d, idx in order:
            loss, g = _loss_grad(p, d.x[idx], d.live[idx], d.y[idx], l2)
            total += loss * len(idx)
            step += 1
            rate = lr * min(1.0, 0.5 * (1 + np.cos(np.pi * epoch / epochs)) + 0.05)
            for k in p:
                m[k] = b1 * m[k] + (1 - b1) * g[k]
                v2[k] = b2 * v2[k] + (1 - b2) * g[k] * g[k]
                mh = m[k] / (1 - b1 ** step)
                vh = v2[k] / (1 - b2 ** step)
                p[k] = (p[k] - rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if valid is not None:
            ce, brier, _ = score(ValueModel.from_arrays(p, name=name), valid)
            if log is not None:
                print(f"  epoch {epoch + 1}: train {total / max(1, sum(d.rows for d in groups)):.4f}, "
                      f"held-out cross-entropy {ce:.4f}, observer's Brier {brier:.4f}", file=log, flush=True)
            if best is None or ce < best[0]:
                best = (ce, {k: v.copy() for k, v in p.items()})
    final = best[1] if best is not None else p
    return ValueModel.from_arrays(final, name=name)


def base_brier(data: dict[int, Data]) -> float:
    """The observer's Brier score of always guessing the data's own base rate."""
    ys = np.concatenate([d.y[:, 0] for d in data.values() if d.rows])
    return float(((ys - ys.mean()) ** 2).mean())


def save_data(data: dict[int, Data], path: Path) -> None:
    """Writes generated positions (to train again without playing again)."""
    arrays: dict[str, Any] = {}
    for n, d in data.items():
        arrays.update({f"{n}/x": d.x, f"{n}/live": d.live, f"{n}/y": d.y, f"{n}/game": d.game})
    np.savez(path, **arrays)


def load_data(path: Path) -> dict[int, Data]:
    """Positions written by :func:`save_data`."""
    with np.load(path) as z:
        sizes = sorted({int(k.split("/")[0]) for k in z.files})
        return {n: Data(z[f"{n}/x"], z[f"{n}/live"], z[f"{n}/y"], z[f"{n}/game"]) for n in sizes}


def save(models: dict[str, ValueModel], out: Path) -> None:
    """Writes ``models`` to ``out``, keeping the other presets' models already there."""
    arrays: dict[str, Any] = {}
    if out.exists():
        with np.load(out) as z:
            arrays.update({k: z[k] for k in z.files})
    for name, model in models.items():
        arrays.update(model.arrays(f"{name}/"))
    np.savez_compressed(out, **arrays)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mattis.lab.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="mattis", help="a preset, or several separated by commas")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--players", default="3,4,3,2", help="table sizes, taken in turn")
    ap.add_argument("--medium", type=float, default=0.02, help="each seat's chance to be the medium bot")
    ap.add_argument("--sample", type=float, default=0.15, help="share of moves whose positions are kept")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--hidden", default="32,16", help="the two hidden layers' sizes")
    ap.add_argument("--l2", type=float, default=1e-3, help="weight decay")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's step size")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the generated positions in this folder and reuse them for the same options")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    players = [int(p) for p in a.players.split(",")]
    models: dict[str, ValueModel] = {}
    for name in a.rules.split(","):
        rules = preset(name)
        t0 = time.perf_counter()
        c0 = time.process_time()
        cached = None
        if a.cache is not None:
            a.cache.mkdir(parents=True, exist_ok=True)
            cached = a.cache / (f"{name}-g{a.games}-s{a.seed}-p{a.players.replace(',', '_')}-m{a.medium}"
                                f"-x{a.sample}-f{FEATURES}.npz")
        source = "self-play"
        if cached is not None and cached.exists():
            data = load_data(cached)
            source = f"read from {cached}"
        else:
            data = generate(rules, a.games, a.seed, players, a.medium, sample=a.sample)
            if cached is not None:
                save_data(data, cached)
        t1 = time.perf_counter()
        tr, va = split(data)
        rows = sum(d.rows for d in data.values())
        print(f"{name}: seed {a.seed}, {a.games} games at {players} players ({a.games // 10} held out), "
              f"{rows} positions, {sum(d.rows * d.x.shape[1] for d in data.values())} seat rows; "
              f"{source} {t1 - t0:.0f} s", flush=True)
        h1, h2 = (int(v) for v in a.hidden.split(","))
        model = train(tr, a.seed, va, a.epochs, (h1, h2), a.lr, a.l2, name=name, log=None if a.quiet else sys.stdout)
        ce, brier, n = score(model, va)
        b0 = base_brier(va)
        print(f"{name}: held-out {n} positions: observer's Brier {brier:.4f} (base rate {b0:.4f}, "
              f"skill {1 - brier / b0:.3f}), cross-entropy {ce:.4f}; training {time.perf_counter() - t1:.0f} s, "
              f"{time.process_time() - c0:.0f} s CPU in all", flush=True)
        models[name] = model
    save(models, a.out)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
