"""Determinization: a full state consistent with one seat's observation.

:func:`sample_state` deals the cards hidden from a seat (the other hands, the
stock, the face-down trump, the cards set aside) at random, subject to
everything the seat has seen: who dealt and who led the first trick (under
``next_leader=loser`` the last loser, not the dealer's neighbour), its own hand,
every card laid face up and when,
the counts, the trump once shown, and the voids revealed by play in phase 2
(a forced pickup means the player held no card that beats the top entry, under
``follow=void`` no higher card of its suit; a trump under ``follow=void`` means
no card of the led suit), as :func:`mattis.core.legal.revealed_absent` says.
What a mask cannot say (a forced pickup under ``follow=void``: a card of the
suit, or no trump) is left to pass 2, whose checked replay rejects the deal.

It works in two passes.  Pass 1 replays the public history on a trial deck;
whenever the history shows a card that the trial deal put elsewhere, that card
is swapped with a card that was never shown (both are unseen so far, so the
public past is unchanged).  Then every card still unseen is dealt afresh over
the places that hold unseen cards, respecting the voids.  Pass 2 replays the
history on the resulting deck with the ordinary engine, which checks it.

Weighted worlds: :func:`sample_worlds` is the one function every caller asks
for worlds.  Without a model it draws them with :func:`sample_state` (uniform
over the deals consistent with the observation).  With a model of the other
seats (a :data:`MoveModel`: the chance that a seat makes a move, judged from
that seat's view of the world) it weighs each world by how likely the moves the
other seats were seen to make are there, and draws from that posterior by
likelihood tempering (a sequential Monte Carlo sampler).  Particles start as
uniform worlds; in each of a few stages the whole history's likelihood is raised
to a higher power ``beta`` (0 up to 1), the particles are reweighted by the step
and resampled (systematic), and each is moved by Metropolis-Hastings steps that
keep the tempered posterior: at one decision of another seat (half the time one
where the move seen is unlikely in that world, the proposal's asymmetry
corrected), a card in the mover's hand then changes places with another card, or
three cards turn (half the time only among cards never shown, whose exchange
seldom contradicts the history).  A near-deterministic opponent makes the
posterior narrow; tempering lets the particles reach it through worlds that are
not yet quite right, where single exchanges under the full likelihood get stuck.
Every proposal is replayed by the engine and kept only if it shows the seat
exactly its observation, so every world returned is such a world; a model that
gives every particle zero falls back to the uniform deal.

Pure: no I/O; randomness only from the ``rng`` argument.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from .cards import BIT, Card, cards_of, mask_of
from .legal import revealed_absent
from .moves import Move, MoveKind
from .observation import Observation, observe
from .state import IllegalMoveError, State
from .vocabulary import Phase

__all__ = ["DeterminizeError", "MoveModel", "Worlds", "hidden_cards", "relabel_hidden", "sample_state",
           "sample_worlds", "world_likelihood"]

MoveModel = Callable[[State, int, Move], float]
"""A model of the other players: ``model(state, seat, move)`` is the chance that
``seat``, to act in ``state``, makes ``move`` (one of its legal moves, of which it
has more than one).  It must judge from what ``seat`` sees there
(``observe(state, seat)``), never from the hidden cards of others.  The bots
build their models from their own policies (``mattis.bots.beliefs``)."""


class DeterminizeError(ValueError):
    """No full state is consistent with the observation (or it came from a position)."""


class _Trial:
    """Pass 1: a trial deal being replayed, with swaps of unseen cards."""

    def __init__(self, state: State, deck: list[Card]) -> None:
        self.s = state
        self.deck = deck
        self.pos = {c: i for i, c in enumerate(deck)}

    def swap(self, x: Card, y: Card) -> None:
        """Exchange the places of two unseen cards in the trial state and the deck order."""
        if x == y:
            return
        self.s.exchange(x, y)
        px, py = self.pos[x], self.pos[y]
        self.deck[px], self.deck[py] = y, x
        self.pos[x], self.pos[y] = py, px


def _fixed_tail(obs: Observation) -> Card | None:
    """The card known to lie at the bottom of the deck (the trump card), if any."""
    if obs.trump_card is not None:
        return obs.trump_card
    return None


def _pass1(obs: Observation, rng: random.Random) -> tuple[_Trial, set[Card], list[int]]:
    """Replay the public history on a trial deal; return it, the cards shown so
    far, and for each seat the cards its hidden holding cannot contain."""
    rules = obs.rules
    n = obs.players
    deck = rules.deck()
    rng.shuffle(deck)
    tail = _fixed_tail(obs)
    if tail is not None:
        i = deck.index(tail)
        deck[i], deck[-1] = deck[-1], deck[i]
    s = State.from_deck(rules, n, deck, obs.dealer, obs.first_leader)
    trial = _Trial(s, deck)
    shown: set[Card] = set()
    if tail is not None:
        shown.add(tail)
    forbid = [0] * n
    for seat, move, cards in obs.history:
        if s.is_over:
            raise DeterminizeError("the history goes on after the game ended")
        if s.to_act != seat:
            raise DeterminizeError(f"history has seat {seat} acting where seat {s.to_act} should")
        phase = s.phase
        if phase is Phase.COLLECT and move.kind is MoveKind.CHANCE:
            if not s.stock:
                raise DeterminizeError("chance with an empty stock")
            top = s.stock[-1]
            x = cards[0]
            if top != x:
                if x in shown:
                    raise DeterminizeError("a chance card was already seen")
                trial.swap(x, top)
        elif move.kind is MoveKind.PLAY:
            hand = s.hands[seat]
            for x in move.cards:
                if hand & BIT[x]:
                    continue
                if x in shown:
                    raise DeterminizeError(f"card {x} shown twice")
                cand = [c for c in cards_of(s.hands[seat]) if c not in shown and c not in move.cards]
                if phase is not Phase.COLLECT:
                    cand = [c for c in cand if not forbid[seat] & BIT[c]]
                if not cand:
                    raise DeterminizeError("no unseen card to trade for a played card")
                trial.swap(x, rng.choice(cand))
                hand = s.hands[seat]
        if phase is Phase.SHED:
            forbid[seat] |= revealed_absent(move, s.table[-1][1] if s.table else None, s.trump, rules)
        # Hidden cards in this trial deal may make a forced move look optional (or a
        # void look broken); the final deal below respects the voids, pass 2 checks it.
        s.force(move)
        shown.update(cards)
    return trial, shown, forbid


def _unseen_places(s: State, shown: set[Card]) -> list[tuple[Card, int]]:
    """Every card not shown yet, with where it lies: a seat, or -1 elsewhere."""
    out: list[tuple[Card, int]] = []
    for seat, h in enumerate(s.hands):
        for c in cards_of(h):
            if c not in shown:
                out.append((c, seat))
    rest = mask_of(s.stock) | s.aside
    if s.phase is Phase.COLLECT and s.trump_card >= 0:
        rest |= BIT[s.trump_card]
    for c in cards_of(rest):
        if c not in shown:
            out.append((c, -1))
    return out


def sample_state(obs: Observation, rng: random.Random, tries: int = 20) -> State:
    """A full state consistent with everything ``obs.seat`` has seen.

    Raises :class:`DeterminizeError` if the game began from a position (no deck
    to sample) or no consistent state is found.
    """
    if not obs.history and obs.phase is not Phase.COLLECT:
        raise DeterminizeError("cannot sample a game that started from a position")
    last: Exception | None = None
    for _ in range(tries):
        try:
            return _sample_once(obs, rng)
        except (DeterminizeError, IllegalMoveError) as e:
            last = e
    raise DeterminizeError(f"no consistent state found: {last}")


def _sample_once(obs: Observation, rng: random.Random) -> State:
    trial, shown, forbid = _pass1(obs, rng)
    s = trial.s
    me = obs.seat
    places = _unseen_places(s, shown)
    # Cards the seat knows the place of: its own hand, and cards publicly known
    # to be in a hand (e.g. leftovers shown at the end of phase 1).
    fixed: list[list[Card]] = [[] for _ in range(obs.players)]
    fixed_set: set[Card] = set()
    for seat in range(obs.players):
        src = set(obs.known[seat]) | (set(obs.hand) if seat == me else set())
        fixed[seat] = [c for c in sorted(src) if c not in shown]
        fixed_set.update(fixed[seat])
    cards = [c for c, _ in places]
    slots = [p for _, p in places]
    for seat in range(obs.players):
        if len(fixed[seat]) > sum(1 for p in slots if p == seat):
            raise DeterminizeError("known cards do not fit the replayed hand")
    pool = [c for c in cards if c not in fixed_set]
    rng.shuffle(pool)
    assign: dict[int, Card] = {}
    free: list[int] = []
    for seat in range(obs.players):
        idx = [i for i, p in enumerate(slots) if p == seat]
        for i, c in zip(idx, fixed[seat], strict=False):
            assign[i] = c
        free.extend(idx[len(fixed[seat]):])
    free.extend(i for i, p in enumerate(slots) if p < 0)
    # Deal the rest over the free places: the most constrained seats first.
    free.sort(key=lambda i: -forbid[slots[i]].bit_count() if slots[i] >= 0 else 1)
    for i in free:
        p = slots[i]
        bad = forbid[p] if p >= 0 else 0
        if bad:
            ok = [k for k, c in enumerate(pool) if not bad & BIT[c]]
            if not ok:
                raise DeterminizeError("the voids cannot be satisfied")
            k = rng.choice(ok)
        else:
            k = len(pool) - 1
        assign[i] = pool[k]
        pool[k] = pool[-1]
        pool.pop()
    mapping = {cards[i]: assign[i] for i in range(len(cards))}
    deck = [mapping.get(c, c) for c in trial.deck]
    out = State.from_deck(obs.rules, obs.players, deck, obs.dealer, obs.first_leader)
    for _seat, move, _cards in obs.history:
        out.apply(move)
    return out


def relabel_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` whose cards hidden from ``seat`` are dealt afresh (for
    information-boundary tests): the seat's observation is unchanged."""
    return sample_state(state.observation(seat), rng)


