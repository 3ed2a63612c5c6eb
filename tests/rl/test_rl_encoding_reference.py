"""The fast encoder (masks from the observation, history kept move by move, bits laid
out by the compiled core) gives exactly the tensor a plain block-by-block reading of
the observation's public fields gives, in every preset and player count, whatever
order the encoder is handed observations in; and the memoised action masks equal
fresh ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the research extra is not installed: pip install 'mattis[rl]'")

from mattis.core import PRESETS, MoveKind, Observation, State, preset  # noqa: E402
from mattis.rl.encoding import ActionSpace, Encoder, encode, obs_size, offsets, out_cards  # noqa: E402
from tiers import scale  # noqa: E402

GAMES = scale(3, 5)
EVERY_MOVE = 300
"""Moves from the start of a game at which every position is checked against the reference."""
STRIDE = 7
"""After those, every ``STRIDE``-th position is (and the last)."""
"""Seeded games per preset and player count."""


def reference(obs: Observation) -> Any:
    """The tensor of the layout (``OBS_LAYOUT_DOC``) written out block by block from
    the observation's card tuples, one entry at a time."""
    n, me = obs.players, obs.seat
    o = offsets(n)
    t = np.zeros(obs_size(n), np.float32)

    def rel(s: int) -> int:
        return (s - me) % n

    t[o["phase"] + int(obs.phase) - 1] = 1
    if obs.to_act is not None:
        t[o["to_act"] + rel(obs.to_act)] = 1
    for c in obs.hand:
        t[o["hand"] + c] = 1
    for s in range(n):
        t[o["hand_counts"] + rel(s)] = obs.hand_counts[s] / 52
        t[o["tricks_won"] + rel(s)] = obs.tricks_won[s] / 26
        for c in obs.known[s]:
            t[o["known"] + rel(s) * 52 + c] = 1
        for c in obs.piles[s]:
            t[o["piles"] + rel(s) * 52 + c] = 1
    t[o["stock"]] = obs.stock_count / 52
    t[o["set_aside"]] = obs.set_aside_count / 52
    if obs.trump is not None:
        t[o["trump"] + obs.trump] = 1
    if obs.trump_card is not None:
        t[o["trump_card"] + obs.trump_card] = 1
    if obs.trump_holder is not None:
        t[o["trump_holder"] + rel(obs.trump_holder)] = 1
    if obs.trick_leader is not None:
        t[o["trick_leader"] + rel(obs.trick_leader)] = 1
    for s, c in obs.table1:
        t[o["table1"] + rel(s) * 52 + c] = 1
    for s in obs.fighters:
        t[o["fighters"] + rel(s)] = 1
    for s, entry in obs.table2:
        for c in entry:
            t[o["table2"] + rel(s) * 52 + c] = 1
    if obs.table2:
        for c in obs.table2[-1][1]:
            t[o["table2_top"] + c] = 1
        for c in obs.table2[0][1]:
            t[o["table2_first"] + c] = 1
    t[o["table2_count"]] = len(obs.table2) / n
    t[o["trick_need"]] = obs.trick_need / n
    for c in out_cards(obs):
        t[o["out"] + c] = 1
    for block, seats in (("in_game", tuple(sorted(obs.still_in))), ("finished", obs.finished), ("losers", obs.losers)):
        for s in seats:
            t[o[block] + rel(s)] = 1
    if obs.last_trick is not None:
        for c in obs.last_trick[1]:
            t[o["last_trick"] + c] = 1
    for s, mv, shown in obs.history:
        if mv.kind is not MoveKind.PICKUP:
            for c in shown:
                t[o["laid"] + rel(s) * 52 + c] = 1
    t[o["phase2_moves"]] = min(obs.phase2_moves / obs.rules.phase2_cap, 1.0)
    t[o["repetitions"]] = min(obs.repetitions / 3, 1.0)
    return t


CONFIGS = [(name, n) for name in PRESETS for n in preset(name).allowed_players()]


@pytest.mark.parametrize("name,players", CONFIGS)
def test_the_encoder_gives_the_reference_tensor(name: str, players: int) -> None:
    rules = preset(name)
    per_seat = [Encoder(players) for _ in range(players)]
    shared = Encoder(players)  # handed every seat in turn: it must start afresh each time
    checked = phase2 = 0
    for g in range(GAMES):
        rng = random.Random(f"ref/{name}/{players}/{g}")
        s = State.new(rules, players, seed=g, dealer=g % players)
        ply = 0
        while True:
            # Every position of the first EVERY_MOVE moves is checked, then every STRIDE-th
            # and the last: the reference reads the whole history each time, so a long
            # random Blodmattis game (thousands of moves) would cost its square.  The
            # per-seat encoders still see every observation (their history is kept move by
            # move), so a slip in that bookkeeping shows at the next checked position.
            check = ply < EVERY_MOVE or ply % STRIDE == 0 or s.is_over
            for seat in range(players):
                obs = s.observation(seat)
                got = per_seat[seat].encode(obs)
                if not check:
                    continue
                want = reference(obs)
                assert np.array_equal(got, want), (name, players, g, seat)
                assert np.array_equal(shared.encode(obs), want)
                into = np.full(want.shape, 0.5, np.float32)
                assert per_seat[seat].encode(obs, into) is into and np.array_equal(into, want)
                checked += 1
                phase2 += obs.phase == 2
            if s.is_over:
                break
            s.apply(s.legal_moves()[int(rng.random() * len(s.legal_moves()))])
            ply += 1
    assert checked > 50 * GAMES and phase2 > 0


def test_an_encoder_follows_a_clone_an_undo_and_a_new_game() -> None:
    """The history block starts afresh when the history handed in is not the one seen
    before (a shorter one, a clone played another way, another game)."""
    rules = preset("mattis")
    enc = Encoder(3)
    s = State.new(rules, 3, seed=4)
    rng = random.Random(4)
    early = None
    for i in range(40):
        if i == 10:
            early = s.clone()
        s.apply(rng.choice(s.legal_moves()))
        assert np.array_equal(enc.encode(s.observation(0)), reference(s.observation(0)))
    assert early is not None
    for state in (early, State.new(rules, 3, seed=5), s):
        for _ in range(3):
            assert np.array_equal(enc.encode(state.observation(0)), reference(state.observation(0)))
            if not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
    assert np.array_equal(encode(s.observation(1)), reference(s.observation(1)))


@pytest.mark.parametrize("name", ["mattis", "skitgubbe"])
def test_memoised_masks_and_legal_actions_equal_fresh_ones(name: str) -> None:
    rules = preset(name, sequences=3) if name == "skitgubbe" else preset(name)
    space = ActionSpace(rules)
    s = State.new(rules, 3, seed=2)
    rng = random.Random(2)
    while not s.is_over:
        legal = s.legal_moves()
        want = sorted(space.action(mv) for mv in legal)
        for _ in range(2):  # the second call is served from the memo
            m = space.mask(legal)
            assert m.dtype == np.int8 and sorted(np.flatnonzero(m).tolist()) == want
            m[:] = 1  # a caller changing its array leaves the memo alone
            acts = space.legal_actions(legal)
            assert acts == want
            acts.append(-1)
        assert sorted(np.flatnonzero(space.mask(list(legal))).tolist()) == want
        s.apply(rng.choice(legal))
