"""The fixed action space and the observation tensor: coverage, layout, no leaks."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from rl_helpers import CONFIGS, hidden_swaps, random_game, replay  # noqa: E402

from mattis.core import CHANCE, PICKUP, Phase, Rules, State, play, preset  # noqa: E402
from mattis.rl.encoding import (  # noqa: E402
    ActionSpace,
    encode,
    layout,
    obs_size,
    obs_string,
    offsets,
    out_cards,
    sequence_count,
)


def test_action_space_sizes_and_layout() -> None:
    assert ActionSpace(preset("mattis")).size == 54
    assert ActionSpace(preset("blodmattis")).size == 52 + 312 + 2
    assert ActionSpace(preset("skitgubbe", sequences=3)).size == 52 + 264 + 2
    assert sequence_count(13) == 4
    space = ActionSpace(preset("mattis", sequences=2))
    assert space.move(0) == play(0) and space.move(51) == play(51)
    assert space.move(52) == play(0, 1)  # the first sequence: 2C 3C
    assert space.move(space.size - 2) is CHANCE and space.move(space.size - 1) is PICKUP
    assert space.move(space.size - 3) == play(*range(50, 52))  # the last: KS AS
    for a in range(space.size):
        assert space.action(space.move(a)) == a
    with pytest.raises(ValueError):
        ActionSpace(preset("mattis")).action(play(0, 1))
    with pytest.raises(IndexError):
        space.move(space.size)


@pytest.mark.parametrize("rules,players", CONFIGS)
def test_every_legal_move_has_an_action(rules: Rules, players: int) -> None:
    space = ActionSpace(rules)
    for seed in range(6):
        s = State.new(rules, players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            mask = space.mask(legal)
            assert mask.dtype == np.int8 and int(mask.sum()) == len(set(legal))
            assert {space.move(a) for a in np.flatnonzero(mask)} == set(legal)
            s.apply(rng.choice(legal))


@pytest.mark.parametrize("rules,players", CONFIGS)
def test_out_cards_match_the_referee(rules: Rules, players: int) -> None:
    """The out-of-play block is derived from public events; it must equal the truth."""
    for seed in range(4):
        s = State.new(rules, players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.phase is Phase.SHED:
                truth = sorted(s.snapshot()["out_of_play"])
                for seat in range(players):
                    from mattis.core import card_code

                    assert sorted(card_code(c) for c in out_cards(s.observation(seat))) == truth
            s.apply(rng.choice(s.legal_moves()))


def test_tensor_blocks_hold_what_the_seat_sees() -> None:
    s, moves = random_game(preset("mattis"), 3, 5)
    t = replay(s.rules, 3, list(s.deck or ()), moves[:20])
    assert t is not None
    for seat in range(3):
        obs = t.observation(seat)
        x = encode(obs)
        o = offsets(3)
        assert x.shape == (obs_size(3),) and x.dtype == np.float32
        assert 0.0 <= x.min() and x.max() <= 1.0
        assert set(np.flatnonzero(x[o["hand"]:o["hand"] + 52])) == set(obs.hand)
        assert t.to_act is not None
        assert x[o["to_act"] + (t.to_act - seat) % 3] == 1.0  # relative seat to act
        assert x[o["phase"]] == 1.0
        # Block 1 of "piles" is the seat to the observer's left.
        left = (seat + 1) % 3
        assert set(np.flatnonzero(x[o["piles"] + 52:o["piles"] + 104])) == set(obs.piles[left])
    assert sum(size for _, size in layout(3)) == obs_size(3)


@pytest.mark.parametrize("rules,players", CONFIGS[:5])
def test_swapping_hidden_cards_leaves_the_observation_unchanged(rules: Rules, players: int) -> None:
    """A seat's tensor and string depend only on what it may know: deal again two cards it
    never saw (in other hands, the stock, set aside), replay the same moves, compare."""
    rng = random.Random(11)
    compared = changed_truth = 0
    for seed in range(3):
        s, moves = random_game(rules, players, seed)
        for cut in (4, 12, len(moves) // 3, len(moves) // 2):
            t = replay(rules, players, list(s.deck or ()), moves[:cut])
            assert t is not None
            seat = (seed + cut) % players
            held: list[set[int]] = [set() for _ in range(players)]
            u = State.from_deck(rules, players, list(s.deck or ()), 0)
            for mv in moves[:cut]:
                for q in range(players):
                    held[q].update(u.hand(q))
                u.apply(mv)
            for q in range(players):
                held[q].update(u.hand(q))
            mine = t.observation(seat)
            for _, other in hidden_swaps(t, moves[:cut], seat, rng, held):
                theirs = other.observation(seat)
                assert np.array_equal(encode(mine), encode(theirs))
                assert obs_string(mine) == obs_string(theirs)
                compared += 1
                changed_truth += other.snapshot() != t.snapshot()
    assert compared >= 10 and changed_truth >= 10


def test_a_seats_own_cards_do_change_its_observation() -> None:
    """The control for the leak test: swapping a card of the seat's own hand is visible."""
    rules = preset("mattis")
    s = State.new(rules, 3, seed=2)
    deck = list(s.deck or ())
    mine = s.observation(1).hand[0]
    stock_card = deck[30]
    d = deck[:]
    i, j = d.index(mine), d.index(stock_card)
    d[i], d[j] = d[j], d[i]
    other = State.from_deck(rules, 3, d, 0)
    assert not np.array_equal(encode(s.observation(1)), encode(other.observation(1)))
    assert np.array_equal(encode(s.observation(0)), encode(other.observation(0)))
