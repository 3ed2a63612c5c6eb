"""The person at the keyboard in the middle of a sentence: "du"/"you" there, not the
seat name "Du"/"You" ("Siste stikk: du tok ...", "Nytt spill: du gir.", "A new game:
you deal."), with the English verb agreeing; and the cards on the table in phase 2
not called the avstikk (that is the trick once complete)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from mattis.core import PHASE1, PHASE2, preset
from mattis.core.cards import Lang
from mattis.tui.render import last_trick_text, table_lines
from mattis.tui.session import HUMAN, Session

#: The forms the person takes inside a sentence, as a Norwegian or English card player writes them.
INSIDE = {"nb": ("Siste stikk: du tok ", "Siste avstikk (du la det siste kortet): ", "Nytt spill: du gir."),
          "en": ("Last stikk (trick): you took ", "Last avstikk (you laid the last card): ", "A new game: you deal.")}
YOU = {"nb": "Du", "en": "You"}


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def you_inside(line: str, lang: Lang) -> list[str]:
    """Where the seat name "Du"/"You" stands inside a sentence (not at the start of the
    line or after the end of a sentence) in ``line``; and English verbs not agreeing with "you"."""
    faults = [line for m in re.finditer(rf"\b{YOU[lang]}\b", line)
              if m.start() > 0 and not re.search(r"[.!?] $", line[:m.start()])]
    if lang == "en" and re.search(r"\b[Yy]ou (deals|plays|takes|picks|lays|wins|leads|is|has|holds)\b", line):
        faults.append(line)
    return faults


def play_games(tmp_path: Path, lang: Lang, games: int = 4) -> tuple[Session, list[str], list[str]]:
    """``games`` games with random moves for the person: the session, the last-trick line
    at every step, and the phase 2 count line whenever cards lie on the table."""
    s = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang=lang, seed=3,
                save_path=tmp_path / "g.json")
    s.start()
    assert s.names[HUMAN] == YOU[lang]
    rng = random.Random(3)
    seen: list[str] = []
    needs: list[str] = []
    for _game in range(games):  # the deal goes round: the person deals one of them
        while not s.over:
            obs = s.observation()
            if obs.last_trick is not None:
                seen.append(last_trick_text(obs, s.names, lang))
            if obs.phase is PHASE2 and obs.table2 and obs.trick_need:
                needs.append(table_lines(obs, s.names, lang)[-1])
            if s.bot_to_act:
                s.bot_step()
            else:
                assert s.try_move(rng.choice(obs.legal)) is None
        s.next_game()
    return s, seen, needs


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_person_is_du_inside_a_sentence(tmp_path: Path, lang: Lang) -> None:
    s, seen, _needs = play_games(tmp_path, lang)
    lines = seen + s.log
    assert [fault for line in lines for fault in you_inside(line, lang)] == []
    took1, took2, deals = INSIDE[lang]
    assert any(line.startswith(took1) for line in seen)
    assert any(line.startswith(took2) for line in seen)
    assert deals in s.log


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_cards_on_the_table_in_phase_2_are_not_yet_an_avstikk(tmp_path: Path, lang: Lang) -> None:
    """The count under the phase 2 table: the cards laid so far lie on the table (the rule
    text's "oppføringer på bordet"); an avstikk is a trick once it is complete."""
    _s, _seen, needs = play_games(tmp_path, lang, games=1)
    assert needs and all(("på bordet" if lang == "nb" else "on the table") in line and "avstikk" not in line
                         for line in needs)


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_welcome_says_du_when_the_person_deals(tmp_path: Path, lang: Lang) -> None:
    s = Session(rules=preset("mattis"), players=3, levels=["easy"] * 3, lang=lang, seed=1,
                save_path=tmp_path / "g.json")
    s.start(dealer=HUMAN)
    first = s.log[0]
    assert ("Giver: du." if lang == "nb" else "Dealer: you.") in first
    assert you_inside(first, lang) == []
    assert s.observation().phase is PHASE1
