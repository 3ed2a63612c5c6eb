"""Training the value model (:mod:`mattis.bots.value`) on self-play games, with NumPy.

    python -m mattis.lab.train --rules mattis,hund,blodmattis,skitgubbe --seed 1 --games 5000 --mix easy \
        --more 200=hard@0.3 --sample 0.05 --hidden 32,16 --l2 1e-2 --epochs 6 \
        --cache /tmp/mattis-games --out src/mattis/bots/value_weights.npz

(the command that made the shipped weights, docs/analyze.md's "Training").

**Games.**  Game ``g`` of a run is dealt with ``derive_seed(seed, "train", "deal", g)``
at the ``g``-th table size of ``--players`` (taken in turn); each seat is a bot drawn
from ``--mix`` (by default half the rules-of-thumb bot ``easy``, the rest the search
bots ``medium`` and ``hard``; ``learned`` plays on the shipped model, so a run with it
depends on the weights it started from), and each game plays a random legal move
instead of the bot's with a probability drawn from ``--epsilons`` (noise, so the data
holds positions the bots would not reach).  ``--more GAMES=MIX`` adds games with other
seats, numbered from 0 as well (the same deals, so a deal is held out in every part or
in none; ``GAMES=MIX@SHARE`` keeps ``SHARE`` of their moves' positions instead of
``--sample``'s, so a few games of the costly stronger bots give more rows).  The
games are recorded (deal and moves)
and, with ``--cache DIR``, kept there in chunks of 100, so another run with the same
options replays them instead of playing them again (and reads back the positions,
kept there too, while the games, the share and the features' code are the same).

**Positions.**  At each move of a game, with probability ``--sample``, every seat's
observation is kept (its features, which seats may still lose) with the game's
outcome as the target: the loser's share (1, or 1/k for each of k losers), relative
to the observer.  Every tenth game (``g % 10 == 9``) is held out: the validation score
printed at the end is on those games only, and training stops at the epoch where it
was best; the held-out skill is also printed per part and phase, so a part of the
stronger bots' games is scored on its own.  (The calibration benchmark,
``benchmarks/value_calibration.py``, plays its own games from seeds of its own.)

**Training.**  Cross-entropy of the softmax over the live seats against the target,
Adam, mini-batches of 256, ``--epochs`` passes at most.  Seeded: the same command
gives the same weights on the same machine.  It prints the seed, the data size (games,
positions, rows), the time, the base rate's score and the model's.

``--init FILE`` starts each preset's training from its model in that file (the
shipped weights, say) instead of random weights: the iteration on the stronger bots'
games is such a run, on their games only; the starting weights stay where no epoch
does better on the held-out games.

``--out FILE``: the weights as ``<preset>/w1`` ... ``<preset>/b3``; a file that exists
keeps the other presets' models (the shipped file holds one per preset).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import pickle
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import value as value_module
from ..bots.value import (
    FEATURES,
    MAX_SEATS,
    SEAT_FEATURES,
    ValueModel,
    features,
    live_mask,
    load_models,
    plain_suit_columns,
)
from ..core import Move, Rules, preset
from ..play import Referee, derive_seed, make_bot

__all__ = ["DEFAULT_MIX", "PHASE_COLUMN", "Data", "GameRecord", "cached_positions", "cached_self_play", "generate",
           "main", "merge", "parse_more", "phase_skill", "play_game", "positions", "replay", "score", "self_play",
           "split", "target", "train"]

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


@dataclass(frozen=True)
class GameRecord:
    """One played game, enough to replay it: the deal, the moves, the losers."""

    number: int
    """The game's number in its run (held out by :func:`split` when ``number % 10 == 9``)."""
    players: int
    deal: int | None
    dealer: int
    moves: tuple[Move, ...]
    losers: tuple[int, ...]
    seats: tuple[str, ...]
    """The bot at each seat."""
    epsilon: float
    """Its chance, at each move, to play a random legal move instead of the bot's."""


DEFAULT_MIX: tuple[tuple[str, float], ...] = (("easy", 0.5), ("medium", 0.3), ("hard", 0.2))
"""The bots at the seats of the training games, with their weights."""


