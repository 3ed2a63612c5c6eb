"""The fixed rules (every preset) and the author's decisions where the rule texts
are silent (see state.py and docs/rules.md)."""

from __future__ import annotations

import random

import pytest
from core_helpers import (
    assert_illegal,
    check_accounting,
    check_end,
    codes,
    do,
    hand,
    legal_texts,
    new_game,
    phase1_position,
    pile,
    position,
    table2,
)

from mattis.core import CHANCE, PICKUP, State, card_code, parse_position, preset
from mattis.core.cards import BIT
from mattis.core.legal import repetition_key
from mattis.core.observation import PHASE1, PHASE2

# ================================================================ phase 1


@pytest.mark.parametrize("name", ["mattis", "hund", "blodmattis", "skitgubbe"])
def test_phase1_winner_leads_next(name: str) -> None:
    s = new_game(name, 3, 2, ["2C 3C 4C", "9S 5D 6D", "8D 7D TD"])
    do(s, "0 play 2C", "1 play 9S")
    if s.rules.tricks == "all":
        do(s, "2 play 8D")
    assert pile(s, 1) >= {"2C", "9S"} and s.to_act == 1 and s.trick_leader == 1


def test_suits_do_not_matter_in_phase1() -> None:
    """Regler for kortspillet Mattis: 'hjerter tre slår ruter to'."""
    s = new_game("mattis", 2, 1, ["3H 4C 5C", "2D 6C 7C"])
    do(s, "0 play 3H", "1 play 2D")
    assert pile(s, 0) == {"3H", "2D"}


def test_tie_is_settled_after_everyone_laid() -> None:
    s = new_game("hund", 3, 2, ["9S 2C 3C", "9D 4C 5C", "KC 6C 7C"])
    do(s, "0 play 9S", "1 play 9D")
    assert not s.fighting and s.to_act == 2
    do(s, "2 play KC")
    assert pile(s, 2) == {"9S", "9D", "KC"}


def test_fighters_lay_clockwise_from_trick_leader() -> None:
    # dealer 0: Bjørn (1) leads; Cato and Anne tie on nines; fight order Cato, then Anne
    s = new_game("hund", 4, 0, ["9D 2H 3H", "5C 4H 5H", "9C 6H 7H", "2C 8H TH"])
    do(s, "1 play 5C", "2 play 9C", "3 play 2C", "0 play 9D")
    assert s.fighting and s.round_seats == [2, 0] and s.to_act == 2
    assert_illegal(s, "0 play 2H", "turn")
    do(s, "2 play 6H")
    assert s.to_act == 0
    do(s, "0 play 2H")
    assert pile(s, 2) == {"5C", "9C", "2C", "9D", "6H", "2H"} and s.to_act == 2


def test_fight_repeats_until_decided() -> None:
    s = new_game("hund", 2, 1, ["5C 6C 7C", "5D 6D 8D"])
    do(s, "0 play 5C", "1 play 5D", "0 play 6C", "1 play 6D")
    assert s.fighting and s.to_act == 0 and len(s.trick) == 4
    do(s, "0 play 7C", "1 play 8D")
    assert pile(s, 1) == {"5C", "5D", "6C", "6D", "7C", "8D"}


def test_fighter_without_card_drops_out_one_left_takes_the_trick() -> None:
    # one_holder, empty stock: Bjørn has no card for the fight and cannot draw
    s = phase1_position("hund", ["9C 2D 3D", "9D", "3C 4C"], "", leader=0, trump_card=("2S", 2))
    do(s, "0 play 9C", "1 play 9D", "2 play 3C")
    assert s.fighting and s.to_act == 0
    do(s, "0 play 2D")
    assert pile(s, 0) == {"9C", "9D", "3C", "2D"} and s.phase == PHASE1
    # Anne leads the next trick; Bjørn (no cards) is skipped
    assert s.to_act == 0
    do(s, "0 play 3D")
    assert s.to_act == 2
    check_accounting(s)


def test_first_fighter_without_card_other_takes_the_trick_without_laying() -> None:
    s = phase1_position("hund", ["9C", "9D 5D", "3C 4C"], "", leader=0, trump_card=("2S", 2))
    do(s, "0 play 9C", "1 play 9D", "2 play 3C")
    # Anne has no card for the fight: she drops out, Bjørn takes the trick at once
    assert pile(s, 1) == {"9C", "9D", "3C"}
    assert "5D" in hand(s, 1)


