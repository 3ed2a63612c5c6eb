r"""Does the expert choose better phase 1 moves on weighted worlds?  (docs/bots.md)

A decision-regret benchmark on the true deal.  Positions: seeded games of ``--opponents``
bots at every seat (``easy``: the weighted ``easy`` model, :data:`mattis.bots.beliefs.EASY`,
is then the true posterior; ``medium``: it is only roughly right), ``--per-game`` phase 1
decisions a game drawn from the seed among those with two legal moves or more, any seat
(:func:`value_ranking.decisions`).

At each decision every legal move is continued from the TRUE position (the game's own
state, not a sampled world) by fresh bots at every seat, the same seeds for every move
(:func:`mattis.lab.bound.true_outcomes`), under two yardsticks:

* ``easy``: ``easy`` bots.  They are deterministic given their view, so a continuation
  from the true position is too: each move's true chance is 0 or 1, exactly (two
  continuations are played and must agree; the script stops if not), and the
  yardstick has no sampling error of its own.
* ``slip``: ``easy`` bots that play, with probability ``--slip`` at each decision, another
  legal move drawn at random (seeded): ``--k`` continuations a move, so a move's chance
  lies between 0 and 1 and carries a sampling error (shown).

The regret of a choice (:func:`mattis.lab.bound.regret`) is the best move's chance less
the chosen one's.  The choices: fresh experts (same seed) on uniform worlds (``ismcts``),
on worlds weighed by the softened heuristic (``ismcts-beliefs``, ``beliefs="human"``) and,
in games of ``easy`` bots, on worlds weighed by the true model
(``IsmctsBot(seed, beliefs="easy")``); and, the control, the uniform expert on another seed
(``reseeded``: what the seed alone changes).  Per preset and yardstick: the decisions, the share
where each other expert chooses otherwise than the uniform one, each one's mean regret
(in points of chance) with a 95% bootstrap interval over games, and the paired difference
each − uniform (negative: it loses less than the uniform one) with its interval; then the
yardstick's noise (the mean standard error of a move's chance; of the difference between
another expert's and the uniform one's choices where they differ) and the CPU of each expert's decision
(``time.process_time``, mean and max).  With several presets a last row pools them (the
bootstrap resamples the games of every preset).

``--experts`` names the experts compared instead, ``uniform`` first (the one the others are
compared with): any of the four above, or ``NAME=iterations:N/samples:M/leaf:value`` for
``IsmctsBot(seed, iterations=N, samples=M, leaf="value")`` on uniform worlds (any key may be
left out: the expert's default; ``leaf:value`` values each phase 1 iteration by the learned
value model at phase 2's start instead of a playout to the game's end; ``/reseed:1`` puts it
on the control's other seed, to see how often its choice moves with the seed alone), to ask
whether a larger phase 1 budget, or the value leaf, chooses better.

Every run also prints a controls table (how finely the yardsticks tell choices apart: the
uniform expert beside the rules of thumb's own move and a random legal move), and with
``--pairs A,A2,B,B2`` two experts each on two seeds compared, so that neither rests on one
seed's luck (how often each one's choice moves with the seed, and B − A with each one's
regret the mean of its two seeds).

    python benchmarks/beliefs_regret.py --games 20 --per-game 3 --k 32 --seed 7600 --opponents easy \
        --out /tmp/mattis-regret-7600-easy.jsonl
    python benchmarks/beliefs_regret.py --games 30 --per-game 3 --k 32 --seed 7601 --opponents easy \
        --experts uniform,reseeded,it300=iterations:300,it1000=iterations:1000 --out /tmp/mattis-iters-7601.jsonl
    python benchmarks/beliefs_regret.py --games 30 --per-game 3 --k 32 --seed 7601 --opponents easy \
        --experts uniform,reseeded,leaf=leaf:value,leafre=leaf:value/reseed:1 --out /tmp/mattis-leaf-7601.jsonl \
        --pairs uniform,reseeded,leaf,leafre
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from value_ranking import decisions  # noqa: E402

from mattis.bots.search import LEAVES, IsmctsBot  # noqa: E402
from mattis.core import Move, Observation, State  # noqa: E402
from mattis.lab.bound import paired_difference, regret, sample_variance, true_outcomes  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.play.agents import Agent  # noqa: E402
from mattis.play.seeds import derive_seed  # noqa: E402

LEVELS = {"easy": "easy", "medium": "medium"}
VARIANTS = ("uniform", "reseeded", "human", "easy")
"""The experts: ``ismcts`` (uniform worlds), ``ismcts`` on another seed (uniform worlds: how
much the choice and its regret move with the seed alone, the control), ``ismcts-beliefs``
(``human``), ``IsmctsBot(beliefs="easy")``."""
YARDSTICKS = ("easy", "slip")
BUDGET_KEYS = ("iterations", "samples", "reseed", "leaf")
"""What ``--experts`` may set on a ``NAME=iterations:N/samples:M/leaf:value/reseed:1`` expert."""
Budget = dict[str, int | str]


def parse_experts(text: str) -> dict[str, Budget]:
    """``--experts``: each expert's name and the budget it sets (empty for the four fixed ones)."""
    experts: dict[str, Budget] = {}
    for item in text.split(","):
        name, _, spec = item.strip().partition("=")
        if not spec and name not in VARIANTS:
            raise SystemExit(f"--experts: {name!r} is none of {', '.join(VARIANTS)} and sets no budget "
                             "(NAME=iterations:N)")
        if spec and name in VARIANTS:
            raise SystemExit(f"--experts: {name!r} is a fixed expert's name")
        budget: Budget = {}
        for part in filter(None, spec.split("/")):
            key, _, value = part.partition(":")
            if key == "leaf" and value in LEAVES:
                budget[key] = value
                continue
            if key not in BUDGET_KEYS or key == "leaf" or not value.isdigit() or int(value) < 1 \
                    or (key == "reseed" and value != "1"):
                raise SystemExit(f"--experts: {part!r} is not iterations:N, samples:N, leaf:{'|'.join(LEAVES)} "
                                 "or reseed:1")
            budget[key] = int(value)
        if name in experts:
            raise SystemExit(f"--experts: {name!r} twice")
        experts[name] = budget
    if next(iter(experts)) != "uniform":
        raise SystemExit("--experts: the first must be uniform (the others are compared with it)")
    return experts


