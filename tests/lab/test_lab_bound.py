"""The bound on any estimator's skill: the sample variance of continuations.

The estimator (:func:`sample_variance`) is checked where its answer is known (exactly,
by enumerating every outcome, not by sampling), a decided position gives variance 0,
and fresh bots continuing from inside phase 2 are in the state the game's own bots
were in (the expert's opponent model, the one bot memory there is).  Continuations
from a seat's view start from worlds that keep the seat's observation and depend on
nothing else.
"""

from __future__ import annotations

import itertools
import random

import pytest

from mattis.bots.beliefs import EASY
from mattis.bots.heuristic import heuristic_move
from mattis.bots.search import IsmctsBot, OpponentModel
from mattis.core import Move, State, preset
from mattis.core.determinize import sample_worlds
from mattis.core.observation import PHASE1, PHASE2
from mattis.lab.bound import (
    BotMaker,
    continue_from_view,
    continue_game,
    extreme_pair,
    ordered_pairs,
    paired_continuations,
    paired_difference,
    phase2_start,
    position,
    regret,
    sample_variance,
    sampled_world,
    true_outcomes,
    watching_bots,
)
from mattis.lab.train import GameRecord
from mattis.play import Agent, Referee, make_bot, play_until


def test_sample_variance_of_known_values() -> None:
    assert sample_variance([1, 1, 1]) == 0.0
    assert sample_variance([0, 1]) == 0.5
    assert sample_variance([0, 0, 1]) == pytest.approx(1 / 3)
    with pytest.raises(ValueError):
        sample_variance([1])


@pytest.mark.parametrize("k", [2, 3, 5, 8])
@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 0.9])
def test_sample_variance_is_unbiased_for_a_got_away_outcome(k: int, p: float) -> None:
    # Every outcome of k independent draws of y ~ Bernoulli(p), weighed by its probability.
    expected = sum(p ** sum(ys) * (1 - p) ** (k - sum(ys)) * sample_variance(ys)
                   for ys in itertools.product([0, 1], repeat=k))
    assert expected == pytest.approx(p * (1 - p))
    # The divisor k (the plain variance of the sample) would be biased low.
    if 0 < p < 1:
        biased = expected * (k - 1) / k
        assert biased < p * (1 - p) - 1e-9


def _easy(seed: int) -> Agent:
    return make_bot("easy", seed)


def _small_expert(seed: int) -> Agent:
    return IsmctsBot(seed, iterations=8, samples=4, p2_iterations=40)


def _play(rules_name: str, make: BotMaker, deal: int, checkpoint: int | None = None
          ) -> tuple[list[Move], tuple[int, ...], dict[int, tuple[dict[int, int], dict[int, int]]]]:
    """A 3-player game of ``make``'s bots: its moves, its losers, and each bot's opponent
    model counts (seen, agreed) just before move ``checkpoint``."""
    ref = Referee.new(preset(rules_name), 3, seed=deal, dealer=0)
    bots = [make(100 + s) for s in range(3)]
    moves: list[Move] = []
    counts: dict[int, tuple[dict[int, int], dict[int, int]]] = {}
    while not ref.is_over:
        if len(moves) == checkpoint:
            for s, b in enumerate(bots):
                if isinstance(model := getattr(b, "model", None), OpponentModel):
                    counts[s] = (dict(model.seen), dict(model.agreed))
        seat = ref.to_act
        assert seat is not None
        move = bots[seat].act(ref.observation(seat))
        ref.apply(seat, move, events=False)
        moves.append(move)
    assert ref.outcome is not None
    return moves, tuple(ref.outcome.losers), counts


def _record(deal: int, moves: list[Move], losers: tuple[int, ...]) -> GameRecord:
    return GameRecord(0, 3, deal, 0, tuple(moves), losers, ("bot",) * 3, 0.0)


