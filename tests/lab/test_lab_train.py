"""Training the value model: a tiny run beats the base rate on held-out games.

Not the shipped model's training (that is a command, ``python -m mattis.lab.train``,
run outside CI): a few hundred ``easy`` games, a few epochs, and the held-out games'
Brier score of the observer's chance must be below the base rate's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mattis.bots.value import load_models
from mattis.core import preset
from mattis.lab.train import base_brier, generate, main, score, split, train


def test_a_tiny_model_beats_the_base_rate_on_held_out_games() -> None:
    data = generate(preset("mattis"), 300, seed=5, players=(3,), medium=0.0, sample=0.1)
    tr, va = split(data)
    assert all(int(g) % 10 == 9 for d in va.values() for g in d.game)
    assert not set(np.concatenate([d.game for d in tr.values()])) & set(np.concatenate([d.game for d in va.values()]))
    model = train(tr, seed=5, valid=va, epochs=6)
    _, brier, rows = score(model, va)
    assert rows > 500
    assert brier < base_brier(va) - 0.005


def test_the_training_command_writes_loadable_weights(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "w.npz"
    assert main(["--rules", "hund", "--games", "20", "--seed", "3", "--out", str(out), "--players", "3",
                 "--medium", "0", "--epochs", "1", "--quiet"]) == 0
    text = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "seed 3" in text and "20 games" in text and "positions" in text
    assert sorted(load_models(str(out))) == ["hund"]
