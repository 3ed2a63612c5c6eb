"""The native batched engine (``mattis.rl._native``, C) in lockstep with the rules
core.

* Against the Python batched path (``mattis.core.batch`` on the rules core): the same
  seeds, the same random legal actions from a seeded generator, and every array
  compared at every step (tensors, masks, rewards, terminations, truncations, the
  illegal flags, the ended episodes' final tensors and facts), every preset at every
  player count it allows: 2,000 games a preset (1,000 in the fast tier).
* Against the rules core itself (slow tier, 10^4 games a preset, 10^5 on request:
  :data:`SLOW_GAMES`): the native games
  replayed move by move on :class:`mattis.core.State` (the same deals, the ``random``
  opponents' own ``random.Random.choice``, the learner's actions picked by a rule both
  sides compute from the legal actions), each game's digest of its legal-action masks
  and every ended episode's reward, truncation and facts compared, and one final tensor
  in 16 against the reference encoder's (:func:`mattis.rl.encoding.encode`).  This costs
  a few times less than the batched Python path, which writes a tensor every step."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import mattis
from mattis.bots.vary import CycleGuard
from mattis.core import PRESETS, Move, Observation, Rules, State
from mattis.core.rules import preset
from mattis.core.state import shuffled_deck
from mattis.core.vocabulary import Termination
from mattis.play import derive_seed
from mattis.rl.batched import BatchedGames, native_covers
from mattis.rl.common import choose_seat
from mattis.rl.encoding import ActionSpace, encode
from mattis.rl.opponents import Opponent
from tiers import scale

pytestmark = pytest.mark.skipif(native_covers(preset("mattis"), ["random"]) is not None,
                                reason="the native engine is not built here")


def _pair(name: str, players: int, games: int, opponents: Opponent | list[Opponent] = "random",
          **kw: Any) -> tuple[BatchedGames, BatchedGames]:
    made = [BatchedGames(games, rules=name, players=players, opponents=opponents, engine=engine, **kw)
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
    """2,000 games a preset (1,000 in the fast tier), every player count, the seat and
    dealer rotating, both card orders, a short phase 2 cap on some (truncations)."""
    total = scale(1000, 2000)
    played = 0
    for k, (players, episodes) in enumerate(_spread(name, total)):
        played += _lockstep(name, players, 64, episodes, seed=1000 * k + players, seat="rotate",
                            dealer="rotate", card_order="rank_major" if k % 2 else "suit_major",
                            overrides={"phase2_cap": 60} if k == 1 else None)
    assert played >= total


def _easy_mix(players: int, k: int) -> Opponent | list[Opponent]:
    """``easy`` in every other seat for even ``k``; else ``easy`` and ``random`` by turns
    (by their other names now and then: ``heuristic`` is the bot the level names)."""
    if k % 2 == 0 or players == 2:
        return "easy" if k % 4 < 2 else "heuristic"
    return [("easy" if j % 2 == 0 else "random") for j in range(players - 1)]


def _count_guard_acts(monkeypatch: Any) -> list[int]:
    """A counter (its one item) of the Python easy bots' decisions at which their cycle
    guard acted: a phase 2 position they played before came back (``repetitions`` >= 2)
    and they chose among other moves than the ones they made there."""
    acts = [0]
    avoid = CycleGuard.avoid

    def counted(self: CycleGuard, obs: Observation) -> tuple[Move, ...]:
        out = avoid(self, obs)
        acts[0] += bool(out)
        return out

    monkeypatch.setattr(CycleGuard, "avoid", counted)
    return acts


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_native_engine_plays_easy_opponents_as_the_python_path(name: str, monkeypatch: Any) -> None:
    """The ``easy`` (heuristic) opponents played inside the native engine make the
    Python bot's moves: 300 games a preset (3,000 in the slow tier), every player count,
    all-easy and easy/random mixes, both card orders, a short phase 2 cap on some."""
    guard = _count_guard_acts(monkeypatch)
    total = scale(300, 3000)
    played = 0
    for k, (players, episodes) in enumerate(_spread(name, total)):
        played += _lockstep(name, players, 32, episodes, seed=7000 + 100 * k + players, seat="rotate",
                            dealer="rotate", card_order="rank_major" if k % 2 else "suit_major",
                            overrides={"phase2_cap": 60} if k == 1 else None, opponents=_easy_mix(players, k))
    assert played >= total
    if name in ("mattis", "hund"):
        assert guard[0] > 0  # with these seeds the guard acts in some games (blodmattis: the next test)


def test_the_easy_opponents_cycle_guard_is_the_python_bots(monkeypatch: Any) -> None:
    """Long Blodmattis games at four to six players against ``easy`` opponents only (no
    cap but the preset's): the bots' cycle guards act in some of them, and the native
    engine's memory of what each bot played where gives the same moves.  450 games
    (3,000 in the slow tier)."""
    guard = _count_guard_acts(monkeypatch)
    per = scale(150, 1000)
    for players in (4, 5, 6):
        _lockstep("blodmattis", players, 32, per, seed=8000 + players, seat="rotate", dealer="rotate",
                  opponents="easy")
    assert guard[0] > 0


SLOW_GAMES = int(os.environ.get("MATTIS_NATIVE_REPLAY", "10000"))
"""Games a preset in the slow tier's replay on the rules core: 10^4 in CI (the four
replays of 10^5 cost about 390 CPU seconds, a quarter of CI's budget on a busy
machine); ``MATTIS_NATIVE_REPLAY=100000 pytest --slow tests/rl/test_rl_native.py``
runs the full 10^5 (docs/research.md)."""
MASK = (1 << 64) - 1
K = 0x9E3779B97F4A7C15
Facts = tuple[float, bool, tuple[Any, ...]]


def _pick(games: int, step: int) -> npt.NDArray[np.int64]:
    """The learner's pick at ``step``: an index into each game's ascending legal actions
    (taken modulo their number); both sides compute it."""
    i = np.arange(games, dtype=np.int64)
    return (i * 7919 + step * 104729 + (i * step) % 65521) % 1_000_003


def _native_run(name: str, players: int, games: int, episodes: int, seed: int, order: str) -> tuple[
        int, list[int], list[list[Facts]], dict[tuple[int, int], bytes]]:
    """Step the native engine with the picking rule until ``episodes`` episodes ended:
    the steps made, each game's mask digest, each game's ended episodes (reward,
    truncated, facts) and one final tensor in 16 by (game, episode)."""
    g = BatchedGames(games, rules=name, players=players, opponents="random", seat="rotate", dealer="random",
                     card_order=order, engine="native")
    g.reset(seed=seed)
    weights = np.random.default_rng(seed).integers(1, 1 << 62, g.actions, dtype=np.int64).astype(np.uint64)
    digest = np.zeros(games, np.uint64)
    ended: list[list[Facts]] = [[] for _ in range(games)]
    finals: dict[tuple[int, int], bytes] = {}
    total = step = 0
    with np.errstate(over="ignore"):
        while total < episodes:
            masks = g.masks
            digest = digest * np.uint64(K) + masks.astype(np.uint64) @ weights
            count = masks.sum(axis=1)
            first = np.cumsum(count) - count
            flat = np.flatnonzero(masks)[first + _pick(games, step) % count]
            g.step(flat - np.arange(games) * g.actions)
            for i in np.flatnonzero(g.terminations | g.truncations):
                facts = g.final_facts[i]
                assert facts is not None
                if len(ended[i]) % 16 == 0:
                    finals[(int(i), len(ended[i]))] = g.final_obs[i].tobytes()
                ended[i].append((float(g.rewards[i]), bool(g.truncations[i]), facts))
                total += 1
            step += 1
    return step, [int(d) for d in digest], ended, finals


def _fate(st: State, seat: int) -> Facts | None:
    """The learner's reward, truncation and the game's facts once its fate is settled
    (as the batched path)."""
    if seat in st.losers:
        reward = -1.0
    elif seat in st.finished or st.is_over:
        reward = 0.0
    else:
        return None
    facts = (st.phase, st.dealer, tuple(st.finished), tuple(st.ranked), tuple(st.losers))
    return reward, st.end_reason is Termination.CAP, facts


def _settle(st: State, seat: int, bots: dict[int, random.Random]) -> None:
    """The ``random`` opponents' moves (their own ``choice``) up to the learner's turn."""
    while not st.is_over and st.to_act != seat:
        to = st.to_act
        assert to is not None
        st.apply(bots[to].choice(st.legal_moves()))


def _replay(rules: Rules, players: int, i: int, seed: int, steps: int, order: str,
            weights: list[int]) -> tuple[int, list[Facts], dict[int, tuple[State, int]]]:
    """Game ``i`` of :func:`_native_run` played on the rules core for ``steps`` learner
    steps: its mask digest, its ended episodes, and the states (and learner seats) its
    sampled episodes ended in."""
    space = ActionSpace(rules, order)
    game_seed = seed + i
    digest = 0
    ended: list[Facts] = []
    finals: dict[int, tuple[State, int]] = {}
    k = step = 0
    while step < steps:
        seat = choose_seat("rotate", "seat", players, game_seed, k)
        dealer = choose_seat("random", "dealer", players, game_seed, k)
        st = State.from_deck(rules, players, shuffled_deck(random.Random(derive_seed(game_seed, "deal", k)), rules),
                             dealer)
        bots = {s: random.Random(derive_seed(game_seed, "bot", k, s)) for s in range(players) if s != seat}
        k += 1
        _settle(st, seat, bots)
        if _fate(st, seat) is not None:
            continue  # a deal that settles the learner's fate before it acts is skipped
        while step < steps:
            legal = sorted(space.actions(st.legal_moves()))
            digest = (digest * K + sum(weights[a] for a in legal)) & MASK
            pick = (i * 7919 + step * 104729 + (i * step) % 65521) % 1_000_003
            st.apply(space.move(legal[pick % len(legal)]))
            step += 1
            fate = _fate(st, seat)
            if fate is None:
                _settle(st, seat, bots)
                fate = _fate(st, seat)
            if fate is not None:
                if len(ended) % 16 == 0:
                    finals[len(ended)] = (st, seat)
                ended.append(fate)
                break
    return digest, ended, finals


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PRESETS))
def test_the_native_engine_replays_on_the_rules_core(name: str) -> None:
    """:data:`SLOW_GAMES` games a preset (every player count alike): the native engine's games
    replayed on the rules core give the same masks, rewards, truncations and facts, and
    the sampled final tensors are the reference encoder's."""
    rules = preset(name)
    played = 0
    for k, (players, episodes) in enumerate(_spread(name, SLOW_GAMES)):
        seed = 7000 + 100 * k + players
        order = "rank_major" if k % 2 else "suit_major"
        games = 1024
        steps, digests, ended, finals = _native_run(name, players, games, episodes, seed, order)
        weights = [int(w) for w in np.random.default_rng(seed).integers(1, 1 << 62, ActionSpace(rules).size,
                                                                         dtype=np.int64)]
        for i in range(games):
            digest, py_ended, states = _replay(rules, players, i, seed, steps, order, weights)
            where = f"{name} {players}p game {i}"
            assert py_ended == ended[i], where
            assert digest == digests[i], f"{where}: masks"
            assert states.keys() == {e for g, e in finals if g == i}, where
            for e, (st, seat) in states.items():
                tensor = encode(st.observation(seat), card_order=order)
                assert tensor.tobytes() == finals[(i, e)], f"{where}: final tensor of episode {e}"
            played += len(ended[i])
    assert played >= SLOW_GAMES


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
    """``auto`` takes the native engine for the presets against random and easy
    opponents and the Python path for the rest (another option mix, another opponent),
    and says why."""
    assert BatchedGames(2, rules="blodmattis", players=3, opponents="random").engine == "native"
    assert BatchedGames(2, rules="mattis", players=3, opponents="random", overrides={"phase2_cap": 99}).engine \
        == "native"
    mix = BatchedGames(2, rules="mattis", players=3, opponents="random", overrides={"sequences": 3})
    assert mix.engine == "python" and mix.engine_note is not None and "option" in mix.engine_note
    assert BatchedGames(2, rules="mattis", players=3, opponents=["random", "easy"]).engine == "native"
    medium = BatchedGames(2, rules="mattis", players=3, opponents=["easy", "medium"])
    assert medium.engine == "python" and medium.engine_note is not None and "easy" in medium.engine_note
    with pytest.raises(ValueError):
        BatchedGames(2, rules="mattis", players=3, opponents="medium", engine="native")
    native = BatchedGames(2, rules="mattis", players=3, opponents="random")
    native.set_opponents("easy")
    with pytest.raises(ValueError):
        native.set_opponents("medium")
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
        (obs, rewards, terms, truncs, _), (obs2, rewards2, terms2, truncs2, _) = [v.step(acts) for v in envs]
        assert np.array_equal(obs, obs2) and np.array_equal(rewards, rewards2)
        assert np.array_equal(terms, terms2) and np.array_equal(truncs, truncs2)


