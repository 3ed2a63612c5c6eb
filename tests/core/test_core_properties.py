"""Property tests: random games over every preset and every allowed player count,
and over random combinations of rule options.

After every move of every game: all 52 cards are accounted for exactly once, exactly
one player is to act or the game is over, every legal move is accepted by ``apply``
on a clone and a sample of other moves is rejected without changing anything, and a
pickup takes exactly the entry the ``pickup`` option names; the legal moves equal
an independent computation from the rule text (``reference_legal``); every phase 2
move leads to the table, player to act and players in that an independent model of
the fixed rules gives (``reference_phase2_step``); every phase 1 trick goes to the
right player with the right cards, followed by the right draw and lead
(``check_phase1_step``).  At the end the losers
are what the rules define, and the record round-trips.

Number of random games in this file in the slow tier (``pytest --slow``; the fast
tier in brackets; all deterministic: hypothesis runs derandomized without a
database, the loops are seeded):
  test_preset_games:      19 configurations x 200 examples      =  3,800  (570)
  test_random_rule_games: 1,000 examples                        =  1,000  (120)
  test_seeded_games:      19 configurations x 50 seeded games   =    950  (152)
  test_observation_leak:  20 configurations x 12 games          =    240   (60)
  total                                                         =  5,990  (902)
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest
from core_helpers import check_accounting, check_end, check_move_agreement, check_turn, hidden_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mattis.core import CHANCE, HOUSE_OPTIONS, PICKUP, GameRecord, Move, Rules, State, cards_of, play, preset
from mattis.core.cards import RANK, SUIT
from mattis.core.observation import PHASE2
from mattis.core.testing import relabelled
from tiers import scale

CONFIGS: list[tuple[str, dict[str, Any], int]] = []
for _name in ("mattis", "hund", "blodmattis", "skitgubbe"):
    for _n in preset(_name).allowed_players():
        CONFIGS.append((_name, {}, _n))
for _n in (5, 6):
    CONFIGS.append(("skitgubbe", {"tricks": "all"}, _n))
CONFIG_IDS = [f"{n}{'-' + '-'.join(f'{k}={v}' for k, v in o.items()) if o else ''}-{p}p" for n, o, p in CONFIGS]

GAMES_PER_CONFIG = scale(30, 200)

SETTINGS = dict(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow])


def expected_pickup(state: State) -> tuple[int, ...]:
    """The cards a pickup must take, computed from the rule text."""
    table = state.table
    r = state.rules
    if r.pickup == "first":
        return table[0][1]
    if r.pickup == "lowest":
        def key(k: int) -> tuple[int, int]:
            e = table[k][1]
            return (min(RANK[c] for c in e), k)
        return table[min(range(len(table)), key=key)][1]
    i = len(table) - 1
    if r.sequences and r.pickup_run:
        while i > 0:
            hi_below = max(table[i - 1][1], key=lambda c: RANK[c])
            lo_cur = min(table[i][1], key=lambda c: RANK[c])
            if SUIT[hi_below] == SUIT[lo_cur] and RANK[hi_below] + 1 == RANK[lo_cur]:
                i -= 1
            else:
                break
    out: list[int] = []
    for _, e in table[i:]:
        out.extend(e)
    return tuple(out)


def all_entries(hand: int, min_seq: int) -> list[tuple[int, ...]]:
    """Every single card and every run of ``min_seq``+ consecutive cards of one suit."""
    cards = cards_of(hand)
    out: list[tuple[int, ...]] = [(c,) for c in cards]
    if min_seq:
        for c in cards:
            run = [c]
            while run[-1] % 13 != 12 and hand >> (run[-1] + 1) & 1:
                run.append(run[-1] + 1)
                if len(run) >= min_seq:
                    out.append(tuple(run))
    return out


def reference_legal(state: State) -> set[Move]:
    """The legal moves computed from the rule texts, independently of the engine."""
    r = state.rules
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    if state.phase != PHASE2:
        out = {play(c) for c in cards_of(hand)}
        # laying "out": the trick's first card, or any fighter's card in a krig/støting
        laying_out = not state.round_laid or state.fighting
        # the last stock card may be taken unless it is the hidden trump
        floor = 2 if r.trump == "last_card" else 1
        if len(state.stock) >= floor and (not hand or r.chance == "any" or (r.chance == "lead" and laying_out)):
            out.add(CHANCE)
        return out
    entries = all_entries(hand, r.sequences)
    if not state.table:
        return {play(*e) for e in entries}
    top = state.table[-1][1]
    top_suit, top_high = SUIT[top[0]], max(RANK[c] for c in top)
    same = [e for e in entries if SUIT[e[0]] == top_suit and min(RANK[c] for c in e) > top_high]
    trumps = [e for e in entries if SUIT[e[0]] == state.trump and top_suit != state.trump]
    if r.follow == "void" and any(SUIT[c] == top_suit for c in cards_of(hand)):
        trumps = []  # follow suit if you can: trump only when void of the led suit
    out = {play(*e) for e in same + trumps}
    if not out or r.pickup_optional:
        out.add(PICKUP)
    return out


def reference_phase2_step(pre: State, move: Any) -> tuple[Any, ...]:
    """(table, player to act or None, finished, in_game, waiting) after ``move`` in phase 2,
    from the rule texts, computed independently of the engine.  ``waiting``: under
    ``going_out="cleared"`` or ``"holders"``, the empty-handed players whose last entry is on
    the table."""
    r = pre.rules
    n = pre.n
    seat = pre.to_act
    assert seat is not None
    hands = list(pre.hands)
    table = [e for _, e in pre.table]
    in_game = {i for i in range(n) if pre.in_game >> i & 1}
    finished = list(pre.finished)
    need_start = pre.trick_need
    laid_by = [q for q, _ in pre.table]
    waiting = {i for i in range(n) if pre.pending >> i & 1}

    def last_entry(q: int) -> int:
        return max(k for k, x in enumerate(laid_by) if x == q)

    if move == PICKUP:
        taken = expected_pickup(pre)
        if r.pickup == "first":
            lo, hi = 0, 1
        elif r.pickup == "lowest":
            lo = table.index(tuple(taken))
            hi = lo + 1
        else:
            # the top entry, or the run of entries at the top
            size = 0
            lo = hi = len(table)
            while size < len(taken):
                lo -= 1
                size += len(table[lo])
        table = table[:lo] + table[hi:]
        for c in taken:
            hands[seat] |= 1 << c
        # the picker holds cards again; a waiting player whose last card is taken stays in
        waiting = {q for q in waiting if q != seat and not lo <= last_entry(q) < hi}
        start = seat + 1
    else:
        e = move.cards
        if not table:
            need_start = len(in_game)
        table.append(e)
        laid_by.append(seat)
        for c in e:
            hands[seat] &= ~(1 << c)
        if not hands[seat]:
            if r.going_out == "laid":
                in_game.discard(seat)
                finished.append(seat)
            else:
                waiting.add(seat)
        # under going_out=holders the "aktive spillere" are those holding cards
        active = len([q for q in in_game if hands[q]]) if r.going_out == "holders" else len(in_game)
        need = need_start if r.trick_size == "start" else active if r.trick_size == "active" else n
        if len(in_game) > 1 and len(table) >= need:
            # the trick is cleared: its last cards can no longer come back
            for q in sorted(waiting, key=last_entry):
                if len(in_game) > 1:
                    in_game.discard(q)
                    finished.append(q)
            waiting = set()
            table = []
            start = seat
        else:
            start = seat + 1
    if len(in_game) <= 1:
        return ([list(e) for e in table], None, finished, in_game, set())
    holders = [q for q in in_game if hands[q]]
    if r.going_out == "holders" and len(holders) == 1:
        # "Spillet fortsetter til bare én spiller har kort igjen": the waiting players go
        # out in the order they laid their last entries, then the other empty-handed ones
        # clockwise from the holder, who is the Mattis
        gone = sorted(waiting, key=last_entry)
        gone += [(holders[0] + j) % n for j in range(1, n) if (holders[0] + j) % n in in_game - waiting]
        return ([list(e) for e in table], None, finished + gone, {holders[0]}, set())
    to_act = None
    for j in range(n):
        q = (start + j) % n
        if q in in_game and (hands[q] or table):
            to_act = q
            break
    return ([list(e) for e in table], to_act, finished, in_game, waiting)


def fight_winners(r: Rules, laid: list[tuple[int, int]], fight_round: bool) -> list[int]:
    """The seats still contending after a round of phase 1 cards: those with the highest
    rank (war, and every fight round: "den med høyeste kampkort tar alt"), or in a trick's
    first round those with the highest rank laid twice or more (støting)."""
    ranks = [RANK[c] for _, c in laid]
    if r.ties == "stoting" and not fight_round:
        dups = [k for k in set(ranks) if ranks.count(k) >= 2]
        if dups:
            return [s for s, c in laid if RANK[c] == max(dups)]
    top = max(ranks)
    return [s for s, c in laid if RANK[c] == top]


KNOWN: dict[str, tuple[object, ...]] = {
    "tricks": ("pair", "all"), "ties": ("war", "stoting"), "draw": ("after_card", "after_trick"),
    "chance": ("off", "lead", "any"), "trump": ("last_card", "bottom_up", "shown_when_drawn"),
    "phase1_end": ("one_holder", "first_empty", "stock_empty"), "empty_hand": ("pick_up", "loses", "safe"),
    "leader2": ("trump_holder", "last_trick"), "follow": ("free", "void"), "pickup": ("first", "last", "lowest"),
    "pickup_optional": (False, True), "pickup_run": (False, True), "trick_size": ("start", "active", "seated"),
    "going_out": ("laid", "cleared", "holders"), "empty_fighter": ("chance", "drop"),
}
"""The word and boolean options this reference model reads, with the values it knows.  A rule
set with an option value missing here (a new value, or a new option whose rule this model has
not learned) fails every step: the model must learn the rule before it can vouch for the engine."""

IGNORED: frozenset[str] = frozenset({
    "min_players", "max_players", "max_pair_players", "two_player_discard", "next_leader", "leftovers_shown",
    "phase2_cap", "deck_ranks", "deck_suits", "hand_size", "sequences", "name",
})
"""Options the model need not know a value of: table sizes and the deal (a game already dealt),
the sitting, what is shown, the engine's cap, the deck and hand size and the sequences' length
(each read as a number wherever it matters)."""


@functools.lru_cache(maxsize=64)
def check_known(rules: Rules) -> None:
    """Every option value of ``rules`` is one this model knows (see :data:`KNOWN`); once
    per rule set (a game asks at every step)."""
    for f in dataclasses.fields(rules):
        name, value = f.name, getattr(rules, f.name)
        if name in IGNORED:
            continue
        assert name in KNOWN, f"the reference model does not know the option {name}"
        assert value in KNOWN[name], f"the reference model does not know {name}={value}"


def _draw_up(counts: list[int], seat: int, stock: int, r: Rules) -> int:
    """``seat`` draws up to the hand size (``counts``: cards in each hand, changed in place);
    the stock left.  The last stock card is the hidden trump under ``trump=last_card``: it is
    set aside, not taken into the hand ("Trekker du det siste kortet i bunken, skal du ikke ta
    det opp på hånden", Regler for kortspillet Mattis)."""
    while stock and counts[seat] < r.hand_size:
        stock -= 1
        if stock == 0 and r.trump == "last_card":
            break
        counts[seat] += 1
    return stock


def phase1_over(r: Rules, counts: list[int], stock: int, leader: int) -> bool:
    """Whether phase 1 is over at the start of a trick that ``leader`` is to lead, with
    ``counts`` cards in the hands and ``stock`` cards in the stock, from the rule texts:
    ``one_holder``: "Spillet går videre så lenge minst to spillere har kort på hånden"
    (Mattis); ``first_empty``: "Fase 1 slutter i det øyeblikket den som står for tur, ikke
    har noe kort å legge" (Skitgubbe; a forced sjanse is a card to lay where the stock has
    one to take and ``empty_fighter=chance``); ``stock_empty``: when the stock is empty
    (the app), or fewer than two hold cards (no trick can be played)."""
    holders = sum(1 for c in counts if c)
    floor = 2 if r.trump == "last_card" else 1
    if r.phase1_end == "one_holder":
        return holders <= 1
    if r.phase1_end == "first_empty":
        return counts[leader] == 0 and not (stock >= floor and r.empty_fighter == "chance")
    if r.phase1_end == "stock_empty":
        return stock == 0 or holders <= 1
    raise AssertionError(f"the reference model does not know phase1_end={r.phase1_end}")


def check_phase2_start(pre: State, post: State) -> None:
    """Phase 2's start from the rule texts: ``empty_hand`` (``loses``: whoever won no trick
    is Blodmattis and has lost, "Ingen vunne bunker i fase 1 gir tap med en gang", the app;
    ``safe``: whoever holds no card is out, "er du trygg", Skitgubbe; ``pick_up``: she plays
    on, bordmattis), then who leads (``leader2``: the trump card's holder, or the last
    trick's winner), the first player still in clockwise from there who holds cards."""
    r = post.rules
    n = post.n
    order = [(post.dealer + 1 + j) % n for j in range(n)]
    in_game = set(range(n))
    if r.empty_hand == "loses":
        blod = [s for s in order if post.tricks_won[s] == 0]
        assert list(post.blodmattis) == blod, (post.blodmattis, blod)
        in_game -= set(blod)
    elif r.empty_hand == "safe":
        out = [s for s in order if not post.hands[s]]
        assert list(post.finished[:len(out)]) == out, (post.finished, out)
        in_game -= set(out)
    elif r.empty_hand != "pick_up":
        raise AssertionError(f"the reference model does not know empty_hand={r.empty_hand}")
    if post.is_over or len(in_game) <= 1:
        return
    if r.leader2 == "last_trick" and post.last_winner >= 0:
        lead = post.last_winner
    elif r.leader2 in ("trump_holder", "last_trick"):
        lead = post.trump_holder
    else:
        raise AssertionError(f"the reference model does not know leader2={r.leader2}")
    holders = [s for s in in_game if post.hands[s]]
    if r.going_out == "holders" and len(holders) <= 1:
        return  # "til bare én spiller har kort igjen": the game is over at once
    to_act = next(((lead + j) % n for j in range(n) if (lead + j) % n in in_game and post.hands[(lead + j) % n]),
                  None)
    assert post.to_act == to_act, f"phase 2 led by {post.to_act}, not {to_act} ({r.leader2}, {r.empty_hand})"


def check_phase1_step(pre: State, move: Any, post: State) -> None:
    """Phase 1 from the rule texts: who takes a trick and what, the draw, the next lead,
    and when phase 1 ends (decided here, from the hands and the stock after the draw)."""
    r = pre.rules
    n = pre.n
    seat = pre.to_act
    assert seat is not None
    card = pre.stock[-1] if move.kind == "chance" else move.cards[0]
    laid = pre.round_laid + [(seat, card)]
    floor = 2 if r.trump == "last_card" else 1
    stock_after = len(pre.stock) - (move.kind == "chance")
    nobody_draws = stock_after < floor or r.empty_fighter == "drop"
    # the hands' sizes and the stock after this move and the draws it brings
    counts = [h.bit_count() for h in pre.hands]
    stock = stock_after
    if move.kind != "chance":
        counts[seat] -= 1
        if r.draw == "after_card":
            stock = _draw_up(counts, seat, stock, r)
    won = [s for s in range(n) if post.tricks_won[s] != pre.tricks_won[s]]
    if won:
        if r.draw == "after_trick":
            for j in range(n):
                stock = _draw_up(counts, (won[0] + j) % n, stock, r)
        over = phase1_over(r, counts, stock, won[0])
        assert over == (post.phase != pre.phase), (
            f"phase 1 {'should have ended' if over else 'ended too early'} after a trick "
            f"({r.phase1_end}: hands {counts}, stock {stock})")
    elif post.phase == pre.phase and r.phase1_end == "first_empty":
        # the player due to lay holds a card, or may take a forced sjanse
        due = post.to_act
        assert due is not None
        assert post.hands[due] or (len(post.stock) >= floor and r.empty_fighter == "chance"), (
            "phase 1 should have ended: the player due to lay has no card (first_empty)")
    if post.phase != pre.phase:
        check_phase2_start(pre, post)
        if post.tricks_won == pre.tricks_won:
            # an unfinished trick: each takes back the cards she laid
            for s, c in pre.trick + [(seat, card)]:
                assert post.hands[s] >> c & 1, (s, c)
            if r.phase1_end != "first_empty":
                # only a fight that no fighter can continue is left unfinished: the move
                # ended a round (the seats after it cannot lay), and every new fighter is
                # empty-handed with nothing to draw
                rest = pre.round_seats[len(pre.round_laid) + 1:]
                ended_round = all(not pre.hands[s] for s in rest)
                fighters = fight_winners(r, laid, pre.fighting)
                assert ended_round and len(fighters) > 1 and nobody_draws, (laid, pre.round_seats)
                for s in fighters:
                    assert not pre.hands[s] & ~(1 << card if s == seat else 0), s
        return
    gained = [s for s in range(n) if post.piles[s] != pre.piles[s]]
    if not gained:
        assert post.trick == pre.trick + [(seat, card)]
        if move.kind != "chance" and r.draw == "after_card" and post.stock:
            assert post.hands[seat].bit_count() == r.hand_size
        return
    assert len(gained) == 1
    w = gained[0]
    taken = post.piles[w] & ~pre.piles[w]
    assert taken == sum(1 << c for _, c in pre.trick) | 1 << card
    assert post.tricks_won[w] == pre.tricks_won[w] + 1
    contenders = fight_winners(r, laid, pre.fighting)
    assert w in contenders, (laid, w)
    if len(contenders) > 1:
        # a tie was left undecided only because the other fighters could not lay
        assert nobody_draws
    if r.draw == "after_trick" and post.stock:
        assert all(h.bit_count() == r.hand_size for h in post.hands)
    if r.phase1_end == "stock_empty":
        # a new trick begins only while the stock has cards
        assert post.stock
    # the winner leads the next trick (one_holder: the next holder on the left)
    lead = w
    if r.phase1_end != "first_empty":
        while not post.hands[lead]:
            lead = (lead + 1) % n
    assert post.trick_leader == lead and post.to_act == lead


def reference_step(pre: State, move: Move, post: State) -> None:
    """The engine's step from ``pre`` by ``move`` to ``post`` is what the independent
    model of the rule texts says: the legal moves (``reference_legal``), the cards a
    pickup takes (``expected_pickup``), the phase 2 table, turn and players in
    (``reference_phase2_step``), and the phase 1 trick, draw and lead
    (``check_phase1_step``).  Also the step ``mattis.bots.conformance.check_option`` is given."""
    check_known(pre.rules)
    engine, ref = set(pre.legal_moves()), reference_legal(pre)
    assert engine == ref, (f"the legal moves differ: the engine also allows {sorted(map(str, engine - ref))}, "
                           f"the rule text also allows {sorted(map(str, ref - engine))}")
    seat = pre.to_act
    assert seat is not None
    if pre.phase != PHASE2:
        check_phase1_step(pre, move, post)
        return
    if move == PICKUP:
        want = expected_pickup(pre)
        assert post.log is not None
        taken = post.log[3]  # the last history item's cards
        assert sorted(taken) == sorted(want), (pre.rules.pickup, taken, want)
        assert post.hands[seat] == pre.hands[seat] | sum(1 << c for c in want)
    if post.end_reason in (None, "normal"):
        table, to_act, finished, in_game, waiting = reference_phase2_step(pre, move)
        if post.end_reason is None:
            assert [list(e) for _, e in post.table] == table and post.to_act == to_act
            assert {i for i in range(post.n) if post.in_game >> i & 1} == in_game
            assert {i for i in range(post.n) if post.pending >> i & 1} == waiting
        assert post.finished[: len(finished)] == finished


def play_checked(state: State, rng: random.Random, roundtrip: bool = True) -> State:
    """Play random legal moves to the end, checking the invariants after every move."""
    check_accounting(state)
    check_turn(state)
    while not state.is_over:
        check_move_agreement(state, rng)
        assert len(set(state.legal_moves())) == len(state.legal_moves()), "a legal move listed twice"
        move = rng.choice(state.legal_moves())
        pre = state.clone()
        state.apply(move)
        reference_step(pre, move, state)
        check_accounting(state)
        check_turn(state)
    check_end(state)
    if roundtrip:
        check_roundtrip(state)
    return state


def check_roundtrip(state: State) -> None:
    rec = GameRecord.from_state(state)
    text = rec.dumps()
    again = GameRecord.loads(text)
    assert again.dumps() == text
    assert again.replay().snapshot() == state.snapshot()


@pytest.mark.parametrize("name,opts,players", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=GAMES_PER_CONFIG, **SETTINGS)  # type: ignore[arg-type]
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 5))
def test_preset_games(name: str, opts: dict[str, Any], players: int, seed: int, dealer: int) -> None:
    rules = preset(name, **opts)
    state = State.new(rules, players, seed=seed, dealer=dealer % players)
    # the record round trip (a full replay) is checked for one game in four
    play_checked(state, random.Random(seed), roundtrip=seed % 4 == 0)


