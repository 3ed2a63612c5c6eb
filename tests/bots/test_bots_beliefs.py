"""The weighted determinizer (``sample_worlds``) with the bots' models of the others."""

from __future__ import annotations

import random

import pytest

from mattis.bots.beliefs import EASY, HUMAN, easy_game, policy_model
from mattis.bots.evaluate import Budget, evaluate
from mattis.bots.heuristic import heuristic_move
from mattis.bots.learned import LearnedBot
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


def _known_bot_game(name: str, seed: int, moves: int) -> State:
    """``easy_game`` with every seat playing the ``easy`` model's policy exactly (a slip
    of 1%), short of the game's end."""
    s = easy_game(name, seed, moves)
    assert s is not None
    return s


def _true_ranks(name: str, games: int, seed: int, n_worlds: int, **settings: int) -> dict[str, list[float]]:
    """Per game, the true deal's rank among ``n_worlds`` worlds drawn weighted (the
    ``easy`` model) and uniform from the view of the seat to act after 12 moves: the
    share of worlds whose likelihood under the model is below the true deal's (ties
    broken at random), uniform on (0, 1) if the true deal is a typical draw of the worlds."""
    ranks: dict[str, list[float]] = {"weighted": [], "uniform": []}
    for g in range(games):
        s = _known_bot_game(name, seed + g, 12)
        seat = s.to_act
        assert seat is not None
        obs = s.observation(seat)
        truth = world_likelihood(obs, s, EASY)
        for label, model in (("weighted", EASY), ("uniform", None)):
            rng = random.Random(g)
            worlds = sample_worlds(obs, rng, n_worlds, model, **settings).states
            lik = [world_likelihood(obs, w, EASY) for w in worlds]
            below = sum(1 for x in lik if x < truth - 1e-9)
            ties = sum(1 for x in lik if abs(x - truth) <= 1e-9)
            ranks[label].append((below + rng.random() * (ties + 1)) / (n_worlds + 1))
    return ranks


def test_the_true_deal_ranks_lower_among_weighted_worlds_than_among_uniform_ones() -> None:
    """On games of a known bot the true deal ranks near the top of uniform worlds (they
    are worlds in which the opponents would not have played as they did) and about the
    middle of the weighted ones (a small sample: the slow tier checks calibration)."""
    ranks = _true_ranks("blodmattis", 10, 500, 8, particles=16)
    mean = {k: sum(v) / len(v) for k, v in ranks.items()}
    assert mean["uniform"] > 0.85, mean
    assert mean["weighted"] < 0.7, mean


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mattis", "blodmattis"])
def test_the_true_deal_is_a_typical_draw_of_the_weighted_worlds(name: str) -> None:
    """Calibration: when the model is the bots' policy, the true deal's rank among the
    weighted worlds is a typical draw (mean within 0.5 ± 0.1, and no fifth of the range
    holding under half or over twice its share of the games), and among uniform ones it
    is not (mean above 0.85: the test fails on uniform worlds)."""
    games = 80
    ranks = _true_ranks(name, games, 700, 8)
    mean = {k: sum(v) / len(v) for k, v in ranks.items()}
    assert mean["uniform"] > 0.85, mean
    assert 0.4 <= mean["weighted"] <= 0.6, mean
    fifths = [sum(1 for r in ranks["weighted"] if i / 5 <= r < (i + 1) / 5) for i in range(5)]
    assert all(games / 10 <= f <= 2 * games / 5 for f in fifths), fifths


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


def test_the_evaluator_and_the_learned_bot_take_a_model_by_name() -> None:
    """The evaluator (review, hint) and the learned bot draw their worlds weighted when
    told a model's name, and refuse a name that is none."""
    s = _known_bot_game("mattis", 3, 8)
    seat = s.to_act
    assert seat is not None
    obs = s.observation(seat)
    weighted = evaluate(obs, Budget(samples=4, beliefs="easy"), random.Random(0))
    assert [v.move for v in weighted.values] == list(obs.legal)
    with pytest.raises(ValueError):
        Budget(beliefs="psychic")
    with pytest.raises(ValueError):
        LearnedBot(seed=1, beliefs="psychic")



def test_an_easy_game_is_easy_play_and_none_once_over() -> None:
    """Without slips every move of ``easy_game`` is ``easy``'s; past the game's end it
    gives ``None``."""
    s = easy_game("mattis", 5, 10, slip=0.0)
    assert s is not None
    replay = State.new(preset("mattis"), 3, seed=5)
    for _who, move, _c in s.observation(0).history:
        seat = replay.to_act
        assert seat is not None
        assert move == heuristic_move(replay.observation(seat))
        replay.apply(move)
    assert len(s.observation(0).history) == 10
    assert easy_game("mattis", 5, 100_000) is None
