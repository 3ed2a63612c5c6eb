"""The game state: the referee's whole truth, and the one state machine for
every variant.

This module is the phase machine only: setting up a game, applying moves and
moving between phases.  Which moves are legal is asked of
:mod:`mattis.core.legal`; what a seat may see is built by
:func:`mattis.core.observation.observe`; the text forms live in
:mod:`mattis.core.notation` and :mod:`mattis.core.record`.

>>> from mattis.core import State, preset
>>> s = State.new(preset("mattis"), players=3, seed=7)
>>> s.phase, s.to_act
(<Phase.COLLECT: 1>, 1)
>>> while not s.is_over:
...     s.apply(s.legal_moves()[0])
>>> len(s.losers), s.outcome is not None
(1, True)
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import BIT, RANK, SUIT, Card, card_code, cards_of, mask_of
from .legal import (
    RepetitionKey,
    chance_floor,
    phase1_moves,
    phase2_moves,
    pickup_span,
    repetition_key,
    round_winners,
    trick_complete_at,
    verify,
)
from .moves import Move, MoveKind, play
from .rules import Draw, EmptyFighter, EmptyHand, GoingOut, Leader2, Phase1End, Rules, Ties, Tricks, Trump
from .vocabulary import Illegal, Outcome, Phase, Reason, Termination

# Enum members as module constants: reading ``Enum.MEMBER`` costs a descriptor call.
_DRAW_AFTER_CARD: Final = Draw.AFTER_CARD
_DRAW_AFTER_TRICK: Final = Draw.AFTER_TRICK
_EMPTYFIGHTER_CHANCE: Final = EmptyFighter.CHANCE
_EMPTYHAND_LOSES: Final = EmptyHand.LOSES
_EMPTYHAND_SAFE: Final = EmptyHand.SAFE
_GOINGOUT_LAID: Final = GoingOut.LAID
_GOINGOUT_HOLDERS: Final = GoingOut.HOLDERS
_LEADER2_LAST_TRICK: Final = Leader2.LAST_TRICK
_MOVEKIND_CHANCE: Final = MoveKind.CHANCE
_MOVEKIND_PICKUP: Final = MoveKind.PICKUP
_PHASE_COLLECT: Final = Phase.COLLECT
_PHASE_OVER: Final = Phase.OVER
_PHASE_SHED: Final = Phase.SHED
_PHASE1END_FIRST_EMPTY: Final = Phase1End.FIRST_EMPTY
_PHASE1END_ONE_HOLDER: Final = Phase1End.ONE_HOLDER
_PHASE1END_STOCK_EMPTY: Final = Phase1End.STOCK_EMPTY
_TERMINATION_CAP: Final = Termination.CAP
_TERMINATION_NORMAL: Final = Termination.NORMAL
_TERMINATION_REPETITION: Final = Termination.REPETITION
_TERMINATION_STUCK: Final = Termination.STUCK
_TIES_STOTING: Final = Ties.STOTING
_TRICKS_PAIR: Final = Tricks.PAIR
_TRUMP_BOTTOM_UP: Final = Trump.BOTTOM_UP
_TRUMP_LAST_CARD: Final = Trump.LAST_CARD
_SEAT_COUNT: Final[tuple[int, ...]] = tuple(i.bit_count() for i in range(64))
"""How many seats a seat mask (``in_game``, ``pending``) holds: a table, since the
compiled core calls ``int.bit_count`` as a slow Python method."""

if TYPE_CHECKING:
    from .observation import Observation

EV_TRICK_TAKEN: Final = 1
"""A trace item ``(EV_TRICK_TAKEN, winner, cards)``: phase 1, a trick won."""
EV_PHASE_TWO: Final = 2
"""``(EV_PHASE_TWO, trump, trump_card, trump_holder)``: phase 2 begins (the trump is shown)."""
EV_TRICK_CLEARED: Final = 3
"""``(EV_TRICK_CLEARED, seat, cards)``: phase 2, ``seat`` completed a trick; it leaves play."""
EV_BLODMATTIS: Final = 4
"""``(EV_BLODMATTIS, seat)``: ``seat`` won no trick in phase 1 and has lost."""
EV_WAITING: Final = 5
"""``(EV_WAITING, seat)``: ``going_out="cleared"``, ``seat`` laid her last card on a trick
still open; she goes out when it is cleared."""
EV_OUT: Final = 6
"""``(EV_OUT, seat, place)``: ``seat`` went out, ``place`` (1 = first)."""
EV_GAME_OVER: Final = 7
"""``(EV_GAME_OVER,)``: the game ended."""
TraceItem = tuple[Any, ...]
"""What a move did, as the state records it while :attr:`State.trace` is a list: a tuple
whose first item is one of the ``EV_*`` kinds above (:mod:`mattis.core.events` turns them
into typed events)."""


_BIT_LENGTH: Final[tuple[int, ...]] = tuple(i.bit_length() for i in range(53))


def _shuffle_52(rng: random.Random) -> list[Card]:
    """``rng.shuffle(list(range(52)))`` step for step (CPython's shuffle draws
    ``_randbelow(i + 1)`` for i = 51..1 by rejection from ``getrandbits``), without
    its Python-level loop: the same deck from the same seed."""
    deck = list(range(52))
    getrandbits = rng.getrandbits
    for i in range(51, 0, -1):
        n = i + 1
        k = _BIT_LENGTH[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _same_as_shuffle() -> bool:
    """Whether :func:`_shuffle_52` deals what ``random.shuffle`` deals on this Python."""
    for seed in (0, 1, 7, 2**40 + 3):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        if deck != _shuffle_52(random.Random(seed)):
            return False
    return True


_FAST_SHUFFLE: Final = _same_as_shuffle()


def shuffled_deck(rng: random.Random, rules: Rules | None = None) -> list[Card]:
    """The deck of ``rules`` (the 52 cards when not given) shuffled by ``rng`` exactly as
    ``rng.shuffle`` shuffles it (the deal of ``State.new(seed=...)``); a faster loop
    where it is checked to be the same."""
    if rules is not None and not rules.full_deck():
        short = rules.deck()
        rng.shuffle(short)
        return short
    if _FAST_SHUFFLE and type(rng) is random.Random:
        return _shuffle_52(rng)
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


class IllegalMoveError(ValueError):
    """A move that is not legal now.  The state is left unchanged.  ``illegal``
    says why, as a code with parameters (the words are in the catalogue)."""

    def __init__(self, illegal: Illegal) -> None:
        self.illegal = illegal
        super().__init__(str(illegal))


class GameSetupError(ValueError):
    """A deck or position that cannot start a game."""


Seat = int
"""A seat, 0 to players - 1 (``-1``: none)."""


@dataclass(frozen=True, slots=True)
class PositionFields:
    """A position as its fields: what the position notation (:mod:`mattis.core.notation`)
    writes, and what :meth:`State.from_fields` checks and builds a state from.

    Cards are card codes 0..51, seats 0 to players - 1, ``-1`` is "none".  Phase 1
    (``phase=Phase.COLLECT``): ``leader`` leads the trick; with ``round_seats`` the trick
    is under way (``trick`` the cards laid, ``laid`` of them by the seats of this round,
    ``fighting`` in a krig/støting), else it starts now.  Cards in no place are set aside
    unseen.  Phase 2 (``phase=Phase.SHED``): either ``leader`` (phase 2 begins here: the
    empty-hand rule applies, then the leader leads) or ``turn`` (the seat to act, with
    the trick on the ``table``, its ``need``, and who is ``finished``/``losers``/
    ``blodmattis``/``waiting``).  Cards in no place are out of play."""

    phase: Phase
    hands: tuple[tuple[Card, ...], ...]
    dealer: Seat = 0
    won: tuple[int, ...] | None = None
    """Tricks won in phase 1, per seat (by default 1 for a seat holding cards: its pile
    in phase 1, its hand in phase 2)."""
    trump: int = -1
    """Phase 2: the trump suit (or give ``trump_card``)."""
    trump_card: Card = -1
    """The trump card: phase 1, the bottom stock card face up (``trump=bottom_up``) or the
    card ``trump_holder`` drew; phase 2, the card whose suit is trump."""
    trump_holder: Seat = -1
    leader: Seat = -1
    # phase 1
    piles: tuple[tuple[Card, ...], ...] | None = None
    stock: tuple[Card, ...] = ()
    """Top card first."""
    last_winner: Seat = -1
    trick: tuple[tuple[Seat, Card], ...] = ()
    round_seats: tuple[Seat, ...] | None = None
    laid: int = 0
    fighting: bool = False
    # phase 2
    aside: tuple[Card, ...] = ()
    turn: Seat = -1
    table: tuple[tuple[Seat, tuple[Card, ...]], ...] = ()
    need: int = 0
    finished: tuple[Seat, ...] = ()
    losers: tuple[Seat, ...] = ()
    blodmattis: tuple[Seat, ...] = ()
    known: tuple[tuple[Card, ...], ...] | None = None
    """Phase 2: the cards everyone knows a seat holds."""
    waiting: tuple[Seat, ...] = ()


def _setup_cards(cards: Sequence[Card], seen: list[Card]) -> int:
    """The mask of ``cards``, each checked to be a card and added to ``seen``."""
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 52:
            raise GameSetupError(f"not a card: {c!r} (cards are 0..51)")
        seen.append(c)
    return mask_of(cards)


def _setup_seat(seat: int, n: int, what: str) -> int:
    if not 0 <= seat < n:
        raise GameSetupError(f"{what} must be a seat from 0 to {n - 1}, got {seat}")
    return seat


def _setup_unique(seen: list[Card]) -> int:
    mask = mask_of(seen)
    if _card_count(mask) != len(seen):
        dup = next(c for c in seen if seen.count(c) > 1)
        raise GameSetupError(f"card {card_code(dup)} appears twice in the position")
    return mask


def _card_count(mask: int) -> int:
    """How many cards a mask holds (positions only: not the hot path)."""
    return bin(mask).count("1")


LogCell = tuple[Any, ...]
"""One cell of the move log, a linked list: (previous cell or None, seat, move, cards
shown).  Typed as a tuple of any length on purpose: the compiled core holds a
fixed-length tuple type unboxed, so ``cell is cached_cell`` would compare a fresh copy
and the history cache would never hit."""
HistoryEntry = tuple[int, Move, tuple[Card, ...]]


@dataclass(slots=True, eq=False, repr=False)
class State:
    """A game of the Mattis family: create it, ask for legal moves, apply them.

    Only the referee holds a ``State``; every seat gets :meth:`observation`.
    The fields below are the referee's whole truth and the one list of them:
    pickling walks it and ``clone`` lists each (a test checks it).  Outside the core they are
    read-only; ``-1`` in an int field means "none yet" and never leaves the
    state (the observation, snapshot and properties say ``None``).
    """

    rules: Rules
    n: int
    dealer: int
    deck: tuple[Card, ...] | None = None
    """The deck the game was dealt from (``None`` for a game from a position)."""
    position: str | None = None
    """The position text (:mod:`mattis.core.notation`) the game started from, if any."""
    first_leader: int = -1
    """Who led the first trick of a dealt game (``-1`` for a game from a position)."""
    phase: Phase = _PHASE_COLLECT
    _turn: int = -1
    hands: list[int] = field(default_factory=list)
    piles: list[int] = field(default_factory=list)
    """Phase 1: the cards each seat has won."""
    stock: list[Card] = field(default_factory=list)
    """The stock, bottom first: ``stock[-1]`` is the top card."""
    aside: int = 0
    """Cards set aside unseen (two players), or out of play from a position."""
    out: int = 0
    """Phase 2: cards out of play (completed tricks)."""
    trump: int = -1
    """The trump suit once it is shown."""
    trump_card: int = -1
    trump_holder: int = -1
    trick: list[tuple[int, Card]] = field(default_factory=list)
    """Phase 1: the cards on the table, in the order laid."""
    trick_leader: int = -1
    round_seats: list[int] = field(default_factory=list)
    """Phase 1: who lays in this round of the trick (the fighters in a krig/støting)."""
    round_idx: int = 0
    round_laid: list[tuple[int, Card]] = field(default_factory=list)
    fighting: bool = False
    tricks_won: list[int] = field(default_factory=list)
    last_winner: int = -1
    last_trick: tuple[int, tuple[Card, ...]] | None = None
    table: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    """Phase 2: the entries of the trick, in order, with who laid each."""
    trick_need: int = 0
    in_game: int = 0
    """Phase 2: a bit per seat still in."""
    pending: int = 0
    """Phase 2, ``going_out="cleared"``: a bit per seat still in with an empty hand whose
    last entry lies on the table (she goes out when that trick is cleared)."""
    finished: list[int] = field(default_factory=list)
    """Phase 2: the seats that went out, in order."""
    ranked: list[int] = field(default_factory=list)
    """The seats ranked ahead of the loser at a forced end (repetition, cap, stuck),
    best first; they did not go out."""
    losers: list[int] = field(default_factory=list)
    blodmattis: list[int] = field(default_factory=list)
    p2_moves: int = 0
    rep: dict[RepetitionKey, int] = field(default_factory=dict)
    """How often each phase 2 position occurred since the last irreversible event."""
    known: list[int] = field(default_factory=list)
    """For each seat, the cards in its hand that everyone has seen."""
    log: LogCell | None = None
    n_moves: int = 0
    end_reason: Termination | None = None
    _legal: tuple[Move, ...] | None = None
    _hist: tuple[LogCell | None, tuple[HistoryEntry, ...]] = (None, ())
    trace: list[TraceItem] | None = None
    """While a list (the referee sets one around :meth:`apply`), what each move did is
    appended to it as :data:`TraceItem` tuples, in the order it happened; ``None`` (the
    default, and in a clone) records nothing."""

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, rules: Rules, players: int, seed: int | str | None = None, dealer: int = 0,
            leader: int | None = None) -> State:
        """A new game with a shuffled deck: from ``seed`` when given (reproducible),
        else shuffled from :mod:`secrets`.  ``leader`` leads the first trick (by default
        the player left of the dealer)."""
        if seed is None:
            deck = rules.deck()
            secrets.SystemRandom().shuffle(deck)
        else:
            deck = shuffled_deck(random.Random(seed), rules)
        return cls.from_deck(rules, players, deck, dealer, leader)

    @classmethod
    def from_deck(cls, rules: Rules, players: int, deck: Sequence[Card], dealer: int = 0,
                  leader: int | None = None) -> State:
        """A new game dealt from an explicit deck order (see the record format); ``leader``
        leads the first trick (by default the player left of the dealer: "Spilleren til
        venstre for giveren begynner"; a table where the last loser leads passes her)."""
        rules.check_players(players)
        if rules.full_deck():
            if len(deck) != 52 or len(set(deck)) != 52 or not all(0 <= c < 52 for c in deck):
                raise GameSetupError("the deck must hold each of the 52 cards exactly once")
        elif sorted(deck) != rules.deck():
            raise GameSetupError(f"the deck must hold each of the {rules.deck_ranks * rules.deck_suits} cards of "
                                 "the short deck exactly once")
        if not 0 <= dealer < players:
            raise GameSetupError(f"dealer must be a seat from 0 to {players - 1}")
        if leader is None:
            leader = (dealer + 1) % players
        if not 0 <= leader < players:
            raise GameSetupError(f"leader must be a seat from 0 to {players - 1}")
        s = cls._blank(rules, players, dealer)
        s.deck = tuple(deck)
        idx = 0
        if players == 2 and rules.two_player_discard:
            s.aside = mask_of(deck[: rules.two_player_discard])
            idx = rules.two_player_discard
        for _ in range(rules.hand_size):
            for j in range(players):
                seat = (dealer + 1 + j) % players
                s.hands[seat] |= BIT[deck[idx]]
                idx += 1
        s.stock = list(reversed(deck[idx:]))
        if rules.trump is _TRUMP_BOTTOM_UP:
            s.trump_card = deck[-1]
            s.trump = SUIT[deck[-1]]
        s.first_leader = leader
        s._start_trick(leader)
        return s

    @classmethod
    def from_position(cls, rules: Rules, hands: Sequence[Sequence[Card]], trump: int,
                      leader: int, dealer: int = 0) -> State:
        """A phase 2 position at the start of a trick (like a chess FEN).  Cards in no
        hand are out of play; an empty hand counts as a player who won nothing in
        phase 1.  :func:`mattis.core.notation.parse_position` reads every position."""
        players = len(hands)
        if not 2 <= players <= 6:
            raise GameSetupError("a position needs 2 to 6 hands")
        if not 0 <= trump < 4:
            raise GameSetupError("trump must be a suit")
        if not 0 <= leader < players or not 0 <= dealer < players:
            raise GameSetupError(f"leader and dealer must be seats from 0 to {players - 1}")
        seen: set[Card] = set()
        for h in hands:
            for c in h:
                if not isinstance(c, int) or not 0 <= c < 52:
                    raise GameSetupError(f"not a card: {c!r} (cards are 0..51)")
                if c in seen:
                    raise GameSetupError(f"card {card_code(c)} appears twice in the position")
                seen.add(c)
        from .notation import phase2_start_text

        return cls.from_fields(rules, PositionFields(_PHASE_SHED, tuple(tuple(h) for h in hands), dealer, trump=trump,
                                                     leader=leader),
                               phase2_start_text([list(h) for h in hands], trump, leader, dealer))

    @classmethod
    def from_fields(cls, rules: Rules, f: PositionFields, position: str | None = None) -> State:
        """A game from a position given as its fields: every card accounted for once,
        the seats in range, the phase's invariants held; else :class:`GameSetupError`
        says what is wrong.  ``position`` is its text, kept for records.  The one way
        to set up a game anywhere but at the deal."""
        n = len(f.hands)
        if not 2 <= n <= 6:
            raise GameSetupError("a position needs 2 to 6 hands")
        dealer = _setup_seat(f.dealer, n, "the dealer (dealer=)")
        seen: list[Card] = []
        s = cls._blank(rules, n, dealer)
        s.hands = [_setup_cards(h, seen) for h in f.hands]
        won = f.won
        if won is not None:
            if len(won) != n or min(won) < 0:
                raise GameSetupError(f"won needs {n} whole numbers, one per seat")
        if f.phase is _PHASE_COLLECT:
            s._setup_phase1(f, seen, won)
        elif f.phase is _PHASE_SHED:
            s._setup_phase2(f, seen, won)
        else:
            raise GameSetupError("a position is in phase 1 or phase 2")
        if not rules.full_deck():
            outside = mask_of(seen) & ~rules.deck_mask()
            if outside:
                raise GameSetupError(f"card {card_code(cards_of(outside)[0])} is not in the short deck")
        s.position = position
        return s

    def _setup_phase1(self, f: PositionFields, seen: list[Card], won: tuple[int, ...] | None) -> None:
        n = self.n
        rules = self.rules
        if f.known is not None or f.table or f.turn >= 0 or f.finished or f.losers or f.waiting or f.aside:
            raise GameSetupError("a phase 1 position has no table entries, turn, known, aside or players out")
        piles = f.piles if f.piles is not None else ((),) * n
        if len(piles) != n:
            raise GameSetupError(f"piles needs {n} seats")
        self.piles = [_setup_cards(p, seen) for p in piles]
        stock = list(f.stock)
        _setup_cards(stock, seen)
        self.stock = list(reversed(stock))
        self.tricks_won = list(won) if won is not None else [1 if p else 0 for p in self.piles]
        card = f.trump_card
        if card >= 0:
            _setup_cards((card,), [])
            self.trump_card = card
            if f.trump_holder >= 0:
                who = _setup_seat(f.trump_holder, n, "the trump holder")
                self.trump_holder = who
                if rules.trump is _TRUMP_LAST_CARD:
                    seen.append(card)  # set aside face down until phase 2
                else:  # drawn face up: everyone knows it while its holder keeps it
                    self.known[who] = self.hands[who] & BIT[card]
            elif rules.trump is not _TRUMP_BOTTOM_UP or not stock or stock[-1] != card:
                raise GameSetupError("a trump card not yet drawn is the bottom stock card, face up "
                                     "(trump=bottom_up)")
            if rules.trump is _TRUMP_BOTTOM_UP or (f.trump_holder >= 0 and rules.trump is Trump.SHOWN_WHEN_DRAWN):
                self.trump = SUIT[card]
        elif rules.trump is _TRUMP_BOTTOM_UP and stock:
            raise GameSetupError("with trump=bottom_up the position names the trump card (the bottom stock card)")
        elif f.trump_holder >= 0 or f.trump >= 0:
            raise GameSetupError("phase 1 names the trump by its card")
        self.aside = rules.deck_mask() & ~_setup_unique(seen)
        self.last_winner = _setup_seat(f.last_winner, n, "the last trick's winner") if f.last_winner >= 0 else -1
        leader = _setup_seat(f.leader, n, "the leader (leader=)")
        if f.round_seats is None:
            if f.trick or f.laid or f.fighting:
                raise GameSetupError("a trick under way needs its round (round=)")
            self._start_trick(leader)
            return
        trick = list(f.trick)
        tseen: list[Card] = []
        for seat, c in trick:
            _setup_seat(seat, n, "a trick's seat")
            _setup_cards((c,), tseen)
        _setup_unique(seen + tseen)
        self.aside &= ~mask_of(tseen)
        round_seats = [_setup_seat(q, n, "a seat of the round") for q in f.round_seats]
        laid = f.laid
        if not 0 <= laid <= len(round_seats):
            raise GameSetupError(f"laid must be a number from 0 to {len(round_seats)}, got {laid}")
        if laid > len(trick):
            raise GameSetupError("laid counts more cards than the trick holds")
        self.trick = trick
        self.trick_leader = leader
        self.round_seats = round_seats
        self.round_laid = trick[len(trick) - laid:] if laid else []
        self.round_idx = laid
        self.fighting = f.fighting
        self._p1_advance()

    def _setup_phase2(self, f: PositionFields, seen: list[Card], won: tuple[int, ...] | None) -> None:
        n = self.n
        if f.piles is not None or f.stock or f.trick or f.round_seats is not None or f.last_winner >= 0:
            raise GameSetupError("a phase 2 position has no piles, stock or phase 1 trick")
        if f.trump_card >= 0:
            _setup_cards((f.trump_card,), [])
            self.trump_card = f.trump_card
            self.trump = SUIT[f.trump_card]
            if f.trump >= 0 and f.trump != self.trump:
                raise GameSetupError("the trump suit is not the trump card's")
        elif 0 <= f.trump < 4:
            self.trump = f.trump
        else:
            raise GameSetupError("trump must be a suit")
        if f.trump_holder >= 0:
            self.trump_holder = _setup_seat(f.trump_holder, n, "the trump holder")
        self.phase = _PHASE_SHED
        self.aside = _setup_cards(f.aside, seen)
        self.tricks_won = list(won) if won is not None else [1 if h else 0 for h in self.hands]
        if (f.leader >= 0) == (f.turn >= 0):
            raise GameSetupError("a phase 2 position names either the leader (lead=) or the player to act (turn=)")
        if f.leader >= 0:
            leader = _setup_seat(f.leader, n, "the leader (lead=)")
            if f.table or f.need or f.finished or f.losers or f.blodmattis or f.waiting or f.known is not None:
                raise GameSetupError("phase 2 begins (lead=) with an empty table and every player in")
            self.out = self.rules.deck_mask() & ~_setup_unique(seen)
            if self.trump_holder < 0:
                self.trump_holder = leader
            self._begin_phase2(leader)
            return
        turn = _setup_seat(f.turn, n, "the player to act (turn=)")
        table: list[tuple[int, tuple[Card, ...]]] = []
        for seat, cards in f.table:
            _setup_seat(seat, n, "a table entry's seat")
            if not cards:
                raise GameSetupError("a phase 2 table entry holds one card or more")
            _setup_cards(cards, seen)
            table.append((seat, tuple(cards)))
        self.out = self.rules.deck_mask() & ~_setup_unique(seen)
        self.table = table
        if not 0 <= f.need <= n:
            raise GameSetupError(f"need must be a number from 0 to {n}, got {f.need}")
        self.trick_need = f.need
        self.finished = [_setup_seat(q, n, "a finished seat") for q in f.finished]
        self.losers = [_setup_seat(q, n, "a loser") for q in f.losers]
        self.blodmattis = [_setup_seat(q, n, "a Blodmattis") for q in f.blodmattis]
        gone = self.finished + self.losers
        if len(set(gone)) != len(gone) or not set(self.blodmattis) <= set(self.losers):
            raise GameSetupError("a seat is listed twice in finished/losers, or a Blodmattis is not a loser")
        self.in_game = sum(1 << seat for seat in range(n) if seat not in gone)
        if _SEAT_COUNT[self.in_game] < 2:
            raise GameSetupError("a phase 2 position needs two or more players still in")
        if f.known is not None:
            if len(f.known) != n:
                raise GameSetupError(f"known needs {n} seats")
            known = [_setup_cards(k, []) for k in f.known]
            for seat, k in enumerate(known):
                if k & ~self.hands[seat]:
                    raise GameSetupError(f"known cards of seat {seat} are not in its hand")
            self.known = known
        for q in f.waiting:
            _setup_seat(q, n, "a waiting seat")
            if not self.in_game >> q & 1 or self.hands[q] or all(seat != q for seat, _ in table):
                raise GameSetupError(f"seat {q} is waiting to go out but is not in with an empty hand and an entry "
                                     "on the table")
            self.pending |= 1 << q
        self._p2_turn(turn)

    @classmethod
    def _blank(cls, rules: Rules, players: int, dealer: int) -> State:
        """An empty table (no cards anywhere): the start of every constructor."""
        return cls(rules=rules, n=players, dealer=dealer, hands=[0] * players, piles=[0] * players,
                   tricks_won=[0] * players, known=[0] * players, in_game=(1 << players) - 1)

    def clone(self) -> State:
        """A cheap independent copy: lists are sliced, the repetition counts copied,
        everything else (ints, tuples, the frozen rules, the immutable log) shared.
        Every field of the class is listed (a test checks it against the field list)."""
        c = State.__new__(State)
        c.rules = self.rules
        c.n = self.n
        c.dealer = self.dealer
        c.deck = self.deck
        c.position = self.position
        c.first_leader = self.first_leader
        c.phase = self.phase
        c._turn = self._turn
        c.hands = self.hands[:]
        c.piles = self.piles[:]
        c.stock = self.stock[:]
        c.aside = self.aside
        c.out = self.out
        c.trump = self.trump
        c.trump_card = self.trump_card
        c.trump_holder = self.trump_holder
        c.trick = self.trick[:]
        c.trick_leader = self.trick_leader
        c.round_seats = self.round_seats[:]
        c.round_idx = self.round_idx
        c.round_laid = self.round_laid[:]
        c.fighting = self.fighting
        c.tricks_won = self.tricks_won[:]
        c.last_winner = self.last_winner
        c.last_trick = self.last_trick
        c.table = self.table[:]
        c.trick_need = self.trick_need
        c.in_game = self.in_game
        c.pending = self.pending
        c.finished = self.finished[:]
        c.ranked = self.ranked[:]
        c.losers = self.losers[:]
        c.blodmattis = self.blodmattis[:]
        c.p2_moves = self.p2_moves
        c.rep = self.rep.copy()
        c.known = self.known[:]
        c.log = self.log
        c.n_moves = self.n_moves
        c.end_reason = self.end_reason
        c._legal = self._legal
        c._hist = self._hist
        c.trace = None
        return c

    def __copy__(self) -> State:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in _FIELDS}
        # the log is a linked list as deep as the game is long: store it flat, or
        # pickle hits the recursion limit on games of about 1,000 moves
        d["log"] = self.history()
        d["_hist"] = (None, ())
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.trace = None  # a state pickled before the field existed records nothing
        for k, v in d.items():
            if k != "log":
                setattr(self, k, v)
        flat = d.get("log")
        log: LogCell | None = None
        if isinstance(flat, list):
            for seat, mv, shown in flat:
                log = (log, seat, mv, shown)
        else:
            log = flat
        self.log = log

    # ------------------------------------------------------------ public view
    @property
    def players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.phase is _PHASE_OVER

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        return None if self.phase is _PHASE_OVER else self._turn

    @property
    def trump_shown(self) -> bool:
        """Whether every seat knows the trump suit."""
        return self.trump >= 0

    @property
    def mattis(self) -> int | None:
        """The player left holding cards at the end of phase 2, if any."""
        outcome = self.outcome
        return outcome.mattis if outcome is not None else None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it is being played."""
        if self.phase is not _PHASE_OVER or self.end_reason is None:
            return None
        return Outcome.of(self.end_reason, self.finished, self.losers, self.blodmattis, self.ranked)

    @property
    def next_dealer(self) -> int:
        """The loser deals the next game."""
        m = self.mattis
        if m is not None:
            return m
        return self.losers[0] if self.losers else self.dealer

    def moves(self) -> list[tuple[int, Move]]:
        """Every move made so far, as (seat, move)."""
        return [(seat, mv) for seat, mv, _ in self.history()]

    def history(self) -> list[HistoryEntry]:
        """The public history: (seat, move, cards shown)."""
        return list(self.history_tuple())

    def history_tuple(self) -> tuple[HistoryEntry, ...]:
        """The public history as a tuple (cached, cheap to ask again)."""
        cached_cell, cached = self._hist
        if cached_cell is self.log:
            return cached
        new: list[HistoryEntry] = []
        cell = self.log
        while cell is not None and cell is not cached_cell:
            prev, seat, mv, shown = cell
            new.append((seat, mv, shown))
            cell = prev
        if cell is None and cached_cell is not None:
            cached = ()
        new.reverse()
        result = cached + tuple(new)
        self._hist = (self.log, result)
        return result

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (see :func:`mattis.core.observation.observe`)."""
        from .observation import observe

        return observe(self, seat)

    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON-ready data (see :func:`mattis.core.notation.snapshot`)."""
        from .notation import snapshot

        return snapshot(self)

    def position_text(self) -> str:
        """This position in the position notation (see :mod:`mattis.core.notation`)."""
        from .notation import position_text

        return position_text(self)

    # ------------------------------------------------------------ legal moves
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the player to act (empty when the game is over)."""
        lm = self._legal
        if lm is None:
            lm = self._legal = self._compute_legal()
        return lm

    def _compute_legal(self) -> tuple[Move, ...]:
        phase = self.phase
        if phase is _PHASE_COLLECT:
            h = self.hands[self._turn]
            # laying "out": the trick's first card, or any fighter's card in a krig/støting
            return phase1_moves(h, self.rules, len(self.stock), self.fighting or not self.round_laid)
        if phase is _PHASE_SHED:
            table = self.table
            return phase2_moves(self.hands[self._turn], table[-1][1] if table else None, self.trump, self.rules)
        return ()

    # ------------------------------------------------------------------ apply
    def apply(self, move: Move) -> None:
        """Make a move for the player to act.  Raises :class:`IllegalMoveError`
        (and changes nothing) if the move is not legal: the one judgement,
        :func:`mattis.core.legal.verify`, says why."""
        why = verify(self, move)
        if why is not None:
            raise IllegalMoveError(why)
        self._legal = None
        seat = self._turn
        self.n_moves += 1
        kind = move.kind
        if self.phase is _PHASE_COLLECT:
            if kind is _MOVEKIND_CHANCE:
                card = self.stock.pop()
                self.log = (self.log, seat, move, (card,))
                self._p1_lay(seat, card, True)
            else:
                card = move.cards[0]
                self.log = (self.log, seat, move, move.cards)
                self.hands[seat] &= ~BIT[card]
                self.known[seat] &= ~BIT[card]
                self._p1_lay(seat, card, False)
        elif kind is _MOVEKIND_PICKUP:
            taken = self._p2_pickup(seat)
            self.log = (self.log, seat, move, taken)
            self._p2_after_move()
        else:
            self.log = (self.log, seat, move, move.cards)
            self._p2_play(seat, move.cards)
            self._p2_after_move()

    def force(self, move: Move) -> None:
        """Apply ``move`` for the player to act without asking whether it is legal.

        For the determinizer, whose trial deals may make a forced move look optional:
        the caller guarantees the move is possible (the cards are in the hand, the
        stock has a card for a sjanse, the table an entry to pick up)."""
        self._legal = (move,)
        self.apply(move)

    def apply_text(self, text: str) -> None:
        """Apply a move written as in a record (``"play 4C"``; a leading seat is checked)."""
        from .moves import parse_move, parse_record_move

        words = text.split()
        if words and words[0].isdigit():
            seat, mv = parse_record_move(text)
            if self.phase is not _PHASE_OVER and seat != self._turn:
                raise IllegalMoveError(Illegal(Reason.NOT_YOUR_TURN, number=self._turn))
        else:
            mv = parse_move(text)
        self.apply(mv)

    def exchange(self, x: Card, y: Card) -> None:
        """Exchange the places of two hidden cards (in hands, the stock, the cards set
        aside, the face-down trump card).  A referee and determinizer tool: it must
        only swap cards no seat has seen, or observations stop being consistent."""
        if x == y:
            return
        bx, by = BIT[x], BIT[y]
        both = bx | by
        hands = self.hands
        for i, h in enumerate(hands):
            if bool(h & bx) != bool(h & by):
                hands[i] = h ^ both
        if bool(self.aside & bx) != bool(self.aside & by):
            self.aside ^= both
        st = self.stock
        for i, c in enumerate(st):
            if c == x:
                st[i] = y
            elif c == y:
                st[i] = x
        if self.trump_card == x:
            self.trump_card = y
        elif self.trump_card == y:
            self.trump_card = x
        self._legal = None

    def relabelled(self, perm: Sequence[Card]) -> State:
        """A copy with every card ``c`` renamed ``perm[c]`` everywhere (hands, piles,
        stock, table, set-aside and out-of-play cards, trump card, public knowledge,
        history, the deck, the repetition counts): a referee tool for tests (the
        information-boundary checks, :func:`mattis.core.testing.relabelled`)."""
        if sorted(perm) != list(range(52)):
            raise ValueError("perm must be a permutation of the 52 cards")
        p = list(perm)

        def rm(mask: int) -> int:
            out = 0
            while mask:
                low = mask & -mask
                out |= 1 << p[low.bit_length() - 1]
                mask ^= low
            return out

        def rmove(m: Move) -> Move:
            return play(*(p[c] for c in m.cards)) if m.cards else m

        c = self.clone()
        c.deck = tuple(p[x] for x in self.deck) if self.deck is not None else None
        c.position = None
        c.hands = [rm(h) for h in self.hands]
        c.piles = [rm(h) for h in self.piles]
        c.stock = [p[x] for x in self.stock]
        c.aside = rm(self.aside)
        c.out = rm(self.out)
        if self.trump_card >= 0:
            c.trump_card = p[self.trump_card]
            if self.trump >= 0:
                c.trump = SUIT[c.trump_card]
        c.trick = [(s, p[x]) for s, x in self.trick]
        c.round_laid = [(s, p[x]) for s, x in self.round_laid]
        if self.last_trick is not None:
            c.last_trick = (self.last_trick[0], tuple(p[x] for x in self.last_trick[1]))
        c.table = [(s, tuple(p[x] for x in e)) for s, e in self.table]
        c.known = [rm(k) for k in self.known]
        cells = []
        cell = self.log
        while cell is not None:
            cells.append(cell)
            cell = cell[0]
        log: LogCell | None = None
        for _, seat, mv, shown in reversed(cells):
            log = (log, seat, rmove(mv), tuple(p[x] for x in shown))
        c.log = log
        c._hist = (None, ())
        c.rep = {}
        probe = c.clone()
        n = self.n
        for key, v in self.rep.items():
            turn, need, pending = (k for k in key[:3] if isinstance(k, int))
            hands = [k for k in key[3:3 + n] if isinstance(k, int)]
            table = [k for k in key[3 + n:] if isinstance(k, tuple)]
            probe._turn = turn
            probe.hands = [rm(h) for h in hands]
            probe.table = [(-1, tuple(p[x] for x in e)) for e in table]  # the key holds no seats
            probe.trick_need = need
            probe.pending = pending
            c.rep[repetition_key(probe)] = v
        c._legal = None
        return c

    # ---------------------------------------------------------------- phase 1
    def _p1_lay(self, seat: int, card: Card, from_stock: bool) -> None:
        if from_stock and not self.stock:
            # a sjanse took the last stock card (never the hidden trump: see chance_floor)
            self._took_last(seat, card)
        self.trick.append((seat, card))
        self.round_laid.append((seat, card))
        self.round_idx += 1
        if not from_stock and self.rules.draw is _DRAW_AFTER_CARD:
            self._draw_up(seat)
        self._p1_advance()

    def _draw_up(self, seat: int) -> None:
        stock = self.stock
        h = self.hands[seat]
        size = self.rules.hand_size
        while stock and (h & (h - 1) & ((h & (h - 1)) - 1) == 0 if size == 3  # fewer than three cards
                         else _card_count(h) < size):
            if len(stock) == 1:
                c = stock.pop()
                self._took_last(seat, c)
                if self.rules.trump is not _TRUMP_LAST_CARD:
                    h |= BIT[c]
                    self.known[seat] |= BIT[c]
                break
            h |= BIT[stock.pop()]
        self.hands[seat] = h

    def _took_last(self, seat: int, card: Card) -> None:
        """``seat`` got the last stock card: she holds the trump.  ``last_card``: it is
        set aside face down; ``shown_when_drawn``: the trump is shown now."""
        self.trump_holder = seat
        if self.trump_card < 0:
            self.trump_card = card
            if self.rules.trump is not _TRUMP_LAST_CARD:
                self.trump = SUIT[card]

    def _start_trick(self, leader: int) -> None:
        n = self.n
        hands = self.hands
        self.trick = []
        self.round_laid = []
        self.round_idx = 0
        self.fighting = False
        end = self.rules.phase1_end
        if end is _PHASE1END_STOCK_EMPTY and not self.stock:
            self._end_phase1(leader)
            return
        if end is not _PHASE1END_FIRST_EMPTY:
            holders = 0
            for h in hands:
                if h:
                    holders += 1
            if holders <= 1:
                self._end_phase1(leader)
                return
            while not hands[leader]:
                leader = (leader + 1) % n
            if self.rules.tricks is _TRICKS_PAIR:
                resp = (leader + 1) % n
                while not hands[resp]:
                    resp = (resp + 1) % n
                self.round_seats = [leader, resp]
            else:
                self.round_seats = [(leader + j) % n for j in range(n)]
        else:
            if self.rules.tricks is _TRICKS_PAIR:
                self.round_seats = [leader, (leader + 1) % n]
            else:
                self.round_seats = [(leader + j) % n for j in range(n)]
        self.trick_leader = leader
        self._p1_advance()

    def _can_lay(self, seat: int) -> bool:
        """Whether ``seat`` has a card to lay: in hand, or a forced sjanse."""
        return bool(self.hands[seat]) or (len(self.stock) >= chance_floor(self.rules)
                                          and self.rules.empty_fighter is _EMPTYFIGHTER_CHANCE)

    def _p1_advance(self) -> None:
        stuck = -1
        while True:
            seats = self.round_seats
            if self.round_idx < len(seats):
                s = seats[self.round_idx]
                if self.hands[s] or self._can_lay(s):
                    self._turn = s
                    return
                if self.rules.phase1_end is _PHASE1END_FIRST_EMPTY:
                    self._end_phase1(s)
                    return
                if stuck < 0:
                    stuck = s
                seats.pop(self.round_idx)
                # Fighters drop out one at a time, so the last one left takes the trick
                # (if she laid a card in this round or can lay one).  If none can go on,
                # the fight cannot be settled: the trick is unfinished, every card goes
                # back to whoever laid it and phase 1 ends (the Skitgubbe text's rule for
                # an unfinished trick: "tar hver spiller tilbake sitt eget kort").
                if self.fighting and len(seats) == 1:
                    last = seats[0]
                    if self.round_idx or self._can_lay(last):
                        self._win_trick(last)
                    else:
                        self._end_phase1(stuck)
                    return
                continue
            fighters = self._fighters(self.round_laid)
            if len(fighters) == 1:
                self._win_trick(fighters[0])
                return
            lead = self.trick_leader
            n = self.n
            fighters.sort(key=lambda x: (x - lead) % n)
            self.round_seats = fighters
            self.round_idx = 0
            self.round_laid = []
            self.fighting = True

    def _fighters(self, laid: list[tuple[int, Card]]) -> list[int]:
        """Who is still in contention after a round (:func:`mattis.core.legal.round_winners`)."""
        return [laid[i][0] for i in round_winners([c for _, c in laid], self.rules, self.fighting)]

    def _win_trick(self, winner: int) -> None:
        cards = tuple(c for _, c in self.trick)
        self.piles[winner] |= mask_of(cards)
        self.tricks_won[winner] += 1
        self.last_winner = winner
        self.last_trick = (winner, cards)
        self.trick = []
        trace = self.trace
        if trace is not None:
            trace.append((EV_TRICK_TAKEN, winner, cards))
        if self.rules.draw is _DRAW_AFTER_TRICK:
            for j in range(self.n):
                self._draw_up((winner + j) % self.n)
        self._start_trick(winner)

    def _end_phase1(self, taker: int) -> None:
        for s, c in self.trick:
            self.hands[s] |= BIT[c]
            self.known[s] |= BIT[c]
        self.trick = []
        self.round_seats = []
        self.round_laid = []
        self.fighting = False
        if self.rules.leftovers_shown:
            for s in range(self.n):
                self.known[s] |= self.hands[s]
        stock = self.stock
        while stock:
            c = stock.pop()
            if not stock:
                self._took_last(taker, c)
                if self.rules.trump is _TRUMP_LAST_CARD:
                    break
                self.known[taker] |= BIT[c]
            self.hands[taker] |= BIT[c]
        # Show the trump; the trump card joins its holder's hand (last_card).
        self.trump = SUIT[self.trump_card]
        if self.rules.trump is _TRUMP_LAST_CARD:
            self.hands[self.trump_holder] |= BIT[self.trump_card]
            self.known[self.trump_holder] |= BIT[self.trump_card]
        for s in range(self.n):
            self.hands[s] |= self.piles[s]
            self.known[s] |= self.piles[s]
            self.piles[s] = 0
        self.phase = _PHASE_SHED
        trace = self.trace
        if trace is not None:
            trace.append((EV_PHASE_TWO, self.trump, self.trump_card, self.trump_holder))
        lead = self.trump_holder
        if self.rules.leader2 is _LEADER2_LAST_TRICK and self.last_winner >= 0:
            lead = self.last_winner
        self._begin_phase2(lead)

    # ---------------------------------------------------------------- phase 2
    def _begin_phase2(self, leader: int) -> None:
        n = self.n
        order = [(self.dealer + 1 + j) % n for j in range(n)]
        rule = self.rules.empty_hand
        if rule is _EMPTYHAND_LOSES:
            for s in order:
                if self.tricks_won[s] == 0:
                    self.blodmattis.append(s)
                    self.losers.append(s)
                    self.in_game &= ~(1 << s)
                    if self.trace is not None:
                        self.trace.append((EV_BLODMATTIS, s))
            if _SEAT_COUNT[self.in_game] == 1:
                last = self.in_game.bit_length() - 1
                self.finished.append(last)
                if self.trace is not None:
                    self.trace.append((EV_OUT, last, len(self.finished)))
                self.in_game = 0
                self._over(_TERMINATION_NORMAL)
                return
        elif rule is _EMPTYHAND_SAFE:
            for s in order:
                if not self.hands[s]:
                    self.finished.append(s)
                    self.in_game &= ~(1 << s)
                    if self.trace is not None:
                        self.trace.append((EV_OUT, s, len(self.finished)))
        self._p2_turn(leader)
        if self.phase is _PHASE_SHED:
            # the position phase 2 starts in is the first occurrence of itself
            self.rep[repetition_key(self)] = 1

    def _p2_turn(self, seat: int) -> None:
        in_game = self.in_game
        if self.rules.going_out is _GOINGOUT_HOLDERS and self._p2_last_holder():
            return
        if _SEAT_COUNT[in_game] <= 1:
            if in_game:
                self.losers.append(in_game.bit_length() - 1)
            self._over(_TERMINATION_NORMAL)
            return
        n = self.n
        s = seat % n
        hands = self.hands
        table = self.table
        for _ in range(n):
            if in_game >> s & 1 and (hands[s] or table):
                self._turn = s
                return
            s = (s + 1) % n
        self._end_by_ranking(_TERMINATION_STUCK, seat % n)

    def repetitions(self) -> int:
        """Phase 2: how many times the present position has occurred, as the repetition
        rule counts it (the game ends at the third; the count starts again when a trick
        is cleared or a player goes out; the position phase 2 starts in is the first
        occurrence of itself); 0 outside phase 2 (a game over is no position to
        repeat).  Public: what decides it (who is
        to act, the table, the hands' changes since the count started) was all laid or
        taken in view."""
        rep = self.rep
        if not rep or self.phase is not _PHASE_SHED:
            return 0
        return rep.get(repetition_key(self), 0)

    def trick_size_now(self) -> int:
        """Phase 2: the entries that complete the trick on the table (0 if it is empty)."""
        if self.phase is not _PHASE_SHED or not self.table:
            return 0
        return trick_complete_at(self.rules, self.trick_need, self._p2_active(), self.n)

    def _p2_active(self) -> int:
        """The players still in, for ``trick_size="active"``; under ``going_out="holders"``
        only those holding cards (a player waiting to go out holds none)."""
        in_game = self.in_game
        if self.rules.going_out is not _GOINGOUT_HOLDERS:
            return _SEAT_COUNT[in_game]
        hands = self.hands
        count = 0
        for q in range(self.n):
            if in_game >> q & 1 and hands[q]:
                count += 1
        return count

    def _p2_play(self, seat: int, cards: tuple[Card, ...]) -> None:
        mask = BIT[cards[0]] if len(cards) == 1 else mask_of(cards)
        hands = self.hands
        h = hands[seat] & ~mask
        hands[seat] = h
        self.known[seat] &= ~mask
        table = self.table
        in_game = self.in_game
        if not table:
            self.trick_need = _SEAT_COUNT[in_game]
        table.append((seat, cards))
        went_out = waits = False
        if not h:
            if self.rules.going_out is _GOINGOUT_LAID:
                self.finished.append(seat)
                in_game &= ~(1 << seat)
                self.in_game = in_game
                self.rep.clear()
                went_out = True
            else:
                self.pending |= 1 << seat
                waits = True
        trace = self.trace
        count = _SEAT_COUNT[in_game]
        if count > 1 and len(table) >= trick_complete_at(self.rules, self.trick_need, self._p2_active(), self.n):
            allc: list[Card] = []
            out = self.out
            for _, e in table:
                allc.extend(e)
                for c in e:
                    out |= BIT[c]
            self.out = out
            last_trick = (seat, tuple(allc))
            self.last_trick = last_trick
            if trace is not None:
                trace.append((EV_TRICK_CLEARED, seat, last_trick[1]))
                if went_out:  # told after the trick, as a front end shows it
                    trace.append((EV_OUT, seat, len(self.finished)))
            if self.pending:
                self._p2_go_out(table)
            self.table = []
            self.trick_need = 0
            self.rep.clear()
            self._p2_turn(seat)
        else:
            if trace is not None:
                if went_out:
                    trace.append((EV_OUT, seat, len(self.finished)))
                elif waits:
                    trace.append((EV_WAITING, seat))
            self._p2_turn(seat + 1)

    def _p2_go_out(self, table: list[tuple[int, tuple[Card, ...]]]) -> None:
        """``going_out="cleared"``: the trick ``table`` is cleared, so the players
        waiting on an entry in it go out, in the order their last entries were laid,
        until one player is left in (she is the Mattis)."""
        pend = self.pending
        last = {q: k for k, (q, _) in enumerate(table) if pend >> q & 1}
        in_game = self.in_game
        for q in sorted(last, key=last.__getitem__):
            if _SEAT_COUNT[in_game] <= 1:
                break
            self.finished.append(q)
            in_game &= ~(1 << q)
            if self.trace is not None:
                self.trace.append((EV_OUT, q, len(self.finished)))
        self.in_game = in_game
        self.pending = 0

    def _p2_last_holder(self) -> bool:
        """``going_out="holders"``: end the game if only one player still in holds cards
        ("Spillet fortsetter til bare én spiller har kort igjen"): she is the Mattis; the
        players waiting to go out go out in the order their last entries were laid, then
        the other empty-handed players, clockwise from her."""
        in_game = self.in_game
        hands = self.hands
        n = self.n
        holder = -1
        for q in range(n):
            if in_game >> q & 1 and hands[q]:
                if holder >= 0:
                    return False
                holder = q
        if holder < 0 or _SEAT_COUNT[in_game] < 2:
            return False
        pend = self.pending
        last = {q: k for k, (q, _) in enumerate(self.table) if pend >> q & 1}
        gone = sorted(last, key=last.__getitem__)
        for j in range(1, n):
            q = (holder + j) % n
            if in_game >> q & 1 and q not in last:
                gone.append(q)
        trace = self.trace
        for q in gone:
            self.finished.append(q)
            if trace is not None:
                trace.append((EV_OUT, q, len(self.finished)))
        self.losers.append(holder)
        self.in_game = 0
        self.pending = 0
        self._over(_TERMINATION_NORMAL)
        return True

    def _p2_pickup(self, seat: int) -> tuple[Card, ...]:
        table = self.table
        i, j = pickup_span(table, self.rules)
        pend = self.pending
        if pend:
            # The picker holds cards again; a waiting player whose last entry is
            # taken stays in, empty-handed.
            pend &= ~(1 << seat)
            last = {q: k for k, (q, _) in enumerate(table) if pend >> q & 1}
            for q, k in last.items():
                if i <= k < j:
                    pend &= ~(1 << q)
            self.pending = pend
        taken: list[Card] = []
        for _, e in table[i:j]:
            taken.extend(e)
        del table[i:j]
        m = mask_of(taken)
        self.hands[seat] |= m
        self.known[seat] |= m
        if not table:
            self.trick_need = 0
        self._p2_turn(seat + 1)
        return tuple(taken)

    def _p2_after_move(self) -> None:
        if self.phase is not _PHASE_SHED:
            return
        self.p2_moves += 1
        if self.p2_moves >= self.rules.phase2_cap:
            self._end_by_ranking(_TERMINATION_CAP, self._turn)
            return
        key = repetition_key(self)
        cnt = self.rep.get(key, 0) + 1
        self.rep[key] = cnt
        if cnt >= 3:
            self._end_by_ranking(_TERMINATION_REPETITION, self._turn)

    def _end_by_ranking(self, reason: Termination, first: int) -> None:
        """End a game that cannot or may not go on: the players still in are ranked
        by cards held, most cards = Mattis; ties: lower total rank is worse, then the
        seat nearer clockwise to ``first`` (the player to act) is worse."""
        n = self.n
        rest = [s for s in range(n) if self.in_game >> s & 1]

        def badness(s: int) -> tuple[int, int, int]:
            h = cards_of(self.hands[s])
            return (len(h), -sum(RANK[c] for c in h), -((s - first) % n))

        rest.sort(key=badness)
        self.ranked.extend(rest[:-1])
        self.losers.append(rest[-1])
        self.in_game = 0
        self.pending = 0
        self._over(reason)

    def _over(self, reason: Termination) -> None:
        self.phase = _PHASE_OVER
        self._turn = -1
        self.end_reason = reason
        self._legal = ()
        if self.trace is not None:
            self.trace.append((EV_GAME_OVER,))

    def __repr__(self) -> str:
        return f"<State {self.rules.name} {self.n}p phase={int(self.phase)} to_act={self.to_act} moves={self.n_moves}>"


_FIELDS = dataclasses.fields(State)
