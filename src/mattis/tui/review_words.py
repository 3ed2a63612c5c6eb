"""The game review for players, in the terminal and line mode: a chart of the chance
over the game that fits 80 columns, then the lab's plain words (the deal's luck, the
accuracy, the three costliest choices: :mod:`mattis.lab.review_words`, the same
sentences as on the web page), then the detail (:func:`mattis.lab.review.review_text`)
for whoever reads on.

Only the review's public output (:class:`mattis.lab.review.Review`) is used.  A
chance estimated from playouts is shown with its uncertainty: about two standard
errors of a proportion from the decision's samples (``± 9`` at 64 samples and an even
chance, :func:`margin`); a decision the solver decided is exact and says so.
"""

from __future__ import annotations

import math
import textwrap
from typing import Final

from ..bots.evaluate import Budget
from ..core.text import loser_word, say
from ..lab.review import Decision, Review, review_text
from ..lab.review_words import costly_words, margin, player_words
from .i18n import Lang, t

BUDGET: Final = Budget(samples=64)
"""The terminal's and line mode's budget per decision (a few seconds for a whole game)."""

CHART_WIDTH: Final = 60
"""Columns of the chart's plot area (with its labels the chart is 68 wide)."""
WRAP: Final = 78
"""Columns the words are wrapped to (an 80-column terminal, less the window's border)."""
CHART_HEIGHT: Final = 8
"""Rows of the chart's plot area."""


def chance_chart(rv: Review, lang: Lang, width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> list[str]:
    """The chance to avoid being the loser after each of the seat's decisions, as text:
    one column per decision (or per group of decisions, averaged, when there are more
    than ``width``), ``●`` the move made, ``·`` the best move where it was better (none
    for a phase 1 decision whose figures are not informative:
    :attr:`mattis.lab.review.Decision.informative`); the marked decisions' marks under
    the axis.  At most ``width + 8`` columns."""
    ds = list(rv.decisions)
    title = say("review.chart.title", lang, loser=loser_word(rv.rules, lang), name=rv.name)
    if not ds:
        return [title]
    groups: list[list[Decision]] = []
    per = max(1, math.ceil(len(ds) / width))
    for i in range(0, len(ds), per):
        groups.append(ds[i:i + per])
    cols = len(groups)
    grid = [[" "] * cols for _ in range(height)]

    def row(x: float) -> int:
        return min(height - 1, max(0, round((1 - x) * (height - 1))))

    marks = [" "] * cols
    for c, g in enumerate(groups):
        g = [d for d in g if d.informative]  # phase 1 moves the estimate does not tell apart: no point
        if not g:
            continue
        after = sum(d.after for d in g) / len(g)
        before = sum(d.before for d in g) / len(g)
        if row(before) != row(after):
            grid[row(before)][c] = "·"
        grid[row(after)][c] = "●"
        worst = max(g, key=lambda d: d.cost)
        if worst.mark:
            marks[c] = "!" if worst.mark == "?!" else "?"
    lines = [title]
    for r in range(height):
        label = "100 %" if r == 0 else "  0 %" if r == height - 1 else " 50 %" if r == (height - 1) // 2 else ""
        lines.append(f"{label:>5} │" + "".join(grid[r]))
    lines.append("      └" + "─" * cols)
    lines.append("       " + "".join(marks).rstrip())
    lines.append("       " + t(lang, "review.chart.legend", first=ds[0].number, last=ds[-1].number))
    return [line.rstrip() for line in lines]


def player_review_lines(rv: Review, lang: Lang) -> list[str]:
    """The review for a player: the chart, the deal's luck and the accuracy, the three
    costliest choices in words (or that none cost much), then the detail.  The words are
    the lab's (:func:`mattis.lab.review_words.player_words`), as on the web page."""
    words = player_words(rv, lang)
    lines = chance_chart(rv, lang)
    lines.append("")
    for sentence in words.summary:
        lines.extend(textwrap.wrap(sentence, WRAP))
    if words.summary:
        lines.append("")
    lines.extend(textwrap.wrap(words.heading, WRAP))
    for i, choice in enumerate(words.choices, 1):
        lines.extend(textwrap.wrap(choice, WRAP, initial_indent=f"  {i}. ", subsequent_indent="     "))
    lines.append("")
    lines.append(words.detail)
    lines.append("")
    lines.extend(review_text(rv, lang).splitlines())
    return lines


__all__ = ["BUDGET", "chance_chart", "costly_words", "margin", "player_review_lines"]
