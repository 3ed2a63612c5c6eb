"""The calibration benchmark's paired comparison of two weights files (``--baseline``).

How a new value model is chosen (docs/analyze.md): both files score the same decisions
and the table gives ``--weights`` minus ``--baseline``.  Run on two quick `easy`
games, through the benchmark's command line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from tiers import HUNG

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "src" / "mattis" / "bots" / "value_weights.npz"


def compare(weights: Path, baseline: Path) -> dict[int, tuple[float, float, float]]:
    """Per phase of mattis: (the baseline's skill, the weights' skill, weights - baseline)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "value_calibration.py"), "--rules", "mattis", "--games", "2",
         "--level", "easy", "--seed", "3", "--weights", str(weights), "--baseline", str(baseline)],
        capture_output=True, text=True, check=True, env=env, timeout=HUNG).stdout
    rows = re.findall(r"^\| mattis \| (\d) \| \d+ \| ([+-][\d.]+) \| ([+-][\d.]+) \| ([+-][\d.]+) \(", out, re.M)
    return {int(ph): (float(b), float(w), float(d)) for ph, b, w, d in rows}


def test_the_comparison_is_new_minus_baseline_on_the_same_decisions(tmp_path: Path) -> None:
    with np.load(SHIPPED) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["mattis/w3"] = np.zeros_like(arrays["mattis/w3"])  # every seat scored alike: 1/3 each
    flat = tmp_path / "flat.npz"
    np.savez(flat, **arrays)
    same = compare(SHIPPED, SHIPPED)
    assert set(same) == {1, 2}
    assert all(d == 0.0 and b == w for b, w, d in same.values())
    one = compare(flat, SHIPPED)
    other = compare(SHIPPED, flat)
    for ph in (1, 2):
        b, w, d = one[ph]
        assert (other[ph][0], other[ph][1]) == (w, b)
        assert abs(d - (w - b)) <= 0.0015 and abs(other[ph][2] + d) <= 0.0015
    assert one[2][2] < 0  # a constant guess has less skill in phase 2 than the shipped model
