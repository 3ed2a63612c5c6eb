"""How good is each legal move?  One seat's chance to avoid being Mattis, per move.

:func:`evaluate` answers from the seat's :class:`~mattis.core.Observation` only:

1. It draws ``budget.samples`` full states consistent with the observation
   (:func:`mattis.core.determinize.sample_worlds`, the one determinizer: the hidden
   hands, the stock and the face-down trump are dealt at random, subject to
   everything the seat has seen; with ``budget.beliefs`` other than ``uniform`` the
   deals are weighed by how likely the other seats' moves seen are under that model
   of them, :data:`mattis.bots.beliefs.MODELS`).
2. Each legal move is played on every sample (the same samples for every move, and
   playout ``j`` of every move draws the same stream of random numbers: common random
   numbers, so the moves are compared on the same deals and the same luck, and the
   standard error of their difference, ``MoveValue.gap_se``, is paired) and the game
   is played out to the end with the bots' playout policy (:func:`mattis.bots.policy.playout`: the heuristic
   for every seat, a random legal move with probability ``budget.epsilon``).  The
   move's **chance** is the share of those playouts in which the seat is not the
   loser (a game stopped by the playout's move cap counts one half).
3. In phase 2, once the seat knows every hand (the hands are public after phase 1,
   so this is the usual case; :func:`mattis.bots.search.perfect_info`) and at most
   ``budget.solver_cards`` cards are in the hands, the exact solver
   (:mod:`mattis.bots.solver`) is asked first:

   * two players (``going_out=laid``): exact minimax.  A won move has chance 1 and
     the verdict ``wins`` (*the seat goes out whatever the other does*), a lost one
     chance 0 and ``loses`` (*the other can make the seat Mattis whatever it does*).
   * three or more players: the paranoid search (the others play together against
     the seat).  A move it scores +1 is safe against any play of the others: chance
     1, verdict ``wins``.  A move it scores -1 gets ``can_be_forced`` (the others,
     playing together, can make the seat Mattis) and keeps its playout chance, since
     real opponents do not play as one; a draw (0: play can cycle) decides nothing.
     Once only two players are left in, the paranoid search is exact minimax, and
     a move it scores -1 is ``loses`` with chance 0.

   If the solver runs out of nodes the playouts decide alone.

This is the judgement of the project's search bots, not of a stronger oracle: the
``hard`` bot (``pimc``) chooses its phase 1 moves by the same flat Monte Carlo over
determinizations (it scores finishing places, :func:`mattis.bots.policy.outcome`;
the review scores only not being the loser), and the phase 2 bots add the same solver.  The
``expert`` bot's tree search (``ismcts``) picks moves but gives no chance per move,
so this flat estimate is the one the review can give.  The numbers assume that
everybody plays on like the playout policy; they are Monte Carlo estimates with a
standard error (``MoveValue.se``, Agresti-Coull) of at most ``0.5 / sqrt(samples)``, and docs/analyze.md measures how
well they match outcomes (in phase 2 they do, in phase 1 hardly).

Budgets are counts, never seconds, so a seeded evaluation is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from ..core import Move, Observation, State, parse_position
from ..core.cards import card_code
from ..core.determinize import DeterminizeError, sample_worlds
from ..core.observation import PHASE2
from .beliefs import MODELS
from .policy import state_choice
from .search import BELIEF_REPLAYS, perfect_info
from .solver import SearchLimit, Solver, two_player_exact, two_player_values

__all__ = ["CALIBRATION", "Z", "Budget", "Evaluation", "MoveValue", "Verdict", "chance", "evaluate", "paired_se",
           "shown_margin", "standard_error", "state_from_view"]

Z = 2.0
"""How many standard errors a difference must clear to count as resolved (about 95%)."""

CALIBRATION = 0.13
"""The playouts' measured calibration error in phase 2: the root mean square, over the
judged decisions, of the gap between the chance they gave and the share of those
decisions whose seat got away, in bands of a fifth (``benchmarks/review_calibration.py``,
docs/analyze.md "How good are the numbers?": 0.13 in Mattis).  A chance shown to a
player carries it in its ± (:func:`shown_margin`) as well as its sampling error."""


def shown_margin(se: float, calibration: float | None = None) -> float:
    """The ± of a chance as shown to a player: :data:`Z` times its sampling error ``se``
    and its estimator's calibration error together, ``Z * sqrt(se**2 + calibration**2)``.
    By default the chance is from playouts (their :data:`CALIBRATION`), and one with no
    sampling error (``se`` 0) is one the solver decided: exact, 0.  Another estimator's
    chance passes its own ``calibration``: the value model's
    (:data:`mattis.bots.value.CALIBRATION`; ``se`` 0, one figure) is shown ± ``Z``
    times it."""
    if calibration is None:
        return 0.0 if se <= 0 else Z * math.hypot(se, CALIBRATION)
    return Z * math.hypot(se, calibration)


def standard_error(total: float, runs: int) -> float:
    """The Agresti-Coull standard error of a share ``total / runs`` (never 0: four
    pseudo-playouts, two each way, keep an all-win or all-loss count honest)."""
    p = (total + 2.0) / (runs + 4.0)
    return math.sqrt(p * (1.0 - p) / (runs + 4.0))


class Verdict(StrEnum):
    """What the exact solver says about a move (see the module docstring)."""

    WINS = "wins"
    """The seat avoids being Mattis with best play, whatever the others do."""
    LOSES = "loses"
    """Two players: the other can make the seat Mattis, whatever the seat does."""
    CAN_BE_FORCED = "can_be_forced"
    """Three or more players: the others, playing together, can make the seat Mattis."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one evaluation may do (counts only)."""

    samples: int = 32
    """Determinizations drawn, and playouts of each legal move (one per sample)."""
    epsilon: float = 0.1
    """The playouts' share of random moves."""
    solver_cards: int = 16
    """The solver is asked once the hands hold this many cards or fewer (0: never)."""
    solver_nodes: int = 20_000
    """The solver's node limit per decision (ten times this with two players)."""
    beliefs: str = "uniform"
    """How the deals are weighed (:data:`mattis.bots.beliefs.MODELS`): ``uniform`` every
    deal consistent with the observation alike, ``easy`` or ``human`` by how likely the
    other seats' moves seen are under that model of them (the weighted determinizer,
    at most :data:`mattis.bots.search.BELIEF_REPLAYS` histories replayed a decision)."""

    def __post_init__(self) -> None:
        if self.beliefs not in MODELS:
            raise ValueError(f"unknown beliefs {self.beliefs!r}; choose from {', '.join(MODELS)}")
        if self.samples < 1:
            raise ValueError("the budget needs at least one sample")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("epsilon must be from 0 to 1")
        if self.solver_cards < 0 or self.solver_nodes < 0:
            raise ValueError("solver_cards and solver_nodes must be 0 or more")


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move's estimate."""

    move: Move
    chance: float
    """The estimated chance to avoid being Mattis after this move (0 to 1)."""
    verdict: Verdict | None = None
    """The solver's verdict, if it decided this move."""
    se: float = 0.0
    """The standard error of ``chance`` (0 when the solver decided it exactly)."""
    gap_se: float | None = None
    """The standard error of the preferred move's chance less this one's, from the same
    playouts (paired: every move is played out on the same deals with the same random
    numbers, so their differences are far steadier than either chance); None where the
    two were not played out together."""

    def ahead_of(self, other: MoveValue, z: float = Z) -> bool:
        """Whether this move's chance is higher than ``other``'s beyond the noise: by
        ``z`` standard errors of the difference, or exactly (both solved)."""
        if self.exact and other.exact:
            return self.chance > other.chance
        return self.chance - other.chance > z * math.hypot(self.se, other.se)

    @property
    def exact(self) -> bool:
        """Whether ``chance`` is the solver's (1 or 0), not a Monte Carlo estimate."""
        return self.verdict is Verdict.WINS or self.verdict is Verdict.LOSES


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal move of one decision, in the observation's order of ``legal``."""

    seat: int
    values: tuple[MoveValue, ...]
    samples: int
    """How many determinizations were played out (0 if every move was solved)."""
    solved: bool
    """Whether the solver decided every move."""

    @property
    def best(self) -> MoveValue:
        """The preferred move: the highest chance (the first in ``legal`` order on a tie)."""
        best = self.values[0]
        for v in self.values[1:]:
            if v.chance > best.chance + 1e-12:
                best = v
        return best

    @property
    def resolved(self) -> MoveValue | None:
        """The best move if it is ahead of every other move beyond the noise
        (:meth:`MoveValue.ahead_of`), else None: several moves may be as good."""
        best = self.best
        return best if all(best.ahead_of(v) for v in self.values if v.move != best.move) else None

    def of(self, move: Move) -> MoveValue:
        """The value of ``move`` (a legal move)."""
        for v in self.values:
            if v.move == move:
                return v
        raise KeyError(f"{move} is not a legal move here")


