"""Every rule option, asserted for each of its values on a crafted deal or position
where the option changes the outcome.  (The author's decisions where the seeds are
silent are tested in test_core_fixed_rules.py.)"""

from __future__ import annotations

import random

import pytest
from core_helpers import (
    assert_illegal,
    check_accounting,
    cs,
    do,
    hand,
    legal_texts,
    new_game,
    phase1_position,
    pile,
    position,
    random_playout,
    table2,
)

from mattis.core import (
    CHANCE,
    PRESETS,
    GameSetupError,
    GoingOut,
    MoveKind,
    Reason,
    RulesError,
    State,
    Termination,
    card_code,
    parse_position,
    play,
    preset,
    reason_text,
    rules_from_json,
    verify,
)
from mattis.core.cards import BIT, RANK, SUIT
from mattis.core.observation import PHASE1, PHASE2

# Seat names as in the seeds: Anne/Anna = 0, Bjørn = 1, Cato = 2, Dina = 3.


# ------------------------------------------------------------------ tricks
@pytest.mark.parametrize("tricks", ["pair", "all"])
def test_tricks_pair_goes_to_left_neighbour_all_goes_round(tricks: str) -> None:
    s = new_game(preset("mattis", tricks=tricks), 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"])
    do(s, "0 play 9S", "1 play 5H")
    if tricks == "pair":
        # a two-card trick: Anne wins both cards and leads again, to her left neighbour
        assert pile(s, 0) == {"9S", "5H"} and s.trick == [] and s.to_act == 0
        do(s, "0 play 2C", "1 play 4C")
        assert pile(s, 1) == {"2C", "4C"} and s.to_act == 1
        do(s, "1 play 6C")
        assert s.to_act == 2, "the winner leads to HER left neighbour"
    else:
        assert s.to_act == 2 and len(s.trick) == 2 and pile(s, 0) == set()
        do(s, "2 play 8D")
        assert pile(s, 0) == {"9S", "5H", "8D"} and s.to_act == 0


def test_pair_tricks_leave_other_seats_out() -> None:
    s = new_game("mattis", 4, 0, ["2C 3C 4C", "9S 5D 6D", "5H 7D 8D", "TC JC QC"])
    do(s, "1 play 9S", "2 play 5H")
    assert pile(s, 1) == {"9S", "5H"} and s.to_act == 1


# ------------------------------------------------------------------- ties
@pytest.mark.parametrize("ties", ["war", "stoting"])
def test_ties_stoting_even_below_a_higher_card(ties: str) -> None:
    s = new_game(preset("hund", ties=ties), 3, 2, ["9S 7C 2D", "KH 2C 3C", "9D 8H 3S"])
    do(s, "0 play 9S", "1 play KH", "2 play 9D")
    if ties == "war":
        assert pile(s, 1) == {"9S", "KH", "9D"} and s.to_act == 1
    else:
        assert s.fighting and s.round_seats == [0, 2] and s.to_act == 0
        do(s, "0 play 7C", "2 play 8H")
        assert pile(s, 2) == {"9S", "KH", "9D", "7C", "8H"} and s.to_act == 2


@pytest.mark.parametrize("ties", ["war", "stoting"])
def test_fight_round_highest_fight_card_takes_all(ties: str) -> None:
    """Mattis regler – også kjent som Blodmattis: "den med høyeste kampkort tar alt. Er
    kampkortene også like, blir det ny støting mellom dem".  Three nines fight; the fight
    cards are 7, 7 and K: the king takes all (the two sevens do not fight again)."""
    s = new_game(preset("hund", ties=ties), 4, 3, ["9S 7C 2H", "9H 7H 4H", "9D KD 5H", "2C 6H 8H"])
    do(s, "0 play 9S", "1 play 9H", "2 play 9D", "3 play 2C")
    assert s.round_seats == [0, 1, 2]
    do(s, "0 play 7C", "1 play 7H", "2 play KD")
    assert pile(s, 2) == {"9S", "9H", "9D", "2C", "7C", "7H", "KD"} and s.to_act == 2


@pytest.mark.parametrize("ties", ["war", "stoting"])
def test_fight_round_tie_for_the_highest_fights_again(ties: str) -> None:
    """"Er kampkortene også like, blir det ny støting mellom dem": only those tied for
    the highest fight card fight again (fight cards K, K, 3: the kings)."""
    s = new_game(preset("hund", ties=ties), 4, 3, ["9S KC 2H", "9H KH 4H", "9D 3D 5H", "2C 6H 8H"])
    do(s, "0 play 9S", "1 play 9H", "2 play 9D", "3 play 2C")
    do(s, "0 play KC", "1 play KH", "2 play 3D")
    assert s.fighting and s.round_seats == [0, 1] and s.to_act == 0
    do(s, "0 play 2H", "1 play 4H")
    assert pile(s, 1) == {"9S", "9H", "9D", "2C", "KC", "KH", "3D", "2H", "4H"}


def test_war_only_the_highest_tie_counts() -> None:
    """Regler for kortspillet Mattis, of Hund: 'Er det flere kriger i det samme stikket, er det den
    høyeste som gjelder'."""
    s = new_game("hund", 4, 3, ["5C KD 2H", "5D 3C 4H", "9D 3H 5H", "9C 6H 7H"])
    do(s, "0 play 5C", "1 play 5D", "2 play 9D", "3 play 9C")
    assert s.round_seats == [2, 3] and s.to_act == 2


def test_war_in_pair_tricks_same_leader_leads_again() -> None:
    """Krig/stunsa in a pair trick: the cards stay, the same leader lays first again."""
    for name in ("mattis", "skitgubbe"):
        s = new_game(name, 3, 0, ["2C 3C 4C", "9S KD 2D", "9D 3S 4S"])
        do(s, "1 play 9S", "2 play 9D")
        assert s.to_act == 1 and len(s.trick) == 2
        # after_card: both drew a card after laying, so the fight hands are full again
        assert len(hand(s, 1)) == 3
        do(s, "1 play KD")
        assert s.to_act == 2
        do(s, "2 play 3S")
        assert {"9S", "9D", "KD", "3S"} == pile(s, 1) and s.to_act == 1


# ------------------------------------------------------------------- draw
@pytest.mark.parametrize("draw", ["after_card", "after_trick"])
def test_draw_when(draw: str) -> None:
    s = new_game(preset("hund", draw=draw), 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"], stock="AS AH AD")
    do(s, "0 play 9S")
    if draw == "after_card":
        assert hand(s, 0) == {"2C", "3C", "AS"}
    else:
        assert hand(s, 0) == {"2C", "3C"}
    do(s, "1 play 5H", "2 play 8D")
    assert all(len(hand(s, i)) == 3 for i in range(3))
    if draw == "after_trick":
        # the winner (Anne) draws first, then clockwise
        assert "AS" in hand(s, 0) and "AH" in hand(s, 1) and "AD" in hand(s, 2)
    else:
        assert "AH" in hand(s, 1) and "AD" in hand(s, 2)


@pytest.mark.parametrize("draw,holder", [("after_trick", 0), ("after_card", 2)])
def test_draw_order_decides_who_gets_the_last_card(draw: str, holder: int) -> None:
    # Three stock cards left; Bjørn wins the trick.  after_trick: Bjørn draws first, then
    # Cato, then Anne gets the last card (the trump).  after_card: Cato lays last and
    # draws the last card.
    r = preset("hund", draw=draw)
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "AS AH KD", leader=0)
    do(s, "0 play 2C", "1 play 9S", "2 play 2D")
    assert s.trump_holder == holder and card_code(s.trump_card) == "KD"
    assert "KD" not in hand(s, holder), "the last card is set aside face down, not taken up"
    assert s.stock == []
    assert s.observation(holder).trump is None and s.observation(holder).trump_card is None
    check_accounting(s)


# ----------------------------------------------------------------- chance
def _chance_deal(chance: str) -> State:
    return new_game(preset("mattis", chance=chance), 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"], stock="2H KH")


@pytest.mark.parametrize("chance", ["off", "lead", "any"])
def test_chance_when(chance: str) -> None:
    s = _chance_deal(chance)
    assert (CHANCE in s.legal_moves()) == (chance != "off")
    if chance == "off":
        assert_illegal(s, "0 chance", "not allowed")
        return
    do(s, "0 play 3C")
    assert (CHANCE in s.legal_moves()) == (chance == "any")
    if chance == "lead":
        assert_illegal(s, "1 chance", "only allowed when you lead")
        return
    # sjanse: the top stock card is laid at once, the hand is unchanged, nobody draws
    hand_before = hand(s, 1)
    stock_before = len(s.stock)
    do(s, "1 chance")
    assert hand(s, 1) == hand_before and len(s.stock) == stock_before - 1
    assert s.history()[-1][2] == tuple(cs("KH"))
    assert pile(s, 1) == {"3C", "KH"}


@pytest.mark.parametrize("name", ["mattis", "hund"])
def test_chance_lead_every_fighter_lays_out_in_a_krig(name: str) -> None:
    """In a krig "Begge legger ut et nytt kort", and sjanse is allowed "når det er din
    tur til å legge ut" (Regler for kortspillet Mattis): every fighter may sjanse, not
    only the first; outside a fight only the trick's first card is laid out."""
    s = new_game(name, 3, 0, ["2C 3C 4C", "9S KD 2D", "9D 3S 4S"], stock="5H 6H 7H 8H 2S")
    assert CHANCE in s.legal_moves()
    do(s, "1 play 9S")
    assert CHANCE not in s.legal_moves(), "answering is not laying out"
    do(s, "2 play 9D")
    if name == "hund":
        assert CHANCE not in s.legal_moves()
        do(s, "0 play 2C")
    assert s.fighting and s.round_seats == [1, 2] and CHANCE in s.legal_moves()
    do(s, "1 play KD")
    assert s.fighting and s.to_act == 2 and CHANCE in s.legal_moves()
    top = s.stock[-1]
    do(s, "2 chance")
    assert s.history()[-1][2] == (top,) and RANK[top] < RANK[cs("KD")[0]]
    assert {"9S", "9D", "KD", card_code(top)} <= pile(s, 1)


@pytest.mark.parametrize("chance", ["lead", "any"])
def test_chance_never_with_fewer_than_two_stock_cards(chance: str) -> None:
    r = preset("skitgubbe", chance=chance)
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "AS AH", leader=0)
    assert CHANCE in s.legal_moves()
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "AS", leader=0)
    assert CHANCE not in s.legal_moves()
    assert_illegal(s, "0 chance", "at least two cards")


