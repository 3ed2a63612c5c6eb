"""Why the hint's move: the value model's figures in words, never "the bot would".

The hint's move is the expert bot's (:data:`mattis.tui.session.HINT_LEVEL`: its search
plays the position out); its reason is the value model's (:mod:`mattis.bots.value`)
figures for the position right after each legal move, seen through the seat's own eyes
(:func:`model_figures`: the move applied to determinizations of the observation,
seeded by the hint's seed, so every ask in a position says the same, and added until
another seed would say the same up to the ± shown): "Model: a 73% ± 2 chance to get
away after it; the next best, play 8♥, 65% ± 1."  Where the model rates another move
higher than the search's choice (by more than two standard errors), the sentence says
so, with both figures ("..., 75% ± 1 after play 8♥; the search picks this").

In phase 1 the hint gives no figures: measured on held-out games (docs/analyze.md),
the model's phase 1 chances predict who ends as Mattis no better than the base rate,
and the playouts' are not shown to do better, so a figure there would be noise dressed
as a reason (and could rate another move higher than the suggested one for no cause).
The reason says so instead (``why.phase1``), as the review shows no phase 1 figure it
cannot back.

Without NumPy the model cannot run: the reason then says so and falls back to the
playouts' figures (:func:`mattis.bots.evaluate.evaluate`, :data:`PLAYOUTS` per legal
move, the chance ± two standard errors where they are estimates): "No NumPy, 32
playouts: a 70% ± 16 chance to get away; next best, play 8♥, 62%."  A position no
determinization fits (a game begun from a position in the middle) has no chances to
work out, and the hint says so.  Every sentence fits the terminal's two message lines
at 80 columns with the widest moves (tests/tui/test_tui_longest.py).

Used by the terminal's session and its line mode (:mod:`mattis.tui.session`) and by a
terminal seat at a web table (:mod:`mattis.tui.remote`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..bots.evaluate import Budget, Z, evaluate
from ..bots.learned import after_positions
from ..bots.value import has_numpy, model_for
from ..core import PHASE1, Move, Observation
from ..core.determinize import DeterminizeError
from ..core.text import say
from .i18n import Lang, t
from .render import move_label

__all__ = ["PLAYOUTS", "Figure", "hint_sentence", "model_figures", "model_reason", "playout_reason"]

PLAYOUTS: Final = 32
"""Playouts per legal move of the hint's reason without NumPy."""
FIRST_SAMPLES: Final = 16
"""Determinizations the model's figures start from (and are added by)."""
MAX_SAMPLES: Final = 256
"""Determinizations at most for the model's figures."""
TARGET_PM: Final = 0.02
"""The model's figures are refined until each is within this (two standard errors)."""


def _pct(x: float, lang: Lang) -> str:
    return say("review.pct", lang, p=round(100 * x))


