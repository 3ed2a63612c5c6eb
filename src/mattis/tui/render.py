"""What the screen says, as text, from one seat's observation only.

Shared by the Textual app and the plain line mode.  Every function takes an
:class:`~mattis.core.Observation` (never a State), the seat names and a language.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import (
    OVER,
    PHASE1,
    PRESET_DOCS,
    Card,
    EmptyHand,
    Move,
    MoveKind,
    Observation,
    Rules,
    Termination,
    Tricks,
    card_code,
    card_name,
    card_symbol,
    sort_by_rank,
    sort_for_phase2,
)
from ..core.cards import RANK
from ..core.text import (
    as_object,
    fight_term,
    glossary_terms,
    in_sentence,
    leader2_key,
    loser_sentence,
    loser_term,
    loser_word,
    rules_in_words,
)
from .i18n import Lang, has, t
from .session import fix_you

DECK_SIZE = len(RANK)
"""Cards in the deck."""


def hand_order_of(cards: Sequence[Card], obs: Observation) -> list[Card]:
    """``cards`` in the order a hand is shown in ``obs``'s phase."""
    return sort_by_rank(cards) if obs.phase is PHASE1 else sort_for_phase2(cards, obs.trump)


def card_label(card: Card, codes: bool = False) -> str:
    """``10♠`` for the screen, ``TS`` for the line mode."""
    return card_code(card) if codes else card_symbol(card)


def cards_label(cards: Sequence[Card], codes: bool = False) -> str:
    return " ".join(card_label(c, codes) for c in cards)


def hand_order(obs: Observation) -> list[Card]:
    """The hand sorted: by rank in phase 1; by suit then rank, trumps last, in phase 2."""
    if obs.phase is PHASE1:
        return sort_by_rank(obs.hand)
    return sort_for_phase2(obs.hand, obs.trump)


def ordered_moves(obs: Observation) -> list[Move]:
    """The legal moves in the order of the sorted hand (sequences after their first card's
    single), then sjanse / pick up."""
    pos = {c: i for i, c in enumerate(hand_order(obs))}
    plays = sorted((m for m in obs.legal if m.kind is MoveKind.PLAY),
                   key=lambda m: (min(pos.get(c, 99) for c in m.cards), len(m.cards)))
    return plays + [m for m in obs.legal if m.kind is not MoveKind.PLAY]


def legal_cards(obs: Observation) -> set[Card]:
    """The hand cards that are part of some legal move now."""
    return {c for m in obs.legal if m.kind is MoveKind.PLAY for c in m.cards}


def move_label(move: Move, lang: Lang, codes: bool = False) -> str:
    """A move for a menu: ``legg 4♣``, ``sjanse``, ``ta opp``."""
    if move.kind is MoveKind.CHANCE:
        return t(lang, "move.chance")
    if move.kind is MoveKind.PICKUP:
        return t(lang, "move.pickup")
    return t(lang, "move.play", cards=cards_label(move.cards, codes))


def phase_text(obs: Observation, lang: Lang) -> str:
    if obs.phase is OVER:
        return t(lang, "phase.over")
    return t(lang, "phase.1") if obs.phase is PHASE1 else t(lang, "phase.2")


def trump_text(obs: Observation, names: Sequence[str], lang: Lang) -> str:
    """The trump once known, else where the face-down trump card lies."""
    if obs.trump is not None:
        suit = t(lang, f"suit.{obs.trump}")
        if obs.trump_card is not None:
            return t(lang, "trump.known_card", suit=suit, card=card_name(obs.trump_card, lang),
                     sym=card_symbol(obs.trump_card))
        return t(lang, "trump.known", suit=suit)
    if obs.trump_holder is not None:
        return t(lang, "trump.face_down", name=as_object(names[obs.trump_holder], lang))
    return t(lang, "trump.in_stock")


def turn_text(obs: Observation, names: Sequence[str], lang: Lang) -> str:
    if obs.to_act is None:
        return t(lang, "turn.over")
    if obs.to_act == obs.seat:
        return t(lang, "turn.you")
    return t(lang, "turn.other", name=names[obs.to_act])


def stock_text(obs: Observation, lang: Lang) -> str:
    parts = [t(lang, "info.stock", n=obs.stock_count)]
    if obs.set_aside_count:
        parts.append(t(lang, "info.aside", n=obs.set_aside_count))
    if obs.out_count:
        parts.append(t(lang, "info.out", n=obs.out_count))
    return " · ".join(parts)


