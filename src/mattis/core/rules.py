"""The rule set as data: one frozen type, named presets, overrides.

Every option names the rule text(s) it comes from, by these short names (see
docs/rules.md, "The rule texts"): *Mattis (nb)* = "Regler for kortspillet Mattis"
(the traditional Norwegian text, with Hund); *Mattis (en)* = "Mattis Card Game
Rules" (the same in English, with Dog); *KortRegler* = "Spilleregler for Mattis –
KortRegler.no" and its forum thread; *the app* = "Mattis regler – også kjent som
Blodmattis" (the Mattis app's rule page); *Skitgubbe* = "Regler for kortspillet
Skitgubbe".

>>> r = preset("skitgubbe", sequences=3)
>>> r.pickup is Pickup.LAST, r.pickup == "last", r.sequences
(True, True, 3)
>>> rules_from_json(rules_to_json(r)) == r
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .catalogue import TEXT


class RulesError(ValueError):
    """An invalid rule set, option value or player count."""


class Tricks(StrEnum):
    """Phase 1 trick shape (see :attr:`Rules.tricks`)."""

    PAIR = "pair"
    ALL = "all"


class Ties(StrEnum):
    """A tie in phase 1 (see :attr:`Rules.ties`)."""

    WAR = "war"
    """A tie for the highest card is fought again ("Er de to kortene like høye, blir det
    krig. Begge legger ut et nytt kort, og den som nå har høyest, tar alle kortene",
    Regler for kortspillet Mattis)."""
    STOTING = "stoting"
    """Any rank laid twice among the first cards of a trick starts a fight; in the fight
    "den med høyeste kampkort tar alt. Er kampkortene også like, blir det ny støting
    mellom dem" (Mattis regler – også kjent som Blodmattis)."""


class Draw(StrEnum):
    """When hands are topped up in phase 1 (see :attr:`Rules.draw`)."""

    AFTER_CARD = "after_card"
    """Top up to three right after you lay ("Så lenge det er kort i trekkbunken, fyller du
    opp etter hver utspilling", Regler for kortspillet Mattis)."""
    AFTER_TRICK = "after_trick"
    """Everyone tops up after each trick, the winner first ("Etter hver bunke trekker alle
    opp til tre kort", Mattis regler – også kjent som Blodmattis)."""


class Chance(StrEnum):
    """When sjanse is allowed (see :attr:`Rules.chance`)."""

    OFF = "off"
    LEAD = "lead"
    ANY = "any"


class Trump(StrEnum):
    """How the trump (trumf) is chosen and shown (see :attr:`Rules.trump`)."""

    LAST_CARD = "last_card"
    """Whoever would draw the last stock card sets it aside face down; it is shown when
    phase 2 starts ("Trekker du det siste kortet i bunken, skal du ikke ta det opp på
    hånden. Kortet legges til side med baksiden opp", Regler for kortspillet Mattis)."""
    BOTTOM_UP = "bottom_up"
    """The bottom card is turned face up at the start and drawn last like any card ("Snu
    nederste kort i stokken; fargen blir trumf i fase 2", Mattis regler – også kjent som
    Blodmattis)."""
    SHOWN_WHEN_DRAWN = "shown_when_drawn"
    """The bottom card is drawn last like any card and shown when it is drawn, not at the
    start (the house rule "Tradisjonell krig": "Trumf vises når siste kort i stokken
    trekkes, ikke ved start", Mattis regler – også kjent som Blodmattis)."""


class Phase1End(StrEnum):
    """When phase 1 ends (see :attr:`Rules.phase1_end`)."""

    ONE_HOLDER = "one_holder"
    """Play goes on without drawing, skipping players with no cards, while two or more
    hold cards ("Spillet går videre så lenge minst to spillere har kort på hånden",
    Regler for kortspillet Mattis)."""
    FIRST_EMPTY = "first_empty"
    """Phase 1 ends when a player due to lay has no card ("Fase 1 slutter i det øyeblikket
    den som står for tur, ikke har noe kort å legge", Regler for kortspillet Skitgubbe)."""
    STOCK_EMPTY = "stock_empty"
    """Phase 1 ends when the stock is empty: the trick being played is finished, no new
    one begins, and the cards left in hand join the phase 2 hand ("Appens regelside sier
    bare at fase 1 slutter når stokken er tom"; "Kort du har igjen på hånden når fase 1
    slutter, blir med deg inn i fase 2", Mattis regler – også kjent som Blodmattis)."""


