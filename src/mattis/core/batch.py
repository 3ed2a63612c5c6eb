"""Many games stepped together by action ids, with their tensors written into flat
lists and their masks as rows of bytes: the compiled half of the batched research
environment.

:class:`Batch` holds ``games`` states, one learner seat in each.  :meth:`Batch.step`
applies one action id per game (one legality check: the action's shared move among
the legal moves, by identity first), then plays the opponents this module can play
itself (uniformly random legal moves from a ``random.Random`` per seat, the same draws
as the ``random`` bot makes from the same generator) until the learner is to act
again, an opponent played elsewhere is to act (a bot or a policy: :data:`WAITING`), or
the learner's fate is settled.  :meth:`Batch.write` then lays out each game's
observation tensor and legal-action mask for its learner in buffers that NumPy reads
in one call each (``mattis.rl.batched`` turns them into float32 and bool in one
vectorised step per batch):

* ``flags``: a list of ints, ``row_words`` a game: first ``flag_words`` words of the
  tensor's 0/1 entries, each holding :data:`WORD` (56) entries: bit ``b`` of word
  ``w`` is entry ``56 w + b`` (the same bits as the single encoder's,
  :func:`mattis.core.layout.flag_bits` and :func:`~mattis.core.layout.laid_bits`);
  then ``count_words`` words of the tensor's counts, :data:`LANES` (2) a word in
  28-bit lanes (count ``k`` in bits ``28 (k % 2)`` of word ``k // 2``), in the order of
  :data:`COUNTS` (seats relative to the observer), each at most :data:`LANE_MAX`, to be
  divided by their scales (:func:`count_scales`): one NumPy read of the list gives both;
* ``masks``: the legal actions, a ``bytes`` of ``mask_bytes`` bytes a game, bit ``a``
  for action ``a`` (one object shared by every row with the same legal moves: NumPy
  reads the rows joined).

The core has no NumPy.  The writer reads the state directly (no
:class:`~mattis.core.observation.Observation` is built, and the bits of the tensor are
made from small card masks), but only the fields that
:func:`~mattis.core.observation.observe` hands the seat: its own hand and the public
facts; nothing else of the truth reaches a tensor (tests compare every seat's tensor
with the single encoder's of that seat's observation, which
:func:`mattis.core.layout.flag_bits` lays out).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .layout import (
    _FIGHTERS_AT,
    _FINISHED_AT,
    _FIRST_AT,
    _HAND_AT,
    _HOLDER_AT,
    _IN_GAME_AT,
    _KNOWN_AT,
    _LAST_AT,
    _LEADER_AT,
    _LOSERS_AT,
    _OUT_AT,
    _PHASE_AT,
    _PILES_AT,
    _TABLE1_AT,
    _TABLE2_AT,
    _TO_ACT_AT,
    _TOP_AT,
    _TRUMP_AT,
    _TRUMP_CARD_AT,
)
from .moves import Move, MoveKind
from .state import LogCell, State
from .vocabulary import Phase, Termination

PLAYING: Final = 0
"""A game's status: the learner is to act."""
WAITING: Final = 1
"""A game's status: an opponent played outside this module (a bot, a policy) is to act."""
TERMINATED: Final = 2
"""A game's status: the learner's episode ended (its fate is settled)."""
TRUNCATED: Final = 3
"""A game's status: the learner's episode was cut by the phase 2 cap (a time limit)."""
ILLEGAL: Final = 4
"""A game's status: the learner chose an action that is not legal (the episode ends, -1)."""

COUNTS: Final[tuple[str, ...]] = ("hand_counts", "tricks_won", "stock", "set_aside", "table2_count", "trick_need",
                                  "phase2_moves", "repetitions")
"""The count blocks :meth:`Batch.write` lays out in ``counts``, in order (names of
:data:`mattis.core.layout.BLOCKS`; the first two a seat each, relative to the observer)."""