def test_chance_any_drains_the_stock_down_to_one_card() -> None:
    """Regler for kortspillet Skitgubbe: sjanse 'bare lov så lenge det ligger mer enn ett kort igjen'.
    Chancing all the time, the stock stops at one card, which the next player to lay a
    hand card draws as the face-down trump."""
    s = State.new(preset("skitgubbe"), 2, seed=3)
    while CHANCE in s.legal_moves():
        s.apply(CHANCE)
        check_accounting(s)
    assert s.phase == PHASE1 and len(s.stock) == 1 and all(len(hand(s, i)) == 3 for i in range(2))
    last = s.stock[0]
    seat = s.to_act
    s.apply(s.legal_moves()[0])
    assert s.trump_holder == seat and s.trump_card == last and s.stock == []
    assert len(hand(s, seat)) == 2 and s.trump == -1


# ------------------------------------------------------------------ trump
@pytest.mark.parametrize("trump", ["last_card", "bottom_up", "shown_when_drawn"])
def test_trump_shown_when(trump: str) -> None:
    s = new_game(preset("hund", trump=trump), 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"], bottom="7H")
    for seat in range(3):
        obs = s.observation(seat)
        if trump == "bottom_up":
            assert obs.trump == SUIT[cs("7H")[0]] and obs.trump_card == cs("7H")[0]
        else:
            assert obs.trump is None and obs.trump_card is None
    # play the game out: in phase 2 the trump is the suit of the bottom card either way
    # (the last card of the deck is the last stock card).
    rng = random.Random(1)
    while s.phase == PHASE1:
        s.apply(rng.choice([m for m in s.legal_moves() if m != CHANCE] or list(s.legal_moves())))
    assert s.trump == SUIT[cs("7H")[0]]
    assert s.trump_card == cs("7H")[0]
    assert s.trump_holder is not None
    if trump == "last_card":
        # the face-down trump card joins its holder's hand, shown to everyone
        assert BIT[s.trump_card] & s.hands[s.trump_holder] & s.known[s.trump_holder]


@pytest.mark.parametrize("trump", ["last_card", "bottom_up", "shown_when_drawn"])
def test_trump_last_card_drawn(trump: str) -> None:
    r = preset("hund", trump=trump, draw="after_trick")
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "AS AH KD", leader=0)
    if trump == "shown_when_drawn":
        # "Trumf vises når siste kort i stokken trekkes, ikke ved start"
        assert all(s.observation(i).trump is None and s.observation(i).trump_card is None for i in range(3))
    do(s, "0 play 2C", "1 play 9S", "2 play 2D")
    assert s.trump_holder == 0
    if trump == "last_card":
        assert "KD" not in hand(s, 0) and len(hand(s, 0)) == 2
    else:
        # drawn last like any card, into the hand, and everyone saw it
        assert "KD" in hand(s, 0) and len(hand(s, 0)) == 3 and BIT[s.trump_card] & s.known[0]
        for i in range(3):
            assert s.observation(i).trump == SUIT[s.trump_card] and s.observation(i).trump_card == s.trump_card
            assert s.observation(i).trump_holder == 0


