"""The card index order: suit-major by default, rank-major on request (as OpenSpiel's
hearts, crazy_eights and bridge number cards), the same in actions and tensors."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from mattis.core import State, play, preset  # noqa: E402
from mattis.core.layout import BLOCKS, PER_SEAT  # noqa: E402
from mattis.rl import openspiel_game  # noqa: E402, F401  (registers python_mattis)
from mattis.rl.encoding import ActionSpace, Encoder, card_index, card_of_index, obs_size  # noqa: E402
from mattis.rl.gym_env import MattisEnv  # noqa: E402


def test_card_indexes() -> None:
    # 2C 2D 2H 2S 3C ... AS: rank * 4 + suit
    assert [card_index(c, "rank_major") for c in (0, 13, 26, 39, 1, 51)] == [0, 1, 2, 3, 4, 51]
    assert sorted(card_index(c, "rank_major") for c in range(52)) == list(range(52))
    assert all(card_of_index(card_index(c, o), o) == c for c in range(52) for o in ("suit_major", "rank_major"))
    assert all(card_index(c) == c for c in range(52))
    with pytest.raises(ValueError, match="card_order"):
        Encoder(3, "bridge")


def test_rank_major_actions_and_tensor_are_the_suit_major_ones_renumbered() -> None:
    rules = preset("blodmattis")
    a, b = ActionSpace(rules), ActionSpace(rules, "rank_major")
    assert a.size == b.size and a.chance_action == b.chance_action
    for c in range(52):
        assert b.action(play(c)) == card_index(c, "rank_major") and b.move(card_index(c, "rank_major")) == play(c)
    for act in range(52, a.size):
        assert a.move(act) == b.move(act)
    rng = random.Random(0)
    ea, eb = Encoder(4), Encoder(4, "rank_major")
    s = State.new(rules, 4, seed=3)
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        obs = s.observation(seat)
        ta, tb = ea.encode(obs), eb.encode(obs)
        pos = 0
        for _name, size, shape, _ in BLOCKS:
            total = size * 4 if shape == PER_SEAT else size
            for base in range(pos, pos + total, size):
                if size == 52:
                    assert all(tb[base + card_index(c, "rank_major")] == ta[base + c] for c in range(52))
                else:
                    assert np.array_equal(ta[base:base + size], tb[base:base + size])
            pos += total
        assert pos == obs_size(4)
        assert sorted(b.actions(obs.legal)) == sorted(np.flatnonzero(b.mask(obs.legal)))
        s.apply(rng.choice(s.legal_moves()))


def test_rank_major_environments_pass_the_framework_checks() -> None:
    check_env(MattisEnv(players=3, opponents="random", card_order="rank_major"), skip_render_check=True)
    game = pyspiel.load_game("python_mattis(players=3,card_order=rank_major)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    plain = pyspiel.load_game("python_mattis(players=3)")
    rng = random.Random(1)
    a, b = plain.new_initial_state(), game.new_initial_state()
    while not a.is_terminal():
        if a.is_chance_node():
            c = rng.choice([x for x, _ in a.chance_outcomes()])
            a.apply_action(c)
            b.apply_action(card_index(c, "rank_major"))
            continue
        p = a.current_player()
        assert a.information_state_string(p) == b.information_state_string(p)
        assert sorted(b.legal_actions()) == sorted(card_index(x, "rank_major") if x < 52 else x
                                                   for x in a.legal_actions())
        x = rng.choice(a.legal_actions())
        a.apply_action(x)
        b.apply_action(card_index(x, "rank_major") if x < 52 else x)
    assert a.returns() == b.returns()