def play_game(rules: Rules, number: int, players: int, deal: int | None, dealer: int, seats: Sequence[str],
              bot_seeds: Sequence[int | None], epsilon: float, rng: random.Random) -> GameRecord:
    """Plays one game (``seats[s]`` a bot name or level, or ``random``) and records it."""
    ref = Referee.new(rules, players, seed=deal, dealer=dealer)
    bots = {s: make_bot(seats[s], bot_seeds[s]) for s in range(players)}
    moves: list[Move] = []
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        obs = ref.observation(seat)
        move = rng.choice(obs.legal) if epsilon and rng.random() < epsilon else bots[seat].act(obs)
        ref.apply(seat, move, events=False)
        moves.append(move)
    outcome = ref.outcome
    assert outcome is not None
    return GameRecord(number, players, deal, dealer, tuple(moves), tuple(outcome.losers), tuple(seats), epsilon)


def self_play(rules: Rules, games: int, seed: int, players: Sequence[int] = (3, 4, 3, 2),
              mix: Sequence[tuple[str, float]] = DEFAULT_MIX, epsilons: Sequence[float] = (0.0, 0.03, 0.1),
              first: int = 0) -> list[GameRecord]:
    """Games ``first`` .. ``first + games - 1`` of a training run: game ``g`` is dealt with
    ``derive_seed(seed, "train", "deal", g)`` at the ``g``-th of the allowed table sizes
    in ``players`` (taken in turn), each seat a bot drawn from ``mix`` and the game's
    noise from ``epsilons``."""
    sizes = [p for p in players if rules.min_players <= p <= rules.max_players]
    if not sizes:
        raise ValueError(f"{rules.name}: none of the table sizes {list(players)} is allowed")
    names = [m for m, _ in mix]
    weights = [w for _, w in mix]
    out: list[GameRecord] = []
    for g in range(first, first + games):
        n = sizes[g % len(sizes)]
        rng = random.Random(derive_seed(seed, "train", "noise", g))
        seats = [rng.choices(names, weights)[0] for _ in range(n)]
        eps = rng.choice(list(epsilons))
        out.append(play_game(rules, g, n, derive_seed(seed, "train", "deal", g), g % n, seats,
                             [derive_seed(seed, "train", "bot", g, s) for s in range(n)], eps, rng))
    return out


def replay(rules: Rules, record: GameRecord) -> Iterator[tuple[Referee, int, Move]]:
    """The game of ``record`` move by move: (the referee before the move, the seat, the move)."""
    ref = Referee.new(rules, record.players, seed=record.deal, dealer=record.dealer)
    for move in record.moves:
        seat = ref.to_act
        assert seat is not None
        yield ref, seat, move
        ref.apply(seat, move, events=False)


def target(losers: Sequence[int], players: int, seat: int) -> list[float]:
    """Per relative seat (0 is ``seat``): its share of being the loser (1, 1/k of k losers)."""
    return [(1.0 / len(losers) if (seat + k) % players in losers else 0.0) if losers else 1.0 / players
            for k in range(players)]


def positions(rules: Rules, records: Sequence[GameRecord], seed: int, sample: float = 0.15) -> dict[int, Data]:
    """The training positions of ``records``: at each move, with probability ``sample``
    (drawn from ``derive_seed(seed, "train", "sample", game)``), every seat's
    observation (its features, the seats that may still lose) with the game's outcome."""
    buf: dict[int, tuple[list[F32], list[npt.NDArray[np.bool_]], list[F32], list[int]]] = {}
    for rec in records:
        n = rec.players
        rng = random.Random(derive_seed(seed, "train", "sample", rec.number))
        xs: list[list[list[float]]] = []
        ms: list[list[bool]] = []
        ys: list[list[float]] = []
        for ref, _, _ in replay(rules, rec):
            if rng.random() >= sample:
                continue
            for s in range(n):
                o = ref.observation(s)
                xs.append(features(o))
                ms.append(live_mask(o))
                ys.append(target(rec.losers, n, s))
        if not xs:
            continue
        bx, bm, by, bg = buf.setdefault(n, ([], [], [], []))
        bx.append(np.asarray(xs, np.float32))  # one game at a time: float32, not lists of floats
        bm.append(np.asarray(ms, bool))
        by.append(np.asarray(ys, np.float32))
        bg.extend([rec.number] * len(xs))
    return {n: Data(np.concatenate(bx), np.concatenate(bm), np.concatenate(by), np.asarray(bg, np.int64))
            for n, (bx, bm, by, bg) in buf.items()}


