r"""Does the value model order phase 1 moves right?  (docs/analyze.md)

The value model's phase 1 skill in ranking terms: on held-out seeded games of ``easy``
bots (:func:`review_calibration.bot_game`), ``--per-game`` phase 1 decisions a game
(drawn from the seed among the game's phase 1 decisions with two legal moves or more,
any seat).  At each, ``--worlds`` worlds are drawn from the mover's view in one call of
the one determinizer (:func:`mattis.core.determinize.sample_worlds`; ``--beliefs
easy``, the default, weighs them by the ``easy`` bots' policy,
:data:`mattis.bots.beliefs.EASY`, the true posterior in games of ``easy`` bots, with as
many particles as worlds; ``uniform`` draws every consistent deal alike), and every legal
move is continued from each world, the same worlds and bots' seeds for every move, by
fresh ``easy`` bots at every seat to the end (:func:`mattis.lab.bound.paired_continuations`):
each move's chance to get away, and each pair's paired difference with its standard error.

The model's chance for a move is the value model's chance for the mover's observation
right after it (``model_for(rules).chance(observation)``, the figure the review shows for
the luck), averaged over the same worlds (the observation after a move that ends a
trick depends on the cards drawn).  For every pair of moves the continuations put at
least ``--gap`` apart (and, in the second row, more than two standard errors apart),
does the model order them the same way (:func:`mattis.lab.bound.ordered_pairs`; a tie
is not right)?  The share with a 95% Wilson interval (the pairs of one decision are
not independent: the interval is optimistic) and a 95% bootstrap interval over the
games; the same for the best-against-worst pair of each decision only.  The goal
(docs/analyze.md): at least 80%.

    python benchmarks/value_ranking.py --games 60 --seed 7300 --out /tmp/mattis-ranking-7300.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from review_calibration import bot_game  # noqa: E402

from mattis.bots.beliefs import MODELS  # noqa: E402
from mattis.bots.value import model_for  # noqa: E402
from mattis.core import Observation, State, parse_record_move, preset  # noqa: E402
from mattis.core.determinize import sample_worlds  # noqa: E402
from mattis.core.observation import PHASE1, observe  # noqa: E402
from mattis.lab.arena import wilson  # noqa: E402
from mattis.lab.bound import extreme_pair, ordered_pairs, paired_continuations  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.play.agents import Agent  # noqa: E402
from mattis.play.seeds import derive_seed  # noqa: E402

STAGES_MOVES = 40
"""Replays per particle the sampler may spend: its default stages (10) times moves (4),
so with as many particles as worlds the cap on replays never bites."""


def easy_bot(seed: int) -> Agent:
    return make_bot("easy", seed)


def decisions(name: str, seed: int, game: int, per_game: int, level: str = "easy", salt: str = "ranking"
              ) -> list[tuple[Observation, State]]:
    """Game ``game`` of ``level`` bots (:func:`review_calibration.bot_game`): ``per_game`` of
    its phase 1 decisions with two legal moves or more (any seat), drawn from ``seed`` and
    ``salt``: the mover's view before each and the true position (the whole state)."""
    rec = bot_game(preset(name), 3, level, seed, game)
    state = rec.start()
    views: list[tuple[Observation, State]] = []
    for text in rec.moves:
        seat, move = parse_record_move(text)
        obs = state.observation(seat)
        if obs.phase == PHASE1 and len(obs.legal) > 1:
            views.append((obs, state.clone()))
        state.apply(move)
    pick = random.Random(derive_seed(seed, salt, name, game))
    return pick.sample(views, min(per_game, len(views)))


def chosen(name: str, seed: int, game: int, per_game: int) -> list[Observation]:
    """Game ``game``'s chosen phase 1 decisions (games of ``easy`` bots): the mover's view before each."""
    return [obs for obs, _ in decisions(name, seed, game, per_game)]


def one_decision(name: str, obs: Observation, n: int, beliefs: str, seed: int, key: tuple[int, int]
                 ) -> dict[str, Any]:
    """The continuations' outcomes and the model's chance for every legal move of one decision."""
    rules = preset(name)
    rng = random.Random(derive_seed(seed, "ranking-worlds", name, *key))
    c0 = time.process_time()
    model = MODELS[beliefs]
    drawn = sample_worlds(obs, rng, n, model, particles=n, max_replays=STAGES_MOVES * n) if model is not None \
        else sample_worlds(obs, rng, n)
    c1 = time.process_time()
    seeds = [[derive_seed(seed, "ranking-bots", name, *key, j, s) or 0 for s in range(3)] for j in range(n)]
    runs = paired_continuations(obs, drawn.states, easy_bot, seeds)
    c2 = time.process_time()
    value = model_for(rules)
    memo: dict[Observation, float] = {}
    chances: list[float] = []
    for move in obs.legal:
        total = 0.0
        for w in drawn.states:
            s = w.clone()
            s.apply(move)
            after = observe(s, obs.seat)
            if after not in memo:
                memo[after] = value.chance(after)
            total += memo[after]
        chances.append(total / n)
    c3 = time.process_time()
    return {"preset": name, "game": key[0], "index": key[1], "beliefs": beliefs, "worlds": n,
            "moves": [str(m) for m in obs.legal],
            "outcomes": [[run[obs.seat] for run in r.away] for r in runs], "model": chances,
            "fallbacks": sum(r.fallbacks for r in runs), "distinct": len({tuple(w.deck or ()) for w in drawn.states}),
            "cpu_worlds": c1 - c0, "cpu_continuations": c2 - c1, "cpu_model": c3 - c2}


