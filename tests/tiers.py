"""Sizes that depend on the test tier (see conftest.py): ``scale(fast, slow)``."""

from __future__ import annotations

import os

SLOW = os.environ.get("MATTIS_SLOW") == "1"
"""Whether this run includes the slow tier (``pytest --slow``)."""


def scale(fast: int, slow: int) -> int:
    """``slow`` in the slow tier, else ``fast``."""
    return slow if SLOW else fast
