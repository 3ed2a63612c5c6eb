"""``mattis serve --workers N --db ...``: what it refuses, with one line and no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tiers import HUNG


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mattis.cli.main", "serve", "--port", "1", *args],
                          capture_output=True, text=True, timeout=HUNG)


def test_several_workers_on_a_sqlite_file_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    r = serve("--port", "8000", "--workers", "2", "--db", str(db))
    assert r.returncode != 0
    assert "several --workers need a shared PostgreSQL database" in r.stderr
    assert "Traceback" not in r.stderr and not db.exists()


@pytest.mark.parametrize("workers", ["0", "65"])
def test_a_worker_count_out_of_range_is_refused(workers: str) -> None:
    r = serve("--port", "8000", "--workers", workers)
    assert r.returncode != 0 and "--workers: a whole number from 1 to 64" in r.stderr and "Traceback" not in r.stderr


def test_a_postgresql_server_that_does_not_answer_is_a_clear_message() -> None:
    pytest.importorskip("psycopg", reason="needs psycopg (the 'pg' extra)")
    r = serve("--port", "8000", "--workers", "2", "--db", "postgresql://mattis:secret@127.0.0.1:1/mattis")
    assert r.returncode != 0
    assert "cannot open database postgresql://mattis:***@127.0.0.1:1/mattis" in r.stderr
    assert "secret" not in r.stderr and "Traceback" not in r.stderr
