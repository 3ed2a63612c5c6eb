"""``mattis tournament --ray`` and ``run_jobs(ray=...)`` against a real local Ray head.

One head per module (``ray start --head --block`` on free ports with its own
temporary folder, stopped by signalling that one process, which stops the
processes it started); small tournaments with cheap bots.  The tests that need
Ray skip, saying why, where it is not installed (CI installs the ``ray`` extra).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import mattis
from mattis.cli.main import main
from mattis.lab.pool import PoolError, run_jobs
from tiers import HUNG, wait_until

HAVE_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(not HAVE_RAY, reason="ray is not installed (pip install '.[ray]')")

BASE = ["tournament", "--bots", "rollout,heuristic,random", "--seed", "7", "--no-progress"]


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _closed_port() -> int:
    return _free_ports(1)[0]


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """The address of a Ray head started for this module (2 CPUs), stopped afterwards."""
    if not HAVE_RAY:
        pytest.skip("ray is not installed (pip install '.[ray]')")
    port, agent, agent_grpc, env_agent, metrics, node, obj = _free_ports(7)
    folder = tempfile.mkdtemp(prefix="mattis-ray-")  # short: Ray's socket paths must fit in 107 bytes
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    # No token authentication whatever ~/.ray holds (a driver given an address sends no token unless told).
    env["RAY_AUTH_MODE"] = "disabled"
    # The workers import this checkout's mattis, as the test process does.
    src = str(Path(mattis.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])
    log = open(os.path.join(folder, "start.log"), "w+")
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", "--port", str(port),
         "--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats", "--temp-dir", folder,
         "--object-store-memory", str(80 * 2**20),
         "--dashboard-agent-listen-port", str(agent), "--dashboard-agent-grpc-port", str(agent_grpc),
         "--runtime-env-agent-port", str(env_agent), "--metrics-export-port", str(metrics),
         "--node-manager-port", str(node), "--object-manager-port", str(obj)],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + HUNG  # only a hung head fails by time
        while True:
            log.seek(0)
            text = log.read()
            if "block forever" in text:
                break
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start --head did not come up:\n{text[-3000:]}")
            time.sleep(0.3)
        yield f"127.0.0.1:{port}"
    finally:
        head.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _games(out: Path) -> dict[tuple[int, int, int], tuple[str, ...]]:
    """Every seat of every game, keyed by (deal, rotation, seat); the think time (a clock) left out."""
    with open(out / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    games: dict[tuple[int, int, int], tuple[str, ...]] = {(int(r["deal"]), int(r["rotation"]), int(r["seat"])):
             (r["bot"], r["lost"], r["place"], r["decisions"], r["end_reason"]) for r in rows}
    assert len(games) == len(rows), "no seat of a game twice"
    return games


@needs_ray
def test_same_seed_same_per_deal_results_locally_and_on_ray(ray_head: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert main(BASE + ["--deals", "3", "--workers", "2", "--out", str(local)]) == 0
    assert main(BASE + ["--deals", "3", "--ray", ray_head, "--out", str(on_ray)]) == 0
    a, b = _games(local), _games(on_ray)
    assert sorted(a) == [(d, r, s) for d in range(3) for r in range(3) for s in range(3)]
    assert a == b
    # Each game has one loser, and the deals differ from one another (the seeds reached the workers).
    assert all(sum(int(a[(d, r, s)][1]) for s in range(3)) == 1 for d in range(3) for r in range(3))
    assert len({tuple(a[(d, 0, s)] for s in range(3)) for d in range(3)}) > 1
    assert json.loads((local / "tournament.json").read_text()) == json.loads((on_ray / "tournament.json").read_text())
    err = capsys.readouterr().err
    assert f"0 games done, 9 to play on the Ray cluster at {ray_head}" in err


@needs_ray
def test_a_lab_study_on_ray_gives_the_local_report_byte_for_byte(ray_head: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    study = ["lab", "seats", "--games", "8", "--seed", "3", "--rules", "mattis,skitgubbe", "--players", "3",
             "--no-progress"]
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert main(study + ["--workers", "2", "--out", str(local)]) == 0
    assert main(study + ["--ray", ray_head, "--out", str(on_ray)]) == 0
    assert "to play on the Ray cluster at" in capsys.readouterr().err
    report = (local / "report.md").read_text(encoding="utf-8")
    assert "mattis lab seats --games 8 --seed 3" in report
    assert (on_ray / "report.md").read_text(encoding="utf-8") == report
    lines = sorted((on_ray / "results.jsonl").read_text(encoding="utf-8").splitlines())
    assert len(lines) == 16  # 8 games in each of the two cells, each once
    assert sorted((local / "results.jsonl").read_text(encoding="utf-8").splitlines()) == lines


@needs_ray
def test_resume_on_ray_after_a_cut_short_run_gives_the_same_rows(ray_head: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    local, part = tmp_path / "local", tmp_path / "part"
    assert main(BASE + ["--deals", "2", "--workers", "1", "--out", str(local)]) == 0
    assert main(BASE + ["--deals", "1", "--ray", ray_head, "--out", str(part)]) == 0
    # Cut short: the run died while writing a game of deal 1.
    with open(part / "results.csv", "a") as f:
        f.write("1,0,0,rollout,0,1,12,0.01,normal\n1,0,1,heuristic,1,")
    capsys.readouterr()
    assert main(BASE + ["--deals", "2", "--ray", ray_head, "--out", str(part), "--resume"]) == 0
    assert "3 games done, 3 to play on the Ray cluster" in capsys.readouterr().err
    assert _games(part) == _games(local)
    before = (part / "results.csv").read_text()
    assert main(BASE + ["--deals", "2", "--ray", ray_head, "--out", str(part), "--resume"]) == 0
    assert (part / "results.csv").read_text() == before  # nothing left to play


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child before it starts: SIGINT does what it does at a terminal.  A test run
    started in the background by a shell without job control (``pytest ... &``, as a CI
    script may be) ignores SIGINT, and a child inherits that: Python then never raises
    KeyboardInterrupt, and the run this test interrupts would play on to its end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@needs_ray
@pytest.mark.slow
def test_ctrl_c_on_ray_stops_with_the_resume_command_and_resume_completes_the_run(ray_head: str,
                                                                                   tmp_path: Path) -> None:
    out, local = tmp_path / "cut", tmp_path / "local"
    cheap = ["tournament", "--bots", "heuristic,random,random", "--seed", "3", "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(Path(mattis.__file__).resolve().parents[1]))
    run = subprocess.Popen([sys.executable, "-m", "mattis.cli.main", *cheap, "--deals", "5000", "--ray", ray_head,
                            "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                           preexec_fn=_ctrl_c_as_at_a_terminal)

    def some_rows() -> bool:  # a few games in (not a time: a slow machine only takes longer)
        if run.poll() is not None:
            pytest.fail(f"the run ended before it was interrupted: {run.communicate()[1][-3000:]}")
        return (out / "results.csv").exists() and len((out / "results.csv").read_text().splitlines()) > 1 + 9

    wait_until(some_rows, "the run's first results", poll=0.2)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=HUNG)
    assert run.returncode == 130, err
    assert "interrupted:" in err and f"--ray {ray_head}" in err and "--resume" in err and "Traceback" not in err
    cut = _games(out)
    assert 9 <= len(cut) < 5000 * 9
    deals = max(d for d, _, _ in cut) + 2
    assert main(cheap + ["--deals", str(deals), "--ray", ray_head, "--out", str(out), "--resume"]) == 0
    assert main(cheap + ["--deals", str(deals), "--workers", "1", "--out", str(local)]) == 0
    resumed = _games(out)
    assert {k: v for k, v in resumed.items() if k[0] < deals} == _games(local)
    assert {k: v for k, v in resumed.items() if k[0] >= deals} == {k: v for k, v in cut.items() if k[0] >= deals}


@needs_ray
def test_run_jobs_on_ray_yields_every_result_once_and_stops_cleanly(ray_head: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    # A connection the caller made is used as it is (and left open): one set of Ray workers for the test.
    ray.init(address=ray_head, log_to_driver=False)
    try:
        jobs = list(range(60))
        assert sorted(run_jobs(math.factorial, jobs, ray=ray_head)) == [math.factorial(j) for j in jobs]
        assert sorted(run_jobs(math.factorial, jobs, workers=3, ray=ray_head)) == [math.factorial(j) for j in jobs]
        # A consumer that stops early: nothing more is submitted, and the next run is whole.
        results = run_jobs(abs, [-j for j in range(200)], ray=ray_head)
        first = [next(results) for _ in range(5)]
        results.close()  # type: ignore[attr-defined]
        assert all(r in range(200) for r in first)
        assert sorted(run_jobs(abs, [-5, 5, -6], ray=ray_head)) == [5, 5, 6]
        assert list(run_jobs(abs, [], ray=ray_head)) == []
        # A function the workers cannot import (here: a module only this process has on its path).
        (tmp_path / "only_on_the_driver.py").write_text("def plus_one(x: int) -> int:\n    return x + 1\n")
        monkeypatch.syspath_prepend(str(tmp_path))
        here = importlib.import_module("only_on_the_driver")
        assert here.plus_one(1) == 2
        with pytest.raises(PoolError, match="a Ray worker cannot import only_on_the_driver: install the same"):
            list(run_jobs(here.plus_one, [1, 2], ray=ray_head))
        assert ray.is_initialized()
    finally:
        ray.shutdown()


@needs_ray
def test_a_bad_address_exits_2_with_one_line_and_keeps_the_run(ray_head: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(BASE + ["--deals", "1", "--workers", "1", "--out", str(out)]) == 0
    before = (out / "results.csv").read_text(), (out / "tournament.json").read_text()
    capsys.readouterr()
    for address in (f"127.0.0.1:{_closed_port()}", "nosuchhost.invalid:6379", "127.0.0.1:notaport", " "):
        assert main(BASE + ["--deals", "2", "--ray", address, "--out", str(out), "--resume"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("mattis tournament:") and "\n" not in err and "Traceback" not in err, err
        assert "Ray cluster" in err or "--ray" in err, err
        assert ((out / "results.csv").read_text(), (out / "tournament.json").read_text()) == before
    with pytest.raises(PoolError, match="cannot reach the Ray cluster"):
        run_jobs(abs, [1], ray=f"127.0.0.1:{_closed_port()}")


def test_without_ray_installed_the_message_names_the_install_command(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    assert main(BASE + ["--deals", "1", "--ray", "auto", "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mattis tournament:") and "\n" not in err and "pip install '.[ray]'" in err
    assert not (tmp_path / "run").exists()
    with pytest.raises(PoolError, match="not installed"):
        run_jobs(abs, [1], ray="auto")
