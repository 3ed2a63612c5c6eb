"""The rule knowledge others ask of the core: who takes a phase 1 round (støting
included), the next seat still in, a seat's place and score, and the hint sentences
built on them."""

from __future__ import annotations

from mattis.core import State, preset
from mattis.core.cards import parse_card
from mattis.core.legal import lay_outcome, next_seat_in, round_winners
from mattis.core.moves import play
from mattis.core.text import hint_reason
from mattis.core.vocabulary import Outcome, Termination


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


def test_the_hint_names_a_stoting_where_a_card_pairs_one_on_the_table() -> None:
    s = State.new(preset("blodmattis"), 3, seed=2)
    obs = s.observation(s.to_act or 0)
    hand = tuple(_cards("3S", "5H", "AD"))
    view = obs.replace(table1=((0, parse_card("5C")), (1, parse_card("KD"))), fighters=(), hand=hand,
                       legal=tuple(play(c) for c in hand), to_act=obs.seat)
    assert "støting" in hint_reason(view, play(parse_card("5H")), "nb").lower()
    assert "beat" in hint_reason(view, play(parse_card("AD")), "en")


def test_the_next_seat_in_skips_the_seats_that_are_out() -> None:
    assert next_seat_in(0b1011, 1, 4) == 3
    assert next_seat_in(0b1011, 3, 4) == 0
    assert next_seat_in(0b0100, 2, 4) == 2


def test_places_and_scores_follow_the_outcome() -> None:
    out = Outcome.of(Termination.REPETITION, finished=(2,), losers=(3, 0), blodmattis=(3,), ranked=(1,))
    assert [out.place(s) for s in range(4)] == [4, 2, 1, 3]
    assert out.score(2) == 1.0 and out.score(0) == 0.0 and out.score(3) == 0.0
    assert 0.0 < out.score(1) < 1.0
