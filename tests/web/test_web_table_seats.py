"""A web table with any mix of people and bots plays every game to its end: the bot
to act always moves, and ``humans_to_play`` says whether a person is still in,
whichever seats go out first (driven through :class:`mattis.web.table.Table`, as
the server's bot task drives it)."""

from __future__ import annotations

import itertools
import random

import pytest

from mattis.play import next_move
from mattis.web.table import Table

ARRANGEMENTS = [(players, kinds) for players in (3, 4)
                for kinds in itertools.product(("human", "bot"), repeat=players - 1)]


def _table(players: int, kinds: tuple[str, ...], seed: int) -> Table:
    seats = [{"kind": "human"}] + [{"kind": k, "level": "easy"} for k in kinds]
    ev, _ = Table.create_event("mattis", {}, players, seats, "Anne", test_seed=seed)
    table = Table.from_create(ev)
    while any(s.kind == "open" for s in table.seats):
        table.apply(table.join_event(table.invite, "Kari")[0])
    table.apply(table.deal_event(0))
    return table


@pytest.mark.parametrize(("players", "kinds"), ARRANGEMENTS, ids=lambda x: str(x))
def test_every_seat_order_plays_to_the_end(players: int, kinds: tuple[str, ...]) -> None:
    went_out: set[tuple[int, ...]] = set()
    for seed in range(6):
        table = _table(players, kinds, seed)
        assert [s.kind for s in table.seats] == ["human", *kinds]
        ref = table.referee
        assert ref is not None
        rng = random.Random(seed)
        while not ref.is_over:
            obs = ref.observation(0)
            people_in = any(s.kind == "human" and obs.is_in(i) for i, s in enumerate(table.seats))
            assert table.humans_to_play() == people_in
            seat = table.bot_to_act()
            if seat is not None:
                chosen = next_move(ref, table.agents())
                assert chosen is not None and chosen[0] == seat  # the bot to act moves
                move = chosen[1]
            else:
                seat = ref.to_act
                assert seat is not None and table.seats[seat].kind == "human"
                move = rng.choice(ref.observation(seat).legal)
            table.apply(table.move_event(seat, table.game, ref.moves_played, str(move)))
        outcome = ref.outcome
        assert outcome is not None and outcome.losers
        assert not table.humans_to_play()
        went_out.add(outcome.finished)
    assert len(went_out) > 1  # the seats went out in different orders
