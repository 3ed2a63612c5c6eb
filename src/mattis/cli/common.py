"""Shared helpers for the command-line front ends."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ..core import GameRecord, Rules, RulesError, parse_overrides, preset, say
from ..core.cards import Lang
from ..play import atomic_write
from ..play.saving import is_regular_or_absent
from .args import MAX_PLAYERS, whole
from .main import CliError

J = TypeVar("J")
R = TypeVar("R")


def add_rules_arguments(p: argparse.ArgumentParser, players_default: int | None = 3) -> None:
    """``--rules``, ``--set option=value`` (repeatable) and ``--players``."""
    p.add_argument("--rules", default="mattis", help="preset: mattis, hund, blodmattis, skitgubbe")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rule option (repeatable), e.g. --set sequences=3")
    p.add_argument("--players", type=whole(1, MAX_PLAYERS), default=players_default, help="number of players")


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
    """Write a record atomically (a crash or a full disk never leaves half a file; the
    file that was there is untouched then)."""
    try:
        atomic_write(path, record.dumps())
    except OSError as e:
        raise CliError(f"cannot save the game to {path}: {_why(e)}; nothing was written") from None


def _why(e: OSError) -> str:
    from ..play.saving import os_error_words

    return os_error_words(e, "en")


def interactive() -> bool:
    """Whether a person is at the terminal (stdin and stdout are terminals)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def check_save_target(path: Path, force: bool, *, flag: str = "--save", is_game: Callable[[Path], bool] | None = None,
                      ask: Callable[[str], str] = input, lang: Lang = "en") -> None:
    """Refuse a ``--save`` target that is not a regular file (a device such as
    ``/dev/full``, a folder), whatever ``--force`` says; before overwriting an existing
    file ask (at a terminal) or, without one, need ``force``.  ``is_game``: a file for
    which it returns ``True`` is never overwritten (the caller keeps it beside the new
    one), so it needs no asking.  The question and the refusals are in ``lang`` (the
    session's language); "ja"/"j" and "yes"/"y" are yes in both.  Raises :class:`CliError`."""
    if path.is_dir():
        raise CliError(say("cli.save.folder", lang, flag=flag, path=str(path)))
    if not is_regular_or_absent(path):
        raise CliError(say("cli.save.not_regular", lang, flag=flag, path=str(path)))
    if not path.exists() or force or (is_game is not None and is_game(path)):
        return
    if interactive():
        try:
            answer = ask(say("cli.save.overwrite", lang, path=str(path)))
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("y", "yes", "j", "ja"):
            return
        raise CliError(say("cli.save.left", lang, flag=flag, path=str(path)))
    raise CliError(say("cli.save.exists", lang, flag=flag, path=str(path)))


def record_names(path: str, players: int) -> list[str] | None:
    """The players' names a record file carries (``names``, or a saved session's)."""
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for names in (data.get("names"), (data.get("session") or {}).get("names")
                  if isinstance(data.get("session"), dict) else None):
        if isinstance(names, list) and len(names) == players and all(isinstance(x, str) for x in names):
            return list(names)
    return None


def record_lang(path: str) -> Lang | None:
    """The language a saved game was played in (its ``session``), if it says."""
    try:
        data: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    session = data.get("session") if isinstance(data, dict) else None
    lang = session.get("lang") if isinstance(session, dict) else None
    return "nb" if lang == "nb" else "en" if lang == "en" else None


def record_people(path: str, players: int, lang: Lang) -> list[str]:
    """The names to show for a record's seats: the ones the file carries (a saved game's
    "Du" stays the person, in ``lang``: "Du" or "You"), else the default seat names."""
    from ..core import say, seat_names

    names = record_names(path, players) or seat_names(players, lang=lang)
    yous = {say("word.you", "nb"), say("word.you", "en")}
    return [say("word.you", lang) if n in yous else n for n in names]


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
