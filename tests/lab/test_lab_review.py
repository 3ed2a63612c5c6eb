"""The game review (``mattis analyze``): known answers, a planted blunder, the
information boundary, the JSON form and the command's errors."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import pytest

from mattis.bots.evaluate import Budget, Verdict, evaluate, shown_margin
from mattis.bots.solver import brute_force, two_player_values
from mattis.bots.value import CALIBRATION as MODEL_CALIBRATION
from mattis.bots.value import luck_calibration, model_for
from mattis.cli.main import main
from mattis.core import GameRecord, parse_move, parse_position, parse_record_move, preset
from mattis.core.determinize import relabel_hidden
from mattis.core.observation import PHASE2
from mattis.lab.review import (
    CANDIDATE_Z,
    CHECK_SHARE,
    CHECK_Z,
    DEEPER,
    DUBIOUS,
    Decision,
    Review,
    ReviewError,
    decision_lines,
    deeper,
    in_play,
    move_accuracy,
    move_words,
    phase2_luck,
    review,
    review_text,
    second_samples,
)
from mattis.play import Referee, make_bot
from tiers import scale

SMALL = Budget(samples=4)
TINY = Budget(samples=2)

# Two players, every hand known (known=), seat 0 to lead.  Plain minimax over the
# engine's moves (brute_force) says only Q♦ wins: the low leads lose.
PUZZLE = ("2 dealer=1 trump=S turn=0 hands=5DTDQDKD/2C7DJDTH table=- need=0 finished=- losers=- blodmattis=- "
          "known=5DTDQDKD/2C7DJDTH")


def puzzle_record(first: str) -> GameRecord:
    return GameRecord.from_json({"rules": "mattis", "players": 2, "position": PUZZLE, "moves": [f"0 {first}"]})


def test_the_puzzle_has_the_answer_plain_minimax_gives() -> None:
    start = parse_position(preset("mattis"), PUZZLE)
    truth = {}
    for m in start.legal_moves():
        after = start.clone()
        after.apply(m)
        truth[str(m)] = brute_force(after, 0)
    assert truth == {"play 5D": -1, "play TD": -1, "play QD": 1, "play KD": -1}
    rv = review(puzzle_record("play 5D"), 0, SMALL, seed=1)
    (d,) = rv.decisions
    assert str(d.best) == "play QD" and d.verdict_best is Verdict.WINS and d.before == 1.0
    assert d.verdict_played is Verdict.LOSES and d.after == 0.0 and d.mark == "??"
    assert d.samples == 0  # the solver decided every move: no playouts
    assert {str(v.move): v.verdict for v in d.moves} == {
        m: Verdict.WINS if v > 0 else Verdict.LOSES for m, v in truth.items()}
    # The winning move made: no cost, no mark.
    (good,) = review(puzzle_record("play QD"), 0, SMALL, seed=1).decisions
    assert good.cost == 0.0 and good.mark == ""
    text = review_text(rv, "nb")
    assert "legg Q♦" in text and "vinner med beste spill" in text and "??" in text


def test_the_proven_best_move_comes_with_its_line_of_play() -> None:
    rv = review(puzzle_record("play 5D"), 0, SMALL, seed=1)
    (d,) = rv.decisions
    assert d.resolved and d.line[0] == (0, parse_move("play QD"))
    # the line is legal move after move, and seat 0 goes out at its end, as the solver promised
    state = parse_position(preset("mattis"), PUZZLE)
    for seat, move in d.line:
        assert state.to_act == seat and move in state.legal_moves()
        state.apply(move)
    assert not state.in_game >> 0 & 1 and 0 not in state.losers
    assert Review.from_json(json.loads(json.dumps(rv.to_json()))).decisions[0].line == d.line
    assert "then with best play (the others' moves in brackets): Q♦ (" in review_text(rv, "en")
    # the move made was the best: no line is shown
    (good,) = review(puzzle_record("play QD"), 0, SMALL, seed=1).decisions
    assert "then with best play" not in review_text(review(puzzle_record("play QD"), 0, SMALL, seed=1), "en")
    assert good.line[0] == (0, parse_move("play QD"))


def test_look_deeper_at_one_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _seeded_game(4)
    full = review(record, 0, TINY, seed=3)
    number = full.decisions[-1].number
    one = review(record, 0, deeper(TINY), seed=3, decision=number)
    (d,) = one.decisions
    assert d.number == number and one.budget.samples == TINY.samples * DEEPER and one.luck is None
    assert d.mark == full.decisions[-1].mark or d.mark == "??"  # more solver nodes can only prove more
    path = tmp_path / "g.json"
    path.write_text(record.dumps(), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), "--decision", str(number), "--deeper", "--budget", "2",
                         "--json", "--quiet")
    assert code == 0, err
    got = json.loads(out)
    assert [x["move"] for x in got["decisions"]] == [number] and got["budget"]["samples"] == 2 * DEEPER
    assert got["budget"]["solver_cards"] == 24
    code, _, err = run(capsys, "analyze", str(path), "--deeper")
    assert code == 2 and "--decision" in err
    other = next(i for i, m in enumerate(record.moves, start=1) if parse_record_move(m)[0] != 0)
    code, _, err = run(capsys, "analyze", str(path), "--decision", str(other))
    assert code == 2 and f"move {other} is not a move of seat 0" in err


def _planted_game(seed: int) -> tuple[GameRecord, int] | None:
    """A seeded 2-player bot game in which seat 0, in a phase 2 position the solver
    says is won, is made to play a losing move; the rest is played on by the bots."""
    ref = Referee.new(preset("mattis"), 2, seed=seed)
    bots = {0: make_bot("rollout", seed), 1: make_bot("rollout", seed + 1)}
    planted = None
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        obs = ref.observation(seat)
        move = bots[seat].act(obs)
        if planted is None and seat == 0 and obs.phase is PHASE2 and sum(obs.hand_counts) <= 12:
            vals = two_player_values(ref.record().replay())
            losing = [m for m, v in vals.items() if v < 0]
            if vals[move] > 0 and losing:
                move = losing[0]
                planted = ref.moves_played + 1
        ref.apply(seat, move, events=False)
    return (ref.record(), planted) if planted is not None else None


def test_a_planted_blunder_is_the_costliest_decision() -> None:
    found = None
    for seed in range(9, 49):  # seed 9 is the first that gives one
        found = _planted_game(seed)
        if found is not None:
            break
    assert found is not None
    record, number = found
    rv = review(record, 0, Budget(samples=8), seed=3)
    d = next(x for x in rv.decisions if x.number == number)
    assert d.mark == "??" and d.cost == 1.0 and d.proven
    assert d.verdict_best is Verdict.WINS and d.verdict_played is Verdict.LOSES
    assert rv.costliest()[0].number == number
    assert rv.outcome == "lost"
    # The chance after each decision is the chance of the move made, judged with the others
    # (in phase 2 the preferred move is chosen on the first look, and it and the move made
    # are scored on fresh playouts: the moves' figures show those two from the second look).
    for x in rv.decisions:
        assert x.before == next(v.chance for v in x.moves if v.move == x.best)
        assert x.after == next(v.chance for v in x.moves if v.move == x.played)
        assert x.cost == pytest.approx(max(0.0, x.before - x.after))


def _seeded_game(seed: int, players: int = 3) -> GameRecord:
    ref = Referee.new(preset("mattis"), players, seed=seed)
    bots = {s: make_bot("heuristic", seed + s) for s in range(players)}
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
    return ref.record()


def test_the_review_of_a_seat_reads_only_its_own_view() -> None:
    """At each of the seat's phase 1 decisions, deal the cards hidden from it afresh
    (the determinizer's relabelling keeps its observation) and continue with the move
    made: the judgement of that decision is unchanged for the same seed."""
    seat = 1
    record = _seeded_game(5)
    original = {d.number: d for d in review(record, seat, TINY, seed=9).decisions}
    checked = 0
    for number, d in original.items():
        if d.phase != 1 or number % 3:
            continue
        before = record.replay(number - 1)
        other = relabel_hidden(before, seat, random.Random(number))
        assert other.observation(seat) == before.observation(seat)
        if all(other.hands[q] == before.hands[q] for q in range(3)):
            continue
        prefix = GameRecord.from_state(other)
        prefix.moves.append(record.moves[number - 1])
        again = {x.number: x for x in review(prefix, seat, TINY, seed=9).decisions}
        assert again[number] == d
        checked += 1
        if checked == 3:
            break
    assert checked == 3
    # ... while another seed does sample differently (so the check can fail).
    assert review(record, seat, TINY, seed=9).to_json() != review(record, seat, TINY, seed=10).to_json()


def test_evaluate_refuses_a_view_of_another_seats_turn() -> None:
    state = _seeded_game(2).start()
    with pytest.raises(ValueError):
        evaluate(state.observation((state.to_act or 0) + 1), SMALL)


def test_json_round_trip_and_errors() -> None:
    rv = review(_seeded_game(7), 0, SMALL, seed="word")
    data = json.loads(json.dumps(rv.to_json()))
    assert Review.from_json(data) == rv
    weighted = dataclasses.replace(rv, budget=dataclasses.replace(rv.budget, beliefs="human"))
    assert Review.from_json(json.loads(json.dumps(weighted.to_json()))).budget.beliefs == "human"
    assert data["forced"] + len(data["decisions"]) == sum(
        1 for m in _seeded_game(7).moves if parse_record_move(m)[0] == 0)
    assert all(d["played"] in [m["move"] for m in d["moves"]] for d in data["decisions"])
    with pytest.raises(ReviewError):
        Review.from_json({"format": "something else"})
    with pytest.raises(ReviewError):
        review(_seeded_game(7), 3, SMALL)
    bad = GameRecord.from_json({"rules": "mattis", "players": 2, "position": PUZZLE, "moves": ["1 play 2C"]})
    with pytest.raises(ReviewError):
        review(bad, 0, SMALL)
    assert parse_move(data["decisions"][0]["best"]) in {v.move for v in rv.decisions[0].moves}


# ------------------------------------------------------------------ the command
def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_a_saved_game_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _seeded_game(4).to_json()
    data["session"] = {"names": ["Kari", "Ola", "Per"], "lang": "nb"}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), "--seat", "ola", "--budget", "2", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["seat"] == 1 and got["name"] == "Ola" and got["budget"]["samples"] == 2
    assert "1/" not in out and err  # progress goes to stderr
    code, out, _ = run(capsys, "analyze", str(path), "--seat", "2", "--budget", "2", "--lang", "nb", "--quiet")
    assert code == 0 and out.startswith("Gjennomgang av spillet for Per")


def test_analyze_every_seat_gives_each_review_and_the_accuracy_per_seat(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    record = _seeded_game(4)
    path.write_text(record.dumps(), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), "--seat", "all", "--budget", "2", "--quiet", "--json")
    assert code == 0, err
    got = json.loads(out)["seats"]
    assert [r["seat"] for r in got] == list(range(record.players))
    code, out, err = run(capsys, "analyze", str(path), "--seat", "all", "--budget", "2", "--quiet")
    assert code == 0, err
    table = out.split("Accuracy per player in phase 2")[1].splitlines()[1:]
    assert len(table) == record.players
    for line, r in zip(table, got, strict=True):  # each seat's own review, the same figures
        rv = Review.from_json(r)
        acc, cost = rv.accuracy(), rv.mean_cost()
        assert acc is not None and cost is not None
        k, n = rv.within_noise()
        assert line.startswith(f"  {rv.name}: {round(acc[0])} ± {round(2 * acc[1])} of 100; {k} of {n} decisions")
        assert f"{round(100 * cost[0])} ± {round(200 * cost[1])} points per decision" in line
    code, out, err = run(capsys, "analyze", str(path), "--seat", "all", "--decision", "3")
    assert code == 2 and "--seat all" in err


@pytest.mark.parametrize("args, words", [
    (["--seat", "5"], "no seat 5"),
    (["--seat", "Nobody"], "no player has that name"),
    (["--budget", "0"], "--budget"),
])
def test_analyze_bad_seat_or_budget(args: list[str], words: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(_seeded_game(4).dumps(), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), *args)
    assert code == 2 and words in err and "Traceback" not in err and out == ""


def test_analyze_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.json"
    code, _, err = run(capsys, "analyze", str(missing))
    assert code == 2 and "cannot read" in err
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(junk))
    assert code == 2 and "not valid JSON" in err
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({"rules": "mattis", "players": 2, "position": PUZZLE, "moves": ["0 play 2C"]}),
                       encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(illegal))
    assert code == 2 and "move 1" in err
    # A position with hands the seat cannot see: no deck to deal the hidden cards from.
    hidden = tmp_path / "hidden.json"
    hidden.write_text(json.dumps({"rules": "mattis", "players": 2, "position": PUZZLE.split(" known=")[0],
                                  "moves": ["0 play 5D"]}), encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(hidden))
    assert code == 2 and "move 1: cannot judge" in err
    # --chart naming the game file itself is refused, and the game file is kept.
    good = tmp_path / "good.json"
    text = _seeded_game(4).dumps()
    good.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "analyze", str(good), "--chart", str(good))
    assert code == 2 and "game file itself" in err and good.read_text(encoding="utf-8") == text


def test_analyze_draws_the_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path, chart = tmp_path / "g.json", tmp_path / "chart.png"
    path.write_text(_seeded_game(4).dumps(), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path), "--budget", "2", "--chart", str(chart), "--quiet")
    assert code == 0, err
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 5000
    assert "Review of the game for Anne" in out


def _rollout_game(seed: int, players: int) -> GameRecord:
    ref = Referee.new(preset("mattis"), players, seed=seed)
    bots = {s: make_bot("rollout", seed + s) for s in range(players)}
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, bots[seat].act(ref.observation(seat)), events=False)
    return ref.record()


def _random_game(seed: int, players: int) -> GameRecord:
    """A seeded game of random players: they give away won endgames, so the solver has
    blunders to prove."""
    ref = Referee.new(preset("mattis"), players, seed=seed)
    rng = random.Random(seed)
    while not ref.is_over:
        seat = ref.to_act
        assert seat is not None
        ref.apply(seat, rng.choice(ref.observation(seat).legal), events=False)
    return ref.record()


def _marks(rv: Review) -> list[tuple[int, str, str | None]]:
    """Each decision's mark and the move it names (None where it names none)."""
    return [(d.number, d.mark, str(d.best) if d.named else None) for d in rv.decisions]


def test_marks_and_best_moves_are_the_same_under_three_seeds() -> None:
    """Games of `medium` bots (three at the table: marks from the second look) and of random
    players (two at the table: blunders the solver proves), every seat reviewed under three
    sampling seeds: every mark and every named move is the same.  Not a vacuous agreement:
    marks of both kinds were given, the second look's marks name a better move, and the
    phase 1 figures (drawn from the seed) did move with it.  The slow tier reviews more
    games with twice the playouts."""
    games = [(_rollout_game(seed, 3), seat) for seed in range(2, 2 + scale(1, 2)) for seat in range(3)]
    games += [(_random_game(seed, 2), 0) for seed in range(1, 1 + scale(2, 6))]
    budget = Budget(samples=scale(4, 8))
    checked = proven = moved = with_line = 0
    for record, seat in games:
        reviews = [review(record, seat, budget, seed=s) for s in (0, 1, 2)]
        assert _marks(reviews[0]) == _marks(reviews[1]) == _marks(reviews[2])
        moved += len({tuple(d.after for d in rv.decisions if not d.judged) for rv in reviews}) > 1
        for d in reviews[0].decisions:
            if d.mark and d.check is not None:
                checked += 1
                assert d.named and d.best != d.played and d.judged
                assert d.check[0] - CHECK_Z * d.check[1] >= DUBIOUS - 1e-9
                # the better move is named, with the playouts' line after it where the seat
                # knows every hand (the seat's move first)
                lines = decision_lines(d, reviews[0], "en")
                assert "better: " + move_words(d.best, "en") in lines[0] and d.mark in lines[0]
                if d.line:
                    with_line += 1
                    assert d.line[0] == (seat, d.best) and lines[1].strip().startswith("then as the playouts play on")
                assert Decision.from_json(json.loads(json.dumps(d.to_json()))) == d
            elif d.mark:
                proven += 1
                assert d.verdict_best is Verdict.WINS and d.verdict_played is not Verdict.WINS
    assert checked >= 2 and proven >= 1 and moved >= 2 and with_line >= 1


def test_summary_accuracy_and_luck() -> None:
    record = _rollout_game(2, 3)
    rv = review(record, 0, SMALL, seed=1)
    s = rv.to_json()["summary"]
    judged = [d for d in rv.decisions if d.judged]
    assert s["judged"] == len(judged) and s["phase1"] == len(rv.decisions) - len(judged)
    assert s["marks"]["??"] == sum(d.mark == "??" for d in rv.decisions)
    acc = rv.accuracy()
    assert acc is not None and 0.0 <= acc[0] <= 100.0
    # A decision that cost nothing scores 100, one that cost everything 0.
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01) and move_accuracy(1.0) == 0.0
    assert acc[0] == pytest.approx(sum(move_accuracy(d.cost) for d in judged) / len(judged))
    # The luck is the value model's chance at phase 2's start (the seat's phase 2 hand and
    # position, where the model has skill), not right after the deal (where it has none):
    # one figure, the same under another sampling seed, with the model's caveat.
    ref = Referee(record.start())
    while ref.observation(0).phase is not PHASE2:
        who, move = parse_record_move(record.moves[ref.moves_played])
        ref.apply(who, move, events=False)
    start, dealt = ref.observation(0), Referee(record.start()).observation(0)
    assert rv.luck == pytest.approx(model_for(record.rules).chance(start)) and rv.luck_se == 0.0
    assert rv.luck != pytest.approx(model_for(record.rules).chance(dealt))
    assert rv.luck_by == "model" and s["luck_by"] == "model"
    assert phase2_luck(record, 0) == (rv.luck, 0.0)  # the one function the review and the benchmark call
    table = luck_calibration(record.rules, rv.players)  # three players, Mattis: shown, ± its own calibration
    assert rv.luck_shown and table is not None and table != MODEL_CALIBRATION
    assert rv.luck_margin() == pytest.approx(2 * table) and s["luck_margin"] == round(rv.luck_margin(), 4)
    assert review(record, 0, SMALL, seed=2).luck == rv.luck
    assert s["base_rate"] == pytest.approx(2 / 3, abs=1e-4)
    text = review_text(rv, "en")
    # The accuracy's ± is two standard errors, as every ± of the review (said once, in the marks line).
    assert f"Accuracy in phase 2: {round(acc[0])} ± {round(2 * acc[1])} (of 100" in text, text
    assert "by the model" in text and "when phase 2 began" in text and "are not judged" in text
    assert "does not yet predict better than the average" in text
    assert "phase 1" not in " ".join(line for line in text.splitlines() if "??" in line or " ?" in line)
    # A position in phase 2 has no deal to be lucky in.
    assert review(puzzle_record("play 5D"), 0, SMALL, seed=1).luck is None


