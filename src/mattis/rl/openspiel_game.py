"""Mattis as an OpenSpiel game: ``pyspiel.load_game("python_mattis(rules=hund,players=4)")``.

Importing this module registers ``python_mattis``.  Parameters (all optional):

* ``rules`` (str, ``"mattis"``): the preset (mattis, hund, blodmattis, skitgubbe, or the
  research preset ``mini``: two players, Q K A of ♥ ♠, two cards each);
* ``overrides`` (str, ``""``): rule options, ``"sequences:3;pickup:last"`` (``=`` may
  stand for ``:`` and ``,`` for ``;`` when the game is loaded with a parameter dict,
  ``load_game("python_mattis", {"overrides": "sequences=3"})``; the game keeps them in
  the ``:``/``;`` form, so its game string always loads back);
* ``players`` (int, 3) and ``dealer`` (int, 0);
* ``zero_sum`` (bool, ``False``): two players only, the winner's return is +1 (a
  zero-sum game, ``Utility.ZERO_SUM``, for the algorithms that ask for one);
* ``card_order`` (str, ``"suit_major"``): ``"rank_major"`` numbers cards ``rank * 4 +
  suit`` (as OpenSpiel's hearts, crazy_eights and bridge do) in the card actions, the
  chance actions and every card block of the tensors.
* ``leader`` (int, -1): who leads the first trick (-1: the player left of the dealer);
* ``position`` (str, ``""``): start from this position (:mod:`mattis.core.notation`,
  phase 1 or 2, with ``=`` written ``:`` and spaces ``;``, :func:`position_param`)
  instead of a deal: such a game has no chance nodes (``players`` and ``dealer`` must
  agree with it).

Records: :func:`state_from_record` and :func:`record_from_state` convert between
:class:`mattis.core.record.GameRecord` and states (:func:`record_params` gives a
record's game).  :meth:`MattisState.undo_action` takes back the last action.

The deal is 52 explicit chance nodes (one per card of the deck: six for the research
preset ``mini``, whose short deck is ``deck_ranks``/``deck_suits``; cards keep their
numbers, so actions and tensors are the same): each picks the next card of the deck
(uniformly among the cards not yet picked); then the engine deals from that deck
order exactly as a real game does (``State.from_deck``).  All later randomness
(the stock) is fixed by the deck, so there are no further chance nodes.

Actions are :class:`mattis.rl.encoding.ActionSpace` numbers (chance actions are card
indexes 0..51, :func:`mattis.rl.encoding.card_index`).  Rewards are terminal and
loser-only: -1 for each loser (Mattis, and in Blodmattis rules every Blodmattis), 0
for everyone else.  There is exactly one loser unless a player left with an empty
hand loses too (``empty_hand=loses``, the blodmattis preset), so such a game is
general-sum and every other one constant-sum (sum -1);
``game.get_type().utility`` says which.  The registry (``pyspiel.registered_games()``)
holds the type of the game with the default parameters (constant-sum, as
``load_game("python_mattis")`` says); parameters that change the utility kind say so
in the loaded game's type.

OpenSpiel has no truncation flag: a game stopped by the phase 2 cap is terminal (the
cap is in ``max_game_length``) and :meth:`MattisState.is_truncated` says it was cut
short (the Gymnasium and PettingZoo fronts report it as a truncation).

Observation string/tensor: what the seat knows now (its ``Observation``, encoded by
:func:`mattis.rl.encoding.encode`).  Information-state string: perfect recall, the
public history plus the seat's own draws and hand, plus the cards publicly known
to be in each hand now (this holds what the history does not: the leftovers shown to
everyone at the end of phase 1 under ``leftovers_shown``), compact (about two
characters a move, :meth:`MattisState.info_string`; :meth:`MattisState.readable_info_string`
says the same in words).  Information-state tensor:
the observation tensor plus the seat, when each card reached its hand from the deck,
when each card was first laid, and the whole public history, one entry a move
(:func:`recall_layout`): one-to-one on information states.
"""

from __future__ import annotations

import base64
import pickle
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pyspiel

from ..core import (
    EmptyHand,
    GameSetupError,
    HistoryItem,
    IllegalMoveError,
    Move,
    MoveKind,
    Rules,
    State,
    card_code,
    cards_of,
    mask_of,
)
from ..core.determinize import DeterminizeError, MoveModel, sample_worlds
from ..core.legal import verify
from ..core.moves import MoveError, parse_record_move
from ..core.notation import parse_position
from ..core.record import GameRecord, ReplayError
from ..play import Agent, make_bot
from .common import check_zero_sum, is_truncated, loser_rewards, make_rules
from .encoding import (
    ActionSpace,
    Encoder,
    card_index,
    card_of_index,
    check_card_order,
    history_string,
    layout,
    obs_size,
    obs_string,
)
from .mirror import make_mirror, mirror_covers

SHORT_NAME = "python_mattis"
DEFAULT_PARAMS: dict[str, Any] = {"rules": "mattis", "overrides": "", "players": 3, "dealer": 0, "zero_sum": False,
                                  "card_order": "suit_major", "leader": -1, "position": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Mattis family (Mattis, Hund, Blodmattis, Skitgubbe)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,  # the default game's (see the module docstring)
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)

PHASE1_BOUND = 52
"""Phase 1 lays each card at most once (won cards stay in piles until phase 2)."""


def phase1_bound(rules: Rules) -> int:
    """:data:`PHASE1_BOUND` for the deck of ``rules``: its number of cards."""
    return rules.deck_ranks * rules.deck_suits


def constant_sum(rules: Rules) -> bool:
    """Whether every game has exactly one loser (returns sum to -1): all but the rule
    that a player left with an empty hand loses too (Blodmattis)."""
    return rules.empty_hand is not EmptyHand.LOSES