class EmptyHand(StrEnum):
    """A player with nothing at the start of phase 2 (see :attr:`Rules.empty_hand`)."""

    PICK_UP = "pick_up"
    LOSES = "loses"
    SAFE = "safe"


class Leader2(StrEnum):
    """Who leads phase 2 (see :attr:`Rules.leader2`)."""

    TRUMP_HOLDER = "trump_holder"
    LAST_TRICK = "last_trick"


class Follow(StrEnum):
    """What may beat an entry in phase 2 (see :attr:`Rules.follow`)."""

    FREE = "free"
    """Beat with a higher card of the suit or with trump, as you like ("Det gjør du med
    et høyere kort i samme sort, eller med en trumf når kortet ikke selv er trumf",
    Regler for kortspillet Skitgubbe; the traditional texts alike)."""
    VOID = "void"
    """Follow suit if you can: you may trump only when you hold no card of the led
    suit ("Følg farge hvis du kan", "stikk med trumf når du ikke har fargen", "Anne
    har ikke spar. Hun stikker med hjerter 2", Mattis regler – også kjent som
    Blodmattis).  Holding the suit but no higher card, you pick up."""


class GoingOut(StrEnum):
    """When a player with an empty hand is out in phase 2 (see :attr:`Rules.going_out`)."""

    LAID = "laid"
    """Out as soon as she lays her last card ("Når du har lagt ditt siste kort, er du
    trygg", Regler for kortspillet Skitgubbe; the traditional texts alike)."""
    CLEARED = "cleared"
    """Out when her hand is empty and the entry she laid last can no longer be picked up:
    when the trick holding it is cleared ("En spiller er ute når hånden er tom og det
    siste kortet spilleren la, ikke blir tatt opp igjen", Mattis regler – også kjent som
    Blodmattis).  If it is picked up she stays in, empty-handed, and must pick up on
    her turn ("Har spilleren ingen kort, må spilleren ta opp et kort fra bordet")."""
    HOLDERS = "holders"
    """As ``cleared``, read with the sentence after it: "Spillet fortsetter til bare én
    spiller har kort igjen" (Mattis regler – også kjent som Blodmattis).  A player waiting
    to go out, or left empty-handed, has no cards: the game ends as soon as only one
    player still in holds cards (she is the Mattis), and under ``trick_size="active"``
    only the players holding cards are the "aktive spillere" that complete a trick."""


class Pickup(StrEnum):
    """What a player takes who does not beat (see :attr:`Rules.pickup`)."""

    FIRST = "first"
    LAST = "last"
    LOWEST = "lowest"


class TrickSize(StrEnum):
    """Entries that complete a phase 2 trick (see :attr:`Rules.trick_size`)."""

    START = "start"
    ACTIVE = "active"
    SEATED = "seated"


class EmptyFighter(StrEnum):
    """An empty-handed player due to lay in phase 1 (see :attr:`Rules.empty_fighter`)."""

    CHANCE = "chance"
    DROP = "drop"


