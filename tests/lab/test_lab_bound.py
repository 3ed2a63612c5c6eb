"""The bound on any estimator's skill: the sample variance of continuations.

The estimator (:func:`sample_variance`) is checked where its answer is known (exactly,
by enumerating every outcome, not by sampling), a decided position gives variance 0,
and fresh bots continuing from inside phase 2 are in the state the game's own bots
were in (the expert's opponent model, the one bot memory there is).
"""

from __future__ import annotations

import itertools

import pytest

from mattis.bots.search import IsmctsBot, OpponentModel
from mattis.core import Move, preset
from mattis.lab.bound import BotMaker, continue_game, phase2_start, position, sample_variance, watching_bots
from mattis.lab.train import GameRecord
from mattis.play import Agent, Referee, make_bot


def test_sample_variance_of_known_values() -> None:
    assert sample_variance([1, 1, 1]) == 0.0
    assert sample_variance([0, 1]) == 0.5
    assert sample_variance([0, 0, 1]) == pytest.approx(1 / 3)
    with pytest.raises(ValueError):
        sample_variance([1])


@pytest.mark.parametrize("k", [2, 3, 5])
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
