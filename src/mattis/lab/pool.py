"""The one job pool: runs independent jobs (games, study cells) on local
processes and yields each result as it finishes.

Tournaments and studies hand it a picklable top-level function and a list of
jobs.  Every job must carry its own seeds, so that its result does not depend on
the process or the order it ran in; that is what makes a run resumable and the
same on one core, many cores or a Ray cluster (``ray=ADDRESS``, in
``mattis.lab.ray_pool``).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


class PoolError(RuntimeError):
    """The jobs cannot run where they were asked to (Ray not installed, the cluster
    unreachable); the message is one line for the user (the CLI exits 2 with it)."""


def follow_parent(poll: float = 1.0) -> None:
    """Make this worker process end when the process that started it is gone.

    A pool's initializer in every worker (the job pool, the web server's bot and
    analysis pools): a worker blocked on its pool's queue would otherwise live on for
    good when its parent is killed outright (``kill -9``), since it holds both ends of
    the queue's pipe itself and never sees the end of it.  A daemon thread looks at the
    parent's pid every ``poll`` seconds and ends the process once it has changed (and a
    worker whose parent was gone before it got here ends at once).
    """
    started_by = multiprocessing.parent_process()
    # the pid of the process that started this one, as multiprocessing recorded it: under
    # load a worker may start up only after its parent was killed, and os.getppid() would
    # then already name the process it was handed to, and never change again
    parent = started_by.pid if started_by is not None and started_by.pid is not None else os.getppid()
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def local_workers(requested: int | None, jobs: int) -> int:
    """The number of processes to use: ``requested`` or one per core, never more than the jobs."""
    return max(1, min(requested or os.cpu_count() or 1, jobs))


def run_jobs(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None = None,
             ray: str | None = None) -> Iterator[R]:
    """Yield ``fn(job)`` for every job, in the order they finish (in order with one worker).

    ``fn`` is a picklable top-level function.  ``ray``: the address of a Ray cluster
    (``HOST:PORT``, ``ray://HOST:PORT``, or ``auto`` for a local one) to run the jobs
    on as Ray tasks instead of local processes; ``workers`` then caps the tasks
    running at once (default: two per CPU of the cluster).  Raises ``PoolError``
    at once (before the first result is asked for) when Ray is not installed or
    nothing answers at the address.
    """
    if ray is not None:
        from .ray_pool import preflight, run_on_ray

        preflight(ray)
        return run_on_ray(fn, jobs, ray, workers)
    return _run_local(fn, jobs, workers)


def _run_local(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None) -> Iterator[R]:
    n = local_workers(workers, len(jobs))
    if n <= 1 or len(jobs) <= 1:
        for j in jobs:
            yield fn(j)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    pool = ctx.Pool(n, initializer=follow_parent)
    try:
        yield from pool.imap_unordered(fn, jobs, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
