"""Exact phase 2 endgames.

Phase 2 is a perfect-information game once every hand is known.  The solver
searches it by alpha-beta over values for one seat (``me``): +1 when ``me``
goes out safely, -1 when ``me`` is left as Mattis, 0 for a draw.  With two
players this is exact minimax; with three or more it is *paranoid* search (the
others are assumed to play against ``me``), which is a lower bound on what
``me`` can secure.

A position met again on the current search path is scored as a draw (the game
would cycle), and such path-dependent values are never stored in the
transposition table: only values whose subtree met no repetition are stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core import PICKUP, Move, Rules, State, sequence_spans
from ..core.legal import RepetitionKey, answer_bits, lead_mask, pickup_span, repetition_key, trick_complete_at
from ..core.observation import PHASE2
from ..core.rules import GoingOut
from .policy import state_choice

Key = RepetitionKey

EXACT, LOWER, UPPER = 0, 1, 2


DEEPENING: tuple[int, ...] = (15, 30, 60)
"""The depths :meth:`Solver.solve_deepening` tries in turn (moves along a line): the
expert's fallback where the full search runs out of nodes (measured in docs/bots.md:
starting with the shallow ones spent the budget that the full search needs in mattis)."""


class SearchLimit(Exception):
    """The node budget ran out before the endgame was solved."""


def position_key(s: State) -> Key:
    """What decides the future of a phase 2 position: the engine's repetition key."""
    return repetition_key(s)


@dataclass
class Solver:
    """Alpha-beta with a transposition table for seat ``me``; ``node_limit`` nodes at most.

    Values: 1 the seat gets away whatever the others do, -1 the others together can make
    it the loser, 0 a line that comes back to a position on it (a repetition).  A line
    deeper than ``max_depth`` moves ends the search (:class:`SearchLimit`), or with
    ``deep_unknown`` scores 0 as well (not kept in the table): a 0 never makes a 1 or
    a -1, so those stay proofs, and 0 then also means "not decided within the depth"
    (:meth:`solve_deepening`)."""

    me: int
    node_limit: int = 200_000
    max_depth: int = 150
    nodes: int = 0
    table: dict[Key, tuple[int, int]] = field(default_factory=dict)
    deep_unknown: bool = False

    def value(self, s: State) -> int:
        """The game value of ``s`` for ``me`` (raises :class:`SearchLimit`)."""
        v, _ = self._search(s, -1, 1, set())
        return v

    def solve(self, s: State) -> tuple[int, dict[Move, int]]:
        """The value of ``s`` and of each legal move for ``me`` (who is to act)."""
        out: dict[Move, int] = {}
        path = {position_key(s)}
        for m in self._ordered(s):
            c = s.clone()
            c.apply(m)
            v, _ = self._search(c, -1, 1, path)
            out[m] = v
        best = max(out.values()) if out else self._terminal(s)
        return best, out

    def solve_deepening(self, s: State, depths: Sequence[int] = DEEPENING) -> tuple[int, dict[Move, int]]:
        """:meth:`solve` by iterative deepening: at each depth of ``depths`` in turn, lines
        past it scoring 0 (``deep_unknown``), all within this solver's node budget; the
        deepest search that finished, or an earlier one that already proved a getaway or
        every move.  Raises :class:`SearchLimit` when not even the first finished.  Where long
        pickup lines make the full search run out of nodes (3-player endgames of 9-14
        cards in hund and blodmattis), the shallow ones still prove many moves."""
        done: tuple[int, dict[Move, int]] | None = None
        for depth in depths:
            trial = Solver(self.me, self.node_limit - self.nodes, min(depth, self.max_depth), deep_unknown=True)
            try:
                done = trial.solve(s)
            except SearchLimit:
                break
            finally:
                self.nodes += trial.nodes
            if done[0] == 1 or 0 not in done[1].values() or depth >= self.max_depth:
                break
        if done is None:
            raise SearchLimit
        return done

    def _terminal(self, s: State) -> int:
        if self.me in s.losers:
            return -1
        return 1

    def _ordered(self, s: State) -> list[Move]:
        legal = list(s.legal_moves())
        if len(legal) <= 1:
            return legal
        first = state_choice(s)
        legal.sort(key=lambda m: (m != first, m == PICKUP, len(m.cards) and -len(m.cards)))
        return legal

    def _search(self, s: State, alpha: int, beta: int, path: set[Key]) -> tuple[int, bool]:
        """(value, path_dependent) of ``s`` within the window."""
        if s.is_over or s.phase != PHASE2:
            return self._terminal(s), False
        me = self.me
        if not s.in_game >> me & 1:
            return (-1 if me in s.losers else 1), False
        self.nodes += 1
        if self.nodes > self.node_limit or (len(path) > self.max_depth and not self.deep_unknown):
            raise SearchLimit
        key = position_key(s)
        if key in path or len(path) > self.max_depth:
            return 0, True
        hit = self.table.get(key)
        if hit is not None:
            v, flag = hit
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v, False
        a0, b0 = alpha, beta
        maximize = s.to_act == me
        best = -2 if maximize else 2
        dep = False
        path.add(key)
        try:
            for m in self._ordered(s):
                c = s.clone()
                c.apply(m)
                v, d = self._search(c, alpha, beta, path)
                dep = dep or d
                if maximize:
                    if v > best:
                        best = v
                    alpha = max(alpha, v)
                else:
                    if v < best:
                        best = v
                    beta = min(beta, v)
                if alpha >= beta:
                    break
        finally:
            path.discard(key)
        if not dep:
            flag = EXACT
            if best <= a0:
                flag = UPPER
            elif best >= b0:
                flag = LOWER
            self.table[key] = (best, flag)
        return best, dep