class Slipping:
    """``easy`` but for a slip: with probability ``slip`` another legal move at random."""

    def __init__(self, seed: int, slip: float) -> None:
        self.bot = make_bot("easy", seed)
        self.rng = random.Random(seed)
        self.slip = slip
        self.name = f"easy-slip-{slip}"

    def act(self, obs: Observation) -> Move:
        move = self.bot.act(obs)
        if len(obs.legal) > 1 and self.rng.random() < self.slip:
            return self.rng.choice([m for m in obs.legal if m != move])
        return move


def expert(variant: str, seed: int, budget: Budget | None = None) -> Agent:
    if budget:
        kw = {k: v for k, v in budget.items() if k != "reseed"}  # iterations, samples, leaf
        return IsmctsBot(derive_seed(seed, "reseeded") or 0 if "reseed" in budget else seed, **kw)  # type: ignore[arg-type]
    if variant == "uniform":
        return make_bot("ismcts", seed)
    if variant == "reseeded":
        return make_bot("ismcts", derive_seed(seed, "reseeded") or 0)
    if variant == "human":
        return make_bot("ismcts-beliefs", seed)
    return IsmctsBot(seed, beliefs="easy")


def one_decision(name: str, obs: Observation, truth: State, variants: dict[str, Budget], k: int,
                 slip: float, seed: int, key: tuple[int, int]) -> dict[str, Any]:
    """Each expert's choice and CPU, and every legal move's outcomes under both yardsticks."""
    choice: dict[str, int] = {}
    cpu: dict[str, float] = {}
    bot_seed = derive_seed(seed, "regret-bot", name, *key) or 0
    for v, budget in variants.items():
        bot = expert(v, bot_seed, budget)
        c = time.process_time()
        move = bot.act(obs)
        cpu[v] = time.process_time() - c
        choice[v] = obs.legal.index(move)
        if getattr(bot, "failed_samples", 0):
            raise RuntimeError(f"{name} game {key[0]}: the {v} expert sampled no world")
    c = time.process_time()

    def seeds(tag: str, n: int) -> list[list[int]]:
        return [[derive_seed(seed, tag, name, *key, j, s) or 0 for s in range(3)] for j in range(n)]

    exact = true_outcomes(obs, truth, lambda s: make_bot("easy", s), seeds("regret-easy", 2))
    if any(len(set(o)) > 1 for o in exact):
        raise RuntimeError(f"{name} game {key[0]}: two continuations of easy bots from the truth differ")
    slipping = true_outcomes(obs, truth, lambda s: Slipping(s, slip), seeds("regret-slip", k))
    return {"preset": name, "game": key[0], "index": key[1], "seat": obs.seat, "moves": [str(m) for m in obs.legal],
            "choice": choice, "cpu": cpu, "outcomes": {"easy": [o[:1] for o in exact], "slip": slipping},
            "k": k, "slip": slip, "cpu_continuations": time.process_time() - c}


