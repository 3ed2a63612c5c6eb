"""The game state: the referee's whole truth, and the one state machine for
every variant.

>>> from mattis.core import State, preset
>>> s = State.new(preset("mattis"), players=3, seed=7)
>>> s.phase, s.to_act
(1, 1)
>>> while not s.is_over:
...     s.apply(s.legal_moves()[0])
>>> len(s.losers)
1
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any

from .cards import BIT, RANK, SUIT, Card, card_code, cards_of, mask_of, sequence_spans
from .moves import _SINGLE, CHANCE, PICKUP, Move, play
from .observation import OVER, PHASE1, PHASE2, Observation
from .rules import Rules


class IllegalMoveError(ValueError):
    """A move that is not legal now.  The state is left unchanged."""


class GameSetupError(ValueError):
    """A deck or position that cannot start a game."""


_LogCell = tuple[Any, int, Move, tuple[Card, ...]]
# (previous cell or None, seat, move, cards shown)


def _runs(bits: int, base: int, min_len: int, out: list[Move]) -> None:
    """Append every sequence of ``min_len``+ consecutive cards in a 13-bit suit field."""
    for a, b in sequence_spans(bits, min_len):
        out.append(play(*range(base + a, base + b)))


# Memo tables of immutable move tuples: pure functions of their keys, so sharing them
# between states and threads is safe (they hold no game state).
_SINGLES_CACHE: dict[int, tuple[Move, ...]] = {}
"""(suit << 13 | 13-bit rank pattern) -> the single-card moves."""
_PHASE1_CACHE: dict[int, tuple[Move, ...]] = {}
"""(hand mask << 1 | chance allowed) -> phase 1 legal moves."""
_PICKUP_ONLY: tuple[Move, ...] = (PICKUP,)


def _suit_singles(suit: int, bits: int) -> tuple[Move, ...]:
    """The single-card moves of a 13-bit rank pattern in ``suit`` (memoised)."""
    key = (suit << 13) | bits
    singles = _SINGLES_CACHE.get(key)
    if singles is None:
        base = 13 * suit
        singles = _SINGLES_CACHE[key] = tuple(_SINGLE[base + r] for r in range(13) if bits >> r & 1)
    return singles


def _entries(hand: int, suit_filter: int, lo_rank: int, min_seq: int, out: list[Move]) -> None:
    """Append the single cards (and sequences) of ``hand`` in suit ``suit_filter``
    (or every suit for -1) with rank above ``lo_rank``."""
    suits = range(4) if suit_filter < 0 else (suit_filter,)
    for s in suits:
        bits = (hand >> (13 * s)) & 0x1FFF
        if lo_rank >= 0:
            bits = (bits >> (lo_rank + 1)) << (lo_rank + 1)
        if not bits:
            continue
        out.extend(_suit_singles(s, bits))
        if min_seq:
            _runs(bits, 13 * s, min_seq, out)


class State:
    """A game of the Mattis family: create it, ask for legal moves, apply them.

    Only the referee holds a ``State``; every seat gets :meth:`observation`.
    """

    __slots__ = (
        "rules", "n", "dealer", "deck", "position", "phase", "_turn", "hands", "piles", "stock",
        "aside", "out", "trump", "trump_card", "trump_holder", "trick", "trick_leader",
        "round_seats", "round_idx", "round_laid", "fighting", "tricks_won", "last_winner",
        "last_trick", "table", "trick_need", "in_game", "laid_once", "finished", "losers",
        "blodmattis", "p2_moves", "rep", "known", "log", "n_moves", "end_reason", "_legal", "_hist",
    )

    rules: Rules
    n: int
    dealer: int
    deck: tuple[Card, ...] | None
    position: dict[str, Any] | None
    phase: int
    _turn: int
    hands: list[int]
    piles: list[int]
    stock: list[Card]
    aside: int
    out: int
    trump: int
    trump_card: int
    trump_holder: int
    trick: list[tuple[int, Card]]
    trick_leader: int
    round_seats: list[int]
    round_idx: int
    round_laid: list[tuple[int, Card]]
    fighting: bool
    tricks_won: list[int]
    last_winner: int
    last_trick: tuple[int, tuple[Card, ...]] | None
    table: list[tuple[int, tuple[Card, ...]]]
    trick_need: int
    in_game: int
    laid_once: int
    finished: list[int]
    losers: list[int]
    blodmattis: list[int]
    p2_moves: int
    rep: dict[Any, int]
    known: list[int]
    log: _LogCell | None
    n_moves: int
    end_reason: str | None
    _legal: tuple[Move, ...] | None
    _hist: tuple[_LogCell | None, tuple[tuple[int, Move, tuple[Card, ...]], ...]]

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, rules: Rules, players: int, seed: int | str | None = None, dealer: int = 0) -> State:
        """A new game with a shuffled deck: from ``seed`` when given (reproducible),
        else shuffled from :mod:`secrets`."""
        deck = list(range(52))
        rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        rng.shuffle(deck)
        return cls.from_deck(rules, players, deck, dealer)

    @classmethod
    def from_deck(cls, rules: Rules, players: int, deck: Sequence[Card], dealer: int = 0) -> State:
        """A new game dealt from an explicit deck order (see the record format)."""
        rules.check_players(players)
        if len(deck) != 52 or len(set(deck)) != 52 or not all(0 <= c < 52 for c in deck):
            raise GameSetupError("the deck must hold each of the 52 cards exactly once")
        if not 0 <= dealer < players:
            raise GameSetupError(f"dealer must be a seat from 0 to {players - 1}")
        s = cls._blank(rules, players, dealer)
        s.deck = tuple(deck)
        idx = 0
        if players == 2 and rules.two_player_discard:
            s.aside = mask_of(deck[: rules.two_player_discard])
            idx = rules.two_player_discard
        for _ in range(3):
            for j in range(players):
                seat = (dealer + 1 + j) % players
                s.hands[seat] |= BIT[deck[idx]]
                idx += 1
        s.stock = list(reversed(deck[idx:]))
        if rules.trump == "bottom_up":
            s.trump_card = deck[-1]
            s.trump = SUIT[deck[-1]]
        s._start_trick((dealer + 1) % players)
        return s

    @classmethod
    def from_position(cls, rules: Rules, hands: Sequence[Sequence[Card]], trump: int,
                      leader: int, dealer: int = 0) -> State:
        """A phase 2 position (like a chess FEN).  Cards in no hand are out of play;
        an empty hand counts as a player who won nothing in phase 1."""
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
        s = cls._blank(rules, players, dealer)
        s.position = {"trump": trump, "hands": [list(h) for h in hands], "leader": leader}
        s.hands = [mask_of(h) for h in hands]
        s.out = ((1 << 52) - 1) & ~mask_of(seen)
        s.trump = trump
        s.trump_holder = leader
        s.tricks_won = [1 if h else 0 for h in s.hands]
        s.phase = PHASE2
        s._begin_phase2(leader, from_position=True)
        return s

    @classmethod
    def _blank(cls, rules: Rules, players: int, dealer: int) -> State:
        s = object.__new__(cls)
        s.rules = rules
        s.n = players
        s.dealer = dealer
        s.deck = None
        s.position = None
        s.phase = PHASE1
        s._turn = -1
        s.hands = [0] * players
        s.piles = [0] * players
        s.stock = []
        s.aside = 0
        s.out = 0
        s.trump = -1
        s.trump_card = -1
        s.trump_holder = -1
        s.trick = []
        s.trick_leader = -1
        s.round_seats = []
        s.round_idx = 0
        s.round_laid = []
        s.fighting = False
        s.tricks_won = [0] * players
        s.last_winner = -1
        s.last_trick = None
        s.table = []
        s.trick_need = 0
        s.in_game = (1 << players) - 1
        s.laid_once = 0
        s.finished = []
        s.losers = []
        s.blodmattis = []
        s.p2_moves = 0
        s.rep = {}
        s.known = [0] * players
        s.log = None
        s.n_moves = 0
        s.end_reason = None
        s._legal = None
        s._hist = (None, ())
        return s

    def clone(self) -> State:
        """A cheap independent copy."""
        c = object.__new__(State)
        c.rules = self.rules
        c.n = self.n
        c.dealer = self.dealer
        c.deck = self.deck
        c.position = self.position
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
        c.laid_once = self.laid_once
        c.finished = self.finished[:]
        c.losers = self.losers[:]
        c.blodmattis = self.blodmattis[:]
        c.p2_moves = self.p2_moves
        c.rep = self.rep.copy() if self.rep else {}
        c.known = self.known[:]
        c.log = self.log
        c.n_moves = self.n_moves
        c.end_reason = self.end_reason
        c._legal = self._legal
        c._hist = self._hist
        return c

    __copy__ = clone

    def __getstate__(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in State.__slots__}
        # the log is a linked list as deep as the game is long: store it flat, or
        # pickle hits the recursion limit on games of about 1,000 moves
        d["log"] = self.history()
        d["_hist"] = (None, ())
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            object.__setattr__(self, k, v)
        flat = d.get("log")
        if isinstance(flat, list):
            log: _LogCell | None = None
            for seat, mv, shown in flat:
                log = (log, seat, mv, shown)
            object.__setattr__(self, "log", log)

    # ------------------------------------------------------------ public view
    @property
    def players(self) -> int:
        return self.n

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        return None if self.phase == OVER else self._turn

    @property
    def trump_shown(self) -> bool:
        """Whether every seat knows the trump suit."""
        return self.trump >= 0

    @property
    def mattis(self) -> int | None:
        """The player left holding cards at the end of phase 2, if any."""
        if self.phase != OVER:
            return None
        rest = [s for s in self.losers if s not in self.blodmattis]
        return rest[0] if rest else None

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

    def history(self) -> list[tuple[int, Move, tuple[Card, ...]]]:
        """The public history: (seat, move, cards shown)."""
        return list(self._history_tuple())

    def _history_tuple(self) -> tuple[tuple[int, Move, tuple[Card, ...]], ...]:
        cached_cell, cached = self._hist
        if cached_cell is self.log:
            return cached
        new: list[tuple[int, Move, tuple[Card, ...]]] = []
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

    # ------------------------------------------------------------ legal moves
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the player to act (empty when the game is over)."""
        lm = self._legal
        if lm is None:
            lm = self._legal = self._compute_legal()
        return lm

    def _compute_legal(self) -> tuple[Move, ...]:
        if self.phase == PHASE1:
            h = self.hands[self._turn]
            chance = False
            if len(self.stock) >= 2:
                ch = self.rules.chance
                chance = not h or ch == "any" or (ch == "lead" and not self.round_laid)
            key = h << 1 | chance
            lm = _PHASE1_CACHE.get(key)
            if lm is None:
                singles = tuple(_SINGLE[c] for c in range(52) if h >> c & 1)
                lm = singles + (CHANCE,) if chance else singles
                if len(_PHASE1_CACHE) < 1_000_000:
                    _PHASE1_CACHE[key] = lm
            return lm
        if self.phase == PHASE2:
            if self.rules.sequences:
                return tuple(self._legal2())
            return self._legal2_singles()
        return ()

    def _legal2_singles(self) -> tuple[Move, ...]:
        """Phase 2 legal moves when sequences are not allowed (the hot path)."""
        h = self.hands[self._turn]
        table = self.table
        if not table:
            if not h:
                return ()
            return (_suit_singles(0, h & 0x1FFF) + _suit_singles(1, h >> 13 & 0x1FFF)
                    + _suit_singles(2, h >> 26 & 0x1FFF) + _suit_singles(3, h >> 39 & 0x1FFF))
        top = table[-1][1]
        ts = SUIT[top[0]]
        above = RANK[top[-1]] + 1
        out = _suit_singles(ts, (h >> (13 * ts) & 0x1FFF) >> above << above)
        trump = self.trump
        if ts != trump and (not out or self.rules.follow == "free"):
            out = out + _suit_singles(trump, h >> (13 * trump) & 0x1FFF)
        if not out or self.rules.pickup_optional:
            out = out + _PICKUP_ONLY
        return out

    def _legal2(self) -> list[Move]:
        r = self.rules
        h = self.hands[self._turn]
        out: list[Move] = []
        if not self.table:
            _entries(h, -1, -1, r.sequences, out)
            return out
        top = self.table[-1][1]
        ts = SUIT[top[0]]
        _entries(h, ts, RANK[top[-1]], r.sequences, out)
        trump = self.trump
        if ts != trump and (out == [] or r.follow == "free"):
            _entries(h, trump, -1, r.sequences, out)
        if not out or r.pickup_optional:
            out.append(PICKUP)
        return out

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def why_illegal(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal, else the reason in words."""
        if self.phase == OVER:
            return "the game is over"
        if move in self.legal_moves():
            return None
        r = self.rules
        seat = self._turn
        if self.phase == PHASE1:
            if move.kind == "pickup":
                return "there is nothing to pick up in phase 1"
            if move.kind == "chance":
                if r.chance == "off":
                    return "chance (sjanse) is not allowed in these rules"
                if len(self.stock) < 2:
                    return "chance needs at least two cards in the stock"
                return "chance is only allowed when you lead"
            if len(move.cards) != 1:
                return "in phase 1 you lay one card at a time"
            return f"you do not hold {card_code(move.cards[0])}"
        if move.kind == "chance":
            return "there is no chance (sjanse) in phase 2"
        if move.kind == "pickup":
            if not self.table:
                return "there is nothing on the table to pick up"
            return "you can beat the top entry, and these rules do not let you pick up instead"
        cards = move.cards
        mask = mask_of(cards)
        if mask & ~self.hands[seat]:
            missing = [card_code(c) for c in cards if not BIT[c] & self.hands[seat]]
            return f"you do not hold {' '.join(missing)}"
        if len(cards) > 1:
            if r.sequences == 0:
                return "sequences (serie) are not allowed in these rules"
            if len({SUIT[c] for c in cards}) != 1 or RANK[cards[-1]] - RANK[cards[0]] != len(cards) - 1:
                return "a sequence must be consecutive cards of one suit"
            if len(cards) < r.sequences:
                return f"a sequence must be at least {r.sequences} cards long"
        if not self.table:
            return "that entry cannot be led"
        top = self.table[-1][1]
        ts = SUIT[top[0]]
        s = SUIT[cards[0]]
        if s == self.trump and ts != self.trump and r.follow == "suit_first":
            return "you can beat in the suit, so you must follow suit instead of trumping"
        if s == ts:
            return f"it must be higher than {card_code(top[-1])}"
        return "you must follow suit with a higher card, or trump"

    # ------------------------------------------------------------------ apply
    def apply(self, move: Move) -> None:
        """Make a move for the player to act.  Raises :class:`IllegalMoveError`
        (and changes nothing) if the move is not legal."""
        legal = self._legal if self._legal is not None else self.legal_moves()
        for m in legal:
            if m is move:
                break
        else:
            if move not in legal:
                raise IllegalMoveError(self.why_illegal(move) or "illegal move")
        self._legal = None
        seat = self._turn
        self.n_moves += 1
        if self.phase == PHASE1:
            if move.kind == "chance":
                card = self.stock.pop()
                self.log = (self.log, seat, move, (card,))
                self._p1_lay(seat, card, True)
            else:
                card = move.cards[0]
                self.log = (self.log, seat, move, move.cards)
                self.hands[seat] &= ~BIT[card]
                self.known[seat] &= ~BIT[card]
                self._p1_lay(seat, card, False)
        elif move.kind == "pickup":
            taken = self._p2_pickup(seat)
            self.log = (self.log, seat, move, taken)
            self._p2_after_move()
        else:
            self.log = (self.log, seat, move, move.cards)
            self._p2_play(seat, move.cards)
            self._p2_after_move()

    def apply_text(self, text: str) -> None:
        """Apply a move written as in a record (``"play 4C"``; a leading seat is checked)."""
        from .moves import parse_move, parse_record_move

        words = text.split()
        if words and words[0].isdigit():
            seat, mv = parse_record_move(text)
            if self.phase != OVER and seat != self._turn:
                raise IllegalMoveError(f"it is seat {self._turn}'s turn, not seat {seat}'s")
        else:
            mv = parse_move(text)
        self.apply(mv)

    # ---------------------------------------------------------------- phase 1
    def _p1_lay(self, seat: int, card: Card, from_stock: bool) -> None:
        self.trick.append((seat, card))
        self.round_laid.append((seat, card))
        self.round_idx += 1
        if not from_stock and self.rules.draw == "after_card":
            self._draw_up(seat)
        self._p1_advance()

    def _draw_up(self, seat: int) -> None:
        stock = self.stock
        h = self.hands[seat]
        while stock and h.bit_count() < 3:
            if len(stock) == 1:
                c = stock.pop()
                self.trump_holder = seat
                if self.rules.trump == "last_card":
                    self.trump_card = c
                else:
                    h |= BIT[c]
                    self.known[seat] |= BIT[c]
                break
            h |= BIT[stock.pop()]
        self.hands[seat] = h

    def _start_trick(self, leader: int) -> None:
        n = self.n
        hands = self.hands
        self.trick = []
        self.round_laid = []
        self.round_idx = 0
        self.fighting = False
        if self.rules.phase1_end == "one_holder":
            holders = 0
            for h in hands:
                if h:
                    holders += 1
            if holders <= 1:
                self._end_phase1(leader)
                return
            while not hands[leader]:
                leader = (leader + 1) % n
            if self.rules.tricks == "pair":
                resp = (leader + 1) % n
                while not hands[resp]:
                    resp = (resp + 1) % n
                self.round_seats = [leader, resp]
            else:
                self.round_seats = [(leader + j) % n for j in range(n)]
        else:
            if self.rules.tricks == "pair":
                self.round_seats = [leader, (leader + 1) % n]
            else:
                self.round_seats = [(leader + j) % n for j in range(n)]
        self.trick_leader = leader
        self._p1_advance()

    def _p1_advance(self) -> None:
        while True:
            seats = self.round_seats
            if self.round_idx < len(seats):
                s = seats[self.round_idx]
                if self.hands[s] or (len(self.stock) >= 2 and self.rules.empty_fighter == "chance"):
                    self._turn = s
                    return
                if self.rules.phase1_end == "first_empty":
                    self._end_phase1(s)
                    return
                seats.pop(self.round_idx)
                # Fighters drop out one at a time, so the last one left takes the trick.
                if self.fighting and len(seats) == 1:
                    self._win_trick(seats[0])
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
        if self.rules.ties == "stoting":
            seen: set[int] = set()
            dup = -1
            for _, c in laid:
                r = RANK[c]
                if r in seen and r > dup:
                    dup = r
                seen.add(r)
            if dup >= 0:
                return [s for s, c in laid if RANK[c] == dup]
        best = max(RANK[c] for _, c in laid)
        return [s for s, c in laid if RANK[c] == best]

    def _win_trick(self, winner: int) -> None:
        cards = tuple(c for _, c in self.trick)
        self.piles[winner] |= mask_of(cards)
        self.tricks_won[winner] += 1
        self.last_winner = winner
        self.last_trick = (winner, cards)
        self.trick = []
        if self.rules.draw == "after_trick":
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
                self.trump_holder = taker
                if self.rules.trump == "last_card":
                    self.trump_card = c
                    break
                self.known[taker] |= BIT[c]
            self.hands[taker] |= BIT[c]
        # Show the trump; the trump card joins its holder's hand (last_card).
        self.trump = SUIT[self.trump_card]
        if self.rules.trump == "last_card":
            self.hands[self.trump_holder] |= BIT[self.trump_card]
            self.known[self.trump_holder] |= BIT[self.trump_card]
        for s in range(self.n):
            self.hands[s] |= self.piles[s]
            self.known[s] |= self.piles[s]
            self.piles[s] = 0
        self.phase = PHASE2
        lead = self.trump_holder
        if self.rules.leader2 == "last_trick" and self.last_winner >= 0:
            lead = self.last_winner
        self._begin_phase2(lead, from_position=False)

    # ---------------------------------------------------------------- phase 2
    def _begin_phase2(self, leader: int, from_position: bool) -> None:
        n = self.n
        order = [(self.dealer + 1 + j) % n for j in range(n)]
        rule = self.rules.empty_hand
        if rule == "loses":
            for s in order:
                if self.tricks_won[s] == 0:
                    self.blodmattis.append(s)
                    self.losers.append(s)
                    self.in_game &= ~(1 << s)
            if self.in_game.bit_count() == 1:
                last = self.in_game.bit_length() - 1
                self.finished.append(last)
                self.in_game = 0
                self._over("normal")
                return
        elif rule == "safe":
            for s in order:
                if not self.hands[s]:
                    self.finished.append(s)
                    self.in_game &= ~(1 << s)
        self._p2_turn(leader)

    def _p2_turn(self, seat: int) -> None:
        in_game = self.in_game
        if in_game.bit_count() <= 1:
            if in_game:
                self.losers.append(in_game.bit_length() - 1)
            self._over("normal")
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
        self._end_by_ranking("stuck", seat % n)

    def _p2_play(self, seat: int, cards: tuple[Card, ...]) -> None:
        mask = BIT[cards[0]] if len(cards) == 1 else mask_of(cards)
        hands = self.hands
        h = hands[seat] & ~mask
        hands[seat] = h
        self.known[seat] &= ~mask
        table = self.table
        in_game = self.in_game
        if not table:
            self.trick_need = in_game.bit_count()
        table.append((seat, cards))
        self.laid_once |= 1 << seat
        if not h:
            self.finished.append(seat)
            in_game &= ~(1 << seat)
            self.in_game = in_game
            self.rep.clear()
        count = in_game.bit_count()
        ts = self.rules.trick_size
        need = self.trick_need if ts == "start" else count if ts == "active" else self.n
        if len(table) >= need and count > 1:
            allc: list[Card] = []
            out = self.out
            for _, e in table:
                allc.extend(e)
                for c in e:
                    out |= BIT[c]
            self.out = out
            self.last_trick = (seat, tuple(allc))
            self.table = []
            self.trick_need = 0
            self.rep.clear()
            self._p2_turn(seat)
        else:
            self._p2_turn(seat + 1)

    def _p2_pickup(self, seat: int) -> tuple[Card, ...]:
        table = self.table
        rule = self.rules.pickup
        if rule == "first":
            i, j = 0, 1
        elif rule == "last":
            i, j = len(table) - 1, len(table)
            if self.rules.sequences:
                while i > 0:
                    below = table[i - 1][1][-1]
                    cur = table[i][1][0]
                    if SUIT[below] == SUIT[cur] and RANK[below] + 1 == RANK[cur]:
                        i -= 1
                    else:
                        break
        else:
            # the lowest card by face value, trumps included; ties: the older entry
            best = min(range(len(table)), key=lambda k: (RANK[table[k][1][0]], k))
            i, j = best, best + 1
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
        if self.phase != PHASE2:
            return
        self.p2_moves += 1
        if self.p2_moves >= self.rules.phase2_cap:
            self._end_by_ranking("cap", self._turn)
            return
        key = (self._turn, tuple(self.hands), tuple(self.table), self.trick_need, self.in_game)
        cnt = self.rep.get(key, 0) + 1
        self.rep[key] = cnt
        if cnt >= 3:
            self._end_by_ranking("repetition", self._turn)

    def _end_by_ranking(self, reason: str, first: int) -> None:
        """End a game that cannot or may not go on: the players still in are ranked
        by cards held, most cards = Mattis; ties: lower total rank is worse, then the
        seat nearer clockwise to ``first`` (the player to act) is worse."""
        n = self.n
        rest = [s for s in range(n) if self.in_game >> s & 1]

        def badness(s: int) -> tuple[int, int, int]:
            h = cards_of(self.hands[s])
            return (len(h), -sum(RANK[c] for c in h), -((s - first) % n))

        rest.sort(key=badness)
        self.finished.extend(rest[:-1])
        self.losers.append(rest[-1])
        self.in_game = 0
        self._over(reason)

    def _over(self, reason: str) -> None:
        self.phase = OVER
        self._turn = -1
        self.end_reason = reason
        self._legal = ()

    # ----------------------------------------------------------- observation
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now."""
        if not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat}")
        n = self.n
        shown_trump = self.trump if self.trump >= 0 else None
        tcard = self.trump_card if self.trump >= 0 and self.trump_card >= 0 else None
        hist = self._history_tuple()
        return Observation(
            seat=seat,
            rules=self.rules,
            players=n,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            legal=self.legal_moves() if self._turn == seat and self.phase != OVER else (),
            hand=tuple(cards_of(self.hands[seat])),
            hand_counts=tuple(h.bit_count() for h in self.hands),
            piles=tuple(tuple(cards_of(p)) for p in self.piles),
            tricks_won=tuple(self.tricks_won),
            stock_count=len(self.stock),
            set_aside_count=self.aside.bit_count(),
            trump=shown_trump,
            trump_card=tcard,
            trump_holder=self.trump_holder if self.trump_holder >= 0 else None,
            trick_leader=self.trick_leader if self.phase == PHASE1 else None,
            table1=tuple(self.trick),
            fighters=tuple(self.round_seats) if self.fighting and self.phase == PHASE1 else (),
            table2=tuple(self.table),
            trick_need=self._current_need(),
            known=tuple(tuple(cards_of(k)) for k in self.known),
            in_game=tuple(s for s in range(n) if self.in_game >> s & 1) if self.phase != PHASE1
            else tuple(range(n)),
            finished=tuple(self.finished),
            losers=tuple(self.losers),
            blodmattis=tuple(self.blodmattis),
            last_trick=self.last_trick,
            out_count=self.out.bit_count(),
            history=hist,
            end_reason=self.end_reason,
        )

    def _current_need(self) -> int:
        if self.phase != PHASE2 or not self.table:
            return 0
        ts = self.rules.trick_size
        if ts == "start":
            return self.trick_need
        return self.in_game.bit_count() if ts == "active" else self.n

    # -------------------------------------------------------------- snapshot
    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON-ready data (for the referee and ``mattis replay``)."""
        from .cards import SUIT_LETTERS

        def codes(mask: int) -> list[str]:
            return [card_code(c) for c in cards_of(mask)]

        trump: str | None = None
        if self.trump >= 0:
            trump = SUIT_LETTERS[self.trump]
        elif self.trump_card >= 0:
            trump = SUIT_LETTERS[SUIT[self.trump_card]]
        table: list[Any]
        if self.phase == PHASE1:
            table = [card_code(c) for _, c in self.trick]
        else:
            table = [[card_code(c) for c in e] for _, e in self.table]
        return {
            "phase": "over" if self.phase == OVER else self.phase,
            "trump": trump,
            "trump_card": card_code(self.trump_card) if self.trump_card >= 0 else None,
            "trump_holder": self.trump_holder if self.trump_holder >= 0 else None,
            "to_act": self.to_act,
            "hands": [codes(h) for h in self.hands],
            "piles": [codes(p) for p in self.piles],
            "table": table,
            "table_seats": [s for s, _ in self.trick] if self.phase == PHASE1 else [s for s, _ in self.table],
            "stock": [card_code(c) for c in reversed(self.stock)],
            "set_aside": codes(self.aside),
            "out_of_play": codes(self.out),
            "finished": list(self.finished),
            "losers": list(self.losers),
            "blodmattis": list(self.blodmattis),
            "end_reason": self.end_reason,
            "moves_played": self.n_moves,
            "legal": [f"{self._turn} {m}" for m in self.legal_moves()],
        }

    def all_card_masks(self) -> list[int]:
        """Every place a card can be (for accounting checks): hands, piles, stock,
        table, set aside, out of play, the face-down trump card."""
        masks = list(self.hands) + list(self.piles)
        masks.append(mask_of(self.stock))
        masks.append(mask_of(c for _, c in self.trick))
        for _, e in self.table:
            masks.append(mask_of(e))
        masks.append(self.aside)
        masks.append(self.out)
        if self.rules.trump == "last_card" and self.phase == PHASE1 and self.trump_card >= 0:
            masks.append(BIT[self.trump_card])
        return masks

    def relabelled(self, perm: Sequence[Card]) -> State:
        """A copy with every card ``c`` renamed ``perm[c]`` everywhere (hands, piles,
        stock, table, set-aside and out-of-play cards, trump card, public knowledge,
        history, the deck or position).  A referee/test helper: swapping two cards a
        seat cannot see must leave that seat's :meth:`observation` unchanged."""
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
        if self.position is not None:
            c.position = dict(self.position, hands=[[p[x] for x in h] for h in self.position["hands"]])
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
        log: _LogCell | None = None
        for _, seat, mv, shown in reversed(cells):
            log = (log, seat, rmove(mv), tuple(p[x] for x in shown))
        c.log = log
        c.rep = {(k[0], tuple(rm(h) for h in k[1]), tuple((s, tuple(p[x] for x in e)) for s, e in k[2]),
                  k[3], k[4]): v for k, v in self.rep.items()}
        c._legal = None
        return c

    def __repr__(self) -> str:
        return f"<State {self.rules.name} {self.n}p phase={self.phase} to_act={self.to_act} moves={self.n_moves}>"