@pytest.mark.parametrize("trump", ["last_card", "bottom_up", "shown_when_drawn"])
def test_chance_may_take_the_last_stock_card_unless_it_is_the_hidden_trump(trump: str) -> None:
    """The "mer enn ett kort" limit of Regler for kortspillet Skitgubbe guards the hidden
    trump (the last card is set aside face down).  Where the last card is drawn like any
    card (bottom_up, shown_when_drawn) a sjanse may turn it: the one who lays it got the
    last card from the stock and leads phase 2."""
    r = preset("mattis", trump=trump)
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "KD", leader=0)
    if trump == "last_card":
        assert CHANCE not in s.legal_moves()
        assert_illegal(s, "0 chance", "at least two cards")
        return
    assert CHANCE in s.legal_moves()
    do(s, "0 chance")
    assert s.stock == [] and s.trump_holder == 0 and s.trump == SUIT[cs("KD")[0]]
    assert s.observation(1).trump_card == cs("KD")[0]
    assert CHANCE not in s.legal_moves()
    assert_illegal(s, "1 chance", "stock")
    check_accounting(s)


# ------------------------------------------------------------- phase1_end
@pytest.mark.parametrize("end", ["one_holder", "first_empty"])
def test_phase1_end_player_due_has_no_card(end: str) -> None:
    r = preset("hund", phase1_end=end)
    s = phase1_position(r, ["5C", "6C 7C", "8C 9C TC"], "", leader=0, trump_card=("2S", 1))
    do(s, "0 play 5C", "1 play 6C", "2 play 8C")
    assert pile(s, 2) == {"5C", "6C", "8C"}
    do(s, "2 play 9C")
    if end == "one_holder":
        # Anne has no card: she is skipped, play goes on while two hold cards
        assert s.phase == PHASE1 and s.to_act == 1
        do(s, "1 play 7C")
        # only Cato holds cards now: phase 1 ends, his TC joins his phase 2 hand
        assert s.phase == PHASE2 and "TC" in hand(s, 2)
    else:
        # Anne is due and has none: phase 1 ends at once, the 9C goes back to Cato
        assert s.phase == PHASE2
        assert {"9C", "TC"} <= hand(s, 2) and "7C" in hand(s, 1)
    check_accounting(s)


@pytest.mark.parametrize("end", ["one_holder", "first_empty", "stock_empty"])
def test_phase1_end_when_the_stock_is_empty(end: str) -> None:
    """Mattis regler – også kjent som Blodmattis: "Appens regelside sier bare at fase 1
    slutter når stokken er tom"; "Kort du har igjen på hånden når fase 1 slutter, blir
    med deg inn i fase 2 sammen med kastebunken".  The trick in which the last card is
    drawn is played out; then phase 1 ends and the cards in hand go to phase 2."""
    r = preset("hund", phase1_end=end, trump="bottom_up")
    s = phase1_position(r, ["2C 3C 4C", "9S 5C 6C", "2D 7C 8C"], "AS KD", leader=0)
    do(s, "0 play 2C", "1 play 9S")
    assert s.stock == [] and s.trump_holder == 1
    assert s.phase == PHASE1 and s.to_act == 2, "the trick being played is finished"
    do(s, "2 play 2D")
    if end == "stock_empty":
        assert s.phase == PHASE2 and s.to_act == 1
        assert hand(s, 0) == {"3C", "4C", "AS"} and hand(s, 2) == {"7C", "8C"}
        assert hand(s, 1) == {"5C", "6C", "KD", "2C", "9S", "2D"}
        assert s.trump == SUIT[cs("KD")[0]]
    else:
        # everyone still holds cards: phase 1 goes on without drawing
        assert s.phase == PHASE1 and s.to_act == 1 and pile(s, 1) == {"2C", "9S", "2D"}
    check_accounting(s)


def test_phase1_end_stock_empty_on_random_games() -> None:
    """Under stock_empty a new trick never begins with an empty stock, and phase 1 ends
    with the trick in which the stock ran out."""
    for seed in range(40):
        s = State.new(preset("blodmattis", phase1_end="stock_empty"), 4, seed=seed)
        rng = random.Random(seed)
        emptied_in_trick = False
        while s.phase == PHASE1:
            tricks = sum(s.tricks_won)
            s.apply(rng.choice(s.legal_moves()))
            if s.phase == PHASE1 and s.trick == []:
                assert s.stock, "no new trick begins once the stock is empty"
            emptied_in_trick = sum(s.tricks_won) == tricks + 1
        assert emptied_in_trick and s.stock == [] and s.trump_holder is not None
        check_accounting(s)


@pytest.mark.parametrize("end", ["one_holder", "first_empty"])
def test_phase1_end_leader_without_card(end: str) -> None:
    r = preset("hund", phase1_end=end)
    s = phase1_position(r, ["9C", "2C 3C", "4C 6C"], "", leader=0, trump_card=("2S", 1))
    do(s, "0 play 9C", "1 play 2C", "2 play 4C")
    if end == "one_holder":
        # the lead passes to the next holder on the left
        assert s.phase == PHASE1 and s.to_act == 1 and s.trick_leader == 1
    else:
        assert s.phase == PHASE2


