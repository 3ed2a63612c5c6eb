"""The heuristic asks the engine what may answer a lead and who takes a round, so it
follows the rule options (``follow=void``, støting)."""

from __future__ import annotations

from mattis.bots.policy import phase1_choice, phase2_choice
from mattis.core import preset
from mattis.core.cards import SUIT, parse_card
from mattis.core.moves import play


def test_a_lead_the_next_player_cannot_answer_under_follow_void_is_safe() -> None:
    # the next player holds 3♠ 2♥, hearts are trump, 9♠ led: under follow=void she must
    # follow spades and cannot beat, so the 9♠ is the safe lead (under free she trumps)
    nxt = [parse_card("3S"), parse_card("2H")]
    trump = SUIT[parse_card("2H")]
    legal = [play(parse_card("4C")), play(parse_card("9S"))]
    void = preset("blodmattis", pickup="first")
    free = preset("blodmattis", pickup="first", follow="free")
    assert phase2_choice(legal, True, trump, nxt, void, 5) == play(parse_card("9S"))
    assert phase2_choice(legal, True, trump, nxt, free, 5) == play(parse_card("4C"))


def test_the_heuristic_pairs_a_card_for_a_stoting_only_where_stoting_is_played() -> None:
    # 5♣ and K♦ lie; a 5 pairs the 5♣ under støting (a fight), so it is no longer a safe
    # throw-away; under war it loses to the king
    hand = [parse_card("5H"), parse_card("6S")]
    legal = [play(c) for c in hand]
    laid = [parse_card("5C"), parse_card("KD")]
    war = phase1_choice(hand, laid, laid, legal, 0, preset("hund"), False)
    stoting = phase1_choice(hand, laid, laid, legal, 0, preset("blodmattis"), False)
    assert war == play(parse_card("5H"))  # the least useful card that loses
    assert stoting == play(parse_card("6S"))  # the 5♥ would start a støting
