"""The agent interface and the registry of bots by name and level.

The play loop asks an :class:`Agent` for moves; the bots (:mod:`mattis.bots`) are
classes that fit it without importing it (a protocol is structural), so the bots
layer stays below this one.  :func:`make_bot` builds one by name or level.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..bots.base import RandomBot
from ..bots.ladder import BOTS, LEVEL_BOTS
from ..core import Move, Observation


@runtime_checkable
class Agent(Protocol):
    """A player: sees one seat's observation, returns one of its legal moves."""

    name: str

    def act(self, obs: Observation) -> Move:
        """Choose a move from ``obs.legal``."""
        ...


BotFactory = Callable[[int | None], Agent]

REGISTRY: dict[str, BotFactory] = {"random": RandomBot, **BOTS}
"""Bot name -> factory(seed)."""

LEVELS: dict[str, str] = dict(LEVEL_BOTS)
"""Friendly levels for people -> bot names (nb and en names both accepted)."""

DEFAULT_LEVEL = "medium"


def bot_names() -> list[str]:
    return sorted(REGISTRY) + sorted(LEVELS)


def make_bot(name: str, seed: int | None = None) -> Agent:
    """A bot by name (``random``, ``heuristic``, ...) or level (``easy`` .. ``expert``,
    ``lett`` .. ``ekspert``).  Raises ``ValueError`` for an unknown name."""
    key = name.strip().lower()
    key = LEVELS.get(key, key)
    if key not in REGISTRY:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return REGISTRY[key](seed)