def test_forced_chance_with_empty_hand() -> None:
    """A player due to lay with an empty hand while the stock has 2+ cards must lay the
    top stock card, even where chance is off."""
    for chance in ("lead", "off"):
        s = new_game(preset("hund", chance=chance, draw="after_trick"), 2, 1, ["5C 6C 7C", "5D 6D 7D"],
                     stock="AS KS")
        do(s, "0 play 5C", "1 play 5D", "0 play 6C", "1 play 6D", "0 play 7C", "1 play 7D")
        assert s.fighting and s.hands[0] == 0 and s.legal_moves() == (CHANCE,)
        do(s, "0 chance")
        assert s.trick[-1][1] == s.history()[-1][2][0]
        assert s.legal_moves() == (CHANCE,)
        do(s, "1 chance")
        assert pile(s, 0) == {"5C", "6C", "7C", "5D", "6D", "7D", "AS", "KS"}


def test_empty_fighter_drop_drops_out_although_the_stock_has_cards() -> None:
    """empty_fighter=drop: the fighter with an empty hand drops out although the stock
    has cards, so the other fighter, who holds a card, takes the trick without laying."""
    r = preset("hund", empty_fighter="drop", draw="after_trick")
    s = phase1_position(r, ["5C", "5D 8D"], "AS KS QS JS TS", leader=0)
    do(s, "0 play 5C", "1 play 5D")
    assert pile(s, 1) == {"5C", "5D"} and pile(s, 0) == set()
    assert not s.fighting and s.to_act == 1 and hand(s, 1) >= {"8D", "AS"}


@pytest.mark.parametrize("fighter", ["chance", "drop"])
def test_fight_no_fighter_can_continue_every_card_goes_back(fighter: str) -> None:
    """Both fighters laid their last cards (8♠ against 8♦) and cannot lay again: the
    fight cannot be settled, so neither seat takes it; as in the Skitgubbe text's rule
    for an unfinished trick ("Ble det siste stikket ikke ferdig, tar hver spiller
    tilbake sitt eget kort") each takes back the cards she laid, and phase 1 ends."""
    for trump, stock in (("last_card", "-"), ("bottom_up", "-"), ("last_card", "QS")):
        r = preset("mattis", empty_fighter=fighter, trump=trump)
        stock_cards = "" if stock == "-" else stock
        s = phase1_position(r, ["8S", "8D", "2C 3C"], stock_cards, leader=0,
                            trump_card=None if stock_cards else ("2S", 2), piles=["", "", "AC AD"])
        do(s, "0 play 8S", "1 play 8D")
        assert s.phase == PHASE2, (fighter, trump, stock)
        assert "8S" in hand(s, 0) and "8D" in hand(s, 1) and pile(s, 0) == pile(s, 1) == set()
        assert s.tricks_won[:2] == [0, 0] and s.last_trick is None
        if stock_cards:
            # the hidden trump card goes to the first fighter who could not lay
            assert s.trump_holder == 0 and card_code(s.trump_card) == "QS" and "QS" in hand(s, 0)
        check_accounting(s)


def test_fight_cannot_be_finished_cards_go_back_and_stock_to_taker() -> None:
    """first_empty: a fighter with no card and too small a stock ends phase 1; the
    unfinished trick goes back to whoever laid each card, and the cards left in the stock
    go to the player whose turn ended it (the last one is the trump card)."""
    for trump in ("last_card", "bottom_up"):
        r = preset("hund", phase1_end="first_empty", trump=trump, draw="after_trick")
        s = phase1_position(r, ["9C 2D", "9D", "3C 4C"], "5H", leader=0, piles=["", "AC", "AD"], won=[0, 1, 1])
        do(s, "0 play 9C", "1 play 9D", "2 play 3C", "0 play 2D")
        if trump == "bottom_up":
            # the last stock card is an ordinary face-up card: Bjørn, empty-handed, lays it
            assert s.phase == PHASE1 and s.legal_moves() == (CHANCE,)
            do(s, "1 chance")
            assert s.last_trick is not None and s.last_trick[0] == 1
            assert set(codes(s.last_trick[1])) == {"9C", "9D", "3C", "2D", "5H"}
            # she got the last stock card: she holds the trump and (her hand being empty,
            # first_empty) phase 1 ends with her leading phase 2
            assert s.trump_holder == 1 and s.trump == 2 and s.stock == []
            assert s.phase == PHASE2 and s.to_act == 1
            continue
        assert s.phase == PHASE2
        assert {"9C", "2D"} <= hand(s, 0) and {"9D", "5H", "AC"} <= hand(s, 1) and {"3C", "4C", "AD"} <= hand(s, 2)
        assert s.trump_holder == 1 and s.trump == BIT.index(BIT[s.trump_card]) // 13 == 2
        assert BIT[s.trump_card] & s.known[1]
        assert s.to_act == 1
        check_accounting(s)