def test_phase1_end_differential_on_random_games() -> None:
    """Same deck, same moves under both values.  first_empty ends phase 1 as soon as a
    player due to lay has no card, while one_holder plays on (skipping her) as long as
    two hold cards; one_holder ends first only when at most one player holds cards."""
    played_on = 0
    for seed in range(60):
        a = State.new(preset("hund", phase1_end="first_empty", draw="after_trick"), 3, seed=seed)
        b = State.new(preset("hund", phase1_end="one_holder", draw="after_trick"), 3, seed=seed)
        rng = random.Random(seed)
        while a.phase == PHASE1 and b.phase == PHASE1:
            m = rng.choice(a.legal_moves())
            a.apply(m)
            b.apply(m)
        if a.phase == PHASE1:
            # one_holder ended first: at most one player holds cards
            assert sum(1 for h in a.hands if h) <= 1 and a.trick == []
        elif b.phase == PHASE1:
            played_on += 1
            # the seat first_empty stopped at is skipped; the player to act can lay
            assert b.to_act is not None and (b.hands[b.to_act] or len(b.stock) >= 2)
            assert sum(1 for h in b.hands if h) >= 1
    assert played_on > 10


# ------------------------------------------------------------- empty_hand
@pytest.mark.parametrize("rule", ["pick_up", "loses", "safe"])
def test_empty_hand(rule: str) -> None:
    r = preset("mattis", empty_hand=rule)
    s = position(r, ["5C 9C", "", "7C 8H", "6C KD"], "S", leader=0, dealer=3)
    if rule == "pick_up":
        assert s.in_game == 0b1111 and s.finished == [] and s.losers == []
        do(s, "0 play 5C")
        assert s.to_act == 1 and legal_texts(s) == ["pickup"]
        do(s, "1 pickup")
        assert hand(s, 1) == {"5C"} and s.to_act == 2
    elif rule == "loses":
        assert s.blodmattis == [1] and s.losers == [1] and s.in_game == 0b1101
        do(s, "0 play 5C")
        assert s.to_act == 2
        random_playout(s, random.Random(0))
        assert s.losers[0] == 1 and len(s.losers) == 2 and s.mattis == s.losers[1]
    else:
        assert s.finished == [1] and s.in_game == 0b1101
        do(s, "0 play 5C")
        assert s.to_act == 2


def test_empty_hand_loses_even_with_cards_in_hand() -> None:
    """Blodmattis (Mattis regler – også kjent som Blodmattis): won no trick in phase 1, even with
    cards left in hand."""
    r = preset("blodmattis")
    s = phase1_position(r, ["9C", "2C 3D", "5C", "6C"], "", leader=0, dealer=3,
                        won=[1, 0, 0, 1], piles=["KS AS", "", "", "QS JS"], trump_card=("KS", 0))
    do(s, "0 play 9C", "1 play 2C", "2 play 5C", "3 play 6C")
    # Anne won; she leads with no card: first_empty ends phase 1
    assert s.phase == PHASE2
    assert s.blodmattis == [1, 2] and s.losers == [1, 2]
    assert "3D" in hand(s, 1)
    assert s.in_game == 0b1001 and s.to_act == 0


def test_empty_hand_loses_one_other_left_is_finished() -> None:
    s = position("blodmattis", ["5C 6C", "", ""], "S", leader=0)
    assert s.is_over and s.blodmattis == [1, 2] and s.losers == [1, 2]
    assert s.finished == [0] and s.mattis is None and s.end_reason == "normal"


def test_several_blodmattis_clockwise_from_dealer_left() -> None:
    assert position("blodmattis", ["5C 6C", "", ""], "S", leader=0, dealer=0).blodmattis == [1, 2]
    s = position("blodmattis", ["5C 6C", "", ""], "S", leader=0, dealer=1)
    assert s.blodmattis == [2, 1] and s.losers == [2, 1] and s.next_dealer == 2


def test_empty_hand_safe_clockwise_from_dealer_left() -> None:
    s = position("skitgubbe", ["5C", "", "7C", ""], "S", leader=0, dealer=2)
    assert s.finished == [3, 1]
    s = position("skitgubbe", ["5C", "", "7C", ""], "S", leader=0, dealer=0)
    assert s.finished == [1, 3]


# ---------------------------------------------------------------- leader2
@pytest.mark.parametrize("rule,leader", [("trump_holder", 0), ("last_trick", 2)])
def test_leader2(rule: str, leader: int) -> None:
    r = preset("hund", leader2=rule)
    s = phase1_position(r, ["5C", "6C", "8C"], "", leader=0, piles=["2H", "3H", "4H"], trump_card=("2S", 0))
    do(s, "0 play 5C", "1 play 6C", "2 play 8C")
    assert s.phase == PHASE2 and s.to_act == leader
    assert "2S" in hand(s, 0)


# -------------------------------------------------------- leftovers_shown
@pytest.mark.parametrize("shown", [False, True])
def test_leftovers_shown(shown: bool) -> None:
    """Regler for kortspillet Skitgubbe: 'Har noen fortsatt kort på hånden, viser de dem fram og
    beholder dem'."""
    r = preset("skitgubbe", leftovers_shown=shown)
    s = phase1_position(r, ["5C", "6C KH", "8C QH"], "", leader=0, piles=["2H", "3H", "4H"],
                        trump_card=("2S", 0), won=[1, 1, 1])
    do(s, "0 play 5C", "1 play 6C", "1 play KH", "2 play 8C")
    # Bjørn won and must lead with no card: phase 1 ends with Cato's QH still in hand
    assert s.phase == PHASE2 and "QH" in hand(s, 2)
    qh = cs("QH")[0]
    assert bool(s.known[2] & BIT[qh]) == shown
    assert (qh in s.observation(0).known[2]) == shown
    # the won pile is public either way (it was laid face up), and so is the trump card
    assert set(cs("4H")) <= set(s.observation(0).known[2])
    assert cs("2S")[0] in s.observation(1).known[0]


