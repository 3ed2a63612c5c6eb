"""Cards, suits, ranks and their notation.

A card is a plain ``int`` from 0 to 51: ``suit * 13 + rank``, where rank 0 is
the two and rank 12 the ace, and suits are ordered clubs, diamonds, hearts,
spades (``C D H S``).  Sets of cards are bit masks (bit ``card`` set), which
keeps states small and cheap to copy.

>>> parse_card("4C"), card_code(parse_card("10s")), card_code(parse_card("♠9"))
(2, 'TS', '9S')
>>> card_name(parse_card("JC"), "nb"), card_name(parse_card("JC"), "en")
('kløver knekt', 'jack of clubs')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

Card = int
"""A card: ``suit * 13 + rank`` (0..51)."""

Lang = Literal["nb", "en"]

SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "23456789TJQKA"
SUIT_SYMBOLS: Final = "♣♦♥♠"

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

RANK: Final[tuple[int, ...]] = tuple(c % 13 for c in range(52))
SUIT: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(52))
FULL_DECK_MASK: Final = (1 << 52) - 1
SUIT_MASK: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))

SUIT_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "nb": ("kløver", "ruter", "hjerter", "spar"),
    "en": ("clubs", "diamonds", "hearts", "spades"),
}
RANK_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "nb": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "knekt", "dame", "konge", "ess"),
    "en": ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "jack", "queen", "king", "ace"),
}

_SYMBOL_TO_LETTER: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S",
                            "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


class CardError(ValueError):
    """A card code that cannot be read."""


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = two .. 12 = ace) and ``suit`` (0..3)."""
    return suit * 13 + rank


def parse_card(text: str) -> Card:
    """Read a card code: ``4C``, ``TS``, ``10S``, ``ah``, ``♠9`` or ``9♠``."""
    raw = text.strip()
    s = raw.upper()
    for sym, letter in _SYMBOL_TO_LETTER.items():
        if s.startswith(sym):
            s = s[len(sym):] + letter
        elif s.endswith(sym):
            s = s[: -len(sym)] + letter
    if len(s) < 2:
        raise CardError(f"not a card: {text!r} (write rank then suit, e.g. 4C, TS, 10S, AH)")
    rank_text, suit_text = s[:-1], s[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_LETTERS:
        raise CardError(f"not a card: {text!r} (rank must be one of 2-9, T or 10, J, Q, K, A)")
    if suit_text not in SUIT_LETTERS:
        raise CardError(f"not a card: {text!r} (suit must be one of C, D, H, S)")
    return make_card(RANK_LETTERS.index(rank_text), SUIT_LETTERS.index(suit_text))


def card_code(card: Card) -> str:
    """The canonical code of a card: rank letter then suit letter (``TS``)."""
    return RANK_LETTERS[RANK[card]] + SUIT_LETTERS[SUIT[card]]


def card_symbol(card: Card) -> str:
    """A short display form with the Unicode suit: ``10♠``."""
    r = RANK_LETTERS[RANK[card]]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[SUIT[card]]


def card_name(card: Card, lang: Lang = "en") -> str:
    """The card in words: ``kløver knekt`` (nb) or ``jack of clubs`` (en)."""
    suit = SUIT_NAMES[lang][SUIT[card]]
    rank = RANK_NAMES[lang][RANK[card]]
    return f"{suit} {rank}" if lang == "nb" else f"{rank} of {suit}"


def suit_name(suit: int, lang: Lang = "en") -> str:
    """The suit in words."""
    return SUIT_NAMES[lang][suit]


def parse_suit(text: str) -> int:
    """Read a suit letter or symbol (``S``, ``s``, ``♠``)."""
    t = _SYMBOL_TO_LETTER.get(text.strip(), text.strip().upper())
    if len(t) != 1 or t not in SUIT_LETTERS:
        raise CardError(f"not a suit: {text!r} (use C, D, H or S)")
    return SUIT_LETTERS.index(t)


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, lowest card code first (suit, then rank)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate over the cards of a bit mask."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Sort for phase 1, where only rank matters (suit breaks ties)."""
    return sorted(cards, key=lambda c: (RANK[c], SUIT[c]))


def sort_for_phase2(cards: Iterable[Card], trump: int | None) -> list[Card]:
    """Sort by suit then rank, trumps last."""
    return sorted(cards, key=lambda c: (SUIT[c] == trump, SUIT[c], RANK[c]))


def sequence_spans(bits: int, min_len: int) -> list[tuple[int, int]]:
    """Every run of ``min_len`` or more consecutive ranks in a 13-bit suit field, as
    ``(lowest rank, one past the highest)``: the sequences (serie/rad) that can be laid."""
    spans: list[tuple[int, int]] = []
    r = 0
    while bits >> r:
        if not (bits >> r) & 1:
            r += 1
            continue
        start = r
        while (bits >> r) & 1:
            r += 1
        for a in range(start, r):
            for b in range(a + min_len, r + 1):
                spans.append((a, b))
    return spans


def full_deck() -> list[Card]:
    """The 52 cards in a fixed order."""
    return list(range(52))
