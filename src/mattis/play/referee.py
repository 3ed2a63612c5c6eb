"""The referee: the only holder of a game's full :class:`~mattis.core.State`.

Front ends, bots and adapters talk to a :class:`Referee`: they get one seat's
observation, hand in a seat's move, and get back the typed events it caused.

>>> from mattis.core import preset
>>> ref = Referee.new(preset("mattis"), players=3, seed=1)
>>> seat = ref.to_act
>>> events = ref.apply(seat, ref.observation(seat).legal[0])
>>> type(events[0]).__name__, events[0].seat == seat
('MovePlayed', True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..core import (
    Card,
    GameRecord,
    Illegal,
    IllegalMoveError,
    Move,
    Observation,
    Outcome,
    Reason,
    RecordError,
    Rules,
    State,
    parse_record_move,
)
from ..core.determinize import DeterminizeError, sample_state
from ..core.events import Event, apply_with_events
from ..core.legal import RepetitionKey, repetition_key, verify
from ..core.record import ReplayError
from .seeds import Seed


class Judged:
    """A move the referee judged legal (:meth:`Referee.judge`), made on a copy of the
    game and waiting for :meth:`Referee.commit`: a front end logs it in between, and the
    move is neither parsed nor judged again."""

    __slots__ = ("seat", "move", "events", "before", "after")

    def __init__(self, seat: int, move: Move, events: list[Event], before: State, after: State) -> None:
        self.seat = seat
        self.move = move
        self.events = events
        """What the move did (empty if judged with ``events=False``)."""
        self.before = before
        self.after = after


class Referee:
    """One game: the truth, the observations and the moves."""

    __slots__ = ("_state", "names")

    def __init__(self, state: State, names: list[str] | None = None) -> None:
        self._state = state
        self.names = names or []
        """The players' names (for records and front ends), if known."""

    @classmethod
    def new(cls, rules: Rules, players: int, seed: Seed = None, dealer: int = 0,
            leader: int | None = None) -> Referee:
        """A new deal: reproducible from ``seed``, else shuffled from :mod:`secrets`;
        ``leader`` leads the first trick (by default the player left of the dealer)."""
        return cls(State.new(rules, players, seed=seed, dealer=dealer, leader=leader))

    @classmethod
    def from_record(cls, record: GameRecord) -> Referee:
        """A game continued from a record (replayed move by move)."""
        return cls(record.replay())

    # ------------------------------------------------------------ views
    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def players(self) -> int:
        return self._state.n

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def to_act(self) -> int | None:
        """The seat to act, ``None`` when the game is over."""
        return self._state.to_act

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def outcome(self) -> Outcome | None:
        return self._state.outcome

    @property
    def next_dealer(self) -> int:
        """Who deals the next game: the loser."""
        return self._state.next_dealer

    @property
    def moves_played(self) -> int:
        return self._state.n_moves

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: all that a seat's front end or bot is given."""
        return self._state.observation(seat)

    def record(self) -> GameRecord:
        """The game so far as a record (JSON that replays exactly)."""
        return GameRecord.from_state(self._state)

    def snapshot_for_referee(self) -> dict[str, object]:
        """The whole truth as JSON data, for ``mattis replay`` and tests only."""
        return self._state.snapshot()

    def position_key(self) -> RepetitionKey:
        """The phase 2 position as the repetition rule counts it
        (:func:`mattis.core.legal.repetition_key`), for studies of cycles."""
        return repetition_key(self._state)

    # ------------------------------------------------------------ moves
    def check(self, seat: int, move: Move) -> Illegal | None:
        """Why ``seat`` may not make ``move`` now (``None``: it may): whose turn it is,
        then the core's one judgement (:func:`mattis.core.legal.verify`)."""
        return self._not_yours(seat) or verify(self._state, move)

    def judge(self, seat: int, move: Move, *, events: bool = True) -> Judged:
        """Judge ``seat``'s ``move`` once and make it on a copy of the game, to be
        :meth:`commit`-ted later (after a front end has logged it) without judging it
        again.  Raises :class:`~mattis.core.IllegalMoveError` (changing nothing) if it
        may not be made: whose turn it is, then the core's one judgement, asked by
        ``State.apply`` on the copy."""
        why = self._not_yours(seat)
        if why is not None:
            raise IllegalMoveError(why)
        after = self._state.clone()
        done: list[Event] = []
        if events:
            done = apply_with_events(after, move)
        else:
            after.apply(move)
        return Judged(seat, move, done, self._state, after)

    def commit(self, judged: Judged) -> list[Event]:
        """Make a move judged by :meth:`judge` on this game as it still is (no move made
        and no take-back since); its events.  Raises :class:`ValueError` for a judgement
        of another position: the game is unchanged then."""
        if judged.before is not self._state or judged.after.n_moves != self._state.n_moves + 1:
            raise ValueError("this move was judged on another position")
        self._state = judged.after
        return judged.events

    def _not_yours(self, seat: int) -> Illegal | None:
        """Why ``seat`` may make no move now (the game is over, or another seat is to act)."""
        to_act = self._state.to_act
        if to_act is None:
            return Illegal(Reason.GAME_OVER)
        if seat != to_act:
            return Illegal(Reason.NOT_YOUR_TURN, number=to_act)
        return None

    def apply(self, seat: int, move: Move, *, events: bool = True) -> list[Event]:
        """Make ``seat``'s move; the events it caused (none worked out with
        ``events=False``, for fast loops that do not need them).  Raises
        :class:`~mattis.core.IllegalMoveError` (changing nothing) if it may not: the move
        is judged once, by ``State.apply`` asking :func:`mattis.core.legal.verify`."""
        why = self._not_yours(seat)
        if why is not None:
            raise IllegalMoveError(why)
        if not events:
            self._state.apply(move)
            return []
        return apply_with_events(self._state, move)

    def undo_to(self, moves: int) -> None:
        """Go back to the position after the first ``moves`` moves (take-backs)."""
        record = self.record()
        record.moves = record.moves[:moves]
        self._state = record.replay()

    def redeal_hidden(self, seat: int, rng: random.Random, tries: int = 20) -> None:
        """Deal the cards hidden from ``seat`` afresh (the other hands' unseen cards,
        the stock, the face-down trump), consistently with everything ``seat`` has
        seen, through the one determinizer
        (:func:`~mattis.core.determinize.sample_state`).  ``seat``'s view is unchanged
        now and at every earlier point: the determinizer fixes the seat's hand as it is
        now, and the new deal then gets each card the seat was dealt or drew back in the
        place it came from, so the record replays through the very hands the seat held.
        After a take-back this keeps the future the seat glimpsed (a card drawn, a card
        turned) from coming back.  Raises
        :class:`~mattis.core.determinize.DeterminizeError` (changing nothing) for a game
        that began from a position, or when no such deal is found."""
        record = self.record()
        if record.deck is None:
            raise DeterminizeError("a game that began from a position has no deal to deal afresh")
        seen = _views(record, seat)
        places = _own_places(record, seat)
        obs = self._state.observation(seat)
        for _ in range(tries):
            deck = list(GameRecord.from_state(sample_state(obs, rng)).deck or [])
            where = {c: i for i, c in enumerate(deck)}
            for p, card in places.items():
                if deck[p] != card:  # the seat's own card, dealt or drawn elsewhere in the sample
                    q = where[card]
                    deck[p], deck[q] = card, deck[p]
                    where[deck[q]], where[card] = q, p
            candidate = GameRecord(record.rules, record.players, record.dealer, deck, None, list(record.moves),
                                   record.leader)
            try:
                if _views(candidate, seat) == seen:
                    self._state = candidate.replay()
                    return
            except RecordError:
                continue
        raise DeterminizeError("no fresh deal keeps what the seat has seen")


