"""The position notation: every position of every preset round-trips, and a game
set up from a position plays on exactly as the original; the state's one field list
is what ``clone`` copies."""

from __future__ import annotations

import dataclasses
import random

import pytest

from mattis.core import PRESETS, GameRecord, GameSetupError, Phase, PositionFields, State, parse_position, preset
from mattis.core.testing import all_card_masks
from tiers import scale

CASES: list[tuple[str, int, dict[str, str]]] = [
    (name, n, {}) for name in PRESETS for n in preset(name).allowed_players()]
# the trump shown only when drawn, and phase 1 ending with the stock
CASES += [("hund", 3, {"trump": "shown_when_drawn", "phase1_end": "stock_empty"}),
          ("blodmattis", 4, {"trump": "shown_when_drawn", "chance": "lead"})]
# the research preset's short deck (six cards), and with one card a hand
CASES += [("mini", 2, {}), ("mini", 2, {"hand_size": "1"})]


def _without_history(snap: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in snap.items() if k != "moves_played"}


@pytest.mark.parametrize("name,players,opts", CASES,
                         ids=[f"{n}{''.join('-' + v for v in o.values())}-{p}p" for n, p, o in CASES])
def test_every_position_round_trips_and_plays_on_the_same(name: str, players: int, opts: dict[str, str]) -> None:
    rules = preset(name, **opts)
    checked = 0
    for g in range(scale(4, 10)):
        rng = random.Random(g)
        state = State.new(rules, players, seed=g, dealer=g % players)
        while not state.is_over:
            text = state.position_text()
            copy = parse_position(rules, text)
            assert copy.position_text() == text
            assert copy.legal_moves() == state.legal_moves()
            assert _without_history(copy.snapshot()) == _without_history(state.snapshot())
            assert sum(m.bit_count() for m in all_card_masks(copy)) == len(rules.deck())
            for seat in range(players):
                a, b = copy.observation(seat), state.observation(seat)
                # a position holds neither the history nor who led the game's first trick, nor
                # the counts of the past (phase 2 moves made, repetitions of this position)
                assert a.replace(history=()) == b.replace(history=(), last_trick=a.last_trick,
                                                          first_leader=a.first_leader,
                                                          phase2_moves=a.phase2_moves,
                                                          repetitions=a.repetitions)
            if rng.random() < 0.05:
                # play both on with the same moves: the same game (unless an engine
                # rule that counts the past -- repetition, the cap -- ends it)
                x, y = state.clone(), copy
                r2 = random.Random(checked)
                while not x.is_over:
                    m = r2.choice(x.legal_moves())
                    x.apply(m)
                    y.apply(m)
                if x.end_reason == "normal":
                    assert _without_history(x.snapshot()) == _without_history(y.snapshot())
            checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > (50 if rules.full_deck() else 10)  # a short deck's games are a few moves long


def test_a_record_can_start_from_a_phase1_position() -> None:
    text = "1 dealer=0 hands=4C9CJC/2H5D8S/QSKS3D piles=-/-/- stock=5H6H7H trump=- leader=1"
    rec = GameRecord.from_json({"rules": "mattis", "position": text, "moves": ["1 play 2H", "2 play QS"]})
    state = rec.replay()
    assert state.snapshot()["table"] == []  # seat 2's QS beat 2H: the trick is over
    assert state.snapshot()["piles"][2] == ["2H", "QS"]
    again = GameRecord.loads(rec.dumps())
    assert again.position == text and again.replay().snapshot() == state.snapshot()


@pytest.mark.parametrize("text,msg", [
    ("3 hands=4C/5C", "phase"),
    ("2 trump=S hands=4C/4C lead=0", "twice"),
    ("2 trump=X hands=4C/5C lead=0", "suit"),
    ("2 trump=S hands=4C/5C lead=2", "leader"),
    ("2 trump=S hands=4C/5C", "turn"),
    ("1 hands=4C/5C leader=0 colour=red", "unknown"),
    ("1 hands=4C/5Z leader=0", "5Z"),
    ("2 trump=S hands=4C/5C turn=0 table=0:", "entry"),
])
def test_bad_positions_say_what_is_wrong(text: str, msg: str) -> None:
    with pytest.raises(GameSetupError, match=msg):
        parse_position(preset("mattis"), text)


