"""``mattis play --plain`` and the command line: piped games, bad input, saving and resuming."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.core import GameRecord, card_code, describe_move, load_record, preset, seat_names
from mattis.play import Referee, first_dealer
from mattis.tui.i18n import t
from mattis.tui.plain import PlainGame
from mattis.tui.session import Session, fix_you
from tiers import HUNG


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings, saved games and statistics go to a temporary folder (also for subprocesses)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_piped_game_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "piped.json"
    answers = "help\nXX\nplay 2Z\n99\n" + "1\n" * 400 + "no\n"
    proc = subprocess.run(
        [sys.executable, "-m", "mattis.cli.main", "play", "--plain", "--instant", "--seed", "7", "--lang", "en",
         "--save", str(save)],
        input=answers, capture_output=True, text=True, timeout=HUNG,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Commands: hint, back (take back your move), last (last trick), rules, learn (how to play)" in out
    # The answers left over after the game end it: "Play again?" is asked a few times, not hundreds.
    assert 1 <= out.count("Play again? (yes/no") <= 3
    assert out.count('Did not understand "XX"') == 1
    assert 'Did not understand "play 2Z"' in out
    assert "Choose a number from 1 to" in out
    truth = Referee.from_record(load_record(str(save))).outcome
    assert truth is not None
    names = seat_names(3, 0, "en")
    assert truth.mattis is not None
    assert fix_you(f"{names[truth.mattis]} is Mattis!", "You", "en") in out
    order = out[out.index("Finishing order:"):]
    for i, s in enumerate(truth.finished, start=1):
        assert f"  {i}. {names[s]}\n" in order
    assert proc.stderr == ""


class Scripted(io.StringIO):
    """An input stream that answers the prompts through a function of the session."""

    def __init__(self, session: Session, answer: Callable[[Session, int], str | None]) -> None:
        super().__init__()
        self.session = session
        self.answer = answer
        self.asked = 0

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # as typeshed's own StringIO
        self.asked += 1
        line = self.answer(self.session, self.asked)
        return "" if line is None else line + "\n"


def new_session(tmp_path: Path, lang: str = "nb", seed: int = 12, **overrides: object) -> Session:
    s = Session(rules=preset("mattis", **overrides), players=3, levels=["medium"] * 3, lang=lang,  # type: ignore[arg-type]
                seed=seed, save_path=tmp_path / "g.json")
    s.start()
    return s


def test_illegal_move_is_explained_and_the_game_goes_on(tmp_path: Path) -> None:
    session = new_session(tmp_path, lang="nb")
    records: list[str] = []

    def answer(s: Session, asked: int) -> str | None:
        obs = s.observation()
        if asked == 1:
            records.append(s.record_text())
            missing = next(c for c in range(52) if c not in obs.hand)
            return card_code(missing)
        if asked == 2:
            records.append(s.record_text())
            return "ta opp"
        if asked == 3:
            records.append(s.record_text())
            return "1"
        return None

    out = io.StringIO()
    code = PlainGame(session, Scripted(session, answer), out).run()
    text = out.getvalue()
    assert code == 0
    assert records[0] == records[1] == records[2]  # the illegal answers changed nothing
    assert "Ikke lov: du har ikke " in text
    assert "Ikke lov: det er ingenting å ta opp i fase 1." in text
    assert "Du legger " in text  # the third answer was played
    saved = load_record(str(tmp_path / "g.json"))
    assert len(saved.moves) > len(GameRecord.loads(records[0]).moves)
    assert "Fortsett med: mattis play --resume" in text


def test_quit_saves_and_resume_continues_to_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\nquit\n"))
    assert main(["play", "--plain", "--seed", "5", "--lang", "en", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert f"Continue with: mattis play --resume {save}" in out
    first = load_record(str(save))
    assert len(first.moves) >= 3 and not Referee.from_record(first).is_over

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--plain", "--lang", "en", "--resume", str(save)]) == 0
    out = capsys.readouterr().out
    final = load_record(str(save))  # --resume keeps saving to the same file
    assert final.moves[: len(first.moves)] == first.moves
    assert Referee.from_record(final).is_over
    assert "Game over" in out

    # A finished game cannot be resumed: one line, exit 2.
    assert main(["play", "--plain", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already over" in err


@pytest.mark.parametrize("content", [None, "{not json", '{"players": 3, "deck": ["AS"]}', "\xff\xfe"])
def test_bad_resume_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 content: str | None) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content.encode("latin-1"))
    assert main(["play", "--plain", "--resume", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mattis play: cannot resume ") and captured.err.count("\n") == 1
    if content is not None:
        assert path.read_bytes() == content.encode("latin-1")  # a bad file is never overwritten


@pytest.mark.parametrize("argv, words", [
    (["--bots", "easy,hard,expert"], "3 levels but there are 2 bots"),
    (["--bots", "grandmaster"], "unknown bot"),
    (["--set", "sequences=1"], "sequences"),
    (["--set", "nonsense"], "option=value"),
    (["--players", "9"], "players"),
    (["--rules", "hund", "--resume", "x.json"], "leave out --rules"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             argv: list[str], words: str) -> None:
    assert main(["play", "--plain", "--save", str(tmp_path / "g.json"), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "g.json").exists()


def test_new_game_keeps_an_unfinished_saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    assert main(["play", "--plain", "--seed", "1", "--save", str(save)]) == 0
    unfinished = save.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--plain", "--seed", "2", "--save", str(save)]) == 0
    # The unfinished game is kept beside the new one, and the player is told where.
    assert (tmp_path / "g.1.json").read_text(encoding="utf-8") == unfinished
    assert f"uferdig spill ble tatt vare på i {tmp_path / 'g.1.json'}" in capsys.readouterr().out
    assert GameRecord.loads(save.read_text(encoding="utf-8")).deck != GameRecord.loads(unfinished).deck
    # Resuming the kept game into the usual file keeps the new unfinished one in turn.
    newer = save.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--plain", "--resume", str(tmp_path / "g.1.json"), "--save", str(save)]) == 0
    assert (tmp_path / "g.1.json").read_text(encoding="utf-8") == newer
    assert (tmp_path / "g.2.json").read_text(encoding="utf-8") == unfinished
    assert GameRecord.loads(save.read_text(encoding="utf-8")).moves == GameRecord.loads(unfinished).moves


def test_same_seed_same_game(tmp_path: Path) -> None:
    """--seed makes the deal and the bots reproducible."""
    texts = []
    for run in range(2):
        s = Session(rules=preset("hund"), players=4, levels=["medium"] * 4, lang="en", seed="x",
                    save_path=tmp_path / f"{run}.json")
        s.start()
        while not s.over:
            s.run_bots()
            if s.human_to_act:
                assert s.try_move(s.observation().legal[-1]) is None
        texts.append(s.record_text())
    assert texts[0] == texts[1]


def play_out(s: Session, save: bool = False) -> None:
    """The human plays its last legal move each turn until the game is over."""
    while not s.over:
        s.run_bots()
        if s.human_to_act:
            assert s.try_move(s.observation().legal[-1]) is None
            if save:
                s.save()


@pytest.mark.parametrize("rules", ["mattis", "skitgubbe"])
def test_log_tells_every_move_and_the_end(tmp_path: Path, rules: str) -> None:
    s = Session(rules=preset(rules), players=3, levels=["easy"] * 3, lang="en", seed=rules,
                save_path=tmp_path / "g.json")
    s.start()
    play_out(s)
    obs = s.observation()
    outcome = obs.outcome
    assert outcome is not None
    you = s.names[0]
    # every move is told, in order, in the words of describe_move
    lines = iter(s.log)
    for seat, move, shown in obs.history:
        said = fix_you(describe_move(s.names[seat], move, shown, "en"), you, "en")
        assert any(line == said for line in lines), said
    if obs.trump is not None and any("Phase 2 begins" in line for line in s.log):
        assert s.log.count(f"Phase 2 begins. Trump is {t('en', f'suit.{obs.trump}')}.") == 1
    for seat in outcome.blodmattis:
        assert fix_you(t("en", "log.blodmattis", name=s.names[seat]), you, "en") in s.log
    if not outcome.forced:
        for place, seat in enumerate(outcome.finished, start=1):
            assert fix_you(t("en", "log.out", name=s.names[seat], place=place), you, "en") in s.log
    if outcome.mattis is not None:
        word = "the skitgubbe" if rules == "skitgubbe" else "Mattis"  # the variant's word for the loser
        assert s.log[-1] == fix_you(f"{s.names[outcome.mattis]} is {word}!", you, "en")
    assert s.tally == [int(seat in outcome.losers) for seat in range(3)]
    # the next game: the loser deals, the tally is not counted twice
    loser = Referee.from_record(GameRecord.loads(s.record_text())).next_dealer
    s.next_game()
    assert s.observation().dealer == loser and s.games == 2
    assert s.tally == [int(seat in outcome.losers) for seat in range(3)]
    assert (t("en", "log.new_game_you") if loser == 0 else t("en", "log.new_game", dealer=s.names[loser])) in s.log


def test_saves_keep_earlier_games_not_earlier_moves(tmp_path: Path) -> None:
    s = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="en", seed=3,
                save_path=tmp_path / "g.json")
    s.start()
    s.save()
    play_out(s, save=True)
    s.save()
    first = (tmp_path / "g.json").read_text(encoding="utf-8")
    assert not (tmp_path / "g.1.json").exists()  # saving move after move keeps no copies
    s.next_game()
    s.save()
    play_out(s, save=True)
    s.save()
    assert (tmp_path / "g.1.json").read_text(encoding="utf-8") == first
    assert not (tmp_path / "g.2.json").exists()
    assert Referee.from_record(load_record(str(tmp_path / "g.json"))).is_over


def test_mattis_play_draws_the_first_dealer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """"Trekk om hvem som gir" (Regler for kortspillet Skitgubbe): seeded, the draw is the
    seed scheme's; over a few seeds not always seat 0."""
    dealers = set()
    for seed in range(1, 6):
        save = tmp_path / f"g{seed}.json"
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        assert main(["play", "--plain", "--seed", str(seed), "--lang", "en", "--save", str(save)]) == 0
        capsys.readouterr()
        dealer = load_record(str(save)).dealer
        assert dealer == first_dealer(seed, 3)
        dealers.add(dealer)
    assert len(dealers) > 1


