"""The referee of a play session: holds the game State, asks the bots, saves the record.

Front ends (the Textual app and the plain line mode) never touch the State:
they read :meth:`Session.observation` (the human seat's view), send the
human's moves through :meth:`Session.try_move`, and step the bots with
:meth:`Session.bot_step`.  Only this module reads the full State.
"""

from __future__ import annotations

import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..bots import Agent, make_bot
from ..core import (
    OVER,
    PHASE2,
    GameRecord,
    IllegalMoveError,
    Move,
    Observation,
    Rules,
    State,
    describe_move,
    reason_text,
    seat_names,
)
from .i18n import Lang, t

HUMAN = 0
"""The human plays seat 0."""

HINT_LEVEL = "expert"
"""The bot level asked for a hint."""


def default_save_path() -> Path:
    """``$XDG_DATA_HOME/mattis/last-game.json`` (``~/.local/share/mattis/last-game.json``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mattis" / "last-game.json"


def _derive_seed(seed: int | str | None, *parts: object) -> int | None:
    """A reproducible sub-seed (``None`` stays ``None``: fresh randomness)."""
    if seed is None:
        return None
    return random.Random(":".join(str(p) for p in (seed, *parts))).getrandbits(32)


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


@dataclass
class Session:
    """One human against bots, game after game; see the module docstring."""

    rules: Rules
    players: int
    levels: list[str]
    """Bot level of each seat (the human seat's entry is unused)."""
    lang: Lang = "nb"
    seed: int | str | None = None
    save_path: Path = field(default_factory=default_save_path)
    names: list[str] = field(default_factory=list)
    tally: list[int] = field(default_factory=list)
    """How many times each seat has lost (been Mattis or Blodmattis) this session."""
    games: int = 0
    log: list[str] = field(default_factory=list)
    state: State = field(init=False)
    bots: dict[int, Agent] = field(init=False, default_factory=dict)
    _last_obs: Observation | None = field(init=False, default=None)
    _counted: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        if not self.names:
            self.names = seat_names(self.players, HUMAN, self.lang)
        if not self.tally:
            self.tally = [0] * self.players

    # ------------------------------------------------------------ starting
    def start(self, dealer: int = 0) -> None:
        """Deal a new game (reproducible from ``seed``, else shuffled from ``secrets``)."""
        game_seed: int | str | None = None if self.seed is None else (
            self.seed if self.games == 0 else f"{self.seed}/{self.games}")
        self._begin(State.new(self.rules, self.players, seed=game_seed, dealer=dealer))

    def resume(self, record: GameRecord) -> None:
        """Continue a saved game: replay the record, then play on."""
        self._begin(record.replay())

    def _begin(self, state: State) -> None:
        self.state = state
        self.bots = {s: make_bot(self.levels[s], _derive_seed(self.seed, "bot", self.games, s))
                     for s in range(self.players) if s != HUMAN}
        self._counted = False
        you = self.names[HUMAN]
        self.log.append(fix_you(t(self.lang, "log.new_game", dealer=self.names[state.dealer]), you, self.lang))
        self._last_obs = self.observation()
        self._count_if_over()

    def next_game(self) -> None:
        """Play again; the loser deals."""
        dealer = self.state.next_dealer
        self.games += 1
        self.start(dealer)

    # ------------------------------------------------------------ the human's view
    def observation(self) -> Observation:
        """The human seat's observation: all a front end may show."""
        return self.state.observation(HUMAN)

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    @property
    def human_to_act(self) -> bool:
        return self.state.to_act == HUMAN

    @property
    def bot_to_act(self) -> bool:
        return not self.over and self.state.to_act != HUMAN

    # ------------------------------------------------------------ moves
    def try_move(self, move: Move) -> str | None:
        """Make the human's move.  Returns ``None``, or the reason it is not allowed
        (in the session language; nothing changes then)."""
        if self.over:
            return t(self.lang, "err.over")
        to_act = self.state.to_act
        if to_act != HUMAN:
            assert to_act is not None
            return t(self.lang, "err.not_your_turn", name=self.names[to_act])
        try:
            self.state.apply(move)
        except IllegalMoveError as e:
            return reason_text(e.illegal, self.lang)
        self._after_move()
        return None

    def bot_step(self) -> bool:
        """Let the bot to act make one move (it sees only its own observation)."""
        if not self.bot_to_act:
            return False
        seat = self.state.to_act
        assert seat is not None
        move = self.bots[seat].act(self.state.observation(seat))
        self.state.apply(move)
        self._after_move()
        return True

    def run_bots(self) -> None:
        """Bots move until it is the human's turn or the game is over."""
        while self.bot_step():
            pass

    def hint(self) -> Move | None:
        """A bot's suggestion for the human (from the human's observation only)."""
        obs = self.observation()
        if not obs.legal:
            return None
        bot = make_bot(HINT_LEVEL, _derive_seed(self.seed, "hint", self.games, len(obs.history)))
        return bot.act(obs)

    # ------------------------------------------------------------ log
    def _after_move(self) -> None:
        """Turn what changed in the public view into log lines."""
        prev = self._last_obs
        obs = self.observation()
        self._last_obs = obs
        lang = self.lang
        you = self.names[HUMAN]
        if prev is None:
            return
        for seat, move, shown in obs.history[len(prev.history):]:
            self.log.append(fix_you(describe_move(self.names[seat], move, shown, lang), you, lang))
        if obs.phase == 1 or prev.phase == 1:
            for s in range(obs.players):
                if obs.tricks_won[s] > prev.tricks_won[s]:
                    self.log.append(fix_you(t(lang, "log.wins_trick", name=self.names[s]), you, lang))
        if prev.phase == 1 and obs.phase >= PHASE2:
            if obs.trump is not None:
                self.log.append(t(lang, "log.phase2", trump=t(lang, f"suit.{obs.trump}")))
            else:
                self.log.append(t(lang, "log.phase2_notrump"))
        elif (obs.phase == PHASE2 or prev.phase == PHASE2) and obs.last_trick != prev.last_trick \
                and obs.last_trick is not None and prev.phase == PHASE2:
            self.log.append(fix_you(t(lang, "log.avstikk", name=self.names[obs.last_trick[0]]), you, lang))
        for s in obs.finished[len(prev.finished):]:
            place = obs.finished.index(s) + 1
            self.log.append(fix_you(t(lang, "log.out", name=self.names[s], place=place), you, lang))
        for s in obs.blodmattis[len(prev.blodmattis):]:
            self.log.append(fix_you(t(lang, "log.blodmattis", name=self.names[s]), you, lang))
        if obs.phase == OVER and prev.phase != OVER:
            m = mattis_of(obs)
            if m is not None:
                self.log.append(fix_you(t(lang, "log.mattis", name=self.names[m]), you, lang))
            self._count_if_over()

    def _count_if_over(self) -> None:
        if self.over and not self._counted:
            self._counted = True
            for s in self.state.losers:
                self.tally[s] += 1

    # ------------------------------------------------------------ saving
    def record_text(self) -> str:
        """The game record (JSON) so far."""
        return GameRecord.from_state(self.state).dumps()

    def save(self) -> Path:
        """Write the record atomically to ``save_path``; returns the path."""
        path = self.save_path
        path.parent.mkdir(parents=True, exist_ok=True)
        text = self.record_text()
        fd, tmp = tempfile.mkstemp(prefix=".mattis-", suffix=".json", dir=str(path.parent))
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text + "\n")
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return path


def mattis_of(obs: Observation) -> int | None:
    """The player left holding cards (losers who are not Blodmattis), from public facts."""
    rest = [s for s in obs.losers if s not in obs.blodmattis]
    return rest[0] if rest else None


def keep_unfinished(path: Path) -> Path | None:
    """Before a new game overwrites ``path``: if it holds an unfinished game, move it to
    ``<name>.previous.json`` so it is not lost.  Returns the new path, or ``None``."""
    if not path.is_file():
        return None
    try:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        over = record.replay().is_over
    except (OSError, UnicodeDecodeError, ValueError):
        over = False  # unreadable: keep it too
    if over:
        return None
    backup = path.with_name(path.stem + ".previous" + path.suffix)
    os.replace(path, backup)
    return backup

