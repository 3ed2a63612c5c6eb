#!/usr/bin/env bash
# The ladder table of docs/bots.md: each level against two copies of the level below
# it, 3 players, seats rotated over paired duplicate deals, every preset; then the
# expert against two easy bots.  One process (--workers 1), so rows can run one after
# another on a shared machine; a row is extended with the same command, a larger
# --deals and --resume (done here when the row's folder already holds results).
# The table: python benchmarks/bots_table.py OUTDIR
# Usage: benchmarks/bots_ladder.sh OUTDIR [SEED DEALS_CHEAP DEALS_HARD DEALS_EXPERT [ROWS]]
#   SEED: pick one not used while tuning the bots (docs/bots.md lists the seeds used).
#   ROWS: a pattern on the row names (RULES-A-B-B), e.g. 'medium|hard' or 'mattis-expert'.
set -u
out=${1:-bench-out}; seed=${2:-6151}; cheap=${3:-100}; hard=${4:-100}; expert=${5:-100}; only=${6:-.}
mkdir -p "$out"
mattis=(python -m mattis.cli.main)  # the tree on PYTHONPATH, else the installed package
row() {  # row RULES BOTS DEALS
  local name="$1-${2//,/-}"
  [[ "$name" =~ $only ]] || return 0
  "${mattis[@]}" tournament --rules "$1" --players 3 --bots "$2" --deals "$3" --seed "$seed" --workers 1 \
    --no-progress --out "$out/$name" $( [ -e "$out/$name/results.csv" ] && echo --resume ) >> "$out/$name.txt" 2>&1
}
for rules in mattis hund blodmattis skitgubbe; do
  row "$rules" medium,easy,easy "$cheap"
  row "$rules" hard,medium,medium "$hard"
done
for rules in mattis hund blodmattis skitgubbe; do
  row "$rules" expert,hard,hard "$expert"
done
row mattis expert,easy,easy "$expert"
