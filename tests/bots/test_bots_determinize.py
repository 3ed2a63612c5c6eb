"""Determinization: sampled states agree with everything the seat has seen."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from mattis.core import OPTIONS, PICKUP, PRESETS, Rules, State, parse_card, preset
from mattis.core.determinize import sample_state
from mattis.core.observation import PHASE2
from mattis.core.rules import DETERMINIZER


def _random_positions(name: str | Rules, players: int, games: int, p: float, seed: int
                      ) -> Iterator[tuple[State, int]]:
    """(state, seat) at random decision points of random games."""
    rules = preset(name) if isinstance(name, str) else name
    rng = random.Random(seed)
    for g in range(games):
        s = State.new(rules, players, seed=seed * 1000 + g)
        while not s.is_over:
            if rng.random() < p:
                seat = s.to_act
                assert seat is not None
                yield s.clone(), seat
            s.apply(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_sampled_observation_equals_real(name: str) -> None:
    rules = preset(name)
    checked = 0
    for n in rules.allowed_players():
        for s, seat in _random_positions(name, n, 2, 0.1, 11 + n):
            obs = s.observation(seat)
            d = sample_state(obs, random.Random(checked))
            assert d.observation(seat) == obs
            checked += 1
    assert checked > 50


#: Every value of every option of the option table that reaches what a move reveals.
REVEALING = [(spec.name, v) for spec in OPTIONS if DETERMINIZER in spec.reaches for v in spec.values]


@pytest.mark.parametrize(("option", "value"), REVEALING, ids=[f"{o}={v}" for o, v in REVEALING])
def test_sampled_observation_equals_real_under_every_value(option: str, value: object) -> None:
    """Under every value of every option the determinizer depends on (the option table's
    ``determinizer`` reach), a sample shows the seat exactly its observation."""
    rules = preset("mattis", **{option: value, "sequences": 2})
    checked = 0
    for n in (2, 3):
        for s, seat in _random_positions(rules, n, 2, 0.15, 5 + n):
            obs = s.observation(seat)
            d = sample_state(obs, random.Random(checked))
            assert d.observation(seat) == obs
            checked += 1
    assert checked > 20


def test_other_seats_also_see_the_same_public_facts() -> None:
    """The sample is a real game: every seat's public view (counts, history) matches."""
    for s, seat in _random_positions("hund", 4, 4, 0.1, 3):
        d = sample_state(s.observation(seat), random.Random(1))
        for other in range(4):
            a, b = s.observation(other), d.observation(other)
            assert a.history == b.history and a.hand_counts == b.hand_counts and a.known == b.known
            assert a.piles == b.piles and a.stock_count == b.stock_count


def test_hidden_cards_land_everywhere_they_may_be() -> None:
    """Early in phase 1 each unseen card can be in either other hand or the stock."""
    rules = preset("mattis")
    s = State.new(rules, 3, seed=5)
    for _ in range(4):
        s.apply(s.legal_moves()[0])
    seat = s.to_act
    assert seat is not None
    obs = s.observation(seat)
    seen = set(obs.hand)
    for _, _, cards in obs.history:
        seen.update(cards)
    hidden = [c for c in range(52) if c not in seen]
    where: dict[int, set[str]] = {c: set() for c in hidden}
    rng = random.Random(0)
    for _ in range(400):
        d = sample_state(obs, rng)
        assert sorted(d.hand(seat)) == sorted(obs.hand)
        snap = d.snapshot()
        for other in range(3):
            if other != seat:
                for c in d.hand(other):
                    where[c].add(f"hand{other}")
        for code in snap["stock"]:
            where[parse_card(code)].add("stock")
    others = {f"hand{o}" for o in range(3) if o != seat}
    for c in hidden:
        assert where[c] == others | {"stock"}, (c, where[c])


def test_voids_from_forced_pickups_are_respected() -> None:
    """Blodmattis-like rules with forced pickups and hidden cards in phase 2: a seat
    that picked up (pickup not optional) is never dealt a card that would have beaten."""
    rules = preset("skitgubbe", pickup_optional=False, leftovers_shown=False)
    events = 0
    rng = random.Random(7)
    for g in range(60):
        s = State.new(rules, 3, seed=900 + g)
        while not s.is_over:
            s.apply(rng.choice(s.legal_moves()))
            if s.phase != PHASE2 or s.is_over:
                continue
            seat = s.to_act
            assert seat is not None
            obs = s.observation(seat)
            hidden_holders = [o for o in range(3) if o != seat and len(obs.known[o]) < obs.hand_counts[o]]
            forced = [h for h in obs.history if h[1] == PICKUP and h[0] in hidden_holders]
            if not forced:
                continue
            d = sample_state(obs, random.Random(g))
            # Replay the sample: at each forced pickup the picker had no playable card.
            r = State.from_deck(rules, 3, list(d.deck or ()), obs.dealer)
            for who, mv, _ in obs.history:
                if mv == PICKUP and who in hidden_holders:
                    assert r.legal_moves() == (PICKUP,)
                    events += 1
                r.apply(mv)
            break
    assert events > 5
