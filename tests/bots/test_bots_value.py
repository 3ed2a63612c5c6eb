"""The learned value model and the ``learned`` bot.

The shipped weights: one model per preset, probabilities over the seats that sum to 1,
a seat that is out gets none, a finished game its losers.  The bot: legal moves only
through the referee, and its choice is the argmax of the model over the positions
right after each legal move (recomputed here from the public determinizer and the
core's observer); without NumPy it plays the heuristic's move and says so.
"""

from __future__ import annotations

import dataclasses
import logging
import random

import pytest

from mattis.bots import learned as learned_module
from mattis.bots.heuristic import heuristic_move
from mattis.bots.learned import DEFAULT_SAMPLES, LearnedBot
from mattis.bots.search import perfect_info
from mattis.bots.value import (
    BEAT_AT,
    DUELS_AT,
    FEATURES,
    MASTERS_AT,
    MAX_SEATS,
    feature_rows,
    features,
    load_models,
    model_for,
    nearest_preset,
    plain_suit_columns,
    suit_order,
)
from mattis.core import PRESETS, RANK, SUIT, Observation, Rules, preset
from mattis.core.determinize import sample_state
from mattis.core.observation import PHASE2, observe
from mattis.play import Referee, make_bot, play_until


def _observations(rules: Rules, players: int, seed: int, every: int = 5) -> list[Observation]:
    """Observations of every seat along an ``easy`` game, every ``every``-th move."""
    ref = Referee.new(rules, players, seed=seed)
    bots = {s: make_bot("easy", seed * 10 + s) for s in range(players)}
    out: list[Observation] = []
    k = 0
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        if k % every == 0:
            out.extend(ref.observation(s) for s in range(players))
        ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
        k += 1
    out.extend(ref.observation(s) for s in range(players))
    return out


def test_the_shipped_weights_hold_one_model_per_preset() -> None:
    models = load_models()
    assert sorted(models) == sorted(PRESETS)
    for name in PRESETS:
        assert model_for(preset(name)).name == name


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_shipped_model_gives_a_distribution_over_the_seats(name: str) -> None:
    rules = preset(name)
    model = model_for(rules)
    players = 4 if name == "blodmattis" else 3
    seen_phase2 = False
    for obs in _observations(rules, players, seed=11):
        p = model.losers(obs)
        assert len(p) == players
        assert sum(p) == pytest.approx(1.0, abs=1e-5)
        assert all(0.0 <= v <= 1.0 for v in p)
        for k in range(players):
            seat = (obs.seat + k) % players
            if seat in obs.finished and seat not in obs.losers:
                assert p[k] == 0.0  # out safely: cannot lose any more
        if obs.is_over:
            assert p == [1.0 / len(obs.losers) if (obs.seat + k) % players in obs.losers else 0.0
                         for k in range(players)]
        seen_phase2 |= obs.phase is PHASE2
        assert model.chance(obs) == pytest.approx(1.0 - p[0])
    assert seen_phase2


def test_the_model_serves_every_table_size() -> None:
    rules = preset("mattis")
    model = model_for(rules)
    for players in range(2, MAX_SEATS + 1):
        obs = _observations(rules, players, seed=3, every=40)[0]
        assert sum(model.losers(obs)) == pytest.approx(1.0, abs=1e-5)


def test_house_rules_get_the_nearest_presets_model() -> None:
    assert nearest_preset(dataclasses.replace(preset("skitgubbe"), sequences=3)) == "skitgubbe"
    assert nearest_preset(dataclasses.replace(preset("mattis"), pickup_optional=True)) == "mattis"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_learned_bot_plays_legal_moves_through_the_referee(name: str) -> None:
    rules = preset(name)
    players = 3
    ref = Referee.new(rules, players, seed=5)
    play_until(ref, {s: make_bot("learned", 40 + s) for s in range(players)}, max_moves=3000)
    # the referee refuses an illegal move with an exception, so reaching the end proves legality
    assert ref.is_over or ref.moves_played == 3000


def _model_argmax(obs: Observation, seed: int) -> int:
    """The index in ``obs.legal`` of the move whose resulting positions the model rates
    best for the seat, recomputed from the determinizer and the observer."""
    model = model_for(obs.rules)
    rng = random.Random(seed)
    k = 1 if obs.phase is PHASE2 and perfect_info(obs) else DEFAULT_SAMPLES
    states = [sample_state(obs, rng) for _ in range(k)]
    best, best_value = 0, -1.0
    for i, move in enumerate(obs.legal):
        total = 0.0
        for st in states:
            s = st.clone()
            s.apply(move)
            total += 1.0 - model.losers(observe(s, obs.seat))[0]
        if total / k > best_value + 1e-12:
            best, best_value = i, total / k
    return best


