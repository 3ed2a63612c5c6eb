"""Moves as values, and their text form.

A move is one of: ``play`` one card or a sequence (serie/rad), ``chance``
(sjanse: lay the top stock card) or ``pickup`` (take cards from the phase 2
table).  Moves carry no seat: the seat is whoever is to act.

>>> m = parse_move("play 5H 6H 7H")
>>> str(m), m.kind is MoveKind.PLAY, len(m.cards)
('play 5H 6H 7H', True, 3)
>>> parse_move("chance") is CHANCE
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .cards import Card, CardError, card_code, parse_card


class MoveError(ValueError):
    """A move text that cannot be read."""


class MoveKind(StrEnum):
    """What a move does."""

    PLAY = "play"
    """Lay one card, or a sequence (serie/rad) in phase 2."""
    CHANCE = "chance"
    """Sjanse: lay the top stock card (phase 1)."""
    PICKUP = "pickup"
    """Take cards from the phase 2 table instead of beating."""


@dataclass(frozen=True, slots=True)
class Move:
    """A move: its :class:`MoveKind`, and the cards it lays (``play`` only)."""

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    def __reduce__(self) -> tuple[Callable[[MoveKind, tuple[Card, ...]], Move], tuple[MoveKind, tuple[Card, ...]]]:
        """Pickle and copy to the one shared move of its kind and cards (see :func:`play`)."""
        return (_shared_move, (self.kind, self.cards))

    def __eq__(self, other: object) -> bool:
        """The same kind and cards (written out, so the compiled core compiles it: the
        dataclass's generated ``__eq__`` stays interpreted; legality checks compare moves)."""
        if self is other:
            return True
        if not isinstance(other, Move):
            return NotImplemented
        return self.kind is other.kind and self.cards == other.cards

    def __hash__(self) -> int:
        """The dataclass's hash, ``hash((kind, cards))``, written out with :meth:`__eq__`."""
        return hash((self.kind, self.cards))

    def __str__(self) -> str:
        if self.kind is MoveKind.PLAY:
            return "play " + " ".join(card_code(c) for c in self.cards)
        return self.kind.value

    @property
    def is_play(self) -> bool:
        return self.kind is MoveKind.PLAY


CHANCE: Final = Move(MoveKind.CHANCE)
PICKUP: Final = Move(MoveKind.PICKUP)
_SINGLE: Final[tuple[Move, ...]] = tuple(Move(MoveKind.PLAY, (c,)) for c in range(52))
_SEQ_CACHE: dict[tuple[Card, ...], Move] = {}


def play(*cards: Card) -> Move:
    """The move that lays ``cards`` (one card, or a sequence in rank order)."""
    if len(cards) == 1:
        return _SINGLE[cards[0]]
    key = tuple(sorted(cards))
    m = _SEQ_CACHE.get(key)
    if m is None:
        m = Move(MoveKind.PLAY, key)
        if len(_SEQ_CACHE) < 100_000:
            _SEQ_CACHE[key] = m
    return m


def _shared_move(kind: MoveKind, cards: tuple[Card, ...]) -> Move:
    """The shared move of ``kind`` and ``cards`` (what an unpickled move becomes)."""
    if kind is MoveKind.PLAY:
        return play(*cards)
    return CHANCE if kind is MoveKind.CHANCE else PICKUP


def parse_move(text: str) -> Move:
    """Read ``play 4C``, ``play 5H 6H 7H``, ``chance`` or ``pickup``."""
    words = text.split()
    if not words:
        raise MoveError("empty move")
    kind = words[0].lower()
    if kind in ("chance", "pickup"):
        if len(words) != 1:
            raise MoveError(f"{kind} takes no cards: {text!r}")
        return CHANCE if kind == "chance" else PICKUP
    if kind != "play":
        raise MoveError(f"unknown move {text!r} (use 'play CARD [CARD ...]', 'chance' or 'pickup')")
    if len(words) < 2:
        raise MoveError("play needs at least one card")
    try:
        cards = [parse_card(w) for w in words[1:]]
    except CardError as e:
        raise MoveError(str(e)) from None
    if len(set(cards)) != len(cards):
        raise MoveError(f"a card appears twice in {text!r}")
    return play(*cards)


def parse_record_move(text: str) -> tuple[int, Move]:
    """Read a record move ``"<seat> <move>"``."""
    seat_text, _, rest = text.strip().partition(" ")
    try:
        seat = int(seat_text)
    except ValueError:
        raise MoveError(f"a record move starts with the seat number: {text!r}") from None
    return seat, parse_move(rest)


def format_record_move(seat: int, move: Move) -> str:
    """``"<seat> <move>"``."""
    return f"{seat} {move}"
