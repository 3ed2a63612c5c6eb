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

**From the mover's view** (:func:`continue_from_view`).  A seat sees only its
observation ``o``, not ``s``; the best Brier score an estimator that sees ``o`` can
reach is ``E[Var(y | o)] = E[Var(y | s) | o] + Var(E[y | s] | o)``, the second term
being what the hidden cards decide.  Each continuation is played from its own world
drawn from ``o`` by the project's one determinizer
(:func:`mattis.core.determinize.sample_worlds`: the cards hidden from the seat dealt at
random, subject to every card it saw, the counts and the voids play revealed; without
a ``model`` it does not weigh a deal by how likely the players' moves were under it,
with one, a :data:`~mattis.core.determinize.MoveModel` of the other seats such as the
bots' own policy, :mod:`mattis.bots.beliefs`, it does), then played on
by fresh bots as above; the sample variance of the seat's outcomes over ``m`` such
continuations estimates without bias ``Var_det(y | o)``, the variance under the
determinizer's posterior (uniform or weighted), which stands in for the true one.  The function is given
the observation only, so nothing in it can read the truth beyond what the seat sees.
Only positions before any phase 2 move are continued this way (there no bot keeps
anything across decisions; inside phase 2 the opponent models would have to take in
the sampled world's past).

**Paired, move by move** (:func:`paired_continuations`).  At a decision, every legal
move is continued from the same worlds with the same bots' seeds, so the difference
between two moves' chances is measured with the worlds' spread cancelled out
(:func:`paired_difference`: the mean difference and its standard error).
:func:`ordered_pairs` says, for every pair of moves the continuations put at least a
gap apart, whether an estimator (such as the value model) orders them the same way:
the estimator's skill in ranking terms.

**Against the truth** (:func:`true_outcomes`, :func:`regret`).  Where the whole position
is known (a seeded game's own state at a decision), every legal move is continued from
it, not from sampled worlds, with the same bots' seeds for every move: each move's true
chance with those bots playing on, and the regret of a choice, the best move's chance less
the chosen one's (``benchmarks/beliefs_regret.py`` asks it of the expert on uniform and on
weighted worlds).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..bots.search import OpponentModel
from ..core import Move, Rules, State
from ..core.determinize import MoveModel, sample_worlds
from ..core.observation import PHASE2, Observation
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
    return _play_on((watching_bots(rules, record, at, make, run) for run in seeds), at)


def _play_on(starts: Iterable[tuple[Referee, list[Agent]]], at: int) -> Continuations:
    """Each game of ``starts`` played to its end by its bots, fallbacks counted."""
    away: list[tuple[int, ...]] = []
    decisions = 0
    fallbacks = 0
    counter = _Count()
    bots_log = logging.getLogger("mattis.bots")
    bots_log.addHandler(counter)
    try:
        for ref, bots in starts:
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
            away.append(tuple(0 if s in outcome.losers else 1 for s in range(ref.players)))
    finally:
        bots_log.removeHandler(counter)
    return Continuations(tuple(away), decisions, fallbacks + counter.count)


def sampled_world(obs: Observation, rng: random.Random, model: MoveModel | None = None) -> Referee:
    """A whole position drawn from ``obs.seat``'s view by the determinizer
    (:func:`~mattis.core.determinize.sample_worlds`, weighed by ``model`` of the other
    seats when given, else uniform); the seat's observation there is ``obs`` itself
    (checked: :class:`ValueError` if not)."""
    world = Referee(sample_worlds(obs, rng, 1, model).states[0])
    if world.observation(obs.seat) != obs:
        raise ValueError("the sampled world does not keep the seat's observation")
    return world


def continue_from_view(obs: Observation, make: BotMaker, seeds: Sequence[Sequence[int]],
                       worlds: Sequence[int], model: MoveModel | None = None) -> Continuations:
    """``len(seeds)`` continuations from ``obs.seat``'s view: continuation ``j`` from the
    world :func:`sampled_world` draws with ``random.Random(worlds[j])`` (weighed by
    ``model`` of the other seats, e.g. the bots' policy, when given), played on by
    fresh bots ``make(seeds[j][s])``.  The seat's outcomes' sample variance
    (:meth:`Continuations.variance`) estimates ``Var_det(y | o)`` without bias.  Only
    before any phase 2 move (:class:`ValueError` after one: the fresh bots' opponent
    models would lack the sampled world's past)."""
    if obs.phase2_moves:
        raise ValueError("continuations from a seat's view are played only before any phase 2 move")
    if len(worlds) != len(seeds):
        raise ValueError(f"{len(seeds)} continuations need as many world seeds, not {len(worlds)}")
    at = len(obs.history)
    return _play_on(((sampled_world(obs, random.Random(w), model), [make(s) for s in run])
                     for run, w in zip(seeds, worlds, strict=True)), at)


def paired_continuations(obs: Observation, worlds: Sequence[State], make: BotMaker,
                          seeds: Sequence[Sequence[int]]) -> list[Continuations]:
    """Per legal move of ``obs`` (in ``obs.legal`` order): ``len(worlds)`` continuations,
    continuation ``j`` from ``worlds[j]`` (a whole position the seat's view is ``obs``,
    e.g. drawn by :func:`~mattis.core.determinize.sample_worlds`) after that move, played
    on by fresh bots ``make(seeds[j][s])`` (the mover's too): the same worlds and seeds
    for every move, so the moves are compared paired.  Only before any phase 2 move
    (:class:`ValueError` after one, or for a world that does not keep ``obs``)."""
    if obs.phase2_moves:
        raise ValueError("continuations from a seat's view are played only before any phase 2 move")
    if len(worlds) != len(seeds):
        raise ValueError(f"{len(worlds)} worlds need as many seeds, not {len(seeds)}")
    for w in worlds:
        if Referee(w).observation(obs.seat) != obs:
            raise ValueError("a world does not keep the seat's observation")

    def starts(move: Move) -> Iterable[tuple[Referee, list[Agent]]]:
        for w, run in zip(worlds, seeds, strict=True):
            ref = Referee(w.clone())
            ref.apply(obs.seat, move, events=False)
            yield ref, [make(s) for s in run]

    return [_play_on(starts(move), len(obs.history)) for move in obs.legal]


def true_outcomes(obs: Observation, truth: State, make: BotMaker, seeds: Sequence[Sequence[int]]
                  ) -> list[list[int]]:
    """Per legal move of ``obs`` (in ``obs.legal`` order): whether ``obs.seat`` got away
    (1) or not (0) in each of ``len(seeds)`` continuations from the true position
    ``truth`` (the whole state the seat's view is ``obs``, not a sampled world) after
    that move, continuation ``j`` played on by fresh bots ``make(seeds[j][s])``, the same
    seeds for every move (:func:`paired_continuations` with ``truth`` as every world).
    A move's mean is its true chance to get away with those bots playing on."""
    runs = paired_continuations(obs, [truth] * len(seeds), make, seeds)
    return [[run[obs.seat] for run in r.away] for r in runs]


def regret(outcomes: Sequence[Sequence[float]], choice: int) -> float:
    """The regret of choosing move ``choice`` at a decision whose moves' paired outcomes
    are ``outcomes`` (``outcomes[i][j]``: 1 if the seat got away in continuation ``j``
    after move ``i``, else 0; e.g. from :func:`true_outcomes`): the best move's chance
    (its mean) less the chosen move's, 0 when it is a best move, at most 1."""
    if not 0 <= choice < len(outcomes):
        raise ValueError(f"move {choice} of a decision with {len(outcomes)} moves")
    if len({len(o) for o in outcomes}) != 1 or not outcomes[0]:
        raise ValueError("every move needs the same number of continuations, one at least")
    means = [sum(o) / len(o) for o in outcomes]
    return max(means) - means[choice]


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a[j] - b[j]`` and its standard error (paired draws: ``a[j]`` and
    ``b[j]`` from the same world; at least two)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    return sum(d) / len(d), (sample_variance(d) / len(d)) ** 0.5


@dataclass(frozen=True)
class RankedPair:
    """Two moves (indices into the decision's moves) the continuations put apart."""

    better: int
    """The move the continuations rate higher."""
    worse: int
    gap: float
    """The continuations' difference (``better`` less ``worse``, 0 to 1)."""
    se: float
    """Its paired standard error."""
    right: bool
    """Whether the estimator rates ``better`` strictly higher too (a tie is not right)."""


def ordered_pairs(estimate: Sequence[float], outcomes: Sequence[Sequence[float]], gap: float = 0.05,
                  z: float = 0.0) -> list[RankedPair]:
    """Every pair of moves (``outcomes[i]``: move ``i``'s outcomes, 1 got away, 0 not,
    over the same worlds; ``estimate[i]``: an estimator's chance for it) whose paired
    continuation difference is at least ``gap`` and more than ``z`` standard errors,
    with whether the estimator orders the two the same way."""
    if len(estimate) != len(outcomes):
        raise ValueError(f"{len(outcomes)} moves need as many estimates, not {len(estimate)}")
    out: list[RankedPair] = []
    for i in range(len(outcomes)):
        for k in range(i + 1, len(outcomes)):
            d, se = paired_difference(outcomes[i], outcomes[k])
            if abs(d) < gap - 1e-12 or abs(d) <= z * se:
                continue
            hi, lo = (i, k) if d > 0 else (k, i)
            out.append(RankedPair(hi, lo, abs(d), se, estimate[hi] > estimate[lo]))
    return out


def extreme_pair(estimate: Sequence[float], outcomes: Sequence[Sequence[float]], gap: float = 0.05,
                 z: float = 0.0) -> RankedPair | None:
    """The pair of the move the continuations rate best and the one they rate worst
    (the first in order on a tie), as :func:`ordered_pairs` scores it; ``None`` where
    those two are less than ``gap`` (or ``z`` standard errors) apart."""
    means = [sum(o) / len(o) for o in outcomes]
    best = max(range(len(means)), key=lambda i: (means[i], -i))
    worst = min(range(len(means)), key=lambda i: (means[i], i))
    if best == worst:
        return None
    got = ordered_pairs([estimate[best], estimate[worst]], [outcomes[best], outcomes[worst]], gap, z)
    if not got:
        return None
    p = got[0]
    return RankedPair(best, worst, p.gap, p.se, p.right)


__all__ = ["BotMaker", "Continuations", "RankedPair", "continue_from_view", "continue_game", "extreme_pair",
           "ordered_pairs", "paired_continuations", "paired_difference", "phase2_start", "position",
           "regret", "sample_variance", "sampled_world", "true_outcomes", "watching_bots"]
