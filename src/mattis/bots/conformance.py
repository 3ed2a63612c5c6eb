"""``check_option``: does every part of the engine follow a rule set?

Modelled on OpenSpiel's ``random_sim_test``: seeded random games under ``rules``,
checked move by move, plus the parts that random games do not reach.  Each check
raises :class:`ConformanceError` naming the part that disagrees:

* **moves**: every legal move is accepted by ``State.apply`` (on a clone), no move is
  listed twice, all 52 cards stay accounted for, and an independent reference model
  (``reference``, called with the state before the move, the move and the state after)
  agrees with every step;
* **refusals**: the one judgement (:func:`mattis.core.legal.verify`) passes every legal
  move, and refuses random other moves (cards held or not, runs and broken runs,
  sjanse, a pickup) each with a specific reason, never the generic ``not_legal``,
  that the rules in force support (:func:`refusal_fits`: ``chance_off`` only under
  ``chance=off``, ``must_pick_up`` only where picking up is the one move, ...);
* **solver**: the 2-player solver's own move generator lists the engine's moves along
  random playouts, and on small two-player phase-2 positions the 2-player solver
  (:func:`~mattis.bots.solver.two_player_values`, or the general :class:`Solver` where
  play can cycle) gives every move the value plain minimax over the engine's moves
  gives;
* **determinizer**: a state sampled from a seat's observation shows that seat exactly
  that observation;
* **words**: every option value of ``rules`` has its words in both languages (the
  option's label, each word value's ``val.*`` entry), and the rules in words and how to
  play render in both languages and name each shown option's value.

It lives with the bots, not the core, because it asks the solver; the core's rule
knowledge it checks is reached through the public API only.

>>> from mattis.core import preset
>>> report = check_option(preset("mattis", follow="void"), games=1, positions=3, samples=2)
>>> report.games, report.moves > 50, report.solver_positions
(1, True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..core import CHANCE, OPTIONS, PICKUP, Illegal, Move, Reason, Rules, State, cards_of, mask_of, play, verify
from ..core.cards import RANK, SUIT, Lang
from ..core.catalogue import TEXT
from ..core.determinize import sample_state
from ..core.legal import chance_floor
from ..core.observation import PHASE2
from ..core.testing import all_card_masks
from ..core.text import (
    how_to_play,
    leader2_key,
    option_applies,
    option_label,
    option_value_text,
    rules_in_words,
    say,
)
from .solver import Solver, TwoPlayerSolver, brute_force, two_player_exact, two_player_values

Reference = Callable[[State, Move, State], None]
"""An independent model's check of one step: ``(before, move, after)``; it raises
``AssertionError`` where the engine's step is not what the rule text says."""

LANGS: tuple[Lang, ...] = ("nb", "en")


class ConformanceError(AssertionError):
    """A part of the engine that does not follow the rule set."""


@dataclass(frozen=True, slots=True)
class Conformance:
    """What :func:`check_option` checked (so a caller can assert it checked enough)."""

    games: int
    moves: int
    solver_positions: int
    samples: int


def check_option(rules: Rules, *, games: int = 2, positions: int = 8, samples: int = 6, seed: int = 0,
                 reference: Reference | None = None) -> Conformance:
    """Check every part of the engine under ``rules`` (see the module docstring);
    seeded by ``seed``.  Raises :class:`ConformanceError` at the first disagreement."""
    check_words(rules)
    rng = random.Random(seed)
    moves = 0
    sampled = 0
    allowed = list(rules.allowed_players())
    for g in range(games):
        players = allowed[(seed + g) % len(allowed)]
        state = State.new(rules, players, seed=f"check/{seed}/{g}", dealer=g % players)
        n_samples = 0
        while not state.is_over:
            legal = state.legal_moves()
            if not legal:
                raise ConformanceError(f"moves: seat {state.to_act} has no legal move under {rules}")
            if len(set(legal)) != len(legal):
                raise ConformanceError(f"moves: a legal move listed twice: {[str(m) for m in legal]}")
            for m in legal:
                state.clone().apply(m)
            _check_refusals(state, rng)
            if n_samples < samples and rng.random() < 0.1:
                _check_sample(state, rng)
                n_samples += 1
            move = rng.choice(legal)
            before = state.clone()
            state.apply(move)
            moves += 1
            _check_accounting(state)
            if reference is not None:
                try:
                    reference(before, move, state)
                except AssertionError as e:
                    raise ConformanceError(f"moves: the reference model disagrees after {move} "
                                           f"under {rules.overrides()}: {e}") from e
        sampled += n_samples
    solved = check_solver(rules, positions, seed)
    return Conformance(games, moves, solved, sampled)


