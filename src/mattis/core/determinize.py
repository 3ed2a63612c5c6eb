"""Determinization: a full state consistent with one seat's observation.

:func:`sample_state` deals the cards hidden from a seat (the other hands, the
stock, the face-down trump, the cards set aside) at random, subject to
everything the seat has seen: who dealt and who led the first trick (under
``next_leader=loser`` the last loser, not the dealer's neighbour), its own hand,
every card laid face up and when,
the counts, the trump once shown, and the voids revealed by play in phase 2
(a forced pickup means the player held no card that beats the top entry, under
``follow=void`` no higher card of its suit; a trump under ``follow=void`` means
no card of the led suit), as :func:`mattis.core.legal.revealed_absent` says.
What a mask cannot say (a forced pickup under ``follow=void``: a card of the
suit, or no trump) is left to pass 2, whose checked replay rejects the deal.

It works in two passes.  Pass 1 replays the public history on a trial deck;
whenever the history shows a card that the trial deal put elsewhere, that card
is swapped with a card that was never shown (both are unseen so far, so the
public past is unchanged).  Then every card still unseen is dealt afresh over
the places that hold unseen cards, respecting the voids.  Pass 2 replays the
history on the resulting deck with the ordinary engine, which checks it.

Pure: no I/O; randomness only from the ``rng`` argument.
"""

from __future__ import annotations

import random

from .cards import BIT, Card, cards_of, mask_of
from .legal import revealed_absent
from .moves import MoveKind
from .observation import Observation
from .state import IllegalMoveError, State
from .vocabulary import Phase

__all__ = ["DeterminizeError", "hidden_cards", "relabel_hidden", "sample_state"]


class DeterminizeError(ValueError):
    """No full state is consistent with the observation (or it came from a position)."""


class _Trial:
    """Pass 1: a trial deal being replayed, with swaps of unseen cards."""

    def __init__(self, state: State, deck: list[Card]) -> None:
        self.s = state
        self.deck = deck
        self.pos = {c: i for i, c in enumerate(deck)}

    def swap(self, x: Card, y: Card) -> None:
        """Exchange the places of two unseen cards in the trial state and the deck order."""
        if x == y:
            return
        self.s.exchange(x, y)
        px, py = self.pos[x], self.pos[y]
        self.deck[px], self.deck[py] = y, x
        self.pos[x], self.pos[y] = py, px


def _fixed_tail(obs: Observation) -> Card | None:
    """The card known to lie at the bottom of the deck (the trump card), if any."""
    if obs.trump_card is not None:
        return obs.trump_card
    return None


def _pass1(obs: Observation, rng: random.Random) -> tuple[_Trial, set[Card], list[int]]:
    """Replay the public history on a trial deal; return it, the cards shown so
    far, and for each seat the cards its hidden holding cannot contain."""
    rules = obs.rules
    n = obs.players
    deck = rules.deck()
    rng.shuffle(deck)
    tail = _fixed_tail(obs)
    if tail is not None:
        i = deck.index(tail)
        deck[i], deck[-1] = deck[-1], deck[i]
    s = State.from_deck(rules, n, deck, obs.dealer, obs.first_leader)
    trial = _Trial(s, deck)
    shown: set[Card] = set()
    if tail is not None:
        shown.add(tail)
    forbid = [0] * n
    for seat, move, cards in obs.history:
        if s.is_over:
            raise DeterminizeError("the history goes on after the game ended")
        if s.to_act != seat:
            raise DeterminizeError(f"history has seat {seat} acting where seat {s.to_act} should")
        phase = s.phase
        if phase is Phase.COLLECT and move.kind is MoveKind.CHANCE:
            if not s.stock:
                raise DeterminizeError("chance with an empty stock")
            top = s.stock[-1]
            x = cards[0]
            if top != x:
                if x in shown:
                    raise DeterminizeError("a chance card was already seen")
                trial.swap(x, top)
        elif move.kind is MoveKind.PLAY:
            hand = s.hands[seat]
            for x in move.cards:
                if hand & BIT[x]:
                    continue
                if x in shown:
                    raise DeterminizeError(f"card {x} shown twice")
                cand = [c for c in cards_of(s.hands[seat]) if c not in shown and c not in move.cards]
                if phase is not Phase.COLLECT:
                    cand = [c for c in cand if not forbid[seat] & BIT[c]]
                if not cand:
                    raise DeterminizeError("no unseen card to trade for a played card")
                trial.swap(x, rng.choice(cand))
                hand = s.hands[seat]
        if phase is Phase.SHED:
            forbid[seat] |= revealed_absent(move, s.table[-1][1] if s.table else None, s.trump, rules)
        # Hidden cards in this trial deal may make a forced move look optional (or a
        # void look broken); the final deal below respects the voids, pass 2 checks it.
        s.force(move)
        shown.update(cards)
    return trial, shown, forbid


