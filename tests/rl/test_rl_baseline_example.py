"""The MaskablePPO baseline example runs as written, with a tiny budget (only where
the train extra, sb3-contrib, is installed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the train extra is not installed: pip install 'mattis[train]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_maskable_ppo.py"


def test_the_baseline_trains_evaluates_and_writes_its_results(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("rl_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_maskable_ppo"] = module
    spec.loader.exec_module(module)
    out = tmp_path / "run"
    assert module.main(["--budget", "256", "--snapshot-every", "128", "--eval-every", "128", "--curve-games", "3",
                        "--eval-games", "4", "--medium-games", "2", "--out", str(out),
                        "--plot", str(tmp_path / "curve.png")]) == 0
    results = json.loads((out / "results.json").read_text())
    assert [c["steps"] for c in results["curve"]][:3] == [0, 128, 256]
    assert {(r["player"], r["opponents"]) for r in results["table"]} == {
        ("MaskablePPO", "easy"), ("random", "easy"), ("MaskablePPO", "medium"), ("random", "medium")}
    for r in results["table"]:
        assert 0 <= r["lo"] <= r["loss_rate"] <= r["hi"] <= 1 and r["losses"] <= r["games"]
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert (out / "maskable_ppo.zip").exists()
