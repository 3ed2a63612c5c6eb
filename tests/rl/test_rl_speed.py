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
        "floor: openspiel", "openspiel deal", "floor: openspiel deal", "mattis pettingzoo", "floor: pettingzoo",
        "mattis gymnasium", "floor: gymnasium", "mattis batched x16", "mattis batched engine x64",
        "mattis native batched x256", "crazy_eights", "crazy_eights + obs tensor",
        "hearts", "hearts + infostate tensor"]
PRESET_ROWS = ROWS.index("crazy_eights")
"""The rows each preset has (before the C++ games' rows)."""
NATIVE_ROW = "mattis native batched x256"
MATTIS_ROWS = [i for i, name in enumerate(ROWS[:PRESET_ROWS]) if name.startswith("mattis")]
NATIVE = native_covers(preset("hund"), ["random"]) is None
"""Whether the native engine is built here (else its row is reported as skipped)."""


def test_race_rows_ratios_and_table() -> None:
    rows = race(0.02, "hund", 4)
    names = [r["name"] for r in rows]
    assert names[0].startswith("mattis raw (") and names[1:] == ROWS[1:]
    assert all("hund 4p" in r["detail"] or (not NATIVE and "skipped" in r["detail"]) for r in rows[:PRESET_ROWS])
    base = rows[PRESET_ROWS]["decisions_per_s"]
    raw = rows[0]["decisions_per_s"]
    measured = [r for r in rows if NATIVE or r["name"] != NATIVE_ROW]
    for r in measured:
        assert r["games"] >= 1 and r["decisions"] > 0
        assert r["decisions_per_s"] == pytest.approx(r["decisions"] / r["seconds"])
        if not r["name"].startswith(("floor:", "openspiel deal")):
            assert r["ratio_vs_crazy_eights"] == pytest.approx(r["decisions_per_s"] / base)
    for i in MATTIS_ROWS:
        r = rows[i]
        if NATIVE or r["name"] != NATIVE_ROW:
            assert r["ratio_vs_raw"] == pytest.approx(r["decisions_per_s"] / raw)
    assert rows[PRESET_ROWS + 1]["ratio_vs_raw"] == pytest.approx(rows[PRESET_ROWS + 1]["decisions_per_s"] / base)
    by = {r["name"]: r for r in rows}
    # a Gymnasium row's games are its learner steps: each makes a decision or more
    assert by["floor: gymnasium"]["games"] == by["floor: gymnasium"]["decisions"]
    assert by["mattis gymnasium"]["decisions"] >= by["mattis gymnasium"]["games"]
    deal = by["openspiel deal"]  # a deal is one chance step or more (52 while the game deals card by card)
    assert deal["games"] <= deal["decisions"] <= 52 * deal["games"]
    floor_deal = by["floor: openspiel deal"]  # the do-nothing deal: 52 chance steps a game, as the real one
    assert floor_deal["decisions"] == 52 * floor_deal["games"]
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
    assert out.count("| row |") == 1 and out.count("| goal |") == 1  # one table, then the goals


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
    for name in [ROWS[i] for i in MATTIS_ROWS[1:6]]:
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


def _printed(name: str, preset_name: str | None, dps: float, per: float = 50.0) -> dict[str, object]:
    return {"name": name, "detail": f"{preset_name} 3p, ..." if preset_name else "...", "preset": preset_name,
            "games": 10, "dps": dps, "per": per}


def _figures(native: float = 1_000_000.0) -> list[dict[str, object]]:
    """Given figures for one preset (µs a decision in the comments)."""
    return [_printed("mattis raw (compiled)", "mattis", 1_000_000.0),  # 1 µs
            _printed("mattis openspiel", "mattis", 100_000.0, per=50.0),  # 10 µs
            _printed("mattis openspiel + obs tensor", "mattis", 60_000.0),  # 0.6x the row without
            _printed("floor: openspiel", "mattis", 250_000.0),
            _printed("openspiel deal", "mattis", 1_300_000.0, per=52.0),  # 40 µs a deal, 0.8 µs a decision
            _printed("floor: openspiel deal", "mattis", 2_600_000.0, per=52.0),  # 20 µs a deal
            _printed("mattis pettingzoo", "mattis", 100_000.0),  # 10 µs
            _printed("floor: pettingzoo", "mattis", 200_000.0),  # 5 µs: 5 µs over, 5x raw
            _printed("mattis gymnasium", "mattis", 300_000.0, per=3.0),  # 10 µs a learner step
            _printed("floor: gymnasium", "mattis", 500_000.0, per=1.0),  # 2 µs a learner step
            _printed("mattis native batched x256", "mattis", native, per=768.0),  # 3 µs a learner step
            _printed("crazy_eights + obs tensor", None, 400_000.0)]


def test_the_goals_from_given_figures() -> None:
    """Each restated goal computed from the printed figures, met or not met by the
    figures alone (nothing timed)."""
    from mattis.rl.speed import goals

    lines = {goal.split(" ")[0] + goal.split(" ")[1]: (cells["mattis"], verdict) for goal, cells, verdict
             in goals(_figures())}
    assert lines["nativebatched"] == ("2.50x", "met")  # 1,000,000 / 400,000
    assert lines["PettingZoo:µs"] == ("5.0x (5.0 µs)", "not met")  # (10 - 5) / 1 > 4
    assert lines["rawengine"] == ("1.00 µs", "")
    assert lines["OpenSpiel+"] == ("0.60x", "met")
    # 52 / 1.3 = 40 µs a deal over 50 decisions, 20 µs of it the floor's
    assert lines["OpenSpiel'sdeal"] == ("0.40 µs (0.80 in all)", "met")
    assert lines["OpenSpiel(no"] == ("6.0 µs (floor 4.0)", "")
    assert lines["Gymnasium:µs"] == ("2.7x (8.0 / 3.00 µs)", "not met")  # (10 - 2) / 3 > 2
    assert lines["thefloors,"] == ("5.0 / 4.0 / 2.00", "")
    slower = {goal.split(" ")[0]: (cells["mattis"], verdict) for goal, cells, verdict in goals(_figures(600_000.0))}
    assert slower["native"] == ("1.50x", "not met")
    missing = [r for r in _figures() if r["name"] != "floor: pettingzoo"]
    assert [verdict for goal, _c, verdict in goals(missing) if goal.startswith("PettingZoo")] == ["not measured"]


def test_the_goals_table_reads_the_printed_race_table() -> None:
    """The goals are computed from the race table as printed (so a pasted run's goals
    table can be checked against its race table); every preset is a column."""
    from mattis.rl.speed import format_goals, parse_table

    rows = race(0.01, ["mattis", "skitgubbe"], 3)
    printed = parse_table("text before\n\n" + format_table(rows) + "\n\nafter")
    assert [r["name"] for r in printed] == [r["name"] for r in rows]
    assert [r["preset"] for r in printed if r["dps"]] == [r["preset"] for r in rows if r["decisions_per_s"]]
    goals_table = format_goals(printed)
    assert goals_table.splitlines()[0] == "| goal | mattis | skitgubbe | |"
    assert goals_table.count("\n") == 1 + 8


def test_the_docs_goals_table_is_its_race_tables() -> None:
    """docs/research.md's goals table is the one the command prints for the race table
    above it (the run pasted as the command prints it)."""
    from pathlib import Path

    from mattis.rl.speed import HEADER, format_goals, parse_table

    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    at = text.index("**Where the rows stand now, against the goals.**")
    section = text[at:]
    assert HEADER[0] in section
    expected = format_goals(parse_table(section))
    start = section.index("| goal |")
    assert section[start:start + len(expected)] == expected
