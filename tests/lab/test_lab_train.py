"""Training the value model: a tiny run beats the base rate on held-out games.

Not the shipped model's training (that is a command, ``python -m mattis.lab.train``,
run outside CI): a few hundred ``easy`` games, a few epochs, and the held-out games'
Brier score of the observer's chance must be below the base rate's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mattis.bots.value import load_models
from mattis.core import preset
from mattis.lab.train import (
    PHASE_COLUMN,
    base_brier,
    cached_positions,
    cached_self_play,
    generate,
    main,
    merge,
    parse_more,
    phase_skill,
    positions,
    replay,
    score,
    self_play,
    split,
    target,
    train,
)
from mattis.play import Referee


def test_a_tiny_model_beats_the_base_rate_on_held_out_games() -> None:
    data = generate(preset("mattis"), 300, seed=5, players=(3,), mix=(("easy", 1.0),), sample=0.1)
    tr, va = split(data)
    assert all(int(g) % 10 == 9 for d in va.values() for g in d.game)
    assert not set(np.concatenate([d.game for d in tr.values()])) & set(np.concatenate([d.game for d in va.values()]))
    model = train(tr, seed=5, valid=va, epochs=6, hidden=(16, 8))
    _, brier, rows = score(model, va)
    assert rows > 500
    assert brier < base_brier(va) - 0.005


def test_recorded_games_replay_to_their_outcome() -> None:
    rules = preset("hund")
    games = self_play(rules, 6, seed=2, players=(3, 4), mix=(("easy", 1.0), ("random", 1.0)), epsilons=(0.0, 0.2))
    assert [g.number for g in games] == list(range(6))
    assert [g.players for g in games] == [3, 4, 3, 4, 3, 4]
    assert any("random" in g.seats for g in games)
    for rec in games:
        ref: Referee | None = None
        for ref, seat, move in replay(rules, rec):
            assert move in ref.observation(seat).legal
        assert ref is not None  # the generator applied the last move when it ran out
        assert ref.is_over and ref.outcome is not None and tuple(ref.outcome.losers) == rec.losers
    # the same run again plays the same games
    assert self_play(rules, 6, seed=2, players=(3, 4), mix=(("easy", 1.0), ("random", 1.0)),
                     epsilons=(0.0, 0.2)) == games


def test_targets_are_the_losers_share_seen_from_the_seat() -> None:
    assert target((1,), 3, 0) == [0.0, 1.0, 0.0]
    assert target((1,), 3, 1) == [1.0, 0.0, 0.0]
    assert target((0, 2), 4, 2) == [0.5, 0.0, 0.5, 0.0]
    assert target((), 2, 0) == [0.5, 0.5]


def test_cached_games_are_read_back_not_played_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = preset("mattis")
    first = cached_self_play(rules, 3, 4, (3,), (("easy", 1.0),), (0.0,), tmp_path)
    assert len(list(tmp_path.iterdir())) == 1

    def refuse(*args: object) -> None:
        raise AssertionError("played again")

    monkeypatch.setattr("mattis.lab.train.self_play", refuse)
    assert cached_self_play(rules, 3, 4, (3,), (("easy", 1.0),), (0.0,), tmp_path) == first
    a = positions(rules, first, 4, sample=0.3)
    b = positions(rules, first, 4, sample=0.3)
    assert all(np.array_equal(a[n].x, b[n].x) and np.array_equal(a[n].y, b[n].y) for n in a)
    kept = cached_positions(rules, first, 4, 0.3, tmp_path)
    monkeypatch.setattr("mattis.lab.train.positions", refuse)
    again = cached_positions(rules, first, 4, 0.3, tmp_path)
    assert all(np.array_equal(getattr(kept[n], k), getattr(again[n], k)) and np.array_equal(a[n].x, again[n].x)
               for n in a for k in ("x", "live", "y", "game"))
    with pytest.raises(AssertionError, match="played again"):  # another share is another set of positions
        cached_positions(rules, first, 4, 0.2, tmp_path)


def test_the_training_command_writes_loadable_weights_and_repeats_itself(tmp_path: Path, capsys: object) -> None:
    outs = [tmp_path / "a.npz", tmp_path / "b.npz"]
    for out in outs:
        assert main(["--rules", "hund", "--games", "20", "--seed", "3", "--out", str(out), "--players", "3",
                     "--mix", "easy", "--more", "10=random@0.5", "--epochs", "1", "--hidden", "8,4", "--quiet"]) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "seed 3" in text and "30 games" in text and "positions" in text
    assert "held-out skill on the part 10 games of random (sample 0.5): phase 1:" in text
    a, b = (load_models(str(out))["hund"] for out in outs)
    assert sorted(load_models(str(outs[0]))) == ["hund"]
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True))


def test_more_games_keep_their_own_share_of_positions_and_are_scored_per_phase() -> None:
    assert parse_more("600=medium:0.5,hard:0.5@0.2", 0.05) == (600, "medium:0.5,hard:0.5", 0.2)
    assert parse_more("100=expert", 0.05) == (100, "expert", 0.05)
    rules = preset("mattis")
    games = self_play(rules, 20, seed=6, players=(3,), mix=(("easy", 1.0),))
    few, many = positions(rules, games, 6, sample=0.05), positions(rules, games, 6, sample=0.5)
    both = merge([few, many])
    assert both[3].rows == few[3].rows + many[3].rows > 2 * few[3].rows
    assert np.array_equal(both[3].y[:few[3].rows], few[3].y)
    model = train(both, seed=6, epochs=1, hidden=(8, 4))
    cells = phase_skill(model, both)
    assert sorted(cells) == [1, 2]
    assert sum(k for _, k in cells.values()) == both[3].rows
    # the same skill by hand: the phase is the global facts' one-hot
    d = both[3]
    q = model.batch(d.x, d.live)[:, 0]
    y = d.y[:, 0]
    phase = np.argmax(d.x[:, 0, PHASE_COLUMN:PHASE_COLUMN + 3], axis=1) + 1
    for ph, (sk, k) in cells.items():
        sel = phase == ph
        assert k == int(sel.sum())
        assert sk == pytest.approx(1 - ((q[sel] - y[sel]) ** 2).mean() / ((y[sel] - y[sel].mean()) ** 2).mean(),
                                   rel=1e-5)


def test_training_can_start_from_weights_and_keeps_them_where_no_epoch_does_better() -> None:
    rules = preset("mattis")
    data = positions(rules, self_play(rules, 40, seed=8, players=(3,), mix=(("easy", 1.0),)), 8, sample=0.3)
    tr, va = split(data)
    start = train(tr, seed=8, epochs=1, hidden=(8, 4))
    kept = train(tr, seed=8, valid=va, epochs=0, init=start)
    assert all(np.array_equal(x, y) for x, y in zip(start.arrays().values(), kept.arrays().values(), strict=True))
    moved = train(tr, seed=8, epochs=1, init=start, hidden=(64, 32))
    assert moved.w1.shape == start.w1.shape == (start.w1.shape[0], 8)  # the starting model's layer sizes
    assert not np.array_equal(moved.w1, start.w1)
    assert score(moved, tr)[0] < score(start, tr)[0]
