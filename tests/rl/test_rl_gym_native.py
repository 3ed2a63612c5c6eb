"""``MattisEnv`` on the native engine (``engine="auto"``, the default, for the four
presets against ``random`` opponents): the same observations, rewards, infos and
episodes as on the rules core for the same seeds; Gymnasium's checker, deep copy and
pickle; the move to the rules core when the opponents change."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from mattis.core import preset  # noqa: E402
from mattis.rl.batched import native_covers  # noqa: E402
from mattis.rl.gym_env import MattisEnv  # noqa: E402

NATIVE = native_covers(preset("mattis"), ["random"]) is None
needs_native = pytest.mark.skipif(not NATIVE, reason="the native engine is not built here")


def _trajectory(env: MattisEnv, seed: int, steps: int) -> list[Any]:
    """Everything the env hands out over ``steps`` steps of a seeded random learner
    (with an illegal action now and then), its resets (seeded again now and then)
    included."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    out: list[Any] = [("reset", obs.tobytes(), repr(info), env.seat)]
    for t in range(steps):
        mask = env.action_masks()
        legal = np.flatnonzero(mask)
        if rng.random() < 0.01:
            a = int(np.flatnonzero(~mask)[0]) if rng.random() < 0.5 else env.space.size + 3
        else:
            a = int(legal[rng.randrange(len(legal))])
        obs, reward, term, trunc, info = env.step(a)
        out.append((obs.tobytes(), obs.dtype.name, reward, term, trunc, repr(info), env.seat, env.decisions,
                    env.action_masks().tobytes()))
        if term or trunc:
            obs, info = env.reset(seed=seed + t) if t % 7 == 0 else env.reset()
            out.append(("reset", obs.tobytes(), repr(info), env.seat, env.decisions))
    return out


@needs_native
@pytest.mark.parametrize(("rules", "players", "kwargs"), [
    ("mattis", 3, {"seat": "rotate", "dealer": "rotate"}),
    ("mattis", 4, {"seat": "rotate", "opponents": "easy"}),
    ("blodmattis", 5, {"seat": "rotate", "opponents": ["easy", "random", "random", "easy"]}),
    ("hund", 4, {"seat": "random", "card_order": "rank_major"}),
    ("blodmattis", 5, {"seat": 2, "dealer": "random"}),
    ("skitgubbe", 2, {"zero_sum": True, "seat": "rotate"}),
    ("mattis", 3, {"overrides": {"phase2_cap": 40}}),  # truncations
])
def test_native_and_rules_core_give_the_same_episodes(rules: str, players: int, kwargs: dict[str, Any]) -> None:
    kwargs = {"opponents": "random", **kwargs}
    native = MattisEnv(rules=rules, players=players, **kwargs)
    python = MattisEnv(rules=rules, players=players, engine="python", **kwargs)
    assert (native.engine, native.engine_note) == ("native", None)
    assert python.engine == "python" and python.engine_note == "engine='python'"
    a, b = _trajectory(native, 11, 1500), _trajectory(python, 11, 1500)
    assert len(a) == len(b) and a == b
    assert native.referee is None and python.referee is not None


@needs_native
def test_the_native_env_passes_gymnasiums_checker_and_copies() -> None:
    env = MattisEnv(players=3, opponents="random", seat="rotate")
    assert env.engine == "native"
    check_env(env, skip_render_check=True)
    env.reset(seed=5)
    for _ in range(7):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.engine == "native"
        assert _trajectory_from_here(twin) == _trajectory_from_here(copy.deepcopy(env))


def _trajectory_from_here(env: MattisEnv) -> list[Any]:
    out: list[Any] = []
    for _ in range(200):
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        out.append((obs.tobytes(), reward, term, trunc, repr(info)))
        if term or trunc:
            env.reset()
    return out


@needs_native
def test_other_opponents_move_the_env_to_the_rules_core() -> None:
    """``auto``: a bot the native engine does not play moves the env to the rules core
    from the next episode on (the episode sequence goes on as on the rules core);
    ``native`` refuses it; rendering and other bots start on the rules core."""
    env = MattisEnv(players=3, opponents="random")
    twin = MattisEnv(players=3, opponents="random", engine="python")
    for e in (env, twin):
        e.reset(seed=3)
        e.step(int(np.flatnonzero(e.action_masks())[0]))
        e.set_opponents("medium")
    assert env.engine == "native"  # the episode under way stays where it is
    a, b = _trajectory_from_here(env), _trajectory_from_here(twin)
    assert a == b and env.engine == "python" and env.engine_note is not None
    assert "random and easy (heuristic) opponents only" in env.engine_note
    strict = MattisEnv(players=3, opponents="random", engine="native")
    strict.set_opponents("easy")
    with pytest.raises(ValueError, match="opponents only"):
        strict.set_opponents("medium")
    with pytest.raises(ValueError, match="opponents only"):
        MattisEnv(players=3, opponents="medium", engine="native")
    assert MattisEnv(players=3, opponents="random", render_mode="ansi").engine == "python"
    assert MattisEnv(players=3, opponents="easy").engine == "native"
    assert MattisEnv(players=3, opponents=["easy", "medium"]).engine == "python"
    assert MattisEnv(players=3, opponents="random", overrides={"pickup": "last"}).engine == "python"
    with pytest.raises(RuntimeError, match="reset"):
        MattisEnv(players=3, opponents="random").action_masks()
    with pytest.raises(RuntimeError, match="reset"):
        MattisEnv(players=3, opponents="random").step(0)
