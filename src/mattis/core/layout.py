"""The observation tensor's layout, as data, and the core's fast parts of its encoder.

:data:`BLOCKS` declares every block of the tensor the research interfaces build
from one seat's :class:`~mattis.core.observation.Observation` (``mattis.rl.encoding``):
its name, its size, its shape (one block, or one block per seat relative to the
observer: block ``k`` is the seat ``k`` places to the left, ``k = 0`` the observer)
and what it holds.  :func:`layout` turns it into (name, size) for a table size.

:func:`flag_bits`, :func:`laid_bits` and :func:`count_fractions` read an observation
into the 0/1 and count blocks; they are compiled with the core (see ``mattis/_build.py``).
"""

from __future__ import annotations

from typing import Final

from .cards import Card
from .moves import MoveKind
from .observation import PHASE1, Observation

ONE: Final = "one"
"""A block's shape: one block of its size."""
PER_SEAT: Final = "per_seat"
"""A block's shape: one block of its size per seat, relative to the observer."""

BLOCKS: Final[tuple[tuple[str, int, str, str], ...]] = (
    ("phase", 3, ONE, "one-hot: phase 1, phase 2, over"),
    ("to_act", 1, PER_SEAT, "one-hot relative seat to act (all zero when over)"),
    ("hand", 52, ONE, "the observer's hand"),
    ("hand_counts", 1, PER_SEAT, "cards held by each relative seat / 52"),
    ("known", 52, PER_SEAT, "cards publicly known to be in each relative seat's hand"),
    ("piles", 52, PER_SEAT, "phase 1: cards each relative seat has won (face up)"),
    ("tricks_won", 1, PER_SEAT, "tricks won / 26"),
    ("stock", 1, ONE, "stock cards / 52"),
    ("set_aside", 1, ONE, "cards set aside unseen (two players) / 52"),
    ("trump", 4, ONE, "trump suit one-hot (zero until shown)"),
    ("trump_card", 52, ONE, "the trump card once shown"),
    ("trump_holder", 1, PER_SEAT, "relative seat holding the trump card, once known"),
    ("trick_leader", 1, PER_SEAT, "phase 1: relative seat leading the trick"),
    ("table1", 52, PER_SEAT, "phase 1: the cards each relative seat has laid to this trick"),
    ("fighters", 1, PER_SEAT, "phase 1: relative seats in a running krig/støting"),
    ("table2", 52, PER_SEAT, "phase 2: the cards each relative seat has on the table"),
    ("table2_top", 52, ONE, "phase 2: the top entry (the one to beat)"),
    ("table2_first", 52, ONE, "phase 2: the first (oldest) entry"),
    ("table2_count", 1, ONE, "phase 2: entries on the table / n"),
    ("trick_need", 1, ONE, "phase 2: entries that complete the trick / n"),
    ("out", 52, ONE, "phase 2: cards out of play (derived from public events)"),
    ("in_game", 1, PER_SEAT, "relative seats still in the game"),
    ("finished", 1, PER_SEAT, "relative seats that are out safely"),
    ("losers", 1, PER_SEAT, "relative seats that lost"),
    ("last_trick", 52, ONE, "the cards of the last completed trick"),
    ("laid", 52, PER_SEAT, "every card each relative seat has laid so far (public history)"),
    ("phase2_moves", 1, ONE, "phase 2 moves made / rules.phase2_cap (the game is stopped at 1)"),
    ("repetitions", 1, ONE, "times the present phase 2 position has occurred / 3 (a third ends the game)"),
)
"""The blocks of the observation tensor in order: (name, size, shape, what it holds);
a :data:`PER_SEAT` block's size is per seat."""


def layout(players: int) -> list[tuple[str, int]]:
    """The blocks (name, size) in order for ``players`` seats."""
    return [(name, size * players if shape == PER_SEAT else size) for name, size, shape, _ in BLOCKS]


def layout_doc() -> str:
    """:data:`BLOCKS` as a table (``n``: the number of seats)."""
    lines: list[str] = []
    for name, size, shape, what in BLOCKS:
        n = ("n" if size == 1 else f"n*{size}") if shape == PER_SEAT else str(size)
        lines.append(f"{name:<14}{n:<7}{what}")
    return "\n".join(lines) + "\n"


FLAG_BLOCKS: Final[tuple[str, ...]] = (
    "phase", "to_act", "hand", "known", "piles", "trump", "trump_card", "trump_holder", "trick_leader", "table1",
    "fighters", "table2", "table2_top", "table2_first", "out", "in_game", "finished", "losers", "last_trick",
)
"""The blocks of 0/1 facts :func:`flag_bits` lays out (names of :data:`BLOCKS`), in the order of its ``at``."""

_PICKUP: Final = MoveKind.PICKUP
_PHASE_AT: Final = 0
_TO_ACT_AT: Final = 1
_HAND_AT: Final = 2
_KNOWN_AT: Final = 3
_PILES_AT: Final = 4
_TRUMP_AT: Final = 5
_TRUMP_CARD_AT: Final = 6
_HOLDER_AT: Final = 7
_LEADER_AT: Final = 8
_TABLE1_AT: Final = 9
_FIGHTERS_AT: Final = 10
_TABLE2_AT: Final = 11
_TOP_AT: Final = 12
_FIRST_AT: Final = 13
_OUT_AT: Final = 14
_IN_GAME_AT: Final = 15
_FINISHED_AT: Final = 16
_LOSERS_AT: Final = 17
_LAST_AT: Final = 18


