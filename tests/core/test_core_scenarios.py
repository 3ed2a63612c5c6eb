"""Scenario tests: the worked examples of the rule texts, as game records.

Each file in tests/core/records/ is a record in the documented format (README,
"Game records") plus a "comment" saying what it shows and which text it comes
from, and a "result" field holding checkpoints: after the first ``after``
moves, parts of ``State.snapshot()`` must equal ``expect``, the legal moves must
contain / lack / equal the listed ones, and the listed illegal moves must be
rejected with a reason (and change nothing).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from core_helpers import assert_illegal

from mattis.core import GameRecord, State

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def _norm_cards(v: Any) -> Any:
    return sorted(v) if isinstance(v, list) else v


def _check(state: State, check: dict[str, Any], name: str) -> None:
    snap = state.snapshot()
    where = f"{name} after {check['after']} moves"
    for key, want in check.get("expect", {}).items():
        if key in ("hands", "piles"):
            assert [sorted(h) for h in snap[key]] == [sorted(h) for h in want], (where, key, snap[key])
        elif key == "hand_sizes":
            assert [len(h) for h in snap["hands"]] == want, (where, snap["hands"])
        elif key == "pile_sizes":
            assert [len(h) for h in snap["piles"]] == want, (where, snap["piles"])
        elif key == "stock_size":
            assert len(snap["stock"]) == want, where
        elif key == "out_has":
            assert set(want) <= set(snap["out_of_play"]), where
        else:
            assert snap[key] == want, (where, key, snap[key])
    for seat, cards in check.get("hand_has", {}).items():
        assert set(cards) <= set(snap["hands"][int(seat)]), (where, snap["hands"])
    legal = snap["legal"]
    if "legal_exact" in check:
        assert sorted(legal) == sorted(check["legal_exact"]), (where, legal)
    for m in check.get("legal_has", []):
        assert m in legal, (where, m, legal)
    for m in check.get("legal_lacks", []):
        assert m not in legal, (where, m, legal)
    for move, reason in check.get("illegal", []):
        assert_illegal(state, move, reason)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_scenario(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("comment"), "every scenario says what it shows"
    rec = GameRecord.from_json(data)
    checks = data["result"]["checks"]
    assert checks
    for check in checks:
        state = rec.replay(check["after"])
        _check(state, check, path.stem)
    # the whole record replays, and the scenario's final checkpoint is its last move
    rec.replay()
    assert max(c["after"] for c in checks) == len(rec.moves)


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_record_scenario_roundtrip(path: Path) -> None:
    """A scenario record survives dumps/loads (without its test-only fields)."""
    rec = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    text = rec.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    assert again.replay().snapshot() == rec.replay().snapshot()


#: The rule texts, by title (docs/rules.md, "The rule texts").
TITLES = ("Regler for kortspillet Mattis", "Mattis Card Game Rules", "Spilleregler for Mattis – KortRegler.no",
          "Mattis regler – også kjent som Blodmattis", "Regler for kortspillet Skitgubbe")


def test_records_cover_every_rule_text() -> None:
    comments = " ".join(json.loads(p.read_text(encoding="utf-8"))["comment"] for p in RECORDS)
    for title in TITLES:
        assert title in comments, title
