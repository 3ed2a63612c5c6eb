"""The review for players: a chart that fits 80 columns, the three costliest choices in
plain words with their uncertainty, then the detail; offered in line mode."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from mattis.bots.evaluate import Budget
from mattis.core import preset
from mattis.lab.review import Review, review
from mattis.play import Referee
from mattis.tui import plain as plain_mode
from mattis.tui.plain import PlainGame
from mattis.tui.review_words import chance_chart, margin, player_review_lines
from mattis.tui.session import Session


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _reviewed(seed: int, lang: str = "nb", players: int = 3) -> Review:
    ref = Referee.new(preset("mattis"), players, seed=seed)
    rng = random.Random(seed)
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, rng.choice(ref.observation(seat).legal))
    return review(ref.record(), 0, Budget(samples=8), seed=0, lang=lang)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["nb", "en"])
def test_the_chart_fits_80_columns_and_has_one_point_per_informative_column(lang: str) -> None:
    rv = _reviewed(5, lang)
    chart = chance_chart(rv, lang)  # type: ignore[arg-type]
    assert all(len(line) <= 80 for line in chart), max(chart, key=len)
    plot = [line for line in chart if "│" in line]
    assert len(plot) == 8
    columns = len(chart[len(plot) + 1]) - len("      └")
    assert columns == min(len(rv.decisions), 60)
    for c, d in enumerate(rv.decisions[:columns]):  # the move made: once in each column, where informative
        assert sum(1 for line in plot if len(line) > 7 + c and line[7 + c] == "●") == int(d.informative)
    assert any(d.informative for d in rv.decisions[:columns])
    lines = player_review_lines(rv, lang)  # type: ignore[arg-type]
    detail = lines.index("Alle valgene, ett for ett:" if lang == "nb" else "Every choice, one by one:")
    assert all(len(line) <= 80 for line in lines[:detail]), max(lines[:detail], key=len)


def test_the_costliest_choices_are_said_in_words_with_their_uncertainty() -> None:
    rv = _reviewed(6, "nb")  # a game with marked choices (the review marks only what holds under its uncertainty)
    top = rv.costliest(3)
    assert top
    lines = player_review_lines(rv, "nb")
    words = " ".join(line.strip() for line in lines[:lines.index("Alle valgene, ett for ett:")])
    for d in top:
        assert f"Trekk {d.number} (fase {d.phase})" in words
        assert f"falt fra {round(100 * d.before)} % til {round(100 * d.after)} %" in words
        m = margin(d)
        assert (f"± {m} prosentpoeng" if m is not None else "regnet ut nøyaktig") in words
    # two standard errors of a proportion (35 points at 8 samples and an even chance) and
    # the playouts' calibration error together: from 26 points (the calibration error alone) to 44
    assert all(margin(d) is None or 26 <= (margin(d) or 0) <= 44 for d in rv.decisions)


class Player(io.StringIO):
    """Answers the first choice while the game goes on, then "analyse", then "no"."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.after = ["analyse\n", "no\n"]

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        if not self.session.over:
            return "1\n"
        return self.after.pop(0) if self.after else ""


def test_line_mode_offers_the_review_at_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plain_mode, "BUDGET", Budget(samples=2))
    s = Session(rules=preset("mattis"), players=2, levels=["easy"] * 2, lang="en", seed=3,
                save_path=tmp_path / "g.json", plain=True)
    s.start()
    out = io.StringIO()
    assert PlainGame(s, Player(s), out).run() == 0
    text = out.getvalue()
    assert "or \"analyse\" to have your game reviewed" in text
    assert "The chance to avoid being Mattis: You" in text
    assert "Every choice, one by one:" in text and "Review of the game for you" in text
