"""A phase 2 position that comes back is a reason to vary (:mod:`mattis.bots.vary`).

Without it the heuristic bot, which makes the same move in the same position, played
every cycle it entered round to the repetition rule: 25 of 100 games of Mattis at six
players between ``easy`` bots (the ``cycles`` study's games, seed 2026) ended so.
"""

from __future__ import annotations

import pytest

from mattis.bots.heuristic import HeuristicBot
from mattis.core import Move, Observation, Termination, preset
from mattis.core.observation import PHASE2
from mattis.lab.arena import game_seeds
from mattis.lab.studies import make_cells, make_jobs, play_job
from mattis.play import Agent, Referee, make_bot, play_until


class Watched:
    """Wraps a bot and fails when, in a phase 2 position that came back (the
    observation's repetition count 2), it makes a move it made there before while
    another was legal."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.name = bot.name
        self.made: dict[tuple[object, ...], set[Move]] = {}
        self.varied = 0

    def act(self, obs: Observation) -> Move:
        move = self.bot.act(obs)
        if obs.phase == PHASE2:
            key = (obs.hand_mask, tuple(c for _, c in obs.table2), obs.hand_counts, obs.waiting)
            before = self.made.setdefault(key, set())
            if obs.repetitions >= 2 and before and any(m not in before for m in obs.legal):
                assert move not in before, f"{self.name} made {move} again at a position seen before"
                self.varied += 1
            before.add(move)
        return move


def _cycles_games(rules: str, players: int, bots: str, games: int) -> list[str]:
    cells = make_cells("cycles", rules, str(players), bots, {})
    return [play_job(job)["end"] for job in make_jobs("cycles", cells, games, 2026)]


def test_easy_bots_end_mattis_by_play_at_six_players() -> None:
    # Before: 25 of these 100 games ended by the repetition rule (6 of the first 30).
    ends = _cycles_games("mattis", 6, "easy", 30)
    assert ends.count(Termination.REPETITION.value) == 0, ends


def test_a_bot_does_not_repeat_its_move_where_the_position_came_back() -> None:
    # Seeded games of Mattis and Hund at five and six players, where positions come
    # back: every time one did, the bot at it chose another move.
    cells = make_cells("cycles", "mattis,hund", "5,6", "easy", {})
    varied = 0
    for job in make_jobs("cycles", cells, 12, 2026):
        n = job.cell.players
        deal_seed, bot_seeds = game_seeds(2026 + job.game, job.game, 0, n)
        agents = {i: Watched(HeuristicBot(bot_seeds[i])) for i in range(n)}
        referee = Referee.new(job.cell.rules, n, seed=deal_seed, dealer=0)
        play_until(referee, agents)
        varied += sum(a.varied for a in agents.values())
    assert varied > 0, "no position came back in these games: the check checked nothing"


def _phase2_choice_point() -> Observation:
    """A phase 2 observation with three or more legal moves (a seeded game)."""
    referee = Referee.new(preset("mattis"), 4, seed=11, dealer=0)
    bots = {i: HeuristicBot(i) for i in range(4)}
    while True:
        seat = referee.to_act
        assert seat is not None, "the game ended before such a point"
        obs = referee.observation(seat)
        if obs.phase == PHASE2 and len(obs.legal) >= 3:
            return obs
        referee.apply(seat, bots[seat].act(obs), events=False)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_varies_where_its_position_came_back(level: str) -> None:
    obs = _phase2_choice_point()
    assert obs.repetitions == 1
    again = Observation.from_json({**obs.to_json(), "repetitions": 2})
    bot = make_bot(level, 3)
    first = bot.act(obs)
    second = bot.act(again)
    assert second in obs.legal and second != first