def state_from_view(obs: Observation) -> State:
    """The one phase 2 state that a seat knowing every hand sees, built from its
    observation alone (for games that began from a position, which the determinizer
    cannot sample).  The repetition history before it is not carried over.

    Raises :class:`~mattis.core.determinize.DeterminizeError` if the seat does not
    know every hand or the game is not in phase 2."""
    if obs.phase is not PHASE2 or not perfect_info(obs) or obs.to_act is None:
        raise DeterminizeError("only a phase 2 position with every hand known can be rebuilt from a view")
    n = obs.players
    hands = [obs.hand_mask if q == obs.seat else obs.known_masks[q] for q in range(n)]

    def cards(mask: int) -> str:
        return "".join(card_code(c) for c in range(52) if mask >> c & 1) or "-"

    def seats(xs: tuple[int, ...]) -> str:
        return ",".join(str(q) for q in xs) or "-"

    assert obs.trump is not None
    trump = "CDHS"[obs.trump]
    if obs.trump_card is not None:
        trump = card_code(obs.trump_card) + (f"@{obs.trump_holder}" if obs.trump_holder is not None else "")
    table = ",".join(f"{q}:{''.join(card_code(c) for c in e)}" for q, e in obs.table2) or "-"
    parts = ["2", f"dealer={obs.dealer}", f"trump={trump}", f"turn={obs.to_act}",
             f"hands={'/'.join(cards(h) for h in hands)}", f"table={table}", f"need={obs.trick_need}",
             f"finished={seats(obs.finished)}", f"losers={seats(obs.losers)}",
             f"blodmattis={seats(obs.blodmattis)}", f"won={'/'.join(str(w) for w in obs.tricks_won)}",
             "known=" + "/".join(cards(h) for h in hands)]
    if obs.waiting:
        parts.append(f"waiting={seats(obs.waiting)}")
    state = parse_position(obs.rules, " ".join(parts))
    if state.legal_moves() != obs.legal:
        raise DeterminizeError("the rebuilt position does not give the observed legal moves")
    return state


