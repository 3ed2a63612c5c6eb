"""The baseline table of the shipped policy (``examples/checkpoints/rl_learn_policy.npz``,
the learning recipe's run of docs/research.md saved by ``examples/rl_learn.py --save``):
its loss rate with a 95% Wilson interval in one seat of Mattis for three against two
``random``, two ``easy``, two ``medium`` and two ``hard`` bots, on fresh deals seeded
apart from training (the seat and the dealer rotating; the recipe's evaluation seed, so
the ``easy`` row is the recipe's own evaluation of the same policy).

    python examples/rl_checkpoint_table.py --json docs/img/rl_checkpoint_table.json
        # the defaults are the table docs/research.md shows
    python examples/rl_checkpoint_table.py --games 10 --opponents random,easy

Loading the policy elsewhere: ``load_checkpoint(path)`` in examples/rl_learn.py gives
the scorer and its features; ``learner_player(scorer, feats)`` plays it in a
``MattisEnv`` (it reads the observation tensor and the action mask only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rl_learn import learner_player, load_checkpoint, losses, table_lines  # noqa: E402

from mattis.lab.arena import wilson  # noqa: E402

CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "rl_learn_policy.npz"


def row(task: tuple[Path, str, int, int]) -> dict[str, Any]:
    """One row: the checkpoint's losses in ``games`` deals against two ``opponent`` bots
    (the same deals whatever process plays them)."""
    path, opponent, games, seed = task
    t = time.process_time()
    scorer, feats, settings = load_checkpoint(path)
    k = losses(learner_player(scorer, feats), opponent, games, settings["rules"], settings["players"], seed)
    lo, hi = wilson(k, games)
    return {"player": "learner", "opponents": opponent, "games": games, "lost": k, "loss": k / games,
            "lo": lo, "hi": hi, "cpu_s": round(time.process_time() - t)}


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--checkpoint", type=Path, default=CHECKPOINT)
    ap.add_argument("--opponents", default="random,easy,medium,hard", help="bot names, one row each")
    ap.add_argument("--games", type=int, default=400, help="games a row")
    ap.add_argument("--eval-seed", type=int, default=2_000_000)
    ap.add_argument("--workers", type=int, default=1, help="processes, a row each (the figures do not change)")
    ap.add_argument("--json", type=Path, help="write the table, the counts and the checkpoint's hash here")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    a = parser().parse_args(argv)
    if not a.checkpoint.is_file():
        print(f"error: no such checkpoint: {a.checkpoint}", file=sys.stderr)
        return 2
    scorer, feats, settings = load_checkpoint(a.checkpoint)
    digest = hashlib.sha256(a.checkpoint.read_bytes()).hexdigest()
    print(f"{a.checkpoint.name} (sha256 {digest[:16]}): {settings['rules']}, {settings['players']} players, "
          f"teacher {settings['teacher']}, features {settings['facts']}, trained in {settings['train_cpu_s']} CPU s")
    tasks = [(a.checkpoint, opp, a.games, a.eval_seed) for opp in a.opponents.split(",") if opp]
    header = table_lines([])
    print("\n".join(header), flush=True)
    rows: list[dict[str, Any]] = []
    with multiprocessing.get_context("spawn").Pool(max(1, min(a.workers, len(tasks)))) as pool:
        for r in (pool.imap_unordered(row, tasks) if a.workers > 1 else map(row, tasks)):
            rows.append(r)
            print(table_lines([r])[-1], flush=True)
    order = [t[1] for t in tasks]
    rows.sort(key=lambda r: order.index(r["opponents"]))
    print("in order:")
    for line in table_lines(rows):
        print(line)
    cpu = ", ".join(f"{r['opponents']} {r['cpu_s']} s" for r in rows)
    print(f"(deals seeded {a.eval_seed}, the seat and the dealer rotating; CPU {cpu})")
    if a.json:
        a.json.write_text(json.dumps({"checkpoint": a.checkpoint.name, "sha256": digest, "settings": settings,
                                      "eval_seed": a.eval_seed, "table": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