def _unseen_places(s: State, shown: set[Card]) -> list[tuple[Card, int]]:
    """Every card not shown yet, with where it lies: a seat, or -1 elsewhere."""
    out: list[tuple[Card, int]] = []
    for seat, h in enumerate(s.hands):
        for c in cards_of(h):
            if c not in shown:
                out.append((c, seat))
    rest = mask_of(s.stock) | s.aside
    if s.phase is Phase.COLLECT and s.trump_card >= 0:
        rest |= BIT[s.trump_card]
    for c in cards_of(rest):
        if c not in shown:
            out.append((c, -1))
    return out


def sample_state(obs: Observation, rng: random.Random, tries: int = 20) -> State:
    """A full state consistent with everything ``obs.seat`` has seen.

    Raises :class:`DeterminizeError` if the game began from a position (no deck
    to sample) or no consistent state is found.
    """
    if not obs.history and obs.phase is not Phase.COLLECT:
        raise DeterminizeError("cannot sample a game that started from a position")
    last: Exception | None = None
    for _ in range(tries):
        try:
            return _sample_once(obs, rng)
        except (DeterminizeError, IllegalMoveError) as e:
            last = e
    raise DeterminizeError(f"no consistent state found: {last}")


def _sample_once(obs: Observation, rng: random.Random) -> State:
    trial, shown, forbid = _pass1(obs, rng)
    s = trial.s
    me = obs.seat
    places = _unseen_places(s, shown)
    # Cards the seat knows the place of: its own hand, and cards publicly known
    # to be in a hand (e.g. leftovers shown at the end of phase 1).
    fixed: list[list[Card]] = [[] for _ in range(obs.players)]
    fixed_set: set[Card] = set()
    for seat in range(obs.players):
        src = set(obs.known[seat]) | (set(obs.hand) if seat == me else set())
        fixed[seat] = [c for c in sorted(src) if c not in shown]
        fixed_set.update(fixed[seat])
    cards = [c for c, _ in places]
    slots = [p for _, p in places]
    for seat in range(obs.players):
        if len(fixed[seat]) > sum(1 for p in slots if p == seat):
            raise DeterminizeError("known cards do not fit the replayed hand")
    pool = [c for c in cards if c not in fixed_set]
    rng.shuffle(pool)
    assign: dict[int, Card] = {}
    free: list[int] = []
    for seat in range(obs.players):
        idx = [i for i, p in enumerate(slots) if p == seat]
        for i, c in zip(idx, fixed[seat], strict=False):
            assign[i] = c
        free.extend(idx[len(fixed[seat]):])
    free.extend(i for i, p in enumerate(slots) if p < 0)
    # Deal the rest over the free places: the most constrained seats first.
    free.sort(key=lambda i: -forbid[slots[i]].bit_count() if slots[i] >= 0 else 1)
    for i in free:
        p = slots[i]
        bad = forbid[p] if p >= 0 else 0
        if bad:
            ok = [k for k, c in enumerate(pool) if not bad & BIT[c]]
            if not ok:
                raise DeterminizeError("the voids cannot be satisfied")
            k = rng.choice(ok)
        else:
            k = len(pool) - 1
        assign[i] = pool[k]
        pool[k] = pool[-1]
        pool.pop()
    mapping = {cards[i]: assign[i] for i in range(len(cards))}
    deck = [mapping.get(c, c) for c in trial.deck]
    out = State.from_deck(obs.rules, obs.players, deck, obs.dealer, obs.first_leader)
    for _seat, move, _cards in obs.history:
        out.apply(move)
    return out


def relabel_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` whose cards hidden from ``seat`` are dealt afresh (for
    information-boundary tests): the seat's observation is unchanged."""
    return sample_state(state.observation(seat), rng)


def hidden_cards(obs: Observation) -> int:
    """A mask of the cards whose place ``obs.seat`` does not know."""
    seen = mask_of(obs.hand)
    for _seat, _move, cards in obs.history:
        seen |= mask_of(cards)
    if obs.trump_card is not None:
        seen |= BIT[obs.trump_card]
    return obs.rules.deck_mask() & ~seen