def game_type(rules: Rules, zero_sum: bool = False) -> pyspiel.GameType:
    """The game type of ``python_mattis`` under these rules (its utility kind:
    zero-sum with ``zero_sum``, else constant-sum or general-sum, see :func:`constant_sum`)."""
    utility = (pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.CONSTANT_SUM
               if constant_sum(rules) else pyspiel.GameType.Utility.GENERAL_SUM)
    if utility == _GAME_TYPE.utility:
        return _GAME_TYPE
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name=_GAME_TYPE.long_name, dynamics=_GAME_TYPE.dynamics,
        chance_mode=_GAME_TYPE.chance_mode, information=_GAME_TYPE.information,
        utility=utility, reward_model=_GAME_TYPE.reward_model,
        max_num_players=_GAME_TYPE.max_num_players, min_num_players=_GAME_TYPE.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS)


def game_info(rules: Rules, players: int, zero_sum: bool = False) -> pyspiel.GameInfo:
    """The size figures of the game with these parameters."""
    return pyspiel.GameInfo(
        num_distinct_actions=ActionSpace(rules).size,
        max_chance_outcomes=52,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0 if zero_sum else 0.0,
        utility_sum=0.0 if zero_sum else -1.0 if constant_sum(rules) else None,
        max_game_length=phase1_bound(rules) + rules.phase2_cap,
    )


def canonical_overrides(text: str) -> str:
    """The ``overrides`` parameter in the form a game string can hold
    (``sequences:3;pickup:last``): ``=`` and ``,`` would split the game string."""
    items: list[str] = []
    t = text.replace("=", ":")
    for sep in ",+ ":
        t = t.replace(sep, ";")
    for item in t.split(";"):
        if item.strip():
            items.append(item.strip())
    return ";".join(items)


def position_param(text: str) -> str:
    """A position (:mod:`mattis.core.notation`) in the form a game string can hold: the
    notation's ``=`` and spaces would split the game string, so they become ``:`` and
    ``;`` (:func:`position_text` reads it back).  Raises ``ValueError`` for a text that
    already holds ``:``, ``;``, ``,``, ``(`` or ``)``."""
    t = " ".join(text.split())
    if any(ch in t for ch in ":;,()"):
        raise ValueError("a position text holds none of : ; , ( )")
    return t.replace("=", ":").replace(" ", ";")


def position_text(param: str) -> str:
    """The position notation of a ``position`` game parameter (see :func:`position_param`;
    a text in the notation's own form is taken as it is)."""
    return param.replace(":", "=").replace(";", " ")


class PlayerAction(NamedTuple):
    """One entry of :meth:`MattisState.full_history` (the fields of OpenSpiel's ``PlayerAction``)."""

    player: int
    action: int


class _Spec:
    """The game's fixed data, shared (not copied) by every state of the game."""

    __slots__ = ("rules", "players", "dealer", "space", "canonical", "zero_sum", "card_order", "leader", "start",
                 "deck_mask", "deck_size", "mirror_note", "card_of", "outcome_pairs")

    def __init__(self, rules: Rules, players: int, dealer: int, zero_sum: bool = False,
                 card_order: str = "suit_major", leader: int | None = None, start: State | None = None) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.zero_sum = zero_sum
        self.card_order = card_order
        self.space = ActionSpace(rules, card_order)
        self.canonical = ActionSpace(rules)
        """The suit-major action numbers (the information-state string's, in either card order)."""
        self.leader = leader
        """Who leads the first trick of the deal (``None``: the player left of the dealer)."""
        self.start = start
        """The starting position of a game that starts from one (no deal, no chance nodes)."""
        self.deck_mask = rules.deck_mask()
        """The cards dealt (all 52 but with a short deck, ``deck_ranks``/``deck_suits``)."""
        self.deck_size = len(rules.deck())
        self.card_of = tuple(card_of_index(i, card_order) for i in range(52))
        """The card (its code) of each chance action (a card index)."""
        p = [0.0] + [1.0 / k for k in range(1, 53)]
        self.outcome_pairs = [[(i, p[k]) for i in range(52)] for k in range(53)]
        """``outcome_pairs[k][i]``: the chance outcome ``(i, 1 / k)`` (made once: a deal
        step's outcomes are picked from these, not made anew)."""
        self.mirror_note = mirror_covers(rules) if start is None else "a game from a position (no deal to mirror)"
        """Why the observers cannot use a native mirror of the game (``None``: they can)."""

    def fresh(self, deck: Sequence[int]) -> State:
        """The engine's starting state: the position, or the deal of ``deck``."""
        if self.start is not None:
            return self.start.clone()
        return State.from_deck(self.rules, self.players, deck, self.dealer, self.leader)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self


