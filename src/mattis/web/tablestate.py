"""A web table's state, rebuilt from its events (no I/O): :class:`TableState` holds the seats,
the sitting, the running game and the finished games' records, answers who is to act and
who plays for whom, and applies a checked and logged event (:meth:`TableState.apply`).
The requests that make events are :class:`mattis.web.table.Table`'s.

A player who is away when it is their turn is *stood in for* by a bot after the grace
period (:meth:`Table.stand_in`) until they come back (:meth:`Table.hand_back`).  That is
connection state, not logged: after a restart nobody is connected and the grace period
runs again.  A connected player whose turn clock runs out (or whose turn the host skips) is
*covered* for that one turn (:attr:`Table.cover`): a bot makes that one move, unless she
moves first; her seat stays hers.

The table keeps only what is web-specific (seats, names, tokens, the log's
event count, finished games' records); the games themselves are run by the
play layer: a :class:`~mattis.play.Sitting` (tally, the loser deals) and one
:class:`~mattis.play.Referee` per game.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Self

from ..core import (
    Rules,
    parse_move,
    rules_from_json,
)
from ..core.text import DEFAULT_NAMES
from ..play import Agent, Judged, Referee, Sitting, derive_seed, make_bot
from ..play.agents import DEFAULT_LEVEL
from .chat import Chat
from .seats import GRACE_DEFAULT, Seat, Timer, hash_token, people_in

Event = dict[str, Any]

@dataclass
class TableState:
    """One table: seats, the sitting (games, tally, dealer), the running game and the
    finished games' records."""

    id: str
    sitting: Sitting
    seats: list[Seat]
    invite: str
    test_seed: int | None = None
    """The seed of a test server's table: deals and bots are then reproducible."""
    grace: int | None = GRACE_DEFAULT
    """Seconds before a bot plays an absent player's turn (``None``: never)."""
    standin: set[int] = field(default_factory=set)
    """Seats of people who are away, played by a bot until they come back (not logged)."""
    ended: bool = False
    """The host ended the current game before it was over."""
    host_away: bool = False
    """The host has been away from the lobby longer than the grace period: anyone seated
    may start (not logged, like :attr:`standin`)."""
    game: int = 0
    """Number of the current game (0 = still in the lobby)."""
    referee: Referee | None = None
    """The current (or just finished) game."""
    bot_seed: int = 0
    """The current deal's bot seed (from its ``deal`` event)."""
    bots: dict[int, Agent] = field(default_factory=dict)
    records: dict[int, str] = field(default_factory=dict)
    """Finished games' records (JSON text), by game number."""
    events: int = 0
    clock: int | None = None
    """Seconds a connected player has for each turn before a bot plays that turn (``None``: no clock)."""
    paused: bool = False
    """The host paused the game: no move, no clock, no bot (logged: ``pause`` events)."""
    cover: tuple[int, int, int] | None = None
    """(game, move, seat): a bot plays this one turn for the person in the seat (her clock ran
    out, or the host skipped her turn); she may still move first (not logged)."""
    nudged: tuple[int, int, int] | None = None
    """(game, move, seat) of the host's last nudge: one nudge per turn (not logged)."""
    timer: Timer | None = None
    """The clock running for the seat to act, if any (set by the hub; not logged)."""
    cover_why: str = "clock"
    """Why the :attr:`cover` is there: ``clock`` (her turn clock ran out) or ``host`` (the host skipped it)."""
    bank: int | None = None
    """Seconds of time bank each seat has a game, spent when its turn clock runs out (``None``: none)."""
    banks: list[float] = field(default_factory=list)
    """Seconds left in each seat's bank this game (from the logged moves' ``bank``; full at each deal)."""
    chat: Chat = field(default_factory=Chat)
    """The table's chat: recent lines and muted seats (logged: ``chat`` and ``mute`` events)."""
    by_bot: dict[int, dict[int, str]] = field(default_factory=dict)
    """Moves a bot made for a person, by game and move number (0 = the first move): why
    (:data:`mattis.core.text.BOT_REASONS`: ``clock``, ``host``, ``away``, ``given``).  From
    the ``move`` events' ``by`` field, so it is logged and rebuilt on a restart."""
    judged: tuple[int, int, str, Judged] | None = None
    """(game, move number, move text, judgement) of the move :meth:`move_event` judged last:
    applying its logged event commits that judgement instead of judging it again (not logged)."""

    @classmethod
    def from_create(cls, ev: Event) -> Self:
        seats: list[Seat] = []
        for i, s in enumerate(ev["seats"]):
            default = f"{DEFAULT_NAMES[i]} (bot)"
            if s["kind"] == "human":
                seats.append(Seat("human", s["name"], DEFAULT_LEVEL, s["token_hash"]))
            elif s["kind"] == "bot":
                seats.append(Seat("bot", default, s["level"]))
            else:
                seats.append(Seat("open", default))
        test_seed = ev.get("test_seed")
        # The first dealer is drawn when the table is made; logs from before that say nothing: seat 0.
        sitting = Sitting(rules_from_json(ev["rules"]), ev["players"], seed=test_seed, dealer=ev.get("dealer", 0))
        t = cls(ev["id"], sitting, seats, ev["invite"], test_seed, ev.get("grace", GRACE_DEFAULT),
                clock=ev.get("clock"), bank=ev.get("bank"))
        t.events = 1
        return t

    @property
    def rules(self) -> Rules:
        return self.sitting.rules

    @property
    def players(self) -> int:
        return self.sitting.players

    @property
    def tally(self) -> list[int]:
        """Games lost per seat (Mattis or Blodmattis) in this sitting."""
        return list(self.sitting.tally)

    @property
    def games_done(self) -> int:
        return len(self.records)

    @property
    def status(self) -> str:
        if self.referee is None:
            return "lobby"
        if self.ended:
            return "ended"
        return "over" if self.referee.is_over else "playing"

    @property
    def seq(self) -> int:
        """Moves made in the current game: a move request must name it."""
        return 0 if self.referee is None else self.referee.moves_played

    def to_act(self) -> int | None:
        """The seat to act in the running game (``None``: no game going, or it is paused)."""
        return None if self.referee is None or self.ended or self.paused else self.referee.to_act

    def covered(self, seat: int) -> bool:
        """Whether a bot plays this one turn for the person in ``seat`` (:attr:`cover`)."""
        return self.cover == (self.game, self.seq, seat)

    def bot_to_act(self) -> int | None:
        """The seat to act in the running game if a bot plays it (a bot's seat, an absent
        player's stood in for, or a person's whose turn is covered)."""
        seat = self.to_act()
        if seat is None:
            return None
        return seat if self.seats[seat].kind == "bot" or seat in self.standin or self.covered(seat) else None

    def person_to_act(self) -> int | None:
        """The seat to act if a person plays this turn herself (not a bot, not stood in for, not covered)."""
        seat = self.to_act()
        if seat is None or self.seats[seat].kind != "human" or seat in self.standin or self.covered(seat):
            return None
        return seat

    def absent_to_act(self, connected: set[int]) -> int | None:
        """The seat to act if it is a person who is not connected and not yet stood in for."""
        seat = self.person_to_act()
        return None if seat is None or seat in connected else seat

    def clocked_to_act(self, connected: set[int]) -> int | None:
        """The seat to act if it is a connected person and the table has a turn clock."""
        seat = self.person_to_act()
        return None if seat is None or seat not in connected or self.clock is None else seat

    def cover_turn(self, seat: int, why: str = "clock") -> None:
        """A bot plays this one turn for the person in ``seat`` (her clock ran out, or the host
        skipped it: ``why``); the next turn is hers again."""
        self.cover = (self.game, self.seq, seat)
        self.cover_why = why
        self.bots = {}

    def bot_why(self, seat: int) -> str | None:
        """Why a bot plays ``seat``'s turn now, if it plays for a person: ``clock`` or ``host``
        (this one turn is covered), ``away`` (she is stood in for), ``given`` (the host gave her
        seat to a bot); ``None`` for a bot's own seat."""
        if self.covered(seat):
            return self.cover_why
        if seat in self.standin:
            return "away"
        s = self.seats[seat]
        return "given" if s.kind == "bot" and s.former is not None else None

    def last_bot_move(self, seat: int) -> str | None:
        """Why a bot made ``seat``'s last move in the running game, if a bot made it for her."""
        ref = self.referee
        if ref is None:
            return None
        hist = ref.observation(seat).history
        for i in range(len(hist) - 1, -1, -1):
            if hist[i][0] == seat:
                return self.by_bot.get(self.game, {}).get(i)
        return None

    def former_seat_of(self, token: object) -> int | None:
        """The seat a token had before the host gave it to a bot (its holder may watch and be
        told so), or None."""
        if not isinstance(token, str) or not token:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.kind == "bot" and s.former is not None and secrets.compare_digest(s.former, h):
                return i
        return None

    def host_absent_in_lobby(self, connected: set[int]) -> bool:
        """The table waits in the lobby for a host who is not connected (and not yet given up on)."""
        return self.referee is None and 0 not in connected and not self.host_away

    def still_in(self) -> frozenset[int]:
        """The seats still in the running game (every seat in phase 1; none once it is over)."""
        ref = self.referee
        if ref is None or ref.is_over or self.ended:
            return frozenset()
        return ref.observation(0).still_in

    def humans_to_play(self) -> bool:
        """Whether a person (not stood in for) is still in the running game."""
        return people_in(self.seats, self.standin, self.still_in())

    def stand_in(self, seat: int) -> None:
        """A bot plays this person's turns until :meth:`hand_back`."""
        if self.seats[seat].kind == "human" and seat not in self.standin:
            self.standin.add(seat)
            self.bots = {}

    def hand_back(self, seat: int) -> bool:
        """The person is back: their seat is theirs again.  Returns whether it was stood in for."""
        if seat not in self.standin:
            return False
        self.standin.discard(seat)
        self.bots = {}
        return True

    def seat_of(self, token: object) -> int | None:
        """The seat a token belongs to at this table, or None."""
        if not isinstance(token, str) or not token:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def agents(self) -> dict[int, Agent]:
        """The bots of the running game by seat, for the play layer.  Built on first use
        from the deal's bot seed and the moves made so far, so a bot rebuilt after a
        restart gets a fresh generator (its seat's observation is all it needs)."""
        if not self.bots:
            self.bots = {i: make_bot(s.level if s.kind == "bot" else DEFAULT_LEVEL,
                                     derive_seed(self.bot_seed, "bot", i, self.seq))
                         for i, s in enumerate(self.seats)
                         if s.kind == "bot" or i in self.standin or self.covered(i)}
        return self.bots

    # ------------------------------------------------------------------ apply
    def apply(self, ev: Event) -> None:
        """Apply an event that has been checked and logged."""
        kind = ev["type"]
        if kind == "join":
            self.seats[ev["seat"]] = Seat("human", ev["name"], DEFAULT_LEVEL, ev["token_hash"])
        elif kind == "deal":
            for i in ev["fill"]:
                self.seats[i] = Seat("bot", self.seats[i].name, ev["level"])
            if ev["game"] != self.game + 1 or ev["dealer"] != self.sitting.dealer:
                raise ValueError(f"deal event for game {ev['game']} dealt by {ev['dealer']} does not follow "
                                 f"game {self.game} (next dealer {self.sitting.dealer})")
            self.game = ev["game"]
            self.ended = False
            self.paused = False
            self.bot_seed = ev["bot_seed"]
            self.bots = {}
            self.banks = [float(self.bank or 0)] * self.players  # a full bank each game
            self.referee = self.sitting.deal(ev["deck"])
            self._count_if_over(self.referee)
        elif kind == "move":
            ref = self.referee
            assert ref is not None and ev["game"] == self.game and ev["seq"] == ref.moves_played
            if ev.get("by") is not None:
                self.by_bot.setdefault(self.game, {})[ev["seq"]] = ev["by"]
            if ev.get("bank") and self.banks:
                self.banks[ev["seat"]] = max(0.0, self.banks[ev["seat"]] - ev["bank"])
            pending, self.judged = self.judged, None
            if pending is not None and pending[:3] == (ev["game"], ev["seq"], ev["move"]) \
                    and pending[3].seat == ev["seat"]:
                ref.commit(pending[3])  # judged by move_event: not parsed or judged again
            else:  # read back from the log (a restart, another worker)
                ref.apply(ev["seat"], parse_move(ev["move"]), events=False)
            self._count_if_over(ref)
        elif kind == "seat":
            i, old = ev["seat"], self.seats[ev["seat"]]
            if ev["kind"] == "human":
                self.seats[i] = Seat("human", old.name, DEFAULT_LEVEL, ev["token_hash"])
            elif ev["kind"] == "bot":
                name = old.name if old.kind != "open" else f"{DEFAULT_NAMES[i]} (bot)"
                former = old.token_hash if old.kind == "human" else old.former if old.kind == "bot" else None
                self.seats[i] = Seat("bot", name, ev["level"], former=former)
            else:
                self.seats[i] = Seat("open", f"{DEFAULT_NAMES[i]} (bot)")
            self.standin.discard(i)
            self.bots = {}
        elif kind == "cover":
            if ev["game"] == self.game and ev["seq"] == self.seq:
                self.cover_turn(ev["seat"], ev.get("why", "clock"))
                if ev.get("why", "clock") == "clock" and self.banks:  # the clock and the whole bank ran out
                    self.banks[ev["seat"]] = 0.0
        elif kind == "pause":
            assert ev["game"] == self.game
            self.paused = ev["paused"]
        elif kind == "end":
            assert ev["game"] == self.game
            self.ended = True
            self.paused = False
        elif kind in ("chat", "mute"):
            self.chat.apply(ev)
        else:
            raise ValueError(f"unknown event {kind!r}")
        self.events += 1

    def _count_if_over(self, ref: Referee) -> None:
        """A game just ended: into the tally (its loser deals next) and the records."""
        if ref.is_over:
            self.sitting.finish(ref)
            self.records[self.game] = ref.record().dumps()

