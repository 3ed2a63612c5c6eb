"""``mattis tournament`` on tiny runs: results file, resume, bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from mattis.cli.main import main
from mattis.lab.arena import calibration_error, paired, reliability, seat_bots, summarize, wilson


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path / "results.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_results_file_has_every_seat_of_every_rotation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(["tournament", "--bots", "heuristic,random,random", "--deals", "3", "--seed", "4",
                 "--workers", "2", "--no-progress", "--out", str(out)])
    assert code == 0
    rows = _rows(out)
    assert len(rows) == 3 * 3 * 3
    games: dict[tuple[str, str], list[dict[str, str]]] = {}
    for r in rows:
        games.setdefault((r["deal"], r["rotation"]), []).append(r)
    assert sorted(games) == [(str(d), str(r)) for d in range(3) for r in range(3)]
    for (_, rot), seats in games.items():
        seats.sort(key=lambda r: int(r["seat"]))
        assert [r["bot"] for r in seats] == seat_bots(["heuristic", "random", "random"], int(rot))
        assert sum(int(r["lost"]) for r in seats) == 1
        assert sorted(int(r["place"]) for r in seats) == [1, 2, 3]
        loser = next(r for r in seats if r["lost"] == "1")
        assert loser["place"] == "3"
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["seed"] == 4 and meta["bots"] == ["heuristic", "random", "random"]
    assert (out / "loss_rates.png").read_bytes()[:4] == b"\x89PNG"
    text = capsys.readouterr().out
    assert "heuristic" in text and "paired on 3 complete deals" in text and "OpenSkill" in text


def test_same_seed_same_results_and_resume_skips_done_games(tmp_path: Path) -> None:
    base = ["tournament", "--bots", "rollout,heuristic,heuristic", "--seed", "9", "--workers", "1", "--no-progress"]
    full = tmp_path / "full"
    assert main(base + ["--deals", "3", "--out", str(full)]) == 0
    part = tmp_path / "part"
    assert main(base + ["--deals", "2", "--out", str(part)]) == 0
    # An interrupted run: half a game written at the end of the file.
    with open(part / "results.csv", "a") as f:
        f.write("2,0,0,rollout,0,1,12,0.01,normal\n")
    assert main(base + ["--deals", "3", "--out", str(part), "--resume"]) == 0
    a = {(r["deal"], r["rotation"], r["seat"]): (r["bot"], r["lost"], r["place"]) for r in _rows(full)}
    b_rows = _rows(part)
    b = {(r["deal"], r["rotation"], r["seat"]): (r["bot"], r["lost"], r["place"]) for r in b_rows}
    assert len(b_rows) == len(b) == 27  # no game twice, the half game replaced
    assert a == b  # games are independent of order, process and interruption
    # Resuming a finished run plays nothing new.
    before = (part / "results.csv").read_text()
    assert main(base + ["--deals", "3", "--out", str(part), "--resume"]) == 0
    assert (part / "results.csv").read_text() == before


@pytest.mark.parametrize("argv", [
    ["--bots", "heuristic,nosuchbot,random", "--deals", "2"],
    ["--bots", "heuristic,random", "--deals", "2"],
    ["--bots", "random,random,random", "--deals", "0"],
    ["--bots", "random,random,random", "--deals", "2", "--players", "9"],
    ["--bots", "random,random,random", "--deals", "2", "--set", "nonsense=1"],
    ["--bots", "random,random,random", "--deals", "2", "--resume"],
    ["--bots", "random,random,random", "--deals", "2", "--rules", "poker"],
])
def test_bad_arguments_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mattis tournament:") and "\n" not in err and "Traceback" not in err


def test_existing_run_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    args = ["tournament", "--bots", "random,random,random", "--deals", "1", "--seed", "1", "--no-progress",
            "--out", str(out)]
    assert main(args) == 0
    before = (out / "results.csv").read_text()
    assert main(args) == 2  # without --resume
    other = ["tournament", "--bots", "heuristic,random,random", "--deals", "1", "--no-progress", "--out", str(out),
             "--resume"]
    assert main(other) == 2  # a different tournament in that folder
    assert (out / "results.csv").read_text() == before


def test_statistics() -> None:
    lo, hi = wilson(5, 100)
    assert 0.021 < lo < 0.023 and 0.111 < hi < 0.113  # the textbook values for 5/100
    assert wilson(0, 10)[0] == 0.0
    from mattis.lab.arena import SeatResult

    rows = [SeatResult(d, r, s, b, int(b == "x" and d % 2 == 0), 3 if (b == "x" and d % 2 == 0) else 1, 1, 0.0,
                       "normal") for d in range(4) for r in range(2) for s, b in enumerate(["x", "y"])]
    p = paired(rows, "x", "y", 2)
    assert p.deals == 4 and p.diff == pytest.approx(0.5)
    assert {s.bot: s.losses for s in summarize(rows)} == {"x": 4, "y": 0}


def test_a_run_from_before_the_seed_scheme_resumes_on_its_own_deals(tmp_path: Path) -> None:
    from mattis.core import preset
    from mattis.lab.arena import play_game

    out = tmp_path / "old"
    base = ["tournament", "--bots", "heuristic,random,random", "--seed", "5", "--workers", "1", "--no-progress",
            "--out", str(out)]
    assert main(base + ["--deals", "1"]) == 0
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["seed_scheme"] == "derive"
    # A run written before tournament.json named its scheme: the old crc32 seeds.
    del meta["seed_scheme"]
    (out / "tournament.json").write_text(json.dumps(meta))
    rules = preset("mattis")
    old = [row for rot in range(3) for row in play_game(rules, ("heuristic", "random", "random"), 0, rot, 5,
                                                          "crc32")]
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["deal", "rotation", "seat", "bot", "lost", "place", "decisions", "think_s", "end_reason"])
        for r in old:
            w.writerow([r.deal, r.rotation, r.seat, r.bot, r.lost, r.place, r.decisions, r.think_s, r.end_reason])
    assert main(base + ["--deals", "2", "--resume"]) == 0
    rows = [r for r in _rows(out) if r["deal"] == "1"]
    expected = [row for rot in range(3) for row in play_game(rules, ("heuristic", "random", "random"), 1, rot, 5,
                                                               "crc32")]
    assert [(r["rotation"], r["seat"], r["lost"], r["place"], r["decisions"]) for r in rows] == \
        [(str(e.rotation), str(e.seat), str(e.lost), str(e.place), str(e.decisions)) for e in expected]
    assert json.loads((out / "tournament.json").read_text())["seed_scheme"] == "crc32"


def test_verbose_shows_the_failed_samples_of_a_sitting_led_by_the_loser(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(["tournament", "--set", "next_leader=loser", "--bots", "rollout,heuristic,heuristic", "--deals", "1",
                 "--seed", "3", "--workers", "1", "--no-progress", "--verbose", "--out", str(out)])
    assert code == 0
    rows = _rows(out)
    assert {r["failed_samples"] for r in rows} == {"0"}
    assert sum(int(r["decisions"]) for r in rows if r["bot"] == "rollout") > 0
    text = capsys.readouterr().out
    assert "failed samples (decisions played without search): rollout 0 of" in text and "heuristic 0 of" in text


def test_the_wilson_interval_holds_the_observed_rate_at_every_count() -> None:
    """At 0 of n and n of n the bound that meets the rate could miss it by a rounding, which
    broke the tournament chart's error bars (a negative length) when a run was cut short."""
    for n in range(1, 501):
        for k in range(n + 1):
            low, high = wilson(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0, (k, n, low, high)
    assert wilson(0, 11)[0] == 0.0 and wilson(6, 6)[1] == 1.0


def test_the_calibration_error_is_the_root_mean_square_gap_of_the_bands() -> None:
    """Chances in fifths: four at 0.1 of which one came true (a gap of 0.15), two at 0.9
    and 1.0 that both did (0.05), 0.2 in the second band; the error weighs each band by its
    cases."""
    pairs = [(0.1, 0), (0.1, 0), (0.1, 1), (0.1, 0), (0.9, 1), (1.0, 1), (0.2, 0)]
    bands = reliability(pairs)
    assert [(b.lo, b.count, b.hits) for b in bands] == [(0.0, 4, 1), (0.2, 1, 0), (0.8, 2, 2)]
    assert bands[2].mean == pytest.approx(0.95) and bands[0].share == 0.25
    assert calibration_error(pairs) == pytest.approx(((4 * 0.15 ** 2 + 0.2 ** 2 + 2 * 0.05 ** 2) / 7) ** 0.5)
    assert calibration_error([(0.5, 1), (0.5, 0), (0.45, 1), (0.55, 0)]) == pytest.approx(0.0)
    with pytest.raises(ValueError):
        calibration_error([])