class _Core:
    """The referee's side of one OpenSpiel state, with a cheap deep copy.

    ``moves`` lists the moves made; ``hands`` caches, per seat, its own hand (a card
    mask, from that seat's observation) after the deal and after each move, filled on
    demand by ``cursor`` (a replay of the game kept at the end of the cache), so plain
    playouts pay nothing for it.
    """

    __slots__ = ("deck", "dealt", "state", "moves", "actions", "cursor", "hands", "to_act", "mirror", "free")

    def __init__(self, players: int) -> None:
        self.deck: list[int] = []
        self.dealt = 0
        """The mask of the cards in ``deck``."""
        self.state: State | None = None
        self.moves: list[Move] = []
        self.actions: list[int] = []
        """The action number of each move in ``moves``."""
        self.cursor: State | None = None
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.to_act: int = int(pyspiel.PlayerId.CHANCE)
        self.free: list[int] | None = None
        """While dealing, the chance actions (card indexes) of the cards not dealt yet, in
        increasing order (``None``: to be made from ``dealt`` when next asked for)."""
        self.mirror: Any = None
        """The game's native mirror (:mod:`mattis.rl.mirror`), made when an observer
        first asks for it and moved on with every move after; ``None``: not made (or
        dropped by an undo), ``False``: none covers this game."""

    def native(self, spec: _Spec) -> Any:
        """The native mirror of this game now (made from the deal and the moves so far
        on first use), or ``None`` where none covers it."""
        m = self.mirror
        if m is None:
            m = False
            if spec.mirror_note is None and self.state is not None:
                made = make_mirror(spec.rules, spec.players, spec.space, self.state)
                if made is not None:
                    try:
                        made.apply_all(self.actions)
                        m = made
                    except ValueError:  # a world whose recorded deck does not replay its moves
                        pass
            self.mirror = m
        return m or None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.deck = self.deck[:]
        c.dealt = self.dealt
        c.state = self.state.clone() if self.state is not None else None
        c.moves = self.moves[:]
        c.actions = self.actions[:]
        c.cursor = self.cursor.clone() if self.cursor is not None else None
        c.hands = [h[:] for h in self.hands]
        c.to_act = self.to_act
        c.mirror = self.mirror.copy() if self.mirror else self.mirror
        c.free = self.free[:] if self.free is not None else None
        return c

    def __getstate__(self) -> dict[str, Any]:
        """The state without the caches (``cursor``, ``hands``, the engine's memo of
        legal moves): a state pickles (and serializes) the same however much of its
        caches was filled."""
        engine: dict[str, Any] | None = None
        if self.state is not None:
            engine = self.state.__getstate__()
            engine["_legal"] = None
        return {"deck": self.deck, "dealt": self.dealt, "state": engine, "moves": self.moves,
                "actions": self.actions, "to_act": self.to_act, "players": len(self.hands)}

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.deck, self.dealt = d["deck"], d["dealt"]
        self.state = None
        if d["state"] is not None:
            self.state = State.__new__(State)
            self.state.__setstate__(d["state"])
        self.moves, self.actions, self.to_act = d["moves"], d["actions"], d["to_act"]
        self.cursor = None
        self.hands = [[] for _ in range(d["players"])]
        self.mirror = None
        self.free = None

    def hand_log(self, seat: int, spec: _Spec) -> list[int]:
        """The seat's hand (a card mask, ``observation(seat).hand_mask``) after the deal
        (or at the starting position) and after each move (the list is the cache itself:
        read it, do not change it)."""
        if self.cursor is None:
            self.cursor = spec.fresh(self.deck)
            for q, log in enumerate(self.hands):
                log.append(self.cursor.observation(q).hand_mask)
        cur = self.cursor
        while len(self.hands[0]) <= len(self.moves):
            cur.force(self.moves[len(self.hands[0]) - 1])  # replaying moves already found legal
            for q, log in enumerate(self.hands):
                log.append(cur.observation(q).hand_mask)
        return self.hands[seat]


class MattisGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_mattis`` game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        if "overrides" in given:
            given["overrides"] = canonical_overrides(str(given["overrides"]))
        p = {**DEFAULT_PARAMS, **given}
        rules = make_rules(str(p["rules"]), str(p["overrides"]))
        players = int(p["players"])
        if not str(p["position"]):
            rules.check_players(players)
        if not str(p["position"]) and not 0 <= int(p["dealer"]) < players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}")
        zero_sum = bool(p["zero_sum"])
        if zero_sum:
            check_zero_sum(rules, players)
        card_order = str(p["card_order"])
        check_card_order(card_order)
        dealer = int(p["dealer"])
        leader = int(p["leader"])
        start: State | None = None
        if str(p["position"]):
            if leader != -1:
                raise ValueError("leader is for a dealt game; a position names who is to act")
            given["position"] = position_param(position_text(str(p["position"])))
            try:
                start = parse_position(rules, position_text(str(p["position"])))
            except GameSetupError as e:
                raise ValueError(f"position: {e}") from None
            if players != start.players:
                raise ValueError(f"players is {players} but the position has {start.players} hands")
            if dealer != start.dealer:
                raise ValueError(f"dealer is {dealer} but the position says {start.dealer}")
        elif leader != -1 and not 0 <= leader < players:
            raise ValueError(f"leader must be a seat from 0 to {players - 1} (or -1: left of the dealer)")
        super().__init__(game_type(rules, zero_sum), game_info(rules, players, zero_sum), given)
        self.spec = _Spec(rules, players, dealer, zero_sum, card_order, None if leader == -1 else leader, start)

    def new_initial_state(self) -> MattisState:
        return MattisState(self)

    @property
    def rules(self) -> Rules:
        return self.spec.rules

    @property
    def players(self) -> int:
        return self.spec.players

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MattisObserver:
        """The observer of ``iig_obs_type`` (``None``: the observation); ``params`` may
        hold ``encoder`` (``"auto"``, ``"native"`` or ``"python"``, see
        :class:`MattisObserver`)."""
        encoder = str((params or {}).get("encoder", "auto"))
        if iig_obs_type is None:
            return MattisObserver(self, perfect_recall=False, encoder=encoder)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_mattis has no observer that sees every player's private cards")
        return MattisObserver(self, perfect_recall=bool(iig_obs_type.perfect_recall),
                              public=bool(iig_obs_type.public_info),
                              private=iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER,
                              encoder=encoder)


