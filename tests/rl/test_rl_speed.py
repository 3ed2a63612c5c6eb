"""The speed race's table (no timing is asserted: figures go into the report)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.cli.main import main as cli_main  # noqa: E402
from mattis.core import preset  # noqa: E402
from mattis.rl.batched import native_covers  # noqa: E402
from mattis.rl.speed import _openspiel, _raw, format_table, main, main_race, race  # noqa: E402

ROWS = ["mattis raw", "mattis openspiel", "mattis openspiel + obs tensor", "mattis openspiel + infostate tensor",
        "mattis pettingzoo", "mattis gymnasium", "mattis batched x16", "mattis batched engine x64",
        "mattis native batched x256", "crazy_eights", "crazy_eights + obs tensor",
        "hearts", "hearts + infostate tensor"]
NATIVE = native_covers(preset("hund"), ["random"]) is None
"""Whether the native engine is built here (else its row is reported as skipped)."""


def test_race_rows_ratios_and_table() -> None:
    rows = race(0.02, "hund", 4)
    names = [r["name"] for r in rows]
    assert names[0].startswith("mattis raw (") and names[1:] == ROWS[1:]
    assert all("hund 4p" in r["detail"] or (not NATIVE and "skipped" in r["detail"]) for r in rows[:9])
    base = rows[9]["decisions_per_s"]
    raw = rows[0]["decisions_per_s"]
    measured = [r for r in rows if NATIVE or r["name"] != ROWS[8]]
    for r in measured:
        assert r["games"] >= 1 and r["decisions"] > 0
        assert r["ratio_vs_crazy_eights"] == pytest.approx(r["decisions_per_s"] / base)
        assert r["decisions_per_s"] == pytest.approx(r["decisions"] / r["seconds"])
    for r in measured[:9 if NATIVE else 8]:
        assert r["ratio_vs_raw"] == pytest.approx(r["decisions_per_s"] / raw)
    assert rows[10]["ratio_vs_raw"] == pytest.approx(rows[10]["decisions_per_s"] / base)
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
    assert "| crazy_eights |" in out and "| mattis raw (" in out and "| mattis batched x16 |" in out


def test_bench_vs_openspiel_follows_rules_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    """Defect: ``mattis bench --vs-openspiel`` ignored ``--rules`` and ``--players``."""
    assert cli_main(["bench", "--vs-openspiel", "--rules", "skitgubbe", "--players", "2", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert out.count("skitgubbe 2p") >= 8 and "mattis 3p" not in out
    assert out.count("| row |") == 1  # one table


def test_raw_json_row_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--raw-json", "--rules", "blodmattis", "--players", "5", "--seconds", "0.02"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["name"].startswith("mattis raw (") and row["detail"].startswith("blodmattis 5p")
    assert main(["--rules", "nosuch"]) == 2
    assert main(["--rules", "blodmattis", "--players", "2"]) == 2
    assert "error:" in capsys.readouterr().err


def test_each_preset_is_measured_against_its_own_raw_row() -> None:
    """Defect: every preset's rows were divided by the first preset's raw row."""
    raw_rows = [{"name": "mattis raw (pure)", "detail": "mattis 3p, legal_moves()+apply()", "preset": "mattis",
                 "games": 1, "decisions": 1000, "seconds": 1.0, "decisions_per_s": 1000.0},
                {"name": "mattis raw (pure)", "detail": "hund 3p, legal_moves()+apply()", "games": 1,
                 "decisions": 250, "seconds": 1.0, "decisions_per_s": 250.0}]  # an older row: no "preset" key
    rows = race(0.01, ["mattis", "hund"], 3, raw_rows=raw_rows)
    by = {(r["preset"], r["name"]): r for r in rows}
    for name in ROWS[1:7]:
        for preset_name, raw in (("mattis", 1000.0), ("hund", 250.0)):
            r = by[(preset_name, name)]
            assert r["ratio_vs_raw"] == pytest.approx(r["decisions_per_s"] / raw)
    assert by[("hund", "mattis raw (pure)")]["ratio_vs_raw"] == pytest.approx(1.0)


def test_module_accepts_rules_all(capsys: pytest.CaptureFixture[str]) -> None:
    """Defect: ``python -m mattis.rl.speed --rules all`` failed although ``mattis bench`` accepts it."""
    from mattis.core import PRESETS

    assert main(["--rules", "all", "--players", "3", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        assert f"{name} 3p" in out
    assert main(["--rules", "all", "--raw-json", "--seconds", "0.01"]) == 2


def test_the_batched_rows_pick_uniformly_among_the_legal_actions() -> None:
    """The harness's vectorised pick gives every row one of its legal actions, each
    about equally often (seeded draws; a row with one legal action always gets it)."""
    import numpy as np

    from mattis.rl.speed import random_legal

    masks = np.zeros((3, 366), np.bool_)
    masks[0, [0, 5, 365]] = True
    masks[1, 17] = True
    masks[2, 100:104] = True
    rng = np.random.default_rng(0)
    counts = np.zeros_like(masks, np.int64)
    for _ in range(4000):
        picks = random_legal(rng, masks)
        counts[np.arange(3), picks] += 1
    assert not counts[~masks].any()
    assert counts[1, 17] == 4000
    assert all(1200 < c < 1470 for c in counts[0, [0, 5, 365]])
    assert all(880 < c < 1120 for c in counts[2, 100:104])
