"""Phase 2 of a candidate small Mattis, enumerated exactly with the engine.

    nice -n 10 python benchmarks/small_mattis_phase2.py --ranks QKA --suits HS --cap 20

A phase 2 starts from a position (:mod:`mattis.core.notation`), so phase 2 of a
short deck can be walked on its own, under any rules: every
split of the short deck between two players' phase 2 hands (each player leading once;
trump is the last suit given), every legal move, to the end.  Printed: the phase 2
starts, the nodes and terminal nodes of all their game trees together, and the
information states (seat to act, its hand, the public history; a phase 2 position is
public but for the hands).  See docs/research.md, "A small Mattis for exact game theory".
"""

from __future__ import annotations

import argparse
import itertools
import time

from mattis.core import GameSetupError, State, parse_card, parse_suit, preset
from mattis.core.notation import parse_position, phase2_start_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", default="QKA")
    ap.add_argument("--suits", default="HS", help="the suits; the last is trump")
    ap.add_argument("--rules", default="mattis")
    ap.add_argument("--cap", type=int, default=20, help="phase2_cap (the repetition rule ends cycles first)")
    a = ap.parse_args()
    rules = preset(a.rules, phase2_cap=a.cap)
    deck = [parse_card(r + s) for s in a.suits for r in a.ranks]
    trump = parse_suit(a.suits[-1])
    counts = {"nodes": 0, "terminal": 0}
    infos: set[tuple[object, ...]] = set()

    def walk(s: State) -> None:
        counts["nodes"] += 1
        if s.is_over:
            counts["terminal"] += 1
            return
        p = s.to_act
        assert p is not None
        o = s.observation(p)
        infos.add((p, o.hand_mask, tuple((seat, m.kind, m.cards) for seat, m, _ in o.history)))
        for mv in s.legal_moves():
            c = s.clone()
            c.apply(mv)
            walk(c)

    t0 = time.process_time()
    starts = 0
    for k in range(len(deck) + 1):
        for mine in itertools.combinations(deck, k):
            other = [c for c in deck if c not in mine]
            for leader in (0, 1):
                try:
                    s = parse_position(rules, phase2_start_text([list(mine), other], trump, leader, 0))
                except GameSetupError:
                    continue  # (a leader with no cards, a hand-less game)
                starts += 1
                walk(s)
    print(f"{a.rules}, deck {a.ranks} x {a.suits} (trump {a.suits[-1]}), phase2_cap {a.cap}: {starts} phase 2 starts, "
          f"{counts['nodes']} nodes, {counts['terminal']} terminal, {len(infos)} information states, "
          f"{time.process_time() - t0:.1f} CPU s")


if __name__ == "__main__":
    main()