def test_without_numpy_the_luck_comes_from_playouts_with_its_standard_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import mattis.lab.review

    monkeypatch.setattr(mattis.lab.review, "has_numpy", lambda: False)
    rv = review(_rollout_game(2, 3), 0, SMALL, seed=1)
    assert rv.luck_by == "playouts" and rv.luck is not None and 0.0 < rv.luck_se < 0.5
    # two standard errors (as the marks line says) of its sampling and the playouts' calibration error
    assert f"± {round(100 * shown_margin(rv.luck_se))}%" in review_text(rv, "en")


def test_phase1_figures_are_shown_only_where_the_moves_differ_beyond_two_standard_errors() -> None:
    """The rule of docs/analyze.md: a phase 1 decision shows its chance before → after only
    where its best and worst moves differ by more than two standard errors of that spread."""
    rv = review(_rollout_game(2, 3), 0, Budget(samples=16, solver_cards=0), seed=1)
    lines = review_text(rv, "en").splitlines()
    phase1 = [d for d in rv.decisions if not d.judged]
    assert any(d.informative for d in phase1) and not all(d.informative for d in phase1)
    for d in phase1:
        worst = min(d.moves, key=lambda v: v.chance)
        best = next(v for v in d.moves if v.move == d.best)
        gap_se = 0.0 if worst is best else worst.gap_se if worst.gap_se is not None else math.hypot(best.se, worst.se)
        assert d.informative == (d.before - worst.chance > 2 * gap_se)
        line = next(x for x in lines if x.startswith(f"{d.number}. "))
        assert ("→" in line) == d.informative and "(not judged)" in line
        assert d.to_json()["informative"] == d.informative


