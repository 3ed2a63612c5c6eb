"""``mattis play``: a whole game against bots, in a terminal UI or as plain lines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..bots.base import DEFAULT_LEVEL
from ..core import PRESETS, RecordError, RulesError, load_record, parse_overrides, preset
from .main import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default=None, choices=sorted(PRESETS),
                        help="rule preset (default: mattis)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE",
                        help="change one rule option, e.g. --set sequences=3 (repeatable)")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: 3)")
    parser.add_argument("--bots", default=DEFAULT_LEVEL, metavar="LEVEL[,LEVEL...]",
                        help=f"bot level for all bots, or one per bot seat in order "
                             f"(easy, medium, hard, expert; default: {DEFAULT_LEVEL})")
    parser.add_argument("--lang", choices=("nb", "en"), default="nb", help="language (default: nb)")
    parser.add_argument("--seed", default=None,
                        help="seed for a reproducible deal and bots (default: a fresh shuffle)")
    parser.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                        help="pause between bot moves (default: 0.8 in the terminal UI, 0 with --plain)")
    parser.add_argument("--instant", action="store_true", help="bots move without pausing")
    parser.add_argument("--plain", action="store_true",
                        help="line mode for screen readers and scripts: prompts on stdout, moves on stdin")
    parser.add_argument("--resume", metavar="FILE", default=None, help="continue a saved game record")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the game record is saved (default: the --resume file, else "
                             "$XDG_DATA_HOME/mattis/last-game.json, i.e. ~/.local/share/mattis/last-game.json)")


def _levels(text: str, players: int) -> list[str]:
    """One bot level per seat (seat 0, the human, gets an unused placeholder)."""
    from ..bots import make_bot

    wanted = [w.strip() for w in text.split(",") if w.strip()]
    if not wanted:
        raise CliError("--bots needs at least one level")
    if len(wanted) == 1:
        wanted = wanted * (players - 1)
    if len(wanted) != players - 1:
        raise CliError(f"--bots gives {len(wanted)} levels but there are {players - 1} bots")
    for level in wanted:
        try:
            make_bot(level, 0)
        except ValueError as e:
            raise CliError(str(e)) from None
    return [DEFAULT_LEVEL, *wanted]


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def run(args: argparse.Namespace) -> int:
    from ..play import Referee
    from ..tui.i18n import t
    from ..tui.session import Session, default_save_path, holds_unfinished

    lang = args.lang
    if args.delay is not None and args.delay < 0:
        raise CliError("--delay must be 0 or more seconds")
    record = None
    if args.resume is not None:
        if args.rules is not None or args.overrides or args.players is not None:
            raise CliError("--resume takes the rules and players from the record; leave out --rules, --set "
                           "and --players")
        try:
            record = load_record(args.resume)
            over = Referee.from_record(record).is_over
        except RecordError as e:
            raise CliError(f"cannot resume {args.resume}: {e}") from None
        if over:
            raise CliError(f"the game in {args.resume} is already over; start a new one with: mattis play")
        rules, players = record.rules, record.players
    else:
        try:
            rules = preset(args.rules or "mattis", **parse_overrides(args.overrides))
            players = 3 if args.players is None else args.players
            rules.check_players(players)
        except RulesError as e:
            raise CliError(str(e)) from None
    save_path = Path(args.save) if args.save else Path(args.resume) if args.resume else default_save_path()
    if save_path.is_dir():
        raise CliError(f"--save {save_path} is a folder; give a file name")
    session = Session(rules=rules, players=players, levels=_levels(args.bots, players), lang=lang,
                      seed=_seed(args.seed), save_path=save_path)
    notice = None
    other_file = record is None or save_path.resolve() != Path(args.resume).resolve()
    if other_file and holds_unfinished(save_path):
        # The first save of this game keeps that one beside it (<name>.1.json).
        notice = t(lang, "kept_previous", path=str(session.kept_path()))
    if record is not None:
        session.resume(record, keep_previous=other_file)
    else:
        session.start(dealer=session.sitting.draw_first_dealer())  # "Trekk om hvem som gir"
    try:
        session.save()
    except OSError as e:
        raise CliError(f"cannot save the game to {save_path}: {e.strerror}") from None

    if args.plain:
        from ..tui.plain import PlainGame

        if notice:
            print(notice, flush=True)
        delay = 0.0 if args.instant else (args.delay or 0.0)
        try:
            return PlainGame(session, sys.stdin, sys.stdout, delay).run()
        except KeyboardInterrupt:
            print("\n" + t(lang, "saved_resume", path=str(session.save())), flush=True)
            return 130

    from ..tui.app import MattisApp

    delay = 0.0 if args.instant else (0.8 if args.delay is None else args.delay)
    app = MattisApp(session, delay=delay)
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    path = session.save()
    if notice:
        print(notice)
    if session.over:
        print(t(lang, "saved", path=str(path)))
    else:
        print(t(lang, "saved_resume", path=str(path)))
    return 0
