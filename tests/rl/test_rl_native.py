"""The native batched engine (``mattis.rl._native``, C) in lockstep with the Python
batched path (``mattis.core.batch`` on the rules core): the same seeds, the same
random legal actions from a seeded generator, and every array compared at every step
(tensors, masks, rewards, terminations, truncations, the illegal flags, the ended
episodes' final tensors and facts), over every preset at every player count it
allows.  A few thousand games a preset in the fast tier, 10^5 in the slow tier."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mattis.core import PRESETS
from mattis.core.rules import preset
from mattis.rl.batched import BatchedGames, native_covers
from tiers import scale

pytestmark = pytest.mark.skipif(native_covers(preset("mattis"), ["random"]) is not None,
                                reason="the native engine is not built here")


def _pair(name: str, players: int, games: int, **kw: Any) -> tuple[BatchedGames, BatchedGames]:
    made = [BatchedGames(games, rules=name, players=players, opponents="random", engine=engine, **kw)
            for engine in ("native", "python")]
    assert [g.engine for g in made] == ["native", "python"]
    return made[0], made[1]


def _lockstep(name: str, players: int, games: int, episodes: int, seed: int, **kw: Any) -> int:
    """Step both engines with the same actions until ``episodes`` episodes have ended
    in each; fail at the first array that differs.  Returns the episodes played."""
    native, python = _pair(name, players, games, **kw)
    native.reset(seed=seed)
    python.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = 0
    step = 0
    while ended < episodes:
        where = f"{name} {players}p seed {seed} step {step}"
        assert np.array_equal(native.obs, python.obs), f"{where}: obs"
        assert np.array_equal(native.masks, python.masks), f"{where}: masks"
        # a random legal action per game; now and then one that is not legal
        acts = (rng.random(native.masks.shape) * native.masks).argmax(axis=1)
        if step % 61 == 60:
            acts[rng.integers(games)] = native.actions
        native.step(acts)
        python.step(acts)
        for array in ("rewards", "terminations", "truncations", "illegal"):
            assert np.array_equal(getattr(native, array), getattr(python, array)), f"{where}: {array}"
        done = np.flatnonzero(native.terminations | native.truncations)
        assert np.array_equal(native.final_obs[done], python.final_obs[done]), f"{where}: final_obs"
        assert np.array_equal(native.final_seats[done], python.final_seats[done]), f"{where}: final_seats"
        for i in done:
            assert native.final_facts[i] == python.final_facts[i], f"{where}: final_facts of game {i}"
        ended += len(done)
        step += 1
    assert np.array_equal(native.obs, python.obs) and np.array_equal(native.masks, python.masks)
    assert native.decisions == python.decisions
    return ended


def _spread(name: str, total: int) -> list[tuple[int, int]]:
    """(players, episodes) for each player count the preset allows, ``total`` in all."""
    counts = list(preset(name).allowed_players())
    return [(p, -(-total // len(counts))) for p in counts]


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_native_engine_writes_the_python_paths_arrays(name: str) -> None:
    """A few thousand games a preset (10^5 in the slow tier), every player count, the
    seat and dealer rotating, both card orders, a short phase 2 cap on some (truncations)."""
    total = scale(2000, 100_000)
    played = 0
    for k, (players, episodes) in enumerate(_spread(name, total)):
        games = 64 if episodes < 5000 else 512
        played += _lockstep(name, players, games, episodes, seed=1000 * k + players, seat="rotate",
                            dealer="rotate", card_order="rank_major" if k % 2 else "suit_major",
                            overrides={"phase2_cap": 60} if k == 1 else None)
    assert played >= total


def test_zero_sum_rewards_and_unseeded_games() -> None:
    """Two-player zero-sum rewards in lockstep; unseeded games run and stay legal."""
    _lockstep("skitgubbe", 2, 32, 200, seed=5, zero_sum=True)
    native = BatchedGames(8, rules="hund", players=4, opponents="random", engine="native")
    native.reset()
    for _ in range(200):
        assert native.masks.any(axis=1).all()
        native.step(native.masks.argmax(axis=1))
    assert not native.illegal.any()


def test_the_engine_is_chosen_and_the_uncovered_fall_back() -> None:
    """``auto`` takes the native engine for the presets against random opponents and
    the Python path for the rest (another option mix, another opponent), and says why."""
    assert BatchedGames(2, rules="blodmattis", players=3, opponents="random").engine == "native"
    assert BatchedGames(2, rules="mattis", players=3, opponents="random", overrides={"phase2_cap": 99}).engine \
        == "native"
    mix = BatchedGames(2, rules="mattis", players=3, opponents="random", overrides={"sequences": 3})
    assert mix.engine == "python" and mix.engine_note is not None and "option" in mix.engine_note
    easy = BatchedGames(2, rules="mattis", players=3, opponents=["random", "easy"])
    assert easy.engine == "python" and easy.engine_note is not None and "random" in easy.engine_note
    with pytest.raises(ValueError):
        BatchedGames(2, rules="mattis", players=3, opponents="easy", engine="native")
    native = BatchedGames(2, rules="mattis", players=3, opponents="random")
    with pytest.raises(ValueError):
        native.set_opponents("easy")
    with pytest.raises(RuntimeError):
        native.state(0)


def test_the_vector_env_on_the_native_engine_gives_the_same_steps() -> None:
    """``MattisVectorEnv(engine="native")``: the five values of every step and the
    masks are the Python path's."""
    pytest.importorskip("gymnasium")
    from mattis.rl.vector_env import MattisVectorEnv

    envs = [MattisVectorEnv(16, rules="hund", players=4, opponents="random", seat="rotate", engine=engine)
            for engine in ("native", "python")]
    assert [v.games.engine for v in envs] == ["native", "python"]
    first = [v.reset(seed=3)[0] for v in envs]
    assert np.array_equal(first[0], first[1])
    rng = np.random.default_rng(3)
    for _ in range(300):
        masks = envs[0].action_masks()
        assert np.array_equal(masks, envs[1].action_masks())
        acts = (rng.random(masks.shape) * masks).argmax(axis=1)
        out = [v.step(acts) for v in envs]
        for a, b in zip(out[0][:4], out[1][:4], strict=True):
            assert np.array_equal(a, b)


def test_native_games_copy_and_pickle_mid_game() -> None:
    """A deep copy and a pickle taken mid-game step on as the original does."""
    import copy
    import pickle

    games = BatchedGames(16, rules="blodmattis", players=4, opponents="random", seat="rotate")
    assert games.engine == "native"
    games.reset(seed=9)
    rng = np.random.default_rng(9)

    def act(g: BatchedGames) -> Any:
        return (rng.random(g.masks.shape) * g.masks).argmax(axis=1)

    for _ in range(40):
        games.step(act(games))
    twins = [copy.deepcopy(games), pickle.loads(pickle.dumps(games))]
    for _ in range(300):
        acts = act(games)
        for g in [games, *twins]:
            g.step(acts)
        for twin in twins:
            for array in ("obs", "masks", "rewards", "terminations", "truncations", "final_obs"):
                assert np.array_equal(getattr(twin, array), getattr(games, array)), array
    assert all(t.decisions == games.decisions for t in twins)
