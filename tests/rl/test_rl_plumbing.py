"""The research plumbing: opponents (names, agents, policy callables, snapshots,
pools), seat and dealer rotation, masks through ``gym.make``, the batched env, the
incremental encoder, and the framework checks on every preset."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from pettingzoo.utils import BaseWrapper  # noqa: E402
from rl_helpers import CONFIGS  # noqa: E402

from mattis.core import PRESETS, Move, Observation, Rules, State, card_symbol  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.rl import mattis_v0  # noqa: E402
from mattis.rl.encoding import Encoder, encode, obs_size  # noqa: E402
from mattis.rl.gym_env import DEFAULT_OPPONENT, ENV_ID, MattisEnv, register  # noqa: E402
from mattis.rl.opponents import OpponentPool, PolicyAgent, frozen_policy, random_policy  # noqa: E402
from mattis.rl.pettingzoo_env import BotAgent  # noqa: E402
from mattis.rl.vector_env import MattisVectorEnv  # noqa: E402
from tiers import scale  # noqa: E402

PRESET_TABLES = [(name, 3) for name in PRESETS] + [("mattis", 2), ("hund", 5), ("blodmattis", 6),
                                                   ("skitgubbe", 4)]


def play_out(env: MattisEnv, rng: Any) -> tuple[float, dict[str, Any]]:
    while True:
        _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            return float(reward), info


# ----------------------------------------------------------------- encoder
@pytest.mark.parametrize("rules,players", CONFIGS)
def test_the_incremental_encoder_equals_the_stateless_one(rules: Rules, players: int) -> None:
    """One encoder per seat, fed move after move, and one shared encoder (which must
    notice the change of seat and start afresh) give the stateless tensor."""
    for seed in range(scale(3, 10)):
        s = State.new(rules, players, seed=seed)
        rng = random.Random(seed)
        mine = [Encoder(players) for _ in range(players)]
        shared = Encoder(players)
        while True:
            for seat in range(players):
                obs = s.observation(seat)
                want = encode(obs)
                assert np.array_equal(mine[seat].encode(obs), want)
                assert np.array_equal(shared.encode(obs), want)
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_moves()))
        # a new game through an old encoder starts afresh
        t = State.new(rules, players, seed=seed + 100)
        assert np.array_equal(mine[0].encode(t.observation(0)), encode(t.observation(0)))


# --------------------------------------------------------------- opponents
class Spy:
    """An agent that records which seats it was asked to play and what it saw."""

    name = "spy"

    def __init__(self) -> None:
        self.inner = make_bot("random", 0)
        self.seen: list[Observation] = []

    def act(self, obs: Observation) -> Move:
        self.seen.append(obs)
        return self.inner.act(obs)


def test_opponents_as_names_agents_and_policy_callables() -> None:
    calls: list[tuple[int, int]] = []
    pick = random_policy(3)

    def policy(obs: Any, mask: Any) -> int:
        assert obs.dtype == np.float32 and mask.dtype == np.bool_ and mask.any()
        calls.append((obs.shape[0], mask.shape[0]))
        return int(pick(obs, mask))

    spy = Spy()
    env = MattisEnv(players=4, seat=1, opponents=["random", spy, policy])
    rng = np.random.default_rng(0)
    env.reset(seed=4)
    for _ in range(scale(4, 12)):
        play_out(env, rng)
        env.reset()
    assert spy.seen and all(o.seat == 3 and o.to_act == 3 for o in spy.seen)  # seat+2: the spy
    assert calls and all(c == (obs_size(4), env.space.size) for c in calls)


def test_a_policy_opponent_must_choose_a_legal_action() -> None:
    agent = PolicyAgent(lambda obs, mask: int(np.flatnonzero(~mask)[0]), MattisEnv().rules, 3)
    s = State.new(MattisEnv().rules, 3, seed=1)
    with pytest.raises(ValueError, match="not legal"):
        agent.act(s.observation(s.to_act or 0))


class FakePolicy:
    """Stands in for an sb3 policy: prefers the highest legal action, or the lowest."""

    def __init__(self) -> None:
        self.high = True

    def predict(self, obs: Any, action_masks: Any = None, deterministic: bool = False) -> tuple[Any, None]:
        legal = np.flatnonzero(action_masks)
        return np.array([legal[-1] if self.high else legal[0]]), None


class FakeModel:
    def __init__(self) -> None:
        self.policy = FakePolicy()


def test_a_frozen_snapshot_does_not_follow_later_training() -> None:
    model = FakeModel()
    snap = frozen_policy(model)
    model.policy.high = False  # "training" changes the live policy
    mask = np.zeros(54, np.bool_)
    mask[[3, 9, 40]] = True
    obs = np.zeros(10, np.float32)
    assert snap(obs, mask) == 40
    assert frozen_policy(model)(obs, mask) == 3


def test_an_opponent_pool_draws_per_episode_and_keeps_its_base() -> None:
    spies = [Spy() for _ in range(3)]
    pool = OpponentPool(["random"], max_added=2, base_weight=0.0)
    for spy in spies:
        pool.add(spy)
    assert len(pool) == 3 and spies[0] not in pool.added  # the oldest added left
    env = MattisEnv(opponents=pool)
    rng = np.random.default_rng(1)
    env.reset(seed=2)
    for _ in range(scale(8, 20)):
        play_out(env, rng)
        env.reset()
    assert not spies[0].seen and spies[1].seen and spies[2].seen
    with pytest.raises(ValueError):
        OpponentPool([])
    with pytest.raises(ValueError, match="unknown bot"):
        MattisEnv(opponents=OpponentPool(["grandmaster"]))


def test_seat_and_dealer_rotate_per_episode_and_are_seeded() -> None:
    env = MattisEnv(players=3, seat="rotate", dealer="rotate", opponents="random")
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    seats, dealers = [info["seat"]], [info["dealer"]]
    for _ in range(5):
        play_out(env, rng)
        _, info = env.reset()
        seats.append(info["seat"])
        dealers.append(info["dealer"])
        assert info["action_mask"].any()
    # skipped deals (fate settled before the first move) may shift the cycle, never break it
    assert set(seats) == {0, 1, 2} and set(dealers) == {0, 1, 2}
    assert all(d == s for d, s in zip(dealers, seats, strict=True))  # both follow the episode number
    a = MattisEnv(seat="random", dealer="random", opponents="random")
    b = MattisEnv(seat="random", dealer="random", opponents="random")
    ia, ib = a.reset(seed=7)[1], b.reset(seed=7)[1]
    assert (ia["seat"], ia["dealer"]) == (ib["seat"], ib["dealer"])
    with pytest.raises(ValueError):
        MattisEnv(seat="left")


def test_the_default_opponent_is_cheap_and_masks_reach_through_gym_make() -> None:
    assert DEFAULT_OPPONENT == "easy" and MattisEnv().opponents == ["easy", "easy"]
    register()
    env = gym.make(ENV_ID, players=4, opponents="random", render_mode="ansi", render_seat=0)
    env.reset(seed=0)
    masks = env.action_masks()  # type: ignore[attr-defined]
    assert masks.dtype == np.bool_ and masks.any()
    text = env.render()
    assert isinstance(text, str) and "seen by 0" in text and "cards" in text


def test_per_seat_render_shows_only_that_seats_hand() -> None:
    env = MattisEnv(players=3, opponents="random", render_mode="ansi", render_seat=1)
    env.reset(seed=3)
    ref = env.referee
    assert ref is not None
    text = env.render()
    assert text is not None
    own = [card_symbol(c) for c in ref.observation(1).hand]
    others = [card_symbol(c) for s in (0, 2) for c in ref.observation(s).hand]
    lines = text.splitlines()
    assert all(c in lines[2] for c in own)
    assert not any(c in (lines[1] + lines[3]) for c in others)


# --------------------------------------------------------------- batched
def test_the_batched_env_steps_arrays_resets_itself_and_is_seeded() -> None:
    n = 4
    venv = MattisVectorEnv(n, players=3, opponents="random", seat="rotate")
    obs, info = venv.reset(seed=11)
    assert obs.shape == (n, obs_size(3)) and obs.dtype == np.float32
    single = MattisEnv(players=3, opponents="random", seat="rotate")
    first, _ = single.reset(seed=13)
    assert np.array_equal(obs[2], first)  # game i is seeded with seed + i
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(scale(150, 300)):
        masks = venv.action_masks()
        assert masks.shape == (n, venv.envs[0].space.size) and masks.any(axis=1).all()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terms, truncs, info = venv.step(acts)
        assert rewards.shape == terms.shape == truncs.shape == (n,) and not (terms & truncs).any()
        assert np.array_equal(info["action_mask"], venv.action_masks())
        done = terms | truncs
        assert set(rewards[done].tolist()) <= {0.0, -1.0} and not rewards[~done].any()
        if done.any():
            ended += int(done.sum())
            assert info["_final_obs"].tolist() == done.tolist() == info["_final_info"].tolist()
            final = info["final_info"]
            for i in np.flatnonzero(done):
                assert info["final_obs"][i].shape == obs[i].shape and final["_seat"][i]
                assert rewards[i] == (-1.0 if final["seat"][i] in final["losers"][i] else 0.0)
    assert ended >= n
    again = MattisVectorEnv(n, players=3, opponents="random", seat="rotate")
    assert np.array_equal(again.reset(seed=11)[0], venv.reset(seed=11)[0])
    with pytest.raises(ValueError):
        venv.step(np.zeros(n + 1, np.int64))


# ------------------------------------------------------ framework checks
@pytest.mark.parametrize("name,players", PRESET_TABLES)
def test_gymnasium_check_env_on_every_preset(name: str, players: int) -> None:
    check_env(MattisEnv(rules=name, players=players, opponents="random", seat="rotate", dealer="rotate"),
              skip_render_check=True)


@pytest.mark.parametrize("name,players", PRESET_TABLES)
def test_pettingzoo_api_test_on_every_preset(name: str, players: int) -> None:
    api_test(mattis_v0.env(rules=name, players=players, dealer="rotate"), num_cycles=scale(60, 200))


class _LegalSampler(gym.spaces.Discrete):
    """An agent's action space whose ``sample()`` (with no mask) draws one of the legal
    actions of the agent to act (PettingZoo's ``state_test`` samples ``action_space``
    with no mask: on the bare env nearly every draw is illegal and ends the game)."""

    def __init__(self, n: int, env: Any, agent: str, rng: Any, drawn: list[tuple[str, int]]) -> None:
        super().__init__(n)
        self._env, self._agent, self._rng, self._drawn = env, agent, rng, drawn

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        legal = np.flatnonzero(self._env.observe(self._agent)["action_mask"])
        a = int(self._rng.choice(legal))
        self._drawn.append((self._agent, a))
        return a


class _LegalActions(BaseWrapper):  # type: ignore[misc]
    """The env, with each agent's ``action_space(agent).sample()`` drawing a random legal
    action (the mask of the agent's observation)."""

    def __init__(self, env: Any, seed: int) -> None:
        super().__init__(env)
        self.rng = np.random.default_rng(seed)
        self.drawn: list[tuple[str, int]] = []

    def action_space(self, agent: str) -> gym.spaces.Discrete:
        return _LegalSampler(int(self.env.action_space(agent).n), self, agent, self.rng, self.drawn)


@pytest.mark.parametrize("name,players", PRESET_TABLES)
def test_pettingzoo_state_test_on_every_preset(name: str, players: int) -> None:
    """PettingZoo's ``state_test`` on games of random legal actions: every state along
    games that last (checked: at least 30 moves were made, none illegal and none after
    the game ended, the game's state advanced), not only the first move's."""
    pz_state = importlib.import_module("pettingzoo.test.state_test")  # a module attribute pytest does not collect
    env = _LegalActions(mattis_v0.env(rules=name, players=players), seed=players)
    pz_state.test_state_space(env)
    cycles = scale(20, 100)
    pz_state.test_state(env, num_cycles=cycles)
    raw = env.unwrapped
    assert len(env.drawn) >= min(30, players * cycles)
    assert not any(info.get("illegal_action") for info in raw.infos.values())
    # the moves were the game's: replaying them on the same deal is legal move by move
    replay = mattis_v0.env(rules=name, players=players, illegal="raise")
    replay.reset(seed=0)
    for agent, a in env.drawn:
        assert replay.agent_selection == agent
        replay.step(a)
        while replay.agents and replay.terminations[replay.agent_selection]:
            replay.step(None)


def test_pettingzoo_state_render_and_bot_agents() -> None:
    e = mattis_v0.env(players=3, render_mode="ansi", render_seat=2)
    e.reset(seed=5)
    raw = e.unwrapped
    state = raw.state()
    assert state.shape == raw.state_space.shape and raw.state_space.contains(state)
    # the global state holds every seat's view: each block equals that seat's observation
    size = raw.observation_spaces["player_0"]["observation"].shape[0]
    for s in range(3):
        assert np.array_equal(state[s * size:(s + 1) * size], e.observe(f"player_{s}")["observation"])
    assert "seen by 2" in (e.render() or "")
    bots = {a: BotAgent("easy", seed=i) for i, a in enumerate(e.possible_agents)}
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = float(reward)
        e.step(None if term or trunc else bots[agent](e, agent))
    assert sorted(final.values()) == [-1.0, 0.0, 0.0]