def test_under_next_leader_loser_the_terminal_lets_the_loser_lead_the_next_game(tmp_path: Path) -> None:
    """"mange lar taperen spille ut første stikk neste gang" (Regler for kortspillet Skitgubbe)."""
    s = Session(rules=preset("skitgubbe", next_leader="loser"), players=3, levels=["easy"] * 3, lang="en",
                seed="loser leads", save_path=tmp_path / "g.json")
    s.start()
    play_out(s)
    loser = Referee.from_record(GameRecord.loads(s.record_text())).next_dealer
    s.next_game()
    play_out(s)
    record = GameRecord.loads(s.record_text())
    assert record.dealer == record.leader == loser
    assert record.moves[0].startswith(f"{loser} ")  # the loser laid the first card


NB_RANKS = ("to", "tre", "fire", "fem", "seks", "sju", "åtte", "ni", "ti", "Kn", "D", "K", "E")
NB_SUITS = ("kløver", "ruter", "hjerter", "spar")


def spoken(card: int, how: int) -> str:
    """A card as a Norwegian card player writes it, in one of five ways."""
    rank, suit = NB_RANKS[card % 13], card // 13
    symbol = "♣♦♥♠"[suit]
    if card % 13 == 12 and how % 2:
        rank = "A"  # ess: E or A
    return [f"{NB_SUITS[suit]} {rank}", f"{rank} {NB_SUITS[suit]}", f"{rank}{symbol}", f"{symbol}{rank}",
            f"{NB_SUITS[suit].capitalize()} {rank.lower()}"][how % 5]