def _candidates(state: State, rng: random.Random) -> list[Move]:
    """Moves to put to the judgement: every legal one, and random others (a card held or
    not, a run of two to four cards of one suit, two cards that are not a run, sjanse,
    a pickup)."""
    seat = state.to_act
    assert seat is not None
    deck = cards_of(state.rules.deck_mask())
    held = cards_of(state.hands[seat])
    out = [CHANCE, PICKUP, play(rng.choice(deck))]
    if held:
        out.append(play(rng.choice(held)))
        start = rng.choice(held)
        run = [start + k for k in range(rng.randint(2, 4)) if start % 13 + k < 13]
        if len(run) > 1:
            out.append(play(*run))
    a, b = rng.sample(deck, 2)
    if SUIT[a] != SUIT[b] or abs(RANK[a] - RANK[b]) > 1:
        out.append(play(*sorted((a, b))))
    return out


def refusal_fits(state: State, move: Move, why: Illegal) -> str | None:
    """``None`` if the rules in force support refusing ``move`` in ``state`` for ``why``
    (read from the rule set and the position, not from the engine's code), else what
    does not fit."""
    r = state.rules
    seat = state.to_act
    reason = why.reason
    if state.is_over or seat is None:
        return None if reason is Reason.GAME_OVER else "the game is over"
    hand = state.hands[seat]
    cards = move.cards
    phase1 = state.phase != PHASE2
    not_held = tuple(c for c in cards if not hand >> c & 1)
    stock = len(state.stock)
    floor = 2 if r.trump == "last_card" else 1  # the hidden trump card is never taken
    leading = not state.round_laid or state.fighting
    top = state.table[-1][1] if state.table else None
    led = SUIT[top[0]] if top else -1
    of_led = [c for c in cards_of(hand) if SUIT[c] == led]
    higher = tuple(c for c in of_led if top and RANK[c] > RANK[top[-1]])
    may_trump = (top is not None and led != state.trump and any(SUIT[c] == state.trump for c in cards_of(hand))
                 and (r.follow == "free" or not of_led))
    is_run = bool(cards) and len({SUIT[c] for c in cards}) == 1 and RANK[cards[-1]] - RANK[cards[0]] == len(cards) - 1
    answer = bool(higher or may_trump)  # she holds a card that may answer the top entry
    suit = SUIT[cards[0]] if cards else -1
    low = RANK[cards[0]] if cards else -1
    fits = {
        Reason.NO_PICKUP_IN_PHASE1: phase1 and move == PICKUP,
        Reason.CHANCE_OFF: phase1 and move == CHANCE and r.chance == "off",
        Reason.CHANCE_NO_STOCK: phase1 and move == CHANCE and stock == 0,
        Reason.CHANCE_STOCK: phase1 and move == CHANCE and 0 < stock < floor,
        Reason.CHANCE_NOT_LEADING: phase1 and move == CHANCE and r.chance == "lead" and not leading and hand != 0,
        Reason.ONE_CARD_IN_PHASE1: phase1 and len(cards) > 1,
        Reason.NOT_HELD: bool(cards) and why.cards == not_held != (),
        Reason.NO_CHANCE_IN_PHASE2: not phase1 and move == CHANCE,
        Reason.NOTHING_TO_PICK_UP: not phase1 and move == PICKUP and top is None,
        Reason.MUST_BEAT_NOT_PICK_UP: (not phase1 and move == PICKUP and not r.pickup_optional
                                       and answer),
        Reason.NO_SEQUENCES: not phase1 and len(cards) > 1 and r.sequences == 0,
        Reason.NOT_A_SEQUENCE: not phase1 and len(cards) > 1 and r.sequences > 0 and not is_run,
        Reason.SEQUENCE_TOO_SHORT: not phase1 and 1 < len(cards) < r.sequences and why.number == r.sequences,
        Reason.MUST_FOLLOW_SUIT: (top is not None and r.follow == "void" and bool(of_led) and suit != led
                                  and why.cards == higher != ()),
        Reason.MUST_FOLLOW_SUIT_PICK_UP: (top is not None and r.follow == "void" and bool(of_led)
                                          and suit != led and not higher),
        Reason.MUST_PICK_UP: top is not None and not answer and why.cards == (top[-1],),
        Reason.MUST_BEAT: top is not None and suit == led and low <= RANK[top[-1]] and answer,
        # said only where she can follow with a higher card or trump (else: must pick up)
        Reason.MUST_FOLLOW_OR_TRUMP: top is not None and suit not in (-1, led, state.trump) and answer,
    }
    if reason not in fits:
        return f"the refusal {reason.value} names no rule"
    return None if fits[reason] else f"the refusal {reason.value} is not what the rules say here"


