"""The hint: a move, and why, from one estimate that both decides and is shown.

:func:`hint` is the public function (any front end may call it: it needs only the
seat's observation and a seed): the move (:func:`hint_move`) and the sentence
(:func:`hint_sentence`).

**Phase 2**: the move is the one the game review's evaluator rates best
(:func:`mattis.bots.evaluate.evaluate`: :data:`PLAYOUTS` determinized playouts of each
legal move on the same deals, the exact solver where it decides), and the sentence
shows that evaluator's figures: the move's chance to get away ± two standard errors
of its sampling and the playouts' calibration error together
(:func:`mattis.bots.evaluate.shown_margin`, docs/analyze.md) and the best other
move's.  So the named move never has a lower figure than the other move shown, and
the review, which asks the same evaluator, does not charge the hint's advice for the
figures the hint showed.  (Before, the expert's search chose and the
value model's figures were shown: in 101 of 151 phase 2 hints the move not named had
the higher figure.)

**Phase 1**: the move is the expert's (:data:`HINT_LEVEL`: its search), and the reason
is in card terms, from what the chosen move does in the position (:func:`phase1_reason`):
it takes the trick with a low card, or takes a trick worth winning, or gives the trick
away with a card of little use, or leads one, keeping the high cards and trumps for
phase 2; sjanse because every card in the hand is worth keeping.  No figure: measured
on held-out games (docs/analyze.md), no phase 1 chance this project computes predicts
who ends as the loser better than the base rate.

A position no determinization fits (a game begun from a position in the middle) has
no chances to work out, and the hint says so.  Every sentence fits the terminal's two
message lines at 80 columns with the widest moves (tests/tui/test_tui_longest.py).

It lives in the lab layer, below the front ends, so that every front end may call it:
the terminal's session and its line mode (:mod:`mattis.tui.session`), a terminal seat
at a web table (:mod:`mattis.tui.remote`), and the web page.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..bots.evaluate import Budget, Evaluation, MoveValue, evaluate, shown_margin
from ..bots.policy import DEFAULT_KNOBS
from ..core import PHASE1, RANK, SUIT, Card, Move, MoveKind, Observation, card_symbol
from ..core.cards import Lang
from ..core.determinize import DeterminizeError
from ..core.legal import lay_outcome
from ..core.text import fight_word, say
from ..play import make_bot

HINT_LEVEL: Final = "expert"
"""The bot level whose search chooses a phase 1 hint."""


def _card(card: Card) -> str:
    """A card as on the card: ``10♠``."""
    return card_symbol(card)


def _move(move: Move, lang: Lang) -> str:
    """A move as the hint names it: ``legg 4♣``, ``sjanse``, ``ta opp`` (as the terminal's
    menu does, :func:`mattis.tui.render.move_label`, which the lab cannot import)."""
    if move.kind is MoveKind.CHANCE:
        return say("move.chance", lang)
    if move.kind is MoveKind.PICKUP:
        return say("move.pickup", lang)
    return say("move.play", lang, cards=" ".join(card_symbol(c) for c in move.cards))

__all__ = ["HINT_LEVEL", "PLAYOUTS", "Hint", "hint", "hint_move", "hint_sentence", "phase1_reason"]

PLAYOUTS: Final = 64
"""Playouts per legal move of the phase 2 hint (the evaluator's budget)."""
KEEP_SHOWN: Final = 3
"""At most this many kept cards are named in a phase 1 reason."""


@dataclass(frozen=True)
class Hint:
    """A hint: the move and the sentence that says it and why."""

    move: Move
    text: str


def _pct(x: float, lang: Lang) -> str:
    return say("review.pct", lang, p=round(100 * x))


def _figure(v: MoveValue, lang: Lang) -> str:
    """A chance as shown: where it is an estimate, ± two standard errors of its sampling
    and the playouts' calibration error together (:func:`mattis.bots.evaluate.shown_margin`)."""
    pm = f" ± {max(1, round(100 * shown_margin(v.se)))}" if v.se > 0 else ""
    return _pct(v.chance, lang) + pm


def _evaluation(obs: Observation, seed: int) -> Evaluation:
    return evaluate(obs, Budget(samples=PLAYOUTS), random.Random(seed))


def hint_move(obs: Observation, seed: int) -> Move:
    """The hint's move for the seat to act in ``obs`` (which must have a legal move):
    in phase 1 the expert's, in phase 2 the evaluator's best (the module docstring)."""
    if len(obs.legal) == 1:
        return obs.legal[0]
    if obs.phase is not PHASE1:
        try:
            return _evaluation(obs, seed).best.move
        except DeterminizeError:
            pass
    return make_bot(HINT_LEVEL, seed).act(obs)


def _value(card: Card, trump: int | None) -> int:
    """How much a card is worth keeping (the heuristic's order: trumps above the rest)."""
    return RANK[card] + (13 if trump is not None and SUIT[card] == trump else 0)


def _worth_keeping(card: Card, trump: int | None) -> bool:
    return RANK[card] >= DEFAULT_KNOBS.keep_rank or (trump is not None and SUIT[card] == trump)


def _kept(obs: Observation, move: Move) -> list[Card]:
    """The cards worth keeping that stay in the hand after ``move``, the best first."""
    trump = obs.trump
    left = [c for c in obs.hand if c not in move.cards and _worth_keeping(c, trump)]
    left.sort(key=lambda c: (trump is not None and SUIT[c] == trump, RANK[c]), reverse=True)
    return left[:KEEP_SHOWN]


def phase1_reason(obs: Observation, move: Move, lang: Lang) -> str:
    """Why ``move`` in phase 1, in card terms: what it does to the trick and what it
    keeps for phase 2 (the module docstring)."""
    trump = obs.trump
    kept = _kept(obs, move)
    keep = " ".join(_card(c) for c in kept)
    if move.kind is MoveKind.CHANCE:
        if obs.hand and all(_worth_keeping(c, trump) for c in obs.hand):
            return say("why.p1.chance_keepers", lang)
        return say("why.p1.chance", lang)
    if move.kind is not MoveKind.PLAY or not move.cards:
        return say("why.p1.other", lang)
    card = move.cards[0]
    label = _card(card)
    laid = list(obs.round_cards)
    useful = _worth_keeping(card, trump)
    if not laid:
        if useful:
            return say("why.p1.lead_high", lang, card=label)
        least = min(obs.hand, key=lambda c: (_value(c, trump), c))
        if least == card:
            return say("why.p1.lead_least_keep" if kept else "why.p1.lead_least", lang, card=label, keep=keep)
        # Not the card the rules of thumb would lead: the search found it better.
        return say("why.p1.lead", lang, card=label, least=_card(least))
    outcome = lay_outcome(laid, card, obs.rules, bool(obs.fighters))
    if outcome == 0:
        return say("why.p1.fight", lang, card=label, fight=fight_word(obs.rules, lang))
    if outcome < 0:
        if kept:
            return say("why.p1.give_keep", lang, card=label, keep=keep)
        return say("why.p1.give" if useful else "why.p1.give_low", lang, card=label)
    if not useful:
        return say("why.p1.take_low_keep" if kept else "why.p1.take_low", lang, card=label, keep=keep)
    pot = [c for _, c in obs.table1]
    worth = [c for c in pot if _worth_keeping(c, trump)]
    if worth:
        return say("why.p1.take_worth", lang, card=label, worth=" ".join(_card(c) for c in worth[:3]))
    return say("why.p1.take", lang, card=label)


def _phase2_reason(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    ev = _evaluation(obs, seed)
    mine = ev.of(move)
    alt = max((v for v in ev.values if v.move != move), key=lambda v: v.chance)
    return say("why.search", lang, n=PLAYOUTS, p=_figure(mine, lang), q=_figure(alt, lang),
               other=_move(alt.move, lang))


def hint_sentence(obs: Observation, move: Move, lang: Lang, seed: int) -> str:
    """The hint in a sentence: ``move`` (the hint's, :func:`hint_move` with the same
    seed) and why (the module docstring)."""
    label = _move(move, lang)
    if len(obs.legal) <= 1:
        return say("hint.why", lang, move=label, why=say("why.only", lang))
    if obs.phase is PHASE1:
        return say("hint.why", lang, move=label, why=phase1_reason(obs, move, lang))
    try:
        why = _phase2_reason(obs, move, lang, seed)
    except DeterminizeError:
        why = say("why.no_sample", lang)
    return say("hint.why", lang, move=label, why=why)


def hint(obs: Observation, lang: Lang, seed: int) -> Hint:
    """The hint for the seat to act in ``obs``: its move and its sentence, the same for
    the same ``seed`` (front ends derive it from the position:
    :func:`mattis.play.seeds.position_seed`)."""
    move = hint_move(obs, seed)
    return Hint(move, hint_sentence(obs, move, lang, seed))
