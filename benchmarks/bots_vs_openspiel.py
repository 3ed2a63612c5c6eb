"""The expert level against OpenSpiel's own ISMCTS bot on ``python_mattis``, at the
same CPU time per decision, on paired duplicate deals.

    nice -n 10 python benchmarks/bots_vs_openspiel.py --rules mattis --players 3 --deals 30 --seed 6151

Time is CPU time of this (single-threaded) process (``time.process_time``), not wall
clock, so a loaded machine gives both sides the same budget.  By default (``--ms``
not given) OpenSpiel's budget per decision is matched to our bot's: each decision
with more than one legal move gets our bot's mean CPU time per such decision so far
in this run (``--ms-start`` before our bot has made one); the closing lines print
both means, so the match can be checked.

Each deal (a deck shuffled from the seed and the deal number, fed to the game's 52
chance nodes) is played once per seat rotation with bots ``A,B,B`` (A = our bot, B =
OpenSpiel's ``ISMCTSBot``), so every bot sits in every seat on the same cards, as
``mattis tournament`` does.  OpenSpiel's bot is the stock ``ISMCTSBot`` (UCT, c = 2,
one random rollout per leaf, the recommended settings of its own example), searching
with the game's seeded ``resample_from_infostate`` (the project's one determinizer);
it runs simulations until its CPU budget (matched, or ``--ms`` milliseconds) is spent on
each decision with more than one legal move (at least two simulations: the first only
expands the root), so its think time per decision is a CPU time, not a simulation count.
Our bot gets only its seat's observation (``MattisBot``).  Printed: each bot's loss
rate with its 95% Wilson interval and its measured mean CPU time per decision (over
all decisions, and over those with more than one legal move), and the paired
difference (per deal, the loss
rate of A over its seats minus that of B) with its 95% interval.  ``--out FILE``
writes one row per seat of each game (the fields of ``mattis tournament``'s
results.csv).  Needs the ``rl`` extra (OpenSpiel).

OpenSpiel's search as a meaningful baseline: ``--evaluator easy`` gives ISMCTS the
project's ``easy`` bot as its rollout policy (:class:`mattis.rl.openspiel_eval.BotRolloutEvaluator`,
one playout per leaf), ``--evaluator value`` the value model; ``--sims N`` fixes its
simulations per decision (instead of a think time), and ``--openspiel-seats 1`` seats
one ISMCTS against ``players - 1`` copies of ``--bot``:

    nice -n 10 python benchmarks/bots_vs_openspiel.py --rules mattis --players 3 --bot easy \
        --openspiel-seats 1 --evaluator easy --sims 20 --deals 50 --seed 2026
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from mattis.lab.arena import FIELDS, SeatResult, paired, seat_bots, summarize
from mattis.play import derive_seed, make_bot
from mattis.rl import openspiel_game
from mattis.rl.openspiel_eval import BotRolloutEvaluator, ValueEvaluator
from mattis.rl.openspiel_game import MattisBot

OPENSPIEL = "openspiel-ismcts"


@dataclass
class Clock:
    """CPU seconds per decision with more than one legal move, per bot name: what the
    matched budget reads (our bot's mean so far) and what the closing lines print."""

    fixed: float | None  # --ms in seconds, or None: match our bot
    start: float  # the matched budget before our bot has made a counted decision
    ours: str
    spent: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.spent.setdefault(name, []).append(seconds)

    def mean(self, name: str) -> float | None:
        xs = self.spent.get(name, [])
        return sum(xs) / len(xs) if xs else None

    def budget(self) -> float:
        if self.fixed is not None:
            return self.fixed
        m = self.mean(self.ours)
        return self.start if m is None else m


def make_evaluator(game: Any, kind: str, seed: int, rs: Any) -> Any:
    """OpenSpiel's random rollouts, or the project's ``easy`` playouts or value model."""
    if kind == "random":
        return mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    if kind == "value":
        return ValueEvaluator(game.rules)
    return BotRolloutEvaluator(kind, n_rollouts=1, seed=seed)


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``ISMCTSBot`` with a CPU-time budget per decision instead of a
    simulation count (its own ``run_search`` loop, run until ``budget()`` seconds of
    process CPU time have passed), or with ``sims`` simulations per decision when given."""

    def __init__(self, game: Any, budget: Callable[[], float], seed: int, evaluator: str = "random",
                 sims: int | None = None) -> None:
        rs = np.random.RandomState(seed % 2**32)
        super().__init__(game, make_evaluator(game, evaluator, seed, rs), uct_c=2.0, max_simulations=1,
                         random_state=rs)
        self.budget = budget
        self.sims = sims
        self.simulations: list[int] = []
        worlds = random.Random(seed)
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, None, rng=worlds))

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.process_time() + self.budget()
        sims = 0
        while sims < 2 or (time.process_time() < deadline if self.sims is None else sims < self.sims):
            self.run_simulation(self.sample_root_state(state))
            sims += 1
        self.simulations.append(sims)
        return self.get_final_policy(state, self._root_node)  # type: ignore[no-any-return]


def play(game: Any, names: list[str], ours: str, deal: int, rotation: int, seed: int,
         clock: Clock, evaluator: str = "random", sims: int | None = None) -> tuple[list[SeatResult], list[int]]:
    n = len(names)
    deck = list(range(52))
    deal_seed = derive_seed(seed, "deal", deal)
    random.Random(deal_seed).shuffle(deck)
    bots: list[Any] = []
    for i, name in enumerate(names):
        s = derive_seed(seed, "bot", deal, rotation, i)
        assert s is not None
        bots.append(TimedISMCTSBot(game, clock.budget, s, evaluator, sims) if name == OPENSPIEL
                    else MattisBot(make_bot(ours, s)))
    state = game.new_initial_state()
    for c in deck:
        state.apply_action(c)
    decisions = [0] * n
    think = [0.0] * n
    while not state.is_terminal():
        p = state.current_player()
        options = len(state.legal_actions())
        t0 = time.process_time()
        action = bots[p].step(state)
        spent = time.process_time() - t0
        think[p] += spent
        if options > 1:
            clock.add(names[p], spent)
        decisions[p] += 1
        state.apply_action(action)
    eng = state.engine
    assert eng is not None
    end = eng.outcome
    assert end is not None
    rows = [SeatResult(deal, rotation, i, names[i], int(i in end.losers), end.place(i), decisions[i], think[i], "end")
            for i in range(n)]
    counts = [x for b in bots if isinstance(b, TimedISMCTSBot) for x in b.simulations]
    return rows, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--bot", default="expert", help="our bot or level (default expert)")
    ap.add_argument("--ms", type=float, default=None, help="OpenSpiel's CPU time per decision, milliseconds "
                    "(default: our bot's mean CPU time per decision with a choice, so far in the run)")
    ap.add_argument("--ms-start", type=float, default=100.0, help="the matched budget before our bot's first "
                    "decision with a choice, milliseconds")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="CSV of every seat of every game")
    ap.add_argument("--evaluator", default="random", help="ISMCTS's leaf evaluator: random (OpenSpiel's "
                    "random rollout), a bot name for its playouts (easy), or value (the value model)")
    ap.add_argument("--sims", type=int, default=None, help="ISMCTS simulations per decision (instead of --ms)")
    ap.add_argument("--openspiel-seats", type=int, default=None, help="seats OpenSpiel takes (default players - 1)")
    a = ap.parse_args()
    assert openspiel_game.SHORT_NAME == "python_mattis"
    game = pyspiel.load_game(f"python_mattis(rules={a.rules},players={a.players})")
    k = a.players - 1 if a.openspiel_seats is None else a.openspiel_seats
    if not 1 <= k < a.players:
        ap.error("--openspiel-seats must be from 1 to players - 1")
    lineup = [a.bot] * (a.players - k) + [OPENSPIEL] * k
    rows: list[SeatResult] = []
    sims: list[int] = []
    f = open(a.out, "w", newline="") if a.out else None  # noqa: SIM115
    w = csv.writer(f) if f else None
    if w:
        w.writerow(FIELDS)
    clock = Clock(None if a.ms is None else a.ms / 1000, a.ms_start / 1000, a.bot)
    start = time.perf_counter()
    cpu0 = time.process_time()
    for d in range(a.deals):
        for r in range(a.players):
            got, used = play(game, seat_bots(lineup, r), a.bot, d, r, a.seed, clock, a.evaluator, a.sims)
            rows += got
            sims += used
            if w and f:
                for x in got:
                    w.writerow([x.deal, x.rotation, x.seat, x.bot, x.lost, x.place, x.decisions,
                                f"{x.think_s:.6f}", x.end_reason, x.failed_samples])
                f.flush()
        p = paired(rows, a.bot, OPENSPIEL, a.players)
        print(f"deal {d + 1}/{a.deals}: paired {100 * p.diff:+.1f} points ({100 * p.low:+.1f} to {100 * p.high:+.1f})"
              f"  {time.perf_counter() - start:.0f} s", flush=True)
    if f:
        f.close()
    budget = (f"{a.sims} simulations" if a.sims is not None else f"{a.ms:g} ms CPU" if a.ms is not None
              else "our bot's mean CPU time")
    print(f"{a.rules}, {a.players} players, {a.deals} deals x {a.players} rotations, seed {a.seed}, "
          f"{lineup}, OpenSpiel ISMCTS ({a.evaluator} evaluator) {budget} per decision "
          f"(mean {sum(sims) / max(1, len(sims)):.1f} simulations, min {min(sims, default=0)})")
    for s in summarize(rows):
        print(f"  {s.bot:18s} games {s.games:5d}  lost {100 * s.loss_rate:5.1f}% "
              f"({100 * s.low:.1f}-{100 * s.high:.1f}%)  mean place {s.mean_place:.2f}"
              f"  CPU {s.think_ms:6.1f} ms/decision")
    for name, xs in sorted(clock.spent.items()):
        print(f"  {name:18s} CPU per decision with a choice: mean {1000 * sum(xs) / len(xs):.1f} ms, "
              f"max {1000 * max(xs):.1f} ms ({len(xs)} decisions)")
    print(f"CPU time {time.process_time() - cpu0:.0f} s in all")
    p = paired(rows, a.bot, OPENSPIEL, a.players)
    print(f"paired on {p.deals} deals: loss rate {a.bot} - {OPENSPIEL} = {100 * p.diff:+.1f} points, "
          f"95% interval {100 * p.low:+.1f} to {100 * p.high:+.1f}")


if __name__ == "__main__":
    main()
