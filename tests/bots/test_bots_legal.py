"""Every bot plays legal moves, and the solver bot the engine's best move, under every
value of every rule option.

The bots' rule knowledge comes from the engine (:mod:`mattis.core.legal`), the
determinizer and the solver.  Choosing from ``obs.legal`` cannot fail for a solver
that ignores a rule, so the judgement is asserted too: on small phase 2 positions the
move the solver picks must have the best value that plain minimax over the engine's own
moves gives (``test_solver_picks_the_best_move``).
The rule sets are generated from the option table (``OPTIONS``), so a new option value
is covered without editing this file: every preset, every value of every option, and a
few random mixes of options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mattis.bots.conformance import tiny_position
from mattis.bots.heuristic import HeuristicBot
from mattis.bots.search import IsmctsBot, PimcBot, RolloutBot, SolverBot, UctBot
from mattis.bots.solver import Solver, brute_force, two_player_exact, two_player_values
from mattis.core import HOUSE_OPTIONS, OPTIONS, PRESETS, Move, Observation, Rules, RulesError, preset
from mattis.play import Agent, Referee, play_until
from tiers import scale


class Checked:
    """Wraps a bot: every move it chooses must be in its observation's legal list."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def act(self, obs: Observation) -> Move:
        move = self.bot.act(obs)
        assert move in obs.legal, f"{self.name} chose {move} under {obs.rules}; legal: {obs.legal}"
        self.decisions += 1
        return move


def cheap_bots(seed: int) -> list[Agent]:
    """Every search bot with a small budget (the rules they see are what matters)."""
    return [
        RolloutBot(seed, samples=2, playouts=1, max_playouts=6),
        PimcBot(seed + 1, p1_playouts=2, samples=2, playouts=1, max_playouts=6),
        IsmctsBot(seed + 2, iterations=10, samples=3, playouts=1, max_playouts=6, solver_cards=10,
                  solver_nodes=3000),
        SolverBot(seed + 3, samples=2, playouts=1, max_playouts=6, solver_cards=10, solver_nodes=3000),
        HeuristicBot(seed + 4),
        UctBot(seed + 5, p2_iterations=12, samples=2, playouts=1, max_playouts=6),
    ]


def with_value(option: str, value: object) -> Rules:
    """``mattis`` with ``option=value`` and sequences on (so runs meet every phase 2
    rule), or another preset where ``mattis`` refuses it."""
    extra: dict[str, object] = {} if option == "sequences" else {"sequences": 2}
    for name in ["mattis", *PRESETS]:
        try:
            return preset(name, **{**extra, option: value})
        except RulesError:
            continue
    raise AssertionError(f"no preset takes {option}={value}")


def rule_sets() -> list[tuple[str, Rules]]:
    out = [(name, preset(name)) for name in PRESETS]
    for spec in OPTIONS:
        for value in spec.values:
            out.append((f"{spec.name}={value}", with_value(spec.name, value)))
    rng = random.Random(9)
    for i in range(scale(3, 12)):
        kw: dict[str, Any] = {spec.name: rng.choice(spec.values) for spec in HOUSE_OPTIONS if rng.random() < 0.6}
        try:
            out.append((f"mix{i}", preset(rng.choice(list(PRESETS)), **kw)))
        except RulesError:
            continue
    return out


RULE_SETS = rule_sets()


@pytest.mark.parametrize("label,rules", RULE_SETS, ids=[label for label, _ in RULE_SETS])
def test_every_bot_move_is_legal(label: str, rules: Rules) -> None:
    decisions = 0
    used: set[str] = set()
    for game in range(scale(2, 3)):
        allowed = [n for n in (3, 4, 2) if n in rules.allowed_players()]
        players = allowed[game % len(allowed)] if game >= 2 else allowed[0]
        bots = cheap_bots(1000 * game + len(label))
        # games 0 and 1 together seat every bot at least once
        seats = {seat: Checked(bots[(3 * game + seat) % len(bots)]) for seat in range(players)}
        used.update(b.name for b in seats.values())
        referee = Referee.new(rules, players, seed=f"{label}/{game}", dealer=game % players)
        play_until(referee, seats, max_moves=4000)
        assert referee.is_over or referee.moves_played == 4000
        decisions += sum(b.decisions for b in seats.values())
    assert decisions > 20
    assert used == {"rollout", "pimc", "ismcts", "solver", "heuristic", "uct"}


@pytest.mark.parametrize("label,rules", RULE_SETS, ids=[label for label, _ in RULE_SETS])
def test_solver_picks_the_best_move(label: str, rules: Rules) -> None:
    """On small phase 2 positions under ``rules`` the move the solver picks (what the
    solver bot plays once it sees every card) has the best value that plain minimax over
    the engine's own moves gives: a solver whose move generator or search ignores a rule
    of ``rules`` picks a worse move, or a move the engine does not have, somewhere."""
    judged = 0
    exact = two_player_exact(rules) and 2 in rules.allowed_players()
    for seed in range(scale(60, 200)):
        if judged == scale(10, 30):
            break
        # plain minimax is slow where play can cycle (optional pickups, out when cleared)
        s = tiny_position(rules, seed, 3 if exact and not rules.pickup_optional else 2)
        me = s.to_act
        assert me is not None
        if len(s.legal_moves()) == 1:
            continue
        if exact:
            picked = two_player_values(s)
        else:
            picked = Solver(me).solve(s)[1]
        move = max(picked, key=lambda m: picked[m])
        values = {}
        for m in s.legal_moves():
            c = s.clone()
            c.apply(m)
            values[m] = brute_force(c, me)
        assert move in values and values[move] == max(values.values()), (label, seed, str(move), values)
        judged += 1
    assert judged >= scale(4, 15), judged
