"""The quick start script ``./play`` (README, "Quick start"): without a usable Python it
says what to install in one line and exits 1, before touching anything; with one it
makes its venv only where told.  (Installing for real needs the package index; it was
tried by hand on Debian's own Python, see the README.)"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "play"


def _run(tmp_path: Path, python: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "PYTHON": python,
           "MATTIS_VENV": str(tmp_path / "venv")}
    return subprocess.run(["sh", str(SCRIPT), "--help"], env=env, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def test_the_script_is_executable_posix_sh() -> None:
    assert os.access(SCRIPT, os.X_OK)
    assert SCRIPT.read_text(encoding="utf-8").startswith("#!/bin/sh\n")
    assert subprocess.run(["sh", "-n", str(SCRIPT)], timeout=30).returncode == 0


def test_no_python_is_one_line_and_exit_1(tmp_path: Path) -> None:
    proc = _run(tmp_path, "no-such-python3")
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "python3-venv" in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_an_old_python_is_refused_before_any_venv_is_made(tmp_path: Path) -> None:
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\n[ \"$1\" = -c ] && case \"$2\" in *exit*) exit 1;; *) echo 3.9.2;; esac\n")
    fake.chmod(0o755)
    proc = _run(tmp_path, str(fake))
    assert proc.returncode == 1
    assert "3.11" in proc.stderr and "3.9.2" in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_the_resume_hint_names_the_script_and_the_game_by_number(tmp_path: Path) -> None:
    """A ./play user is told ``./play --resume 1`` (the command they have, the game by its
    number in --list), not ``mattis play --resume /an/absolute/path.json``."""
    import sys

    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\nexit 0\n")  # "pip install" does nothing
    (venv / "bin" / "mattis").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mattis.cli.main "$@"\n')
    for f in (venv / "bin").iterdir():
        f.chmod(0o755)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "PYTHON": sys.executable,
           "MATTIS_VENV": str(venv), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(["./play", "--plain", "--new", "--seed", "3"], cwd=SCRIPT.parent, env=env,
                          input="quit\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.endswith("Fortsett med: ./play --resume 1"), last