# ----------------------------------------------------------------- follow
@pytest.mark.parametrize("follow", ["free", "void"])
def test_follow(follow: str) -> None:
    r = preset("mattis", follow=follow)
    s = position(r, ["2H 3C", "6S 5D", "9S 7H 2C"], "H", leader=1)
    do(s, "1 play 6S")
    if follow == "free":
        assert set(legal_texts(s)) == {"play 9S", "play 7H"}
    else:
        assert set(legal_texts(s)) == {"play 9S"}
        assert_illegal(s, "2 play 7H", "follow suit")
        assert_illegal(s, "2 play 2C", "follow suit")
    # holding the suit but nothing higher: free may trump, void must pick up
    s = position(r, ["2H 3C", "6S 5D", "2S 7H 2C"], "H", leader=1)
    do(s, "1 play 6S")
    assert set(legal_texts(s)) == ({"play 7H"} if follow == "free" else {"pickup"})
    # void of the suit: trumping is allowed either way
    s = position(r, ["2H 3C", "6S 5D", "7H 2C"], "H", leader=1)
    do(s, "1 play 6S")
    assert set(legal_texts(s)) == {"play 7H"}


def test_follow_void_the_app_example() -> None:
    """Mattis regler – også kjent som Blodmattis: "Følg farge hvis du kan", "stikk med
    trumf når du ikke har fargen".  Hearts trump, Bjørn leads 6S, Cato plays 9S.  Anne
    holding 8D 2H 3S has a spade, cannot beat 9S and must pick up (the oldest entry,
    6S); holding no spade ("Anne har ikke spar. Hun stikker med hjerter 2") she trumps."""
    s = position("blodmattis", ["8D 2H 3S", "6S 4C", "9S 5C"], "H", leader=1)
    do(s, "1 play 6S", "2 play 9S")
    assert legal_texts(s) == ["pickup"]
    illegal = verify(s, play(cs("2H")[0]))
    # 3S cannot be played (it does not beat 9S): the refusal names no card, only the pickup
    assert illegal is not None and illegal.reason is Reason.MUST_FOLLOW_SUIT_PICK_UP and illegal.cards == ()
    assert reason_text(illegal, "en").startswith("you hold the suit but nothing higher: pick up")
    assert reason_text(illegal, "nb").startswith("du har fargen, men ikke noe høyere: ta opp")
    assert "3♠" not in reason_text(illegal, "en")
    assert_illegal(s, "0 play 2H", "pick up")
    do(s, "0 pickup")
    assert hand(s, 0) == {"8D", "2H", "3S", "6S"} and table2(s) == [["9S"]]
    s = position("blodmattis", ["8D 2H 4C", "6S 5C", "9S 6C"], "H", leader=1)
    do(s, "1 play 6S", "2 play 9S")
    assert set(legal_texts(s)) == {"play 2H", "pickup"}
    do(s, "0 play 2H")
    assert table2(s) == [] and s.to_act == 0  # three entries, three active: cleared, Anne leads



def test_the_follow_suit_refusal_names_only_cards_that_may_be_played() -> None:
    """Holding 5S and TS on 9S (hearts trump), trumping with 2H is refused, and the refusal names
    TS (it beats 9S) and not 5S (it does not): the family's words, "du har 5♠ 10♠ i fargen", named
    a card that could not be played."""
    s = position("blodmattis", ["5S TS 2H", "6S 4C", "9S 5C"], "H", leader=1)
    do(s, "1 play 6S", "2 play 9S")
    assert set(legal_texts(s)) == {"play TS", "pickup"}
    illegal = verify(s, play(cs("2H")[0]))
    assert illegal is not None and illegal.reason is Reason.MUST_FOLLOW_SUIT and illegal.cards == tuple(cs("TS"))
    assert reason_text(illegal, "en").startswith("follow suit with 10♠, or pick up")
    assert reason_text(illegal, "nb").startswith("følg farge med 10♠, ellers ta opp")
    assert "5♠" not in reason_text(illegal, "en") + reason_text(illegal, "nb")


def test_follow_suit_first_is_refused_with_a_pointer() -> None:
    """The former follow=suit_first has no source text: a record naming it is refused,
    saying what to use instead."""
    with pytest.raises(RulesError, match="follow=void"):
        preset("mattis", follow="suit_first")
    with pytest.raises(RulesError, match="follow=void"):
        rules_from_json({"preset": "blodmattis", "follow": "suit_first"})


# ----------------------------------------------------------------- pickup
@pytest.mark.parametrize("rule,taken", [("first", "5C"), ("last", "3S"), ("lowest", "3S")])
def test_pickup_which_entry(rule: str, taken: str) -> None:
    r = preset("mattis", pickup=rule)
    s = position(r, ["5C 9D", "3S 9H", "2C 2D", "KD 4H"], "S", leader=0)
    do(s, "0 play 5C", "1 play 3S")
    assert legal_texts(s) == ["pickup"]
    do(s, "2 pickup")
    assert taken in hand(s, 2)
    rest = [["5C"], ["3S"]]
    rest.remove([taken])
    assert table2(s) == rest and s.to_act == 3


def test_pickup_lowest_is_by_face_value_trumps_included() -> None:
    """The trump 3S is lower in face value than the 9C laid first: pickup=lowest takes the
    3S, pickup=first the 9C (decision 7 in docs/rules.md)."""
    hands = ["9C 9D", "3S 9H", "2C 2D", "KD 4H"]
    for rule, taken, left in [("lowest", "3S", [["9C"]]), ("first", "9C", [["3S"]])]:
        s = position(preset("mattis", pickup=rule), hands, "S", leader=0)
        do(s, "0 play 9C", "1 play 3S", "2 pickup")
        assert taken in hand(s, 2) and table2(s) == left


def test_pickup_lowest_ties_take_the_older_entry() -> None:
    """9C then the trump 9S: both are nines, so the older entry (9C) is taken."""
    s = position(preset("mattis", pickup="lowest"), ["9C 2D", "9S 9H", "2C 3D", "KD 4H"], "S", leader=0)
    do(s, "0 play 9C", "1 play 9S", "2 pickup")
    assert "9C" in hand(s, 2) and table2(s) == [["9S"]]


