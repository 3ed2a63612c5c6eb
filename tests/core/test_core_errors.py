"""Invalid rule sets and player counts raise RulesError with a clear message; bad decks
and positions raise GameSetupError; illegal moves raise IllegalMoveError with a reason
and leave the state exactly as it was."""

from __future__ import annotations

import random

import pytest
from core_helpers import assert_illegal, do, new_game, phase1_position, position

from mattis.core import (
    CHANCE,
    CHOICES,
    PICKUP,
    GameSetupError,
    Illegal,
    IllegalMoveError,
    Move,
    MoveError,
    Reason,
    RulesError,
    State,
    parse_card,
    parse_move,
    parse_overrides,
    play,
    preset,
    reason_text,
    rules_from_json,
    verify,
)
from mattis.core.cards import RANK, SUIT
from mattis.core.observation import PHASE2


@pytest.mark.parametrize("option", sorted(CHOICES))
def test_bad_word_values(option: str) -> None:
    with pytest.raises(RulesError) as e:
        preset("mattis", **{option: "bogus"})
    msg = str(e.value)
    assert option in msg and "bogus" in msg
    for value in CHOICES[option]:
        assert value in msg, "the message lists the allowed values"
        assert getattr(preset("mattis", **{option: value}), option) == value


@pytest.mark.parametrize("overrides,msg", [
    ({"sequences": 1}, "sequences"),
    ({"sequences": 14}, "sequences"),
    ({"sequences": -2}, "sequences"),
    ({"sequences": "x"}, "whole number"),
    ({"sequences": 2.5}, "whole number"),
    ({"sequences": True}, "whole number"),
    ({"two_player_discard": 41}, "two_player_discard"),
    ({"two_player_discard": -1}, "two_player_discard"),
    ({"phase2_cap": 0}, "phase2_cap"),
    ({"pickup_optional": "maybe"}, "true or false"),
    ({"pickup_optional": 1}, "true or false"),
    ({"players": "1-3"}, "players"),
    ({"players": "2-7"}, "players"),
    ({"players": "5-3"}, "players"),
    ({"players": "x"}, "whole number"),
    ({"max_pair_players": 7}, "max_pair_players"),
    ({"colour": "red"}, "unknown rule option"),
])
def test_bad_options(overrides: dict[str, object], msg: str) -> None:
    with pytest.raises(RulesError) as e:
        preset("mattis", **overrides)
    assert msg in str(e.value)


def test_bad_combinations() -> None:
    # Skitgubbe with pair tricks allows at most four players
    with pytest.raises(RulesError, match="tricks=all"):
        preset("skitgubbe", players="5-6")
    preset("skitgubbe", players="5-6", tricks="all")


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as e:
        preset("whist")
    assert "whist" in str(e.value) and "mattis" in str(e.value) and "skitgubbe" in str(e.value)
    with pytest.raises(RulesError):
        rules_from_json({"preset": 3})
    with pytest.raises(RulesError):
        rules_from_json(["mattis"])
    # bug fix: "name" inside a rules object gave a TypeError instead of a RulesError
    with pytest.raises(RulesError, match="name"):
        rules_from_json({"preset": "mattis", "name": "hund"})


def test_parse_overrides() -> None:
    assert parse_overrides(["sequences=3", " pickup = last "]) == {"sequences": "3", "pickup": "last"}
    with pytest.raises(RulesError, match="option=value"):
        parse_overrides(["sequences"])
    with pytest.raises(RulesError):
        parse_overrides(["=3"])


@pytest.mark.parametrize("name,bad", [
    ("mattis", [0, 1, 7]), ("hund", [1, 7]), ("blodmattis", [2, 7]), ("skitgubbe", [1, 5, 6, 7]),
])
def test_bad_player_counts(name: str, bad: list[int]) -> None:
    for n in bad:
        with pytest.raises(RulesError) as e:
            State.new(preset(name), n, seed=0)
        assert name in str(e.value) and str(n) in str(e.value)
        with pytest.raises(RulesError):
            State.from_deck(preset(name), n, list(range(52)))