class NextLeader(StrEnum):
    """Who leads the first trick of the next game of a sitting (see :attr:`Rules.next_leader`)."""

    LEFT_OF_DEALER = "left_of_dealer"
    """The player left of the dealer, as in every game ("Spilleren til venstre for giveren
    begynner", Regler for kortspillet Mattis, Regler for kortspillet Skitgubbe)."""
    LOSER = "loser"
    """The last game's loser ("mange lar taperen spille ut første stikk neste gang", Regler
    for kortspillet Skitgubbe)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One variant of the Mattis family.  Build it with :func:`preset`."""

    name: str = "mattis"
    """The preset this rule set starts from (for display and records)."""

    min_players: int = 2
    """Fewest players (Mattis (nb/en), KortRegler: 2-6; the app: 3-6; Skitgubbe: 2-4)."""

    max_players: int = 6
    """Most players (Mattis (nb/en), KortRegler: 6; Skitgubbe: "Fem eller seks går med
    varianten der alle legger kort i hvert stikk")."""

    max_pair_players: int = 6
    """Most players when ``tricks="pair"`` (Skitgubbe: 2-4 with pair tricks, 5-6 need all-play)."""

    two_player_discard: int = 10
    """Cards set aside unseen when two play (Mattis (nb/en), KortRegler: ten; the app has no
    2-player game; Skitgubbe's stock table is missing, so no source sets cards aside there)."""

    tricks: Tricks = Tricks.PAIR
    """Phase 1 trick shape.  ``pair``: lead to the left neighbour, who answers
    (Mattis (nb/en), KortRegler, Skitgubbe); ``all``: everyone lays one card, clockwise from
    the leader (Hund/Dog in Mattis (nb/en), the app)."""

    ties: Ties = Ties.WAR
    """``war`` (krig/stunsa: Mattis (nb/en), KortRegler, Skitgubbe): a tie for the highest card
    is fought again by the tied players; ``stoting`` (støting, the app): any rank laid twice among the first cards
    of a trick starts a fight among those who laid the highest such rank, even when a
    higher card lies there.  In a fight round, under both values, the highest fight card
    takes all and only a tie for it fights again (the app: "den med høyeste kampkort tar alt.
    Er kampkortene også like, blir det ny støting mellom dem")."""

    draw: Draw = Draw.AFTER_CARD
    """``after_card``: top up to 3 right after you lay (all but the app, and Hund/Dog, which
    differs from Mattis only in the first round: "Forskjellen ligger i første runde");
    ``after_trick``: after each trick, the winner first, then clockwise (the app)."""

    chance: Chance = Chance.LEAD
    """Sjanse (chance): lay the top stock card instead of a hand card.  ``off`` (the app),
    ``lead`` (only when leading: the trick's first card, and every fighter's card in a
    krig, "Begge legger ut et nytt kort": Mattis (nb/en), KortRegler), ``any`` (whenever you
    lay: Skitgubbe).
    Never with fewer than two cards in the stock where the last card is the hidden trump
    (``trump=last_card``; Skitgubbe: "bare lov så lenge det ligger mer enn ett kort"); with the
    other trump values the last card is an ordinary card and may be taken too."""

    trump: Trump = Trump.LAST_CARD
    """Trumf.  ``last_card``: whoever would draw the last stock card sets it aside face down,
    shown when phase 2 starts (all but the app); ``bottom_up``: the bottom card is turned
    face up at the start and drawn last like any card (the app); ``shown_when_drawn``: drawn
    last like any card, shown when drawn (the app's house rule "Tradisjonell krig")."""

    phase1_end: Phase1End = Phase1End.ONE_HOLDER
    """``one_holder``: play goes on, skipping players with no cards, while two or more hold
    cards (Mattis (nb/en), KortRegler); ``first_empty``: phase 1 ends as soon as a player due
    to lay has no card (the app "til en spiller er tom", Skitgubbe "den som står for tur,
    ikke har noe kort");
    ``stock_empty``: phase 1 ends once the stock is empty and the trick being played is
    done (the app's own rule)."""

    empty_hand: EmptyHand = EmptyHand.PICK_UP
    """A player with nothing at the start of phase 2.  ``pick_up``: stays in and must pick up
    and lay at least once (bordmattis: Mattis (nb), KortRegler; blåmattis: Mattis (en));
    ``loses``: won no trick in phase 1 and loses at once, even with cards in hand
    (Blodmattis, the app); ``safe``: finished, skips phase 2 (Skitgubbe "er du ferdig og
    slipper fase 2")."""

    leader2: Leader2 = Leader2.TRUMP_HOLDER
    """Who leads phase 2: ``trump_holder`` (every text) or ``last_trick`` (the GameRules
    variant the app quotes: "GameRules lar i stedet den som vant siste stikk i fase 1
    begynne")."""

    follow: Follow = Follow.FREE
    """``free``: beat with a higher card of the suit or with trump (all but the app);
    ``void``: follow suit if you can, trump only when you hold none of the led suit (the app
    "Følg farge hvis du kan", "stikk med trumf når du ikke har fargen").  The former
    ``suit_first`` (no trump while you can beat in the suit) has no source and is gone:
    a record naming it is refused with a pointer to ``void``."""

    pickup: Pickup = Pickup.FIRST
    """What you take when you do not beat.  ``first``: the first entry of the trick
    (undertrekk: Mattis (nb/en), KortRegler; the app "det eldste kortet eller raden");
    ``last``: the top entry, and with sequences the whole run of consecutive same-suit cards
    at the top (Skitgubbe);
    ``lowest``: the entry holding the lowest card by face value, trumps included (Denexa/
    GameRules, quoted by the app; KortRegler's forum)."""

    pickup_optional: bool = False
    """May you pick up although you could beat (the app "Kan eller vil du ikke stikke",
    Skitgubbe "Du kan alltid ta opp", KortRegler's forum)?"""

    pickup_run: bool = True
    """With ``pickup="last"`` and sequences: does a pickup take the whole run of
    consecutive same-suit cards on top, whoever laid them ("Med serier tar de fleste også
    opp sammenhengende kort", Regler for kortspillet Skitgubbe), or only the top entry, as
    the others do (the same text: "de fleste", so not all)?"""

    trick_size: TrickSize = TrickSize.START
    """Entries that complete a phase 2 trick.  ``start``: players still in when the trick
    began (KortRegler's forum, Skitgubbe "da stikket begynte"; and the natural reading of
    Mattis (nb/en) "spillere ved bordet"); ``active``: players still in, counted now (the app
    "aktive spillere"); ``seated``: everyone at the table, finished or not (the literal
    reading of "spillere ved bordet", which no text plays out)."""

    going_out: GoingOut = GoingOut.LAID
    """When an empty-handed player is out in phase 2.  ``laid``: when she lays her last
    card (all but the app); ``cleared``: when the trick holding the entry she laid last is
    cleared, so it can no longer be picked up (the app "En spiller er ute når hånden er tom og
    det siste kortet spilleren la, ikke blir tatt opp igjen").  Until then she is still in
    (she counts under ``trick_size="active"``); if that entry is picked up she stays in,
    empty-handed, and on her turn she must pick up.  Players whose entries are cleared
    together go out in the order the entries were laid; when only one player is left in,
    she is the Mattis.  ``holders`` (the app, the blodmattis preset): ``cleared`` with the
    sentence that follows it, "Spillet fortsetter til bare én spiller har kort igjen": the
    game ends when only one player still in holds cards, and only players holding cards
    count under ``trick_size="active"``."""

    sequences: int = 0
    """Minimum length of a sequence (serie/rad: consecutive cards of one suit laid as one
    entry) in phase 2; 0 = not allowed.  2 (the app; optional in the others), 3 ("Noen bord
    krever at en serie er på minst tre kort", Mattis (nb/en))."""

    empty_fighter: EmptyFighter = EmptyFighter.CHANCE
    """A player due to lay in phase 1 with an empty hand while the stock holds a card she may
    take (two or more with ``trump="last_card"``, where the last is the hidden trump, else
    one or more; possible with ``draw="after_trick"``, in a krig/støting).  The app lists this as an
    open point ("Hva som skjer i en støting hvis en spiller ikke har kort igjen på hånden
    til kampkort").  ``chance``: she lays the top stock card (a forced sjanse, whatever
    ``chance`` says); ``drop``: she cannot lay, as when the stock is empty (she drops out of
    the fight, or with ``first_empty`` phase 1 ends)."""

    next_leader: NextLeader = NextLeader.LEFT_OF_DEALER
    """Who leads the first trick of the next game in a sitting (the loser of a game deals
    the next).  ``left_of_dealer``: the player left of the dealer, as in every game
    ("Spilleren til venstre for giveren begynner", Regler for kortspillet Skitgubbe);
    ``loser``: the last game's loser leads ("mange lar taperen spille ut første stikk
    neste gang", the same text).  The first game of a sitting, and a game after one
    without a loser, starts left of the dealer."""

    leftovers_shown: bool = False
    """Cards still in hand when phase 1 ends are shown to everyone before they join the
    phase 2 hand (Skitgubbe "viser de dem fram"); otherwise they join it face down (Mattis
    (nb/en), KortRegler)."""

    phase2_cap: int = 10000
    """Moves after which phase 2 is stopped and the players still in are ranked by cards
    held (a guarantee that every game ends; no rule text has it)."""

    deck_ranks: int = 13
    """How many ranks the deck keeps, counted down from the ace: 13 is the whole deck
    (2 to A), 3 keeps Q K A.  Every rule text plays the 52 cards; a short deck is
    where the engine goes beyond the texts, for research (a game small enough for
    exact game theory, the ``mini`` preset).  Cards keep their numbers: a short deck
    is a subset of the 52."""

    deck_suits: int = 4
    """How many suits the deck keeps, counted down from spades (♣ ♦ ♥ ♠): 4 is the whole
    deck, 2 keeps ♥ and ♠ (research only, as :attr:`deck_ranks`)."""

    hand_size: int = 3
    """Cards dealt to each player, and the hand topped up to in phase 1 (every text:
    "Giveren deler tre kort til hver", Regler for kortspillet Mattis); fewer only for a short
    deck (research only, as :attr:`deck_ranks`)."""

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickle and copy by the constructor (the compiled core's frozen classes have no
        ``__setstate__``)."""
        return (Rules, tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    def allowed_players(self) -> range:
        """The player counts this rule set allows (with a short deck, only those whose
        deal leaves a stock of one card or more)."""
        hi = self.max_players if self.tricks is Tricks.ALL else min(self.max_players, self.max_pair_players)
        lo = self.min_players
        size = self.deck_ranks * self.deck_suits
        while hi >= lo and hi * self.hand_size + (self.two_player_discard if hi == 2 else 0) >= size:
            hi -= 1
        while lo <= hi and lo * self.hand_size + (self.two_player_discard if lo == 2 else 0) >= size:
            lo += 1
        return range(lo, hi + 1)

    def deck(self) -> list[int]:
        """The cards of the deck, lowest card number first (``range(52)`` for the whole
        deck; a short deck keeps the top :attr:`deck_ranks` ranks of the top
        :attr:`deck_suits` suits, with their numbers)."""
        if self.deck_ranks == 13 and self.deck_suits == 4:
            return list(range(52))
        return [s * 13 + r for s in range(4 - self.deck_suits, 4) for r in range(13 - self.deck_ranks, 13)]

    def deck_mask(self) -> int:
        """The mask of the deck's cards (every bit of the 52 for the whole deck)."""
        m = 0
        for c in self.deck():
            m |= 1 << c
        return m

    def full_deck(self) -> bool:
        """Whether the deck is the whole 52 cards."""
        return self.deck_ranks == 13 and self.deck_suits == 4

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless ``players`` may play this rule set."""
        allowed = self.allowed_players()
        if players not in allowed:
            extra = ""
            if self.tricks is Tricks.PAIR and players <= self.max_players and players > self.max_pair_players:
                extra = f" ({players} players need tricks=all)"
            raise RulesError(
                f"{self.name} allows {allowed.start}-{allowed.stop - 1} players; {players} given{extra}"
            )

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS.get(self.name) or RESEARCH_PRESETS.get(self.name) or Rules()
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        }

    def describe(self) -> list[tuple[str, str]]:
        """Every option and its value, for display."""
        return [(f.name, str(getattr(self, f.name))) for f in dataclasses.fields(self)]


#: The parts of the engine an option can reach (:attr:`OptionSpec.reaches`).
PHASE1_FLOW: Final = "phase1_flow"
"""The phase-1 machine in ``core/state.py``: dealing, tricks, fights, drawing, its end."""
PHASE2_LEGAL: Final = "phase2_legal"
"""What may be laid or picked up in phase 2 (``core/legal.py``)."""
PHASE2_FLOW: Final = "phase2_flow"
"""The phase-2 machine in ``core/state.py``: who leads, tricks, who is out."""
DETERMINIZER: Final = "determinizer"
"""What a move reveals, which the determinizer uses to place hidden cards."""
SOLVER: Final = "solver"
"""The 2-player phase-2 solver's own move generator (``bots/solver.py``)."""
SITTING: Final = "sitting"
"""Only the next game of a sitting (``play/sitting.py``)."""
REACHES: Final[tuple[str, ...]] = (PHASE1_FLOW, PHASE2_LEGAL, PHASE2_FLOW, DETERMINIZER, SOLVER, SITTING)