@pytest.mark.parametrize("seed", [4, 11])
def test_plain_takes_cards_as_a_norwegian_player_writes_them_and_says_the_loser_once(tmp_path: Path,
                                                                                     seed: int) -> None:
    """A whole game answered only with cards in words and hand-written short forms
    ("spar seks", "seks spar", "Kn♠", "♠D", "E♣"/"A♣", "Hjerter kn"): every answer is
    taken as the card meant, and at the end "X er Mattis!" is said once, not twice."""
    s = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang="nb", seed=seed,
                save_path=tmp_path / "g.json")
    s.start()
    answers: list[str] = []

    class Feed(io.StringIO):
        reads = 0

        def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
            self.reads += 1
            if self.reads > 400:
                return ""  # end of input: answers not taken would otherwise repeat for ever
            if s.over:
                return "nei\n"
            obs = s.observation()
            single = [m for m in obs.legal if m.is_play and len(m.cards) == 1]
            if not single:
                return "1\n"  # only pick up, sjanse or a whole run: by number
            answers.append(spoken(single[0].cards[0], len(answers)))
            return answers[-1] + "\n"

    out = io.StringIO()
    PlainGame(s, Feed(), out).run()
    text = out.getvalue()
    assert s.over and len(answers) > 5
    assert t("nb", "plain.bad_input", text="").split("«")[0] not in text, text
    assert "Ikke lov" not in text
    loser = s.names[s.observation().outcome.mattis]  # type: ignore[union-attr,index]
    said = "Du er Mattis!" if loser == "Du" else f"{loser} er Mattis!"
    assert text.count(said) == 1, text
