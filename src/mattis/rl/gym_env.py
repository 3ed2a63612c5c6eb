"""A Gymnasium single-agent environment: one seat against opponents.

>>> from mattis.rl.gym_env import MattisEnv
>>> env = MattisEnv(rules="mattis", players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, bool(env.action_masks().any())
(True, True)

The learner plays seat ``seat``; the other seats are opponents (see
:mod:`mattis.rl.opponents`: bot names, :class:`mattis.play.Agent`\\ s, policy
callables ``(observation, mask) -> action``, frozen snapshots of a learner, or an
:class:`~mattis.rl.opponents.OpponentPool` for self-play), each seeing only its own
observation, until it is the learner's turn.  The game is stepped by the compiled
core's batch of one (:class:`mattis.core.batch.Batch`, as
:class:`~mattis.rl.batched.BatchedGames` steps many): ``random`` opponents are played
inside it (their own generators' choice of the legal moves, the moves the bots would
make), any other opponent is asked with its observation.

``engine`` (:class:`~mattis.rl.batched.BatchedGames`'s choices): with ``"auto"`` (the
default) the four presets against ``random`` and ``easy`` opponents only, not rendered,
run on the native engine (a :class:`~mattis.rl.batched.BatchedGames` of one game on
``mattis.rl._native``): the same observations, rewards and episodes for the same
seeds, with no :class:`~mattis.play.Referee` behind them (:attr:`MattisEnv.referee`
is ``None``).  Anything else runs on the rules core as above; :attr:`MattisEnv.engine`
says which engine plays the current episode and :attr:`MattisEnv.engine_note` why not
the native one.  Opponents set to a bot the native engine does not play move the env
to the rules core from the next episode on (``engine="native"`` refuses them).

The default opponent is ``easy`` (the heuristic bot: about 22,700 steps of a random
learner per CPU second on the compiled core, 8,700 on the pure one, against about 300
for ``medium``, whose rollouts are too slow to train against); ask for ``medium`` by
name to evaluate.

Per episode: ``seat`` is a seat number, ``"rotate"`` (episode ``k`` plays seat
``k % players``) or ``"random"``; ``dealer`` likewise (a number, ``"rotate"`` or
``"random"``).  Deals, bots, pools and random seats are seeded by the one seed scheme
(:func:`mattis.play.derive_seed` with labels ``deal``, ``bot``, ``pool``, ``seat``,
``dealer`` and the episode number): ``reset(seed=s)`` starts a reproducible sequence
of episodes, a plain ``reset()`` continues it (before any seed was given, deals come
from :mod:`secrets`).

Observation: the float32 tensor of :class:`mattis.rl.encoding.Encoder`; actions:
:class:`mattis.rl.encoding.ActionSpace` (``card_order="rank_major"`` indexes cards
``rank * 4 + suit`` in both, as OpenSpiel's card games do).  :meth:`MattisEnv.action_masks` gives the
legal actions as MaskablePPO (sb3-contrib) expects (also through ``gym.make``, see
:func:`register`), and ``info["action_mask"]`` holds the same.

Reward: -1 when the learner loses (is Mattis, or a Blodmattis), 0 otherwise
(``zero_sum=True``, two players only: +1 when it wins), given when its fate is
settled (game over, or it went out safely).  A deal that settles the learner's fate
before its first move is skipped by ``reset``.  An illegal action ends the episode at
once with reward -1 and ``info["illegal_action"] = True``.  A game stopped by the
phase 2 cap (``rules.phase2_cap`` moves) is *truncated* (``truncated=True``,
``terminated=False``; the reward is the ranking's, see
:func:`mattis.rl.common.is_truncated`); every other end terminates.  Once an episode
has ended, ``step`` raises ``RuntimeError`` until ``reset`` and
:meth:`MattisEnv.action_masks` is all False.
Render modes: ``"ansi"`` (the text), ``"human"`` (printed); ``render_seat`` (default
``None``: the whole table) shows only what that seat may see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots.base import RandomBot
from ..core import Observation, Phase, Rules, State
from ..core.batch import ILLEGAL, PLAYING, TRUNCATED, WAITING
from ..play import Agent, Referee, Seed, derive_seed
from .batched import ENGINES, BatchedGames, core_batch, native_covers
from .common import SeatChoice, check_zero_sum, choose_seat, make_rules, render_text
from .encoding import ActionSpace, Encoder, obs_size
from .opponents import Opponent, opponent_specs, resolve

Obs = npt.NDArray[np.float32]
DEFAULT_OPPONENT = "easy"
"""The default opponent: cheap enough to train against (see the module docstring)."""


_choose = choose_seat
_PHASES = {p.value: p for p in Phase}
"""The phases by value (an enum call costs more than the rest of a native step's info)."""


class MattisEnv(gym.Env[Obs, np.int64]):
    """One seat of a Mattis-family game against opponents (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, rules: str | Rules = "mattis", players: int = 3,
                 overrides: Mapping[str, Any] | str | None = None, seat: SeatChoice = 0,
                 opponents: Opponent | Sequence[Opponent] = DEFAULT_OPPONENT, render_mode: str | None = None,
                 dealer: SeatChoice = 0, render_seat: int | None = None, zero_sum: bool = False,
                 card_order: str = "suit_major", engine: str = "auto") -> None:
        self.rules = make_rules(rules, overrides)
        self.rules.check_players(players)
        if zero_sum:
            check_zero_sum(self.rules, players)
        self.zero_sum = zero_sum
        for choice, what in ((seat, "seat"), (dealer, "dealer")):
            if isinstance(choice, int):
                if not 0 <= choice < players:
                    raise ValueError(f"{what} must be 0..{players - 1}")
            else:
                _choose(choice, what, players, 0, 0)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'ansi', 'human' or None")
        if render_seat is not None and not 0 <= render_seat < players:
            raise ValueError(f"render_seat must be 0..{players - 1} or None")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.players = players
        self.seat_choice = seat
        self.dealer_choice = dealer
        self.seat = _choose(seat, "seat", players, None, 0) if isinstance(seat, int) else 0
        """The learner's seat in the current episode."""
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}")
        self._engine_choice = engine
        self._games: BatchedGames | None = None
        self.set_opponents(opponents)
        self.space = ActionSpace(self.rules, card_order)
        self.observation_space = spaces.Box(0.0, 1.0, (obs_size(players),), np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self._actions = self.space.size
        self._seed: Seed = None
        self._episode = 0
        self._referee: Referee | None = None
        self._bots: dict[int, Agent] = {}
        self._encoder = Encoder(players, card_order)
        self._core = core_batch(1, players, self.space, zero_sum)
        """The compiled core's batch of one: it plays the ``random`` opponents (the
        same draws as the bots' own ``act``) and applies the learner's moves."""
        self._last: Observation | None = None
        self._ended = False
        self.decisions = 0
        """Moves made by every seat (learner and opponents) in this env's games so far."""
        why = self._native_why()
        self.engine = "python" if why is not None else "native"
        """Which engine plays the current episode (the next one before ``reset``):
        ``native`` or ``python`` (the rules core); :attr:`engine_note` says why not native."""
        self.engine_note = why
        self._native_started = False
        self._live = False
        """Whether the native engine plays an episode under way (the step's fast path)."""
        if why is None:
            self._games = BatchedGames(1, rules=self.rules, players=players, seat=seat, opponents=self.opponents,
                                       dealer=dealer, zero_sum=zero_sum, card_order=card_order, engine="native")
            self._act = np.zeros(1, np.int64)
            self._native_views()

    def _native_why(self) -> str | None:
        """``None`` if the native engine plays this env's next episode, else why not."""
        if self._engine_choice == "python":
            return "engine='python'"
        if self.render_mode is not None:
            return "rendering needs the rules core's referee"
        return native_covers(self.rules, self.opponents)

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """The opponents from the next episode on: one for every other seat, or one
        per other seat in seat order after the learner's (``seat+1``, ``seat+2``, ...).
        On the native engine, opponents it does not play move the env to the rules
        core from the next episode on (``engine="native"`` refuses them)."""
        specs = opponent_specs(opponents, self.players)
        if self._engine_choice == "native":
            why = native_covers(self.rules, specs)
            if why is not None:
                raise ValueError(f"{why}: make the env with engine='auto' or 'python' to change to these opponents")
        self.opponents = specs
        if self._games is not None:
            self._games.opponents = specs

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._episode = seed, 0
        if self._games is not None and self._native_why() is None:
            return self._native_reset()
        while True:  # skip the rare deal that settles the learner's fate before it acts
            self._new_episode()
            obs = self._observe()
            if self._fate(obs) is None:
                return self._encoder.encode(obs), self._info(obs)

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._live:  # the native engine, an episode under way
            eng = self._eng
            before = eng.decisions
            act = self._act
            act[0] = action
            done = eng.step(act)
            self.decisions += eng.decisions - before
            phase, dealer, finished, ranked, losers = eng.facts(0)
            if not done:
                return self._obs_row.copy(), 0.0, False, False, {
                    "action_mask": self._mask_i8.copy(), "phase": _PHASES[phase], "seat": self.seat,
                    "dealer": dealer, "finished": finished, "ranked": ranked, "losers": losers}
            return self._native_end(phase, dealer, finished, ranked, losers)
        if self.engine == "native":
            if not self._native_started:
                raise RuntimeError("call reset() first")
            raise RuntimeError("the episode is over (an illegal action or the learner's fate ended it); "
                               "call reset()")
        obs, reward, terminated, truncated, info = self._step(action)
        return self._encoder.encode(obs), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now (all False when it is not to act, and
        once the episode has ended)."""
        if self._live:
            mask: npt.NDArray[np.bool_] = self._mask_row.copy()
            return mask
        if self._last is None and not self._native_started:
            raise RuntimeError("call reset() first")
        if self._ended:
            return np.zeros(self._actions, np.bool_)
        assert self._last is not None
        return self.space.mask(self._last.legal).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self._referee is None:
            return None
        text = render_text(self._referee, seat=self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @property
    def referee(self) -> Referee | None:
        """The current game's referee (for watching and tests; a learner must use only
        the observation); ``None`` on the native engine, which holds no
        :class:`~mattis.core.State` (make the env with ``engine="python"`` to watch)."""
        return self._referee

    # ------------------------------------------------------------ internals
    def _native_reset(self) -> tuple[Obs, dict[str, Any]]:
        """The next episode on the native engine (it skips a deal that settles the
        learner's fate before it acts, as :meth:`reset` does)."""
        games = self._games
        assert games is not None
        self.engine, self.engine_note = "native", None
        self._referee = None
        self._last = None
        before = games.decisions
        games._seed[0], games._episode[0] = self._seed, self._episode
        games._new_native_episode(0)
        self._episode = games._episode[0]
        self.seat = games.seat(0)
        self._ended = False
        self._native_started = True
        self._live = True
        self.decisions += games.decisions - before
        info = self._native_info(games.facts(0), self.seat)
        info["action_mask"] = games.masks[0].astype(np.int8)
        return games.obs[0].copy(), info

    def _native_end(self, phase: int, dealer: int, finished: tuple[int, ...], ranked: tuple[int, ...],
                    losers: tuple[int, ...]) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        """The step that ended the native engine's episode (its last tensor, reward and
        flags as the engine wrote them)."""
        games = self._games
        assert games is not None
        self._ended = True
        self._live = False
        info = self._native_info((phase, dealer, finished, ranked, losers), self.seat)
        info["action_mask"] = np.zeros(self._actions, np.int8)
        if games.illegal[0]:
            info["illegal_action"] = True
        return (games.final_obs[0].copy(), float(games.rewards[0]), bool(games.terminations[0]),
                bool(games.truncations[0]), info)

    def _native_views(self) -> None:
        """The native engine and the rows of its arrays that a step reads (views, made
        anew after a copy: a copied view is an array of its own)."""
        games = self._games
        assert games is not None
        self._eng = games._native
        self._obs_row = games.obs[0]
        self._mask_row = games.masks[0]
        self._mask_i8 = self._mask_row.view(np.int8)

    _NATIVE_VIEWS = ("_eng", "_obs_row", "_mask_row", "_mask_i8")

    def __getstate__(self) -> dict[str, Any]:
        """For :mod:`pickle` and :mod:`copy`: everything but the native engine's views."""
        return {k: v for k, v in self.__dict__.items() if k not in self._NATIVE_VIEWS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self._games is not None:
            self._native_views()

    @staticmethod
    def _native_info(facts: tuple[Any, ...], seat: int) -> dict[str, Any]:
        phase, dealer, finished, ranked, losers = facts
        return {"action_mask": None, "phase": _PHASES[phase], "seat": seat, "dealer": dealer, "finished": finished,
                "ranked": ranked, "losers": losers}

    def _new_episode(self) -> None:
        self.engine, self.engine_note = "python", self._native_why() or "made with what the native engine does not play"
        self._native_started = self._live = False
        k = self._episode
        self._episode += 1
        n = self.players
        self.seat = _choose(self.seat_choice, "seat", n, self._seed, k)
        dealer = _choose(self.dealer_choice, "dealer", n, self._seed, k)
        state = State.new(self.rules, n, seed=derive_seed(self._seed, "deal", k), dealer=dealer)
        self._referee = Referee(state)
        self._bots = {(self.seat + 1 + i) % n: resolve(spec, self.rules, n, self._seed, k, (self.seat + 1 + i) % n)
                      for i, spec in enumerate(self.opponents)}
        randoms: list[random.Random | None] = [None] * n
        for s, bot in self._bots.items():
            if type(bot) is RandomBot:  # its moves are its generator's choice of the legal moves
                randoms[s] = bot.rng
        self._encoder.reset()
        self._ended = False
        core = self._core
        before = core.decisions
        core.start(0, state, self.seat, randoms)
        self._play_waiting()
        self.decisions += core.decisions - before

    def _play_waiting(self) -> None:
        """Let the opponents the compiled core does not play move until the learner is
        to act or its fate is settled (each sees only its own observation)."""
        core = self._core
        ref = self._referee
        assert ref is not None
        while core.status[0] == WAITING:
            seat = core.to_act(0)
            core.apply(0, self._bots[seat].act(ref.observation(seat)))

    def _step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action and the opponents' answers: (observation,
        reward, terminated, truncated, info)."""
        ref = self._referee
        obs = self._last
        if ref is None or obs is None:
            raise RuntimeError("call reset() first")
        if self._ended or self._fate(obs) is not None:
            raise RuntimeError("the episode is over (an illegal action or the learner's fate ended it); "
                               "call reset()")
        a = int(action)
        core = self._core
        before = core.decisions
        # the core judges the action (an illegal one ends the episode and changes nothing);
        # if legal, the learner's move, then the opponents' until its turn or its fate
        core.step([a if 0 <= a < self._actions else -1])
        if core.status[0] == ILLEGAL:
            self._ended = True
            info = self._info(obs)
            info["action_mask"] = np.zeros(self._actions, np.int8)
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        self._play_waiting()
        self.decisions += core.decisions - before
        obs = self._observe()
        status = core.status[0]
        if status == PLAYING:
            return obs, 0.0, False, False, self._info(obs)
        self._ended = True
        truncated = status == TRUNCATED
        return obs, core.rewards[0], not truncated, truncated, self._info(obs)

    def _observe(self) -> Observation:
        ref = self._referee
        assert ref is not None
        self._last = ref.observation(self.seat)
        return self._last

    def _fate(self, obs: Observation) -> float | None:
        """The learner's reward once its fate is known, else ``None``."""
        if self.seat in obs.losers:
            return -1.0
        if self.seat in obs.finished or obs.is_over:
            return 1.0 if self.zero_sum else 0.0
        return None

    def _info(self, obs: Observation) -> dict[str, Any]:
        return {"action_mask": self.space.mask(obs.legal), "phase": obs.phase, "seat": self.seat,
                "dealer": obs.dealer, "finished": obs.finished, "ranked": obs.ranked, "losers": obs.losers}


class ActionMasks(gym.Wrapper[Obs, np.int64, Obs, np.int64], gym.utils.RecordConstructorArgs):
    """Makes ``action_masks()`` reachable on the outside of ``gym.make``'s wrappers
    (Gymnasium 1.x wrappers do not forward attributes).  It records its (empty)
    constructor arguments, so ``gym.make(env.spec)`` remakes an env made with it."""

    def __init__(self, env: gym.Env[Obs, np.int64]) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (see :meth:`MattisEnv.action_masks`)."""
        masks: npt.NDArray[np.bool_] = self.env.get_wrapper_attr("action_masks")()
        return masks


ENV_ID = "mattis/Mattis-v0"


def register() -> None:
    """Register ``mattis/Mattis-v0`` with Gymnasium: ``gym.make("mattis/Mattis-v0",
    players=4).action_masks()`` works (the :class:`ActionMasks` wrapper is outermost)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="mattis.rl.gym_env:MattisEnv",
                     additional_wrappers=(ActionMasks.wrapper_spec(),))


__all__ = ["DEFAULT_OPPONENT", "ENV_ID", "ActionMasks", "MattisEnv", "register"]
