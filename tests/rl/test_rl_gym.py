"""The Gymnasium single-agent environment: Gymnasium's checker and our rules."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from mattis.rl.gym_env import MattisEnv, register  # noqa: E402
from tiers import scale  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {"opponents": "random"},
    {"rules": "blodmattis", "players": 4, "opponents": "random", "seat": 2},
    {"rules": "skitgubbe", "players": 2, "overrides": "sequences=3", "opponents": "random"},
])
def test_gymnasium_check_env(kwargs: dict[str, Any]) -> None:
    check_env(MattisEnv(**kwargs), skip_render_check=True)


def run_episode(env: MattisEnv, seed: int) -> tuple[list[int], float, dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        obs, reward, terminated, truncated, info = env.step(a)
        assert env.observation_space.contains(obs) and not (terminated and truncated)
        if terminated or truncated:
            assert "illegal_action" not in info
            return actions, float(reward), info


@pytest.mark.parametrize("kwargs", [{}, {"rules": "blodmattis", "players": 5, "seat": 3}])
def test_reward_is_minus_one_exactly_when_the_learner_loses(kwargs: dict[str, Any]) -> None:
    env = MattisEnv(opponents="random", **kwargs)
    outcomes = set()
    for seed in range(12):
        _, reward, info = run_episode(env, seed)
        assert reward == (-1.0 if env.seat in info["losers"] else 0.0)
        # not the loser: out, or ranked ahead of the loser at a forced end (repetition, cap)
        assert reward == -1.0 or env.seat in info["finished"] or env.seat in info["ranked"]
        outcomes.add(reward)
    assert outcomes == {-1.0, 0.0}


def test_seeded_reset_is_reproducible() -> None:
    a = run_episode(MattisEnv(opponents="random"), 5)
    b = run_episode(MattisEnv(opponents="random"), 5)
    c = run_episode(MattisEnv(opponents="random"), 6)
    assert a[0] == b[0] and a[1] == b[1]
    assert a[0] != c[0]


def test_plain_resets_continue_the_seeded_sequence() -> None:
    """After ``reset(seed=s)`` a plain ``reset()`` deals the next game of that seed's
    sequence: the same for two envs, a different deal from the first."""
    first, second = MattisEnv(opponents="random"), MattisEnv(opponents="random")
    a0, _ = first.reset(seed=9)
    b0, _ = second.reset(seed=9)
    a1, _ = first.reset()
    b1, _ = second.reset()
    assert np.array_equal(a0, b0) and np.array_equal(a1, b1)
    assert not np.array_equal(a0, a1)


def test_an_illegal_action_ends_the_episode_with_a_loss() -> None:
    env = MattisEnv(opponents="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_default_opponents_come_from_the_bot_levels_and_make_works() -> None:
    register()
    env = gym.make("mattis/Mattis-v0", players=4, opponents=["easy", "random", "random"])
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape
    with pytest.raises(ValueError, match="unknown bot"):
        MattisEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="opponents"):
        MattisEnv(players=4, opponents=["random"])


@pytest.mark.parametrize(("rules", "players"), [("mattis", 3), ("blodmattis", 5), ("skitgubbe", 2)])
def test_random_opponents_played_in_the_core_are_the_random_bots_moves(rules: str, players: int) -> None:
    """MattisEnv plays ``random`` opponents inside the compiled core; a reference loop
    (the referee, the play loop and the random bots, seeded as the env seeds them)
    gives the same tensors, masks, rewards and move counts, episode for episode."""
    import numpy as np

    from mattis.bots.base import RandomBot
    from mattis.core import Termination
    from mattis.play import Referee, derive_seed, play_until
    from mattis.rl.encoding import ActionSpace, encode

    env = MattisEnv(rules=rules, players=players, opponents="random", overrides={"phase2_cap": 200})
    space = ActionSpace(env.rules)
    rng = np.random.default_rng(players)
    obs, _ = env.reset(seed=11)
    episodes = 0
    for k in range(scale(3, 10)):
        if k:
            obs, _ = env.reset()
        ref = Referee.new(env.rules, players, seed=derive_seed(11, "deal", k))
        bots = {s: RandomBot(derive_seed(11, "bot", k, s)) for s in range(1, players)}
        moves = play_until(ref, bots)
        if ref.observation(0).legal == ():  # a deal the env skips (the learner's fate is settled before it acts)
            break
        before = env.decisions - moves
        assert np.array_equal(obs, encode(ref.observation(0)))
        while True:
            mask = env.action_masks()
            assert np.array_equal(mask, space.mask(ref.observation(0).legal).astype(bool))
            a = int((rng.random(mask.shape) * mask).argmax())
            obs, reward, term, trunc, _ = env.step(a)
            ref.apply(0, space.move(a))
            moves += 1
            seen = ref.observation(0)
            if 0 not in seen.losers and 0 not in seen.finished and not seen.is_over:
                moves += play_until(ref, bots)
                seen = ref.observation(0)
            assert np.array_equal(obs, encode(seen))
            assert env.decisions - before == moves
            if term or trunc:
                assert reward == (-1.0 if 0 in seen.losers else 0.0)
                assert trunc == (seen.end_reason is Termination.CAP)
                episodes += 1
                break
            assert reward == 0.0
    assert episodes >= 2
