"""``mattis lab STUDY``: the studies of :mod:`mattis.lab.studies`, as reports.

Each finished game is appended to ``DIR/results.jsonl`` at once, so an interrupted
run loses nothing and ``--resume`` plays only the games still missing (and refuses a
folder that holds a different run).  ``DIR/report.md`` states the command and seed
that reproduce it and every figure with its 95% interval; the same seed and games
give the same report, byte for byte (timings go to ``DIR/timing.json`` only).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any, Final

from ..core import RulesError, build_kind, parse_overrides
from ..lab.pool import PoolError, local_workers
from ..lab.studies import STUDIES, Cell, Job, Row, StudyError, analyse, make_cells, make_jobs, play_job
from ..play import atomic_write
from .args import MAX_GAMES, MAX_PLAYERS, MAX_WORKERS, counts, names, seed, whole
from .common import run_with_progress
from .main import CliError

RESULTS: Final = "results.jsonl"
META: Final = "study.json"
REPORT: Final = "report.md"
TIMING: Final = "timing.json"

#: Games per cell when --games is not given (multiples of 3 and 4: whole deals).
DEFAULT_GAMES: Final[dict[str, int]] = {"seats": 240, "skill": 24, "house": 24, "sjanse": 24, "cycles": 240}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("study", help="the study: " + "; ".join(f"{k}: {v}" for k, v in STUDIES.items()))
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=None,
                   help="games per cell (a cell: one rule set, player count and table of bots); game g is deal "
                        "g // players in seat rotation g %% players. Default: "
                        + ", ".join(f"{k} {v}" for k, v in DEFAULT_GAMES.items()))
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write report.md, the charts and results.jsonl here (default: lab-STUDY)")
    p.add_argument("--workers", type=whole(1, MAX_WORKERS), default=None, help="processes (default: one per core)")
    p.add_argument("--seed", type=seed, default=None, help="the run's seed (default: drawn, and written in the report)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run the games on a Ray cluster at ADDRESS ('auto' for a local one)")
    p.add_argument("--rules", type=names, default=None, help="presets, comma separated (default: the study's)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rule option of every preset (repeatable)")
    p.add_argument("--players", type=counts(1, MAX_PLAYERS), default=None,
                   help="player counts, comma separated (default: the study's)")
    p.add_argument("--bots", type=names, default=None,
                   help="bots, comma separated: the first is the one studied, the last fills the other seats "
                        "(default: the study's)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, playing only missing games")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _cells(args: argparse.Namespace) -> list[Cell]:
    try:
        overrides = parse_overrides(args.overrides)
        return make_cells(args.study, args.rules, args.players, args.bots, overrides)
    except (StudyError, RulesError) as e:
        raise CliError(str(e)) from None


def _check(args: argparse.Namespace) -> None:
    if args.study not in STUDIES:
        raise CliError(f"unknown study {args.study!r}; choose from {', '.join(STUDIES)}")
    if args.games is not None and args.games < 1:
        raise CliError("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")


def reproduce_command(args: argparse.Namespace, games: int, seed: int) -> str:
    """The command line that plays the same games (every choice spelled out)."""
    from ..lab.studies import DEFAULTS

    d = DEFAULTS[args.study]
    words = ["mattis", "lab", args.study, "--games", str(games), "--seed", str(seed),
             "--rules", args.rules or d["rules"], "--players", args.players or d["players"],
             "--bots", args.bots or d["bots"]]
    for item in args.overrides:
        words += ["--set", item]
    return shlex.join(words)


def _meta(args: argparse.Namespace, cells: Sequence[Cell]) -> dict[str, Any]:
    return {"study": args.study, "cells": [c.key for c in cells], "overrides": list(args.overrides)}


def _read_rows(path: str) -> list[Row]:
    """The complete rows of a results file (a line cut off mid-write is dropped)."""
    rows: dict[str, Row] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if isinstance(r, dict) and isinstance(r.get("key"), str) and "seats" in r:
                    rows[r["key"]] = r
    except FileNotFoundError:
        return []
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror}") from None
    return sorted(rows.values(), key=lambda r: str(r["key"]))


def _line(row: Row) -> str:
    return json.dumps(row, sort_keys=True, separators=(",", ":")) + "\n"


def _rewrite(path: str, rows: Sequence[Row]) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".results-", suffix=".jsonl")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.writelines(_line(r) for r in rows)
    os.replace(tmp, path)


def _prepare(args: argparse.Namespace, out: str, cells: Sequence[Cell]) -> tuple[int, int, list[Row]]:
    """Check or create the output folder; the run's seed, its games per cell so far and
    the rows already in its results file."""
    meta_path = os.path.join(out, META)
    res_path = os.path.join(out, RESULTS)
    meta = _meta(args, cells)
    if os.path.exists(meta_path) or os.path.exists(res_path):
        if not args.resume:
            raise CliError(f"{out} already holds a study; use --resume to continue it or choose another --out")
        try:
            with open(meta_path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            raise CliError(f"cannot read {meta_path}: {e}") from None
        if not isinstance(old, dict) or {k: old.get(k) for k in meta} != meta:
            what = old.get("study") if isinstance(old, dict) else "?"
            raise CliError(f"{out} holds a different run ({what}); the study, rules, players, bots and --set "
                           "must match to resume")
        seed, games = old.get("seed"), old.get("games")
        if not isinstance(seed, int) or not isinstance(games, int):
            raise CliError(f"{meta_path} has no seed or games")
        if args.seed is not None and args.seed != seed:
            raise CliError(f"--seed {args.seed} differs from the run's seed {seed}")
        return seed, games, _read_rows(res_path)
    if args.resume:
        raise CliError(f"nothing to resume in {out} (no {META})")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create {out}: {e.strerror}") from None
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    return seed, 0, []


def _resume_defaults(args: argparse.Namespace, out: str) -> None:
    """On ``--resume``, the run's own --rules, --players, --bots and --set where none are given."""
    try:
        with open(os.path.join(out, META), encoding="utf-8") as f:
            old = json.load(f)
    except (OSError, ValueError):
        return  # _prepare says what is wrong
    given = old.get("args") if isinstance(old, dict) else None
    if not isinstance(given, dict):
        return
    for name in ("rules", "players", "bots"):
        if getattr(args, name) is None and isinstance(given.get(name), str):
            setattr(args, name, given[name])
    if not args.overrides and isinstance(given.get("overrides"), list):
        args.overrides = [str(x) for x in given["overrides"]]


