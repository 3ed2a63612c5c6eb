"""Words for people: moves and events in Norwegian (bokmål) and English.

>>> from mattis.core.moves import parse_move
>>> describe_move("Bjørn", parse_move("play JC"), (9 + 0 * 13,), "nb")
'Bjørn legger kløver knekt'
>>> describe_move("Cato", parse_move("pickup"), (2,), "en")
'Cato picks up four of clubs'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from .cards import Card, Lang, card_name
from .moves import Move

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
    if move.kind == "chance":
        if lang == "nb":
            return f"{name} sjanser og snur {card_name(shown[0], lang)}" if shown else f"{name} sjanser"
        take = f"{name} take{s} a chance"
        return f"{take} and turn{s} up {card_name(shown[0], lang)}" if shown else take
    if move.kind == "pickup":
        pick = "pick" + s
        return (f"{name} tar inn {list_cards(shown, lang)}" if lang == "nb"
                else f"{name} {pick} up {list_cards(shown, lang)}")
    if len(move.cards) > 1:
        return (f"{name} legger serien {list_cards(move.cards, lang)}" if lang == "nb"
                else f"{name} lay{s} the sequence {list_cards(move.cards, lang)}")
    return (f"{name} legger {card_name(move.cards[0], lang)}" if lang == "nb"
            else f"{name} play{s} {card_name(move.cards[0], lang)}")


#: The engine's reasons for an illegal move (English, from ``State.why_illegal``) and
#: their Norwegian text; ``{0}`` stands for the pattern's group.
_REASONS_NB: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple((re.compile(p), nb) for p, nb in (
    (r"the game is over", "spillet er over"),
    (r"there is nothing to pick up in phase 1", "det er ingenting å ta opp i fase 1"),
    (r"chance \(sjanse\) is not allowed in these rules", "sjanse er ikke lov med disse reglene"),
    (r"chance needs at least two cards in the stock", "sjanse krever minst to kort i bunken"),
    (r"chance is only allowed when you lead", "sjanse er bare lov når du spiller ut"),
    (r"in phase 1 you lay one card at a time", "i fase 1 legger du ett kort om gangen"),
    (r"you do not hold (.+)", "du har ikke {0}"),
    (r"there is no chance \(sjanse\) in phase 2", "det er ingen sjanse i fase 2"),
    (r"there is nothing on the table to pick up", "det ligger ingenting på bordet å ta opp"),
    (r"you can beat the top entry, and these rules do not let you pick up instead",
     "du kan stikke over, og disse reglene lar deg ikke ta opp i stedet"),
    (r"sequences \(serie\) are not allowed in these rules", "serier er ikke lov med disse reglene"),
    (r"a sequence must be consecutive cards of one suit", "en serie må være kort på rad i samme farge"),
    (r"a sequence must be at least (\d+) cards long", "en serie må ha minst {0} kort"),
    (r"that entry cannot be led", "det kan ikke spilles ut"),
    (r"you can beat in the suit, so you must follow suit instead of trumping",
     "du kan stikke i fargen, så du må følge farge i stedet for å trumfe"),
    (r"it must be higher than (.+)", "det må være høyere enn {0}"),
    (r"you must follow suit with a higher card, or trump", "du må følge farge med et høyere kort, eller trumfe"),
    (r"illegal move", "ulovlig trekk"),
))


def translate_reason(reason: str, lang: Lang = "nb") -> str:
    """An illegal-move reason from the engine in ``lang`` (unknown ones stay as they are).

    >>> translate_reason("it must be higher than JC", "nb")
    'det må være høyere enn JC'
    """
    if lang == "en":
        return reason
    for pattern, nb in _REASONS_NB:
        m = pattern.fullmatch(reason)
        if m:
            return nb.format(*m.groups())
    return reason
