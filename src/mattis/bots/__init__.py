"""Bots: agents that see only their seat's observation.

A bot gets an :class:`~mattis.core.Observation` (which includes its legal moves)
and returns one of those moves.  The interface they fit (``Agent``) and
``make_bot``, which builds one by name or level, are in :mod:`mattis.play`.
"""

from .base import RandomBot

__all__ = ["RandomBot"]
