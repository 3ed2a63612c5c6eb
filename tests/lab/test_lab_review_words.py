"""The review in plain words (mattis.lab.review_words): only what the review supports,
with its uncertainty, in both languages."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from mattis.bots.evaluate import CALIBRATION, Budget, MoveValue, Verdict, shown_margin
from mattis.bots.value import CALIBRATION as MODEL_CALIBRATION
from mattis.bots.value import luck_calibration
from mattis.core import parse_move, preset
from mattis.core.cards import Lang
from mattis.lab.review import Decision, Review
from mattis.lab.review_words import accuracy_words, costly_words, luck_words, margin, player_words

TABLE_CALIBRATION = luck_calibration(preset("mattis"), 2) or 0.0
"""The model's calibration error at phase 2's start at two players in Mattis, the table of :func:`reviewed`."""
PLAYED = parse_move("play 4C")
BEST = parse_move("play KC")
OTHER = parse_move("pickup")


def decision(number: int, before: float, after: float, se: float, phase: int = 2) -> Decision:
    """A decision judged from playouts alone (no solver verdict: never marked)."""
    moves = (MoveValue(PLAYED, after, None, se), MoveValue(BEST, before, None, se), MoveValue(OTHER, 0.0, None, se))
    return Decision(number, phase, PLAYED, BEST, before, after, None, None, 64, moves)


def proven(number: int, after: float, se: float) -> Decision:
    """A decision the solver proves lost: K♣ wins with best play, 4♣ lets the others force the loss (its
    chance from the playouts), the pickup too."""
    moves = (MoveValue(PLAYED, after, Verdict.CAN_BE_FORCED, se), MoveValue(BEST, 1.0, Verdict.WINS, 0.0),
             MoveValue(OTHER, 0.0, Verdict.LOSES, 0.0))
    return Decision(number, 2, PLAYED, BEST, 1.0, after, Verdict.WINS, Verdict.CAN_BE_FORCED, 64, moves)


def reviewed(decisions: tuple[Decision, ...], luck: float | None = 0.5, luck_se: float = 0.05) -> Review:
    return Review(preset("mattis"), 2, 0, "Anne", Budget(samples=64), 0, 40, 3, "lost", decisions, luck, luck_se)


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_costliest_three_marked_choices_in_order(lang: Lang) -> None:
    ds = (proven(10, 0.4, 0.02), decision(12, 0.6, 0.58, 0.02), proven(14, 0.8, 0.02),
          proven(16, 0.9, 0.02), proven(18, 0.1, 0.02), decision(3, 0.9, 0.0, 0.02, phase=1),
          decision(20, 0.95, 0.05, 0.02))
    w = player_words(reviewed(ds), lang)
    # 18 (cost 90), 10 (60), 14 (20) are proven; 16 (10) is fourth; 20's cost of 90 is an estimate, not a proof,
    # so it is not marked; phase 1 is unjudged
    assert [d.number for d in ds if d.mark] == [10, 14, 16, 18]
    assert len(w.choices) == 3
    assert [c.split(" ")[1] for c in w.choices] == ["18", "10", "14"]
    assert w.heading == ("De 3 dyreste valgene:" if lang == "nb" else "The 3 costliest choices:")
    first = w.choices[0]
    assert ("falt fra 100 % til 10 %" if lang == "nb" else "fell from 100% to 10%") in first
    assert f"± {margin(ds[4])} " in first
    assert "K♣" in first and "4♣" in first  # the better move is named: it is resolved


def test_an_unresolved_better_move_is_not_named() -> None:
    d = proven(20, 0.5, 0.02)
    close = Decision(20, 2, PLAYED, BEST, 1.0, 0.5, Verdict.WINS, None, 64,
                     (MoveValue(PLAYED, 0.5, None, 0.02), MoveValue(BEST, 1.0, Verdict.WINS, 0.0),
                      MoveValue(OTHER, 1.0, Verdict.WINS, 0.0)))  # the pickup wins too
    assert d.resolved and not close.resolved and close.mark == "??"
    # far ahead in the playouts, but not proven: not named
    assert not decision(20, 0.99, 0.01, 0.001).resolved
    rv = reviewed((close,))
    en = costly_words(close, rv, "en")
    assert "K♣" not in en and "another move was better (several may be as good)" in en
    assert "et annet trekk var bedre" in costly_words(close, rv, "nb")


def test_no_marked_choice_says_so() -> None:
    w = player_words(reviewed((decision(5, 0.6, 0.58, 0.02),)), "en")
    assert w.choices == () and w.heading == "No choice was marked."
    assert player_words(reviewed(()), "nb").heading == "Anne hadde ingen valg å vurdere."


@pytest.mark.parametrize("luck,se,verdict", [(0.8, 0.05, "better than average"), (0.2, 0.05, "worse than average"),
                                             (0.58, 0.05, "about average"), (0.8, 0.2, "about average"),
                                             (0.62, 0.05, "about average")])  # 2.4 standard errors: not said
def test_the_deal_is_called_lucky_only_beyond_its_uncertainty(luck: float, se: float, verdict: str) -> None:
    text = luck_words(reviewed((), luck, se), "en")
    assert text is not None
    assert text.endswith(verdict + ".")
    # ± two standard errors of the sampling and the calibration error together
    assert f"{round(100 * luck)}% ± {round(100 * shown_margin(se))}%" in text and "gives 50%" in text
    assert luck_words(reviewed((), None), "en") is None


@pytest.mark.parametrize("luck", [0.9, 0.1, 0.5])
def test_the_model_luck_is_one_figure_with_its_caveat_and_never_called_good_or_poor(luck: float) -> None:
    """The value model's chance at phase 2's start is said as a rough guide, ± two times the
    model's measured calibration error, never as better or worse than average."""
    rv = replace(reviewed((), luck, 0.0), luck_by="model")
    en, nb = luck_words(rv, "en"), luck_words(rv, "nb")
    assert en is not None and nb is not None
    pm = round(200 * TABLE_CALIBRATION)
    assert (f"by the model, the hand and position Anne had when phase 2 began gave a {round(100 * luck)}% ± {pm}% "
            "chance" in en and "gives 50%" in en)
    assert "rough guide" in en
    assert (f"etter modellen ga hånden og stillingen Anne hadde da fase 2 begynte, {round(100 * luck)} % ± {pm} % "
            "sjanse" in nb)
    assert "pekepinn" in nb
    for text in (en, nb):
        assert not any(w in text for w in ("better than average", "worse than average", "bedre enn snittet",
                                           "dårligere enn snittet"))


