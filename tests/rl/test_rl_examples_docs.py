"""The seeded examples print what docs/research.md says they print (its "Examples"
section quotes their output; a figure that drifts fails here)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tiers import HUNG

pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install 'mattis[rl]'")
pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install 'mattis[rl]'")

ROOT = Path(__file__).resolve().parents[2]
MARK = "Their seeded output"


def documented() -> dict[str, list[str]]:
    """The quoted runs: command -> the output lines the docs show for it."""
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    start = text.index(MARK)
    block = text[text.index("```", start) + 3:]
    block = block[block.index("\n") + 1:block.index("```")]
    runs: dict[str, list[str]] = {}
    current = ""
    for line in block.splitlines():
        if line.startswith("$ "):
            current = line[2:]
            runs[current] = []
        elif line.strip():
            runs[current].append(line)
    return runs


RUNS = documented()


def _params() -> list[object]:
    out: list[object] = []
    for cmd in RUNS:
        marks = [pytest.mark.slow] if "ismcts" in cmd else []
        out.append(pytest.param(cmd, marks=marks, id=cmd.split()[1]))
    return out


def test_the_docs_quote_every_seeded_example() -> None:
    assert {shlex.split(c)[1] for c in RUNS} == {"examples/rl_pettingzoo_random.py", "examples/rl_gym_random.py",
                                                 "examples/rl_openspiel_ismcts.py", "examples/rl_learn.py"}
    assert all(RUNS.values())


@pytest.mark.parametrize("command", _params())
def test_a_seeded_example_prints_what_the_docs_say(command: str) -> None:
    argv = shlex.split(command)
    assert argv[0] == "python"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, *argv[1:]], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=HUNG, check=False)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    for want in RUNS[command]:
        # a line may go on with a wall-clock time the docs leave out ("...; 15.5 s")
        assert any(line == want or line.startswith(want + "; ") for line in printed), (want, printed)
