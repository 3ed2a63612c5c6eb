"""Regression tests for the OpenSpiel adapter's former defects (game strings with
overrides, the information state under shown leftovers), its utility kind,
and the project's bots as ``pyspiel.Bot``s."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.core import PRESETS, Move, Observation, Phase, State, preset, verify  # noqa: E402
from mattis.play import make_bot  # noqa: E402
from mattis.rl import openspiel_game  # noqa: E402
from mattis.rl.encoding import ActionSpace  # noqa: E402
from tiers import scale  # noqa: E402

#: Every documented way to load the game (docs/research.md, the module docstring).
LOADS: list[tuple[str, Any]] = [
    ("python_mattis", None),
    ("python_mattis(rules=skitgubbe,players=4,overrides=sequences:3;pickup:first)", None),
    ("python_mattis", {"overrides": "sequences=3"}),
    ("python_mattis", {"rules": "hund", "players": 4, "overrides": "sequences=3,pickup=last"}),
]


def loaded(spec: str, params: Any) -> Any:
    return pyspiel.load_game(spec) if params is None else pyspiel.load_game(spec, params)


@pytest.mark.parametrize("spec,params", LOADS)
def test_every_documented_load_round_trips(spec: str, params: Any) -> None:
    game = loaded(spec, params)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    s = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(70):
        s.apply_action(rng.choice(s.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, s)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert str(g2) == str(game) and s2.history() == s.history()
    pyspiel.random_sim_test(game, num_sims=scale(1, 4), serialize=True, verbose=False)


def test_overrides_given_with_equals_and_commas_mean_the_same_rules() -> None:
    a = openspiel_game.load(overrides="sequences=3,pickup=last")
    b = pyspiel.load_game("python_mattis(overrides=sequences:3;pickup:last)")
    assert str(a) == str(b)
    assert a.rules == b.rules == preset("mattis", sequences=3, pickup="last")


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_sim_test_on_every_preset(name: str) -> None:
    players = 4 if name != "skitgubbe" else 3
    game = openspiel_game.load(name, players)
    pyspiel.random_sim_test(game, num_sims=scale(1, 5), serialize=True, verbose=False)


@pytest.mark.parametrize("name", list(PRESETS))
def test_utility_kind_matches_the_returns(name: str) -> None:
    players = 4
    game = openspiel_game.load(name, players)
    sums = set()
    for seed in range(scale(12, 60)):
        s = State.new(game.rules, players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_moves()))
        assert s.outcome is not None
        sums.add(-len(s.outcome.losers))
    utility = game.get_type().utility
    if name == "blodmattis":
        assert utility == pyspiel.GameType.Utility.GENERAL_SUM
    else:
        assert utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert sums == {-1} and game.utility_sum() == -1.0


def first_phase2_decisions(spec: str, seeds: int) -> list[Any]:
    """States at the first phase 2 decision of random games (some a few moves later)."""
    game = pyspiel.load_game(spec)
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            engine = s.engine
            if engine is not None and engine.phase is Phase.SHED:
                out.append(s.clone())
                for _ in range(seed % 4):
                    if not s.is_terminal():
                        s.apply_action(rng.choice(s.legal_actions()))
                if not s.is_terminal():
                    out.append(s.clone())
                break
            s.apply_action(rng.choice(s.legal_actions()))
    return out


TABLES = [("mattis", 3), ("hund", 4), ("blodmattis", 4), ("skitgubbe", 4), ("skitgubbe", 3), ("skitgubbe", 2)]


@pytest.mark.parametrize("name,players", TABLES)
def test_resampled_states_agree_with_the_players_observation(name: str, players: int) -> None:
    """A determinization must keep everything the player can see: its observation
    tensor (public cards included: leftovers shown, known pickups) and its
    information-state string and tensor."""
    spec = f"python_mattis(rules={name},players={players})"
    states = first_phase2_decisions(spec, scale(4, 12))
    assert states
    for s in states:
        for p in range(players):
            for k in range(2):
                r = s.resample_from_infostate(p, None, rng=random.Random(k))
                assert r.observation_tensor(p) == s.observation_tensor(p)
                assert r.information_state_string(p) == s.information_state_string(p)
                assert r.information_state_tensor(p) == s.information_state_tensor(p)


def test_leftovers_shown_are_in_the_information_state_string() -> None:
    """Skitgubbe shows every hand at the end of phase 1: two deals that differ only in
    which opponent held two such cards must be different information states (before
    the fix they had one string, and ISMCTS merged them)."""
    rules = preset("skitgubbe")
    found = 0
    for seed in range(scale(10, 30)):
        s = State.new(rules, 3, seed=seed)
        rng = random.Random(seed)
        moves: list[Move] = []
        while s.phase is Phase.COLLECT and not s.is_over:
            mv = rng.choice(s.legal_moves())
            s.apply(mv)
            moves.append(mv)
        if s.is_over:
            continue
        obs = s.observation(0)
        a, b = obs.known[1], obs.known[2]
        laid = {c for _, _, shown in obs.history for c in shown}
        a_only = [c for c in a if c not in laid]
        b_only = [c for c in b if c not in laid]
        if not a_only or not b_only:
            continue
        assert s.deck is not None
        deck = list(s.deck)
        i, j = deck.index(a_only[0]), deck.index(b_only[0])
        deck[i], deck[j] = deck[j], deck[i]
        t = State.from_deck(rules, 3, deck, s.dealer)
        if not replays(t, moves):
            continue
        x, y = spiel(s), spiel(t)
        assert x.observation_tensor(0) != y.observation_tensor(0)
        assert x.information_state_string(0) != y.information_state_string(0)
        found += 1
    assert found >= 2


def replays(state: State, moves: list[Move]) -> bool:
    """Apply ``moves`` to ``state``; ``False`` as soon as one is illegal there."""
    for mv in moves:
        if verify(state, mv) is not None:
            return False
        state.apply(mv)
    return True


def spiel(world: State) -> Any:
    assert world.deck is not None
    s = openspiel_game.load(world.rules.name, world.players,
                            overrides=";".join(f"{k}:{v}" for k, v in world.rules.overrides().items()),
                            dealer=world.dealer).new_initial_state()
    for c in world.deck:
        s.apply_action(c)
    space = ActionSpace(world.rules)
    for _seat, mv in world.moves():
        s.apply_action(space.action(mv))
    return s


class Recorder:
    """An easy bot that records the observations it was given."""

    name = "recorder"

    def __init__(self) -> None:
        self.inner = make_bot("easy", 0)
        self.seen: list[Observation] = []

    def act(self, obs: Observation) -> Move:
        self.seen.append(obs)
        return self.inner.act(obs)


def test_project_bots_as_pyspiel_bots_play_whole_games() -> None:
    game = openspiel_game.load("blodmattis", 4)
    for seed in range(scale(2, 8)):
        recorders = [Recorder() for _ in range(4)]
        bots = [openspiel_game.MattisBot(r, player_id=i) for i, r in enumerate(recorders)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert sum(r < 0 for r in returns) >= 1 and all(r in (0.0, -1.0) for r in returns)
        for i, r in enumerate(recorders):
            assert r.seen and all(o.seat == i and o.to_act == i and o.legal for o in r.seen)
    named = [openspiel_game.MattisBot("easy", player_id=i, seed=i) for i in range(3)]
    returns = pyspiel.evaluate_bots(openspiel_game.load().new_initial_state(), named, 0)
    assert sorted(returns) == [-1.0, 0.0, 0.0]


@pytest.mark.parametrize("spec", [pytest.param("python_mattis(rules=blodmattis,players=5)", marks=pytest.mark.slow),
                                  "python_mattis(rules=skitgubbe,players=3)"])  # the long games in CI only
def test_incremental_tensors_equal_fresh_ones(spec: str) -> None:
    """The observers keep their tensors up move by move; they must equal the tensors of
    a fresh copy of the state (which is encoded from scratch): read at every step of
    the first 150 and checked at every third, then read and checked at every 25th (the
    observers catch up 25 moves at once; a fresh copy replays the whole game, so checking
    every step of a long game would cost time quadratic in its length)."""
    game = pyspiel.load_game(spec)
    for seed in range(2):
        rng = random.Random(seed)
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            players = range(game.num_players())
            if steps < 150 or steps % 25 == 0:  # after 150 steps the observers catch up 25 moves at once
                mine = [(s.observation_tensor(p), s.information_state_tensor(p)) for p in players]
            if steps % (3 if steps < 150 else 25) == 0:
                fresh = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, s))[1]
                assert mine == [(fresh.observation_tensor(p), fresh.information_state_tensor(p)) for p in players]
            s.apply_action(rng.choice(s.legal_actions()))
            steps += 1


def test_the_registry_and_the_default_game_agree_on_the_utility_kind() -> None:
    """Defect: the registry said GENERAL_SUM while the loaded game said CONSTANT_SUM."""
    registered = next(t for t in pyspiel.registered_games() if t.short_name == "python_mattis")
    assert registered.utility == pyspiel.load_game("python_mattis").get_type().utility
    assert registered.utility == pyspiel.GameType.Utility.CONSTANT_SUM


def test_zero_sum_two_player_game_and_the_cap_as_truncation() -> None:
    game = pyspiel.load_game("python_mattis(players=2,zero_sum=True,overrides=phase2_cap:30)")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    rng = random.Random(5)
    truncated = 0
    for _ in range(15):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        assert sorted(s.returns()) == [-1.0, 1.0]
        truncated += s.is_truncated()
        assert s.is_truncated() == (str(s.engine.end_reason) == "cap")
    assert truncated
    with pytest.raises(ValueError, match="two players"):
        pyspiel.load_game("python_mattis(players=3,zero_sum=True)")