def test_accuracy_with_its_uncertainty_over_the_judged_choices() -> None:
    rv = reviewed((decision(10, 0.9, 0.9, 0.02), decision(12, 0.6, 0.6, 0.02), decision(3, 0.9, 0.0, 0.02, phase=1)))
    acc = rv.accuracy()
    assert acc is not None and round(acc[0]) == 100
    text = accuracy_words(rv, "nb")
    assert round(acc[1]) == 9  # the delta method on two costs of ± 2.8 points; shown ± two standard errors
    # both costs 0: within the noise; the average cost 0 ± two standard errors of the mean (2.8·√2/2 = 2 points,
    # times two = 4)
    assert text == ("Spillet i fase 2: 100 av 100 ± 18 for Anne (100 er alltid det beste trekket; over 2 vurderte "
                    "valg). 2 av 2 valg var like gode som det beste så langt anslaget kan skille dem, og i snitt "
                    "kostet et valg 0 ± 4 prosentpoeng.")
    assert accuracy_words(reviewed(()), "en") is None
    w = player_words(rv, "en")
    assert w.summary == (luck_words(rv, "en"), accuracy_words(rv, "en"))


def test_the_terminal_prints_the_same_sentences() -> None:
    from mattis.tui.review_words import player_review_lines

    ds = (proven(10, 0.3, 0.02), proven(14, 0.5, 0.02))
    rv = reviewed(ds, 0.8, 0.05)
    w = player_words(rv, "nb")
    lines = player_review_lines(rv, "nb")
    head = " ".join(line.strip() for line in lines[:lines.index(w.detail)])
    for sentence in (*w.summary, w.heading, *w.choices):
        assert " ".join(sentence.split()) in head


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_one_marked_choice_is_headed_in_the_singular(lang: Lang) -> None:
    w = player_words(reviewed((proven(10, 0.3, 0.02), decision(12, 0.9, 0.1, 0.02))), lang)
    assert len(w.choices) == 1
    assert w.heading == ("Det dyreste valget:" if lang == "nb" else "The costliest choice:")