@pytest.mark.parametrize("name", ["mattis", "skitgubbe"])
def test_the_learned_bots_choice_is_the_models_argmax(name: str) -> None:
    rules = preset(name)
    checked = {1: 0, 2: 0}
    for obs in _observations(rules, 3, seed=21, every=3):
        if obs.to_act != obs.seat or len(obs.legal) < 2:
            continue
        bot = LearnedBot(seed=99)
        assert obs.legal.index(bot.act(obs)) == _model_argmax(obs, 99)
        checked[int(obs.phase)] += 1
    assert checked[1] >= 3 and checked[2] >= 3


def test_without_numpy_the_learned_bot_plays_the_heuristic_and_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(learned_module, "has_numpy", lambda: False)
    with caplog.at_level(logging.WARNING, logger="mattis.bots.learned"):
        bot = LearnedBot(seed=1)
    assert any("NumPy" in r.getMessage() for r in caplog.records)
    choices = [o for o in _observations(preset("mattis"), 3, seed=8) if o.to_act == o.seat and len(o.legal) > 1]
    assert choices
    for obs in choices:
        assert bot.act(obs) == heuristic_move(obs)


@pytest.mark.parametrize("name", ["mattis", "blodmattis"])
def test_the_features_see_how_each_seat_stands_against_the_entry_to_beat(name: str) -> None:
    """In phase 2 the seat to act may answer the entry with exactly the cards the model
    counts as its higher cards of the suit and its trumps that may answer (the core's
    legal moves say which; blodmattis follows suit, mattis may trump freely)."""
    rules = preset(name)
    checked = 0
    for seed in (1, 2, 3):
        for obs in _observations(rules, 4 if name == "blodmattis" else 3, seed=seed, every=1):
            if obs.phase is not PHASE2 or obs.to_act != obs.seat or not obs.table2:
                continue
            row = feature_rows(obs)[0]
            starts = {m.cards[0] for m in obs.legal if m.cards}
            assert round(13 * (row[BEAT_AT] + row[BEAT_AT + 2])) == len(starts)
            assert row[BEAT_AT + 3] == (1.0 if starts else 0.0)
            top = obs.table2[-1][1]
            assert round(13 * (row[BEAT_AT] + row[BEAT_AT + 1])) == sum(1 for c in obs.hand if SUIT[c] == SUIT[top[0]])
            checked += 1
    assert checked >= 20


def test_the_features_put_the_trump_first_and_keep_plain_suits_apart() -> None:
    assert suit_order(None) == (0, 1, 2, 3)
    assert suit_order(2) == (2, 0, 1, 3)
    obs = next(o for o in _observations(preset("mattis"), 3, seed=4, every=1)
               if o.phase is PHASE2 and o.trump is not None and o.hand)
    row = feature_rows(obs)[0]
    order = suit_order(obs.trump)
    for c in obs.hand:  # the observer's own cards, one input each, trumps in the first block
        assert row[13 * order.index(SUIT[c]) + RANK[c]] == 1.0
    assert sum(row[:52]) == len(obs.hand)
    assert len(features(obs)[0]) == FEATURES


def test_renaming_the_plain_suits_moves_their_inputs_and_nothing_else() -> None:
    assert plain_suit_columns((1, 2, 3)) == list(range(FEATURES))
    obs = next(o for o in _observations(preset("hund"), 3, seed=6, every=1)
               if o.phase is PHASE2 and o.trump is not None and o.table2 and len(o.hand) >= 4)
    x = features(obs)
    order = suit_order(obs.trump)
    new_order = (3, 1, 2)  # place 1 now holds what was in place 3, and so on
    cols = plain_suit_columns(new_order)
    assert sorted(cols) == list(range(FEATURES))
    moved = [[row[c] for c in cols] for row in x]
    places = [0, *new_order]
    for c in obs.hand:
        old = order.index(SUIT[c])
        new = places.index(old)
        assert moved[0][13 * new + RANK[c]] == 1.0
    assert sum(moved[0][:52]) == sum(x[0][:52])
    # the rank histograms and the scalars (everything not per suit) are unchanged
    assert moved[0][64:90] == x[0][64:90] and moved[0][BEAT_AT:MASTERS_AT] == x[0][BEAT_AT:MASTERS_AT]
    assert moved[0][MASTERS_AT + 4] == x[0][MASTERS_AT + 4]  # the masters in all


