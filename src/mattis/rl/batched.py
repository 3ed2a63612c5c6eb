"""The batched engine path: ``N`` games stepped by action ids in one call, their
observation tensors, legal-action masks, rewards, terminations and truncations
written into preallocated NumPy arrays.

>>> from mattis.rl.batched import BatchedGames
>>> games = BatchedGames(8, rules="mattis", players=3, opponents="random")
>>> games.reset(seed=0)
>>> games.obs.shape, games.masks.shape, bool(games.masks.any(axis=1).all())
((8, 1132), (8, 54), True)
>>> games.step(games.masks.argmax(axis=1))  # the first legal action of every game
>>> games.rewards.shape, games.terminations.dtype.name
((8,), 'bool')

The per-game work (the learner's move and its legality check, the ``random``
opponents' moves, the tensor's bits, counts and mask) runs in
:class:`mattis.core.batch.Batch`, compiled with the core (``mattis/_build.py``); it
writes the tensor's bits as 56-bit words and its counts as 28-bit lanes into one list
and each mask as a row of bytes, and a few vectorised NumPy calls per batch here turn
them into float32 and bool (:meth:`BatchedGames.step`).  On the pure
core the same code runs as Python and gives the same arrays (a test compares the two
builds game for game).

The games are :class:`~mattis.rl.gym_env.MattisEnv`'s, step for step: the same seed
scheme (game ``i`` of ``reset(seed=s)`` is seeded ``s + i``; deals, bots, pools, seats
and dealers per episode by :func:`mattis.play.derive_seed`), the same opponents
(:mod:`mattis.rl.opponents`), the same rewards, the same skip of a deal that settles
the learner's fate before it acts, and an auto-reset in the same step: a game whose
episode ends is dealt anew at once (``final_obs`` holds the ended episode's last
tensor).  ``random`` opponents are played inside the compiled step; any other bot
(``easy``, ...) and a per-observation policy callable are asked game by game; a
:class:`~mattis.rl.opponents.BatchPolicy` is asked once for every game waiting on it.

**The native engine.** With ``engine="auto"`` (the default) the games of the four
presets (``mattis``, ``hund``, ``blodmattis``, ``skitgubbe``: their rule options, any
``phase2_cap``, every player count they allow) against ``random`` and ``easy``
(``heuristic``) opponents, one kind or a mix by seat, run on
``mattis.rl._native``, one C file built with the package where a C compiler works
(setup.py): each state held as bitmasks, the ``random`` opponents played inside it
from CPython's Mersenne Twister seeded as ``random.Random`` seeds it (the same deals,
the same draws, so the same games for the same seeds), the ``easy`` ones by a port of
:class:`~mattis.bots.heuristic.HeuristicBot` (its choices and its cycle guard's memory,
a new bot per seat and episode as here; it draws no numbers), the tensors, masks, rewards,
terminations and truncations written straight into the arrays.  It follows the rules
core function by function and is checked in lockstep against this Python path
(tests/rl/test_rl_native.py: every array at every step, every preset and player
count).  Anything else (another option mix, any other opponent, a pure install)
runs on the Python path: :attr:`BatchedGames.engine` says which (``"native"`` or
``"python"``) and :attr:`BatchedGames.engine_note` why not native; ``engine="python"``
asks for the Python path, ``engine="native"`` refuses what it does not cover.  The
native engine holds no :class:`~mattis.core.State` (:meth:`BatchedGames.state`
raises) and cannot change its opponents to bots it does not play; it copies and pickles (for the
same build of the engine).
"""

from __future__ import annotations

