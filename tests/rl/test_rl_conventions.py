"""The conventions generic research code assumes: Gymnasium 1.x (single and vector),
Stable-Baselines3's VecEnv, truncation at the phase 2 cap, the zero-sum reward."""

from __future__ import annotations

import abc
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from mattis.core import Termination  # noqa: E402
from mattis.rl.common import is_truncated, loser_rewards  # noqa: E402
from mattis.rl.gym_env import ENV_ID, ActionMasks, MattisEnv, register  # noqa: E402
from mattis.rl.sb3 import sb3_vec_env  # noqa: E402
from mattis.rl.vector_env import MattisVectorEnv  # noqa: E402
from tiers import run_on_core, scale  # noqa: E402

SHORT_CAP = {"phase2_cap": 6}
"""A phase 2 cap that stops most games: the truncation path runs often."""


def _random_legal(rng: np.random.Generator, mask: np.ndarray[Any, Any]) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_no_step_after_an_illegal_action_ended_the_episode() -> None:
    """Defect: after an illegal action ended the episode, ``action_masks()`` still
    listed moves and ``step()`` accepted more actions."""
    env = MattisEnv(opponents="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -1.0 and info["illegal_action"]
    assert not env.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env.reset()
    assert env.action_masks().any()


def test_no_step_after_a_played_episode_ended() -> None:
    env = MattisEnv(opponents="random")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while True:
        _, _, term, trunc, _ = env.step(_random_legal(rng, env.action_masks()))
        if term or trunc:
            break
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


def test_the_phase2_cap_truncates_and_other_ends_terminate() -> None:
    assert is_truncated(Termination.CAP) and not is_truncated(Termination.REPETITION)
    # about half the games; on the rules core, whose referee says how each game ended
    env = MattisEnv(players=3, overrides={"phase2_cap": 100}, opponents="random", engine="python")
    rng = np.random.default_rng(3)
    seen = {True: 0, False: 0}
    for ep in range(30):
        env.reset(seed=ep)
        while True:
            _, reward, term, trunc, info = env.step(_random_legal(rng, env.action_masks()))
            assert not (term and trunc)
            if term or trunc:
                ref = env.referee
                assert ref is not None
                over = ref.outcome
                # truncated exactly when the game was stopped by the cap (and the learner's fate came with it)
                capped = over is not None and over.termination is Termination.CAP and env.seat not in info["finished"]
                assert trunc == capped
                assert reward == (-1.0 if env.seat in info["losers"] else 0.0)
                seen[trunc] += 1
                break
    assert seen[True] and seen[False]


def test_zero_sum_reward_for_two_players() -> None:
    assert loser_rewards(2, [1], zero_sum=True) == [1.0, -1.0]
    assert loser_rewards(3, [0], zero_sum=True) == [-1.0, 0.5, 0.5]
    env = MattisEnv(players=2, opponents="random", zero_sum=True)
    rng = np.random.default_rng(4)
    rewards = set()
    for ep in range(12):
        env.reset(seed=ep)
        while True:
            _, reward, term, trunc, info = env.step(_random_legal(rng, env.action_masks()))
            if term or trunc:
                assert reward == (-1.0 if env.seat in info["losers"] else 1.0)
                rewards.add(reward)
                break
    assert rewards == {1.0, -1.0}
    with pytest.raises(ValueError, match="two players"):
        MattisEnv(players=3, zero_sum=True)
    with pytest.raises(ValueError, match="one loser"):
        MattisEnv(players=2, overrides={"empty_hand": "loses"}, zero_sum=True)


@pytest.mark.parametrize("kwargs", [{"players": 3}, {"players": 4, "rules": "blodmattis", "overrides": SHORT_CAP}])
def test_vector_env_is_exactly_gymnasiums_same_step_sync_vector_env(kwargs: dict[str, Any]) -> None:
    """Step for step the same observations, rewards, terminations, truncations and
    infos (Gymnasium 1.x's ``_key`` layout, ``final_obs``/``final_info``) as
    ``gymnasium.vector.SyncVectorEnv`` in SAME_STEP mode over the same games."""
    n = 3
    ours = MattisVectorEnv(n, opponents="random", seat="rotate", **kwargs)
    ref = SyncVectorEnv([lambda: MattisEnv(opponents="random", seat="rotate", **kwargs) for _ in range(n)],
                        autoreset_mode=AutoresetMode.SAME_STEP)
    assert ours.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert ours.single_observation_space == ref.single_observation_space
    assert ours.single_action_space == ref.single_action_space
    assert ours.observation_space == ref.observation_space and ours.action_space == ref.action_space
    assert data_equivalence(ours.reset(seed=5), ref.reset(seed=5))
    rng = np.random.default_rng(5)
    ended = illegal = 0
    for t in range(160):
        masks = ours.action_masks()
        acts = np.array([_random_legal(rng, m) for m in masks])
        if t % 37 == 36:  # now and then an illegal action: the episode ends with -1
            acts[0] = int(np.flatnonzero(~masks[0])[0])
            illegal += 1
        a = ours.step(acts)
        b = ref.step(acts)
        assert data_equivalence(a, b), t
        assert ours.observation_space.contains(a[0])
        ended += int((a[2] | a[3]).sum())
        if (a[2] | a[3]).any():
            assert set(a[4]["final_info"]) >= {"losers", "_losers", "seat", "_seat"}
    assert ended > n and illegal


class _VecEnvLike(abc.ABC):
    """sb3's ``VecEnv`` as the adapter sees it (sb3 is not installed here): the same
    constructor and abstract methods, so a missing one fails to instantiate."""

    def __init__(self, num_envs: int, observation_space: gym.Space[Any], action_space: gym.Space[Any]) -> None:
        self.num_envs = num_envs
        self.observation_space = observation_space
        self.action_space = action_space
        # sb3 asks every game for its render_mode here (and warns where a game has none)
        modes = self.get_attr("render_mode")
        assert all(m == modes[0] for m in modes)
        self.render_mode = modes[0]

    @abc.abstractmethod
    def reset(self) -> Any: ...
    @abc.abstractmethod
    def step_async(self, actions: Any) -> None: ...
    @abc.abstractmethod
    def step_wait(self) -> Any: ...
    @abc.abstractmethod
    def close(self) -> None: ...
    @abc.abstractmethod
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]: ...
    @abc.abstractmethod
    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None: ...
    @abc.abstractmethod
    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]: ...
    @abc.abstractmethod
    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]: ...