_PLAY: Final = MoveKind.PLAY
_PICKUP: Final = MoveKind.PICKUP
_CHANCE: Final = MoveKind.CHANCE
_OVER: Final = Phase.OVER
_COLLECT: Final = Phase.COLLECT
_SHED: Final = Phase.SHED
_CAP: Final = Termination.CAP


def count_scales(players: int, phase2_cap: int) -> list[tuple[float, float]]:
    """For each entry of ``counts`` (see :data:`COUNTS`): what it is divided by, and
    the most the quotient may be (the tensor's entry is ``min(count / scale, most)``)."""
    n = players
    big = float(n * 52)
    return ([(52.0, big)] * n + [(26.0, big)] * n + [(52.0, big), (52.0, big), (float(n), big), (float(n), big),
                                                    (float(phase2_cap), 1.0), (3.0, 1.0)])


class Batch:
    """``games`` games stepped together (see the module docstring).

    ``moves[a]`` is the move of action ``a``; ``card_actions[c]`` the action of laying
    card ``c``; ``seq_actions`` the action of each sequence (its cards in rank order);
    ``flag_at`` where each block of :data:`mattis.core.layout.FLAG_BLOCKS` starts and
    ``laid_at`` where the ``laid`` block starts (bits of the tensor)."""

    def __init__(self, games: int, players: int, moves: list[Move], card_actions: list[int],
                 seq_actions: dict[tuple[int, ...], int], chance_action: int, pickup_action: int,
                 flag_at: tuple[int, ...], laid_at: int, flag_bytes: int, mask_bytes: int,
                 zero_sum: bool) -> None:
        self.games = games
        self.players = players
        self.moves = moves
        self.card_actions = card_actions
        self.seq_actions = seq_actions
        self.chance_action = chance_action
        self.pickup_action = pickup_action
        self.flag_at = flag_at
        self.laid_at = laid_at
        self.flag_bytes = flag_bytes
        self.mask_bytes = mask_bytes
        self.count_width = 2 * players + 6
        """Counts a game (see :data:`COUNTS`)."""
        self.count_words = (self.count_width + LANES - 1) // LANES
        """Words of ``flags`` a game that hold its counts (after its flag words)."""
        self.zero_sum = zero_sum
        self.states: list[State | None] = [None] * games
        self.seats: list[int] = [0] * games
        self.randoms: list[list[random.Random | None]] = [[None] * players for _ in range(games)]
        self._draws: list[list[Callable[[int], int] | None]] = [[None] * players for _ in range(games)]
        """Per game and seat: ``randoms``' bound ``getrandbits`` (no method lookup a move)."""
        self.status: list[int] = [WAITING] * games
        self.rewards: list[float] = [0.0] * games
        self.decisions = 0
        """Moves made by every seat (learners and opponents) so far."""
        k = games * players
        self._laid: list[int] = [0] * (k * players)
        """Per game, observer and seat relative to it: the cards that seat has laid."""
        self._laid_any: list[int] = [0] * k
        self._last: list[LogCell | None] = [None] * k
        """The state's move log cell each observer's ``laid`` bits were last brought up to."""
        self.flag_words = (flag_bytes * 8 + WORD - 1) // WORD
        """Words of ``flags`` a game that hold the tensor's 0/1 entries."""
        self.row_words = self.flag_words + self.count_words
        """Entries of ``flags`` a game."""
        self.flags: list[int] = [0] * (games * self.row_words)
        if list(flag_at) != sorted(flag_at) or laid_at <= flag_at[-1]:
            raise ValueError("the flag blocks and the laid block must be laid out in this order")
        self._row = _Row()
        self._lanes = _Lanes()
        self._no_mask = bytes(mask_bytes)
        self.masks: list[bytes] = [self._no_mask] * games
        self._mask_memo: dict[int, tuple[tuple[Move, ...], bytes]] = {}
        """Phase 1: the mask bytes of a legal-move tuple, by the tuple's identity (the
        tuple is kept with them, so its identity cannot be reused while it is in the
        memo; the core hands out one phase 1 tuple per hand pattern, while phase 2's
        are often built anew)."""
        # where each block starts, as native fields (a tuple item is a boxed read)
        self._phase_at = flag_at[_PHASE_AT]
        self._to_act_at = flag_at[_TO_ACT_AT]
        self._hand_at = flag_at[_HAND_AT]
        self._known_at = flag_at[_KNOWN_AT]
        self._piles_at = flag_at[_PILES_AT]
        self._trump_at = flag_at[_TRUMP_AT]
        self._trump_card_at = flag_at[_TRUMP_CARD_AT]
        self._holder_at = flag_at[_HOLDER_AT]
        self._leader_at = flag_at[_LEADER_AT]
        self._table1_at = flag_at[_TABLE1_AT]
        self._fighters_at = flag_at[_FIGHTERS_AT]
        self._table2_at = flag_at[_TABLE2_AT]
        self._top_at = flag_at[_TOP_AT]
        self._first_at = flag_at[_FIRST_AT]
        self._out_at = flag_at[_OUT_AT]
        self._in_game_at = flag_at[_IN_GAME_AT]
        self._finished_at = flag_at[_FINISHED_AT]
        self._losers_at = flag_at[_LOSERS_AT]
        self._last_at = flag_at[_LAST_AT]

    # ------------------------------------------------------------------ games
    def start(self, i: int, state: State, seat: int, randoms: list[random.Random | None]) -> None:
        """Game ``i`` is now ``state`` with the learner in ``seat``; ``randoms[s]`` plays
        seat ``s`` with uniformly random legal moves (``None``: the learner's seat, or an
        opponent played elsewhere).  Plays the opponents up to the learner's turn."""
        n = self.players
        self.states[i] = state
        self.seats[i] = seat
        self.randoms[i] = list(randoms)
        self._draws[i] = [None if r is None else r.getrandbits for r in randoms]
        for s in range(n):
            j = i * n + s
            for r in range(n):
                self._laid[j * n + r] = 0
            self._laid_any[j] = 0
            self._last[j] = None
        self.rewards[i] = 0.0
        self.advance(i)

    def state(self, i: int) -> State:
        """Game ``i``'s state."""
        st = self.states[i]
        if st is None:
            raise RuntimeError(f"game {i} has not been started")
        return st

    def step(self, actions: list[int], write: bool = False) -> None:
        """One action id per game whose learner is to act (the others are left as they
        are): apply it, or end the episode (:data:`ILLEGAL`, reward -1) if it is not
        legal, then play on (:meth:`advance`).  With ``write``, each game whose
        learner is to act again is written (:meth:`write`) right after its moves,
        while its state is still in the processor's cache; the others are left to
        the caller (:meth:`ended` lists them)."""
        moves = self.moves
        count = len(moves)
        flags = self.flags
        masks = self.masks
        for i in range(self.games):
            if self.status[i] != PLAYING:
                continue
            st = self.state(i)
            a = actions[i]
            legal = st.legal_moves()
            ok = False
            if 0 <= a < count:
                mv = moves[a]
                for m in legal:
                    if m is mv:
                        ok = True
                        break
                if not ok and mv in legal:
                    for m in legal:
                        if m == mv:
                            mv = m
                            ok = True
                            break
                if ok:
                    st.apply(mv)  # one of the legal tuple's own moves: found by identity
                    self.decisions += 1
            if not ok:
                self.status[i] = ILLEGAL
                self.rewards[i] = -1.0
                continue
            self._settle(i, st, True)
            if write and self.status[i] == PLAYING:
                self.write_seat(i, self.seats[i], i, flags, masks, True)

    def apply(self, i: int, move: Move) -> None:
        """The move of the opponent to act in game ``i`` (one played elsewhere), then play
        on.  Raises :class:`~mattis.core.state.IllegalMoveError` if it is not legal."""
        st = self.state(i)
        if self.status[i] != WAITING:
            raise RuntimeError(f"game {i} does not wait for an opponent")
        st.apply(move)
        self.decisions += 1
        self._settle(i, st, False)

    def advance(self, i: int) -> None:
        """Play game ``i``'s own opponents until the learner is to act, an opponent
        played elsewhere is to act, or the learner's fate is settled; sets its status."""
        self._settle(i, self.state(i), False)

    def _settle(self, i: int, st: State, after_learner: bool) -> None:
        seat = self.seats[i]
        if after_learner and self._fate(i, st, seat):
            return
        rngs = self.randoms[i]
        draws = self._draws[i]
        while True:
            to = st.to_act
            if to is None or to == seat:
                break
            draw = draws[to]
            if draw is None:
                self.status[i] = WAITING
                return
            legal = st.legal_moves()
            if _SAME_AS_CHOICE:
                st.apply(legal[_below(draw, len(legal))])
            else:
                rng = rngs[to]
                assert rng is not None
                st.apply(rng.choice(legal))
            self.decisions += 1
        if not self._fate(i, st, seat):
            self.status[i] = PLAYING
            self.rewards[i] = 0.0

    def _fate(self, i: int, st: State, seat: int) -> bool:
        """Set game ``i``'s status and reward if the learner's fate is settled."""
        if seat in st.losers:
            reward = -1.0
        elif seat in st.finished or st.phase is _OVER:
            reward = 1.0 if self.zero_sum else 0.0
        else:
            return False
        self.rewards[i] = reward
        self.status[i] = TRUNCATED if st.end_reason is _CAP else TERMINATED
        return True

    def ended(self) -> list[int]:
        """The games whose learner is not to act (status other than :data:`PLAYING`)."""
        status = self.status
        out: list[int] = []
        for i in range(self.games):
            if status[i] != PLAYING:
                out.append(i)
        return out

    def to_act(self, i: int) -> int:
        """The seat to act in game ``i`` (-1 when it is over)."""
        to = self.state(i).to_act
        return -1 if to is None else to

    # ---------------------------------------------------------------- tensors
    def mask_bits(self, legal: tuple[Move, ...]) -> int:
        """The legal actions as bits (bit ``a`` for action ``a``)."""
        return action_bits(legal, self.card_actions, self.seq_actions, self.chance_action, self.pickup_action)

    def write(self, i: int) -> None:
        """Lay out game ``i``'s learner's tensor and mask in row ``i`` of ``flags`` and
        ``masks`` (the mask is empty once its episode has ended)."""
        self.write_seat(i, self.seats[i], i, self.flags, self.masks, self.status[i] == PLAYING)

    def write_all(self) -> None:
        """:meth:`write` for every game."""
        for i in range(self.games):
            self.write_seat(i, self.seats[i], i, self.flags, self.masks, self.status[i] == PLAYING)

    def write_seat(self, i: int, seat: int, row: int, flags: list[int], masks: list[bytes], with_mask: bool) -> None:
        """Lay out what ``seat`` sees of game ``i`` in row ``row`` of the given buffers
        (its legal actions too when ``with_mask``, else an empty mask).

        Read from the state's public fields and the seat's own hand only, the very
        fields :func:`~mattis.core.observation.observe` hands the seat, without
        building the :class:`~mattis.core.observation.Observation`, and with no big
        integers (each card block is a 52-bit mask put into 56-bit words): the same
        bits as :func:`mattis.core.layout.flag_bits` of that observation (a test
        compares them)."""
        st = self.state(i)
        n = self.players
        me = seat
        j = i * n + seat
        log = st.log
        if log is not self._last[j]:
            self._catch_up(j, seat, log)
        out = self._row
        w0 = row * self.row_words
        out.start(flags, w0, self.flag_words)
        # the blocks in the layout's order (ascending positions: each word is stored once);
        # a seat relative to the observer is (s - me) mod n, written without a division
        phase = st.phase
        collect = phase is _COLLECT
        out.put(self._phase_at + (0 if collect else 1 if phase is _SHED else 2), 1)
        to = st.to_act
        if to is not None:
            out.put(self._to_act_at + (to - me if to >= me else to - me + n), 1)
        hands = st.hands
        out.put(self._hand_at, hands[me])
        known = st.known
        known_all = 0
        base = self._known_at
        s = me
        for _r in range(n):
            k: int = known[s]
            out.put(base, k)
            known_all |= k
            base += 52
            s += 1
            if s == n:
                s = 0
        piles = st.piles
        base = self._piles_at
        s = me
        for _r in range(n):
            out.put(base, piles[s])
            base += 52
            s += 1
            if s == n:
                s = 0
        trump = st.trump
        if trump >= 0:
            out.put(self._trump_at + trump, 1)
            if st.trump_card >= 0:
                out.put(self._trump_card_at + st.trump_card, 1)
        holder = st.trump_holder
        if holder >= 0:
            out.put(self._holder_at + (holder - me if holder >= me else holder - me + n), 1)
        if collect:
            leader = st.trick_leader
            out.put(self._leader_at + (leader - me if leader >= me else leader - me + n), 1)
        trick = st.trick
        if trick:
            base = self._table1_at
            for r in range(n):
                s = me + r
                if s >= n:
                    s -= n
                m = 0
                for ts, c in trick:
                    if ts == s:
                        m |= 1 << c
                out.put(base, m)
                base += 52
        if collect and st.fighting and st.round_seats:
            fm = 0
            for fs in st.round_seats:
                fm |= 1 << fs
            out.put(self._fighters_at, _rotate(fm, me, n))
        table2 = st.table
        on_table = 0
        if table2:
            base = self._table2_at
            for r in range(n):
                s = me + r
                if s >= n:
                    s -= n
                m = 0
                for es, entry in table2:
                    if es == s:
                        m |= _mask(entry)
                out.put(base, m)
                on_table |= m
                base += 52
            out.put(self._top_at, _mask(table2[-1][1]))
            out.put(self._first_at, _mask(table2[0][1]))
        if not collect:
            out.put(self._out_at, self._laid_any[j] & ~on_table & ~known_all)
        out.put(self._in_game_at, _rotate((1 << n) - 1 if collect else st.in_game, me, n))
        if st.finished:
            fm = 0
            for fs in st.finished:
                fm |= 1 << fs
            out.put(self._finished_at, _rotate(fm, me, n))
        if st.losers:
            fm = 0
            for fs in st.losers:
                fm |= 1 << fs
            out.put(self._losers_at, _rotate(fm, me, n))
        last = st.last_trick
        if last is not None:
            out.put(self._last_at, _mask(last[1]))
        base = self.laid_at
        laid = self._laid
        jn = j * n
        for r in range(n):
            out.put(base, laid[jn + r])
            base += 52
        out.finish()
        # the counts, seats relative to the observer (see COUNTS), two to a word
        lanes = self._lanes
        lanes.start(flags, w0 + self.flag_words)
        s = me
        for _r in range(n):
            lanes.add(_popcount(hands[s]))
            s += 1
            if s == n:
                s = 0
        won = st.tricks_won
        s = me
        for _r in range(n):
            lanes.add(won[s])
            s += 1
            if s == n:
                s = 0
        lanes.add(len(st.stock))
        lanes.add(_popcount(st.aside))
        lanes.add(len(table2))
        lanes.add(st.trick_size_now())
        lanes.add(st.p2_moves)
        lanes.add(0 if collect else st.repetitions())
        lanes.finish()
        if with_mask and to == me:
            legal = st.legal_moves()
            if collect:  # phase 1's legal-move tuples are the core's, one per hand pattern
                memo = self._mask_memo
                key = id(legal)
                hit = memo.get(key)
                if hit is not None and hit[0] is legal:
                    data = hit[1]
                else:
                    data = self.mask_bits(legal).to_bytes(self.mask_bytes, "little")
                    if len(memo) >= _MEMO_MAX:
                        memo.clear()
                    memo[key] = (legal, data)
            else:
                data = self.mask_bits(legal).to_bytes(self.mask_bytes, "little")
            masks[row] = data
        else:
            masks[row] = self._no_mask

    def _catch_up(self, j: int, me: int, log: LogCell | None) -> None:
        """Add the moves made since the last call for observer ``j`` to its ``laid``
        masks (one per seat relative to the observer, as
        :func:`mattis.core.layout.laid_bits` lays them out from an observation's
        history), read from the state's move log back to the cell seen last; a log
        that does not reach it (a new game) starts afresh."""
        stop = self._last[j]
        new: list[LogCell] = []
        cell = log
        while cell is not None and cell is not stop:
            new.append(cell)
            cell = cell[0]
        n = self.players
        laid = self._laid
        if cell is None and stop is not None:
            for r in range(n):
                laid[j * n + r] = 0
            self._laid_any[j] = 0
        every = self._laid_any[j]
        for k in range(len(new) - 1, -1, -1):
            c = new[k]
            mv: Move = c[2]
            if mv.kind is not _PICKUP:
                shown: tuple[int, ...] = c[3]
                m = 0
                for card in shown:
                    m |= 1 << card
                s: int = c[1]
                at = j * n + (s - me) % n
                cur: int = laid[at]
                laid[at] = cur | m
                every |= m
        self._laid_any[j] = every
        self._last[j] = log