@dataclass(frozen=True)
class Share:
    right: int
    pairs: int
    boot: tuple[float, float]


def share(per_game: Sequence[tuple[int, int]], rng: np.random.Generator, boots: int = 2000) -> Share:
    """The share ordered right over games' (right, pairs), with a bootstrap over games."""
    r = np.array([x for x, _ in per_game], float)
    p = np.array([y for _, y in per_game], float)
    k, n = int(r.sum()), int(p.sum())
    if not n:
        return Share(0, 0, (float("nan"), float("nan")))
    draws = []
    for _ in range(boots):
        pick = rng.integers(0, len(r), len(r))
        if p[pick].sum():
            draws.append(r[pick].sum() / p[pick].sum())
    return Share(k, n, (float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))))


def cell(s: Share) -> str:
    if not s.pairs:
        return "-"
    lo, hi = wilson(s.right, s.pairs)
    return (f"{s.right}/{s.pairs} = {s.right / s.pairs:.0%} (Wilson {lo:.0%}-{hi:.0%}; "
            f"bootstrap {s.boot[0]:.0%}-{s.boot[1]:.0%})")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--games", type=int, default=40, help="games a preset")
    ap.add_argument("--per-game", type=int, default=1, help="phase 1 decisions a game")
    ap.add_argument("--worlds", type=int, default=256)
    ap.add_argument("--beliefs", default="easy", choices=["easy", "uniform"])
    ap.add_argument("--gap", type=float, default=0.05, help="the least continuation difference of a scored pair")
    ap.add_argument("--seed", type=int, default=7300)
    ap.add_argument("--out", type=Path, default=None,
                    help="append each decision's figures here (JSON lines); those already there are read back")
    ap.add_argument("--saved-only", action="store_true", help="only the decisions already in --out (none measured)")
    a = ap.parse_args(argv)
    names = a.rules.split(",")
    rng = np.random.default_rng(a.seed)
    saved: dict[tuple[str, int, int], dict[str, Any]] = {}
    if a.out is not None and a.out.exists():
        for line in a.out.read_text().splitlines():
            d = json.loads(line)
            saved[(d["preset"], d["game"], d["index"])] = d
    done: list[dict[str, Any]] = []
    for g in range(a.games):  # game by game across the presets: a run cut short leaves each about as many
        for name in names:
            for i, obs in enumerate(chosen(name, a.seed, g, a.per_game)):
                if (name, g, i) in saved:
                    done.append(saved[(name, g, i)])
                    continue
                if a.saved_only:
                    continue
                d = one_decision(name, obs, a.worlds, a.beliefs, a.seed, (g, i))
                done.append(d)
                if a.out is not None:
                    with a.out.open("a") as f:
                        f.write(json.dumps(d) + "\n")
    print(f"3 players, games of easy bots, seed {a.seed}, {a.per_game} phase 1 decision(s) a game; "
          f"{a.worlds} worlds a decision ({a.beliefs}), every legal move continued from each by easy bots; "
          f"pairs at least {a.gap * 100:.0f} points apart; the model's order right (a tie is not)")
    print()
    print("| preset | decisions | legal moves (mean) | pairs | pairs >= gap | ordered right | "
          "pairs >= gap and > 2 SE | ordered right | best vs worst >= gap: right | best vs worst, > 2 SE: right |")
    print("|---|---:|---:|---:|---:|---|---:|---|---|---|")
    notes: list[str] = []
    for name in names:
        ds = [d for d in done if d["preset"] == name]
        if not ds:
            continue
        games = sorted({d["game"] for d in ds})
        cols: list[Share] = []
        for z in (0.0, 2.0):
            by_game = {g: [0, 0] for g in games}
            ext = {g: [0, 0] for g in games}
            for d in ds:
                got = ordered_pairs(d["model"], d["outcomes"], a.gap, z)
                by_game[d["game"]][0] += sum(p.right for p in got)
                by_game[d["game"]][1] += len(got)
                e = extreme_pair(d["model"], d["outcomes"], a.gap, z)
                if e is not None:
                    ext[d["game"]][0] += e.right
                    ext[d["game"]][1] += 1
            cols += [share([(v[0], v[1]) for v in by_game.values()], rng),
                     share([(v[0], v[1]) for v in ext.values()], rng)]
        pairs = sum(len(d["moves"]) * (len(d["moves"]) - 1) // 2 for d in ds)
        legal = sum(len(d["moves"]) for d in ds) / len(ds)
        print(f"| {name} | {len(ds)} | {legal:.1f} | {pairs} | {cols[0].pairs} | {cell(cols[0])} | {cols[2].pairs} | "
              f"{cell(cols[2])} | {cell(cols[1])} | {cell(cols[3])} |")
        cpu = [d["cpu_worlds"] + d["cpu_continuations"] + d["cpu_model"] for d in ds]
        worlds = float(np.mean([d["cpu_worlds"] for d in ds]))
        notes.append(f"{name}: CPU a decision {np.mean(cpu):.1f} s mean, {max(cpu):.1f} s max (worlds "
                     f"{worlds:.2f} s, {1000 * worlds / a.worlds:.1f} ms a world; "
                     f"continuations {np.mean([d['cpu_continuations'] for d in ds]):.2f} s; model "
                     f"{np.mean([d['cpu_model'] for d in ds]):.2f} s); distinct worlds of {a.worlds}: "
                     f"{np.mean([d['distinct'] for d in ds]):.0f} mean; fallbacks {sum(d['fallbacks'] for d in ds)}")
    print()
    for n in notes:
        print(f"- {n}")


if __name__ == "__main__":
    main()
