"""A web table as a pure event-sourced object (no I/O).

Every change to a table is an *event* (a JSON-ready dict).  The server checks
a request against the table, appends the resulting event to the log (SQLite),
and only then applies it here and tells the players.  Restarting the server
replays the log through :meth:`Table.apply`, which rebuilds the exact state.

Events: ``create``, ``join``, ``deal`` (a new game: dealer, deck, bot seed;
the first deal also names the open seats filled by bots) and ``move``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..bots import Agent, make_bot
from ..bots.base import DEFAULT_LEVEL
from ..core import (
    GameRecord,
    Move,
    MoveError,
    RulesError,
    State,
    parse_move,
    reason_text,
    rules_from_json,
    rules_to_json,
)
from ..core.text import DEFAULT_NAMES

Event = dict[str, Any]

LEVELS = ("easy", "medium", "hard", "expert")
NAME_MAX = 24


class Refusal(Exception):
    """A request the table refuses, with the reason in English and Norwegian."""

    def __init__(self, en: str, nb: str) -> None:
        super().__init__(en)
        self.en = en
        self.nb = nb


def hash_token(token: str) -> str:
    """Seat tokens are stored only as their SHA-256 (they are random, 256 bits)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(raw: object) -> str:
    """A display name: printable, trimmed, 1..24 characters."""
    if not isinstance(raw, str):
        raise Refusal("the name must be text", "navnet må være tekst")
    name = "".join(ch for ch in raw if ch.isprintable()).strip()[:NAME_MAX]
    if not name:
        raise Refusal("please give a display name", "skriv inn et navn")
    return name


@dataclass
class Seat:
    """A seat: ``open`` (waiting for a person), ``human`` or ``bot``."""

    kind: str
    name: str
    level: str = DEFAULT_LEVEL
    token_hash: str | None = None


