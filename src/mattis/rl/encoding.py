"""The fixed action space and the observation tensor shared by the research interfaces.

Action layout (``ActionSpace(rules)``; size ``54`` without sequences):

* ``0 .. 51``: lay one card; the action number is the card's index (:func:`card_index`):
  the card code ``suit * 13 + rank`` by default (suit-major), or ``rank * 4 + suit``
  with ``card_order="rank_major"`` (as OpenSpiel's hearts, crazy_eights and bridge
  number cards).
* ``52 .. 52 + S - 1`` (only when ``rules.sequences >= 2``): lay a sequence (serie/rad),
  every same-suit run of ``rules.sequences`` or more cards, ordered by suit, then lowest
  rank, then length.  ``S = 4 * sum(14 - L for L in range(sequences, 14))`` (312 for
  sequences=2, 264 for sequences=3).
* ``52 + S``: ``chance`` (sjanse, lay the top stock card).
* ``53 + S``: ``pickup`` (take cards back from the phase 2 table).

The observation tensor (:func:`encode`) is built ONLY from one seat's
:class:`~mattis.core.Observation`.  Seats are relative: block ``k`` is the seat
``k`` places to the left of the observer (``k = 0`` is the observer).  Every 52-card
block is indexed by :func:`card_index` in the encoder's ``card_order``.  See
:data:`mattis.core.layout.BLOCKS` (the blocks as data), :data:`OBS_LAYOUT_DOC` and
:func:`layout` for the blocks and their sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..core import CHANCE, PHASE2, PICKUP, Move, MoveKind, Observation, Phase, Rules, play
from ..core.batch import action_bits
from ..core.cards import RANK_LETTERS, SUIT_LETTERS, card_code
from ..core.layout import BLOCKS, FLAG_BLOCKS, PER_SEAT, count_fractions, flag_bits, laid_bits, layout, layout_doc

OBS_LAYOUT_DOC = layout_doc()
"""The observation blocks as a table: name, size (``n`` seats), what each holds (from
the one declaration, :data:`mattis.core.layout.BLOCKS`)."""

CARD_ORDERS = ("suit_major", "rank_major")
"""How a 52-card block and the card actions are indexed: ``suit_major`` (the card code
``suit * 13 + rank``: C 0-12, D 13-25, H 26-38, S 39-51; rank 0 = two .. 12 = ace) or
``rank_major`` (``rank * 4 + suit``: 2C 2D 2H 2S 3C ..., OpenSpiel's card games' order)."""


def check_card_order(card_order: str) -> None:
    """Raise ``ValueError`` unless ``card_order`` is one of :data:`CARD_ORDERS`."""
    if card_order not in CARD_ORDERS:
        raise ValueError(f"card_order must be one of {', '.join(CARD_ORDERS)}, not {card_order!r}")


def card_index(card: int, card_order: str = "suit_major") -> int:
    """The index of a card (its code) in a 52-card block or among the card actions."""
    if card_order == "suit_major":
        return card
    return card % 13 * 4 + card // 13


def card_of_index(index: int, card_order: str = "suit_major") -> int:
    """The card (its code) at an index of :func:`card_index`."""
    if card_order == "suit_major":
        return index
    return index % 4 * 13 + index // 4


def _card_permutation(players: int, card_order: str) -> npt.NDArray[np.intp] | None:
    """For the tensor in ``card_order``: entry ``i`` is the suit-major entry it reads
    (``None`` for suit-major itself).  The card blocks are those the layout declares
    with 52 entries (a seat)."""
    if card_order == "suit_major":
        return None
    perm = np.arange(obs_size(players), dtype=np.intp)
    pos = 0
    for _name, size, shape, _what in BLOCKS:
        total = size * players if shape == PER_SEAT else size
        if size == 52:
            for base in range(pos, pos + total, 52):
                for c in range(52):
                    perm[base + card_index(c, card_order)] = base + c
        pos += total
    return perm


__all__ = [
    "CARD_ORDERS", "OBS_LAYOUT_DOC", "ActionSpace", "Encoder", "card_index", "card_label", "card_of_index",
    "check_card_order", "encode", "history_string", "layout", "obs_size",
    "obs_string", "offsets", "out_cards", "sequence_count",
]


def obs_size(players: int) -> int:
    """The length of the observation tensor."""
    return sum(size for _, size in layout(players))


def _offsets(players: int) -> dict[str, int]:
    out: dict[str, int] = {}
    pos = 0
    for name, size in layout(players):
        out[name] = pos
        pos += size
    return out


_OFFSET_CACHE: dict[int, dict[str, int]] = {}


def offsets(players: int) -> dict[str, int]:
    """Start index of each block (see :func:`layout`)."""
    o = _OFFSET_CACHE.get(players)
    if o is None:
        o = _OFFSET_CACHE[players] = _offsets(players)
    return o


def encode(obs: Observation, out: npt.NDArray[np.float32] | None = None,
           card_order: str = "suit_major") -> npt.NDArray[np.float32]:
    """The observation tensor of ``obs`` (float32 in [0, 1]); writes into ``out`` if given.

    Stateless: it reads the whole public history.  A front end that encodes one seat
    move after move uses an :class:`Encoder`, whose cost per call does not grow with
    the game's length; both give the same tensor."""
    return Encoder(obs.players, card_order).encode(obs, out)


