"""The compiled core (mypyc, see setup.py) plays exactly the games of the pure one:
seeded games hash the same under ``MATTIS_PURE=1`` and without, and the switch says
which core runs."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mattis
from mattis.core import PRESETS, State, build_kind, preset
from tiers import run_on_core, scale

SCRIPT = Path(__file__).with_name("build_games.py")
GAMES = scale(80, 300)
"""Seeded games per preset (over its player counts)."""


def _run(pure: bool, games: int) -> dict[str, str]:
    return run_on_core(SCRIPT, games, pure)


def _compiled_installed() -> bool:
    env = {**os.environ, "MATTIS_PURE": "0"}
    done = subprocess.run([sys.executable, "-c", "import mattis.core as c; print(c.build_kind())"], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip() == "compiled"


def test_the_switch_says_which_core_runs() -> None:
    kind = build_kind()
    assert kind in ("compiled", "pure")
    assert mattis.CORE_BUILD.startswith("compiled" if kind == "compiled" else "pure Python")
    pure = _run(True, 1)
    assert pure["build"] == "pure"


def test_compiled_and_pure_cores_play_the_same_games() -> None:
    if os.environ.get("MATTIS_PURE") == "1":
        # CI's second pass (the core's tests on the pure core): this test starts both
        # cores itself, whichever the pass runs, so the first pass has compared them.
        pytest.skip("compared in the pass on the compiled core (this test starts both cores itself)")
    if not _compiled_installed():
        pytest.skip("the compiled core is not built here (pip install . with a C compiler builds it)")
    compiled, pure = _run(False, GAMES), _run(True, GAMES)
    assert compiled.pop("build") == "compiled"
    assert pure.pop("build") == "pure"
    assert set(compiled) == set(PRESETS)
    assert compiled == pure


def test_a_seeded_deal_is_the_deck_random_shuffle_deals() -> None:
    """``State.new`` deals without ``random.shuffle``'s Python loop, but the same decks
    (a deal is what a seed means in every saved game and test)."""
    for seed in [*range(300), 2**63 - 1, "golden/mattis/3/7"]:
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        assert State.new(preset("mattis"), 3, seed=seed).deck == tuple(deck), seed


def test_a_source_edited_after_the_build_runs_as_python(tmp_path: Path) -> None:
    """A copy of the package whose ``state.py`` changed since the build runs the pure
    core (and says why) rather than stale compiled code."""
    if not _compiled_installed():
        pytest.skip("the compiled core is not built here (pip install . with a C compiler builds it)")
    package = Path(mattis.__file__).parent
    shutil.copytree(package, tmp_path / "mattis", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in package.parent.glob("mattis_core__mypyc*"):
        shutil.copy2(shared, tmp_path / shared.name)
    probe = "import mattis, mattis.core as c; print(c.build_kind()); print(mattis.CORE_BUILD)"
    env = {**os.environ, "MATTIS_PURE": "0", "PYTHONPATH": str(tmp_path)}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], env=env, capture_output=True,
                              text=True, check=True, cwd=tmp_path)
        return done.stdout.splitlines()

    assert run()[0] == "compiled"
    with (tmp_path / "mattis" / "core" / "state.py").open("a") as f:
        f.write("\n# edited after the build\n")
    kind, words = run()
    assert kind == "pure"
    assert "state" in words and "changed" in words