def cached_positions(rules: Rules, records: Sequence[GameRecord], seed: int, sample: float,
                     cache: Path | None) -> dict[int, Data]:
    """:func:`positions`, kept in the folder ``cache`` under a name made of the games
    (deal, moves), the seed, the share and the features' code, so a change to any of them
    computes them again."""
    if cache is None:
        return positions(rules, records, seed, sample)
    h = hashlib.sha256()
    h.update(repr((rules, seed, sample, FEATURES)).encode())
    h.update(Path(value_module.__file__ or "").read_bytes())
    for rec in records:
        h.update(repr((rec.number, rec.players, rec.deal, rec.dealer, rec.moves, rec.losers)).encode())
    path = cache / f"{rules.name}-positions-{h.hexdigest()[:20]}.npz"
    if path.exists():
        with np.load(path) as z:
            sizes = sorted({int(k.split("/")[0]) for k in z.files})
            return {n: Data(z[f"{n}/x"], z[f"{n}/live"], z[f"{n}/y"], z[f"{n}/game"]) for n in sizes}
    data = positions(rules, records, seed, sample)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **{f"{n}/{k}": getattr(d, k) for n, d in data.items() for k in ("x", "live", "y", "game")})
    tmp.replace(path)
    return data


def cached_games(path: Path | None, make: Callable[[], list[GameRecord]]) -> tuple[list[GameRecord], bool]:
    """``make()``'s games, kept in (and read again from) the pickle ``path``; whether read."""
    if path is not None and path.exists():
        with path.open("rb") as f:
            games: list[GameRecord] = pickle.load(f)
        return games, True
    games = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump(games, f)
        tmp.replace(path)
    return games, False


CHUNK = 100
"""Games per cache file (:func:`cached_self_play`)."""


def cached_self_play(rules: Rules, games: int, seed: int, players: Sequence[int], mix: Sequence[tuple[str, float]],
                     epsilons: Sequence[float], cache: Path | None, log: Any = None) -> list[GameRecord]:
    """:func:`self_play` of games 0 .. ``games - 1``, in chunks of :data:`CHUNK` games kept
    as pickles in the folder ``cache`` (a chunk already there is read, not played again)."""
    sig = (f"{rules.name}-s{seed}-p{'_'.join(map(str, players))}-m{'_'.join(f'{m}{w:g}' for m, w in mix)}"
           f"-e{'_'.join(f'{e:g}' for e in epsilons)}")
    out: list[GameRecord] = []
    read_back = 0
    for first in range(0, games, CHUNK):
        k = min(CHUNK, games - first)
        path = cache / f"{sig}-{first}-{k}.pkl" if cache is not None else None
        chunk, read = cached_games(path, partial(self_play, rules, k, seed, players, mix, epsilons, first))
        out.extend(chunk)
        read_back += len(chunk) if read else 0
    if log is not None:
        print(f"  {rules.name}: {games} games of {', '.join(f'{m}:{w:g}' for m, w in mix)} "
              f"({read_back} read from {cache}, {games - read_back} played)", file=log, flush=True)
    return out


def generate(rules: Rules, games: int, seed: int, players: Sequence[int] = (3, 4, 3, 2),
             mix: Sequence[tuple[str, float]] = DEFAULT_MIX, epsilons: Sequence[float] = (0.0, 0.03, 0.1),
             sample: float = 0.15, first: int = 0) -> dict[int, Data]:
    """Positions of ``games`` self-play games (numbered from ``first``), by table size."""
    return positions(rules, self_play(rules, games, seed, players, mix, epsilons, first), seed, sample)


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