WORD: Final = "word"
BOOL: Final = "bool"
INT: Final = "int"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option, declared once: everything that iterates options reads this."""

    name: str
    """The :class:`Rules` field (and the key in records and ``--set``)."""
    kind: str
    """``word`` (a :class:`~enum.StrEnum`), ``bool`` or ``int``."""
    values: tuple[Any, ...]
    """The values offered and tested: every word of the enum, ``(False, True)``, or the
    whole numbers offered (for ``sequences``: 0 and the lengths a table may ask)."""
    default: Any
    """The value of ``Rules()``."""
    source: str
    """The rule text(s) the option comes from, by title, with a quote."""
    reaches: tuple[str, ...]
    """The parts of the engine it changes (:data:`REACHES`)."""
    enum: type[StrEnum] | None = None
    """The value type of a ``word`` option."""
    shown: bool = True
    """Shown to players (in the rules in words and the settings)."""
    house: bool = True
    """Offered as a house rule (terminal settings, web create form, game strings)."""


_D = Rules()


def _word(enum: type[StrEnum], name: str, source: str, *reaches: str) -> OptionSpec:
    return OptionSpec(name, WORD, tuple(v.value for v in enum), getattr(_D, name), source, reaches, enum)


def _flag(name: str, source: str, *reaches: str) -> OptionSpec:
    return OptionSpec(name, BOOL, (False, True), getattr(_D, name), source, reaches)


def _int(name: str, values: tuple[int, ...], source: str, *reaches: str, shown: bool = True,
         house: bool = False) -> OptionSpec:
    return OptionSpec(name, INT, values, getattr(_D, name), source, reaches, None, shown, house)


_BEYOND: Final = "Where the engine goes beyond the texts"

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    _int("min_players", (2, 3), "Regler for kortspillet Mattis: 2-6; Mattis regler – også kjent som Blodmattis: "
         "3-6", PHASE1_FLOW),
    _int("max_players", (4, 6), "Regler for kortspillet Mattis: 2-6", PHASE1_FLOW),
    _int("max_pair_players", (4, 6), "Regler for kortspillet Skitgubbe: \"Fem eller seks går med varianten der "
         "alle legger kort i hvert stikk\"", PHASE1_FLOW),
    _int("two_player_discard", (0, 10), "Regler for kortspillet Mattis: ten cards set aside when two play",
         PHASE1_FLOW),
    _word(Tricks, "tricks", "Regler for kortspillet Mattis (Hund: \"Forskjellen ligger i første runde\")",
          PHASE1_FLOW),
    _word(Ties, "ties", "Regler for kortspillet Mattis \"blir det krig\"; Mattis regler – også kjent som "
          "Blodmattis \"ny støting\"", PHASE1_FLOW),
    _word(Draw, "draw", "Regler for kortspillet Mattis \"fyller du opp etter hver utspilling\"; Mattis regler – "
          "også kjent som Blodmattis \"Etter hver bunke trekker alle opp til tre kort\"", PHASE1_FLOW, DETERMINIZER),
    _word(Chance, "chance", "Regler for kortspillet Skitgubbe \"bare lov så lenge det ligger mer enn ett kort\"",
          PHASE1_FLOW),
    _word(Trump, "trump", "Regler for kortspillet Mattis \"Kortet legges til side med baksiden opp\"; Mattis "
          "regler – også kjent som Blodmattis \"Snu nederste kort i stokken\"", PHASE1_FLOW, DETERMINIZER),
    _word(Phase1End, "phase1_end", "Regler for kortspillet Skitgubbe \"Fase 1 slutter i det øyeblikket den som "
          "står for tur, ikke har noe kort å legge\"", PHASE1_FLOW),
    _word(EmptyHand, "empty_hand", "Regler for kortspillet Skitgubbe \"er du ferdig og slipper fase 2\"",
          PHASE2_FLOW),
    _word(Leader2, "leader2", "Mattis regler – også kjent som Blodmattis \"GameRules lar i stedet den som vant "
          "siste stikk i fase 1 begynne\"", PHASE2_FLOW),
    _word(Follow, "follow", "Mattis regler – også kjent som Blodmattis \"Følg farge hvis du kan\"",
          PHASE2_LEGAL, DETERMINIZER, SOLVER),
    _word(Pickup, "pickup", "Regler for kortspillet Mattis (undertrekk); Regler for kortspillet Skitgubbe",
          PHASE2_LEGAL, SOLVER),
    _flag("pickup_optional", "Regler for kortspillet Skitgubbe \"Du kan alltid ta opp\"", PHASE2_LEGAL,
          DETERMINIZER, SOLVER),
    _flag("pickup_run", "Regler for kortspillet Skitgubbe \"Med serier tar de fleste også opp sammenhengende "
          "kort\"", PHASE2_LEGAL, SOLVER),
    _word(TrickSize, "trick_size", "Regler for kortspillet Skitgubbe \"da stikket begynte\"; Mattis regler – "
          "også kjent som Blodmattis \"aktive spillere\"", PHASE2_FLOW, SOLVER),
    _word(GoingOut, "going_out", "Mattis regler – også kjent som Blodmattis \"En spiller er ute når hånden er "
          "tom og det siste kortet spilleren la, ikke blir tatt opp igjen\"; (holders) \"Spillet fortsetter til "
          "bare én spiller har kort igjen\"", PHASE2_FLOW, SOLVER),
    _int("sequences", (0, 2, 3, 4, 5), "Regler for kortspillet Mattis \"Noen bord krever at en serie er på minst "
         "tre kort\"", PHASE2_LEGAL, SOLVER, house=True),
    _word(EmptyFighter, "empty_fighter", "Mattis regler – også kjent som Blodmattis \"Hva som skjer i en "
          "støting hvis en spiller ikke har kort igjen på hånden til kampkort\"", PHASE1_FLOW),
    _word(NextLeader, "next_leader", "Regler for kortspillet Skitgubbe \"mange lar taperen spille ut første "
          "stikk neste gang\"", SITTING),
    _flag("leftovers_shown", "Regler for kortspillet Skitgubbe \"viser de dem fram\"", PHASE1_FLOW,
          DETERMINIZER),
    _int("phase2_cap", (10000, 40), "no rule text: a guarantee that every game ends", PHASE2_FLOW, shown=False),
    _int("deck_ranks", (13, 7), _BEYOND + ": no rule text plays a short deck (research only: the mini preset)",
         PHASE1_FLOW, DETERMINIZER, shown=False),
    _int("deck_suits", (4, 2), _BEYOND + ": no rule text plays a short deck (research only: the mini preset)",
         PHASE1_FLOW, DETERMINIZER, shown=False),
    _int("hand_size", (3, 2), "Regler for kortspillet Mattis \"Giveren deler tre kort til hver\"; fewer: " + _BEYOND
         + " (research only: the mini preset)", PHASE1_FLOW, DETERMINIZER, shown=False),
)
"""Every rule option, in the order of the :class:`Rules` fields (a test walks both)."""

OPTION: Final[dict[str, OptionSpec]] = {spec.name: spec for spec in OPTIONS}
"""The option table by name."""

#: The type of every option that takes a word.
OPTION_TYPES: Final[dict[str, type[StrEnum]]] = {
    spec.name: spec.enum for spec in OPTIONS if spec.enum is not None
}

#: The allowed values of every option that takes a word, as spelled in records.
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    spec.name: tuple(str(v) for v in spec.values) for spec in OPTIONS if spec.kind == WORD
}

#: The options a house may change, in table order.
HOUSE_OPTIONS: Final[tuple[OptionSpec, ...]] = tuple(spec for spec in OPTIONS if spec.house)


def _check_kinds(values: dict[str, Any]) -> None:
    """Every option value of the right kind.  Asked before a :class:`Rules` is built:
    the compiled core's constructor rejects a value of the wrong type itself."""
    for option, value in values.items():
        spec = OPTION[option]
        if spec.enum is not None and not isinstance(value, spec.enum):
            raise RulesError(f"{option} must be one of {', '.join(CHOICES[option])}")
        if spec.kind == BOOL and not isinstance(value, bool):
            raise RulesError(f"{option} must be true or false")
        if spec.kind == INT and (not isinstance(value, int) or isinstance(value, bool)):
            raise RulesError(f"{option} must be a whole number")


