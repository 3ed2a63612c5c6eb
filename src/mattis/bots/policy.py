"""Fast rule-of-thumb move choice, shared by the heuristic bot and by playouts.

The functions here take plain values (cards, the table, the trump) so the same
advice drives the :class:`~mattis.bots.heuristic.HeuristicBot` (from an
observation) and the simulated games inside the search bots (from sampled
states).  The advice is the rule texts': give away low tricks, take high ones
cheaply, chance (sjanse) when the hand is all keepers; in phase 2 lead low,
beat cheaply and save trumps (trumf), and lead what the next player cannot
beat under undertrekk (pickup of the first entry).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import CHANCE, PICKUP, RANK, SUIT, Card, Move, MoveKind, Pickup, Rules, State, cards_of, mask_of, play
from ..core.legal import answer_mask, lay_outcome, next_seat_in
from ..core.observation import PHASE1, PHASE2


@dataclass(frozen=True, slots=True)
class Knobs:
    """The heuristic's parameters."""

    keep_rank: int = 9
    """Phase 1: cards of this rank or higher (9 = jack) are keepers; a trick whose
    best card reaches it is worth winning."""
    chance_all_keepers: bool = True
    """Phase 1: take a chance (sjanse) when leading with a hand of keepers only."""
    trump_cost: int = 14
    """Phase 2: extra cost of beating with a trump instead of following suit."""
    seq_bonus: int = 3
    """Phase 2: bonus per extra card shed by a sequence (serie)."""
    safe_lead_bonus: int = 8
    """Phase 2: bonus for a lead the next player cannot beat (under undertrekk)."""


DEFAULT_KNOBS = Knobs()


def _value(card: Card, trump: int) -> int:
    """How much a card is worth keeping (higher = better to hold in phase 2)."""
    return RANK[card] + (13 if SUIT[card] == trump else 0)


def phase1_choice(hand: Sequence[Card], round_cards: Sequence[Card], pot: Sequence[Card],
                  legal: Sequence[Move], trump: int, rules: Rules, fighting: bool, k: Knobs = DEFAULT_KNOBS) -> Move:
    """Phase 1: ``round_cards`` were laid in this round (the cards to beat; ``fighting``:
    the round is a krig/støting), ``pot`` is every card in the trick so far.  Which
    card would take the trick is asked of the engine (:func:`mattis.core.legal.lay_outcome`,
    støting included)."""
    cards = [m for m in legal if m.kind is MoveKind.PLAY]
    can_chance = CHANCE in legal
    if not cards:
        return CHANCE if can_chance else legal[0]
    hand_sorted = sorted((m.cards[0] for m in cards), key=lambda c: (_value(c, trump), c))
    if not round_cards:
        # Leading: chance when every card is a keeper, else lead the least useful card.
        if can_chance and k.chance_all_keepers and all(RANK[c] >= k.keep_rank for c in hand_sorted):
            return CHANCE
        return play(hand_sorted[0])
    laid = list(round_cards)
    best_in_pot = max(RANK[c] for c in pot)
    want = best_in_pot >= k.keep_rank or any(SUIT[c] == trump for c in pot)
    result = {c: lay_outcome(laid, c, rules, fighting) for c in hand_sorted}
    above = [c for c in hand_sorted if result[c] > 0]
    below = [c for c in hand_sorted if result[c] < 0]
    if want and above:
        return play(min(above, key=lambda c: (RANK[c], _value(c, trump))))
    if below:
        # Give the trick away with the least useful card that loses.
        return play(below[0])
    if can_chance and all(RANK[c] >= k.keep_rank for c in hand_sorted):
        return CHANCE
    if above:
        return play(min(above, key=lambda c: (RANK[c], _value(c, trump))))
    return play(hand_sorted[0])


def phase2_choice(legal: Sequence[Move], table_empty: bool, trump: int, next_hand: Sequence[Card] | None,
                  rules: Rules, my_count: int, k: Knobs = DEFAULT_KNOBS) -> Move:
    """Phase 2: shed cheaply.  ``next_hand`` is what the next player is known to
    hold (``None`` if unknown)."""
    plays = [m for m in legal if m.kind is MoveKind.PLAY]
    if not plays:
        return PICKUP
    best: Move = plays[0]
    best_cost = 10**9
    # whether the next player can answer a lead: its hand as a mask, made once
    nxt = mask_of(next_hand) if table_empty and rules.pickup is Pickup.FIRST and next_hand is not None else -1
    for m in plays:
        top = m.cards[-1]
        cost = RANK[top] + (k.trump_cost if SUIT[top] == trump else 0) - k.seq_bonus * (len(m.cards) - 1)
        if len(m.cards) == my_count:
            cost -= 100  # going out
        if nxt >= 0 and answer_mask(nxt, m.cards, trump, rules) == 0:
            cost -= k.safe_lead_bonus
        if cost < best_cost:
            best, best_cost = m, cost
    return best


def state_choice(state: State, k: Knobs = DEFAULT_KNOBS) -> Move:
    """The heuristic move in a full (sampled) state, for playouts."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = state.to_act
    assert seat is not None
    trump = state.trump
    if state.phase == PHASE1:
        pot = [c for _, c in state.trick]
        rnd = [c for _, c in state.round_laid]
        return phase1_choice(cards_of(state.hands[seat]), rnd, pot, legal, trump, state.rules, state.fighting, k)
    if state.phase == PHASE2:
        nxt = next_seat_in(state.in_game, seat, state.n)
        return phase2_choice(legal, not state.table, trump, cards_of(state.hands[nxt]), state.rules,
                             state.hands[seat].bit_count(), k)
    return legal[0]


def playout(state: State, rng: random.Random, epsilon: float = 0.0, k: Knobs = DEFAULT_KNOBS,
            max_moves: int = 4000, *, phase1_only: bool = False) -> State:
    """Play ``state`` (a scratch copy: it is changed) to the end with the heuristic,
    a random legal move with probability ``epsilon``; with ``phase1_only``, only to
    phase 2's start (:func:`playout_phase1`)."""
    moves = 0
    while not state.is_over and moves < max_moves and not (phase1_only and state.phase != PHASE1):
        if epsilon and rng.random() < epsilon:
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply(state_choice(state, k))
        moves += 1
    return state


def playout_phase1(state: State, rng: random.Random, epsilon: float = 0.0, k: Knobs = DEFAULT_KNOBS,
                   max_moves: int = 4000) -> State:
    """:func:`playout` through the rest of phase 1 only: it stops at phase 2's start (or
    the game's end, whichever comes first); a state already past phase 1 is left as it is."""
    return playout(state, rng, epsilon, k, max_moves, phase1_only=True)


def outcome(state: State, seat: int) -> float:
    """The value of a finished (or stopped) game for ``seat``: 0 for the loser,
    1 for the first out, in between by finishing place."""
    if seat in state.losers:
        return 0.0
    end = state.outcome
    return 0.5 if end is None else end.score(seat)


__all__ = ["DEFAULT_KNOBS", "PHASE2", "Knobs", "outcome", "phase1_choice", "phase2_choice", "playout",
           "playout_phase1", "state_choice"]