def test_pickup_last_takes_run_only_with_sequences() -> None:
    hands = ["3C 2D 2H", "6C 3D 3H", "7C 4D 4H", "2C 5D 5H"]
    for seq, taken in [(0, {"7C"}), (2, {"6C", "7C"})]:
        r = preset("skitgubbe", sequences=seq)
        s = position(r, hands, "S", leader=0)
        do(s, "0 play 3C", "1 play 6C", "2 play 7C", "3 pickup")
        assert hand(s, 3) == {"2C", "5D", "5H"} | taken


@pytest.mark.parametrize("run", [True, False])
def test_pickup_run_the_skitgubbe_example(run: bool) -> None:
    """Regler for kortspillet Skitgubbe: "Med serier tar de fleste også opp
    sammenhengende kort ... Anne legger kløver 3, Bjørn kløver 6 og 7, Cato kløver 8, 9
    og 10. Kan ikke Dina slå, tar hun opp hele rekka fra 6 til 10. Treeren blir
    liggende".  The others (pickup_run=false) take only the last entry, 8-9-10."""
    r = preset("skitgubbe", sequences=2, pickup_run=run)
    s = position(r, ["3C 2D", "6C 7C 3D", "8C 9C TC 4D", "2C 5D"], "S", leader=0)
    do(s, "0 play 3C", "1 play 6C 7C", "2 play 8C 9C TC")
    assert legal_texts(s) == ["pickup"]
    do(s, "3 pickup")
    if run:
        assert hand(s, 3) == {"2C", "5D", "6C", "7C", "8C", "9C", "TC"} and table2(s) == [["3C"]]
    else:
        assert hand(s, 3) == {"2C", "5D", "8C", "9C", "TC"} and table2(s) == [["3C"], ["6C", "7C"]]
    assert s.to_act == 0


def test_pickup_lowest_differs_from_first_only_after_a_low_trump() -> None:
    """In random play, pickup=lowest takes the first entry unless a trump of lower face
    value than the first entry lies on the table; then it takes that trump."""
    from mattis.core import PICKUP

    pickups = differ = 0
    for g in range(60):
        rng = random.Random(g)
        r = preset(rng.choice(["mattis", "hund", "skitgubbe"]), pickup="lowest", pickup_optional=True,
                   sequences=rng.choice([0, 2]))
        s = State.new(r, rng.choice([3, 4]), seed=g)
        while not s.is_over:
            m = rng.choice(s.legal_moves())
            if m == PICKUP:
                pickups += 1
                first = s.table[0][1]
                lowest = min((e for _, e in s.table), key=lambda e: RANK[e[0]])
                s.apply(m)
                assert s.log is not None
                if RANK[lowest[0]] < RANK[first[0]]:
                    differ += 1
                    assert s.log[3] == lowest and SUIT[lowest[0]] == s.trump
                else:
                    assert s.log[3] == first
            else:
                s.apply(m)
    assert pickups > 1000 and differ > 50


def test_pickup_last_run_is_one_suit() -> None:
    """A trump 9S on an 8C is not part of a run: only the 9S is taken."""
    r = preset("skitgubbe", sequences=2)
    s = position(r, ["8C 2D", "9S 3D", "2C 4D"], "S", leader=0)
    do(s, "0 play 8C", "1 play 9S", "2 pickup")
    assert hand(s, 2) == {"2C", "4D", "9S"} and table2(s) == [["8C"]]


@pytest.mark.parametrize("optional", [False, True])
def test_pickup_optional(optional: bool) -> None:
    r = preset("mattis", pickup_optional=optional)
    s = position(r, ["4C 9D", "JC 9H", "QC 2D"], "S", leader=0)
    do(s, "0 play 4C", "1 play JC")
    assert ("pickup" in legal_texts(s)) == optional
    if not optional:
        assert_illegal(s, "2 pickup", "can beat")
    else:
        do(s, "2 pickup")
        assert "4C" in hand(s, 2)


# ------------------------------------------------------------- trick_size
def test_trick_size_records_exist() -> None:
    """trick_size start/active/seated are asserted by the trick_size_* records
    (test_core_scenarios.py); here the count is checked directly."""
    hands = ["5C 9C 6D", "6C", "7C 7D 3H", "8C 4D 5H"]
    got = {}
    for ts in ("start", "active", "seated"):
        s = position(preset("mattis", trick_size=ts), hands, "S", leader=0)
        do(s, "0 play 5C", "1 play 6C", "2 play 7C")
        got[ts] = (s.to_act, len(s.table))
    assert got == {"start": (3, 3), "active": (2, 0), "seated": (3, 3)}


# -------------------------------------------------------------- going_out
@pytest.mark.parametrize("going_out", ["laid", "cleared"])
def test_going_out_trick_size_and_order(going_out: str) -> None:
    """Mattis regler – også kjent som Blodmattis: "En spiller er ute når hånden er tom og
    det siste kortet spilleren la, ikke blir tatt opp igjen".  Anne leads her last card
    4S.  Under ``cleared`` she is still in until the trick is cleared, so the trick of
    the "aktive spillere" needs three entries and Cato lays too; under ``laid`` she is
    out at once, two entries complete the trick and Bjørn leads next."""
    r = preset("blodmattis", going_out=going_out)
    s = position(r, ["4S", "5S 9C", "6S 2C 3C"], "H", leader=0)
    do(s, "0 play 4S")
    obs = s.observation(1)
    if going_out == "laid":
        assert s.finished == [0] and obs.waiting == () and obs.still_in == {1, 2}
        do(s, "1 play 5S")
        assert table2(s) == [] and s.to_act == 1 and hand(s, 2) == {"6S", "2C", "3C"}
    else:
        assert s.finished == [] and obs.waiting == (0,) and obs.still_in == {0, 1, 2}
        assert s.trick_size_now() == 3
        assert "waiting=0" in s.position_text()
        do(s, "1 play 5S")
        assert s.finished == [] and s.to_act == 2
        do(s, "2 play 6S")
        assert table2(s) == [] and s.finished == [0] and s.to_act == 2 and s.observation(2).waiting == ()