def rule_sets() -> st.SearchStrategy[Rules]:
    """A preset with any of the option table's house rules changed to any offered value,
    and the phase 2 cap sometimes small."""
    house = {spec.name: st.sampled_from(spec.values) for spec in HOUSE_OPTIONS}
    return st.builds(
        lambda name, d, cap: preset(name, phase2_cap=cap, **d),
        st.sampled_from(["mattis", "hund", "blodmattis", "skitgubbe"]),
        st.fixed_dictionaries({}, optional=house),
        st.sampled_from([10000, 10000, 10000, 40]),
    )


@settings(max_examples=scale(120, 600), **SETTINGS)  # type: ignore[arg-type]
@given(rules=rule_sets(), data=st.data())
def test_random_rule_games(rules: Rules, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(list(rules.allowed_players())), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = State.new(rules, players, seed=seed, dealer=seed % players)
    play_checked(state, random.Random(seed), roundtrip=seed % 3 == 0)


@pytest.mark.parametrize("name,opts,players", CONFIGS, ids=CONFIG_IDS)
def test_seeded_games(name: str, opts: dict[str, Any], players: int) -> None:
    """A plain seeded loop: the same checks, plus the record round trip of every game and
    determinism (the same seed gives the same game)."""
    rules = preset(name, **opts)
    for g in range(scale(8, 50)):
        seed = 1000 * players + g
        state = play_checked(State.new(rules, players, seed=seed), random.Random(seed))
        assert state.is_over
        a = State.new(rules, players, seed=seed)
        b = State.new(rules, players, seed=seed)
        ra, rb = random.Random(g), random.Random(g)
        while not a.is_over:
            a.apply(ra.choice(a.legal_moves()))
            b.apply(rb.choice(b.legal_moves()))
        assert a.snapshot() == b.snapshot() and a.moves() == b.moves()


# ------------------------------------------------------------ observation leaks
def swap_perm(a: int, b: int) -> list[int]:
    p = list(range(52))
    p[a], p[b] = p[b], p[a]
    return p


def check_no_leak(state: State, rng: random.Random) -> int:
    """For every seat: swapping two cards it cannot see leaves its observation alone."""
    done = 0
    for seat in range(state.n):
        hid = hidden_cards(state, seat)
        if len(hid) < 2:
            continue
        a, b = rng.sample(hid, 2)
        other = relabelled(state, swap_perm(a, b))
        check_accounting(other)
        assert other.observation(seat) == state.observation(seat), (seat, a, b)
        done += 1
    return done


LEAK_CONFIGS = CONFIGS + [
    ("hund", {"trump": "bottom_up", "sequences": 2, "pickup": "last"}, 3),
    ("blodmattis", {"trump": "shown_when_drawn", "phase1_end": "stock_empty", "chance": "lead"}, 4),
]


@pytest.mark.parametrize("name,opts,players", LEAK_CONFIGS,
                         ids=[*CONFIG_IDS, "hund-bottom_up-seq-3p", "blodmattis-shown_when_drawn-stock_empty-4p"])
def test_observation_leak(name: str, opts: dict[str, Any], players: int) -> None:
    """12 games per configuration in the slow tier (240 in all; 3 in the fast tier),
    the swap check after every move for every seat."""
    rules = preset(name, **opts)
    swaps = 0
    for g in range(scale(3, 12)):
        seed = 77 * players + g
        rng = random.Random(seed)
        state = State.new(rules, players, seed=seed, dealer=g % players)
        swaps += check_no_leak(state, rng)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            swaps += check_no_leak(state, rng)
    assert swaps > scale(20, 100)


def test_relabelled_is_a_renaming() -> None:
    """The swap must really reach the hidden cards (or the leak test proves nothing):
    swapping cards of two hands changes those seats' own observations."""
    s = State.new(preset("mattis"), 3, seed=5)
    a = s.hand(0)[0]
    b = s.hand(1)[0]
    t = relabelled(s, swap_perm(a, b))
    assert t.hand(0) != s.hand(0) and t.observation(0) != s.observation(0)
    assert t.observation(2) == s.observation(2)
    check_accounting(t)
    # a relabelled game plays on consistently
    rng = random.Random(0)
    while not t.is_over:
        t.apply(rng.choice(t.legal_moves()))
        check_accounting(t)
    assert relabelled(t, list(range(52))).snapshot() == t.snapshot()


def test_observation_shows_what_is_public() -> None:
    """The positive side of the leak check: what a seat may know is there."""
    s = State.new(preset("mattis"), 3, seed=9)
    rng = random.Random(9)
    while s.phase != PHASE2:
        s.apply(rng.choice(s.legal_moves()))
    for seat in range(3):
        obs = s.observation(seat)
        assert obs.hand == tuple(s.hand(seat))
        assert obs.hand_counts == tuple(h.bit_count() for h in s.hands)
        assert obs.trump == s.trump and obs.trump_card == s.trump_card
        assert len(obs.history) == s.n_moves