import _random
import copyreg
import dataclasses
import random
import secrets
import struct
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._build import source_hash
from ..bots.base import RandomBot
from ..core import Phase, Rules, State
from ..core.batch import COUNTS, ILLEGAL, LANE_BITS, LANE_MAX, LANES, PLAYING, TRUNCATED, WAITING, Batch, count_scales
from ..core.layout import BLOCKS, FLAG_BLOCKS
from ..core.moves import MoveKind
from ..core.rules import (
    PRESETS,
    Chance,
    Draw,
    EmptyFighter,
    EmptyHand,
    Follow,
    GoingOut,
    Leader2,
    Phase1End,
    Pickup,
    Ties,
    Tricks,
    TrickSize,
    Trump,
)
from ..core.state import shuffled_deck
from ..play import Agent, Seed, derive_seed
from ..play.agents import LEVELS
from .common import SeatChoice, check_zero_sum, choose_seat, make_rules
from .encoding import ActionSpace, _card_permutation, card_index, check_card_order, obs_size, offsets
from .opponents import BatchPolicy, Opponent, PolicyAgent, opponent_specs, resolve


def _load_native() -> tuple[Any, str | None]:
    """The native engine's module and ``None``, or ``None`` and why it is not used: not
    built (no C compiler at install, ``MATTIS_PURE_BUILD=1``, a failed build), or built
    from another ``_native.c`` than the one beside it (an edit since the last install:
    a stale build never runs)."""
    try:
        from . import _native as module  # type: ignore[attr-defined]  # the C engine, where the build made it
    except ImportError:
        return None, "the native engine is not built here (no C compiler at install, or MATTIS_PURE_BUILD=1)"
    source = Path(__file__).with_name("_native.c")
    if source.exists() and getattr(module, "SOURCE", "") != source_hash(source):
        return None, ("the native engine here was built from another rl/_native.c than the one beside it "
                      "(install the package again to rebuild it)")
    return module, None


_native, NATIVE_MISSING = _load_native()
"""The native engine's module, or ``None`` and :data:`NATIVE_MISSING` says why."""

_choose = choose_seat

ENGINES = ("auto", "native", "python")
"""The ``engine`` choices of :class:`BatchedGames`: ``auto`` takes the native engine
where it covers the game (:func:`native_covers`), ``native`` demands it, ``python``
runs the Python path."""


def native_rules_covered(rules: Rules) -> str | None:
    """``None`` if the native engine (its batched games and its mirror) covers games of
    ``rules``, else why not: it is built here and plays the four presets' rules
    (``mattis``, ``hund``, ``blodmattis``, ``skitgubbe``; any ``phase2_cap``, every player
    count they allow)."""
    if _native is None:
        return NATIVE_MISSING
    if dataclasses.replace(rules, phase2_cap=PRESETS["mattis"].phase2_cap) not in PRESETS.values():
        return "the native engine plays the four presets' rules only (no other option mix)"
    return None


NATIVE_BOTS = {"random": 0, "heuristic": 1}
"""The bots the native engine plays inside it (by :func:`mattis.play.make_bot`'s name;
a level such as ``easy`` names one), each as the engine's number for it."""


def native_bot(spec: Opponent) -> int | None:
    """The native engine's number for the opponent ``spec`` (:data:`NATIVE_BOTS`), or
    ``None`` if it does not play it inside."""
    if not isinstance(spec, str):
        return None
    key = spec.strip().lower()
    return NATIVE_BOTS.get(LEVELS.get(key, key))


def native_covers(rules: Rules, opponents: Sequence[Opponent]) -> str | None:
    """``None`` if the native engine plays these games, else why not: the rules as
    :func:`native_rules_covered` says, against ``random`` and ``easy`` (``heuristic``)
    opponents only."""
    why = native_rules_covered(rules)
    if why is not None:
        return why
    if any(native_bot(spec) is None for spec in opponents):
        return "the native engine plays random and easy (heuristic) opponents only"
    return None