def test_going_out_cleared_picked_up_stays_in_and_must_pick_up() -> None:
    """Her last card picked up again, Anne is still in with an empty hand; on her turn she
    must pick up ("Har spilleren ingen kort, må spilleren ta opp et kort fra bordet")."""
    s = position(preset("blodmattis", going_out="cleared"), ["4S", "5S 9C", "7C 8C"], "H", leader=0)
    do(s, "0 play 4S", "1 pickup")  # Bjørn takes the oldest entry, Anne's 4S, back
    assert s.finished == [] and s.observation(0).waiting == () and s.observation(0).still_in == {0, 1, 2}
    assert s.to_act == 2  # the table is empty: the next player on the left leads
    do(s, "2 play 7C")
    assert s.to_act == 0 and legal_texts(s) == ["pickup"]
    do(s, "0 pickup")
    assert hand(s, 0) == {"7C"} and s.to_act == 1 and s.finished == []


def test_going_out_cleared_order_and_the_last_one_in() -> None:
    """Players whose last entries are cleared together go out in the order they laid
    them; the player left in is the Mattis, even with an empty hand."""
    s = position(preset("blodmattis", going_out="cleared"), ["4S", "5S", "6S 2C"], "H", leader=0)
    do(s, "0 play 4S", "1 play 5S")
    assert s.observation(2).waiting == (0, 1)
    do(s, "2 play 6S")
    assert s.is_over and s.finished == [0, 1] and s.losers == [2] and s.mattis == 2
    s = position(preset("blodmattis", min_players=2, going_out="cleared"), ["4S", "5S"], "H", leader=0)
    do(s, "0 play 4S", "1 play 5S")
    assert s.is_over and s.finished == [0] and s.losers == [1] and s.hand(1) == []
    # under laid Anne is out the moment she lays: Bjørn is Mattis holding his 5S
    s = position(preset("blodmattis", min_players=2, going_out="laid"), ["4S", "5S"], "H", leader=0)
    do(s, "0 play 4S")
    assert s.is_over and s.finished == [0] and s.losers == [1] and s.hand(1) == cs("5S")


def _pickup_first(s: State) -> list[str]:
    """Play to the end, picking up whenever allowed, else the first legal move."""
    moves: list[str] = []
    while not s.is_over:
        legal = s.legal_moves()
        m = next((x for x in legal if x.kind is MoveKind.PICKUP), legal[0])
        moves.append(f"{s.to_act} {m}")
        s.apply(m)
    return moves


def test_going_out_holders_ends_when_one_holds_cards_where_cleared_repeats() -> None:
    """Mattis regler – også kjent som Blodmattis: "Spillet fortsetter til bare én spiller
    har kort igjen".  The deal of tests/core/records/app_last_holder.json: under
    ``holders`` it ends by play after three moves (Bjørn, the only one holding cards, is
    the Mattis); under ``cleared`` the three cards pass round until the repetition rule
    stops it."""
    hands = ["4S", "5C", "6D"]
    s = position(preset("blodmattis"), hands, "H", leader=0)
    assert s.rules.going_out is GoingOut.HOLDERS
    assert _pickup_first(s) == ["0 play 4S", "1 pickup", "2 play 6D"]
    assert s.end_reason is Termination.NORMAL and s.losers == [1] and s.finished == [2, 0]
    old = position(preset("blodmattis", going_out="cleared"), hands, "H", leader=0)
    moves = _pickup_first(old)
    assert old.end_reason is Termination.REPETITION and len(moves) == 26 and old.finished == []


def test_going_out_holders_trick_of_the_players_holding_cards() -> None:
    """Under ``holders`` a player waiting to go out holds no cards, so she is not among the
    "aktive spillere" whose number of entries clears the table: Anne leads her last card
    and Bjørn's answer completes the trick of the two players holding cards (under
    ``cleared`` it takes Cato's too)."""
    s = position("blodmattis", ["4S", "5S 9C", "6S 2C 3C"], "H", leader=0)
    do(s, "0 play 4S")
    assert s.observation(1).waiting == (0,) and s.trick_size_now() == 2
    do(s, "1 play 5S")
    assert table2(s) == [] and s.finished == [0] and s.to_act == 1 and not s.is_over
    cleared = position(preset("blodmattis", going_out="cleared"), ["4S", "5S 9C", "6S 2C 3C"], "H", leader=0)
    do(cleared, "0 play 4S", "1 play 5S")
    assert cleared.finished == [] and cleared.to_act == 2


def test_going_out_waiting_in_the_position_notation() -> None:
    r = preset("blodmattis", going_out="cleared")
    s = position(r, ["4S", "5S 9C", "6S 2C 3C"], "H", leader=0)
    do(s, "0 play 4S")
    text = s.position_text()
    again = parse_position(r, text)
    assert again.position_text() == text and again.observation(1).waiting == (0,)
    do(again, "1 play 5S", "2 play 6S")
    assert again.finished == [0]
    with pytest.raises(GameSetupError, match="waiting"):
        parse_position(r, text.replace("waiting=0", "waiting=1"))


# -------------------------------------------------------------- sequences
@pytest.mark.parametrize("seq,expected", [
    (0, {"play 5H", "play 6H", "play 7H", "play 2C"}),
    (2, {"play 5H", "play 6H", "play 7H", "play 2C", "play 5H 6H", "play 6H 7H", "play 5H 6H 7H"}),
    (3, {"play 5H", "play 6H", "play 7H", "play 2C", "play 5H 6H 7H"}),
])
def test_sequences(seq: int, expected: set[str]) -> None:
    r = preset("mattis", sequences=seq)
    s = position(r, ["5H 6H 7H 2C", "3D 4D"], "S", leader=0)
    assert set(legal_texts(s)) == expected
    if seq == 0:
        assert_illegal(s, "0 play 5H 6H", "not allowed")
    if seq == 3:
        assert_illegal(s, "0 play 5H 6H", "at least 3")
    if seq:
        assert_illegal(s, "0 play 5H 7H", "consecutive")
        assert_illegal(s, "0 play 7H 2C", "consecutive")