def test_sb3_adapter_speaks_the_vecenv_interface() -> None:
    """The adapter against sb3's VecEnv interface, by duck typing: reset returns the
    observations, step_wait dones = terminated or truncated, an ended game's info has
    ``terminal_observation`` and ``TimeLimit.truncated``, MaskablePPO's
    ``env_method("action_masks")`` gives the new episode's masks after an auto-reset."""
    n = 3
    kwargs = {"players": 3, "overrides": {"phase2_cap": 60}, "opponents": "random"}
    venv: Any = sb3_vec_env(MattisVectorEnv(n, **kwargs), base=_VecEnvLike)
    twin = MattisVectorEnv(n, **kwargs)
    assert _VecEnvLike in type(venv).__mro__ and venv.num_envs == n and venv.render_mode is None
    assert venv.observation_space == twin.single_observation_space
    venv.seed(7)
    obs = venv.reset()
    assert np.array_equal(obs, twin.reset(seed=7)[0])
    assert venv.has_attr("action_masks") and venv.get_attr("players") == [3] * n
    rng = np.random.default_rng(7)
    truncated = terminated = 0
    for _ in range(120):
        masks = np.stack(venv.env_method("action_masks"))
        assert np.array_equal(masks, twin.action_masks()) and masks.any(axis=1).all()
        acts = np.array([_random_legal(rng, m) for m in masks])
        venv.step_async(acts)
        obs, rewards, dones, infos = venv.step_wait()
        o2, r2, t2, tr2, i2 = twin.step(acts)
        assert np.array_equal(obs, o2) and np.array_equal(rewards, r2)
        assert dones.tolist() == (t2 | tr2).tolist() and isinstance(infos, list) and len(infos) == n
        for i in range(n):
            if dones[i]:
                assert np.array_equal(infos[i]["terminal_observation"], i2["final_obs"][i])
                assert infos[i]["TimeLimit.truncated"] == bool(tr2[i])
                truncated += bool(tr2[i])
                terminated += bool(t2[i])
            else:
                assert "terminal_observation" not in infos[i]
    assert truncated and terminated
    assert venv.env_is_wrapped(gym.Wrapper) == [False] * n


COPIED = Path(__file__).with_name("copied_envs.py")


@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_envs_deep_copy_and_pickle_and_the_copies_play_on(pure: bool) -> None:
    """Defect: on the compiled core neither ``MattisEnv`` nor ``MattisVectorEnv`` could
    be deep-copied or pickled (the core's batch needs its constructor's arguments), and a
    copied vector env's ``obs``/``masks`` were arrays of their own, no longer filled.  A
    deep copy and a pickled copy, made in the middle of seeded games, step with the
    original action for action through several episodes and give the same arrays."""
    result = run_on_core(COPIED, scale(120, 400), pure)
    build = result.pop("build")
    if build != ("pure" if pure else "compiled"):
        pytest.skip("the compiled core is not built here (python setup.py build_ext --inplace builds it)")
    assert result["env"] == "same" and result["vector"] == "same"
    assert int(result["env_episodes"]) >= 1 and int(result["vector_episodes"]) >= 4


def test_gym_make_remakes_an_env_from_its_spec() -> None:
    """Defect: ``gym.make(env.spec)`` failed (the ``ActionMasks`` wrapper recorded no
    constructor arguments).  The remade env has the same spec and plays the same game."""
    register()
    made = gym.make(ENV_ID, players=4, rules="hund", opponents="random")
    assert made.spec is not None
    remade = gym.make(made.spec)
    assert remade.spec == made.spec and isinstance(remade, ActionMasks) and isinstance(made, ActionMasks)
    env, again = made, remade
    obs, _ = env.reset(seed=4)
    obs2, _ = again.reset(seed=4)
    assert np.array_equal(obs, obs2) and np.array_equal(env.action_masks(), again.action_masks())
    rng = np.random.default_rng(4)
    for _ in range(20):
        a = np.int64(_random_legal(rng, env.action_masks()))
        first, second = env.step(a), again.step(a)
        assert np.array_equal(first[0], second[0]) and first[1:4] == second[1:4]
        if first[2] or first[3]:
            break
