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

With ``--phase1``, the same on the phase 1 game (:func:`mattis.rl.exact.build_tree`
with ``phase1=True``: every phase 2 start is a terminal paying phase 2's exact value
under perfect play), and the game's value with hidden hands (CFR+'s average policy)
against its value with both hands shown (minimax per deal):

    nice -n 10 python benchmarks/small_mattis_cfr.py --phase1 --iterations 1000 --seeds 0,1,2,3,4 \
        --chart docs/img/small_mattis_phase1_cfr.png

``--efg PATH`` writes the exported game (Gambit EFG text, ``pyspiel.load_efg_game``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel

from mattis.core import Phase, State, parse_overrides, preset
from mattis.rl.exact import GameTree, build_tree, efg_info_string, phase2_value

BOTS = ("random", "easy", "medium", "expert@10", "expert@100")

LABELS = {"random": "uniform random", "easy": "`easy`", "medium": "`medium`",
          "expert@10": "`expert`, 10 ISMCTS iterations in phase 1", "expert@100": "`expert`, 100 iterations"}
"""How docs/research.md's tables name each bot (a test compares the printed rows with them)."""

DOC_MARKS = (1, 10, 100, 1000)
"""The iteration counts of the CFR rows the docs table shows (with the last run's)."""


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


def bot_row(name: str, got: list[float]) -> str:
    """A bot's row of the docs table: the mean over the seeds, and each seed's figure."""
    mean = sum(got) / len(got)
    if name == "random" or len(got) == 1:
        per = ""
    elif all(f"{x:.4f}" == f"{got[0]:.4f}" for x in got):
        per = "the same for every seed"
    else:
        per = ", ".join(f"{x:.4f}" for x in got)
    return f"| {LABELS.get(name, name)} | {mean:.4f} | {per} |"


def open_value(s: State, memo: dict[Any, float]) -> float:
    """Player 0's return under perfect play when both hands are shown from the deal on
    (after the deal nothing is left to chance: the stock's order is dealt)."""
    if s.is_over:
        out = s.outcome
        assert out is not None
        return -1.0 if 0 in out.losers else 0.0
    if s.phase != Phase.COLLECT:
        return phase2_value(s, memo)
    vals = []
    for mv in s.legal_moves():
        c = s.clone()
        c.apply(mv)
        vals.append(open_value(c, memo))
    return max(vals) if s.to_act == 0 else min(vals)


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
    ap.add_argument("--phase1", action="store_true", help="the phase 1 game: phase 2 starts are terminals "
                    "with phase 2's exact value (backward induction)")
    ap.add_argument("--efg", default="", help="write the exported game (Gambit EFG text) here")
    a = ap.parse_args()
    rules = preset(a.rules, **parse_overrides(a.set))
    t0 = time.process_time()
    tree = build_tree(rules, phase1=a.phase1)
    if a.efg:
        with open(a.efg, "w", encoding="utf-8") as f:
            f.write(tree.efg)
    game = tree.game()
    multi = sum(1 for i in tree.infosets.values() if len(i.actions) > 1)
    kind = " (phase 1 game)" if a.phase1 else ""
    print(f"rules {a.rules} {' '.join(a.set)}{kind}: deck {len(rules.deck())} cards, {len(tree.deals)} deals, "
          f"{tree.nodes} nodes, {tree.terminals} terminal, {len(tree.infosets)} information sets "
          f"({multi} with a choice), {len(tree.phase2_starts)} phase 2 starts; "
          f"exported and loaded in {time.process_time() - t0:.1f} CPU s")
    print(f"\n| policy | exploitability | per seed ({a.seeds}) |\n|---|---|---|")
    bots: dict[str, float] = {}
    seeds = [int(x) for x in a.seeds.split(",")]
    times: list[str] = []
    for name in [b for b in a.bots.split(",") if b]:
        t = time.process_time()
        got = [pyspiel.exploitability(game, policy_of(tree, name, seed)) for seed in seeds]
        bots[name] = sum(got) / len(got)
        print(bot_row(name, got))
        times.append(f"{name} {time.process_time() - t:.1f}")
    if a.iterations <= 0:
        print(f"\n(CPU s: {', '.join(times)})")
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
        times.append(f"{label} {time.process_time() - t:.1f}")
        shown = [(m, e) for m, e in curve if m in DOC_MARKS or m == a.iterations]
        print(f"| {label} after {' / '.join(str(m) for m, _ in shown)} iterations | "
              f"{' / '.join(f'{e:.3g}' for _, e in shown)} | |")
    print(f"\n(CPU s: {', '.join(times)})")
    for label, curve in curves.items():
        print(f"{label} curve: {', '.join(f'{m}: {e:.3g}' for m, e in curve)}")
    if a.phase1:
        value = pyspiel.expected_returns(game.new_initial_state(), solvers["CFR+"].average_policy(), -1, True)[0]
        memo2: dict[Any, float] = {}
        shown = sum(p * open_value(State.from_deck(rules, 2, order, 0), memo2) for order, p in tree.deals)
        print(f"phase 1 game: player 0's value {value:.4f} under CFR+'s average policy (hidden hands); "
              f"{shown:.4f} with both hands shown (minimax per deal): hidden information moves it by "
              f"{value - shown:+.4f} a game")
    if a.chart:
        chart(a.chart, curves, bots, " ".join([a.rules, *a.set]) + (", phase 1 game" if a.phase1 else ""))
    if a.phase1:
        return
    # phase 2 against backward induction: every phase 2 start node, under CFR+'s average policy
    policy = solvers["CFR+"].average_policy()
    table = tree.policy_table(lambda info: dict(zip(info.actions, [
        p for _, p in sorted(policy.get_state_policy(efg_info_string(info)))], strict=True)))
    memo: dict[Any, float] = {}
    exact = [phase2_value(s.clone(), memo) for s in tree.phase2_starts.values()]
    rows = tree.phase2_values(table)
    reach = sum(r for r, _, _ in rows)
    gap = sum(r * abs(v - exact[k - 1]) for r, v, k in rows) / reach
    worst = max((abs(v - exact[k - 1]) for r, v, k in rows if r > 1e-3), default=0.0)
    print(f"phase 2: {len(exact)} distinct starts, {len(rows)} start nodes; |CFR+ value - minimax| "
          f"reach-weighted mean {gap:.3g}, max {worst:.3g} over nodes reached with chance > 0.001")


def chart(path: str, curves: dict[str, list[tuple[int, float]]], bots: dict[str, float], title: str) -> None:
    """Exploitability against iterations (log-log), the bots as horizontal lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, curve in curves.items():
        ax.plot([m for m, _ in curve], [e for _, e in curve], marker="o", label=label)
    for i, (name, e) in enumerate(bots.items()):
        if e > 0:
            ax.axhline(e, linestyle="--", color=f"C{i + 2}", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (NashConv / 2, losses per game)")
    ax.set_title(f"{title}: exact exploitability")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"chart: {path}")


if __name__ == "__main__":
    main()