@dataclass(frozen=True)
class Figure:
    """A legal move's chance to get away (the model's mean over the determinizations)
    and the standard error of that mean (0 where the position after it is known)."""

    move: Move
    chance: float
    se: float


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def model_figures(obs: Observation, move: Move, seed: int) -> tuple[Figure, Figure, float]:
    """The model's figures for ``move`` and for the best other legal move, and the
    standard error of their difference (the same determinizations serve every move, so
    the difference is paired).  Determinizations are added, :data:`FIRST_SAMPLES` at a
    time up to :data:`MAX_SAMPLES`, until both figures are within ± :data:`TARGET_PM`
    (two standard errors), the best other move is told apart from the third (or they are
    the same), and whether the other move is rated higher is clear, each by two
    standard errors of the paired difference.  Raises ``RuntimeError`` without NumPy and
    :class:`~mattis.core.determinize.DeterminizeError` where no state fits ``obs``."""
    if not has_numpy():
        raise RuntimeError("NumPy is not installed")
    model = model_for(obs.rules)
    rng = random.Random(seed)
    legal = list(obs.legal)
    chosen = legal.index(move)
    per_move: list[list[float]] = [[] for _ in legal]
    while True:
        after = after_positions(obs, FIRST_SAMPLES, rng)
        losers = model.many([o for row in after for o in row])
        i = 0
        for k, row in enumerate(after):
            per_move[k].extend(1.0 - p[0] for p in losers[i:i + len(row)])
            i += len(row)
        stats = [_mean_se(xs) for xs in per_move]
        others = sorted((k for k in range(len(legal)) if k != chosen), key=lambda k: -stats[k][0])
        other = others[0]
        gap, se_gap = _paired(per_move[other], per_move[chosen])
        if len(after[0]) == 1 or len(per_move[chosen]) >= MAX_SAMPLES:
            break  # every hand known (one exact position, nothing to add), or the budget spent
        precise = max(stats[chosen][1], stats[other][1]) * Z <= TARGET_PM
        runner_up = len(others) < 2 or _clear(*_paired(per_move[other], per_move[others[1]]))
        if precise and runner_up and _clear(gap, se_gap):
            break
    mine, alt = (Figure(legal[k], *stats[k]) for k in (chosen, other))
    return mine, alt, se_gap


def _paired(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """The mean difference of two moves' figures over the same determinizations, and its
    standard error."""
    return _mean_se([x - y for x, y in zip(xs, ys, strict=True)])


def _clear(diff: float, se: float) -> bool:
    """A difference that two standard errors do not cover (so another seed would not turn it)."""
    return abs(diff) > Z * se


def _pm(f: Figure) -> str:
    return f" ± {max(1, round(100 * Z * f.se))}" if f.se > 0 else ""


def model_reason(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The value model's figures for ``move`` and the best other legal move, in a sentence,
    each ± two standard errors where the position after it is an estimate (``obs`` has
    two or more legal moves).  The sentence says the model rates the other move higher
    only where the difference exceeds two standard errors.  Raises ``RuntimeError``
    without NumPy and :class:`~mattis.core.determinize.DeterminizeError` where no state
    fits ``obs``."""
    mine, alt, se_diff = model_figures(obs, move, seed)
    words = {"p": _pct(mine.chance, lang) + _pm(mine), "q": _pct(alt.chance, lang) + _pm(alt),
             "other": move_label(alt.move, lang)}
    higher = alt.chance - mine.chance > Z * se_diff and round(100 * alt.chance) > round(100 * mine.chance)
    return say("why.model_other" if higher else "why.model", lang, **words)


def playout_reason(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The playouts' figures for ``move`` (± two standard errors where estimated) and the
    best other legal move, in a sentence: the reason without NumPy.  Raises
    :class:`~mattis.core.determinize.DeterminizeError` where no state fits ``obs``."""
    ev = evaluate(obs, Budget(samples=PLAYOUTS), random.Random(seed))
    mine = ev.of(move)
    alt = max((v for v in ev.values if v.move != move), key=lambda v: v.chance)
    pm = f" ± {round(100 * Z * mine.se)}" if mine.se > 0 else ""
    return say("why.playouts", lang, n=PLAYOUTS, p=_pct(mine.chance, lang), pm=pm, q=_pct(alt.chance, lang),
               other=move_label(alt.move, lang))


def hint_sentence(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The hint in a sentence: the move, and why (the model's figures, or the playouts'
    without NumPy; in phase 1 that no figure is given; see the module docstring)."""
    label = move_label(move, lang)
    if len(obs.legal) <= 1:
        return t(lang, "hint.why", move=label, why=say("why.only", lang))
    if obs.phase is PHASE1:
        return t(lang, "hint.why", move=label, why=say("why.phase1", lang))
    try:
        why = model_reason(obs, move, lang, seed) if has_numpy() else playout_reason(obs, move, lang, seed)
    except DeterminizeError:
        why = say("why.no_sample", lang)
    return t(lang, "hint.why", move=label, why=why)
