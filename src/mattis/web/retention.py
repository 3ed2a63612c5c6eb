"""How long the server keeps a table (the retention documented in docs/web.md).

A table nobody is connected to is deleted, its whole event log with it,

* ``Limits.keep_unstarted_hours`` (24 h) after its last event if its first game never
  started (a table made and abandoned in the waiting room), and
* ``Limits.keep_days`` (30 days) after its last event otherwise, finished or not.

A table with anyone connected, or whose bots are playing, is kept.  The sweep runs
when the server starts and then every hour.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Final

from .store import StoreError

if TYPE_CHECKING:
    from .service import TableService

log = logging.getLogger("mattis.web")

EVERY: Final = 3600.0
"""Seconds between sweeps."""


def sweep(hub: TableService, now: float | None = None) -> list[str]:
    """Delete the expired tables from the log and from memory; their ids."""
    if hub.store is None:
        return []
    now = time.time() if now is None else now
    limits = hub.limits
    gone: list[str] = []
    for tid, last in hub.store.last_events().items():
        table = hub.tables.get(tid)
        if hub.conns.get(tid) or not hub.may_delete(tid):  # (several workers: only the owner, nobody anywhere)
            continue
        task = hub.bot_tasks.get(tid)
        if task is not None and not task.done():
            continue
        unstarted = table is not None and table.referee is None and table.games_done == 0
        keep = limits.keep_unstarted_hours * 3600 if unstarted else limits.keep_days * 86400
        if now - last <= keep:
            continue
        try:
            hub.store.delete(tid)
        except StoreError as e:
            log.error("%s", e)
            return gone
        hub.deleted(tid)
        hub.tables.pop(tid, None)
        hub.conns.pop(tid, None)
        for tasks in (hub.bot_tasks, getattr(hub, "grace_tasks", {})):
            entry = tasks.pop(tid, None)
            held = entry[1] if isinstance(entry, tuple) else entry
            if isinstance(held, asyncio.Task):
                held.cancel()
        gone.append(tid)
    if gone:
        log.warning("deleted %d expired tables (retention)", len(gone))
    return gone


async def keep(hub: TableService) -> None:
    """Sweep now and then every hour, for as long as the server runs."""
    while True:
        try:
            sweep(hub)
        except StoreError as e:
            log.error("%s", e)
        await asyncio.sleep(EVERY)
