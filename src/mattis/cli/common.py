"""Shared helpers for the command-line front ends."""

from __future__ import annotations

import argparse
import json

from ..core import GameRecord, Rules, RulesError, parse_overrides, preset
from ..play import atomic_write
from .main import CliError


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