def train(data: dict[int, Data], seed: int, valid: dict[int, Data] | None = None, epochs: int = 8,
          hidden: tuple[int, int] = (64, 32), lr: float = 2e-3, l2: float = 1e-4, batch: int = 256,
          name: str = "", log: Any = None, augment: bool = True, init: ValueModel | None = None) -> ValueModel:
    """A model fitted to ``data`` (Adam); with ``valid``, the epoch best on it.  With
    ``augment``, each mini-batch is shown under a random renaming of the plain suits.
    With ``init``, training starts from that model's weights (``hidden`` is then its
    own) and, with ``valid``, ends with them where no epoch did better on ``valid``."""
    rng = np.random.default_rng(seed)
    p = _init(rng, hidden) if init is None else {k: v.copy() for k, v in init.arrays().items()}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    best: tuple[float, dict[str, F32]] | None = None
    if init is not None and valid is not None:
        best = (score(init, valid)[0], {k: v.copy() for k, v in p.items()})
        if log is not None:
            print(f"  the starting weights: held-out cross-entropy {best[0]:.4f}", file=log, flush=True)
    groups = [d for d in data.values() if d.rows]
    renamings = [np.asarray(plain_suit_columns(o)) for o in itertools.permutations((1, 2, 3))]
    for epoch in range(epochs):
        order: list[tuple[Data, npt.NDArray[np.int64]]] = []
        for d in groups:
            idx = rng.permutation(d.rows)
            order.extend((d, idx[i:i + batch]) for i in range(0, d.rows, batch))
        rng.shuffle(order)
        total = 0.0
        for d, idx in order:
            # every batch under a random renaming of the plain suits (they play alike)
            cols = renamings[int(rng.integers(len(renamings)))] if augment else None
            xb = d.x[idx] if cols is None else d.x[idx][..., cols]
            loss, g = _loss_grad(p, xb, d.live[idx], d.y[idx], l2)
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


def merge(parts: Sequence[dict[int, Data]]) -> dict[int, Data]:
    """The positions of several parts together, by table size."""
    out: dict[int, Data] = {}
    for n in sorted({n for part in parts for n in part}):
        ds = [part[n] for part in parts if n in part and part[n].rows]
        if ds:
            out[n] = Data(np.concatenate([d.x for d in ds]), np.concatenate([d.live for d in ds]),
                          np.concatenate([d.y for d in ds]), np.concatenate([d.game for d in ds]))
    return out


PHASE_COLUMN = 2 * SEAT_FEATURES + 2 * MAX_SEATS
"""The input column where the global facts begin: its first three are the phase, one-hot."""


def phase_skill(model: ValueModel, data: dict[int, Data]) -> dict[int, tuple[float, int]]:
    """Per phase (1, 2): the observer's Brier skill against the base rate of that phase's
    positions in ``data`` (``1 - Brier / Brier(base)``) and the number of positions."""
    qs: list[F32] = []
    ys: list[F32] = []
    phases: list[npt.NDArray[np.int64]] = []
    for d in data.values():
        if d.rows:
            qs.append(model.batch(d.x, d.live)[:, 0])
            ys.append(d.y[:, 0])
            phases.append(np.argmax(d.x[:, 0, PHASE_COLUMN:PHASE_COLUMN + 3], axis=1).astype(np.int64) + 1)
    out: dict[int, tuple[float, int]] = {}
    if not qs:
        return out
    q, y, ph = np.concatenate(qs), np.concatenate(ys), np.concatenate(phases)
    for phase in (1, 2):
        sel = ph == phase
        if sel.sum() < 2:
            continue
        b0 = float(((y[sel] - y[sel].mean()) ** 2).mean())
        b = float(((q[sel] - y[sel]) ** 2).mean())
        out[phase] = (1 - b / b0 if b0 else float("nan"), int(sel.sum()))
    return out


def base_brier(data: dict[int, Data]) -> float:
    """The observer's Brier score of always guessing the data's own base rate."""
    ys = np.concatenate([d.y[:, 0] for d in data.values() if d.rows])
    return float(((ys - ys.mean()) ** 2).mean())


def save(models: dict[str, ValueModel], out: Path) -> None:
    """Writes ``models`` to ``out``, keeping the other presets' models already there."""
    arrays: dict[str, Any] = {}
    if out.exists():
        with np.load(out) as z:
            arrays.update({k: z[k] for k in z.files})
    for name, model in models.items():
        arrays.update(model.arrays(f"{name}/"))
    np.savez_compressed(out, **arrays)


def parse_more(text: str, sample: float) -> tuple[int, str, float]:
    """``"600=medium:0.5,hard:0.5@0.2"`` -> (600, "medium:0.5,hard:0.5", 0.2): games, their
    mix and the share of their moves whose positions are kept (``sample`` without ``@``)."""
    count, _, rest = text.partition("=")
    mix, _, share = rest.partition("@")
    return int(count), mix, float(share) if share else sample