def test_within_the_noise_counts_the_choices_whose_cost_two_standard_errors_cover() -> None:
    # costs 0, 3 points (± 2 standard errors = 5.7: within the noise) and 30 points (not)
    rv = reviewed((decision(10, 0.9, 0.9, 0.02), decision(12, 0.6, 0.57, 0.02), decision(14, 0.8, 0.5, 0.02),
                   decision(3, 0.9, 0.0, 0.02, phase=1)))
    assert rv.within_noise() == (2, 3)
    cost = rv.mean_cost()
    assert cost is not None and cost[0] == pytest.approx(0.11)
    assert cost[1] == pytest.approx((3 * 2 * 0.02 ** 2) ** 0.5 / 3)  # each cost's paired se, independent
    s = rv.summary()
    assert s["within_noise"] == 2 and s["mean_cost"] == pytest.approx(0.11)
    en = accuracy_words(rv, "en")
    assert en is not None and "2 of 3 choices were as good as the best as far as the estimate can tell" in en
    assert "a choice cost 11 ± 3 points on average" in en


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_person_reviewed_is_du_inside_a_sentence(lang: Lang) -> None:
    """A review of the person's own game (the seat called "Du"/"You") says "du"/"you"
    inside a sentence ("etter modellen hadde du", "stillingen du hadde", "du valgte") and
    "deg" as the object ("for deg"); at the start of a sentence "Du"/"You" stays."""
    from mattis.lab.review import review_text

    you = "Du" if lang == "nb" else "You"
    rv = replace(reviewed((proven(10, 0.4, 0.02), decision(12, 0.6, 0.58, 0.02))), name=you)
    model = replace(rv, luck_by="model", luck_se=0.0)
    said = [luck_words(rv, lang), luck_words(model, lang), accuracy_words(rv, lang),
            costly_words(rv.decisions[0], rv, lang), review_text(rv, lang), review_text(model, lang)]
    text = "\n".join(s for s in said if s is not None)
    inside = [line for line in text.splitlines() for m in re.finditer(rf"\b{you}\b", line)
              if m.start() > 0 and not re.search(r"[.!?] $", line[:m.start()])]
    assert inside == []
    expected = (("stillingen du hadde", "etter modellen hadde du", "Kortene: du hadde", "for deg", "du valgte")
                if lang == "nb" else
                ("position you had", "by the model you had", "The cards: you had", "for you", "you chose"))
    assert all(words in text for words in expected), [w for w in expected if w not in text]


def test_a_chance_from_playouts_carries_their_calibration_error_in_its_margin() -> None:
    """The ± of a chance shown to a player is two standard errors of its sampling and of
    the playouts' measured calibration error together: never under the calibration error's
    two (however many playouts), always over the sampling's alone; none for a proof."""
    for samples, after in ((8, 0.5), (64, 0.3), (100_000, 0.9)):
        d = Decision(12, 2, PLAYED, BEST, 0.95, after, None, None, samples, ())
        se = ((after * (1 - after)) / samples) ** 0.5  # the sampling error of a proportion
        m = margin(d)
        assert m is not None and m >= round(200 * CALIBRATION) and m > round(200 * se)
        assert m == round(200 * (se ** 2 + CALIBRATION ** 2) ** 0.5)
    assert margin(Decision(12, 2, PLAYED, BEST, 1.0, 0.0, Verdict.WINS, Verdict.LOSES, 0, ())) is None


