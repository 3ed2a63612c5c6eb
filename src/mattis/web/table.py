"""A web table as a pure event-sourced object (no I/O).

Every change to a table is an *event* (a JSON-ready dict).  The server checks
a request against the table, appends the resulting event to the log (SQLite),
and only then applies it here and tells the players.  Restarting the server
replays the log through :meth:`Table.apply`, which rebuilds the exact table.

Events: ``create`` (with the drawn first dealer, the grace period for absent players and
the turn clock and its time bank), ``join``, ``cover`` (a bot plays one turn for a person: her
turn clock ran out, or the host skipped it), ``deal`` (a new game: dealer, deck, bot seed; the first deal also
names the open seats filled by bots), ``move``, ``seat`` (the host changes a seat: friend or
bot before the start, a bot for a player during the game, a new token for a seat: re-invite,
or the seat given back to the person a bot played for), ``pause`` (the host pauses or resumes
the game: the clock and the bots stop), ``end`` (the host ends the running game; no one
loses it), ``chat`` (a line of the table's chat) and ``mute`` (the host mutes or unmutes a
seat's chat; see :mod:`mattis.web.chat`).

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

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..core import (
    Illegal,
    IllegalMoveError,
    Move,
    MoveError,
    Observation,
    Rules,
    RulesError,
    parse_move,
    parse_overrides,
    rules_from_json,
    rules_to_json,
)
from ..core.cards import Lang
from ..core.text import DEFAULT_NAMES, reason_words, say
from ..play import Agent, Judged, Referee, Sitting, derive_seed, first_dealer, make_bot
from ..play.agents import DEFAULT_LEVEL
from .chat import Chat, clean_line
from .limits import Limits
from .untrusted import clip

Event = dict[str, Any]

LEVELS = ("easy", "medium", "hard", "expert")
NAME_MAX = 24
GRACE_DEFAULT = 60
"""Seconds an absent player's turn waits before a bot plays it (a table setting)."""
GRACE_MAX = 3600
CLOCK_CHOICES = (None, 30, 60, 120)
"""The turn clocks a host may choose: seconds a connected player has for each turn (``None``: off)."""
BANK_CHOICES = (None, 30, 60)
"""The time banks a host may choose with a turn clock: seconds each seat has a game to spend
when its turn clock runs out, before a bot plays the turn (``None``: none)."""


class Refusal(Exception):
    """A request the table refuses: the catalogue key of the reason (``web.refused.<what>``,
    or the engine's ``reason.<code>`` for an illegal move) and its parameters.  The words
    are the catalogue's, in the language of whoever is told (:meth:`text`)."""

    def __init__(self, what: str, **params: object) -> None:
        self._init(f"web.refused.{what}", params)

    def _init(self, key: str, params: dict[str, object]) -> None:
        self.key = key
        self.params = {k: clip(v) for k, v in params.items()}  # no long input echoed back
        super().__init__(self.en)

    @classmethod
    def illegal(cls, illegal: Illegal) -> Refusal:
        """The engine's reason why a move is illegal."""
        refusal = cls.__new__(cls)
        refusal._init(*reason_words(illegal))
        return refusal

    def text(self, lang: Lang) -> str:
        """The reason in ``lang``."""
        return say(self.key, lang, **self.params)

    @property
    def en(self) -> str:
        return self.text("en")

    @property
    def nb(self) -> str:
        return self.text("nb")


def think(agent: Agent, obs: Observation) -> tuple[Move, Agent]:
    """A bot's move from its seat's view, in a worker process: the move and the bot as it is
    after choosing (its generator advanced), so the server goes on with the same bot."""
    return agent.act(obs), agent


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256 (they are random, 256 bits)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(raw: object) -> str:
    """A display name: printable, trimmed, 1..24 characters."""
    if not isinstance(raw, str):
        raise Refusal("name_not_text")
    name = "".join(ch for ch in raw if ch.isprintable()).strip()[:NAME_MAX]
    if not name:
        raise Refusal("no_name")
    return name


@dataclass
class Seat:
    """A seat: ``open`` (waiting for a person), ``human`` or ``bot``."""

    kind: str
    name: str
    level: str = DEFAULT_LEVEL
    token_hash: str | None = None
    former: str | None = None
    """A bot's seat that a person had: her token's hash, so the host can give the seat back
    (:meth:`Table.seat_event` ``back``) and her old token works again."""


def people_in(seats: list[Seat], standin: set[int], still_in: frozenset[int]) -> bool:
    """Whether a person who plays her own seat (not stood in for) is among the seats still in:
    the bots then play at a pace people can follow, else they fast-forward."""
    return any(s.kind == "human" and i not in standin and i in still_in for i, s in enumerate(seats))


