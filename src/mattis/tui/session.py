"""A play session under a terminal front end: one human against bots, game after game.

The :class:`Session` holds a :class:`~mattis.play.Sitting` (the seed, the tally,
who deals) and the :class:`~mattis.play.Referee` of the game being played; it
never holds a :class:`~mattis.core.State`.  Front ends (the Textual app and the
plain line mode) read :meth:`Session.observation` (the human seat's view), send
the human's moves through :meth:`Session.try_move`, and step the bots with
:meth:`Session.bot_step`.  The log lines come from the typed events of
:mod:`mattis.play.events`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..bots import Agent, make_bot
from ..core import (
    GameRecord,
    IllegalMoveError,
    Move,
    Observation,
    RecordError,
    Rules,
    describe_move,
    reason_text,
    seat_names,
)
from ..core.text import loser_sentence
from ..play import (
    BlodmattisFound,
    Event,
    GameOver,
    MovePlayed,
    PhaseTwoBegins,
    PlayerOut,
    Referee,
    Seed,
    Sitting,
    TrickCleared,
    TrickTaken,
    atomic_write,
    derive_seed,
    generation,
    play_until,
)
from .i18n import Lang, t

HUMAN = 0
"""The human plays seat 0."""

HINT_LEVEL = "expert"
"""The bot level asked for a hint."""

KEEP = 3
"""Earlier games kept beside the save file (``last-game.1.json`` is the newest)."""


def default_save_path() -> Path:
    """``$XDG_DATA_HOME/mattis/last-game.json`` (``~/.local/share/mattis/last-game.json``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mattis" / "last-game.json"


def fix_you(line: str, you: str, lang: Lang) -> str:
    """English verbs agree with "You" ("You play", not "You plays")."""
    if lang != "en" or not line.startswith(you + " "):
        return line
    for third, second in (("plays", "play"), ("picks up", "pick up"), ("takes", "take"), ("lays", "lay"),
                          ("wins", "win"), ("is", "are"), ("deals", "deal")):
        prefix = f"{you} {third}"
        if line.startswith(prefix + " ") or line == prefix:
            return (f"{you} {second}" + line[len(prefix):]).replace(" and turns up ", " and turn up ")
    return line


def holds_unfinished(path: Path) -> bool:
    """Whether ``path`` holds a game that is not over (an unreadable file counts too:
    it is kept rather than lost)."""
    if not path.is_file():
        return False
    try:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        return not Referee.from_record(record).is_over
    except (OSError, UnicodeDecodeError, ValueError, RecordError):
        return True


@dataclass
class Session:
    """One human against bots, game after game; see the module docstring."""

    rules: Rules
    players: int
    levels: list[str]
    """Bot level of each seat (the human seat's entry is unused)."""
    lang: Lang = "nb"
    seed: Seed = None
    save_path: Path = field(default_factory=default_save_path)
    names: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    sitting: Sitting = field(init=False)
    referee: Referee = field(init=False)
    agents: dict[int, Agent] = field(init=False, default_factory=dict)
    _fresh: bool = field(init=False, default=False)
    """The save file still holds the previous game (the next save keeps it)."""

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.players, HUMAN, self.lang)
        self.sitting = Sitting(self.rules, self.players, seed=self.seed)

    # ------------------------------------------------------------ starting
    def start(self, dealer: int | None = None) -> None:
        """Deal a new game (reproducible from ``seed``, else shuffled from ``secrets``);
        by default the sitting's dealer deals (the loser of the last game)."""
        if dealer is not None:
            self.sitting.dealer = dealer
        self._begin(self.sitting.deal())
        self._fresh = True

    def resume(self, record: GameRecord, keep_previous: bool = False) -> None:
        """Continue a saved game: replay the record, then play on.  With
        ``keep_previous`` (the record came from another file than ``save_path``) the
        first save keeps what ``save_path`` held, as for a new game."""
        self._begin(self.sitting.resume(record))
        self._fresh = keep_previous

    def _begin(self, referee: Referee) -> None:
        self.referee = referee
        self.referee.names = self.names
        self.agents = self.sitting.bots({s: self.levels[s] for s in range(self.players) if s != HUMAN})
        self.log.append(self._you(t(self.lang, "log.new_game", dealer=self.names[referee.dealer])))
        self.sitting.finish(referee)

    def next_game(self) -> None:
        """Play again; the loser deals."""
        self.sitting.finish(self.referee)
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
        try:
            events = self.referee.apply(HUMAN, move)
        except IllegalMoveError as e:
            return reason_text(e.illegal, self.lang)
        self._log_events(HUMAN, events)
        return None

    def bot_step(self) -> bool:
        """Let the bot to act make one move (it sees only its own observation)."""
        return play_until(self.referee, self.agents, on_events=self._log_events, max_moves=1) == 1

    def run_bots(self) -> None:
        """Bots move until it is the human's turn or the game is over."""
        play_until(self.referee, self.agents, on_events=self._log_events)

    def hint(self) -> Move | None:
        """A bot's suggestion for the human (from the human's observation only)."""
        obs = self.observation()
        if not obs.legal:
            return None
        bot = make_bot(HINT_LEVEL, derive_seed(self.seed, "hint", self.games - 1, len(obs.history)))
        return bot.act(obs)

    # ------------------------------------------------------------ log
    def _you(self, line: str) -> str:
        return fix_you(line, self.names[HUMAN], self.lang)

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
                line = (t(lang, "log.phase2", trump=t(lang, f"suit.{e.trump}")) if e.trump is not None
                        else t(lang, "log.phase2_notrump"))
            elif isinstance(e, TrickCleared):
                line = t(lang, "log.avstikk", name=names[e.seat])
            elif isinstance(e, PlayerOut):
                line = t(lang, "log.out", name=names[e.seat], place=e.place)
            elif isinstance(e, BlodmattisFound):
                line = t(lang, "log.blodmattis", name=names[e.seat])
            elif isinstance(e, GameOver):
                self.sitting.finish(self.referee)
                if e.outcome.mattis is None:
                    continue
                line = loser_sentence(self.rules, names[e.outcome.mattis], lang)
            else:  # pragma: no cover - every event type is handled above
                continue
            self.log.append(self._you(line))

    # ------------------------------------------------------------ saving
    def record_text(self) -> str:
        """The game record (JSON) so far."""
        return self.referee.record().dumps()

    def save(self) -> Path:
        """Write the record atomically to ``save_path``; returns the path.  The first
        save of a new game keeps the file it replaces (the previous game, finished or
        not) as ``<name>.1.json``, and up to :data:`KEEP` such generations, so a game
        is never silently lost."""
        path = atomic_write(self.save_path, self.record_text(), keep=KEEP if self._fresh else 0)
        self._fresh = False
        return path

    def kept_path(self) -> Path:
        """Where the first save of a new game keeps the previous one."""
        return generation(self.save_path, 1)
