"""``mattis join URL``: play one seat of a ``mattis serve`` table from the terminal.

``URL`` is the table's invite link (a free seat is taken, under ``--name``) or a seat's
resume link (the seat is taken back).  The seat is played with the same screens as
``mattis play`` (:mod:`mattis.tui.remote`); ``--plain`` is line mode.  A bad link, a
server that cannot be reached, a seat token the table does not know or a full table:
one line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..core.cards import Lang
from .common import interactive
from .main import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="the table's invite link (…/t/TABLE?invite=…) or your seat's link "
                                    "(…/t/TABLE#seat=…)")
    parser.add_argument("--name", default=None, help="your name at the table (with an invite link; "
                                                     "default: your settings' name, else your login name)")
    parser.add_argument("--lang", choices=("nb", "en"), default=None,
                        help="language (default: your settings', else nb)")
    parser.add_argument("--plain", action="store_true",
                        help="line mode for screen readers and scripts: prompts on stdout, moves on stdin "
                             "(also used when there is no terminal)")


def _default_name() -> str:
    import getpass

    try:
        return getpass.getuser()[:24] or "Terminal"
    except Exception:
        return "Terminal"


def run(args: argparse.Namespace) -> int:
    from ..tui.remote import JoinError, connect_seat, run_plain
    from ..tui.settings import read_settings

    settings, _broken = read_settings()
    lang: Lang = args.lang or settings.lang
    name = args.name or settings.name or _default_name()
    plain = args.plain or not interactive()
    try:
        seat = connect_seat(args.url, name, lang, on_note=lambda _note: None)
    except JoinError as e:
        raise CliError(str(e)) from None
    if plain and not args.plain:
        print("mattis join: no terminal here, so the seat is played in --plain line mode (moves on stdin)",
              file=sys.stderr)
    try:
        if plain:
            return run_plain(seat, sys.stdin, sys.stdout)
        from ..tui.i18n import t
        from ..tui.remote import resume_link
        from ..tui.remote_app import RemoteApp

        s = seat.session
        print(t(lang, "join.welcome", rules=s.rules.name, players=s.players, seat=s.you + 1, link=resume_link(seat)),
              flush=True)
        seat.wait_for_game(print)
        app = RemoteApp(seat)
        app.run()
        if app.failed:
            raise JoinError(" ".join(app.farewell))
        for line in app.farewell:
            print(line)
        return 0
    except JoinError as e:
        raise CliError(str(e)) from None
    finally:
        seat.conn.close()
