"""A sitting: game after game at one table, with the dealer rotating and a tally.

The loser of a game deals the next one.  Deals and bots are seeded from the
sitting's seed by the one seed scheme (:mod:`mattis.play.seeds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..bots import Agent, make_bot
from ..core import Card, GameRecord, Rules
from .referee import Referee
from .seeds import Seed, derive_seed


@dataclass
class Sitting:
    """Several games of one rule set among the same seats."""

    rules: Rules
    players: int
    seed: Seed = None
    """The sitting's seed (``None``: every deal shuffled from :mod:`secrets`)."""
    dealer: int = 0
    """Who deals the next game."""
    games: int = 0
    """Games dealt so far."""
    tally: list[int] = field(default_factory=list)
    """How many games each seat has lost (Mattis or Blodmattis)."""
    counted: bool = False
    """Whether the last game's result is in the tally."""

    def __post_init__(self) -> None:
        if not self.tally:
            self.tally = [0] * self.players

    def upcoming(self) -> Referee:
        """A next game dealt by :attr:`dealer`, the sitting unchanged (with a seed it is
        the one :meth:`deal` deals): for a front end that logs a deal's deck before
        making the deal."""
        return Referee.new(self.rules, self.players, seed=derive_seed(self.seed, "deal", self.games),
                           dealer=self.dealer)

    def deal(self, deck: Sequence[Card] | None = None) -> Referee:
        """The next game, dealt by :attr:`dealer`: shuffled by the seed scheme, or in the
        order ``deck`` (a deal taken from a log)."""
        if deck is None:
            referee = self.upcoming()
        else:
            referee = Referee.from_record(GameRecord(self.rules, self.players, self.dealer, list(deck)))
        self.games += 1
        self.counted = False
        return referee

    def resume(self, record: GameRecord) -> Referee:
        """A saved game, continued as the sitting's next game (its dealer deals it)."""
        referee = Referee.from_record(record)
        self.dealer = referee.dealer
        self.games += 1
        self.counted = False
        return referee

    def bots(self, levels: Mapping[int, str]) -> dict[int, Agent]:
        """Bots for the seats in ``levels`` (seat -> bot name or level) for the game
        just dealt, each seeded by the seed scheme."""
        game = max(self.games - 1, 0)
        return {seat: make_bot(level, derive_seed(self.seed, "bot", game, seat)) for seat, level in levels.items()}

    def finish(self, referee: Referee) -> None:
        """Count a finished game (once) and let its loser deal the next."""
        if not referee.is_over or self.counted:
            return
        outcome = referee.outcome
        assert outcome is not None
        for seat in outcome.losers:
            self.tally[seat] += 1
        self.dealer = referee.next_dealer
        self.counted = True
