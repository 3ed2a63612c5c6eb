"""What Ray costs against the local job pool, on one machine.

Usage: python benchmarks/ray_pool.py ADDRESS [--deals 40] [--repeat 3] [--tasks 2000]

ADDRESS is a running Ray head (``ray start --head --port 6379 --num-cpus 2``;
``auto`` starts a local instance for each tournament).  Prints, for each repeat:
the wall time of the same tournament (``mattis tournament``, a fresh process each
time, so starting Python and connecting count) with ``--workers 2`` and with
``--ray ADDRESS``, whether the per-deal results are identical, the bots'
thinking time summed over the run (so a slower wall time can be told apart into
slower games and scheduling), and then the
per-task overhead of ``run_jobs`` on a job that does nothing (``abs``): seconds
per task on Ray (one connection, ``--tasks`` tasks) and in the local pool of 2
processes.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mattis.lab.pool import run_jobs

BOTS = "rollout,heuristic,heuristic"


def tournament(out: Path, deals: int, extra: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(["mattis", "tournament", "--bots", BOTS, "--deals", str(deals), "--seed", "2026",
                    "--no-progress", "--out", str(out), *extra], check=True, capture_output=True)
    return time.perf_counter() - t


def think_s(out: Path) -> float:
    """The bots' thinking time summed over every decision of the run (the games' own CPU work)."""
    with open(out / "results.csv", newline="") as f:
        return sum(float(r["think_s"]) for r in csv.DictReader(f))


def games(out: Path) -> list[tuple[str, ...]]:
    with open(out / "results.csv", newline="") as f:
        return sorted((r["deal"], r["rotation"], r["seat"], r["bot"], r["lost"], r["place"], r["decisions"],
                       r["end_reason"]) for r in csv.DictReader(f))


def per_task(address: str | None, tasks: int) -> float:
    jobs = list(range(tasks))
    if address is None:
        t = time.perf_counter()
        assert sorted(run_jobs(abs, jobs, workers=2)) == jobs
        return (time.perf_counter() - t) / tasks
    import ray

    ray.init(address=None if address == "auto" else address, log_to_driver=False)
    try:
        assert sorted(run_jobs(abs, jobs[:50], ray=address)) == jobs[:50]  # start the workers
        t = time.perf_counter()
        assert sorted(run_jobs(abs, jobs, ray=address)) == jobs
        return (time.perf_counter() - t) / tasks
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("address")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=2000)
    a = ap.parse_args()
    local_s: list[float] = []
    ray_s: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.repeat):
            lo, ra = Path(tmp) / f"local{i}", Path(tmp) / f"ray{i}"
            local_s.append(tournament(lo, a.deals, ["--workers", "2"]))
            ray_s.append(tournament(ra, a.deals, ["--ray", a.address]))
            same = games(lo) == games(ra)
            print(f"repeat {i + 1}: {a.deals} deals ({len(games(lo)) // 3} games, {BOTS}): "
                  f"local 2 workers {local_s[-1]:.1f} s, Ray {ray_s[-1]:.1f} s, per-deal results identical: {same}; "
                  f"bots' think time summed: local {think_s(lo):.1f} s, Ray {think_s(ra):.1f} s",
                  flush=True)
    print(f"median of {a.repeat}: local {statistics.median(local_s):.1f} s (range {min(local_s):.1f}-"
          f"{max(local_s):.1f}), Ray {statistics.median(ray_s):.1f} s (range {min(ray_s):.1f}-{max(ray_s):.1f})")
    on_ray = per_task(a.address, a.tasks)
    local = per_task(None, a.tasks)
    print(f"per task ({a.tasks} tasks of abs): Ray {1e3 * on_ray:.2f} ms, local pool of 2 {1e3 * local:.3f} ms")


if __name__ == "__main__":
    main()
