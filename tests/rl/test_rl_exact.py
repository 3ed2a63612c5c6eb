"""The small Mattis in OpenSpiel: ``python_mattis(rules=mini,players=2)`` passes
OpenSpiel's own checks, and the exported game tree (:mod:`mattis.rl.exact`) is the
engine's game: the same player, legal actions, returns and information-state
partition on thousands of random histories; exploitability has its known answers.
"""

from __future__ import annotations

import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from mattis.core import PHASE2, preset  # noqa: E402
from mattis.rl.exact import GameTree, build_tree, engine_to_efg, phase2_value, random_history  # noqa: E402
from mattis.rl.openspiel_game import MattisGame  # noqa: E402
from tiers import HUNG, scale  # noqa: E402

SMALL = "deck_ranks:2;hand_size:1"
"""The smallest variant that keeps both phases: K A of hearts and spades, one card each,
a stock of two (a trick in phase 1, the trump, phase 2)."""


@pytest.fixture(scope="module")
def small() -> tuple[GameTree, MattisGame]:
    tree = build_tree(preset("mini", deck_ranks=2, hand_size=1))
    game: MattisGame = pyspiel.load_game(f"python_mattis(rules=mini,players=2,overrides={SMALL})")
    return tree, game


def test_mini_loads_and_passes_openspiels_random_sim_test() -> None:
    game = pyspiel.load_game("python_mattis(rules=mini,players=2)")
    assert game.num_players() == 2 and game.max_chance_outcomes() == 52
    s = game.new_initial_state()
    assert len(s.chance_outcomes()) == 6  # one chance node per card of the short deck
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)
    pyspiel.random_sim_test(game, num_sims=scale(20, 200), serialize=True, verbose=False)
    rank_major = pyspiel.load_game("python_mattis(rules=mini,players=2,card_order=rank_major)")
    pyspiel.random_sim_test(rank_major, num_sims=scale(5, 50), serialize=True, verbose=False)


def test_mini_deals_only_its_cards() -> None:
    game = pyspiel.load_game("python_mattis(rules=mini,players=2)")
    s = game.new_initial_state()
    with pytest.raises(Exception, match="cannot be dealt"):
        s.apply_action(0)  # 2C is not in the deck
    for _ in range(6):
        s.apply_action(s.chance_outcomes()[0][0])
    assert not s.is_chance_node()
    assert sorted(s.engine.deck or ()) == preset("mini").deck()


def test_the_tree_has_the_sizes_of_the_smallest_variant(small: tuple[GameTree, MattisGame]) -> None:
    tree, _ = small
    # 4!/(1! 1!) = 24 deals (one card a hand, the stock of two ordered), each as likely
    assert len(tree.deals) == 24 and all(p == pytest.approx(1 / 24) for _, p in tree.deals)
    assert (tree.nodes, tree.terminals, len(tree.infosets), len(tree.phase2_starts)) == (440, 120, 276, 12)


def test_the_export_is_the_engines_game(small: tuple[GameTree, MattisGame]) -> None:
    """Random ``python_mattis`` histories replayed on the exported game: the same
    player to act, legal actions and returns, and the same information-state
    partition (two histories share an information state in one iff in the other)."""
    tree, game = small
    efg = tree.game()
    names = {i: a for a, i in tree.action_ids.items()}
    rng = random.Random(5)
    ours: dict[str, str] = {}
    theirs: dict[str, str] = {}
    for _ in range(scale(2000, 10000)):
        s = random_history(game, rng)
        e = engine_to_efg(tree, efg, s)
        assert e.is_terminal() == s.is_terminal()
        if s.is_terminal():
            assert e.returns() == s.returns()
            continue
        p = s.current_player()
        assert e.current_player() == p
        assert sorted(names[a] for a in e.legal_actions()) == sorted(s.legal_actions())
        mine, efgs = s.information_state_string(p), e.information_state_string(p)
        assert ours.setdefault(mine, efgs) == efgs, "one engine information state, two in the export"
        assert theirs.setdefault(efgs, mine) == mine, "two engine information states merged in the export"
    assert len(ours) > 150  # most of the 276 information sets were met, many more than once


def test_exploitability_known_answers(small: tuple[GameTree, MattisGame]) -> None:
    tree, _ = small
    efg = tree.game()
    uniform = pyspiel.exploitability(efg, tree.uniform_policy())
    assert uniform == pytest.approx(19 / 144)  # exact: pinned
    # the same game with the winner's +1 (zero-sum): every payoff difference doubles
    zs = build_tree(tree.rules, zero_sum=True)
    assert pyspiel.exploitability(zs.game(), zs.uniform_policy()) == pytest.approx(2 * uniform)
    # CFR's average policy: exploitability falls with the iterations, towards 0
    cfr = pyspiel.CFRSolver(efg)
    curve = []
    done = 0
    for n in (1, 10, 100):
        while done < n:
            cfr.evaluate_and_update_policy()
            done += 1
        curve.append(pyspiel.exploitability(efg, cfr.average_policy()))
    assert min(curve) >= 0.0
    assert curve[0] > curve[1] > curve[2] and curve[2] < 0.002
    plus = pyspiel.CFRPlusSolver(efg)
    for _ in range(200):
        plus.evaluate_and_update_policy()
    assert 0 <= pyspiel.exploitability(efg, plus.average_policy()) < 1e-4


def test_a_bots_tabulated_policy(small: tuple[GameTree, MattisGame]) -> None:
    """``easy`` at every information set: one action each, the bot's own move there;
    no better than equilibrium, no worse than the worst pure policy."""
    tree, _ = small
    table = tree.bot_policy("easy")
    assert len(table) == len(tree.infosets)
    assert all(sorted(p for _, p in row)[-1] == 1.0 and sum(p for _, p in row) == 1.0 for row in table.values())
    expl = pyspiel.exploitability(tree.game(), table)
    assert 0.0 < expl <= 0.5
    assert tree.bot_policy("easy") == table  # deterministic


