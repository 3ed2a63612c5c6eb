"""The per-address limits of every worker together, kept in PostgreSQL (:class:`PgLimits`,
the guard's :class:`mattis.web.rates.Shared`)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from .pgstore import PgStore, _psycopg, safe_url
from .store import StoreError


class PgLimits:
    """The per-address limits of every worker together (:class:`mattis.web.rates.Shared`):
    token buckets (``buckets``: one row per address and kind, deleted once full again, so
    a forgotten address costs nothing) and the WebSockets each worker holds per address
    (``sockets``: counted only while that worker renews them, every third of a lease, so a
    killed worker's sockets stop counting when its leases run out)."""

    def __init__(self, store: PgStore, worker: str, ttl: float) -> None:
        self.store = store
        self.worker = worker
        self.ttl = ttl
        self.local = threading.local()
        self.conns: list[Any] = []

    def _db(self) -> Any:
        """This thread's connection for the limits (their commits never wait for the disk)."""
        db = getattr(self.local, "db", None)
        if db is None:
            psycopg = _psycopg()
            try:
                db = psycopg.connect(self.store.url, autocommit=True, connect_timeout=10)
                db.execute("SET synchronous_commit = off")
            except psycopg.Error as e:
                raise StoreError(f"cannot reach database {safe_url(self.store.url)}: {str(e).strip()}") from None
            self.local.db = db
            self.conns.append(db)
        return db

    def take(self, key: str, rate: float, burst: float, cost: float, most_wait: float) -> tuple[bool, float]:
        try:
            row = self._db().execute("SELECT taken, wait FROM mattis_take(%s, %s, %s, %s, %s)",
                                               (key, rate, burst, cost, most_wait)).fetchone()
        except self.store.errors as e:
            raise StoreError(f"cannot reach the database: {str(e).strip()}") from None
        return bool(row[0]), float(row[1])

    def open_socket(self, address: str, cap: int) -> bool:
        try:
            row = self._db().execute("SELECT mattis_socket(%s, %s, %s, %s)",
                                               (address, self.worker, cap, self.ttl)).fetchone()
        except self.store.errors as e:
            raise StoreError(f"cannot reach the database: {str(e).strip()}") from None
        return bool(row[0])

    def close_socket(self, address: str) -> None:
        db = self._db()
        try:
            gone = db.execute("DELETE FROM sockets WHERE address = %s AND worker = %s AND n <= 1",
                              (address, self.worker)).rowcount
            if not gone:
                db.execute("UPDATE sockets SET n = n - 1 WHERE address = %s AND worker = %s",
                           (address, self.worker))
        except self.store.errors as e:
            raise StoreError(f"cannot reach the database: {str(e).strip()}") from None

    def renew(self) -> None:
        """This worker's sockets still count (with its leases); full buckets are forgotten."""
        db = self.store.db
        db.execute("UPDATE sockets SET expires = now() + make_interval(secs => %s) WHERE worker = %s",
                   (self.ttl, self.worker))
        db.execute("DELETE FROM sockets WHERE expires < now() - interval '1 minute'")
        db.execute("DELETE FROM buckets WHERE full_at < extract(epoch FROM clock_timestamp())")

    def release(self) -> None:
        """This worker stops: its sockets no longer count; its connections close."""
        with contextlib.suppress(Exception):
            self.store.db.execute("DELETE FROM sockets WHERE worker = %s", (self.worker,))
        for db in self.conns:
            with contextlib.suppress(Exception):
                db.close()
        self.conns = []
        self.local = threading.local()

