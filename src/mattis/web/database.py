"""Which event log ``--db`` names (:func:`open_store`): a PostgreSQL URL
(:class:`mattis.web.pgstore.PgStore`) or a SQLite file's path (:class:`mattis.web.store.Store`),
and how it is named to people (:func:`describe`)."""

from __future__ import annotations

from .store import EventLog, Store


def is_postgres(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> EventLog:
    """The event log ``db`` names: a PostgreSQL URL or a SQLite file's path."""
    if is_postgres(db):
        from .pgstore import PgStore

        return PgStore(db)
    return Store(db)


def describe(db: str) -> str:
    """``db`` for messages and pages: a URL without its password, or the file's full path (so a
    page on the wrong server can say exactly which database that server reads)."""
    if is_postgres(db):
        from .pgstore import safe_url

        return safe_url(db)
    from pathlib import Path

    return str(Path(db).resolve())
