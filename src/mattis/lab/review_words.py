"""The game review in plain words, for players rather than analysts: the three
costliest choices as sentences, the deal's luck and an accuracy figure, each with its
uncertainty, in both languages (through the catalogue).

This is the language-neutral part shared by every front end: the terminal and line
mode draw it under an 80-column chart (:mod:`mattis.tui.review_words`), the web page
under an SVG chart (:mod:`mattis.web.analysis` sends :func:`player_words` with the
review).  Only what the review supports is said:

* a choice is named only if the review marked it (the solver's proof, or a cost that
  a second look with eight times the playouts confirms; the same under any sampling
  seed: :attr:`mattis.lab.review.Decision.mark`), and the better move only where the
  review names it (:attr:`mattis.lab.review.Decision.named`; else "another move was
  better; several may be as good");
* every figure comes with about two standard errors (:data:`~mattis.bots.evaluate.Z`):
  a chance from playouts (:func:`margin`), the deal's luck, the accuracy; a chance the
  solver decided says it was worked out exactly;
* the luck is the value model's chance at phase 2's start, with the seat's phase 2
  hand and position (one figure, the same under any seed): there the model predicts
  better than the base rate, right after the deal it does not (docs/analyze.md), so the
  deal itself is not rated; said as a rough guide, ± two times the model's measured
  calibration error (:meth:`mattis.lab.review.Review.luck_margin`), never called better
  or worse than average.  Without NumPy it is estimated by
  playouts and called better or worse than average only when the average is more than
  :data:`LUCK_Z` standard errors away, so that a review with another sampling seed
  (whose estimate moves by about √2 standard errors) says the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from ..bots.evaluate import Z, shown_margin
from ..core.cards import Lang
from ..core.text import as_object, in_sentence, loser_word, say
from .review import Decision, Review, move_words, pct

__all__ = ["LUCK_Z", "PlayerWords", "accuracy_words", "costly_words", "luck_words", "margin", "player_words"]


LUCK_Z: Final = 3.0
"""Standard errors between the deal's luck and the average before it is called better or worse."""


def margin(d: Decision) -> int | None:
    """About two standard errors of ``d``'s estimate of the move made, its sampling and
    the playouts' calibration error together (:func:`mattis.bots.evaluate.shown_margin`),
    in percentage points (``None`` when the solver decided it: exact)."""
    if d.samples <= 0:
        return None
    p = min(max(d.after, 0.0), 1.0)
    se = math.sqrt(max(p * (1 - p), 0.25 / d.samples) / d.samples)
    return max(1, round(100 * shown_margin(se)))


def costly_words(d: Decision, rv: Review, lang: Lang) -> str:
    """One costly choice in plain words: what was done, what was better (only where the
    review names it), and the chance before and after, with its uncertainty."""
    plus = margin(d)
    sure = say("review.words.exact", lang) if plus is None else say("review.words.margin", lang, n=plus)
    key = "review.words.choice" if d.named else "review.words.choice_open"
    return say(key, lang, n=d.number, phase=d.phase, name=in_sentence(rv.name, lang), played=move_words(d.played, lang),
               best=move_words(d.best, lang), before=round(100 * d.before), after=round(100 * d.after), sure=sure)


def luck_words(rv: Review, lang: Lang) -> str | None:
    """The luck at phase 2's start in a sentence: the model's figure with its caveat, or
    the playouts' ± about two standard errors (None for a game that began from a position
    in phase 2 or ended before it, and where the model's luck is not shown:
    :attr:`mattis.lab.review.Review.luck_shown`)."""
    if rv.luck is None or not rv.luck_shown:
        return None
    if rv.luck_by == "model":  # one figure, no sampling error: its ± is the model's calibration error
        return say("review.words.luck_model", lang, name=in_sentence(rv.name, lang), p=pct(rv.luck, lang),
                   se=pct(rv.luck_margin(), lang), base=pct(rv.base_rate, lang))
    gap = rv.luck - rv.base_rate
    verdict = ("good" if gap > LUCK_Z * rv.luck_se else "poor" if -gap > LUCK_Z * rv.luck_se else "even")
    return say("review.words.luck", lang, name=in_sentence(rv.name, lang), p=pct(rv.luck, lang),
               se=pct(rv.luck_margin(), lang),
               base=pct(rv.base_rate, lang), verdict=say(f"review.words.luck_{verdict}", lang))


def accuracy_words(rv: Review, lang: Lang) -> str | None:
    """The per-game accuracy in a sentence, ± about two standard errors, then how many
    choices were within the noise of the best and the average cost ± about two standard
    errors (None when no decision was judged)."""
    acc = rv.accuracy()
    if acc is None:
        return None
    k, n = rv.within_noise()
    cost = rv.mean_cost()
    assert cost is not None  # judged decisions, as the accuracy has
    return (say("review.words.accuracy", lang, name=as_object(rv.name, lang), acc=round(acc[0]),
                se=max(1, round(Z * acc[1])), n=n)
            + " " + say("review.words.within", lang, k=k, n=n, cost=round(100 * cost[0]),
                        se=max(1, round(100 * Z * cost[1]))))


@dataclass(frozen=True, slots=True)
class PlayerWords:
    """The review for a player, as sentences: what every front end shows above the detail."""

    title: str
    """The chart's title."""
    summary: tuple[str, ...]
    """The deal's luck and the accuracy (those that apply)."""
    heading: str
    """"The 3 costliest choices:" (or, when none was marked, that none cost much)."""
    choices: tuple[str, ...]
    """The costliest marked choices in words, costliest first (at most three)."""
    detail: str
    """The heading of the detail, for whoever reads on."""

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "summary": list(self.summary), "heading": self.heading,
                "choices": list(self.choices), "detail": self.detail}


def player_words(rv: Review, lang: Lang) -> PlayerWords:
    """The sentences of the review for a player (see the module docstring)."""
    top = rv.costliest(3)
    heading = (say("review.words.top_one", lang) if len(top) == 1
               else say("review.words.top", lang, n=len(top)) if top
               else say("review.none_marked", lang) if rv.decisions
               else say("review.no_decisions", lang, name=rv.name))
    summary = tuple(s for s in (luck_words(rv, lang), accuracy_words(rv, lang)) if s is not None)
    return PlayerWords(say("review.chart.title", lang, loser=loser_word(rv.rules, lang), name=rv.name), summary,
                       heading, tuple(costly_words(d, rv, lang) for d in top), say("review.words.detail", lang))
