"""Referee tools for tests: card accounting and renaming cards.

Tests and the information-boundary checks use these instead of reaching into a
state's fields; positions are set up with :mod:`mattis.core.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BIT, Card, mask_of
from .rules import Trump
from .state import State
from .vocabulary import Phase

__all__ = ["all_card_masks", "perft", "relabelled"]


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
    """A copy with every card ``c`` renamed ``perm[c]`` everywhere (see
    :meth:`State.relabelled`).  Swapping two cards a seat cannot see must leave that
    seat's observation unchanged."""
    return state.relabelled(perm)


def perft(state: State, depth: int) -> int:
    """The number of move sequences of ``depth`` moves from ``state`` (a finished game
    ends a sequence early and counts once), as chess engines' perft counts them: pinned
    for a few positions per option value, it pins move generation directly.

    >>> from mattis.core import parse_position, preset
    >>> s = parse_position(preset("mattis"), "2 dealer=0 trump=S hands=4C9C/JC2H/QS lead=0")
    >>> [perft(s, d) for d in range(4)]
    [1, 2, 2, 2]
    """
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        total += perft(child, depth - 1)
    return total
