"""Every UI string in both languages; every rule term translated; engine reasons in Norwegian."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import string
from pathlib import Path

import pytest

import mattis.tui
from mattis.core import (
    CHANCE,
    CHOICES,
    PICKUP,
    PRESETS,
    Illegal,
    Rules,
    State,
    describe_move,
    parse_move,
    play,
    preset,
    reason_text,
)
from mattis.tui.i18n import LANGS, STRINGS, TERMS, t
from mattis.tui.render import rules_lines
from mattis.tui.session import fix_you

TUI_DIR = Path(mattis.tui.__file__).parent


def fields_of(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_no_key_missing_from_either_language() -> None:
    nb, en = STRINGS["nb"], STRINGS["en"]
    assert sorted(set(nb) - set(en)) == []
    assert sorted(set(en) - set(nb)) == []
    for key in nb:
        assert fields_of(nb[key]) == fields_of(en[key]), key
        assert nb[key].strip() and en[key].strip(), key


def used_keys() -> set[str]:
    """Every literal key passed to ``t(lang, "...")`` in the UI's source."""
    keys: set[str] = set()
    for path in [*TUI_DIR.glob("*.py"), TUI_DIR.parent / "cli" / "play.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t"
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                keys.add(node.args[1].value)
    return keys


def test_every_key_the_code_uses_exists() -> None:
    keys = used_keys()
    assert len(keys) > 60
    for lang in LANGS:
        assert sorted(k for k in keys if k not in STRINGS[lang]) == []


def test_every_rule_term_has_a_norwegian_name_and_an_english_gloss() -> None:
    wanted = {"stikk", "avstikk", "krig", "støting", "stunsa", "sjanse", "trumf", "undertrekk", "serie/rad",
              "bordmattis", "blåmattis", "Blodmattis"}
    assert wanted <= {nb for nb, _, _ in TERMS.values()}
    for key, (nb, explain, en) in TERMS.items():
        assert t("nb", f"term.{key}") == nb
        # English keeps the Norwegian word and adds a gloss in brackets.
        assert re.fullmatch(re.escape(nb) + r" \(.+\)", en), en
        assert explain and t("nb", f"gloss.{key}").startswith(nb + ": ")


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_option_and_value_is_worded(lang: str) -> None:
    for f in dataclasses.fields(Rules):
        if f.name != "name":
            assert f"opt.{f.name}" in STRINGS[lang], f.name
    for option, values in CHOICES.items():
        for value in values:
            assert f"val.{option}.{value}" in STRINGS[lang], (option, value)
    for name in PRESETS:
        lines = rules_lines(preset(name), lang)  # type: ignore[arg-type]
        assert f"rules.preset.{name}" in STRINGS[lang]
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
                    r = s.why_illegal(m)
                    if r:
                        reasons.add(r)
            s.apply(rng.choice(s.legal_moves()))
        why = s.why_illegal(CHANCE)
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
    assert fix_you(t("en", "log.mattis", name=you), you, "en") == "You are Mattis!"
    assert (fix_you(describe_move(you, CHANCE, (2,), "en"), you, "en")
            == "You take a chance and turn up four of clubs")
    assert fix_you("Bjørn plays four of clubs", you, "en") == "Bjørn plays four of clubs"
    assert fix_you(describe_move("Du", CHANCE, (2,), "nb"), "Du", "nb") == "Du sjanser og snur kløver 4"
