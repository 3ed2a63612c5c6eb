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

from .cards import RANK, RANK_NAMES, SUIT, Card, Lang, card_name, card_symbol, suit_name
from .catalogue import TERM_KEYS, TEXT
from .legal import chance_floor
from .moves import Move, MoveKind
from .rules import (
    OPTION,
    OPTIONS,
    PHASE1_FLOW,
    Chance,
    Draw,
    EmptyHand,
    Follow,
    Leader2,
    Pickup,
    Rules,
    Ties,
    Tricks,
    Trump,
)
from .vocabulary import Illegal

DEFAULT_NAMES: Final = ("Anne", "Bjørn", "Cato", "Dina", "Eirik", "Frida")

#: Options never shown to players: the preset's name, and those the option table hides.
HIDDEN_OPTIONS: Final = frozenset({"name", *(spec.name for spec in OPTIONS if not spec.shown)})


def seat_names(players: int, human: int | None = None, lang: Lang = "en") -> list[str]:
    """Default names for the seats (the human seat is "you")."""
    names = list(DEFAULT_NAMES[:players])
    if human is not None:
        names[human] = say("word.you", lang)
    return names


def as_object(name: str, lang: Lang = "en") -> str:
    """A seat name where it is the object of a sentence: the human's "Du" becomes
    "deg" ("mellom Cato og deg"), "You" becomes "you"; other names stay.

    >>> as_object("Du", "nb"), as_object("You", "en"), as_object("Cato", "nb")
    ('deg', 'you', 'Cato')
    """
    return say("word.you_object", lang) if name == say("word.you", lang) else name


def in_sentence(name: str, lang: Lang = "en") -> str:
    """A seat name as the subject inside a sentence, not its first word: the human's
    "Du" is written "du" there ("Siste stikk: du tok ...", "etter modellen hadde du"),
    "You" is "you"; other names stay.  (Only where the verb does not change with
    the person: "Cato took", "you took".)

    >>> in_sentence("Du", "nb"), in_sentence("You", "en"), in_sentence("Cato", "nb")
    ('du', 'you', 'Cato')
    """
    return say("word.you_inside", lang) if name == say("word.you", lang) else name


def new_game_line(dealer: str, lang: Lang = "en") -> str:
    """The log line that starts a new game: "Nytt spill: Cato gir.", "Nytt spill: du gir.",
    "A new game: you deal."."""
    you = "_you" if dealer == say("word.you", lang) else ""
    return say(f"log.new_game{you}", lang, dealer=dealer)


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


def loser_term(rules: Rules) -> str:
    """What the loser is called under ``rules``: the key of its ``loser.*`` entry.
    ``skitgubbe`` in Skitgubbe ("Den spilleren har tapt og er skitgubben", Regler for
    kortspillet Skitgubbe), else ``mattis`` ("Siste spiller med kort blir Mattis", Mattis
    regler – også kjent som Blodmattis).  Every front end asks this.

    >>> from .rules import preset
    >>> [loser_term(preset(name)) for name in ("mattis", "hund", "blodmattis", "skitgubbe")]
    ['mattis', 'mattis', 'mattis', 'skitgubbe']
    """
    return "skitgubbe" if rules.name == "skitgubbe" else "mattis"


def loser_word(rules: Rules, lang: Lang = "en", blodmattis: bool = False) -> str:
    """The loser's name under ``rules`` as said of her ("Per er skitgubben", "Du er
    Mattis"); with ``blodmattis`` the name of one who lost at once for winning no trick
    in phase 1 (Blodmattis, in the Mattis app's rules).

    >>> from .rules import preset
    >>> loser_word(preset("skitgubbe"), "nb"), loser_word(preset("skitgubbe"), "en")
    ('skitgubben', 'the skitgubbe')
    >>> loser_word(preset("blodmattis"), "nb"), loser_word(preset("blodmattis"), "nb", blodmattis=True)
    ('Mattis', 'Blodmattis')
    """
    return say("loser.blodmattis" if blodmattis else f"loser.{loser_term(rules)}", lang)