def _samples(obs: Observation, k: int, rng: random.Random, beliefs: str = "uniform") -> list[State]:
    """``k`` determinizations (one if the seat knows every hand: they would all agree),
    weighed by the model ``beliefs`` names when the deals are hidden."""
    full = obs.phase is PHASE2 and perfect_info(obs)
    model = None if full else MODELS[beliefs]
    try:
        out = sample_worlds(obs, rng, 1 if full else k, model, particles=max(16, k),
                            max_replays=BELIEF_REPLAYS).states
    except DeterminizeError:
        out = []
    if not out and full:
        out.append(state_from_view(obs))
    return out


def _solve(obs: Observation, state: State, budget: Budget) -> dict[Move, Verdict | None]:
    """The solver's verdict per legal move (empty when it cannot decide)."""
    if not budget.solver_cards or not budget.solver_nodes:
        return {}
    if obs.phase is not PHASE2 or not perfect_info(obs) or sum(obs.hand_counts) > budget.solver_cards:
        return {}
    try:
        if obs.players == 2 and len(obs.still_in) == 2 and two_player_exact(obs.rules):
            vals = two_player_values(state, budget.solver_nodes * 10)
            return {m: Verdict.WINS if v > 0 else Verdict.LOSES for m, v in vals.items()}
        _, vals = Solver(obs.seat, budget.solver_nodes).solve(state)
    except SearchLimit:
        return {}
    # With two players left the paranoid search is plain minimax: its -1 is a loss.
    lost = Verdict.LOSES if len(obs.still_in) == 2 else Verdict.CAN_BE_FORCED
    out: dict[Move, Verdict | None] = {}
    for m, v in vals.items():
        out[m] = Verdict.WINS if v > 0 else lost if v < 0 else None
    return out


def _survives(state: State, seat: int) -> float:
    if seat in state.losers:
        return 0.0
    return 1.0 if state.is_over or seat in state.finished else 0.5


