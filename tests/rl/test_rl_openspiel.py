"""The OpenSpiel game ``python_mattis``: OpenSpiel's own test, its bots, and our rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from rl_helpers import hidden_swaps, random_game, replay  # noqa: E402

from mattis.core import PRESETS, Move, State, preset  # noqa: E402
from mattis.core.determinize import DeterminizeError, relabel_hidden  # noqa: E402
from mattis.rl import openspiel_game  # noqa: E402
from mattis.rl.encoding import ActionSpace, obs_size  # noqa: E402


def sample_chance(state: Any, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    assert abs(sum(probs) - 1.0) < 1e-9
    return int(rng.choices(actions, weights=probs)[0])


def random_state(spec: str, seed: int, decisions: int | None = None) -> tuple[Any, Any]:
    """A state after the deal and ``decisions`` random moves (to the end if None)."""
    g = pyspiel.load_game(spec)
    s = g.new_initial_state()
    rng = random.Random(seed)
    made = 0
    while not s.is_terminal() and (decisions is None or made < decisions or s.is_chance_node()):
        if s.is_chance_node():
            s.apply_action(sample_chance(s, rng))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            made += 1
    return g, s


@pytest.mark.parametrize("spec", ["python_mattis", "python_mattis(rules=skitgubbe,players=2,overrides=sequences:3)",
                                  *(f"python_mattis(rules={name},players=3)" for name in PRESETS)])
def test_openspiel_random_sim_test(spec: str) -> None:
    """OpenSpiel's own random_sim_test, serialization included, on every preset."""
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("spec,actions,players", [
    ("python_mattis", 54, 3),
    ("python_mattis(rules=blodmattis,players=5)", 366, 5),
    ("python_mattis(rules=skitgubbe,players=4,overrides=sequences:3;phase2_cap:300)", 318, 4),
])
def test_game_size_figures_follow_the_parameters(spec: str, actions: int, players: int) -> None:
    g = pyspiel.load_game(spec)
    assert g.num_distinct_actions() == actions
    assert g.num_players() == players
    assert g.max_chance_outcomes() == 52
    assert g.min_utility() == -1.0 and g.max_utility() == 0.0
    cap = 300 if "phase2_cap" in spec else 10000
    assert g.max_game_length() == 52 + cap
    assert g.observation_tensor_size() == obs_size(players)
    assert g.information_state_tensor_size() == obs_size(players) + players + 104 + g.max_game_length()


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="unknown rules"):
        pyspiel.load_game("python_mattis(rules=poker)")
    with pytest.raises(Exception, match="allows"):
        pyspiel.load_game("python_mattis(rules=blodmattis,players=2)")


def test_the_deal_is_fifty_two_chance_nodes_then_the_engines_deal() -> None:
    g = pyspiel.load_game("python_mattis(players=4,dealer=2)")
    s = g.new_initial_state()
    deck = list(range(51, -1, -1))
    for k, c in enumerate(deck):
        assert s.is_chance_node() and len(s.chance_outcomes()) == 52 - k
        s.apply_action(c)
    ref = State.from_deck(preset("mattis"), 4, deck, 2)
    assert s.current_player() == ref.to_act
    space = ActionSpace(preset("mattis"))
    assert s.legal_actions() == sorted(space.actions(ref.legal_moves()))


def test_returns_are_minus_one_for_the_losers() -> None:
    for seed in range(5):
        g, s = random_state("python_mattis(rules=blodmattis,players=4)", seed)
        losers = s.engine.outcome.losers
        assert s.returns() == [(-1.0 if p in losers else 0.0) for p in range(4)]
        assert len(s.history()) <= 52 + g.max_game_length()


def spiel_state(deck: list[int], moves: list[Move]) -> Any:
    """``python_mattis`` (standard rules, 3 players) dealt from ``deck``, after ``moves``."""
    s = pyspiel.load_game("python_mattis").new_initial_state()
    for c in deck:
        s.apply_action(c)
    space = ActionSpace(preset("mattis"))
    for mv in moves:
        s.apply_action(space.action(mv))
    return s