WORD: Final = 56
LANES: Final = 2
"""Counts per word of ``flags``."""
LANE_BITS: Final = 28
"""Bits per count in a word of ``flags``."""
LANE_MAX: Final = (1 << LANE_BITS) - 1
"""The most a count lane holds (a larger count is stored as this: no count reaches it
while ``phase2_cap`` stays below it, which :class:`mattis.rl.batched.BatchedGames`
checks)."""
"""Bits of the tensor per entry of ``flags`` (seven bytes: a NumPy view of the entries
as little-endian 64-bit integers drops the eighth)."""


class _Row:
    """Writes the bits of one game's tensor into its words (``WORD`` bits each) of a
    list, given in ascending positions: each word is kept in a native field while its
    bits come and stored once (a list item costs a boxed int each time it is set)."""

    def __init__(self) -> None:
        self.words: list[int] = []
        self.w0 = 0
        """Where the row's words start in ``words``."""
        self.nw = 0
        """The row's words."""
        self.cw = 0
        """The word being filled (relative to ``w0``)."""
        self.acc = 0
        """Its bits so far."""
        self.nxt = 0
        """The bits already put into the word after it."""

    def start(self, words: list[int], w0: int, nw: int) -> None:
        self.words = words
        self.w0 = w0
        self.nw = nw
        self.cw = 0
        self.acc = 0
        self.nxt = 0

    def put(self, pos: int, v: int) -> None:
        """Or the mask ``v`` (at most 52 bits) into bits ``pos``, ``pos + 1``, ... of the
        row; ``pos`` must not lie in a word before the one being filled."""
        if not v:
            return
        w = pos // WORD
        if w != self.cw:
            self._advance(w)
        sh = pos - w * WORD
        room = WORD - sh
        self.acc |= (v & ((1 << room) - 1)) << sh
        self.nxt |= v >> room

    def finish(self) -> None:
        """Store the word being filled and zero the rest of the row."""
        self._advance(self.nw)

    def _advance(self, w: int) -> None:
        cw = self.cw
        if w < cw:
            raise ValueError("the tensor's blocks must be put in ascending positions")
        words = self.words
        base = self.w0
        _store(words, base + cw, self.acc)
        k = cw + 1
        if k < w:
            _store(words, base + k, self.nxt)
            k += 1
            while k < w:
                _store(words, base + k, 0)
                k += 1
            self.acc = 0
        else:
            self.acc = self.nxt
        self.nxt = 0
        self.cw = w


