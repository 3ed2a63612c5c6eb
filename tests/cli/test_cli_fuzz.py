"""Every file input fuzzed: records, saved games, positions, settings, statistics and
the command line, through ``mattis replay``, ``analyze``, ``play --resume``, ``stats``
and the loaders.

Each example must give exit status 0, or 2 with one line on stderr ("mattis CMD:
..."), never a traceback nor an "internal error" (exit 1); and no file may be lost:
the fuzzed file itself, a saved game and a statistics file beside it are compared
before and after (a resumed game may grow: the moves it had stay its first moves).

Hypothesis runs derandomized, without a database, with bounded example counts and no
deadline (``pytest --slow`` runs more examples, :mod:`tiers`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mattis.cli.main import main
from mattis.core import GameRecord, preset
from mattis.core.notation import position_text
from mattis.play import Referee
from mattis.tui.session import Session
from mattis.tui.settings import read_settings
from mattis.tui.stats import GameResult, read_results, record_game
from tiers import scale

SETTINGS = dict(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])


@functools.cache
def saved_game_text() -> str:
    """A real saved game of ``mattis play``: a record with a ``session`` object, a few
    moves in, with a take-back (so that its take-back marks are there to be fuzzed)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        s = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="en", seed=12,
                    save_path=Path(folder) / "g.json")
        s.start()
        for _ in range(3):
            s.run_bots()
            assert s.try_move(s.observation().legal[0]) is None
        assert s.take_back()
        s.run_bots()
        s.save()
        return (Path(folder) / "g.json").read_text(encoding="utf-8")


@functools.cache
def position_record_text() -> str:
    """A record that starts from a position in the notation (phase 2, a few moves in)."""
    referee = Referee.new(preset("mattis"), 3, seed=5)
    while referee.observation(0).phase == 1:
        seat = referee.to_act
        assert seat is not None
        referee.apply(seat, referee.observation(seat).legal[0])
    text = position_text(referee.record().replay())
    return json.dumps({"rules": "mattis", "players": 3, "position": text, "moves": []})


# ---------------------------------------------------------------- mutations
json_leaf = (st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70) | st.floats(allow_nan=True)
             | st.text(max_size=12) | st.sampled_from(["4C", "AS", "10H", "0 play 4C", "1 chance", "mattis", "nb"]))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into nested JSON data."""
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:8]):
            yield from paths(v, (*prefix, i))


def replace_at(data: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


plausible = st.sampled_from([["easy", "medium", "random"], ["x", "y", "z"], ["Du", "Bjørn", "Cato"], [-1, 0, 10 ** 30],
                             ["a\nb", "\x1b[2J", ""], [[0, 0]], [[1, 3], [1, 2]], [[0, list(range(52))]],
                             [[0, list(range(51, -1, -1))]], 10 ** 40, -1, "en", "de", True])


@st.composite
def fuzzed_json(draw: st.DrawFn, base: str, inside: str | None = None) -> bytes:
    """``base`` with one to three values replaced or deleted (under the key ``inside``
    only, when given), then perhaps mangled as text."""
    data = json.loads(base)
    for _ in range(draw(st.integers(1, 3))):
        where = [p for p in paths(data) if inside is None or p[:1] == (inside,)] or [()]
        path = draw(st.sampled_from(where))
        delete = bool(path) and draw(st.booleans())
        data = replace_at(data, path, copy.deepcopy(draw(json_value | plausible)), delete)
    text = json.dumps(data, ensure_ascii=False).encode()
    how = draw(st.sampled_from(["json", "json", "cut", "bytes", "insert"] if inside is None else ["json"]))
    if how == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif how == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(max_size=8)) + text[at + 1:]
    elif how == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=6)).encode() + text[at:]
    return text


@st.composite
def fuzzed_position(draw: st.DrawFn) -> bytes:
    """A position record whose notation text is mangled."""
    data = json.loads(position_record_text())
    text: str = data["position"]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 4))
        text = text[:at] + draw(st.text(alphabet="0123456789=;,/ |-xACDHSTJQK~\n", max_size=5)) + text[at + cut:]
    data["position"] = text
    if draw(st.booleans()):
        data["moves"] = draw(st.lists(st.sampled_from(["0 play 4C", "1 pickup", "2 play 5H 6H", "0 chance", "x"]),
                                      max_size=3))
    return json.dumps(data).encode()


# ---------------------------------------------------------------- running the command line
class Home:
    """A private home with a saved game and statistics that must survive every example."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.games = root / "data" / "mattis" / "games"
        self.games.mkdir(parents=True)
        self.keep = self.games / "keep.json"
        self.keep.write_text(saved_game_text(), encoding="utf-8")
        self.stats = root / "data" / "mattis" / "stats.json"
        record_game(GameResult("mattis", False, 3, "medium", lost=True), self.stats)
        self.before = {p: p.read_bytes() for p in (self.keep, self.stats)}
        self.file = root / "fuzzed.json"

    def check_kept(self) -> None:
        """The saved game and the statistics are there; a command that resumed the game
        (``--resume keep``) may only have added moves to it."""
        now = self.keep.read_bytes()
        if now != self.before[self.keep]:
            old = GameRecord.loads(self.before[self.keep].decode()).moves
            assert GameRecord.loads(now.decode()).moves[:len(old)] == old, "the saved game lost moves"
        assert self.stats.read_bytes() == self.before[self.stats], "the statistics changed"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return Home(tmp_path)


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse: a usage error
                code = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def check_result(command: str, code: int, err: str) -> None:
    event(f"{command}: exit {code}")
    assert "Traceback" not in err and "internal error" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert lines and lines[-1].startswith(f"mattis {command}") or lines[-1].startswith("mattis: error"), err
        if not lines[0].startswith("usage:"):  # argparse's usage lines come before its one-line error
            assert len(lines) == 1, err


