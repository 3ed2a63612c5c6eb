"""The short deck (``deck_ranks``, ``deck_suits``, ``hand_size``) and the research
preset ``mini``: the option table declares them (research only), a short deck deals
only its own cards, and random games on it end by play with every card accounted for
and their records round-tripping (the same checks as test_core_properties.py: the
reference model move by move).

Random games here: ``mini`` 2,000 (fast tier 300), ``mini`` with one card a hand 1,000
(150), three-suit and seven-rank variants of the presets 200 (40).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_core_properties import play_checked

from mattis.core import (
    HOUSE_OPTIONS,
    OPTION,
    PRESETS,
    GameRecord,
    GameSetupError,
    RecordError,
    Rules,
    RulesError,
    State,
    card_code,
    parse_card,
    parse_position,
    preset,
    rules_from_json,
    rules_to_json,
)
from mattis.core.rules import RESEARCH_PRESETS
from mattis.core.state import shuffled_deck
from mattis.core.testing import perft
from tiers import scale

MINI_CARDS = ["QH", "KH", "AH", "QS", "KS", "AS"]


def test_the_option_table_declares_the_deck_options_research_only() -> None:
    for name, default in (("deck_ranks", 13), ("deck_suits", 4), ("hand_size", 3)):
        spec = OPTION[name]
        assert spec.kind == "int" and spec.default == default == getattr(Rules(), name)
        assert not spec.shown and not spec.house, "research only: no front end offers it"
        assert "beyond the texts" in spec.source
        assert spec not in HOUSE_OPTIONS
    assert "mini" not in PRESETS and "mini" in RESEARCH_PRESETS  # no front end lists it


def test_mini_is_the_small_mattis() -> None:
    r = preset("mini")
    assert [card_code(c) for c in r.deck()] == MINI_CARDS
    assert list(r.allowed_players()) == [2] and r.two_player_discard == 0 and r.hand_size == 2
    assert r.overrides() == {} and rules_to_json(r) == "mini" and rules_from_json("mini") == r
    # otherwise the mattis preset: every rule option but the deck's as there
    deck_options = {"name", "max_players", "two_player_discard", "deck_ranks", "deck_suits", "hand_size"}
    for f in OPTION:
        if f not in deck_options:
            assert getattr(r, f) == getattr(preset("mattis"), f), f
    assert rules_from_json(rules_to_json(preset("mini", hand_size=1))) == preset("mini", hand_size=1)


def test_the_whole_deck_is_unchanged() -> None:
    r = Rules()
    assert r.deck() == list(range(52)) and r.deck_mask() == (1 << 52) - 1 and r.full_deck()
    assert list(preset("mattis").allowed_players()) == [2, 3, 4, 5, 6]
    # the same deal as before the deck option for a seed
    assert State.new(preset("mattis"), 3, seed=7).snapshot() == State.from_deck(
        preset("mattis"), 3, shuffled_deck(random.Random(7))).snapshot()
    assert shuffled_deck(random.Random(7), preset("mattis")) == shuffled_deck(random.Random(7))


@pytest.mark.parametrize("overrides", [{"deck_ranks": 1}, {"deck_suits": 0}, {"hand_size": 0}, {"hand_size": 4},
                                       {"deck_ranks": 2, "deck_suits": 1}])
def test_bad_decks_are_refused(overrides: dict[str, int]) -> None:
    with pytest.raises(RulesError):
        preset("mini", **overrides)


def test_a_short_deck_allows_only_the_player_counts_it_can_deal() -> None:
    # 12 cards: two players would set ten aside, four would leave no stock
    assert list(preset("mattis", deck_ranks=3).allowed_players()) == [3]
    assert list(preset("skitgubbe", deck_ranks=3).allowed_players()) == [2, 3]
    with pytest.raises(RulesError, match="no stock"):
        preset("mattis", deck_ranks=2)
    with pytest.raises(RulesError):
        State.new(preset("mini"), 3, seed=1)


def test_a_short_deck_deals_its_cards_only() -> None:
    r = preset("mini")
    seen: Counter[int] = Counter()
    for seed in range(200):
        s = State.new(r, 2, seed=seed)
        assert sorted(s.deck or ()) == r.deck()
        assert all(h.bit_count() == 2 for h in s.hands) and len(s.stock) == 2 and s.aside == 0
        seen.update(s.stock)
    assert set(seen) == set(r.deck())  # every card reaches the stock in some deal
    with pytest.raises(GameSetupError, match="short deck"):
        State.from_deck(r, 2, list(range(52)))
    with pytest.raises(GameSetupError, match="short deck"):
        parse_position(r, "2 dealer=0 trump=S hands=QH2C/KS lead=0")


def test_a_short_deck_record_holds_its_cards_only() -> None:
    s = State.new(preset("mini"), 2, seed=3)
    rec = GameRecord.from_state(s)
    assert len(rec.deck or []) == 6
    data = rec.to_json()
    data["deck"] = [*data["deck"], "2C"]
    with pytest.raises(RecordError, match="6 cards of the short deck"):
        GameRecord.from_json(data)


def test_mini_perft() -> None:
    """The counts of move sequences from a mini deal (pinned: any change to the
    short deck's move generation shows here)."""
    r = preset("mini")
    deck = [parse_card(c) for c in ("QH", "KS", "AH", "QS", "KH", "AS")]
    s = State.from_deck(r, 2, deck)
    assert [perft(s, d) for d in range(1, 7)] == PINNED_MINI


PINNED_MINI = [3, 6, 11, 12, 20, 28]


@pytest.mark.parametrize(("overrides", "games"), [({}, scale(300, 2000)), ({"hand_size": 1}, scale(150, 1000))],
                         ids=["mini", "mini-hand1"])
def test_random_mini_games_end_by_play(overrides: dict[str, int], games: int) -> None:
    """Random games on the mini deck: every card accounted for after every move, the
    reference model agrees move by move, every game ends by play (a normal end or the
    repetition rule: never the phase 2 cap), and records round-trip (one in four)."""
    rules = preset("mini", **overrides)
    ends: Counter[str] = Counter()
    for seed in range(games):
        s = play_checked(State.new(rules, 2, seed=seed, dealer=seed % 2), random.Random(seed),
                         roundtrip=seed % 4 == 0)
        ends[str(s.end_reason)] += 1
    assert set(ends) <= {"normal", "repetition"}, ends
    assert ends["normal"] > games // 2


@pytest.mark.parametrize(("name", "overrides", "players"), [
    ("mattis", {"deck_suits": 3}, 3), ("hund", {"deck_ranks": 7}, 4), ("skitgubbe", {"deck_ranks": 7}, 2),
    ("blodmattis", {"deck_suits": 2, "hand_size": 2}, 4)])
def test_short_deck_presets(name: str, overrides: dict[str, int], players: int) -> None:
    rules = preset(name, **overrides)
    for seed in range(scale(10, 50)):
        s = play_checked(State.new(rules, players, seed=seed), random.Random(seed), roundtrip=seed % 2 == 0)
        assert s.is_over
