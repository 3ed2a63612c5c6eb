"""The phase 2 endgame solvers against plain minimax on tiny positions."""

from __future__ import annotations

import random

import pytest

from mattis.bots.solver import SearchLimit, Solver, brute_force, two_player_exact, two_player_values
from mattis.core import OPTIONS, PICKUP, State, play, preset
from mattis.core.rules import SOLVER
from tiers import scale

RULES: list[tuple[str, dict[str, object]]] = [
    ("mattis", {}),
    ("mattis", {"sequences": 2}),
    ("blodmattis", {"min_players": 2}),  # follow suit (void), going_out=holders, optional pickup, sequences
    ("blodmattis", {"min_players": 2, "going_out": "laid"}),
    ("skitgubbe", {"sequences": 2}),  # pickup the last entry / run, optional pickup
]
# Every value of every option of the option table (a new option or value is covered
# without editing this file), with sequences on so that runs meet every phase 2 rule.
# The solver must agree with plain minimax over the engine's moves.
RULES += [("mattis", {spec.name: value, **({} if spec.name == "sequences" else {"sequences": 2})})
          for spec in OPTIONS if SOLVER in spec.reaches or spec.kind == "word" for value in spec.values]
RULES += [("skitgubbe", {"pickup_optional": False}), ("skitgubbe", {"sequences": 2, "pickup_run": False})]
RULE_IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in kw.items()) for name, kw in RULES]


