"""Fixtures for the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import Web

from mattis.web.app import create_app
from tiers import HUNG


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Web]:
    db = tmp_path / "web.db"
    app = create_app(str(db), bot_delay=0, test_mode=True)
    with TestClient(app) as client:
        w = Web(client, db)
        try:
            yield w  # a hung socket fails at the hang guard (tests/conftest.py)
        finally:
            for p in w.players:  # close every socket first, or the client waits for them forever
                try:
                    p.close()
                except Exception:
                    pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per test module (for the browser tests,
    which skip where either is missing)."""
    pw = pytest.importorskip("playwright.sync_api")
    from test_web_browser import ARGS, CHROMIUM

    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        launch_context = b.new_context

        def new_context(**options: Any) -> Any:
            """A context whose waits (Playwright's 30 s by default) end only for a hung page."""
            ctx = launch_context(**options)
            ctx.set_default_timeout(HUNG * 1000)
            return ctx

        b.new_context = new_context
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``mattis serve`` of its own (bots move at once), one per test module; its URL.
    (For the browser tests: the process is killed on the way out.)"""
    from test_web_restart import free_port, start_server

    db: Path = tmp_path_factory.mktemp("server") / "s.db"
    port = free_port()
    proc = start_server(db, port, bot_delay="0")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()
