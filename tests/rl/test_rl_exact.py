"""The small Mattis in OpenSpiel: ``python_mattis(rules=mini,players=2)`` passes
OpenSpiel's own checks, and the exported game tree (:mod:`mattis.rl.exact`) is the
engine's game: the same player, legal actions, returns and information-state
partition on thousands of random histories; exploitability has its known answers.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from mattis.core import preset  # noqa: E402
from mattis.rl.exact import GameTree, build_tree, engine_to_efg, random_history  # noqa: E402
from mattis.rl.openspiel_game import MattisGame  # noqa: E402
from tiers import scale  # noqa: E402

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