class MattisState(pyspiel.State):  # type: ignore[misc]
    """One position: 52 deal steps, then the players' moves."""

    def __init__(self, game: MattisGame) -> None:
        super().__init__(game)
        self._g = game.spec
        self._core = _Core(game.players)
        if self._g.start is not None:
            self._core.state = self._g.start.clone()
            self._core.to_act = self._player_to_act()

    # -------------------------------------------------------------- access
    @property
    def engine(self) -> State | None:
        """The engine state (referee only; ``None`` while dealing)."""
        return self._core.state

    def current_player(self) -> int:
        return self._core.to_act

    def is_terminal(self) -> bool:
        s = self._core.state
        return s is not None and s.is_over

    def _legal_actions(self, player: int) -> list[int]:
        s = self._core.state
        if s is None or s.is_over or player != s.to_act:
            return []
        return self._g.space.legal_actions(s.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet (their card indexes), each with the same chance.  The
        list of those cards is kept with the state and shortened as they are dealt, and
        the ``(action, probability)`` pairs are made once per game (a deal step costs a
        list of the remaining pairs, not a pass over the deck)."""
        core = self._core
        if core.state is not None:
            return []
        free = core.free
        g = self._g
        if free is None:
            mask = g.deck_mask & ~core.dealt
            card_of = g.card_of
            free = core.free = [i for i in range(52) if mask >> card_of[i] & 1]
        pairs = g.outcome_pairs[len(free)]
        return [pairs[i] for i in free]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.state is None:
            g = self._g
            card = g.card_of[action] if 0 <= action < 52 else -1
            if card < 0 or core.dealt >> card & 1 or not g.deck_mask >> card & 1:
                raise ValueError(f"card {action} cannot be dealt now")
            core.deck.append(card)
            core.dealt |= 1 << card
            if core.free is not None:
                core.free.remove(action)
            if len(core.deck) == g.deck_size:
                core.state = g.fresh(core.deck)
                core.to_act = self._player_to_act()
                core.free = None
            return
        mv = self._g.space.move(action)
        core.state.apply(mv)
        core.moves.append(mv)
        core.actions.append(action)
        core.to_act = self._player_to_act()
        if core.mirror:
            core.mirror.apply(action)

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (``player`` must have made ``action``): the state
        is then exactly what it was before (its serialized form too).  OpenSpiel's API;
        the engine replays the game without its last move (a cost that grows with the
        game's length).  OpenSpiel keeps its own copy of the history in C++, which a
        Python game cannot shorten: :meth:`history`, :meth:`full_history`,
        :meth:`history_str`, :meth:`move_number` and :meth:`serialize` read this state's
        own, so they agree after an undo; ``pyspiel.serialize_game_and_state`` reads
        OpenSpiel's copy (use ``game.deserialize_state(state.serialize())``).
        Raises ``ValueError`` when the last action is not ``player``'s ``action`` or
        there is nothing to undo."""
        core = self._core
        g = self._g
        if core.moves:
            seat = core.state.history_tuple()[-1][0] if core.state is not None else -1
            if core.actions[-1] != action or seat != player:
                raise ValueError(f"the last action is player {seat}'s {core.actions[-1]}, "
                                 f"not player {player}'s {action}")
            core.moves.pop()
            core.actions.pop()
            s = g.fresh(core.deck)
            for mv in core.moves:
                s.force(mv)  # replaying moves already found legal
            core.state = s
        elif core.deck and g.start is None:
            card = card_of_index(action, g.card_order) if 0 <= action < 52 else -1
            if player != pyspiel.PlayerId.CHANCE or card != core.deck[-1]:
                raise ValueError(f"the last action is the deal of card {card_index(core.deck[-1], g.card_order)}, "
                                 f"not player {player}'s {action}")
            core.deck.pop()
            core.dealt &= ~(1 << card)
            core.state = None
        else:
            raise ValueError("nothing to undo: this is the game's first state")
        core.to_act = int(pyspiel.PlayerId.CHANCE) if core.state is None else self._player_to_act()
        core.mirror = None  # remade from the deal and the moves left when next asked for
        core.free = None
        keep = len(core.moves) + 1
        if core.state is None or len(core.hands[0]) > keep:  # the hand cache went past the new end
            core.cursor = None
            core.hands = [[] for _ in core.hands]

    def history(self) -> list[int]:
        """The actions so far: the deal (card indexes), then the players' actions."""
        order = self._g.card_order
        return [card_index(c, order) for c in self._core.deck] + self._core.actions

    def full_history(self) -> list[PlayerAction]:
        """The actions so far with who made them (``player``, ``action``, as OpenSpiel's
        ``PlayerAction``; the deal's are the chance player's, -1)."""
        core = self._core
        order = self._g.card_order
        out = [PlayerAction(int(pyspiel.PlayerId.CHANCE), card_index(c, order)) for c in core.deck]
        s = core.state
        if s is not None:
            out += [PlayerAction(seat, a)
                    for (seat, _mv), a in zip(s.moves(), core.actions, strict=True)]
        return out

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self.history())

    def move_number(self) -> int:
        return len(self._core.deck) + len(self._core.actions)

    def serialize(self) -> str:
        """OpenSpiel's serialized form of this state (``game.deserialize_state`` reads it
        back), written from this state's own history (see :meth:`undo_action`)."""
        items = ",".join(f"{pa.player}:{pa.action}" for pa in self.full_history())
        return (f"history={items}\nmove_number={self.move_number()}\n"
                f"__dict__={base64.b64encode(pickle.dumps(self.__dict__)).decode('ascii')}")

    def _player_to_act(self) -> int:
        s = self._core.state
        assert s is not None
        if s.to_act is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return s.to_act

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_code(card_of_index(action, self._g.card_order))}"
        return self._g.space.describe(action)

    def returns(self) -> list[float]:
        s = self._core.state
        if s is None or not s.is_over:
            return [0.0] * self._g.players
        outcome = s.outcome
        assert outcome is not None
        return loser_rewards(self._g.players, outcome.losers, self._g.zero_sum)

    def is_truncated(self) -> bool:
        """Whether the game was stopped by the phase 2 cap (terminal, but cut short:
        a truncation in Gymnasium's and PettingZoo's terms)."""
        s = self._core.state
        return s is not None and s.is_over and is_truncated(s.end_reason)

    def __str__(self) -> str:
        s = self._core.state
        if s is None:
            return f"dealing: {len(self._core.deck)} of {self._g.deck_size} cards picked"
        snap = s.snapshot()
        hands = " | ".join(f"{i}: {' '.join(h) or '-'}" for i, h in enumerate(snap["hands"]))
        return (f"phase {snap['phase']}, to act {snap['to_act']}, trump {snap['trump']}, "
                f"stock {len(snap['stock'])}, table {snap['table']}, hands {hands}, losers {snap['losers']}")

    # ------------------------------------------------------- information
    def info_string(self, player: int) -> str:
        """Perfect-recall information state of ``player``, compact and one-to-one (a
        test checks it against :meth:`readable_info_string` over long games):
        ``p<seat>|<draws>|<hand>|<known>|<history>`` in base-64 digits
        (``A-Za-z0-9-_``): per card, the step at which it reached the seat's hand from
        the deck (``A`` never; 1 + the move count, the deal being 0; one digit each,
        52 in all); the hand now (a 52-bit mask, 9 digits); per seat the cards publicly
        known to be in its hand (9 digits each); and the public history, two digits a
        move (``seat * (A + 52) + code``, ``code`` the move's action number in the
        suit-major order, or ``A + card`` for a card turned up).  About two characters a
        move (the readable string spends up to ten times that), the same in either
        card order."""
        core = self._core
        if core.state is None:
            return f"p{player} dealing {len(core.deck)}"
        g = self._g
        obs = core.state.observation(player)
        log = core.hand_log(player, g)
        held = bytearray(52)
        for t, m in enumerate(_draws(log, obs.history)):
            for c in cards_of(m):
                if not held[c]:
                    assert t < 63, "cards reach a hand from the deck only in phase 1 (at most 53 steps)"
                    held[c] = t + 1
        canon = g.canonical
        width = canon.size + 52
        hist = []
        for seat, mv, shown in obs.history:
            code = canon.size + shown[0] if mv.kind is MoveKind.CHANCE else canon.action(mv)
            x = seat * width + code
            hist.append(_B64[x >> 6] + _B64[x & 63])
        return (f"p{player}|" + "".join(_B64[h] for h in held) + "|" + _b64_mask(obs.hand_mask) + "|"
                + "".join(_b64_mask(mask_of(k)) for k in obs.known) + "|" + "".join(hist))

    def readable_info_string(self, player: int) -> str:
        """The information state of :meth:`info_string` in words: the public history
        (:func:`mattis.rl.encoding.history_string`), the seat's hand (hex card mask)
        after the deal and after each move, and the cards publicly known to be in
        each hand now (up to tens of thousands of characters in a long game)."""
        core = self._core
        if core.state is None:
            return f"p{player} dealing {len(core.deck)}"
        obs = core.state.observation(player)
        hands = core.hand_log(player, self._g)
        known = "/".join("".join(card_code(c) for c in sorted(k)) or "-" for k in obs.known)
        return (f"p{player} " + history_string(obs) + " | " + ",".join(format(m, "x") for m in hands)
                + " | known " + known)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None,
                                rng: random.Random | None = None, model: MoveModel | None = None) -> MattisState:
        """A state drawn from ``player_id``'s information set (a determinization).

        The world comes from the one determinizer,
        :func:`mattis.core.determinize.sample_worlds`, given only ``player_id``'s
        :class:`~mattis.core.Observation`: the hidden cards are dealt afresh, never read
        from the true deal (uniformly over the consistent deals, or weighed by ``model``
        of the other players when given, e.g. :data:`mattis.bots.beliefs.HUMAN`).  The
        seat's perfect recall adds one thing the observation lacks, the draw (deal or
        stock) at which each of its own cards reached its hand; the seat's own cards
        are put back in the places it drew them (:func:`recall_own_draws`), so the
        sample has the same information state.
        Randomness comes from ``rng`` when given (reproducible), else from
        ``probability_sampler`` (OpenSpiel's ``UniformProbabilitySampler``, called for a
        seed), else from the OS.  Raises :class:`~mattis.core.determinize.DeterminizeError`
        if no consistent world is found; it never falls back to the true deal.
        """
        core = self._core
        if rng is not None:
            r = rng
        elif callable(probability_sampler):
            r = random.Random(int(float(probability_sampler()) * 2**53))
        else:
            r = random.Random()
        game = self.get_game()
        g = self._g
        if core.state is None:  # mid-deal: no seat has seen a card yet
            new = MattisState(game)
            for c in r.sample(g.rules.deck(), len(core.deck)):
                new.apply_action(card_index(c, g.card_order))
            return new
        if g.start is not None:
            raise DeterminizeError("python_mattis: a game that starts from a position has no deal to sample")
        obs = core.state.observation(player_id)
        mine = _draws(list(core.hand_log(player_id, g)), obs.history)
        try:
            world = sample_worlds(obs, r, 1, model).states[0]
            assert world.deck is not None  # the determinizer always deals from a deck
            deck = list(world.deck)
            # Where the seat drew at each step is public (who draws when, from which
            # place of the deck); which cards it drew there is its own recall.
            at = {c: i for i, c in enumerate(core.deck)}
            theirs = [mask_of([deck[at[c]] for c in cards_of(m)]) if m else 0 for m in mine]
            fixed = recall_own_draws(deck, theirs, mine)
        except (DeterminizeError, IllegalMoveError) as e:
            raise DeterminizeError(f"python_mattis: no deal fits player {player_id}'s information: {e}") from e
        if fixed != deck:
            # The seat's own draws put back where it drew them: only the places the seat
            # drew from change, among themselves, so the same public moves lead to the
            # same position; the world differs from the game dealt from ``fixed`` only
            # in the deck it records (a test replays such worlds from their record and
            # compares them field by field).
            world.deck = tuple(fixed)
        return self._from_world(world, fixed)

    def _from_world(self, world: State, deck: list[int]) -> MattisState:
        """A state of this game holding ``world`` (dealt from ``deck``) as it is, built
        without replaying OpenSpiel actions: OpenSpiel's history (``history()``, the
        serialized state) is written in one go through the game's state deserializer."""
        g = self._g
        game = self.get_game()
        core = _Core(g.players)
        core.deck = deck
        core.dealt = g.deck_mask
        core.state = world
        core.moves = self._core.moves[:]  # the public moves are the same
        core.actions = self._core.actions[:]
        core.to_act = int(pyspiel.PlayerId.TERMINAL) if world.to_act is None else world.to_act
        order = g.card_order
        items = [f"-1:{card_index(c, order)}" for c in deck]
        items += [f"{seat}:{a}" for (seat, _mv), a in zip(world.moves(), self._core.actions, strict=True)]
        new: MattisState = game.deserialize_state(
            f"history={','.join(items)}\nmove_number={len(items)}\n__dict__={_blank_dict()}")
        new._g = g
        new._core = core
        return new


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _b64_mask(mask: int) -> str:
    """A 52-bit card mask as 9 base-64 digits, most significant first."""
    return "".join(_B64[(mask >> s) & 63] for s in range(48, -1, -6))


