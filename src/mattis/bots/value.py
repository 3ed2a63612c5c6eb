"""A learned value model: from one seat's observation, each seat's chance of being the loser.

The model reads only a seat's :class:`~mattis.core.Observation` (and its rules, by
choosing the model trained on the nearest preset) and returns one probability per
seat, summing to 1: the chance that seat ends the game as the loser (the Mattis; when
a game has several losers, a Blodmattis and the Mattis, each counts one share).  A
seat that is out safely gets 0, and a finished game its actual losers.

**Features** (:func:`features`).  A compact set of its own, in the core's terms, not
the research tensor of ``mattis.rl.encoding`` (that one lives above the bots and has
1,000+ mostly empty inputs for three players).  The game is decided by suits (in
phase 2 an entry is beaten by a higher card of its suit or by a trump), so the inputs
keep them: the suits are put in the model's order (:func:`suit_order`: the trump
first, then the plain suits, which play alike and which training renames at random,
:func:`plain_suit_columns`).  One row per seat, relative to the observer (row ``k`` is
the seat ``k`` places to its left):

* the seat's cards as far as the observer knows them (its own hand; for the others
  the cards publicly known to be in their hands, which in phase 2 is most of them),
  card by card (52 inputs) and per suit (how many, the highest and lowest rank), and
  how many of its cards are unknown;
* phase 1: the cards it has won (its pile, face up: the hand it will shed in phase 2)
  by rank (non-trumps and trumps) and per suit, its tricks won, the card it has laid
  to this trick, whether it leads the trick, fights a krig/støting, holds the trump card;
* phase 2: how it stands against the entry to beat (its known higher cards of the
  entry's suit, its lower ones, the trumps it may answer with under the rules'
  ``follow``, whether it can answer at all), its cards on the table, whether it owns
  the entry to beat;
* its masters: per suit, its known cards above every card of that suit known to be in
  another hand still in the game (in phase 2, where every hand is known, the cards no
  one can top);
* its duels (:data:`_DUELS`): its phase 2 hand as far as the observer knows it (in
  phase 1 its pile and its known cards, the hand it will shed) against the other seats
  still in, card by card, as the core's ``answer_mask`` says who may answer what: its
  cards no other seat can answer, those the next seat cannot answer, those every other
  seat can answer, the cards of the seat before it that it cannot answer; its hand
  against the smallest other hand (the shedding race), the seats still in;
* whether it is to act, in the game, out, a loser; its hand count / 52;
* its place relative to the observer and to the seat to act (one-hot, up to
  :data:`MAX_SEATS`), the mean of the other seats' rows, and the global facts (phase,
  stock, cards set aside, out of play, the trump shown, the table's entries and the
  entry to beat with its suit, the observer's cards per suit, the number of players).

**The network** (:class:`ValueModel`).  The same small network scores every seat
(two ReLU layers, one output; their sizes are read from the weights), and a softmax over the seats still in
the game turns the scores into the loser distribution, so one model serves every
table size up to :data:`MAX_SEATS`.  It is trained with NumPy
(:mod:`mattis.lab.train`) on self-play games and inferred here with NumPy; the
weights ship with the package (``bots/value_weights.npz``, one model per preset).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from ..core import PRESETS, RANK, SUIT, Observation, Rules, preset
from ..core.legal import answer_mask, next_seat_in
from ..core.observation import PHASE1, PHASE2

if TYPE_CHECKING:  # NumPy is optional at run time: the learned bot falls back without it
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.float32]
    Mask = npt.NDArray[np.bool_]
else:
    Array = Any
    Mask = Any

__all__ = [
    "BEAT_AT", "CALIBRATION", "DUELS_AT", "FEATURES", "LUCK_SKILL", "MASTERS_AT", "MAX_SEATS", "SEAT_FEATURES",
    "ValueModel", "feature_rows", "features", "has_numpy", "load_models", "luck_calibration", "luck_informative",
    "model_for", "nearest_preset", "numpy_or_none",
    "plain_suit_columns", "suit_order",
]

log = logging.getLogger(__name__)

CALIBRATION = 0.057
"""The model's measured calibration error at phase 2's start, the review's luck
(:func:`mattis.lab.review.phase2_luck`): the root mean square, over every seat of
held-out games, of the gap between the model's chance and the share that got away, in
bands of a fifth of the chance (:func:`mattis.lab.arena.calibration_error`, defined as
the playouts' :data:`mattis.bots.evaluate.CALIBRATION`); pooled over the presets,
``python benchmarks/luck_calibration.py --games 300 --seed 9700`` (docs/analyze.md).
The luck's ± as shown carries it (:func:`mattis.bots.evaluate.shown_margin`)."""

LUCK_SKILL: Final[dict[tuple[str, int], tuple[float, float]]] = {
    ("mattis", 2): (0.39, 0.101),
    ("hund", 2): (0.37, 0.108),
    ("skitgubbe", 2): (0.56, 0.044),
    ("mattis", 3): (0.07, 0.042),
    ("skitgubbe", 3): (0.12, 0.071),
}
"""Where the model's chance at phase 2's start (the review's luck) tells seats apart:
(preset, players) -> (its skill over the base rate, ``1 - Brier / Brier_base``, and its
calibration error there, the larger of two seeds'), on every seat of 300 held-out games
of ``medium`` bots a seed, kept only where the skill's 95% interval lay above zero on
both seeds (``python benchmarks/luck_calibration.py --rules ... --players ...
--seed 9702`` and ``--seed 9703``; Skitgubbe at three players seeds 9700 and 9701;
docs/analyze.md).  Every other table (house rules, five or six players, a table where
the skill was not above zero: Mattis, Hund, Blodmattis and Skitgubbe at four players,
Hund and Blodmattis at three) has its luck worked out but not shown
(:func:`luck_informative`)."""


def luck_informative(rules: Rules, players: int) -> bool:
    """Whether the model's luck at phase 2's start is shown for this table: a preset's
    own rules at a player count in :data:`LUCK_SKILL`."""
    return luck_calibration(rules, players) is not None


def luck_calibration(rules: Rules, players: int) -> float | None:
    """The model's measured calibration error at phase 2's start at this table (the
    luck's ± as shown is two times it), or None where the luck is not shown
    (:data:`LUCK_SKILL`)."""
    name = nearest_preset(rules)
    cell = LUCK_SKILL.get((name, players))
    return cell[1] if cell is not None and preset(name) == rules else None


MAX_SEATS = 6
"""The largest table a model serves (the rules allow at most six players)."""

_SEAT_SCALARS = 16
_SUIT_FACTS = 3
"""Per suit of a card set: how many (/ 13), the highest and the lowest rank ((rank + 1) / 13, 0 if none)."""
_BEAT = 5
_MASTERS = 5
"""Per suit and in all: the seat's known cards above every card of that suit known to
be in another hand still in the game (each / 13)."""
_DUELS = 8
"""How the seat's phase 2 hand (in phase 1: its pile and its known cards, the hand it
will shed) stands against the other seats still in, card by card, as the core's
:func:`~mattis.core.legal.answer_mask` says who may answer what: its cards no other
seat can answer, those the next seat cannot answer, those every other seat can
answer, the cards of the seat before it that it cannot answer (each / 13); its
hand against the smallest other hand still in (cards / 13, and whether it holds
more), the share of the other seats still in holding fewer cards, the seats still in
(/ :data:`MAX_SEATS`)."""
SEAT_FEATURES = 52 + 4 * _SUIT_FACTS + 26 + 4 * _SUIT_FACTS + _BEAT + _SEAT_SCALARS + _MASTERS + _DUELS
"""Per seat: known cards card by card (52, suits in the model's order) and per suit (12),
its pile by rank (26) and per suit (12), how it stands against the entry to beat (5),
the scalars, its masters per suit (5), its duels with the other seats (8)."""
BEAT_AT = 52 + 4 * _SUIT_FACTS + 26 + 4 * _SUIT_FACTS
"""Where a seat row's facts against the entry to beat begin: its higher cards of the
entry's suit, its lower ones, the trumps that may answer (each / 13), whether it can
answer, whether the entry is a trump."""
MASTERS_AT = BEAT_AT + _BEAT + _SEAT_SCALARS
"""Where a seat row's masters begin (per suit in the model's order, then in all)."""
DUELS_AT = MASTERS_AT + _MASTERS
"""Where a seat row's duels begin (see :data:`_DUELS`)."""
_GLOBAL = 3 + 8 + 4 + 3 + 1 + 4 + 4
FEATURES = SEAT_FEATURES * 2 + MAX_SEATS * 2 + _GLOBAL
"""The length of one seat's input row: its own features, the mean of the others',
its place relative to the observer and to the seat to act, and the global facts."""

WEIGHTS_FILE = "value_weights.npz"
"""The shipped weights, next to this module."""

_SUIT_BITS = 0x1FFF


def numpy_or_none() -> Any:
    """NumPy if it is installed, else ``None``."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - the bots extra installs it
        return None
    return numpy


def has_numpy() -> bool:
    """Whether the value model can run here."""
    return numpy_or_none() is not None


def suit_order(trump: int | None) -> tuple[int, int, int, int]:
    """The suits in the model's order: the trump first (once known), then the others in
    the deck's order.  Suits other than the trump play alike, so where a card lies in
    the input says "trump or not" and its rank, never which plain suit it is."""
    if trump is None or trump < 0:
        return (0, 1, 2, 3)
    rest = [s for s in range(4) if s != trump]
    return (trump, rest[0], rest[1], rest[2])


def _histogram(mask: int, trump: int, out: list[float], at: int) -> int:
    """Adds the cards of ``mask`` to ``out[at:at + 26]`` (13 non-trump ranks, 13 trump
    ranks, each a quarter); returns how many cards."""
    k = 0
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        out[at + RANK[c] + (13 if SUIT[c] == trump else 0)] += 0.25
        k += 1
    return k


def _suit_facts(bits: int, out: list[float], at: int) -> None:
    """How many cards the 13-bit rank pattern ``bits`` holds, its highest and lowest rank."""
    if bits:
        out[at] = bin(bits).count("1") / 13.0
        out[at + 1] = bits.bit_length() / 13.0
        out[at + 2] = (bits & -bits).bit_length() / 13.0


def _cards(mask: int, order: tuple[int, int, int, int], out: list[float], at: int, facts: int) -> int:
    """The cards of ``mask`` one by one in ``out[at:at + 52]`` (suits in ``order``) and
    per suit in ``out[facts:facts + 12]``; returns how many cards."""
    k = 0
    for slot, suit in enumerate(order):
        bits = mask >> (13 * suit) & _SUIT_BITS
        if not bits:
            continue
        k += bin(bits).count("1")
        _suit_facts(bits, out, facts + _SUIT_FACTS * slot)
        base = at + 13 * slot
        while bits:
            low = bits & -bits
            out[base + low.bit_length() - 1] = 1.0
            bits ^= low
    return k


def plain_suit_columns(order: Sequence[int]) -> list[int]:
    """The input columns with the three plain suits' places (1, 2, 3 in
    :func:`suit_order`) taken from places ``order`` instead: ``x[..., cols]`` is the
    input of the same position with the plain suits renamed (they play alike), which
    training uses to show the network every renaming of a position."""
    slots = [0, *order]
    seat = list(range(SEAT_FEATURES))
    for new, old in enumerate(slots):
        seat[13 * new:13 * new + 13] = range(13 * old, 13 * old + 13)
        for at in (52, 52 + 4 * _SUIT_FACTS + 26):
            seat[at + _SUIT_FACTS * new:at + _SUIT_FACTS * (new + 1)] = range(at + _SUIT_FACTS * old,
                                                                             at + _SUIT_FACTS * (old + 1))
        seat[MASTERS_AT + new] = MASTERS_AT + old
    g0 = 2 * SEAT_FEATURES + 2 * MAX_SEATS
    glob = list(range(g0, g0 + _GLOBAL))
    for at in (19, 23):
        for new, old in enumerate(slots):
            glob[at + new] = g0 + at + old
    return seat + [SEAT_FEATURES + c for c in seat] + list(range(2 * SEAT_FEATURES, g0)) + glob


def feature_rows(obs: Observation) -> list[list[float]]:
    """The per-seat feature rows of ``obs`` (pure Python), in relative seat order."""
    n = obs.players
    me = obs.seat
    trump = obs.trump if obs.trump is not None else -1
    order = suit_order(obs.trump)
    hand_counts = obs.hand_counts
    known = obs.known_masks
    piles = obs.pile_masks
    won = obs.tricks_won
    in_game = obs.still_in
    finished = set(obs.finished)
    losers = set(obs.losers)
    fighters = set(obs.fighters)
    laid1 = {s: c for s, c in obs.table1}
    on_table: dict[int, int] = {}
    for s, entry in obs.table2:
        on_table[s] = on_table.get(s, 0) + len(entry)
    top_owner = obs.table2[-1][0] if obs.table2 else -1
    top = obs.table2[-1][1] if obs.table2 else None
    void_follow = obs.rules.follow.value == "void"
    rows: list[list[float]] = []
    masks = [obs.hand_mask if (me + k) % n == me else known[(me + k) % n] for k in range(n)]
    live = [(me + k) % n in in_game for k in range(n)]
    future = [masks[k] | piles[(me + k) % n] for k in range(n)]
    sizes = [hand_counts[(me + k) % n] + bin(piles[(me + k) % n]).count("1") for k in range(n)]
    still_mask = 0
    for t in in_game:
        still_mask |= 1 << t
    for k in range(n):
        s = (me + k) % n
        row = [0.0] * SEAT_FEATURES
        mask = masks[k]
        seen = _cards(mask, order, row, 0, 52)
        at = 52 + 4 * _SUIT_FACTS
        _histogram(piles[s], trump, row, at)
        at += 26
        for slot, suit in enumerate(order):
            _suit_facts(piles[s] >> (13 * suit) & _SUIT_BITS, row, at + _SUIT_FACTS * slot)
        at = BEAT_AT
        if top is not None:
            # the entry to beat against what the seat is known to hold: higher cards of
            # its suit, the cards of that suit below it, trumps that may answer
            ts = SUIT[top[0]]
            above = RANK[top[-1]] + 1
            held = mask >> (13 * ts) & _SUIT_BITS
            higher = held >> above << above
            row[at] = bin(higher).count("1") / 13.0
            row[at + 1] = bin(held & ~higher).count("1") / 13.0
            if ts != trump and trump >= 0 and (not void_follow or not held):
                row[at + 2] = bin(mask >> (13 * trump) & _SUIT_BITS).count("1") / 13.0
            row[at + 3] = 1.0 if higher or row[at + 2] else 0.0
            row[at + 4] = 1.0 if ts == trump else 0.0
        at += _BEAT
        row[at] = hand_counts[s] / 52.0
        row[at + 1] = (hand_counts[s] - seen) / 52.0
        row[at + 2] = won[s] / 26.0
        row[at + 3] = 1.0 if obs.to_act == s else 0.0
        row[at + 4] = 1.0 if s in in_game else 0.0
        row[at + 5] = 1.0 if s in finished else 0.0
        row[at + 6] = 1.0 if s in losers else 0.0
        row[at + 7] = 1.0 if s in fighters else 0.0
        row[at + 8] = 1.0 if obs.trick_leader == s else 0.0
        row[at + 9] = 1.0 if obs.trump_holder == s else 0.0
        c = laid1.get(s)
        if c is not None:
            row[at + 10] = (RANK[c] + 1) / 13.0
            row[at + 11] = 1.0 if SUIT[c] == trump else 0.0
        row[at + 12] = on_table.get(s, 0) / 13.0
        row[at + 13] = 1.0 if top_owner == s else 0.0
        row[at + 14] = 1.0 if k == 0 else 0.0
        row[at + 15] = 1.0 if hand_counts[s] == 0 else 0.0
        at = MASTERS_AT
        others = 0
        for j in range(n):
            if j != k and live[j]:
                others |= masks[j]
        masters = 0
        for slot, suit in enumerate(order):
            held = mask >> (13 * suit) & _SUIT_BITS
            if held:
                highest = (others >> (13 * suit) & _SUIT_BITS).bit_length()
                m = bin(held >> highest).count("1")
                row[at + slot] = m / 13.0
                masters += m
        row[at + 4] = masters / 13.0
        _duels(k, future, live, n, sizes, me, still_mask, trump, obs.rules, row)
        rows.append(row)
    return rows


def _unanswered(mask: int, other: int, trump: int, rules: Rules) -> int:
    """How many cards of ``mask``, each laid alone, ``other`` holds no answer to."""
    k = 0
    while mask:
        low = mask & -mask
        mask ^= low
        if not answer_mask(other, (low.bit_length() - 1,), trump, rules):
            k += 1
    return k


def _duels(k: int, future: list[int], live: list[bool], n: int, sizes: list[int], me: int,
           still_mask: int, trump: int, rules: Rules, row: list[float]) -> None:
    """Row ``k``'s duels (:data:`_DUELS`) in ``row[DUELS_AT:]``: ``future[j]`` is row
    ``j``'s phase 2 hand as far as the observer knows it, ``sizes[j]`` its size (its
    hand and its pile: in phase 2 the pile is empty)."""
    at = DUELS_AT
    s = (me + k) % n
    row[at + 7] = sum(live) / MAX_SEATS
    if not live[k]:
        return
    others = [j for j in range(n) if j != k and live[j]]
    if not others:
        return
    mine = future[k]
    nxt = (next_seat_in(still_mask, s, n) - me) % n
    prev = next((j for j in ((k - d) % n for d in range(1, n)) if live[j]), k)
    alone = everyone = past_next = 0
    c = mine
    while c:
        low = c & -c
        c ^= low
        top = (low.bit_length() - 1,)
        answers = [j for j in others if answer_mask(future[j], top, trump, rules)]
        alone += not answers
        everyone += len(answers) == len(others)
        past_next += nxt not in answers
    row[at] = alone / 13.0
    row[at + 1] = past_next / 13.0 if nxt != k else 0.0
    row[at + 2] = everyone / 13.0
    row[at + 3] = _unanswered(future[prev], mine, trump, rules) / 13.0 if prev != k else 0.0
    least = min(sizes[j] for j in others)
    mine_count = sizes[k]
    row[at + 4] = max(-1.0, min(1.0, (mine_count - least) / 13.0))
    row[at + 5] = 1.0 if mine_count > least else 0.0
    row[at + 6] = sum(1 for j in others if sizes[j] < mine_count) / len(others)


def _global(obs: Observation) -> list[float]:
    g = [0.0] * _GLOBAL
    g[int(obs.phase) - 1] = 1.0
    g[3] = obs.stock_count / 52.0
    g[4] = obs.set_aside_count / 52.0
    g[5] = obs.out_count / 52.0
    g[6] = len(obs.table2) / obs.players
    g[7] = obs.trick_need / obs.players
    g[8] = obs.players / MAX_SEATS
    g[9] = 1.0 if obs.trump is not None else 0.0
    g[10] = sum(obs.hand_counts) / 52.0
    order = suit_order(obs.trump)
    if obs.table2:
        top = obs.table2[-1][1]
        c = top[-1]
        g[11 + 0] = (RANK[c] + 1) / 13.0
        g[11 + 1] = 1.0 if SUIT[c] == obs.trump else 0.0
        g[11 + 2] = len(top) / 13.0
        g[11 + 3] = (RANK[obs.table2[0][1][-1]] + 1) / 13.0
        g[19 + order.index(SUIT[c])] = 1.0
    g[15] = 1.0 if obs.phase is PHASE1 else 0.0
    g[16] = 1.0 if obs.phase is PHASE2 and obs.trump is not None else 0.0
    g[17] = len(obs.fighters) / obs.players
    g[18] = 1.0 if obs.last_trick is not None else 0.0
    for c in obs.hand:
        g[23 + order.index(SUIT[c])] += 1.0 / 13.0
    return g


def features(obs: Observation) -> list[list[float]]:
    """The model's input for ``obs``: one row of :data:`FEATURES` numbers per seat, in
    relative seat order (row 0 is the observer)."""
    n = obs.players
    if n > MAX_SEATS:
        raise ValueError(f"the value model serves at most {MAX_SEATS} players")
    rows = feature_rows(obs)
    total = [sum(col) for col in zip(*rows, strict=True)]
    g = _global(obs)
    to_act = obs.to_act
    out: list[list[float]] = []
    for k, row in enumerate(rows):
        others = [(t - v) / max(1, n - 1) for t, v in zip(total, row, strict=True)]
        rel = [0.0] * (2 * MAX_SEATS)
        rel[k] = 1.0
        if to_act is not None:
            rel[MAX_SEATS + (obs.seat + k - to_act) % n] = 1.0
        out.append(row + others + rel + g)
    return out


def live_mask(obs: Observation) -> list[bool]:
    """Per relative seat: whether it may still be the loser (in the game, or a loser)."""
    n = obs.players
    alive = set(obs.still_in) | set(obs.losers)
    return [(obs.seat + k) % n in alive for k in range(n)]


def exact_losers(obs: Observation) -> list[float] | None:
    """A finished game's loser distribution per relative seat (``None`` while it runs)."""
    if not obs.is_over:
        return None
    n = obs.players
    losers = obs.losers
    if not losers:
        return [1.0 / n] * n
    return [1.0 / len(losers) if (obs.seat + k) % n in losers else 0.0 for k in range(n)]


