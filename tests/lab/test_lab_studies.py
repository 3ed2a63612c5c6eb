"""``mattis lab``: each study on a small seeded run, checked for what it must show."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mattis.cli.main import main
from mattis.core import preset
from mattis.lab.studies import analyse, house_variants, make_cells, make_jobs, play_job


def lab(capsys: pytest.CaptureFixture[str], *argv: str, workers: int = 1) -> tuple[int, str]:
    code = main(["lab", *argv, "--no-progress", "--workers", str(workers)])
    return code, capsys.readouterr().err


def rows_of(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def contains(r: Any) -> bool:
    """The interval of a rate holds its figure."""
    return bool(r.low <= r.p <= r.high)


def test_seats_counts_add_up_and_intervals_hold_the_figure(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seats"
    code, err = lab(capsys, "seats", "--games", "30", "--seed", "5", "--players", "3,4",
                    "--rules", "mattis,blodmattis", "--out", str(out))
    assert code == 0, err
    rows = rows_of(out)
    cells = make_cells("seats", "mattis,blodmattis", "3,4", "easy")
    assert len(rows) == 30 * len(cells) == 120
    figures = analyse("seats", cells, rows).figures
    for c in cells:
        f = figures[c.key]
        assert f["games"] == 30
        assert sum(f["lost"]) == f["losers"]
        if c.rules.name == "mattis":  # one Mattis per game: the seats' losses are the games
            assert sum(f["lost"]) == 30
        else:  # Blodmattis: a Mattis and Blodmattiser, at least one loser a game
            assert sum(f["lost"]) >= 30
        for p, lo, hi in f["rates"]:
            assert lo <= p <= hi
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "mattis lab seats --games 30 --seed 5 --rules mattis,blodmattis --players 3,4 --bots easy" in report
    assert (out / "seats.png").stat().st_size > 1000


def test_same_seed_same_report_and_resume_after_a_cut_gives_the_same_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["seats", "--games", "12", "--seed", "9", "--players", "3", "--rules", "mattis,skitgubbe"]
    one, two, cut = tmp_path / "one", tmp_path / "two", tmp_path / "cut"
    assert lab(capsys, *args, "--out", str(one))[0] == 0
    assert lab(capsys, *args, "--out", str(two), workers=2)[0] == 0  # two processes, the same games
    assert (one / "report.md").read_bytes() == (two / "report.md").read_bytes()
    other = tmp_path / "other"
    assert lab(capsys, "seats", "--games", "12", "--seed", "10", "--players", "3", "--rules", "mattis,skitgubbe",
               "--out", str(other))[0] == 0
    assert (other / "report.md").read_bytes() != (one / "report.md").read_bytes()
    # A run cut off: half the games, the last line half written.
    assert lab(capsys, *args, "--out", str(cut))[0] == 0
    lines = (cut / "results.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (cut / "results.jsonl").write_text("".join(lines[:10]) + lines[10][:25], encoding="utf-8")
    (cut / "report.md").unlink()
    code, err = lab(capsys, "seats", "--out", str(cut), "--resume")  # the rules and players from the run
    assert code == 0, err
    assert "10 done, 14 to play" in err
    assert (cut / "report.md").read_bytes() == (one / "report.md").read_bytes()
    # The report of the first 6 games of each cell, from the same file, is the report of a 6-game run.
    six = tmp_path / "six"
    assert lab(capsys, "seats", "--games", "6", "--seed", "9", "--players", "3", "--rules", "mattis,skitgubbe",
               "--out", str(six))[0] == 0
    code, err = lab(capsys, "seats", "--games", "6", "--out", str(cut), "--resume", "--players", "3",
                    "--rules", "mattis,skitgubbe")
    assert code == 0 and "12 done, 0 to play" in err
    assert (cut / "report.md").read_bytes() == (six / "report.md").read_bytes()
    assert len(rows_of(cut)) == 24  # the games beyond stay for a later resume


def test_skill_the_better_bot_loses_less_on_paired_deals(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "skill"
    code, err = lab(capsys, "skill", "--games", "24", "--seed", "3", "--bots", "easy,random",
                    "--rules", "mattis,skitgubbe", "--out", str(out))
    assert code == 0, err
    cells = make_cells("skill", "mattis,skitgubbe", "3", "easy,random")
    figures = analyse("skill", cells, rows_of(out)).figures
    for c in cells:
        f = figures[c.key]
        assert f["rate"].n == 24  # the first bot sat once in every game
        assert contains(f["rate"])
        gap = f["gap"]
        assert gap.deals == 8
        assert gap.low <= gap.diff <= gap.high
        assert gap.high < 0  # the heuristic bot beats random moves, clearly
    assert "skill gap" in (out / "report.md").read_text(encoding="utf-8")


def test_house_rules_one_option_changed_per_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = preset("mattis")
    variants = house_variants(base)
    assert len(variants) >= 15
    for label, rules in variants:
        changed = rules.overrides()
        assert len(changed) == 1, label
        option, value = next(iter(changed.items()))
        assert label.startswith(option + "=")
        assert getattr(rules, option) != getattr(base, option) and getattr(rules, option) == value
    out = tmp_path / "house"
    code, err = lab(capsys, "house", "--games", "3", "--seed", "1", "--bots", "easy,random", "--out", str(out))
    assert code == 0, err
    cells = make_cells("house", "mattis", "3", "easy,random")
    assert len(cells) == len(variants) + 1
    rows = rows_of(out)
    figures = analyse("house", cells, rows).figures
    for c in cells:
        f = figures[c.key]
        assert f["games"] == 3
        moves = [r["moves"] for r in rows if r["cell"] == c.key]
        assert f["length"].mean == pytest.approx(sum(moves) / 3)
        assert f["length"].low <= f["length"].mean <= f["length"].high
    report = (out / "report.md").read_text(encoding="utf-8")
    assert all(f"| {label} |" in report for label, _ in variants)


def test_house_rules_need_one_preset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = lab(capsys, "house", "--rules", "mattis,hund", "--out", str(tmp_path / "x"))
    assert code == 2 and "one preset" in err


def test_sjanse_decisions_are_the_legal_chances_and_split_without_loss(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    cells = make_cells("sjanse", "mattis,skitgubbe", "3", "easy,random")
    rows = [play_job(j) for j in make_jobs("sjanse", cells, 6, 11)]
    for r in rows:
        for seat, stock, size, best, fighting, took, chance in r["notes"]:
            assert r["seats"][seat][0] == "easy"  # only the studied bot's decisions
            assert stock >= 2  # trump=last_card: never the hidden last card
            assert 0 <= size <= 3 and took in (0, 1) and fighting in (0, 1)
            assert best == -1 or 0 <= best <= 12
            assert 0 <= chance <= 100  # the value model's chance at the decision (NumPy is installed here)
    figures = analyse("sjanse", cells, rows).figures
    for c in cells:
        f = figures[c.key]
        total = f["all"]["decisions"]
        assert total > 0
        assert sum(b["decisions"] for b in f["stock"].values()) == total
        assert sum(f[k]["decisions"] for k in ("best card 9 or lower", "best card 10 to queen",
                                              "best card king or ace")) == total
        assert f["not in a krig"]["decisions"] + f["in a krig"]["decisions"] == total
        assert sum(h["decisions"] for h in f["hand"].values()) == total
        assert sum(m["decisions"] for m in f["model"].values()) == total  # the model's three bands
        assert f["all"]["take"].k == f["all"]["lost_took"].n
        assert contains(f["all"]["take"])
    code, err = lab(capsys, "sjanse", "--rules", "blodmattis", "--out", str(tmp_path / "x"))
    assert code == 2 and "chance=off" in err


def test_cycles_every_repetition_end_was_seen_as_a_repeat(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cycles"
    # going_out=cleared: the rule under which games loop whatever the bots vary
    # (docs/lab.md, "Cycles"); the presets' own games between easy bots rarely do.
    code, err = lab(capsys, "cycles", "--games", "40", "--seed", "1", "--rules", "blodmattis,mattis",
                    "--set", "going_out=cleared", "--out", str(out))
    assert code == 0, err
    rows = rows_of(out)
    ended = [r for r in rows if r["end"] == "repetition"]
    assert ended, "easy bots under going_out=cleared run into repeated positions"
    for r in rows:
        if r["end"] == "repetition":  # the engine saw a third time: the observations saw a second
            assert r["first_repeat"] is not None and r["first_repeat"] < r["p2_moves"]
    cells = make_cells("cycles", "blodmattis,mattis", "3", "easy", {"going_out": "cleared"})
    figures = analyse("cycles", cells, rows).figures
    for c in cells:
        f = figures[c.key]
        assert f["repetition"].k <= f["repeated"].k <= f["games"] == 40
        assert contains(f["repeated"]) and contains(f["repetition"])
    assert sum(figures[c.key]["repetition"].k for c in cells) == len(ended)


@pytest.mark.parametrize("argv, words", [
    (["nosuch"], "unknown study"),
    (["seats", "--games", "0"], "--games"),
    (["seats", "--rules", "nosuch"], "unknown rules"),
    (["seats", "--players", "three"], "--players"),
    (["skitgubbe-seats"], "unknown study"),
    (["seats", "--rules", "skitgubbe", "--players", "6"], "players"),
    (["skill", "--bots", "easy"], "two bots"),
    (["seats", "--bots", "nosuch"], "unknown bot"),
    (["seats", "--set", "nosuch=1"], "unknown rule option"),
])
def test_bad_input_exit_2_one_line(argv: list[str], words: str, capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    code, err = lab(capsys, *argv, "--out", str(tmp_path / "x"))
    assert code == 2
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_resume_refuses_another_run_and_keeps_its_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert lab(capsys, "seats", "--games", "3", "--seed", "2", "--rules", "mattis", "--players", "3",
               "--out", str(out))[0] == 0
    before = (out / "results.jsonl").read_bytes()
    code, err = lab(capsys, "seats", "--games", "3", "--rules", "hund", "--players", "3", "--out", str(out), "--resume")
    assert code == 2 and "different run" in err
    code, err = lab(capsys, "seats", "--games", "3", "--rules", "mattis", "--players", "3", "--out", str(out))
    assert code == 2 and "--resume" in err
    code, err = lab(capsys, "seats", "--rules", "mattis", "--players", "3", "--seed", "3", "--out", str(out),
                    "--resume")
    assert code == 2 and "seed" in err
    assert (out / "results.jsonl").read_bytes() == before
    code, err = lab(capsys, "seats", "--out", str(tmp_path / "none"), "--resume")
    assert code == 2 and "nothing to resume" in err
