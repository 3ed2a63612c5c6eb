"""Bots: agents that see only their seat's observation.

An agent gets an :class:`~mattis.core.Observation` (which includes its legal
moves) and returns one of those moves.  Use :func:`make_bot` to build one by
name or level.
"""

from .base import Agent, RandomBot, bot_names, make_bot

__all__ = ["Agent", "RandomBot", "bot_names", "make_bot"]