def test_unfinished_trick_goes_back_when_phase1_ends_one_holder() -> None:
    # one_holder: phase 1 ends between tricks, and the last holder's cards join his hand
    s = phase1_position("hund", ["9C", "2D", "3C 4C 5C"], "", leader=0, trump_card=("2S", 0))
    do(s, "0 play 9C", "1 play 2D", "2 play 3C")
    assert s.phase == PHASE2 and hand(s, 2) >= {"4C", "5C"}
    assert pile(s, 0) == set() and hand(s, 0) >= {"9C", "2D", "3C", "2S"}


def test_chance_card_of_unfinished_trick_goes_back_to_who_laid_it() -> None:
    r = preset("hund", phase1_end="first_empty", chance="any", draw="after_trick")
    s = phase1_position(r, ["9C", "2D", "9D 4C"], "7H 8H", leader=0)
    do(s, "0 play 9C", "1 chance", "2 play 9D")
    # krig between Anne and Cato; Anne has no card and the stock has one card: phase 1
    # ends; Bjørn's chance card goes back to Bjørn, the last stock card (the trump card)
    # to Anne, whose turn ended phase 1.
    assert s.phase == PHASE2
    assert hand(s, 1) == {"2D", "7H"} and hand(s, 0) == {"9C", "8H"} and hand(s, 2) == {"9D", "4C"}
    assert s.trump_holder == 0 and s.trump == 2 and s.to_act == 0
    check_accounting(s)


def test_lead_passes_to_next_holder() -> None:
    s = phase1_position("mattis", ["", "2C 3C", "4C 6C", "5C"], "", leader=0, trump_card=("2S", 1))
    assert s.to_act == 1 and s.trick_leader == 1
    do(s, "1 play 2C")
    # pair tricks skip players with no cards for the answer too
    assert s.to_act == 2


# ================================================================ phase 2


@pytest.mark.parametrize("top,card,ok", [
    ("5C", "6C", True), ("5C", "4C", False), ("5C", "5D", False), ("5C", "2S", True),
    ("5S", "6S", True), ("5S", "4S", False), ("5S", "AC", False),
    ("5C 6C 7C", "8C", True), ("5C 6C 7C", "7D", False), ("5C 6C 7C", "8C 9C", True),
    ("5C 6C", "6C 7C", None), ("8C 9C", "TC JC", True), ("8C 9C", "2S 3S", True),
])
def test_phase2_beat_rule(top: str, card: str, ok: bool | None) -> None:
    """B beats A when both are the same suit and B's lowest card is above A's highest,
    or when B is trump and A is not (spades trump)."""
    if ok is None:
        return  # overlapping cards cannot be in two hands
    hands = [top + " 2H 3H", card + " 4H"]
    s = position(preset("mattis", sequences=2), hands, "S", leader=0)
    do(s, "0 play " + top)
    assert ("play " + card in legal_texts(s)) == ok
    if not ok:
        assert_illegal(s, "1 play " + card)
        assert legal_texts(s) == ["pickup"]


def test_completing_player_leads_next() -> None:
    s = position("mattis", ["4C 2D", "5C 3D", "6C 4D"], "S", leader=0)
    do(s, "0 play 4C", "1 play 5C", "2 play 6C")
    assert s.table == [] and s.to_act == 2


def test_completing_player_out_next_on_the_left_leads() -> None:
    s = position("mattis", ["4C 2D", "5C 3D", "6C"], "S", leader=0)
    do(s, "0 play 4C", "1 play 5C", "2 play 6C")
    assert s.finished == [2] and s.table == [] and s.to_act == 0


