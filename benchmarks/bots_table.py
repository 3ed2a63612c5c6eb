"""Markdown rows for docs/bots.md from the folders benchmarks/bots_ladder.sh (or any
``mattis tournament --out``) wrote: per run, the first bot against the second (as
``--bots A,B,B``), its loss rate with the 95% Wilson interval, the paired difference
per deal with its 95% interval, each bot's think time per decision (wall clock, as
the tournament records it) and the command that reproduces the row; the difference
is in bold where its interval excludes zero.  A run stopped mid-deal counts its
complete deals.  Usage: python benchmarks/bots_table.py OUTDIR"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from mattis.lab.arena import SeatResult, paired, summarize

RULES = ("mattis", "hund", "blodmattis", "skitgubbe")
LEVELS = ("medium", "hard", "expert")


def read_rows(path: Path) -> list[SeatResult]:
    with open(path, newline="") as f:
        return [SeatResult(int(r["deal"]), int(r["rotation"]), int(r["seat"]), r["bot"], int(r["lost"]),
                           int(r["place"]), int(r["decisions"]), float(r["think_s"]), r["end_reason"])
                for r in csv.DictReader(f)]


def main(root: Path) -> None:
    print("| rules | A vs B, B | deals | A lost (95% Wilson) | paired A - B, points (95%) | think ms A / B | command |")
    print("|---|---|---:|---|---|---|---|")
    runs = [(json.loads((d / "tournament.json").read_text()), d)
            for d in root.iterdir() if (d / "results.csv").exists()]
    runs.sort(key=lambda m: (RULES.index(m[0]["rules"]) if m[0]["rules"] in RULES else 9,
                             LEVELS.index(m[0]["bots"][0]) if m[0]["bots"][0] in LEVELS else 9, str(m[1])))
    for meta, d in runs:
        rows = read_rows(d / "results.csv")
        games = {(r.deal, r.rotation) for r in rows}
        complete = {deal for deal, _ in games if all((deal, k) in games for k in range(meta["players"]))}
        rows = [r for r in rows if r.deal in complete]  # a run stopped mid-deal: its complete deals
        a, b = meta["bots"][0], meta["bots"][1]
        s = {x.bot: x for x in summarize(rows)}
        p = paired(rows, a, b, meta["players"])
        mark = "**" if p.low > 0 or p.high < 0 else ""  # bold: the interval excludes zero
        cmd = (f"`mattis tournament --rules {meta['rules']} --players {meta['players']} --bots {','.join(meta['bots'])}"
               f" --deals {p.deals} --seed {meta['seed']}`")
        print(f"| {meta['rules']} | {a} vs {b} x2 | {p.deals} | {100 * s[a].loss_rate:.1f}% "
              f"({100 * s[a].low:.1f}-{100 * s[a].high:.1f}%) | {mark}{100 * p.diff:+.1f}{mark} ({100 * p.low:+.1f} to "
              f"{100 * p.high:+.1f}) | {s[a].think_ms:.1f} / {s[b].think_ms:.1f} | {cmd} |")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "bench-out"))
