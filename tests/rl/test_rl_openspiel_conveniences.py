"""OpenSpiel conveniences of ``python_mattis``: records in and out, the resampler
built from the determinizer's world, ``undo_action``, the compact information-state
string, and the project's bots as evaluators for OpenSpiel's searches."""

from __future__ import annotations

import glob
import os
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from mattis.core import State, mask_of, preset  # noqa: E402
from mattis.core.record import GameRecord, RecordError, load_record  # noqa: E402
from mattis.rl.openspiel_eval import BotRolloutEvaluator, ValueEvaluator  # noqa: E402
from mattis.rl.openspiel_game import MattisBot, record_from_state, record_params, state_from_record  # noqa: E402
from tiers import scale  # noqa: E402

RECORDS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "core", "records", "*.json")))
GAMES = ["python_mattis(rules=mattis,players=3)", "python_mattis(rules=hund,players=4)",
         "python_mattis(rules=blodmattis,players=5)", "python_mattis(rules=skitgubbe,players=2)",
         "python_mattis(rules=mattis,players=3,leader=0,card_order=rank_major)"]


def engine_fields(s: State) -> dict[str, Any]:
    """A state's fields, without the memo of legal moves (a cache)."""
    d = s.__getstate__()
    d["_legal"] = None
    return d


def played(game: Any, seed: int, moves: int | None = None, bots: str = "random") -> Any:
    """A state of ``game`` after a seeded deal and up to ``moves`` moves (to the end when
    ``None``) of ``random`` or ``easy`` play."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    players = [MattisBot("easy", seed=seed * 10 + i) for i in range(game.num_players())] if bots == "easy" else None
    k = 0
    while not s.is_terminal() and (moves is None or k < moves):
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        s.apply_action(players[s.current_player()].step(s) if players else rng.choice(s.legal_actions()))
        k += 1
    return s


def seeded_resampler(seed: int) -> Any:
    worlds = random.Random(seed)
    return lambda state, player: state.resample_from_infostate(player, None, rng=worlds)


# ----------------------------------------------------------------- records
@pytest.mark.parametrize("game_string", GAMES)
def test_records_round_trip_through_openspiel_states(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    for seed in range(scale(4, 10)):
        s = played(game, seed, moves=None if seed % 2 else 40 + seed)
        rec = record_from_state(s)
        assert rec.replay().__getstate__() == s.engine.__getstate__() | {"_legal": rec.replay()._legal}
        back = state_from_record(game, GameRecord.loads(rec.dumps()))
        assert back.history() == s.history()
        assert back.serialize() == s.serialize()
        assert record_from_state(back).to_json() == rec.to_json()
        if game.spec.leader is not None:
            assert rec.leader == game.spec.leader and "leader" in rec.to_json()
        again = state_from_record(None, rec)  # the game loaded from the record itself
        assert record_from_state(again).to_json() == rec.to_json()
        assert again.information_state_string(0) == back.information_state_string(0) or \
            game.spec.card_order != "suit_major"


@pytest.mark.parametrize("path", RECORDS, ids=[os.path.basename(p) for p in RECORDS])
def test_the_test_records_round_trip(path: str) -> None:
    """Records with a first leader or a starting position (phase 1 or 2) load as
    OpenSpiel states whose game says how the record starts, and come back unchanged."""
    rec = load_record(path)
    s = state_from_record(None, rec)
    assert s.engine is not None
    assert engine_fields(s.engine) == engine_fields(rec.replay())
    assert record_from_state(s).to_json() == rec.to_json()
    game = s.get_game()
    again = pyspiel.load_game(str(game))  # the game string loads back
    assert record_from_state(state_from_record(again, rec)).to_json() == rec.to_json()
    if rec.position is not None:
        assert len(s.history()) == len(rec.moves)  # no deal: the position is the game's start
        assert game.new_initial_state().engine.position_text() == rec.start().position_text()


def test_a_record_of_another_game_is_refused() -> None:
    game = pyspiel.load_game("python_mattis(rules=mattis,players=3)")
    rec = record_from_state(played(game, 1, moves=10))
    for other in ("python_mattis(rules=hund,players=3)", "python_mattis(rules=mattis,players=4)",
                  "python_mattis(rules=mattis,players=3,dealer=1)", "python_mattis(rules=mattis,players=3,leader=0)"):
        with pytest.raises(ValueError, match="not a game of"):
            state_from_record(pyspiel.load_game(other), rec)
    bad = GameRecord.loads(rec.dumps())
    bad.moves[3] = bad.moves[2]
    with pytest.raises(RecordError):
        state_from_record(game, bad)
    with pytest.raises(ValueError, match="dealt"):
        record_from_state(game.new_initial_state())
    assert record_params(rec) == {"rules": "mattis", "players": 3, "dealer": 0, "overrides": ""}


# ---------------------------------------------------------------- resample
@pytest.mark.parametrize("game_string", GAMES)
def test_resampled_states_keep_the_players_information_and_are_consistent_worlds(game_string: str) -> None:
    """Built from the determinizer's world, not by replaying OpenSpiel actions: the
    sample has the player's information-state string and tensor, replays from its own
    record as a legal game with the same fields, has OpenSpiel's history of that game,
    and deals the hidden cards differently under different seeds."""
    game = pyspiel.load_game(game_string)
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for seed in range(scale(2, 8)):
        s = played(game, seed, bots="easy")
        history = s.history()
        for at in (10, 30, len(history) - 53):
            rec = record_from_state(s)
            rec.moves = rec.moves[:at]
            t = state_from_record(game, rec)
            if t.is_terminal():
                continue
            p = t.current_player()
            observer.set_from(t, p)
            mine = observer.tensor.copy()
            others: set[tuple[int, ...]] = set()
            for k in range(4):
                r = t.resample_from_infostate(p, None, rng=random.Random(k))
                assert r.information_state_string(p) == t.information_state_string(p)
                observer.set_from(r, p)
                assert (observer.tensor == mine).all()
                rec = record_from_state(r)
                assert r.engine is not None and t.engine is not None
                assert engine_fields(rec.replay()) == engine_fields(r.engine)  # a legal game, these fields
                assert r.history() == state_from_record(game, rec).history()
                assert pyspiel.serialize_game_and_state(game, r).split("[State]\n")[1].rstrip("\n") == r.serialize()
                assert r.engine.hand(p) == t.engine.hand(p)
                others.add(tuple(mask_of(r.engine.hand(q)) for q in range(game.num_players()) if q != p))
            if at == 10:  # (late in a game the seat may know where every card is)
                assert len(others) > 1, "the hidden cards are dealt afresh"


def test_resampling_a_game_from_a_position_is_refused() -> None:
    rec = load_record(RECORDS[1])
    assert rec.position is not None
    s = state_from_record(None, rec)
    with pytest.raises(ValueError, match="position"):
        s.resample_from_infostate(0, None, rng=random.Random(0))


# -------------------------------------------------------------------- undo
@pytest.mark.parametrize("game_string", GAMES + ["python_mattis(rules=mattis,players=3,"
                                                 "position=2;dealer:0;trump:H;hands:3C4C2H/5D8D6S/2C7H9S;lead:1)"])
def test_undo_restores_the_state_exactly(game_string: str) -> None:
    """Apply an action, undo it: the serialized state (history and pickled fields),
    the legal actions and both information strings are what they were, from the first
    deal step to the end of the game; the serialized form loads back."""
    game = pyspiel.load_game(game_string)
    for seed in range(scale(2, 6)):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal() and len(s.history()) < 52 + 150:  # (an undo replays the game)
            before = s.serialize()
            legal = s.legal_actions() if not s.is_chance_node() else [a for a, _ in s.chance_outcomes()]
            info = [s.information_state_string(q) for q in range(game.num_players())] if not s.is_chance_node() else []
            a = rng.choice(legal)
            p = s.current_player()
            s.apply_action(a)
            if not s.is_chance_node():
                s.information_state_string(0)  # fills the hand cache past the undo
            s.undo_action(p, a)
            assert s.serialize() == before
            assert s.current_player() == p
            assert (s.legal_actions() if not s.is_chance_node() else [x for x, _ in s.chance_outcomes()]) == legal
            if info:
                assert [s.information_state_string(q) for q in range(game.num_players())] == info
            s.apply_action(a)
        assert s.history()
        loaded = game.deserialize_state(s.serialize())
        assert loaded.history() == s.history() and loaded.returns() == s.returns()


def test_undo_refuses_what_was_not_the_last_action() -> None:
    game = pyspiel.load_game("python_mattis(players=3)")
    s = played(game, 3, moves=5)
    last = s.history()[-1]
    with pytest.raises(ValueError, match="last action"):
        s.undo_action(s.full_history()[-1].player, last + 1)
    with pytest.raises(ValueError, match="nothing to undo"):
        game.new_initial_state().undo_action(-1, 0)


# ------------------------------------------------- information-state string
@pytest.mark.parametrize("game_string,games", [
    ("python_mattis(rules=mattis,players=3,overrides=phase2_cap:120)", scale(8, 20)),
    ("python_mattis(rules=skitgubbe,players=2)", scale(4, 15)),
    ("python_mattis(rules=hund,players=4)", scale(4, 10)),
])
def test_the_information_state_string_is_compact_and_one_to_one(game_string: str, games: int) -> None:
    """Over long random games, every seat at every decision: distinct information
    states (the readable string) have distinct compact strings, and the compact
    string is about two characters a move."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(5)
    by_compact: dict[str, str] = {}
    by_readable: dict[str, str] = {}
    longest = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            for p in range(game.num_players()):
                compact = s.information_state_string(p)
                readable = s.readable_info_string(p)
                assert by_compact.setdefault(compact, readable) == readable, "two information states, one string"
                assert by_readable.setdefault(readable, compact) == compact
                moves = len(s.history()) - 52
                assert len(compact) <= 2 * moves + 72 + 9 * game.num_players()
            s.apply_action(rng.choice(s.legal_actions()))
        longest = max(longest, len(s.history()) - 52)
    assert len(by_compact) > games * 50
    assert longest > 100


