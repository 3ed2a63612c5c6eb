"""The project's bots as evaluators for OpenSpiel's searches on ``python_mattis``.

OpenSpiel's ``MCTSBot`` and ``ISMCTSBot`` take an ``Evaluator``
(``open_spiel.python.algorithms.mcts.Evaluator``: ``evaluate(state)`` gives every
player's expected return, ``prior(state)`` a probability per legal action).  The stock
``RandomRolloutEvaluator`` plays random moves to the end, and a random playout of a
Mattis game says little about a position: every OpenSpiel search with it loses to the
``easy`` heuristic.  These evaluators give the searches the project's knowledge:

* :class:`BotRolloutEvaluator` plays the game out with one of the project's bots in
  every seat (``easy`` by default), each given only its own seat's observation, on the
  engine directly (no OpenSpiel step per move), and returns the seats' rewards as the
  game pays them (loser-only, or zero-sum when the game was loaded so);
* :class:`ValueEvaluator` reads the value model (:mod:`mattis.bots.value`, needs
  NumPy): each seat's expected return is minus its chance of being the loser, from
  the observation of the player to act (exact at the end of the game).

Both give a uniform prior.  Randomness comes from the ``seed`` given (reproducible
searches)::

    from open_spiel.python.algorithms import ismcts
    bot = ismcts.ISMCTSBot(game, BotRolloutEvaluator("easy", seed=1), uct_c=2.0,
                           max_simulations=30)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import mcts

from ..core import State
from ..play import Agent, make_bot
from .common import loser_rewards
from .openspiel_game import MattisState

__all__ = ["BotRolloutEvaluator", "ValueEvaluator"]


def _engine_of(state: MattisState, rng: random.Random) -> State:
    """A copy of the state's engine; a state still dealing is dealt out at random first."""
    eng = state.engine
    if eng is not None:
        return eng.clone()
    core = state._core
    g = state._g
    rest = [c for c in range(52) if not core.dealt >> c & 1]
    rng.shuffle(rest)
    return State.from_deck(g.rules, g.players, core.deck + rest, g.dealer, g.leader)


def _uniform_prior(state: MattisState) -> list[tuple[int, float]]:
    if state.is_chance_node():
        return list(state.chance_outcomes())
    legal = state.legal_actions(state.current_player())
    return [(a, 1.0 / len(legal)) for a in legal]


class BotRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Plays each evaluated state out ``n_rollouts`` times with ``bot`` (a name for
    :func:`mattis.play.make_bot`, ``easy`` by default) in every seat; the value is the
    mean of the rewards.  Each rollout gets fresh bots seeded from ``seed``."""

    def __init__(self, bot: str = "easy", n_rollouts: int = 1, seed: int | None = None) -> None:
        make_bot(bot, 0)  # an unknown name fails here, not in the middle of a search
        self.bot = bot
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)
        self.moves = 0
        """Moves played in rollouts so far (for cost accounting)."""

    def evaluate(self, state: MattisState) -> npt.NDArray[np.float64]:
        g = state._g
        total = np.zeros(g.players)
        for _ in range(self.n_rollouts):
            s = _engine_of(state, self._rng)
            agents: list[Agent] = [make_bot(self.bot, self._rng.getrandbits(63)) for _ in range(g.players)]
            while not s.is_over:
                seat = s.to_act
                assert seat is not None
                s.apply(agents[seat].act(s.observation(seat)))
                self.moves += 1
            outcome = s.outcome
            assert outcome is not None
            total += loser_rewards(g.players, outcome.losers, g.zero_sum)
        out: npt.NDArray[np.float64] = total / self.n_rollouts
        return out

    def prior(self, state: MattisState) -> list[tuple[int, float]]:
        return _uniform_prior(state)


class ValueEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Each seat's expected return from the value model (:func:`mattis.bots.value.model_for`
    the game's rules): minus its chance of being the loser (``1 - 2 p`` in a zero-sum
    game), read from the observation of the player to act; exact at the end."""

    def __init__(self, rules: Any, path: str | None = None) -> None:
        from ..bots.value import model_for  # needs NumPy, as this module does
        self.model = model_for(rules, path)

    def evaluate(self, state: MattisState) -> npt.NDArray[np.float64]:
        g = state._g
        eng = state.engine
        if eng is None:
            return np.zeros(g.players)
        if eng.is_over:
            return np.asarray(state.returns(), dtype=np.float64)
        seat = eng.to_act
        assert seat is not None
        p = self.model.losers(eng.observation(seat))  # relative to the seat to act
        lose = np.array([p[(i - seat) % g.players] for i in range(g.players)])
        out: npt.NDArray[np.float64] = 1.0 - 2.0 * lose if g.zero_sum else -lose
        return out

    def prior(self, state: MattisState) -> list[tuple[int, float]]:
        return _uniform_prior(state)
