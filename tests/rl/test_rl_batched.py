"""The batched engine path (mattis.rl.batched on mattis.core.batch): the same arrays on
the compiled and the pure core, and game for game the arrays of the per-step
environment (MattisEnv) it stands for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("gymnasium")

from mattis.core import preset  # noqa: E402
from mattis.rl.batched import BatchedGames  # noqa: E402
from mattis.rl.gym_env import MattisEnv  # noqa: E402
from mattis.rl.opponents import BatchPolicy  # noqa: E402
from tiers import run_on_core, scale  # noqa: E402

SCRIPT = Path(__file__).with_name("batched_games.py")


def _run(pure: bool, steps: int) -> dict[str, str]:
    return run_on_core(SCRIPT, steps, pure)


def test_compiled_and_pure_batches_write_the_same_arrays() -> None:
    """Tensors, masks, rewards, terminations, truncations and final tensors, step by
    step, every preset (rank-major cards on two, a batch policy, an ``easy`` bot and
    illegal actions among them): the same bytes on both cores."""
    steps = scale(60, 200)
    pure = _run(True, steps)
    assert pure.pop("build") == "pure"
    other = _run(False, steps)
    kind = other.pop("build")
    if kind != "compiled":
        pytest.skip("the compiled core is not built here (python setup.py build_ext --inplace builds it)")
    assert other == pure


def _first_legal(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
    return masks.argmax(axis=1)


CASES: list[dict[str, Any]] = [
    {"players": 3, "opponents": "random", "seat": "rotate"},
    {"players": 4, "rules": "blodmattis", "overrides": {"phase2_cap": 80}, "opponents": "random",
     "seat": "random", "dealer": "rotate"},
    {"players": 3, "rules": "hund", "opponents": ["easy", BatchPolicy(_first_legal)], "seat": "rotate"},
    {"players": 2, "rules": "skitgubbe", "opponents": "random", "zero_sum": True, "card_order": "rank_major"},
]


@pytest.mark.parametrize("kwargs", CASES)
def test_the_batch_is_game_for_game_the_single_env(kwargs: dict[str, Any]) -> None:
    """Step for step the tensors, masks, rewards, terminations, truncations, final
    tensors and move counts of ``n`` seeded :class:`MattisEnv` games (a batch policy
    is asked once for all games waiting on it; MattisEnv asks it game by game)."""
    n = 4
    games = BatchedGames(n, **kwargs)
    envs = [MattisEnv(**kwargs) for _ in range(n)]
    games.reset(seed=3)
    for i, env in enumerate(envs):
        obs, _ = env.reset(seed=3 + i)
        assert np.array_equal(games.obs[i], obs) and np.array_equal(games.masks[i], env.action_masks())
    rng = np.random.default_rng(3)
    ended = illegal = 0
    for t in range(scale(120, 300)):
        acts = (rng.random(games.masks.shape) * games.masks).argmax(axis=1)
        if t % 29 == 28:
            acts[t % n] = int(np.flatnonzero(~games.masks[t % n])[0])
            illegal += 1
        games.step(acts)
        for i, env in enumerate(envs):
            obs, reward, term, trunc, info = env.step(acts[i])
            assert (reward, term, trunc) == (games.rewards[i], games.terminations[i], games.truncations[i]), t
            assert bool(info.get("illegal_action", False)) == games.illegal[i]
            if term or trunc:
                ended += 1
                assert np.array_equal(obs, games.final_obs[i])
                obs, _ = env.reset()
            assert np.array_equal(obs, games.obs[i]), (t, i)
            assert np.array_equal(env.action_masks(), games.masks[i]), (t, i)
    assert games.decisions == sum(env.decisions for env in envs)
    assert ended > n and illegal
    assert games.obs.dtype == np.float32 and games.masks.dtype == np.bool_


def test_a_batch_policy_is_asked_once_for_every_waiting_game() -> None:
    sizes: list[int] = []

    def policy(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
        assert obs.shape == (len(masks), games.size) and masks.any(axis=1).all()
        sizes.append(len(obs))
        return masks.argmax(axis=1)

    games = BatchedGames(8, players=3, opponents=BatchPolicy(policy))
    games.reset(seed=1)
    for _ in range(5):
        games.step(games.masks.argmax(axis=1))
    assert max(sizes) > 1 and sum(sizes) >= 8 * 5 * 2

    def cheat(obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
        return (~masks).argmax(axis=1)

    with pytest.raises(ValueError, match="not legal"):
        BatchedGames(2, players=3, opponents=BatchPolicy(cheat)).reset(seed=0)


def test_the_vector_envs_game_views_answer_for_their_games() -> None:
    """``envs[i]`` (what sb3's ``get_attr``/``env_method`` reach): game ``i``'s seat and
    mask; opponents set through a view change every game's from its next episode."""
    from mattis.rl.vector_env import MattisVectorEnv

    venv = MattisVectorEnv(3, players=3, opponents="random", seat="rotate", engine="python")
    venv.reset(seed=2)
    masks = venv.action_masks()
    for i, view in enumerate(venv.envs):
        assert view.players == 3 and view.seat == venv.games.seat(i) == 0  # each game's first episode
        assert np.array_equal(view.action_masks(), masks[i])
    venv.envs[1].set_opponents("easy")
    assert venv.games.opponents == ["easy", "easy"]


def test_the_vector_env_takes_the_native_engine_where_it_applies() -> None:
    """``MattisVectorEnv`` defaults to ``engine="auto"``: the native engine for a preset
    against ``random`` and ``easy`` opponents (where it is built), the Python path for other
    opponents; on the native engine a change to a bot it does not play is refused
    (through the env and through a view), and the games keep their opponents."""
    from mattis.rl.batched import native_covers
    from mattis.rl.vector_env import MattisVectorEnv

    native = native_covers(preset("mattis"), ["random"]) is None
    venv = MattisVectorEnv(2, players=3, opponents="random")
    assert venv.games.engine == ("native" if native else "python")
    assert MattisVectorEnv(2, players=3, opponents="medium").games.engine == "python"
    assert MattisVectorEnv(2, players=3, opponents="random", engine="python").games.engine == "python"
    if native:
        venv.reset(seed=0)
        with pytest.raises(ValueError, match="opponents only.*engine='python'"):
            venv.set_opponents("medium")
        with pytest.raises(ValueError, match="engine='python'"):
            venv.envs[0].set_opponents(["random", "medium"])
        assert venv.games.opponents == ["random", "random"]
        venv.step(venv.action_masks().argmax(axis=1))  # still playing


def _started(games: BatchedGames, i: int) -> bool:
    try:
        games.state(i)
    except RuntimeError:  # reset deals game by game
        return False
    return True


class _SeatChecker:
    """A batch policy that checks every tensor and mask it is given against the
    encoder's of the seat's observation, then plays a seeded random legal action."""

    def __init__(self, order: str) -> None:
        self.order = order
        self.games: BatchedGames | None = None
        self.checked = 0

    def __call__(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
        from mattis.rl.encoding import encode

        games = self.games
        assert games is not None
        # the games an opponent is to act in (those waiting on this policy among them;
        # the same set when as many), in the order the batch asks
        waiting = [i for i in range(games.num_games) if _started(games, i)
                   and games.state(i).to_act not in (None, games.seat(i))]
        if len(waiting) != len(obs):
            waiting = []
        for row, i in enumerate(waiting):
            st = games.state(i)
            to = st.to_act
            assert to is not None
            seen = st.observation(to)
            assert np.array_equal(obs[row], encode(seen, card_order=self.order)), (games.players, i)
            assert np.array_equal(masks[row], games.space.mask(seen.legal).astype(bool))
            self.checked += 1
        return (np.random.default_rng(self.checked).random(masks.shape) * masks).argmax(axis=1)


@pytest.mark.parametrize("name", ["mattis", "hund", "blodmattis", "skitgubbe"])
def test_the_compiled_writer_gives_every_seat_the_encoders_tensor(name: str) -> None:
    """The batch writes a seat's tensor from the state itself (no observation built):
    for every opponent seat asked by a batch policy, every player count the preset
    allows, both card orders, the tensor and mask equal
    :func:`mattis.rl.encoding.encode` and the action space's mask of that seat's
    observation."""
    from mattis.core import preset

    checked = 0
    for k, players in enumerate(preset(name).allowed_players()):
        checker = _SeatChecker("rank_major" if k % 2 else "suit_major")
        games = BatchedGames(3, rules=name, players=players, opponents=BatchPolicy(checker), seat="rotate",
                             card_order=checker.order)
        checker.games = games
        games.reset(seed=k)
        rng = np.random.default_rng(k)
        for _ in range(scale(40, 150)):
            games.step((rng.random(games.masks.shape) * games.masks).argmax(axis=1))
        checked += checker.checked
    assert checked > 100


def test_a_cap_wider_than_the_count_lanes_is_refused() -> None:
    """The counts travel in 28-bit lanes: a phase 2 cap they could not hold is refused
    rather than cut, and the widest allowed cap still gives the exact tensor entry."""
    from mattis.core.batch import LANE_MAX

    with pytest.raises(ValueError, match="phase2_cap"):
        BatchedGames(2, players=3, opponents="random", overrides={"phase2_cap": LANE_MAX})
    from mattis.rl.encoding import encode

    games = BatchedGames(4, players=3, opponents="random", overrides={"phase2_cap": LANE_MAX - 1}, engine="python")
    games.reset(seed=0)
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(400):
        games.step((rng.random(games.masks.shape) * games.masks).argmax(axis=1))
        for i in range(4):
            st = games.state(i)
            if st.p2_moves > 0:
                seen += 1
                assert np.array_equal(games.obs[i], encode(st.observation(games.seat(i))))
    assert seen > 0
