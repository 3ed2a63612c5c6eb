"""The expert's phase 1 search valued by the learned model at phase 2's start.

``tree_search`` with a ``leaf`` evaluator values each iteration by the leaf instead of
a playout to the game's end: checked at a phase 1 position one move from phase 2's
start, where every root move's mean value must be the model's chance for the
searching seat right after that move.  ``IsmctsBot(leaf="value")`` asks the model in
phase 1; the default (``playout``) never does and plays as before; without NumPy the
value leaf falls back to the playouts and says so.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

import pytest

from mattis.bots import search as search_module
from mattis.bots.policy import playout_phase1, state_choice
from mattis.bots.search import LEAVES, IsmctsBot, tree_search, value_leaf
from mattis.bots.value import has_numpy, model_for
from mattis.core import Move, Observation, State, preset
from mattis.core.observation import PHASE1, PHASE2
from mattis.play import Referee, make_bot

needs_numpy = pytest.mark.skipif(not has_numpy(), reason="the value model needs NumPy")


def _one_move_from_phase2() -> State:
    """A phase 1 position (heuristic play, seeded) where the seat to act (not seat 0)
    has two legal moves or more and each of them starts phase 2."""
    for name in ("skitgubbe", "mattis", "hund", "blodmattis"):
        for seed in range(40):
            st = State.new(preset(name), 3, seed=seed)
            while st.phase == PHASE1:
                legal = st.legal_moves()
                if len(legal) > 1 and st.to_act != 0:
                    after = [st.clone() for _ in legal]
                    for s, m in zip(after, legal, strict=True):
                        s.apply(m)
                    if all(s.phase == PHASE2 for s in after):
                        return st
                st.apply(state_choice(st))
    raise AssertionError("no such position in the seeds tried")


def _phase1_observations(seed: int, count: int) -> list[Observation]:
    """Phase 1 observations with two legal moves or more along a game of ``easy`` bots."""
    ref = Referee.new(preset("mattis"), 3, seed=seed)
    bots = {s: make_bot("easy", seed + s) for s in range(3)}
    out: list[Observation] = []
    while not ref.is_over and len(out) < count:
        seat = ref.to_act
        assert seat is not None
        obs = ref.observation(seat)
        if obs.phase == PHASE1 and len(obs.legal) > 1:
            out.append(obs)
        ref.apply(seat, bots[seat].act(obs), events=False)
    return out


def test_playout_phase1_stops_at_phase2s_start() -> None:
    st = State.new(preset("mattis"), 3, seed=5)
    playout_phase1(st, random.Random(1), 0.1)
    assert st.phase == PHASE2 and not st.is_over  # this seed's game goes on into phase 2
    moves = len(st.moves())
    playout_phase1(st, random.Random(1), 0.1)  # past phase 1: nothing to do
    assert len(st.moves()) == moves


@needs_numpy
def test_the_value_leaf_is_one_less_the_models_loser_chance_per_seat() -> None:
    st = _one_move_from_phase2()
    me = st.to_act
    assert me is not None
    st.apply(st.legal_moves()[0])
    model = model_for(st.rules)
    losers = model.losers(st.observation(me))  # relative order: index k is seat me + k
    values = value_leaf(model, me)(st)
    n = st.n
    assert len(values) == n
    for k in range(n):
        assert values[(me + k) % n] == pytest.approx(1.0 - losers[k], abs=1e-6)
    assert values[me] == pytest.approx(model.chance(st.observation(me)), abs=1e-6)


@needs_numpy
def test_the_tree_s_root_values_are_the_models_at_phase2s_start() -> None:
    st = _one_move_from_phase2()
    me = st.to_act
    assert me is not None and me != 0
    obs = st.observation(me)
    model = model_for(st.rules)
    legal = list(obs.legal)
    stats: dict[Move, tuple[int, float]] = {}
    tree_search(obs, [st], legal, legal[0], 5 * len(legal), 0.7, random.Random(3), 0.1, True,
                leaf=value_leaf(model, me), stats=stats)
    assert set(stats) == set(legal)
    for m in legal:
        after = st.clone()
        after.apply(m)
        visits, value = stats[m]
        assert visits >= 1
        # one world, and the move starts phase 2: every visit is valued by the model alone
        assert value == pytest.approx(model.chance(after.observation(me)), abs=1e-6)
    # without the leaf the same search plays out to the game's end: 0/1-ish values
    plain: dict[Move, tuple[int, float]] = {}
    tree_search(obs, [st], legal, legal[0], 5 * len(legal), 0.7, random.Random(3), 0.1, True,
                stats=plain)
    assert set(plain) == set(legal)
    assert any(abs(plain[m][1] - stats[m][1]) > 1e-6 for m in legal)


@dataclass
class _Counting:
    """A stand-in model: every seat alike; counts the observations it is asked about."""

    calls: int = 0

    def losers(self, obs: Observation) -> list[float]:
        self.calls += 1
        return [1.0 / obs.players] * obs.players


def test_the_value_leaf_asks_the_model_once_an_iteration_in_phase1(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _Counting()
    monkeypatch.setattr(search_module, "model_for", lambda rules: fake)
    monkeypatch.setattr(search_module, "has_numpy", lambda: True)
    obs = _phase1_observations(31, 1)[0]
    bot = IsmctsBot(4, iterations=40, leaf="value")
    assert bot.leaf == "value"
    bot.act(obs)
    # a world whose game ends in phase 1 keeps its playout's outcome: rare this early
    assert 30 <= fake.calls <= 40


def test_the_default_leaf_is_the_playout_and_never_asks_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LEAVES[0] == "playout"

    def no_model(rules: object) -> object:
        raise AssertionError("the default expert asked the value model")

    monkeypatch.setattr(search_module, "model_for", no_model)
    observations = _phase1_observations(32, 6)
    default = [IsmctsBot(9, iterations=30).act(o) for o in observations]
    assert IsmctsBot(9).leaf == "playout"
    assert default == [IsmctsBot(9, iterations=30, leaf="playout").act(o) for o in observations]
    with pytest.raises(ValueError, match="unknown leaf"):
        IsmctsBot(9, leaf="model")


def test_without_numpy_the_value_leaf_plays_out_and_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    fake = _Counting()
    monkeypatch.setattr(search_module, "has_numpy", lambda: False)
    monkeypatch.setattr(search_module, "model_for", lambda rules: fake)
    observations = _phase1_observations(33, 4)
    with caplog.at_level(logging.WARNING, logger="mattis.bots.search"):
        bot = IsmctsBot(6, iterations=30, leaf="value")
        moves = [bot.act(o) for o in observations]
    assert bot.leaf == "playout"
    assert sum("NumPy" in r.getMessage() for r in caplog.records) == 1
    assert fake.calls == 0
    plain = IsmctsBot(6, iterations=30)
    assert moves == [plain.act(o) for o in observations]
