"""``mattis stats``: your games against the bots, across sittings (see :mod:`mattis.tui.stats`)."""

from __future__ import annotations

import argparse

from ..core.text import say


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("nb", "en"), default=None,
                   help="language (default: the one in your settings, else nb)")
    p.add_argument("--file", default=None, metavar="FILE",
                   help="the statistics file (default: $XDG_DATA_HOME/mattis/stats.json, "
                        "i.e. ~/.local/share/mattis/stats.json)")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..play.saving import os_error_words
    from ..tui.settings import load_settings
    from ..tui.stats import StatsFileError, read_results, stats_lines, stats_path
    from .main import CliError

    lang = args.lang or load_settings().lang
    path = Path(args.file) if args.file else stats_path()
    try:
        read_results(path)
    except StatsFileError as e:  # one line; the file is left as it is (the next game sets it aside)
        raise CliError(say("stats.unreadable", lang, path=str(path), why=e.words(lang))) from None
    except OSError as e:
        raise CliError(say("stats.unreadable", lang, path=str(path), why=os_error_words(e, lang))) from None
    for line in stats_lines(lang, path):
        print(line)
    return 0
