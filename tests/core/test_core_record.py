"""The game record format: round trip, replay, and its errors; clone and pickle."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from core_helpers import check_accounting, codes

from mattis.core import GameRecord, RecordError, ReplayError, State, load_record, preset, rules_from_json, rules_to_json
from mattis.core.record import new_record


def finished_game(name: str = "mattis", players: int = 3, seed: int = 1, **opts: object) -> State:
    s = State.new(preset(name, **opts), players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_moves()))
    return s


@pytest.mark.parametrize("name,players", [("mattis", 2), ("hund", 4), ("blodmattis", 5), ("skitgubbe", 3)])
def test_roundtrip_finished_game(name: str, players: int) -> None:
    s = finished_game(name, players, seed=players)
    rec = GameRecord.from_state(s)
    text = rec.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    assert again.replay().snapshot() == s.snapshot()
    assert again.replay().moves() == s.moves()
    data = json.loads(text)
    assert data["rules"] == name and data["players"] == players and len(data["deck"]) == 52
    assert all(isinstance(m, str) and m.split()[0].isdigit() for m in data["moves"])


def test_roundtrip_with_overrides_and_position() -> None:
    s = finished_game("skitgubbe", 3, seed=4, sequences=3, pickup_optional=False)
    text = GameRecord.from_state(s).dumps()
    data = json.loads(text)
    assert data["rules"] == {"preset": "skitgubbe", "sequences": 3, "pickup_optional": False}
    assert GameRecord.loads(text).replay().snapshot() == s.snapshot()
    p = State.from_position(preset("mattis"), [[2, 9], [15], [30, 40]], 3, 0, 1)
    rng = random.Random(0)
    while not p.is_over:
        p.apply(rng.choice(p.legal_moves()))
    text = GameRecord.from_state(p).dumps()
    assert json.loads(text)["position"] == "2 dealer=1 trump=S hands=4CJC/4D/6H3S lead=0"
    # the object form of a phase 2 start reads as the same position
    old = dict(json.loads(text), position={"trump": "S", "hands": [["4C", "JC"], ["4D"], ["6H", "3S"]], "leader": 0})
    assert GameRecord.from_json(old).dumps() == text
    assert GameRecord.loads(text).dumps() == text
    assert GameRecord.loads(text).replay().snapshot() == p.snapshot()


def test_record_accepts_readme_example_shape() -> None:
    deck = codes(range(52))
    text = json.dumps({"rules": "mattis", "players": 3, "dealer": 0, "deck": deck, "moves": []})
    rec = GameRecord.loads(text)
    assert rec.replay().to_act == 1
    # parsing accepts 10S, lower case and Unicode suits in a deck
    alt = [("10" + c[1]) if c[0] == "T" else c.lower() for c in deck]
    alt[0] = "♣2"
    assert GameRecord.loads(json.dumps({"rules": "mattis", "players": 3, "deck": alt})).deck == list(range(52))


def test_partial_replay_and_dumps_loads_identity() -> None:
    s = finished_game("hund", 3, seed=8)
    rec = GameRecord.from_state(s)
    for k in (0, 1, 10, len(rec.moves) // 2):
        part = rec.replay(k)
        assert part.n_moves == k
        rec_k = GameRecord.from_state(part)
        assert rec_k.moves == rec.moves[:k]
        assert GameRecord.loads(rec_k.dumps()).replay().snapshot() == part.snapshot()


def test_replay_error_names_move_and_reason() -> None:
    s = finished_game("mattis", 3, seed=2)
    rec = GameRecord.from_state(s)
    bad = GameRecord(rec.rules, rec.players, rec.dealer, rec.deck, None, rec.moves[:3] + ["0 pickup"])
    with pytest.raises(ReplayError) as e:
        bad.replay()
    assert e.value.index == 4 and e.value.text == "0 pickup" and e.value.reason
    assert "move 4" in str(e.value)
    wrong_seat = GameRecord(rec.rules, rec.players, rec.dealer, rec.deck, None, ["2 play 4C"])
    with pytest.raises(ReplayError, match="turn"):
        wrong_seat.replay()
    over = GameRecord(rec.rules, rec.players, rec.dealer, rec.deck, None, rec.moves + ["0 pickup"])
    with pytest.raises(ReplayError, match="over"):
        over.replay()
    garbled = GameRecord(rec.rules, rec.players, rec.dealer, rec.deck, None, ["zero play 4C"])
    with pytest.raises(ReplayError, match="seat"):
        garbled.replay()


@pytest.mark.parametrize("data,msg", [
    ([], "object"),
    ({"rules": "nope", "players": 3, "deck": []}, "rules"),
    ({"rules": "mattis", "players": 3, "deck": ["4C"]}, "52"),
    ({"rules": "mattis", "players": 3, "deck": ["4C"] * 52}, "52"),
    ({"rules": "mattis", "players": 3, "deck": ["XX"] + codes(range(1, 52))}, "deck"),
    ({"rules": "mattis", "players": 3}, "deck"),
    ({"rules": "mattis", "players": "3", "deck": codes(range(52))}, "players"),
    ({"rules": "mattis", "players": 7, "deck": codes(range(52))}, "players"),
    ({"rules": "blodmattis", "players": 2, "deck": codes(range(52))}, "players"),
    ({"rules": "mattis", "players": 3, "dealer": 3, "deck": codes(range(52))}, "dealer"),
    ({"rules": "mattis", "players": 3, "dealer": True, "deck": codes(range(52))}, "dealer"),
    ({"rules": "mattis", "players": 3, "deck": codes(range(52)), "moves": "0 play 4C"}, "moves"),
    ({"rules": "mattis", "players": 3, "deck": codes(range(52)), "extra": 1}, "unknown field"),
    ({"rules": {"preset": "mattis", "pickup": "middle"}, "players": 3, "deck": codes(range(52))}, "pickup"),
    ({"rules": 5, "players": 3, "deck": codes(range(52))}, "rules"),
    ({"rules": {"preset": "mattis", "name": "hund"}, "players": 3, "deck": codes(range(52))}, "name"),
    ({"rules": {"preset": "mattis", "players": [3, 4]}, "players": 3, "deck": codes(range(52))}, "rules"),
    ({"rules": {"preset": "mattis", "ties": None}, "players": 3, "deck": codes(range(52))}, "ties"),
    ({"rules": "mattis", "position": {"trump": "S", "hands": [["4C"]]}}, "position"),
    ({"rules": "mattis", "position": {"trump": "X", "hands": [["4C"], ["5C"]], "leader": 0}}, "suit"),
    ({"rules": "mattis", "position": {"trump": "S", "hands": [["4C"], ["ZZ"]], "leader": 0}}, "position"),
    ({"rules": "mattis", "position": {"trump": "S", "hands": "4C", "leader": 0}}, "hands"),
    ({"rules": "mattis", "players": 3, "position": {"trump": "S", "hands": [["4C"], ["5C"]], "leader": 0}}, "players"),
    ({"rules": "mattis", "position": {"trump": "S", "hands": [["4C"], ["5C"]], "leader": "0"}}, "leader"),
])
def test_malformed_records(data: object, msg: str) -> None:
    with pytest.raises(RecordError) as e:
        GameRecord.from_json(data)
    assert msg.lower() in str(e.value).lower()


@pytest.mark.parametrize("pos,msg", [
    ({"trump": "S", "hands": [["4C"], ["4C"]], "leader": 0}, "twice"),
    ({"trump": "S", "hands": [["4C"], ["5C"]], "leader": 2}, "leader"),
    ({"trump": "S", "hands": [["4C"]], "leader": 0}, "2 to 6"),
])
def test_bad_positions_fail_at_start(pos: dict[str, object], msg: str) -> None:
    rec = GameRecord.from_json({"rules": "mattis", "position": pos})
    with pytest.raises(RecordError, match=msg):
        rec.replay()


def test_load_record_errors(tmp_path: object) -> None:
    import pathlib

    d = pathlib.Path(str(tmp_path))
    with pytest.raises(RecordError, match="cannot read"):
        load_record(str(d / "missing.json"))
    (d / "bad.json").write_text("{nope", encoding="utf-8")
    with pytest.raises(RecordError, match="JSON"):
        load_record(str(d / "bad.json"))
    (d / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load_record(str(d / "bin.json"))
    s = finished_game()
    (d / "ok.json").write_text(GameRecord.from_state(s).dumps(), encoding="utf-8")
    assert load_record(str(d / "ok.json")).replay().snapshot() == s.snapshot()


def test_new_record() -> None:
    rec = new_record("hund", 4, list(range(52)), dealer=2)
    assert rec.replay().to_act == 3 and rec.moves == []


def test_rules_json_roundtrip_every_option() -> None:
    for name in ("mattis", "hund", "blodmattis", "skitgubbe"):
        r = preset(name)
        assert rules_to_json(r) == name and rules_from_json(name) == r
    r = preset("mattis", players="3-4", ties="stoting", phase2_cap=50)
    j = rules_to_json(r)
    assert j == {"preset": "mattis", "min_players": 3, "max_players": 4, "ties": "stoting", "phase2_cap": 50}
    assert rules_from_json(j) == r
    assert rules_from_json({"preset": "skitgubbe", "players": "2-3"}).allowed_players() == range(2, 4)


# -------------------------------------------------------------- clone, pickle
def test_clone_is_independent() -> None:
    s = State.new(preset("mattis"), 3, seed=3)
    c = s.clone()
    snap = s.snapshot()
    rng = random.Random(3)
    while not c.is_over:
        c.apply(rng.choice(c.legal_moves()))
    assert s.snapshot() == snap and s.n_moves == 0
    check_accounting(s)
    assert copy.copy(s).snapshot() == snap


def test_pickle_roundtrip_including_long_games() -> None:
    """Bug fix: the move log is a linked list as deep as the game; pickling a game of
    more than about 1,000 moves hit the recursion limit."""
    longest = None
    for seed in range(60):
        s = finished_game("skitgubbe", 6, seed=seed, tricks="all")
        if longest is None or s.n_moves > longest.n_moves:
            longest = s
    assert longest is not None and longest.n_moves > 1100
    for st in (longest, State.new(preset("hund"), 4, seed=1)):
        t = pickle.loads(pickle.dumps(st))
        assert t.snapshot() == st.snapshot() and t.moves() == st.moves()
        assert copy.deepcopy(st).snapshot() == st.snapshot()
    # a pickled game in progress plays on exactly like the original
    s = State.new(preset("blodmattis"), 4, seed=2)
    rng = random.Random(5)
    for _ in range(40):
        s.apply(rng.choice(s.legal_moves()))
    t = pickle.loads(pickle.dumps(s))
    r1, r2 = random.Random(9), random.Random(9)
    while not s.is_over:
        s.apply(r1.choice(s.legal_moves()))
        t.apply(r2.choice(t.legal_moves()))
    assert s.snapshot() == t.snapshot()
