"""Following the game as in a card app: the welcome line, who got the last card of the
stock, bordmattis and who leads phase 2 in the log, what the Mattis was left holding,
the words said to an empty hand, the last trick of phase 1 called a stikk, and card
names in words in line mode."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mattis.core import PHASE2, PICKUP, Move, card_symbol, play, preset
from mattis.core.cards import card_name, parse_card
from mattis.play import Referee
from mattis.tui.i18n import t
from mattis.tui.plain import card_in_words, parse_answer
from mattis.tui.render import end_lines, known_count_text, last_trick_text, no_cards_text, rules_lines
from mattis.tui.session import HUMAN, Session


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _play_out(s: Session, rng: random.Random, until_phase2: bool = False) -> None:
    """The human plays random legal moves, the bots their own, to the end (or phase 2)."""
    while not s.over:
        if until_phase2 and s.observation().phase is PHASE2:
            return  # right after the move that began it
        if s.bot_to_act:
            s.bot_step()
        else:
            assert s.try_move(rng.choice(s.observation().legal)) is None


def _session(tmp_path: Path, rules: str, seed: int, lang: str = "nb", plain: bool = False,
             players: int = 3) -> Session:
    s = Session(rules=preset(rules), players=players, levels=["easy"] * players, lang=lang, seed=seed,  # type: ignore[arg-type]
                save_path=tmp_path / f"g{seed}.json", plain=plain)
    s.start()
    return s


@pytest.mark.parametrize(("lang", "plain"), [("nb", False), ("en", True)])
def test_the_first_line_welcomes_names_the_dealer_the_bots_and_how_to_learn(
        tmp_path: Path, lang: str, plain: bool) -> None:
    s = _session(tmp_path, "blodmattis", 4, lang, plain)
    first = s.log[0]
    dealer = s.names[s.referee.dealer]
    assert first.startswith(t(lang, "log.welcome", rules="Blodmattis", dealer=dealer,  # type: ignore[arg-type]
                              bots="", how="").split("!")[0])
    assert dealer in first
    assert t(lang, "log.welcome.bots", n=2, level=t(lang, "level.easy")) in first  # type: ignore[arg-type]
    assert t(lang, "log.welcome.plain" if plain else "log.welcome.tui") in first  # type: ignore[arg-type]
    s.next_game() if s.over else None
    rng = random.Random(4)
    _play_out(s, rng)
    s.next_game()
    assert t(lang, "log.new_game", dealer="").split(":")[0] in s.log[-1] or s.log[-1].startswith(  # type: ignore[arg-type]
        t(lang, "log.new_game", dealer="")[:5])  # type: ignore[arg-type]
    assert sum(1 for line in s.log if "!" in line and dealer in line and line == first) == 1


def test_blodmattis_log_names_who_got_the_last_card_and_that_player_leads_phase_2(tmp_path: Path) -> None:
    seen = 0
    for seed in range(12):
        s = _session(tmp_path, "blodmattis", seed)
        _play_out(s, random.Random(seed), until_phase2=True)
        obs = s.observation()
        if obs.phase is not PHASE2 or obs.trump_card is None or obs.trump_holder is None:
            continue
        holder = obs.trump_holder
        got = t("nb", "log.last_card.drawn", name=s.names[holder] if holder else "deg",
                card=card_symbol(obs.trump_card))
        assert got in s.log, (seed, s.log[-8:])
        phase2 = next(i for i, line in enumerate(s.log) if line.startswith("Fase 2 begynner"))
        assert s.log.index(got) < phase2
        leads = [line for line in s.log if line.endswith("spiller ut først i fase 2.")]
        assert len(leads) == 1
        if holder not in obs.blodmattis:
            assert leads[0].startswith(s.names[holder])
        # The rules window says who that was.
        assert any(t("nb", "rules.last_drawer", name=s.names[holder] if holder else "deg") in line
                   for line in rules_lines(s.rules, "nb", obs, s.names))
        seen += 1
    assert seen >= 4


BORDMATTIS_DEAL = 191
"""A seeded 6-player Mattis deal where random play leaves seat 0 with no card at phase 2."""


def test_bordmattis_is_announced_when_a_player_starts_phase_2_with_no_card(tmp_path: Path) -> None:
    rules = preset("mattis")
    ref = Referee.new(rules, 6, seed=BORDMATTIS_DEAL)
    rng = random.Random(BORDMATTIS_DEAL)
    moves: list[tuple[int, Move]] = []
    while ref.observation(0).phase is not PHASE2:
        seat = ref.to_act
        assert seat is not None
        move = rng.choice(ref.observation(seat).legal)
        ref.apply(seat, move)
        moves.append((seat, move))
    obs = ref.observation(0)
    empty = [p for p in sorted(obs.still_in) if obs.hand_counts[p] == 0]
    assert empty == [HUMAN]  # the deal still does what this test needs
    before = Referee.new(rules, 6, seed=BORDMATTIS_DEAL)
    for seat, move in moves[:-1]:
        before.apply(seat, move)
    s = Session(rules=rules, players=6, levels=["easy"] * 6, lang="en", save_path=tmp_path / "b.json")
    s.resume(before.record())
    seat, move = moves[-1]
    if seat == HUMAN:
        assert s.try_move(move) is None
    else:  # the bot's move as it was played (a bot of the session would choose its own)
        s._log_events(seat, s.referee.apply(seat, move))
    said = [line for line in s.log if "bordmattis" in line]
    assert said == [t("en", "log.bordmattis", name="You")]
    assert s.log.index(said[0]) > next(i for i, line in enumerate(s.log) if line.startswith("Phase 2 begins"))


def test_the_end_screen_says_what_the_mattis_was_left_holding(tmp_path: Path) -> None:
    for seed in range(6):
        s = _session(tmp_path, "mattis", seed)
        _play_out(s, random.Random(seed))
        obs = s.observation()
        outcome = obs.outcome
        assert outcome is not None
        m = outcome.mattis
        if m is None or not obs.hand_counts[m]:
            continue
        lines = end_lines(obs, s.names, s.tally, "nb")
        held = [line for line in lines if "satt igjen med" in line]
        assert len(held) == 1 and held[0].startswith(s.names[m])
        if m == HUMAN:
            assert all(card_symbol(c) in held[0] for c in obs.hand)
        else:
            assert (f"{obs.hand_counts[m]} kort" in held[0]
                    or all(card_symbol(c) in held[0] for c in obs.known[m]))


def test_the_tally_mentions_blodmattis_only_where_it_exists(tmp_path: Path) -> None:
    for rules, says in (("mattis", False), ("blodmattis", True)):
        s = _session(tmp_path, rules, 1)
        _play_out(s, random.Random(1))
        text = "\n".join(end_lines(s.observation(), s.names, s.tally, "nb"))
        assert ("Blodmattis teller med" in text) is says


def test_words_for_an_empty_hand_offer_only_what_is_possible(tmp_path: Path) -> None:
    s = _session(tmp_path, "mattis", 2)
    obs = s.observation()
    # no cards and nothing to do: never "ta opp eller sjanse"
    assert no_cards_text(obs.replace(legal=()), "nb") == t("nb", "err.no_cards_now")
    assert no_cards_text(obs.replace(legal=(PICKUP,)), "nb") == t("nb", "err.no_cards_pickup")
    assert known_count_text(1, "nb") == "ett kjent kort" and known_count_text(3, "nb") == "3 kjente kort"


def test_the_last_trick_of_phase_1_is_a_stikk_even_in_phase_2(tmp_path: Path) -> None:
    for seed in range(8):
        s = _session(tmp_path, "mattis", seed)
        _play_out(s, random.Random(seed), until_phase2=True)
        obs = s.observation()
        if obs.phase is PHASE2 and obs.last_trick is not None and not s.over:
            if not any(line for line in s.log if "avstikket" in line):
                assert last_trick_text(obs, s.names, "nb").startswith("Siste stikk:")
                return
    pytest.fail("no game reached phase 2 before its first avstikk")


@pytest.mark.parametrize(("text", "code"), [
    ("ruter 3", "3D"), ("kløver dame", "QC"), ("3 ruter", "3D"), ("queen of clubs", "QC"),
    ("three of diamonds", "3D"), ("hjerter ess", "AH"), ("spar 10", "TS"), ("legg ruter 3", "3D"),
])
def test_line_mode_takes_the_games_own_card_names(tmp_path: Path, text: str, code: str) -> None:
    s = _session(tmp_path, "mattis", 2)
    assert parse_answer(text, s.observation()) == play(parse_card(code))
    assert card_name(parse_card(code), "nb") in (text.removeprefix("legg "), " ".join(reversed(text.split())),
                                                 card_name(parse_card(code), "nb"))


def test_a_rank_alone_names_the_one_playable_card_of_that_rank(tmp_path: Path) -> None:
    s = _session(tmp_path, "mattis", 2)
    s.run_bots()
    obs = s.observation()
    singles = [m.cards[0] for m in obs.legal if m.is_play and len(m.cards) == 1]
    card = singles[0]
    rank_word = card_name(card, "nb").split()[1]
    same = [c for c in singles if c % 13 == card % 13]
    assert card_in_words([rank_word], obs) == (card if len(same) == 1 else None)
    assert card_in_words(["ruter", "spar", "3"], obs) is None and card_in_words(["hund"], obs) is None


def test_two_card_tricks_say_who_the_led_card_goes_to(tmp_path: Path) -> None:
    from mattis.tui.render import goes_to_text, table_lines

    said = 0
    for seed in range(6):
        s = _session(tmp_path, "mattis", seed)
        rng = random.Random(seed)
        for _ in range(40):
            if s.over:
                break
            obs = s.observation()
            text = goes_to_text(obs, s.names, "nb")
            if len(obs.table1) == 1 and not obs.fighters and obs.to_act not in (None, obs.table1[0][0]):
                leader, to = obs.table1[0][0], obs.to_act
                assert to is not None
                assert text == f"{s.names[leader]} spiller ut til {s.names[to] if to else 'deg'}."
                assert text in table_lines(obs, s.names, "nb")
                said += 1
            else:
                assert text is None
            if s.bot_to_act:
                s.bot_step()
            else:
                assert s.try_move(rng.choice(obs.legal)) is None
    assert said >= 10
    # all-play tricks (Hund): every player lays, so no one is named
    h = _session(tmp_path, "hund", 1)
    h.run_bots()
    assert goes_to_text(h.observation(), h.names, "nb") is None