def _check_refusals(state: State, rng: random.Random) -> None:
    """The one judgement agrees with the move generator, and each refusal is specific
    and supported (see the module docstring)."""
    legal = state.legal_moves()
    for m in legal:
        if verify(state, m) is not None:
            raise ConformanceError(f"refusals: {m} is a legal move, but verify refuses it: {verify(state, m)}")
    for m in _candidates(state, rng):
        why = verify(state, m)
        if (why is None) != (m in legal):
            raise ConformanceError(f"refusals: verify {'passes' if why is None else 'refuses'} {m}, "
                                   f"the legal moves are {[str(x) for x in legal]}")
        if why is not None:
            wrong = refusal_fits(state, m, why)
            if wrong is not None:
                raise ConformanceError(f"refusals: {m} refused as {why} under {state.rules.overrides()}: {wrong}")


def check_words(rules: Rules) -> None:
    """Every option value of ``rules`` has its words in both languages, and the rules
    in words and how to play render in both languages, naming each shown value."""
    for spec in OPTIONS:
        value = getattr(rules, spec.name)
        if f"opt.{spec.name}" not in TEXT:
            raise ConformanceError(f"words: no catalogue entry opt.{spec.name}")
        if spec.enum is not None and f"val.{spec.name}.{value}" not in TEXT:
            raise ConformanceError(f"words: no catalogue entry val.{spec.name}.{value}")
    for lang in LANGS:
        try:
            shown = dict(rules_in_words(rules, lang))
            howto = how_to_play(rules, lang)
        except KeyError as e:
            raise ConformanceError(f"words: the rules in words or how to play ({lang}) need {e}") from e
        if not howto or not all(h and p for h, p in howto):
            raise ConformanceError(f"words: how to play ({lang}) has an empty part")
        for spec in OPTIONS:
            if not spec.shown:
                continue
            label = option_label(spec.name, lang)
            if not option_applies(rules, spec.name) and spec.name not in rules.overrides():
                if label in shown:
                    raise ConformanceError(f"words: the rules in words ({lang}) list {spec.name}, which "
                                           "cannot change a game under these rules")
                continue
            if label not in shown:
                raise ConformanceError(f"words: the rules in words ({lang}) leave out {spec.name}")
            said = option_value_text(spec.name, getattr(rules, spec.name), lang)
            if spec.name == "leader2" and leader2_key(rules) == "last_drawer":
                said = say("lead2.last_drawer", lang)
            if spec.name == "chance" and rules.chance != "off":  # when sjanse may be taken, with the stock's floor
                said += ", " + say(f"chance.floor.{chance_floor(rules)}", lang)
            if spec.name != "ties" and shown[label] != said:  # ties: the variant's own fight word
                raise ConformanceError(f"words: {spec.name} said as {shown[label]!r}, not {said!r}")


