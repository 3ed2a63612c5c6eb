"""Games never change by accident: seeded games and every record replay to the
fingerprints stored in golden.json (written before the engine was refactored;
see golden.py)."""

from __future__ import annotations

import json

from golden import GOLDEN, compute


def test_every_golden_game_is_unchanged() -> None:
    want = json.loads(GOLDEN.read_text())
    got = compute()
    assert got.keys() == want.keys()
    changed = sorted(k for k in want if got[k] != want[k])
    assert not changed, f"{len(changed)} games changed, e.g. {changed[:5]}"