_MASKS: dict[tuple[int, ...], int] = {}


def _mask(cards: tuple[int, ...]) -> int:
    """The bit mask of a tuple of cards, memoised (table entries and shown cards repeat,
    and hashing a short tuple is cheaper than a Python loop)."""
    m = _MASKS.get(cards)
    if m is None:
        m = 0
        for c in cards:
            m |= 1 << c
        if len(_MASKS) > 65536:
            _MASKS.clear()
        _MASKS[cards] = m
    return m


_BYTE_FLAGS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)
"""Row ``b``: the eight bits of byte ``b`` (lowest first) as float32 0/1."""
_BYTE_INT8 = _BYTE_FLAGS.astype(np.int8)
"""Row ``b``: the eight bits of byte ``b`` (lowest first) as int8 0/1."""


class Encoder:
    """The observation tensor of one seat, kept up move by move.

    The blocks read from the public history (``laid`` and ``out``) are updated from
    the history items added since the last call, so a call costs the same early and
    late in a game.  The history continues the one seen before when its item at the
    last position seen is the very object seen there (the engine's cached history
    keeps its items); anything else (a new game, an undo, another seat, a clone's
    rebuilt history) starts the encoder afresh, so one encoder may be handed any
    observation of ``players`` seats and the result always equals :func:`encode`.

    The 0/1 entries are gathered as one big integer by the core's
    :func:`mattis.core.layout.flag_bits` (compiled with the core: it shifts the
    observation's card masks to their blocks) plus the ``laid`` block kept here, and
    turned into float32 by one NumPy lookup of its bytes.
    """

    __slots__ = ("players", "card_order", "_o", "_size", "_nbytes", "_laid_bits", "_laid_any", "_seen", "_last",
                 "_seat", "_scalar_idx", "_at", "_p2_at", "_rep_at", "_perm")

    def __init__(self, players: int, card_order: str = "suit_major") -> None:
        check_card_order(card_order)
        n = players
        self.players = n
        self.card_order = card_order
        self._perm = _card_permutation(n, card_order)
        self._o = offsets(n)
        self._size = obs_size(n)
        self._nbytes = (self._size + 7) // 8
        self._laid_bits = 0
        """The ``laid`` block so far (relative to ``_seat``), as bits of the tensor."""
        self._laid_any = 0
        """Mask of every card laid (not picked up) so far."""
        self._seen = 0
        self._last: object = None
        self._seat = -1
        o = self._o
        #: per observer seat: where hand_counts and tricks_won of each absolute seat go, then the four counts
        self._scalar_idx = [np.array([o["hand_counts"] + (s - me) % n for s in range(n)]
                                     + [o["tricks_won"] + (s - me) % n for s in range(n)]
                                     + [o["stock"], o["set_aside"], o["table2_count"], o["trick_need"]], np.intp)
                            for me in range(n)]
        self._at = tuple(self._o[b] for b in FLAG_BLOCKS)
        self._p2_at = self._o["phase2_moves"]
        self._rep_at = self._o["repetitions"]

    def reset(self) -> None:
        """Forget the history seen so far."""
        self._laid_bits = 0
        self._laid_any = 0
        self._seen = 0
        self._last = None

    def _catch_up(self, obs: Observation) -> None:
        hist = obs.history
        k = self._seen
        if obs.seat != self._seat or len(hist) < k or (k and hist[k - 1] is not self._last):
            self.reset()
            self._seat = obs.seat
            k = 0
        if k == len(hist):
            return
        self._laid_bits, self._laid_any = laid_bits(obs, k, self._o["laid"], self._laid_bits, self._laid_any)
        self._seen = len(hist)
        self._last = hist[-1]

    def encode(self, obs: Observation, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The tensor of ``obs`` (a new array, or written into ``out``)."""
        n = self.players
        if obs.players != n:
            raise ValueError(f"this encoder is for {n} players, not {obs.players}")
        self._catch_up(obs)
        bits = self._laid_bits | flag_bits(obs, self._at, self._laid_any)
        flags = _BYTE_FLAGS.take(np.frombuffer(bits.to_bytes(self._nbytes, "little"), np.uint8), axis=0)
        size = self._size
        if out is None:
            t = flags.reshape(-1)[:size]
        else:
            t = out
            t[...] = flags.reshape(-1)[:size]
        t[self._scalar_idx[obs.seat]] = count_fractions(obs)
        t[self._p2_at] = min(obs.phase2_moves / obs.rules.phase2_cap, 1.0)
        t[self._rep_at] = min(obs.repetitions / 3.0, 1.0)
        if self._perm is not None:
            t[...] = t[self._perm]
        return t


def out_cards(obs: Observation, laid: set[int] | None = None, on_table: set[int] | None = None) -> list[int]:
    """Phase 2: the cards out of play, from public events only.

    Every card laid in the game is now on the table, out, or back in a hand, where
    it is publicly known (piles join their owners' hands openly, pickups are seen).
    """
    if obs.phase is Phase.COLLECT:
        return []
    if laid is None:
        laid = {c for _, mv, shown in obs.history if mv.kind is not MoveKind.PICKUP for c in shown}
    if on_table is None:
        on_table = {c for _, e in obs.table2 for c in e}
    known = {c for k in obs.known for c in k}
    return sorted(laid - on_table - known)


@dataclass(frozen=True)
class ActionSpace:
    """The fixed action numbering of one rule set (see the module docstring)."""

    rules: Rules
    card_order: str = "suit_major"

    def __post_init__(self) -> None:
        check_card_order(self.card_order)
        order = self.card_order
        seqs: list[tuple[int, ...]] = []
        m = self.rules.sequences
        if m >= 2:
            for suit in range(4):
                for lo in range(13):
                    for length in range(m, 14 - lo):
                        seqs.append(tuple(suit * 13 + lo + k for k in range(length)))
        object.__setattr__(self, "_seqs", tuple(seqs))
        object.__setattr__(self, "_seq_index", {cards: 52 + i for i, cards in enumerate(seqs)})
        moves: list[Move] = ([play(card_of_index(i, order)) for i in range(52)] + [play(*cards) for cards in seqs]
                             + [CHANCE, PICKUP])
        object.__setattr__(self, "_moves", tuple(moves))
        object.__setattr__(self, "_size", len(moves))
        #: the action of each shared move object, by identity (the core's moves are shared)
        object.__setattr__(self, "_by_id", {id(mv): (mv, a) for a, mv in enumerate(moves)})
        object.__setattr__(self, "_card_actions", [card_index(c, order) for c in range(52)])
        #: recent masks and sorted action lists by the moves' action bits (by content)
        object.__setattr__(self, "_masks", {})
        object.__setattr__(self, "_sorted", {})

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[Rules, str]]:
        """Pickle by the rules and the card order (the memo tables are rebuilt)."""
        return (ActionSpace, (self.rules, self.card_order))

    @property
    def size(self) -> int:
        """Number of distinct actions."""
        size: int = self._size  # type: ignore[attr-defined]
        return size

    @property
    def chance_action(self) -> int:
        return self.size - 2

    @property
    def pickup_action(self) -> int:
        return self.size - 1

    def move(self, action: int) -> Move:
        """The move of an action number (raises ``IndexError`` outside the space)."""
        if not 0 <= action < self.size:
            raise IndexError(f"action {action} is outside 0..{self.size - 1}")
        mv: Move = self._moves[action]  # type: ignore[attr-defined]
        return mv

    def action(self, move: Move) -> int:
        """The action number of a move."""
        if move.kind is MoveKind.CHANCE:
            return self.chance_action
        if move.kind is MoveKind.PICKUP:
            return self.pickup_action
        if len(move.cards) == 1:
            return card_index(move.cards[0], self.card_order)
        a: int | None = self._seq_index.get(tuple(move.cards))  # type: ignore[attr-defined]
        if a is None:
            raise ValueError(f"{move} is not in the action space of these rules")
        return a

    def actions(self, moves: Sequence[Move]) -> list[int]:
        """The action numbers of some moves, in the same order."""
        by_id: dict[int, tuple[Move, int]] = self._by_id  # type: ignore[attr-defined]
        out: list[int] = []
        for mv in moves:
            hit = by_id.get(id(mv))
            out.append(hit[1] if hit is not None and hit[0] is mv else self.action(mv))
        return out

    def bits(self, moves: Sequence[Move]) -> int:
        """The action numbers of ``moves`` as the bits of one integer (bit ``a`` for
        action ``a``; compiled with the core: :func:`mattis.core.batch.action_bits`)."""
        seq = moves if isinstance(moves, (tuple, list)) else tuple(moves)
        try:
            return action_bits(seq, self._card_actions, self._seq_index,  # type: ignore[attr-defined]
                               self._size - 2, self._size - 1)  # type: ignore[attr-defined]
        except KeyError:
            for mv in seq:
                self.action(mv)  # names the move outside the space
            raise

    def legal_actions(self, moves: Sequence[Move]) -> list[int]:
        """The action numbers of ``moves`` in increasing order (a new list each call;
        memoised by content: by :meth:`bits`)."""
        memo: dict[int, list[int]] = self._sorted  # type: ignore[attr-defined]
        b = self.bits(moves)
        acts = memo.get(b)
        if acts is None:
            acts = []
            rest = b
            while rest:
                low = rest & -rest
                acts.append(low.bit_length() - 1)
                rest ^= low
            if len(memo) >= 4096:
                memo.clear()
            memo[b] = acts
        return acts[:]

    def mask(self, moves: Sequence[Move]) -> npt.NDArray[np.int8]:
        """An int8 mask with 1 at each of ``moves`` (a new array each call).

        Made from the moves' action bits (:meth:`bits`) and memoised by them (by
        content: the same legal moves give the same mask, whatever tuple holds them),
        so a repeated set of moves costs one array copy."""
        memo: dict[int, npt.NDArray[np.int8]] = self._masks  # type: ignore[attr-defined]
        b = self.bits(moves)
        m = memo.get(b)
        if m is None:
            size: int = self._size  # type: ignore[attr-defined]
            m = _BYTE_INT8.take(np.frombuffer(b.to_bytes((size + 7) // 8, "little"), np.uint8),
                                axis=0).reshape(-1)[:size]
            if len(memo) >= 4096:
                memo.clear()
            memo[b] = m
        return m.copy()

    def describe(self, action: int) -> str:
        """The action as text (``play 4C``, ``play 5H 6H 7H``, ``chance``, ``pickup``)."""
        return str(self.move(action))


def sequence_count(min_len: int) -> int:
    """How many sequence actions a rule set with ``sequences=min_len`` has."""
    if min_len < 2:
        return 0
    return 4 * sum(14 - length for length in range(min_len, 14))


def card_label(card: int) -> str:
    """A card's code (for strings)."""
    return card_code(card)


def obs_string(obs: Observation) -> str:
    """A compact one-line text of what ``obs.seat`` knows now (the observation string)."""
    def cs(cards: Sequence[int]) -> str:
        return "".join(card_code(c) for c in sorted(cards)) or "-"

    parts = [f"p{obs.seat}", f"ph{obs.phase}", f"act{obs.to_act if obs.to_act is not None else '-'}",
             f"hand:{cs(obs.hand)}", "counts:" + ",".join(map(str, obs.hand_counts)),
             f"stock:{obs.stock_count}", f"aside:{obs.set_aside_count}",
             f"trump:{SUIT_LETTERS[obs.trump] if obs.trump is not None else '-'}",
             f"tcard:{card_code(obs.trump_card) if obs.trump_card is not None else '-'}",
             f"tholder:{obs.trump_holder if obs.trump_holder is not None else '-'}",
             f"lead:{obs.trick_leader if obs.trick_leader is not None else '-'}",
             "known:" + "/".join(cs(k) for k in obs.known),
             "piles:" + "/".join(cs(p) for p in obs.piles),
             "won:" + ",".join(map(str, obs.tricks_won)),
             "t1:" + ",".join(f"{s}{card_code(c)}" for s, c in obs.table1),
             "fight:" + ",".join(map(str, obs.fighters)),
             "t2:" + ",".join(f"{s}{cs(e)}" for s, e in obs.table2),
             f"need:{obs.trick_need}",
             "out:" + cs(out_cards(obs)),
             "in:" + ",".join(map(str, sorted(obs.still_in))),
             "fin:" + ",".join(map(str, obs.finished)),
             "lost:" + ",".join(map(str, obs.losers)),
             "last:" + (cs(obs.last_trick[1]) if obs.last_trick else "-")]
    return " ".join(parts)


def history_string(obs: Observation) -> str:
    """The public history as text: ``<seat>:<move>[=<shown cards>]`` separated by ``;``."""
    items = []
    for s, mv, shown in obs.history:
        if mv.kind is MoveKind.PLAY:
            items.append(f"{s}:" + "".join(card_code(c) for c in mv.cards))
        else:
            items.append(f"{s}:{mv.kind.value[0]}=" + "".join(card_code(c) for c in shown))
    return ";".join(items)


__all__ = ["CARD_ORDERS", "ActionSpace", "Encoder", "OBS_LAYOUT_DOC", "PHASE2", "RANK_LETTERS", "card_index",
           "card_of_index", "check_card_order", "encode", "history_string", "layout", "obs_size", "obs_string",
           "offsets", "out_cards", "sequence_count"]