_BLANK: list[str] = []


def _blank_dict() -> str:
    """An empty ``__dict__`` as OpenSpiel's serialized Python state holds it (a state
    built by :meth:`MattisState._from_world` gets its attributes after)."""
    if not _BLANK:
        _BLANK.append(base64.b64encode(pickle.dumps({})).decode("ascii"))
    return _BLANK[0]


def _draws(hands: list[int], history: Sequence[HistoryItem]) -> list[int]:
    """Per step of a seat's hand log (0 = the deal, then one per move), the mask of the
    cards that reached its hand from the deck then: new in the hand and never shown
    before (cards shown in public, such as won piles and pickups, join hands openly)."""
    out: list[int] = []
    prev = shown = 0
    for t, m in enumerate(hands):
        if t:
            shown |= mask_of(history[t - 1][2])
        out.append(m & ~prev & ~shown)
        prev = m
    return out


def recall_own_draws(deck: list[int], drawn: list[int], recalled: list[int]) -> list[int]:
    """``deck`` (a sampled world) with one seat's own cards put back where the seat
    drew them: ``drawn[t]`` is the mask of the cards the seat drew at step ``t`` in
    that world, ``recalled[t]`` the cards it remembers drawing then.  The seat drew at
    the same places in both (who draws when is public), so only those places change,
    among themselves.  Raises :class:`DeterminizeError` if the two do not fit."""
    if len(drawn) != len(recalled):
        raise DeterminizeError("the sampled world has a different number of steps")
    pos = {c: i for i, c in enumerate(deck)}
    out = list(deck)
    for w, d in zip(drawn, recalled, strict=True):
        if w == d:
            continue
        if w.bit_count() != d.bit_count():
            raise DeterminizeError("the sampled world draws a different number of cards for the seat")
        keep = w & d
        places = sorted(pos[c] for c in cards_of(w & ~keep))
        for i, c in zip(places, cards_of(d & ~keep), strict=True):
            out[i] = c
    if len(set(out)) != len(deck):
        raise DeterminizeError("the seat's own draws do not fit the sampled world")
    return out