def run(args: argparse.Namespace) -> int:
    _check(args)
    if args.ray is not None:
        from ..lab.ray_pool import preflight

        try:
            preflight(args.ray)  # before the output folder is touched
        except PoolError as e:
            raise CliError(str(e)) from None
    out = args.out or f"lab-{args.study}"
    if args.resume:
        _resume_defaults(args, out)
    cells = _cells(args)
    seed, old_games, found = _prepare(args, out, cells)
    # On --resume, --games may grow the run, or shrink the report to the first games of
    # each cell (the games beyond stay in the results file for a later resume).
    games = args.games or old_games or DEFAULT_GAMES[args.study]
    jobs_all = make_jobs(args.study, cells, games, seed)
    keys = {j.key for j in jobs_all}
    done = [r for r in found if r["key"] in keys]
    _rewrite(os.path.join(out, RESULTS), found)
    finished = {r["key"] for r in done}
    jobs: list[Job] = [j for j in jobs_all if j.key not in finished]
    from ..lab.studies import DEFAULTS

    d = DEFAULTS[args.study]
    chosen = {"rules": args.rules or d["rules"], "players": args.players or d["players"],
              "bots": args.bots or d["bots"], "overrides": list(args.overrides)}
    meta = dict(_meta(args, cells), seed=seed, games=games, args=chosen)
    atomic_write(os.path.join(out, META), json.dumps(meta, indent=1) + "\n")
    workers = args.workers if args.ray is not None else local_workers(args.workers, len(jobs))
    where = f"the Ray cluster at {args.ray}" if args.ray is not None else f"{workers} process(es)"
    print(f"lab {args.study}: {len(cells)} cell(s) x {games} games, seed {seed}; {len(finished)} done, "
          f"{len(jobs)} to play on {where}; writing {out}", file=sys.stderr)
    rows = list(done)
    t0 = time.perf_counter()
    with open(os.path.join(out, RESULTS), "a", encoding="utf-8") as f:
        def keep(row: Row) -> None:
            rows.append(row)
            f.write(_line(row))
            f.flush()

        try:
            interrupted = run_with_progress(play_job, jobs, workers, args.ray, keep, disable=args.no_progress)
        except PoolError as e:
            again = _again(args.study, out, args.ray)
            raise CliError(f"{e}; the {len(rows)} finished games are kept, continue with: {again}") from None
    wall = time.perf_counter() - t0
    complete = len(rows) == len(jobs_all)
    command = reproduce_command(args, games, seed)
    _write_report(args.study, cells, rows, out, command, seed, games, complete)
    _timing(out, wall, len(rows) - len(done), workers)
    print(f"report: {os.path.join(out, REPORT)}", file=sys.stderr)
    if interrupted:
        again = _again(args.study, out, args.ray)
        print(f"interrupted: {len(rows)} of {len(jobs_all)} games finished; continue with: {again}", file=sys.stderr)
        return 130
    return 0


