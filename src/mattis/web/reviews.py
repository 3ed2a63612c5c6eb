"""The reviews of finished games the web server works out (:class:`Analyses`): queued per
table, run in processes of their own, cached.  The endpoints that ask for them are
:mod:`mattis.web.analysis`'s.

Load: reviews are queued, never refused for being busy.  Each table has its own queue
and the tables take turns (one table's many requests never hold up another's first),
and up to :attr:`Analyses.parallel` reviews run at once, each in a process of its own
(started on the first request and kept), so a review's search never holds the
interpreter lock that the event loop and the other tables' frames need.  The default
is half the machine's cores, at least one: the server's CPU budget for reviews.
While a review waits or runs the endpoint answers 202 with its progress
(``{"status": "queued", "position": N}``, 1 = next; then ``{"status": "running",
"done": D, "total": T}``, the decisions judged so far), and the page asks again.
Results are cached per (table, game, seat), at most :data:`CACHE_SIZE` of them, so
asking again, or for an earlier game of the sitting after a rematch, costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue
from collections import OrderedDict, deque
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.evaluate import Budget
from ..core import GameRecord, RecordError
from ..lab.pool import follow_parent
from ..lab.review import (
    Review,
    ReviewError,
    decision_numbers,
    deeper,
    review,
)

__all__ = ["BUDGET", "CACHE_SIZE", "Analyses", "Full", "Job", "NotADecision"]

log = logging.getLogger("mattis.web")

BUDGET: Final = Budget(samples=64)
"""The server's budget per decision (a few seconds for a whole game)."""
CACHE_SIZE: Final = 256
"""Reviews kept (the oldest is dropped first)."""
MAX_WAITING: Final = 200
"""Reviews waiting at once in all (past this a new one is refused with 503 and ``Retry-After``)."""
PROGRESS_EVERY: Final = 0.25
"""Seconds between readings of the processes' progress reports."""

_progress: Any = None
"""In an analysis process: the queue its reviews report their progress on."""


def _init_process(reports: Any) -> None:
    global _progress
    _progress = reports
    follow_parent()


def _review_in_process(text: str, seat: int, budget: Budget, seed: str, names: list[str],
                       tag: int = -1, decision: int | None = None) -> Review:
    """One review (or, with ``decision``, that one decision), in an analysis process;
    ``(tag, done, total)`` goes on the progress queue as :func:`mattis.lab.review.review`
    reports it (``done == total`` once every decision is judged)."""
    reports = _progress

    def report(done: int, total: int) -> None:
        if reports is not None:
            reports.put((tag, done, total))

    return review(GameRecord.loads(text), seat, budget, seed=seed, names=names, progress=report, decision=decision)


Key = tuple[str, int, int] | tuple[str, int, int, int]
"""(table, game, seat) for a game's review; (table, game, seat, move) for a look deeper
at one decision."""


def _decision(key: Key) -> int | None:
    """The move a job looks deeper at (``None`` for a whole review)."""
    return key[3] if len(key) == 4 else None


def _key_text(key: Key) -> str:
    d = _decision(key)
    return f"table {key[0]} game {key[1]} seat {key[2]}" + ("" if d is None else f" move {d} (deeper)")


@dataclass(eq=False)
class Job:
    """One review asked for: waiting in its table's queue, then running."""

    key: Key
    text: str = field(repr=False)
    names: list[str]
    tag: int
    total: int
    done: int = 0
    running: bool = False


