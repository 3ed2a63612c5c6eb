"""The agent interface and the registry of bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..core import Move, Observation


@runtime_checkable
class Agent(Protocol):
    """A player: sees one seat's observation, returns one of its legal moves."""

    name: str

    def act(self, obs: Observation) -> Move:
        """Choose a move from ``obs.legal``."""
        ...


class RandomBot:
    """Uniformly random legal moves (seeded for reproducibility)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Move:
        return self.rng.choice(obs.legal)


BotFactory = Callable[[int | None], Agent]

#: bot name -> factory(seed).  Other modules register their bots here.
REGISTRY: dict[str, BotFactory] = {"random": RandomBot}

#: Friendly levels for people -> bot names (nb and en names both accepted).
LEVELS: dict[str, str] = {
    "easy": "random", "lett": "random",
    "medium": "random", "middels": "random",
    "hard": "random", "vanskelig": "random",
    "expert": "random", "ekspert": "random",
}

DEFAULT_LEVEL = "medium"


def _load_builtin() -> None:
    """Import the modules that register the stronger bots (if present)."""
    import importlib

    for mod in ("mattis.bots.ladder",):
        try:
            importlib.import_module(mod)
        except ImportError:
            pass


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(REGISTRY) + sorted(LEVELS)


def make_bot(name: str, seed: int | None = None) -> Agent:
    """A bot by name (``random``, ``heuristic``, ...) or level (``easy`` .. ``expert``,
    ``lett`` .. ``ekspert``).  Raises ``ValueError`` for an unknown name."""
    _load_builtin()
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return REGISTRY[key](seed)