def _native_rules(r: Rules) -> list[int]:
    """The rule options as the native engine reads them (each value's index; its
    ``RulesC`` in the same order)."""
    def idx(value: object, values: tuple[object, ...]) -> int:
        return values.index(value)

    return [int(r.tricks is Tricks.ALL), int(r.ties is Ties.STOTING), int(r.draw is Draw.AFTER_TRICK),
            idx(r.chance, (Chance.OFF, Chance.LEAD, Chance.ANY)),
            idx(r.trump, (Trump.LAST_CARD, Trump.BOTTOM_UP, Trump.SHOWN_WHEN_DRAWN)),
            idx(r.phase1_end, (Phase1End.ONE_HOLDER, Phase1End.FIRST_EMPTY, Phase1End.STOCK_EMPTY)),
            idx(r.empty_hand, (EmptyHand.PICK_UP, EmptyHand.LOSES, EmptyHand.SAFE)),
            int(r.leader2 is Leader2.LAST_TRICK), int(r.follow is Follow.VOID),
            idx(r.pickup, (Pickup.FIRST, Pickup.LAST, Pickup.LOWEST)), int(r.pickup_optional), int(r.pickup_run),
            idx(r.trick_size, (TrickSize.START, TrickSize.ACTIVE, TrickSize.SEATED)),
            idx(r.going_out, (GoingOut.LAID, GoingOut.CLEARED, GoingOut.HOLDERS)), r.sequences,
            int(r.empty_fighter is EmptyFighter.DROP), int(r.leftovers_shown), r.two_player_discard]


def native_spec_args(rules: Rules, players: int, space: ActionSpace, zero_sum: bool = False) -> tuple[Any, ...]:
    """The native engine's arguments after ``games`` and before the buffers: the
    players, the rule options, ``zero_sum``, the phase 2 cap, the tensor's block
    offsets, each card's index in a 52-card block and among the actions, each action's
    move as the engine codes it, the chance and pickup actions (shared by the batched
    engine and the mirrors of :mod:`mattis.rl.mirror`)."""
    o = offsets(players)
    # a move as the engine codes it: a card, 52 sjanse, 53 pickup, 64 + 16 * lowest card + length
    action_move = [52 if mv.kind is MoveKind.CHANCE else 53 if mv.kind is MoveKind.PICKUP
                   else mv.cards[0] if len(mv.cards) == 1 else 64 + 16 * mv.cards[0] + len(mv.cards)
                   for mv in (space.move(a) for a in range(space.size))]
    cidx = [card_index(c, space.card_order) for c in range(52)]
    offs = [o[name] for name, _size, _shape, _what in BLOCKS] + [obs_size(players)]
    return (players, _native_rules(rules), int(zero_sum), rules.phase2_cap, offs, cidx, cidx, action_move,
            space.chance_action, space.pickup_action)


