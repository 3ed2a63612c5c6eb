"""Why the hint's move: the value model's figures in words, never "the bot would".

The hint's move is the expert bot's (:data:`mattis.tui.session.HINT_LEVEL`: its search
plays the position out); its reason is the value model's (:mod:`mattis.bots.value`)
figures for the position right after each legal move, seen through the seat's own eyes
(:func:`mattis.bots.learned.move_chances`: the move applied to a few determinizations
of the observation, seeded by the hint's seed, so every ask in a position says the
same): "Model: a 72% chance to get away after it; the next best, play 8♥, 65%."  Where
the model rates another move higher than the search's choice, the sentence says so,
with both figures ("..., 75% after play 8♥, but the search picks this").

Without NumPy the model cannot run: the reason then says so and why, and falls back to
a rule of thumb (:func:`mattis.core.text.hint_reason`, with "no simple rule says why"
where none fits).  A position no determinization fits (a game begun from a position
in the middle) falls back likewise, saying why.

Used by the terminal's session and its line mode (:mod:`mattis.tui.session`) and by a
terminal seat at a web table (:mod:`mattis.tui.remote`).
"""

from __future__ import annotations

import random

from ..bots.learned import move_chances
from ..bots.value import has_numpy, model_for
from ..core import Move, Observation
from ..core.determinize import DeterminizeError
from ..core.text import hint_reason, say
from .i18n import Lang, t
from .render import move_label

__all__ = ["hint_sentence", "model_reason", "rule_reason"]


def rule_reason(obs: Observation, move: Move, lang: Lang) -> str:
    """The rule of thumb's reason (:func:`~mattis.core.text.hint_reason`), with "no simple
    rule says why" where it would only name the expert bot."""
    why = hint_reason(obs, move, lang)
    return say("why.no_rule", lang) if why == say("why.expert", lang) else why


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


def hint_sentence(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The hint in a sentence: the move, and why (the model's figures; see the module
    docstring)."""
    label = move_label(move, lang)
    if len(obs.legal) <= 1:
        return t(lang, "hint.why", move=label, why=say("why.only", lang))
    if not has_numpy():
        why = say("why.no_numpy", lang) + " " + rule_reason(obs, move, lang)
    else:
        try:
            why = model_reason(obs, move, lang, seed)
        except DeterminizeError:
            why = say("why.no_sample", lang) + " " + rule_reason(obs, move, lang)
    return t(lang, "hint.why", move=label, why=why)