def _validate(r: Rules) -> Rules:
    if not 2 <= r.min_players <= r.max_players <= 6:
        raise RulesError("players must satisfy 2 <= min_players <= max_players <= 6")
    if not 2 <= r.max_pair_players <= 6:
        raise RulesError("max_pair_players must be 2..6")
    if r.sequences == 1 or not 0 <= r.sequences <= 13:
        raise RulesError("sequences must be 0 (not allowed) or a length from 2 to 13")
    if not 0 <= r.two_player_discard <= 40:
        raise RulesError("two_player_discard must be 0..40")
    if r.phase2_cap < 1:
        raise RulesError("phase2_cap must be at least 1")
    if r.tricks is Tricks.PAIR and r.min_players > r.max_pair_players:
        raise RulesError("pair tricks with this many players need tricks=all")
    if not 2 <= r.deck_ranks <= 13 or not 1 <= r.deck_suits <= 4:
        raise RulesError("deck_ranks must be 2..13 and deck_suits 1..4")
    if not 1 <= r.hand_size <= 3:
        raise RulesError("hand_size must be 1..3")
    if not r.allowed_players():
        raise RulesError(f"a deck of {r.deck_ranks * r.deck_suits} cards leaves no stock for "
                         f"{r.min_players} players with {r.hand_size} cards each")
    return r


