"""Every bot plays only legal moves, under every value of every rule option.

The bots' rule knowledge comes from the engine (:mod:`mattis.core.legal`), the
determinizer and the solver; this test is what makes a bot that disagrees with
the engine on a new option fail: each move a bot chooses must be one of the
moves its observation lists as legal, and the referee must accept it.  The rule
sets are generated from the option table, so a new option value is covered
without editing this file: every preset, every value of every option, and a few
random mixes of options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mattis.bots import Agent
from mattis.bots.heuristic import HeuristicBot
from mattis.bots.search import IsmctsBot, PimcBot, RolloutBot, SolverBot, UctBot
from mattis.core import CHOICES, PRESETS, Move, Observation, Rules, RulesError, preset
from mattis.play import Referee, play_until
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


def rule_sets() -> list[tuple[str, Rules]]:
    out = [(name, preset(name)) for name in PRESETS]
    for option, values in CHOICES.items():
        for value in values:
            out.append((f"{option}={value}", preset("mattis", **{option: value, "sequences": 2})))
    out.append(("pickup_optional", preset("mattis", pickup_optional=True, sequences=3)))
    out.append(("leftovers_shown", preset("hund", leftovers_shown=True)))
    out.append(("pickup_run=false", preset("skitgubbe", pickup_run=False, sequences=2)))
    rng = random.Random(9)
    for i in range(scale(3, 12)):
        kw: dict[str, Any] = {k: rng.choice(v) for k, v in CHOICES.items() if rng.random() < 0.6}
        kw["sequences"] = rng.choice([0, 2, 3])
        kw["pickup_optional"] = rng.random() < 0.5
        kw["pickup_run"] = rng.random() < 0.5
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
