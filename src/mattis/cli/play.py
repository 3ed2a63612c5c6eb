"""``mattis play``: a whole game against bots, in a terminal UI or as plain lines.

What a flag leaves open comes from the settings file (:mod:`mattis.tui.settings`);
a resumed game brings back its own language, bot levels, names and log.  Every game
is saved in its own file (:func:`mattis.tui.session.games_folder`); ``--list`` shows
the unfinished ones and ``--resume`` continues one by number, name or path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core import PRESETS, RecordError, RulesError, parse_overrides, preset, say
from ..core.cards import Lang
from .args import MAX_DELAY, MAX_PLAYERS, names, seconds, seed, whole
from .common import check_save_target, interactive
from .main import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default=None, choices=sorted(PRESETS),
                        help="rule preset (default: from your settings, else mattis)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="OPTION=VALUE",
                        help="change one rule option, e.g. --set sequences=3 (repeatable)")
    parser.add_argument("--players", type=whole(1, MAX_PLAYERS), default=None, help="number of players (default: 3)")
    parser.add_argument("--bots", type=names, default=None, metavar="LEVEL[,LEVEL...]",
                        help="bot level for all bots, or one per bot seat in order "
                             "(easy, medium, hard, expert; default: from your settings, else medium)")
    parser.add_argument("--lang", choices=("nb", "en"), default=None,
                        help="language (default: the saved game's, else your settings', else nb)")
    parser.add_argument("--name", default=None, help="your name at the table (default: Du / You)")
    parser.add_argument("--seed", type=seed, default=None,
                        help="seed for a reproducible deal and bots (default: a fresh shuffle)")
    parser.add_argument("--delay", type=seconds(0, MAX_DELAY), default=None, metavar="SECONDS",
                        help="pause between bot moves (default: 0.8 in the terminal UI, 0 with --plain)")
    parser.add_argument("--instant", action="store_true", help="bots move without pausing")
    parser.add_argument("--plain", action="store_true",
                        help="line mode for screen readers and scripts: prompts on stdout, moves on stdin "
                             "(also used when there is no terminal)")
    parser.add_argument("--resume", metavar="GAME", nargs="?", const="1", default=None,
                        help="continue an unfinished game: its number in --list (default 1, the newest), "
                             "its name, or a game file")
    parser.add_argument("--list", action="store_true", help="list the unfinished games and exit")
    parser.add_argument("--discard", metavar="GAME", default=None,
                        help="throw away an unfinished game: its number in --list or its name (only games "
                             "in the games folder), and exit")
    parser.add_argument("--new", action="store_true",
                        help="start a new game without offering to continue an unfinished one")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="where the game record is saved (default: the resumed game's file, else a new "
                             "file in $XDG_DATA_HOME/mattis/games, i.e. ~/.local/share/mattis/games); a saved "
                             "game there is kept beside it as FILE.1.json, any other file is overwritten only "
                             "with --force or when you answer yes")
    parser.add_argument("--force", action="store_true", help="let --save overwrite a file that is not a saved game")


def _levels(text: str, players: int) -> list[str]:
    """One bot level per seat (seat 0, the human, gets an unused placeholder)."""
    from ..play import make_bot
    from ..play.agents import DEFAULT_LEVEL

    wanted = [w.strip().lower() for w in text.split(",") if w.strip()]
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


def _interactive() -> bool:
    return interactive()


def _is_game(path: Path) -> bool:
    """Whether ``path`` holds a saved game (kept beside a new one, never overwritten)."""
    from ..tui.session import read_saved

    try:
        read_saved(path)
    except (RecordError, ValueError):
        return False
    return True


def fit(text: str) -> str:
    """``text`` wrapped to the terminal's width between words (a path or a command is
    never broken in the middle; one longer than the line stands alone on its line)."""
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    return "\n".join(textwrap.fill(part, width, break_long_words=False, break_on_hyphens=False)
                     for part in text.split("\n"))


def _names_in(names: list[str], lang: Lang) -> list[str]:
    """Saved names in ``lang``: the human's "Du"/"You" follows the language."""
    other: Lang = "en" if lang == "nb" else "nb"
    return [say("word.you", lang) if n == say("word.you", other) else n for n in names]


def _list(lang: Lang) -> int:
    from ..tui.session import games_folder, play_command, saved_games

    games = saved_games()
    if not games:
        print(say("games.none", lang))
        return 0
    for i, game in enumerate(games, 1):
        print(f"{i}. {game.name}: {game.describe(lang)}  ({game.path})")
    play = play_command()
    print(say("games.how", lang, play=play) + f"   [{games_folder()}]")
    return 0


def _discard(what: str, lang: Lang) -> int:
    """Throw away one unfinished game of the games folder (never a file elsewhere)."""
    from ..tui.session import find_saved, games_folder, read_saved

    folder = games_folder()
    try:
        path = find_saved(what, folder)
    except RecordError as e:
        raise CliError(f"cannot discard {what}: {e}") from None
    if path.resolve().parent != folder.resolve():
        raise CliError(f"--discard only throws away games in {folder} (see mattis play --list); "
                       f"{path} is not one")
    try:
        what_it_was = read_saved(path).describe(lang)
    except (ValueError, RecordError):
        what_it_was = path.name
    try:
        path.unlink()
    except OSError as e:
        raise CliError(f"cannot discard {path}: {e.strerror}") from None
    print(say("games.discarded", lang, name=path.name, what=what_it_was))
    return 0


