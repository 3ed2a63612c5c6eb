"""Every example in README.md and docs/*.md runs as written.

The convention (README, "Development"):

* Example commands go in fenced ``console`` blocks, one command per line after a
  ``$ `` prompt (a line ending in ``\\`` goes on); lines without the prompt are the
  output and are not run.  ``sh``/``bash``/``shell`` blocks are read too, every line
  a command.
* Python examples run when the line before the fence is ``<!-- example: run -->``;
  ``>>>`` blocks run as doctests.
* ``<!-- example: skip REASON -->`` before a block leaves it out, with its reason
  (e.g. an optional heavy dependency such as sb3-contrib); ``<!-- example: slow -->``
  runs it only in the slow tier.
* Never run, whatever the block: ``pip install`` and ``./play`` (which installs into
  a venv of its own; the test runs in the installed environment) and ``bash .ci/run``
  (CI itself).  ``mattis serve`` is started, must
  answer over HTTP, and is stopped (on a free port in place of the one written).

Each command runs under ``bash`` with a temporary HOME and XDG folders, stdin closed,
in a temporary folder that links the repository's ``src`` and ``docs``, with
``mattis`` meaning this checkout's command line; it must exit 0.
"""

from __future__ import annotations

import doctest
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tiers import HUNG, is_slow

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMEOUT = HUNG
"""How long an example may run before it counts as hung (tiers.HUNG; not a speed check)."""
SHELLS = {"console", "sh", "bash", "shell"}
NEVER = (re.compile(r"^pip3? install\b|^python3? -m pip install\b"), re.compile(r"^bash \.ci/run\b"),
         re.compile(r"^\./play\b"))


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    kind: str
    """``commands`` (one block's, one per line, run in order in one folder), ``python`` or ``doctest``."""
    text: str
    marker: str
    """``""``, ``run``, ``slow`` or ``skip <reason>``."""

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def examples(path: Path) -> list[Example]:
    """The examples of one Markdown file."""
    out: list[Example] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    doc = str(path.relative_to(ROOT))
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```\s*([A-Za-z]*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, lang = fence.group(1), fence.group(2).lower()
        prev = lines[i - 1].strip() if i else ""
        m = re.fullmatch(r"<!--\s*example:\s*(.+?)\s*-->", prev)
        marker = m.group(1) if m else ""
        start = i + 1
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = [x[len(indent):] if x.startswith(indent) else x.lstrip() for x in lines[start:j]]
        if lang in SHELLS:
            block = commands(body, lang)
            if block:
                out.append(Example(doc, start + 1, "commands", "\n".join(cmd for _, cmd in block), marker))
        elif lang in ("python", "pycon", "py"):
            if body and body[0].startswith(">>>"):
                out.append(Example(doc, start + 1, "doctest", "\n".join(body) + "\n", marker))
            elif marker:
                out.append(Example(doc, start + 1, "python", "\n".join(body) + "\n", marker))
        i = j + 1
    return out


def commands(body: list[str], lang: str) -> list[tuple[int, str]]:
    """(line offset, command) for each command of a shell block."""
    out: list[tuple[int, str]] = []
    k = 0
    while k < len(body):
        line = body[k]
        first = k
        if lang == "console":
            if not line.startswith("$ "):
                k += 1
                continue
            line = line[2:]
        elif not line.strip() or line.lstrip().startswith("#"):
            k += 1
            continue
        while line.endswith("\\") and k + 1 < len(body):
            k += 1
            line = line[:-1] + " " + body[k].strip()
        out.append((first, line.strip()))
        k += 1
    return out


def runnable_parts(command: str) -> list[str]:
    """The parts of ``a && b`` that the test runs (never pip install or .ci/run), without a
    trailing ``# comment``."""
    command = re.sub(r"\s+#[^'\"]*$", "", command)
    parts = [p.strip() for p in command.split(" && ")]
    return [p for p in parts if not any(rx.search(p) for rx in NEVER)]


ALL = [e for path in DOCS for e in examples(path)]


def test_the_docs_hold_examples_and_follow_the_convention() -> None:
    ids = {e.doc for e in ALL}
    assert "README.md" in ids and "docs/play.md" in ids
    for e in ALL:
        assert e.marker in ("", "run", "slow") or re.fullmatch(r"skip \S.+", e.marker), (e.id, e.marker)
    # The README's quick start stays exactly two commands.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```(\w+)\n(.*?)```", quick, re.S)
    assert block is not None
    assert len(commands(block.group(2).splitlines(), block.group(1))) == 2


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A working folder and environment for one example."""
    work = tmp_path / "work"
    work.mkdir()
    for name in ("src", "docs"):
        (work / name).symlink_to(ROOT / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "mattis"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mattis.cli.main "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = dict(os.environ)
    env.update(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT / "src"),
               PATH=f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    env.pop("MATTIS_DEBUG", None)
    (tmp_path / "home").mkdir()
    return work, env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve(command: str, work: Path, env: dict[str, str]) -> None:
    """Start ``mattis serve ...``, check that it answers, stop it."""
    port = free_port()
    if re.search(r"--port[ =]\d+", command):
        command = re.sub(r"--port[ =]\d+", f"--port {port}", command)
    else:
        command += f" --port {port}"
    proc = subprocess.Popen(["bash", "-c", "exec " + command], cwd=work, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HUNG  # only a hung server fails by time
        while True:
            assert proc.poll() is None, f"{command} exited: {proc.communicate()[1]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=HUNG)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_example_runs_as_written(example: Example, sandbox: tuple[Path, dict[str, str]]) -> None:
    if example.marker.startswith("skip"):
        pytest.skip(f"{example.id}: {example.marker[5:]}")
    if example.marker == "slow" and not is_slow():
        pytest.skip("slow tier: run with --slow")
    work, env = sandbox
    if example.kind == "doctest":
        parser = doctest.DocTestParser()
        test = parser.get_doctest(example.text, {}, example.id, example.doc, example.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0, example.id
        return
    if example.kind == "python":
        proc = subprocess.run([sys.executable, "-c", example.text], cwd=work, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == 0, f"{example.id}: {proc.stderr[-2000:]}"
        return
    parts = [part for command in example.text.splitlines() for part in runnable_parts(command)]
    if not parts:
        pytest.skip(f"{example.id}: installs packages or runs CI ({example.text})")
    for part in parts:
        if re.match(r"^mattis serve\b", part):
            serve(part, work, env)
            continue
        proc = subprocess.run(["bash", "-c", part], cwd=work, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert proc.returncode == 0, f"{example.id}: {part}\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}"
        assert "Traceback" not in proc.stderr, f"{example.id}: {part}\n{proc.stderr[-1500:]}"