def loser_sentence(rules: Rules, name: str, lang: Lang = "en") -> str:
    """The line that names the loser: "Per er skitgubben!", "Du er Mattis!", "You are
    Mattis!" (the verb agrees with "You").

    >>> from .rules import preset
    >>> loser_sentence(preset("skitgubbe"), "Per", "nb"), loser_sentence(preset("hund"), "Du", "nb")
    ('Per er skitgubben!', 'Du er Mattis!')
    >>> loser_sentence(preset("mattis"), "You", "en"), loser_sentence(preset("mattis"), "Cato", "en")
    ('You are Mattis!', 'Cato is Mattis!')
    """
    you = "_you" if name == say("word.you", lang) else ""
    return say(f"end.loser{you}.{loser_term(rules)}", lang, name=name)


def list_cards(cards: Sequence[Card], lang: Lang) -> str:
    """Card names as a list: "kløver 4, kløver 5 og kløver 6"."""
    names = [card_name(c, lang) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + say("word.and", lang) + names[-1]


def run_words(cards: Sequence[Card], lang: Lang) -> str:
    """A serie (a run of one suit) as a card player says it, the suit once: "ruter 2, 3
    og 4", "two, three and four of diamonds"; cards of several suits are each named.

    >>> from .cards import parse_card
    >>> run_words([parse_card(c) for c in ("10S", "JS", "QS")], "nb")
    'spar 10, knekt og dame'
    """
    if len(cards) < 2 or len({SUIT[c] for c in cards}) != 1:
        return list_cards(cards, lang)
    ranks = [RANK_NAMES[lang][RANK[c]] for c in cards]
    return say("word.run", lang, suit=suit_name(SUIT[cards[0]], lang),
               ranks=", ".join(ranks[:-1]) + say("word.and", lang) + ranks[-1])


def describe_move(name: str, move: Move, shown: Sequence[Card], lang: Lang = "en") -> str:
    """One move in words, as a log line (English verbs agree with "You")."""
    you = "_you" if name in (say("word.you", lang), say("word.you_object", lang)) else ""
    if move.kind is MoveKind.CHANCE:
        if shown:
            return say(f"moved.chance_turns{you}", lang, name=name, card=card_name(shown[0], lang))
        return say(f"moved.chance{you}", lang, name=name)
    if move.kind is MoveKind.PICKUP:
        return say(f"moved.pickup{you}", lang, name=name, cards=list_cards(shown, lang))
    return say(f"moved.play{you}", lang, name=name, card=run_words(move.cards, lang))


BOT_REASONS: Final = ("clock", "host", "away", "given")
"""Why a bot made a move for a person: her turn clock ran out, the host skipped her turn, she was
away (her grace period ran out), or the host gave her seat to a bot."""


def describe_bot_move(name: str, move: Move, shown: Sequence[Card], why: str, lang: Lang = "en") -> str:
    """A move a bot made for the person ``name``, as a log line that says so and why
    (``why``: one of :data:`BOT_REASONS`).

    >>> from mattis.core.moves import parse_move
    >>> describe_bot_move("Anne", parse_move("play KH"), (), "clock", "nb")
    'Bot for Anne: hjerter konge (tiden gikk ut)'
    """
    if move.kind is MoveKind.CHANCE:
        what = (say("botmove.chance_turns", lang, card=card_name(shown[0], lang)) if shown
                else say("botmove.chance", lang))
    elif move.kind is MoveKind.PICKUP:
        what = say("botmove.pickup", lang, cards=list_cards(shown, lang))
    else:
        what = say("botmove.play", lang, card=run_words(move.cards, lang))
    you = name in (say("word.you", lang), say("word.you_object", lang))
    reason = say(f"botwhy.{why}" if why in BOT_REASONS else "botwhy.away", lang)
    return say("moved.bot_you" if you else "moved.bot", lang, name=name, move=what, why=reason)


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
    key, params = reason_words(illegal)
    return say(key, lang, **params)


def reason_words(illegal: Illegal) -> tuple[str, dict[str, object]]:
    """The catalogue key and parameters of :func:`reason_text` (for a message that is
    worded later, in the language of whoever reads it).

    >>> from mattis.core.vocabulary import Reason
    >>> reason_words(Illegal(Reason.NOT_HELD, cards=(9, 22)))
    ('reason.not_held', {'cards': 'J♣ J♦', 'number': 0})
    """
    cards = " ".join(card_symbol(c) for c in illegal.cards)
    key = f"reason.{illegal.reason}"
    return key, {"cards": cards, "number": illegal.number}


def option_label(option: str, lang: Lang = "en") -> str:
    """A rule option's name in the players' words ("Like høye kort" for ``ties``)."""
    return say(f"opt.{option}", lang)


def option_value_text(option: str, value: object, lang: Lang = "en") -> str:
    """One value of a rule option in the players' words.

    >>> option_value_text("ties", "stoting", "nb")
    'støting'
    >>> option_value_text("pickup_optional", True, "en")
    'yes'
    >>> option_value_text("sequences", 0, "nb")
    'ikke lov'
    """
    if isinstance(value, bool):
        return say("val.yes" if value else "val.no", lang)
    if option == "sequences" and value == 0:
        return say("val.sequences.0", lang)
    key = f"val.{option}.{value}"
    return say(key, lang) if key in TEXT else str(value)


def option_applies(rules: Rules, option: str) -> bool:
    """Whether ``option`` can change anything in a game under ``rules``: every option
    of the table reaches some part of the engine (:attr:`OptionSpec.reaches`), but some
    reach it only under other options' values.  An option that does not apply is not
    shown in the rules in force (a house rule that differs from the preset is always
    shown, so that nothing set is hidden).

    - ``two_player_discard``: only when two may play.
    - ``max_pair_players``: only with two-card tricks (``tricks=pair``).
    - ``pickup_run``: only with sequences and ``pickup=last``.
    - ``empty_fighter``: only in phase 1 where a player can be due to lay with an empty
      hand while the stock still has a card: with ``draw=after_trick``.

    >>> from .rules import preset
    >>> [o for o in ("two_player_discard", "pickup_run", "empty_fighter") if option_applies(preset("mattis"), o)]
    ['two_player_discard']
    >>> blod = preset("blodmattis")
    >>> option_applies(blod, "two_player_discard"), option_applies(blod, "empty_fighter")
    (False, True)
    """
    spec = OPTION[option]
    if option == "two_player_discard":
        return 2 in rules.allowed_players()
    if option == "max_pair_players":
        return rules.tricks is Tricks.PAIR
    if option == "pickup_run":
        return bool(rules.sequences) and rules.pickup is Pickup.LAST
    if option == "empty_fighter":
        return PHASE1_FLOW in spec.reaches and rules.draw is Draw.AFTER_TRICK
    return bool(spec.reaches)


def rules_in_words(rules: Rules, lang: Lang = "en", changed_only: bool = False) -> list[tuple[str, str]]:
    """The rules in force as (option name, value) in the players' words, in the rule set's order.

    ``changed_only`` keeps the house rules: the options that differ from the preset.
    Engine limits (the phase-2 move cap) are never listed, nor options that cannot
    change anything under these rules (:func:`option_applies`).

    >>> from mattis.core.rules import preset
    >>> rules_in_words(preset("mattis", ties="stoting"), "nb", changed_only=True)
    [('Like høye kort', 'støting')]
    """
    changed = rules.overrides()
    return [
        (option_label(option, lang), _value_in_force(rules, option, lang))
        for option, _value in rules.describe()
        if option not in HIDDEN_OPTIONS and (not changed_only or option in changed)
        and (option in changed or option_applies(rules, option))
    ]


def leader2_key(rules: Rules) -> str:
    """Who leads phase 2 under ``rules``, as the suffix of its ``val.leader2.*`` and
    ``howto.leader2.*`` entries: ``last_trick``; ``trump_holder`` where the trump card
    is set aside face down and joins its holder's hand (``trump=last_card``); else
    ``last_drawer``: the trump card is drawn last like any card, so the lead goes to
    whoever got the last card of the stock, whether or not she still holds it.

    >>> from .rules import preset
    >>> [leader2_key(preset(n)) for n in ("mattis", "blodmattis", "skitgubbe")]
    ['trump_holder', 'last_drawer', 'trump_holder']
    """
    if rules.leader2 is Leader2.LAST_TRICK:
        return "last_trick"
    return "trump_holder" if rules.trump is Trump.LAST_CARD else "last_drawer"


def _value_in_force(rules: Rules, option: str, lang: Lang) -> str:
    """An option's value under ``rules``; the fight over equal cards has the variant's
    own word (stunsa in Skitgubbe, krig elsewhere)."""
    value = getattr(rules, option)
    if option == "ties" and value is Ties.WAR:
        return fight_word(rules, lang)
    if option == "chance" and value is not Chance.OFF:
        # "bare lov så lenge det ligger mer enn ett kort igjen i bunken" (Skitgubbe) where the last is the trump
        return f"{option_value_text(option, value, lang)}, {say(f'chance.floor.{chance_floor(rules)}', lang)}"
    if option == "leader2":
        key = leader2_key(rules)
        return say("lead2.last_drawer", lang) if key == "last_drawer" else option_value_text(option, value, lang)
    return option_value_text(option, value, lang)


def glossary_terms(rules: Rules) -> list[str]:
    """The ``term.*`` keys of the words that apply under ``rules``, in glossary order
    (:data:`~mattis.core.catalogue.TERM_KEYS`): one fight word, sjanse only when it is
    allowed, serie only with sequences, bordmattis/blåmattis or Blodmattis as the empty
    hand goes, and the loser's word.

    >>> glossary_terms(__import__("mattis.core.rules", fromlist=["preset"]).preset("skitgubbe"))
    ['stikk', 'avstikk', 'stunsa', 'sjanse', 'trumf']
    """
    keep = {"stikk", "avstikk", "trumf", fight_term(rules)}
    if rules.chance is not Chance.OFF:
        keep.add("sjanse")
    if rules.pickup is Pickup.FIRST:
        keep.add("undertrekk")
    if rules.sequences:
        keep.add("serie")
    if rules.empty_hand is EmptyHand.PICK_UP:
        keep |= {"bordmattis", "blamattis"}
    elif rules.empty_hand is EmptyHand.LOSES:
        keep.add("blodmattis")
    if loser_term(rules) == "mattis":
        keep.add("mattis")
    return [key for key in TERM_KEYS if key in keep]


HOWTO_SAID: Final = frozenset({
    "two_player_discard", "tricks", "ties", "draw", "chance", "trump", "phase1_end", "leftovers_shown",
    "empty_hand", "leader2", "follow", "pickup", "pickup_optional", "pickup_run", "trick_size", "going_out",
    "sequences", "empty_fighter", "next_leader",
})
"""The options :func:`how_to_play` words in its own sections."""
HOWTO_SILENT: Final = frozenset({
    "min_players", "max_players", "max_pair_players", "phase2_cap", "deck_ranks", "deck_suits", "hand_size",
})
"""Options how to play does not describe: how many play (chosen at the table; the rules in
words say it), the engine's cap, the research deck."""


def _option_sentences(rules: Rules, lang: Lang, phase2: bool) -> str:
    """The ``howto.<option>.<value>`` sentences of the options not in :data:`HOWTO_SAID`
    or :data:`HOWTO_SILENT` (a new option is said by its catalogue entries alone), those
    reaching phase 2 (``phase2``) or phase 1."""
    out = []
    for spec in OPTIONS:
        if spec.name in HOWTO_SAID or spec.name in HOWTO_SILENT:
            continue
        if any(r.startswith("phase2") for r in spec.reaches) != phase2:
            continue
        key = f"howto.{spec.name}.{getattr(rules, spec.name)}"
        if key in TEXT:
            out.append(" " + say(key, lang))
    return "".join(out)


def how_to_play(rules: Rules, lang: Lang = "en") -> list[tuple[str, str]]:
    """How to play under ``rules``, as (heading, paragraph) pairs in the players' words:
    the aim, the deal, what a trick is, when you draw, equal cards (krig, støting or
    stunsa), sjanse, trumf, the end of phase 1, phase 2, picking up, sequences, an empty
    hand and who loses; only what applies to these rules.

    >>> from .rules import preset
    >>> [h for h, _ in how_to_play(preset("blodmattis"), "nb")][:4]
    ['Målet', 'Utdelingen', 'Stikk', 'Når du trekker']
    >>> any("Sjanse" in h for h, _ in how_to_play(preset("blodmattis"), "nb"))
    False
    """
    def s(key: str, **params: object) -> str:
        return say(key, lang, **params)

    loser = loser_term(rules)
    out = [(s("howto.h.goal"), s(f"howto.goal.{loser}"))]
    deal = s("howto.deal")
    if rules.min_players <= 2 and rules.two_player_discard:
        deal += " " + s("howto.deal_two")
    out.append((s("howto.h.deal"), deal))
    out.append((s("howto.h.trick"), s(f"howto.trick.{rules.tricks.value}")))
    out.append((s("howto.h.draw"), s(f"howto.draw.{rules.draw.value}")))
    fight = s(f"howto.fight.{fight_term(rules)}")
    if option_applies(rules, "empty_fighter"):
        fight += " " + s(f"howto.empty_fighter.{rules.empty_fighter.value}", fight=fight_word(rules, lang))
    out.append((s("howto.h.fight"), fight))
    if rules.chance is not Chance.OFF:
        out.append((s("howto.h.sjanse"), s(f"howto.sjanse.{rules.chance.value}", fight=fight_word(rules, lang))
                    + " " + s(f"howto.sjanse.floor.{chance_floor(rules)}")))
    out.append((s("howto.h.trumf"), s(f"howto.trumf.{rules.trump.value}")))
    end1 = s(f"howto.end1.{rules.phase1_end.value}") + _option_sentences(rules, lang, False)
    if rules.leftovers_shown:
        end1 += " " + s("howto.end1.shown")
    out.append((s("howto.h.end1"), end1))
    leader = s(f"howto.leader2.{leader2_key(rules)}")
    if rules.leader2 is Leader2.TRUMP_HOLDER and rules.empty_hand is EmptyHand.LOSES:
        leader += " " + s("howto.leader2.passed")
    size = s(f"howto.size.{rules.trick_size.value}")
    if rules.sequences:  # the app counts entries: "like mange oppføringer på bordet som det er aktive spillere"
        size += " " + s("howto.size.runs")
    phase2 = s("howto.phase2", leader=leader, size=size)
    if rules.follow is Follow.VOID:
        phase2 += " " + s("howto.phase2.void")
    phase2 += _option_sentences(rules, lang, True)
    out.append((s("howto.h.phase2"), phase2))
    pickup = rules.pickup.value
    if rules.pickup is Pickup.LAST and rules.sequences and rules.pickup_run:
        pickup = "last_run"
    text = s(f"howto.pickup.{pickup}")
    if rules.pickup_optional:
        text += " " + s("howto.pickup.optional")
    out.append((s("howto.h.pickup"), text))
    if rules.sequences:
        out.append((s("howto.h.serie"), s("howto.serie", n=rules.sequences)))
    out.append((s("howto.h.empty"), s(f"howto.empty.{rules.empty_hand.value}")))
    out.append((s("howto.h.loser"), s(f"howto.out.{rules.going_out.value}") + " " + s(f"howto.loser.{loser}")))
    out.append((s("howto.h.next"), s(f"howto.next.{rules.next_leader.value}", why=s(f"howto.next.why.{loser}"))))
    return out