def run(args: argparse.Namespace) -> int:
    from ..tui.i18n import t
    from ..tui.session import (
        SavedGame,
        Session,
        find_saved,
        holds_unfinished,
        play_command,
        prune_finished,
        read_saved,
        resume_command,
        saved_games,
    )
    from ..tui.settings import USUAL_DELAY, read_settings
    from ..tui.stats import stats_path

    settings, broken = read_settings()
    lang: Lang = args.lang or settings.lang
    if broken:
        broken = read_settings(lang=lang)[1] or broken  # the reason in the language spoken
        print(t(lang, "settings.broken", why=broken), file=sys.stderr)
    if args.list:
        return _list(lang)
    if args.discard is not None:
        return _discard(args.discard, lang)
    if args.delay is not None and args.delay < 0:
        raise CliError("--delay must be 0 or more seconds")
    plain = args.plain
    if not plain and not _interactive():
        print("mattis play: no terminal here, so the game runs in --plain line mode (moves on stdin)",
              file=sys.stderr, flush=True)
        plain = True
    prune_finished()  # finished games beyond the newest few go; unfinished ones always stay
    fresh_flags = args.rules is not None or args.overrides or args.players is not None
    saved: SavedGame | None = None
    if args.resume is not None:
        if fresh_flags:
            raise CliError("--resume takes the rules and players from the saved game; leave out --rules, "
                           "--set and --players")
        try:
            saved = read_saved(find_saved(args.resume))
        except RecordError as e:
            raise CliError(f"cannot resume {args.resume}: {e}") from None
        if saved.over:
            raise CliError(f"the game in {saved.path} is already over; start a new one with: mattis play")
    elif not fresh_flags and not args.new and not args.save:
        unfinished = saved_games()
        if unfinished and (not plain or sys.stdin.isatty()):  # piped moves are not an answer
            newest = unfinished[0]
            try:
                said = newest.lang or lang
                answer = input(fit(t(said, "resume.offer", what=newest.describe(said))) + " ")
            except EOFError:
                answer = ""
            if answer.strip().lower() in ("", "j", "ja", "y", "yes"):
                saved = newest
        elif unfinished:
            print(fit(t(lang, "resume.kept", n=len(unfinished), play=play_command())), flush=True)
    if saved is not None:
        lang = args.lang or saved.lang or settings.lang
        rules, players = saved.record.rules, saved.record.players
        if args.bots is not None:
            levels = _levels(args.bots, players)
        else:
            levels = saved.levels or _levels(settings.bots if settings.players == players else "medium", players)
        names = _names_in(saved.names, lang) if saved.names else []
    else:
        try:
            if fresh_flags:
                rules = preset(args.rules or "mattis", **parse_overrides(args.overrides))
                players = 3 if args.players is None else args.players
            else:
                rules, players = settings.make_rules(), settings.players
            rules.check_players(players)
        except RulesError as e:
            raise CliError(str(e)) from None
        levels = _levels(args.bots if args.bots is not None else
                         (settings.bots if settings.players == players else "medium"), players)
        names = []
    save_path = Path(args.save) if args.save else saved.path if saved is not None else None
    if args.save:
        check_save_target(Path(args.save), args.force, is_game=_is_game, lang=lang)
    session = Session(rules=rules, players=players, levels=levels, lang=lang, seed=args.seed,
                      save_path=save_path, names=names, stats_path=stats_path(), plain=plain)
    name = args.name if args.name is not None else settings.name
    if name.strip() and saved is None:
        session.names[0] = name.strip()[:20]
    notice = None
    other_file = saved is None or session.path.resolve() != saved.path.resolve()
    if other_file and holds_unfinished(session.path):
        # The first save of this game keeps that one beside it (<name>.1.json).
        notice = t(lang, "kept_previous", path=str(session.kept_path()))
    if saved is not None:
        session.resume(saved.record, keep_previous=other_file, meta=saved.meta)
    else:
        session.start(dealer=session.sitting.draw_first_dealer())  # "Trekk om hvem som gir"
    # A full or read-only disk: the game goes on in memory, the next save tries again.  The
    # table says so on its message line (not on stderr, which shows only after it closes).
    error = session.try_save(full=plain)
    if error is not None and plain:
        print(error, file=sys.stderr, flush=True)
    default_delay = settings.delay
    if plain:
        from ..tui.plain import PlainGame

        if notice:
            print(notice, flush=True)
        delay = 0.0 if args.instant else (args.delay if args.delay is not None else 0.0)
        try:
            return PlainGame(session, sys.stdin, sys.stdout, delay).run()
        except KeyboardInterrupt:
            lost = session.try_save("save.lost")
            command = resume_command(session.path)
            print("\n" + (lost or t(lang, "saved_resume", path=str(session.path), command=command)), flush=True)
            return 130
    try:
        from ..tui.app import MattisApp
    except ImportError as e:
        from .main import missing_extra_message

        print(missing_extra_message("play", e.name) + "; or play with --plain", file=sys.stderr)
        return 2
    if args.instant:
        delay = 0.0
    elif args.delay is not None:
        delay = args.delay
    else:
        delay = USUAL_DELAY if default_delay is None else default_delay
    app = MattisApp(session, delay=delay)
    if session.save_error is not None:
        app.message = session.save_error  # also on the table's message line, where it stays in sight
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    lost = session.try_save("save.lost")
    if lost is not None:
        print(fit(lost), file=sys.stderr)
        return 2
    if notice:
        print(fit(notice))
    path = session.path
    if session.over:
        print(fit(t(lang, "saved", path=str(path))))
    else:
        print(fit(t(lang, "saved_resume", path=str(path), command=resume_command(path))))
    return 0
