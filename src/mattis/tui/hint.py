"""Why the hint's move: the value model's figures in words, never "the bot would".

The hint's move is the expert bot's (:data:`mattis.tui.session.HINT_LEVEL`: its search
plays the position out); its reason is the value model's (:mod:`mattis.bots.value`)
figures for the position right after each legal move, seen through the seat's own eyes
(:func:`mattis.bots.learned.move_chances`: the move applied to a few determinizations
of the observation, seeded by the hint's seed, so every ask in a position says the
same): "Model: a 72% chance to get away after it; the next best, play 8♥, 65%."  Where
the model rates another move higher than the search's choice, the sentence says so,
with both figures ("..., 75% after play 8♥; the search picks this").

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

import random
from typing import Final

from ..bots.evaluate import Budget, Z, evaluate
from ..bots.learned import move_chances
from ..bots.value import has_numpy, model_for
from ..core import Move, Observation
from ..core.determinize import DeterminizeError
from ..core.text import say
from .i18n import Lang, t
from .render import move_label

__all__ = ["PLAYOUTS", "hint_sentence", "model_reason", "playout_reason"]

PLAYOUTS: Final = 32
"""Playouts per legal move of the hint's reason without NumPy."""


def _pct(x: float, lang: Lang) -> str:
    return say("review.pct", lang, p=round(100 * x))


def model_reason(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The value model's figures for ``move`` and the best other legal move, in a sentence
    (``obs`` has two or more legal moves).  Raises ``RuntimeError`` without NumPy and
    :class:`~mattis.core.determinize.DeterminizeError` where no state fits ``obs``."""
    if not has_numpy():
        raise RuntimeError("NumPy is not installed")
    chances = move_chances(obs, model_for(obs.rules), rng=random.Random(seed))
    mine = next(p for m, p in chances if m == move)
    alt, q = max(((m, p) for m, p in chances if m != move), key=lambda mp: mp[1])
    words = {"p": _pct(mine, lang), "q": _pct(q, lang), "other": move_label(alt, lang)}
    return say("why.model_other" if round(100 * q) > round(100 * mine) else "why.model", lang, **words)


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
    without NumPy; see the module docstring)."""
    label = move_label(move, lang)
    if len(obs.legal) <= 1:
        return t(lang, "hint.why", move=label, why=say("why.only", lang))
    try:
        why = model_reason(obs, move, lang, seed) if has_numpy() else playout_reason(obs, move, lang, seed)
    except DeterminizeError:
        why = say("why.no_sample", lang)
    return t(lang, "hint.why", move=label, why=why)
