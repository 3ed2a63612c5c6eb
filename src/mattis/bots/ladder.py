"""Registers the bot ladder and maps the friendly levels onto it.

| level (en / nb)       | bot       | think budget per decision                        |
|-----------------------|-----------|--------------------------------------------------|
| easy / lett           | heuristic | rules of thumb, microseconds                      |
| medium / middels      | rollout   | phase 2: 3 playouts per move, 30 at most (< 50 ms) |
| hard / vanskelig      | pimc      | phase 1: 16 playouts per move; phase 2: 4         |
| expert / ekspert      | ismcts    | phase 1: 200 iterations; phase 2: 4 + solver      |
"""

from __future__ import annotations

from .base import LEVELS, REGISTRY
from .heuristic import HeuristicBot
from .search import IsmctsBot, PimcBot, RolloutBot, SolverBot

REGISTRY.update({
    "heuristic": HeuristicBot,
    "rollout": RolloutBot,
    "pimc": PimcBot,
    "ismcts": IsmctsBot,
    "solver": SolverBot,
})

LEVELS.update({
    "easy": "heuristic", "lett": "heuristic",
    "medium": "rollout", "middels": "rollout",
    "hard": "pimc", "vanskelig": "pimc",
    "expert": "ismcts", "ekspert": "ismcts",
})
