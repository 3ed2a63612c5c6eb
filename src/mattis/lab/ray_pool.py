"""The job pool on a Ray cluster: the same jobs as Ray tasks, results as they finish.

``run_on_ray(fn, jobs, address)`` is what ``run_jobs(..., ray=address)`` calls.  It
connects to the cluster at ``address`` (``auto``: the local instance that
``RAY_ADDRESS`` or the last ``ray start`` names, else a new one on this machine),
submits ``fn(job)`` as one task per job, never more than ``in_flight`` at once (a
run of a million jobs holds a few dozen task references, not a million), and
yields each result as it finishes.  Every job carries its own seeds, so the
results are those of the local pool, in another order.

Ray finds ``fn`` by its module and name: the workers import the same ``mattis``
package.  On a local cluster they run this Python; on a real cluster every node
has mattis installed, or the run is submitted with ``ray job submit`` and a
``runtime_env`` (docs/deploy.md, "A Ray cluster for research").  No
``runtime_env`` is passed from here: the cluster's owner decides it.

Ray is an optional dependency (the ``ray`` extra), imported only here and only
when asked for; its absence or an unreachable address is a ``PoolError`` with
one line to show.
"""

from __future__ import annotations

import importlib
import logging
import re
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from .pool import PoolError

J = TypeVar("J")
R = TypeVar("R")

AUTO = "auto"
"""Connect to the local Ray instance (``RAY_ADDRESS``, else the last ``ray start``), else start one."""

GCS_PORT = 6379
"""Ray's default head port (``ray start --head`` without ``--port``)."""

CLIENT_PORT = 10001
"""Ray Client's default port (``ray://HOST`` without a port)."""

CONNECT_TIMEOUT_S = 5.0
"""How long to wait for the head's port to answer before giving up (Ray itself waits minutes)."""

INSTALL = "pip install '.[ray]'"


def import_ray() -> Any:
    """The ``ray`` module, or a ``PoolError`` naming the install command."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise PoolError(f"--ray needs Ray, which is not installed; from the repository's folder install it "
                        f"with: {INSTALL}") from None


def head_endpoint(address: str) -> tuple[str, int]:
    """The host and port that ``address`` (``HOST[:PORT]`` or ``ray://HOST[:PORT]``) names.

    >>> head_endpoint("10.0.0.5:6380")
    ('10.0.0.5', 6380)
    >>> head_endpoint("ray://head.lan")
    ('head.lan', 10001)
    >>> head_endpoint("[::1]:6379")
    ('::1', 6379)
    """
    rest, default = address, GCS_PORT
    if rest.startswith("ray://"):
        rest, default = rest[len("ray://"):], CLIENT_PORT
    rest = rest.rstrip("/")
    if rest.startswith("["):  # [IPv6]:port
        host, _, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    elif rest.count(":") == 1:
        host, port_text = rest.split(":")
    else:
        host, port_text = rest, ""
    if not host:
        raise PoolError(f"--ray {address!r}: give the head's address as HOST:PORT, ray://HOST:PORT or auto")
    if not port_text:
        return host, default
    try:
        port = int(port_text)
    except ValueError:
        raise PoolError(f"--ray {address!r}: the port {port_text!r} is not a number") from None
    if not 0 < port < 65536:
        raise PoolError(f"--ray {address!r}: the port {port} is out of range")
    return host, port


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Fail at once, with the reason, when nothing answers on the head's port."""
    host, port = head_endpoint(address)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        why = e.strerror or type(e).__name__.replace("Error", " error").lower()
        if isinstance(e, TimeoutError | socket.timeout):
            why = f"no answer in {timeout:g} s"
        raise PoolError(f"cannot reach the Ray cluster at {address} ({why}); start a head there with "
                        f"`ray start --head --port {port}`, or use --ray auto for one on this machine") from None


def preflight(address: str) -> None:
    """Fail now, with one line, when Ray is missing or nothing answers at ``address``."""
    ray = import_ray()
    if address != AUTO and not ray.is_initialized():
        check_reachable(address)


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """Connect this process to the cluster for the ``with`` block, then disconnect.

    A connection made before (``ray.init`` in the caller's own code) is used as it
    is and left open.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address != AUTO:
        check_reachable(address)
    try:
        ray.init(address=None if address == AUTO else address, logging_level=logging.WARNING,
                 configure_logging=True, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError, ray.exceptions.RayError) as e:
        # RayError: e.g. AuthenticationError, RAY_AUTH_MODE=token without a token file
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        hint = (" (is a Ray head of the same version there? a head with token authentication needs "
                "RAY_AUTH_MODE=token here)") if isinstance(e, ConnectionError | TimeoutError) else ""
        raise PoolError(f"cannot connect to the Ray cluster at {address}: {first}{hint}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def in_flight_limit(ray: Any, workers: int | None) -> int:
    """At most ``workers`` tasks at once if given, else two per CPU of the cluster (so
    that a worker finishing a task finds the next one queued)."""
    if workers is not None:
        return max(1, workers)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(2, 2 * cpus)


def run_on_ray(fn: Callable[[J], R], jobs: Sequence[J], address: str,
               workers: int | None = None) -> Iterator[R]:
    """Yield ``fn(job)`` for every job, run as Ray tasks on the cluster at ``address``,
    in the order they finish.

    ``fn`` must be picklable (a top-level function of a module the workers can
    import, a builtin, a ``functools.partial`` of one) and every job too.
    ``workers`` caps the tasks running at once (default: two per CPU of the
    cluster).  Closing the generator (or Ctrl-C while it waits) submits nothing
    more and disconnects, which drops the tasks still running.
    """
    if not jobs:
        return
    with connect(address) as ray:
        task = ray.remote(num_cpus=1)(_call)
        fn_ref = ray.put(fn)  # once: any picklable callable, a builtin or a functools.partial too
        limit = in_flight_limit(ray, workers)
        todo = iter(jobs)
        pending: list[Any] = []

        def submit(n: int) -> None:
            for _ in range(n):
                try:
                    job = next(todo)
                except StopIteration:
                    return
                pending.append(task.remote(fn_ref, job))

        submit(limit)
        try:
            while pending:
                ready, rest = ray.wait(pending, num_returns=1)
                pending[:] = rest
                submit(len(ready))
                for ref in ready:
                    yield _result(ray, ref)
        finally:
            # Nothing more is submitted; the few tasks still running (one job each) are
            # dropped with their results when ``connect`` disconnects this driver.  They are
            # not ``ray.cancel``-ed: in Ray 2.60 a task that finishes while being cancelled
            # can abort the driver process ("Tried to complete task that was not pending").
            pending.clear()


def _call(fn: Callable[[J], R], job: J) -> R:
    """The Ray task: one job (``fn`` arrives by reference, as pickle sends a top-level function)."""
    return fn(job)


def _result(ray: Any, ref: Any) -> Any:
    """One task's result; a worker that cannot import the job's code (or its arguments'
    modules: Ray reports that as a system error) is a ``PoolError``."""
    try:
        return ray.get(ref)
    except Exception as e:
        missing = e.name if isinstance(e, ModuleNotFoundError) else None
        if isinstance(e, ModuleNotFoundError | ray.exceptions.RaySystemError):
            found = re.search(r"No module named '([^']+)'", str(e))
            missing = found.group(1) if found else missing
        if missing is None:
            raise
        raise PoolError(f"a Ray worker cannot import {missing}: install the same mattis (and its extras) on "
                        f"every node of the cluster, or submit the run with a runtime_env (docs/deploy.md)") from None
