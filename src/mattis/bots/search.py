"""Search bots: ``rollout``, ``uct``, ``pimc``, ``ismcts`` and ``solver``.

All of them see only their seat's observation.  To search they sample full
states consistent with it (:func:`mattis.core.determinize.sample_worlds`: uniform,
or weighed by a model of the others with ``beliefs``) and simulate on those samples,
never on the real game.  Budgets are counts (samples, playouts, iterations, solver
nodes), so a bot with a given seed always makes the same move; ``time_cap``
(seconds, optional) is only a safety limit and makes results depend on machine
speed when it triggers.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from ..core import HistoryItem, IllegalMoveError, Move, Observation, State
from ..core.determinize import DeterminizeError, sample_state, sample_worlds
from ..core.observation import PHASE1, PHASE2, observe
from .beliefs import MODELS
from .heuristic import heuristic_move
from .policy import outcome, playout, playout_phase1, state_choice
from .solver import SearchLimit, Solver, two_player_exact, two_player_values
from .value import ValueModel, has_numpy, model_for
from .vary import CycleGuard

log = logging.getLogger(__name__)

BELIEF_REPLAYS = 200
"""The most histories the weighted determinizer may replay per decision of a search
bot with ``beliefs`` other than ``uniform`` (its cost bound)."""


def perfect_info(obs: Observation) -> bool:
    """Whether every card in every hand is known to this seat (phase 2)."""
    for seat in range(obs.players):
        if seat == obs.seat:
            continue
        if len(obs.known[seat]) != obs.hand_counts[seat]:
            return False
    return True


class OpponentModel:
    """Per opponent, the belief that it plays the rules-of-thumb move (``heuristic``'s)
    in phase 2, from what this seat saw it do.

    Two kinds of player are weighed against each other: one that plays the
    heuristic's move (but for a slip, probability ``slip``), and one that searches and
    agrees with the heuristic with probability ``searcher_agree``; ``prior`` is the
    belief before the first phase 2 decision seen.  After ``k`` agreements in ``n``
    decisions the belief is the posterior of the first kind (Bayes' rule), so a few
    disagreements are enough to treat a searcher as one.

    It reads only the seat's own observations: at the seat's first phase 2 decision
    at which every hand is known to it, it samples the full state from its
    observation (:func:`~mattis.core.determinize.sample_state`, which is then the
    true position as far as hands go) and from then on replays the public history
    onto that copy, asking at each opponent's decision with a choice what
    ``heuristic`` would have played from that opponent's view
    (``heuristic_move(observe(copy, opponent))``).  A game that starts over (a
    history that is not a continuation of the one replayed) starts the belief over.
    """

    def __init__(self, prior: float = 0.5, slip: float = 0.05, searcher_agree: float = 0.5) -> None:
        self.prior = prior
        self.slip = slip
        self.searcher_agree = searcher_agree
        self.agreed: dict[int, int] = {}
        self.seen: dict[int, int] = {}
        self._copy: State | None = None
        self._replayed = 0
        self._last: HistoryItem | None = None

    def reset(self) -> None:
        self.agreed.clear()
        self.seen.clear()
        self._copy = None
        self._replayed = 0
        self._last = None

    def belief(self, seat: int) -> float:
        """The chance that ``seat`` plays the heuristic's move, given what was seen."""
        n = self.seen.get(seat, 0)
        k = self.agreed.get(seat, 0)
        if self.prior <= 0.0 or self.prior >= 1.0:
            return self.prior
        log_odds = (math.log(self.prior / (1 - self.prior))
                    + k * math.log((1 - self.slip) / self.searcher_agree)
                    + (n - k) * math.log(self.slip / (1 - self.searcher_agree)))
        if log_odds > 50:
            return 1.0
        return math.exp(log_odds) / (1 + math.exp(log_odds)) if log_odds > -50 else 0.0

    def beliefs(self, obs: Observation) -> list[float]:
        """Every seat's belief (0 for the seat itself, which the search never models)."""
        return [0.0 if s == obs.seat else self.belief(s) for s in range(obs.players)]

    def update(self, obs: Observation, rng: random.Random) -> None:
        """Take in the moves made since the last call (phase 2 only)."""
        history = obs.history
        n = len(history)
        if n < self._replayed or (self._replayed and history[self._replayed - 1] != self._last):
            self.reset()  # another game
        if obs.phase != PHASE2:
            return
        if self._copy is None:
            if not perfect_info(obs):
                return
            try:
                self._copy = sample_state(obs, rng)
            except DeterminizeError:
                return
        else:
            copy = self._copy
            for seat, move, _shown in history[self._replayed:]:
                if copy.phase == PHASE2 and copy.to_act == seat and seat != obs.seat:
                    if len(copy.legal_moves()) > 1:
                        self.seen[seat] = self.seen.get(seat, 0) + 1
                        if heuristic_move(observe(copy, seat, history=False)) == move:
                            self.agreed[seat] = self.agreed.get(seat, 0) + 1
                try:
                    copy.apply(move)
                except IllegalMoveError:  # the copy went astray: sample it again when every hand is known
                    log.warning("the opponent model could not replay %s by seat %d; it samples the position again",
                                move, seat)
                    self._copy = None
                    break
        self._replayed = n
        self._last = history[-1] if history else None


@dataclass
class SolverCount:
    """A bot's phase 2 endgame solver, counted over its decisions: ``asked`` (every hand
    known and few enough cards), of those ``decided`` (a proven getaway, or one move left
    that does not lose: the solver's move is played), ``narrowed`` (the moves proven worse
    dropped, the search chooses among the rest), ``undecided`` (every move has the same
    value: the search chooses among all) and ``over_limit`` (the node budget ran out)."""

    asked: int = 0
    decided: int = 0
    narrowed: int = 0
    undecided: int = 0
    over_limit: int = 0

    def add(self, other: SolverCount) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class _Base:
    """Shared budget handling and sampling."""

    name = "base"

    def __init__(self, seed: int | None = None, *, samples: int = 8, playouts: int = 2,
                 epsilon: float = 0.1, solver_cards: int = 0, solver_nodes: int = 20_000,
                 max_playouts: int | None = None, time_cap: float | None = None,
                 p2_iterations: int = 0, p2_c: float = 0.7, model: OpponentModel | None = None,
                 beliefs: str = "uniform", solver_deepening: bool = False) -> None:
        self.rng = random.Random(seed)
        if beliefs not in MODELS:
            raise ValueError(f"unknown beliefs {beliefs!r}; choose from {', '.join(MODELS)}")
        self.beliefs = beliefs
        """How the bot weighs the deals it samples (:data:`mattis.bots.beliefs.MODELS`):
        ``uniform`` every consistent deal alike, ``human`` by how likely the other
        seats' moves are if they play the rules of thumb, softened (the weighted
        determinizer, :func:`~mattis.core.determinize.sample_worlds`), ``easy`` as if
        they play ``easy`` exactly."""
        self.model = model
        """The opponents' model for the phase 2 tree search (``None``: every opponent
        searched by UCB, as ``uct`` does)."""
        self.p2_iterations = p2_iterations
        self.p2_c = p2_c
        self.samples = samples
        self.playouts = playouts
        self.epsilon = epsilon
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.solver_deepening = solver_deepening
        """Where the endgame solver's full search runs out of nodes, search again to the
        depths of :data:`~mattis.bots.solver.DEEPENING` on a budget of the same size
        (:meth:`~mattis.bots.solver.Solver.solve_deepening`; the expert does)."""
        self.max_playouts = max_playouts
        self.time_cap = time_cap
        self.guard = CycleGuard()
        """The moves made in each phase 2 position, so as not to make one again when the
        position comes back (:mod:`mattis.bots.vary`)."""
        self.failed_samples = 0
        """Decisions at which no full state could be sampled, so the bot played its
        heuristic move without searching (never expected: a test asserts zero, and
        ``mattis tournament --verbose`` shows the count)."""
        self.solver = SolverCount()
        """How often the phase 2 endgame solver was asked and what it decided."""

    def _sample(self, obs: Observation, k: int) -> list[State]:
        model = MODELS[self.beliefs]
        if model is not None and obs.phase == PHASE1:
            # Weighted worlds in phase 1 only: there the hands are hidden and the history
            # short; in phase 2 every hand is usually known, and a long history would make
            # each replay of the filter dear.
            try:
                return sample_worlds(obs, self.rng, k, model, particles=max(16, k), max_replays=BELIEF_REPLAYS).states
            except DeterminizeError:
                self.failed_samples += 1
                return []
        try:
            out = sample_worlds(obs, self.rng, k).states
        except DeterminizeError:
            out = []
        if not out:
            self.failed_samples += 1
        return out

    # ----------------------------------------------------------- phase 2
    def _phase2(self, obs: Observation) -> Move:
        """Phase 2: the search's move among the legal moves less those this seat made
        before in this position, when it came back (:class:`~mattis.bots.vary.CycleGuard`)."""
        return self.guard.note(obs, self._phase2_search(obs, self.guard.choices(obs)))

    def _phase2_search(self, obs: Observation, legal: Sequence[Move]) -> Move:
        first = heuristic_move(obs, legal=legal)
        if self.model is not None:
            self.model.update(obs, self.rng)
        if len(legal) == 1:
            return legal[0]
        full = perfect_info(obs)
        dets = self._sample(obs, 1 if full else self.samples)
        if not dets:
            return first
        cands: Sequence[Move] = legal
        limit = max(self.solver_cards, 20) if obs.players == 2 and self.solver_cards else self.solver_cards
        if limit and full and sum(obs.hand_counts) <= limit:
            self.solver.asked += 1
            try:
                if obs.players == 2 and len(obs.still_in) == 2 and two_player_exact(obs.rules):
                    vals = two_player_values(dets[0], self.solver_nodes * 10)
                    best = max(vals.values())
                else:
                    try:
                        best, vals = Solver(obs.seat, self.solver_nodes).solve(dets[0])
                    except SearchLimit:
                        if not self.solver_deepening:
                            raise
                        # long lines: what the shallow searches prove, on a budget of their own
                        best, vals = Solver(obs.seat, self.solver_nodes).solve_deepening(dets[0])
                cands = [m for m in legal if vals.get(m, -2) == best]
                if best == 1 or len(cands) == 1:
                    self.solver.decided += 1
                    return first if first in cands else cands[0]
                if len(cands) < len(legal):
                    self.solver.narrowed += 1
                else:
                    self.solver.undecided += 1
            except SearchLimit:
                self.solver.over_limit += 1
                cands = legal
        if self.p2_iterations and len(cands) > 1:
            # Each iteration is one playout, so ``max_playouts`` caps the iterations too.
            iterations = min(self.p2_iterations, self.max_playouts or self.p2_iterations)
            follow = self.model.beliefs(obs) if self.model is not None else None
            return tree_search(obs, dets, cands, first, iterations, self.p2_c, self.rng, self.epsilon,
                               False, self.time_cap, follow)
        per_move = self.playouts
        if self.max_playouts:
            per_move = max(1, min(per_move, self.max_playouts // len(cands)))
        return self._flat(obs, dets, cands, first, per_move)

    def _flat(self, obs: Observation, dets: list[State], cands: Sequence[Move], first: Move,
              per_move: int) -> Move:
        """Flat Monte Carlo: ``per_move`` playouts of each candidate over the samples."""
        order = sorted(cands, key=lambda m: m != first)
        me = obs.seat
        best, best_v = order[0], -1.0
        deadline = time.perf_counter() + self.time_cap if self.time_cap else None
        for m in order:
            total = 0.0
            for j in range(per_move):
                st = dets[j % len(dets)].clone()
                st.apply(m)
                playout(st, self.rng, self.epsilon if j else 0.0)
                total += outcome(st, me)
            v = total / per_move
            if v > best_v + 1e-9:
                best, best_v = m, v
            if deadline is not None and time.perf_counter() > deadline:
                break
        return best


class RolloutBot(_Base):
    """Heuristic in phase 1; in phase 2 flat Monte Carlo over the sampled
    (perfect-information) position: ``playouts`` heuristic playouts per legal move,
    ``max_playouts`` in all per decision (the default level for play: <= 50 ms)."""

    name = "rollout"

    def __init__(self, seed: int | None = None, **kw: float | int | None) -> None:
        kw.setdefault("playouts", 3)
        kw.setdefault("max_playouts", 30)
        super().__init__(seed, **kw)  # type: ignore[arg-type]
        self.name = "rollout"

    def act(self, obs: Observation) -> Move:
        if obs.phase == PHASE2:
            return self._phase2(obs)
        return heuristic_move(obs)


class UctBot(_Base):
    """Heuristic in phase 1; in phase 2 a tree search (:func:`tree_search`) of
    ``p2_iterations`` iterations over the sampled position (one sample when every
    hand is known, as it usually is in phase 2: plain UCT), heuristic playouts."""

    name = "uct"

    def __init__(self, seed: int | None = None, **kw: float | int | None) -> None:
        kw.setdefault("p2_iterations", 100)
        super().__init__(seed, **kw)  # type: ignore[arg-type]
        self.name = "uct"

    def act(self, obs: Observation) -> Move:
        if obs.phase == PHASE2:
            return self._phase2(obs)
        return heuristic_move(obs)


class _Phase1Search(_Base):
    """A bot that searches phase 1 on determinizations (and plays phase 2 like
    ``rollout``); subclasses give the sample budget and the search."""

    def _phase1_budget(self) -> int:
        raise NotImplementedError

    def _phase1_search(self, obs: Observation, dets: list[State], first: Move) -> Move:
        raise NotImplementedError

    def act(self, obs: Observation) -> Move:
        if obs.phase == PHASE2:
            return self._phase2(obs)
        first = heuristic_move(obs)
        if len(obs.legal) == 1:
            return obs.legal[0]
        dets = self._sample(obs, min(self.samples, self._phase1_budget()))
        return self._phase1_search(obs, dets, first) if dets else first


class PimcBot(_Phase1Search):
    """Perfect Information Monte Carlo in phase 1: ``samples`` determinizations,
    each legal move played out ``p1_playouts`` times in all; ``rollout`` in phase 2."""

    name = "pimc"

    def __init__(self, seed: int | None = None, *, p1_playouts: int = 16, **kw: float | int | None) -> None:
        kw.setdefault("playouts", 4)
        kw.setdefault("samples", 16)
        super().__init__(seed, **kw)  # type: ignore[arg-type]
        self.p1_playouts = p1_playouts
        self.name = "pimc"

    def _phase1_budget(self) -> int:
        return self.p1_playouts

    def _phase1_search(self, obs: Observation, dets: list[State], first: Move) -> Move:
        return self._flat(obs, dets, obs.legal, first, self.p1_playouts)


class _Node:
    __slots__ = ("children", "n", "avail", "w")

    def __init__(self) -> None:
        self.children: dict[Move, _Node] = {}
        self.n = 0
        self.avail = 0
        self.w = 0.0


def _expand(node: _Node, move: Move) -> _Node:
    """The new child of ``node`` reached by ``move`` (available once: now)."""
    ch = _Node()
    ch.avail = 1
    node.children[move] = ch
    return ch


LEAVES = ("playout", "value")
"""How the expert's phase 1 search values an iteration (``IsmctsBot(leaf=...)``): a
heuristic ``playout`` to the game's end, or the learned ``value`` model at phase 2's start."""


def value_leaf(model: ValueModel, seat: int) -> Callable[[State], list[float]]:
    """A leaf evaluator for :func:`tree_search`: each seat's value (by seat number) in a
    (sampled) state, 1 less the ``model``'s chance that it ends as the loser, read from
    ``seat``'s observation of that state."""
    def leaf(state: State) -> list[float]:
        losers = model.losers(observe(state, seat, history=False))  # relative order: index 0 is ``seat``
        n = state.n
        return [1.0 - losers[(s - seat) % n] for s in range(n)]
    return leaf


def tree_search(obs: Observation, dets: list[State], cands: Sequence[Move], first: Move, iterations: int,
                c: float, rng: random.Random, epsilon: float, phase1_only: bool,
                time_cap: float | None = None, follow: Sequence[float] | None = None,
                leaf: Callable[[State], Sequence[float]] | None = None,
                stats: dict[Move, tuple[int, float]] | None = None) -> Move:
    """Single-observer Information Set MCTS (Cowling, Powley and Whitehouse 2012):
    ``iterations`` iterations, each on a determinization (``dets`` is cycled; with
    one sample, as in a phase 2 position where every hand is known, this is plain
    UCT), UCB1 with availability counts, each node valued for the seat that moved
    into it, heuristic playouts (a random move with probability ``epsilon``).  The
    root chooses among ``cands``; the tree grows within phase 1 only when
    ``phase1_only``, else to the end of the game.  The most visited move wins.

    ``follow`` (per seat, optional) models the other seats: at a node where seat
    ``s`` (not ``obs.seat``) moves, it plays the heuristic's move with probability
    ``follow[s]`` (the tree follows that child), else the move UCB picks.

    ``leaf`` (optional, with ``phase1_only``) values an iteration instead of the playout
    to the game's end: the playout goes on only through the rest of phase 1
    (:func:`~mattis.bots.policy.playout_phase1`) and each node on the path is given
    ``leaf(state)[seat]`` for the seat that moved into it (a value from 0 to 1, as
    :func:`value_leaf` gives); a game that ended in phase 1 keeps its
    :func:`~mattis.bots.policy.outcome`.  ``stats``, where given, is filled with each
    root move's visits and mean value."""
    root = _Node()
    me = obs.seat
    allowed = set(cands)
    deadline = time.perf_counter() + time_cap if time_cap else None
    for it in range(iterations):
        st = dets[it % len(dets)].clone()
        node = root
        trail: list[tuple[_Node, int]] = []
        while not st.is_over and (st.phase == PHASE1 or not phase1_only):
            moves: Sequence[Move] = st.legal_moves()
            if node is root:
                moves = [m for m in moves if m in allowed]
            mover = st.to_act
            assert mover is not None
            for m in moves:
                ch = node.children.get(m)
                if ch is not None:
                    ch.avail += 1
            if follow is not None and mover != me and node is not root and follow[mover] > 0.0 \
                    and rng.random() < follow[mover]:
                m = state_choice(st)
                st.apply(m)
                if m in node.children:
                    node = node.children[m]
                    trail.append((node, mover))
                    continue
                trail.append((_expand(node, m), mover))
                break
            untried = [m for m in moves if m not in node.children]
            if untried:
                m = first if node is root and first in untried else rng.choice(untried)
                st.apply(m)
                trail.append((_expand(node, m), mover))
                break
            best_m, best_u = moves[0], -1.0
            for m in moves:
                ch = node.children[m]
                u = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
                if u > best_u:
                    best_m, best_u = m, u
            node = node.children[best_m]
            st.apply(best_m)
            trail.append((node, mover))
        values: Sequence[float] | None = None
        if leaf is not None and phase1_only:
            playout_phase1(st, rng, epsilon)
            if not st.is_over:
                values = leaf(st)
        else:
            playout(st, rng, epsilon)
        for nd, mover in trail:
            nd.n += 1
            nd.w += outcome(st, mover) if values is None else values[mover]
        if deadline is not None and time.perf_counter() > deadline:
            break
    if stats is not None:
        stats.update((m, (ch.n, ch.w / ch.n if ch.n else 0.0)) for m, ch in root.children.items())
    return max(cands, key=lambda m: (root.children[m].n if m in root.children else -1, m == first))


class IsmctsBot(_Phase1Search):
    """The expert.  Phase 1: single-observer Information Set MCTS (Cowling, Powley and
    Whitehouse 2012), ``iterations`` iterations, each on a determinization (a pool of
    ``samples`` is cycled), UCB with availability counts, heuristic playouts.  Phase 2:
    the exact endgame solver (``solver_cards`` cards or fewer, every hand known), else a
    tree search of ``p2_iterations`` iterations (:func:`tree_search`) in which each
    opponent is modelled (``model_opponents``, :class:`OpponentModel`): at its nodes
    the tree plays the heuristic's move with the probability that this opponent is one
    that plays it, believed from its phase 2 moves so far, else the move UCB picks.

    Why the model: a phase 2 tree search that searches every opponent's replies beat
    ``hard`` but lost about twice as often against two ``easy`` as flat heuristic
    rollouts (which model ``easy`` exactly); flat rollouts lost to ``hard``.  With the
    model the tree treats a rules-of-thumb player as one and a searcher as a searcher
    (docs/bots.md has the measurements).  ``p2_iterations=0`` gives the flat rollouts
    (``playouts`` per move) of the earlier expert; ``model_opponents=False`` the plain
    tree search.

    ``leaf`` (:data:`LEAVES`) is how phase 1's search values an iteration: ``playout``
    (the default) a heuristic playout to the game's end, ``value`` the learned value
    model (:mod:`mattis.bots.value`) at phase 2's start, reached by a heuristic playout
    through the rest of phase 1 (:func:`tree_search`'s ``leaf``, :func:`value_leaf`).
    Without NumPy ``value`` falls back to the playouts and says so once in a logged
    warning."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, iterations: int = 100, c: float = 0.7,
                 model_opponents: bool = True, leaf: str = "playout", **kw: float | int | str | None) -> None:
        kw.setdefault("playouts", 4)
        kw.setdefault("samples", 16)
        kw.setdefault("solver_cards", 14)
        kw.setdefault("p2_iterations", 1000)
        kw.setdefault("solver_deepening", True)
        super().__init__(seed, model=OpponentModel() if model_opponents else None, **kw)  # type: ignore[arg-type]
        self.iterations = iterations
        self.c = c
        self.name = "ismcts"
        if leaf not in LEAVES:
            raise ValueError(f"unknown leaf {leaf!r}; choose from {', '.join(LEAVES)}")
        if leaf == "value" and not has_numpy():
            log.warning("the expert's value leaf needs NumPy for the value model; its phase 1 search plays out "
                        "to the game's end instead")
            leaf = "playout"
        self.leaf = leaf
        """How phase 1's search values an iteration (:data:`LEAVES`; ``playout`` where
        ``value`` was asked for without NumPy)."""

    def _phase1_budget(self) -> int:
        return self.iterations

    def _phase1_search(self, obs: Observation, dets: list[State], first: Move) -> Move:
        leaf = value_leaf(model_for(obs.rules), obs.seat) if self.leaf == "value" else None
        return tree_search(obs, dets, obs.legal, first, self.iterations, self.c, self.rng, self.epsilon, True,
                           self.time_cap, leaf=leaf)


class SolverBot(_Base):
    """A phase 2 specialist: heuristic in phase 1; in phase 2 the exact solver once
    ``solver_cards`` or fewer cards are in the hands (``solver_nodes`` nodes at
    most), else rollouts."""

    name = "solver"

    def __init__(self, seed: int | None = None, **kw: float | int | None) -> None:
        kw.setdefault("playouts", 4)
        kw.setdefault("solver_cards", 16)
        kw.setdefault("solver_nodes", 50_000)
        super().__init__(seed, **kw)  # type: ignore[arg-type]
        self.name = "solver"

    def act(self, obs: Observation) -> Move:
        if obs.phase == PHASE2:
            return self._phase2(obs)
        return heuristic_move(obs)


__all__ = ["LEAVES", "IsmctsBot", "OpponentModel", "PimcBot", "RolloutBot", "SolverBot", "SolverCount", "UctBot",
           "perfect_info", "tree_search", "value_leaf"]
