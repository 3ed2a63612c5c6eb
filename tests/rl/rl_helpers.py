"""Shared helpers for the research-interface tests (tests/rl)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from mattis.core import Move, Rules, State, preset, verify

#: Rule sets that cover every action kind: chance, sequences of 2 and 3, pick up first/last.
CONFIGS: list[tuple[Rules, int]] = [
    (preset("mattis"), 3),
    (preset("mattis"), 2),
    (preset("hund"), 5),
    (preset("blodmattis"), 4),
    (preset("skitgubbe", sequences=3), 3),
    (preset("mattis", sequences=2, pickup="lowest"), 4),
]


def random_game(rules: Rules, players: int, seed: int) -> tuple[State, list[Move]]:
    """A finished game of random legal moves, and its moves."""
    s = State.new(rules, players, seed=seed)
    rng = random.Random(seed)
    moves: list[Move] = []
    while not s.is_over:
        mv = rng.choice(s.legal_moves())
        s.apply(mv)
        moves.append(mv)
    return s, moves


def replay(rules: Rules, players: int, deck: list[int], moves: list[Move]) -> State | None:
    """The game from ``deck`` after ``moves``; ``None`` if a move is illegal there."""
    s = State.from_deck(rules, players, deck, 0)
    for mv in moves:
        if verify(s, mv) is not None:
            return None
        s.apply(mv)
    return s


def seen_by(s: State, seat: int) -> set[int]:
    """Every card ``seat`` has seen: its hand now and ever, public events, known hands."""
    seen: set[int] = set()
    obs = s.observation(seat)
    seen.update(obs.hand)
    for k in obs.known:
        seen.update(k)
    for p in obs.piles:
        seen.update(p)
    for _, mv, shown in obs.history:
        seen.update(shown)
        seen.update(mv.cards)
    if obs.trump_card is not None:
        seen.add(obs.trump_card)
    return seen


def hidden_swaps(s: State, moves: list[Move], seat: int, rng: random.Random,
                 own_hands: list[set[int]]) -> Iterator[tuple[list[int], State]]:
    """Decks that differ from ``s.deck`` by swapping two cards ``seat`` never saw, with
    the game replayed under the same moves (swaps that make a move illegal are skipped).
    ``own_hands`` holds every card ``seat`` ever held."""
    assert s.deck is not None
    deck = list(s.deck)
    never = sorted(set(range(52)) - seen_by(s, seat) - own_hands[seat])
    for _ in range(30):
        if len(never) < 2:
            return
        a, b = rng.sample(never, 2)
        d = deck[:]
        i, j = d.index(a), d.index(b)
        d[i], d[j] = d[j], d[i]
        t = replay(s.rules, s.players, d, moves)
        if t is not None:
            yield d, t
