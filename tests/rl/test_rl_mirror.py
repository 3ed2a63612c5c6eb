"""The native mirror of one game (``mattis.rl.mirror``) in lockstep with the Python
encoder: random games of every preset at every player count, every seat's tensor and
mask compared at every position (every seventh after the first 150 moves), copies taken
mid-game compared too; ``mattis_v0`` and the OpenSpiel observer give the same
observations with and without the mirror."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import numpy as np
import pytest

from mattis.core import State
from mattis.core.rules import preset
from mattis.rl import mattis_v0
from mattis.rl.encoding import ActionSpace, encode, obs_size
from mattis.rl.mirror import make_mirror, mirror_covers
from tiers import scale

pytestmark = pytest.mark.skipif(mirror_covers(preset("mattis")) is not None,
                                reason="the native engine is not built here")

def _allows(name: str, n: int) -> bool:
    try:
        preset(name).check_players(n)
    except ValueError:
        return False
    return True


CASES = [(name, n) for name in ("mattis", "hund", "blodmattis", "skitgubbe") for n in range(2, 7) if _allows(name, n)]


def _check(state: State, mirror: object, space: ActionSpace, where: str) -> None:
    n = state.n
    out = np.zeros(obs_size(n), np.float32)
    mask = np.zeros(space.size, np.int8)
    for seat in range(n):
        mirror.write(seat, out, mask)  # type: ignore[attr-defined]
        obs = state.observation(seat)
        ref = encode(obs, card_order=space.card_order)
        assert np.array_equal(out, ref), f"{where} seat {seat}: tensor differs at {np.flatnonzero(out != ref)}"
        want = space.mask(obs.legal if state.to_act == seat else ())
        assert np.array_equal(mask, want), f"{where} seat {seat}: mask"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_mirror_writes_the_python_encoders_tensors_and_masks(name: str, players: int) -> None:
    rules = preset(name)
    if players == 2:  # a short phase 2 cap: truncated games too
        rules = dataclasses.replace(rules, phase2_cap=60)
    games = scale(1, 12)
    rng = random.Random(f"{name}{players}")
    for g in range(games):
        order = "rank_major" if g % 2 else "suit_major"
        space = ActionSpace(rules, order)
        state = State.new(rules, players, seed=rng.randrange(2**32), dealer=g % players,
                          leader=(g + g // 2) % players)
        mirror = make_mirror(rules, players, space, state)
        assert mirror is not None
        copies: list[tuple[State, object]] = []
        moves = 0
        while True:
            if moves < 150 or moves % 7 == 0:
                _check(state, mirror, space, f"{name} {players}p game {g} move {moves}")
            if state.to_act is None:
                break
            a = rng.choice(space.legal_actions(state.legal_moves()))
            state.apply(space.move(a))
            mirror.apply(a)
            moves += 1
            if moves in (7, 60):
                copies.append((state.clone(), mirror.copy()))
        assert mirror.to_act == -1
        for k, (st, mc) in enumerate(copies):  # each copy plays on by itself
            after = 0
            while True:
                if after < 40 or after % 7 == 0 or st.to_act is None:
                    _check(st, mc, space, f"{name} {players}p game {g} copy {k} move {after}")
                after += 1
                if st.to_act is None:
                    break
                a = rng.choice(space.legal_actions(st.legal_moves()))
                st.apply(space.move(a))
                mc.apply(a)  # type: ignore[attr-defined]


def test_the_mirror_refuses_a_move_its_game_does_not_allow_and_other_rules() -> None:
    rules = preset("mattis")
    space = ActionSpace(rules)
    state = State.new(rules, 3, seed=5)
    mirror = make_mirror(rules, 3, space, state)
    legal = set(space.legal_actions(state.legal_moves()))
    with pytest.raises(ValueError, match="not legal"):
        mirror.apply(next(a for a in range(space.size) if a not in legal))
    assert make_mirror(dataclasses.replace(rules, sequences=3), 3, space, state) is None
    assert mirror_covers(preset("mini")) is not None


def _play_pettingzoo(name: str, players: int, encoder: str, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    env = mattis_v0.env(rules=name, players=players, encoder=encoder)
    raw = env.unwrapped
    assert raw.encoder == encoder
    env.reset(seed=seed)
    rng = random.Random(seed)
    seen = []
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        for other in raw.possible_agents:  # every seat's view, not only the mover's
            o = raw.observe(other)
            seen.append((o["observation"], o["action_mask"]))
        seen.append((raw.state(), np.zeros(1, np.int8)))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        steps += 1
        if steps == 40:  # an illegal action now and then: the game ends, the masks go empty
            if seed % 2:
                env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
                continue
            raw2 = pickle.loads(pickle.dumps(raw))
            raw3 = copy.deepcopy(raw)
            for r in (raw2, raw3):
                for a in raw.possible_agents:
                    assert np.array_equal(r.observe(a)["observation"], raw.observe(a)["observation"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize(("name", "players"), [("mattis", 3), ("blodmattis", 4), ("skitgubbe", 2), ("hund", 5)])
def test_pettingzoo_observations_are_the_same_with_and_without_the_mirror(name: str, players: int) -> None:
    for seed in range(scale(2, 10)):
        native = _play_pettingzoo(name, players, "native", seed)
        python = _play_pettingzoo(name, players, "python", seed)
        assert len(native) == len(python)
        for k, ((t1, m1), (t2, m2)) in enumerate(zip(native, python, strict=True)):
            assert np.array_equal(t1, t2) and t1.dtype == t2.dtype, f"seed {seed} item {k}: tensor"
            assert np.array_equal(m1, m2) and m1.dtype == m2.dtype, f"seed {seed} item {k}: mask"


def test_pettingzoo_says_which_encoder_runs() -> None:
    assert mattis_v0.raw_env(rules="mattis").encoder == "native"
    other = mattis_v0.raw_env(rules="mattis", overrides={"sequences": 3})
    assert other.encoder == "python" and "option mix" in str(other.encoder_note)
    with pytest.raises(ValueError, match="option mix"):
        mattis_v0.raw_env(rules="mattis", overrides={"sequences": 3}, encoder="native")


def test_openspiel_observations_are_the_same_with_and_without_the_mirror() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.observation import make_observation

    from mattis.rl import openspiel_game  # noqa: F401  (registers python_mattis)

    for spec, perfect in (("python_mattis(rules=mattis,players=3)", False),
                          ("python_mattis(rules=blodmattis,players=4,card_order=rank_major)", False),
                          ("python_mattis(rules=hund,players=3)", True)):
        game = pyspiel.load_game(spec)
        kind = pyspiel.IIGObservationType(perfect_recall=perfect)
        native = make_observation(game, kind, {"encoder": "native"})
        python = make_observation(game, kind, {"encoder": "python"})
        assert native.encoder == "native" and python.encoder == "python"
        rng = random.Random(spec)
        for _ in range(scale(2, 8)):
            s = game.new_initial_state()
            clones = []
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.choice([a for a, _p in s.chance_outcomes()]))
                    continue
                for p in range(game.num_players()):
                    native.set_from(s, p)
                    python.set_from(s, p)
                    assert np.array_equal(native.tensor, python.tensor), f"{spec} move {s.move_number()}"
                if rng.random() < 0.02:
                    clones.append(s.clone())
                if rng.random() < 0.02 and len(s.history()) > 53:  # take one back, then on again
                    last = s.history()[-1]
                    s.undo_action(s.full_history()[-1].player, last)
                s.apply_action(rng.choice(s.legal_actions()))
            for c in clones:  # a clone taken mid-game plays on with its own mirror
                while not c.is_terminal():
                    c.apply_action(rng.choice(c.legal_actions()))
                    for p in range(game.num_players()):
                        native.set_from(c, p)
                        python.set_from(c, p)
                        assert np.array_equal(native.tensor, python.tensor), f"{spec} clone"
