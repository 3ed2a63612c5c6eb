"""A throwaway PostgreSQL (:func:`temporary_server`), started from the installed binaries
(for the tests and ``benchmarks/web_load.py``)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

from .pgstore import _psycopg
from .store import StoreError


def bindir() -> str | None:
    """The folder of PostgreSQL's server binaries (``initdb``, ``postgres``), or ``None``."""
    found: list[str] = []
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found.append(subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                                    timeout=10).stdout.strip())
    found += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for d in found:
        if d and os.path.exists(os.path.join(d, "initdb")) and os.path.exists(os.path.join(d, "postgres")):
            return d
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def temporary_server(durable: bool = False) -> Iterator[str]:
    """Start PostgreSQL in a temporary folder on a free port of 127.0.0.1; yields its URL.
    As root it runs as the ``postgres`` user (PostgreSQL refuses root).  ``durable``: keep
    ``fsync`` on (a benchmark); off, a test's server is faster and loses nothing unless the
    machine itself stops."""
    bins = bindir()
    if bins is None:
        raise StoreError("no PostgreSQL server binaries (initdb, postgres) found; "
                         "install them, e.g. apt-get install postgresql")
    as_user: list[str] = []
    root = tempfile.mkdtemp(prefix="mattis-pg-")
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        try:
            shutil.chown(root, "postgres")
        except LookupError:
            shutil.rmtree(root, ignore_errors=True)
            raise StoreError("PostgreSQL refuses to run as root and there is no 'postgres' user to run it as "
                             "(Debian's postgresql package makes one)") from None
        os.chmod(root, 0o700)
    data, log = os.path.join(root, "data"), os.path.join(root, "log")
    port = _free_port()
    proc: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run([*as_user, os.path.join(bins, "initdb"), "-D", data, "-U", "mattis", "-A", "trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, timeout=120)
        opts = ["-c", f"fsync={'on' if durable else 'off'}", "-c", "max_connections=200",
                "-c", "shared_buffers=64MB", "-c", "unix_socket_directories=" + root]
        proc = subprocess.Popen([*as_user, os.path.join(bins, "postgres"), "-D", data, "-h", "127.0.0.1",
                                 "-p", str(port), *opts], stdout=subprocess.DEVNULL,
                                stderr=open(log, "ab"))  # noqa: SIM115 (the server keeps it)
        url = f"postgresql://mattis@127.0.0.1:{port}/postgres"
        psycopg = _psycopg()
        for _ in range(300):
            if proc.poll() is not None:
                break
            try:
                psycopg.connect(url, connect_timeout=2).close()
                break
            except psycopg.Error:
                time.sleep(0.05)
        else:
            raise StoreError("PostgreSQL did not start in 15 s")
        if proc.poll() is not None:
            with open(log, encoding="utf-8", errors="replace") as f:
                raise StoreError("PostgreSQL did not start: " + f.read()[-2000:])
        yield url
    except subprocess.CalledProcessError as e:
        raise StoreError(f"initdb failed: {e.stderr.decode(errors='replace')[-2000:]}") from None
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(root, ignore_errors=True)
