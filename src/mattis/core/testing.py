"""Referee tools for tests: card accounting and renaming cards.

Tests and the information-boundary checks use these instead of reaching into a
state's fields; positions are set up with :mod:`mattis.core.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BIT, SUIT, Card, mask_of
from .legal import repetition_key
from .moves import Move, play
from .rules import Trump
from .state import LogCell, State
from .vocabulary import Phase

__all__ = ["all_card_masks", "relabelled"]


def all_card_masks(state: State) -> list[int]:
    """Every place a card can be (for accounting checks): hands, piles, stock,
    table, set aside, out of play, the face-down trump card."""
    s = state
    masks = list(s.hands) + list(s.piles)
    masks.append(mask_of(s.stock))
    masks.append(mask_of(c for _, c in s.trick))
    for _, e in s.table:
        masks.append(mask_of(e))
    masks.append(s.aside)
    masks.append(s.out)
    if s.rules.trump is Trump.LAST_CARD and s.phase is Phase.COLLECT and s.trump_card >= 0:
        masks.append(BIT[s.trump_card])
    return masks


def relabelled(state: State, perm: Sequence[Card]) -> State:
    """A copy with every card ``c`` renamed ``perm[c]`` everywhere (hands, piles,
    stock, table, set-aside and out-of-play cards, trump card, public knowledge,
    history, the deck).  Swapping two cards a seat cannot see must leave that
    seat's observation unchanged."""
    if sorted(perm) != list(range(52)):
        raise ValueError("perm must be a permutation of the 52 cards")
    p = list(perm)

    def rm(mask: int) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << p[low.bit_length() - 1]
            mask ^= low
        return out

    def rmove(m: Move) -> Move:
        return play(*(p[c] for c in m.cards)) if m.cards else m

    c = state.clone()
    c.deck = tuple(p[x] for x in state.deck) if state.deck is not None else None
    c.position = None
    c.hands = [rm(h) for h in state.hands]
    c.piles = [rm(h) for h in state.piles]
    c.stock = [p[x] for x in state.stock]
    c.aside = rm(state.aside)
    c.out = rm(state.out)
    if state.trump_card >= 0:
        c.trump_card = p[state.trump_card]
        if state.trump >= 0:
            c.trump = SUIT[c.trump_card]
    c.trick = [(s, p[x]) for s, x in state.trick]
    c.round_laid = [(s, p[x]) for s, x in state.round_laid]
    if state.last_trick is not None:
        c.last_trick = (state.last_trick[0], tuple(p[x] for x in state.last_trick[1]))
    c.table = [(s, tuple(p[x] for x in e)) for s, e in state.table]
    c.known = [rm(k) for k in state.known]
    cells = []
    cell = state.log
    while cell is not None:
        cells.append(cell)
        cell = cell[0]
    log: LogCell | None = None
    for _, seat, mv, shown in reversed(cells):
        log = (log, seat, rmove(mv), tuple(p[x] for x in shown))
    c.log = log
    c._hist = (None, ())
    c.rep = {}
    probe = c.clone()
    n = state.n
    for key, v in state.rep.items():
        turn, need, in_game, pending = (k for k in key[:4] if isinstance(k, int))
        hands = [k for k in key[4:4 + n] if isinstance(k, int)]
        table = [k for k in key[4 + n:] if isinstance(k, tuple)]
        probe._turn = turn
        probe.hands = [rm(h) for h in hands]
        probe.table = [(-1, tuple(p[x] for x in e)) for e in table]  # the key holds no seats
        probe.trick_need = need
        probe.in_game = in_game
        probe.pending = pending
        c.rep[repetition_key(probe)] = v
    c._legal = None
    return c
