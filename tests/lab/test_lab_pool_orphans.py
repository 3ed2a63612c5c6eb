"""Pool workers do not outlive a parent killed outright (``kill -9``): the job pool's and
the web server's pools start every worker with ``follow_parent``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tiers import wait_until

CHILD = textwrap.dedent("""
    import multiprocessing, os, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from mattis.lab.pool import follow_parent

    def pid(_: int) -> int:
        time.sleep(0.05)
        return os.getpid()

    if __name__ == "__main__":
        follow = sys.argv[1] == "follow"
        pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=follow_parent if follow else None, initargs=(0.05,) if follow else ())
        print(*sorted(set(pool.map(pid, range(8)))), flush=True)
        time.sleep(3600)  # killed by the test
""")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(CHILD)
    proc = subprocess.Popen([sys.executable, str(script), "follow"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    workers = [int(p) for p in proc.stdout.readline().split()]
    assert workers and all(alive(p) for p in workers)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    try:  # without follow_parent they would wait on their queue for good
        wait_until(lambda: not any(alive(p) for p in workers), "the workers of a killed parent end")
    finally:
        for p in workers:
            if alive(p):
                os.kill(p, signal.SIGKILL)


LATE = textwrap.dedent("""
    import multiprocessing, os, sys, time
    from pathlib import Path
    from mattis.lab.pool import follow_parent

    def late_worker(go: str) -> None:
        print(os.getpid(), flush=True)
        while not Path(go).exists():  # the parent is killed while this worker is starting
            time.sleep(0.01)
        follow_parent(0.05)
        time.sleep(3600)

    if __name__ == "__main__":
        multiprocessing.get_context("spawn").Process(target=late_worker, args=(sys.argv[1],)).start()
        time.sleep(3600)  # killed by the test
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_whose_parent_died_while_it_started_ends(tmp_path: Path) -> None:
    """Under load a pool worker can reach ``follow_parent`` only after its parent was
    killed (seen in CI: a server killed at a test's end, just after a bot move had started
    a new worker); it must end then too, not take the process it was handed to for its
    parent."""
    script, go = tmp_path / "parent.py", tmp_path / "go"
    script.write_text(LATE)
    proc = subprocess.Popen([sys.executable, str(script), str(go)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    worker = int(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    go.touch()
    try:
        wait_until(lambda: not alive(worker), "a worker started by a parent killed before it was ready ends")
    finally:
        if alive(worker):
            os.kill(worker, signal.SIGKILL)