# -------------------------------------------------------------- evaluators
def test_the_bot_rollout_evaluator_plays_out_with_the_bot() -> None:
    """The value is the rewards of the playout: one loser in a constant-sum game, the
    state's returns at the end, the same for the same seed; a playout of ``easy``
    is an easy game (its loser is the one of the game played by easy bots seeded alike)."""
    game = pyspiel.load_game("python_mattis(players=3)")
    s = played(game, 2, moves=20)
    v = BotRolloutEvaluator("easy", seed=4).evaluate(s)
    assert sorted(v.tolist()) == [-1.0, 0.0, 0.0]
    assert BotRolloutEvaluator("easy", seed=4).evaluate(s).tolist() == v.tolist()
    end = played(game, 2)
    assert BotRolloutEvaluator("easy", seed=1).evaluate(end).tolist() == end.returns()
    ev = BotRolloutEvaluator("easy", n_rollouts=6, seed=1)
    mean = ev.evaluate(s)
    assert abs(mean.sum() + 1.0) < 1e-9 and ev.moves > 6
    assert sum(p for _, p in ev.prior(s)) == pytest.approx(1.0)
    assert {a for a, _ in ev.prior(s)} == set(s.legal_actions())
    zero = pyspiel.load_game("python_mattis(players=2,zero_sum=true)")
    assert sorted(BotRolloutEvaluator("easy", seed=1).evaluate(played(zero, 1, moves=10)).tolist()) == [-1.0, 1.0]
    with pytest.raises(ValueError):
        BotRolloutEvaluator("no-such-bot")