def _play_out(state: State, seat: int, rng: random.Random, epsilon: float, max_moves: int = 4000) -> float:
    """Play ``state`` on with the playout policy (:func:`mattis.bots.policy.playout`'s rule:
    the heuristic, a random legal move with probability ``epsilon``) until ``seat``'s fate
    is settled (out safely, a loser, or the game over), and score it (:func:`_survives`).
    Stopping when the seat is out changes no outcome: a seat that is out is safe."""
    moves = 0
    while not state.is_over and moves < max_moves and seat not in state.finished and seat not in state.losers:
        if epsilon and rng.random() < epsilon:
            state.apply(rng.choice(state.legal_moves()))
        else:
            state.apply(state_choice(state))
        moves += 1
    return _survives(state, seat)


def evaluate(obs: Observation, budget: Budget | None = None, rng: random.Random | None = None, *,
             only: Collection[Move] | None = None) -> Evaluation:
    """Each legal move's chance to avoid being Mattis, for the seat to act in ``obs``
    (see the module docstring).  Raises ``ValueError`` if it is not that seat's turn,
    and :class:`~mattis.core.determinize.DeterminizeError` if no state is consistent
    with the observation."""
    b = budget or Budget()
    r = rng or random.Random(0)
    if obs.to_act != obs.seat or not obs.legal:
        raise ValueError("evaluate needs an observation of the seat to act")
    legal = obs.legal
    dets = _samples(obs, b.samples, r, b.beliefs)
    if not dets:
        raise DeterminizeError("no state is consistent with the observation")
    verdicts = _solve(obs, dets[0], b)
    exact = {m for m, v in verdicts.items() if v is Verdict.WINS or v is Verdict.LOSES}
    if only is not None:
        legal = tuple(m for m in legal if m in only)
        if not legal:
            raise ValueError("evaluate was given no legal move to look at")
    need = [m for m in legal if m not in exact]
    chances: dict[Move, float] = {m: 1.0 if verdicts[m] is Verdict.WINS else 0.0 for m in exact}
    errors: dict[Move, float] = {}
    runs = b.samples if need else 0
    # Common random numbers: playout j of every move starts from the same deal with the
    # same stream of random numbers, so two moves are compared on the same luck.
    streams = [r.getrandbits(63) for _ in range(runs)]
    results: dict[Move, list[float]] = {m: [chances[m]] * runs for m in exact}
    for m in need:
        row: list[float] = []
        for j in range(runs):
            st = dets[j % len(dets)].clone()
            st.apply(m)
            row.append(_play_out(st, obs.seat, random.Random(streams[j]), b.epsilon))
        results[m] = row
        total = sum(row)
        chances[m] = total / runs
        errors[m] = standard_error(total, runs)
    top = legal[0]
    for m in legal[1:]:
        if chances[m] > chances[top] + 1e-12:
            top = m
    same = {m for m in legal if not runs or m == top or (top in exact and m in exact)}
    values = tuple(MoveValue(m, chances[m], verdicts.get(m), errors.get(m, 0.0),
                             0.0 if m in same else paired_se(results[top], results[m])) for m in legal)
    return Evaluation(obs.seat, values, runs, not need)


def paired_se(a: list[float], b: list[float]) -> float:
    """The standard error of ``mean(a) - mean(b)`` from paired outcomes (the same deal and
    random numbers for both), never 0: one pseudo-pair of spread 1 is added, so that
    ``n`` equal differences still leave an uncertainty of about ``1/n``."""
    n = len(a)
    if n == 0:
        return 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    ss = sum((x - mean) ** 2 for x in d)
    return math.sqrt((ss + 1.0) / (n * (n + 1.0)))



def chance(obs: Observation, budget: Budget | None = None, rng: random.Random | None = None) -> tuple[float, float]:
    """The seat's chance to avoid being Mattis from ``obs`` with no move of its own
    chosen (e.g. right after the deal), and its standard error: ``budget.samples``
    determinizations, each played out once with the playout policy.  Raises
    :class:`~mattis.core.determinize.DeterminizeError` if no state is consistent."""
    b = budget or Budget()
    r = rng or random.Random(0)
    dets = _samples(obs, b.samples, r, b.beliefs)
    if not dets:
        raise DeterminizeError("no state is consistent with the observation")
    total = 0.0
    for j in range(b.samples):
        st = dets[j % len(dets)].clone()
        total += _play_out(st, obs.seat, r, b.epsilon)
    return total / b.samples, standard_error(total, b.samples)
