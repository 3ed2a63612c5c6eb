"""No card leaks: every frame each seat (and a spectator) receives during whole games is
checked against the referee's truth at that moment."""

from __future__ import annotations

import json

import pytest
from web_helpers import Web, cards_in, create, join, names_in_text, play_out, secret_cards, states_by_seq

from mattis.core import card_code, card_name

CASES = [
    ("mattis", 3, 4),        # 2 people + 1 bot, face-down trump under the stock
    ("mattis", 2, 5),        # two players: 10 cards set aside unseen
    ("blodmattis", 3, 6),    # trump turned up from the bottom, støting, sequences
    ("skitgubbe", 3, 7),     # sjanse any time, pick up the last entry
    ("hund", 4, 8),          # everyone lays to each trick
]


@pytest.mark.parametrize("preset,players,seed", CASES)
def test_no_frame_holds_a_card_its_seat_could_not_see(web: Web, preset: str, players: int, seed: int) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 2)
    client = web.client
    if True:
        t = create(client, preset, seats, seed=seed)
        tid = t["table"]
        tok1 = join(client, tid, t["invite"], "Bjørn")["token"]
        p0, p1 = web.player(tid, t["token"]), web.player(tid, tok1, lang="nb")
        spectator = web.player(tid, None)
        p0.until(lambda f: f["seats"][1]["kind"] == "human")
        p0.send({"type": "start"})
        # While the game runs, the record (with the deck) cannot be downloaded.
        p0.until(lambda f: f.get("status") == "playing")
        assert client.get(f"/api/tables/{tid}/games/1/record").status_code == 404
        last = play_out({0: p0, 1: p1}, [spectator])
        assert last["status"] == "over"
        record = client.get(f"/api/tables/{tid}/games/1/record")
        assert record.status_code == 200
        states = states_by_seq(record.text)
        assert states[-1][0].is_over and len(states) - 1 == last["seq"]
        checked = 0
        for viewer, conn in ((0, p0), (1, p1), (None, spectator)):
            for raw in conn.raw:
                assert "deck" not in raw and "seed" not in raw and "token" not in raw
                f = json.loads(raw)
                if f.get("status") == "lobby":
                    assert "obs" not in f
                    continue
                st, public = states[f["seq"]]
                secret = secret_cards(st, public, viewer)
                leaked = cards_in(f) & secret
                assert not leaked, f"seat {viewer} at move {f['seq']} was sent {sorted(leaked)}"
                log_text = " ".join(e["text"] for e in f["obs"]["log"])
                assert not names_in_text(log_text, secret)
                # The frame does show the seat its own hand, exactly.
                if viewer is not None:
                    assert sorted(f["obs"]["hand"]) == sorted(card_code(c) for c in st.hand(viewer))
                checked += 1
        assert checked > 3 * 30


def test_secret_check_catches_a_leak() -> None:
    """The checker itself: a frame naming a card in another hand is caught."""
    from mattis.core import State, preset

    st = State.new(preset("mattis"), 3, seed=3)
    other = st.hand(1)[0]
    frame = {"obs": {"hand": [card_code(c) for c in st.hand(0)], "log": [{"move": f"play {card_code(other)}"}]}}
    assert cards_in(frame) & secret_cards(st, set(), 0) == {other}
    assert names_in_text(f"Bjørn legger {card_name(other, 'nb')}", secret_cards(st, set(), 0)) == {other}
