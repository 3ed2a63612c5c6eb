"""Many games stepped together by action ids, with their tensors written into flat
byte buffers: the compiled half of the batched research environment.

:class:`Batch` holds ``games`` states, one learner seat in each.  :meth:`Batch.step`
applies one action id per game (one legality check: the action's shared move among
the legal moves, by identity first), then plays the opponents this module can play
itself (uniformly random legal moves from a ``random.Random`` per seat, the same draws
as the ``random`` bot makes from the same generator) until the learner is to act
again, an opponent played elsewhere is to act (a bot or a policy: :data:`WAITING`), or
the learner's fate is settled.  :meth:`Batch.write` then lays out each game's
observation tensor and legal-action mask for its learner in byte buffers that NumPy
views without copying (``mattis.rl.batched`` turns them into float32 and bool in one
vectorised step per batch):

* ``flags``: the tensor's 0/1 entries, ``flag_bytes`` bytes a game, bit ``j`` of the
  little-endian bytes is entry ``j`` (the same bits as the single encoder's,
  :func:`mattis.core.layout.flag_bits` and :func:`~mattis.core.layout.laid_bits`);
* ``counts``: the tensor's counts as unsigned 32-bit little-endian integers, in the
  order of :data:`COUNTS` (seats relative to the observer), to be divided by their
  scales (:func:`count_scales`);
* ``masks``: the legal actions, ``mask_bytes`` bytes a game, bit ``a`` for action ``a``.

The core has no NumPy; nothing here reads the truth into a tensor: the tensor is built
from the learner's :class:`~mattis.core.observation.Observation` only.
"""

from __future__ import annotations

import random
from typing import Final

