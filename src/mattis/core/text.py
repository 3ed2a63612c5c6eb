"""Words for people: moves and events in Norwegian (bokmål) and English.

>>> from mattis.core.moves import parse_move
>>> describe_move("Bjørn", parse_move("play JC"), (9 + 0 * 13,), "nb")
'Bjørn legger kløver knekt'
>>> describe_move("Cato", parse_move("pickup"), (2,), "en")
'Cato picks up four of clubs'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Card, Lang, card_name, card_symbol
from .catalogue import TEXT
from .moves import Move, MoveKind
from .vocabulary import Illegal

DEFAULT_NAMES: Final = ("Anne", "Bjørn", "Cato", "Dina", "Eirik", "Frida")


def seat_names(players: int, human: int | None = None, lang: Lang = "en") -> list[str]:
    """Default names for the seats (the human seat is "you")."""
    names = list(DEFAULT_NAMES[:players])
    if human is not None:
        names[human] = "Du" if lang == "nb" else "You"
    return names


def list_cards(cards: Sequence[Card], lang: Lang) -> str:
    names = [card_name(c, lang) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    joiner = " og " if lang == "nb" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def describe_move(name: str, move: Move, shown: Sequence[Card], lang: Lang = "en") -> str:
    """One move in words, as a log line (English verbs agree with "You")."""
    s = "" if name in ("You", "you") else "s"
    if move.kind is MoveKind.CHANCE:
        if lang == "nb":
            return f"{name} sjanser og snur {card_name(shown[0], lang)}" if shown else f"{name} sjanser"
        take = f"{name} take{s} a chance"
        return f"{take} and turn{s} up {card_name(shown[0], lang)}" if shown else take
    if move.kind is MoveKind.PICKUP:
        pick = "pick" + s
        return (f"{name} tar inn {list_cards(shown, lang)}" if lang == "nb"
                else f"{name} {pick} up {list_cards(shown, lang)}")
    if len(move.cards) > 1:
        return (f"{name} legger serien {list_cards(move.cards, lang)}" if lang == "nb"
                else f"{name} lay{s} the sequence {list_cards(move.cards, lang)}")
    return (f"{name} legger {card_name(move.cards[0], lang)}" if lang == "nb"
            else f"{name} play{s} {card_name(move.cards[0], lang)}")


def say(key: str, lang: Lang = "en", **params: object) -> str:
    """The catalogue's text for ``key`` in ``lang`` with ``params`` filled in.

    >>> say("reason.must_beat", "nb", cards="J♣")
    'det må være høyere enn J♣'
    """
    nb, en = TEXT[key]
    return (nb if lang == "nb" else en).format(**params)


def reason_text(illegal: Illegal, lang: Lang = "nb") -> str:
    """Why a move is illegal, for people: the catalogue's words, cards as on the cards.

    >>> from mattis.core.vocabulary import Reason
    >>> reason_text(Illegal(Reason.MUST_BEAT, cards=(9,)), "nb")
    'det må være høyere enn J♣'
    """
    cards = " ".join(card_symbol(c) for c in illegal.cards)
    return say(f"reason.{illegal.reason}", lang, cards=cards, number=illegal.number)
