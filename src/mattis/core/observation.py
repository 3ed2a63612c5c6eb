"""What one seat may know: the observation.

Bots, front ends and research adapters see the game only through an
:class:`Observation`.  It holds the seat's own hand, everything that lies face
up or was laid face up (and so is public history), counts of hidden cards, and
the trump once it is shown; nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from .cards import SUIT_LETTERS, Card, card_code, cards_of, mask_of, parse_card
from .legal import next_seat_in
from .moves import Move, parse_move
from .rules import Rules, rules_from_json, rules_to_json
from .vocabulary import Outcome, Phase, Termination

if TYPE_CHECKING:
    from .state import State

PHASE1, PHASE2, OVER = Phase.COLLECT, Phase.SHED, Phase.OVER
"""Short names of the three phases."""

HistoryItem = tuple[int, Move, tuple[Card, ...]]
"""One public event: (seat, move, cards it showed).  For ``chance`` the card
turned up; for ``pickup`` the cards taken back."""


@final
class Observation:
    """A seat's view of the game (see the module docstring).

    Immutable and compared, hashed and pickled by value, as a frozen dataclass would
    be; each public attribute is a read-only property (:data:`FIELDS` lists them in
    order).  The card sets are held as bit masks, exposed as :attr:`hand_mask`,
    :attr:`pile_masks` and :attr:`known_masks` (bit ``card`` set), and turned into card
    tuples only when first read, so building an observation costs little in the
    compiled core (a compiled class with plain fields; mypyc leaves a frozen
    dataclass's generated ``__init__`` interpreted).  Build one with :func:`observe`.
    """

    __slots__ = ("_seat", "_rules", "_players", "_dealer", "_first_leader", "_phase", "_to_act", "_legal", "_hand_mask",
                 "_hand_counts", "_pile_masks", "_tricks_won", "_stock_count", "_set_aside_count", "_trump",
                 "_trump_card", "_trump_holder", "_trick_leader", "_table1", "_fighters", "_table2",
                 "_trick_need", "_known_masks", "_still_in", "_finished", "_ranked", "_waiting", "_losers",
                 "_blodmattis", "_last_trick", "_out_count", "_history", "_end_reason", "_phase2_moves",
                 "_repetitions", "_hand", "_piles", "_known")

    def __init__(self, seat: int, rules: Rules, players: int, dealer: int, first_leader: int | None, phase: Phase,
                 to_act: int | None,
                 legal: tuple[Move, ...], hand_mask: int, hand_counts: tuple[int, ...],
                 pile_masks: tuple[int, ...], tricks_won: tuple[int, ...], stock_count: int,
                 set_aside_count: int, trump: int | None, trump_card: Card | None, trump_holder: int | None,
                 trick_leader: int | None, table1: tuple[tuple[int, Card], ...], fighters: tuple[int, ...],
                 table2: tuple[tuple[int, tuple[Card, ...]], ...], trick_need: int,
                 known_masks: tuple[int, ...], still_in: tuple[int, ...], finished: tuple[int, ...],
                 ranked: tuple[int, ...], waiting: tuple[int, ...], losers: tuple[int, ...],
                 blodmattis: tuple[int, ...], last_trick: tuple[int, tuple[Card, ...]] | None, out_count: int,
                 history: tuple[HistoryItem, ...], end_reason: Termination | None, phase2_moves: int = 0,
                 repetitions: int = 0) -> None:
        """The fields in the order of :data:`FIELDS`, card sets as bit masks (the core's
        :func:`observe` builds observations; this is also how they unpickle)."""
        self._seat = seat
        self._rules = rules
        self._players = players
        self._dealer = dealer
        self._first_leader = first_leader
        self._phase = phase
        self._to_act = to_act
        self._legal = legal
        self._hand_mask = hand_mask
        self._hand_counts = hand_counts
        self._pile_masks = pile_masks
        self._tricks_won = tricks_won
        self._stock_count = stock_count
        self._set_aside_count = set_aside_count
        self._trump = trump
        self._trump_card = trump_card
        self._trump_holder = trump_holder
        self._trick_leader = trick_leader
        self._table1 = table1
        self._fighters = fighters
        self._table2 = table2
        self._trick_need = trick_need
        self._known_masks = known_masks
        self._still_in = still_in
        self._finished = finished
        self._ranked = ranked
        self._waiting = waiting
        self._losers = losers
        self._blodmattis = blodmattis
        self._last_trick = last_trick
        self._out_count = out_count
        self._history = history
        self._end_reason = end_reason
        self._phase2_moves = phase2_moves
        self._repetitions = repetitions
        self._hand: tuple[Card, ...] | None = None
        self._piles: tuple[tuple[Card, ...], ...] | None = None
        self._known: tuple[tuple[Card, ...], ...] | None = None

    # ------------------------------------------------------------ by value
    def _key(self) -> tuple[Any, ...]:
        """Every field (card sets as masks, which say the same as the card tuples)."""
        return (self._seat, self._rules, self._players, self._dealer, self._first_leader, self._phase, self._to_act,
                self._legal,
                self._hand_mask, self._hand_counts, self._pile_masks, self._tricks_won, self._stock_count,
                self._set_aside_count, self._trump, self._trump_card, self._trump_holder, self._trick_leader,
                self._table1, self._fighters, self._table2, self._trick_need, self._known_masks, self._still_in,
                self._finished, self._ranked, self._waiting, self._losers, self._blodmattis, self._last_trick,
                self._out_count, self._history, self._end_reason, self._phase2_moves, self._repetitions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return not (self is other or self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Observation], tuple[Any, ...]]:
        """Pickle and copy by the constructor (the fields, card sets as masks)."""
        return (Observation, self._key())

    def replace(self, **changes: Any) -> Observation:
        """A copy with some public fields changed (as ``dataclasses.replace`` would
        make; card sets are given as card tuples, like the attributes read)."""
        values = list(self._key())
        for name, value in changes.items():
            i = _FIELD_INDEX.get(name)
            if i is None:
                raise TypeError(f"an Observation has no field {name!r}")
            if name == "hand":
                value = mask_of(value)
            elif name == "still_in":
                value = tuple(sorted(value))
            elif name in ("piles", "known"):
                value = tuple([mask_of(cards) for cards in value])
            values[i] = value
        return Observation(*values)

    def __repr__(self) -> str:
        return "Observation(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS) + ")"

    def to_json(self, *, public: bool = False, history_from: int = 0) -> dict[str, Any]:
        """The observation as JSON-ready data for a front end: one key per field of
        :data:`FIELDS`, in order, plus ``history_start``.  Cards are record codes
        (``"4C"``), moves record text (``"play 4C"``), the trump a suit letter, the
        phase its number, the rules as :func:`~mattis.core.rules.rules_to_json`; the
        history is its items from ``history_from`` on (``[seat, move, cards shown]``),
        ``history_start`` their index.  ``public``: a spectator's copy, without the
        seat's hand and legal moves."""
        start = min(max(history_from, 0), len(self._history))
        last = self._last_trick
        trump_card = self._trump_card
        return {
            "seat": self._seat,
            "rules": rules_to_json(self._rules),
            "players": self._players,
            "dealer": self._dealer,
            "first_leader": self._first_leader,
            "phase": int(self._phase),
            "to_act": self._to_act,
            "legal": [] if public else [str(m) for m in self._legal],
            "hand": [] if public else _codes(self._hand_mask),
            "hand_counts": list(self._hand_counts),
            "piles": [_codes(m) for m in self._pile_masks],
            "tricks_won": list(self._tricks_won),
            "stock_count": self._stock_count,
            "set_aside_count": self._set_aside_count,
            "trump": None if self._trump is None else SUIT_LETTERS[self._trump],
            "trump_card": None if trump_card is None else card_code(trump_card),
            "trump_holder": self._trump_holder,
            "trick_leader": self._trick_leader,
            "table1": [[s, card_code(c)] for s, c in self._table1],
            "fighters": list(self._fighters),
            "table2": [[s, [card_code(c) for c in e]] for s, e in self._table2],
            "trick_need": self._trick_need,
            "known": [_codes(m) for m in self._known_masks],
            "still_in": list(self._still_in),
            "finished": list(self._finished),
            "ranked": list(self._ranked),
            "waiting": list(self._waiting),
            "losers": list(self._losers),
            "blodmattis": list(self._blodmattis),
            "last_trick": None if last is None else [last[0], [card_code(c) for c in last[1]]],
            "out_count": self._out_count,
            "history": [[s, str(m), [card_code(c) for c in shown]] for s, m, shown in self._history[start:]],
            "end_reason": None if self._end_reason is None else str(self._end_reason),
            "phase2_moves": self._phase2_moves,
            "repetitions": self._repetitions,
            "history_start": start,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_json` wrote (its whole history: ``history_start`` 0),
        as a front end that is sent it rebuilds it (a terminal seat at a web table,
        :mod:`mattis.tui.remote`).  Raises ``KeyError``, ``TypeError`` or ``ValueError``
        (``RulesError``, ``CardError``, ``MoveError``) for data that is not such an observation."""
        if data.get("history_start", 0) != 0:
            raise ValueError("the observation's history does not start at the first move")

        def mask(codes: Any) -> int:
            return mask_of([parse_card(str(c)) for c in codes])

        def ints(values: Any) -> tuple[int, ...]:
            return tuple([int(v) for v in values])

        def opt(value: Any) -> int | None:
            return None if value is None else int(value)

        trump = data["trump"]
        trump_card = data["trump_card"]
        last = data["last_trick"]
        end = data["end_reason"]
        history: list[HistoryItem] = []
        for seat, move, shown in data["history"]:
            history.append((int(seat), parse_move(str(move)), tuple([parse_card(str(c)) for c in shown])))
        return Observation(
            int(data["seat"]), rules_from_json(data["rules"]), int(data["players"]), int(data["dealer"]),
            opt(data["first_leader"]), Phase(int(data["phase"])), opt(data["to_act"]),
            tuple([parse_move(str(m)) for m in data["legal"]]), mask(data["hand"]), ints(data["hand_counts"]),
            tuple([mask(p) for p in data["piles"]]), ints(data["tricks_won"]), int(data["stock_count"]),
            int(data["set_aside_count"]), None if trump is None else SUIT_LETTERS.index(str(trump)),
            None if trump_card is None else parse_card(str(trump_card)), opt(data["trump_holder"]),
            opt(data["trick_leader"]), tuple([(int(s), parse_card(str(c))) for s, c in data["table1"]]),
            ints(data["fighters"]),
            tuple([(int(s), tuple([parse_card(str(c)) for c in e])) for s, e in data["table2"]]),
            int(data["trick_need"]), tuple([mask(k) for k in data["known"]]), ints(data["still_in"]),
            ints(data["finished"]), ints(data["ranked"]), ints(data["waiting"]), ints(data["losers"]),
            ints(data["blodmattis"]),
            None if last is None else (int(last[0]), tuple([parse_card(str(c)) for c in last[1]])),
            int(data["out_count"]), tuple(history), None if end is None else Termination(str(end)),
            int(data.get("phase2_moves", 0)), int(data.get("repetitions", 0)))

    # ------------------------------------------------------------ the fields
    @property
    def seat(self) -> int:
        return self._seat

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> int:
        return self._players

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def first_leader(self) -> int | None:
        """Who led the first trick (``None`` for a game from a position): the dealer's
        left-hand neighbour, or the last loser under ``next_leader="loser"``."""
        return self._first_leader

    @property
    def phase(self) -> Phase:
        """Collecting tricks (stikk, 1), shedding (2) or over (3)."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def legal(self) -> tuple[Move, ...]:
        """This seat's legal moves when it is to act, else empty."""
        return self._legal

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's own cards, lowest card code first."""
        h = self._hand
        if h is None:
            h = _cards(self._hand_mask)
            self._hand = h
        return h

    @property
    def hand_mask(self) -> int:
        """:attr:`hand` as a bit mask."""
        return self._hand_mask

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self._hand_counts

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """Phase 1: the cards each seat has won (they were laid face up)."""
        p = self._piles
        if p is None:
            p = tuple([_cards(m) for m in self._pile_masks])
            self._piles = p
        return p

    @property
    def pile_masks(self) -> tuple[int, ...]:
        """:attr:`piles` as bit masks."""
        return self._pile_masks

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return self._tricks_won

    @property
    def stock_count(self) -> int:
        return self._stock_count

    @property
    def set_aside_count(self) -> int:
        """Cards set aside unseen before the deal (two players)."""
        return self._set_aside_count

    @property
    def trump(self) -> int | None:
        """The trump suit, once it is shown."""
        return self._trump

    @property
    def trump_card(self) -> Card | None:
        return self._trump_card

    @property
    def trump_holder(self) -> int | None:
        """Who holds the trump card (face down, or drawn face up), once known."""
        return self._trump_holder

    @property
    def trick_leader(self) -> int | None:
        return self._trick_leader

    @property
    def table1(self) -> tuple[tuple[int, Card], ...]:
        """Phase 1: the cards on the table in the order laid, with who laid them."""
        return self._table1

    @property
    def fighters(self) -> tuple[int, ...]:
        """Phase 1: the seats in a running krig or støting."""
        return self._fighters

    @property
    def table2(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """Phase 2: the entries of the trick in order, with who laid each."""
        return self._table2

    @property
    def trick_need(self) -> int:
        """Phase 2: entries that complete the current trick (0 when the table is empty)."""
        return self._trick_need

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """For each seat, the cards publicly known to be in its hand."""
        k = self._known
        if k is None:
            k = tuple([_cards(m) for m in self._known_masks])
            self._known = k
        return k

    @property
    def known_masks(self) -> tuple[int, ...]:
        """:attr:`known` as bit masks."""
        return self._known_masks

    @property
    def still_in(self) -> frozenset[int]:
        """The seats still in the game (every seat in phase 1; phase 2: those who have
        not gone out; none once it is over).  :meth:`is_in` asks about one seat."""
        return frozenset(self._still_in)

    def is_in(self, seat: int) -> bool:
        """Whether ``seat`` is still in the game (see :attr:`still_in`)."""
        return seat in self._still_in

    def next_seat_in(self, seat: int) -> int:
        """The next seat after ``seat`` (clockwise) still in the game; ``seat`` itself if
        no other is (:func:`mattis.core.legal.next_seat_in`)."""
        mask = 0
        for s in self._still_in:
            mask |= 1 << s
        return next_seat_in(mask, seat, self._players)

    @property
    def round_cards(self) -> tuple[Card, ...]:
        """Phase 1: the cards laid in the current round of the trick, in order (the
        trick's first cards, or in a krig/støting the fight cards laid since it began)."""
        table1 = self._table1
        fighters = self._fighters
        if not fighters:
            return tuple([c for _, c in table1])
        to_act = self._to_act
        idx = fighters.index(to_act) if to_act is not None and to_act in fighters else len(fighters)
        return tuple([c for _, c in table1[len(table1) - idx:]]) if idx else ()

    @property
    def finished(self) -> tuple[int, ...]:
        """Phase 2: the seats that went out, in order."""
        return self._finished

    @property
    def ranked(self) -> tuple[int, ...]:
        """The seats ranked ahead of the loser at a forced end (repetition, cap, stuck),
        best first: still in when the game was stopped, so they did not go out."""
        return self._ranked

    @property
    def waiting(self) -> tuple[int, ...]:
        """Phase 2, ``going_out="cleared"``: seats still in with an empty hand whose last
        entry lies on the table; each goes out when its trick is cleared."""
        return self._waiting

    @property
    def losers(self) -> tuple[int, ...]:
        return self._losers

    @property
    def blodmattis(self) -> tuple[int, ...]:
        return self._blodmattis

    @property
    def last_trick(self) -> tuple[int, tuple[Card, ...]] | None:
        """The last completed phase 1 trick (winner, cards), or the last phase 2 trick
        (who completed it, cards)."""
        return self._last_trick

    @property
    def out_count(self) -> int:
        return self._out_count

    @property
    def history(self) -> tuple[HistoryItem, ...]:
        return self._history

    @property
    def end_reason(self) -> Termination | None:
        """``None`` while playing, else how the game ended."""
        return self._end_reason

    @property
    def phase2_moves(self) -> int:
        """Phase 2 moves made so far; the game is stopped at ``rules.phase2_cap``."""
        return self._phase2_moves

    @property
    def repetitions(self) -> int:
        """Phase 2: how many times the present position has occurred (a third ends the
        game; see :meth:`mattis.core.state.State.repetitions`)."""
        return self._repetitions

    # ------------------------------------------------------------ derived
    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (public), or ``None`` while it is being played."""
        if self._end_reason is None:
            return None
        return Outcome.of(self._end_reason, self._finished, self._losers, self._blodmattis, self._ranked)

    @property
    def my_turn(self) -> bool:
        return self._to_act == self._seat


FIELDS: tuple[str, ...] = (
    "seat", "rules", "players", "dealer", "first_leader", "phase", "to_act", "legal", "hand", "hand_counts", "piles",
    "tricks_won", "stock_count", "set_aside_count", "trump", "trump_card", "trump_holder", "trick_leader",
    "table1", "fighters", "table2", "trick_need", "known", "still_in", "finished", "ranked", "waiting", "losers",
    "blodmattis", "last_trick", "out_count", "history", "end_reason", "phase2_moves", "repetitions",
)
"""The public fields of an :class:`Observation`, in order (as a dataclass's would be)."""
_FIELD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(FIELDS)}


def _codes(mask: int) -> list[str]:
    """The cards of a mask as record codes, lowest card code first."""
    return [card_code(c) for c in cards_of(mask)]


def _cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask as a tuple, lowest card code first."""
    return tuple(cards_of(mask))


_POP16: Final[tuple[int, ...]] = tuple(i.bit_count() for i in range(1 << 16))
"""Set bits of a 16-bit number (the compiled core calls ``int.bit_count`` as a slow
Python method)."""


def _count(mask: int) -> int:
    """How many cards a (52-bit) mask holds."""
    return _POP16[mask & 0xFFFF] + _POP16[(mask >> 16) & 0xFFFF] + _POP16[(mask >> 32) & 0xFFFF] + _POP16[mask >> 48]


_SEATS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(s for s in range(6) if m >> s & 1) for m in range(64))
"""The seats of a seat mask (six seats at most)."""
_ALL_SEATS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(range(n)) for n in range(7))


def observe(state: State, seat: int, history: bool = True) -> Observation:
    """The observer: what ``seat`` may know of ``state`` now, and nothing else.

    ``history=False`` leaves the public history out (an empty ``history``): for the
    batched tensor encoder (:mod:`mattis.core.batch`), which reads the new moves from
    the state's move log itself, so that an observation costs the same late in a long
    game as early."""
    n = state.n
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat}")
    phase = state.phase
    trump = state.trump
    to_act = state.to_act
    hands = state.hands
    collect = phase is PHASE1
    return Observation(
        seat,
        state.rules,
        n,
        state.dealer,
        state.first_leader if state.first_leader >= 0 else None,
        phase,
        to_act,
        state.legal_moves() if to_act == seat else (),
        hands[seat],
        tuple([_count(h) for h in hands]),
        tuple(state.piles),
        tuple(state.tricks_won),
        len(state.stock),
        _count(state.aside),
        trump if trump >= 0 else None,
        state.trump_card if trump >= 0 and state.trump_card >= 0 else None,
        state.trump_holder if state.trump_holder >= 0 else None,
        state.trick_leader if collect else None,
        tuple(state.trick),
        tuple(state.round_seats) if state.fighting and collect else (),
        tuple(state.table),
        state.trick_size_now(),
        tuple(state.known),
        _ALL_SEATS[n] if collect else _SEATS_OF[state.in_game],
        tuple(state.finished),
        tuple(state.ranked),
        _SEATS_OF[state.pending],
        tuple(state.losers),
        tuple(state.blodmattis),
        state.last_trick,
        _count(state.out),
        state.history_tuple() if history else (),
        state.end_reason,
        state.p2_moves,
        state.repetitions(),
    )