def test_a_decided_position_has_no_variance() -> None:
    rules = preset("hund")
    moves, losers, _ = _play("hund", _easy, deal=11)
    runs = continue_game(rules, _record(11, moves, losers), len(moves), _easy, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert runs.decisions == 0 and runs.fallbacks == 0
    assert runs.away == ((*[0 if s in losers else 1 for s in range(3)],),) * 3
    assert runs.variance() == [0.0, 0.0, 0.0]


def test_continuations_from_the_start_of_phase_2_end_as_games_do() -> None:
    rules = preset("mattis")
    moves, losers, _ = _play("mattis", _easy, deal=12)
    record = _record(12, moves, losers)
    start = phase2_start(rules, record)
    assert 0 < start < len(moves)
    ref = position(rules, record, start)
    assert ref.observation(0).phase == 2 and position(rules, record, start - 1).observation(0).phase == 1
    assert position(rules, record, len(moves)).is_over and not position(rules, record, len(moves) - 1).is_over
    runs = continue_game(rules, record, start, _easy, [[21, 22, 23], [24, 25, 26]])
    assert len(runs.away) == 2 and runs.decisions > 0 and runs.fallbacks == 0
    for run in runs.away:
        assert 1 <= run.count(0) < 3  # a loser, and someone got away
    assert all(v in (0.0, 0.5) for v in runs.variance())  # two runs: they agree or not


def test_fresh_experts_inside_phase_2_have_the_opponent_model_of_the_game_s_own() -> None:
    rules = preset("mattis")
    moves, losers, _ = _play("mattis", _small_expert, deal=13)
    record = _record(13, moves, losers)
    start = phase2_start(rules, record)
    at = start + (len(moves) - start) * 3 // 4
    _, _, counts = _play("mattis", _small_expert, deal=13, checkpoint=at)  # the same game again (seeded)
    assert sum(sum(seen.values()) for seen, _ in counts.values()) > 0  # it has seen opponents' choices
    _, bots = watching_bots(rules, record, at, _small_expert, [7, 8, 9])
    for s, b in enumerate(bots):
        assert isinstance(b, IsmctsBot) and b.model is not None
        assert (b.model.seen, b.model.agreed) == counts[s]
    runs = continue_game(rules, record, at, _small_expert, [[7, 8, 9], [10, 11, 12]])
    assert runs.fallbacks == 0 and runs.decisions > 0


def _phase1_views(rules_name: str, deal: int) -> tuple[GameRecord, list[int]]:
    """A game of easy bots and the positions (moves made) inside its phase 1."""
    rules = preset(rules_name)
    moves, losers, _ = _play(rules_name, _easy, deal=deal)
    record = _record(deal, moves, losers)
    return record, list(range(1, phase2_start(rules, record) + 1))


@pytest.mark.parametrize("rules_name", ["mattis", "hund", "blodmattis", "skitgubbe"])
def test_a_sampled_world_keeps_the_seat_s_observation_and_deals_the_hidden_cards_afresh(rules_name: str) -> None:
    rules = preset(rules_name)
    record, ats = _phase1_views(rules_name, deal=31)
    rng = random.Random(5)
    moved = 0
    for at in ats[::3]:
        truth = position(rules, record, at)
        for seat in range(3):
            obs = truth.observation(seat)
            world = sampled_world(obs, rng)
            assert world.observation(seat) == obs
            others = [q for q in range(3) if q != seat]
            moved += any(world.observation(q).hand != truth.observation(q).hand for q in others)
    assert moved > 0  # the opponents' hands are drawn, not the true ones


def test_a_world_weighed_by_the_bots_policy_keeps_the_seat_s_observation() -> None:
    """The observer bound's worlds drawn by the weighted determinizer (the model of the
    other seats given) keep the seat's observation as the uniform ones do."""
    rules = preset("blodmattis")
    record, ats = _phase1_views("blodmattis", deal=33)
    for at in ats[1::4]:
        truth = position(rules, record, at)
        seat = truth.to_act
        assert seat is not None
        obs = truth.observation(seat)
        assert sampled_world(obs, random.Random(at), EASY).observation(seat) == obs


def test_continuations_from_a_view_depend_on_the_view_alone() -> None:
    rules = preset("mattis")
    record, ats = _phase1_views("mattis", deal=32)
    at = ats[len(ats) // 2]
    truth = position(rules, record, at)
    seat = 1
    obs = truth.observation(seat)
    other = position(rules, record, at)
    other.redeal_hidden(seat, random.Random(9))  # another truth the seat cannot tell apart
    assert other.observation(seat) == obs
    assert any(other.observation(q).hand != truth.observation(q).hand for q in range(3) if q != seat)
    seeds = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    runs = continue_from_view(obs, _easy, seeds, [21, 22, 23, 24])
    assert runs == continue_from_view(other.observation(seat), _easy, seeds, [21, 22, 23, 24])
    assert len(runs.away) == 4 and runs.decisions > 0 and runs.fallbacks == 0
    for run in runs.away:
        assert 1 <= run.count(0) < 3
    # The easy bot plays no dice: from the true position every continuation ends as the game did,
    # from the seat's view the worlds differ.
    assert set(continue_game(rules, record, at, _easy, seeds).away) == {
        tuple(0 if s in record.losers else 1 for s in range(3))}
    assert len({sampled_world(obs, random.Random(w)).observation((seat + 1) % 3).hand for w in (21, 22, 23, 24)}) > 1


def test_continuations_from_a_view_only_before_phase_2_moves() -> None:
    rules = preset("hund")
    record, ats = _phase1_views("hund", deal=33)
    inside = position(rules, record, ats[-1] + 2)
    obs = inside.observation(0)
    assert obs.phase == PHASE2 and obs.phase2_moves > 0
    with pytest.raises(ValueError):
        continue_from_view(obs, _easy, [[1, 2, 3], [4, 5, 6]], [1, 2])
    with pytest.raises(ValueError):
        continue_from_view(position(rules, record, ats[0]).observation(0), _easy, [[1, 2, 3], [4, 5, 6]], [1])


# Three moves over the same 20 worlds: move 0 gets away in all, move 1 in 19, move 2 in 10.
_OUTCOMES = [[1] * 20, [1] * 19 + [0], [1] * 10 + [0] * 10]


def test_a_paired_difference_and_its_standard_error() -> None:
    d, se = paired_difference(_OUTCOMES[0], _OUTCOMES[2])
    assert d == pytest.approx(0.5)
    assert se == pytest.approx((0.25 * 20 / 19 / 20) ** 0.5)
    assert paired_difference(_OUTCOMES[1], _OUTCOMES[1]) == (0.0, 0.0)


def test_pairs_far_enough_apart_are_scored_by_whether_the_estimate_orders_them_so() -> None:
    estimate = [0.6, 0.7, 0.1]  # orders 0 and 1 wrong, 0 and 2 and 1 and 2 right
    got = ordered_pairs(estimate, _OUTCOMES, gap=0.05)
    assert {(p.better, p.worse): p.right for p in got} == {(0, 1): False, (0, 2): True, (1, 2): True}
    assert [p.gap for p in got] == pytest.approx([0.05, 0.5, 0.45])
    # Five points is in, less is out; two standard errors drop the pair a single world sets apart.
    assert {(p.better, p.worse) for p in ordered_pairs(estimate, _OUTCOMES, gap=0.06)} == {(0, 2), (1, 2)}
    assert {(p.better, p.worse) for p in ordered_pairs(estimate, _OUTCOMES, gap=0.05, z=2)} == {(0, 2), (1, 2)}
    # The order of the moves does not matter; a tie in the estimate is not right.
    flipped = ordered_pairs(estimate[::-1], _OUTCOMES[::-1], gap=0.05)
    assert sorted(p.right for p in flipped) == [False, True, True]
    assert [p.right for p in ordered_pairs([0.5, 0.5, 0.1], _OUTCOMES, gap=0.05)] == [False, True, True]
    with pytest.raises(ValueError):
        ordered_pairs([0.5], _OUTCOMES)


def test_the_best_against_the_worst_move() -> None:
    best_worst = extreme_pair([0.2, 0.7, 0.3], _OUTCOMES)
    assert best_worst is not None
    assert (best_worst.better, best_worst.worse, best_worst.right) == (0, 2, False)
    assert extreme_pair([0.9, 0.7, 0.3], _OUTCOMES) is not None
    assert extreme_pair([0.2, 0.7], [[1] * 20, [1] * 19 + [0]], gap=0.06) is None  # too close
    assert extreme_pair([0.2, 0.7], [[1] * 20, [1] * 20]) is None  # no best and worst


def test_the_regret_of_a_choice_is_the_best_move_s_chance_less_the_chosen_one_s() -> None:
    assert regret(_OUTCOMES, 0) == 0.0
    assert regret(_OUTCOMES, 1) == pytest.approx(0.05)
    assert regret(_OUTCOMES, 2) == pytest.approx(0.5)
    assert regret(_OUTCOMES[1:], 0) == 0.0  # the best of the moves given
    assert regret([[0, 1, 1], [1, 1, 0]], 1) == 0.0  # a tie for best
    with pytest.raises(ValueError):
        regret(_OUTCOMES, 3)
    with pytest.raises(ValueError):
        regret([[1], [1, 0]], 0)


def test_true_outcomes_continue_the_game_s_own_position() -> None:
    # A game of easy bots: the move easy made, continued from the true position by easy
    # bots, ends as the game did (easy plays the same moves again); other moves may not.
    rules = preset("mattis")
    deal = 32
    moves, losers, _ = _play("mattis", _easy, deal=deal)
    state = State.new(rules, 3, seed=deal, dealer=0)
    asked = apart = 0
    for move in moves:
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        if obs.phase == PHASE1 and len(obs.legal) > 1:
            got = true_outcomes(obs, state, _easy, [[1, 2, 3], [4, 5, 6]])
            assert state.observation(seat) == obs  # the truth is continued from copies
            assert len(got) == len(obs.legal)
            played = obs.legal.index(move)
            assert got[played] == [0 if seat in losers else 1] * 2
            assert regret(got, played) == max(o[0] for o in got) - got[played][0]
            asked += 1
            apart += len({o[0] for o in got}) > 1
        state.apply(move)
    assert asked > 10 and apart > 0


def test_paired_continuations_play_every_move_from_the_same_worlds() -> None:
    rules = preset("mattis")
    record, ats = _phase1_views("mattis", deal=32)
    truth = position(rules, record, ats[len(ats) // 2])
    seat = truth.to_act
    assert seat is not None
    obs = truth.observation(seat)
    assert len(obs.legal) > 1
    worlds = sample_worlds(obs, random.Random(5), 4, EASY, particles=4).states
    seeds = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    runs = paired_continuations(obs, worlds, _easy, seeds)
    assert len(runs) == len(obs.legal)
    assert all(len(r.away) == 4 and r.fallbacks == 0 for r in runs)
    # The move easy makes, continued from world j, ends as easy bots playing world j from the decision.
    own = obs.legal.index(heuristic_move(obs))
    for j, w in enumerate(worlds):
        ref = Referee(w.clone())
        play_until(ref, {s: _easy(seeds[j][s]) for s in range(3)})
        assert ref.outcome is not None
        assert runs[own].away[j] == tuple(0 if s in ref.outcome.losers else 1 for s in range(3))
    with pytest.raises(ValueError):  # a world the seat would not see as its view
        paired_continuations(obs, [State.new(rules, 3, seed=999)], _easy, seeds[:1])