def boot(per_game: dict[tuple[str, int], list[float]], rng: np.random.Generator, boots: int = 2000
         ) -> tuple[float, float, float]:
    """The mean over all decisions and its 95% bootstrap interval over games."""
    games = list(per_game.values())
    mean = float(np.mean([x for g in games for x in g]))
    sums = np.array([sum(g) for g in games], float)
    counts = np.array([len(g) for g in games], float)
    draws = []
    for _ in range(boots):
        pick = rng.integers(0, len(games), len(games))
        if counts[pick].sum():
            draws.append(sums[pick].sum() / counts[pick].sum())
    return mean, float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))


def points(m: tuple[float, float, float]) -> str:
    return f"{100 * m[0]:+.1f} ({100 * m[1]:+.1f} to {100 * m[2]:+.1f})"


def plain(m: tuple[float, float, float]) -> str:
    return f"{100 * m[0]:.1f} ({100 * m[1]:.1f}-{100 * m[2]:.1f})"


def markdown_rows(done: list[dict[str, Any]], names: Sequence[str], head: Sequence[str]
                  ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Print a markdown table's head, then yield each row's preset and its decisions: each
    preset, then with several presets ``all``, pooled (a preset with none is left out)."""
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for name in [*names, "all"] if len(names) > 1 else names:
        ds = [d for d in done if name in (d["preset"], "all")]
        if ds:
            yield name, ds


def table(done: list[dict[str, Any]], names: Sequence[str], variants: Sequence[str], yard: str,
          rng: np.random.Generator) -> None:
    weighted = [v for v in variants if v != "uniform"]
    head = ["preset", "decisions", *(f"{v} chooses otherwise" for v in weighted), "regret uniform",
            *(f"regret {v}" for v in weighted), *(f"{v} − uniform" for v in weighted), "SE of a move's chance",
            "SE of the difference where they differ"]
    for name, ds in markdown_rows(done, names, head):
        games = sorted({(d["preset"], d["game"]) for d in ds})
        reg: dict[str, dict[tuple[str, int], list[float]]] = {v: {g: [] for g in games} for v in variants}
        diff: dict[str, dict[tuple[str, int], list[float]]] = {v: {g: [] for g in games} for v in weighted}
        se_move: list[float] = []
        se_diff: list[float] = []
        for d in ds:
            out = d["outcomes"][yard]
            game = (d["preset"], d["game"])
            for v in variants:
                reg[v][game].append(regret(out, d["choice"][v]))
            for v in weighted:
                diff[v][game].append(reg[v][game][-1] - reg["uniform"][game][-1])
            if len(out[0]) > 1:
                se_move += [(sample_variance(o) / len(o)) ** 0.5 for o in out]
                for v in weighted:
                    a, b = d["choice"][v], d["choice"]["uniform"]
                    if a != b:
                        se_diff.append(paired_difference(out[a], out[b])[1])
        other = [f"{sum(d['choice'][v] != d['choice']['uniform'] for d in ds) / len(ds):.0%}" for v in weighted]
        label = name if name != "all" else "all (pooled)"
        cells = [label, str(len(ds)), *other, *(plain(boot(reg[v], rng)) for v in variants),
                 *(points(boot(diff[v], rng)) for v in weighted),
                 f"{100 * float(np.mean(se_move)):.1f}" if se_move else "0 (exact)",
                 f"{100 * float(np.mean(se_diff)):.1f}" if se_diff else "0 (exact)"]
        print("| " + " | ".join(cells) + " |")


def controls(done: list[dict[str, Any]], names: Sequence[str], rng: np.random.Generator) -> None:
    """How well the yardsticks tell phase 1 choices apart: the regret of the uniform expert
    beside that of the rules of thumb's own move (what ``easy``, ``medium`` and ``hard``
    play in phase 1) and of a uniformly random legal move (the mean over the legal moves)."""
    print("Controls: regret of the uniform expert, of the rules of thumb's move and of a random legal move, "
          "mean (95% bootstrap interval over games)")
    print()
    head = ["preset", "decisions", *(f"{y}: {who}" for y in YARDSTICKS
                                     for who in ("uniform", "rules of thumb", "random move"))]
    for name, ds in markdown_rows(done, names, head):
        cells = [name if name != "all" else "all (pooled)", str(len(ds))]
        for y in YARDSTICKS:
            for who in ("uniform", "rules", "random"):
                per_game: dict[tuple[str, int], list[float]] = {}
                for d in ds:
                    out = d["outcomes"][y]
                    r = float(np.mean([regret(out, m) for m in range(len(out))])) if who == "random" else \
                        regret(out, d["rules_choice"] if who == "rules" else d["choice"]["uniform"])
                    per_game.setdefault((d["preset"], d["game"]), []).append(r)
                cells.append(plain(boot(per_game, rng)))
        print("| " + " | ".join(cells) + " |")


def pairs(done: list[dict[str, Any]], names: Sequence[str], spec: str, rng: np.random.Generator) -> None:
    """``--pairs A,A2,B,B2``: two experts, each on two seeds (A2 and B2 the ``reseed:1``
    copies of A and B): how often each one's choice moves with the seed alone, and B − A
    with each one's regret averaged over its two seeds (so neither side rests on one lucky
    seed), per preset and pooled; a uniformly random legal move's regret beside them."""
    a1, a2, b1, b2 = spec.split(",")
    missing = {a1, a2, b1, b2} - set(done[0]["choice"]) if done else set()
    if missing:
        raise SystemExit(f"--pairs: no expert named {', '.join(sorted(missing))} in this run")
    print(f"Pairs: A = {a1} (seeds {a1}, {a2}), B = {b1} (seeds {b1}, {b2}); each expert's regret the mean of its "
          "two seeds; mean (95% bootstrap interval over games)")
    print()
    head = ["preset", "decisions", "A moves with the seed", "B moves with the seed", "B − A (moves, points)",
            *(f"{y}: A / B / random move" for y in YARDSTICKS), *(f"{y}: B − A" for y in YARDSTICKS)]
    for name, ds in markdown_rows(done, names, head):

        def per_game(value: Callable[[dict[str, Any]], float], ds: list[dict[str, Any]] = ds
                     ) -> dict[tuple[str, int], list[float]]:
            out: dict[tuple[str, int], list[float]] = {}
            for d in ds:
                out.setdefault((d["preset"], d["game"]), []).append(float(value(d)))
            return out

        moves_a = per_game(lambda d: d["choice"][a1] != d["choice"][a2])
        moves_b = per_game(lambda d: d["choice"][b1] != d["choice"][b2])
        moved = per_game(lambda d: (d["choice"][b1] != d["choice"][b2]) - (d["choice"][a1] != d["choice"][a2]))
        cells = [name if name != "all" else "all (pooled)", str(len(ds)), plain(boot(moves_a, rng)),
                 plain(boot(moves_b, rng)), points(boot(moved, rng))]
        diffs = []
        for y in YARDSTICKS:
            def two(d: dict[str, Any], x: str, x2: str, y: str = y) -> float:
                return (regret(d["outcomes"][y], d["choice"][x]) + regret(d["outcomes"][y], d["choice"][x2])) / 2

            def anyone(d: dict[str, Any], y: str = y) -> float:
                out = d["outcomes"][y]
                return float(np.mean([regret(out, m) for m in range(len(out))]))

            ra, rb, rr = (boot(per_game(f), rng)[0] for f in (lambda d: two(d, a1, a2), lambda d: two(d, b1, b2),
                                                               anyone))
            cells.append(f"{100 * ra:.1f} / {100 * rb:.1f} / {100 * rr:.1f}")
            diffs.append(points(boot(per_game(lambda d: two(d, b1, b2) - two(d, a1, a2)), rng)))
        print("| " + " | ".join(cells + diffs) + " |")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mattis,hund,blodmattis,skitgubbe")
    ap.add_argument("--games", type=int, default=20, help="games a preset")
    ap.add_argument("--per-game", type=int, default=3, help="phase 1 decisions a game")
    ap.add_argument("--k", type=int, default=32, help="continuations a move under the slipping yardstick")
    ap.add_argument("--slip", type=float, default=0.1, help="the slipping yardstick's share of random moves")
    ap.add_argument("--seed", type=int, default=7600)
    ap.add_argument("--opponents", default="easy", choices=sorted(LEVELS))
    ap.add_argument("--out", type=Path, default=None,
                    help="append each decision's figures here (JSON lines); those already there are read back")
    ap.add_argument("--experts", default=None,
                    help="the experts compared, comma-separated, uniform first: reseeded, human, easy, or "
                         "NAME=iterations:N/samples:M/leaf:value[/reseed:1] (IsmctsBot on uniform worlds with that "
                         "budget, its phase 1 iterations valued by the value model with leaf:value, on the control's "
                         "other seed with reseed:1); default: "
                         "uniform,reseeded,human and, in games of easy bots, easy")
    ap.add_argument("--saved-only", action="store_true", help="only the decisions already in --out (none measured)")
    ap.add_argument("--pairs", default=None, metavar="A,A2,B,B2",
                    help="also compare two experts each on two seeds (A2, B2: their reseed:1 copies): how often "
                         "each choice moves with the seed, and B − A averaged over each one's two seeds")
    a = ap.parse_args(argv)
    names = a.rules.split(",")
    variants = parse_experts(a.experts or ",".join(VARIANTS if a.opponents == "easy" else VARIANTS[:3]))
    saved: dict[tuple[str, int, int], dict[str, Any]] = {}
    if a.out is not None and a.out.exists():
        for line in a.out.read_text().splitlines():
            d = json.loads(line)
            saved[(d["preset"], d["game"], d["index"])] = d
            if set(variants) - set(d["choice"]):
                raise SystemExit(f"{a.out} lacks {', '.join(sorted(set(variants) - set(d['choice'])))}: another file")
    done: list[dict[str, Any]] = []
    for g in range(a.games):  # game by game across the presets: a run cut short leaves each about as many
        for name in names:
            if a.saved_only and not any(key[:2] == (name, g) for key in saved):
                continue
            for i, (obs, truth) in enumerate(decisions(name, a.seed, g, a.per_game, LEVELS[a.opponents], "regret")):
                if (name, g, i) in saved:
                    d = saved[(name, g, i)]
                elif a.saved_only:
                    continue
                else:
                    d = one_decision(name, obs, truth, variants, a.k, a.slip, a.seed, (g, i))
                    if a.out is not None:
                        with a.out.open("a") as f:
                            f.write(json.dumps(d) + "\n")
                # the control: the rules of thumb's own move (deterministic; not saved, worked out again)
                d["rules_choice"] = obs.legal.index(make_bot("easy", 0).act(obs))
                done.append(d)
    rng = np.random.default_rng(a.seed)
    print(f"3 players, games of {a.opponents} bots, seed {a.seed}, {a.per_game} phase 1 decision(s) a game (two "
          "legal moves or more); every legal move continued from the true position, paired; regret in points of "
          "chance (the best move's chance less the chosen one's), mean (95% bootstrap interval over games)")
    for yard in YARDSTICKS:
        print()
        print("Yardstick: easy bots (deterministic: each move's chance is 0 or 1, exactly)" if yard == "easy" else
              f"Yardstick: easy bots with a {a.slip:.0%} slip, {a.k} continuations a move")
        print()
        table(done, names, list(variants), yard, rng)
    print()
    controls(done, names, np.random.default_rng(a.seed))  # each table its own draws: one added moves no other
    print()
    if a.pairs:
        pairs(done, names, a.pairs, np.random.default_rng(a.seed))
        print()
    for name in names:
        ds = [d for d in done if d["preset"] == name]
        if not ds:
            continue
        cpu = ", ".join(f"{v} {np.mean([d['cpu'][v] for d in ds]):.2f} s mean, {max(d['cpu'][v] for d in ds):.2f} s max"
                        for v in variants)
        legal = np.mean([len(d["moves"]) for d in ds])
        runs = np.mean([d["cpu_continuations"] for d in ds])
        print(f"- {name}: CPU an expert's decision: {cpu}; continuations {runs:.2f} s a decision; "
              f"legal moves {legal:.1f} mean")


if __name__ == "__main__":
    main()