def default_parallel() -> int:
    """The server's CPU budget for reviews: half its cores, at least one."""
    return max(1, (os.cpu_count() or 1) // 2)


class Analyses:
    """The reviews of one server: the per-table queues, the ones running, the cache, the processes."""

    def __init__(self, budget: Budget = BUDGET, size: int = CACHE_SIZE, parallel: int | None = None,
                 max_waiting: int = MAX_WAITING) -> None:
        self.budget = budget
        self.size = size
        self.parallel = parallel or default_parallel()
        self.max_waiting = max_waiting
        self.cache: OrderedDict[Key, Review] = OrderedDict()
        self.queues: dict[str, deque[Job]] = {}
        """Waiting jobs, per table."""
        self.started: dict[str, int] = {}
        """Per table, the tick its last review started at (the tables take turns)."""
        self.tick = 0
        self.jobs: dict[Key, Job] = {}
        """Every job waiting or running."""
        self.failed: dict[Key, str] = {}
        self.runs = 0
        """Reviews computed (not served from the cache): for tests and logs."""
        self.most_running = 0
        """The most reviews that ran at once (for tests)."""
        self.pool: ProcessPoolExecutor | None = None
        self.progress: Any = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.reader: asyncio.Task[None] | None = None
        self.tags = 0

    def close(self) -> None:
        """Stop the analysis processes, if they were started."""
        for task in list(self.tasks):
            task.cancel()
        if self.reader is not None:
            self.reader.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def cached(self, key: Key) -> Review | None:
        rv = self.cache.get(key)
        if rv is not None:
            self.cache.move_to_end(key)
        return rv

    def with_deeper(self, key: Key, rv: Review) -> Review:
        """``rv`` (the review of ``key``) with every decision looked at deeper so far in
        place of its first look."""
        for d in rv.decisions:
            one = self.cache.get((*key[:3], d.number))
            if one is not None and one.decisions:
                rv = rv.with_decision(one.decisions[0])
        return rv

    def _keep(self, key: Key, rv: Review) -> None:
        self.runs += 1
        self.cache[key] = rv
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)

    # ------------------------------------------------------------ the queue
    def ask(self, key: Key, text: str, names: list[str]) -> Review | Job:
        """The review if it is known, else its job (queued now if it was not yet).  Raises
        :class:`ReviewError` for a record that does not replay, :class:`NotADecision` for a
        look deeper at a move that was not one of the seat's decisions, :class:`Full` when
        ``max_waiting`` jobs already wait."""
        rv = self.cached(key)
        if rv is not None:
            return rv
        job = self.jobs.get(key)
        if job is not None:
            return job
        failed = self.failed.pop(key, None)
        if failed is not None:
            raise ReviewError(failed)
        if sum(len(q) for q in self.queues.values()) >= self.max_waiting:
            raise Full
        try:
            numbers = decision_numbers(GameRecord.loads(text), key[2])
        except RecordError as e:
            raise ReviewError(str(e)) from None
        move = _decision(key)
        if move is not None and move not in numbers:
            raise NotADecision
        total = 1 if move is not None else len(numbers)
        self.tags += 1
        job = Job(key, text, names, self.tags, total)
        self.jobs[key] = job
        self.queues.setdefault(key[0], deque()).append(job)
        self._dispatch()
        return job

    def _turns(self) -> tuple[dict[str, int], dict[str, int]]:
        running: dict[str, int] = {}
        for j in self.jobs.values():
            if j.running:
                running[j.key[0]] = running.get(j.key[0], 0) + 1
        return running, dict(self.started)

    @staticmethod
    def _pick(queues: dict[str, deque[Job]], running: dict[str, int], started: dict[str, int]) -> str:
        """The table whose job starts next: the one with the fewest reviews running, then
        the one whose last review started longest ago (a new table first)."""
        return min((tid for tid, q in queues.items() if q), key=lambda tid: (running.get(tid, 0), started.get(tid, -1)))

    def order(self) -> list[Job]:
        """The waiting jobs in the order they will start (if none finished meanwhile): the tables take turns."""
        queues = {tid: deque(q) for tid, q in self.queues.items()}
        running, started = self._turns()
        out: list[Job] = []
        tick = self.tick
        while any(queues.values()):
            tid = self._pick(queues, running, started)
            out.append(queues[tid].popleft())
            running[tid] = running.get(tid, 0) + 1
            tick += 1
            started[tid] = tick
        return out

    def position(self, job: Job) -> int:
        """1 for the job that starts next, 2 after it, ..."""
        return self.order().index(job) + 1

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.running)

    def _next(self) -> Job | None:
        if not any(self.queues.values()):
            return None
        running, started = self._turns()
        tid = self._pick(self.queues, running, started)
        job = self.queues[tid].popleft()
        if not self.queues[tid]:
            del self.queues[tid]
        self.tick += 1
        self.started[tid] = self.tick
        return job

    def _dispatch(self) -> None:
        while self.running() < self.parallel:
            job = self._next()
            if job is None:
                return
            job.running = True
            self.most_running = max(self.most_running, self.running())
            task = asyncio.get_running_loop().create_task(self._run(job))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def _start_pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            ctx = multiprocessing.get_context("spawn")
            self.progress = ctx.Queue()
            self.pool = ProcessPoolExecutor(self.parallel, mp_context=ctx, initializer=_init_process,
                                            initargs=(self.progress,))
        if self.reader is None or self.reader.done():
            self.reader = asyncio.get_running_loop().create_task(self._read_progress())
        return self.pool

    async def _read_progress(self) -> None:
        """Carry the processes' progress reports to their jobs while any job runs."""
        while any(j.running for j in self.jobs.values()):
            try:
                while True:
                    tag, done, _total = self.progress.get_nowait()
                    job = next((j for j in self.jobs.values() if j.tag == tag), None)
                    if job is not None:
                        job.done = max(job.done, done)
            except queue.Empty:
                pass
            except (OSError, ValueError):  # the queue was closed with the pool
                return
            except Exception as e:  # never silently: the reviews go on, only their progress is not shown
                log.error("reading the reviews' progress failed: %s: %s", type(e).__name__, e)
                return
            await asyncio.sleep(PROGRESS_EVERY)

    async def _run(self, job: Job) -> None:
        """Run one job in the analysis processes; a failure is logged and kept for the asker."""
        try:
            pool = self._start_pool()
            loop = asyncio.get_running_loop()
            move = _decision(job.key)
            budget = self.budget if move is None else deeper(self.budget)
            args = (job.text, job.key[2], budget, f"{job.key[0]}/{job.key[1]}", job.names, job.tag, move)
            try:
                rv = await loop.run_in_executor(pool, _review_in_process, *args)
            except BrokenExecutor:  # a process died (killed, out of memory): new processes, once
                log.error("an analysis process stopped; starting new ones")
                self.pool = None
                pool = self._start_pool()
                rv = await loop.run_in_executor(pool, _review_in_process, *args)
            self._keep(job.key, rv)
        except asyncio.CancelledError:
            raise
        except (RecordError, ReviewError) as e:
            self.failed[job.key] = str(e)
        except Exception as e:  # never silently: logged, and the asker is told it failed
            log.error("the review of %s failed: %s: %s", _key_text(job.key), type(e).__name__, e)
            self.failed[job.key] = f"{type(e).__name__}: {e}"
        finally:
            job.running = False
            self.jobs.pop(job.key, None)
            with contextlib.suppress(RuntimeError):  # the loop is closing
                self._dispatch()


class Full(Exception):
    """Too many reviews wait already."""


class NotADecision(Exception):
    """A look deeper at a move that was not one of the seat's decisions."""