def parse_mix(text: str) -> list[tuple[str, float]]:
    """``"easy:0.6,medium:0.3,hard:0.1"`` -> [("easy", 0.6), ...] (a bare name weighs 1)."""
    out: list[tuple[str, float]] = []
    for part in text.split(","):
        name, _, weight = part.partition(":")
        out.append((name.strip(), float(weight) if weight else 1.0))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mattis.lab.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="mattis", help="a preset, or several separated by commas")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--players", default="3,4,3,2", help="table sizes, taken in turn")
    ap.add_argument("--mix", default=",".join(f"{m}:{w:g}" for m, w in DEFAULT_MIX),
                    help="the bots at the seats and their weights (name:weight,...)")
    ap.add_argument("--more", action="append", default=[], metavar="GAMES=MIX",
                    help="more games with other seats, e.g. 1000=easy:0.7,medium:0.3 (numbered from 0 as well, so "
                         "a deal is held out in every part or in none); @SHARE at the end keeps that share of "
                         "their moves' positions instead of --sample's")
    ap.add_argument("--epsilons", default="0,0.03,0.1", help="each game's share of random moves, drawn from these")
    ap.add_argument("--sample", type=float, default=0.05, help="share of moves whose positions are kept")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--hidden", default="32,16", help="the two hidden layers' sizes")
    ap.add_argument("--l2", type=float, default=1e-2, help="weight decay")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's step size")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the played games in this folder (chunks of 100) and reuse them")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from the weights in this file (each preset's own model; its layer sizes)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    players = [int(p) for p in a.players.split(",")]
    mix = parse_mix(a.mix)
    epsilons = [float(e) for e in a.epsilons.split(",")]
    h1, h2 = (int(v) for v in a.hidden.split(","))
    models: dict[str, ValueModel] = {}
    log = None if a.quiet else sys.stdout
    for name in a.rules.split(","):
        rules = preset(name)
        t0 = time.perf_counter()
        c0 = time.process_time()
        games = cached_self_play(rules, a.games, a.seed, players, mix, epsilons, a.cache, log)
        parts: list[tuple[str, list[GameRecord], float]] = [(f"{a.games} games of {a.mix}", games, a.sample)]
        for part in a.more:
            count, more_mix, share = parse_more(part, a.sample)
            more = cached_self_play(rules, count, a.seed, players, parse_mix(more_mix), epsilons, a.cache, log)
            parts.append((f"{count} games of {more_mix} (sample {share:g})", more, share))
        datas = [cached_positions(rules, recs, a.seed, share, a.cache) for _, recs, share in parts]
        data = merge(datas)
        t1 = time.perf_counter()
        tr, va = split(data)
        rows = sum(d.rows for d in data.values())
        every = [g for _, recs, _ in parts for g in recs]
        print(f"{name}: seed {a.seed}, {len(every)} games at {players} players "
              f"({sum(1 for g in every if g.number % 10 == 9)} held out): {'; '.join(t for t, _, _ in parts)}; "
              f"noise {a.epsilons}; {rows} positions, "
              f"{sum(d.rows * d.x.shape[1] for d in data.values())} seat rows of {FEATURES} features; "
              f"games and positions {t1 - t0:.0f} s", flush=True)
        init = load_models(str(a.init))[name] if a.init is not None else None
        if init is not None:
            print(f"{name}: starting from the weights in {a.init}", flush=True)
        model = train(tr, a.seed, va, a.epochs, (h1, h2), a.lr, a.l2, name=name, log=log, init=init)
        ce, brier, n = score(model, va)
        b0 = base_brier(va)
        print(f"{name}: held-out {n} positions: observer's Brier {brier:.4f} (base rate {b0:.4f}, "
              f"skill {1 - brier / b0:.3f}), cross-entropy {ce:.4f}; training {time.perf_counter() - t1:.0f} s, "
              f"{time.process_time() - c0:.0f} s CPU in all", flush=True)
        for (text, _, _), d in zip(parts, datas, strict=True):
            held = split(d)[1]
            cells = [f"phase {ph}: {sk:+.3f} ({k} positions)" for ph, (sk, k) in phase_skill(model, held).items()]
            print(f"  held-out skill on the part {text}: {', '.join(cells)}", flush=True)
        models[name] = model
    save(models, a.out)
    print(f"wrote {a.out} ({a.out.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
