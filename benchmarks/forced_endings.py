"""How often a game ends by a forced rule (repetition, the phase 2 move cap, stuck)
instead of by play, per preset and player count, with 95% Wilson intervals.

The games are those of the ``cycles`` study (:mod:`mattis.lab.studies`: the same
cells, seeds and jobs, one bot at every seat, game ``g`` = deal ``g``), played through
the one job pool (:func:`mattis.lab.pool.run_jobs`), so a cell here and
``mattis lab cycles`` with the same rules, players, bots and seed play the same games.
Each finished game is appended to ``--out`` (JSON lines), and a rerun with the same
file plays only the games still missing.

    python benchmarks/forced_endings.py --bots medium --games 100 --seed 2026
    python benchmarks/forced_endings.py --bots easy,medium --games 100 --seed 2026 --out easy_medium.jsonl
    python benchmarks/forced_endings.py --bots expert --games 4 --players 3 --rules blodmattis
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from mattis.core import PRESETS, Termination, parse_overrides, preset
from mattis.lab.pool import run_jobs
from mattis.lab.studies import Cell, Row, make_cells, make_jobs, play_job, rate

FORCED = (Termination.REPETITION.value, Termination.CAP.value, Termination.STUCK.value)


def cells_for(rules: Sequence[str], players: Sequence[int], bots: str, overrides: dict[str, str]) -> list[Cell]:
    """The cycles study's cells, each preset at the player counts it allows."""
    out: list[Cell] = []
    for name in rules:
        allowed = preset(name, **overrides).allowed_players()
        counts = [n for n in players if n in allowed]
        if counts:
            out += make_cells("cycles", name, ",".join(map(str, counts)), bots, overrides)
    return out


def table(cells: Sequence[Cell], rows: Sequence[Row]) -> list[str]:
    """The Markdown table: forced endings in all, and by rule."""
    lines = ["| rules | players | bots | games | forced ending | repetition | cap | stuck |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for c in cells:
        rs = [r for r in rows if r["cell"] == c.key]
        ends = [r["end"] for r in rs]
        forced = rate(sum(e in FORCED for e in ends), len(rs))
        parts = [str(rate(ends.count(e), len(rs))) for e in FORCED]
        lines.append(f"| {c.rules.name} | {c.players} | {c.bots[0]} | {len(rs)} | {forced} | "
                     + " | ".join(parts) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default=",".join(PRESETS))
    p.add_argument("--players", default="3,4,5,6")
    p.add_argument("--bots", default="medium", help="the bot at every seat (several, comma-separated: each)")
    p.add_argument("--games", type=int, default=100, help="games per cell")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", default=None, help="JSON lines of finished games (read first: only missing games run)")
    a = p.parse_args(argv)
    overrides = parse_overrides(a.overrides)
    rules = [w.strip() for w in a.rules.split(",") if w.strip()]
    players = [int(w) for w in a.players.split(",") if w.strip()]
    levels = [w.strip() for w in a.bots.split(",") if w.strip()]
    cells = [c for bots in levels for c in cells_for(rules, players, bots, overrides)]
    done: dict[str, Row] = {}
    if a.out and os.path.exists(a.out):
        with open(a.out, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                done[r["key"]] = r
    jobs = [j for j in make_jobs("cycles", cells, a.games, a.seed) if j.key not in done]
    sink = open(a.out, "a", encoding="utf-8") if a.out else None
    try:
        for r in run_jobs(play_job, jobs, a.workers):
            done[r["key"]] = r
            if sink:
                sink.write(json.dumps(r, sort_keys=True) + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    keys = {f"{c.key}#{g}" for c in cells for g in range(a.games)}
    print("\n".join(table(cells, [r for k, r in sorted(done.items()) if k in keys])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
