"""The rules window (``rules_in_words``) and how to play (``how_to_play``) say each option's
value, for every value of every option in the option table (``OPTIONS``, iterated: a new
option or value is checked without editing this file, and fails until it is placed in
``HOWTO`` or ``NOT_IN_HOWTO``).

For each value, under a preset that takes it: the rules window lists the option with the
value's words (where the option can change a game), and how to play holds the words of
the value's own ``howto.*`` entries and none of the other values' entries.  Then the
text defects found playing as a new user, each pinned: sjanse's stock floor in both
texts, the words for a phase 2 trick's entries, and the terminal's sjanse key.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mattis.core import OPTIONS, PRESETS, RulesError, preset
from mattis.core.cards import Lang
from mattis.core.legal import chance_floor
from mattis.core.rules import Rules
from mattis.core.text import (
    fight_term,
    fight_word,
    how_to_play,
    leader2_key,
    loser_term,
    option_applies,
    option_label,
    option_value_text,
    rules_in_words,
    say,
)

LANGS: tuple[Lang, ...] = ("nb", "en")

HowtoKeys = Callable[[Rules, object], set[str]]

HOWTO: dict[str, HowtoKeys] = {
    "two_player_discard": lambda r, v: {"howto.deal_two"} if v and 2 in r.allowed_players() else set(),
    "tricks": lambda r, v: {f"howto.trick.{v}"},
    "ties": lambda r, v: {f"howto.fight.{fight_term(r)}"},
    "draw": lambda r, v: {f"howto.draw.{v}"},
    "chance": lambda r, v: set() if v == "off" else {f"howto.sjanse.{v}", f"howto.sjanse.floor.{chance_floor(r)}"},
    "trump": lambda r, v: {f"howto.trumf.{v}"},
    "phase1_end": lambda r, v: {f"howto.end1.{v}"},
    "leftovers_shown": lambda r, v: {"howto.end1.shown"} if v else set(),
    "empty_hand": lambda r, v: {f"howto.empty.{v}"},
    "leader2": lambda r, v: {f"howto.leader2.{leader2_key(r)}"},
    "follow": lambda r, v: {"howto.phase2.void"} if v == "void" else set(),
    "pickup": lambda r, v: {f"howto.pickup.{'last_run' if v == 'last' and r.sequences and r.pickup_run else v}"},
    "pickup_optional": lambda r, v: {"howto.pickup.optional"} if v else set(),
    "pickup_run": lambda r, v: {"howto.pickup.last_run" if v else "howto.pickup.last"},
    "trick_size": lambda r, v: {f"howto.size.{v}"},
    "going_out": lambda r, v: {f"howto.out.{v}"},
    "sequences": lambda r, v: {"howto.serie"} if v else set(),
    "empty_fighter": lambda r, v: {f"howto.empty_fighter.{v}"},
    "next_leader": lambda r, v: {f"howto.next.{v}"},
}
"""option -> the ``howto.*`` entries how to play must hold under rules ``r`` with value ``v``."""

NOT_IN_HOWTO: dict[str, str] = {
    "min_players": "how many play is chosen when the table is set; the rules window says it",
    "max_players": "how many play is chosen when the table is set; the rules window says it",
    "max_pair_players": "how many play is chosen when the table is set; the rules window says it",
    "phase2_cap": "an engine limit, not a rule (hidden)",
    "deck_ranks": "the research deck (hidden)",
    "deck_suits": "the research deck (hidden)",
    "hand_size": "the research deck (hidden)",
}
"""Options how to play does not describe, and why."""


def rules_for(option: str, value: object) -> Rules:
    """A preset under which ``option=value`` can change a game (the first that takes it,
    trying sequences on and pickup=last so that ``pickup_run`` applies, and
    draw=after_trick so that ``empty_fighter`` applies)."""
    extras: list[dict[str, object]] = [{}, {"sequences": 2, "pickup": "last"}, {"draw": "after_trick"}]
    for extra in extras:
        for name in sorted(PRESETS):
            try:
                r = preset(name, **{**extra, option: value})
            except RulesError:
                continue
            if option_applies(r, option) or not OPTIONS_BY_NAME[option].shown:
                return r
    raise AssertionError(f"no preset where {option}={value} applies")


OPTIONS_BY_NAME = {spec.name: spec for spec in OPTIONS}
CASES = [(spec.name, v) for spec in OPTIONS for v in spec.values]


def _words(key: str, rules: Rules, lang: Lang) -> str:
    return say(key, lang, fight=fight_word(rules, lang), n=rules.sequences,
               why=say(f"howto.next.why.{loser_term(rules)}", lang))


def test_every_option_is_placed() -> None:
    """Each option of the table is in ``HOWTO`` or ``NOT_IN_HOWTO`` (not both)."""
    names = {spec.name for spec in OPTIONS}
    assert set(HOWTO) | set(NOT_IN_HOWTO) == names
    assert not set(HOWTO) & set(NOT_IN_HOWTO)


@pytest.mark.parametrize(("option", "value"), CASES, ids=[f"{o}={v}" for o, v in CASES])
def test_the_rules_window_and_how_to_play_say_the_value(option: str, value: object) -> None:
    rules = rules_for(option, value)
    assert getattr(rules, option) == value
    spec = OPTIONS_BY_NAME[option]
    for lang in LANGS:
        window = dict(rules_in_words(rules, lang))
        if spec.shown:
            shown = window[option_label(option, lang)]
            if option == "ties" and value == "war":
                assert shown == fight_word(rules, lang)
            elif option == "leader2" and leader2_key(rules) == "last_drawer":
                assert shown == say("lead2.last_drawer", lang)
            else:
                assert shown.startswith(option_value_text(option, value, lang)), (shown, value)
        else:
            assert option_label(option, lang) not in window
        if option not in HOWTO:
            continue
        howto = " ".join(p for _, p in how_to_play(rules, lang))
        mine = {_words(k, rules, lang) for k in HOWTO[option](rules, value)}
        for words in mine:
            assert words in howto, f"how to play ({lang}) under {option}={value} does not say: {words}"
        for other in spec.values:
            if other == value:
                continue
            try:
                alt = preset(rules.name, **{**rules.overrides(), option: other})
            except RulesError:
                continue
            for key in HOWTO[option](alt, other):
                words = _words(key, alt, lang)
                if words in mine or any(words in m for m in mine):
                    continue  # the same words for both values (or a part of this value's)
                assert words not in howto, f"how to play ({lang}) under {option}={value} says {option}={other}"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_sjanse_is_said_with_the_stock_it_needs(name: str) -> None:
    """Sjanse needs more than one stock card where the last is the hidden trump ("Dette er
    bare lov så lenge det ligger mer enn ett kort igjen i bunken", Regler for kortspillet
    Skitgubbe), else one: the rules window and how to play say the same floor as the engine
    (Skitgubbe's window once said "when you like")."""
    rules = preset(name)
    for chance in ("lead", "any"):
        r = preset(name, chance=chance)
        floor = chance_floor(r)
        for lang in LANGS:
            window = dict(rules_in_words(r, lang))[option_label("chance", lang)]
            assert window.endswith(say(f"chance.floor.{floor}", lang))
            assert say(f"howto.sjanse.floor.{floor}", lang) in " ".join(p for _, p in how_to_play(r, lang))
    if name == "skitgubbe":
        assert chance_floor(rules) == 2
        assert "mer enn ett kort" in dict(rules_in_words(rules, "nb"))["Sjanse"]
        assert "when you like" not in say("rules.preset.skitgubbe", "en")


def test_the_trick_count_counts_entries_not_cards() -> None:
    """The app counts entries ("Når det ligger like mange oppføringer på bordet som det er
    aktive spillere", Mattis regler – også kjent som Blodmattis): a two-card rad is one."""
    assert say("table.need", "nb", have=1, need=2).startswith("1 av 2 oppføringer")
    assert "entries" in say("table.need", "en", have=1, need=2)
