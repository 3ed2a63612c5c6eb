#!/usr/bin/env bash
# The ladder table of docs/bots.md: each bot against two heuristic bots, 3 players,
# seats rotated over duplicate deals.  Usage: benchmarks/bots_ladder.sh OUTDIR DEALS_CHEAP DEALS_SEARCH
set -u
out=${1:-bench-out}; cheap=${2:-30}; search=${3:-10}
mkdir -p "$out"
for rules in mattis hund blodmattis skitgubbe; do
  for bot in random rollout solver pimc ismcts; do
    deals=$cheap; case $bot in pimc|ismcts) deals=$search;; esac
    mattis tournament --rules "$rules" --players 3 --bots "$bot,heuristic,heuristic" --deals "$deals" \
      --seed 2026 --no-progress --out "$out/$rules-$bot" > "$out/$rules-$bot.txt" 2>&1
  done
done
mattis tournament --rules mattis --players 3 --bots heuristic,random,random --deals "$cheap" --seed 2026 \
  --no-progress --out "$out/mattis-heuristic-vs-random" > "$out/mattis-heuristic-vs-random.txt" 2>&1
