"""A play session under a terminal front end: one human against bots, game after game.

The :class:`Session` holds a :class:`~mattis.play.Sitting` (the seed, the tally,
who deals) and the :class:`~mattis.play.Referee` of the game being played; it
never holds a :class:`~mattis.core.State`.  Front ends (the Textual app and the
plain line mode) read :meth:`Session.observation` (the human seat's view), send
the human's moves through :meth:`Session.try_move`, step the bots with
:meth:`Session.bot_step`, and may :meth:`Session.take_back` the human's last move.
The log lines come from the typed events of :mod:`mattis.play.events`.

Saved games.  A game is saved as its record (JSON that ``mattis replay`` and
:func:`~mattis.core.load_record` read), with a ``"session"`` object beside the
record's fields that remembers the rest: the language, the bot levels, the names, the
log and the take-backs (:func:`read_saved`).  Without an explicit ``save_path`` every
game gets its own file in :func:`games_folder` (``$XDG_DATA_HOME/mattis/games``), so
several unfinished games are kept and none is overwritten; :func:`saved_games` lists
them, newest first, and :func:`find_saved` finds one by number, name or path.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import (
    PHASE2,
    GameRecord,
    IllegalMoveError,
    Move,
    Observation,
    RecordError,
    Rules,
    describe_move,
    parse_record_move,
    reason_text,
    seat_names,
)
from ..core.cards import card_symbol
from ..core.catalogue import TEXT
from ..core.determinize import DeterminizeError
from ..core.record import MAX_RECORD_BYTES
from ..core.rules import EmptyHand, Trump
from ..core.text import as_object, in_sentence, loser_sentence, new_game_line, say
from ..play import (
    Agent,
    BlodmattisFound,
    Event,
    GameOver,
    MovePlayed,
    PhaseTwoBegins,
    PlayerOut,
    PlayerWaiting,
    Referee,
    Seed,
    Sitting,
    TrickCleared,
    TrickTaken,
    atomic_write,
    derive_seed,
    generation,
    make_bot,
    play_until,
)
from ..play.saving import os_error_words
from ..play.seeds import position_seed
from .i18n import Lang, t
from .stats import GameResult, record_game

HUMAN = 0
"""The human plays seat 0."""


TAKE_BACK_LINES = 2
"""Log lines a take-back adds: who took back, and that the unseen cards were dealt afresh."""

KEEP = 3
"""Earlier versions kept beside an explicit save file (``last-game.1.json`` is the newest)."""

KEEP_FINISHED = 20
"""Finished games kept in :func:`games_folder` (unfinished ones are all kept)."""


def data_folder() -> Path:
    """``$XDG_DATA_HOME/mattis`` (``~/.local/share/mattis``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mattis"


def default_save_path() -> Path:
    """``$XDG_DATA_HOME/mattis/last-game.json``: where earlier versions saved the game
    (still listed by :func:`saved_games`)."""
    return data_folder() / "last-game.json"


def games_folder() -> Path:
    """``$XDG_DATA_HOME/mattis/games``: one file per game."""
    return data_folder() / "games"


def new_game_path(folder: Path | None = None) -> Path:
    """A file name for a new game that no file has yet (``2026-12-01-1031.json``, then
    ``2026-12-01-1031-2.json``...)."""
    folder = folder or games_folder()
    stem = time.strftime("%Y-%m-%d-%H%M%S")
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def fix_you(line: str, you: str, lang: Lang) -> str:
    """English verbs agree with "You" ("You play", not "You plays")."""
    if lang != "en" or not line.startswith(you + " "):
        return line
    for third, second in (("plays", "play"), ("picks up", "pick up"), ("takes", "take"), ("lays", "lay"),
                          ("wins", "win"), ("is", "are"), ("deals", "deal"),
                          ("leads", "lead")):
        prefix = f"{you} {third}"
        if line.startswith(prefix + " ") or line == prefix:
            return (f"{you} {second}" + line[len(prefix):]).replace(" and turns up ", " and turn up ")
    return line


# ---------------------------------------------------------------- saved games
@dataclass
class SavedGame:
    """A saved game as read back: the record and what the session remembered."""

    path: Path
    record: GameRecord
    meta: dict[str, Any]
    """The ``"session"`` object (empty for a plain record)."""
    over: bool
    moves: int
    saved_at: float

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def lang(self) -> Lang | None:
        lang = self.meta.get("lang")
        return lang if lang in ("nb", "en") else None

    @property
    def levels(self) -> list[str] | None:
        """The bot levels it was played with, when they name bots there are."""
        levels = self.meta.get("levels")
        if isinstance(levels, list) and len(levels) == self.record.players and all(isinstance(x, str) for x in levels):
            try:
                for level in levels:
                    make_bot(level, 0)
            except ValueError:
                return None
            return list(levels)
        return None

    @property
    def names(self) -> list[str] | None:
        names = self.meta.get("names")
        if isinstance(names, list) and len(names) == self.record.players and all(isinstance(x, str) for x in names):
            return list(names)
        return None

    def describe(self, lang: Lang) -> str:
        """"mattis, 12 trekk, lagret 2026-12-01 10:31"."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        return say("resume.what", lang, rules=self.record.rules.name, moves=self.moves, when=when)


def read_saved(path: Path) -> SavedGame:
    """Read a saved game (a session save or a plain record); raises
    :class:`~mattis.core.RecordError` saying what is wrong."""
    if path.exists() and not path.is_file():
        raise RecordError(f"{path} is not a regular file")
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{path} is too large for a saved game")
        text = path.read_text(encoding="utf-8")
        saved_at = path.stat().st_mtime
    except FileNotFoundError:
        raise RecordError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    record = GameRecord.loads(text)
    meta: dict[str, Any] = {}
    try:
        data = json.loads(text)
        if isinstance(data, dict) and isinstance(data.get("session"), dict):
            meta = data["session"]
    except ValueError:  # pragma: no cover - loads() above already parsed it
        pass
    referee = Referee.from_record(record)
    return SavedGame(path, record, meta, referee.is_over, referee.moves_played, saved_at)


def saved_games(folder: Path | None = None, unfinished_only: bool = True) -> list[SavedGame]:
    """The saved games in :func:`games_folder` (and the older ``last-game.json``),
    newest first; unreadable files are left out (and left alone)."""
    folder = folder or games_folder()
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    legacy = folder.parent / "last-game.json"
    if legacy.is_file():
        paths.append(legacy)
    out = []
    for p in paths:
        try:
            game = read_saved(p)
        except (RecordError, ValueError):
            continue
        if unfinished_only and game.over:
            continue
        out.append(game)
    out.sort(key=lambda g: g.saved_at, reverse=True)
    return out


def find_saved(what: str, folder: Path | None = None) -> Path:
    """The saved game ``what`` names: a number from :func:`saved_games` (1 = the newest
    unfinished game), a file name in :func:`games_folder` (with or without ``.json``), or
    a path.  Raises :class:`~mattis.core.RecordError` when there is none."""
    folder = folder or games_folder()
    if what.isdigit():
        games = saved_games(folder)
        i = int(what)
        if not games:
            raise RecordError("there is no unfinished game to continue; start one with: mattis play")
        if not 1 <= i <= len(games):
            raise RecordError(f"there are {len(games)} unfinished games; choose a number from 1 to {len(games)}")
        return games[i - 1].path
    p = Path(what).expanduser()
    if p.is_file():
        return p
    for candidate in (folder / what, folder / f"{what}.json"):
        if candidate.is_file():
            return candidate
    raise RecordError(f"no saved game {what!r} (see mattis play --list)")


def play_command() -> str:
    """The command the person typed to play: ``./play`` (the clone's script says so in
    ``MATTIS_PLAY_COMMAND``), else ``mattis play``."""
    typed = os.environ.get("MATTIS_PLAY_COMMAND", "").strip()
    return shlex.quote(typed) if typed else "mattis play"


def resume_command(path: Path, folder: Path | None = None) -> str:
    """The command that continues the game saved in ``path``, as the person runs it: by
    its number in ``--list`` (``./play --resume 1``), or by its path when it is not in
    the games folder."""
    target = path.resolve()
    for i, game in enumerate(saved_games(folder), 1):
        if game.path.resolve() == target:
            return f"{play_command()} --resume {i}"
    return f"{play_command()} --resume {shlex.quote(str(path))}"


def holds_unfinished(path: Path) -> bool:
    """Whether ``path`` holds a game that is not over (an unreadable file counts too:
    it is kept rather than lost)."""
    if not path.is_file():
        return False
    try:
        return not read_saved(path).over
    except (ValueError, RecordError):
        return True


def prune_finished(folder: Path | None = None, keep: int = KEEP_FINISHED) -> None:
    """Remove all but the ``keep`` newest finished games from ``folder`` (unfinished and
    unreadable files are never removed)."""
    folder = folder or games_folder()
    finished = [g for g in saved_games(folder, unfinished_only=False) if g.over and g.path.parent == folder]
    for game in finished[keep:]:
        try:
            game.path.unlink()
        except OSError:
            pass


def _read_marks(data: object, human: set[int], log_lines: int) -> list[tuple[int, int]] | None:
    """The saved take-back marks, when they fit the record (each before one of the
    human's moves, in order) and the log; else ``None``."""
    if not isinstance(data, list):
        return None
    out: list[tuple[int, int]] = []
    for m in data:
        if not (isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m)):
            return None
        moves, lines = m
        if moves not in human or (out and moves <= out[-1][0]) or not 0 <= lines <= log_lines:
            return None
        out.append((moves, lines))
    return out


# ---------------------------------------------------------------- the session
@dataclass
class Session:
    """One human against bots, game after game; see the module docstring."""

    rules: Rules
    players: int
    levels: list[str]
    """Bot level of each seat (the human seat's entry is unused)."""
    lang: Lang = "nb"
    seed: Seed = None
    save_path: Path | None = None
    """Where the game is saved; ``None``: a new file in :func:`games_folder` for each game."""
    names: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    stats_path: Path | None = None
    """Where finished games are recorded (:mod:`mattis.tui.stats`); ``None``: not recorded."""
    take_backs: int = 0
    """Moves taken back in the game being played."""
    sitting: Sitting = field(init=False)
    referee: Referee = field(init=False)
    agents: dict[int, Agent] = field(init=False, default_factory=dict)
    _fresh: bool = field(init=False, default=False)
    """The save file still holds the previous game (the next save keeps it)."""
    _auto: bool = field(init=False, default=False)
    """Each game gets its own file in :func:`games_folder`."""
    _marks: list[tuple[int, int]] = field(init=False, default_factory=list)
    """Before each of the human's moves: (moves played, log lines)."""
    _recorded: bool = field(init=False, default=False)
    _hint: tuple[int, Move] | None = field(init=False, default=None)
    """The hint worked out for the position (its seed, the move): asked again, the same."""
    save_error: str | None = field(init=False, default=None)
    """Why the last save failed, in one line (``None``: it did not)."""
    plain: bool = False
    """Line mode: the welcome line names its commands, not the terminal table's keys."""
    _told_last_card: bool = field(init=False, default=False)
    """Whether the log has said who got the last card of the stock."""
    next_table: tuple[Rules, int, list[str]] | None = field(init=False, default=None)
    """Rules, players and bot levels chosen for the next game (:meth:`change_table`)."""

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.players, HUMAN, self.lang)
        self.sitting = Sitting(self.rules, self.players, seed=self.seed)
        if self.save_path is None:
            self._auto = True
            self.save_path = new_game_path()

    @classmethod
    def from_saved(cls, saved: SavedGame, lang: Lang | None = None, levels: list[str] | None = None,
                   save_path: Path | None = None, stats_path: Path | None = None, seed: Seed = None) -> Session:
        """A session that continues ``saved``: its rules and players, and (unless given
        here) its language, bot levels and names; the log, take-backs and tally come back
        too.  It saves to ``save_path``, by default the file it came from."""
        lang = lang or saved.lang or "nb"
        players = saved.record.players
        names = saved.names or []
        if names:
            other: Lang = "en" if lang == "nb" else "nb"
            names = [say("word.you", lang) if n == say("word.you", other) else n for n in names]
        session = cls(rules=saved.record.rules, players=players, levels=levels or saved.levels or ["medium"] * players,
                      lang=lang, seed=seed, save_path=save_path or saved.path, names=names, stats_path=stats_path)
        keep = session.path.resolve() != saved.path.resolve()
        session.resume(saved.record, keep_previous=keep, meta=saved.meta)
        return session

    @property
    def path(self) -> Path:
        """Where the game is saved."""
        assert self.save_path is not None
        return self.save_path

    # ------------------------------------------------------------ starting
    def start(self, dealer: int | None = None) -> None:
        """Deal a new game (reproducible from ``seed``, else shuffled from ``secrets``);
        by default the sitting's dealer deals (the loser of the last game)."""
        if dealer is not None:
            self.sitting.dealer = dealer
        self._begin(self.sitting.deal())
        self._fresh = True

    def resume(self, record: GameRecord, keep_previous: bool = False, meta: dict[str, Any] | None = None) -> None:
        """Continue a saved game: replay the record, then play on.  ``meta`` (the saved
        ``"session"`` object, :attr:`SavedGame.meta`) brings back the log, the take-backs
        and the tally.  With ``keep_previous`` (the record came from another file than
        ``save_path``) the first save keeps what ``save_path`` held, as for a new game."""
        meta = meta or {}
        self._begin(self.sitting.resume(record), announce=False)
        log = meta.get("log")
        if isinstance(log, list) and all(isinstance(x, str) for x in log):
            self.log[:0] = log
        self.log.append(t(self.lang, "log.resumed"))
        take_backs = meta.get("take_backs")
        self.take_backs = take_backs if isinstance(take_backs, int) and take_backs >= 0 else 0
        tally = meta.get("tally")
        if isinstance(tally, list) and len(tally) == self.players and all(isinstance(x, int) for x in tally):
            self.sitting.tally = list(tally)
        games = meta.get("games")
        if isinstance(games, int) and games > 0:
            self.sitting.games = games
        human = [i for i, text in enumerate(record.moves) if parse_record_move(text)[0] == HUMAN]
        marks = _read_marks(meta.get("marks"), set(human), len(self.log))
        # a plain record (or marks that do not fit it): the human's moves, without the log to cut back
        self._marks = marks if marks is not None else [(i, len(self.log)) for i in human]
        self._recorded = self.referee.is_over
        self._fresh = keep_previous

    def _begin(self, referee: Referee, announce: bool = True) -> None:
        self.referee = referee
        self.referee.names = self.names
        self.agents = self._make_bots()
        if announce:
            dealer = self.names[referee.dealer]
            if self.sitting.games == 1:
                self.log.append(self._you(self.welcome(dealer)))
            else:
                self.log.append(self._you(new_game_line(dealer, self.lang)))
        self._told_last_card = self._last_card_known()
        self.take_backs = 0
        self._marks = []
        self._recorded = False
        self.sitting.finish(referee)

    def welcome(self, dealer: str) -> str:
        """The first line of a session: the rules, who deals, the bots' level, and how to
        learn the game (``?`` at the table, ``lær``/``learn`` in line mode)."""
        lang = self.lang
        levels = [t(lang, f"level.{lv}") if f"level.{lv}" in TEXT else lv
                  for s, lv in enumerate(self.levels) if s != HUMAN]
        if len(set(levels)) == 1:
            bots = t(lang, "log.welcome.bot" if len(levels) == 1 else "log.welcome.bots", n=len(levels),
                     level=levels[0])
        else:
            bots = t(lang, "log.welcome.bots_mixed", levels=", ".join(levels))
        how = t(lang, "log.welcome.plain" if self.plain else "log.welcome.tui")
        return t(lang, "log.welcome", rules=self.rules.name.capitalize(), dealer=in_sentence(dealer, lang), bots=bots,
                 how=how)

    def _last_card_known(self) -> bool:
        obs = self.referee.observation(HUMAN)
        return obs.trump_holder is not None and obs.stock_count == 0

    def _last_card_line(self) -> str | None:
        """Who got the last card of the stock, once it is gone (the trump card: the
        lead in phase 2 goes with it)."""
        if self._told_last_card or not self._last_card_known():
            return None
        self._told_last_card = True
        obs = self.referee.observation(HUMAN)
        holder = obs.trump_holder
        assert holder is not None
        name = as_object(self.names[holder], self.lang)
        if obs.trump_card is None or self.rules.trump is Trump.LAST_CARD:
            return t(self.lang, "log.last_card.last_card", name=name)
        return t(self.lang, "log.last_card.drawn", name=name, card=card_symbol(obs.trump_card))

    def _make_bots(self) -> dict[int, Agent]:
        return self.sitting.bots({s: self.levels[s] for s in range(self.players) if s != HUMAN})

    # ------------------------------------------------------------ settings, at once
    def change_language(self, lang: Lang) -> None:
        """Speak ``lang`` from now on (the log so far stays as it was written); the
        human's default name follows ("Du" <-> "You")."""
        if self.names[HUMAN] == say("word.you", self.lang):
            self.names[HUMAN] = say("word.you", lang)
        self.lang = lang

    def rename(self, name: str) -> None:
        """The human's name at the table from now on ("": "Du"/"You")."""
        self.names[HUMAN] = name.strip() or say("word.you", self.lang)

    def change_levels(self, levels: list[str]) -> None:
        """The bots' levels (one per bot seat, in seat order) from their next decision."""
        seats = [s for s in range(self.players) if s != HUMAN]
        if len(levels) != len(seats):
            raise ValueError(f"{len(levels)} bot levels for {len(seats)} bots")
        for seat, level in zip(seats, levels, strict=True):
            self.levels[seat] = level
        self.agents = self._make_bots()

    def change_table(self, rules: Rules, players: int, levels: list[str]) -> None:
        """Other rules or another number of players (bot ``levels`` one per bot seat)
        from the next game: a game is played to the end by the rules it was dealt by."""
        self.next_table = (rules, players, levels)

    def _take_next_table(self) -> None:
        if self.next_table is None:
            return
        rules, players, levels = self.next_table
        self.next_table = None
        if players == self.players:
            self.rules = rules
            self.sitting.rules = rules
        else:  # another table: a new sitting (a new tally, the first dealer drawn)
            you = self.names[HUMAN]
            self.rules, self.players = rules, players
            self.names[:] = seat_names(players, HUMAN, self.lang)
            self.names[HUMAN] = you
            self.sitting = Sitting(rules, players, seed=self.seed)
            self.sitting.draw_first_dealer()
        self.levels = [self.levels[HUMAN] if HUMAN < len(self.levels) else "medium", *levels]
        assert len(self.levels) == players and HUMAN == 0

    def next_game(self) -> None:
        """Play again; the loser deals (in its own file when games are saved in
        :func:`games_folder`).  Rules chosen meanwhile (:meth:`change_table`) apply now."""
        self.sitting.finish(self.referee)
        self._take_next_table()
        if self._auto:
            self.save_path = new_game_path(self.path.parent)
            prune_finished(self.path.parent)
        self.start()

    # ------------------------------------------------------------ the human's view
    def observation(self) -> Observation:
        """The human seat's observation: all a front end may show."""
        return self.referee.observation(HUMAN)

    @property
    def tally(self) -> list[int]:
        """How many times each seat has lost (been Mattis or Blodmattis) this session."""
        return self.sitting.tally

    @property
    def games(self) -> int:
        """Games dealt this session."""
        return self.sitting.games

    @property
    def over(self) -> bool:
        return self.referee.is_over

    @property
    def human_to_act(self) -> bool:
        return self.referee.to_act == HUMAN

    @property
    def bot_to_act(self) -> bool:
        to_act = self.referee.to_act
        return to_act is not None and to_act != HUMAN

    # ------------------------------------------------------------ moves
    def try_move(self, move: Move) -> str | None:
        """Make the human's move.  Returns ``None``, or the reason it is not allowed
        (in the session language; nothing changes then)."""
        to_act = self.referee.to_act
        if to_act is None:
            return t(self.lang, "err.over")
        if to_act != HUMAN:
            return t(self.lang, "err.not_your_turn", name=self.names[to_act])
        mark = (self.referee.moves_played, len(self.log))
        try:
            events = self.referee.apply(HUMAN, move)
        except IllegalMoveError as e:
            return reason_text(e.illegal, self.lang)
        self._marks.append(mark)
        self._log_events(HUMAN, events)
        return None

    def bot_step(self) -> bool:
        """Let the bot to act make one move (it sees only its own observation)."""
        return play_until(self.referee, self.agents, on_events=self._log_events, max_moves=1) == 1

    def run_bots(self) -> None:
        """Bots move until it is the human's turn or the game is over."""
        play_until(self.referee, self.agents, on_events=self._log_events)

    # ------------------------------------------------------------ take-backs
    @property
    def can_take_back(self) -> bool:
        """Whether :meth:`take_back` has a move to take back (the game is not over and
        the human has moved in it)."""
        return not self.referee.is_over and bool(self._marks)

    def take_back(self) -> bool:
        """Go back to just before the human's previous decision (the bots' replies go
        too); the record keeps only the line played on.  The cards the human has not
        seen there (the stock, the others' hidden cards) are then dealt afresh,
        consistently with all she has seen (:meth:`Referee.redeal_hidden`), so a card
        she drew or saw turned after that decision is no more likely to come again
        than any other unseen card.  Returns ``False`` (changing nothing) when there is
        nothing to take back, or the game began from a position (no deck to deal
        afresh; :meth:`why_no_take_back` says which)."""
        if not self.can_take_back or self.record_from_position:
            return False
        moves, log_len = self._marks[-1]
        self.referee.undo_to(moves)
        rng = random.Random(derive_seed(self.seed, "take-back", self.games - 1, self.take_backs, moves))
        try:
            self.referee.redeal_hidden(HUMAN, rng)
        except DeterminizeError:  # pragma: no cover - every dealt game has a consistent deal: its own
            pass
        self._marks.pop()
        self.referee.names = self.names
        del self.log[log_len:]
        self.take_backs += 1
        self.log.append(self._you(t(self.lang, "log.take_back", name=self.names[HUMAN])))
        self.log.append(t(self.lang, "takeback.redealt"))
        self.agents = self._make_bots()
        self._told_last_card = self._last_card_known()  # told before the move taken back, or not yet due
        return True

    @property
    def record_from_position(self) -> bool:
        """Whether the game began from a position rather than a deal."""
        return self.referee.record().position is not None

    def why_no_take_back(self, lang: Lang | None = None) -> str:
        """Why :meth:`take_back` takes nothing back, in a sentence."""
        lang = lang or self.lang
        if self.can_take_back and self.record_from_position:
            return t(lang, "takeback.cannot")
        return t(lang, "takeback.none")

    # ------------------------------------------------------------ hints
    def hint(self) -> Move | None:
        """The hint's move for the human (:func:`mattis.lab.hint.hint_move`, from the
        human's observation only; its reason is :meth:`hint_text`); ``None`` when
        it is not her turn.  One hint per position: it is worked
        out once, with a seed derived from the position (:func:`position_seed`, also in
        an unseeded game), and every later ask in that position gets the same move."""
        obs = self.observation()
        if not obs.legal or obs.to_act != HUMAN:
            return None
        seed = position_seed(self.seed, "hint", obs)
        if self._hint is not None and self._hint[0] == seed:
            return self._hint[1]
        from ..lab.hint import hint_move

        move = hint_move(obs, seed)
        self._hint = (seed, move)
        return move

    def hint_text(self, lang: Lang | None = None) -> str | None:
        """The hint (:meth:`hint`) and why, in a sentence: in phase 2 the figures of the
        evaluator that chose the move, for it and the next best, in phase 1 a reason in
        card terms (:func:`mattis.lab.hint.hint_sentence`); ``None`` when it is not the
        human's turn."""
        lang = lang or self.lang
        move = self.hint()
        if move is None:
            return None
        from ..lab.hint import hint_sentence

        obs = self.observation()
        return hint_sentence(obs, move, lang, position_seed(self.seed, "hint", obs))

    # ------------------------------------------------------------ log
    def _you(self, line: str) -> str:
        you = self.names[HUMAN]
        return fix_you(line, you, self.lang) if you == say("word.you", self.lang) else line

    def _log_events(self, seat: int, events: list[Event]) -> None:
        """Turn the events of a move into log lines; count a finished game."""
        lang = self.lang
        names = self.names
        for e in events:
            if isinstance(e, MovePlayed):
                line = describe_move(names[e.seat], e.move, e.shown, lang)
            elif isinstance(e, TrickTaken):
                line = t(lang, "log.wins_trick", name=names[e.seat])
            elif isinstance(e, PhaseTwoBegins):
                last = self._last_card_line()
                if last is not None:
                    self.log.append(self._you(last))
                line = (t(lang, "log.phase2", trump=t(lang, f"suit.{e.trump}")) if e.trump is not None
                        else t(lang, "log.phase2_notrump"))
                self.log.append(self._you(line))
                line = self._phase2_lines()
            elif isinstance(e, TrickCleared):
                line = t(lang, "log.avstikk", name=names[e.seat])
            elif isinstance(e, PlayerOut):
                line = t(lang, "log.out", name=names[e.seat], place=e.place)
            elif isinstance(e, PlayerWaiting):
                line = t(lang, "log.waiting", name=names[e.seat])
            elif isinstance(e, BlodmattisFound):
                line = t(lang, "log.blodmattis", name=names[e.seat])
            elif isinstance(e, GameOver):
                self.sitting.finish(self.referee)
                self._record_result()
                if e.outcome.mattis is None:
                    continue
                line = loser_sentence(self.rules, names[e.outcome.mattis], lang)
            else:  # pragma: no cover - every event type is handled above
                continue
            if line:
                self.log.append(self._you(line))
        last = self._last_card_line()
        if last is not None:
            self.log.append(self._you(last))

    def _phase2_lines(self) -> str:
        """Who is bordmattis (under ``empty_hand=pick_up``) and who leads phase 2, as log
        lines joined by newlines (empty when the game ended at once)."""
        obs = self.referee.observation(HUMAN)
        lines = []
        if self.rules.empty_hand is EmptyHand.PICK_UP:
            for s in sorted(obs.still_in):
                if obs.hand_counts[s] == 0:
                    lines.append(self._you(t(self.lang, "log.bordmattis", name=self.names[s])))
        leader = self.referee.to_act
        if leader is not None and obs.phase is PHASE2:
            lines.append(self._you(t(self.lang, "log.leads_phase2", name=self.names[leader])))
        for line in lines[:-1]:
            self.log.append(line)
        return lines[-1] if lines else ""

    def _record_result(self) -> None:
        """Add the finished game to the statistics (once)."""
        if self._recorded:
            return
        self._recorded = True
        outcome = self.referee.outcome
        if self.stats_path is None or outcome is None:
            return
        obs = self.observation()
        place = obs.finished.index(HUMAN) + 1 if HUMAN in obs.finished else None
        bots = [self.levels[s] for s in range(self.players) if s != HUMAN]
        result = GameResult(rules=self.rules.name, house_rules=bool(self.rules.overrides()), players=self.players,
                            bots=bots[0] if len(set(bots)) == 1 else ",".join(bots),
                            lost=HUMAN in outcome.losers, blodmattis=HUMAN in outcome.blodmattis, place=place,
                            take_backs=self.take_backs)
        try:
            aside = record_game(result, self.stats_path)
        except OSError as e:  # statistics are a nicety: a full or read-only disk must not stop the game
            self.log.append(t(self.lang, "stats.not_saved", why=os_error_words(e, self.lang)))
            return
        if aside is not None:
            self.log.append(t(self.lang, "stats.moved_aside", path=str(aside)))

    # ------------------------------------------------------------ saving
    def session_data(self) -> dict[str, Any]:
        """What a saved game remembers beside its record."""
        return {"lang": self.lang, "levels": list(self.levels), "log": list(self.log),
                "names": list(self.names), "take_backs": self.take_backs, "tally": list(self.tally),
                "games": self.games, "marks": [list(m) for m in self._marks]}

    def record_text(self) -> str:
        """The game record (JSON) so far, with the names and the session's memory."""
        data = self.referee.record().to_json()
        data["names"] = list(self.names)
        data["session"] = self.session_data()
        return json.dumps(data, ensure_ascii=False, indent=1)

    def save(self) -> Path:
        """Write the record atomically to the save file; returns the path.  With an
        explicit ``save_path`` the first save of a new game keeps the file it replaces
        (the previous game, finished or not) as ``<name>.1.json``, and up to
        :data:`KEEP` such generations, so a game is never silently lost; in
        :func:`games_folder` every game has a file of its own."""
        path = atomic_write(self.path, self.record_text(), keep=KEEP if self._fresh and not self._auto else 0)
        self._fresh = False
        return path

    def try_save(self, key: str = "save.failed", full: bool = True) -> str | None:
        """:meth:`save`, saying in one line why it failed (a full or read-only disk, a
        path that is not a regular file) instead of raising; the game stays in memory,
        the file that was there is untouched, and the next save tries again.  ``None``:
        saved.  ``key``: the catalogue line to say it with (``save.failed``,
        ``save.failed_quit``, ``save.lost``: ``save.lost_none`` when there was no file
        to leave untouched).  ``full``: name the file by its whole path, else by its
        name (the table's two-line message at 80x24; the path is printed after quitting)."""
        try:
            self.save()
        except OSError as e:
            if key == "save.lost" and not self.path.is_file():
                key = "save.lost_none"
            where = str(self.path) if full else self.path.name
            self.save_error = t(self.lang, key, path=where, why=os_error_words(e, self.lang))
            return self.save_error
        self.save_error = None
        return None

    def kept_path(self) -> Path:
        """Where the first save of a new game keeps the previous one."""
        return generation(self.path, 1)
