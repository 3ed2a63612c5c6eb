"""Under ``next_leader=loser`` the last game's loser leads the next game's first
trick.  The seats observe who led first, the determinizer deals from it, so the
search bots search game 2 of a sitting (no failed sample) and the review judges it."""

from __future__ import annotations

import random

from mattis.bots.evaluate import Budget
from mattis.bots.search import IsmctsBot
from mattis.core import State, preset
from mattis.core.determinize import sample_state
from mattis.lab.review import review
from mattis.play import Sitting, play_until


def test_a_game_led_by_the_last_loser_samples() -> None:
    s = State.new(preset("mattis", next_leader="loser"), 3, seed=1, dealer=1, leader=1)
    for _ in range(3):
        s.apply(s.legal_moves()[0])
    seat = s.to_act
    assert seat is not None
    obs = s.observation(seat)
    assert obs.first_leader == 1
    world = sample_state(obs, random.Random(0))
    assert world.first_leader == 1 and world.observation(seat) == obs


def test_the_expert_searches_game_two_of_a_sitting_and_the_review_judges_both() -> None:
    rules = preset("mattis", next_leader="loser")
    sitting = Sitting(rules, 3, seed=5)
    records = []
    for game in range(2):
        referee = sitting.deal()
        if game == 1:
            # the loser of game 1 deals and leads: not the dealer's left neighbour
            assert referee.observation(0).first_leader == referee.dealer
        bots = {s: IsmctsBot(100 * game + s, iterations=8, samples=2, p2_iterations=8, solver_cards=6)
                for s in range(3)}
        play_until(referee, bots)
        assert referee.is_over
        assert [b.failed_samples for b in bots.values()] == [0, 0, 0]
        sitting.finish(referee)
        records.append(referee.record())
    for record in records:
        rv = review(record, 0, Budget(samples=2, solver_cards=6, solver_nodes=2_000))
        assert rv.decisions and all(d.samples >= 1 for d in rv.decisions)
