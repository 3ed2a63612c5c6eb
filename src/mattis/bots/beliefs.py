"""The bots' models of the other players, for the weighted determinizer.

:func:`mattis.core.determinize.sample_worlds` weighs each world by how likely the
moves the other seats were seen to make are there, under a model of those seats
(a :data:`~mattis.core.determinize.MoveModel`).  The core cannot know the bots, so
the models live here, built from the bots' own policies:

* :func:`policy_model`: a player that makes a policy's move but for a slip
  (probability ``slip``, spread evenly over the other legal moves), judged from the
  acting seat's own view of the world (``observe(world, seat)``).
* :data:`EASY`: ``easy`` (the heuristic, deterministic given its view) with a slip
  of 1%: the model for a seat known to be ``easy``.
* :data:`HUMAN`: the heuristic softened (a slip of 40%): the model for a player
  nothing is known of, a person or a searching bot, who often plays the rules of
  thumb and often does not.
* ``None``: no model, every consistent deal alike (the uniform determinizer).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Move, Observation, State, preset
from ..core.determinize import MoveModel
from ..core.observation import observe
from .heuristic import heuristic_move

_MEMO = 20_000
"""The most views whose move a model keeps (then it forgets them all)."""


def policy_model(choose: Callable[[Observation], Move], slip: float) -> MoveModel:
    """The model of a player that makes ``choose``'s move (from its own view) with
    probability ``1 - slip``, any other legal move with ``slip`` shared evenly.
    ``choose`` must be a function of the view alone (deterministic): its moves are kept
    per view."""
    if not 0.0 < slip < 1.0:
        raise ValueError(f"slip must be between 0 and 1, not {slip}")

    memo: dict[Observation, Move] = {}  # the policy's move per view: the filter asks the same ones often

    def chance(state: State, seat: int, move: Move) -> float:
        view = observe(state, seat, history=False)
        others = len(view.legal) - 1
        if others <= 0:
            return 1.0
        best = memo.get(view)
        if best is None:
            if len(memo) >= _MEMO:
                memo.clear()
            best = memo[view] = choose(view)
        return 1.0 - slip if best == move else slip / others

    return chance


EASY: MoveModel = policy_model(heuristic_move, 0.01)
"""A seat known to play ``easy`` (the rules of thumb, deterministic given its view)."""

HUMAN: MoveModel = policy_model(heuristic_move, 0.4)
"""A player nothing is known of: the rules of thumb, softened."""

MODELS: dict[str, MoveModel | None] = {"uniform": None, "easy": EASY, "human": HUMAN}
"""The models by name (``uniform``: none, every consistent deal alike)."""



def easy_game(name: str, seed: int, moves: int, slip: float = 0.01) -> State | None:
    """A game of preset ``name`` (3 players, deal ``seed``) after ``moves`` moves in which
    every seat plays ``easy``'s move but, with probability ``slip``, another legal move
    drawn at random (seeded by ``seed``): with the default 1% every seat plays exactly
    the policy :data:`EASY` models, so the true deal is a draw of the posterior the
    weighted determinizer samples.  ``None`` if the game is over by then."""
    s = State.new(preset(name), 3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = s.to_act
        assert seat is not None
        move = heuristic_move(s.observation(seat))
        legal = s.legal_moves()
        if slip and len(legal) > 1 and rng.random() < slip:
            move = rng.choice([m for m in legal if m != move])
        s.apply(move)
        if s.is_over:
            return None
    return s


__all__ = ["EASY", "HUMAN", "MODELS", "easy_game", "policy_model"]
