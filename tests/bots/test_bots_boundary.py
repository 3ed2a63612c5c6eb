"""The information boundary: a bot's decision depends only on its observation."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from mattis.core import PRESETS, State, preset
from mattis.core.determinize import hidden_cards, relabel_hidden
from mattis.play import make_bot

BOTS = ["random", "heuristic", "rollout", "uct", "pimc", "ismcts", "ismcts-beliefs", "solver", "learned"]


def _positions(name: str, players: int, seed: int, every: int) -> Iterator[tuple[State, int]]:
    """Decision points of a heuristic game, every ``every``-th move."""
    s = State.new(preset(name), players, seed=seed)
    bots = [make_bot("heuristic", i) for i in range(players)]
    k = 0
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        if k % every == every - 1:
            yield s.clone(), seat
        s.apply(bots[seat].act(s.observation(seat)))
        k += 1


@pytest.mark.parametrize("bot", BOTS)
def test_swapping_hidden_cards_never_changes_a_decision(bot: str) -> None:
    rng = random.Random(1)
    checked = changed = hidden = 0
    names = sorted(PRESETS)
    for i, name in enumerate(names):
        players = 2 if name != "blodmattis" else 3
        if bot in ("pimc", "ismcts", "ismcts-beliefs") and i % 2:
            continue  # the slow bots: two presets suffice
        for s, seat in _positions(name, players + i % 2, 100 + i, 17):
            obs = s.observation(seat)
            other = relabel_hidden(s, seat, rng)  # the true state with hidden cards dealt afresh
            assert other.observation(seat) == obs
            if any(len(obs.known[o]) < obs.hand_counts[o] for o in range(s.players) if o != seat):
                hidden += 1  # another hand holds cards this seat cannot place: a swap can move them
            if any(sorted(other.hand(o)) != sorted(s.hand(o)) for o in range(s.players)):
                changed += 1
            a = make_bot(bot, 42).act(obs)
            b = make_bot(bot, 42).act(other.observation(seat))
            assert a == b
            assert a in obs.legal
            checked += 1
    assert checked >= 6
    assert hidden >= 4 and changed >= hidden // 3  # the swaps really moved hidden cards


def test_hidden_cards_are_the_ones_the_seat_cannot_place() -> None:
    s = State.new(preset("mattis"), 3, seed=3)
    obs = s.observation(0)
    mask = hidden_cards(obs)
    assert mask.bit_count() == 52 - 3
    assert not any(mask >> c & 1 for c in obs.hand)
