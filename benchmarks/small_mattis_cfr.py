"""Exact game theory on a small Mattis: exploitability of the project's bots and of
CFR/CFR+ after N iterations, on the whole game tree (OpenSpiel's C++ solvers on the
tree exported from the engine, :mod:`mattis.rl.exact`).

    nice -n 10 python benchmarks/small_mattis_cfr.py --set hand_size=1 deck_ranks=2 \
        --iterations 1000 --seeds 0,1,2,3,4 --chart docs/img/small_mattis_cfr_small.png
    nice -n 10 python benchmarks/small_mattis_cfr.py --iterations 200 --bots random,easy \
        --chart docs/img/small_mattis_cfr.png
    nice -n 10 python benchmarks/small_mattis_cfr.py --iterations 0 --bots medium,expert@10

Printed: the tree's size; the exploitability (NashConv / 2, in losses per game: the
chance of being the Mattis that a best responder adds) of uniform random play, of
``easy``, ``medium`` and ``expert`` at small budgets (each tabulated at every
information set through the seat's observation, a bot per set seeded from a seed of
``--seeds`` and the set's number; a sampling bot's figure is the mean over the
seeds), and of CFR's and CFR+'s average policies after N iterations;
then phase 2 checked against backward induction: with two players and no cards set
aside phase 2 is a game of perfect information, so each phase 2 start's minimax value
is exact, and the CFR+ policy's value there (reach-weighted) should come near it.
Everything is exact (no sampling): the same figures on every run, but the bots' own
draws (``--seeds``).  See docs/research.md, "A small Mattis for exact game theory".
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel

from mattis.core import State, parse_overrides, preset
from mattis.rl.exact import GameTree, build_tree, efg_info_string

BOTS = ("random", "easy", "medium", "expert@10", "expert@100")


def policy_of(tree: GameTree, name: str, seed: int) -> dict[str, list[tuple[int, float]]]:
    """The tabulated policy of a bot name (``expert@k``: the expert with ``k`` ISMCTS
    iterations in phase 1; ``random``: uniform over the legal moves)."""
    if name == "random":
        return tree.uniform_policy()
    if name.startswith("expert@"):
        from mattis.bots.search import IsmctsBot

        k = int(name.split("@")[1])
        return tree.bot_policy(lambda s: IsmctsBot(s, iterations=k), seed)
    return tree.bot_policy(name, seed)


def minimax(s: State, memo: dict[Any, float]) -> float:
    """Player 0's return (-1 if it is the Mattis, else 0) under perfect play from a
    phase 2 state (both hands known: perfect information)."""
    if s.is_over:
        out = s.outcome
        assert out is not None
        return -1.0 if 0 in out.losers else 0.0
    key = (s.to_act, s.trump, s.in_game, tuple(s.finished), tuple(s.hands), tuple((q, c) for q, c in s.table),
           s.repetitions(), s.p2_moves, tuple(sorted(s.rep.items())))
    v = memo.get(key)
    if v is not None:
        return v
    vals = []
    for mv in s.legal_moves():
        c = s.clone()
        c.apply(mv)
        vals.append(minimax(c, memo))
    v = max(vals) if s.to_act == 0 else min(vals)
    memo[key] = v
    return v


def policy_value(state: pyspiel.State, policy: pyspiel.Policy) -> float:
    """Player 0's expected return from an exported-game state when both play ``policy``."""
    if state.is_terminal():
        return float(state.returns()[0])
    return sum(p * policy_value(state.child(a), policy) for a, p in policy.get_state_policy(state) if p > 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="mini")
    ap.add_argument("--set", nargs="*", default=[], metavar="OPTION=VALUE", help="rule options (hand_size=1)")
    ap.add_argument("--iterations", type=int, default=1000, help="CFR and CFR+ iterations (0: the bots only)")
    ap.add_argument("--bots", default=",".join(BOTS))
    ap.add_argument("--seeds", default="0", help="the bots' seeds, comma-separated (a row per bot: the mean, "
                    "and each seed's figure when more than one)")
    ap.add_argument("--chart", default="", help="write a PNG chart of exploitability against iterations here")
    a = ap.parse_args()
    rules = preset(a.rules, **parse_overrides(a.set))
    t0 = time.process_time()
    tree = build_tree(rules)
    game = tree.game()
    multi = sum(1 for i in tree.infosets.values() if len(i.actions) > 1)
    print(f"rules {a.rules} {' '.join(a.set)}: deck {len(rules.deck())} cards, {len(tree.deals)} deals, "
          f"{tree.nodes} nodes, {tree.terminals} terminal, {len(tree.infosets)} information sets "
          f"({multi} with a choice), {len(tree.phase2_starts)} phase 2 starts; "
          f"exported and loaded in {time.process_time() - t0:.1f} CPU s")
    print("\n| policy | exploitability (NashConv/2) |\n|---|---|")
    bots: dict[str, float] = {}
    seeds = [int(x) for x in a.seeds.split(",")]
    for name in [b for b in a.bots.split(",") if b]:
        t = time.process_time()
        got = [pyspiel.exploitability(game, policy_of(tree, name, seed)) for seed in seeds]
        bots[name] = sum(got) / len(got)
        spread = f" (seeds {a.seeds}: {', '.join(f'{x:.4f}' for x in got)})" if len(got) > 1 else ""
        print(f"| {name} | {bots[name]:.4f}{spread} |  ({time.process_time() - t:.1f} CPU s)")
    if a.iterations <= 0:
        return
    marks = sorted({m for m in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if m <= a.iterations}
                   | {a.iterations})
    curves: dict[str, list[tuple[int, float]]] = {}
    solvers = {"CFR": pyspiel.CFRSolver(game), "CFR+": pyspiel.CFRPlusSolver(game)}
    for label, solver in solvers.items():
        t = time.process_time()
        done = 0
        curve: list[tuple[int, float]] = []
        for m in marks:
            while done < m:
                solver.evaluate_and_update_policy()
                done += 1
            curve.append((m, pyspiel.exploitability(game, solver.average_policy())))
        curves[label] = curve
        print(f"| {label} after {', '.join(str(m) for m, _ in curve)} iterations | "
              f"{', '.join(f'{e:.3g}' for _, e in curve)} |  ({time.process_time() - t:.1f} CPU s)")
    # phase 2 against backward induction: every phase 2 start node, under CFR+'s average policy
    policy = solvers["CFR+"].average_policy()
    table = tree.policy_table(lambda info: dict(zip(info.actions, [
        p for _, p in sorted(policy.get_state_policy(efg_info_string(info)))], strict=True)))
    memo: dict[Any, float] = {}
    exact = [minimax(s.clone(), memo) for s in tree.phase2_starts.values()]
    rows = tree.phase2_values(table)
    reach = sum(r for r, _, _ in rows)
    gap = sum(r * abs(v - exact[k - 1]) for r, v, k in rows) / reach
    worst = max((abs(v - exact[k - 1]) for r, v, k in rows if r > 1e-3), default=0.0)
    print(f"phase 2: {len(exact)} distinct starts, {len(rows)} start nodes; |CFR+ value - minimax| "
          f"reach-weighted mean {gap:.3g}, max {worst:.3g} over nodes reached with chance > 0.001")
    if a.chart:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4.2))
        for label, curve in curves.items():
            ax.plot([m for m, _ in curve], [e for _, e in curve], marker="o", label=label)
        for i, (name, e) in enumerate(bots.items()):
            ax.axhline(e, linestyle="--", color=f"C{i + 2}", label=name)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability (NashConv / 2, losses per game)")
        ax.set_title(f"{a.rules} {' '.join(a.set)}: exact exploitability")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(a.chart, dpi=110)
        print(f"chart: {a.chart}")


if __name__ == "__main__":
    main()
