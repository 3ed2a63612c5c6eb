"""The event log in PostgreSQL, the table leases, and the workers' channel.

The log is the SQLite store's (:mod:`mattis.web.store`) with the same primary key
(table, number), so a second writer is refused instead of forking a game.  Each
append also sends a notification on :data:`CHANNEL` *in the same statement*: it
is delivered only once the event is committed, so no worker hears of an event it
cannot read.

A *lease* row says which worker owns a table (runs its bots and its timers, and
applies the commands of every worker's clients) until when; the owner renews all
its leases every few seconds and a worker takes over the leases that ran out
(:meth:`PgStore.take_expired`).

The per-address limits every worker shares are :mod:`mattis.web.pglimits`'s; a throwaway
server for the tests and benchmarks, :mod:`mattis.web.pgserver`'s.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from .store import StoreConflict, StoreError

CHANNEL: Final = "mattis_web"
"""The LISTEN/NOTIFY channel every worker listens on."""

NOTE_MAX: Final = 7900
"""PostgreSQL's limit on a notification's payload is 8000 bytes."""

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE UNLOGGED TABLE IF NOT EXISTS buckets (
    key TEXT PRIMARY KEY,
    level DOUBLE PRECISION NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    full_at DOUBLE PRECISION NOT NULL
);
CREATE UNLOGGED TABLE IF NOT EXISTS sockets (
    address TEXT NOT NULL,
    worker TEXT NOT NULL,
    n INTEGER NOT NULL,
    expires TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (address, worker)
);
"""

FUNCTIONS: Final = ("""
CREATE OR REPLACE FUNCTION mattis_take(k TEXT, rate DOUBLE PRECISION, burst DOUBLE PRECISION,
    cost DOUBLE PRECISION, most DOUBLE PRECISION, OUT taken BOOLEAN, OUT wait DOUBLE PRECISION) AS $$
DECLARE
    t DOUBLE PRECISION := extract(epoch FROM clock_timestamp());
    lvl DOUBLE PRECISION;
    was DOUBLE PRECISION;
BEGIN
    INSERT INTO buckets (key, level, at, full_at) VALUES (k, burst, t, t)
        ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key RETURNING level, at INTO lvl, was;
    lvl := least(burst, lvl + greatest(0, t - was) * rate);
    lvl := lvl - cost;
    wait := CASE WHEN lvl >= 0 THEN 0 ELSE -lvl / rate END;
    taken := wait <= most;
    IF NOT taken THEN
        lvl := lvl + cost;
    END IF;
    UPDATE buckets SET level = lvl, at = t, full_at = t + greatest(0, burst - lvl) / rate WHERE key = k;
END $$ LANGUAGE plpgsql
""", """
CREATE OR REPLACE FUNCTION mattis_socket(a TEXT, w TEXT, cap INTEGER, ttl DOUBLE PRECISION) RETURNS BOOLEAN AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('mattis_socket ' || a));
    IF (SELECT coalesce(sum(n), 0) FROM sockets WHERE address = a AND expires >= now()) >= cap THEN
        RETURN false;
    END IF;
    INSERT INTO sockets (address, worker, n, expires) VALUES (a, w, 1, now() + make_interval(secs => ttl))
        ON CONFLICT (address, worker) DO UPDATE SET n = sockets.n + 1, expires = EXCLUDED.expires;
    RETURN true;
END $$ LANGUAGE plpgsql
""")
"""The shared per-address limits' two operations, each one statement (so one round trip):
a token bucket taken atomically (the database's clock, so workers on several machines
agree), and a WebSocket counted unless all workers together hold the cap.  Their tables
are unlogged and their commits do not wait for the disk: after a crash of PostgreSQL
the limits start afresh, which costs nothing worth a disk write per request."""