def test_the_model_luck_is_shown_plus_minus_two_times_its_calibration_error() -> None:
    """The model's luck has no sampling error; its ± is two times the model's measured
    calibration error (mattis.bots.value.CALIBRATION), in the text, the words and the
    JSON, and a review saved as JSON loads with it (older ones, without the field, too)."""
    from mattis.lab.review import review_text

    assert MODEL_CALIBRATION > 0 and TABLE_CALIBRATION > 0
    rv = replace(reviewed((), 0.7, 0.0), luck_by="model")
    assert rv.luck_margin() == pytest.approx(2 * TABLE_CALIBRATION)
    assert shown_margin(0.0, TABLE_CALIBRATION) == pytest.approx(2 * TABLE_CALIBRATION)
    pm = round(200 * TABLE_CALIBRATION)
    assert f"had a 70% ± {pm}% chance when phase 2 began" in review_text(rv, "en")
    assert f"hadde Anne 70 % ± {pm} % sjanse da fase 2 begynte" in review_text(rv, "nb")
    summary = rv.to_json()["summary"]
    assert summary["luck_se"] == 0.0 and summary["luck_margin"] == pytest.approx(2 * TABLE_CALIBRATION, abs=1e-4)
    old = rv.to_json()
    del old["summary"]["luck_margin"]
    assert Review.from_json(old).luck_margin() == pytest.approx(2 * TABLE_CALIBRATION)
    # The playouts' luck keeps its own: its sampling and the playouts' calibration error.
    assert reviewed((), 0.7, 0.05).luck_margin() == pytest.approx(2 * (0.05 ** 2 + CALIBRATION ** 2) ** 0.5)
    assert reviewed((), None).luck_margin() == 0.0


def test_the_model_luck_is_shown_only_where_the_model_tells_seats_apart() -> None:
    """The model's luck at phase 2's start is shown only at a table where its measured
    skill over the base rate lay above zero (mattis.bots.value.LUCK_SKILL): at four players
    in Mattis it is worked out (the JSON keeps it) but neither the text nor the words show
    it, and the text says why; at three players it is shown; house rules never; the
    playouts' luck (without NumPy) always, with its own ±."""
    import dataclasses

    from mattis.bots.value import LUCK_SKILL, luck_informative
    from mattis.lab.review import review_text

    assert LUCK_SKILL and all(skill > 0 and calibration > 0 for skill, calibration in LUCK_SKILL.values())
    four = Review(preset("mattis"), 4, 0, "Anne", Budget(samples=64), 0, 40, 3, "lost", (), 0.7, 0.0, "model")
    assert not four.luck_shown
    assert luck_words(four, "en") is None and luck_words(four, "nb") is None
    assert not any("when phase 2 began" in s for s in player_words(four, "en").summary)
    text = review_text(four, "en")
    assert "so the luck is not shown" in text and "70%" not in text
    assert "så flaksen blir ikke vist" in review_text(four, "nb")
    summary = four.to_json()["summary"]
    assert summary["luck"] == 0.7 and summary["luck_shown"] is False
    three = replace(four, players=3)
    assert three.luck_shown and luck_informative(preset("mattis"), 3)
    shown = luck_words(three, "en")
    three_calibration = luck_calibration(preset("mattis"), 3)
    assert shown is not None and three_calibration is not None and f"70% ± {round(200 * three_calibration)}%" in shown
    assert "not shown" not in review_text(three, "en")
    house = replace(three, rules=dataclasses.replace(preset("mattis"), pickup_optional=True))
    assert not house.luck_shown and luck_words(house, "en") is None
    assert replace(four, luck_by="playouts", luck_se=0.05).luck_shown