def test_pickup_emptying_table_passes_lead_left_of_picker() -> None:
    """Regler for kortspillet Skitgubbe: 'Tok du opp det eneste kortet på bordet ... spilleren til venstre for deg
    spiller ut'."""
    s = position("skitgubbe", ["4C 2D", "5C 3D", "6C 4D"], "S", leader=0)
    do(s, "0 play 4C", "1 pickup")
    assert s.table == [] and s.to_act == 2 and s.trick_need == 0


def test_pickup_not_emptying_table_passes_turn_left() -> None:
    s = position("mattis", ["4C 2D", "5C 3D", "2C 4D"], "S", leader=0)
    do(s, "0 play 4C", "1 play 5C", "2 pickup")
    assert table2(s) == [["5C"]] and s.to_act == 0


def test_empty_handed_player_picks_up_or_passes() -> None:
    s = position("mattis", ["9H 6D", "", "7H 8H"], "S", leader=1)
    # Bjørn leads with nothing in hand and nothing to pick up: the turn passes on
    assert s.to_act == 2 and s.in_game == 0b111
    do(s, "2 play 7H", "0 play 9H")
    # now there is something to pick up: Bjørn must
    assert s.to_act == 1 and legal_texts(s) == ["pickup"]
    do(s, "1 pickup")
    assert hand(s, 1) == {"7H"} and table2(s) == [["9H"]] and s.to_act == 2


def test_bordmattis_must_pick_up_and_lay_before_finishing() -> None:
    s = position("mattis", ["5C 6D", "", "7C 8H"], "S", leader=0)
    assert s.finished == [] and s.in_game == 0b111
    do(s, "0 play 5C")
    assert s.to_act == 1 and legal_texts(s) == ["pickup"]
    do(s, "1 pickup")
    assert hand(s, 1) == {"5C"} and 1 not in s.finished
    # Cato now leads... the bordmattis lays her card later and only then is finished
    rng = random.Random(0)
    while not s.is_over and 1 not in s.finished:
        s.apply(rng.choice(s.legal_moves()))
    if 1 in s.finished:
        assert any(seat == 1 and m.is_play for seat, m in s.moves())


def test_empty_handed_pass_over_then_pick_up() -> None:
    s = position("mattis", ["5C 6D", "", "7H 8H"], "S", leader=1)
    assert s.to_act == 2
    do(s, "2 play 7H")
    assert s.to_act == 0
    do(s, "0 pickup")
    # table empty again: lead passes to the left of the picker (Bjørn, empty: skipped)
    assert s.table == [] and s.to_act == 2


def test_finished_when_hand_empty_after_laying_and_game_ends_with_one_left() -> None:
    s = position("mattis", ["4C", "5C 3D", "6C 4D"], "S", leader=0)
    do(s, "0 play 4C")
    assert s.finished == [0] and not s.is_over
    do(s, "1 play 5C", "2 play 6C")
    # the trick completes with three entries (start); Cato leads
    assert s.to_act == 2
    do(s, "2 play 4D")
    # Cato laid his last card: only Bjørn is left, the game is over at once
    assert s.is_over and s.finished == [0, 2] and s.losers == [1] and s.end_reason == "normal"
    assert hand(s, 1) == {"3D"} and table2(s) == [["4D"]]
    check_end(s)


def test_game_ends_the_moment_one_player_is_left() -> None:
    s = position("mattis", ["4C", "5C 2D", "2C 3D"], "S", leader=0)
    do(s, "0 play 4C", "1 play 5C")
    assert s.finished == [0] and not s.is_over
    s2 = position("mattis", ["4C", "5C", "2C 3D"], "S", leader=0)
    do(s2, "0 play 4C", "1 play 5C")
    assert s2.is_over and s2.finished == [0, 1] and s2.losers == [2] and s2.mattis == 2
    assert s2.next_dealer == 2, "next game: the loser deals"
    assert s2.to_act is None and s2.legal_moves() == ()
    assert_illegal(s2, "play 2C", "over")


def test_game_over_mid_trick_leaves_the_table() -> None:
    """The entry that completes a trick also leaves one player in: the game is over at
    once and the table is not cleared (nobody leads again)."""
    s = position("mattis", ["4C 9D", "5C"], "S", leader=0)
    do(s, "0 play 4C", "1 play 5C")
    assert s.is_over and s.losers == [0] and table2(s) == [["4C"], ["5C"]]
    assert s.snapshot()["out_of_play"] == [c for c in s.snapshot()["out_of_play"] if c not in ("4C", "5C")]