def hidden_cards(obs: Observation) -> int:
    """A mask of the cards whose place ``obs.seat`` does not know."""
    seen = mask_of(obs.hand)
    for _seat, _move, cards in obs.history:
        seen |= mask_of(cards)
    if obs.trump_card is not None:
        seen |= BIT[obs.trump_card]
    return obs.rules.deck_mask() & ~seen


# ------------------------------------------------------------------ weighted worlds


class Worlds:
    """Worlds drawn by :func:`sample_worlds` with what the draw cost and how it went:
    ``states`` (the worlds), ``particles`` (the filter's size; 0 when uniform),
    ``replays`` (histories replayed: the cost), ``resamples`` (times the particles
    were resampled), ``accepted`` and ``proposed`` (Metropolis-Hastings moves),
    ``ess`` (the effective sample size of the final weights) and ``fallback``
    (``True`` when the model gave every particle zero and the worlds are uniform)."""

    __slots__ = ("states", "particles", "replays", "resamples", "accepted", "proposed", "ess", "fallback")

    def __init__(self, states: list[State], particles: int = 0, replays: int = 0, resamples: int = 0,
                 accepted: int = 0, proposed: int = 0, ess: float = 0.0, fallback: bool = False) -> None:
        self.states = states
        self.particles = particles
        self.replays = replays
        self.resamples = resamples
        self.accepted = accepted
        self.proposed = proposed
        self.ess = ess
        self.fallback = fallback


