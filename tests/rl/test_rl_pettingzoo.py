"""The PettingZoo AEC environment ``mattis_v0``: PettingZoo's own tests and our rules."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from mattis.rl import mattis_v0  # noqa: E402

# PettingZoo suggests Box observations; a dict with an action mask is its own documented pattern.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")
from mattis.rl.encoding import ActionSpace  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {},
    {"rules": "blodmattis", "players": 4, "render_mode": "ansi"},
    {"rules": "skitgubbe", "players": 2, "overrides": {"sequences": 3}},
    {"rules": "hund", "players": 6, "overrides": "pickup=lowest"},
])
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    api_test(mattis_v0.env(**kwargs), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: mattis_v0.env(rules="skitgubbe", players=3, overrides={"sequences": 2}), num_cycles=300)
    seed_test(mattis_v0.env, num_cycles=300)


def play_out(env: Any, seed: int) -> tuple[list[int], dict[str, float], dict[str, Any]]:
    """Play a game with seeded random legal actions; the actions, final rewards and infos."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    final: dict[str, float] = {}
    infos: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            infos[agent] = info
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(rng.choice(legal))
        actions.append(a)
        env.step(a)
    return actions, final, infos


def test_reset_with_a_seed_replays_the_same_game() -> None:
    a1, r1, _ = play_out(mattis_v0.env(), 7)
    a2, r2, _ = play_out(mattis_v0.env(), 7)
    a3, _, _ = play_out(mattis_v0.env(), 8)
    assert a1 == a2 and r1 == r2
    assert a1 != a3


@pytest.mark.parametrize("kwargs", [{}, {"rules": "blodmattis", "players": 5}, {"rules": "skitgubbe", "players": 4}])
def test_rewards_are_minus_one_for_each_loser(kwargs: dict[str, Any]) -> None:
    for seed in range(8):
        env = mattis_v0.env(**kwargs)
        _, final, infos = play_out(env, seed)
        losers = infos["player_0"]["losers"]
        assert len(losers) >= 1 and set(final) == set(env.possible_agents)
        for agent, reward in final.items():
            seat = int(agent.split("_")[1])
            assert reward == (-1.0 if seat in losers else 0.0)


def test_only_the_agent_to_act_has_a_mask_and_illegal_actions_raise_on_request() -> None:
    env = mattis_v0.env(illegal="raise")
    env.reset(seed=3)
    agent = env.agent_selection
    for other in env.possible_agents:
        mask = env.observe(other)["action_mask"]
        assert (mask.sum() > 0) == (other == agent)
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.unwrapped.step(illegal)
    assert env.agent_selection == agent  # nothing happened


def test_action_space_is_the_documented_layout() -> None:
    env = mattis_v0.env(rules="blodmattis")
    env.reset(seed=0)
    assert env.action_space("player_0").n == ActionSpace(env.unwrapped.rules).size == 366


def test_render_ansi_draws_the_table() -> None:
    env = mattis_v0.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "phase 1" in text and text.count("hand:") == 3


def test_bad_arguments_are_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="allows"):
        mattis_v0.env(rules="blodmattis", players=2)
    with pytest.raises(ValueError, match="unknown rule option"):
        mattis_v0.env(overrides={"nope": 1})


@pytest.mark.parametrize("zero_sum,players", [(False, 3), (True, 2)])
def test_an_illegal_action_ends_the_game_as_classic_envs_do(zero_sum: bool, players: int) -> None:
    """The default ``illegal="terminate"`` (PettingZoo's ``TerminateIllegalWrapper``):
    the mover gets -1, the others 0 (zero-sum: +1), every agent is terminated, no
    mask lists a move, and the agents are stepped out with ``None``."""
    env = mattis_v0.env(players=players, zero_sum=zero_sum)
    env.reset(seed=4)
    for _ in range(5):  # a few legal moves first
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    env.step(illegal)
    raw = env.unwrapped
    assert all(raw.terminations.values()) and not any(raw.truncations.values())
    other = 1.0 if zero_sum else 0.0
    assert raw.rewards == {a: (-1.0 if a == mover else other) for a in env.possible_agents}
    assert all(info["illegal_action"] == mover for info in raw.infos.values())
    assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
    finals = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and not trunc
        finals[agent] = reward
        env.step(None)
    assert finals == {a: (-1.0 if a == mover else other) for a in env.possible_agents}


def test_the_phase2_cap_truncates_a_pettingzoo_game() -> None:
    env = mattis_v0.env(players=3, overrides={"phase2_cap": 5})
    rng = np.random.default_rng(0)
    ends: dict[str, int] = {}
    for seed in range(4):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                assert term != trunc
                assert trunc == (str(info["end_reason"]) == "cap")
                ends[str(info["end_reason"])] = ends.get(str(info["end_reason"]), 0) + 1
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert ends.get("cap")
