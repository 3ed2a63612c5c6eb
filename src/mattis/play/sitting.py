"""A sitting: game after game at one table, with the dealer rotating and a tally.

The first dealer is drawn (:meth:`Sitting.draw_first_dealer`, "Trekk om hvem som
gir"); the loser of a game deals the next one, and under ``next_leader=loser`` also
leads its first trick.  Deals, bots and the draw are seeded from the sitting's seed
by the one seed scheme (:mod:`mattis.play.seeds`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core import Card, GameRecord, NextLeader, Rules
from .agents import Agent, make_bot
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
    leader: int | None = None
    """Who leads the first trick of the next game (``None``: the player left of the dealer)."""
    games: int = 0
    """Games dealt so far."""
    tally: list[int] = field(default_factory=list)
    """How many games each seat has lost (Mattis or Blodmattis)."""
    counted: bool = False
    """Whether the last game's result is in the tally."""

    def __post_init__(self) -> None:
        if not self.tally:
            self.tally = [0] * self.players

    def draw_first_dealer(self) -> int:
        """Draw who deals the first game ("Trekk om hvem som gir"): from the seed
        (``derive_seed(seed, "first dealer")``) when the sitting has one, else from
        :mod:`secrets`.  Sets and returns :attr:`dealer`."""
        self.dealer = first_dealer(self.seed, self.players)
        return self.dealer

    def upcoming(self) -> Referee:
        """A next game dealt by :attr:`dealer`, the sitting unchanged (with a seed it is
        the one :meth:`deal` deals): for a front end that logs a deal's deck before
        making the deal."""
        return Referee.new(self.rules, self.players, seed=derive_seed(self.seed, "deal", self.games),
                           dealer=self.dealer, leader=self.leader)

    def deal(self, deck: Sequence[Card] | None = None) -> Referee:
        """The next game, dealt by :attr:`dealer`: shuffled by the seed scheme, or in the
        order ``deck`` (a deal taken from a log)."""
        if deck is None:
            referee = self.upcoming()
        else:
            referee = Referee.from_record(GameRecord(self.rules, self.players, self.dealer, list(deck),
                                                     leader=self.leader))
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
        """Count a finished game (once) and let its loser deal the next (and, under
        ``next_leader=loser``, lead its first trick)."""
        if not referee.is_over or self.counted:
            return
        outcome = referee.outcome
        assert outcome is not None
        for seat in outcome.losers:
            self.tally[seat] += 1
        self.dealer = referee.next_dealer
        loses = self.rules.next_leader is NextLeader.LOSER and bool(outcome.losers)
        self.leader = self.dealer if loses else None
        self.counted = True


def first_dealer(seed: Seed, players: int) -> int:
    """The drawn first dealer of a sitting with ``seed`` (``None``: from :mod:`secrets`).

    >>> first_dealer(7, 4) == first_dealer(7, 4) and 0 <= first_dealer(None, 4) < 4
    True
    """
    sub = derive_seed(seed, "first dealer")
    if sub is None:
        return secrets.randbelow(players)
    return random.Random(sub).randrange(players)