@dataclass(frozen=True)
class ValueModel:
    """One trained network (its arrays, float32) and what it was trained on."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    w3: Array
    b3: Array
    name: str = ""
    """The preset it was trained on."""

    @staticmethod
    def from_arrays(arrays: Mapping[str, Any], prefix: str = "", name: str = "") -> ValueModel:
        """A model from ``{prefix}w1`` .. ``{prefix}b3``."""
        np = numpy_or_none()
        assert np is not None, "the value model needs NumPy"
        get = [np.asarray(arrays[prefix + k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2", "w3", "b3")]
        if get[0].shape[0] != FEATURES:
            raise ValueError(f"weights for {get[0].shape[0]} features, not {FEATURES}")
        return ValueModel(get[0], get[1], get[2], get[3], get[4], get[5], name)

    def arrays(self, prefix: str = "") -> dict[str, Array]:
        return {prefix + "w1": self.w1, prefix + "b1": self.b1, prefix + "w2": self.w2, prefix + "b2": self.b2,
                prefix + "w3": self.w3, prefix + "b3": self.b3}

    def scores(self, x: Array) -> Array:
        """The seats' scores (logits) for inputs ``x`` of shape (..., seats, FEATURES)."""
        np = numpy_or_none()
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        h = np.maximum(h @ self.w2 + self.b2, 0.0)
        out: Array = (h @ self.w3)[..., 0] + self.b3[0]
        return out

    def batch(self, x: Array, live: Mask) -> Array:
        """Loser distributions for a batch: ``x`` (B, seats, FEATURES), ``live`` (B, seats) bool."""
        np = numpy_or_none()
        s = np.where(live, self.scores(x), -np.inf)
        s = s - s.max(axis=-1, keepdims=True)
        e = np.exp(s)
        out: Array = e / e.sum(axis=-1, keepdims=True)
        return out

    def losers(self, obs: Observation) -> list[float]:
        """Each seat's chance of being the loser, in relative seat order (index 0 is the
        observer), summing to 1."""
        exact = exact_losers(obs)
        if exact is not None:
            return exact
        return self.many([obs])[0]

    def many(self, observations: Sequence[Observation]) -> list[list[float]]:
        """:meth:`losers` for several observations of one table size, in one NumPy pass."""
        if not observations:
            return []
        np = numpy_or_none()
        n = observations[0].players
        if any(o.players != n for o in observations):
            raise ValueError("one table size per call")
        x = np.asarray([features(o) for o in observations], dtype=np.float32)
        live = np.asarray([live_mask(o) for o in observations], dtype=bool)
        p = self.batch(x, live)
        out: list[list[float]] = []
        for i, o in enumerate(observations):
            exact = exact_losers(o)
            out.append(exact if exact is not None else [float(v) for v in p[i]])
        return out

    def chance(self, obs: Observation) -> float:
        """The observer's chance to avoid being the loser."""
        return 1.0 - self.losers(obs)[0]


