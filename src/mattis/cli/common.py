"""Shared helpers for the command-line front ends."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from ..core import GameRecord, Rules, RulesError, parse_overrides, preset
from ..play import atomic_write
from .main import CliError

J = TypeVar("J")
R = TypeVar("R")


def add_rules_arguments(p: argparse.ArgumentParser, players_default: int | None = 3) -> None:
    """``--rules``, ``--set option=value`` (repeatable) and ``--players``."""
    p.add_argument("--rules", default="mattis", help="preset: mattis, hund, blodmattis, skitgubbe")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rule option (repeatable), e.g. --set sequences=3")
    p.add_argument("--players", type=int, default=players_default, help="number of players")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set named on the command line, checked against the player count."""
    try:
        rules = preset(args.rules, **parse_overrides(args.overrides))
        if getattr(args, "players", None) is not None:
            rules.check_players(args.players)
    except RulesError as e:
        raise CliError(str(e)) from None
    return rules


def save_record(record: GameRecord, path: str) -> None:
    """Write a record atomically (a crash never leaves half a file)."""
    try:
        atomic_write(path, record.dumps())
    except OSError as e:
        raise CliError(f"cannot save the game to {path}: {e.strerror}") from None


def dump_json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def run_with_progress(fn: Callable[[J], R], jobs: Sequence[J], workers: int | None, ray: str | None,
                      on_result: Callable[[R], None], *, disable: bool = False, label: str = "games") -> bool:
    """Run ``jobs`` through the one job pool (:func:`mattis.lab.pool.run_jobs`) under a
    Rich progress bar, handing each result to ``on_result`` as it finishes.  Returns
    ``True`` when the run was interrupted (Ctrl-C): the results so far are kept.  A
    :class:`mattis.lab.pool.PoolError` (Ray missing, the cluster lost) is the caller's to
    turn into a one-line error."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..lab.pool import run_jobs

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                  TimeRemainingColumn(), disable=disable or not jobs, console=None, transient=False) as progress:
        task = progress.add_task(label, total=len(jobs))
        try:
            for res in run_jobs(fn, jobs, workers, ray=ray):
                on_result(res)
                progress.advance(task)
        except KeyboardInterrupt:
            return True
    return False