def test_information_state_does_not_change_when_hidden_cards_are_swapped() -> None:
    rules = preset("mattis")
    rng = random.Random(3)
    compared = 0
    for seed in range(3):
        full, moves = random_game(rules, 3, seed)
        cut = 12 + seed
        t = replay(rules, 3, list(full.deck or ()), moves[:cut])
        assert t is not None
        seat = seed % 3
        held: list[set[int]] = [set() for _ in range(3)]
        u = State.from_deck(rules, 3, list(full.deck or ()), 0)
        for mv in moves[:cut]:
            for q in range(3):
                held[q].update(u.hand(q))
            u.apply(mv)

        mine = spiel_state(list(full.deck or ()), moves[:cut])
        for deck, _ in hidden_swaps(t, moves[:cut], seat, rng, held):
            theirs = spiel_state(deck, moves[:cut])
            assert mine.information_state_string(seat) == theirs.information_state_string(seat)
            assert mine.observation_string(seat) == theirs.observation_string(seat)
            assert mine.information_state_tensor(seat) == theirs.information_state_tensor(seat)
            assert mine.observation_tensor(seat) == theirs.observation_tensor(seat)
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize("spec", ["python_mattis", "python_mattis(rules=blodmattis,players=4)",
                                  "python_mattis(rules=skitgubbe,players=2)"])
def test_resampling_keeps_the_information_set_and_hides_the_rest(spec: str) -> None:
    for seed in range(3):
        _, s = random_state(spec, seed, decisions=10 + 15 * seed)
        p = s.current_player()
        key = s.information_state_string(p)
        true_deck = s.history()[:52]
        differ = 0
        for k in range(6):
            r = s.resample_from_infostate(p, None, rng=random.Random(k))
            assert r.information_state_string(p) == key
            assert r.legal_actions() == s.legal_actions()
            differ += r.history()[:52] != true_deck
        assert differ >= 5


#: Every preset, with several table sizes (two players set cards aside, unseen).
RESAMPLE_TABLES = [("mattis", 3), ("mattis", 2), ("hund", 5), ("hund", 4), ("blodmattis", 4), ("blodmattis", 6),
                   ("skitgubbe", 3), ("skitgubbe", 2)]


def spiel_from(spec: str, world: State) -> Any:
    """The ``python_mattis`` state (``spec``) of an engine game: its deck, then its moves."""
    assert world.deck is not None
    s = pyspiel.load_game(spec).new_initial_state()
    for c in world.deck:
        s.apply_action(c)
    space = ActionSpace(world.rules)
    for _seat, mv in world.moves():
        s.apply_action(space.action(mv))
    return s


def own_draws(game: State, seat: int) -> set[int]:
    """Every card ``seat`` took into its hand from the deck (the deal or the stock):
    new in its hand and never shown in public before."""
    assert game.deck is not None
    u = State.from_deck(game.rules, game.players, game.deck, game.dealer)
    drawn = set(u.hand(seat))
    public: set[int] = set()
    for _seat, mv, shown in game.history():
        public.update(shown)
        u.apply(mv)
        drawn.update(c for c in u.hand(seat) if c not in public)
    return drawn


def relabel_keeping_recall(truth: State, seat: int, rng: random.Random) -> State:
    """``truth`` with the cards hidden from ``seat`` dealt afresh, and ``seat``'s own
    cards in the places it drew them (its perfect recall): the same information state."""
    other = relabel_hidden(truth, seat, rng)
    assert truth.deck is not None and other.deck is not None
    mine = own_draws(truth, seat)
    places = [i for i, c in enumerate(truth.deck) if c in mine]
    assert {other.deck[i] for i in places} == mine  # who draws where is public
    deck = [truth.deck[i] if i in places else c for i, c in enumerate(other.deck)]
    out = State.from_deck(truth.rules, truth.players, deck, truth.dealer)
    for _seat, mv in truth.moves():
        out.apply(mv)
    assert out.observation(seat) == truth.observation(seat)
    return out


