"""The rule knowledge others ask of the core: who takes a phase 1 round (støting
included), the next seat still in, a seat's place and score, and the hint sentences
built on them."""

from __future__ import annotations

from mattis.core import State, preset
from mattis.core.cards import parse_card
from mattis.core.legal import lay_outcome, round_winners
from mattis.core.text import fight_word


def _cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def test_a_pair_among_the_first_cards_starts_a_stoting_not_the_highest_card() -> None:
    stoting, war = preset("blodmattis"), preset("hund")
    laid = _cards("5C", "KD", "5H")
    assert round_winners(laid, stoting, fighting=False) == [0, 2]  # the fives fight ("støting")
    assert round_winners(laid, war, fighting=False) == [1]  # the king takes it
    assert round_winners(laid, stoting, fighting=True) == [1]  # in a fight round the highest card takes all
    assert lay_outcome(_cards("5C", "KD"), parse_card("5H"), stoting, False) == 0
    assert lay_outcome(_cards("5C", "KD"), parse_card("5H"), war, False) == -1
    assert lay_outcome(_cards("5C", "KD"), parse_card("AD"), stoting, False) == 1


def test_the_state_settles_a_round_by_the_same_rule() -> None:
    # every card of one round under støting, then the state's verdict matches round_winners
    for seed in range(30):
        s = State.new(preset("blodmattis"), 4, seed=seed)
        while s.phase == 1 and not s.fighting:
            before = len(s.round_laid)
            s.apply(s.legal_moves()[0])
            if s.fighting and before:
                laid = [c for _, c in s.trick]
                assert sorted(s.round_seats) == sorted(
                    seat for i, (seat, _) in enumerate(s.trick) if i in round_winners(laid, s.rules, False))


def test_a_card_that_pairs_one_on_the_table_starts_a_stoting() -> None:
    rules = preset("blodmattis")
    laid = [parse_card("5C"), parse_card("KD")]
    assert lay_outcome(laid, parse_card("5H"), rules, False) == 0
    assert lay_outcome(laid, parse_card("AD"), rules, False) > 0
    assert lay_outcome(laid, parse_card("3S"), rules, False) < 0
    assert fight_word(rules, "nb") == "støting"
