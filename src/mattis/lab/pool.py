"""The one job pool: runs independent jobs (games, study cells) on local
processes and yields each result as it finishes.

Tournaments and studies hand it a picklable top-level function and a list of
jobs.  Every job must carry its own seeds, so that its result does not depend on
the process or the order it ran in; that is what makes a run resumable and the
same on one core, many cores or (later) a cluster.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def local_workers(requested: int | None, jobs: int) -> int:
    """The number of processes to use: ``requested`` or one per core, never more than the jobs."""
    return max(1, min(requested or os.cpu_count() or 1, jobs))


def run_jobs(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None = None,
             ray: str | None = None) -> Iterator[R]:
    """Yield ``fn(job)`` for every job, in the order they finish (in order with one worker).

    ``ray``: the address of a Ray cluster (``auto`` for a local one) to run the jobs on
    instead of local processes.
    """
    if ray is not None:
        raise NotImplementedError("running jobs on Ray is being built")
    n = local_workers(workers, len(jobs))
    if n <= 1 or len(jobs) <= 1:
        for j in jobs:
            yield fn(j)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = ctx.Pool(n)
    try:
        yield from pool.imap_unordered(fn, jobs, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