PRESETS: Final[dict[str, Rules]] = {
    "mattis": Rules(name="mattis"),
    "hund": Rules(name="hund", tricks=Tricks.ALL),
    "blodmattis": Rules(
        name="blodmattis", min_players=3, two_player_discard=0, tricks=Tricks.ALL, ties=Ties.STOTING,
        draw=Draw.AFTER_TRICK, chance=Chance.OFF, trump=Trump.BOTTOM_UP, phase1_end=Phase1End.FIRST_EMPTY,
        empty_hand=EmptyHand.LOSES, follow=Follow.VOID, pickup_optional=True, trick_size=TrickSize.ACTIVE,
        going_out=GoingOut.HOLDERS, sequences=2,
    ),
    "skitgubbe": Rules(
        name="skitgubbe", max_pair_players=4, two_player_discard=0, chance=Chance.ANY,
        phase1_end=Phase1End.FIRST_EMPTY, empty_hand=EmptyHand.SAFE, pickup=Pickup.LAST, pickup_optional=True,
        leftovers_shown=True,
    ),
}

RESEARCH_PRESETS: Final[dict[str, Rules]] = {
    "mini": Rules(name="mini", max_players=2, two_player_discard=0, deck_ranks=3, deck_suits=2, hand_size=2),
}
"""Rule sets no table plays, for research, loaded by :func:`preset` like the others but
kept out of :data:`PRESETS` (so out of every front end's list).  ``mini``: Mattis for
two on the six cards Q K A of ♥ and ♠, two cards each, a stock of two (its last card
is the trump), none set aside; otherwise the ``mattis`` preset (sjanse, krig, phase 2
with trump, undertrekk and the repetition rule), small enough for exact game theory
(docs/research.md, "A small Mattis for exact game theory")."""