class _Lanes:
    """Writes counts two to a word (:data:`LANES` lanes of :data:`LANE_BITS` bits) into
    a list, from a given index on, each word stored once."""

    def __init__(self) -> None:
        self.words: list[int] = []
        self.at = 0
        """The index of the word being filled."""
        self.acc = 0
        self.lane = 0

    def start(self, words: list[int], at: int) -> None:
        self.words = words
        self.at = at
        self.acc = 0
        self.lane = 0

    def add(self, count: int) -> None:
        """The next count (a larger one than :data:`LANE_MAX` is stored as that)."""
        v = count if count < LANE_MAX else LANE_MAX
        if self.lane == 0:
            self.acc = v
            self.lane = 1
        else:
            _store(self.words, self.at, self.acc | v << LANE_BITS)
            self.at += 1
            self.lane = 0

    def finish(self) -> None:
        """Store a half-filled last word."""
        if self.lane:
            _store(self.words, self.at, self.acc)
            self.at += 1
            self.lane = 0


def _store(words: list[int], k: int, v: int) -> None:
    """``words[k] = v`` unless it holds ``v`` already (a stored int above 256 is a new
    object; most of a row's words are the same as at the last step)."""
    old: int = words[k]
    if old != v:
        words[k] = v


_MEMO_MAX: Final = 1 << 14
"""The most legal-move tuples :meth:`Batch.write_seat` keeps mask bytes for (then it
starts afresh)."""