def test_bad_decks_and_dealers() -> None:
    r = preset("mattis")
    with pytest.raises(GameSetupError, match="52"):
        State.from_deck(r, 3, list(range(51)))
    with pytest.raises(GameSetupError, match="52"):
        State.from_deck(r, 3, [0] + list(range(1, 51)) + [0])
    with pytest.raises(GameSetupError, match="52"):
        State.from_deck(r, 3, list(range(1, 53)))
    with pytest.raises(GameSetupError, match="dealer"):
        State.from_deck(r, 3, list(range(52)), dealer=3)
    with pytest.raises(GameSetupError, match="dealer"):
        State.new(r, 3, seed=1, dealer=-1)


def test_bad_positions() -> None:
    r = preset("mattis")
    with pytest.raises(GameSetupError, match="2 to 6"):
        State.from_position(r, [[1]], 0, 0)
    with pytest.raises(GameSetupError, match="2 to 6"):
        State.from_position(r, [[i] for i in range(7)], 0, 0)
    with pytest.raises(GameSetupError, match="suit"):
        State.from_position(r, [[1], [2]], 4, 0)
    with pytest.raises(GameSetupError, match="seats"):
        State.from_position(r, [[1], [2]], 0, 2)
    with pytest.raises(GameSetupError, match="twice"):
        State.from_position(r, [[1], [1]], 0, 0)
    # bug fix: an out-of-range card crashed (IndexError) while building the message
    with pytest.raises(GameSetupError, match="not a card"):
        State.from_position(r, [[1], [52]], 0, 0)
    with pytest.raises(GameSetupError, match="not a card"):
        State.from_position(r, [[-1], [2]], 0, 0)


