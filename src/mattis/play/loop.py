"""The one play loop: ask the agent to act from its seat's observation, apply.

Every front end runs games through :func:`play_until`: the terminal UI and the
web server stop it at a human's turn, tournaments and ``mattis selfplay`` run it
to the end, the Gymnasium env stops it at the learner's turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..core import Move
from .agents import Agent
from .events import Event
from .referee import Referee


@dataclass
class Clock:
    """Decisions and thinking time per seat (for tournaments and benchmarks)."""

    decisions: list[int] = field(default_factory=list)
    think_s: list[float] = field(default_factory=list)

    def ensure(self, players: int) -> None:
        if len(self.decisions) < players:
            self.decisions += [0] * (players - len(self.decisions))
            self.think_s += [0.0] * (players - len(self.think_s))


def play_until(referee: Referee, agents: Mapping[int, Agent], *,
               stop: Callable[[Referee], bool] | None = None,
               on_events: Callable[[int, list[Event]], None] | None = None,
               clock: Clock | None = None, max_moves: int | None = None) -> int:
    """Let the agents play until the game is over, the seat to act has no agent (a
    human), ``stop(referee)`` says so, or ``max_moves`` moves were made.  Each
    agent sees only its own seat's observation.  Returns the number of moves made."""
    made = 0
    if clock is not None:
        clock.ensure(referee.players)
    while max_moves is None or made < max_moves:
        if stop is not None and referee.to_act in agents and stop(referee):
            break
        chosen = next_move(referee, agents, clock=clock)
        if chosen is None:
            break
        seat, move = chosen
        events = referee.apply(seat, move, events=on_events is not None)
        made += 1
        if on_events is not None:
            on_events(seat, events)
    return made


def next_move(referee: Referee, agents: Mapping[int, Agent], *, clock: Clock | None = None) -> tuple[int, Move] | None:
    """The seat to act and the move its agent chooses from that seat's observation,
    not yet made; ``None`` when the game is over or the seat to act has no agent.
    :func:`play_until` is this and :meth:`Referee.apply` in a loop; a front end that
    must log a move before making it (the web server) calls this, logs, then applies."""
    seat = referee.to_act
    if seat is None or seat not in agents:
        return None
    obs = referee.observation(seat)
    if clock is None:
        return seat, agents[seat].act(obs)
    clock.ensure(referee.players)
    t0 = time.perf_counter()
    move = agents[seat].act(obs)
    clock.think_s[seat] += time.perf_counter() - t0
    clock.decisions[seat] += 1
    return seat, move