def test_native_games_copy_and_pickle_mid_game() -> None:
    """A deep copy and a pickle taken mid-game step on as the original does (the easy
    opponents' memories of what they played included)."""
    import copy
    import pickle

    games = BatchedGames(16, rules="blodmattis", players=4, opponents=["easy", "random", "easy"], seat="rotate")
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


def test_a_build_of_another_native_source_never_runs(tmp_path: Path) -> None:
    """A ``_native.c`` edited since the build: the engine beside it is stale, so the
    batched games (and the mirror) take the Python path and say why; the unedited copy
    runs natively."""
    copy = tmp_path / "mattis"
    shutil.copytree(Path(mattis.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    source = copy / "rl" / "_native.c"
    code = ("from mattis.rl.batched import BatchedGames; from mattis.rl.mirror import mirror_covers; "
            "g = BatchedGames(2, 'mattis', 3, opponents='random'); "
            "print(g.engine); print(mirror_covers(g.rules)); print(g.engine_note)")

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(tmp_path)}, check=True)
        return done.stdout.splitlines()

    assert run()[:2] == ["native", "None"]
    source.write_text(source.read_text() + "\n/* edited since the build */\n")
    engine, mirror, note = run()
    assert engine == "python"
    assert "built from another rl/_native.c" in note
    assert mirror == note