@dataclass
class Table:
    """One table: seats, the running game, finished games and the session tally."""

    id: str
    rules_json: Any
    players: int
    seats: list[Seat]
    invite: str
    test_seed: int | None = None
    game: int = 0
    """Number of the current game (0 = still in the lobby)."""
    state: State | None = None
    bot_seed: int = 0
    bots: dict[int, Agent] = field(default_factory=dict)
    records: dict[int, str] = field(default_factory=dict)
    """Finished games' records (JSON text), by game number."""
    mattis_count: list[int] = field(default_factory=list)
    games_done: int = 0
    events: int = 0

    # ----------------------------------------------------------------- create
    @staticmethod
    def create_event(preset_name: object, overrides: object, players: object, seats: object,
                     host_name: object, test_seed: int | None = None) -> tuple[Event, str]:
        """Check a create request; returns the ``create`` event and the host's token."""
        if not isinstance(preset_name, str):
            raise Refusal("choose a preset", "velg en regelvariant")
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, dict) or not all(isinstance(k, str) for k in overrides):
            raise Refusal("rule overrides must be option=value pairs", "regelendringer må være valg=verdi")
        try:
            rules = rules_from_json({"preset": preset_name, **overrides})
        except RulesError as e:
            raise Refusal(f"rules: {e}", f"regler: {e}") from None
        if not isinstance(players, int) or isinstance(players, bool) or players not in rules.allowed_players():
            lo, hi = rules.allowed_players().start, rules.allowed_players().stop - 1
            raise Refusal(f"{rules.name} allows {lo}-{hi} players", f"{rules.name} tillater {lo}-{hi} spillere")
        if seats is None:
            seats = [{"kind": "human"}] * players
        if not isinstance(seats, list) or len(seats) != players:
            raise Refusal("give one seat setting per player", "angi én plass per spiller")
        out: list[dict[str, Any]] = []
        for i, s in enumerate(seats):
            kind = s.get("kind") if isinstance(s, dict) else None
            level = s.get("level", DEFAULT_LEVEL) if isinstance(s, dict) else None
            if i == 0:
                kind = "human"
            if kind not in ("human", "bot"):
                raise Refusal(f"seat {i + 1} must be a person or a bot",
                              f"plass {i + 1} må være en person eller en bot")
            if level not in LEVELS:
                raise Refusal(f"bot level must be one of {', '.join(LEVELS)}",
                              f"botnivå må være ett av {', '.join(LEVELS)}")
            out.append({"kind": "open" if kind == "human" else "bot", "level": level})
        name = clean_name(host_name)
        token = secrets.token_urlsafe(32)
        out[0] = {"kind": "human", "name": name, "token_hash": hash_token(token)}
        event: Event = {"type": "create", "id": secrets.token_urlsafe(9), "rules": rules_to_json(rules),
                        "players": players, "seats": out, "invite": secrets.token_urlsafe(12),
                        "test_seed": test_seed}
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
        t = cls(ev["id"], ev["rules"], ev["players"], seats, ev["invite"], ev.get("test_seed"))
        t.mattis_count = [0] * t.players
        t.events = 1
        return t

    @property
    def rules(self) -> Any:
        return rules_from_json(self.rules_json)

    @property
    def status(self) -> str:
        if self.state is None:
            return "lobby"
        return "over" if self.state.is_over else "playing"

    @property
    def seq(self) -> int:
        """Moves made in the current game: a move request must name it."""
        return 0 if self.state is None else self.state.n_moves

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
            raise Refusal("this invite link is not valid for this table",
                          "denne invitasjonslenken gjelder ikke for dette bordet")
        if self.state is not None:
            raise Refusal("the game has already started", "spillet har allerede startet")
        free = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if not free:
            raise Refusal("the table is full", "bordet er fullt")
        token = secrets.token_urlsafe(32)
        return {"type": "join", "seat": free[0], "name": clean_name(name), "token_hash": hash_token(token)}, token

    def deal_event(self, seat: int, fill_level: object = None) -> Event:
        """Start (host, in the lobby) or rematch (any seated person, after a game)."""
        if self.state is None:
            if seat != 0:
                raise Refusal("only the host can start the game", "bare verten kan starte spillet")
            level = DEFAULT_LEVEL if fill_level is None else fill_level
            if level not in LEVELS:
                raise Refusal(f"bot level must be one of {', '.join(LEVELS)}",
                              f"botnivå må være ett av {', '.join(LEVELS)}")
            fill = [i for i, s in enumerate(self.seats) if s.kind == "open"]
            dealer = 0
        else:
            if not self.state.is_over:
                raise Refusal("the game is still going", "spillet er ikke ferdig")
            fill, level = [], DEFAULT_LEVEL
            dealer = self.state.next_dealer
        game = self.game + 1
        rules = self.rules
        if self.test_seed is not None:
            s = State.new(rules, self.players, seed=f"{self.test_seed}:{game}", dealer=dealer)
            bot_seed = self.test_seed * 1000 + game
        else:
            s = State.new(rules, self.players, seed=None, dealer=dealer)
            bot_seed = secrets.randbits(31)
        deck = GameRecord.from_state(s).deck
        return {"type": "deal", "game": game, "dealer": dealer, "deck": deck, "bot_seed": bot_seed,
                "fill": fill, "level": level}

    def move_event(self, seat: int, game: object, seq: object, text: object) -> Event:
        """Check a move request by ``seat`` against the engine."""
        st = self.state
        if st is None:
            raise Refusal("the game has not started", "spillet har ikke startet")
        if not isinstance(text, str):
            raise Refusal("the move must be text like 'play 4C'", "trekket må være tekst som 'play 4C'")
        if game != self.game or seq != st.n_moves:
            raise Refusal("that move was sent for a position that has already changed (stale or doubled)",
                          "trekket gjaldt en stilling som allerede er endret (gammelt eller dobbelt)")
        if st.is_over:
            raise Refusal("the game is over", "spillet er over")
        if st.to_act != seat:
            raise Refusal("it is not your turn", "det er ikke din tur")
        try:
            move = parse_move(text[:200])
        except MoveError as e:
            raise Refusal(f"cannot read the move: {e}", f"kan ikke lese trekket: {e}") from None
        illegal = st.why_illegal(move)
        if illegal is not None:
            raise Refusal(reason_text(illegal, "en"), reason_text(illegal, "nb"))
        return {"type": "move", "game": self.game, "seq": st.n_moves, "seat": seat, "move": str(move)}

    def bot_move(self) -> tuple[int, Move] | None:
        """The move of the bot to act (from its seat's observation only), if a bot is to act."""
        st = self.state
        if st is None or st.is_over:
            return None
        seat = st.to_act
        assert seat is not None
        if self.seats[seat].kind != "bot":
            return None
        return seat, self.bot(seat).act(st.observation(seat))

    def bot(self, seat: int) -> Agent:
        b = self.bots.get(seat)
        if b is None:
            # A bot rebuilt after a restart gets a fresh generator (its seat's view is all it needs).
            b = self.bots[seat] = make_bot(self.seats[seat].level, self.bot_seed * 7 + seat + (self.seq << 8))
        return b

    # ------------------------------------------------------------------ apply
    def apply(self, ev: Event) -> None:
        """Apply an event that has been checked and logged."""
        kind = ev["type"]
        if kind == "join":
            self.seats[ev["seat"]] = Seat("human", ev["name"], DEFAULT_LEVEL, ev["token_hash"])
        elif kind == "deal":
            for i in ev["fill"]:
                self.seats[i] = Seat("bot", self.seats[i].name, ev["level"])
            self.game = ev["game"]
            self.bot_seed = ev["bot_seed"]
            self.bots = {}
            self.state = State.from_deck(self.rules, self.players, ev["deck"], ev["dealer"])
        elif kind == "move":
            st = self.state
            assert st is not None and ev["game"] == self.game and ev["seq"] == st.n_moves
            assert st.to_act == ev["seat"]
            st.apply(parse_move(ev["move"]))
            if st.is_over:
                self.games_done += 1
                for s in st.losers:
                    self.mattis_count[s] += 1
                self.records[self.game] = GameRecord.from_state(st).dumps()
        else:
            raise ValueError(f"unknown event {kind!r}")
        self.events += 1
