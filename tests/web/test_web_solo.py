"""The offline app's engine side (mattis.web.solo) and its build (mattis.web.bundle), without a
browser: the browser test is tests/web/test_web_solo_browser.py."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mattis.core import GameRecord
from mattis.core.catalogue import TEXT
from mattis.web import solo as solo_module
from mattis.web.bundle import MANIFEST, PYODIDE_VERSION, index_html, png_icon
from mattis.web.solo import SOLO_LEVELS, Solo
from tiers import HUNG


def new(solo: Solo, preset: str = "blodmattis", players: int = 3, seed: int = 7) -> str:
    status, body = solo.request("POST", "/api/tables", json.dumps({
        "preset": preset, "players": players, "name": "Anne", "seed": seed,
        "seats": [{"kind": "human"}] + [{"kind": "human", "level": "easy"}] * (players - 1)}))
    assert status == 200, body
    tid: str = json.loads(body)["table"]
    solo.message(tid, '{"type":"start"}', "en")
    return tid


def view(solo: Solo, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(solo.view(tid, "en"))
    return out


def move(solo: Solo, tid: str) -> None:
    """The person's first legal move, then the bots' until it is hers again (or the game is over)."""
    v = view(solo, tid)
    text, changed = solo.message(tid, json.dumps({"type": "move", "game": v["game"], "seq": v["seq"],
                                                  "move": v["obs"]["legal"][0]}), "en")
    assert changed and text is not None and "error" not in json.loads(text)
    while solo.bot_move(tid):
        pass


def test_a_friends_seat_is_a_bot_and_the_person_plays_a_whole_game_to_a_record_mattis_replay_reads(
        tmp_path: Path) -> None:
    solo = Solo()
    tid = new(solo)
    assert [s["kind"] for s in view(solo, tid)["seats"]] == ["human", "bot", "bot"]
    while solo.bot_move(tid):
        pass
    while view(solo, tid)["obs"]["phase"] != 3:
        move(solo, tid)
    end = view(solo, tid)
    status, text = solo.request("GET", f"/api/tables/{tid}/games/1/record", "")
    assert status == 200
    rec = GameRecord.loads(text)
    assert rec.rules.name == "blodmattis" and json.loads(text)["names"][0] == "Anne"
    path = tmp_path / "rec.json"
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mattis.cli.main", "replay", "--json", "--quiet", str(path)],
                         capture_output=True, text=True, timeout=HUNG)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["losers"] == end["obs"]["losers"]


def test_the_level_too_slow_for_the_browser_is_not_offered_and_refused_in_words() -> None:
    solo = Solo()
    assert "expert" not in json.loads(solo.request("GET", "/api/meta", "")[1])["levels"]
    status, body = solo.request("POST", "/api/tables", json.dumps({
        "preset": "mattis", "players": 2, "name": "Anne",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "expert"}]}))
    assert status == 400 and SOLO_LEVELS[0] in json.loads(body)["error"]
    assert not solo.tables


def test_a_stored_table_opens_as_it_was_and_a_damaged_one_is_refused_in_words_leaving_the_others() -> None:
    solo = Solo()
    tid = new(solo, "skitgubbe", 2)
    for _ in range(3):
        move(solo, tid)
    saved, before = solo.saved(tid), solo.view(tid, "nb")
    other = Solo()
    assert other.load(tid, saved, "nb") is None
    assert other.view(tid, "nb") == before
    events = json.loads(saved)["events"]
    broken_move = json.dumps({"v": 1, "events": [*events[:-1], dict(events[-1], move="play AS AH")]})
    damaged = TEXT["solo.damaged"][0]
    for bad in ("{", "[]", '{"events": []}', json.dumps({"events": [{"type": "move"}]}), broken_move,
                saved.replace(tid, "someone-else")):
        fresh = Solo()
        assert fresh.load(tid, bad, "nb") == damaged
        assert tid not in fresh.tables
        assert fresh.load(tid, saved, "nb") is None  # the good log still opens
    assert Solo().load("nope", None, "en") is not None


def test_take_back_returns_to_before_the_persons_last_move_and_not_after_the_game() -> None:
    solo = Solo()
    tid = new(solo, "mattis", 3)
    while solo.bot_move(tid):
        pass
    assert not solo.can_undo(tid)  # nothing of hers to take back yet
    move(solo, tid)
    before = solo.view(tid, "en")
    seq = view(solo, tid)["seq"]
    move(solo, tid)
    assert view(solo, tid)["seq"] > seq
    text, changed = solo.message(tid, '{"type":"undo"}', "en")
    assert changed and text is not None
    assert json.loads(text)["seq"] == seq
    assert solo.view(tid, "en") == before
    while view(solo, tid)["obs"]["phase"] != 3:
        move(solo, tid)
    assert not solo.can_undo(tid)
    text, changed = solo.message(tid, '{"type":"undo"}', "en")
    assert not changed and text is not None and json.loads(text)["error"]


def test_the_frame_holds_only_the_seats_view() -> None:
    solo = Solo()
    tid = new(solo, "blodmattis", 4)
    while solo.bot_move(tid):
        pass
    table = solo.tables[tid]
    assert table.referee is not None
    text = solo.view(tid, "en")
    from mattis.core import card_code

    for seat in range(1, 4):
        hidden = set(table.referee.observation(seat).hand) - set(table.referee.observation(0).known[seat])
        assert hidden and not [c for c in hidden if f'"{card_code(c)}"' in text]
    assert '"deck"' not in text and '"bot_seed"' not in text


def test_the_page_is_made_relative_and_installable() -> None:
    page = index_html("mattis-0.1.0-py3-none-any.whl")
    assert 'src="/' not in page and 'href="/' not in page
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert page.index("solo.js") < page.index("static/app.js")
    assert MANIFEST["display"] == "standalone" and MANIFEST["start_url"] == "./"
    icon = png_icon(192)
    assert icon.startswith(b"\x89PNG") and int.from_bytes(icon[16:20], "big") == 192


def test_build_web_without_npm_or_a_cache_says_so_in_one_line(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path / "nothing"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / f"pyodide-{PYODIDE_VERSION}.tgz").write_bytes(b"not the pinned tarball")
    run = subprocess.run([sys.executable, "-m", "mattis.cli.main", "build-web", str(tmp_path / "app"),
                          "--cache", str(tmp_path / "cache")], capture_output=True, text=True, env=env, timeout=HUNG)
    assert run.returncode == 2
    last = run.stderr.strip().splitlines()[-1]
    assert "npm" in last and "Traceback" not in run.stderr
    assert not (tmp_path / "app").exists()


def test_the_hint_offline_is_the_servers_message_and_the_hint_of_her_own_view() -> None:
    from mattis.lab.hint import hint
    from mattis.play.seeds import position_seed

    solo = Solo()
    tid = new(solo, "mattis", 2, seed=3)
    while solo.bot_move(tid):
        pass
    phases: set[int] = set()
    refused_once = False
    while (v := view(solo, tid))["obs"]["phase"] != 3 and phases != {1, 2}:
        if v["obs"]["phase"] in phases or len(v["obs"]["legal"]) == 1:
            move(solo, tid)
            continue
        phases.add(v["obs"]["phase"])
        text, changed = solo.message(tid, '{"type":"hint"}', "nb")
        assert not changed and text is not None  # not logged: the table is not stored again for it
        got = json.loads(text)
        h = got["hint"]
        assert "error" not in got and (h["game"], h["seq"]) == (v["game"], v["seq"])
        assert h["move"] in v["obs"]["legal"] and h["text"].startswith("Hint: ")
        ref = solo.tables[tid].referee
        assert ref is not None
        obs = ref.observation(0)  # her seat's view: what the page is sent
        want = hint(obs, "nb", position_seed(None, "hint", obs))
        assert (h["move"], h["text"]) == (str(want.move), want.text)
        # Her move made, the bots are to act: no hint now, said in words.
        solo.message(tid, json.dumps({"type": "move", "game": v["game"], "seq": v["seq"], "move": h["move"]}), "en")
        if solo.bot_due(tid):
            text, _ = solo.message(tid, '{"type":"hint"}', "en")
            assert text is not None
            refused = json.loads(text)
            assert refused["error"] == "no hint now: it is not your turn" and "hint" not in refused
            refused_once = True
        while solo.bot_move(tid):
            pass
    assert phases == {1, 2} and refused_once


def test_a_hint_that_fails_offline_is_logged_and_said_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: object) -> dict[str, Any]:
        raise RuntimeError("a bug in the hint")

    monkeypatch.setattr(solo_module, "hint_json", broken)
    solo = Solo()
    tid = new(solo, "mattis", 2, seed=3)
    while solo.bot_move(tid):
        pass
    v = view(solo, tid)
    with caplog.at_level(logging.ERROR, logger="mattis.web.solo"):
        text, changed = solo.message(tid, '{"type":"hint"}', "en")
    assert text is not None and not changed
    assert json.loads(text)["error"] == "the hint could not be worked out; try again"
    assert any(f"offline table {tid}: the hint failed" in r.getMessage() and r.exc_info for r in caplog.records)
    move(solo, tid)
    assert view(solo, tid)["seq"] > v["seq"]
