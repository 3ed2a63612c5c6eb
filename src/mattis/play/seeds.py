"""The one seed scheme: every random choice of a session is derived from one seed.

A session seeded with ``seed`` gives the deal of game ``g`` ``derive_seed(seed,
"deal", g)`` and the bot in seat ``s`` ``derive_seed(seed, "bot", g, s)``; the
same seed gives the same sitting, game after game.  Without a seed
(``None``) everything is shuffled from :mod:`secrets`.

>>> derive_seed(7, "deal", 0) == derive_seed(7, "deal", 0) != derive_seed(7, "deal", 1)
True
>>> derive_seed(None, "deal", 0) is None
True
"""

from __future__ import annotations

import hashlib

Seed = int | str | None
"""A user's seed: a number or a word; ``None`` = fresh randomness."""


def derive_seed(seed: Seed, *labels: object) -> int | None:
    """A reproducible 63-bit sub-seed of ``seed`` for what ``labels`` name
    (``None`` stays ``None``)."""
    if seed is None:
        return None
    text = "/".join(str(p) for p in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
