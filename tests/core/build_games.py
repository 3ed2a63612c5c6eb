"""Seeded games hashed, for comparing the compiled core with the pure one.

``python tests/core/build_games.py GAMES`` prints one JSON object: the core that ran
(``build_kind()``) and, per preset, a hash of ``GAMES`` seeded games over every player
count: each move with the cards it showed, the legal moves and each seat's observation
along the way, a determinizer sample now and then, and how each game ended.
``test_core_compiled.py`` runs it under ``MATTIS_PURE=1`` and without.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys

from mattis.core import PRESETS, State, build_kind, preset
from mattis.core.determinize import sample_state


def preset_hash(name: str, games: int) -> str:
    rules = preset(name)
    counts = list(rules.allowed_players())
    h = hashlib.sha256()
    for i in range(games):
        players = counts[i % len(counts)]
        rng = random.Random(f"build/{name}/{i}")
        s = State.new(rules, players, seed=i, dealer=i % players)
        step = 0
        while not s.is_over:
            legal = s.legal_moves()
            h.update(" ".join(map(str, legal)).encode())
            if i % 10 == 0 and step % 15 == 0:
                seat = s.to_act
                assert seat is not None
                obs = s.observation(seat)
                h.update(repr((obs.hand, obs.hand_counts, obs.table1, obs.table2, obs.known, obs.trick_need,
                               tuple(sorted(obs.still_in)), obs.waiting, obs.trump, obs.stock_count,
                               obs.history[-3:])).encode())
                h.update(sample_state(obs, random.Random(step)).position_text().encode())
                if s.phase == 2:
                    h.update(s.position_text().encode())
            if i % 50 == 0 and step == 40:
                s = pickle.loads(pickle.dumps(s))  # a pickled game plays on the same
            s.apply(legal[int(rng.random() * len(legal))])
            step += 1
        out = s.outcome
        assert out is not None
        h.update(repr((s.history()[-5:], out, s.snapshot()["hands"])).encode())
    return h.hexdigest()[:16]


def main(games: int) -> dict[str, str]:
    return {"build": build_kind(), **{name: preset_hash(name, games) for name in PRESETS}}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)))