def brute_force(s: State, me: int, path: frozenset[Key] = frozenset()) -> int:
    """Plain minimax (paranoid for 3+) without pruning or table: for tests on tiny positions."""
    if s.is_over or s.phase != PHASE2:
        return -1 if me in s.losers else 1
    if not s.in_game >> me & 1:
        return -1 if me in s.losers else 1
    key = position_key(s)
    if key in path:
        return 0
    p2 = path | {key}
    vals = []
    for m in s.legal_moves():
        c = s.clone()
        c.apply(m)
        vals.append(brute_force(c, me, p2))
    return max(vals) if s.to_act == me else min(vals)


# --------------------------------------------------------------- two players
# With two players a phase 2 trick is one entry and its answer: beat it (the
# trick is complete and the beater leads) or pick it up (the leader leads again).
# Every move either removes cards from play or shrinks the leader's hand, so no
# position repeats, and the game value (win/lose for the player to move) can be
# stored for every position: a plain AND-OR search with a table is exact.  Not
# under ``going_out="cleared"``: a last card picked up keeps its player in, so play
# can cycle (the general :class:`Solver` handles that).


def two_player_exact(rules: Rules) -> bool:
    """Whether :func:`two_player_values` can solve games under ``rules``: the flow it
    assumes is asked of the engine: a trick of two players is complete at two entries
    (:func:`~mattis.core.legal.trick_complete_at`), a pickup takes the one entry on the
    table (:func:`~mattis.core.legal.pickup_span`), and a player who lays her last card
    is out at once (``going_out="laid"``)."""
    return (rules.going_out is GoingOut.LAID and trick_complete_at(rules, 2, 2, 2) == 2
            and pickup_span([(0, (0,))], rules) == (0, 1))


def _suit_entries(bits: int, base: int, min_seq: int) -> list[int]:
    """Masks of the single cards and sequences in one suit's 13-bit field."""
    out: list[int] = []
    b = bits
    while b:
        low = b & -b
        out.append(low << base)
        b ^= low
    if min_seq:
        for a, e in sequence_spans(bits, min_seq):
            out.append(((1 << (e - a)) - 1) << (a + base))
    return out


