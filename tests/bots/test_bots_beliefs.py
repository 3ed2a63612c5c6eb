"""The weighted determinizer (``sample_worlds``) with the bots' models of the others."""

from __future__ import annotations

import math
import random

import pytest

from mattis.bots.beliefs import EASY, HUMAN, policy_model
from mattis.bots.heuristic import heuristic_move
from mattis.core import PRESETS, State, preset
from mattis.core.determinize import sample_worlds, world_likelihood


def _check_worlds(name: str, p: float, max_moves: int, seed: int) -> int:
    """At random points of random games (every player count) the filter's every world
    shows the seat exactly what it saw; returns how many points were checked."""
    rules = preset(name)
    rng = random.Random(seed)
    checked = 0
    for n in rules.allowed_players():
        for g in range(2):
            s = State.new(rules, n, seed=seed * 100 + 10 * n + g)
            moves = 0
            while not s.is_over and moves < max_moves:
                seat = s.to_act
                assert seat is not None
                if rng.random() < p:
                    obs = s.observation(seat)
                    worlds = sample_worlds(obs, random.Random(checked), 4, HUMAN, particles=8, max_replays=100)
                    assert len(worlds.states) == 4 and not worlds.fallback
                    for w in worlds.states:
                        assert w.observation(seat) == obs
                    checked += 1
                s.apply(rng.choice(s.legal_moves()))
                moves += 1
    return checked


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_weighted_worlds_show_the_seat_its_observation(name: str) -> None:
    """Never a world inconsistent with the observation (the first 100 moves of random
    games: phase 1 and the start of phase 2)."""
    assert _check_worlds(name, 0.06, 100, 35) > 6


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_weighted_worlds_show_the_seat_its_observation_to_the_end(name: str) -> None:
    """The same over whole random games (long phase 2 histories)."""
    assert _check_worlds(name, 0.02, 100_000, 36) > 10


def test_without_a_model_the_worlds_are_uniform_samples() -> None:
    s = State.new(preset("mattis"), 3, seed=1)
    for _ in range(6):
        s.apply(s.legal_moves()[0])
    seat = s.to_act
    assert seat is not None
    worlds = sample_worlds(s.observation(seat), random.Random(0), 5)
    assert len(worlds.states) == 5 and worlds.particles == 0 and worlds.replays == 0


def test_the_true_deal_is_typical_of_the_weighted_worlds_not_of_the_uniform_ones() -> None:
    """Calibration on games of a known bot: every seat plays ``easy``, each seat's view
    after 8 moves of blodmattis.  The rank of the true deal's likelihood (under the
    ``easy`` model) among the sampled worlds' (ties broken at random) is near the top
    for uniform worlds (they are worlds in which the opponents would not have played
    as they did) and lower for weighted ones; and the weighted worlds in which the
    opponents' every move is ``easy``'s are many more."""
    rules = preset("blodmattis")
    n_worlds = 24
    ranks: dict[str, list[float]] = {"weighted": [], "uniform": []}
    agree: dict[str, list[float]] = {"weighted": [], "uniform": []}
    for g in range(8):
        s = State.new(rules, 3, seed=500 + g)
        for _ in range(8):
            s.apply(heuristic_move(s.observation(s.to_act)))  # type: ignore[arg-type]
        seat = s.to_act
        assert seat is not None
        obs = s.observation(seat)
        truth = world_likelihood(obs, s, EASY)
        decisions = sum(1 for who, _m, _c in obs.history if who != seat)
        for label, model in (("weighted", EASY), ("uniform", None)):
            rng = random.Random(g)
            worlds = sample_worlds(obs, rng, n_worlds, model).states
            lik = [world_likelihood(obs, w, EASY) for w in worlds]
            below = sum(1 for x in lik if x < truth - 1e-9)
            ties = sum(1 for x in lik if abs(x - truth) <= 1e-9)
            ranks[label].append((below + rng.random() * (ties + 1)) / (n_worlds + 1))
            # a world in which every move seen is easy's has likelihood log(0.99) per decision at most
            agree[label].append(sum(1 for x in lik if x >= decisions * math.log(0.99) - 1e-9) / n_worlds)
    mean = {k: sum(v) / len(v) for k, v in ranks.items()}
    share = {k: sum(v) / len(v) for k, v in agree.items()}
    assert mean["uniform"] > 0.9, mean
    assert mean["weighted"] < mean["uniform"] - 0.15, mean
    assert share["weighted"] > share["uniform"] + 0.2, share


def test_a_model_that_rules_out_every_world_falls_back_to_uniform() -> None:
    s = State.new(preset("mattis"), 3, seed=2)
    for _ in range(5):
        s.apply(s.legal_moves()[0])
    seat = s.to_act
    assert seat is not None
    obs = s.observation(seat)
    worlds = sample_worlds(obs, random.Random(0), 3, lambda state, who, move: 0.0)
    assert worlds.fallback and len(worlds.states) == 3
    assert all(w.observation(seat) == obs for w in worlds.states)


def test_policy_model_rejects_a_slip_outside_zero_to_one() -> None:
    with pytest.raises(ValueError):
        policy_model(heuristic_move, 0.0)