_Replayed = tuple[State, list[float], list[int]]


def _replay(obs: Observation, deck: list[Card], model: MoveModel | None,
            floor: float = -math.inf) -> _Replayed | None:
    """The world dealt by ``deck`` with the history replayed, per history entry the
    log-chance of the move under ``model`` (0 for the seat's own moves and for moves
    without a choice) and the mover's hand then (a mask); ``None`` if the deck does
    not give the observation, or if the log-chances' sum falls under ``floor`` (the
    replay is then cut short)."""
    me = obs.seat
    s = State.from_deck(obs.rules, obs.players, deck, obs.dealer, obs.first_leader)
    lps: list[float] = []
    held: list[int] = []
    acc = 0.0
    try:
        for seat, move, _cards in obs.history:
            held.append(s.hands[seat])
            lp = 0.0
            if model is not None and seat != me:
                legal = s.legal_moves()
                if len(legal) > 1:
                    p = model(s, seat, move)
                    lp = math.log(p) if p > 0.0 else -math.inf
                    acc += lp
                    if acc < floor:
                        return None
            lps.append(lp)
            s.apply(move)
    except IllegalMoveError:
        return None
    if observe(s, me) != obs:
        return None
    return s, lps, held


def world_likelihood(obs: Observation, state: State, model: MoveModel) -> float:
    """The log-chance, under ``model``, of the moves the other seats made in ``obs``'s
    history if the deal were ``state``'s (``-inf`` if the deal does not give the
    observation): the weight :func:`sample_worlds` gives that world."""
    if state.deck is None:
        raise DeterminizeError("the world has no deck")
    got = _replay(obs, list(state.deck), model)
    return -math.inf if got is None else sum(got[1])