def _mask_of(cards: tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _seat_flags(seats: tuple[int, ...], at: int, me: int, n: int) -> int:
    b = 0
    for s in seats:
        b |= 1 << (at + (s - me) % n)
    return b


def flag_bits(obs: Observation, at: tuple[int, ...], laid: int) -> int:
    """The 0/1 facts of ``obs`` as one integer, for a tensor encoder (it reads only
    what the observation holds).

    ``at[i]`` is the bit where block :data:`FLAG_BLOCKS` ``[i]`` starts.  Seats are
    relative to the observer (``k`` = the seat ``k`` places to its left); a block of
    cards per seat (``known``, ``piles``, ``table1``, ``table2``) is 52 bits a seat.
    ``phase``: one bit per phase (1, 2, over); ``to_act``, ``trump_holder``,
    ``trick_leader``, ``fighters``, ``in_game``, ``finished``, ``losers``: a bit per
    seat; ``hand``, ``trump_card``, ``table2_top`` (the entry to beat),
    ``table2_first``, ``last_trick``: 52 card bits; ``trump``: 4 suit bits.  ``out``
    (from phase 2 on): the cards of ``laid`` (the caller's mask of every card laid and
    not picked up, from the public history) that are neither on the table nor known to
    be in a hand.
    """
    n = obs._players
    me = obs._seat
    bits = obs._hand_mask << at[_HAND_AT] | 1 << (at[_PHASE_AT] + int(obs._phase) - 1)
    to_act = obs._to_act
    if to_act is not None:
        bits |= 1 << (at[_TO_ACT_AT] + (to_act - me) % n)
    known_all = 0
    base = at[_KNOWN_AT]
    for s, k in enumerate(obs._known_masks):
        if k:
            bits |= k << (base + (s - me) % n * 52)
            known_all |= k
    base = at[_PILES_AT]
    for s, p in enumerate(obs._pile_masks):
        if p:
            bits |= p << (base + (s - me) % n * 52)
    trump = obs._trump
    if trump is not None:
        bits |= 1 << (at[_TRUMP_AT] + trump)
    trump_card = obs._trump_card
    if trump_card is not None:
        bits |= 1 << (at[_TRUMP_CARD_AT] + trump_card)
    holder = obs._trump_holder
    if holder is not None:
        bits |= 1 << (at[_HOLDER_AT] + (holder - me) % n)
    leader = obs._trick_leader
    if leader is not None:
        bits |= 1 << (at[_LEADER_AT] + (leader - me) % n)
    base = at[_TABLE1_AT]
    for s, c in obs._table1:
        bits |= 1 << (base + (s - me) % n * 52 + c)
    if obs._fighters:
        bits |= _seat_flags(obs._fighters, at[_FIGHTERS_AT], me, n)
    table2 = obs._table2
    on_table = 0
    if table2:
        base = at[_TABLE2_AT]
        for s, entry in table2:
            m = _mask_of(entry)
            bits |= m << (base + (s - me) % n * 52)
            on_table |= m
        bits |= _mask_of(table2[-1][1]) << at[_TOP_AT] | _mask_of(table2[0][1]) << at[_FIRST_AT]
    if obs._phase is not PHASE1:
        bits |= (laid & ~on_table & ~known_all) << at[_OUT_AT]
    bits |= _seat_flags(obs._still_in, at[_IN_GAME_AT], me, n)
    if obs._finished:
        bits |= _seat_flags(obs._finished, at[_FINISHED_AT], me, n)
    if obs._losers:
        bits |= _seat_flags(obs._losers, at[_LOSERS_AT], me, n)
    last = obs._last_trick
    if last is not None:
        bits |= _mask_of(last[1]) << at[_LAST_AT]
    return bits


def count_fractions(obs: Observation) -> tuple[float, ...]:
    """The observation's counts as fractions of their largest values, for a tensor
    encoder: each seat's hand count / 52 (absolute seat order), each seat's tricks won
    / 26, then the stock / 52, the cards set aside / 52, the phase 2 table's entries /
    players and the entries that complete its trick / players."""
    n = obs._players
    out: list[float] = [c / 52.0 for c in obs._hand_counts]
    for w in obs._tricks_won:
        out.append(w / 26.0)
    out.append(obs._stock_count / 52.0)
    out.append(obs._set_aside_count / 52.0)
    out.append(len(obs._table2) / n)
    out.append(obs._trick_need / n)
    return tuple(out)


def laid_bits(obs: Observation, start: int, at: int, bits: int, laid: int) -> tuple[int, int]:
    """``bits`` and ``laid`` with the history items of ``obs`` from index ``start`` on
    added, for a tensor encoder that keeps them move by move: each card shown by a
    move other than a pickup at bit ``at + 52 * k + card`` (``k``: the seat that laid
    it, relative to the observer) in ``bits``, and in the card mask ``laid``."""
    n = obs._players
    me = obs._seat
    hist = obs._history
    for i in range(start, len(hist)):
        s, mv, shown = hist[i]
        if mv.kind is not _PICKUP:
            m = 0
            for c in shown:
                m |= 1 << c
            bits |= m << (at + (s - me) % n * 52)
            laid |= m
    return bits, laid