def test_sequence_counts_as_one_entry() -> None:
    r = preset("mattis", sequences=2)
    s = position(r, ["5H 6H 7H 2C", "8H 3D", "9H 4D"], "S", leader=0)
    do(s, "0 play 5H 6H 7H", "1 play 8H")
    assert len(s.table) == 2 and s.to_act == 2
    do(s, "2 play 9H")
    assert s.table == [] and s.to_act == 2


def test_sequence_pickup_first_takes_whole_sequence() -> None:
    """Regler for kortspillet Mattis: 'det var en serie som ble lagt først i stikket, tar du inn hele
    serien'."""
    r = preset("mattis", sequences=2)
    s = position(r, ["5H 6H 2C", "8H 3D", "2D 4D"], "S", leader=0)
    do(s, "0 play 5H 6H", "1 play 8H", "2 pickup")
    assert hand(s, 2) == {"2D", "4D", "5H", "6H"}


# ----------------------------------------------------- two_player_discard
@pytest.mark.parametrize("name,aside", [("mattis", 10), ("hund", 10), ("skitgubbe", 0)])
def test_two_player_discard(name: str, aside: int) -> None:
    deck = list(range(52))
    s = State.from_deck(preset(name), 2, deck, dealer=0)
    assert s.aside.bit_count() == aside and len(s.stock) == 52 - aside - 6
    assert s.aside == sum(1 << c for c in deck[:aside])
    # dealt one at a time from seat 1 (left of the dealer)
    assert s.hand(1) == sorted(deck[aside:aside + 6:2]) and s.hand(0) == sorted(deck[aside + 1:aside + 6:2])
    assert s.observation(0).set_aside_count == aside
    s4 = State.from_deck(preset(name, two_player_discard=4), 2, deck)
    assert s4.aside.bit_count() == 4
    s3 = State.from_deck(preset(name), 3, deck)
    assert s3.aside == 0 and len(s3.stock) == 43


def test_deal_order_and_stock_order() -> None:
    deck = list(range(52))
    s = State.from_deck(preset("hund"), 4, deck, dealer=2)
    # seat 3 gets deck[0], seat 0 deck[1], seat 1 deck[2], seat 2 deck[3], ...
    assert s.hand(3) == [0, 4, 8] and s.hand(0) == [1, 5, 9] and s.hand(2) == [3, 7, 11]
    assert s.snapshot()["stock"] == [card_code(c) for c in deck[12:]]
    assert s.to_act == 3


# ---------------------------------------------------------------- players
@pytest.mark.parametrize("name,allowed", [
    ("mattis", range(2, 7)), ("hund", range(2, 7)), ("blodmattis", range(3, 7)), ("skitgubbe", range(2, 5)),
])
def test_player_ranges(name: str, allowed: range) -> None:
    r = preset(name)
    assert r.allowed_players() == allowed
    for n in range(0, 9):
        if n in allowed:
            State.new(r, n, seed=1)
        else:
            with pytest.raises(RulesError, match="players"):
                State.new(r, n, seed=1)


def test_skitgubbe_five_or_six_only_with_all_tricks() -> None:
    for n in (5, 6):
        with pytest.raises(RulesError, match="tricks=all"):
            State.new(preset("skitgubbe"), n, seed=1)
        State.new(preset("skitgubbe", tricks="all"), n, seed=1)
    assert preset("skitgubbe", tricks="all").allowed_players() == range(2, 7)


# ------------------------------------------------------------- phase2_cap
def test_phase2_cap() -> None:
    for cap in (1, 3, 7):
        s = position(preset("skitgubbe", phase2_cap=cap), ["2C 9D 3H", "3C 4D 5H 6H", "5C 6D 7D 8D 9H"], "S", 0)
        rng = random.Random(cap)
        k = 0
        while not s.is_over:
            s.apply(rng.choice(s.legal_moves()))
            k += 1
        assert s.end_reason == "cap" or len(s.finished) + 1 == 3
        if s.end_reason == "cap":
            assert k == cap == s.p2_moves


def test_phase2_cap_default_is_documented_and_games_end() -> None:
    for name in PRESETS:
        assert PRESETS[name].phase2_cap >= 100


# ----------------------------------------------------------------- presets
def test_presets_match_the_documented_table() -> None:
    table = {
        "mattis": dict(min_players=2, max_players=6, two_player_discard=10, tricks="pair", ties="war",
                       draw="after_card", chance="lead", trump="last_card", phase1_end="one_holder",
                       empty_hand="pick_up", leader2="trump_holder", follow="free", pickup="first",
                       pickup_optional=False, trick_size="start", sequences=0, leftovers_shown=False),
        "hund": dict(min_players=2, max_players=6, two_player_discard=10, tricks="all", ties="war",
                     draw="after_card", chance="lead", trump="last_card", phase1_end="one_holder",
                     empty_hand="pick_up", leader2="trump_holder", follow="free", pickup="first",
                     pickup_optional=False, trick_size="start", sequences=0, leftovers_shown=False),
        "blodmattis": dict(min_players=3, max_players=6, two_player_discard=0, tricks="all", ties="stoting",
                           draw="after_trick", chance="off", trump="bottom_up", phase1_end="first_empty",
                           empty_hand="loses", leader2="trump_holder", follow="void", pickup="first",
                           pickup_optional=True, trick_size="active", going_out="holders", sequences=2,
                           leftovers_shown=False),
        "skitgubbe": dict(min_players=2, max_players=6, max_pair_players=4, two_player_discard=0, tricks="pair",
                          ties="war", draw="after_card", chance="any", trump="last_card",
                          phase1_end="first_empty", empty_hand="safe", leader2="trump_holder", follow="free",
                          pickup="last", pickup_optional=True, trick_size="start", sequences=0,
                          leftovers_shown=True),
    }
    assert set(table) == set(PRESETS)
    for name, opts in table.items():
        r = preset(name)
        assert r.name == name
        for k, v in opts.items():
            assert getattr(r, k) == v, (name, k)


def test_preset_overrides() -> None:
    r = preset("skitgubbe", sequences=3)
    assert r.sequences == 3 and r.pickup == "last" and r.name == "skitgubbe"
    assert r.overrides() == {"sequences": 3}
    assert preset("mattis", players="3-4").allowed_players() == range(3, 5)
    assert preset("mattis", pickup_optional="true").pickup_optional is True
    assert preset("mattis", sequences="2").sequences == 2
