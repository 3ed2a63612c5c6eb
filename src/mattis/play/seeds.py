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
import json

from ..core import Observation

Seed = int | str | None
"""A user's seed: a number or a word; ``None`` = fresh randomness."""


def derive_seed(seed: Seed, *labels: object) -> int | None:
    """A reproducible 63-bit sub-seed of ``seed`` for what ``labels`` name
    (``None`` stays ``None``)."""
    if seed is None:
        return None
    text = "/".join(str(p) for p in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def position_seed(seed: Seed, label: str, obs: Observation) -> int:
    """A reproducible 63-bit seed for ``label`` (``"hint"``) at the position ``obs``
    shows, also in an unseeded session (``seed=None``): the same seat seeing the same
    position gets the same seed, so what is worked out from it (a hint) is the same
    on every ask, after a take-back and after a resume."""
    view = json.dumps(obs.to_json(), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(view.encode()).hexdigest()
    derived = derive_seed("position" if seed is None else seed, label, digest)
    assert derived is not None
    return derived