def table_lines(obs: Observation, names: Sequence[str], lang: Lang, codes: bool = False) -> list[str]:
    """The table: the phase 1 trick (with a running krig/støting) or the phase 2 entries."""
    if obs.phase is PHASE1:
        if not obs.table1:
            return [t(lang, "table.empty")]
        lines = [f"{names[s]}: {card_label(c, codes)}" for s, c in obs.table1]
        goes = goes_to_text(obs, names, lang)
        if goes:
            lines.append(goes)
        if obs.fighters:
            word = "term." + fight_term(obs.rules)
            lines.append(t(lang, "table.fight", fight=t(lang, word),
                           names=join_names([as_object(names[s], lang) for s in obs.fighters], lang)))
        return lines
    if obs.phase is OVER or not obs.table2:
        return [t(lang, "table.empty")]
    lines = [f"{i}. {names[s]}: {cards_label(e, codes)}" for i, (s, e) in enumerate(obs.table2, start=1)]
    if obs.trick_need:
        lines.append(t(lang, "table.need", have=len(obs.table2), need=obs.trick_need))
    return lines


def goes_to_text(obs: Observation, names: Sequence[str], lang: Lang) -> str | None:
    """In two-card tricks (``tricks=pair``), who the led card goes to: "Cato spiller ut
    til deg." while the answer is awaited; ``None`` otherwise."""
    if (obs.rules.tricks is not Tricks.PAIR or obs.phase is not PHASE1 or len(obs.table1) != 1
            or obs.fighters or obs.to_act is None):
        return None
    leader = obs.table1[0][0]
    if obs.to_act == leader:
        return None
    return fix_you(t(lang, "table.goes_to", leader=names[leader], name=as_object(names[obs.to_act], lang)),
                   names[obs.seat], lang)


def join_names(items: Sequence[str], lang: Lang) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + t(lang, "word.and") + items[-1]


def status_text(obs: Observation, seat: int, lang: Lang) -> str:
    """A seat's standing: finished (place), the loser (Mattis, skitgubben), Blodmattis, to
    act, or empty."""
    if seat in obs.finished:
        return t(lang, "status.finished", place=obs.finished.index(seat) + 1)
    if seat in obs.waiting:
        return t(lang, "status.waiting")
    if seat in obs.ranked:
        return t(lang, "status.ranked", place=len(obs.finished) + obs.ranked.index(seat) + 1)
    if seat in obs.blodmattis:
        return t(lang, "term.blodmattis")
    if seat in obs.losers:
        return t(lang, f"status.loser.{loser_term(obs.rules)}")
    if obs.to_act == seat:
        return t(lang, "status.to_act")
    return ""


def player_rows(obs: Observation, names: Sequence[str], lang: Lang, codes: bool = False,
                known_limit: int | None = None) -> list[tuple[str, str, str, str, str]]:
    """(name, hand size, pile size, tricks won, standing) for every seat; the known cards
    of another seat's hand (seen in public) follow its standing, at most ``known_limit``
    of them (then ``+N``)."""
    rows = []
    for s in range(obs.players):
        status = status_text(obs, s, lang)
        if s != obs.seat and obs.known[s]:
            order = sort_by_rank(obs.known[s]) if obs.phase is PHASE1 else sort_for_phase2(obs.known[s], obs.trump)
            more = ""
            if known_limit is not None and len(order) > known_limit:
                more = f" +{len(order) - known_limit}"
                order = order[:known_limit]
            known = t(lang, "status.known", cards=cards_label(order, codes) + more)
            status = f"{status} {known}".strip()
        trump = " " + t(lang, "status.trump_holder") if obs.trump_holder == s and obs.phase is PHASE1 else ""
        rows.append((names[s], str(obs.hand_counts[s]), str(len(obs.piles[s])),
                     str(obs.tricks_won[s]), (status + trump).strip()))
    return rows


def known_count_text(n: int, lang: Lang) -> str:
    """"2 kjente kort", "ett kjent kort"."""
    return t(lang, "tui.known_count_one") if n == 1 else t(lang, "tui.known_count", n=n)


def no_cards_text(obs: Observation, lang: Lang) -> str:
    """What to say to a player with no cards who presses Enter: only the moves she has
    (pick up in phase 2, sjanse where the stock allows it)."""
    kinds = {m.kind for m in obs.legal}
    chance, pickup = MoveKind.CHANCE in kinds, MoveKind.PICKUP in kinds
    if chance and pickup:
        return t(lang, "err.no_cards")
    if chance:
        return t(lang, "err.no_cards_chance")
    if pickup:
        return t(lang, "err.no_cards_pickup")
    return t(lang, "err.no_cards_now")


