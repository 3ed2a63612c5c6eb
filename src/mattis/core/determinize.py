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
other seats were seen to make are there: sequential importance resampling along
the history (a particle filter, resample-move).  Particles start as uniform
worlds; the history's decisions by other seats are taken in order, each
multiplying a particle's weight by the model's chance of the move seen; when
the effective sample size falls under half the particles, they are resampled
(systematic) and each is moved by Metropolis-Hastings steps that exchange two
cards hidden from the seat (a symmetric proposal; accepted with the ratio of
the likelihoods of the decisions taken in so far, and only if the replayed
world shows the seat exactly its observation).  Every world returned is such a
world; a model that gives every particle zero falls back to the uniform deal.

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


def _replay(obs: Observation, deck: list[Card], model: MoveModel | None) -> _Replayed | None:
    """The world dealt by ``deck`` with the history replayed, per history entry the
    log-chance of the move under ``model`` (0 for the seat's own moves and for moves
    without a choice) and the mover's hand then (a mask); ``None`` if the deck does
    not give the observation."""
    me = obs.seat
    s = State.from_deck(obs.rules, obs.players, deck, obs.dealer, obs.first_leader)
    lps: list[float] = []
    held: list[int] = []
    try:
        for seat, move, _cards in obs.history:
            held.append(s.hands[seat])
            lp = 0.0
            if model is not None and seat != me:
                legal = s.legal_moves()
                if len(legal) > 1:
                    p = model(s, seat, move)
                    lp = math.log(p) if p > 0.0 else -math.inf
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


_UNLIKELY = math.log(0.5)
"""A move whose chance is under this in every particle moves the particles."""


def sample_worlds(obs: Observation, rng: random.Random, n: int, model: MoveModel | None = None, *,
                  particles: int = 32, moves: int = 2, rounds: int = 4, max_replays: int = 600,
                  tries: int = 20) -> Worlds:
    """``n`` full states consistent with everything ``obs.seat`` has seen: the one
    function every bot, the review, the hint and the bound ask for worlds.

    ``model=None`` draws them uniformly over the consistent deals (:func:`sample_state`
    each; no particles).  With a model, ``particles`` worlds are filtered along the
    history (the module docstring), ``moves`` Metropolis-Hastings exchanges per
    particle after each resampling (``rounds`` times at most while the move seen is
    unlikely in every particle; once ``max_replays`` histories have been replayed in
    all, the particles are only reweighted and resampled, so a long history costs
    at most that), and ``n`` worlds are drawn from the final
    weights (systematically).  Raises :class:`DeterminizeError` as
    :func:`sample_state` does when no world is found."""
    if n <= 0:
        return Worlds([])
    if model is None:
        return Worlds([sample_state(obs, rng, tries) for _ in range(n)])
    k = max(2, particles)
    decks: list[list[Card]] = []
    states: list[State] = []
    lps: list[list[float]] = []
    helds: list[list[int]] = []
    replays = 0
    for _ in range(k):
        first = sample_state(obs, rng, tries)
        assert first.deck is not None  # sample_state always deals from a deck
        deck = list(first.deck)
        got = _replay(obs, deck, model)
        replays += 1
        if got is None:  # never expected: sample_state's world shows the observation
            raise DeterminizeError("a sampled world does not replay")
        decks.append(deck)
        states.append(got[0])
        lps.append(got[1])
        helds.append(got[2])
    # The cards that may change places: all but the seat's own hand and the trump
    # card shown at the bottom.  Cards shown in play move too: where they lay in the
    # deck says who held them when, which the history does not show.  A swap that
    # contradicts the observation is rejected by the replay.
    movable = obs.rules.deck_mask() & ~obs.hand_mask
    if obs.trump_card is not None:
        movable &= ~BIT[obs.trump_card]
    cards = cards_of(movable)
    steps = [i for i in range(len(obs.history)) if obs.history[i][0] != obs.seat]
    logw = [0.0] * k
    upto = [0.0] * k  # each particle's log-likelihood of the decisions taken in so far
    resamples = accepted = proposed = 0
    for t in steps:
        for i in range(k):
            logw[i] += lps[i][t]
            upto[i] += lps[i][t]
        w = _normalized(logw)
        if w is None:
            return Worlds([sample_state(obs, rng, tries) for _ in range(n)], k, replays, resamples, accepted,
                          proposed, 0.0, True)
        ess = 1.0 / sum(x * x for x in w)
        # Move the particles after a resampling, and also when the move seen is
        # unlikely in every particle (then the weights stay even, but every world is
        # one in which the seat would hardly have made that move).
        stuck = max(lps[i][t] for i in range(k)) < _UNLIKELY
        if ess >= k / 2 and not stuck:
            continue
        resamples += 1
        pick = _systematic(w, k, rng)
        decks = [list(decks[j]) for j in pick]
        states = [states[j] for j in pick]
        lps = [lps[j] for j in pick]
        helds = [helds[j] for j in pick]
        upto = [upto[j] for j in pick]
        logw = [0.0] * k
        if len(cards) < 2 or replays >= max_replays:
            continue
        for _round in range(rounds):
            for i in range(k):
                for _ in range(moves):
                    proposal = _propose(decks[i], cards_of(helds[i][t] & movable), cards, rng)
                    if proposal is None:
                        continue
                    deck = proposal
                    proposed += 1
                    got = _replay(obs, deck, model)
                    replays += 1
                    if got is None:
                        continue
                    new_upto = sum(got[1][:t + 1])
                    diff = new_upto - upto[i]
                    if diff >= 0.0 or (diff > -math.inf and rng.random() < math.exp(diff)):
                        decks[i], states[i], lps[i], helds[i], upto[i] = deck, got[0], got[1], got[2], new_upto
                        accepted += 1
            # Still no world in which the move seen is likely: move on (more rounds).
            if max(lps[i][t] for i in range(k)) >= _UNLIKELY:
                break
    w = _normalized(logw)
    if w is None:
        return Worlds([sample_state(obs, rng, tries) for _ in range(n)], k, replays, resamples, accepted,
                      proposed, 0.0, True)
    ess = 1.0 / sum(x * x for x in w)
    pick = _systematic(w, n, rng) if n > 1 else _systematic(w, 1, rng)
    order = list(range(n))
    rng.shuffle(order)  # systematic picks come sorted by particle: shuffle them
    out = [states[pick[j]].clone() for j in order]
    return Worlds(out, k, replays, resamples, accepted, proposed, ess)
