"""The 80x24 captures in docs/play.md (the welcome, the review) are what
``python -m mattis.tui.capture --docs`` makes now: they never go stale."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from mattis.tui.capture import DOCS, DOCS_SIZE, docs_captures, stale_captures, update_docs


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_the_captures_in_docs_play_md_are_current(tmp_path: Path) -> None:
    captures = asyncio.run(docs_captures(tmp_path))
    assert set(captures) == {"welcome", "review"}
    for name, text in captures.items():
        lines = text.splitlines()
        assert len(lines) <= DOCS_SIZE[1] and max(len(line) for line in lines) <= DOCS_SIZE[0], name
    assert "Welcome to Mattis!" in captures["welcome"]
    assert "The chance to avoid being Mattis" in captures["review"]
    assert stale_captures(DOCS, captures) == [], "run: python -m mattis.tui.capture --docs"


def test_update_docs_puts_each_capture_between_its_markers(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("a\n<!-- capture: x -->\n```text\nold\n```\n<!-- /capture -->\nb\n", encoding="utf-8")
    assert stale_captures(doc, {"x": "new\n"}) == ["x"]
    assert update_docs(doc, {"x": "new\n"})
    assert doc.read_text(encoding="utf-8") == "a\n<!-- capture: x -->\n```text\nnew\n```\n<!-- /capture -->\nb\n"
    assert stale_captures(doc, {"x": "new\n"}) == []
    assert not update_docs(doc, {"x": "new\n"})
