"""The session under the terminal front ends: settings, take-backs, hints with reasons,
saving and resuming everything, several unfinished games, statistics, and the
``mattis play`` / ``mattis stats`` command lines around them."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.core import PHASE1, PHASE2, GameRecord, Move, State, load_record, preset
from mattis.play import Referee
from mattis.tui.session import Session, find_saved, read_saved, saved_games
from mattis.tui.settings import Settings, load_settings, read_settings, save_settings, settings_path
from mattis.tui.stats import GameResult, load_results, record_game, stats_lines, stats_path
from tiers import HUNG, scale


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings, saved games and statistics go to a temporary folder (also for subprocesses)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def new_session(tmp_path: Path, rules: str = "mattis", lang: str = "nb", seed: int = 3,
                save: Path | None = None, **kw: object) -> Session:
    s = Session(rules=preset(rules), players=3, levels=["medium"] * 3, lang=lang, seed=seed,  # type: ignore[arg-type]
                save_path=save if save is not None else tmp_path / "g.json", **kw)  # type: ignore[arg-type]
    s.start()
    return s


def to_human(s: Session) -> None:
    s.run_bots()
    assert s.over or s.human_to_act


def to_phase2_choice(s: Session) -> bool:
    """Play the human's first legal move until it is the human's turn in phase 2 with a
    choice to make; False if the game ends first."""
    to_human(s)
    while not s.over:
        obs = s.observation()
        if obs.phase is PHASE2 and len(obs.legal) >= 2:
            return True
        assert s.try_move(obs.legal[0]) is None
        to_human(s)
    return False


# ---------------------------------------------------------------- settings
def test_settings_round_trip_and_defaults(tmp_path: Path) -> None:
    assert settings_path() == tmp_path / "config" / "mattis" / "settings.json"
    assert load_settings() == Settings()  # no file: the defaults
    mine = Settings(lang="en", rules="skitgubbe", overrides={"sequences": "2"}, players=4, bots="easy,hard,expert",
                    delay=0.2, name="Kari")
    save_settings(mine)
    assert load_settings() == mine
    assert mine.make_rules().sequences == 2 and mine.bot_levels() == ["easy", "hard", "expert"]


@pytest.mark.parametrize("text", ["{not json", '{"lang": "de"}', '{"rules": "poker"}', '{"bots": "easy,easy,easy"}',
                                  '{"overrides": {"sequences": "1"}}', "[]"])
def test_a_broken_settings_file_gives_defaults_and_is_left_alone(text: str) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    settings, why = read_settings()
    assert settings == Settings() and why
    assert path.read_text(encoding="utf-8") == text


def test_mattis_play_takes_what_flags_leave_open_from_the_settings(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    save_settings(Settings(lang="en", rules="hund", players=4, bots="easy", name="Kari"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "mattis: hund, 4 players" in out and "Kari" in out
    game = saved_games()[0]
    assert game.record.rules.name == "hund" and game.levels == ["medium", "easy", "easy", "easy"]
    # A flag wins over the file, for that run only.
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--new", "--lang", "nb", "--rules", "mattis"]) == 0
    assert "mattis: mattis, 3 spillere" in capsys.readouterr().out
    assert load_settings().lang == "en"


# ---------------------------------------------------------------- take-backs
def test_take_back_returns_to_the_humans_previous_decision(tmp_path: Path) -> None:
    s = new_session(tmp_path)
    assert not s.can_take_back and s.take_back() is False and s.take_backs == 0
    to_human(s)
    before_obs = s.observation()
    before_record = s.referee.record().moves
    before_log = list(s.log)
    first, other = before_obs.legal[0], before_obs.legal[-1]
    assert s.try_move(first) is None
    to_human(s)
    assert s.can_take_back
    assert s.take_back() is True
    assert s.take_backs == 1
    assert s.observation() == before_obs  # exactly the position the human decided in
    assert s.referee.record().moves == before_record
    assert s.log[:-2] == before_log and s.log[-2] == "Du tar tilbake trekket."
    assert s.log[-1] == "Kortene du ikke har sett (bunken og de andres skjulte kort), er stokket på nytt."
    # The record keeps only the line played on.
    assert s.try_move(other) is None
    s.save()
    moves = load_record(str(tmp_path / "g.json")).moves
    assert moves[: len(before_record)] == before_record
    assert moves[len(before_record)] == f"0 {other}"


def test_take_backs_go_back_move_by_move_and_stop_at_the_first(tmp_path: Path) -> None:
    s = new_session(tmp_path, seed=11)
    positions = []
    for _ in range(4):
        to_human(s)
        positions.append(s.observation())
        assert s.try_move(s.observation().legal[0]) is None
    for expected in reversed(positions):
        assert s.take_back()
        assert s.observation() == expected
    assert not s.can_take_back and not s.take_back()
    assert s.take_backs == 4


def test_take_back_survives_save_and_resume(tmp_path: Path) -> None:
    s = new_session(tmp_path, seed=5)
    to_human(s)
    decided = s.observation()
    assert s.try_move(decided.legal[0]) is None
    to_human(s)
    s.save()
    saved = read_saved(tmp_path / "g.json")
    again = Session.from_saved(saved, lang="en")
    assert again.path == tmp_path / "g.json" and again.names[0] == "You" and again.levels == s.levels
    assert again.log[: len(s.log)] == s.log and again.log[-1] == "The game goes on where it stopped."
    assert again.take_back() and again.observation() == decided


def test_a_plain_game_takes_back_with_angre(tmp_path: Path) -> None:
    s = new_session(tmp_path, seed=8)
    from mattis.tui.plain import PlainGame

    out = io.StringIO()
    assert PlainGame(s, io.StringIO("1\nangre\nangre\nquit\n"), out).run() == 0
    text = out.getvalue()
    assert text.count("Du tar tilbake trekket.") == 1 and "Det er ikke noe trekk å ta tilbake." in text
    assert s.take_backs == 1


# ---------------------------------------------------------------- hints
@pytest.mark.parametrize("rules", ["mattis", *(pytest.param(r, marks=pytest.mark.slow)  # 13-24 s each: CI runs them
                                   for r in ("blodmattis", "skitgubbe"))])
def test_the_hint_says_why_and_names_a_legal_move(tmp_path: Path, rules: str) -> None:
    s = new_session(tmp_path, rules=rules, seed=21)
    seen = 0
    while not s.over and seen < scale(15, 40):
        to_human(s)
        if s.over:
            break
        move = s.hint()
        assert isinstance(move, Move) and move in s.observation().legal
        for lang in ("nb", "en"):
            text = s.hint_text(lang)
            assert text is not None and text.startswith("Hint: ")
            reason = text.split(". ", 1)[1]
            assert reason.endswith(".") and len(reason) > 10
            assert not any(code in text for code in ("AC", "KD", "QS", "JH", "TS"))
        assert s.try_move(move) is None
        seen += 1
    assert seen >= 5


def test_the_hint_shows_the_figures_of_the_evaluator_that_chose_its_move(tmp_path: Path) -> None:
    """In phase 2 the hint's move is the evaluator's best and its sentence shows that
    evaluator's figures (the move's chance ± two standard errors, the next best's),
    in both languages, the same when asked again."""
    import random

    from mattis.bots.evaluate import Budget, evaluate, shown_margin
    from mattis.lab.hint import PLAYOUTS
    from mattis.play.seeds import position_seed

    checked = 0
    for seed in range(3):
        s = new_session(tmp_path, seed=seed)
        if not to_phase2_choice(s):
            continue
        obs = s.observation()
        move = s.hint()
        assert move is not None
        ev = evaluate(obs, Budget(samples=PLAYOUTS), random.Random(position_seed(s.seed, "hint", obs)))
        assert ev.best.move == move
        mine = ev.of(move)
        pm = f" ± {max(1, round(100 * shown_margin(mine.se)))}" if mine.se > 0 else ""
        en, nb = s.hint_text("en"), s.hint_text("nb")
        assert en is not None and nb is not None
        assert f"{PLAYOUTS} playouts: a {round(100 * mine.chance)}%{pm} chance to get away" in en, en
        assert f"{PLAYOUTS} simuleringer: {round(100 * mine.chance)} %{pm} sjanse til å slippe unna" in nb, nb
        assert s.hint_text("en") == en
        checked += 1
    assert checked >= 2


_FIGURE = re.compile(r"(\d+)%")


def _phase2_hints(count: int, games: int) -> int:
    """Hints at phase 2 decisions of seeded games (three seats of ``easy``; every preset
    in turn): in each, the figure shown for the named move is never lower than the
    figure shown for the other move.  Returns how many hints were checked."""
    from mattis.bots.heuristic import heuristic_move
    from mattis.core import PRESETS
    from mattis.lab.hint import hint

    checked = 0
    names = sorted(PRESETS)
    for g in range(games):
        state = State.new(preset(names[g % len(names)]), 3, seed=3500 + g)
        while not state.is_over and checked < count:
            seat = state.to_act
            assert seat is not None
            obs = state.observation(seat)
            if obs.phase is PHASE2 and len(obs.legal) >= 2:
                h = hint(obs, "en", 7 * g + len(obs.history))
                assert h.move in obs.legal
                shown = [int(x) for x in _FIGURE.findall(h.text)]
                assert len(shown) == 2, h.text
                assert shown[0] >= shown[1], h.text
                checked += 1
            state.apply(heuristic_move(obs))
        if checked >= count:
            break
    return checked


def test_over_200_phase_2_hints_the_named_move_has_the_highest_figure_shown() -> None:
    """200 hints in the slow tier (CI); the fast tier checks the first 10 of them."""
    count = scale(10, 200)
    assert _phase2_hints(count, 2 * count) == count


def test_a_phase_1_hint_gives_a_reason_in_card_terms(tmp_path: Path) -> None:
    """A phase 1 hint names no figure (none is shown to predict there) but says, in card
    terms, what the move does: the card it plays appears in the reason, or it is a
    sjanse; in both languages."""
    from mattis.core import MoveKind
    from mattis.core.catalogue import TEXT
    from mattis.tui.render import card_label

    openings = {lang: [TEXT[k][i].split()[0] for k in TEXT if k.startswith("why.p1.")]
                for i, lang in enumerate(("nb", "en"))}
    checked = 0
    for seed in range(4):
        s = new_session(tmp_path, seed=seed)
        to_human(s)
        for _ in range(3):
            obs = s.observation()
            if s.over or obs.phase is not PHASE1:
                break
            move = s.hint()
            assert move is not None
            if len(obs.legal) >= 2:
                for lang in ("nb", "en"):
                    text = s.hint_text(lang)
                    assert text is not None and "%" not in text
                    reason = text.split(". ", 1)[1]
                    assert any(reason.startswith(o) for o in openings[lang]), reason
                    if move.kind is MoveKind.PLAY:
                        assert card_label(move.cards[0]) in reason, reason
                    else:
                        assert reason.startswith("Sjanse"), reason
                checked += 1
            assert s.try_move(move) is None
            to_human(s)
    assert checked >= 6


# ---------------------------------------------------------------- saving and resuming
def test_resume_restores_language_bots_names_and_log(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nquit\n"))
    assert main(["play", "--plain", "--seed", "4", "--lang", "en", "--bots", "expert,easy", "--name", "Kari"]) == 0
    first = capsys.readouterr().out
    game = saved_games()[0]
    assert game.lang == "en" and game.levels == ["medium", "expert", "easy"]
    assert game.names is not None and game.names[0] == "Kari"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--resume"]) == 0  # no flags: the game's own language and bots
    out = capsys.readouterr().out
    assert "The game goes on where it stopped." in out
    assert "Kari" in out and "Fase" not in out
    again = saved_games()[0]
    assert again.levels == ["medium", "expert", "easy"]
    logged = [line.removeprefix("> ") for line in first.splitlines() if "Kari plays" in line]
    assert logged and all(line in again.meta["log"] for line in logged)


def test_several_unfinished_games_are_kept_listed_and_found(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "2", "3"):
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
        assert main(["play", "--plain", "--new", "--seed", seed]) == 0
    games = saved_games()
    assert len(games) == 3 and len({g.path for g in games}) == 3
    decks = {tuple(g.record.deck or ()) for g in games}
    assert len(decks) == 3  # three different games, none overwritten
    assert find_saved("1") == games[0].path and find_saved("3") == games[2].path
    assert find_saved(games[1].name) == games[1].path and find_saved(str(games[1].path)) == games[1].path
    capsys.readouterr()
    assert main(["play", "--list"]) == 0
    listing = capsys.readouterr().out
    assert all(g.name in listing for g in games)
    assert main(["play", "--plain", "--resume", "9"]) == 2
    assert "choose a number from 1 to 3" in capsys.readouterr().err
    # Without --new, plain mode names the kept games instead of reading an answer from the moves.
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain"]) == 0
    assert "Uferdige spill: 3. Fortsett med: mattis play --resume 1" in capsys.readouterr().out


def test_an_old_plain_record_still_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = Referee.new(preset("mattis"), 3, seed=9)
    while ref.to_act != 0:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, ref.observation(seat).legal[0])
    path = tmp_path / "old.json"
    path.write_text(ref.record().dumps(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    assert main(["play", "--plain", "--resume", str(path)]) == 0
    resumed = load_record(str(path))
    assert resumed.moves[: ref.moves_played] == ref.record().moves
    assert len(resumed.moves) > ref.moves_played
    # The session's memory sits beside the record's fields; mattis replay still reads it.
    assert "session" in json.loads(path.read_text(encoding="utf-8"))
    assert main(["replay", str(path), "--quiet"]) == 0


# ---------------------------------------------------------------- statistics
def test_statistics_count_games_per_rules_and_level(tmp_path: Path) -> None:
    path = stats_path()
    assert path == tmp_path / "data" / "mattis" / "stats.json"
    assert stats_lines("en") == ["No games finished yet."]
    record_game(GameResult("mattis", False, 3, "medium", lost=True))
    record_game(GameResult("mattis", False, 3, "medium", lost=False, place=1))
    record_game(GameResult("skitgubbe", True, 3, "easy,expert", lost=True))
    lines = stats_lines("en")
    assert lines[0] == "Games played: 3. Lost: 2."
    assert "  Mattis: 2 played, 1 as Mattis" in lines
    assert "  Skitgubbe (with house rules): 1 played, 1 as the skitgubbe" in lines
    assert "  easy, expert: 1 played, 1 lost" in lines
    assert "  Mattis: 2 spilt, 1 som Mattis" in stats_lines("nb")


def test_a_finished_game_is_recorded_once(tmp_path: Path) -> None:
    s = new_session(tmp_path, seed=2, stats_path=stats_path())
    while not s.over:
        to_human(s)
        if not s.over:
            assert s.try_move(s.observation().legal[-1]) is None
    s.save()
    results = load_results()
    assert len(results) == 1
    outcome = s.referee.outcome
    assert outcome is not None and results[0].lost == (0 in outcome.losers)
    s.next_game()
    assert len(load_results()) == 1


def test_a_broken_statistics_file_is_set_aside_not_lost() -> None:
    path = stats_path()
    path.parent.mkdir(parents=True)
    path.write_text("{broken", encoding="utf-8")
    lines = stats_lines("en")
    assert len(lines) == 1 and "cannot be read (not JSON); it is left as it is" in lines[0]
    assert path.read_text(encoding="utf-8") == "{broken"
    assert record_game(GameResult("hund", False, 4, "hard", lost=False)) == path.with_name("stats.json.broken")
    assert path.with_name("stats.json.broken").read_text(encoding="utf-8") == "{broken"
    assert len(load_results()) == 1


def test_mattis_stats_prints_the_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    record_game(GameResult("blodmattis", False, 3, "hard", lost=True, blodmattis=True))
    assert main(["stats", "--lang", "nb"]) == 0
    out = capsys.readouterr().out
    assert "Ferdige spill: 1. Tapt: 1." in out and "Av dem som Blodmattis: 1." in out


# ---------------------------------------------------------------- command-line defects
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("mattis 0.")


def test_no_terminal_falls_back_to_plain_mode(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mattis.cli.main", "play", "--seed", "3"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 0
    assert proc.stderr.count("\n") == 1 and "--plain" in proc.stderr
    assert "Spillet er lagret i" in proc.stdout
    assert len(saved_games()) == 1


def test_a_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in [m for m in sys.modules if m == "mattis.tui.app" or m.startswith("textual")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "textual", None)  # import textual now raises ImportError
    monkeypatch.setattr("mattis.cli.play._interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--new"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "pip install '.[tui]'" in err and "internal error" not in err and "mattis[" not in err


def test_the_tournaments_interrupt_advice_is_a_working_command() -> None:
    import argparse

    from mattis.cli.tournament import add_arguments, resume_command

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(["--bots", "random,random,random", "--deals", "4", "--out", "run dir", "--set",
                         "sequences=2"])
    command = resume_command(args)
    assert command.startswith("mattis tournament ") and command.endswith("--resume")
    import shlex

    again = p.parse_args(shlex.split(command)[2:])
    assert again.resume and again.out == "run dir" and again.bots == args.bots and again.deals == 4
    assert again.overrides == ["sequences=2"]


def test_records_written_by_the_session_are_game_records(tmp_path: Path) -> None:
    s = new_session(tmp_path)
    to_human(s)
    s.save()
    text = (tmp_path / "g.json").read_text(encoding="utf-8")
    record = GameRecord.loads(text)
    assert Referee.from_record(record).observation(0) == s.observation()


def test_plain_mode_shows_house_rules_in_words(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--plain", "--set", "sequences=3", "--set", "ties=stoting"]) == 0
    out = capsys.readouterr().out
    assert "Husregler: Like høye kort: støting; Serie/rad (minste lengde): 3" in out
    assert "sequences" not in out and "stoting" not in out


def test_plain_mode_writes_cards_as_on_the_cards(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import re

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nstatus\nlast\nquit\n"))
    assert main(["play", "--plain", "--seed", "6", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Your hand: (?:(?:10|[2-9JQKA])[♣♦♥♠] ?)+", out)
    assert not re.search(r"(?<![\w♣♦♥♠])(?:10|[2-9TJQKA])[CDHS](?!\w)", out)


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_a_krig_with_you_names_you_in_the_object_case(tmp_path: Path, lang: str) -> None:
    """"krig mellom Cato og deg", never "og Du": the table line of a real krig with the human."""
    from mattis.tui.render import table_lines

    for seed in range(200):
        s = new_session(tmp_path, lang=lang, seed=seed)
        for _ in range(40):
            to_human(s)
            if s.over:
                break
            obs = s.observation()
            if 0 in obs.fighters:
                text = " ".join(table_lines(obs, s.names, lang))  # type: ignore[arg-type]
                assert (" og deg!" in text or "mellom deg og" in text) if lang == "nb" else \
                    (" and you!" in text or "between you and" in text), text
                assert "Du!" not in text and "You!" not in text and "og Du" not in text
                return
            assert s.try_move(obs.legal[0]) is None
    pytest.fail("no seeded game with a krig involving the human")


def test_the_plain_end_says_how_many_moves_were_taken_back(tmp_path: Path) -> None:
    from mattis.tui.plain import PlainGame

    s = new_session(tmp_path, seed=13, lang="en")
    answers = iter(["1", "back"] + ["1"] * 600)
    out = io.StringIO()

    class Feed(io.StringIO):
        def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
            return next(answers, "") + "\n" if not s.over else "no\n"

    assert PlainGame(s, Feed(), out).run() == 0
    text = out.getvalue()
    assert s.over and "Moves you took back in this game: 1." in text
    assert text.index("Game over") < text.index("Moves you took back")


def test_finished_games_are_pruned_unfinished_ones_never(tmp_path: Path) -> None:
    from mattis.tui.session import games_folder, prune_finished

    folder = games_folder()
    unfinished = []
    for i in range(5):
        s = new_session(tmp_path, seed=i, save=folder / f"u{i}.json")
        to_human(s)
        s.save()
        unfinished.append(s.path)
    for i in range(4):
        s = new_session(tmp_path, seed=100 + i, save=folder / f"f{i}.json")
        while not s.over:
            to_human(s)
            if not s.over:
                assert s.try_move(s.observation().legal[-1]) is None
        s.save()
    (folder / "junk.json").write_text("{not a game", encoding="utf-8")
    prune_finished(keep=1)
    left = sorted(p.name for p in folder.glob("*.json"))
    assert all(p.name in left for p in unfinished) and "junk.json" in left
    assert len([name for name in left if name.startswith("f")]) == 1


def test_the_face_down_trump_with_you_says_hos_deg(tmp_path: Path) -> None:
    from mattis.tui.render import trump_text

    for seed in range(300):
        s = new_session(tmp_path, seed=seed)
        while not s.over:
            to_human(s)
            if s.over:
                break
            obs = s.observation()
            if obs.trump is None and obs.trump_holder == 0:
                assert trump_text(obs, s.names, "nb").endswith("hos deg")
                assert trump_text(obs, seat_names_en(), "en").endswith("with you")
                return
            if obs.trump is not None:
                break
            assert s.try_move(obs.legal[0]) is None
    pytest.fail("no seeded game where the human holds the face-down trump")


def seat_names_en() -> list[str]:
    from mattis.core import seat_names

    return seat_names(3, 0, "en")


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_rules_window_has_only_the_words_of_these_rules(lang: str) -> None:
    from mattis.tui.render import rules_lines

    mattis = "\n".join(rules_lines(preset("mattis"), lang))  # type: ignore[arg-type]
    skitgubbe = "\n".join(rules_lines(preset("skitgubbe"), lang))  # type: ignore[arg-type]
    assert "stunsa" not in mattis and "støting" not in mattis and "krig" in mattis
    assert "stunsa" in skitgubbe and "krig" not in skitgubbe
    assert "Mattis" not in skitgubbe.split("\n", 2)[2]  # the loser is the skitgubbe there
    assert "phase2_cap" not in mattis and "2000" not in mattis


def _headless_quit(monkeypatch: pytest.MonkeyPatch, keys: tuple[str, ...] = ("q",)) -> None:
    """``mattis play`` as at a terminal of 80x24: the table runs headless and ``keys`` are pressed."""
    from mattis.tui.app import MattisApp

    monkeypatch.setattr("mattis.cli.play._interactive", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    real_run = MattisApp.run

    async def press(pilot: object) -> None:
        for key in keys:
            await pilot.press(key)  # type: ignore[attr-defined]

    def run(self: MattisApp, **_: object) -> object:
        return real_run(self, headless=True, size=(80, 24), auto_pilot=press)

    monkeypatch.setattr(MattisApp, "run", run)


def test_after_quitting_the_hint_names_the_game_by_number_and_no_word_is_broken(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """At 80 columns: "Fortsett med: mattis play --resume 1" on a line of its own (the
    game by its number, not its absolute path), every line within 80 columns or one word;
    the offer to continue ("Fortsette det?") is wrapped between words too."""
    _headless_quit(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--new", "--seed", "3", "--lang", "nb"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[-1] == "Fortsett med: mattis play --resume 1", out
    path = str(saved_games()[0].path)
    assert path + "." in lines  # the whole path, unbroken, on its own line when it does not fit beside the words
    assert all(len(line) <= 80 or " " not in line for line in lines), out
    # the next time: the offer to continue, wrapped between words
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "nei"

    monkeypatch.setattr("builtins.input", answer)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    _headless_quit(monkeypatch)
    assert main(["play", "--seed", "4", "--lang", "nb"]) == 0
    assert prompts and "Fortsette det? (ja/nei)" in prompts[0].replace("\n", " ")
    assert all(len(line) <= 80 for line in prompts[0].splitlines()), prompts
    assert "Fortsette det?" in prompts[0] or "Fortsette\ndet?" in prompts[0]
    assert not any(line.endswith("Fortset") for line in prompts[0].splitlines())