def test_a_seats_masters_are_its_cards_above_every_other_hand_still_in() -> None:
    """Once every hand is known (phase 2), a seat's masters in a suit are exactly its
    cards of that suit that no other seat still in the game can top."""
    checked = 0
    for obs in _observations(preset("mattis"), 3, seed=9, every=1):
        if obs.phase is not PHASE2 or obs.is_over:
            continue
        rows = feature_rows(obs)
        order = suit_order(obs.trump)
        hands = {(obs.seat + k) % 3: (set(obs.hand) if k == 0 else set(obs.known[(obs.seat + k) % 3]))
                 for k in range(3)}
        for k in range(3):
            s = (obs.seat + k) % 3
            for slot, suit in enumerate(order):
                rivals = [RANK[c] for t, cards in hands.items() if t != s and t in obs.still_in
                          for c in cards if SUIT[c] == suit]
                mine = [c for c in hands[s] if SUIT[c] == suit and all(RANK[c] > r for r in rivals)]
                assert round(13 * rows[k][MASTERS_AT + slot]) == len(mine)
        checked += 1
    assert checked >= 10


def _answers(hand: set[int], card: int, trump: int | None, void_follow: bool) -> bool:
    """Whether ``hand`` may answer ``card`` laid alone, from the rule texts: a higher card
    of its suit, or a trump on a non-trump card (under "Følg farge hvis du kan", the
    blodmattis preset, only when holding none of its suit)."""
    suit = SUIT[card]
    if any(SUIT[c] == suit and RANK[c] > RANK[card] for c in hand):
        return True
    if trump is None or suit == trump or not any(SUIT[c] == trump for c in hand):
        return False
    return not (void_follow and any(SUIT[c] == suit for c in hand))


@pytest.mark.parametrize("name", ["mattis", "blodmattis"])
def test_a_seats_duels_count_the_cards_the_others_cannot_answer(name: str) -> None:
    """Once every hand is known (phase 2), a seat's duels are its cards no other seat
    still in can answer, those the next seat still in cannot answer, those every other
    seat can answer, the cards of the seat before it that it cannot answer, and its hand
    against the smallest other hand."""
    rules = preset(name)
    void_follow = name == "blodmattis"
    checked = 0
    for seed in (9, 10):
        for obs in _observations(rules, 3, seed=seed, every=1):
            if obs.phase is not PHASE2 or obs.is_over or sum(obs.hand_counts) != (
                    len(obs.hand) + sum(len(obs.known[s]) for s in range(3) if s != obs.seat)):
                continue
            rows = feature_rows(obs)
            hands = {s: set(obs.hand) if s == obs.seat else set(obs.known[s]) for s in range(3)}
            live = [s for s in range(3) if s in obs.still_in]
            for k in range(3):
                s = (obs.seat + k) % 3
                row = rows[k][DUELS_AT:]
                others = [t for t in live if t != s]
                if s not in obs.still_in or not others:
                    continue
                answered = {c: [t for t in others if _answers(hands[t], c, obs.trump, void_follow)] for c in hands[s]}
                assert round(13 * row[0]) == sum(1 for ts in answered.values() if not ts)
                assert round(13 * row[2]) == sum(1 for ts in answered.values() if len(ts) == len(others))
                nxt = next(t for t in ((s + d) % 3 for d in (1, 2)) if t in obs.still_in)
                prev = next(t for t in ((s - d) % 3 for d in (1, 2)) if t in obs.still_in)
                assert round(13 * row[1]) == sum(1 for c in hands[s] if not _answers(hands[nxt], c, obs.trump,
                                                                                         void_follow))
                assert round(13 * row[3]) == sum(1 for c in hands[prev] if not _answers(hands[s], c, obs.trump,
                                                                                            void_follow))
                least = min(len(hands[t]) for t in others)
                assert round(13 * row[4]) == max(-13, min(13, len(hands[s]) - least))
                assert row[5] == (1.0 if len(hands[s]) > least else 0.0)
                checked += 1
    assert checked >= 20
