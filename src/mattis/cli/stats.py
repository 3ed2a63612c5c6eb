"""``mattis stats``: your games against the bots, across sittings (see :mod:`mattis.tui.stats`)."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("nb", "en"), default=None,
                   help="language (default: the one in your settings, else nb)")
    p.add_argument("--file", default=None, metavar="FILE",
                   help="the statistics file (default: $XDG_DATA_HOME/mattis/stats.json, "
                        "i.e. ~/.local/share/mattis/stats.json)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..tui.settings import load_settings
    from ..tui.stats import stats_lines, stats_path

    lang = args.lang or load_settings().lang
    for line in stats_lines(lang, Path(args.file) if args.file else stats_path()):
        print(line)
    return 0
