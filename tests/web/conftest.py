"""Fixtures for the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import Player, deadline

from mattis.web.app import create_app


class Web:
    """An in-process server (bots without delay, seeded deals allowed) and its connections."""

    def __init__(self, client: TestClient, db: Path) -> None:
        self.client = client
        self.db = db
        self.players: list[Player] = []

    def player(self, tid: str, token: str | None, lang: str = "en") -> Player:
        p = Player(self.client, tid, token, lang)
        self.players.append(p)
        return p

    @property
    def hub(self) -> Any:
        return self.client.app.state.hub  # type: ignore[attr-defined]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Web]:
    db = tmp_path / "web.db"
    app = create_app(str(db), bot_delay=0, test_mode=True)
    with TestClient(app) as client:
        w = Web(client, db)
        try:
            with deadline(150):
                yield w
        finally:
            for p in w.players:  # close every socket first, or the client waits for them forever
                try:
                    p.close()
                except Exception:
                    pass