def test_next_dealer_blodmattis() -> None:
    s = position("blodmattis", ["5C 6C", "", ""], "S", leader=0)
    assert s.next_dealer == 1 and s.losers == [1, 2]


def test_stuck_position_ranked() -> None:
    """Nobody in the game can move (no cards anywhere): ranked, ties by seat nearer
    clockwise to the player to act (the leader).  Ranked, not gone out."""
    s = position("mattis", ["", ""], "S", leader=1)
    assert s.is_over and s.end_reason == "stuck" and s.losers == [1] and s.ranked == [0] and s.finished == []
    s = position("mattis", ["", "", ""], "S", leader=0)
    assert s.is_over and s.end_reason == "stuck" and s.losers == [0] and s.ranked == [2, 1] and s.finished == []
    outcome = s.outcome
    assert outcome is not None and outcome.finished == () and outcome.ranked == (2, 1) and outcome.places == (2, 1)


@pytest.mark.parametrize("leader", [0, 1])
def test_ranking_tie_breaks(leader: int) -> None:
    # cap=1 right after the first move; counts then rank sums then seats
    r = preset("mattis", phase2_cap=1)
    s = position(r, ["2C 9D", "2D 5D", "3H 5H"], "S", leader=0)
    do(s, "0 play 2C")
    assert s.end_reason == "cap"
    # Bjørn 2 cards (sum 0+3), Cato 2 cards (1+3): Bjørn's lower total is worse
    assert s.losers == [1] and s.ranked == [0, 2] and s.finished == []
    del leader


def test_repetition_key_holds_the_cards_not_who_laid_them() -> None:
    """Two positions that differ only in who laid a table entry have the same future,
    so they are the same position for threefold repetition."""
    r = preset("skitgubbe")
    a = parse_position(r, "2 dealer=0 trump=S turn=2 hands=2H/3H/6D4H table=0:5C need=3")
    b = parse_position(r, "2 dealer=0 trump=S turn=2 hands=2H/3H/6D4H table=1:5C need=3")
    assert repetition_key(a) == repetition_key(b)
    c = parse_position(r, "2 dealer=0 trump=S turn=2 hands=2H/3H/6D4H table=1:5D need=3 aside=5C")
    assert repetition_key(a) != repetition_key(c)


def test_repetition_clears_after_irreversible_event() -> None:
    cyc = ["0 play 5C", "1 pickup", "2 play 6D", "0 pickup", "1 play 5C", "2 pickup",
           "0 play 6D", "1 pickup", "2 play 5C", "0 pickup", "1 play 6D", "2 pickup"]
    s = position("skitgubbe", ["5C 2H", "3H", "6D 4H"], "S", leader=0)
    do(s, *cyc)
    # the position phase 2 started in is back: its second occurrence (the start counts)
    assert not s.is_over and max(s.rep.values()) == 2
    # a player going out is irreversible: the repetition count starts again
    s2 = s.clone()
    do(s2, "0 play 2H", "1 play 3H")
    assert 1 in s2.finished and max(s2.rep.values()) == 1
    # without it, the cycle's end is the start position's third occurrence
    do(s, *cyc)
    assert s.is_over and s.end_reason == "repetition"


def test_phase2_starts_with_trump_holder_and_hands_are_piles_plus_hand() -> None:
    for seed in range(30):
        s = State.new(preset("mattis"), 3, seed=seed)
        rng = random.Random(seed)
        while s.phase == PHASE1:
            prev = s.clone()
            s.apply(rng.choice(s.legal_moves()))
        assert s.phase == PHASE2
        for seat in range(3):
            # the won pile becomes the hand, together with cards left in hand
            assert prev.piles[seat] & ~s.hands[seat] == 0
            assert s.piles[seat] == 0
        assert BIT[s.trump_card] & s.hands[s.trump_holder]
        assert s.to_act == s.trump_holder


def test_pickup_is_only_phase2_and_chance_only_phase1() -> None:
    s = new_game("mattis", 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"])
    assert PICKUP not in s.legal_moves()
    assert_illegal(s, "0 pickup", "phase 1")
    assert_illegal(s, "0 play 9S 2C", "one card")
    assert_illegal(s, "0 play AS", "do not hold")
    p = position("skitgubbe", ["4C 2D", "5C 3D"], "S", leader=0)
    assert_illegal(p, "0 chance", "no chance")
    assert_illegal(p, "0 pickup", "nothing on the table")
