"""The bot ladder: the bots by name, and the map of the friendly levels onto it.

| level (en / nb)       | bot       | think budget per decision                                    |
|-----------------------|-----------|--------------------------------------------------------------|
| easy / lett           | heuristic | rules of thumb, microseconds                                  |
| medium / middels      | rollout   | phase 2: 3 playouts per move, 30 at most (< 50 ms)             |
| hard / vanskelig      | uct       | phase 2: a 100-iteration tree search                           |
| expert / ekspert      | ismcts    | phase 1: 100 ISMCTS iterations; phase 2: the solver, else    |
|                       |           | a 1000-iteration tree search with an opponent model          |

``learned`` (no level name) is one ply on the learned value model (``bots/learned.py``):
what the model knows on its own, measured against ``easy`` and ``medium`` in docs/bots.md
(not yet a rung: level with ``easy`` in mattis and hund, ahead of it only in skitgubbe).

Each level beats the one below it on paired duplicate deals, measured on seeds not
used while tuning: ``medium`` over ``easy`` and ``hard`` over ``medium`` in every preset,
``expert`` over ``hard`` in every preset (the measurements, with their commands, deals
and intervals, are in docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .heuristic import HeuristicBot
from .learned import LearnedBot
from .search import IsmctsBot, PimcBot, RolloutBot, SolverBot, UctBot


def _ismcts_beliefs(seed: int | None = None) -> IsmctsBot:
    """The expert on weighted worlds (``beliefs="human"``): its samples weighed by how
    likely the other seats' moves are under the rules of thumb, softened."""
    bot = IsmctsBot(seed, beliefs="human")
    bot.name = "ismcts-beliefs"
    return bot


def _expert_2026(seed: int | None = None) -> IsmctsBot:
    """The expert as it stood at the end of 2026, kept as a rung: the next expert must
    beat it paired, on the same deals (docs/bots.md, "The kept expert").  Every setting
    is written out here, so changing the expert's defaults leaves this bot as it is; it
    runs the current search code, so a change to the search itself changes it too, and
    then its recorded game (tests/bots/test_bots_ladder.py) fails: keep the old code for
    it, or say in the docs that the rung moved."""
    bot = IsmctsBot(seed, iterations=100, c=0.7, model_opponents=True, leaf="playout", samples=16, playouts=4,
                    epsilon=0.1, solver_cards=14, solver_nodes=20_000, solver_deepening=True, p2_iterations=1000,
                    p2_c=0.7, beliefs="uniform")
    bot.name = "expert-2026"
    return bot


BotClass = HeuristicBot | RolloutBot | UctBot | PimcBot | IsmctsBot | SolverBot | LearnedBot

BOTS: dict[str, Callable[[int | None], BotClass]] = {
    "heuristic": HeuristicBot,
    "rollout": RolloutBot,
    "uct": UctBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
    "ismcts-beliefs": _ismcts_beliefs,
    "expert-2026": _expert_2026,
    "solver": SolverBot,
    "learned": LearnedBot,
}
"""Bot name -> class (factory(seed)); :mod:`mattis.play.agents` names them for the play layer."""

LEVEL_BOTS: dict[str, str] = {
    "easy": "heuristic", "lett": "heuristic",
    "medium": "rollout", "middels": "rollout",
    "hard": "uct", "vanskelig": "uct",
    "expert": "ismcts", "ekspert": "ismcts",
}
"""Friendly levels for people (en and nb) -> bot names."""