def _tiny(rules_name: str, kw: dict[str, object], seed: int, players: int, most: int) -> State:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    # Two suits only, so sequences and trumps occur often.
    deck = [c for c in deck if c // 13 < 2] + [c for c in deck if c // 13 >= 2]
    hands, i = [], 0
    for _ in range(players):
        k = rng.randint(1, most)
        hands.append(deck[i:i + k])
        i += k
    return State.from_position(preset(rules_name, **kw), hands, trump=rng.randrange(4),
                               leader=rng.randrange(players))


@pytest.mark.parametrize(("name", "kw"), RULES, ids=RULE_IDS)
def test_two_player_solver_is_exact(name: str, kw: dict[str, object]) -> None:
    compared = 0
    for seed in range(scale(25, 60)):
        r = preset(name, **kw)
        # Optional pickups make plain minimax slow, and cycles (going_out=cleared) more so.
        s = _tiny(name, kw, seed, 2, 2 if not two_player_exact(r) else 3 if r.pickup_optional else 4)
        me = s.to_act
        assert me is not None
        if not two_player_exact(s.rules):
            # a last card picked up keeps its player in, so play can cycle: the general
            # search (which knows repetition) must agree with plain minimax instead
            solver = Solver(me)
            for move, v in solver.solve(s)[1].items():
                c = s.clone()
                c.apply(move)
                assert brute_force(c, me) == v, (seed, str(move))
                compared += 1
            with pytest.raises(ValueError, match="going_out"):
                two_player_values(s)
            continue
        values = two_player_values(s)
        for move, v in values.items():
            c = s.clone()
            c.apply(move)
            assert brute_force(c, me) == v, (seed, str(move))
            compared += 1
        # The general alpha-beta search agrees on the position's value.
        assert Solver(me).solve(s)[0] == max(values.values())
    # smaller hands where play can cycle: fewer moves to compare
    assert compared > (scale(40, 100) if two_player_exact(preset(name, **kw)) else scale(30, 70))


def test_known_two_player_endgame() -> None:
    """Trump spades; seat 0 holds 2C and AS and leads, seat 1 holds KC.  Leading 2C
    loses (KC must beat it and seat 1 is out); leading AS wins (seat 1 must pick it
    up, then 2C is seat 0's last card)."""
    s = State.from_position(preset("mattis"), [[0, 51], [11]], trump=3, leader=0)
    vals = two_player_values(s)
    assert vals == {play(0): -1, play(51): 1}
    assert brute_force(s, 0) == 1


def test_paranoid_solver_matches_minimax_with_three_players() -> None:
    checked = 0
    # the options that matter with three or more players: who is still in, trick size
    more = [r for r in RULES if {"trick_size", "empty_hand", "going_out"} & set(r[1])]
    three = [(r, 25) for r in RULES[:2] + [("skitgubbe", {})]] + [(r, scale(6, 25)) for r in more]
    for (name, kw), seeds in three:
        for seed in range(seeds):
            # plain minimax is slow where play cycles (going_out=cleared, holders): one card each there
            s = _tiny(name, kw, seed, 3, 1 if preset(name, **kw).going_out != "laid" else 2)
            if sum(len(s.hand(i)) for i in range(3)) > 4:
                s = _tiny(name, kw, seed + 1000, 3, 1)  # plain minimax is slow where play cycles
            me = seed % 3
            expect = brute_force(s, me)
            assert Solver(me).value(s) == expect, (name, seed)
            checked += 1
    assert checked == sum(seeds for _, seeds in three) and len(more) == 10



def test_iterative_deepening_proves_only_what_is_so() -> None:
    """``solve_deepening`` with shallow depths (lines past them score 0, "not decided"):
    every move it scores 1 or -1 has that value in plain minimax, and with a depth no
    line reaches it gives the full search's values."""
    proven = undecided = 0
    for seed in range(scale(40, 120)):
        s = _tiny("mattis", {}, seed, 3, 2)
        me = seed % 3
        if s.to_act != me or len(s.legal_moves()) < 2:
            continue
        for depths in ((1,), (2, 3), (4,)):
            _, values = Solver(me).solve_deepening(s, depths)
            for move, v in values.items():
                c = s.clone()
                c.apply(move)
                if v:
                    assert brute_force(c, me) == v, (seed, depths, str(move))
                    proven += 1
                else:
                    undecided += 1
        try:
            full = Solver(me, 20_000).solve(s)
        except SearchLimit:  # play that cycles can outgrow the budget even here
            continue
        assert Solver(me, 20_000).solve_deepening(s, (150,)) == full
    assert proven >= 10 and undecided >= 5, (proven, undecided)

def test_transposition_table_is_path_independent() -> None:
    """A solver whose table is warm from earlier searches (reached by other paths,
    some through repeated positions) gives the same values as a fresh one."""
    for seed in range(20):
        s = _tiny("mattis", {}, seed, 3, 2)
        if sum(len(s.hand(i)) for i in range(3)) > 4:
            continue
        me = seed % 3
        warm = Solver(me)
        rng = random.Random(seed)
        while not s.is_over and s.phase == 2:
            assert warm.value(s) == Solver(me).value(s) == brute_force(s, me)
            s.apply(rng.choice(s.legal_moves()))


def test_pickup_value_is_consistent() -> None:
    s = State.from_position(preset("mattis"), [[0], [1, 2]], trump=3, leader=1)
    s.apply(play(1))  # seat 1 leads 3C; seat 0 holds 2C and must pick up
    assert s.legal_moves() == (PICKUP,)
    assert two_player_values(s)[PICKUP] == brute_force(s, 0) * 1




def test_the_expert_counts_what_its_endgame_solver_decided() -> None:
    """The expert counts its endgame solver's work (two players against ``hard``, where
    it is asked often): every time it is asked ends in one of the four outcomes, a
    decision counted as decided plays a move the solver proves best from the position
    the seat sees (every hand known there), and one counted as every move alike is one
    where the moves' proven values are all the same."""
    from mattis.bots.evaluate import state_from_view
    from mattis.bots.search import IsmctsBot, SolverCount
    from mattis.play import Referee, make_bot

    total = SolverCount()
    for seed in range(2):
        ref = Referee.new(preset("mattis"), 2, seed=seed)
        expert, other = IsmctsBot(seed), make_bot("hard", seed)
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            obs = ref.observation(seat)
            if seat == 1:
                ref.apply(seat, other.act(obs), events=False)
                continue
            before = (expert.solver.decided, expert.solver.undecided)
            move = expert.act(obs)
            after = (expert.solver.decided, expert.solver.undecided)
            if after != before:
                best, values = Solver(0, 200_000).solve(state_from_view(obs))
                if after[0] > before[0]:
                    assert values[move] == best, (seed, str(move), values)
                else:
                    assert len(set(values.values())) == 1, (seed, values)
            ref.apply(seat, move, events=False)
        total.add(expert.solver)
    assert total.asked == total.decided + total.narrowed + total.undecided + total.over_limit
    assert total.decided >= 1 and total.undecided >= 1
