"""Every warning and refusal a player can meet, said in Norwegian, is Norwegian all
through: no English reason inside it (a system error's English sentence, a settings
or statistics file's reason, a rule set that does not go together).  The texts are
made by the code paths that show them (a broken settings file read by ``mattis play``,
a settings screen that cannot save, a save that fails, a statistics file that does
not read, every OS error a write can meet), then searched for English words."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.core import preset
from mattis.core.catalogue import TEXT
from mattis.play.saving import NotARegularFile, os_error_words
from mattis.tui.app import MattisApp
from mattis.tui.i18n import t
from mattis.tui.screens import SettingsScreen
from mattis.tui.session import Session
from mattis.tui.settings import Settings, SettingsError, read_settings
from mattis.tui.stats import stats_lines

ENGLISH = frozenset("""
the not must cannot could error failed file permission denied unknown expected is of or read write only
space left device too large entry players level levels bots choose from your an with it that this has are
nested deep line column value whole number string object got such directory invalid disk regular
operation permitted exists resource busy input output no there would should when which while
""".split())
"""English words that are not also Norwegian words (so not "for", "to", "at", "a", "be")."""


def english_in(text: str) -> set[str]:
    words = {w.lower() for w in re.findall(r"[A-Za-zÆØÅæøå]+", text)}
    return words & ENGLISH


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_the_detector_finds_an_english_reason_inside_a_norwegian_line() -> None:
    assert english_in("Innstillingene kunne ikke leses (lang must be nb or en); standardvalgene brukes.")
    assert english_in("Spillet kunne ikke lagres (No space left on device).")
    assert not english_in(t("nb", "save.failed_quit", path="/x/game.json", why=t("nb", "oserr.nospace")))


def test_every_os_error_is_said_in_norwegian() -> None:
    errors: list[OSError] = [OSError(code, os.strerror(code)) for code in sorted(errno.errorcode)]
    errors += [NotARegularFile(Path("x")), IsADirectoryError(errno.EISDIR, "Is a directory"), OSError("no errno")]
    for e in errors:
        words = os_error_words(e, "nb")
        assert not english_in(words), (e, words)
        assert words != os_error_words(e, "en") or words.startswith("feil ")


BROKEN_SETTINGS: list[object] = [
    [], {"lang": "de"}, {"rules": "poker"}, {"overrides": [1]}, {"players": "three"}, {"bots": 3},
    {"delay": -1}, {"name": 7}, {"players": 9}, {"overrides": {"sequences": "1"}}, {"overrides": {"nonsense": "1"}},
    {"bots": "easy,easy,easy"}, {"bots": "grandmaster"}, {"rules": "hund", "players": 1},
]


@pytest.mark.parametrize("data", BROKEN_SETTINGS, ids=[json.dumps(d) for d in BROKEN_SETTINGS])
def test_a_broken_settings_file_is_explained_in_norwegian(tmp_path: Path, data: object,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config" / "mattis" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    settings, why = read_settings(path, "nb")
    assert settings == Settings() and why
    assert not english_in(why.replace(str(path), "")), why
    english = read_settings(path, "en")[1]
    assert english is not None and english != why  # both languages, not the English twice
    # as `mattis play` says it (the line on stderr), in Norwegian
    assert main(["play", "--lang", "nb", "--list"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(t("nb", "settings.broken", why="").split("(")[0])
    assert not english_in(err.replace(str(path), "")), err


@pytest.mark.parametrize("content", [b"\xff\xfe", b"{not json", b"[" * 100_000, None])
def test_a_settings_file_that_does_not_read_is_explained_in_norwegian(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "settings.json"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    why = read_settings(path, "nb")[1]
    assert why is not None
    assert not english_in(why.replace(str(path), "")), why


def test_settings_that_make_no_game_say_why_in_both_languages() -> None:
    for settings in (Settings(players=9), Settings(bots="easy,hard,hard"), Settings(bots="grandmaster"),
                     Settings(overrides={"sequences": "1"}), Settings(rules="hund", players=1)):
        with pytest.raises(SettingsError) as caught:
            settings.make_rules()
            settings.bot_levels()
        assert not english_in(caught.value.words("nb")), caught.value.words("nb")
        assert str(caught.value) == caught.value.words("en")


@pytest.mark.parametrize("content", [None, b"{not json", b'{"games": 3}', b'{"games": [1]}'])
def test_a_statistics_file_that_does_not_read_is_explained_in_norwegian(tmp_path: Path,
                                                                        content: bytes | None) -> None:
    path = tmp_path / "stats.json"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    lines = stats_lines("nb", path)
    assert len(lines) == 1 and lines != stats_lines("en", path)
    assert not english_in(lines[0].replace(str(path), "")), lines


def test_a_failed_save_is_said_in_norwegian(tmp_path: Path) -> None:
    target = tmp_path / "a-folder"
    target.mkdir()
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=3, save_path=target)
    session.start()
    why = session.try_save()
    assert why is not None
    assert not english_in(why.replace(str(target), "")), why


def test_the_settings_screen_refuses_and_fails_in_norwegian(tmp_path: Path) -> None:
    """A save that cannot be written (the settings file is a folder), and settings
    that make no game (9 players), each say why in Norwegian on the screen."""
    folder = tmp_path / "settings-folder"
    folder.mkdir()
    session = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=3,
                      save_path=tmp_path / "game.json")
    session.start()
    app = MattisApp(session, delay=0, settings_file=folder)
    messages: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for settings in (Settings(), Settings(players=9)):
                window = SettingsScreen(settings, "nb", folder)
                app.push_screen(window)
                await pilot.pause()
                await pilot.press("enter")
                assert app.screen is window  # refused: the window stays open, saying why
                messages.append(window.message)
                await pilot.press("escape")

    asyncio.run(scenario())
    assert messages[0].startswith(TEXT["tui.settings.cannot_save"][0].split("{")[0])
    assert messages[1].startswith(TEXT["tui.settings.bad"][0].split("{")[0])
    for message in messages:
        assert not english_in(message.replace(str(folder), "")), message


def test_a_failed_analysis_names_no_english_reason_in_norwegian() -> None:
    line = t("nb", "analyse.failed", kind="ReviewError", detail="there is no seat 5: the seats are 0 to 2")
    assert not english_in(line) and "ReviewError" in line
