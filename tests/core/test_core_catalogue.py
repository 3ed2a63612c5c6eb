"""The one string catalogue: complete, the same fields in both languages, really
Norwegian in Norwegian, and the words that follow the rules in force."""

from __future__ import annotations

import re
import string

import pytest

from mattis.core import (
    OPTIONS,
    PRESETS,
    Illegal,
    Reason,
    Rules,
    RulesError,
    describe_move,
    parse_move,
    preset,
    reason_text,
)
from mattis.core.cards import SUIT_NAMES, SUIT_SYMBOLS, Lang
from mattis.core.catalogue import TERM_KEYS, TEXT
from mattis.core.text import as_object, describe_bot_move, fight_term, fight_word, option_label, option_value_text, say
from mattis.core.vocabulary import Termination

#: Keys whose text is rightly the same in both languages (names, symbols, bare fields).
SAME_IN_BOTH = {
    "status.loser.mattis", "loser.mattis", "loser.blodmattis", "trump.known", "end.loser_line",
    "end.blodmattis_line", "col.status", "hint", "hint.why", "btn.hint", "web.title", "web.bot_tag",
    "tui.keys.hint", "web.clock_min", "web.reacted", "moved.bot", "botmove.play", "web.chat_send",
}


def fields_of(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def key_faults(key: str) -> list[str]:
    """What is wrong with one catalogue key: an empty language, fields that differ
    between the languages, a field that is not named, or a brace left after formatting."""
    nb, en = TEXT[key]
    faults = []
    if not (nb.strip() and en.strip()):
        faults.append("an empty language")
    if fields_of(nb) != fields_of(en):
        faults.append(f"fields nb {sorted(fields_of(nb))} != en {sorted(fields_of(en))}")
    if not all(re.fullmatch(r"[a-z_]+", f) for f in fields_of(nb) | fields_of(en)):
        faults.append("a field that is not named")
    params = {f: "X" for f in fields_of(nb) | fields_of(en)}
    try:
        if "{" in say(key, "nb", **params) or "{" in say(key, "en", **params):
            faults.append("a brace left after formatting")
    except (KeyError, IndexError, ValueError) as e:
        faults.append(f"does not format: {e!r}")
    return faults


def test_every_key_has_both_languages_with_the_same_fields() -> None:
    # One check over every key (not a test case per key), naming each key at fault.
    faults = {key: f for key in sorted(TEXT) if (f := key_faults(key))}
    assert not faults, f"{len(faults)} keys at fault: {faults}"


@pytest.mark.parametrize(("nb", "en", "fault"), [
    ("Du", "", "an empty language"),
    ("{cards} tok", "{card} took", "fields nb ['cards'] != en ['card']"),
    ("{0} tok", "{0} took", "a field that is not named"),
])
def test_a_key_at_fault_is_named(nb: str, en: str, fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TEXT, "test.fault", (nb, en))
    assert fault in key_faults("test.fault")


def test_the_languages_differ_where_they_should() -> None:
    same = sorted(k for k, (nb, en) in TEXT.items() if nb == en)
    assert same == sorted(SAME_IN_BOTH)


def test_no_english_left_in_the_norwegian() -> None:
    english = re.compile(r"\b(the|and|you|your|of|is|with|cards?|player|trick|stock|pick|turn|game|won|laid)\b",
                         re.IGNORECASE)
    leaks = {k: nb for k, (nb, _) in TEXT.items() if english.search(re.sub(r"\{[a-z_]+\}", "", nb))}
    # The line mode's help names the commands the player types, in both languages ("pickup" is one).
    assert set(leaks) <= {"plain.bad_input", "plain.help"}, leaks


def test_the_norwegian_uses_the_rule_texts_words() -> None:
    nb = "\n".join(nb for nb, _ in TEXT.values())
    assert not re.search(r"\bta[rs]? inn\b", nb), "one word for picking up: ta opp"
    assert "bildesiden" not in nb and "bildet ned" not in nb, "cards lie med baksiden opp"
    assert not re.search(r"\bstokken\b", nb), "the stock is bunken"
    assert "Forrige stikk" not in nb, "one name for the last trick: Siste stikk"
    assert "ta opp" in say("move.pickup", "nb") and say("btn.pickup", "nb") == "Ta opp"
    assert describe_move("Cato", parse_move("pickup"), (2,), "nb") == "Cato tar opp kløver 4"


def test_every_reason_has_words_and_no_stale_reason_remains() -> None:
    codes = {f"reason.{r}" for r in Reason}
    assert codes == {k for k in TEXT if k.startswith("reason.")}  # one wording per reason
    pick_up = reason_text(Illegal(Reason.MUST_FOLLOW_SUIT_PICK_UP), "en")
    assert pick_up.startswith("you hold the suit but nothing higher")
    for r in Reason:
        ill = Illegal(r, cards=(9,), number=2)
        assert reason_text(ill, "nb") != reason_text(ill, "en"), r
        assert "{" not in reason_text(ill, "nb")
    assert reason_text(Illegal(Reason.MUST_BEAT, cards=(9,)), "nb") == "det må være høyere enn J♣"


def test_every_rule_option_and_value_is_explained() -> None:
    """Each option of the option table has its label, and each word value its words,
    in both languages; no stale entry remains."""
    assert {f"opt.{spec.name}" for spec in OPTIONS} == {k for k in TEXT if k.startswith("opt.")}
    values = {f"val.{spec.name}.{v}" for spec in OPTIONS if spec.kind == "word" for v in spec.values}
    values |= {"val.yes", "val.no", "val.sequences.0"}  # booleans; sequences=0 means none
    assert values == {k for k in TEXT if k.startswith("val.")}
    for spec in OPTIONS:
        for value in spec.values:
            for lang in ("nb", "en"):
                words = option_value_text(spec.name, value, lang)
                assert words and (spec.kind == "int" or words != str(value)), (spec.name, value, lang)


def test_every_preset_end_and_term_is_worded() -> None:
    assert {f"rules.preset.{p}" for p in PRESETS} == {k for k in TEXT if k.startswith("rules.preset.")}
    assert {f"end.reason.{t}" for t in Termination if t is not Termination.NORMAL} == {
        k for k in TEXT if k.startswith("end.reason.")}
    assert {f"term.{k}" for k in TERM_KEYS} == {k for k in TEXT if k.startswith("term.")}
    assert {f"gloss.{k}" for k in TERM_KEYS} == {k for k in TEXT if k.startswith("gloss.")}
    for key in TERM_KEYS:
        word, gloss_en = TEXT[f"term.{key}"][0], TEXT[f"gloss.{key}"][1]
        assert TEXT[f"gloss.{key}"][0].startswith(word + ": ")
        # English keeps the Norwegian word and adds a gloss in brackets.
        assert re.fullmatch(re.escape(word) + r" \(.+\)", TEXT[f"term.{key}"][1])
        assert re.fullmatch(re.escape(word) + r" \(.+\)", gloss_en)


def test_suits_are_named_as_on_the_cards() -> None:
    for i in range(4):
        for lang in ("nb", "en"):
            assert say(f"suit.{i}", lang) == f"{SUIT_NAMES[lang][i]} {SUIT_SYMBOLS[i]}"


@pytest.mark.parametrize(("rules", "term", "nb"), [
    (preset("mattis"), "krig", "krig"),
    (preset("hund"), "krig", "krig"),
    (preset("blodmattis"), "stoting", "støting"),
    (preset("skitgubbe"), "stunsa", "stunsa"),
    (preset("mattis", ties="stoting"), "stoting", "støting"),
    (preset("skitgubbe", ties="stoting"), "stoting", "støting"),
    (preset("blodmattis", ties="war"), "krig", "krig"),
])
def test_the_fight_is_called_what_the_rules_call_it(rules: Rules, term: str, nb: str) -> None:
    assert fight_term(rules) == term
    assert fight_word(rules, "nb") == nb
    assert fight_word(rules, "en").startswith(nb + " (")


def test_the_human_is_deg_in_the_object_case() -> None:
    line = say("table.fight", "nb", fight="krig", names="Cato og " + as_object("Du", "nb"))
    assert line == "Det er krig mellom Cato og deg!"
    assert as_object("You", "en") == "you" and as_object("Dina", "en") == "Dina"


def test_the_move_lines_and_the_you_are_the_catalogues() -> None:
    import inspect

    import mattis.core.text

    # say() itself picks the language; nothing else in core.text holds words of its own.
    source = inspect.getsource(mattis.core.text).replace(inspect.getsource(say), "")
    assert not re.search(r"""lang\s*[!=]=\s*["']""", source), "no inline nb/en pairs in core.text"
    assert seat_names_you("nb") == TEXT["word.you"][0] and seat_names_you("en") == TEXT["word.you"][1]
    shown = (2, 3, 4)
    # a serie as a card player says it: the suit once ("kløver 4, 5 og 6", not "serien kløver 4, kløver 5 ...")
    assert describe_move("Du", parse_move("play 4C 5C 6C"), shown, "nb") == "Du legger kløver 4, 5 og 6"
    assert describe_move("You", parse_move("play 4C 5C 6C"), shown, "en") == "You play four, five and six of clubs"
    assert describe_move("Cato", parse_move("play TS JS QS"), (), "nb") == "Cato legger spar 10, knekt og dame"
    assert describe_bot_move("Anne", parse_move("play 2D 3D"), (), "clock", "nb") == \
        "Bot for Anne: ruter 2 og 3 (tiden gikk ut)"
    assert describe_bot_move("Anne", parse_move("play 2D 3D"), (), "clock", "en") == \
        "Bot for Anne: two and three of diamonds (time ran out)"
    assert describe_move("Cato", parse_move("chance"), (), "en") == "Cato takes a chance"


def seat_names_you(lang: Lang) -> str:
    from mattis.core import seat_names

    return seat_names(2, 0, lang)[0]


# ------------------------------------------------------------------ the words, over every string
#: Keys that teach the player how to type a card, a move or a house rule: there the code is the point.
TYPING_HELP = {"plain.help", "plain.bad_input", "web.refused.move_not_text", "web.bad_override", "web.overrides",
               "web.refused.bad_overrides"}

CARD_CODE = re.compile(r"(?<![\w♣♦♥♠])(?:10|[2-9TJQKA])[CDHS](?![\w])")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def strings(lang: Lang) -> dict[str, str]:
    """Every catalogue string in ``lang`` with its fields blanked out."""
    i = 0 if lang == "nb" else 1
    return {k: re.sub(r"\{[a-z_]+\}", "", v[i]) for k, v in TEXT.items()}


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_no_card_codes_option_identifiers_or_engine_limits(lang: Lang) -> None:
    cap = str(Rules().phase2_cap)
    for key, text in strings(lang).items():
        if key not in TYPING_HELP:
            assert not CARD_CODE.search(text), (key, text)
        assert not SNAKE.search(text), (key, text)  # pickup_optional, phase2_cap, ...
        assert cap not in text, (key, text)
        if key not in TYPING_HELP:
            assert not re.search(r"\b[a-z]\w*=\w", text), (key, text)  # no option=value spelled out


OPTION_VALUES = [(spec.name, v) for spec in OPTIONS if spec.shown for v in spec.values]


def _with(option: str, value: object) -> Rules:
    """``mattis`` with ``option=value`` (another preset where ``mattis`` refuses it)."""
    for name in ["mattis", *sorted(PRESETS)]:
        try:
            return preset(name, **{option: value})
        except RulesError:
            continue
    raise AssertionError(f"no preset takes {option}={value}")


@pytest.mark.parametrize(("option", "value"), OPTION_VALUES, ids=[f"{o}={v}" for o, v in OPTION_VALUES])
@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_rules_in_force_name_every_value(option: str, value: object, lang: Lang) -> None:
    """Every value of every option of the table is said in words (never an identifier,
    never the engine's cap) in the rules in force, and how to play renders under it."""
    from mattis.core.text import how_to_play, leader2_key, option_applies, rules_in_words

    rules = _with(option, value)
    words = dict(rules_in_words(rules, lang))
    for label, said in words.items():
        assert not SNAKE.search(label) and not SNAKE.search(said), (label, said)
        assert str(rules.phase2_cap) not in said
    assert say("opt.phase2_cap", lang) not in words
    label = option_label(option, lang)
    if not option_applies(rules, option) and option not in rules.overrides():
        assert label not in words  # an option that cannot change this game is not listed
    elif option == "leader2" and leader2_key(rules) == "last_drawer":
        assert words[label] == say("lead2.last_drawer", lang)
    elif option == "chance" and value != "off":  # when, with the stock it needs
        assert words[label].startswith(option_value_text(option, value, lang) + ", ")
    elif option != "ties":  # the fight has the variant's own word
        assert words[label] == option_value_text(option, value, lang)
    parts = how_to_play(rules, lang)
    assert parts and all(h and p for h, p in parts)
    assert not CARD_CODE.search(" ".join(p for _, p in parts))


def test_pronoun_case_after_og_and_mellom() -> None:
    nb = strings("nb")
    en = strings("en")
    for key, text in nb.items():
        assert not re.search(r"\b(og|mellom|med|til|for|hos|enn|fra|om) Du\b", text), (key, text)
    for key, text in en.items():
        assert not re.search(r"\b(and|between|with|to|for|than|from) You\b", text), (key, text)
    # Fields that name people after "og"/"mellom" are filled with the object form by core.text.as_object.
    assert say("table.fight", "nb", fight="krig", names="Cato og " + as_object("Du", "nb")).endswith("Cato og deg!")
    assert say("table.fight", "en", fight="krig (war)",
               names="Cato and " + as_object("You", "en")).endswith("Cato and you!")


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_loser_has_the_variants_own_word(name: str, lang: Lang) -> None:
    from mattis.core.text import how_to_play, loser_sentence, loser_term, loser_word

    rules = preset(name)
    word = loser_word(rules, lang)
    assert word in loser_sentence(rules, "Per", lang)
    text = " ".join(p for _, p in how_to_play(rules, lang))
    if loser_term(rules) == "skitgubbe":
        assert "skitgubbe" in word and "Mattis" not in text and "skitgubbe" in text
    else:
        assert word == "Mattis" and "skitgubbe" not in text.lower()
    # Every text that names the loser per variant has both variants.
    for key in TEXT:
        if key.endswith(".mattis") and key.count(".") >= 1 and not key.startswith(("term.", "gloss.", "rules.")):
            assert key[: -len("mattis")] + "skitgubbe" in TEXT, key


def test_one_norwegian_word_per_action() -> None:
    nb = "\n".join(strings("nb").values())
    assert not re.search(r"\b(tar|ta|tatt|tok) inn\b", nb), "picking up is 'ta opp'"
    assert not re.search(r"\b(plukk|plukker|henter)\b", nb), "picking up is 'ta opp'"
    assert not re.search(r"\b[Hh]aug(en)?\b", nb), "the stock is 'bunke'"
    assert "bildesiden" not in nb and "med forsiden ned" not in nb, "cards lie 'med baksiden opp'"
    assert not re.search(r"\bsin tur\b", nb), "'Bjørn er i tur', not 'Bjørn sin tur'"
    assert not re.search(r"\bspiller(e|ne)? med da\b", nb)
    en = "\n".join(strings("en").values())
    assert not re.search(r"\btakes? in\b|\bdraws? in\b", en), "picking up is 'pick up'"


HOWTO_CASES = [(name, "", None) for name in sorted(PRESETS)] + [("", o, v) for o, v in OPTION_VALUES]


@pytest.mark.parametrize(("name", "option", "value"), HOWTO_CASES,
                         ids=[n or f"{o}={v}" for n, o, v in HOWTO_CASES])
@pytest.mark.parametrize("lang", ["nb", "en"])
def test_how_to_play_covers_what_applies(name: str, option: str, value: object, lang: Lang) -> None:
    """Under every preset and every value of every option of the table."""
    from mattis.core.text import fight_word, how_to_play

    rules = preset(name) if name else _with(option, value)
    parts = how_to_play(rules, lang)
    headings = [h for h, _ in parts]
    text = " ".join(p for _, p in parts)
    for key in ("howto.h.goal", "howto.h.trick", "howto.h.draw", "howto.h.fight", "howto.h.trumf",
                "howto.h.phase2", "howto.h.pickup", "howto.h.loser"):
        assert say(key, lang) in headings
    assert (say("howto.h.sjanse", lang) in headings) == (rules.chance.value != "off")
    assert (say("howto.h.serie", lang) in headings) == bool(rules.sequences)
    assert fight_word(rules, lang).split(" (")[0] in text
    for other in ("krig", "støting", "stunsa"):
        if other != fight_word(rules, "nb"):
            assert other not in text.replace("krigen", ""), other
    assert not CARD_CODE.search(text) and not SNAKE.search(text)
    if lang == "en":
        assert not re.search(r"\b(og|ikke|du|kortet)\b", text)


def test_how_to_play_follows_house_rules() -> None:
    from mattis.core.text import how_to_play

    text = " ".join(p for _, p in how_to_play(preset("mattis", ties="stoting", sequences=2), "nb"))
    assert "støting" in text and "krig" not in text
    assert "2 eller flere kort på rad" in text