RECALL_SCALE = PHASE1_BOUND + 1
"""The recall blocks' steps are scaled by this: a card reaches a hand from the deck
only in phase 1, at most :data:`PHASE1_BOUND` steps in, so ``first_held`` spans (0, 1]."""


def recall_layout(players: int, max_length: int) -> list[tuple[str, int]]:
    """The blocks the information-state tensor adds to the observation tensor, in order:

    * ``player`` (``players``): the seat whose information state it is, one-hot;
    * ``first_held`` (52): per card, (the step at which it reached the seat's hand from
      the deck: 0 = the deal, ``t`` = after the ``t``-th move, + 1) / 53; 0 for a card
      never drawn by the seat (cards that join a hand in view, such as piles and
      pickups, are in the public history);
    * ``first_laid`` (52): per card, (the move at which it was first laid in view + 1)
      / 53, at most 1 (phase 2);
    * ``moves`` (``max_length``, the game's length bound): the public history, one entry
      per move ``t``: ``(1 + seat * (A + 52) + code) / (1 + players * (A + 52))`` with
      ``code`` the action number (``A`` actions), or ``A + card`` for a chance move
      (the card it turned up); 0 after the last move.

    With the observation tensor this holds everything the information-state string
    does, so different information states have different tensors (a test checks it
    over long games)."""
    return [("player", players), ("first_held", 52), ("first_laid", 52), ("moves", max_length)]


