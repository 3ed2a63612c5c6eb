"""Tensors that see what decides the game: the phase 2 move count against the cap and
the repetition count are in both tensors (and public), and the information-state
tensor is one-to-one on information states."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.core import Phase, State, Termination, preset  # noqa: E402
from mattis.core.determinize import sample_state  # noqa: E402
from mattis.rl import openspiel_game  # noqa: E402, F401  (registers python_mattis)
from mattis.rl.encoding import offsets  # noqa: E402
from tiers import scale  # noqa: E402


def test_the_counts_that_end_a_game_are_in_the_observation_and_public() -> None:
    """``phase2_moves`` and ``repetitions`` follow the engine's own counters, reach the
    values that end the game (a third repetition), are the same for every seat, and a
    world sampled from a seat's view has the same counts (they leak nothing hidden)."""
    rules = preset("mattis", phase2_cap=400)
    rng = random.Random(1)
    top_rep = 0
    ends: set[Termination] = set()
    for g in range(scale(12, 20)):
        s = State.new(rules, 3, seed=g)
        while not s.is_over:
            s.apply(rng.choice(s.legal_moves()))
            views = [s.observation(p) for p in range(3)]
            assert {v.phase2_moves for v in views} == {s.p2_moves if s.phase is not Phase.COLLECT else 0}
            assert len({v.repetitions for v in views}) == 1
            rep = views[0].repetitions
            top_rep = max(top_rep, rep)
            if s.phase is Phase.SHED and rep and rng.random() < 0.05:
                seat = rng.randrange(3)
                world = sample_state(views[seat], random.Random(g))
                again = world.observation(seat)
                assert (again.phase2_moves, again.repetitions) == (views[seat].phase2_moves, rep)
        assert s.end_reason is not None
        ends.add(s.end_reason)
    assert top_rep >= 1 and ends


def test_the_repetition_count_climbs_to_the_end_of_a_recorded_game() -> None:
    """The recorded Skitgubbe game that ends by repetition (tests/core/records): the
    count of the present position, read by every seat, is 2 before the move that
    makes the third (which ends the game; a game over shows 0)."""
    from pathlib import Path

    from mattis.core import load_record

    rec = load_record(str(Path(__file__).parents[1] / "core" / "records" / "rule_repetition.json"))
    counts = []
    for k in range(len(rec.moves) + 1):
        s = rec.replay(k)
        views = {s.observation(p).repetitions for p in range(s.n)}
        assert len(views) == 1
        counts.append(views.pop())
    assert counts[-2] == 2 and counts[-1] == 0 and max(counts) == 2
    assert s.end_reason is Termination.REPETITION


def test_both_tensors_hold_the_counts() -> None:
    game = pyspiel.load_game("python_mattis(players=3,overrides=phase2_cap:50)")
    from open_spiel.python.observation import make_observation

    o = offsets(3)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(2)
    s = game.new_initial_state()
    seen = set()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        p = s.current_player()
        obs = s.engine.observation(p)
        t = np.array(s.observation_tensor(p), np.float32)
        info.set_from(s, p)
        for tensor in (t, info.tensor):
            assert tensor[o["phase2_moves"]] == pytest.approx(obs.phase2_moves / 50)
            assert tensor[o["repetitions"]] == pytest.approx(obs.repetitions / 3)
        seen.add((obs.phase2_moves > 0, obs.repetitions))
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.is_truncated() == (s.engine.end_reason is Termination.CAP)
    assert (True, 1) in seen


@pytest.mark.parametrize("game_string,games", [
    ("python_mattis(rules=blodmattis,players=4,overrides=phase2_cap:300)", scale(3, 10)),
    pytest.param("python_mattis(rules=blodmattis,players=4)", 2, marks=pytest.mark.slow),  # to the cap: minutes a game
    ("python_mattis(rules=mattis,players=3,overrides=phase2_cap:120)", scale(10, 30)),
    ("python_mattis(rules=skitgubbe,players=2)", scale(6, 20)),
])
def test_the_information_state_tensor_is_one_to_one(game_string: str, games: int) -> None:
    """Over long random games, every decision of every seat: no two different
    information states (``information_state_string``) share a tensor, and the same
    information state always gives the same tensor."""
    game = pyspiel.load_game(game_string)
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(3)
    by_tensor: dict[bytes, str] = {}
    by_string: dict[str, bytes] = {}
    longest = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            for p in range(game.num_players()):
                text = s.information_state_string(p)
                observer.set_from(s, p)
                key = observer.tensor.tobytes()
                assert by_tensor.setdefault(key, text) == text, "two information states share a tensor"
                assert by_string.setdefault(text, key) == key
            s.apply_action(rng.choice(s.legal_actions()))
        longest = max(longest, len(s.history()) - 52)
    assert len(by_tensor) == len(by_string) > games * 50
    assert longest > 100  # the games reach deep into phase 2


def test_the_recall_blocks_are_scaled_to_be_read() -> None:
    """``first_held`` spans (0, 1] in phase 1 already: the deal is 1/53, a card drawn
    after the 20th move 21/53."""
    game = pyspiel.load_game("python_mattis(players=3)")
    from open_spiel.python.observation import make_observation

    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(4)
    s = game.new_initial_state()
    while s.is_chance_node() or len(s.history()) < 52 + 20:
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    p = s.current_player()
    observer.set_from(s, p)
    held = observer.dict["first_held"]
    steps = np.round(held[held > 0] * 53).astype(int)
    assert (steps == 1).sum() >= 3 and 0.1 < held.max() <= 1.0  # the dealt hand, then draws 6..53 steps in
    laid = observer.dict["first_laid"]
    assert laid.max() == pytest.approx(20 / 53)  # the 20th move's card
