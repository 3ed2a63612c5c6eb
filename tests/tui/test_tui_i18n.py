"""The terminal UI's words come from the one catalogue: every key it uses exists, every rule
term and option is worded, the engine's reasons are in Norwegian, and the screen says what
the rules in force call things."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import mattis.tui
from mattis.core import (
    CHANCE,
    CHOICES,
    PICKUP,
    PRESETS,
    Illegal,
    Observation,
    Rules,
    State,
    describe_move,
    parse_move,
    play,
    preset,
    reason_text,
    seat_names,
    verify,
)
from mattis.core.cards import Lang
from mattis.core.catalogue import TERM_KEYS, TEXT
from mattis.core.text import fight_term
from mattis.tui.i18n import LANGS, STRINGS, TERMS, has, t
from mattis.tui.render import rules_lines, table_lines, trump_text
from mattis.tui.session import fix_you

TUI_DIR = Path(mattis.tui.__file__).parent


def used_keys() -> set[str]:
    """Every literal key passed to ``t(lang, "...")`` in the UI's source."""
    keys: set[str] = set()
    for path in [*TUI_DIR.glob("*.py"), TUI_DIR.parent / "cli" / "play.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t"
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                keys.add(str(node.args[1].value))
    return keys


def test_the_ui_strings_are_the_catalogue() -> None:
    for lang, index in (("nb", 0), ("en", 1)):
        assert STRINGS[lang] == {k: pair[index] for k, pair in TEXT.items()}  # type: ignore[index]
    assert t("nb", "turn.other", name="Bjørn") == "Bjørn er i tur"
    assert has("en", "btn.pickup") and not has("en", "no.such.key")


def test_every_key_the_code_uses_exists() -> None:
    keys = used_keys()
    assert len(keys) > 60
    assert sorted(k for k in keys if k not in TEXT) == []


def test_every_rule_term_has_a_norwegian_name_and_an_english_gloss() -> None:
    wanted = {"stikk", "avstikk", "krig", "støting", "stunsa", "sjanse", "trumf", "undertrekk", "serie/rad",
              "bordmattis", "blåmattis", "Blodmattis"}
    assert wanted <= {nb for nb, _, _ in TERMS.values()}
    assert list(TERMS) == list(TERM_KEYS)
    for key, (nb, explain, en) in TERMS.items():
        assert t("nb", f"term.{key}") == nb
        # English keeps the Norwegian word and adds a gloss in brackets.
        assert re.fullmatch(re.escape(nb) + r" \(.+\)", en), en
        assert explain and t("nb", f"gloss.{key}") == f"{nb}: {explain}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_option_and_value_is_worded(lang: Lang) -> None:
    for f in dataclasses.fields(Rules):
        if f.name != "name":
            assert has(lang, f"opt.{f.name}"), f.name
    for option, values in CHOICES.items():
        for value in values:
            assert has(lang, f"val.{option}.{value}"), (option, value)
    for name in PRESETS:
        lines = rules_lines(preset(name), lang)
        assert t(lang, f"rules.preset.{name}") in lines
        # no raw option name is left untranslated in the rules screen
        shown = {line.split(":")[0].strip() for line in lines if line.startswith("  ")}
        assert not shown & {f.name for f in dataclasses.fields(Rules)}


def test_engine_reasons_are_all_translated() -> None:
    """Collect the engine's reasons from random games (every card, chance, pickup and some
    sequences tried at many points) and check each one has a Norwegian text."""
    rng = random.Random(4)
    reasons: set[Illegal] = set()
    for i in range(24):
        name = list(PRESETS)[i % 4]
        rules = preset(name, sequences=2) if name != "blodmattis" else preset(name, chance="lead")
        s = State.new(rules, players=2 + i % 3 if name != "blodmattis" else 3, seed=i)
        while not s.is_over:
            if rng.random() < 0.3:
                tries = [play(c) for c in range(52)] + [CHANCE, PICKUP]
                tries += [play(c, c + 1) for c in range(0, 51) if c % 13 != 12]
                tries += [play(0, 14), play(3, 4, 6)]
                for m in tries:
                    r = verify(s, m)
                    if r:
                        reasons.add(r)
            s.apply(rng.choice(s.legal_moves()))
        why = verify(s, CHANCE)
        if why:
            reasons.add(why)
    assert len({r.reason for r in reasons}) >= 10
    for r in reasons:
        nb = reason_text(r, "nb")
        assert nb != reason_text(r, "en"), f"engine reason without Norwegian text: {r!r}"


def test_you_takes_the_verb_form_for_you() -> None:
    you = "You"
    assert fix_you(describe_move(you, parse_move("play 4C"), (2,), "en"), you, "en") == "You play four of clubs"
    assert fix_you(describe_move(you, PICKUP, (2,), "en"), you, "en") == "You pick up four of clubs"
    assert fix_you(t("en", "end.loser.mattis", name=you), you, "en") == "You are Mattis!"
    assert (fix_you(describe_move(you, CHANCE, (2,), "en"), you, "en")
            == "You take a chance and turn up four of clubs")
    assert fix_you("Bjørn plays four of clubs", you, "en") == "Bjørn plays four of clubs"
    assert fix_you(describe_move("Du", CHANCE, (2,), "nb"), "Du", "nb") == "Du sjanser og snur kløver 4"
    assert describe_move("Du", PICKUP, (2,), "nb") == "Du tar opp kløver 4"


def find(rules: Rules, players: int, wanted: Callable[[Observation], bool]) -> Observation:
    """The first observation (of any seat) that ``wanted`` accepts, in seeded random games."""
    rng = random.Random(1)
    for seed in range(200):
        s = State.new(rules, players, seed=seed)
        while not s.is_over:
            for seat in range(players):
                obs = s.observation(seat)
                if wanted(obs):
                    return obs
            s.apply(rng.choice(s.legal_moves()))
    raise AssertionError("no such position came up")


FIGHT_WORDS = {"krig": ("krig", "krig (war)"), "stoting": ("støting", "støting (clash)"),
               "stunsa": ("stunsa", "stunsa (war)")}


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_fight_on_the_table_has_the_rules_name_and_the_human_is_deg(name: str) -> None:
    rules = preset(name)
    obs = find(rules, 3, lambda o: o.seat in o.fighters and len(o.fighters) >= 2)
    nb_word, en_word = FIGHT_WORDS[fight_term(rules)]
    cases: list[tuple[Lang, str, str, str]] = [("nb", nb_word, "Du", "deg"), ("en", en_word, "You", "you")]
    for lang, word, you, obj in cases:
        names = seat_names(3, obs.seat, lang)
        line = table_lines(obs, names, lang)[-1]
        assert word in line, line
        assert re.search(rf"\b{obj}\b", line) and not re.search(rf"\b{you}\b", line), line
        others = {"krig", "støting", "stunsa"} - {nb_word}
        assert not any(w in line for w in others), line
    assert table_lines(obs, seat_names(3, obs.seat, "nb"), "nb")[-1].startswith(f"Det er {nb_word} mellom ")


def test_the_face_down_trump_lies_with_deg() -> None:
    obs = find(preset("mattis"), 3, lambda o: o.trump is None and o.trump_holder == o.seat)
    assert trump_text(obs, seat_names(3, obs.seat, "nb"), "nb") == "ukjent, ligger med baksiden opp hos deg"
    assert trump_text(obs, seat_names(3, obs.seat, "en"), "en") == "unknown, lies face down with you"
