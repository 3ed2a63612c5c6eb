"""The shipped policy (examples/checkpoints/rl_learn_policy.npz, the learning recipe's
run saved by ``examples/rl_learn.py --save``): it loads and plays whole games with
legal moves only, its baseline table in docs/research.md is the committed run's
(docs/img/rl_checkpoint_table.json, made from this very file: its hash), and the table's
command runs."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("gymnasium", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.lab.arena import wilson  # noqa: E402
from mattis.rl.gym_env import MattisEnv  # noqa: E402
from tiers import HUNG  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = ROOT / "examples" / "checkpoints" / "rl_learn_policy.npz"
TABLE = ROOT / "docs" / "img" / "rl_checkpoint_table.json"
SCRIPT = ROOT / "examples" / "rl_checkpoint_table.py"


def _recipe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_learn", ROOT / "examples" / "rl_learn.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_learn"] = module
    spec.loader.exec_module(module)
    return module


R = _recipe()


def test_the_checkpoint_loads_and_plays_legal_moves_to_the_end() -> None:
    scorer, feats, settings = R.load_checkpoint(CHECKPOINT)
    assert settings["rules"] == "mattis" and settings["players"] == 3
    player = R.learner_player(scorer, feats)
    env = MattisEnv(opponents="easy", seat="rotate")
    for episode in range(3):
        obs, _ = env.reset(seed=episode)
        steps = 0
        while True:
            mask = env.action_masks()
            a = player(env, obs, mask)
            assert mask[a]
            obs, _, term, trunc, info = env.step(a)
            steps += 1
            if term or trunc:
                assert not info.get("illegal_action")
                break
        assert steps > 5
    # the same observation gives the same greedy action (no sampling at play time)
    obs, _ = env.reset(seed=7)
    assert player(env, obs, env.action_masks()) == player(env, obs.copy(), env.action_masks())


def test_the_docs_table_is_the_committed_run_of_this_checkpoint() -> None:
    committed = json.loads(TABLE.read_text(encoding="utf-8"))
    assert committed["sha256"] == hashlib.sha256(CHECKPOINT.read_bytes()).hexdigest()
    assert [r["opponents"] for r in committed["table"]] == ["random", "easy", "medium", "hard"]
    for r in committed["table"]:
        lo, hi = wilson(r["lost"], r["games"])
        assert (round(lo, 9), round(hi, 9)) == (round(r["lo"], 9), round(r["hi"], 9))
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert "\n".join(R.table_lines(committed["table"])) in text


def test_the_table_command_runs_and_refuses_a_missing_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "2", "--opponents", "random", "--json", str(out)],
                          capture_output=True, text=True, timeout=HUNG, check=True)
    assert "| learner | 2x random | 2 |" in done.stdout
    assert json.loads(out.read_text(encoding="utf-8"))["table"][0]["games"] == 2
    bad = subprocess.run([sys.executable, str(SCRIPT), "--checkpoint", str(tmp_path / "none.npz")],
                         capture_output=True, text=True, timeout=HUNG)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "no such checkpoint" in bad.stderr.splitlines()[-1]