def test_phase2_values_of_an_equilibrium_match_backward_induction(small: tuple[GameTree, MattisGame]) -> None:
    """Phase 2 of the 2-player mini is perfect information: CFR+'s equilibrium value at
    every phase 2 start it reaches is the minimax value (here: computed by plain
    minimax over the engine)."""
    tree, _ = small
    efg = tree.game()
    plus = pyspiel.CFRPlusSolver(efg)
    for _ in range(200):
        plus.evaluate_and_update_policy()
    pol = plus.average_policy()
    from mattis.rl.exact import efg_info_string

    table = tree.policy_table(lambda info: dict(zip(info.actions, [
        p for _, p in sorted(pol.get_state_policy(efg_info_string(info)))], strict=True)))

    def minimax(s: object) -> float:
        from mattis.core import State

        assert isinstance(s, State)
        if s.is_over:
            assert s.outcome is not None
            return -1.0 if 0 in s.outcome.losers else 0.0
        vals = []
        for m in s.legal_moves():
            c = s.clone()
            c.apply(m)
            vals.append(minimax(c))
        return max(vals) if s.to_act == 0 else min(vals)

    exact = [minimax(s.clone()) for s in tree.phase2_starts.values()]
    rows = tree.phase2_values(table)
    assert len(rows) >= len(exact)
    reached = [(v, exact[k - 1]) for r, v, k in rows if r > 1e-3]
    assert reached and all(abs(v - x) < 1e-3 for v, x in reached)


ROOT = Path(__file__).resolve().parents[2]


def _documented_rows(marker: str, tmp_path: Path) -> tuple[list[str], list[str]]:
    """Run the documented ``small_mattis_cfr.py`` command that contains ``marker`` (its
    chart written under ``tmp_path``) and return the table rows it prints and the rows of
    the docs table that follows the command (up to its chart)."""
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    commands = [m for m in re.finditer(r"    nice -n 10 python benchmarks/small_mattis_cfr\.py(?:[^\n]*\\\n)*[^\n]*\n",
                                       text) if marker in m.group(0)]
    assert len(commands) == 1, marker
    found = commands[0]
    args = shlex.split(found.group(0).replace("\\\n", " "))[4:]
    assert args[0] == "benchmarks/small_mattis_cfr.py"
    if "--chart" in args:
        args[args.index("--chart") + 1] = str(tmp_path / "chart.png")
    done = subprocess.run([sys.executable, str(ROOT / args[0]), *args[1:]], capture_output=True, text=True,
                          check=True, timeout=HUNG, cwd=ROOT)
    after = text[found.end():]
    table = after[:after.index("![")]
    is_row = re.compile(r"^\| (?!policy \|)(?!---)").match
    printed = [line for line in done.stdout.splitlines() if is_row(line)]
    documented = [line for line in table.splitlines() if is_row(line)]
    return printed, documented


@pytest.mark.slow  # 10 s: CI checks the table in every run
def test_the_small_variants_documented_table_is_what_its_command_prints(tmp_path: Path) -> None:
    """docs/research.md's table for ``mini``, ``deck_ranks=2``, ``hand_size=1`` (every
    bot at five seeds, CFR and CFR+ to 1000 iterations) is what its command prints now
    (its expert rows had gone stale: 0.1000 and 0.0917 documented, 0.0250 and 0.0167
    printed)."""
    printed, documented = _documented_rows("--set hand_size=1 deck_ranks=2", tmp_path)
    assert len(documented) == 7 and printed == documented


@pytest.mark.slow
def test_the_phase1_games_documented_table_is_what_its_command_prints(tmp_path: Path) -> None:
    """The same for the phase 1 game of ``mini`` (about 20 CPU s)."""
    printed, documented = _documented_rows("--phase1", tmp_path)
    assert len(documented) == 7 and printed == documented


def test_the_phase1_game_ends_at_phase2_with_its_exact_value(small: tuple[GameTree, MattisGame]) -> None:
    """The phase 1 game of the smallest variant: the whole tree cut at its phase 2
    starts, each leaf paying the minimax value of phase 2; the game's equilibrium value
    is the whole game's (the phase 1 play and the leaves' values are what is left)."""
    full, _ = small
    cut = build_tree(preset("mini", deck_ranks=2, hand_size=1), phase1=True)
    assert len(cut.deals) == len(full.deals) and len(cut.phase2_starts) == len(full.phase2_starts)
    phase1_sets = {k for k, info in full.infosets.items() if info.example.phase != PHASE2}
    assert set(cut.infosets) == phase1_sets and cut.nodes < full.nodes
    # each leaf pays (v, -1 - v) with v the start's minimax value, -1 or 0
    memo: dict[Any, float] = {}
    values = {k: phase2_value(s.clone(), memo) for k, s in cut.phase2_starts.items()}
    assert set(values.values()) == {-1.0, 0.0}
    game = cut.game()
    assert game.num_players() == 2
    # equilibria of both games have the same value: solve both with CFR+
    vals = []
    for g in (full.game(), game):
        solver = pyspiel.CFRPlusSolver(g)
        for _ in range(300):
            solver.evaluate_and_update_policy()
        assert pyspiel.exploitability(g, solver.average_policy()) < 1e-4
        vals.append(pyspiel.expected_returns(g.new_initial_state(), solver.average_policy(), -1, True))
    assert vals[0] == pytest.approx(vals[1], abs=1e-3)
    assert vals[1][0] + vals[1][1] == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="two_player_discard"):
        build_tree(preset("mini", hand_size=1, two_player_discard=1), phase1=True)
