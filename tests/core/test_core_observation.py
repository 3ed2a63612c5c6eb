"""The observation's contract (immutable, equal, hashed and pickled by value, the same
fields as ever) and its card masks, over seeded games of every preset."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from mattis.core import PRESETS, Observation, State, card_code, mask_of, preset
from mattis.core.observation import FIELDS
from tiers import scale

GAMES = scale(2, 6)


def _observations(name: str, players: int, seed: int) -> list[tuple[State, Observation]]:
    """(state, observation of every seat) at each step of one seeded game."""
    s = State.new(preset(name), players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    out: list[tuple[State, Observation]] = []
    while True:
        out += [(s.clone(), s.observation(seat)) for seat in range(players)]
        if s.is_over:
            return out
        s.apply(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_masks_say_what_the_card_tuples_say(name: str) -> None:
    for players in preset(name).allowed_players():
        for g in range(GAMES):
            for state, obs in _observations(name, players, g)[::3]:
                assert obs.hand == tuple(sorted(obs.hand)) == tuple(state.hand(obs.seat))
                assert obs.hand_mask == mask_of(obs.hand)
                assert obs.pile_masks == tuple(mask_of(p) for p in obs.piles)
                assert obs.known_masks == tuple(mask_of(k) for k in obs.known)
                assert all(p == tuple(sorted(p)) for p in obs.piles + obs.known)
                assert sum(obs.hand_counts) + obs.stock_count + obs.set_aside_count <= 52
                assert obs.hand_counts[obs.seat] == len(obs.hand)


def test_an_observation_is_a_value() -> None:
    states = _observations("mattis", 3, 1)
    for state, obs in states[::7]:
        again = state.observation(obs.seat)
        assert again == obs and hash(again) == hash(obs) and not again != obs
        for back in (pickle.loads(pickle.dumps(obs)), copy.copy(obs), copy.deepcopy(obs)):
            assert back == obs and hash(back) == hash(obs)
            assert all(getattr(back, f) == getattr(obs, f) for f in FIELDS)
        other = state.observation((obs.seat + 1) % 3)
        assert other != obs
        assert obs.replace(history=()) != obs or not obs.history
        assert obs.replace(hand=obs.hand) == obs
    assert len({obs for _, obs in states}) == len({(o.seat, o.history, o.phase) for _, o in states})


def test_an_observation_cannot_be_changed() -> None:
    _, obs = _observations("hund", 4, 2)[20]
    for name in (*FIELDS, "hand_mask", "known_masks", "pile_masks", "something_new"):
        with pytest.raises(AttributeError):
            setattr(obs, name, None)


def test_replace_makes_a_changed_copy() -> None:
    _, obs = _observations("mattis", 3, 3)[30]
    hand = obs.hand[1:]
    changed = obs.replace(hand=hand, history=(), stock_count=0)
    assert changed.hand == hand and changed.hand_mask == mask_of(hand)
    assert changed.history == () and changed.stock_count == 0
    assert all(getattr(changed, f) == getattr(obs, f) for f in FIELDS if f not in ("hand", "history", "stock_count"))
    assert obs.hand != hand  # the original is unchanged
    with pytest.raises(TypeError):
        obs.replace(nonsense=1)


def test_the_fields_are_the_published_list() -> None:
    _, obs = _observations("blodmattis", 5, 4)[40]
    text = repr(obs)
    assert text.startswith("Observation(seat=")
    assert all(f"{f}=" in text for f in FIELDS)
    assert len(FIELDS) == 35 and len(set(FIELDS)) == 35


_MASKED = {"hand": "hand_mask", "piles": "pile_masks", "known": "known_masks"}
"""The fields held as bit masks (the slot, the key and the constructor hold the mask)."""


def test_the_field_list_is_one_list_the_slots_the_key_and_observe_follow() -> None:
    """FIELDS is the one list: the slots are its fields in order (card sets as masks)
    then the three card-tuple caches; the by-value key (what pickling and the
    constructor take) is its fields in order; observe builds every field; to_json has
    one key per field, in order."""
    state, obs = _observations("blodmattis", 4, 5)[60]
    slots = tuple("_" + _MASKED.get(f, f) for f in FIELDS)
    declared = getattr(Observation, "__slots__", None)  # the compiled class keeps no __slots__
    if declared is not None:
        assert declared == (*slots, "_hand", "_piles", "_known")
    assert all(hasattr(obs, slot) for slot in slots)
    cls, key = obs.__reduce__()
    assert cls is Observation and len(key) == len(FIELDS)
    for name, value in zip(FIELDS, key, strict=True):
        held = frozenset(value) if name == "still_in" else value  # a tuple of seats, read as a set
        assert held == getattr(obs, _MASKED.get(name, name)), name
    assert Observation(*key) == obs == state.observation(obs.seat)
    data = obs.to_json()
    assert list(data) == [*FIELDS, "history_start"]
    assert data["hand"] == [card_code(c) for c in obs.hand]
    assert data["history"] == [[s, str(m), [card_code(c) for c in shown]] for s, m, shown in obs.history]
    assert data["waiting"] == list(obs.waiting) and data["phase"] == int(obs.phase)
    json.dumps(data)  # JSON-ready as it is


def test_to_json_of_a_spectator_hides_the_hand_and_gives_the_history_tail() -> None:
    for _, obs in _observations("mattis", 3, 6)[::50]:
        data = obs.to_json(public=True, history_from=len(obs.history) - 2)
        assert data["hand"] == [] and data["legal"] == []
        assert data["hand_counts"] == list(obs.hand_counts)
        start = max(0, len(obs.history) - 2)
        assert data["history_start"] == start and len(data["history"]) == len(obs.history) - start


@pytest.mark.parametrize("name", ["mattis", "blodmattis", "skitgubbe"])
def test_an_observation_comes_back_from_its_json_as_it_was(name: str) -> None:
    """``from_json`` is ``to_json``'s inverse at every position of whole games (a terminal
    seat at a web table rebuilds its observation from the frame)."""
    rng = random.Random(name)
    for _ in range(scale(2, 10)):
        st = State.new(preset(name), 3, seed=rng.randrange(10**6))
        while True:
            for seat in range(3):
                obs = st.observation(seat)
                assert Observation.from_json(obs.to_json()) == obs
            to_act = st.to_act
            if st.is_over or to_act is None:
                break
            st.apply(rng.choice(st.observation(to_act).legal))
    with pytest.raises(ValueError):  # a history cut short cannot be rebuilt
        Observation.from_json(st.observation(0).to_json(history_from=3))