def _popcount(m: int) -> int:
    """The number of set bits of ``m`` (below 2**56) by adding neighbouring bit
    counts: a few native operations (``int.bit_count`` is a slow method call in
    compiled code, a table a boxed list read per 16 bits)."""
    x = m - ((m >> 1) & 0x55555555555555)
    x = (x & 0x33333333333333) + ((x >> 2) & 0x33333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


def _rotate(seats: int, me: int, n: int) -> int:
    """A mask of absolute seats as seats relative to ``me`` (bit ``k``: the seat ``k``
    places to its left)."""
    return ((seats >> me) | (seats << (n - me))) & ((1 << n) - 1)


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def action_bits(moves: tuple[Move, ...] | list[Move], card_actions: list[int], seq_actions: dict[tuple[int, ...], int],
                chance_action: int, pickup_action: int) -> int:
    """The action numbers of ``moves`` as the bits of one integer (bit ``a`` for action
    ``a``): ``card_actions[c]`` is the action of laying card ``c``, ``seq_actions`` the
    action of each sequence (its cards in rank order).  Raises ``KeyError`` for a
    sequence without an action."""
    bits = 0
    for mv in moves:
        kind = mv.kind
        if kind is _PLAY:
            cs = mv.cards
            if len(cs) == 1:
                bits |= 1 << card_actions[cs[0]]
            else:
                bits |= 1 << seq_actions[cs]
        elif kind is _CHANCE:
            bits |= 1 << chance_action
        else:
            bits |= 1 << pickup_action
    return bits


def _below(draw: Callable[[int], int], n: int) -> int:
    """``rng.choice``'s draw of an index below ``n`` given ``rng.getrandbits``
    (``random.Random._randbelow``: the same calls of ``getrandbits``, so the same index
    as the ``random`` bot's choice)."""
    k = _BIT_LENGTH[n] if n < _SHORT else n.bit_length()
    r = draw(k)
    while r >= n:
        r = draw(k)
    return r


_SHORT: Final = 1024
_BIT_LENGTH: Final[list[int]] = [m.bit_length() for m in range(_SHORT)]
"""``m.bit_length()`` of the smaller ``m`` (a method call is slow in compiled code)."""


def _same_as_choice() -> bool:
    """Whether :func:`_below` draws what ``random.Random.choice`` draws on this Python
    (checked once at import; where it differs, ``choice`` itself is used)."""
    a = random.Random(12345)
    b = random.Random(12345)
    seq = list(range(100))
    for n in (1, 2, 3, 5, 7, 8, 13, 33, 64, 100):
        for _ in range(20):
            if a.choice(seq[:n]) != _below(b.getrandbits, n):
                return False
    return True


_SAME_AS_CHOICE: Final = _same_as_choice()


__all__ = ["COUNTS", "ILLEGAL", "LANE_BITS", "LANE_MAX", "LANES", "PLAYING", "TERMINATED", "TRUNCATED", "WAITING",
           "Batch", "action_bits", "count_scales"]
