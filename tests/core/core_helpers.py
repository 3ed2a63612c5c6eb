"""Shared helpers for the rules-engine tests (tests/core)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from mattis.core import (
    CHANCE,
    PICKUP,
    GameRecord,
    IllegalMoveError,
    Rules,
    State,
    card_code,
    cards_of,
    mask_of,
    parse_card,
    parse_move,
    parse_position,
    play,
    preset,
)
from mattis.core.cards import BIT
from mattis.core.observation import OVER, PHASE1, PHASE2
from mattis.core.testing import all_card_masks

FULL = (1 << 52) - 1


def cs(text: str | Iterable[str]) -> list[int]:
    """Cards from ``"4C JC"`` or a list of codes."""
    words = text.split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def codes(cards: Iterable[int]) -> list[str]:
    return [card_code(c) for c in cards]


def deck_for(players: int, dealer: int, hands: Sequence[str | Sequence[str]],
             stock: str | Sequence[str] = (), bottom: str | Sequence[str] = (),
             aside: str | Sequence[str] = ()) -> list[int]:
    """A 52-card deck (as in the record format) that deals ``hands`` (3 cards a seat),
    with ``stock`` on top of the stock (top first), ``bottom`` as the last cards of the
    deck (the last one is the bottom card) and ``aside`` as deck[0:k] (two players)."""
    hs = [cs(h) for h in hands]
    assert len(hs) == players and all(len(h) == 3 for h in hs)
    top = cs(stock)
    bot = cs(bottom)
    side = cs(aside)
    deck = list(side)
    for i in range(3):
        for j in range(players):
            deck.append(hs[(dealer + 1 + j) % players][i])
    used = set(deck) | set(top) | set(bot)
    assert len(used) == len(deck) + len(top) + len(bot), "a card is used twice"
    filler = [c for c in range(52) if c not in used]
    deck += top + filler + bot
    assert sorted(deck) == list(range(52))
    return deck


def new_game(rules: Rules | str, players: int, dealer: int, hands: Sequence[Any], **kw: Any) -> State:
    """A game dealt from :func:`deck_for`; with two players and a preset that sets cards
    aside, the first unused cards (2D, 3D, ... as available) are set aside."""
    r = preset(rules) if isinstance(rules, str) else rules
    if players == 2 and r.two_player_discard and "aside" not in kw:
        used = set(cs(" ".join(h if isinstance(h, str) else " ".join(h) for h in hands)))
        for key in ("stock", "bottom"):
            v = kw.get(key, ())
            used |= set(cs(v))
        free = [c for c in range(52) if c not in used]
        kw["aside"] = codes(free[-r.two_player_discard:])
    return State.from_deck(r, players, deck_for(players, dealer, hands, **kw), dealer)


def position(rules: Rules | str, hands: Sequence[str | Sequence[str]], trump: str, leader: int,
             dealer: int = 0) -> State:
    r = preset(rules) if isinstance(rules, str) else rules
    return State.from_position(r, [cs(h) for h in hands], "CDHS".index(trump), leader, dealer)


def phase1_position(rules: Rules | str, hands: Sequence[str | Sequence[str]], stock: str | Sequence[str],
                    leader: int, dealer: int = 0, won: Sequence[int] | None = None,
                    piles: Sequence[str | Sequence[str]] | None = None,
                    trump_card: tuple[str, int] | None = None) -> State:
    """A phase 1 position late in the game, in the position notation: the given hands
    (any size) and stock (top first); every other card is set aside.  For
    ``trump=bottom_up`` the bottom stock card is the (shown) trump card.
    ``trump_card=(code, seat)``: the trump card has already been drawn by ``seat``
    (face down for ``last_card``; in that seat's hand or pile, shown, for ``bottom_up``)."""
    r = preset(rules) if isinstance(rules, str) else rules
    n = len(hands)

    def cards(h: str | Sequence[str]) -> str:
        return "".join(codes(cs(h))) or "-"

    pile_texts = [cards(p) for p in piles] if piles is not None else ["-"] * n
    if trump_card is not None:
        trump = f"{codes([parse_card(trump_card[0])])[0]}@{trump_card[1]}"
    elif r.trump == "bottom_up" and cs(stock):
        trump = codes(cs(stock))[-1]
    else:
        trump = "-"
    fields = [
        "1", f"dealer={dealer}", "hands=" + "/".join(cards(h) for h in hands), "piles=" + "/".join(pile_texts),
        f"stock={cards(stock)}", f"trump={trump}", f"leader={leader}",
    ]
    if won is not None:
        fields.append("won=" + "/".join(str(w) for w in won))
    return parse_position(r, " ".join(fields))


def _or(ms: Iterable[int]) -> int:
    out = 0
    for m in ms:
        out |= m
    return out


def do(state: State, *moves: str) -> State:
    """Apply record-style moves (``"0 play 4C"``), checking the seat."""
    for m in moves:
        state.apply_text(m)
    return state


def legal_texts(state: State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def hand(state: State, seat: int) -> set[str]:
    return set(codes(cards_of(state.hands[seat])))


def pile(state: State, seat: int) -> set[str]:
    return set(codes(cards_of(state.piles[seat])))


def table2(state: State) -> list[list[str]]:
    return [codes(e) for _, e in state.table]


def assert_illegal(state: State, move: str, reason: str = "") -> str:
    """The move is rejected with an IllegalMoveError (containing ``reason``) and the
    state is left exactly as it was."""
    before = state.snapshot()
    before_moves = state.moves()
    try:
        state.apply_text(move)
    except IllegalMoveError as e:
        msg = str(e)
    else:
        raise AssertionError(f"{move!r} was accepted")
    assert msg, "an illegal move must say why"
    assert reason.lower() in msg.lower(), f"{msg!r} does not mention {reason!r}"
    assert state.snapshot() == before
    assert state.moves() == before_moves
    return msg


def check_accounting(state: State) -> None:
    masks = all_card_masks(state)
    total = 0
    union = 0
    for m in masks:
        total += m.bit_count()
        union |= m
    deck = state.rules.deck_mask()  # the 52 cards, or a short deck's
    assert union == deck and total == deck.bit_count(), f"cards lost or doubled: {total} in {len(masks)} places"


ALL_MOVES = [play(c) for c in range(52)] + [CHANCE, PICKUP]


def check_move_agreement(state: State, rng: random.Random, samples: int = 2) -> None:
    """Every legal move is accepted by apply on a clone; a sample of other moves is
    rejected (with a reason) and changes nothing."""
    legal = state.legal_moves()
    for m in legal:
        c = state.clone()
        c.apply(m)
    lset = set(legal)
    cand = []
    for _ in range(4 * samples):
        m = ALL_MOVES[rng.randrange(54)]
        if m not in lset:
            cand.append(m)
            if len(cand) == samples:
                break
    if state.phase == PHASE2:
        # a two-card entry: a non-run, or a run the rules may not allow here
        h = state.hands[state.to_act or 0]
        if h.bit_count() >= 2:
            a, b = rng.sample(cards_of(h), 2)
            m = play(a, b)
            if m not in lset:
                cand.append(m)
    key = (tuple(state.hands), tuple(state.stock), tuple(state.table), tuple(state.trick),
           state.to_act, state.phase, state.n_moves, state.history_tuple())
    for m in cand:
        try:
            state.apply(m)
        except IllegalMoveError as e:
            assert str(e)
        else:
            raise AssertionError(f"illegal move {m} accepted")
    assert key == (tuple(state.hands), tuple(state.stock), tuple(state.table), tuple(state.trick),
                   state.to_act, state.phase, state.n_moves, state.history_tuple())


def check_turn(state: State) -> None:
    if state.is_over:
        assert state.to_act is None and state.legal_moves() == ()
        assert state.end_reason in ("normal", "repetition", "cap", "stuck")
    else:
        assert state.to_act is not None and 0 <= state.to_act < state.n
        assert state.legal_moves(), "the player to act must have a move"
        if state.phase == PHASE2:
            assert state.in_game >> state.to_act & 1


def check_end(state: State) -> None:
    """The losers are what the rules define."""
    assert state.is_over
    n = state.n
    losers = state.losers
    bm = state.blodmattis
    fin = state.finished
    ranked = state.ranked
    assert len(set(losers)) == len(losers) and len(set(fin + ranked)) == len(fin + ranked)
    assert sorted(fin + ranked + losers) == list(range(n)), (fin, ranked, losers)
    # only a forced end ranks players; who went out has no cards
    assert not ranked or state.end_reason != "normal"
    for s in fin:
        assert state.hands[s] == 0
    assert set(bm) <= set(losers)
    if state.rules.empty_hand != "loses":
        assert bm == []
    for s in bm:
        assert state.tricks_won[s] == 0
    for s in range(n):
        if s not in bm and state.rules.empty_hand == "loses":
            assert state.tricks_won[s] > 0
    others = [s for s in losers if s not in bm]
    assert len(others) <= 1
    if not bm:
        assert len(others) == 1, "exactly one loser"
    elif n - len(bm) >= 2:
        assert len(others) == 1, "phase 2 among the others has a Mattis"
    else:
        assert others == []
    assert state.mattis == (others[0] if others else None)
    if others:
        m = others[0]
        assert state.next_dealer == m
        if state.end_reason == "normal":
            # the loser still holds cards, or (an empty-handed bordmattis) has the table to
            # take; under going_out=cleared (or holders) she may have emptied her hand last
            assert state.hands[m] or state.table or state.rules.going_out != "laid"
        else:
            # ranked by cards held among the players still in when the game was stopped
            # (a Blodmattis is out of phase 2 but may hold more cards)
            still_in = [*state.ranked, m]
            assert state.hands[m].bit_count() >= max(state.hands[s].bit_count() for s in still_in)


def hidden_cards(state: State, seat: int) -> list[int]:
    """Cards ``seat`` cannot see: other hands' cards not publicly known, the stock
    (except the face-up bottom card), the face-down trump card, cards set aside."""
    hid = 0
    for s in range(state.n):
        if s != seat:
            hid |= state.hands[s] & ~state.known[s]
    hid |= mask_of(state.stock)
    if state.trump >= 0 and state.trump_card >= 0:
        hid &= ~BIT[state.trump_card]
    elif state.trump_card >= 0 and state.phase == PHASE1:
        hid |= BIT[state.trump_card]
    hid |= state.aside
    return cards_of(hid)


def random_playout(state: State, rng: random.Random, limit: int = 100_000) -> State:
    k = 0
    while not state.is_over and k < limit:
        state.apply(rng.choice(state.legal_moves()))
        k += 1
    return state


def parse(text: str) -> Any:
    return parse_move(text)


__all__ = [
    "FULL", "OVER", "PHASE1", "PHASE2", "ALL_MOVES", "cs", "codes", "deck_for", "new_game", "position",
    "phase1_position", "do", "legal_texts", "hand", "pile", "table2", "assert_illegal",
    "check_accounting", "check_move_agreement", "check_turn", "check_end", "hidden_cards",
    "random_playout", "GameRecord", "parse",
]