def _systematic(weights: Sequence[float], k: int, rng: random.Random) -> list[int]:
    """``k`` indices drawn by systematic resampling from normalized ``weights``."""
    out: list[int] = []
    u = rng.random() / k
    acc = weights[0]
    i = 0
    for j in range(k):
        t = u + j / k
        while t > acc and i < len(weights) - 1:
            i += 1
            acc += weights[i]
        out.append(i)
    return out


def _normalized(logw: Sequence[float]) -> list[float] | None:
    top = max(logw)
    if top == -math.inf:
        return None
    w = [math.exp(x - top) for x in logw]
    total = sum(w)
    return [x / total for x in w]


def _propose(deck: list[Card], at_t: list[Card], cards: list[Card], rng: random.Random) -> list[Card] | None:
    """A new deck for a Metropolis-Hastings move (``None``: a proposal that changes
    nothing).  ``x`` is a movable card in the mover's hand at the decision (``at_t``)
    and ``y``, ``z`` other movable cards: half the time ``x`` and ``y`` change places,
    half the time the three turn (``x`` to ``y``'s place, ``y`` to ``z``'s, ``z`` to
    ``x``'s), since a card shown later often has only a few places it can come from.
    Both keep how many movable cards that hand holds, and the reverse of either is
    proposed as often from the new deck: the proposal is symmetric."""
    if len(cards) < 3:
        return None
    x = rng.choice(at_t) if at_t else rng.choice(cards)
    y = rng.choice(cards)
    z = rng.choice(cards)
    if y == x:
        return None
    out = list(deck)
    px, py = out.index(x), out.index(y)
    if rng.random() < 0.5 or z == x or z == y:
        out[px], out[py] = y, x
        return out
    pz = out.index(z)
    out[py], out[pz], out[px] = x, y, z
    return out


def _propose_hand(deck: list[Card], at_t: list[Card], hidden: list[Card], rng: random.Random) -> list[Card] | None:
    """A new deck in which every card of ``at_t`` (the never-shown cards of the mover's
    hand at the decision) changes places with its own card drawn from the other
    never-shown ones (``hidden``): the hand's hidden part dealt afresh at once, for a
    move seen that says something of several cards together (a sjanse because every
    card was worth keeping).  The reverse is proposed as often: symmetric."""
    others = [c for c in hidden if c not in at_t]
    if not at_t or len(others) < len(at_t):
        return None
    out = list(deck)
    pos = {c: i for i, c in enumerate(out)}
    for x, y in zip(at_t, rng.sample(others, len(at_t)), strict=True):
        out[pos[x]], out[pos[y]] = y, x
    return out


