"""Game after game: who deals first (drawn), who leads the next game (the loser, where
the table plays so), and what the loser is called in each variant.

The rules come from "Regler for kortspillet Skitgubbe": "Trekk om hvem som gir",
"Spilleren til venstre for giveren begynner", "mange lar taperen spille ut første
stikk neste gang", "Den spilleren har tapt og er skitgubben"; and from "Mattis regler
– også kjent som Blodmattis": "Siste spiller med kort blir Mattis".
"""

from __future__ import annotations

import json

import pytest

from mattis.core import GameRecord, GameSetupError, RecordError, State, preset
from mattis.core.cards import Lang
from mattis.core.text import loser_sentence, loser_word
from mattis.play import Referee, Sitting, derive_seed, first_dealer, play_until


def play_out(sitting: Sitting, ref: Referee) -> int:
    """Bots play ``ref`` to its end; the sitting counts it; returns the loser (who deals next)."""
    play_until(ref, sitting.bots({s: "easy" for s in range(sitting.players)}))
    sitting.finish(ref)
    assert ref.is_over and ref.outcome is not None and ref.outcome.losers
    return ref.next_dealer


@pytest.mark.parametrize("rules", ["skitgubbe", "mattis", "hund", "blodmattis"])
def test_under_next_leader_loser_the_loser_leads_the_next_game(rules: str) -> None:
    sitting = Sitting(preset(rules, next_leader="loser"), 4, seed=f"loser leads/{rules}")
    first = sitting.deal()
    # The first game starts as every game does: left of the dealer.
    assert first.to_act == (first.dealer + 1) % 4 and first.record().leader is None
    loser = play_out(sitting, first)
    second = sitting.deal()
    # "mange lar taperen spille ut første stikk neste gang": the loser deals and leads.
    assert second.dealer == loser and second.to_act == loser
    assert second.observation(loser).legal, "the loser is the one to lay the first card"
    # The record says so, and replays to the same start (and after some moves, the same game).
    play_until(second, sitting.bots({s: "easy" for s in range(4)}), max_moves=12)
    data = json.loads(second.record().dumps())
    assert data["leader"] == loser and data["dealer"] == loser
    again = Referee.from_record(GameRecord.loads(json.dumps(data)))
    assert again.record().dumps() == second.record().dumps()
    assert again.snapshot_for_referee() == second.snapshot_for_referee()
    start = GameRecord.loads(json.dumps({**data, "moves": []}))
    assert Referee.from_record(start).to_act == loser


def test_by_default_the_player_left_of_the_dealer_leads_every_game() -> None:
    sitting = Sitting(preset("skitgubbe"), 3, seed="left of dealer")
    loser = play_out(sitting, sitting.deal())
    second = sitting.deal()
    assert second.dealer == loser and second.to_act == (loser + 1) % 3
    assert "leader" not in json.loads(second.record().dumps())


def test_a_game_with_a_given_leader_differs_only_in_who_starts() -> None:
    rules = preset("skitgubbe")
    deck = list(range(52))
    usual = State.from_deck(rules, 3, deck, dealer=0)
    own = State.from_deck(rules, 3, deck, dealer=0, leader=0)
    same = State.from_deck(rules, 3, deck, dealer=0, leader=1)
    assert usual.to_act == 1 and own.to_act == 0
    assert usual.snapshot() == same.snapshot()
    assert own.snapshot()["hands"] == usual.snapshot()["hands"]  # the deal is the same
    # the loser's first card is hers to choose, answered by her left neighbour
    own.apply(own.legal_moves()[0])
    assert own.to_act == 1
    assert State.new(rules, 3, seed=4, dealer=2, leader=2).to_act == 2
    with pytest.raises(GameSetupError):
        State.from_deck(rules, 3, deck, dealer=0, leader=3)


def test_records_carry_the_leader_only_when_it_is_not_the_default() -> None:
    deck = [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"]
    old = {"rules": "skitgubbe", "players": 3, "dealer": 2, "deck": deck, "moves": []}
    record = GameRecord.from_json(old)
    assert record.leader is None and record.start().to_act == 0
    assert "leader" not in record.to_json()
    led = GameRecord.from_json({**old, "leader": 2})
    assert led.start().to_act == 2 and led.to_json()["leader"] == 2
    # naming the default leader is allowed and written as the default
    assert "leader" not in GameRecord.from_json({**old, "leader": 0}).to_json()
    for bad in (3, -1, "2", True):
        with pytest.raises(RecordError, match="leader"):
            GameRecord.from_json({**old, "leader": bad})
    position = {"rules": "skitgubbe", "position": {"trump": "S", "hands": [["8D"], ["QD"]], "leader": 0},
                "leader": 1}
    with pytest.raises(RecordError, match="leader"):
        GameRecord.from_json(position)


def test_the_first_dealer_is_drawn_from_the_seed_or_from_secrets() -> None:
    # "Trekk om hvem som gir": seeded, the draw is reproducible and the scheme's own
    drawn = [Sitting(preset("mattis"), 4, seed=s).draw_first_dealer() for s in range(40)]
    assert drawn == [Sitting(preset("mattis"), 4, seed=s).draw_first_dealer() for s in range(40)]
    assert set(drawn) == {0, 1, 2, 3}, "every seat can be drawn"
    assert drawn == [first_dealer(s, 4) for s in range(40)]
    assert derive_seed(5, "first dealer") is not None
    sitting = Sitting(preset("mattis"), 4, seed=5)
    dealer = sitting.draw_first_dealer()
    assert sitting.dealer == dealer and sitting.deal().dealer == dealer
    # without a seed the draw comes from secrets: every seat, sooner or later
    unseeded = {Sitting(preset("mattis"), 3).draw_first_dealer() for _ in range(200)}
    assert unseeded == {0, 1, 2}
    # an explicit dealer (mattis selfplay --dealer) is kept: nothing is drawn
    assert Sitting(preset("mattis"), 4, seed=5, dealer=3).deal().dealer == 3


@pytest.mark.parametrize(("rules", "lang", "name", "line", "word"), [
    ("skitgubbe", "nb", "Per", "Per er skitgubben!", "skitgubben"),
    ("skitgubbe", "en", "Per", "Per is the skitgubbe!", "the skitgubbe"),
    ("mattis", "nb", "Du", "Du er Mattis!", "Mattis"),
    ("hund", "en", "Cato", "Cato is Mattis!", "Mattis"),
    ("blodmattis", "nb", "Anne", "Anne er Mattis!", "Mattis"),
])
def test_the_loser_is_called_what_the_variant_calls_her(rules: str, lang: Lang, name: str, line: str,
                                                        word: str) -> None:
    r = preset(rules)
    assert loser_sentence(r, name, lang) == line
    assert loser_word(r, lang) == word


def test_a_zero_trick_loser_of_the_mattis_app_is_a_blodmattis() -> None:
    assert loser_word(preset("blodmattis"), "nb", blodmattis=True) == "Blodmattis"