def core_batch(games: int, players: int, space: ActionSpace, zero_sum: bool) -> Batch:
    """The compiled core's :class:`~mattis.core.batch.Batch` of ``games`` games laid out
    for ``space`` (its actions and card order) and the tensor's blocks."""
    o = offsets(players)
    moves = [space.move(a) for a in range(space.size)]
    seqs = {mv.cards: a for a, mv in enumerate(moves) if len(mv.cards) > 1}
    return Batch(games, players, moves, [card_index(c, space.card_order) for c in range(52)], seqs,
                 space.chance_action, space.pickup_action, tuple(o[b] for b in FLAG_BLOCKS), o["laid"],
                 (obs_size(players) + 7) // 8, (space.size + 7) // 8, zero_sum)


def _reduce_batch(core: Batch) -> tuple[Any, ...]:
    """How :mod:`pickle` and :mod:`copy` take a :class:`~mattis.core.batch.Batch` apart:
    its constructor's arguments and its attributes (:func:`_rebuilt_batch` puts it
    together).  The compiled core's class (mypyc) cannot be made without those
    arguments, so the default protocol fails on it; this one (registered with
    :mod:`copyreg` below) serves both cores, and the envs that hold a batch deep-copy
    and pickle on either."""
    args = (core.games, core.players, core.moves, core.card_actions, core.seq_actions, core.chance_action,
            core.pickup_action, core.flag_at, core.laid_at, core.flag_bytes, core.mask_bytes, core.zero_sum)
    got: dict[str, Any] = core.__getstate__()  # type: ignore[assignment]  # mypyc: a dict; pure: __dict__
    state = dict(got)
    del state["_draws"]
    return _rebuilt_batch, (args, state)


def _rebuilt_batch(args: tuple[Any, ...], state: dict[str, Any]) -> Batch:
    """The batch of ``args`` with the attributes ``state``; the generators' bound
    ``getrandbits`` are bound anew to the copied generators (:func:`copy.deepcopy`
    copies a built-in method as it is, still bound to the original's generator)."""
    core = Batch(*args)
    state["_draws"] = [[None if r is None else r.getrandbits for r in rs] for rs in state["randoms"]]
    setstate = getattr(core, "__setstate__", None)
    if setstate is not None:  # the compiled class
        setstate(state)
    else:
        vars(core).update(state)
    return core


copyreg.pickle(Batch, _reduce_batch)


class _Buffers:
    """``rows`` rows of buffers laid out as the compiled batch's (for the observations of
    opponents asked by a batch policy)."""

    def __init__(self, rows: int, core: Batch) -> None:
        self.flags: list[int] = [0] * (rows * core.row_words)
        self.masks: list[bytes] = [b""] * rows
        self.mask_bytes = core.mask_bytes

    def mask_view(self, k: int) -> npt.NDArray[np.uint8]:
        """The first ``k`` rows' mask bytes as a ``(k, mask_bytes)`` array."""
        return np.frombuffer(b"".join(self.masks[:k]), np.uint8).reshape(k, self.mask_bytes)


class BatchedGames:
    """``num_games`` games of one seat against opponents, stepped together (see the
    module docstring).  The arguments are :class:`~mattis.rl.gym_env.MattisEnv`'s.

    After :meth:`reset` and each :meth:`step` the preallocated arrays hold: ``obs``
    float32 ``(N, obs_size)``, ``masks`` bool ``(N, actions)`` (the learner's legal
    actions now), ``rewards`` float64, ``terminations`` and ``truncations`` bool,
    ``illegal`` bool (the step's action was not legal: the episode ended with -1), and
    for the games whose episode ended in that step ``final_obs`` (the ended episode's
    last tensor) and ``final_seats`` (its learner's seat)."""

    def __init__(self, num_games: int, rules: str | Rules = "mattis", players: int = 3,
                 overrides: Mapping[str, Any] | str | None = None, seat: SeatChoice = 0,
                 opponents: Opponent | Sequence[Opponent] = "easy", dealer: SeatChoice = 0,
                 zero_sum: bool = False, card_order: str = "suit_major", engine: str = "auto") -> None:
        if num_games < 1:
            raise ValueError("num_games must be at least 1")
        self.rules = make_rules(rules, overrides)
        self.rules.check_players(players)
        if self.rules.phase2_cap >= LANE_MAX:
            raise ValueError(f"the batched engine takes phase2_cap below {LANE_MAX} (its count lanes' width)")
        check_card_order(card_order)
        if zero_sum:
            check_zero_sum(self.rules, players)
        for choice, what in ((seat, "seat"), (dealer, "dealer")):
            if isinstance(choice, int):
                if not 0 <= choice < players:
                    raise ValueError(f"{what} must be 0..{players - 1}")
            else:
                _choose(choice, what, players, 0, 0)
        self.num_games = n = num_games
        self.players = players
        self.zero_sum = zero_sum
        self.card_order = card_order
        self.seat_choice = seat
        self.dealer_choice = dealer
        self.set_opponents(opponents)
        self.space = space = ActionSpace(self.rules, card_order)
        self.size = size = obs_size(players)
        self.actions = space.size
        o = offsets(players)
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}")
        why = native_covers(self.rules, self.opponents) if engine != "python" else "engine='python'"
        if engine == "native" and why is not None:
            raise ValueError(why)
        self.engine = "python" if why is not None else "native"
        """Which engine steps these games: ``native`` (the C engine, ``mattis.rl._native``)
        or ``python`` (:class:`mattis.core.batch.Batch`); :attr:`engine_note` says why
        the native one does not."""
        self.engine_note = why
        self._seed: list[Seed] = [None] * n
        self._episode = [0] * n
        self.rewards = np.zeros(n, np.float64)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.illegal = np.zeros(n, np.bool_)
        self.final_obs = np.zeros((n, size), np.float32)
        self.final_seats = np.zeros(n, np.int64)
        self.final_facts: list[tuple[Phase, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None] = \
            [None] * n
        """For each game whose episode ended in the last step, :meth:`facts` at its end."""
        self._started = False
        self._native: Any = None
        if self.engine == "native":
            self._init_native(o)
            return
        self._core = core_batch(n, players, space, zero_sum)
        self._perm = _card_permutation(players, card_order)
        cols: list[int] = []
        for name in COUNTS:
            cols += [o[name] + r for r in range(players)] if name in ("hand_counts", "tricks_won") else [o[name]]
        self._count_cols = np.array(cols, np.intp)
        scales = count_scales(players, self.rules.phase2_cap)
        self._scale = np.array([s for s, _ in scales], np.float64)
        self._most = np.array([m for _, m in scales], np.float64)
        core = self._core
        # the tensors and masks are views of arrays padded to whole words and bytes, which
        # one table lookup per batch fills from the compiled step's words and bytes
        self._words = core.flag_words
        self._row_words = core.row_words
        self._packs: dict[int, struct.Struct] = {}
        """A ``struct`` layout per number of words read from a list (:meth:`_fill`)."""
        # rows 0..n-1 of the word list are the games' tensors, rows n.. the ended
        # episodes' final tensors of a step: one conversion a step gives both
        core.flags.extend([0] * (n * core.row_words))
        self._obs_all = np.zeros((2 * n, core.flag_words, 56), np.float32)
        self._mask_full = np.zeros((n, core.mask_bytes, 8), np.bool_)
        self._views()
        self._scratch = _Buffers(n, core)
        self._final_masks: list[bytes] = [b""] * (2 * n)
        """The ended episodes' masks (written empty, never read)."""
        self._width = core.count_width
        self._agents: list[dict[int, Agent]] = [{} for _ in range(n)]
        self._rngs = [[random.Random() for _ in range(players + 1)] for _ in range(n)]
        """Per game: a generator per seat for its ``random`` opponent, and one for the deal
        (reseeded each episode: reseeding costs less than a new generator)."""

    def _init_native(self, o: dict[str, int], fresh: bool = True) -> None:
        """The C engine writing into the arrays (``obs`` and ``masks`` made anew if ``fresh``)."""
        n = self.num_games
        if fresh:
            self.obs = np.zeros((n, self.size), np.float32)
            self.masks = np.zeros((n, self.actions), np.bool_)
        self._native = _native.Engine(n, *native_spec_args(self.rules, self.players, self.space, self.zero_sum),
                                      self.obs, self.masks, self.final_obs, self.rewards,
                                      self.terminations, self.truncations, self.illegal)

    def _views(self) -> None:
        """``obs`` and ``masks`` (and the rows the conversion writes) as views of the
        padded arrays."""
        n = self.num_games
        self._obs_full = self._obs_all[:n]
        self._obs_rows = self._obs_all.reshape(2 * n, -1)[:, :self.size]
        self.obs = self._obs_rows[:n]
        self.masks = self._mask_full.reshape(n, -1)[:, :self.actions]

    _VIEWS = ("_obs_full", "_obs_rows", "obs", "masks")

    def __getstate__(self) -> dict[str, Any]:
        """For :mod:`pickle` and :mod:`copy`: everything but the views (a copied view
        is an array of its own, which the conversion would no longer fill) and the
        ``struct`` layouts (a cache that cannot be pickled; :meth:`_fill` remakes them).
        The native engine is handed over as its games' bytes (its ``dump``: a pickle
        for the same build of the engine)."""
        if self._native is not None:
            state = dict(self.__dict__)
            state["_native"] = self._native.dump()
            return state
        state = {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}
        state["_packs"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        data = state.get("_native")
        if isinstance(data, bytes):  # the native engine's games, written into the copied arrays
            self._init_native(offsets(self.players), fresh=False)
            self._native.load(data)
            return
        self._views()

    # ------------------------------------------------------------------ API
    @property
    def decisions(self) -> int:
        """Moves made by every seat (learners and opponents) in these games so far."""
        if self._native is not None:
            decisions: int = self._native.decisions
            return decisions
        return self._core.decisions

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """The opponents from each game's next episode on (as :meth:`MattisEnv.set_opponents`)."""
        specs = opponent_specs(opponents, self.players)
        if getattr(self, "_native", None) is not None:
            why = native_covers(self.rules, specs)
            if why is not None:
                raise ValueError(f"{why}: make the games with engine='python' to change to these opponents")
        self.opponents = specs

    def reset(self, seed: int | Sequence[int | None] | None = None) -> None:
        """Deal every game anew (game ``i`` seeded ``seed + i``, or ``seed[i]``; ``None``
        continues each game's sequence of episodes)."""
        n = self.num_games
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"need {n} seeds, got {len(seeds)}")
        native = self._native is not None
        for i, s in enumerate(seeds):
            if s is not None:
                self._seed[i], self._episode[i] = s, 0
            if native:
                self._new_native_episode(i)
            else:
                self._new_episode(i)
        if not native:  # the native engine wrote each game's tensor and mask as it dealt it
            self._core.write_all()
            self._convert_all(0)
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self.illegal[:] = False
        self._started = True

    def step(self, actions: npt.NDArray[np.integer[Any]] | Sequence[int]) -> None:
        """One action per game (the learner's), then the opponents' answers; the games
        whose episode ended are dealt anew (their last tensor is in ``final_obs``)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        acts = np.asarray(actions).reshape(-1)
        n = self.num_games
        if acts.shape[0] != n:
            raise ValueError(f"need {n} actions, got {acts.shape[0]}")
        eng = self._native
        if eng is not None:
            for i in eng.step(np.ascontiguousarray(acts, np.int64)):
                self.final_seats[i] = eng.seat(i)
                self.final_facts[i] = self.facts(i)
                self._new_native_episode(i)
            return
        core = self._core
        core.step(acts.tolist(), True)  # writes the games whose learner is to act again
        unwritten = core.ended()
        status = core.status
        if unwritten:
            waiting = [i for i in unwritten if status[i] == WAITING]
            if waiting:
                self._play_waiting(waiting)
        done = [i for i in unwritten if status[i] != PLAYING] if unwritten else unwritten
        # the status arrays: all zero, then the few games whose episode ended
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        self.illegal.fill(False)
        if done:
            # the ended episodes' last tensors (rows n.. of the word list), then their
            # new deals, then one write of every game and one conversion of both
            rewards = core.rewards
            flags = core.flags
            final_masks = self._final_masks
            for row, i in enumerate(done):
                code = status[i]
                self.rewards[i] = rewards[i]
                if code == TRUNCATED:
                    self.truncations[i] = True
                else:
                    self.terminations[i] = True
                    if code == ILLEGAL:
                        self.illegal[i] = True
                seat = core.seats[i]
                core.write_seat(i, seat, n + row, flags, final_masks, False)
                self.final_seats[i] = seat
                self.final_facts[i] = self.facts(i)
                self._new_episode(i)
        for i in unwritten:
            core.write(i)
        self._convert_all(len(done))
        if done:
            self.final_obs[done] = self._obs_rows[n:n + len(done)]

    def facts(self, i: int) -> tuple[Phase, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """Game ``i``'s public facts now, as its learner's observation has them: the phase,
        the dealer, who went out, who was ranked at a forced end, who lost."""
        if self._native is not None:
            phase, dealer, finished, ranked, losers = self._native.facts(i)
            return Phase(phase), dealer, finished, ranked, losers
        st = self._core.state(i)
        return st.phase, st.dealer, tuple(st.finished), tuple(st.ranked), tuple(st.losers)

    def state(self, i: int) -> State:
        """Game ``i``'s state (for watching and tests; a learner must use ``obs`` only).
        The native engine holds no :class:`State` (make the games with
        ``engine="python"`` to watch them)."""
        if self._native is not None:
            raise RuntimeError("the native engine holds no State; make the games with engine='python' to watch them")
        return self._core.state(i)

    def seat(self, i: int) -> int:
        """The learner's seat in game ``i``'s current episode."""
        if self._native is not None:
            seat: int = self._native.seat(i)
            return seat
        return self._core.seats[i]

    # ------------------------------------------------------------ internals
    def _next_episode(self, i: int) -> tuple[Seed, int, int, int]:
        """Game ``i``'s next episode: its seed, its number (counted on), the learner's seat
        and the dealer (both engines deal it alike)."""
        seed = self._seed[i]
        k = self._episode[i]
        self._episode[i] += 1
        n = self.players
        return seed, k, _choose(self.seat_choice, "seat", n, seed, k), _choose(self.dealer_choice, "dealer", n, seed, k)

    def _new_episode(self, i: int) -> None:
        core = self._core
        n = self.players
        rngs = self._rngs[i]
        while True:  # skip the rare deal that settles the learner's fate before it acts (as MattisEnv)
            seed, k, seat, dealer = self._next_episode(i)
            if seed is None:
                state = State.new(self.rules, n, dealer=dealer)
            else:  # State.new's deal, from a generator of this game's reseeded (as random.Random(seed))
                deal = rngs[n]
                _reseed(deal, derive_seed(seed, "deal", k))
                state = State.from_deck(self.rules, n, shuffled_deck(deal, self.rules), dealer)
            agents: dict[int, Agent] = {}
            randoms: list[Any] = [None] * n
            for j, spec in enumerate(self.opponents):
                s = (seat + 1 + j) % n
                if spec == "random" and seed is not None:
                    # the random bot's own generator, seeded as resolve() would seed it
                    _reseed(rngs[s], derive_seed(seed, "bot", k, s))
                    randoms[s] = rngs[s]
                    continue
                agent = resolve(spec, self.rules, n, seed, k, s)
                if type(agent) is RandomBot:
                    randoms[s] = agent.rng
                else:
                    agents[s] = agent
            self._agents[i] = agents
            core.start(i, state, seat, randoms)
            if core.status[i] == WAITING:
                self._play_waiting([i])
            if core.status[i] == PLAYING:
                return

    def _new_native_episode(self, i: int) -> None:
        """:meth:`_new_episode` on the native engine: each seat's kind of bot and the
        same seeds (the deal's and each ``random`` opponent's, by
        :func:`~mattis.play.derive_seed`) handed to it,
        which deals and seeds its generators as ``random.Random`` does; an unseeded game
        draws them from :mod:`secrets`."""
        eng = self._native
        n = self.players
        while True:
            seed, k, seat, dealer = self._next_episode(i)
            kinds = [0] * n
            for j, spec in enumerate(self.opponents):
                kind = native_bot(spec)
                assert kind is not None  # native_covers admitted every opponent
                kinds[(seat + 1 + j) % n] = kind
            if seed is None:
                deal = secrets.randbits(63)
                bots = [secrets.randbits(63) for _ in range(n)]
            else:
                deal = _derived(seed, "deal", k)
                bots = [0 if s == seat else _derived(seed, "bot", k, s) for s in range(n)]
            if eng.start(i, deal, seat, dealer, bots, kinds) == PLAYING:
                return

    def _play_waiting(self, games: list[int]) -> None:
        """Let the opponents played outside the compiled step move until every game's
        learner is to act or its episode has ended."""
        core = self._core
        pending = games
        while pending:
            again: list[int] = []
            batched: dict[int, tuple[BatchPolicy, list[tuple[int, int]]]] = {}
            for i in pending:
                seat = core.to_act(i)
                agent = self._agents[i][seat]
                if isinstance(agent, PolicyAgent) and isinstance(agent.policy, BatchPolicy):
                    batched.setdefault(id(agent.policy), (agent.policy, []))[1].append((i, seat))
                    continue
                core.apply(i, agent.act(core.state(i).observation(seat)))
                if core.status[i] == WAITING:
                    again.append(i)
            for policy, todo in batched.values():
                scratch = self._scratch
                for row, (i, seat) in enumerate(todo):
                    core.write_seat(i, seat, row, scratch.flags, scratch.masks, True)
                k = len(todo)
                obs = self._tensors(scratch, k)
                masks = _BYTE_BOOLS.take(scratch.mask_view(k), axis=0).reshape(k, -1)[:, :self.actions]
                chosen = np.asarray(policy.fn(obs, masks)).reshape(-1)
                if chosen.shape[0] != k:
                    raise ValueError(f"batch policy {policy.name!r} gave {chosen.shape[0]} actions for {k} games")
                for row, (i, seat) in enumerate(todo):
                    a = int(chosen[row])
                    if not 0 <= a < self.actions or not masks[row, a]:
                        raise ValueError(f"policy {policy.name!r} chose action {a}, which is not legal for seat "
                                         f"{seat}")
                    core.apply(i, self.space.move(a))
                    if core.status[i] == WAITING:
                        again.append(i)
            pending = again

    def _convert_all(self, extra: int) -> None:
        """Every game's row of the compiled step's buffers into ``obs`` and ``masks``,
        and the ``extra`` ended episodes' rows after them into ``_obs_rows[n:]``."""
        core = self._core
        k = self.num_games + extra
        rows = self._obs_rows[:k]
        self._fill(core.flags, k, self._obs_all[:k], rows)
        bits = np.frombuffer(b"".join(core.masks), np.uint8).reshape(self.num_games, core.mask_bytes)
        np.take(_BYTE_BOOLS, bits, axis=0, out=self._mask_full)
        if self._perm is not None:
            rows[...] = rows[:, self._perm]

    def _fill(self, flags: list[int], k: int, full: npt.NDArray[np.float32], obs: npt.NDArray[np.float32]) -> None:
        """The first ``k`` rows of a list of words laid out as the compiled batch's
        (``full``: ``(k, flag_words, 56)``, ``obs`` its first ``obs_size`` columns): the
        flag words' seven low bytes unpacked into 0/1, the count lanes divided by their
        scales."""
        rw = self._row_words
        fw = self._words
        n = k * rw
        pack = self._packs.get(n)
        if pack is None:
            pack = self._packs[n] = struct.Struct(f"<{n}q")
        # struct packs a list of ints about twice as fast as np.fromiter reads it
        data = pack.pack(*flags) if n == len(flags) else pack.pack(*flags[:n])
        words = np.frombuffer(data, "<i8").reshape(k, rw)
        rows = np.frombuffer(data, np.uint8).reshape(k, rw, 8)
        np.copyto(full, np.unpackbits(rows[:, :fw, :7], axis=2, bitorder="little"))
        q = (words[:, fw:, None] >> _LANE_SHIFTS) & LANE_MAX
        c = q.reshape(k, -1)[:, :self._width].astype(np.float64)
        c /= self._scale
        np.minimum(c, self._most, out=c)
        obs[:, self._count_cols] = c

    def _tensors(self, buffers: _Buffers, k: int) -> npt.NDArray[np.float32]:
        """The first ``k`` rows of ``buffers`` as float32 tensors (a new array)."""
        full = np.empty((k, self._words, 56), np.float32)
        t = full.reshape(k, -1)[:, :self.size]
        self._fill(buffers.flags, k, full, t)
        if self._perm is not None:
            t = t[:, self._perm]
        return t


def _derived(seed: int | str, *labels: object) -> int:
    """:func:`~mattis.play.derive_seed` of a seed that is not ``None``."""
    out = derive_seed(seed, *labels)
    assert out is not None
    return out


_reseed = _random.Random.seed
"""``random.Random.seed`` of an int without its Python wrapper, which hands an int to
this C method of its base and clears ``gauss_next`` (these generators never draw a
Gaussian): the same state."""
_BYTE_FLAGS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little").astype(np.float32)
"""Row ``b``: the eight bits of byte ``b`` (lowest first) as float32 0/1."""
_BYTE_BOOLS = _BYTE_FLAGS.astype(np.bool_)
"""Row ``b``: the eight bits of byte ``b`` (lowest first) as bools."""
_LANE_SHIFTS = np.array([LANE_BITS * k for k in range(LANES)], np.int64)
"""Where each count lane of a word starts (see :mod:`mattis.core.batch`)."""


__all__ = ["BatchedGames", "core_batch"]
