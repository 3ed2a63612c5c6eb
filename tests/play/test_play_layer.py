"""The play layer: the referee, the one loop, events, sittings, seeds and saving."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mattis.core import (
    PRESETS,
    GameRecord,
    GoingOut,
    IllegalMoveError,
    Move,
    Observation,
    Phase,
    Reason,
    card_code,
    parse_move,
    preset,
)
from mattis.play import (
    BlodmattisFound,
    Clock,
    GameOver,
    MovePlayed,
    PhaseTwoBegins,
    PlayerOut,
    PlayerWaiting,
    Referee,
    Sitting,
    TrickCleared,
    TrickTaken,
    atomic_write,
    derive_seed,
    generation,
    make_bot,
    next_move,
    play_until,
    replay_events,
)


class First:
    """An agent that plays the first legal move (and counts what it saw)."""

    name = "first"

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def act(self, obs: Observation) -> Move:
        self.seen.append(obs)
        return obs.legal[0]


def test_the_referee_refuses_the_wrong_seat_and_illegal_moves_and_changes_nothing() -> None:
    ref = Referee.new(preset("mattis"), 3, seed=4)
    seat = ref.to_act
    assert seat is not None
    other = (seat + 1) % 3
    before = ref.record().dumps()
    with pytest.raises(IllegalMoveError) as e:
        ref.apply(other, ref.observation(seat).legal[0])
    assert e.value.illegal.reason is Reason.NOT_YOUR_TURN and e.value.illegal.number == seat
    held = set(ref.observation(seat).hand)
    missing = next(c for c in range(52) if c not in held)
    with pytest.raises(IllegalMoveError) as e:
        ref.apply(seat, parse_move(f"play {card_code(missing)}"))
    assert e.value.illegal.reason is Reason.NOT_HELD and e.value.illegal.cards == (missing,)
    assert ref.record().dumps() == before
    ref.apply(seat, ref.observation(seat).legal[0])
    assert ref.moves_played == 1


def _observed_events(before: Observation, after: Observation) -> list[object]:
    """An oracle: the public events read off two observations of one seat (how the
    play layer once rebuilt them), except the waiting to go out, which no observation
    diff told."""
    out: list[object] = [MovePlayed(s, m, c) for s, m, c in after.history[len(before.history):]]
    if before.phase is Phase.COLLECT:
        for s in range(after.players):
            if after.tricks_won[s] > before.tricks_won[s] and after.last_trick is not None:
                out.append(TrickTaken(s, after.last_trick[1]))
        if after.phase is not Phase.COLLECT:
            out.append(PhaseTwoBegins(after.trump, after.trump_card, after.trump_holder))
    elif after.last_trick is not None and after.last_trick != before.last_trick:
        out.append(TrickCleared(after.last_trick[0], after.last_trick[1]))
    out += [BlodmattisFound(s) for s in after.blodmattis[len(before.blodmattis):]]
    out += [PlayerOut(s, i) for i, s in enumerate(after.finished[len(before.finished):], len(before.finished) + 1)]
    if after.outcome is not None and not before.is_over:
        out.append(GameOver(after.outcome))
    return out


@pytest.mark.parametrize("name", list(PRESETS))
def test_events_tell_the_whole_game_and_are_the_same_for_every_seat(name: str) -> None:
    """Every move gives exactly one MovePlayed, phase 2 begins once, every trick won in
    phase 1 is a TrickTaken, the game ends with one GameOver whose outcome is the
    game's; and the events the move emits are what every seat's observations before
    and after it say happened (a PlayerWaiting, which they cannot say, apart)."""
    rules = preset(name)
    waited = [0]
    for seed in range(6):
        ref = Referee.new(rules, 4 if name != "skitgubbe" else 3, seed=seed)
        n = ref.players
        kinds: dict[type, int] = {}
        out_order: list[int] = []
        rng = random.Random(seed)
        while not ref.is_over:
            seat = ref.to_act
            assert seat is not None
            views = [ref.observation(s) for s in range(n)]
            move = rng.choice(views[seat].legal)
            events = ref.apply(seat, move)
            told = [e for e in events if not isinstance(e, PlayerWaiting)]
            for s in range(n):
                assert _observed_events(views[s], ref.observation(s)) == told
            for e in events:
                if isinstance(e, PlayerWaiting):  # she waits on the open trick, out of cards
                    assert rules.going_out is not GoingOut.LAID and e.seat == seat
                    assert e.seat in ref.observation(0).waiting and not ref.observation(seat).hand
            assert isinstance(events[0], MovePlayed) and events[0].seat == seat and events[0].move == move
            assert sum(isinstance(e, MovePlayed) for e in events) == 1
            for e in events:
                kinds[type(e)] = kinds.get(type(e), 0) + 1
                if isinstance(e, PlayerOut):
                    out_order.append(e.seat)
                    assert e.place == len(out_order)
        outcome = ref.outcome
        assert outcome is not None
        assert kinds[GameOver] == 1
        assert kinds.get(PhaseTwoBegins, 0) <= 1
        assert kinds[MovePlayed] == ref.moves_played
        assert kinds.get(TrickTaken, 0) == sum(ref.observation(0).tricks_won)
        assert kinds.get(BlodmattisFound, 0) == len(outcome.blodmattis)
        # PlayerOut for every player who went out, never for one ranked at a forced end
        assert tuple(out_order) == outcome.finished and not set(out_order) & set(outcome.ranked)
        if kinds.get(PhaseTwoBegins) and outcome.termination == "normal" and not outcome.blodmattis:
            assert kinds.get(TrickCleared, 0) >= 1
        waited[0] += kinds.get(PlayerWaiting, 0)
    # random games of the preset that plays going_out=holders (cleared's waiting) see players wait
    assert (waited[0] > 0) == (rules.going_out is not GoingOut.LAID)


def test_a_blodmattis_record_tells_who_waits_and_when_she_goes_out() -> None:
    """Under going_out=cleared, laying the last card on an open
    trick is a PlayerWaiting at that move; the PlayerOut comes with the move that clears
    the trick, after its TrickCleared; a last card that completes the trick goes out at once."""
    rec = GameRecord(preset("blodmattis", going_out="cleared"), 3,
                     position="2 dealer=0 trump=S hands=4C/5C9C/7C8CTC lead=0",
                     moves=["0 play 4C", "1 play 5C", "2 play 7C", "2 play 8C", "1 play 9C"])
    told = [[e for e in events if not isinstance(e, MovePlayed)] for _, events in replay_events(rec)]
    assert told[0] == [PlayerWaiting(0)]
    assert told[1] == []
    assert told[2] == [TrickCleared(2, (2, 3, 5)), PlayerOut(0, 1)]
    assert told[3] == []
    assert told[4][:2] == [TrickCleared(1, (6, 7)), PlayerOut(1, 2)]
    assert isinstance(told[4][2], GameOver) and told[4][2].outcome.mattis == 2 and len(told[4]) == 3


def test_replay_events_gives_the_events_of_the_game() -> None:
    ref = Referee.new(preset("hund"), 3, seed=11)
    seen: list[object] = []
    play_until(ref, {s: First() for s in range(3)}, on_events=lambda seat, evs: seen.extend(evs))
    replayed = [e for _, events in replay_events(ref.record()) for e in events]
    assert replayed == seen and isinstance(seen[-1], GameOver)


def test_the_loop_stops_at_a_seat_without_an_agent_and_agents_see_only_their_seat() -> None:
    ref = Referee.new(preset("mattis"), 3, seed=2)
    bots = {1: First(), 2: First()}
    while not ref.is_over:
        play_until(ref, bots)
        if ref.is_over:
            break
        assert ref.to_act == 0  # the human's turn
        ref.apply(0, ref.observation(0).legal[0])
    for seat, bot in bots.items():
        assert bot.seen and all(obs.seat == seat for obs in bot.seen)


def test_next_move_chooses_without_moving_and_the_clock_counts() -> None:
    ref = Referee.new(preset("mattis"), 3, seed=5)
    clock = Clock()
    bots = {s: First() for s in range(3)}
    chosen = next_move(ref, bots, clock=clock)
    assert chosen is not None and ref.moves_played == 0
    made = play_until(ref, bots, clock=clock, max_moves=10)
    assert made == 10 and ref.moves_played == 10 and sum(clock.decisions) == 11


def test_the_same_agents_and_seed_give_the_same_game_with_or_without_events() -> None:
    def game(with_events: bool) -> str:
        ref = Referee.new(preset("skitgubbe"), 3, seed=21)
        bots = {s: make_bot("heuristic", derive_seed(21, "bot", s)) for s in range(3)}
        play_until(ref, bots, on_events=(lambda seat, evs: None) if with_events else None)
        return ref.record().dumps()

    assert game(True) == game(False)


def test_a_sitting_lets_the_loser_deal_and_tallies_each_game_once() -> None:
    sitting = Sitting(preset("mattis"), 3, seed="family")
    for _ in range(4):
        ref = sitting.deal()
        assert ref.dealer == sitting.dealer
        play_until(ref, sitting.bots({s: "easy" for s in range(3)}))
        sitting.finish(ref)
        sitting.finish(ref)  # counted once
        outcome = ref.outcome
        assert outcome is not None and sitting.dealer == outcome.mattis
    assert sum(sitting.tally) == 4 and sitting.games == 4
    # the same seed gives the same sitting
    again = Sitting(preset("mattis"), 3, seed="family")
    first = again.deal()
    assert first.record().deck == Sitting(preset("mattis"), 3, seed="family").deal().record().deck


def test_undo_goes_back_to_an_earlier_position() -> None:
    ref = Referee.new(preset("mattis"), 3, seed=8)
    play_until(ref, {s: First() for s in range(3)}, max_moves=12)
    after6 = Referee.new(preset("mattis"), 3, seed=8)
    play_until(after6, {s: First() for s in range(3)}, max_moves=6)
    ref.undo_to(6)
    assert ref.record().dumps() == after6.record().dumps()
    assert ref.observation(0) == after6.observation(0)


def test_seeds_are_reproducible_and_none_means_secrets() -> None:
    assert derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0)
    assert len({derive_seed(1, "deal", g) for g in range(100)}) == 100
    assert derive_seed(None, "deal", 0) is None
    a = Referee.new(preset("mattis"), 3, seed=None).record().deck
    b = Referee.new(preset("mattis"), 3, seed=None).record().deck
    assert a != b


def test_atomic_write_keeps_generations(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    for i in range(5):
        atomic_write(path, f"v{i}", keep=3)
    assert path.read_text() == "v4\n"
    assert [generation(path, k).read_text() for k in (1, 2, 3)] == ["v3\n", "v2\n", "v1\n"]
    assert not generation(path, 4).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.1.json", "game.2.json", "game.3.json", "game.json"]


def test_no_front_end_module_holds_a_state() -> None:
    """The terminal UI, the web server and the CLI front ends build no State: they
    go through the play layer (the raw-engine benchmark and the research adapters,
    which wrap the engine for OpenSpiel, are the documented exceptions)."""
    import inspect

    import mattis.cli.selfplay
    import mattis.lab.arena
    import mattis.tui.session
    import mattis.web.table
    import mattis.web.tablestate

    for mod in (mattis.tui.session, mattis.web.table, mattis.web.tablestate, mattis.cli.selfplay, mattis.lab.arena):
        source = inspect.getsource(mod)
        assert "State(" not in source and "State.new" not in source and "State.from" not in source, mod.__name__


def test_a_blodmattis_game_ends_when_one_player_holds_cards() -> None:
    """Under going_out=holders (the Blodmattis preset: "Spillet fortsetter til bare én
    spiller har kort igjen"), Cato's last card leaves only Bjørn holding cards: the trick
    of the one player holding cards is cleared, Cato and then Anne (empty-handed) go out,
    and Bjørn is the Mattis (tests/core/records/app_last_holder.json)."""
    rec = GameRecord(preset("blodmattis"), 3, position="2 dealer=0 trump=H hands=4S/5C/6D lead=0",
                     moves=["0 play 4S", "1 pickup", "2 play 6D"])
    told = [[e for e in events if not isinstance(e, MovePlayed)] for _, events in replay_events(rec)]
    assert told[0] == [PlayerWaiting(0)] and told[1] == []
    assert told[2][:3] == [TrickCleared(2, (17,)), PlayerOut(2, 1), PlayerOut(0, 2)]
    over = told[2][3]
    assert isinstance(over, GameOver) and over.outcome.mattis == 1 and over.outcome.termination == "normal"
