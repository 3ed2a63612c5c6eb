"""Exact game theory on a small Mattis: the whole game tree of ``python_mattis`` on a
short deck (the research preset ``mini``: two players, Q K A of ♥ ♠, two cards
each), exported once as an extensive-form game (Gambit's EFG text, which
``pyspiel.load_efg_game`` reads) so that OpenSpiel's C++ solvers
(``pyspiel.CFRSolver``, ``pyspiel.CFRPlusSolver``) and ``pyspiel.exploitability``
run on it exactly.

>>> from mattis.core import preset
>>> tree = build_tree(preset("mini", hand_size=1, deck_ranks=2))
>>> len(tree.deals), tree.nodes, len(tree.infosets)
(24, 440, 276)
>>> round(pyspiel.exploitability(tree.game(), tree.uniform_policy()), 4)
0.1319

The export is the engine's game, node for node:

* the deal is one chance node whose outcomes are the distinct deals (the hands, the
  stock's order): ``python_mattis`` deals card by card (``len(deck)!`` orders), but
  orders that give the same hands and stock give the same game and the same
  information states (a dealt card's draw step is the deal, whatever its order), so
  they are merged, with the sum of their chances;
* a decision node's actions are ``python_mattis``'s action numbers (named
  ``a<number>``, listed in the order of the EFG reader's action ids); its
  information set is the seat's perfect-recall information state: the seat, its
  hand after the deal and after each move, the cards publicly known to be in each
  hand, and the public history (the same partition as
  :meth:`mattis.rl.openspiel_game.MattisState.info_string`: a test checks it on
  random histories);
* a terminal's payoffs are ``python_mattis``'s returns: -1 for the loser, 0 for the
  other (constant-sum -1; with ``zero_sum``, +1 for the winner).

:func:`engine_to_efg` plays a ``python_mattis`` history on the exported game, and
:meth:`GameTree.bot_policy` tabulates one of the project's bots at every information
state (through the seat's observation, as the bot plays).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from ..core import PHASE2, Move, Observation, Rules, State
from ..play.agents import Agent, make_bot
from .encoding import ActionSpace, card_of_index
from .openspiel_game import MattisGame, MattisState

MAX_DECK = 8
"""The largest deck :func:`build_tree` walks (its deals are ``len(deck)!`` orders)."""

InfoKey = tuple[Any, ...]


@dataclass
class InfoSet:
    """One information set: its seat, its actions (increasing action numbers) and one
    state in it (the bots are asked there, through the seat's observation)."""

    index: int
    """Its number among all information sets (1, 2, ...)."""
    number: int
    """Its number among its player's (the EFG's information set number)."""
    player: int
    actions: tuple[int, ...]
    """``python_mattis``'s action numbers, in the order of the exported game's ids."""
    example: State


@dataclass
class GameTree:
    """The whole game tree of a short-deck ``python_mattis`` game."""

    rules: Rules
    players: int
    zero_sum: bool
    deals: list[tuple[tuple[int, ...], float]] = field(default_factory=list)
    """Each distinct deal: one deck order that deals it, and its chance."""
    deal_of: dict[tuple[int, ...], int] = field(default_factory=dict)
    """The deal (index in :attr:`deals`) of every deck order."""
    infosets: dict[InfoKey, InfoSet] = field(default_factory=dict)
    nodes: int = 0
    """Decision and terminal nodes (the chance node not counted)."""
    terminals: int = 0
    phase2_starts: dict[tuple[Any, ...], State] = field(default_factory=dict)
    """Each distinct phase 2 start reached (hands, trump, leader, ...): a state there."""
    paths: dict[tuple[Any, ...], tuple[int, ...]] = field(default_factory=dict)
    """For each of :attr:`phase2_starts`, a way there: the deal's number, then
    ``python_mattis`` action numbers."""
    lines: list[str] = field(default_factory=list)
    """The EFG text, line by line, in prefix order."""
    node_info: list[int] = field(default_factory=list)
    """Per node in prefix order (the deals' subtrees one after the other): its
    information set's index, or 0 for a terminal."""
    node_value: list[float] = field(default_factory=list)
    """Per node: player 0's return at a terminal (0 elsewhere)."""
    node_start: list[int] = field(default_factory=list)
    """Per node: the number (1, 2, ...) of the phase 2 start it is (0 if none; in the
    order of :attr:`phase2_starts`)."""
    action_ids: dict[int, int] = field(default_factory=dict)
    """The exported game's action id of each ``python_mattis`` action number (the
    order in which the names first appear in the EFG text)."""

    @property
    def efg(self) -> str:
        """The game as Gambit EFG text (``pyspiel.load_efg_game`` reads it)."""
        return "\n".join(self.lines) + "\n"

    _game: pyspiel.Game | None = None

    def game(self) -> pyspiel.Game:
        """The exported game, loaded by OpenSpiel's EFG reader (a C++ game; loaded once).
        Its actions are named ``a<python_mattis action number>``; the reader numbers
        the names in the order they first appear in the text (:attr:`action_ids`)."""
        if self._game is None:
            self._game = pyspiel.load_efg_game(self.efg)
        return self._game

    def policy_table(self, choose: Callable[[InfoSet], dict[int, float]]) -> dict[str, list[tuple[int, float]]]:
        """A tabular policy (information state string -> [(action, probability)]) of
        the exported game, ``choose`` giving each information set's action numbers'
        probabilities (EFG actions are their positions among the set's actions)."""
        out: dict[str, list[tuple[int, float]]] = {}
        for info in self.infosets.values():
            probs = choose(info)
            out[efg_info_string(info)] = [(self.action_ids[a], float(probs.get(a, 0.0))) for a in info.actions]
        return out

    def phase2_values(self, table: dict[str, list[tuple[int, float]]]) -> list[tuple[float, float, int]]:
        """Under a tabular policy (:meth:`policy_table`'s form) played by both seats:
        for every node that is a phase 2 start, its reach probability (chance and both
        seats), player 0's expected return from there, and the start's number."""
        by_index = {info.index: info for info in self.infosets.values()}
        probs: dict[int, list[float]] = {}
        for index, info in by_index.items():
            got = dict(table[efg_info_string(info)])
            probs[index] = [got.get(self.action_ids[a], 0.0) for a in info.actions]
        out: list[tuple[float, float, int]] = []
        pos = 0

        def value(reach: float) -> float:
            nonlocal pos
            i = pos
            pos += 1
            info = self.node_info[i]
            if info == 0:
                v = self.node_value[i]
            else:
                v = 0.0
                for p in probs[info]:
                    v += p * value(reach * p)
            if self.node_start[i]:
                out.append((reach, v, self.node_start[i]))
            return v

        for _, chance in self.deals:
            value(chance)
        return out

    def uniform_policy(self) -> dict[str, list[tuple[int, float]]]:
        """Uniform random play at every information set."""
        return self.policy_table(lambda info: {a: 1.0 / len(info.actions) for a in info.actions})

    def bot_policy(self, bot: str | Callable[[int], Agent], seed: int = 0) -> dict[str, list[tuple[int, float]]]:
        """A bot's policy, tabulated at every information set: the bot (``make_bot(name,
        seed)``, or a factory of a seed) is asked once per information set, through
        the seat's observation at a state of the set, a fresh bot per set seeded from
        ``seed`` and the set's number (a deterministic bot plays its policy; a
        sampling bot, one draw of it)."""
        space = ActionSpace(self.rules)

        def choose(info: InfoSet) -> dict[int, float]:
            if len(info.actions) == 1:  # a forced move: every bot plays it
                return {info.actions[0]: 1.0}
            agent = make_bot(bot, seed * 1_000_003 + info.index) if isinstance(bot, str) else bot(
                seed * 1_000_003 + info.index)
            obs: Observation = info.example.observation(info.player)
            move: Move = agent.act(obs)
            return {space.action(move): 1.0}

        return self.policy_table(choose)


def info_name(index: int) -> str:
    """The EFG name (and OpenSpiel information state string) of information set ``index``."""
    return f"i{index}"


def efg_info_string(info: InfoSet) -> str:
    """The information state string OpenSpiel's EFG game gives the set (``player-player-
    number-name``), the key of a tabular policy."""
    return f"{info.player}-{info.player}-{info.number}-{info_name(info.index)}"


def _key(s: State, player: int, handlog: tuple[int, ...]) -> InfoKey:
    return (player, handlog, tuple(s.known), s.history_tuple())


def phase2_value(s: State, memo: dict[Any, float]) -> float:
    """Player 0's return (-1 if it is the Mattis, else 0) under perfect play from a
    phase 2 state of a two-player game with no cards set aside: both hands are known,
    so phase 2 is a game of perfect information, solved here by backward induction
    (minimax, memoised in ``memo`` on everything the rest of the game depends on).
    Raises ``ValueError`` at an end with other than one loser (then the game is not
    constant-sum and minimax is not its solution)."""
    if s.is_over:
        out = s.outcome
        assert out is not None
        if len(out.losers) != 1:
            raise ValueError(f"a two-player end with {len(out.losers)} losers: phase 2 is not constant-sum here")
        return -1.0 if 0 in out.losers else 0.0
    key = (s.to_act, s.trump, s.in_game, tuple(s.finished), tuple(s.hands), tuple((q, c) for q, c in s.table),
           s.repetitions(), s.p2_moves, tuple(sorted(s.rep.items())))
    v = memo.get(key)
    if v is not None:
        return v
    vals = []
    for mv in s.legal_moves():
        c = s.clone()
        c.apply(mv)
        vals.append(phase2_value(c, memo))
    v = max(vals) if s.to_act == 0 else min(vals)
    memo[key] = v
    return v


def build_tree(rules: Rules, players: int = 2, dealer: int = 0, zero_sum: bool = False,
               phase1: bool = False) -> GameTree:
    """Walk every deal and every legal move of ``python_mattis`` under ``rules`` (a
    short deck of at most :data:`MAX_DECK` cards, two players) and export the tree.

    With ``phase1``, the game of phase 1 alone: every phase 2 start is a terminal whose
    payoffs are phase 2's exact value under perfect play (:func:`phase2_value`; -1 and
    0 shared as a lost game's, player 1 gets ``-1 - v`` (``-v`` with ``zero_sum``)
    where player 0 gets ``v``), so the hidden-information part of the game is solved
    on its own.  Games that end in phase 1 end as they do."""
    if phase1 and rules.two_player_discard:
        raise ValueError("the phase 1 game needs two_player_discard=0 (phase 2 of perfect information)")
    deck = rules.deck()
    if len(deck) > MAX_DECK:
        raise ValueError(f"a deck of {len(deck)} cards is too big to walk (at most {MAX_DECK})")
    if players != 2:
        raise ValueError("exact solving is for two players (OpenSpiel's exploitability needs two)")
    rules.check_players(players)
    tree = GameTree(rules, players, zero_sum)
    space = ActionSpace(rules)
    starts: dict[tuple[Any, ...], int] = {}
    counts: list[int] = []
    for order in itertools.permutations(deck):
        s = State.from_deck(rules, players, order, dealer)
        k = (tuple(s.hands), tuple(s.stock), s.trump_card, s.aside)
        i = starts.get(k)
        if i is None:
            i = starts[k] = len(counts)
            counts.append(0)
            tree.deals.append((order, 0.0))
        counts[i] += 1
        tree.deal_of[order] = i
    total = math.factorial(len(deck))
    tree.deals = [(order, c / total) for (order, _), c in zip(tree.deals, counts, strict=True)]
    lines = tree.lines
    names = "{ " + " ".join(f'"P{p}"' for p in range(players)) + " }"
    lines.append(f'EFG 2 R "python_mattis {rules.name}" {names}')
    lines.append('""')
    lines.append('c "deal" 1 "" { ' + " ".join(f'"d{i}" {p!r}' for i, (_, p) in enumerate(tree.deals)) + " } 0")
    outcomes: dict[tuple[float, ...], int] = {}
    per_player = [0] * players
    memo: dict[Any, float] = {}

    def walk(s: State, logs: tuple[tuple[int, ...], ...], path: tuple[int, ...]) -> None:
        tree.nodes += 1
        start = 0
        if s.phase == PHASE2 and s.p2_moves == 0 and not s.is_over:
            k2 = (tuple(s.hands), s.trump, s.to_act, s.in_game)
            if k2 not in tree.phase2_starts:
                tree.phase2_starts[k2] = s.clone()
                tree.paths[k2] = path
            start = list(tree.phase2_starts).index(k2) + 1
        tree.node_start.append(start)
        if s.is_over or (phase1 and start):
            tree.terminals += 1
            if s.is_over:
                out = s.outcome
                assert out is not None
                pay = tuple(loser_returns(players, out.losers, zero_sum))
            else:
                v = phase2_value(s.clone(), memo)
                pay = (2 * v + 1, -2 * v - 1) if zero_sum else (v, -1.0 - v)
            o = outcomes.get(pay)
            if o is None:
                o = outcomes[pay] = len(outcomes) + 1
            lines.append(f't "" {o} "" {{ ' + ", ".join(repr(x) for x in pay) + " }")
            tree.node_info.append(0)
            tree.node_value.append(pay[0])
            return
        p = s.to_act
        assert p is not None
        key = _key(s, p, logs[p])
        moves = s.legal_moves()
        info = tree.infosets.get(key)
        if info is None:
            # listed in the order of the reader's action ids (names numbered as they
            # first appear), so that a node's list, its ids and its children agree
            ids = tree.action_ids
            for a in sorted((space.action(m) for m in moves), key=lambda x: (ids.get(x, len(ids)), x)):
                ids.setdefault(a, len(ids))
            acts = tuple(sorted((space.action(m) for m in moves), key=ids.__getitem__))
            per_player[p] += 1
            info = tree.infosets[key] = InfoSet(len(tree.infosets) + 1, per_player[p], p, acts, s.clone())
        tree.node_info.append(info.index)
        tree.node_value.append(0.0)
        by_action = {space.action(m): m for m in moves}
        lines.append(f'p "" {p + 1} {info.number} "{info_name(info.index)}" {{ '
                     + " ".join(f'"a{a}"' for a in info.actions) + " } 0")
        for a in info.actions:
            c = s.clone()
            c.apply(by_action[a])
            walk(c, tuple(log + (c.hands[q],) for q, log in enumerate(logs)), path + (a,))

    for i, (order, _) in enumerate(tree.deals):
        s = State.from_deck(rules, players, order, dealer)
        walk(s, tuple((h,) for h in s.hands), (i,))
    return tree


def loser_returns(players: int, losers: Sequence[int], zero_sum: bool) -> list[float]:
    """``python_mattis``'s returns: -1 for each loser, 0 (with ``zero_sum``, +1) for the others."""
    return [-1.0 if q in losers else (1.0 if zero_sum else 0.0) for q in range(players)]


def engine_to_efg(tree: GameTree, game: pyspiel.Game, state: MattisState) -> pyspiel.State:
    """The exported game's state that ``python_mattis``'s ``state`` (a game of the
    tree's rules) reaches: its deck order names the deal, its actions the actions."""
    hist = state.history()
    n = len(tree.rules.deck())
    if len(hist) < n:
        raise ValueError("the deal is not finished")
    g: MattisGame = state.get_game()
    order = tuple(g_card(g, a) for a in hist[:n])
    out = game.new_initial_state()
    out.apply_action(tree.deal_of[order])
    for a in hist[n:]:
        out.apply_action(tree.action_ids[a])
    return out


def g_card(game: MattisGame, action: int) -> int:
    """The card a chance action of ``python_mattis`` deals."""
    return card_of_index(action, game.spec.card_order)


def random_history(game: MattisGame, rng: random.Random) -> MattisState:
    """A ``python_mattis`` state reached by uniformly random chance and moves, stopped
    at a random point after the deal (or at the end)."""
    s: MattisState = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
    while not s.is_terminal() and rng.random() > 0.1:
        s.apply_action(rng.choice(s.legal_actions()))
    return s


__all__ = ["MAX_DECK", "GameTree", "InfoSet", "build_tree", "efg_info_string", "engine_to_efg", "info_name",
           "loser_returns", "phase2_value", "random_history"]
