"""Games never change by accident: seeded games and every record replay to the
fingerprints stored in golden.json (written before the engine was refactored;
see golden.py).

The fast tier replays every record and the first 15 of the 150 seeded games of each
preset and player count; the slow tier (``--slow``, which CI runs) all of them."""

from __future__ import annotations

import json

from golden import GAMES_PER_COMBO, GOLDEN, compute

from tiers import scale


def test_every_golden_game_is_unchanged() -> None:
    want = json.loads(GOLDEN.read_text())
    games = scale(15, GAMES_PER_COMBO)
    got = compute(games)
    wanted = {k for k in want if not k.startswith("random/") or int(k.rsplit("/", 1)[1]) < games}
    assert got.keys() == wanted
    changed = sorted(k for k in got if got[k] != want[k])
    assert not changed, f"{len(changed)} games changed, e.g. {changed[:5]}"