def test_the_value_evaluator_reads_the_value_model() -> None:
    from mattis.bots.value import model_for

    game = pyspiel.load_game("python_mattis(players=3)")
    s = played(game, 6, moves=30)
    v = ValueEvaluator(game.rules).evaluate(s)
    p = s.current_player()
    want = model_for(preset("mattis")).losers(s.engine.observation(p))
    assert v.tolist() == pytest.approx([-want[(q - p) % 3] for q in range(3)])
    end = played(game, 6)
    assert ValueEvaluator(game.rules).evaluate(end).tolist() == end.returns()


@pytest.mark.parametrize("searcher", ["mcts", "ismcts"])
def test_openspiel_searches_run_with_the_project_evaluators(searcher: str) -> None:
    """OpenSpiel's MCTSBot and ISMCTSBot take the evaluators and choose legal moves;
    with the easy rollouts ISMCTS's choice at a decision is what the search found
    (the action its final policy rates highest)."""
    game = pyspiel.load_game("python_mattis(players=3)")
    s = played(game, 8, moves=6)
    rs = np.random.RandomState(1)
    for ev in (BotRolloutEvaluator("easy", seed=2), ValueEvaluator(game.rules)):
        if searcher == "mcts":
            bot = mcts.MCTSBot(game, 2.0, 12, ev, random_state=rs, solve=False)
        else:
            bot = ismcts.ISMCTSBot(game, ev, 2.0, 12, random_state=rs)
            bot.set_resampler(seeded_resampler(3))
        policy, action = bot.step_with_policy(s)
        assert action in s.legal_actions()
        assert dict(policy)[action] == max(p for _, p in policy)


def test_pickled_states_do_not_depend_on_their_caches() -> None:
    game = pyspiel.load_game("python_mattis(players=3)")
    s = played(game, 9, moves=25)
    plain = pickle.dumps(s._core)
    s.information_state_string(1)
    s.legal_actions()
    assert pickle.dumps(s._core) == plain
