"""Do-nothing environments: what each research interface costs by itself, with no
game behind it.  The speed race (:mod:`mattis.rl.speed`) runs them through the very
loops its rows use, so a row's *overhead* (its µs a decision minus its floor's) is
what the project's own code adds to the interface's plumbing.

* :func:`null_aec`: a PettingZoo AEC env whose ``observe`` hands back one prepared
  observation dict and whose ``step`` only passes the turn on, wrapped as
  ``mattis_v0`` is (:func:`mattis.rl.pettingzoo_env.env`'s order-enforcing and bounds
  wrappers);
* ``python_mattis_floor``: a pyspiel Python game (registered on import) with a fixed
  list of legal actions and nothing to apply; with ``deal=K`` it first deals ``K``
  cards one chance node each, uniform over the cards left (prepared lists, nothing
  to apply), the floor of a card-by-card deal;
* :class:`NullEnv`: a Gymnasium env whose ``step`` hands back one prepared tensor and
  whose ``action_masks`` one prepared mask.

Each plays :data:`LENGTH` decisions a game with :data:`LEGAL` legal actions out of the
preset's action count, the tensor of the preset's size for ``players``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

LENGTH = 60
"""Decisions a game of a do-nothing env (a reset amortised over about as many decisions
as a game of Mattis for three has)."""
LEGAL = (0, 3, 7, 12, 20)
"""The legal actions of every decision of a do-nothing env."""


def _mask(actions: int) -> npt.NDArray[np.int8]:
    m = np.zeros(actions, np.int8)
    m[list(LEGAL)] = 1
    return m


# ---------------------------------------------------------------- PettingZoo
def null_aec(players: int, actions: int, obs_size: int) -> Any:
    """A do-nothing AEC env for ``players`` agents, wrapped as ``mattis_v0`` is."""
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from . import pettingzoo_env

    class NullAEC(AECEnv):  # type: ignore[misc]
        metadata = {"render_modes": [], "name": "null_v0", "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(players)]
            self._obs = {"observation": np.zeros(obs_size, np.float32), "action_mask": _mask(actions)}
            self._obs_space = spaces.Dict({"observation": spaces.Box(0.0, 1.0, (obs_size,), np.float32),
                                           "action_mask": spaces.MultiBinary(actions)})
            self._act_space = spaces.Discrete(actions)
            self.space = SimpleNamespace(size=actions)  # what the bounds wrapper reads (``ActionSpace.size``)
            self._n = 0

        def observation_space(self, agent: str) -> spaces.Space[Any]:
            return self._obs_space

        def action_space(self, agent: str) -> spaces.Space[Any]:
            return self._act_space

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]
            self._n = 0

        def observe(self, agent: str) -> dict[str, Any]:
            return self._obs

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._n += 1
            if self._n >= LENGTH:
                for a in self.agents:
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[self._n % players]

    raw = NullAEC()
    order, bounds = getattr(pettingzoo_env, "_Order", None), getattr(pettingzoo_env, "_Bounds", None)
    if order is not None and bounds is not None:
        return order(bounds(raw), raw)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw))


# ---------------------------------------------------------------- OpenSpiel
FLOOR_GAME = "python_mattis_floor"
"""The do-nothing pyspiel game's short name (parameters ``players`` and ``actions``)."""


def _register_floor_game() -> None:
    import pyspiel

    if FLOOR_GAME in pyspiel.registered_names():
        return
    params = {"players": 3, "actions": 54, "deal": 0}
    outcomes = [[(i, 1.0 / k) for i in range(k)] for k in range(53)]  # a deal's chance outcomes, k cards left
    game_type = pyspiel.GameType(
        short_name=FLOOR_GAME, long_name="a do-nothing game (the speed race's floor)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification=params)

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any, players: int, deal: int) -> None:
            super().__init__(game)
            self._players = players
            self._left = deal
            self._n = 0
            self._legal = list(LEGAL)

        def current_player(self) -> int:
            if self._left:
                return int(pyspiel.PlayerId.CHANCE)
            return int(pyspiel.PlayerId.TERMINAL) if self._n >= LENGTH else self._n % self._players

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes[self._left]

        def _legal_actions(self, player: int) -> list[int]:
            return self._legal

        def _apply_action(self, action: int) -> None:
            if self._left:
                self._left -= 1
            else:
                self._n += 1

        def is_terminal(self) -> bool:
            return self._n >= LENGTH

        def returns(self) -> list[float]:
            return [0.0] * self._players

        def __str__(self) -> str:
            return str(self._n)

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            p = {**params} if params else {}
            self._players = int(p.get("players", 3))
            self._deal = min(52, max(0, int(p.get("deal", 0))))
            info = pyspiel.GameInfo(num_distinct_actions=int(p.get("actions", 54)), max_chance_outcomes=self._deal,
                                    num_players=self._players, min_utility=0.0, max_utility=0.0,
                                    utility_sum=None, max_game_length=LENGTH)
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self, self._players, self._deal)

    pyspiel.register_game(game_type, FloorGame)


def floor_game_string(players: int, actions: int, deal: int = 0) -> str:
    """The do-nothing pyspiel game for ``players`` and ``actions`` (registered here),
    dealing ``deal`` cards first."""
    _register_floor_game()
    return f"{FLOOR_GAME}(players={players},actions={actions},deal={deal})"


# ---------------------------------------------------------------- Gymnasium
class NullEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """A do-nothing Gymnasium env: ``step`` hands back one prepared tensor, reward 0,
    and ends the episode after :data:`LENGTH` steps; ``action_masks`` one prepared
    mask.  ``decisions`` counts its steps (as :class:`~mattis.rl.gym_env.MattisEnv`'s
    counts moves)."""

    def __init__(self, actions: int, obs_size: int) -> None:
        self.observation_space = spaces.Box(0.0, 1.0, (obs_size,), np.float32)
        self.action_space = spaces.Discrete(actions)
        self._obs = np.zeros(obs_size, np.float32)
        self._mask = _mask(actions).astype(np.bool_)
        self._n = 0
        self.decisions = 0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self._n = 0
        return self._obs, {}

    def step(self, action: np.int64 | int) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool,
                                                     dict[str, Any]]:
        self._n += 1
        self.decisions += 1
        return self._obs, 0.0, self._n >= LENGTH, False, {}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self._mask


__all__ = ["FLOOR_GAME", "LEGAL", "LENGTH", "NullEnv", "floor_game_string", "null_aec"]