def test_clone_copies_every_mutable_field_of_the_one_field_list() -> None:
    """Walks the state's fields (the one list that construction, clone and pickling
    come from; the clone lists each): a clone shares no mutable value with the original."""
    state = State.new(preset("blodmattis"), 4, seed=3)
    rng = random.Random(3)
    while state.phase == 1 or not state.table:
        state.apply(rng.choice(state.legal_moves()))
    twin = state.clone()
    fields = dataclasses.fields(State)
    with pytest.raises(AttributeError):  # the field list is the whole state: no other attribute
        twin.colour = "red"  # type: ignore[attr-defined]
    for f in fields:
        a, b = getattr(state, f.name), getattr(twin, f.name)
        assert a == b, f.name
        if isinstance(a, list | dict | set):
            assert a is not b, f"clone shares the mutable field {f.name}"
    before = state.snapshot()
    while not twin.is_over:
        twin.apply(rng.choice(twin.legal_moves()))
    assert state.snapshot() == before


def test_no_private_method_of_the_state_is_driven_outside_it() -> None:
    """Positions are built through State.from_fields (the notation, the determinizer,
    the test tools): no module but core/state.py calls a private method of State."""
    import re
    from pathlib import Path

    import mattis

    private = sorted(n for n in dir(State) if n.startswith("_") and not n.startswith("__")
                     and callable(getattr(State, n)))
    assert "_start_trick" in private and "_blank" in private
    call = re.compile(r"(?<!self)\.(" + "|".join(map(re.escape, private)) + r")\(")
    root = Path(mattis.__file__).parent
    found = [f"{path.relative_to(root)}:{i}" for path in sorted(root.rglob("*.py")) if path.name != "state.py"
             or path.parent.name != "core" for i, line in enumerate(path.read_text().splitlines(), 1)
             if call.search(line)]
    assert found == []


@pytest.mark.parametrize("fields,msg", [
    (PositionFields(Phase.COLLECT, ((0,), (1,)), leader=0, stock=(1, 2)), "3C appears twice"),
    (PositionFields(Phase.COLLECT, ((0,), (1,)), leader=2), "leader"),
    (PositionFields(Phase.COLLECT, ((0,), (52,)), leader=0), "not a card"),
    (PositionFields(Phase.COLLECT, ((0,), (1,)), leader=0, trick=((0, 5),)), "round"),
    (PositionFields(Phase.COLLECT, ((0,), (1,)), leader=0, turn=1), "phase 1 position has no"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0), "either the leader"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, leader=0, turn=1), "either the leader"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, leader=0, table=((0, (5,)),)), "empty table"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, turn=0, finished=(1,)), "two or more players"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, turn=0, losers=(1, 1)), "listed twice"),
    (PositionFields(Phase.SHED, ((0,), (1,), ()), trump=0, turn=0, waiting=(2,)), "waiting to go out"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, turn=0, known=((5,), ())), "known cards of seat 0"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=0, turn=0, table=((0, (1,)),)), "appears twice"),
    (PositionFields(Phase.SHED, ((0,), (1,)), trump=7, turn=0), "suit"),
    (PositionFields(Phase.OVER, ((0,), (1,)), trump=0, turn=0), "phase 1 or phase 2"),
])
def test_from_fields_checks_the_position(fields: PositionFields, msg: str) -> None:
    """The one validated constructor: card accounting, seats, the phase's invariants."""
    with pytest.raises(GameSetupError, match=msg):
        State.from_fields(preset("mattis"), fields)


def test_from_fields_builds_what_the_notation_writes() -> None:
    """A position built from its fields is the one its text parses to; a waiting player
    is kept waiting, and the first trick clears her out."""
    text = "2 dealer=0 trump=S turn=1 hands=-/5C9C/7C8CTC table=0:4C need=3 finished=- losers=- blodmattis=- won=1/1/1"
    rules = preset("blodmattis")
    fields = PositionFields(Phase.SHED, ((), (3, 7), (5, 6, 8)), trump=3, turn=1, table=((0, (2,)),), need=3,
                            won=(1, 1, 1), waiting=(0,))
    state = State.from_fields(rules, fields)
    assert state.position_text() == text + " waiting=0"
    assert parse_position(rules, text + " waiting=0").snapshot() == state.snapshot()
    assert state.snapshot()["waiting"] == [0] and state.to_act == 1