# ------------------------------------------------------------- illegal moves
def test_illegal_phase1_moves_change_nothing() -> None:
    s = new_game("mattis", 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"])
    assert_illegal(s, "0 play 5H", "do not hold")
    assert_illegal(s, "1 play 5H", "turn")
    assert_illegal(s, "0 pickup", "phase 1")
    assert_illegal(s, "0 play 9S 2C", "one card")
    do(s, "0 play 9S")
    assert_illegal(s, "1 chance", "when you lead")
    b = new_game("blodmattis", 3, 2, ["9S 2C 3C", "5H 4C 6C", "8D 7C TC"])
    assert_illegal(b, "0 chance", "not allowed")


def test_illegal_phase2_moves_change_nothing() -> None:
    s = position(preset("mattis"), ["4C 9C 2D 3D 5H", "JC 5D", "2S 3H"], "S", leader=0)
    assert_illegal(s, "0 pickup", "nothing on the table")
    assert_illegal(s, "0 chance", "no chance")
    assert_illegal(s, "0 play JC", "do not hold")
    assert_illegal(s, "0 play 2D 3D", "not allowed")
    do(s, "0 play 9C")
    assert_illegal(s, "1 play 5D", "follow suit")
    assert_illegal(s, "1 pickup", "can beat")
    do(s, "1 play JC")
    assert_illegal(s, "2 play 3H", "follow suit")
    do(s, "2 play 2S")
    assert s.table == []
    q = position(preset("mattis", sequences=2), ["4C 5C 7C 9C", "JC 5D"], "S", leader=0)
    assert_illegal(q, "0 play 4C 5C 7C", "consecutive")
    assert_illegal(q, "0 play 9C 4D", "do not hold")
    do(q, "0 play 4C 5C")
    assert_illegal(q, "1 play 5D", "follow suit")


def test_a_card_refused_where_picking_up_is_the_only_move_says_to_pick_up() -> None:
    """Nothing in hand beats the top card and no trump is held: the refusal says she must
    pick up, never "follow suit with a higher card, or trump" (which she cannot)."""
    s = position(preset("mattis"), ["9C 2D", "5C 3D 4H"], "S", leader=0)
    do(s, "0 play 9C")
    assert s.legal_moves() == (PICKUP,)
    for text in ("1 play 3D", "1 play 5C"):
        why = verify(s, parse_move(text.split(" ", 1)[1]))
        assert why == Illegal(Reason.MUST_PICK_UP, cards=(parse_card("9C"),)), why
        assert_illegal(s, text, "must pick up")
    assert reason_text(Illegal(Reason.MUST_PICK_UP, cards=(parse_card("9C"),)), "nb") == (
        "du har ikke noe som kan stikke 9♣: du må ta opp")
    v = position(preset("mattis", follow="void"), ["9C 2D", "5C 3S 4H"], "H", leader=0)
    do(v, "0 play 9C")
    assert verify(v, parse_move("play 3S")) == Illegal(Reason.MUST_FOLLOW_SUIT_PICK_UP)


def test_illegal_after_game_over() -> None:
    s = position("mattis", ["4C", "5C"], "S", leader=0)
    do(s, "0 play 4C")
    assert s.is_over
    assert_illegal(s, "play 5C", "over")
    assert_illegal(s, "1 pickup", "over")
    with pytest.raises(IllegalMoveError):
        s.apply(parse_move("pickup"))


def expected_reason(s: State, m: Move) -> Illegal:
    """Why ``m`` (one card, sjanse or a pickup) is illegal in ``s``, from the rule texts
    and written out here, not asked of the engine."""
    r = s.rules
    seat = s.to_act
    assert seat is not None
    held = set(s.hand(seat))
    if s.phase != PHASE2:
        if m == PICKUP:
            return Illegal(Reason.NO_PICKUP_IN_PHASE1)
        if m == CHANCE:
            if r.chance == "off":
                return Illegal(Reason.CHANCE_OFF)
            if not s.stock:
                return Illegal(Reason.CHANCE_NO_STOCK)
            if len(s.stock) < (2 if r.trump == "last_card" else 1):  # the hidden trump is never taken
                return Illegal(Reason.CHANCE_STOCK)
            return Illegal(Reason.CHANCE_NOT_LEADING)
        return Illegal(Reason.NOT_HELD, cards=m.cards)
    if m == CHANCE:
        return Illegal(Reason.NO_CHANCE_IN_PHASE2)
    if m == PICKUP:
        return Illegal(Reason.NOTHING_TO_PICK_UP if not s.table else Reason.MUST_BEAT_NOT_PICK_UP)
    card = m.cards[0]
    if card not in held:
        return Illegal(Reason.NOT_HELD, cards=(card,))
    top = s.table[-1][1]
    led = SUIT[top[0]]
    of_led = tuple(sorted(c for c in held if SUIT[c] == led))
    higher = tuple(c for c in of_led if RANK[c] > RANK[top[-1]])
    trumps = led != s.trump and any(SUIT[c] == s.trump for c in held) and (r.follow == "free" or not of_led)
    if SUIT[card] != led and r.follow == "void" and of_led:  # named: only the ones that may be played
        return Illegal(Reason.MUST_FOLLOW_SUIT, cards=higher) if higher else Illegal(Reason.MUST_FOLLOW_SUIT_PICK_UP)
    if not higher and not trumps:  # nothing may answer: picking up is the one move
        return Illegal(Reason.MUST_PICK_UP, cards=(top[-1],))
    if SUIT[card] == led:
        return Illegal(Reason.MUST_BEAT, cards=(top[-1],))
    return Illegal(Reason.MUST_FOLLOW_OR_TRUMP)


@pytest.mark.parametrize("name", ["mattis", "hund", "blodmattis", "skitgubbe"])
def test_every_rejected_move_has_the_expected_reason_and_changes_nothing(name: str) -> None:
    """On random states the refusal's reason is the one the rule texts give (written
    out in :func:`expected_reason`), ``verify`` says the same, and nothing changes."""
    seen: set[Reason] = set()
    for seed in range(8):
        s = State.new(preset(name, sequences=0), 3 + seed % 2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = set(s.legal_moves())
            for m in [play(c) for c in range(52)] + [CHANCE, PICKUP]:
                if m in legal or rng.random() > 0.05:
                    continue
                want = expected_reason(s, m)
                snap = s.snapshot()
                with pytest.raises(IllegalMoveError) as e:
                    s.apply(m)
                assert e.value.illegal == want, (str(m), e.value.illegal, want)
                assert verify(s, m) == want and str(e.value) == str(want)
                assert s.snapshot() == snap
                seen.add(want.reason)
            s.apply(rng.choice(s.legal_moves()))
    assert {Reason.NOT_HELD, Reason.NO_PICKUP_IN_PHASE1, Reason.NO_CHANCE_IN_PHASE2} <= seen
    assert len(seen) >= 5, seen


def test_move_text_errors() -> None:
    for text, msg in [("", "empty"), ("jump", "unknown"), ("play", "at least one"), ("play 4C 4C", "twice"),
                      ("pickup 4C", "no cards"), ("play 1X", "not a card")]:
        with pytest.raises(MoveError, match=msg):
            parse_move(text)
    s = phase1_position("mattis", ["2C 3C", "4C 5C"], "", leader=0, trump_card=("2S", 0))
    with pytest.raises(MoveError):
        s.apply_text("0 play")
