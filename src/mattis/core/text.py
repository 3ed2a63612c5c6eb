"""Words for people: moves and events in Norwegian (bokmål) and English.

>>> from mattis.core.moves import parse_move
>>> describe_move("Bjørn", parse_move("play JC"), (9 + 0 * 13,), "nb")
'Bjørn legger kløver knekt'
>>> describe_move("Cato", parse_move("pickup"), (2,), "en")
'Cato picks up four of clubs'
>>> describe_move("Cato", parse_move("pickup"), (2,), "nb")
'Cato tar opp kløver 4'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Card, Lang, card_name, card_symbol
from .catalogue import TEXT
from .moves import Move, MoveKind
from .rules import Rules, Ties
from .vocabulary import Illegal

DEFAULT_NAMES: Final = ("Anne", "Bjørn", "Cato", "Dina", "Eirik", "Frida")


def seat_names(players: int, human: int | None = None, lang: Lang = "en") -> list[str]:
    """Default names for the seats (the human seat is "you")."""
    names = list(DEFAULT_NAMES[:players])
    if human is not None:
        names[human] = "Du" if lang == "nb" else "You"
    return names


def as_object(name: str, lang: Lang = "en") -> str:
    """A seat name where it is the object of a sentence: the human's "Du" becomes
    "deg" ("mellom Cato og deg"), "You" becomes "you"; other names stay.

    >>> as_object("Du", "nb"), as_object("You", "en"), as_object("Cato", "nb")
    ('deg', 'you', 'Cato')
    """
    if lang == "nb":
        return "deg" if name == "Du" else name
    return "you" if name == "You" else name


def fight_term(rules: Rules) -> str:
    """What the fight over equal cards is called under ``rules``: the key of its
    ``term.*`` entry (``stoting`` under ``ties=stoting``, ``stunsa`` in Skitgubbe,
    else ``krig``).  Every front end asks this.

    >>> from .rules import preset
    >>> [fight_term(preset(name)) for name in ("mattis", "hund", "blodmattis", "skitgubbe")]
    ['krig', 'krig', 'stoting', 'stunsa']
    """
    if rules.ties is Ties.STOTING:
        return "stoting"
    return "stunsa" if rules.name == "skitgubbe" else "krig"


def fight_word(rules: Rules, lang: Lang = "en") -> str:
    """The fight's word under ``rules`` in ``lang``.

    >>> from .rules import preset
    >>> fight_word(preset("skitgubbe"), "nb"), fight_word(preset("mattis"), "en")
    ('stunsa', 'krig (war)')
    """
    return say(f"term.{fight_term(rules)}", lang)


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
        return (f"{name} tar opp {list_cards(shown, lang)}" if lang == "nb"
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