#: Each preset in one English line, from the catalogue's ``rules.preset.*`` (the rule
#: texts: mattis Mattis (nb/en) and KortRegler; hund Mattis (nb/en); blodmattis the app;
#: skitgubbe Skitgubbe).
PRESET_DOCS: Final[dict[str, str]] = {name: TEXT[f"rules.preset.{name}"][1] for name in PRESETS}


def _coerce(option: str, value: Any) -> Any:
    spec = OPTION.get(option)
    if spec is None:
        raise RulesError(f"unknown rule option {option!r}; options: " + ", ".join(OPTION))
    if spec.enum is not None:
        if option == "follow" and isinstance(value, str) and value.strip() == "suit_first":
            raise RulesError("follow=suit_first is no longer a rule: no rule text says it; for the Mattis app's "
                             "'Følg farge hvis du kan' (trump only when you hold none of the suit) use follow=void")
        if isinstance(value, str):
            try:
                return spec.enum(value.strip())
            except ValueError:
                pass
        raise RulesError(f"{option} must be one of {', '.join(CHOICES[option])}; got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        if spec.kind == INT:
            try:
                return int(text)
            except ValueError:
                raise RulesError(f"{option} must be a whole number; got {value!r}") from None
        low = text.lower()
        if low in ("true", "yes", "1", "on", "ja"):
            return True
        if low in ("false", "no", "0", "off", "nei"):
            return False
        raise RulesError(f"{option} must be true or false; got {value!r}")
    return value


def preset(name: str = "mattis", **overrides: Any) -> Rules:
    """A named preset, optionally with some options changed.

    Raises :class:`RulesError` for an unknown preset or option, or a bad value.
    """
    base = PRESETS.get(name) or RESEARCH_PRESETS.get(name)
    if base is None:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)} (research: "
                         f"{', '.join(RESEARCH_PRESETS)})")
    if "players" in overrides:
        lo, _, hi = str(overrides.pop("players")).partition("-")
        overrides["min_players"] = lo
        overrides["max_players"] = hi or lo
    coerced = {k: _coerce(k, v) for k, v in overrides.items()}
    _check_kinds(coerced)
    return _validate(dataclasses.replace(base, **coerced))


def parse_overrides(items: list[str]) -> dict[str, str]:
    """Read ``option=value`` words from a command line."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"expected option=value, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def rules_to_json(r: Rules) -> str | dict[str, Any]:
    """A preset name, or ``{"preset": name, option: value, ...}``."""
    diff = r.overrides()
    if not diff:
        return r.name
    return {"preset": r.name, **diff}


def rules_from_json(data: Any) -> Rules:
    """Read the ``rules`` field of a record."""
    if isinstance(data, str):
        return preset(data)
    if isinstance(data, dict):
        d = dict(data)
        name = d.pop("preset", "mattis")
        if "name" in d:
            raise RulesError("unknown rule option 'name' (use 'preset' to name the preset)")
        if not isinstance(name, str):
            raise RulesError("rules.preset must be a preset name")
        return preset(name, **d)
    raise RulesError("rules must be a preset name or an object with a 'preset' field")