@dataclass
class Timer:
    """The clock running for the seat to act (connection state, not logged): ``kind`` is
    ``clock`` (a connected player's turn clock), ``grace`` (an absent player's grace period)
    or ``host`` (the host away from the lobby).  ``ends`` is on the hub's clock
    (:meth:`mattis.web.waits.Waits.now`); while the table is paused ``left`` holds the
    seconds that were left."""

    seat: int
    game: int
    seq: int
    kind: str
    ends: float
    total: float
    left: float | None = None
    bank: float = 0.0
    """A turn clock's time bank: the seat's bank when the clock started, spent once the clock
    has run out (:attr:`ends` is after the clock and the bank)."""

    def key(self) -> tuple[int, int, int, str]:
        return self.game, self.seq, self.seat, self.kind

    def left_at(self, now: float) -> float:
        """Seconds left at ``now`` (frozen while paused)."""
        return max(0.0, self.ends - now) if self.left is None else self.left

    def clock_left(self, now: float) -> float:
        """Seconds left on the turn clock itself (then the bank runs)."""
        return max(0.0, self.left_at(now) - self.bank)

    def bank_left(self, now: float) -> float:
        """Seconds left in the bank (all of it while the clock runs)."""
        return min(self.bank, self.left_at(now))


@dataclass
class Table:
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

    # ----------------------------------------------------------------- create
    @staticmethod
    def create_event(preset_name: object, overrides: object, players: object, seats: object,
                     host_name: object, test_seed: int | None = None,
                     grace: object = GRACE_DEFAULT, clock: object = None, bank: object = None) -> tuple[Event, str]:
        """Check a create request; returns the ``create`` event and the host's token.
        ``grace``: seconds before a bot plays an absent player's turn, or ``None`` (never);
        ``clock``: the turn clock, one of :data:`CLOCK_CHOICES`; ``bank``: its time bank, one
        of :data:`BANK_CHOICES` (with a clock only)."""
        if clock not in CLOCK_CHOICES or isinstance(clock, bool):
            raise Refusal("bad_clock")
        if bank not in BANK_CHOICES or isinstance(bank, bool) or (bank is not None and clock is None):
            raise Refusal("bad_bank")
        if grace is not None and (not isinstance(grace, int) or isinstance(grace, bool)
                                  or not 0 < grace <= GRACE_MAX):
            raise Refusal("bad_grace", most=GRACE_MAX)
        if not isinstance(preset_name, str):
            raise Refusal("no_preset")
        if overrides is None:
            overrides = {}
        if isinstance(overrides, str):  # the old form's text, "sequences=2 pickup_optional=true"
            try:
                overrides = parse_overrides(overrides.replace(",", " ").split())
            except RulesError as e:
                raise Refusal("bad_rules", detail=e) from None
        if not isinstance(overrides, dict) or not all(isinstance(k, str) for k in overrides):
            raise Refusal("bad_overrides")
        try:
            rules = rules_from_json({"preset": preset_name, **overrides})
        except RulesError as e:
            raise Refusal("bad_rules", detail=e) from None
        if not isinstance(players, int) or isinstance(players, bool) or players not in rules.allowed_players():
            lo, hi = rules.allowed_players().start, rules.allowed_players().stop - 1
            raise Refusal("players", rules=rules.name, lo=lo, hi=hi)
        if seats is None:
            seats = [{"kind": "human"}] * players
        if not isinstance(seats, list) or len(seats) != players:
            raise Refusal("seat_count")
        out: list[dict[str, Any]] = []
        for i, s in enumerate(seats):
            kind = s.get("kind") if isinstance(s, dict) else None
            level = s.get("level", DEFAULT_LEVEL) if isinstance(s, dict) else None
            if i == 0:
                kind = "human"
            if kind not in ("human", "bot"):
                raise Refusal("seat_kind", n=i + 1)
            if level not in LEVELS:
                raise Refusal("bad_level", levels=", ".join(LEVELS))
            out.append({"kind": "open" if kind == "human" else "bot", "level": level})
        name = clean_name(host_name)
        token = secrets.token_urlsafe(32)
        out[0] = {"kind": "human", "name": name, "token_hash": hash_token(token)}
        event: Event = {"type": "create", "id": secrets.token_urlsafe(9), "rules": rules_to_json(rules),
                        "players": players, "seats": out, "invite": secrets.token_urlsafe(12),
                        "test_seed": test_seed, "dealer": first_dealer(test_seed, players), "grace": grace,
                        "clock": clock}
        if bank is not None:  # (a table without a bank logs no key: its log is as before)
            event["bank"] = bank
        return event, token

    @classmethod
    def from_create(cls, ev: Event) -> Table:
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

    def bot_move_event(self, seat: int, game: int, seq: int, text: str) -> Event:
        """:meth:`move_event` for a bot's move; one made for a person says why (``by``)."""
        ev = self.move_event(seat, game, seq, text)
        why = self.bot_why(seat)
        if why is not None:
            ev["by"] = why
        return ev

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

    # --------------------------------------------------------------- requests
    def join_event(self, invite: object, name: object) -> tuple[Event, str]:
        if not isinstance(invite, str) or not secrets.compare_digest(invite.encode(), self.invite.encode()):
            raise Refusal("bad_invite")
        if self.referee is not None:
            raise Refusal("started")
        free = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if not free:
            raise Refusal("full")
        token = secrets.token_urlsafe(32)
        return {"type": "join", "seat": free[0], "name": clean_name(name), "token_hash": hash_token(token)}, token

    def seat_event(self, by: int, seat: object, kind: object, level: object = None) -> tuple[Event, str | None]:
        """The host changes a seat: ``open`` (a friend's seat: the person in it, if any, is
        removed; lobby only), ``bot`` (a bot takes it; during the game a bot plays for the
        person, whose token stops working), ``back`` (a bot's seat goes back to the person
        it was taken from: her old token works again) or ``reinvite`` (a person's seat, or
        a bot's that a person had, gets a new token, which is returned; the old one stops
        working)."""
        if by != 0:
            raise Refusal("not_host_seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 < seat < self.players:
            raise Refusal("bad_seat")
        lvl = DEFAULT_LEVEL if level is None else level
        if lvl not in LEVELS:
            raise Refusal("bad_level", levels=", ".join(LEVELS))
        current = self.seats[seat]
        if kind == "back":
            return self.back_event(by, seat), None
        if kind == "reinvite":  # a person's seat, or a bot's that a person had (she gets it back)
            if current.kind != "human" and current.former is None:
                raise Refusal("no_person")
            token = secrets.token_urlsafe(32)
            return {"type": "seat", "seat": seat, "kind": "human", "token_hash": hash_token(token)}, token
        if kind == "open":
            if self.referee is not None:
                raise Refusal("started")
        elif kind == "bot":
            if self.status not in ("lobby", "playing", "over"):
                raise Refusal("over")
        else:
            raise Refusal("seat_kind", n=seat + 1)
        return {"type": "seat", "seat": seat, "kind": kind, "level": lvl}, None

    def back_event(self, by: int, seat: object) -> Event:
        """The host gives a seat back to the person a bot took it from: her old token works again."""
        if by != 0:
            raise Refusal("not_host_seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 < seat < self.players:
            raise Refusal("bad_seat")
        former = self.seats[seat].former
        if self.seats[seat].kind != "bot" or former is None:
            raise Refusal("no_one_to_give_back")
        return {"type": "seat", "seat": seat, "kind": "human", "token_hash": former, "back": True}

    def pause_event(self, by: int, paused: object) -> Event:
        """The host pauses the running game (no move, no clock, no bot) or resumes it."""
        if by != 0:
            raise Refusal("not_host_pause")
        if not isinstance(paused, bool):
            raise Refusal("bad_pause")
        if self.status != "playing":
            raise Refusal("not_started" if self.referee is None else "over")
        if paused == self.paused:
            raise Refusal("paused_already" if paused else "not_paused")
        return {"type": "pause", "game": self.game, "paused": paused}

    def cover_event(self, seat: int, why: str) -> Event:
        """A bot plays this one turn for the person to act in ``seat`` (``why``: ``clock``, her
        turn clock ran out; ``host``, the host skipped her turn)."""
        return {"type": "cover", "game": self.game, "seq": self.seq, "seat": seat, "why": why}

    def skip_event(self, by: int) -> Event:
        """The host lets a bot play this one turn for the person to act."""
        if by != 0:
            raise Refusal("not_host_skip")
        if self.status != "playing":
            raise Refusal("not_started" if self.referee is None else "over")
        if self.paused:
            raise Refusal("paused")
        seat = self.person_to_act()
        if seat is None:
            raise Refusal("no_one_to_skip")
        return self.cover_event(seat, "host")

    def nudge(self, by: int, seat: object) -> int:
        """The host nudges the person to act (``seat``: who the host meant; she must be the
        one to act).  Once a turn.  Returns her seat."""
        if by != 0:
            raise Refusal("not_host_nudge")
        if self.status != "playing":
            raise Refusal("not_started" if self.referee is None else "over")
        to_act = self.person_to_act()
        if to_act is None or to_act == 0 or (seat is not None and seat != to_act):
            raise Refusal("no_one_to_nudge")
        key = (self.game, self.seq, to_act)
        if self.nudged == key:
            raise Refusal("nudged_already")
        self.nudged = key
        return to_act

    def chat_event(self, seat: int, text: object, now: float, limits: Limits) -> Event:
        """A seated player's chat line (:mod:`mattis.web.chat`): text, trimmed, at most
        ``limits.chat_length`` characters, at most ``limits.chat_lines`` a seat in
        ``limits.chat_window`` seconds (``now``: the hub's clock); not from a muted seat."""
        if not isinstance(text, str):
            raise Refusal("chat_empty")
        line = clean_line(text)
        if not line:
            raise Refusal("chat_empty")
        if len(line) > limits.chat_length:
            raise Refusal("chat_long", most=limits.chat_length)
        if seat in self.chat.muted:
            raise Refusal("chat_muted")
        wait = self.chat.too_fast(seat, now, limits.chat_lines, limits.chat_window)
        if wait is not None:
            raise Refusal("chat_slow", s=max(1, round(wait + 0.5)))
        return {"type": "chat", "seat": seat, "name": self.seats[seat].name, "text": line, "game": self.game}

    def mute_event(self, by: int, seat: object, muted: object) -> Event:
        """The host mutes (``muted`` true or absent) or unmutes another seat's chat."""
        if by != 0:
            raise Refusal("not_host_mute")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 < seat < self.players:
            raise Refusal("bad_seat")
        on = muted is not False
        if on == (seat in self.chat.muted):
            raise Refusal("muted_already" if on else "not_muted")
        return {"type": "mute", "seat": seat, "muted": on, "name": self.seats[seat].name}

    def charge_bank(self, ev: Event, now: float) -> None:
        """A person's own move made after her turn clock ran out: the seconds of her time bank
        she spent go into the move event (``bank``), so the log keeps what is left."""
        t = self.timer
        if (t is None or t.kind != "clock" or t.bank <= 0 or t.seat != ev["seat"]
                or (t.game, t.seq) != (ev["game"], ev["seq"])):
            return
        spent = round(t.bank - t.bank_left(now), 1)
        if spent > 0:
            ev["bank"] = spent

    def end_event(self, by: int) -> Event:
        """The host ends the running game (nobody loses it; the next deal is by the same dealer)."""
        if by != 0:
            raise Refusal("not_host_end")
        if self.status != "playing":
            raise Refusal("not_started" if self.referee is None else "over")
        return {"type": "end", "game": self.game}

    def deal_event(self, seat: int, fill_level: object = None) -> Event:
        """Start (host, in the lobby) or rematch (any seated person, after a game)."""
        if self.referee is None:
            if seat != 0 and not self.host_away:
                raise Refusal("not_host")
            level = DEFAULT_LEVEL if fill_level is None else fill_level
            if level not in LEVELS:
                raise Refusal("bad_level", levels=", ".join(LEVELS))
            fill = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        else:
            if not self.referee.is_over and not self.ended:
                raise Refusal("still_going")
            fill, level = [], DEFAULT_LEVEL
        game = self.game + 1
        deck = self.sitting.upcoming().record().deck  # the deal is made when the logged event is applied
        bot_seed = derive_seed(self.test_seed, "bots", game)
        if bot_seed is None:
            bot_seed = secrets.randbits(62)
        return {"type": "deal", "game": game, "dealer": self.sitting.dealer, "deck": deck, "bot_seed": bot_seed,
                "fill": fill, "level": level}

    def move_event(self, seat: int, game: object, seq: object, text: object) -> Event:
        """Check a move request by ``seat`` against the referee."""
        ref = self.referee
        if ref is None:
            raise Refusal("not_started")
        if not isinstance(text, str):
            raise Refusal("move_not_text")
        if game != self.game or seq != ref.moves_played:
            raise Refusal("stale")
        if ref.is_over or self.ended:
            raise Refusal("over")
        if self.paused:
            raise Refusal("paused")
        if ref.to_act != seat:
            raise Refusal("not_your_turn")
        try:
            move = parse_move(text[:200])
        except MoveError as e:
            raise Refusal("unreadable_move", detail=e) from None
        try:
            judged = ref.judge(seat, move, events=False)
        except IllegalMoveError as e:
            raise Refusal.illegal(e.illegal) from None
        ev: Event = {"type": "move", "game": self.game, "seq": ref.moves_played, "seat": seat, "move": str(move)}
        self.judged = (ev["game"], ev["seq"], ev["move"], judged)
        return ev

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