class TwoPlayerSolver:
    """Exact 2-player phase 2 solver on bit masks; what may answer an entry is asked
    of the engine (:func:`mattis.core.legal.answer_bits`)."""

    def __init__(self, trump: int, rules: Rules, node_limit: int = 10_000_000) -> None:
        self.trump = trump
        self.min_seq = rules.sequences
        self.rules = rules
        self.pickup_optional = rules.pickup_optional
        self.node_limit = node_limit
        self.nodes = 0
        self.memo: dict[tuple[int, int, int], bool] = {}

    def leads(self, a: int) -> list[int]:
        """The entries of hand ``a`` that may be led (what may begin a lead is asked of
        the engine: :func:`mattis.core.legal.lead_mask`)."""
        out: list[int] = []
        lead = lead_mask(a, self.trump, self.rules)
        for s in range(4):
            bits = (lead >> (13 * s)) & 0x1FFF
            if bits:
                out.extend(_suit_entries(bits, 13 * s, self.min_seq))
        # Shed low cards first: the usual best lead, so the search cuts early.
        out.sort(key=lambda m: ((m.bit_length() - 1) // 13 == self.trump, (m.bit_length() - 1) % 13))
        return out

    def beats(self, a: int, top: int) -> list[int]:
        """The entries of hand ``a`` that may answer the entry ``top`` (a mask)."""
        lo, hi = (top & -top).bit_length() - 1, top.bit_length() - 1
        ts, sb, tb = answer_bits(a, (lo, hi), self.trump, self.rules)
        out = _suit_entries(sb, 13 * ts, self.min_seq) if sb else []
        if tb:
            out.extend(_suit_entries(tb, 13 * self.trump, self.min_seq))
        return out

    def canon(self, a: int, b: int, top: int) -> tuple[int, int, int]:
        """A key equal for equivalent positions: in each suit only the order of the
        cards in play matters (gaps shrink to one rank when sequences are allowed,
        as a gap breaks a sequence), and the non-trump suits are interchangeable."""
        parts: list[tuple[int, int, int]] = []
        gap = 1 if self.min_seq else 0
        trump_part = (0, 0, 0)
        for s in range(4):
            sa = (a >> (13 * s)) & 0x1FFF
            sb = (b >> (13 * s)) & 0x1FFF
            st = (top >> (13 * s)) & 0x1FFF
            u = sa | sb | st
            ca = cb = ct = 0
            k = 0
            prev = -2
            r = 0
            while u >> r:
                if (u >> r) & 1:
                    if gap and prev >= 0 and r > prev + 1:
                        k += 1
                    bit = 1 << k
                    if (sa >> r) & 1:
                        ca |= bit
                    elif (sb >> r) & 1:
                        cb |= bit
                    else:
                        ct |= bit
                    k += 1
                    prev = r
                r += 1
            if s == self.trump:
                trump_part = (ca, cb, ct)
            else:
                parts.append((ca, cb, ct))
        parts.sort()
        a2, b2, t2 = trump_part
        for i, (ca, cb, ct) in enumerate(parts):
            sh = 26 * (i + 1)
            a2 |= ca << sh
            b2 |= cb << sh
            t2 |= ct << sh
        return a2, b2, t2

    def win(self, a: int, b: int, top: int) -> bool:
        """Whether the player to move (holding ``a``; the other holds ``b``; ``top`` is
        the other's entry on the table, 0 if none) can force the other to be Mattis."""
        key = self.canon(a, b, top)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchLimit
        res = False
        if top == 0:
            for e in self.leads(a):
                if e == a or not self.win(b, a & ~e, e):
                    res = True
                    break
        else:
            beats = self.beats(a, top)
            for e in sorted(beats, key=lambda m: -m.bit_count()):
                if e == a or self.win(a & ~e, b, 0):
                    res = True
                    break
            if not res and (not beats or self.pickup_optional):
                res = not self.win(b, a | top, 0)
        self.memo[key] = res
        return res


def two_player_values(s: State, node_limit: int = 10_000_000) -> dict[Move, int]:
    """For the player to act in a 2-player phase 2 state: +1 (wins) or -1 (loses)
    per legal move, under perfect play by both."""
    from ..core import mask_of

    if s.n != 2 or s.phase != PHASE2 or s.in_game != 3:
        raise ValueError("two_player_values needs a 2-player phase 2 state with both players in")
    if not two_player_exact(s.rules):
        raise ValueError("two_player_values needs going_out=laid (use Solver)")
    me = s.to_act
    assert me is not None
    r = s.rules
    sv = TwoPlayerSolver(s.trump, r, node_limit)
    a, b = s.hands[me], s.hands[1 - me]
    top = mask_of(s.table[-1][1]) if s.table else 0
    out: dict[Move, int] = {}
    for m in s.legal_moves():
        if m == PICKUP:
            v = not sv.win(b, a | top, 0)
        else:
            e = mask_of(m.cards)
            if e == a:
                v = True
            elif top:
                v = sv.win(a & ~e, b, 0)
            else:
                v = not sv.win(b, a & ~e, e)
        out[m] = 1 if v else -1
    return out


def principal_line(s: State, me: int, node_limit: int = 20_000, plies: int = 24) -> tuple[tuple[int, Move], ...]:
    """A line of best play from ``s`` (phase 2, every hand known) as ``(seat, move)``
    pairs: at each turn the first move, in the solver's order (the heuristic's choice
    first), that keeps the position's value for ``me`` under the solver (``me`` keeps
    its best, the others play together against it: paranoid, exact minimax with two
    players).  It stops when ``me`` is out or the game is over, after ``plies`` moves,
    at a position met before on the line, or where the node budget runs out (the line
    so far is returned; empty if the position itself is not solved)."""
    solver = Solver(me, node_limit)
    line: list[tuple[int, Move]] = []
    cur = s.clone()
    seen = {position_key(cur)}
    try:
        target = solver.value(cur)
        while len(line) < plies and not cur.is_over and cur.phase == PHASE2 and cur.in_game >> me & 1:
            seat = cur.to_act
            if seat is None:
                break
            pick: State | None = None
            for m in solver._ordered(cur):
                c = cur.clone()
                c.apply(m)
                if solver.value(c) == target:
                    pick = c
                    line.append((seat, m))
                    break
            if pick is None:
                break
            cur = pick
            key = position_key(cur)
            if key in seen:
                break
            seen.add(key)
    except SearchLimit:
        pass
    return tuple(line)