def check_file(home: Home, data: bytes, code: int, grows: bool = False) -> None:
    """The fuzzed file is unchanged; a resumed game (``grows``) may only have gained moves."""
    home.check_kept()
    now = home.file.read_bytes()
    if now == data:
        return
    assert grows and code == 0, "the fuzzed file changed"
    old = GameRecord.loads(data.decode("utf-8"))
    new = GameRecord.loads(now.decode("utf-8"))
    assert new.moves[:len(old.moves)] == old.moves or home.file.with_name("fuzzed.1.json").read_bytes() == data


# ---------------------------------------------------------------- the fuzz tests
@settings(max_examples=scale(60, 200), **SETTINGS)  # type: ignore[arg-type]
@given(data=st.one_of(fuzzed_json(saved_game_text()), fuzzed_position()))
def test_replay_reads_any_record_file_with_one_line(home: Home, data: bytes) -> None:
    home.file.write_bytes(data)
    for extra in (["--quiet"], ["--json"]):
        code, _out, err = run(["replay", str(home.file), *extra])
        check_result("replay", code, err)
        check_file(home, data, code)


@settings(max_examples=scale(25, 80), **SETTINGS)  # type: ignore[arg-type]
@given(data=st.one_of(fuzzed_json(saved_game_text()), fuzzed_position()))
def test_analyze_reads_any_record_file_with_one_line(home: Home, data: bytes) -> None:
    home.file.write_bytes(data)
    code, _out, err = run(["analyze", str(home.file), "--budget", "1", "--quiet"])
    check_result("analyze", code, err)
    check_file(home, data, code)


@settings(max_examples=scale(50, 150), **SETTINGS)  # type: ignore[arg-type]
@given(data=st.one_of(fuzzed_json(saved_game_text()), fuzzed_json(saved_game_text(), "session"), fuzzed_position()))
def test_play_resume_reads_any_saved_game_with_one_line_and_loses_nothing(home: Home, data: bytes) -> None:
    home.file.write_bytes(data)
    for leftover in home.root.glob("fuzzed.*.json"):
        leftover.unlink()
    code, _out, err = run(["play", "--plain", "--instant", "--resume", str(home.file)])
    check_result("play", code, err)
    check_file(home, data, code, grows=True)


stats_base = json.dumps({"version": 1, "games": [
    {"rules": "mattis", "house_rules": False, "players": 3, "bots": "medium", "lost": True, "blodmattis": False,
     "place": None, "take_backs": 0, "when": 1.0},
    {"rules": "skitgubbe", "house_rules": True, "players": 4, "bots": "easy,hard,expert", "lost": False,
     "blodmattis": False, "place": 2, "take_backs": 3, "when": 2.0}]})