def _again(study: str, out: str, ray: str | None) -> str:
    """The command that continues the run in ``out`` (the rest comes from its study.json)."""
    words = ["mattis", "lab", study, "--out", out, "--resume"]
    return shlex.join(words + (["--ray", ray] if ray is not None else []))


def _timing(out: str, wall: float, played: int, workers: int) -> None:
    path = os.path.join(out, TIMING)
    runs: list[Any] = []
    try:
        with open(path, encoding="utf-8") as f:
            runs = list(json.load(f))
    except (OSError, ValueError, TypeError):
        runs = []
    runs.append({"wall_s": round(wall, 1), "games": played, "workers": workers, "core": build_kind()})
    atomic_write(path, json.dumps(runs, indent=1) + "\n")


def report_text(study: str, cells: Sequence[Cell], rows: Sequence[Row], command: str, seed: int, games: int,
                complete: bool = True) -> tuple[str, list[tuple[str, Any]]]:
    """The report's Markdown and its charts (file name, drawer)."""
    section = analyse(study, cells, rows)
    head = [f"# mattis lab {study}", "", STUDIES[study][0].upper() + STUDIES[study][1:] + ".", "",
            "Reproduce it with:", "", "```", command, "```", "",
            f"Seed {seed}: game g of a cell is deal g // players in seat rotation g % players (deal g, rotation 0, "
            "where one bot sits in every seat); its deck is "
            f"`derive_seed(derive_seed({seed}, \"{study}\", CELL), \"deal\", deal)` and the bot in seat i "
            f"`derive_seed(derive_seed({seed}, \"{study}\", CELL), \"bot\", deal, rotation, i)` "
            "(mattis.play.derive_seed; CELL is the cell's key below). The dealer is seat 0.", "",
            f"{len(rows)} games: {games} per cell in {len(cells)} cell(s)."
            + ("" if complete else " **Incomplete run: resume it to play the missing games.**"), "",
            "| cell | key | games |", "|---|---|---:|"]
    counts: dict[str, int] = {c.key: 0 for c in cells}
    for r in rows:
        counts[r["cell"]] = counts.get(r["cell"], 0) + 1
    head += [f"| {c.label} | `{c.key}` | {counts[c.key]} |" for c in cells]
    head += ["", "## Results", ""]
    return "\n".join(head + section.lines) + "\n", section.charts


def _write_report(study: str, cells: Sequence[Cell], rows: Sequence[Row], out: str, command: str, seed: int,
                  games: int, complete: bool) -> None:
    if not rows:
        return
    text, charts = report_text(study, cells, rows, command, seed, games, complete)
    atomic_write(os.path.join(out, REPORT), text)
    try:
        for name, draw in charts:
            draw(os.path.join(out, name))
    except ImportError:
        print("charts: matplotlib is not installed (pip install '.[bots]')", file=sys.stderr)
