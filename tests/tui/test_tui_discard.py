"""Unfinished games: ``mattis play --discard N`` throws one away (only from the games
folder, named in the list), and ``--plain`` at a terminal offers to continue the newest."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.tui.session import saved_games


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


class Terminal(io.StringIO):
    """Typed answers, as from a terminal."""

    def isatty(self) -> bool:
        return True


def _three_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in ("1", "2", "3"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
        assert main(["play", "--plain", "--new", "--seed", seed, "--lang", "en"]) == 0


def test_discard_throws_away_the_named_game_and_no_other(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    _three_games(monkeypatch)
    games = saved_games()
    capsys.readouterr()
    assert main(["play", "--list", "--lang", "en"]) == 0
    assert "mattis play --discard NUMBER" in capsys.readouterr().out
    assert main(["play", "--discard", "2", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"discarded {games[1].path.name}: ") and out.count("\n") == 1
    left = saved_games()
    assert [g.path for g in left] == [games[0].path, games[2].path]
    assert main(["play", "--discard", games[2].name]) == 0  # by name
    assert [g.path for g in saved_games()] == [games[0].path]


def test_discard_refuses_files_outside_the_games_folder_and_bad_numbers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _three_games(monkeypatch)
    outside = tmp_path / "mine.json"
    outside.write_bytes(saved_games()[0].path.read_bytes())
    capsys.readouterr()
    assert main(["play", "--discard", str(outside)]) == 2
    err = capsys.readouterr().err
    assert "only throws away games in" in err and err.count("\n") == 1
    assert outside.is_file()
    assert main(["play", "--discard", "7"]) == 2
    assert "choose a number from 1 to 3" in capsys.readouterr().err
    assert len(saved_games()) == 3


def test_plain_mode_at_a_terminal_offers_to_continue_the_newest_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _three_games(monkeypatch)
    newest = saved_games()[0]
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", Terminal("ja\nquit\n"))
    monkeypatch.setattr("builtins.input", lambda prompt="": (print(prompt, end=""), sys.stdin.readline())[1])
    assert main(["play", "--plain"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the lines are wrapped to the terminal's width
    assert "Continue it? (yes/no)" in out or "Fortsette det? (ja/nei)" in out
    assert "The game goes on where it stopped." in out or "Spillet fortsetter der det slapp." in out
    assert len(saved_games()) == 3 and saved_games()[0].path == newest.path


def test_analyze_answers_in_the_saved_games_language_and_you_are_mattis(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from mattis.core import preset
    from mattis.tui.session import Session

    for seed in range(40):
        s = Session(rules=preset("mattis"), players=2, levels=["easy"] * 2, lang="nb", seed=seed,
                    save_path=tmp_path / "nb.json")
        s.start()
        rng = random.Random(seed)
        while not s.over:
            s.run_bots()
            if not s.over:
                assert s.try_move(rng.choice(s.observation().legal)) is None
        outcome = s.referee.outcome
        if outcome is not None and outcome.mattis == 0:
            break
    else:
        pytest.fail("the human lost none of 40 games")
    s.save()
    capsys.readouterr()
    assert main(["analyze", str(s.path), "--budget", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Gjennomgang av spillet for deg" in out and "Du er Mattis!" in out
    assert main(["analyze", str(s.path), "--budget", "1", "--quiet", "--lang", "en", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "Review of the game for you" in out and "You are Mattis!" in out and "You is" not in out