def last_trick_in_phase1(obs: Observation) -> bool:
    """Whether the last completed trick (:attr:`Observation.last_trick`) was a stikk of
    phase 1: in phase 1, and in phase 2 until the first avstikk takes cards out of the
    game (until then every card is in a hand, on the table or set aside)."""
    if obs.phase is PHASE1:
        return True
    on_table = sum(len(entry) for _seat, entry in obs.table2)
    return sum(obs.hand_counts) + on_table + obs.set_aside_count + obs.stock_count == DECK_SIZE


def last_trick_text(obs: Observation, names: Sequence[str], lang: Lang, codes: bool = False) -> str:
    if obs.last_trick is None:
        return t(lang, "last.none")
    seat, cards = obs.last_trick
    key = "last.phase1" if last_trick_in_phase1(obs) else "last.phase2"
    return t(lang, key, name=in_sentence(names[seat], lang), cards=cards_label(cards, codes))


def end_lines(obs: Observation, names: Sequence[str], tally: Sequence[int], lang: Lang,
              take_backs: int = 0) -> list[str]:
    """The end screen: finishing order, who lost (in the variant's word; a Blodmattis
    last, as the first to lose), whether you lost, the take-backs used, the session tally."""
    lines = [t(lang, "end.title"), "", t(lang, "end.order")]
    for i, s in enumerate(obs.finished, start=1):
        lines.append(f"  {i}. {names[s]}")
    for i, s in enumerate(obs.ranked, start=len(obs.finished) + 1):
        lines.append("  " + t(lang, "end.ranked_line", place=i, name=names[s]))
    m = obs.outcome.mattis if obs.outcome is not None else None
    if m is not None and m not in obs.blodmattis:
        place = len(obs.finished) + len(obs.ranked) + 1
        lines.append("  " + t(lang, "end.loser_line", place=place, name=names[m],
                              loser=loser_word(obs.rules, lang)))
    for s in obs.blodmattis:
        lines.append("  " + t(lang, "end.blodmattis_line", name=names[s]))
    lines.append("")
    you = names[obs.seat]
    term = loser_term(obs.rules)
    lines.append(fix_you(loser_sentence(obs.rules, names[m], lang), you, lang) if m is not None
                 else t(lang, f"end.no_loser.{term}"))
    if m is not None and obs.hand_counts[m]:
        # What the Mattis was left holding: her cards where everyone can know them, else how many.
        held = obs.hand if m == obs.seat else obs.known[m]
        if len(held) == obs.hand_counts[m]:
            lines.append(t(lang, "end.held", name=names[m], cards=cards_label(hand_order_of(held, obs))))
        else:
            lines.append(t(lang, "end.held_count", name=names[m], n=obs.hand_counts[m]))
    # the sentence above names the Mattis; say it when you lost some other way
    if obs.seat in obs.blodmattis:
        lines.append(t(lang, "end.you_lost.blodmattis"))
    elif obs.seat in obs.losers and m != obs.seat:
        lines.append(t(lang, f"end.you_lost.{term}"))
    if obs.end_reason is not None and obs.end_reason is not Termination.NORMAL:
        key = f"end.reason.{obs.end_reason.value}"
        lines.append(t(lang, key) if has(lang, key) else obs.end_reason.value)
    if take_backs:
        lines.append(t(lang, "end.take_backs", n=take_backs))
    lines.append("")
    blod = term == "mattis" and obs.rules.empty_hand is EmptyHand.LOSES
    lines.append(t(lang, "end.tally.blodmattis" if blod else f"end.tally.{term}"))
    for s in range(obs.players):
        lines.append(f"  {names[s]}: {tally[s]}")
    return lines


def rules_lines(rules: Rules, lang: Lang, obs: Observation | None = None,
                names: Sequence[str] = ()) -> list[str]:
    """The rules in force: the preset, then every option with its meaning; with the
    game's observation, who got the last card of the stock where that player leads
    phase 2 (:func:`~mattis.core.text.leader2_key`)."""
    lines = [t(lang, "rules.title", name=rules.name)]
    doc_key = f"rules.preset.{rules.name}"
    lines.append(t(lang, doc_key) if has(lang, doc_key) else PRESET_DOCS.get(rules.name, ""))
    lines.append("")
    lines.extend(f"  {label}: {value}" for label, value in rules_in_words(rules, lang))
    if (obs is not None and names and leader2_key(rules) == "last_drawer" and obs.trump_holder is not None
            and obs.stock_count == 0):
        lines.append("  " + t(lang, "rules.last_drawer", name=as_object(names[obs.trump_holder], lang)))
    lines.append("")
    lines.append(t(lang, "rules.glossary"))
    for key in glossary_terms(rules):  # only the words of these rules (no stunsa in Mattis)
        lines.append("  " + t(lang, f"gloss.{key}"))
    return lines