def safe_url(url: str) -> str:
    """The URL without its password (for messages and the page)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("a postgresql:// database needs the optional 'pg' extra (psycopg is not "
                         "installed): pip install '.[pg]'") from None
    return psycopg


class PgStore:
    """The event log and the leases in one PostgreSQL database (one connection, autocommit)."""

    def __init__(self, url: str) -> None:
        psycopg = _psycopg()
        self.url = url
        self.errors: tuple[type[Exception], ...] = (psycopg.Error,)
        self.unique: type[Exception] = psycopg.errors.UniqueViolation
        try:
            self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
            with self.db.transaction():
                self.db.execute("SELECT pg_advisory_xact_lock(4242)")  # workers starting together
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                for function in FUNCTIONS:
                    self.db.execute(function)
        except psycopg.Error as e:
            raise StoreError(f"cannot open database {safe_url(url)}: {str(e).strip()}") from None
        self.local = threading.local()
        self.writers: list[Any] = []

    def _writer(self) -> Any:
        """This thread's own connection for appends (the server appends from a few threads at once,
        one table each, so one table's wait for the database does not hold up another's)."""
        db = getattr(self.local, "db", None)
        if db is None:
            if threading.current_thread() is threading.main_thread():
                return self.db
            psycopg = _psycopg()
            try:
                db = self.local.db = psycopg.connect(self.url, autocommit=True, connect_timeout=10)
            except psycopg.Error as e:
                raise StoreError(f"cannot reach database {safe_url(self.url)}: {str(e).strip()}") from None
            self.writers.append(db)
        return db

    # ------------------------------------------------------------------ log
    def append(self, table_id: str, n: int, event: dict[str, Any]) -> None:
        """Insert event number ``n`` and notify every worker (one statement, one transaction)."""
        data = json.dumps(event, separators=(",", ":"))
        # The event itself rides along when it fits (a move does; a big create may not): then
        # the other workers need not read it back from the log.
        note = f'{{"k":"ev","t":{json.dumps(table_id)},"n":{n},"e":{data}}}'
        if len(note.encode()) > NOTE_MAX:
            note = json.dumps({"k": "ev", "t": table_id, "n": n})
        try:
            self._writer().execute("WITH ins AS (INSERT INTO events (table_id, n, at, data) VALUES (%s, %s, %s, %s) "
                            "RETURNING n) SELECT pg_notify(%s, %s) FROM ins",
                            (table_id, n, time.time(), data, CHANNEL, note))
        except self.unique:
            raise StoreConflict(f"event {n} of table {table_id} is already written") from None
        except self.errors as e:
            raise StoreError(f"cannot write the event log: {str(e).strip()}") from None

    def events(self, table_id: str, start: int = 0) -> list[dict[str, Any]]:
        try:
            rows = self.db.execute("SELECT data FROM events WHERE table_id = %s AND n >= %s ORDER BY n",
                                   (table_id, start)).fetchall()
        except self.errors as e:
            raise StoreError(f"cannot read the event log: {str(e).strip()}") from None
        return [json.loads(r[0]) for r in rows]

    def tables(self) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        ids = [r[0] for r in self.db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id").fetchall()]
        for tid in ids:
            yield tid, self.events(tid)

    def last_events(self) -> dict[str, float]:
        try:
            rows = self.db.execute("SELECT table_id, MAX(at) FROM events GROUP BY table_id").fetchall()
        except self.errors as e:
            raise StoreError(f"cannot read the event log: {str(e).strip()}") from None
        return {r[0]: float(r[1]) for r in rows}

    def delete(self, table_id: str) -> None:
        try:
            with self.db.transaction():
                self.db.execute("DELETE FROM events WHERE table_id = %s", (table_id,))
                self.db.execute("DELETE FROM leases WHERE table_id = %s", (table_id,))
        except self.errors as e:
            raise StoreError(f"cannot write the event log: {str(e).strip()}") from None

    def close(self) -> None:
        for db in [*self.writers, self.db]:
            with contextlib.suppress(Exception):
                db.close()

    # --------------------------------------------------------------- leases
    def claim(self, table_id: str, owner: str, ttl: float) -> bool:
        """Take (or keep) a table's lease unless another worker holds one that has not run out."""
        row = self.db.execute(
            "INSERT INTO leases (table_id, owner, expires) VALUES (%s, %s, now() + make_interval(secs => %s)) "
            "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
            "WHERE leases.owner = EXCLUDED.owner OR leases.expires < now() RETURNING table_id",
            (table_id, owner, ttl)).fetchone()
        return row is not None

    def renew(self, owner: str, ttl: float) -> set[str]:
        """Extend every lease ``owner`` still holds; the tables it holds."""
        rows = self.db.execute("UPDATE leases SET expires = now() + make_interval(secs => %s) "
                               "WHERE owner = %s RETURNING table_id", (ttl, owner)).fetchall()
        return {r[0] for r in rows}

    def take_expired(self, owner: str, ttl: float, limit: int = 1000, share: int = 1) -> list[str]:
        """Take over leases that ran out (their owner stopped renewing), one in ``share`` of them
        (rounded up; at most ``limit``): the tables taken."""
        rows = self.db.execute(
            "UPDATE leases SET owner = %s, expires = now() + make_interval(secs => %s) WHERE table_id IN "
            "(SELECT table_id FROM leases WHERE expires < now() ORDER BY random() LIMIT least(%s, "
            "(SELECT ceil(count(*)::float8 / %s)::int FROM leases WHERE expires < now())) FOR UPDATE SKIP LOCKED) "
            "RETURNING table_id", (owner, ttl, limit, max(1, share))).fetchall()
        return sorted(r[0] for r in rows)

    def adopt_unleased(self) -> None:
        """Give every table without a lease row an expired one (logs written before leases)."""
        self.db.execute("INSERT INTO leases (table_id, owner, expires) SELECT DISTINCT table_id, '', "
                        "'epoch'::timestamptz FROM events ON CONFLICT (table_id) DO NOTHING")

    def release(self, owner: str) -> None:
        """Let every lease of ``owner`` run out now (a worker shutting down: others take over at once)."""
        with contextlib.suppress(Exception):
            self.db.execute("UPDATE leases SET expires = 'epoch'::timestamptz WHERE owner = %s", (owner,))

    def owner(self, table_id: str) -> str | None:
        """The worker holding a table's lease now (``None`` if nobody does)."""
        row = self.db.execute("SELECT owner FROM leases WHERE table_id = %s AND expires >= now()",
                              (table_id,)).fetchone()
        return None if row is None else str(row[0])

    def tables_held(self) -> int:
        """How many tables the log holds (one lease row each), for the ``max_tables`` cap."""
        try:
            row = self.db.execute("SELECT count(*) FROM leases").fetchone()
        except self.errors as e:
            raise StoreError(f"cannot read the event log: {str(e).strip()}") from None
        return int(row[0])

    def notify_many(self, messages: list[dict[str, Any]]) -> None:
        """Send messages to every worker, in order, in one statement (each at most 8000 bytes,
        PostgreSQL's limit)."""
        if not messages:
            return
        texts = [json.dumps(m, separators=(",", ":")) for m in messages]
        try:
            self._writer().execute("SELECT pg_notify(%s, t) FROM unnest(%s::text[]) WITH ORDINALITY AS m(t, i) "
                                   "ORDER BY i", (CHANNEL, texts))
        except self.errors as e:
            raise StoreError(f"cannot reach the database: {str(e).strip()}") from None

