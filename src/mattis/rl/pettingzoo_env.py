"""Mattis as a PettingZoo AEC environment (``mattis_v0``).

>>> from mattis.rl import mattis_v0
>>> env = mattis_v0.env(rules="skitgubbe", players=3, overrides={"sequences": 3})
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["action_mask"].dtype.name
(['action_mask', 'observation'], 'int8')

Agents are ``player_0 .. player_{n-1}`` (seat numbers).  Each agent observes a dict:
``observation`` (float32, :func:`mattis.rl.encoding.encode` of its own
observation from the referee) and ``action_mask`` (int8 over the fixed action space of
:class:`mattis.rl.encoding.ActionSpace`; all zero when it is not the agent's turn);
``card_order="rank_major"`` indexes cards ``rank * 4 + suit`` in both.
Rewards come once, when the game ends: -1 for each loser (Mattis; in Blodmattis rules
also every Blodmattis), 0 for the others (``zero_sum=True``, two players only: +1 for
the winner).  A game stopped by the phase 2 cap (``rules.phase2_cap`` moves; the
players are ranked by the cards they hold) is *truncated*, every other end terminates
(:func:`mattis.rl.common.is_truncated`).  An illegal action (a legal action number
that is not among the agent's legal moves) ends the game as PettingZoo's classic
environments do (``illegal="terminate"``, the default, like their
``TerminateIllegalWrapper``): the mover gets -1 (``zero_sum``: the other +1), the others
0, every agent is terminated and its info has ``illegal_action`` (the mover's name);
``illegal="raise"`` raises ``ValueError`` instead.  An action outside the action
space always raises.  Deals are seeded by the one seed scheme
(:func:`mattis.play.derive_seed`): ``reset(seed=s)`` starts a reproducible sequence of
deals, a plain ``reset()`` deals the next one (from :mod:`secrets` before any seed).
``dealer`` is a seat, ``"rotate"`` (deal ``k`` is dealt by seat ``k % players``) or
``"random"`` (seeded like the deals).

Where the native engine covers the rules (the four presets' rule sets, any
``phase2_cap``: :func:`mattis.rl.mirror.mirror_covers`) the tensors and masks are
written by a native mirror of the game (:mod:`mattis.rl.mirror`), told each move the
referee makes: the same arrays as the Python encoder's, at a fraction of the cost.
``encoder="python"`` asks for the Python encoder, ``encoder="native"`` refuses rules
the mirror does not cover; ``env.unwrapped.encoder`` says which one runs and
``encoder_note`` why not the native one.

``state()`` is the global state (every seat's observation tensor, concatenated in seat
order: it shows every hand, for centralised critics, never for an agent's policy).
Render modes: ``"ansi"`` (the text) and ``"human"`` (printed); ``render_seat`` shows
only what one seat may see.  :class:`BotAgent` plays a seat with one of the project's
bots, from that seat's own observation (:meth:`raw_env.seat_observation`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from ..core import IllegalMoveError, Observation, Rules, State
from ..core.text import reason_text
from ..play import Agent, Referee, Seed, derive_seed, make_bot
from .common import check_zero_sum, is_truncated, loser_rewards, make_rules, render_text
from .encoding import ActionSpace, Encoder, obs_size
from .mirror import make_mirror, mirror_covers

ObsDict = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's naming)
    """The unwrapped AEC environment; use :func:`env` for the usual wrappers."""

    metadata = {"render_modes": ["ansi", "human"], "name": "mattis_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: str | Rules = "mattis", players: int = 3,
                 overrides: Mapping[str, Any] | str | None = None, render_mode: str | None = None,
                 dealer: int | str = 0, render_seat: int | None = None, illegal: str = "terminate",
                 zero_sum: bool = False, card_order: str = "suit_major", encoder: str = "auto") -> None:
        super().__init__()
        self.rules = make_rules(rules, overrides)
        self.rules.check_players(players)
        if illegal not in ("terminate", "raise"):
            raise ValueError("illegal must be 'terminate' or 'raise'")
        if zero_sum:
            check_zero_sum(self.rules, players)
        self.illegal = illegal
        self.zero_sum = zero_sum
        self._ended = False
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode must be 'ansi', 'human' or None")
        if isinstance(dealer, str) and dealer not in ("rotate", "random"):
            raise ValueError("dealer must be a seat number, 'rotate' or 'random'")
        if render_seat is not None and not 0 <= render_seat < players:
            raise ValueError(f"render_seat must be 0..{players - 1} or None")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.players = players
        self.dealer_choice: int | str = dealer % players if isinstance(dealer, int) else dealer
        self.dealer = dealer % players if isinstance(dealer, int) else 0
        self.space = ActionSpace(self.rules, card_order)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = obs_size(players)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (players * size,), np.float32)
        self._encoders = [Encoder(players, card_order) for _ in range(players)]
        if encoder not in ("auto", "native", "python"):
            raise ValueError("encoder must be 'auto', 'native' or 'python'")
        why = mirror_covers(self.rules) if encoder != "python" else "encoder='python'"
        if encoder == "native" and why is not None:
            raise ValueError(why)
        self.encoder = "python" if why is not None else "native"
        """Which encoder writes the tensors and masks: ``native`` (a mirror of the game in
        the native engine, :mod:`mattis.rl.mirror`) or ``python``
        (:class:`mattis.rl.encoding.Encoder`); :attr:`encoder_note` says why not native."""
        self.encoder_note = why
        self._size = size
        self._mirror: Any = None
        self._dealt: State | None = None
        """The State as dealt (its deck, dealer and first leader remake the mirror)."""
        self._actions: list[int] = []
        """The actions made in this game (the mirror is rebuilt from them after a pickle)."""
        self._seed: Seed = None
        self._deals = 0
        self._referee: Referee | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- AEC
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: from ``seed`` when given (reproducible), else from the previous
        sequence of seeds (itself seeded from :mod:`secrets`)."""
        if seed is not None:
            self._seed, self._deals = seed, 0
        k = self._deals
        if self.dealer_choice == "rotate":
            self.dealer = k % self.players
        elif self.dealer_choice == "random":
            self.dealer = random.Random(derive_seed(self._seed, "dealer", k)).randrange(self.players)
        dealt = State.new(self.rules, self.players, seed=derive_seed(self._seed, "deal", k), dealer=self.dealer)
        self._referee = Referee(dealt)  # Referee.new's deal
        self._dealt = dealt
        self._actions = []
        self._mirror = make_mirror(self.rules, self.players, self.space, dealt) if self.encoder == "native" else None
        self._deals += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ended = False
        self._select()

    def _select(self) -> None:
        ref = self._referee
        assert ref is not None
        if ref.to_act is not None:
            self.agent_selection = self.possible_agents[ref.to_act]

    def observe(self, agent: str) -> ObsDict:
        ref = self._referee
        if ref is None:
            raise RuntimeError("call reset() first")
        seat = self._seat[agent]
        mirror = self._mirror
        if mirror is not None:
            tensor = np.empty(self._size, np.float32)
            mask = np.zeros(self.space.size, np.int8)
            mirror.write(seat, tensor, None if self._ended else mask)
            return {"observation": tensor, "action_mask": mask}
        obs = ref.observation(seat)
        mask = self.space.mask(() if self._ended else obs.legal)
        return {"observation": self._encoders[seat].encode(obs), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def seat_observation(self, agent: str) -> Observation:
        """What ``agent``'s seat may know now (its :class:`~mattis.core.Observation`)."""
        ref = self._referee
        if ref is None:
            raise RuntimeError("call reset() first")
        return ref.observation(self._seat[agent])

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every seat's observation tensor in seat order (it shows
        every hand; for centralised training, not for a policy's input)."""
        ref = self._referee
        if ref is None:
            raise RuntimeError("call reset() first")
        mirror = self._mirror
        if mirror is not None:
            out = np.empty((self.players, self._size), np.float32)
            for s in range(self.players):
                mirror.write(s, out[s], None)
            return out.reshape(-1)
        return np.concatenate([self._encoders[s].encode(ref.observation(s)) for s in range(self.players)])

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ref = self._referee
        assert ref is not None
        if action is None:
            raise ValueError("a live agent must act (action None)")
        a = int(action)
        if not 0 <= a < self.space.size:
            raise ValueError(f"action {a} is outside 0..{self.space.size - 1}")
        move = self.space.move(a)
        seat = self._seat[agent]
        try:
            ref.apply(seat, move, events=False)
        except IllegalMoveError as e:
            if self.illegal == "raise":
                raise ValueError(f"illegal action {a} ({move}) for {agent}: {reason_text(e.illegal, 'en')}") from None
            self._end(loser_rewards(self.players, [seat], self.zero_sum), truncated=False,
                      info={"illegal_action": agent})
            return
        self._actions.append(a)
        if self._mirror is not None:
            self._mirror.apply(a)
        self._cumulative_rewards[agent] = 0.0
        outcome = ref.outcome
        if outcome is None:
            # rewards stay zero until the end: clearing and accumulating them would change nothing
            self.agent_selection = self.possible_agents[ref.to_act]  # type: ignore[index]
            return
        self._end(loser_rewards(self.players, outcome.losers, self.zero_sum), is_truncated(outcome.termination),
                  {"losers": outcome.losers, "end_reason": outcome.termination})

    def _end(self, rewards: list[float], truncated: bool, info: dict[str, Any]) -> None:
        """The game is over for every agent: these final rewards, terminated (or
        truncated by the phase 2 cap)."""
        self._ended = True
        self._clear_rewards()
        for a_name, r in zip(self.agents, rewards, strict=True):
            self.rewards[a_name] = r
            self.terminations[a_name] = not truncated
            self.truncations[a_name] = truncated
        self.infos = {a: dict(info) for a in self.agents}
        self._accumulate_rewards()

    def __getstate__(self) -> dict[str, Any]:
        """For :mod:`pickle`: everything but the mirror (remade from the deal and the
        actions made, :meth:`__setstate__`)."""
        state = dict(self.__dict__)
        state["_mirror"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.encoder == "native" and self._dealt is not None:
            self._mirror = make_mirror(self.rules, self.players, self.space, self._dealt)
            if self._mirror is not None:
                self._mirror.apply_all(self._actions)

    def render(self) -> str | None:
        """A text picture of the table: every hand, or only what ``render_seat`` sees
        (returned under ``"ansi"``, printed under ``"human"``)."""
        if self.render_mode is None:
            return None
        text = "(no game; call reset())" if self._referee is None else render_text(self._referee, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class BotAgent:
    """One of the project's bots as a PettingZoo agent: ``bot(env, agent) -> action``
    asks the bot for a move from ``agent``'s own observation.

    >>> e = env(players=3); e.reset(seed=0)
    >>> bots = {a: BotAgent("easy", seed=i) for i, a in enumerate(e.possible_agents)}
    >>> # for a in e.agent_iter(): ... e.step(bots[a](e, a))
    """

    def __init__(self, bot: str | Agent = "easy", seed: int | None = None) -> None:
        self.agent: Agent = make_bot(bot, seed) if isinstance(bot, str) else bot

    def __call__(self, env: AECEnv, agent: str) -> int:
        raw: raw_env = env.unwrapped
        obs = raw.seat_observation(agent)
        if not obs.legal:
            raise ValueError(f"{agent} is not to act")
        return raw.space.action(self.agent.act(obs))


class _Bounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's bounds check, with a direct path for a plain ``int`` in range
    (anything else gets the library's own check) and ``last()`` passed straight on
    (the library's reads each attribute through ``__getattr__``)."""

    def __init__(self, env: raw_env) -> None:
        super().__init__(env)
        self._actions = env.space.size

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._actions:
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> Any:
        return self.env.last(observe)


class _Order(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcing, with its checks made on the raw env's attributes
    directly once ``reset`` was called (before that, the library's own paths raise)."""

    def __init__(self, env: _Bounds, raw: raw_env) -> None:
        super().__init__(env)
        self._raw = raw

    def last(self, observe: bool = True) -> Any:
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _OrderIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _OrderIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderIterator:
        return _OrderIterator(self.env, self.max_iter)


class _OrderIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """``agent_iter``'s iterator reading the raw env's agents directly (same checks)."""

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        agent: str = raw.agent_selection
        return agent


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard checks (order enforcing, bounds):
    ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(raw_env))``, in subclasses that
    make the same checks with fewer attribute hops."""
    raw = raw_env(**kwargs)
    e: AECEnv = _Order(_Bounds(raw), raw)
    return e


__all__ = ["BotAgent", "env", "raw_env", "render_text"]