def test_resampling_never_reads_the_hidden_cards() -> None:
    """Deal the cards hidden from a seat afresh (same information state) and resample
    from both states with the same seed: the worlds must be identical, so they cannot
    depend on the hidden cards (the old resampler fell back to the true deck)."""
    assert {name for name, _ in RESAMPLE_TABLES} == set(PRESETS)
    positions = relabelled = 0
    for name, players in RESAMPLE_TABLES:
        spec = f"python_mattis(rules={name},players={players})"
        for seed in range(4):
            full, moves = random_game(preset(name), players, seed)
            for cut in (0, 3, len(moves) // 4, len(moves) // 2, (3 * len(moves)) // 4, len(moves)):
                truth = replay(full.rules, players, list(full.deck or ()), moves[:cut])
                assert truth is not None
                for seat in {(seed + cut) % players, truth.to_act if truth.to_act is not None else 0}:
                    other = relabel_keeping_recall(truth, seat, random.Random(cut * 7 + seed))
                    assert other.deck is not None and truth.deck is not None
                    relabelled += other.deck != truth.deck
                    a, b = spiel_from(spec, truth), spiel_from(spec, other)
                    assert a.information_state_string(seat) == b.information_state_string(seat)
                    for k in range(2):
                        ra = a.resample_from_infostate(seat, None, rng=random.Random(k))
                        rb = b.resample_from_infostate(seat, None, rng=random.Random(k))
                        assert ra.history() == rb.history()
                        assert ra.information_state_string(seat) == a.information_state_string(seat)
                    positions += 1
    assert positions >= 300 and relabelled >= positions // 2


def test_a_failed_determinization_raises_and_never_returns_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_world(obs: Any, rng: random.Random, n: int, model: Any = None) -> State:
        raise DeterminizeError("nothing fits")

    _, s = random_state("python_mattis", 1, decisions=12)
    monkeypatch.setattr(openspiel_game, "sample_worlds", no_world)
    with pytest.raises(DeterminizeError, match="python_mattis: no deal fits player"):
        s.resample_from_infostate(s.current_player(), None, rng=random.Random(0))


def test_ismcts_and_mcts_play_a_full_game() -> None:
    g = pyspiel.load_game("python_mattis(players=3)")
    ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    worlds = random.Random(5)
    searcher = ismcts.ISMCTSBot(g, ev, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1))
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, None, rng=worlds))
    bots = [searcher,
            mcts.MCTSBot(g, uct_c=2.0, max_simulations=8, evaluator=ev, random_state=np.random.RandomState(2)),
            pyspiel.make_uniform_random_bot(2, 3)]
    rng = random.Random(4)
    s = g.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(sample_chance(s, rng))
        else:
            a = bots[s.current_player()].step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
            decisions += 1
    assert decisions > 20 and sorted(s.returns()) in ([-1.0, 0.0, 0.0],)


def test_ismcts_default_resampling_uses_openspiels_sampler() -> None:
    """Without a resampler callback ISMCTS passes a UniformProbabilitySampler; it must work."""
    g, s = random_state("python_mattis", 2, decisions=6)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), uct_c=2.0,
                           max_simulations=4, random_state=np.random.RandomState(0))
    assert bot.step(s) in s.legal_actions()


def test_action_strings_name_the_move() -> None:
    _, s = random_state("python_mattis", 0, decisions=0)
    strings = [s.action_to_string(s.current_player(), a) for a in s.legal_actions()]
    assert all(t.startswith("play ") or t == "chance" for t in strings)
    assert openspiel_game.SHORT_NAME == "python_mattis"


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_public_observer_shows_no_private_cards(perfect_recall: bool) -> None:
    from open_spiel.python.observation import make_observation

    g, s = random_state("python_mattis", 4, decisions=9)
    public = make_observation(g, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(g, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    full = make_observation(g, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    strings = {public.string_from(s, p) for p in range(3)}
    assert len(strings) == 1  # the same public view for every seat
    for p in range(3):
        hand = s.engine.hand(p)  # the referee's truth, to compare with
        public.set_from(s, p)
        private.set_from(s, p)
        full.set_from(s, p)
        assert not public.dict["hand"].any()
        assert set(np.flatnonzero(private.dict["hand"])) == set(hand) == set(np.flatnonzero(full.dict["hand"]))
        assert private.tensor.sum() == pytest.approx(private.dict["hand"].sum() + (
            private.dict["first_held"].sum() + private.dict["player"].sum() if perfect_recall else 0))
        if perfect_recall:
            assert not public.dict["player"].any() and private.dict["player"][p] == 1
        text = public.string_from(s, p)
        assert not any(w.startswith("hand:") for w in text.split())
        assert private.string_from(s, p).startswith(f"p{p} hand")
