"""The append-only event log of every table: one interface, two stores.

One row per event, keyed by (table, number).  Rows are only ever inserted; a
table is rebuilt by replaying its rows in order.  A table's rows are deleted only
all at once, when the table has expired (:mod:`mattis.web.retention`).  Each append is its own
committed transaction, made before the server tells anyone about the change,
so a ``kill -9`` can lose at most a request nobody was answered about.

:class:`Store` is the embedded default, a SQLite file (WAL);
:class:`mattis.web.pgstore.PgStore` keeps the same log in PostgreSQL for several
workers (``--db postgresql://...``).  The server uses only :class:`EventLog`, so
both run the same code path; :func:`mattis.web.database.open_store` picks one from the ``--db`` text.
In both, (table, number) is the primary key: a second writer appending a number
that exists is refused (:class:`StoreConflict`) and the table's log is unchanged,
so two writers can never fork a game.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any, Protocol

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    at REAL NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


class StoreError(Exception):
    """The database cannot be opened or written."""


class StoreConflict(StoreError):
    """The event number is taken: another writer appended it first (nothing was written)."""


class EventLog(Protocol):
    """What the server needs of an event log (:class:`Store`, :class:`~mattis.web.pgstore.PgStore`)."""

    def append(self, table_id: str, n: int, event: dict[str, Any]) -> None:
        """Insert event number ``n`` of a table; :class:`StoreConflict` if that number exists."""
        ...

    def events(self, table_id: str, start: int = 0) -> list[dict[str, Any]]:
        """A table's events from number ``start`` on, in order."""
        ...

    def tables(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """Every table's events, in order."""
        ...

    def last_events(self) -> dict[str, float]:
        """When each table's last event was written (seconds since the epoch)."""
        ...

    def delete(self, table_id: str) -> None:
        """Remove a table's whole log."""
        ...

    def close(self) -> None: ...


class Store:
    """The event log file (SQLite)."""

    def __init__(self, path: str) -> None:
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a committed event survives a killed process (not a power cut).
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open database {path}: {e}") from None

    def append(self, table_id: str, n: int, event: dict[str, Any]) -> None:
        """Insert event number ``n`` of a table (fails if that number exists: no overwrite)."""
        try:
            self.db.execute("INSERT INTO events (table_id, n, at, data) VALUES (?, ?, ?, ?)",
                            (table_id, n, time.time(), json.dumps(event, separators=(",", ":"))))
        except sqlite3.IntegrityError:
            raise StoreConflict(f"event {n} of table {table_id} is already written") from None
        except sqlite3.Error as e:
            raise StoreError(f"cannot write the event log: {e}") from None

    def events(self, table_id: str, start: int = 0) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT data FROM events WHERE table_id = ? AND n >= ? ORDER BY n", (table_id, start))
        return [json.loads(r[0]) for r in rows]

    def tables(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        """Every table's events, in order."""
        ids = [r[0] for r in self.db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")]
        for tid in ids:
            yield tid, self.events(tid)

    def last_events(self) -> dict[str, float]:
        """When each table's last event was written (seconds since the epoch)."""
        try:
            rows = self.db.execute("SELECT table_id, MAX(at) FROM events GROUP BY table_id")
            return {r[0]: float(r[1]) for r in rows}
        except sqlite3.Error as e:
            raise StoreError(f"cannot read the event log: {e}") from None

    def delete(self, table_id: str) -> None:
        """Remove a table's whole log (retention: :mod:`mattis.web.retention`)."""
        try:
            self.db.execute("DELETE FROM events WHERE table_id = ?", (table_id,))
        except sqlite3.Error as e:
            raise StoreError(f"cannot write the event log: {e}") from None

    def close(self) -> None:
        self.db.close()
