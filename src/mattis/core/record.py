"""The game record format (JSON) and replay.

A record holds the rules, the player count, the dealer, who led the first trick
when it was not the player left of the dealer, and the full deck order (or a phase
2 starting position), then the moves as ``"<seat> <move>"``.
Replaying a record reproduces the game exactly; see the README for the format.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from .cards import CardError, card_code, parse_card, parse_suit
from .moves import MoveError, format_record_move, parse_record_move
from .notation import parse_position, phase2_start_text
from .rules import Rules, RulesError, preset, rules_from_json, rules_to_json
from .state import GameSetupError, IllegalMoveError, State
from .vocabulary import Illegal


class RecordError(ValueError):
    """A record that cannot be read or replayed."""


class ReplayError(RecordError):
    """A move in a record that is illegal where it stands."""

    def __init__(self, index: int, text: str, reason: str, illegal: Illegal | None = None) -> None:
        self.index = index
        self.text = text
        self.reason = reason
        self.illegal = illegal
        """Why the engine refused the move (``None`` for a move that cannot be read)."""
        super().__init__(f"move {index} ({text!r}) is illegal: {reason}")


@dataclass
class GameRecord:
    """A game as data: how it started and every move."""

    rules: Rules
    players: int
    dealer: int = 0
    deck: list[int] | None = None
    position: str | None = None
    """The starting position in the position notation (:mod:`mattis.core.notation`)."""
    moves: list[str] = field(default_factory=list)
    leader: int | None = None
    """Who leads the first trick of a dealt game; ``None``: the player left of the dealer."""

    def start(self) -> State:
        """The starting state."""
        try:
            if self.position is not None:
                state = parse_position(self.rules, self.position)
                if state.n != self.players:
                    raise RecordError(f"players is {self.players} but the position has {state.n} hands")
                return state
            if self.deck is None:
                raise RecordError("a record needs a deck or a position")
            return State.from_deck(self.rules, self.players, self.deck, self.dealer, self.leader)
        except (GameSetupError, RulesError) as e:
            raise RecordError(f"position: {e}" if self.position is not None else str(e)) from None

    def replay(self, upto: int | None = None) -> State:
        """Replay the moves (the first ``upto`` of them) and return the state.

        Raises :class:`ReplayError` naming the first illegal move (numbered from 1).
        """
        state = self.start()
        for i, text in enumerate(self.moves[:upto] if upto is not None else self.moves, start=1):
            try:
                seat, move = parse_record_move(text)
            except MoveError as e:
                raise ReplayError(i, text, str(e)) from None
            if state.is_over:
                raise ReplayError(i, text, "the game is already over")
            if seat != state.to_act:
                raise ReplayError(i, text, f"it is seat {state.to_act}'s turn, not seat {seat}'s")
            try:
                state.apply(move)
            except IllegalMoveError as e:
                raise ReplayError(i, text, str(e), e.illegal) from None
        return state

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": rules_to_json(self.rules), "players": self.players,
                               "dealer": self.dealer}
        if self.position is not None:
            out["position"] = self.position
        else:
            assert self.deck is not None
            if self.leader is not None and self.leader != (self.dealer + 1) % self.players:
                out["leader"] = self.leader
            out["deck"] = [card_code(c) for c in self.deck]
        out["moves"] = list(self.moves)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_state(cls, state: State) -> GameRecord:
        """The record of a game so far."""
        moves = [format_record_move(seat, mv) for seat, mv in state.moves()]
        if state.position is not None:
            return cls(state.rules, state.players, state.dealer, None, state.position, moves)
        assert state.deck is not None
        leader = state.first_leader if state.first_leader != (state.dealer + 1) % state.players else None
        return cls(state.rules, state.players, state.dealer, list(state.deck), None, moves, leader)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read and check a record; raises :class:`RecordError` saying what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        unknown = set(data) - {"rules", "players", "dealer", "deck", "position", "moves", "result",
                               "names", "comment", "seed", "leader", "session"}
        if unknown:
            raise RecordError(f"unknown field(s) in record: {', '.join(sorted(unknown))}")
        try:
            rules = rules_from_json(data.get("rules", "mattis"))
        except RulesError as e:
            raise RecordError(f"rules: {e}") from None
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves must be a list of strings like \"1 play 4C\"")
        dealer = data.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError("dealer must be a seat number")
        if "position" in data and "leader" in data:
            raise RecordError("leader is for a dealt game; a position names who is to act")
        if "position" in data and isinstance(data["position"], str):
            try:
                start = parse_position(rules, data["position"])
            except GameSetupError as e:
                raise RecordError(f"position: {e}") from None
            players = data.get("players", start.n)
            if players != start.n:
                raise RecordError(f"players is {players} but the position has {start.n} hands")
            return cls(rules, start.n, start.dealer, None, start.position, moves)
        if "position" in data:
            pos = data["position"]
            if not isinstance(pos, dict) or not {"trump", "hands", "leader"} <= set(pos):
                raise RecordError("position must be an object with trump, hands and leader")
            hands_raw = pos["hands"]
            if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
                raise RecordError("position.hands must be a list of lists of card codes")
            try:
                hands = [[parse_card(str(c)) for c in h] for h in hands_raw]
                trump = parse_suit(str(pos["trump"]))
            except CardError as e:
                raise RecordError(f"position: {e}") from None
            leader = pos["leader"]
            if not isinstance(leader, int) or isinstance(leader, bool):
                raise RecordError("position.leader must be a seat number")
            players = data.get("players", len(hands))
            if players != len(hands):
                raise RecordError(f"players is {players} but the position has {len(hands)} hands")
            return cls(rules, len(hands), dealer, None, phase2_start_text(hands, trump, leader, dealer), moves)
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("players must be a whole number")
        deck_raw = data.get("deck")
        if not isinstance(deck_raw, list):
            raise RecordError("a record needs a deck (all 52 cards) or a position")
        try:
            deck = [parse_card(str(c)) for c in deck_raw]
        except CardError as e:
            raise RecordError(f"deck: {e}") from None
        if sorted(deck) != rules.deck():
            size = rules.deck_ranks * rules.deck_suits
            raise RecordError(f"deck must hold each of the {size} cards{'' if size == 52 else ' of the short deck'} "
                              f"once (it has {len(deck)} cards, {len(set(deck))} different)")
        try:
            rules.check_players(players)
        except RulesError as e:
            raise RecordError(str(e)) from None
        if not 0 <= dealer < players:
            raise RecordError(f"dealer must be a seat from 0 to {players - 1}")
        leader = data.get("leader")
        if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool)
                                   or not 0 <= leader < players):
            raise RecordError(f"leader must be a seat from 0 to {players - 1}")
        return cls(rules, players, dealer, deck, None, moves, leader)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deep") from None
        return cls.from_json(data)


MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read (a long game's record with a session's log is well under 1 MB)."""


def load_record(path: str) -> GameRecord:
    """Read a record file; raises :class:`RecordError` (also for a missing file, for
    something that is not a regular file, such as ``/dev/zero`` or a pipe, which is
    never read, and for a file larger than :data:`MAX_RECORD_BYTES`)."""
    try:
        if os.path.exists(path) and not os.path.isfile(path):
            raise RecordError(f"{path} is not a regular file")
        if os.path.exists(path) and os.path.getsize(path) > MAX_RECORD_BYTES:
            raise RecordError(f"{path} is too large for a game record ({os.path.getsize(path)} bytes)")
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a UTF-8 text file") from None
    return GameRecord.loads(text)


def new_record(rules: Rules | str, players: int, deck: list[int], dealer: int = 0) -> GameRecord:
    r = preset(rules) if isinstance(rules, str) else rules
    return GameRecord(r, players, dealer, deck, None, [])
