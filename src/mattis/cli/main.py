"""``mattis``: one entry point, one module per subcommand.

Each subcommand lives in ``mattis.cli.<name>`` and provides
``add_arguments(parser)`` and ``run(args) -> int``.  Modules are imported only
when their command runs, so a missing optional extra only affects that command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Final

COMMANDS: Final[dict[str, str]] = {
    "play": "play a game against bots in the terminal",
    "selfplay": "let bots play a whole game and print it move by move",
    "replay": "replay a game record and show the resulting state",
    "bench": "measure engine speed (games and decisions per second)",
    "tournament": "measure bots against each other on duplicate deals",
    "serve": "serve the game in the browser (tables for friends and bots)",
}


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def _module(name: str) -> object:
    return importlib.import_module(f"mattis.cli.{name}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mattis", description="Mattis, Hund, Blodmattis and Skitgubbe.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            mod = _module(name)
        except ImportError:
            continue
        mod.add_arguments(p)  # type: ignore[attr-defined]
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    try:
        mod = _module(args.command)
    except ImportError as e:
        print(f"mattis {args.command}: needs an optional extra that is not installed ({e.name}); "
              f"install with: pip install 'mattis[all]'", file=sys.stderr)
        return 2
    try:
        code: int = mod.run(args)  # type: ignore[attr-defined]
        return code
    except CliError as e:
        print(f"mattis {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # never a traceback for the user; MATTIS_DEBUG=1 shows it
        if os.environ.get("MATTIS_DEBUG"):
            raise
        print(f"mattis {args.command}: internal error: {type(e).__name__}: {e} "
              "(please report it; run with MATTIS_DEBUG=1 for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
