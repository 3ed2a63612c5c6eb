"""A move sent to the web server is parsed once and judged once: the table judges it
(:meth:`Referee.judge`, the core's one judgement on a copy), logs it, and commits that
judgement; nothing judges or parses it a second time."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import Web, create, join, play_out, settled

from mattis.core import GameRecord, IllegalMoveError, preset
from mattis.play import MovePlayed, Referee


def test_every_move_of_a_web_game_is_judged_once_and_committed(web: Web, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"judge": 0, "commit": 0, "refused": 0}
    judge, commit = Referee.judge, Referee.commit

    def counted_judge(self: Referee, seat: int, move: Any, *, events: bool = True) -> Any:
        calls["judge"] += 1
        try:
            return judge(self, seat, move, events=events)
        except IllegalMoveError:
            calls["refused"] += 1
            raise

    def counted_commit(self: Referee, judged: Any) -> Any:
        calls["commit"] += 1
        return commit(self, judged)

    def no_second_judgement(*_args: object, **_kw: object) -> Any:
        raise AssertionError("a live move was judged again")

    monkeypatch.setattr(Referee, "judge", counted_judge)
    monkeypatch.setattr(Referee, "commit", counted_commit)
    monkeypatch.setattr(Referee, "apply", no_second_judgement)
    monkeypatch.setattr(Referee, "check", no_second_judgement)
    t = create(web.client, "mattis", [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}], seed=3)
    ola = join(web.client, t["table"], t["invite"], "Ola")
    anne, other = web.player(t["table"], t["token"]), web.player(t["table"], ola["token"])
    anne.send({"type": "start"})
    f = anne.until(lambda g: g.get("status") == "playing" and settled(g))  # a person is to act
    mover = {0: anne, 1: other}[f["obs"]["to_act"]]
    mover.sync()
    legal = mover.last["obs"]["legal"]
    mover.move(next(m for m in ("play 2C", "play 3C", "pickup") if m not in legal))  # refused: judged, not committed
    mover.until(lambda g: "error" in g)
    last = play_out({0: anne, 1: other}, [])
    assert last["status"] == "over"
    moves = len(GameRecord.from_json(web.client.get(f"/api/tables/{t['table']}/games/1/record").json()).moves)
    assert calls["commit"] == moves > 40
    assert calls["judge"] == moves + calls["refused"]
    assert calls["refused"] == 1


def test_a_judgement_commits_only_on_the_position_it_was_made_for() -> None:
    ref = Referee.new(preset("mattis"), players=3, seed=5)
    seat = ref.to_act
    assert seat is not None
    first, second = ref.observation(seat).legal[:2]
    a, b = ref.judge(seat, first), ref.judge(seat, second)
    assert ref.moves_played == 0  # judging changes nothing
    events = ref.commit(a)
    assert ref.moves_played == 1 and isinstance(events[0], MovePlayed) and events[0].seat == seat
    with pytest.raises(ValueError, match="another position"):
        ref.commit(b)  # judged before the first move was made
    with pytest.raises(ValueError, match="another position"):
        ref.commit(a)  # twice
    assert ref.moves_played == 1
    with pytest.raises(IllegalMoveError):
        ref.judge(seat, first)  # not this seat's turn any more