from .layout import flag_bits
from .moves import Move, MoveKind
from .observation import Observation, observe
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
        self.count_bytes = 4 * (2 * players + 6)
        self.zero_sum = zero_sum
        self.states: list[State | None] = [None] * games
        self.seats: list[int] = [0] * games
        self.randoms: list[list[random.Random | None]] = [[None] * players for _ in range(games)]
        self.status: list[int] = [WAITING] * games
        self.rewards: list[float] = [0.0] * games
        self.decisions = 0
        """Moves made by every seat (learners and opponents) so far."""
        k = games * players
        self._laid: list[int] = [0] * k
        self._laid_any: list[int] = [0] * k
        self._last: list[LogCell | None] = [None] * k
        """The state's move log cell each observer's ``laid`` bits were last brought up to."""
        self.flags = bytearray(games * flag_bytes)
        self.counts = bytearray(games * self.count_bytes)
        self.masks = bytearray(games * mask_bytes)

    # ------------------------------------------------------------------ games
    def start(self, i: int, state: State, seat: int, randoms: list[random.Random | None]) -> None:
        """Game ``i`` is now ``state`` with the learner in ``seat``; ``randoms[s]`` plays
        seat ``s`` with uniformly random legal moves (``None``: the learner's seat, or an
        opponent played elsewhere).  Plays the opponents up to the learner's turn."""
        n = self.players
        self.states[i] = state
        self.seats[i] = seat
        self.randoms[i] = list(randoms)
        for s in range(n):
            j = i * n + s
            self._laid[j] = 0
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

    def step(self, actions: list[int]) -> None:
        """One action id per game whose learner is to act (the others are left as they
        are): apply it, or end the episode (:data:`ILLEGAL`, reward -1) if it is not
        legal, then play on (:meth:`advance`)."""
        moves = self.moves
        count = len(moves)
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
                    st.force(mv)
                    self.decisions += 1
            if not ok:
                self.status[i] = ILLEGAL
                self.rewards[i] = -1.0
                continue
            self._settle(i, st, True)

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
        while True:
            to = st.to_act
            if to is None or to == seat:
                break
            rng = rngs[to]
            if rng is None:
                self.status[i] = WAITING
                return
            legal = st.legal_moves()
            st.force(legal[_below(rng, len(legal))] if _SAME_AS_CHOICE else rng.choice(legal))
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

    def to_act(self, i: int) -> int:
        """The seat to act in game ``i`` (-1 when it is over)."""
        to = self.state(i).to_act
        return -1 if to is None else to

    # ---------------------------------------------------------------- tensors
    def mask_bits(self, legal: tuple[Move, ...]) -> int:
        """The legal actions as bits (bit ``a`` for action ``a``)."""
        return action_bits(legal, self.card_actions, self.seq_actions, self.chance_action, self.pickup_action)

    def write(self, i: int) -> None:
        """Lay out game ``i``'s learner's tensor and mask in row ``i`` of ``flags``,
        ``counts`` and ``masks`` (the mask is empty once its episode has ended)."""
        self.write_seat(i, self.seats[i], i, self.flags, self.counts, self.masks, self.status[i] == PLAYING)

    def write_all(self) -> None:
        """:meth:`write` for every game."""
        for i in range(self.games):
            self.write_seat(i, self.seats[i], i, self.flags, self.counts, self.masks, self.status[i] == PLAYING)

    def write_seat(self, i: int, seat: int, row: int, flags: bytearray, counts: bytearray, masks: bytearray,
                   with_mask: bool) -> None:
        """Lay out what ``seat`` sees of game ``i`` in row ``row`` of the given buffers
        (its legal actions too when ``with_mask``, else an empty mask)."""
        st = self.state(i)
        obs = observe(st, seat, False)
        j = i * self.players + seat
        log = st.log
        if log is not self._last[j]:
            self._catch_up(j, seat, log)
        bits = self._laid[j] | flag_bits(obs, self.flag_at, self._laid_any[j])
        nb = self.flag_bytes
        flags[row * nb:(row + 1) * nb] = bits.to_bytes(nb, "little")
        self._write_counts(obs, row, counts)
        mb = self.mask_bytes
        m = self.mask_bits(obs._legal) if with_mask else 0
        masks[row * mb:(row + 1) * mb] = m.to_bytes(mb, "little")

    def _catch_up(self, j: int, me: int, log: LogCell | None) -> None:
        """Add the moves made since the last call for observer ``j`` to its ``laid``
        bits (as :func:`mattis.core.layout.laid_bits` does from an observation's
        history), read from the state's move log back to the cell seen last; a log
        that does not reach it (a new game) starts afresh."""
        stop = self._last[j]
        new: list[LogCell] = []
        cell = log
        while cell is not None and cell is not stop:
            new.append(cell)
            cell = cell[0]
        bits = self._laid[j]
        laid = self._laid_any[j]
        if cell is None and stop is not None:
            bits = 0
            laid = 0
        n = self.players
        at = self.laid_at
        for k in range(len(new) - 1, -1, -1):
            c = new[k]
            mv: Move = c[2]
            if mv.kind is not _PICKUP:
                shown: tuple[int, ...] = c[3]
                m = 0
                for card in shown:
                    m |= 1 << card
                s: int = c[1]
                bits |= m << (at + (s - me) % n * 52)
                laid |= m
        self._laid[j] = bits
        self._laid_any[j] = laid
        self._last[j] = log

    def _write_counts(self, obs: Observation, row: int, counts: bytearray) -> None:
        n = self.players
        me = obs._seat
        hc = obs._hand_counts
        tw = obs._tricks_won
        v = 0
        shift = 0
        for r in range(n):
            v |= hc[(me + r) % n] << shift
            shift += 32
        for r in range(n):
            v |= tw[(me + r) % n] << shift
            shift += 32
        v |= (obs._stock_count << shift | obs._set_aside_count << (shift + 32) | len(obs._table2) << (shift + 64)
              | obs._trick_need << (shift + 96) | obs._phase2_moves << (shift + 128)
              | obs._repetitions << (shift + 160))
        cb = self.count_bytes
        counts[row * cb:(row + 1) * cb] = v.to_bytes(cb, "little")


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


def _below(rng: random.Random, n: int) -> int:
    """``rng.choice``'s draw of an index below ``n`` (``random.Random._randbelow``: the
    same calls of ``getrandbits``, so the same index as the ``random`` bot's choice)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _same_as_choice() -> bool:
    """Whether :func:`_below` draws what ``random.Random.choice`` draws on this Python
    (checked once at import; where it differs, ``choice`` itself is used)."""
    a = random.Random(12345)
    b = random.Random(12345)
    seq = list(range(100))
    for n in (1, 2, 3, 5, 7, 8, 13, 33, 64, 100):
        for _ in range(20):
            if a.choice(seq[:n]) != _below(b, n):
                return False
    return True


_SAME_AS_CHOICE: Final = _same_as_choice()


__all__ = ["COUNTS", "ILLEGAL", "PLAYING", "TERMINATED", "TRUNCATED", "WAITING", "Batch", "action_bits",
           "count_scales"]
