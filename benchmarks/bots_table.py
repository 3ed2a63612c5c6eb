"""Markdown rows for docs/bots.md from the folders benchmarks/bots_ladder.sh wrote.
Usage: python benchmarks/bots_table.py OUTDIR"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from mattis.bots.arena import SeatResult, summarize


def main(root: Path) -> None:
    print("| rules | bot | deals | games | loss rate | 95% Wilson | mean place | think ms/decision |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for d in sorted(p for p in root.iterdir() if (p / "results.csv").exists()):
        meta = json.loads((d / "tournament.json").read_text())
        with open(d / "results.csv", newline="") as f:
            rows = [SeatResult(int(r["deal"]), int(r["rotation"]), int(r["seat"]), r["bot"], int(r["lost"]),
                               int(r["place"]), int(r["decisions"]), float(r["think_s"]), r["end_reason"])
                    for r in csv.DictReader(f)]
        s = next(x for x in summarize(rows) if x.bot == meta["bots"][0])
        deals = len({r.deal for r in rows})
        print(f"| {meta['rules']} | {s.bot} vs {meta['bots'][1]} x2 | {deals} | {s.games} | {100 * s.loss_rate:.1f}% "
              f"| {100 * s.low:.1f}-{100 * s.high:.1f}% | {s.mean_place:.2f} | {s.think_ms:.1f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "bench-out"))
