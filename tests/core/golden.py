"""Golden games: fingerprints of seeded games that must never change.

Every refactor of the engine must leave games unchanged.  ``python
tests/core/golden.py --write`` plays seeded games under every preset and player
count (a seeded random agent choosing from the legal moves sorted by their text,
so a harmless change in the order of the legal list changes nothing) plus bots,
replays every bundled and scenario record, and stores a fingerprint of each
(the moves in record syntax and the final hands, table, finished, losers,
Blodmattis and end reason).  ``test_core_golden.py`` recomputes them.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from mattis.core import PRESETS, GameRecord, State, load_record, preset

HERE = Path(__file__).parent
GOLDEN = HERE / "golden.json"
RECORD_DIRS = (HERE / "records", HERE.parents[1] / "src" / "mattis" / "examples")
GAMES_PER_COMBO = 150


def fingerprint(state: State) -> str:
    """A hash of what a game did and how it ended."""
    snap = state.snapshot()
    data: dict[str, Any] = {
        "moves": GameRecord.from_state(state).moves,
        "hands": snap["hands"],
        "table": snap["table"],
        # the places ahead of the losers: who went out, then who was ranked at a forced end
        "finished": snap["finished"] + snap["ranked"],
        "losers": snap["losers"],
        "blodmattis": snap["blodmattis"],
        "end_reason": snap["end_reason"],
        "phase": snap["phase"],
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def seeded_game(rules_name: str, players: int, seed: int) -> State:
    """A game played by a seeded random agent over the legal moves sorted by text."""
    rng = random.Random(f"golden/{rules_name}/{players}/{seed}")
    state = State.new(preset(rules_name), players, seed=seed, dealer=seed % players)
    while not state.is_over:
        legal = sorted(state.legal_moves(), key=str)
        state.apply(rng.choice(legal))
    return state


def combos() -> list[tuple[str, int]]:
    return [(name, n) for name, r in PRESETS.items() for n in r.allowed_players()]


def compute(games: int = GAMES_PER_COMBO) -> dict[str, str]:
    """Every fingerprint: the first ``games`` seeded games of each preset and player
    count, and every record."""
    out: dict[str, str] = {}
    for name, n in combos():
        for seed in range(games):
            out[f"random/{name}/{n}/{seed}"] = fingerprint(seeded_game(name, n, seed))
    for d in RECORD_DIRS:
        for path in sorted(d.glob("*.json")):
            out[f"record/{path.name}"] = fingerprint(load_record(str(path)).replay())
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        GOLDEN.write_text(json.dumps(compute(), indent=0, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN}")
    else:
        print(__doc__)