def nearest_preset(rules: Rules) -> str:
    """The preset whose options agree with ``rules`` most (its own name if it is one)."""
    if rules.name in PRESETS and preset(rules.name) == rules:
        return rules.name
    best, best_same = "mattis", -1
    for name in PRESETS:
        p = preset(name)
        same = sum(1 for f in p.__dataclass_fields__ if f != "name" and getattr(p, f) == getattr(rules, f))
        if same > best_same:
            best, best_same = name, same
    return best


@lru_cache(maxsize=4)
def load_models(path: str | None = None) -> dict[str, ValueModel]:
    """The models in a weights file (the shipped one by default), by preset name.

    Raises ``RuntimeError`` without NumPy."""
    np = numpy_or_none()
    if np is None:
        raise RuntimeError("the value model needs NumPy (pip install numpy)")
    if path is None:
        with resources.as_file(resources.files("mattis.bots") / WEIGHTS_FILE) as p, np.load(p) as z:
            arrays = {k: z[k] for k in z.files}
    else:
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
    names = sorted({k.split("/")[0] for k in arrays if "/" in k})
    return {name: ValueModel.from_arrays(arrays, f"{name}/", name) for name in names}


def model_for(rules: Rules, path: str | None = None) -> ValueModel:
    """The model for ``rules``: the one trained on the nearest preset."""
    models = load_models(path)
    name = nearest_preset(rules)
    if name in models:
        return models[name]
    return next(iter(models.values()))
