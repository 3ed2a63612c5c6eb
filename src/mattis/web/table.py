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

What a table is made of and how an event changes it: :class:`mattis.web.tablestate.TableState`.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..core import (
    IllegalMoveError,
    MoveError,
    RulesError,
    parse_move,
    parse_overrides,
    rules_from_json,
    rules_to_json,
)
from ..play import derive_seed, first_dealer
from ..play.agents import DEFAULT_LEVEL
from .chat import clean_line
from .limits import Limits
from .refusal import Refusal
from .seats import BANK_CHOICES, CLOCK_CHOICES, GRACE_DEFAULT, GRACE_MAX, LEVELS, clean_name, hash_token
from .tablestate import Event, TableState


class Table(TableState):
    """One table (:class:`~mattis.web.tablestate.TableState`) and the requests that make its events:
    each is checked against the table and the engine, and refused in words (:class:`Refusal`)."""

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

    def bot_move_event(self, seat: int, game: int, seq: int, text: str) -> Event:
        """:meth:`move_event` for a bot's move; one made for a person says why (``by``)."""
        ev = self.move_event(seat, game, seq, text)
        why = self.bot_why(seat)
        if why is not None:
            ev["by"] = why
        return ev

