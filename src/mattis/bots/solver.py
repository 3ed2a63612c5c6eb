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

from dataclasses import dataclass, field

from ..core import PICKUP, Move, State
from ..core.observation import PHASE2
from .policy import state_choice

Key = tuple[int, tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...], int, int]

EXACT, LOWER, UPPER = 0, 1, 2


class SearchLimit(Exception):
    """The node budget ran out before the endgame was solved."""


def position_key(s: State) -> Key:
    """What decides the future of a phase 2 position (not how it was reached)."""
    return (s.to_act if s.to_act is not None else -1, tuple(s.hands), tuple(s.table),
            s.trick_need, s.in_game)


@dataclass
class Solver:
    """Alpha-beta with a transposition table for seat ``me``; ``node_limit`` nodes at most."""

    me: int
    node_limit: int = 200_000
    max_depth: int = 150
    nodes: int = 0
    table: dict[Key, tuple[int, int]] = field(default_factory=dict)

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
        if self.nodes > self.node_limit or len(path) > self.max_depth:
            raise SearchLimit
        key = position_key(s)
        if key in path:
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
