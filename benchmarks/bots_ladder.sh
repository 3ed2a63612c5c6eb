#!/usr/bin/env bash
# The ladder table of docs/bots.md: each level against two copies of the level below
# it, 3 players, seats rotated over paired duplicate deals, every preset; then the
# expert against two easy bots.  One process (--workers 1), so rows can run one after
# another on a shared machine; a row is extended with the same command, a larger
# --deals and --resume.
# Usage: benchmarks/bots_ladder.sh OUTDIR [DEALS_CHEAP DEALS_HARD DEALS_EXPERT]
set -u
out=${1:-bench-out}; cheap=${2:-30}; hard=${3:-30}; expert=${4:-15}
mkdir -p "$out"
row() {  # row RULES BOTS DEALS
  local name="$1-${2//,/-}"
  mattis tournament --rules "$1" --players 3 --bots "$2" --deals "$3" --seed 2026 --workers 1 --no-progress \
    --out "$out/$name" $( [ -e "$out/$name/results.csv" ] && echo --resume ) >> "$out/$name.txt" 2>&1
}
for rules in mattis hund blodmattis skitgubbe; do
  row "$rules" medium,easy,easy "$cheap"
  row "$rules" hard,medium,medium "$hard"
  row "$rules" expert,hard,hard "$expert"
done
row mattis expert,easy,easy "$expert"
