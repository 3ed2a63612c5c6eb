"""The engine's commands: selfplay, replay and bench, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.core import GameRecord, load_record


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_selfplay_same_seed_same_game_and_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code1, out1, _ = run(capsys, "selfplay", "--rules", "skitgubbe", "--set", "sequences=2", "--seed", "11",
                         "--save", str(a))
    code2, out2, _ = run(capsys, "selfplay", "--rules", "skitgubbe", "--set", "sequences=2", "--seed", "11",
                         "--save", str(b))
    assert code1 == code2 == 0
    assert out1.replace(str(a), "") == out2.replace(str(b), "")
    assert a.read_text() == b.read_text()
    record = load_record(str(a))
    assert record.rules.sequences == 2 and record.rules.name == "skitgubbe"
    state = record.replay()
    assert state.is_over
    # The printout names the loser the engine found, in Skitgubbe's word, and lists every move.
    assert f"{['Anne', 'Bjørn', 'Cato'][state.losers[-1]]} is the skitgubbe!" in out1 and "Mattis" not in out1
    assert sum(1 for line in out1.splitlines() if line[:5].strip().rstrip(".").isdigit()) == len(record.moves)


def test_selfplay_other_seed_other_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "selfplay", "--seed", "1", "--save", str(tmp_path / "1.json"))
    run(capsys, "selfplay", "--seed", "2", "--save", str(tmp_path / "2.json"))
    assert load_record(str(tmp_path / "1.json")).deck != load_record(str(tmp_path / "2.json")).deck


def test_replay_json_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    run(capsys, "selfplay", "--players", "4", "--rules", "hund", "--seed", "5", "--save", str(path))
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0
    snap = json.loads(out)
    assert snap["phase"] == "over" and snap["to_act"] is None and snap["legal"] == []
    assert len(snap["losers"]) == 1 and len(snap["finished"]) == 3
    assert set(snap["finished"]) | set(snap["losers"]) == {0, 1, 2, 3}
    assert snap["trump"] in ("C", "D", "H", "S")
    # Halfway through: phase 1 or 2, someone to act, legal moves in record syntax.
    code, out, _ = run(capsys, "replay", str(path), "--json", "--upto", "10")
    half = json.loads(out)
    assert half["phase"] == 1 and half["to_act"] in range(4)
    assert all(m.startswith(f"{half['to_act']} ") for m in half["legal"])
    assert sum(len(h) for h in half["hands"]) + len(half["stock"]) + len(half["table"]) \
        + sum(len(p) for p in half["piles"]) == 52


def test_replay_illegal_move_exit_2_names_the_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    run(capsys, "selfplay", "--seed", "3", "--save", str(path))
    data = json.loads(path.read_text())
    seat = data["moves"][4].split()[0]
    data["moves"][4] = f"{seat} pickup"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert "move 5" in err and f"'{seat} pickup'" in err and "nothing to pick up" in err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(("content", "expected"), [
    ("not json", "not valid JSON"),
    ('{"rules": "mattis", "players": 3, "deck": ["4C"], "moves": []}', "52 cards"),
    ('{"rules": "nope", "players": 3, "deck": [], "moves": []}', "unknown rules"),
    ('{"rules": {"preset": "mattis", "sequences": 1}, "players": 3, "deck": [], "moves": []}', "sequences"),
    ('[1, 2]', "JSON object"),
])
def test_replay_malformed_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                 expected: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and expected in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_replay_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", "/nonexistent/game.json")
    assert code == 2 and "cannot read" in err


@pytest.mark.parametrize("argv", [
    ["selfplay", "--set", "colour=blue"],
    ["selfplay", "--set", "tricks=some"],
    ["selfplay", "--rules", "skitgubbe", "--players", "5"],
    ["selfplay", "--bots", "grandmaster"],
    ["selfplay", "--dealer", "7"],
    ["bench", "--rules", "poker"],
])
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"mattis {argv[0]}: ")


def test_bundled_examples_replay(capsys: pytest.CaptureFixture[str]) -> None:
    import mattis

    folder = Path(mattis.__file__).parent / "examples"
    files = sorted(folder.glob("*.json"))
    assert files
    for f in files:
        record = load_record(str(f))
        state = record.replay()
        assert state.is_over
        assert GameRecord.from_state(state).to_json() == record.to_json()


@pytest.mark.parametrize(("lang", "head", "trump", "saved"), [
    ("nb", "Regler: blodmattis, 5 spillere\nGiver: Anne\n", "--- Fase 2 begynner. Trumf er ", "Spillet er lagret i "),
    ("en", "Rules: blodmattis, 5 players\nDealer: Anne\n", "--- Phase 2 begins. Trump is ", "The game is saved in "),
])
def test_selfplay_speaks_the_language_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str,
                                                 head: str, trump: str, saved: str) -> None:
    path = tmp_path / "g.json"
    code, out, _ = run(capsys, "selfplay", "--rules", "blodmattis", "--players", "5", "--seed", "1",
                       "--lang", lang, "--save", str(path))
    assert code == 0 and out.startswith(head)
    outcome = load_record(str(path)).replay().outcome
    assert outcome is not None and outcome.blodmattis and outcome.mattis is not None
    names = ["Anne", "Bjørn", "Cato", "Dina", "Eirik"]
    lines = out.splitlines()
    assert sum(line.startswith(trump) for line in lines) == 1
    order = ("Rekkefølge: " if lang == "nb" else "Finishing order: ") + ", ".join(names[s] for s in outcome.finished)
    assert order in lines
    for s in outcome.blodmattis:
        assert (f"{names[s]} vant ingen stikk og er Blodmattis!" if lang == "nb"
                else f"{names[s]}: no stikk won, Blodmattis (loses at once)!") in lines
    assert f"{names[outcome.mattis]} {'er' if lang == 'nb' else 'is'} Mattis!" in lines
    assert lines[-1] == f"{saved}{path}."


def test_the_research_race_without_the_rl_extra_names_the_install_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    assert main(["bench", "--vs-openspiel", "--rules", "mattis", "--seconds", "0.1"]) == 2
    out, err = capsys.readouterr()
    assert "pip install '.[rl]'" in err and "pyspiel" in err and "Traceback" not in err
    assert "decisions/s" not in out  # nothing measured before the refusal


@pytest.mark.parametrize(("lang", "you", "verb"), [("nb", "Du", "legger"), ("en", "You", "play")])
def test_replay_names_the_seats_as_the_saved_game_does(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, lang: str, you: str,
                                                       verb: str) -> None:
    """A game saved by ``mattis play`` calls seat 0 "Du" (the person); ``mattis replay``
    calls it the same, in the language asked for, not the default seat name "Anne"."""
    import io
    import sys

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\nquit\n"))
    assert main(["play", "--plain", "--seed", "3", "--lang", "nb", "--save", str(path)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "replay", str(path), "--lang", lang)
    assert code == 0 and err == ""
    moved = [line.split(". ", 1)[1] for line in out.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert any(line.startswith(f"{you} {verb} ") for line in moved)  # the person's moves, under her name
    assert f"  0 {you} " in out  # her hand, under her name
    assert "Anne" not in out
