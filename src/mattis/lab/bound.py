"""What any estimator could reach: how much of a game's outcome is still open at a position.

For a position ``s`` (the whole truth: every hand, the stock's order) and a seat, let
``y`` be 1 if the seat gets away (is not a loser) and 0 if not.  The best Brier score
that any predictor of ``y`` that knows ``s`` can reach is ``Var(y | s)``; the
randomness left is the players' own (here the bots' sampling).  An observation is a
function of ``s``, so no estimator that sees one seat's observation (the learned
value model, the playouts) does better: ``1 - E[Var(y | s)] / Brier(base rate)`` is an
upper bound on the Brier skill any such estimator can reach on those positions.

``Var(y | s)`` is estimated without bias from ``k >= 2`` independent continuations of
the game from ``s`` (:func:`continue_game`): the sample variance of the ``k``
outcomes (:func:`sample_variance`, divisor ``k - 1``).  Each continuation is played by
fresh bots (new seeds) that, as in a real game, see only their own observations.

A bot that keeps memory across its decisions in a game would not be the same bot
when it joins in the middle: the expert's opponent model (``OpponentModel`` in
:mod:`mattis.bots.search`) counts, from the seat's phase 2 decisions on, how often
each opponent played the rules-of-thumb move.  :func:`watching_bots` therefore lets
each fresh bot's opponent model take in the observations its seat had at its own
phase 2 decisions before ``s``, in order, exactly as the bot that played them did, so
a continuation from inside phase 2 is played by bots in the state the game's own bots
were in (a test compares the counts).  Before phase 2 no bot keeps anything across
decisions.

A continuation counts its fallbacks (:attr:`Continuations.fallbacks`): decisions at
which a search bot could sample no full state and played its heuristic move unsearched
(``failed_samples``), and warnings of the bots' loggers (the opponent model logs a
history it could not replay).  Every one is logged here too; none is expected.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..bots.search import OpponentModel
from ..core import Rules
from ..core.observation import PHASE2
from ..play import Agent, Referee
from .train import GameRecord, replay

log = logging.getLogger(__name__)

BotMaker = Callable[[int], Agent]
"""A fresh bot from its seed (``lambda seed: make_bot("expert", seed)``)."""


def sample_variance(values: Sequence[float]) -> float:
    """The unbiased sample variance of ``values`` (divisor ``len(values) - 1``): its
    expectation is the variance of the distribution the values are independent draws
    of.  Needs two values at least."""
    k = len(values)
    if k < 2:
        raise ValueError(f"a sample variance needs two values at least, not {k}")
    mean = sum(values) / k
    return sum((v - mean) ** 2 for v in values) / (k - 1)


def position(rules: Rules, record: GameRecord, at: int, watch: Callable[[Referee, int], None] | None = None
             ) -> Referee:
    """The game of ``record`` after its first ``at`` moves; ``watch(referee, seat)`` is
    called before each of those moves."""
    if not 0 <= at <= len(record.moves):
        raise ValueError(f"a position after {at} moves of a game of {len(record.moves)}")
    moves = replay(rules, record)
    ref: Referee | None = None
    for _ in range(at):
        ref, seat, _move = next(moves)
        if watch is not None:
            watch(ref, seat)
    following = next(moves, None)  # plays move ``at - 1``, then stops before move ``at``
    if following is not None:
        return following[0]
    return ref if ref is not None else Referee.new(rules, record.players, seed=record.deal, dealer=record.dealer)


def phase2_start(rules: Rules, record: GameRecord) -> int:
    """How many moves of the game come before its first phase 2 position (every move
    when the game ends in phase 1)."""
    for at, (ref, seat, _) in enumerate(replay(rules, record)):
        if ref.observation(seat).phase == PHASE2:
            return at
    return len(record.moves)


def watching_bots(rules: Rules, record: GameRecord, at: int, make: BotMaker, seeds: Sequence[int]
                  ) -> tuple[Referee, list[Agent]]:
    """The position after ``at`` moves and one fresh bot per seat (``make(seeds[s])``)
    whose opponent model, where it has one, has taken in the observations its seat had
    at its own phase 2 decisions before that position (what the game's own bot had
    seen when it got there)."""
    bots = [make(seeds[s]) for s in range(record.players)]
    models = {s: m for s, b in enumerate(bots) if isinstance(m := getattr(b, "model", None), OpponentModel)}
    rngs = {s: random.Random(seeds[s]) for s in models}

    def watch(ref: Referee, seat: int) -> None:
        if seat in models:
            obs = ref.observation(seat)
            if obs.phase == PHASE2:
                models[seat].update(obs, rngs[seat])

    return position(rules, record, at, watch), bots


@dataclass(frozen=True)
class Continuations:
    """The endings of ``k`` continuations of one game from one position."""

    away: tuple[tuple[int, ...], ...]
    """Per continuation, per seat: 1 if the seat got away, 0 if it was a loser."""
    decisions: int
    """The bots' decisions in all the continuations together."""
    fallbacks: int
    """Decisions a search bot played unsearched (no full state sampled) and the bots'
    logged warnings (an opponent model that lost the history), all continuations."""

    def variance(self) -> list[float]:
        """Per seat: the sample variance of its outcome over the continuations (an
        unbiased estimate of ``Var(y | s)``)."""
        return [sample_variance([run[s] for run in self.away]) for s in range(len(self.away[0]))]


class _Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def continue_game(rules: Rules, record: GameRecord, at: int, make: BotMaker,
                  seeds: Sequence[Sequence[int]]) -> Continuations:
    """``len(seeds)`` continuations of the game of ``record`` from the position after its
    first ``at`` moves, continuation ``j`` played by fresh bots ``make(seeds[j][s])``
    (:func:`watching_bots`); the position itself is the one the recorded moves reach."""
    away: list[tuple[int, ...]] = []
    decisions = 0
    fallbacks = 0
    counter = _Count()
    bots_log = logging.getLogger("mattis.bots")
    bots_log.addHandler(counter)
    try:
        for run in seeds:
            ref, bots = watching_bots(rules, record, at, make, run)
            while not ref.is_over:
                seat = ref.to_act
                assert seat is not None
                ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
                decisions += 1
            failed = sum(int(getattr(b, "failed_samples", 0)) for b in bots)
            if failed:
                log.warning("%d decisions of a continuation from move %d played unsearched (no state sampled)",
                            failed, at)
            fallbacks += failed
            outcome = ref.outcome
            assert outcome is not None
            away.append(tuple(0 if s in outcome.losers else 1 for s in range(record.players)))
    finally:
        bots_log.removeHandler(counter)
    return Continuations(tuple(away), decisions, fallbacks + counter.count)


__all__ = ["BotMaker", "Continuations", "continue_game", "phase2_start", "position", "sample_variance",
           "watching_bots"]
