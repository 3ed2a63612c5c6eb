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
from typing import Final, NoReturn

COMMANDS: Final[dict[str, str]] = {
    "play": "play a game against bots in the terminal",
    "selfplay": "let bots play a whole game and print it move by move",
    "replay": "replay a game record and show the resulting state",
    "analyze": "review a game move by move: each decision's chance, the best move, the costly ones",
    "bench": "measure engine speed (games and decisions per second)",
    "tournament": "measure bots against each other on duplicate deals",
    "lab": "studies: seats, skill, house rules, sjanse, cycles (reports with charts)",
    "serve": "serve the game in the browser (tables for friends and bots)",
    "join": "play one seat of a web table (mattis serve) from the terminal: its invite or seat link",
    "stats": "show your statistics: games played and lost against the bots",
    "build-web": "build the offline app: the table in the browser, engine and bots included (no server)",
}

#: The optional extra that provides each third-party module a command may need.
EXTRAS: Final[dict[str, str]] = {
    "textual": "tui", "rich": "tui", "fastapi": "web", "uvicorn": "web", "websockets": "web",
    "starlette": "web", "openskill": "bots", "matplotlib": "bots", "pettingzoo": "rl", "gymnasium": "rl",
    "numpy": "rl", "pyspiel": "rl", "open_spiel": "rl",
}

#: The extra each command needs (for the message when a module is missing).
COMMAND_EXTRA: Final[dict[str, str]] = {"play": "tui", "join": "tui", "serve": "web", "tournament": "bots",
                                        "analyze": "bots", "lab": "bots"}
"""``analyze`` needs its extra (matplotlib) only for ``--chart``."""


def install_hint(extra: str) -> str:
    """The command that installs an optional extra from a clone of the repository
    (there is no package on PyPI).

    >>> install_hint("web")
    "pip install '.[web]'"
    """
    return f"pip install '.[{extra}]'"


def missing_extra_message(command: str, module: str | None) -> str:
    """One line naming the missing module and the exact install command."""
    top = (module or "").split(".")[0]
    extra = EXTRAS.get(top) or COMMAND_EXTRA.get(command, "all")
    return (f"mattis {command}: needs the optional '{extra}' extra ({top or 'a module'} is not installed); "
            f"from the repository's folder install it with: {install_hint(extra)}")


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def one_line(text: str) -> str:
    """``text`` as one line on a terminal: control characters (a newline, a carriage
    return, an escape from a file name or a file's contents) written as escapes.

    >>> one_line("no such file: a\\rb\\n")
    'no such file: a\\\\rb\\\\n'
    """
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


class Parser(argparse.ArgumentParser):
    """argparse with its one-line error kept to one line whatever the arguments hold."""

    def error(self, message: str) -> NoReturn:
        """One line, naming the command and where its usage is (not argparse's usage block)."""
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def _module(name: str) -> object:
    return importlib.import_module(f"mattis.cli.{name.replace('-', '_')}")


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = Parser(prog="mattis", description="Mattis, Hund, Blodmattis and Skitgubbe.")
    parser.add_argument("--version", action="version", version=f"mattis {__version__}")
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
    given = sys.argv[1:] if argv is None else argv
    nul = [a for a in given if "\0" in a]
    if nul:  # no file name or value holds one (the operating system's own arguments never do)
        where = f"mattis {given[0]}" if given[0] in COMMANDS else "mattis: error"
        print(f"{where}: {one_line(nul[0])}: an argument cannot hold a NUL character", file=sys.stderr)
        return 2
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a refused argument (2, its one line already printed)
        return stop.code if isinstance(stop.code, int) else 2
    if not args.command:
        parser.print_help()
        return 0
    try:
        mod = _module(args.command)
    except ImportError as e:
        print(missing_extra_message(args.command, e.name), file=sys.stderr)
        return 2
    try:
        code: int = mod.run(args)  # type: ignore[attr-defined]
        return code
    except CliError as e:
        print(f"mattis {args.command}: {one_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except ModuleNotFoundError as e:  # an optional extra that the command imports late
        if os.environ.get("MATTIS_DEBUG"):
            raise
        print(missing_extra_message(args.command, e.name), file=sys.stderr)
        return 2
    except Exception as e:  # never a traceback for the user; MATTIS_DEBUG=1 shows it
        if os.environ.get("MATTIS_DEBUG"):
            raise
        print(f"mattis {args.command}: internal error: {type(e).__name__}: {one_line(str(e))} "
              "(please report it; run with MATTIS_DEBUG=1 for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # Through the package's module, so that the subcommands' CliError is this one's
    # (run as a script this file would be a second module, __main__, with its own class).
    from mattis.cli.main import main as _main

    raise SystemExit(_main())