@settings(max_examples=scale(60, 200), **SETTINGS)  # type: ignore[arg-type]
@given(data=fuzzed_json(stats_base))
def test_statistics_files_read_with_one_line_and_are_never_lost(home: Home, data: bytes) -> None:
    home.file.write_bytes(data)
    for lang in ("nb", "en"):
        code, out, err = run(["stats", "--file", str(home.file), "--lang", lang])
        check_result("stats", code, err)
        assert code == 2 or out.strip()
        check_file(home, data, code)
    # recording a game on it keeps what was there: extended, or set aside whole
    for old in home.root.glob("fuzzed.json.broken*"):
        old.unlink()
    aside = record_game(GameResult("hund", False, 4, "hard", lost=False), home.file)
    if aside is not None:
        assert aside.read_bytes() == data
    else:  # it read whole: every game in it is still there, and the new one after them
        home.file.write_bytes(data)
        before = read_results(home.file)
        record_game(GameResult("hund", False, 4, "hard", lost=False), home.file)
        after = read_results(home.file)
        assert after[:len(before)] == before and len(after) == len(before) + 1


settings_base = json.dumps({"lang": "en", "rules": "hund", "overrides": {"sequences": "3"}, "players": 4,
                            "bots": "easy,medium,hard", "delay": 0.4, "name": "Kari"})


@settings(max_examples=scale(60, 200), **SETTINGS)  # type: ignore[arg-type]
@given(data=fuzzed_json(settings_base))
def test_settings_files_read_with_at_most_one_line_and_are_left_alone(home: Home, data: bytes) -> None:
    path = home.root / "config" / "mattis" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    loaded, why = read_settings(path)
    assert why is None or "\n" not in why.strip()
    loaded.make_rules()  # what it gives is always playable
    loaded.bot_levels()
    code, _out, err = run(["play", "--list"])
    check_result("play", code, err)
    assert code == 0 and len(err.strip().splitlines()) <= 1
    code, _out, err = run(["stats"])
    check_result("stats", code, err)
    assert path.read_bytes() == data
    home.check_kept()


FLAGS = ["--json", "--quiet", "--upto", "--lang", "--seat", "--budget", "--seed", "--chart", "--file", "--rules",
         "--set", "--players", "--bots", "--dealer", "--save", "--force", "--list", "--resume", "--new", "--name",
         "--delay", "-h", "--version"]
WORDS = ["nb", "en", "xx", "0", "1", "-1", "3", "7", "99999999999999999999", "mattis", "hund", "skitgubbe",
         "blodmattis", "random", "sequences=3", "tricks=all", "=", "x=y", "/dev/full", "/dev/null", ".", "",
         "fuzzed.json", "keep", "1e9", "nan", "Kari", "æøå", "--", "-"]


@settings(max_examples=scale(80, 250), **SETTINGS)  # type: ignore[arg-type]
@given(command=st.sampled_from(["replay", "analyze", "stats", "selfplay", "play"]),
       args=st.lists(st.sampled_from(FLAGS) | st.sampled_from(WORDS) | st.text(max_size=8), max_size=6))
def test_any_command_line_gives_one_line_and_exit_2(home: Home, command: str, args: list[str]) -> None:
    home.file.write_text(saved_game_text(), encoding="utf-8")
    before = home.file.read_bytes()
    argv = [command, *args]
    if command == "play":
        argv += ["--plain", "--instant"]
    if command == "analyze":
        argv += ["--budget", "1", "--quiet"]
    if "--save" in args or "--chart" in args:
        return  # writing files is tested on its own (test_tui_files); here nothing may be written
    code, _out, err = run(argv)
    check_result(command, code, err)
    home.check_kept()
    if command != "play":
        assert home.file.read_bytes() == before


def special_file(kind: str, folder: Path) -> str:
    if kind == "device":
        return "/dev/zero"  # endless: never to be read
    path = folder / f"{kind}.json"
    if kind == "pipe":
        os.mkfifo(path)  # nobody writes: reading would wait for ever
    elif kind == "deep":
        path.write_text("[" * 100_000, encoding="utf-8")
    elif kind == "huge":
        with open(path, "wb") as f:
            f.truncate(100 * 1024 * 1024)  # sparse: no disk used
    elif kind == "folder":
        path.mkdir()
    return str(path)


@pytest.mark.parametrize("kind", ["device", "pipe", "deep", "huge", "folder"])
@pytest.mark.parametrize("command", [["replay"], ["analyze", "--quiet"], ["play", "--plain", "--resume"],
                                     ["stats", "--file"]])
