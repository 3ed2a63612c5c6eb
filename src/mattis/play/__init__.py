"""The play layer: the referee, the one play loop, sessions, seeds and saving.

Every front end (terminal, web, selfplay, tournaments, the research
environments, benchmarks) runs games through this package; none of them holds
a :class:`~mattis.core.State` itself.

- :class:`Agent`: what the loop asks for moves; :func:`make_bot`: a bot by name or level.
- :class:`Referee`: one game's truth; observations out, moves in, events back.
- :func:`play_until`: the one loop that asks agents for moves (:func:`next_move`: one
  agent's choice, not yet made).
- :class:`Sitting`: game after game, the first dealer drawn, the loser deals, a tally of
  losses.
- :func:`derive_seed`: the one seed scheme.
- :func:`atomic_write`: saving without ever losing a game.
- :mod:`mattis.play.events`: the typed events a move causes.
"""

from .agents import Agent, bot_names, make_bot
from .events import (
    BlodmattisFound,
    Event,
    GameOver,
    MovePlayed,
    PhaseTwoBegins,
    PlayerOut,
    PlayerWaiting,
    TrickCleared,
    TrickTaken,
)
from .loop import Clock, next_move, play_until
from .referee import Judged, Referee, replay_events
from .saving import atomic_write, generation
from .seeds import Seed, derive_seed
from .sitting import Sitting, first_dealer

__all__ = [
    "Agent", "BlodmattisFound", "Clock", "Event", "GameOver", "Judged", "MovePlayed", "PhaseTwoBegins", "PlayerOut",
    "PlayerWaiting", "Referee", "Seed", "Sitting", "TrickCleared", "TrickTaken", "atomic_write", "bot_names",
    "derive_seed", "first_dealer", "generation", "make_bot", "next_move", "play_until", "replay_events",
]
