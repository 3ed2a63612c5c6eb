"""The speed race's table (no timing is asserted: figures go into the report)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.rl.speed import _openspiel, _raw, format_table, main_race, race  # noqa: E402


def test_race_rows_ratios_and_table() -> None:
    rows = race(0.02)
    assert [r["name"] for r in rows] == ["mattis raw", "mattis pettingzoo", "mattis openspiel",
                                          "crazy_eights", "hearts"]
    base = rows[3]["decisions_per_s"]
    for r in rows:
        assert r["games"] >= 1
        assert r["ratio_vs_crazy_eights"] == pytest.approx(r["decisions_per_s"] / base)
        assert r["decisions_per_s"] == pytest.approx(r["decisions"] / r["seconds"])
    table = format_table(rows)
    assert table.count("\n") == 1 + len(rows) and "1.00x" in table


def test_openspiel_row_counts_player_moves_not_deal_steps() -> None:
    """The same deal played through pyspiel and through the raw engine has the same
    number of decisions only if the 52 chance steps are not counted; compare averages
    over the same number of games (they deal differently, so allow a wide margin)."""
    raw, spiel = _raw("mattis", 3), _openspiel("python_mattis")
    raw_avg = sum(raw(i) for i in range(30)) / 30
    spiel_avg = sum(spiel(i) for i in range(30)) / 30
    assert abs(spiel_avg - raw_avg) < 40  # counting the deal would add 52 per game


def test_main_race_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main_race(0.02) == 0
    out = capsys.readouterr().out
    assert "| crazy_eights |" in out and "| mattis raw |" in out