def test_devices_pipes_and_monsters_give_one_line(home: Home, kind: str, command: list[str]) -> None:
    path = special_file(kind, home.root)
    argv = [*command, path] if command[0] != "analyze" else ["analyze", path, "--quiet"]
    code, _out, err = run(argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "internal error" not in err, err
    home.check_kept()


# ---------------------------------------------------------------- every number and list, bounded
DEMO = "src/mattis/examples/demo-mattis.json"
BAD_ARGUMENTS: list[tuple[list[str], str]] = [
    (["tournament", "--bots", "random,random,random", "--deals", "100000000"], "--deals"),
    (["tournament", "--bots", "random,random,random", "--deals", "0"], "--deals"),
    (["tournament", "--bots", "random,random,random", "--deals", "4", "--workers", "100000"], "--workers"),
    (["tournament", "--bots", "random,random,", "--deals", "4"], "--bots"),
    (["tournament", "--bots", "random,random,random", "--deals", "4", "--seed", "abc"], "--seed"),
    (["tournament", "--bots", "random,random,random", "--deals", "4", "--players", "99999999999"], "--players"),
    (["analyze", DEMO, "--budget", "9999999999999999999999"], "--budget"),
    (["analyze", DEMO, "--budget", "0"], "--budget"),
    (["analyze", DEMO, "--decision", "-1"], "--decision"),
    (["analyze", DEMO, "--seed", "abc"], "--seed"),
    (["analyze", DEMO, "--seed", str(2 ** 80)], "--seed"),
    (["play", "--plain", "--delay", "nan"], "--delay"),
    (["play", "--plain", "--delay", "inf"], "--delay"),
    (["play", "--plain", "--delay", "-1"], "--delay"),
    (["play", "--plain", "--delay", "1e9"], "--delay"),
    (["play", "--plain", "--bots", "easy,"], "--bots"),
    (["play", "--plain", "--bots", "easy,,hard"], "--bots"),
    (["play", "--plain", "--bots", ","], "--bots"),
    (["play", "--plain", "--seed", "abc"], "--seed"),
    (["play", "--plain", "--players", "1e3"], "--players"),
    (["replay", DEMO, "--upto", "99999"], "--upto"),
    (["replay", DEMO, "--upto", "-1"], "--upto"),
    (["replay", DEMO, "--upto", "99999999999"], "--upto"),
    (["selfplay", "--seed", "x"], "--seed"),
    (["selfplay", "--bots", "random,"], "--bots"),
    (["selfplay", "--dealer", "99"], "--dealer"),
    (["selfplay", "--players", "-3"], "--players"),
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "--seconds", "1e12"], "--seconds"),
    (["bench", "--seed", "1.5"], "--seed"),
    (["bench", "--players", "0"], "--players"),
    (["lab", "seats", "--games", "100000000"], "--games"),
    (["lab", "seats", "--workers", "0"], "--workers"),
    (["lab", "seats", "--players", "3,"], "--players"),
    (["lab", "seats", "--players", "3,999"], "--players"),
    (["lab", "seats", "--bots", "heuristic,"], "--bots"),
    (["lab", "seats", "--rules", ",mattis"], "--rules"),
    (["lab", "seats", "--seed", "abc"], "--seed"),
    (["serve", "--port", "70000"], "--port"),
    (["serve", "--workers", "0"], "--workers"),
    (["serve", "--bot-processes", "-1"], "--bot-processes"),
    (["serve", "--bot-delay", "nan"], "--bot-delay"),
    (["serve", "--max-connections", "1"], "--max-connections"),
    (["serve", "--keep-days", "inf"], "--keep-days"),
    (["serve", "--limit", "max_tables=inf"], "--limit"),
]


@pytest.mark.parametrize(("argv", "flag"), BAD_ARGUMENTS, ids=[" ".join(a[:1] + a[-2:]) for a, _ in BAD_ARGUMENTS])
def test_every_number_and_list_argument_is_bounded_with_one_line(home: Home, argv: list[str], flag: str) -> None:
    """A number out of its bound, nan, a seed that is not a number, a list with an empty
    item: one line naming the argument (and its bound), exit 2, before any work."""
    code, out, err = run(argv)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mattis {argv[0]}"), err
    assert flag in lines[0] and "Traceback" not in err and "internal error" not in err, err
    assert not out.strip(), out  # nothing started
    home.check_kept()


def test_the_bounds_still_let_the_usual_arguments_through(home: Home) -> None:
    code, out, err = run(["replay", DEMO, "--upto", "3", "--quiet"])
    assert code == 0 and "phase:" in out, err
    code, out, err = run(["play", "--plain", "--instant", "--new", "--seed", "-7", "--delay", "0.5", "--bots",
                          " easy , hard "], stdin="quit\n")
    assert code == 0, err