def test_a_review_shares_its_checks_and_second_looks_however_long_the_game() -> None:
    """The cost of a review is bounded by the record alone, not by a clock: the checks of
    one review play at most ``CHECK_SHARE`` times the budget per move in all, each
    playout weighted by the cards still in play (``in_play``), the most promising
    candidates first (a game of random players has more candidates than that pays for:
    some stay unchecked and unmarked), and the second looks share ``SECOND_SHARE`` times
    the budget (never under a quarter of it each)."""
    budget = Budget(samples=4)
    record = _random_game(2, 3)
    rv = review(record, 0, budget, seed=0)
    ref, weight = Referee(record.start()), {}
    for number, text in enumerate(record.moves, start=1):
        who, move = parse_record_move(text)
        if who == 0:
            weight[number] = in_play(ref.observation(0))
        ref.apply(who, move, events=False)
    checked = [d for d in rv.decisions if d.check is not None]
    spent = sum(d.check[2] * weight[d.number] for d in checked if d.check is not None)
    assert spent <= CHECK_SHARE * budget.samples + 1e-9
    unchecked = [d for d in rv.decisions if d.judged and d.check is None and d.best != d.played and not d.proven
                 and d.verdict_best is None and d.cost - CANDIDATE_Z * d.cost_se >= DUBIOUS]
    assert unchecked and len(checked) >= 3
    # the most promising candidate was checked first
    top = max(checked + unchecked, key=lambda d: (d.cost - CANDIDATE_Z * d.cost_se, -d.number))
    assert top.check is not None
    assert 0 < in_play(Referee(record.start()).observation(0)) <= 1
    b = Budget(samples=64)
    assert second_samples(b, 10) == second_samples(b, 12) == 64
    assert second_samples(b, 43) == 12 * 64 // 43 and second_samples(b, 500) == 16


def test_progress_reaches_its_total_only_when_every_decision_is_judged() -> None:
    """The second looks and checks run after the walk over the record: until they are
    done the progress stays short of its total (a page showing it never says "done"
    while the review still works), then one last report says total of total, after
    the review's last question whether it was cancelled."""
    events: list[tuple[int, int] | None] = []  # a progress report, or None: asked whether cancelled

    def asked() -> bool:
        events.append(None)
        return False

    rv = review(_seeded_game(7), 0, TINY, seed=3, progress=lambda done, total: events.append((done, total)),
                cancelled=asked)
    seen = [e for e in events if e is not None]
    total = len(rv.decisions)
    assert total > 2 and {t for _, t in seen} == {total}
    assert events[-1] == (total, total)  # after the last question: every decision judged
    assert all(done < total for done, _ in seen[:-1])
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
