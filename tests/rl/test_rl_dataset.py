"""The dataset command (``python -m mattis.rl.dataset``): a small sample written and
read back: its shapes, every action legal under its mask, and every game replayed from
the file alone (deal seed, dealer, actions) to the recorded tensors, masks and outcome."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.core import State  # noqa: E402
from mattis.play import Referee  # noqa: E402
from mattis.rl.common import make_rules  # noqa: E402
from mattis.rl.dataset import ARRAYS, main, read_dataset  # noqa: E402
from mattis.rl.encoding import ActionSpace, encode, obs_size  # noqa: E402
from tiers import HUNG, scale  # noqa: E402

SAMPLES = [
    ["--rules", "mattis", "--players", "3", "--bots", "easy,random,medium", "--seed", "4"],
    ["--rules", "skitgubbe", "--set", "sequences=2", "--players", "2", "--bots", "random", "--seed", "5",
     "--card-order", "rank_major"],
]


def _write(tmp_path: Path, args: list[str], games: int, name: str = "d.npz") -> Path:
    out = tmp_path / name
    assert main(["--out", str(out), "--games", str(games), *args]) == 0
    return out


def _replay(arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    rules = make_rules(meta["rules"], meta["overrides"])
    players = meta["players"]
    space = ActionSpace(rules, meta["card_order"])
    game = arrays["game"]
    for g in range(len(arrays["moves"])):
        rows = np.flatnonzero(game == g)
        assert list(arrays["ply"][rows]) == list(range(len(rows))) == list(range(arrays["moves"][g]))
        ref = Referee(State.new(rules, players, seed=int(arrays["deal_seed"][g]), dealer=int(arrays["dealer"][g])))
        for i in rows:
            seat = int(arrays["seat"][i])
            assert ref.to_act == seat
            obs = ref.observation(seat)
            assert np.array_equal(arrays["obs"][i], encode(obs, card_order=meta["card_order"]))
            assert np.array_equal(arrays["mask"][i], space.mask(obs.legal).astype(bool))
            ref.apply(seat, space.move(int(arrays["action"][i])))
        over = ref.outcome
        assert over is not None and ref.to_act is None
        assert set(np.flatnonzero(arrays["losers"][g])) == set(over.losers)
        assert arrays["termination"][g] == over.termination.value
        assert list(arrays["outcome"][rows]) == [-1.0 if s in over.losers else 0.0 for s in arrays["seat"][rows]]


@pytest.mark.parametrize("args", SAMPLES, ids=["mattis-mixed", "skitgubbe-sequences"])
def test_a_written_sample_reads_back_and_replays_to_its_outcomes(tmp_path: Path, args: list[str]) -> None:
    games = scale(3, 12)
    arrays, meta = read_dataset(_write(tmp_path, args, games))
    d = meta["decisions"]
    players = meta["players"]
    assert set(arrays) == set(ARRAYS) and meta["schema"] == 1 and meta["games"] == games
    assert arrays["obs"].shape == (d, obs_size(players)) and arrays["obs"].dtype == np.float32
    assert arrays["mask"].shape == (d, meta["actions"]) and arrays["mask"].dtype == np.bool_
    assert arrays["losers"].shape == (games, players) and arrays["moves"].sum() == d
    for name in ("action", "seat", "game", "ply", "outcome"):
        assert arrays[name].shape == (d,)
    # every action is legal under its mask, and the game has choices (not only forced moves)
    assert arrays["mask"][np.arange(d), arrays["action"]].all()
    assert (arrays["mask"].sum(axis=1) > 1).mean() > 0.2
    assert arrays["losers"].any(axis=1).all()
    _replay(arrays, meta)


def test_the_same_seed_writes_the_same_arrays_and_another_seed_other_games(tmp_path: Path) -> None:
    args = ["--players", "3", "--bots", "random,easy,random"]
    a, _ = read_dataset(_write(tmp_path, [*args, "--seed", "9"], 2, "a.npz"))
    b, _ = read_dataset(_write(tmp_path, [*args, "--seed", "9"], 2, "b.npz"))
    c, _ = read_dataset(_write(tmp_path, [*args, "--seed", "10"], 2, "c.npz"))
    assert all(np.array_equal(a[k], b[k]) for k in ARRAYS)
    assert not np.array_equal(a["deal_seed"], c["deal_seed"])


@pytest.mark.parametrize("args,message", [
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", "easy,easy"], "2 bots for 3 players"),
    (["--rules", "nope"], "unknown rules 'nope'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--card-order", "sideways"], "card_order"),
])
def test_bad_arguments_give_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "x.npz"
    done = subprocess.run([sys.executable, "-m", "mattis.rl.dataset", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=HUNG)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr.splitlines()[-1]
    assert not out.exists()