def check_solver(rules: Rules, positions: int, seed: int = 0) -> int:
    """The 2-player solver against plain minimax on ``positions`` small phase-2
    positions under ``rules``; returns the number of positions compared."""
    for k in range(positions):
        if two_player_exact(rules):
            _check_solver_moves(tiny_position(rules, seed * 1000 + k, 6), random.Random(k))
        s = tiny_position(rules, seed * 1000 + k, 3 if two_player_exact(rules) and not rules.pickup_optional else 2)
        me = s.to_act
        assert me is not None
        if two_player_exact(rules):
            values = two_player_values(s)
        else:
            values = Solver(me).solve(s)[1]
        if set(values) != set(s.legal_moves()):
            raise ConformanceError(f"solver: moves {sorted(map(str, values))} but the engine has "
                                   f"{sorted(map(str, s.legal_moves()))}")
        for move, v in values.items():
            c = s.clone()
            c.apply(move)
            want = brute_force(c, me)
            if v != want:
                raise ConformanceError(f"solver: {move} valued {v}, minimax says {want}, in position {k}")
    return positions


def _check_solver_moves(s: State, rng: random.Random) -> None:
    """Along a random playout from ``s``, the 2-player solver's own move generator
    (its leads, and its answers plus the pickup) lists exactly the engine's moves."""
    while not s.is_over and s.phase == PHASE2 and s.in_game == 3:
        me = s.to_act
        assert me is not None
        sv = TwoPlayerSolver(s.trump, s.rules)
        hand = s.hands[me]
        engine = {mask_of(m.cards) for m in s.legal_moves() if m != PICKUP}
        if s.table:
            mine = set(sv.beats(hand, mask_of(s.table[-1][1])))
            pickup = not mine or s.rules.pickup_optional
            if pickup != (PICKUP in s.legal_moves()):
                raise ConformanceError(f"solver: pickup {'allowed' if pickup else 'refused'} where the engine "
                                       f"{'refuses' if pickup else 'allows'} it")
        else:
            mine = set(sv.leads(hand))
        if mine != engine:
            raise ConformanceError(f"solver: its own moves {sorted(map(cards_of, mine))} but the engine has "
                                   f"{sorted(map(cards_of, engine))} ({'answer' if s.table else 'lead'})")
        s.apply(rng.choice(s.legal_moves()))


def tiny_position(rules: Rules, seed: int, most: int, players: int = 2) -> State:
    """A small phase-2 position: up to ``most`` cards a hand, mostly from two suits
    (so sequences, trumps and follow-suit questions come up often)."""
    rng = random.Random(seed)
    if not rules.full_deck():
        return _short_position(rules, rng, most, players)
    deck = list(range(52))
    rng.shuffle(deck)
    deck = [c for c in deck if c // 13 < 2] + [c for c in deck if c // 13 >= 2]
    hands: list[list[int]] = []
    i = 0
    for _ in range(players):
        k = rng.randint(1, most)
        hands.append(deck[i:i + k])
        i += k
    # trump is one of the two dense suits in three positions of four: trumping comes up often
    trump = rng.randrange(2) if rng.random() < 0.75 else rng.randrange(2, 4)
    return State.from_position(rules, hands, trump=trump, leader=rng.randrange(players))


def _short_position(rules: Rules, rng: random.Random, most: int, players: int) -> State:
    """:func:`tiny_position` on a short deck: the hands from its cards, trump one of its suits."""
    deck = rules.deck()
    rng.shuffle(deck)
    hands: list[list[int]] = []
    i = 0
    for _ in range(players):
        k = rng.randint(1, max(1, min(most, (len(deck) - i) - (players - 1 - len(hands)))))
        hands.append(deck[i:i + k])
        i += k
    return State.from_position(rules, hands, trump=rng.randrange(4 - rules.deck_suits, 4),
                               leader=rng.randrange(players))


def _check_sample(state: State, rng: random.Random) -> None:
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    d = sample_state(obs, rng)
    if d.observation(seat) != obs:
        raise ConformanceError(f"determinizer: a sample for seat {seat} shows another observation "
                               f"(phase {int(state.phase)}, move {state.n_moves})")
    if state.phase == PHASE2 and set(d.legal_moves()) != set(state.legal_moves()):
        raise ConformanceError("determinizer: a sample gives the seat other legal moves")


def _check_accounting(state: State) -> None:
    masks = all_card_masks(state)
    union = 0
    for m in masks:
        union |= m
    deck = state.rules.deck_mask()
    if union != deck or sum(m.bit_count() for m in masks) != deck.bit_count():
        raise ConformanceError("moves: a card lost or doubled")


__all__ = ["Conformance", "ConformanceError", "Reference", "check_option", "check_solver", "check_words",
           "refusal_fits", "tiny_position"]