def _could_play(deck: list[Card], proposal: list[Card], first_play: dict[Card, int], held: list[int],
                mover: list[int]) -> bool:
    """Whether every card that ``proposal`` moves and the history shows played goes to
    a place in the deck that the player had been dealt by that play: where lay, in the
    world dealt by ``deck``, a card the player held at one of its moves up to then
    (``held``: the mover's hand at each history entry; ``mover``: who moved).  A hand
    loses cards only by its owner's moves, so a card dealt to it shows in ``held`` at
    the owner's next move: a proposal that fails this cannot show the observation, and
    is turned down without a replay (the check never turns down one that could)."""
    for i, c in enumerate(proposal):
        if c == deck[i] or c not in first_play:
            continue
        t = first_play[c]
        a = mover[t]
        old = BIT[deck[i]]
        if not any(held[u] & old for u in range(t + 1) if mover[u] == a):
            return False
    return True


def _pick_chance(t: int, bad: list[int], steps: list[int]) -> float:
    """The chance that decision ``t`` is the one chosen to move at: half the time one of
    the ``bad`` ones (where the move seen is unlikely), else any of ``steps``."""
    if not bad:
        return 1.0 / len(steps)
    return 0.5 / len(steps) + (0.5 / len(bad) if t in bad else 0.0)


_POWER = 2.0
"""The tempering schedule: at stage ``j`` of ``J`` the likelihood's power is ``(j / J) ** _POWER``."""

_TRIES = 8
"""How many proposals a particle may try per replay it is given (the rest turned down unreplayed)."""

_WHOLE_HAND = 1 / 3
"""The share of moves that deal the hidden part of the mover's hand afresh."""

_AMONG_UNSEEN = 1 / 3
"""The share of moves that exchange two or three cards never shown (the rest may move any card)."""

_UNLIKELY = math.log(0.5)
"""A move seen whose chance in a world is under this is unlikely there: half of the
Metropolis-Hastings moves of that world are made at such a decision."""