class MattisObserver:
    """OpenSpiel's observer for ``python_mattis`` (observation or information state).

    The information-state tensor is the observation tensor followed by the blocks of
    :func:`recall_layout`.  ``private=False`` leaves out the seat's own cards and
    identity (the ``hand``, ``player`` and ``first_held`` blocks stay zero, the string
    shows no hand): a public observer.  ``public=False`` keeps only those private blocks.

    The observation tensor is written by a native mirror of the game
    (:mod:`mattis.rl.mirror`: the same tensor as :func:`mattis.rl.encoding.encode`'s,
    from the native engine's bitmasks, kept with the state and moved on with each of its
    moves) where the native engine covers the rules and the game was dealt (not
    started from a position); else by the Python encoder.  ``encoder="python"`` asks
    for the Python encoder, ``"native"`` refuses a game the mirror does not cover;
    :attr:`encoder` says which runs and :attr:`encoder_note` why not the native one.
    """

    def __init__(self, game: MattisGame, perfect_recall: bool, public: bool = True, private: bool = True,
                 encoder: str = "auto") -> None:
        n = game.spec.players
        if encoder not in ("auto", "native", "python"):
            raise ValueError("encoder must be 'auto', 'native' or 'python'")
        why = game.spec.mirror_note if encoder != "python" else "encoder='python'"
        if encoder == "native" and why is not None:
            raise ValueError(why)
        self.encoder = "python" if why is not None else "native"
        """Which encoder writes the observation tensor: ``native`` (a mirror of the game)
        or ``python`` (:class:`mattis.rl.encoding.Encoder`)."""
        self.encoder_note = why
        """Why not the native one (``None`` when it runs)."""
        self.perfect_recall = perfect_recall
        self.public = public
        self.private = private
        self.base = obs_size(n)
        self._max_len = int(game.max_game_length())
        blocks = layout(n) + (recall_layout(n, self._max_len) if perfect_recall else [])
        size = sum(k for _, k in blocks)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self._base_view = self.tensor[:self.base]
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        pos = 0
        for name, k in blocks:
            self.dict[name] = self.tensor[pos:pos + k]
            pos += k
        self._private_blocks = ("hand",) + (("player", "first_held") if perfect_recall else ())
        self._players = n
        self._order = game.spec.card_order
        self._cards = np.array([card_index(c, self._order) for c in range(52)], np.intp)
        """Where each card (its code) goes in a 52-card block."""
        self._actions = game.spec.space.size
        self._chance = game.spec.space.chance_action
        self._encoders: dict[int, Encoder] = {}
        self._recall: dict[int, list[Any]] = {}

    def set_from(self, state: MattisState, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` in ``state``.

        Incremental: per player the observer keeps an :class:`Encoder` and the
        recall blocks of the last state it was given; when it is handed the same state
        again after more moves it reads only the new moves (a cost per call that does
        not grow with the game's length).  Any other state is encoded afresh."""
        core = state._core
        if core.state is None:
            self.tensor.fill(0.0)
            return
        mirror = core.native(state._g) if self.encoder == "native" else None
        obs: Any = None
        if mirror is not None:
            mirror.write(player, self._base_view, None)  # every entry of the observation part
        else:
            obs = core.state.observation(player)
            enc = self._encoders.get(player)
            if enc is None:
                enc = self._encoders[player] = Encoder(self._players, self._order)
            enc.encode(obs, self._base_view)  # writes every entry of the observation part
        if self.perfect_recall:  # writes every entry of the recall part
            self._recall_blocks(state, player, obs if obs is not None else core.state.observation(player))
        if not self.private:
            for name in self._private_blocks:
                self.dict[name].fill(0.0)
        if not self.public:
            keep = [self.dict[name].copy() for name in self._private_blocks]
            self.tensor.fill(0.0)
            for name, values in zip(self._private_blocks, keep, strict=True):
                self.dict[name][:] = values

    def _recall_blocks(self, state: MattisState, player: int, obs: Any) -> None:
        """Fill the blocks of :func:`recall_layout`; kept per player, adding only the
        steps since the last call."""
        core = state._core
        cached = self._recall.get(player)
        if cached is None or cached[0] is not core or cached[4] > len(obs.history):
            cached = [core, 0, np.zeros(52, np.float32), 0, 0, np.zeros(52, np.float32), 0,
                      np.zeros(self._max_len, np.float32), 0]
            self._recall[player] = cached
        _, done_h, held, held_mask, done_l, laid, laid_mask, moves, shown_mask = cached
        log = core.hand_log(player, state._g)
        hist = obs.history
        for t in range(done_h, len(log)):
            if t:
                shown_mask |= mask_of(hist[t - 1][2])
            new = log[t] & ~held_mask & ~shown_mask  # from the deck: never seen before
            held_mask |= log[t]
            if new:
                held[self._cards[cards_of(new)]] = (t + 1) / RECALL_SCALE
        space = state._g.space
        width = self._actions + 52
        top = float(1 + self._players * width)
        for t in range(done_l, len(hist)):
            seat, mv, shown = hist[t]
            if mv.kind is MoveKind.CHANCE:
                code = self._actions + int(self._cards[shown[0]])
            else:
                code = space.action(mv)
            moves[t] = (1 + seat * width + code) / top
            if mv.kind is not MoveKind.PICKUP:
                new = mask_of(shown) & ~laid_mask
                if new:
                    laid_mask |= new
                    laid[self._cards[cards_of(new)]] = min((t + 1) / RECALL_SCALE, 1.0)
        cached[1], cached[3], cached[4], cached[6], cached[8] = len(log), held_mask, len(hist), laid_mask, shown_mask
        self.dict["player"].fill(0.0)
        self.dict["player"][player] = 1.0
        self.dict["first_held"][:] = held
        self.dict["first_laid"][:] = laid
        self.dict["moves"][:] = moves

    def string_from(self, state: MattisState, player: int) -> str:
        core = state._core
        if core.state is None:
            return f"p{player} dealing {len(core.deck)}"
        if self.public and self.private:
            return state.info_string(player) if self.perfect_recall else obs_string(core.state.observation(player))
        obs = core.state.observation(player)
        if not self.public:
            if self.perfect_recall:
                return f"p{player} hands " + ",".join(format(m, "x") for m in
                                                      core.hand_log(player, state._g))
            return f"p{player} hand " + "".join(card_code(c) for c in obs.hand)
        text = history_string(obs) if self.perfect_recall else obs_string(obs)
        if not self.perfect_recall:  # drop the seat number and the hand from the present view
            text = " ".join(w for w in text.split(" ")[1:] if not w.startswith("hand:"))
        return f"public {text}"


class MattisBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the project's bots (:func:`mattis.play.make_bot`) as a ``pyspiel.Bot``
    for ``python_mattis``: ``step(state)`` gives the bot the observation of the player
    to act (and nothing else) and returns its move's action number.

    >>> bot = MattisBot("easy", player_id=0, seed=1)
    >>> # pyspiel.evaluate_bots(state, [bot, ...], seed)
    """

    def __init__(self, bot: str | Agent = "easy", player_id: int | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.agent: Agent = make_bot(bot, seed) if isinstance(bot, str) else bot
        self.player_id = player_id

    def step(self, state: MattisState) -> int:
        core = state._core
        if core.state is None or state.is_terminal():
            raise ValueError("a bot moves only at a player's decision, not while dealing or after the end")
        seat = core.state.to_act
        assert seat is not None
        if self.player_id is not None and seat != self.player_id:
            raise ValueError(f"this bot plays player {self.player_id}, but player {seat} is to act")
        move = self.agent.act(core.state.observation(seat))
        return state._g.space.action(move)

    def restart_at(self, state: MattisState) -> None:
        pass

    def inform_action(self, state: MattisState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def is_clonable(self) -> bool:
        return False


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def record_params(record: GameRecord) -> dict[str, Any]:
    """The parameters of the ``python_mattis`` game a record is a game of: its rules
    (preset and overrides), players and dealer, and who led the first trick (``leader``)
    or the starting position (``position``)."""
    r = record.rules
    params: dict[str, Any] = {
        "rules": r.name, "players": record.players, "dealer": record.dealer,
        "overrides": ";".join(f"{k}:{_option_text(v)}" for k, v in r.overrides().items())}
    if record.position is not None:
        params["position"] = position_param(record.position)
    elif record.leader is not None and record.leader != (record.dealer + 1) % record.players:
        params["leader"] = record.leader
    return params


def state_from_record(game: MattisGame | None, record: GameRecord) -> MattisState:
    """The ``python_mattis`` state a record reaches: the deal (52 chance actions, the
    record's deck) and then its moves, as OpenSpiel actions (so ``history()`` is the
    game's action history).  ``game`` must be the record's game (its rules, players,
    dealer, first leader or starting position, see :func:`record_params`); ``None``
    loads it (with the default card order).  Raises ``ValueError`` for a game that
    does not fit and :class:`mattis.core.record.RecordError` for a move that cannot be
    read or is illegal."""
    if game is None:
        game = pyspiel.load_game(SHORT_NAME, record_params(record))
    g = game.spec
    start = None if g.start is None else g.start.position
    want_leader = record.leader if record.leader is not None else (record.dealer + 1) % record.players
    have_leader = g.leader if g.leader is not None else (g.dealer + 1) % g.players
    if g.rules != record.rules or g.players != record.players or start != record.position or (
            record.position is None and (g.dealer != record.dealer or have_leader != want_leader)):
        raise ValueError(f"the record is not a game of {game}: load it with {record_params(record)}")
    state = game.new_initial_state()
    if record.position is None:
        assert record.deck is not None
        for c in record.deck:
            state.apply_action(card_index(c, g.card_order))
    for i, text in enumerate(record.moves, start=1):
        try:
            seat, move = parse_record_move(text)
        except MoveError as e:
            raise ReplayError(i, text, str(e)) from None
        s = state.engine
        assert s is not None
        if s.is_over or seat != s.to_act:
            raise ReplayError(i, text, "the game is over" if s.is_over else f"it is seat {s.to_act}'s turn")
        why = verify(s, move)
        if why is not None:
            raise ReplayError(i, text, str(why), why)
        state.apply_action(g.space.action(move))
    return state


def record_from_state(state: MattisState) -> GameRecord:
    """The record of a ``python_mattis`` game so far (:class:`mattis.core.record.GameRecord`:
    the deck or starting position, who led first when not the dealer's neighbour, and
    the moves).  Raises ``ValueError`` while the cards are still being dealt."""
    s = state.engine
    if s is None:
        raise ValueError("no record while the cards are being dealt")
    return GameRecord.from_state(s)


def load(rules: str = "mattis", players: int = 3, overrides: str = "", dealer: int = 0,
         zero_sum: bool = False) -> MattisGame:
    """Load ``python_mattis`` with these parameters."""
    game: MattisGame = pyspiel.load_game(SHORT_NAME, {"rules": rules, "players": players,
                                                      "overrides": overrides, "dealer": dealer,
                                                      "zero_sum": zero_sum})
    return game


pyspiel.register_game(_GAME_TYPE, MattisGame)

__all__ = ["MattisBot", "MattisGame", "MattisObserver", "MattisState", "SHORT_NAME", "canonical_overrides",
           "constant_sum", "game_info", "game_type", "load", "position_param", "position_text", "recall_own_draws",
           "record_from_state", "record_params", "state_from_record"]