def _views(record: GameRecord, seat: int) -> list[Observation]:
    """``seat``'s observation after each move of ``record`` (raises
    :class:`~mattis.core.RecordError` when a move is illegal on its deal)."""
    state = record.start()
    views = [state.observation(seat)]
    for i, text in enumerate(record.moves, start=1):
        _mover, move = parse_record_move(text)
        try:
            state.apply(move)
        except IllegalMoveError as e:
            raise ReplayError(i, text, str(e), e.illegal) from None
        views.append(state.observation(seat))
    return views


def _own_places(record: GameRecord, seat: int) -> dict[int, Card]:
    """The places in ``record``'s deck of every card ``seat`` was dealt or drew (not
    the cards it took from the table, which everyone saw laid)."""
    assert record.deck is not None
    place = {c: i for i, c in enumerate(record.deck)}
    shown: set[Card] = set()
    held: set[Card] = set()
    out: dict[int, Card] = {}
    state = record.start()
    for i in range(len(record.moves) + 1):
        obs = state.observation(seat)
        for c in obs.hand:
            if c not in held and c not in shown:
                out[place[c]] = c
        held = set(obs.hand)
        if i < len(record.moves):
            _mover, move = parse_record_move(record.moves[i])
            state.apply(move)
            for _s, _m, cards in state.observation(seat).history[-1:]:
                shown.update(cards)
    return out


def replay_events(record: GameRecord) -> Iterator[tuple[Observation, list[Event]]]:
    """A record as (observation after the move, events of the move) pairs, seen
    from the public side (seat 0's observation carries every public fact)."""
    ref = Referee(record.start())
    for seat, move in map(parse_record_move, record.moves):
        events = ref.apply(seat, move)
        yield ref.observation(0), events