def sample_worlds(obs: Observation, rng: random.Random, n: int, model: MoveModel | None = None, *,
                  particles: int = 32, stages: int = 10, moves: int = 4, max_replays: int = 2000,
                  tries: int = 20) -> Worlds:
    """``n`` full states consistent with everything ``obs.seat`` has seen: the one
    function every bot, the review, the hint and the bound ask for worlds.

    ``model=None`` draws them uniformly over the consistent deals (:func:`sample_state`
    each; no particles).  With a model, ``particles`` worlds are tempered towards the
    posterior (the module docstring) in ``stages`` stages with ``moves``
    Metropolis-Hastings moves per particle each; at most ``max_replays`` histories are
    replayed in all (the cost: where the stages and moves would need more, fewer moves
    are spread over as many stages as they reach, and with none left the particles are
    only reweighted), and ``n`` worlds are drawn from the final particles.  Raises
    :class:`DeterminizeError` as :func:`sample_state` does when no world is found."""
    if n <= 0:
        return Worlds([])
    if model is None:
        return Worlds([sample_state(obs, rng, tries) for _ in range(n)])
    k = max(2, particles)
    decks: list[list[Card]] = []
    states: list[State] = []
    lps: list[list[float]] = []
    helds: list[list[int]] = []
    for _ in range(k):
        first = sample_state(obs, rng, tries)
        assert first.deck is not None  # sample_state always deals from a deck
        deck = list(first.deck)
        got = _replay(obs, deck, model)
        if got is None:  # never expected: sample_state's world shows the observation
            raise DeterminizeError("a sampled world does not replay")
        decks.append(deck)
        states.append(got[0])
        lps.append(got[1])
        helds.append(got[2])
    replays = k
    # The cards that may change places: all but the seat's own hand and the trump card
    # shown at the bottom.  Cards shown in play move too: where they lay in the deck
    # says who held them when, which the history does not show.  A move that
    # contradicts the observation is rejected by the replay.
    movable = obs.rules.deck_mask() & ~obs.hand_mask
    if obs.trump_card is not None:
        movable &= ~BIT[obs.trump_card]
    cards = cards_of(movable)
    unseen = hidden_cards(obs) & movable  # never shown: exchanging two seldom contradicts the history
    hidden = cards_of(unseen)
    steps = [i for i in range(len(obs.history)) if obs.history[i][0] != obs.seat]
    first_play: dict[Card, int] = {}  # where each card the history shows played was played first
    mover = [seat for seat, _move, _cards in obs.history]
    for i, (_seat, move, _cards) in enumerate(obs.history):
        if move.kind is MoveKind.PLAY:
            for c in move.cards:
                first_play.setdefault(c, i)
    # How many moves each particle gets, spread over how many stages.
    each = stages * moves if steps and len(cards) >= 3 else 0
    each = max(0, min(each, (max_replays - replays) // k))
    stages = max(1, min(stages, each)) if each else 1
    total = [sum(x) for x in lps]
    beta = 0.0
    resamples = accepted = proposed = 0
    logw: list[float] = []
    for stage in range(stages):
        nb = ((stage + 1) / stages) ** _POWER
        logw = [(nb - beta) * x if x > -math.inf else -math.inf for x in total]
        beta = nb
        quota = each // stages + (1 if stage < each % stages else 0)
        if not quota:
            continue  # no moves at this stage: the weights carry over to the next
        w = _normalized(logw)
        if w is None:
            return Worlds([sample_state(obs, rng, tries) for _ in range(n)], k, replays, resamples, accepted,
                          proposed, 0.0, True)
        pick = _systematic(w, k, rng)
        resamples += 1
        decks = [list(decks[j]) for j in pick]
        states = [states[j] for j in pick]
        lps = [lps[j] for j in pick]
        helds = [helds[j] for j in pick]
        total = [total[j] for j in pick]
        logw = [0.0] * k
        bound = math.log(1 + len(steps))  # the most the choice of the decision can favour a move
        # Each particle moves until it has replayed ``quota`` proposals (those that the
        # cheap check turns down cost no replay: more of them are tried, at most
        # ``_TRIES`` times the quota).
        for i in range(k):
            spent = attempts = 0
            while spent < quota and attempts < _TRIES * quota:
                attempts += 1
                bad = [t for t in steps if lps[i][t] < _UNLIKELY]
                t = rng.choice(bad) if bad and rng.random() < 0.5 else rng.choice(steps)
                kind = rng.random()
                if kind < _WHOLE_HAND:
                    proposal = _propose_hand(decks[i], cards_of(helds[i][t] & unseen), hidden, rng)
                elif kind < _WHOLE_HAND + _AMONG_UNSEEN:
                    proposal = _propose(decks[i], cards_of(helds[i][t] & unseen), hidden, rng)
                else:
                    proposal = _propose(decks[i], cards_of(helds[i][t] & movable), cards, rng)
                if proposal is None or not _could_play(decks[i], proposal, first_play, helds[i], mover):
                    continue
                proposed += 1
                spent += 1
                # Accepted if beta * (new - old) + log(q ratio) >= log(u): a replay whose
                # likelihood falls under what even the best q ratio could make up is
                # stopped there.
                log_u = math.log(1.0 - rng.random())
                got = _replay(obs, proposal, model, total[i] + (log_u - bound) / beta)
                replays += 1
                if got is None:
                    continue
                new_total = sum(got[1])
                new_bad = [u for u in steps if got[1][u] < _UNLIKELY]
                diff = beta * (new_total - total[i])
                diff += math.log(_pick_chance(t, new_bad, steps) / _pick_chance(t, bad, steps))
                if diff >= log_u:
                    decks[i], states[i], lps[i], helds[i], total[i] = proposal, got[0], got[1], got[2], new_total
                    accepted += 1
    w = _normalized(logw)
    if w is None:
        return Worlds([sample_state(obs, rng, tries) for _ in range(n)], k, replays, resamples, accepted,
                      proposed, 0.0, True)
    ess = 1.0 / sum(x * x for x in w)
    pick = _systematic(w, n, rng)
    order = list(range(n))
    rng.shuffle(order)  # systematic picks come sorted by particle: shuffle them
    out = [states[pick[j]].clone() for j in order]
    return Worlds(out, k, replays, resamples, accepted, proposed, ess)
